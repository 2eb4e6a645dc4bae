#!/bin/bash
# SOGo 5.8 (Debian: sogo memcached postgresql) for the end-to-end tests: sogod on 127.0.0.1:PORT,
# PostgreSQL and memcached on unix sockets in DIR only. Run as root.
#   sogo_server.sh PORT DIR
# Makes DIR's cluster and database (user "u", password "p" in a "sql" user source; the
# calendar "personal" is made at the first login), starts the three servers as its children,
# touches DIR/ready once sogod's worker is ready, and waits: a SIGTERM to this script's pid stops
# them all. sogod alone answers its root with a web page: the CalDAV base is /SOGo/dav/.
set -euo pipefail
. "$(dirname "$0")/test_postgres.sh"
[ $# -eq 2 ] || { echo "usage: $0 PORT DIR" >&2; exit 64; }
PORT=$1 DIR=$2
PG=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ ! -x /usr/sbin/sogod ] || ! command -v memcached >/dev/null || [ -z "$PG" ]; then
    echo "$0: SOGo is missing: apt-get install sogo memcached postgresql" >&2; exit 1
fi
mkdir -p "$DIR/run" "$DIR/home" "$DIR/pg"
DIR=$(cd "$DIR" && pwd)
: >"$DIR/sogod.log"
chown postgres "$DIR/pg"
chown sogo "$DIR/home" "$DIR/sogod.log"
chmod 1777 "$DIR/run"   # the PostgreSQL and memcached sockets
export PGHOST="$DIR/run" PGOPTIONS='--client-min-messages=warning'
pg= memcache= sogod=
stop() {
    # sogod's workers (each in a session of its own) wait in accept() and notice SIGTERM only when
    # a connection comes, and the watchdog waits for them: they hold nothing, so they are killed.
    # PostgreSQL's fast shutdown is SIGINT.
    if [ -n "$sogod" ]; then
        kill -TERM "$sogod" 2>/dev/null || true
        pkill -KILL -P "$sogod" || true
        for _ in $(seq 40); do kill -0 "$sogod" 2>/dev/null || break; sleep 0.05; done
        kill -KILL "$sogod" 2>/dev/null || true
    fi
    [ -n "$memcache" ] && kill -TERM "$memcache" 2>/dev/null || true
    [ -n "$pg" ] && kill -INT "$pg" 2>/dev/null || true
    wait
    exit 0
}
trap stop TERM INT

start_test_postgres "$DIR"
# SOGo makes its own tables; the users it authenticates come from this one.
psql -U postgres -qXAt -v ON_ERROR_STOP=1 -c "CREATE USER sogo" -c "CREATE DATABASE sogo OWNER sogo" template1 >/dev/null
psql -U sogo -qXAt -v ON_ERROR_STOP=1 sogo >/dev/null <<'SQL'
CREATE TABLE sogo_users (c_uid varchar(255) PRIMARY KEY, c_name varchar(255), c_password varchar(255),
                         c_cn varchar(255), mail varchar(255));
INSERT INTO sogo_users VALUES ('u', 'u', 'p', 'Test User', 'u@example.net');
SQL
memcached -u sogo -s "$DIR/run/memcached.sock" -a 0700 -m 16 >"$DIR/memcached.log" 2>&1 &
memcache=$!
# An empty host in these URLs: libpq takes PGHOST (DIR's socket) from sogod's environment.
DB="postgresql://sogo@/sogo"
setpriv --reuid=sogo --regid=sogo --clear-groups --reset-env -- env HOME="$DIR/home" PGHOST="$DIR/run" \
    /usr/sbin/sogod -WONoDetach YES -WOPort "127.0.0.1:$PORT" -WOWorkersCount 3 -WOLogFile "$DIR/sogod.log" \
    -WOPidFile "$DIR/home/sogod.pid" \
    -SOGoProfileURL "$DB/sogo_user_profile" -OCSFolderInfoURL "$DB/sogo_folder_info" \
    -OCSSessionsFolderURL "$DB/sogo_sessions_folder" -OCSEMailAlarmsFolderURL "$DB/sogo_alarms_folder" \
    -SOGoUserSources "({type = sql; id = users; viewURL = \"$DB/sogo_users\"; canAuthenticate = YES;
                        isAddressBook = NO; userPasswordAlgorithm = plain;})" \
    -SOGoMemcachedHost "$DIR/run/memcached.sock" -SOGoTimeZone UTC -SOGoMailDomain example.net -SOGoLanguage English &
sogod=$!
# The watchdog listens at once; its worker is ready a second or two later.
for _ in $(seq 1000); do
    if grep -q "notified the watchdog that we are ready" "$DIR/sogod.log"; then touch "$DIR/ready"; break; fi
    kill -0 "$sogod" 2>/dev/null || { tail -n 20 "$DIR/sogod.log" >&2; stop; }
    sleep 0.02
done
wait
