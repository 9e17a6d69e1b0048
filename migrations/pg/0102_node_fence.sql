-- Several nodes: a node writes the hands of its own open tables only (server/cluster/).
--
-- A node that stalled (stopped, swapped out, cut off) past its tables' leases may find on waking
-- that another node took them over and plays them on. Until its next heartbeat tells it so and it
-- lets them go, its writes to them are refused here: a hand is played by one node, never two.
-- A connection that names no node (one server alone, `teahouse admin`) is never refused, nor are
-- closed tables (the adjustments' book) or a takeover itself (which changes the owner).
CREATE FUNCTION teahouse_fence(table_id bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    me text := nullif(current_setting('teahouse.node', true), '');
    owner text;
BEGIN
    IF me IS NULL OR table_id IS NULL THEN
        RETURN;
    END IF;
    SELECT owner_node INTO owner FROM game_tables WHERE id = table_id AND state <> 'closed';
    IF owner IS NOT NULL AND owner <> me THEN
        RAISE EXCEPTION 'table % is played by node %, not by this node (%)', table_id, owner, me
            USING ERRCODE = 'TH001';
    END IF;
END $$;

CREATE FUNCTION teahouse_fence_hand() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM teahouse_fence(NEW.table_id);
    RETURN NEW;
END $$;

CREATE FUNCTION teahouse_fence_action() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM teahouse_fence((SELECT table_id FROM hands WHERE id = NEW.hand_id));
    RETURN NEW;
END $$;

CREATE FUNCTION teahouse_fence_table() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.owner_node IS NOT DISTINCT FROM OLD.owner_node THEN
        PERFORM teahouse_fence(OLD.id);
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER hands_fence BEFORE INSERT OR UPDATE ON hands FOR EACH ROW EXECUTE FUNCTION teahouse_fence_hand();
CREATE TRIGGER hand_actions_fence BEFORE INSERT ON hand_actions FOR EACH ROW EXECUTE FUNCTION teahouse_fence_action();
CREATE TRIGGER game_tables_fence BEFORE UPDATE ON game_tables FOR EACH ROW EXECUTE FUNCTION teahouse_fence_table();
