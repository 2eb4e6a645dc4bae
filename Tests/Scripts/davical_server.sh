#!/bin/bash
# DAViCal 1.1 (Debian: davical apache2 libapache2-mod-php postgresql) for the end-to-end tests:
# PostgreSQL on a unix socket in DIR only, Apache on 127.0.0.1:PORT. Run as root.
#   davical_server.sh PORT DIR
# Makes DIR's cluster and database (Debian's create-database.sh; user "u", password "p", no
# calendar yet), starts both servers as its children and waits: a SIGTERM to this script's pid
# stops them both. DAViCal's root is a plain Apache root (PROPFIND 405); /.well-known/caldav
# leads to /davical/caldav.php/, as Debian's site config does.
set -euo pipefail
. "$(dirname "$0")/test_postgres.sh"
[ $# -eq 2 ] || { echo "usage: $0 PORT DIR" >&2; exit 64; }
PORT=$1 DIR=$2
PG=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
M=/usr/lib/apache2/modules
PHPMOD=$(ls $M/libphp*.so 2>/dev/null | sort -V | tail -n 1)
if [ ! -f /usr/share/davical/dba/create-database.sh ] || [ -z "$PG" ] || [ -z "$PHPMOD" ] || [ ! -x /usr/sbin/apache2 ]; then
    echo "$0: DAViCal is missing: apt-get install davical apache2 libapache2-mod-php postgresql" >&2; exit 1
fi
mkdir -p "$DIR/run" "$DIR/www" "$DIR/pg"
DIR=$(cd "$DIR" && pwd)
chown postgres "$DIR/run" "$DIR/pg"
export PGHOST="$DIR/run" PGUSER=postgres PGOPTIONS='--client-min-messages=warning'
pg=
apache=
stop() {
    # Apache's parent ends its children; PostgreSQL's fast shutdown (SIGINT) ends its own.
    [ -n "$apache" ] && kill -TERM "$apache" 2>/dev/null || true
    [ -n "$pg" ] && kill -INT "$pg" 2>/dev/null || true
    wait
    exit 0
}
trap stop TERM INT

start_test_postgres "$DIR"
# Debian's own script: roles davical_dba and davical_app, the schema, an admin (random password).
/usr/share/davical/dba/create-database.sh davical "$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')" \
    >"$DIR/create-database.log" 2>&1 || { cat "$DIR/create-database.log" >&2; stop; }
psql -qXAt -v ON_ERROR_STOP=1 davical >/dev/null <<'SQL'
INSERT INTO usr (active, email_ok, updated, username, password, fullname, email)
    VALUES (TRUE, current_date, current_date, 'u', '**p', 'Test User', 'u@example.net');
INSERT INTO principal (type_id, user_no, displayname, default_privileges)
    SELECT 1, user_no, 'Test User', privilege_to_bits(ARRAY['read-free-busy', 'schedule-deliver'])
    FROM usr WHERE username = 'u';
SQL

cat >"$DIR/apache.conf" <<CONF
ServerName localhost
Listen 127.0.0.1:$PORT
PidFile $DIR/apache.pid
DefaultRuntimeDir $DIR/run
Mutex file:$DIR/run default
ErrorLog $DIR/apache-error.log
LogLevel warn
User www-data
Group www-data
LoadModule mpm_prefork_module $M/mod_mpm_prefork.so
LoadModule authz_core_module $M/mod_authz_core.so
LoadModule mime_module $M/mod_mime.so
LoadModule dir_module $M/mod_dir.so
LoadModule alias_module $M/mod_alias.so
LoadModule rewrite_module $M/mod_rewrite.so
LoadModule php_module $PHPMOD
StartServers 2
MinSpareServers 2
MaxSpareServers 4
TypesConfig /etc/mime.types
DocumentRoot $DIR/www
<Directory />
  Require all denied
</Directory>
<Directory $DIR/www>
  Require all granted
</Directory>
Alias /davical /usr/share/davical/htdocs
<Directory /usr/share/davical/htdocs>
  Require all granted
  DirectoryIndex index.php
  AcceptPathInfo On
</Directory>
<FilesMatch "\.php\$">
  SetHandler application/x-httpd-php
</FilesMatch>
# As Debian's /etc/apache2/sites-available/davical.conf: DAViCal answers the well-known URL.
RewriteEngine On
RewriteRule ^/\.well-known/(.*)\$ /davical/caldav.php/.well-known/\$1 [NC,PT]
CONF
# PGHOST (exported above) points DAViCal's default connection at this cluster.
# A session of its own: on SIGTERM Apache signals its whole process group, which would
# otherwise be ours and our caller's. (setsid execs here: this background child leads no group.)
setsid /usr/sbin/apache2 -f "$DIR/apache.conf" -DFOREGROUND &
apache=$!
wait
