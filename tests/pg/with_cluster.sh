#!/bin/sh
# with_cluster — runs a command beside a throwaway PostgreSQL cluster, then removes the cluster.
#
#   tests/pg/with_cluster.sh COMMAND [ARG...]
#
# The cluster lives in a new temporary directory: initdb there (trust authentication, superuser
# "teahouse"), listening on no TCP port, only on a unix socket in that directory. The command
# runs with TEAHOUSE_TEST_PG set to a URI of the cluster's "postgres" database
# (postgresql:///postgres?host=DIR&user=teahouse), from which a test makes databases of its own.
# PostgreSQL refuses to run as root: when this script runs as root, the cluster runs as the
# unprivileged user TEAHOUSE_PG_USER (default nobody), through setpriv. The cluster is stopped
# and its directory removed whatever the command's outcome; the script exits with the command's
# status, or 77 (skipped, for meson) when PostgreSQL's server programs are not installed.
set -u

bindir=${PG_BINDIR:-}
if [ -z "$bindir" ]; then
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            bindir=$dir
            break
        fi
    done
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "with_cluster: PostgreSQL's server programs (initdb, pg_ctl) are not installed: skipped" \
         "(apt-get install postgresql, or set PG_BINDIR)" >&2
    exit 77
fi

dir=$(mktemp -d /tmp/teahouse-pg-XXXXXX) || exit 1
as_owner=""
if [ "$(id -u)" = 0 ]; then
    owner=${TEAHOUSE_PG_USER:-nobody}
    uid=$(id -u "$owner") || exit 1
    gid=$(id -g "$owner") || exit 1
    chown "$uid:$gid" "$dir"
    as_owner="setpriv --reuid=$uid --regid=$gid --init-groups"
    [ "$owner" = nobody ] && as_owner="setpriv --reuid=$uid --regid=$gid --clear-groups"
fi
chmod 755 "$dir"

cleanup() {
    $as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
    rm -rf "$dir"
}
trap cleanup EXIT INT TERM

if ! $as_owner env HOME="$dir" "$bindir/initdb" -D "$dir/data" -U teahouse --auth=trust -E UTF8 --locale=C.UTF-8 \
        >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    echo "with_cluster: initdb failed" >&2
    exit 1
fi
# No TCP port; the socket in $dir; fsync on, as in production: the figures mean something.
if ! $as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c max_connections=40 -c shared_buffers=64MB" \
        start >/dev/null; then
    cat "$dir/server.log" >&2
    echo "with_cluster: the server did not start" >&2
    exit 1
fi

TEAHOUSE_TEST_PG="postgresql:///postgres?host=$dir&user=teahouse"
export TEAHOUSE_TEST_PG
"$@"
status=$?
exit $status
