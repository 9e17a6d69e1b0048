#!/bin/sh
# cluster_figures — the figures of deploy/OPERATIONS.md, "Several nodes: measured": three nodes
# on one PostgreSQL (scripts/cluster.sh) holding many idle WebSocket connections, then playing
# many tables, beside one node on SQLite; and what the heartbeat costs the database as nodes are
# added. Heavy (a few minutes, every core): not part of ./test.sh.
#
#   meson setup build-l --buildtype=release && ninja -C build-l server/teahouse tests/load/teahouse-load
#   tests/load/cluster_figures.sh [BUILD_DIR]        # default build-l
#
# Steps, each printed with the load average beside it (the machine may be shared):
#   1. hold: CONNECTIONS idle connections (default 50000), a third to each node, straight to the
#      nodes' ports (not through nginx), each third by one `teahouse-load hold --procs 2` (a client
#      process, like a node, has a 20,000-file limit); all three at once. Per node: held, RSS
#      before and holding, KiB per connection, open files; PostgreSQL connections per node.
#   3. play: TABLES tables (default 2000), three `teahouse-load play` at once, one to each node,
#      at THINK_MS (default 1000) for PLAY_SECONDS (default 30): act -> every seat p50/p99 per
#      node, hands and acts per second; PostgreSQL connections per node while playing; the
#      cluster's statements (calls, mean and max time, rows) from pg_stat_statements; lock waits
#      and deadlocks from PostgreSQL's log; failed heartbeats and paused tables from the nodes'.
#   2. the heartbeat at scale: in one transaction that is rolled back, N-1 made-up nodes of 700
#      open tables each (N = 10 and 100), then what node n1's heartbeat reads of the other nodes
#      (their listings, or before nodes had listings the directory of their open tables), a
#      heartbeat and the takeover search: time, rows, bytes, WAL.
#   4. the same TABLES on one node, three generators at it: a node of its own on SQLite (the
#      default store, the same flags), then node n1 of the cluster alone (PostgreSQL).
#   5. hands settled per second at a fast pace (FAST_TABLES tables, default 600, --think-ms 100;
#      faster trips a connection's rate limit): one SQLite node, n1 alone, the three nodes.
# Knobs (environment): CONNECTIONS, TABLES, THINK_MS, PLAY_SECONDS, FAST_TABLES, STEPS (default
# "1 3 2 4 5": step 2 copies a played table's row), ID_GAP (default 0; 1 restarts n2 and n3 in
# id ranges of their own, as was needed before nodes gave ids of their own slots), OUT (the reports' directory, default a new /tmp/teahouse-figures-XXXXXX:
# the generators' reports, PostgreSQL's and the nodes' logs), and scripts/cluster.sh's
# (TEAHOUSE_CLUSTER_DIR, default /tmp/teahouse-figures-cluster; its ports default to
# 18081..18083, 19091..19093 and 18480 here so as not to meet a cluster already up; a SQLite node
# takes 18090). Everything started is stopped at the end, whatever happens.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-l}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
bin=$build/server/teahouse
load=$build/tests/load/teahouse-load
if [ ! -x "$bin" ] || [ ! -x "$load" ]; then
    echo "cluster_figures: build $bin and $load first (release)" >&2
    exit 2
fi

connections=${CONNECTIONS:-50000}
tables=${TABLES:-2000}
think=${THINK_MS:-1000}
seconds=${PLAY_SECONDS:-30}
fast_tables=${FAST_TABLES:-600}
steps=${STEPS:-1 3 2 4 5}
out=${OUT:-$(mktemp -d /tmp/teahouse-figures-XXXXXX)}
mkdir -p "$out"

export TEAHOUSE_CLUSTER_DIR="${TEAHOUSE_CLUSTER_DIR:-/tmp/teahouse-figures-cluster}"
export TEAHOUSE_CLUSTER_PORT="${TEAHOUSE_CLUSTER_PORT:-18480}"
export TEAHOUSE_CLUSTER_BASE_PORT="${TEAHOUSE_CLUSTER_BASE_PORT:-18080}"
export TEAHOUSE_CLUSTER_METRICS_BASE_PORT="${TEAHOUSE_CLUSTER_METRICS_BASE_PORT:-19090}"
# A load comes from one address: no per-address caps; people, not bots, take every turn; the
# next hand starts when the seats are ready; pings every 10 s so held connections show they live;
# a table nobody is at closes 5 s after (so step 2 starts from no open table).
export TEAHOUSE_CLUSTER_NODE_ARGS="${TEAHOUSE_CLUSTER_NODE_ARGS:---max-connections-per-address 0 --new-guests-per-minute 0 --turn-seconds 300 --next-hand-seconds 60 --max-tables $((tables + 200)) --ping-seconds 10 --empty-table-seconds 5}"
export TEAHOUSE_CLUSTER_PG_OPTIONS="${TEAHOUSE_CLUSTER_PG_OPTIONS:--c shared_preload_libraries=pg_stat_statements -c shared_buffers=128MB -c log_lock_waits=on}"
dir=$TEAHOUSE_CLUSTER_DIR
base=$TEAHOUSE_CLUSTER_BASE_PORT
db="postgresql:///teahouse?host=$dir&user=teahouse"

children=""
cleanup() {
    for p in $children; do kill "$p" 2>/dev/null; done
    cp "$dir/postgresql.log" "$dir"/n?.log "$out/" 2>/dev/null # kept: the cluster's directory goes
    "$root/scripts/cluster.sh" stop
}
trap cleanup EXIT
trap 'exit 130' INT TERM

loadavg() { echo "[load average $(cut -d' ' -f1-3 /proc/loadavg)]"; }
say() { printf '%s %s\n' "$*" "$(loadavg)"; }
sql() { psql "$db" -XAtq -F ' ' "$@"; }
node_pid() { cat "$dir/$1.pid"; }
rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
fds() { ls "/proc/$1/fd" | wc -l; }
field() { # report-file label: the text after the label
    grep -m1 "^  $2 " "$1" | sed "s/^  $2 *//"
}
connections_by_node() {
    sql -c "SELECT coalesce(nullif(application_name, ''), '?') || ':' || count(*) FROM pg_stat_activity
            WHERE datname = 'teahouse' AND application_name <> 'psql' GROUP BY application_name ORDER BY 1" | tr '\n' ' '
}

# Before nodes gave ids of their own slots (0101_node_listing_and_slot.sql), nodes started
# together gave the same ids; ID_GAP=1 restarts n2 and n3 after a stored player of id 1e9 and
# 2e9, so that the three count in ranges of their own, for comparing with such a run.
set_id_ranges() {
    for i in 2 3; do
        pid=$(node_pid n$i)
        cp "/proc/$pid/cmdline" "$out/n$i.cmdline"
        kill "$pid"
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        now="(extract(epoch FROM now()) * 1000)::bigint"
        sql -c "INSERT INTO players (id, kind, nickname, created_at, last_seen_at)
                VALUES ($((i - 1))000000000, 'guest', 'id-range-n$i', $now, $now)" || exit 1
        : >"$dir/n$i.log"
        # shellcheck disable=SC2016 # $$ and $@ are the inner shell's
        xargs -0 sh -c 'echo $$ >"$0"; exec "$@"' "$dir/n$i.pid" <"$out/n$i.cmdline" >>"$dir/n$i.log" 2>&1 &
        for _ in $(seq 1 100); do grep -q "listening on" "$dir/n$i.log" && break; sleep 0.1; done
        grep -q "listening on" "$dir/n$i.log" || { echo "cluster_figures: n$i did not start again" >&2; exit 1; }
    done
}

start_cluster() {
    "$root/scripts/cluster.sh" start "$bin" >"$out/cluster.txt" || { cat "$out/cluster.txt" >&2; exit 1; }
    sql -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" || exit 1
    if [ "${ID_GAP:-0}" = 1 ]; then
        set_id_ranges
        echo "player ids: n2 and n3 restarted to count from 1e9 and 2e9 (ID_GAP=1)"
    fi
    has_listing=$(sql -c "SELECT count(*) FROM information_schema.columns WHERE table_name = 'nodes' AND column_name = 'listing'")
    say "cluster up: n1 n2 n3 on 127.0.0.1:$((base + 1))..$((base + 3)); PostgreSQL connections by node: $(connections_by_node)"
}

# ---- 1. idle connections held --------------------------------------------------------------
step_hold() {
    echo
    say "== 1. $connections idle WebSocket connections over three nodes"
    per=$((connections / 3))
    pids=""
    for i in 1 2 3; do
        n=$per
        [ "$i" -le $((connections % 3)) ] && n=$((n + 1))
        pid=$(node_pid n$i)
        echo "n$i: $load hold --connect 127.0.0.1:$((base + i)) --pid $pid --connections $n --procs 2 --hold-seconds 30" \
            >"$out/hold-n$i.cmd"
        "$load" hold --connect 127.0.0.1:$((base + i)) --pid "$pid" --connections "$n" --procs 2 --hold-seconds 30 \
            >"$out/hold-n$i.txt" 2>&1 &
        pids="$pids $!"
    done
    children="$children $pids"
    sleep 25 # they connect in a few seconds, then hold 30 s: look while they hold
    say "   while holding: node open files n1 $(fds "$(node_pid n1)") n2 $(fds "$(node_pid n2)") n3 $(fds "$(node_pid n3)");" \
        "PostgreSQL connections by node: $(connections_by_node)"
    for p in $pids; do wait "$p"; done
    total=0
    for i in 1 2 3; do
        f=$out/hold-n$i.txt
        held=$(field "$f" "connections held" | sed 's/.*; \([0-9]*\) still held.*/\1/')
        case $held in '' | *[!0-9]*) held=0 ;; esac
        total=$((total + held))
        echo "   n$i: $(sed 's/^n[0-9]: //' "$out/hold-n$i.cmd")"
        echo "       held: $(field "$f" "connections held"); RSS: $(field "$f" "server RSS");" \
            "per connection: $(field "$f" "server RSS per connection"); pings: $(field "$f" "server pings")"
    done
    say "   held in all: $total of $connections"
}

# ---- 2. the heartbeat's statements with many nodes ------------------------------------------
scale_probe() { # N nodes in all
    n=$1
    fake=$((n - 1))
    {
        echo "BEGIN;"
        echo "INSERT INTO nodes (id, address, slot, lease_until) SELECT 'f' || g, '/n/f' || g || '/ws', 100 + g,"
        echo "  now() + interval '10 s' FROM generate_series(1, $fake) AS g;"
        # 700 open tables a made-up node, each a copy of a real table's row where there is one
        echo "INSERT INTO game_tables (game, options, code, is_public, seats, state, created_at, updated_at,"
        echo "    game_state, owner_node)"
        echo "  SELECT coalesce(t.game, 'tiengow'), coalesce(t.options, '{}'), 'z' || g, false, coalesce(t.seats, '[]'),"
        echo "    'playing', 0, 0, coalesce(t.game_state, '{}'), 'f' || (1 + g % $fake)"
        echo "  FROM generate_series(1, $((fake * 700))) AS g"
        echo "  LEFT JOIN (SELECT * FROM game_tables ORDER BY id DESC LIMIT 1) AS t ON true;"
        if [ "$has_listing" = 1 ]; then # each made-up node lists its 700 tables as public ones
            echo "UPDATE nodes SET listing = (SELECT '[' || string_agg(format("
            echo "  '{\"code\":\"%s\",\"serial\":%s,\"public\":true,\"game\":\"tiengow\",\"state\":\"playing\",\"free\":0,'"
            echo "  '\"locked\":false,\"host\":\"%s\",\"summary\":{\"seats\":[\"%s\",\"%s\",\"%s\",\"%s\"],\"stake\":100,'"
            echo "  '\"turn_seconds\":30,\"hands_played\":%s,\"options\":{\"rounds\":8,\"bank\":\"rotate\"}}}',"
            echo "  upper(substr(md5(id || k), 1, 12)), 1732491234567890 + k, substr(md5(k || id), 1, 10),"
            echo "  substr(md5('a' || k || id), 1, 9), substr(md5('b' || k || id), 1, 7), substr(md5('c' || k || id), 1, 11),"
            echo "  substr(md5('d' || k || id), 1, 8), k % 17), ',') || ']' FROM generate_series(1, 700) AS k)"
            echo "  WHERE id LIKE 'f%';"
            echo "SELECT 'listing', octet_length(listing), pg_column_size(listing) FROM nodes WHERE id = 'f1';"
            # a node publishing its listing of 700 tables (it does when its tables change, at most once a second)
            echo "SELECT 'wal_before_publish', pg_current_wal_insert_lsn();"
            echo "UPDATE nodes SET listing = (SELECT listing FROM nodes WHERE id = 'f2') WHERE id = 'f1';"
            echo "SELECT 'wal_after_publish', pg_current_wal_insert_lsn();"
        fi
        echo "ANALYZE game_tables;"
        printf '%s\n' "\\timing on"
        printf '%s\n' "\\o $out/directory-$n.rows"
        for _ in 1 2 3; do # what node n1's heartbeat reads, three times (the first one cold)
            echo "SELECT id, address, listing FROM nodes WHERE id <> 'n1' AND lease_until > now() ORDER BY heartbeat_at;"
        done
        printf '%s\n' "\\o"
        printf '%s\n' "\\timing off"
        echo "SELECT 'wal_before', pg_current_wal_insert_lsn();"
        echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON)"
        echo "UPDATE nodes SET address = '/n/f1/ws', heartbeat_at = now(),"
        echo "  lease_until = now() + make_interval(secs => 10) WHERE id = 'f1';"
        echo "SELECT 'wal_after', pg_current_wal_insert_lsn();"
        echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON)"
        echo "UPDATE game_tables SET owner_node = 'n1' WHERE state <> 'closed' AND owner_node IN"
        echo "  (SELECT id FROM nodes WHERE lease_until < now() AND id <> 'n1') RETURNING id;"
        echo "ROLLBACK;"
    } >"$out/scale-$n.sql"
    psql "$db" -XAtq -F ' ' -f "$out/scale-$n.sql" >"$out/scale-$n.txt" 2>&1
    times=$(grep '^Time:' "$out/scale-$n.txt" | sed 's/Time: \([0-9.]*\) ms.*/\1/' | tr '\n' ' ')
    rows=$(($(wc -l <"$out/directory-$n.rows") / 3))
    what="directory read (open tables of other nodes)"
    listing=""
    if [ "$has_listing" = 1 ]; then
        what="listings read (other live nodes' rows)"
        l=$(grep '^listing ' "$out/scale-$n.txt")
        p0=$(grep '^wal_before_publish' "$out/scale-$n.txt" | cut -d' ' -f2)
        p1=$(grep '^wal_after_publish' "$out/scale-$n.txt" | cut -d' ' -f2)
        listing="; a listing of 700 public tables: $(echo "$l" | cut -d' ' -f2) bytes ($(echo "$l" | cut -d' ' -f3) stored), publishing it: $(sql -c "SELECT pg_wal_lsn_diff('$p1', '$p0')") bytes of WAL"
    fi
    bytes=$(($(wc -c <"$out/directory-$n.rows") / 3))
    w0=$(grep '^wal_before ' "$out/scale-$n.txt" | cut -d' ' -f2)
    w1=$(grep '^wal_after ' "$out/scale-$n.txt" | cut -d' ' -f2)
    wal=$(sql -c "SELECT pg_wal_lsn_diff('$w1', '$w0')")
    beat_ms=$(grep 'Execution Time' "$out/scale-$n.txt" | sed -n 1p | sed 's/.*: \([0-9.]*\) ms/\1/')
    take_ms=$(grep 'Execution Time' "$out/scale-$n.txt" | sed -n 2p | sed 's/.*: \([0-9.]*\) ms/\1/')
    say "   $n nodes (n1 + $fake made up, 700 open tables each): $what as n1: $rows rows," \
        "$bytes bytes as text, $times ms (3 runs); heartbeat of a node of 700 tables: $beat_ms ms, $wal bytes of WAL;" \
        "takeover search: $take_ms ms$listing"
}

step_scale() {
    echo
    say "== 2. the heartbeat's statements with 10 and 100 nodes (made-up rows, rolled back)"
    open=$(sql -c "SELECT count(*) FROM game_tables WHERE state <> 'closed'")
    echo "   real open tables now: $open"
    scale_probe 10
    scale_probe 100
}

# ---- 3. tables playing over three nodes ----------------------------------------------------
# Three `teahouse-load play` at once, a third of COUNT tables each: play_three LABEL COUNT THINK
# SECONDS WARMUP PORT1 PID1 PORT2 PID2 PORT3 PID3 (the same node three times for one node). Reports
# in $out/play-LABEL-K.txt; play_wait waits for them and prints them.
play_three() {
    label=$1 count=$2 p_think=$3 p_seconds=$4 p_warmup=$5
    shift 5
    play_pids=""
    for k in 1 2 3; do
        n=$((count / 3))
        [ "$k" -le $((count % 3)) ] && n=$((n + 1))
        port=$1 pid=$2
        shift 2
        echo "$load play --connect 127.0.0.1:$port --pid $pid --tables $n --seconds $p_seconds --warmup $p_warmup --think-ms $p_think" \
            >"$out/play-$label-$k.cmd"
        "$load" play --connect "127.0.0.1:$port" --pid "$pid" --tables "$n" --seconds "$p_seconds" --warmup "$p_warmup" \
            --think-ms "$p_think" >"$out/play-$label-$k.txt" 2>"$out/play-$label-$k.err" &
        play_pids="$play_pids $!"
    done
    children="$children $play_pids"
}

play_wait() {
    for p in $play_pids; do wait "$p"; done
    for k in 1 2 3; do
        f=$out/play-$label-$k.txt
        echo "   $(sed "s|^$load|teahouse-load|" "$out/play-$label-$k.cmd")"
        echo "       $(field "$f" "tables"); act -> all 4 seats: $(field "$f" "act -> all 4 seats")"
        echo "       hands: $(field "$f" "hands completed"); actions: $(field "$f" "actions (events)" | sed 's/:.*//');" \
            "server CPU $(field "$f" "server CPU"); generator lag $(field "$f" "load generator lag" | sed 's/ (.*//');" \
            "errors: $(field "$f" "errors received"); lost: $(field "$f" "connections lost"); leaks: $(field "$f" "hidden-tile leaks")"
    done
}

step_play() {
    echo
    say "== 3. $tables tables playing over three nodes on PostgreSQL (think $think ms, $seconds s)"
    sql -c "SELECT pg_stat_statements_reset()" >/dev/null
    play_three cluster "$tables" "$think" "$seconds" 5 $((base + 1)) "$(node_pid n1)" $((base + 2)) "$(node_pid n2)" \
        $((base + 3)) "$(node_pid n3)"
    sleep $((seconds / 2 + 15))
    say "   while playing: PostgreSQL connections by node: $(connections_by_node);" \
        "open tables by node: $(sql -c "SELECT owner_node || ':' || count(*) FROM game_tables WHERE state <> 'closed' GROUP BY owner_node ORDER BY 1" | tr '\n' ' ')"
    # what n1's heartbeat reads now, for its size
    if [ "$has_listing" = 1 ]; then
        sql -c "SELECT id, address, listing FROM nodes WHERE id <> 'n1' AND heartbeat_at > now() - make_interval(secs => 10)
                ORDER BY heartbeat_at" >"$out/directory-play.rows"
        echo "   listings now (node: bytes, tables): $(sql -c "SELECT id || ': ' || octet_length(listing) || ' B, ' ||
            json_array_length(listing::json) FROM nodes ORDER BY id" | tr '\n' ' ')"
        echo "   listings read by n1 now: $(wc -l <"$out/directory-play.rows") rows, $(wc -c <"$out/directory-play.rows") bytes as text"
    else
        sql -c "SELECT t.code, t.owner_node, n.address FROM game_tables AS t JOIN nodes AS n ON n.id = t.owner_node
                WHERE t.state <> 'closed' AND t.owner_node <> 'n1' AND t.lease_until > now() ORDER BY t.code LIMIT 100000" \
            >"$out/directory-play.rows"
        echo "   directory read as n1 now: $(wc -l <"$out/directory-play.rows") rows, $(wc -c <"$out/directory-play.rows") bytes as text"
    fi
    play_wait
    say "   the cluster's statements while playing (pg_stat_statements, all three nodes, setup included):"
    sql -c "SELECT CASE WHEN query LIKE 'WITH beat%' THEN 'heartbeat (lease renewal)'
                        WHEN query LIKE 'SELECT t.code, t.owner_node%' THEN 'directory read'
                        WHEN query LIKE 'SELECT id, address, listing%' THEN 'listings read'
                        WHEN query LIKE 'UPDATE nodes SET listing%' THEN 'listing published'
                        ELSE 'takeover search' END,
                   calls, round(mean_exec_time::numeric, 2) || ' ms mean', round(max_exec_time::numeric, 2) || ' ms max',
                   round(rows::numeric / greatest(calls, 1), 1) || ' rows a call'
            FROM pg_stat_statements
            WHERE query LIKE 'WITH beat%' OR query LIKE 'SELECT t.code, t.owner_node%'
               OR query LIKE 'SELECT id, address, listing%' OR query LIKE 'UPDATE nodes SET listing%'
               OR (query LIKE 'UPDATE game_tables SET owner_node%' AND query LIKE '%RETURNING id')
            ORDER BY 1" | sed 's/^/       /'
    # what waited on whom: PostgreSQL logs a lock wait longer than deadlock_timeout (1 s) and every
    # deadlock; a node logs every table it paused because a write failed
    echo "   lock waits over 1 s logged: $(grep -c 'still waiting for' "$dir/postgresql.log"), by statement:"
    grep -A3 'still waiting for' "$dir/postgresql.log" | sed -n 's/.*STATEMENT: *//p' | cut -c1-60 | sort | uniq -c |
        sort -rn | head -n 4 | sed 's/^/       /'
    echo "   deadlocks: $(grep -c 'deadlock detected' "$dir/postgresql.log");" \
        "tables paused by a failed write: n1 $(grep -c 'paused:' "$dir/n1.log") n2 $(grep -c 'paused:' "$dir/n2.log")" \
        "n3 $(grep -c 'paused:' "$dir/n3.log")"
    echo "   guests stored under an id another node gave (players_pkey refused; the node then takes the id" \
        "as its own guest's): $(grep -c 'players_pkey' "$dir/postgresql.log")"
    echo "   heartbeats failed: n1 $(grep -c 'the heartbeat failed' "$dir/n1.log") n2 $(grep -c 'the heartbeat failed' "$dir/n2.log")" \
        "n3 $(grep -c 'the heartbeat failed' "$dir/n3.log") (a node that fails to beat for a lease, 10 s, loses its tables)"
    grep -h -m2 'paused:' "$dir"/n?.log | sed 's/ (postgresql[^)]*)//; s/postgresql:[^,]*, //' | cut -c1-200 | sed 's/^/       /'
    # wait for the tables to close (--empty-table-seconds) before the next step reads the directory
    for _ in $(seq 1 30); do
        [ "$(sql -c "SELECT count(*) FROM game_tables WHERE state <> 'closed'")" = 0 ] && break
        sleep 1
    done
}

# ---- 4. the same tables on one node -----------------------------------------------------------
# A node of its own on SQLite (the default store), with the cluster's flags, or node n1 of the
# cluster alone (PostgreSQL); three generators, as in step 3.
start_sqlite_node() {
    sqlite_dir=$(mktemp -d /tmp/teahouse-figures-sqlite-XXXXXX)
    : >"$sqlite_dir/log"
    # shellcheck disable=SC2086 # the flags are a list
    "$bin" --bind 127.0.0.1 --port $((base + 10)) --metrics-port 0 --web-root "$root/web-client" \
        --db "$sqlite_dir/teahouse.db" $TEAHOUSE_CLUSTER_NODE_ARGS >"$sqlite_dir/log" 2>&1 &
    sqlite_pid=$!
    children="$children $sqlite_pid"
    for _ in $(seq 1 100); do grep -q "listening on" "$sqlite_dir/log" && break; sleep 0.1; done
}

stop_sqlite_node() {
    kill "$sqlite_pid" 2>/dev/null
    wait "$sqlite_pid" 2>/dev/null
    cp "$sqlite_dir/log" "$out/sqlite-node.log"
    rm -rf "$sqlite_dir"
}

one_node() { # label count think seconds warmup port pid
    before=$(rss "$7")
    play_three "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$6" "$7" "$6" "$7"
    play_wait
    say "       node RSS $before KiB before, $(rss "$7") KiB after"
}

step_one() {
    echo
    say "== 4. the same $tables tables on one node (three generators at it)"
    start_sqlite_node
    say "   one node on SQLite: $bin --port $((base + 10)) --db DIR/teahouse.db $TEAHOUSE_CLUSTER_NODE_ARGS"
    one_node sqlite "$tables" "$think" "$seconds" 5 $((base + 10)) "$sqlite_pid"
    stop_sqlite_node
    say "   node n1 of the cluster alone (PostgreSQL)"
    one_node pg-n1 "$tables" "$think" "$seconds" 5 $((base + 1)) "$(node_pid n1)"
}

# ---- 5. hands settled per second at full speed ------------------------------------------------
step_fast() {
    echo
    say "== 5. hands settled per second, fast ($fast_tables tables, --think-ms 100, 20 s)"
    start_sqlite_node
    say "   one node on SQLite"
    one_node fast-sqlite "$fast_tables" 100 20 3 $((base + 10)) "$sqlite_pid"
    stop_sqlite_node
    say "   node n1 of the cluster alone (PostgreSQL)"
    one_node fast-pg-n1 "$fast_tables" 100 20 3 $((base + 1)) "$(node_pid n1)"
    say "   the three cluster nodes at once (PostgreSQL)"
    play_three fast-cluster "$fast_tables" 100 20 3 $((base + 1)) "$(node_pid n1)" $((base + 2)) "$(node_pid n2)" \
        $((base + 3)) "$(node_pid n3)"
    play_wait
}

say "cluster_figures: reports in $out; release build $build"
nproc_=$(nproc)
# shellcheck disable=SC3045 # dash and bash both have ulimit -n
echo "cores: $nproc_; memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo); open-file limit: $(ulimit -n)"
start_cluster
for s in $steps; do
    case $s in
    1) step_hold ;;
    2) step_scale ;;
    3) step_play ;;
    4) step_one ;;
    5) step_fast ;;
    esac
done
echo
say "done; stopping the cluster"
