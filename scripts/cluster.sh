#!/bin/sh
# cluster — three Teahouse nodes on one throwaway PostgreSQL behind nginx, all on loopback, for
# trying several nodes by hand (OPERATIONS.md, "Several nodes").
#
#   scripts/cluster.sh start [TEAHOUSE_BINARY]   # default build/server/teahouse
#   scripts/cluster.sh stop
#
# Everything lives in $TEAHOUSE_CLUSTER_DIR (default /tmp/teahouse-cluster): the PostgreSQL
# cluster (unix socket only, as tests/pg/with_cluster.sh), the ledger's key, each node's log and
# pid, and nginx's config, logs and pid. Nodes n1, n2, n3 listen on 127.0.0.1:8081..8083 (their
# operator's ports 9091..9093); nginx, unprivileged, on http://127.0.0.1:$TEAHOUSE_CLUSTER_PORT
# (default 8480): /ws to any node, /n/<node>/ws to that node. stop ends the nodes (SIGTERM),
# nginx and PostgreSQL, and removes the directory. Needs PostgreSQL's server programs and nginx
# (scripts/deps.sh test).
#
# Knobs (environment; the defaults are the behaviour above), for running beside another cluster
# or under load (tests/load/cluster_figures.sh):
#   TEAHOUSE_CLUSTER_BASE_PORT          node i listens on BASE+i (default 8080)
#   TEAHOUSE_CLUSTER_METRICS_BASE_PORT  node i's operator's port is BASE+i (default 9090)
#   TEAHOUSE_CLUSTER_NODE_ARGS          more flags for every node, split on spaces (default none),
#                                       e.g. "--max-connections-per-address 0 --turn-seconds 300"
#   TEAHOUSE_CLUSTER_PG_MAX_CONNECTIONS PostgreSQL's max_connections (default 40)
#   TEAHOUSE_CLUSTER_PG_OPTIONS         more postgres options (default none),
#                                       e.g. "-c shared_preload_libraries=pg_stat_statements"
# Each node's connections to PostgreSQL carry application_name=<node> (pg_stat_activity).
set -u

dir=${TEAHOUSE_CLUSTER_DIR:-/tmp/teahouse-cluster}
port=${TEAHOUSE_CLUSTER_PORT:-8480}
base_port=${TEAHOUSE_CLUSTER_BASE_PORT:-8080}
metrics_base=${TEAHOUSE_CLUSTER_METRICS_BASE_PORT:-9090}
node_args=${TEAHOUSE_CLUSTER_NODE_ARGS:-}
pg_max_connections=${TEAHOUSE_CLUSTER_PG_MAX_CONNECTIONS:-40}
pg_options=${TEAHOUSE_CLUSTER_PG_OPTIONS:-}
root=$(cd "$(dirname "$0")/.." && pwd)

bindir=${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r | head -n 1)}
as_owner=""
if [ "$(id -u)" = 0 ]; then # PostgreSQL refuses to run as root
    as_owner="setpriv --reuid=$(id -u nobody) --regid=$(id -g nobody) --clear-groups"
fi

stop() {
    for n in n1 n2 n3; do
        [ -f "$dir/$n.pid" ] && kill "$(cat "$dir/$n.pid")" 2>/dev/null
    done
    [ -f "$dir/nginx.pid" ] && kill -QUIT "$(cat "$dir/nginx.pid")" 2>/dev/null
    sleep 1
    [ -d "$dir/data" ] && $as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1
    rm -rf "$dir"
}

wait_listening() { # log file
    for _ in $(seq 1 100); do
        grep -q "listening on" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "cluster: a node did not start; see $1" >&2
    return 1
}

start() {
    binary=${1:-$root/build/server/teahouse}
    [ -x "$binary" ] || { echo "cluster: no teahouse binary at $binary" >&2; exit 1; }
    [ -x "$bindir/initdb" ] || { echo "cluster: PostgreSQL's server programs are not installed" >&2; exit 1; }
    nginx=$(command -v nginx || echo /usr/sbin/nginx)
    [ -x "$nginx" ] || { echo "cluster: nginx is not installed (scripts/deps.sh test)" >&2; exit 1; }
    [ -e "$dir" ] && { echo "cluster: $dir exists; scripts/cluster.sh stop first" >&2; exit 1; }
    mkdir -p "$dir" && chmod 755 "$dir"
    [ -n "$as_owner" ] && chown nobody "$dir"
    $as_owner "$bindir/initdb" -D "$dir/data" -U teahouse --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    $as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/postgresql.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c max_connections=$pg_max_connections $pg_options" start >/dev/null ||
        { cat "$dir/postgresql.log" >&2; exit 1; }
    "$bindir/psql" "postgresql:///postgres?host=$dir&user=teahouse" -qc "CREATE DATABASE teahouse" || exit 1
    db="postgresql:///teahouse?host=$dir&user=teahouse"
    i=1
    for n in n1 n2 n3; do # one after the other: the first migrates and makes the ledger's key record
        # shellcheck disable=SC2086 # node_args is a list of flags
        "$binary" --bind 127.0.0.1 --port $((base_port + i)) --metrics-port $((metrics_base + i)) --trusted-proxy 127.0.0.1 --allow-origin http://127.0.0.1:$port \
            --web-root "$root/web-client" --db "$db&application_name=$n" --ledger-key "$dir/ledger.key" \
            --node-id $n --node-url /n/$n/ws $node_args >"$dir/$n.log" 2>&1 &
        echo $! >"$dir/$n.pid"
        wait_listening "$dir/$n.log" || exit 1
        i=$((i + 1))
    done
    mkdir -p "$dir/nginx"
    # deploy/nginx-cluster.conf's upstreams and maps, and its server block on loopback without TLS
    # (with the nodes' ports moved when TEAHOUSE_CLUSTER_BASE_PORT is set)
    awk '/^server \{$/ {exit} {print}' "$root/deploy/nginx-cluster.conf" |
        sed -e 's/127\.0\.0\.1:808\([1-3]\)\b/@NODE\1@/g' -e "s/@NODE1@/127.0.0.1:$((base_port + 1))/g" \
            -e "s/@NODE2@/127.0.0.1:$((base_port + 2))/g" -e "s/@NODE3@/127.0.0.1:$((base_port + 3))/g" \
            >"$dir/nginx/upstreams.conf"
    cat >"$dir/nginx/nginx.conf" <<CONF
daemon on;
pid $dir/nginx.pid;
error_log $dir/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log $dir/nginx/access.log;
    client_body_temp_path $dir/nginx/body;
    proxy_temp_path $dir/nginx/proxy;
    fastcgi_temp_path $dir/nginx/fastcgi;
    uwsgi_temp_path $dir/nginx/uwsgi;
    scgi_temp_path $dir/nginx/scgi;
    include $dir/nginx/upstreams.conf;
    server {
        listen 127.0.0.1:$port;
        proxy_http_version 1.1;
        proxy_set_header Host \$http_host; # with its port: the page's Origin has it
        proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        proxy_set_header X-Real-IP \$remote_addr;
        proxy_read_timeout 120s;
        location ~ "^/n/(?<node_name>[A-Za-z0-9-]{1,32})/ws\$" {
            proxy_pass http://\$node_upstream/ws;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
        }
        location /ws {
            proxy_pass http://teahouse_any;
            proxy_next_upstream error timeout;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
        }
        location / {
            proxy_pass http://teahouse_any;
            proxy_set_header Connection "";
        }
    }
}
CONF
    "$nginx" -p "$dir/nginx" -c "$dir/nginx/nginx.conf" || exit 1
    echo "cluster: nodes n1 n2 n3 on 127.0.0.1:$((base_port + 1))..$((base_port + 3)), the house on http://127.0.0.1:$port/ ($dir)"
}

case "${1:-}" in
start) shift; start "$@" ;;
stop) stop ;;
*) echo "usage: scripts/cluster.sh start [TEAHOUSE_BINARY] | stop" >&2; exit 2 ;;
esac
