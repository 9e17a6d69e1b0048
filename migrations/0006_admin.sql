-- 0006_admin — the admin web API's own sessions and its audit log (server/admin/admin.h).
--
-- An admin session is opened by a login of an account whose is_admin is set; like a player's
-- session it is kept as the hash of its token (which only the admin's browser holds, in a
-- cookie), with the anti-forgery token every POST must echo in a header. It lasts hours, not
-- days, and dies with the account's admin flag (the lookup joins players).
CREATE TABLE admin_sessions (
    token_hash BLOB PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    csrf_token TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX admin_sessions_by_expiry ON admin_sessions (expires_at);

-- What admins did (logged in, exported the ledger, logged out), newest last; details is a JSON
-- object. Rows are never changed nor deleted.
CREATE TABLE admin_audit (
    id        INTEGER PRIMARY KEY,
    at        INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    action    TEXT NOT NULL,
    details   TEXT NOT NULL CHECK (json_valid(details))
);
CREATE TRIGGER admin_audit_is_append_only_update BEFORE UPDATE ON admin_audit
BEGIN
    SELECT RAISE(ABORT, 'the admin audit log is append-only');
END;
CREATE TRIGGER admin_audit_is_append_only_delete BEFORE DELETE ON admin_audit
BEGIN
    SELECT RAISE(ABORT, 'the admin audit log is append-only');
END;
