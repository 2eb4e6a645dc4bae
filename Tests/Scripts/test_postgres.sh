# Sourced by the start scripts of servers that keep their data in PostgreSQL (DAViCal, SOGo):
# a throwaway cluster in DIR/pg, listening on a unix socket in DIR/run only, run as postgres.
# start_test_postgres DIR: makes the cluster, starts PostgreSQL in the background and waits
# until it answers; sets $pg to its pid (setpriv execs: the server's own), for the caller's stop.
start_test_postgres() {
    local dir=$1
    setpriv --reuid=postgres --regid=postgres --clear-groups --reset-env -- "$PG/initdb" -D "$dir/pg" -U postgres -A trust \
        -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    setpriv --reuid=postgres --regid=postgres --clear-groups --reset-env -- "$PG/postgres" -D "$dir/pg" -c listen_addresses='' \
        -k "$dir/run" -c fsync=off -c synchronous_commit=off -c full_page_writes=off >"$dir/pg.log" 2>&1 &
    pg=$!
    for _ in $(seq 500); do
        "$PG/pg_isready" -q -h "$dir/run" && return 0
        kill -0 "$pg" 2>/dev/null || { tail -n 20 "$dir/pg.log" >&2; exit 1; }
        sleep 0.02
    done
    echo "$0: PostgreSQL did not answer within 10 s" >&2
    exit 1
}
