#!/bin/bash
# sabre/dav 1.8 (Debian: php-cli php-sabre-dav php-sqlite3 php-xml php-mbstring), the engine of
# Baïkal and (newer) Nextcloud, as a CalDAV server for the end-to-end tests.
#   sabre_server.sh PORT DIR digest|basic
# Makes DIR's SQLite database on the first start (user "u", password "p"; no calendar yet), then
# becomes PHP's built-in web server on 127.0.0.1:PORT: the caller stops it by this process's pid.
# Digest is MD5 with qop=auth and realm "SabreDAV", Baïkal's default; Basic checks the same hash.
# /.well-known/caldav answers 301 with a relative `Location: /`, as sabre behind Baïkal does.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 PORT DIR digest|basic" >&2; exit 64; }
PORT=$1 DIR=$2 AUTH=$3
case $AUTH in digest|basic) ;; *) echo "$0: auth is digest or basic" >&2; exit 64 ;; esac
[ -f /usr/share/php/Sabre/autoload.php ] || { echo "$0: sabre/dav is missing: apt-get install php-cli php-sabre-dav php-sqlite3 php-xml php-mbstring" >&2; exit 1; }
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
if [ ! -f "$DIR/db.sqlite" ]; then
    # sabre/dav 1.8's SQLite schema (its examples/sql/sqlite.*.sql), then the user and principal.
    php -r '
        $pdo = new PDO("sqlite:" . $argv[1] . "/db.sqlite");
        $pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
        $pdo->exec("
            CREATE TABLE calendarobjects (id integer primary key asc, calendardata blob, uri text, calendarid integer,
                lastmodified integer, etag text, size integer, componenttype text, firstoccurence integer,
                lastoccurence integer);
            CREATE TABLE calendars (id integer primary key asc, principaluri text, displayname text, uri text,
                ctag integer, description text, calendarorder integer, calendarcolor text, timezone text,
                components text, transparent bool);
            CREATE TABLE principals (id INTEGER PRIMARY KEY ASC, uri TEXT, email TEXT, displayname TEXT,
                vcardurl TEXT, UNIQUE(uri));
            CREATE TABLE groupmembers (id INTEGER PRIMARY KEY ASC, principal_id INTEGER, member_id INTEGER,
                UNIQUE(principal_id, member_id));
            CREATE TABLE users (id integer primary key asc, username TEXT, digesta1 TEXT, UNIQUE(username));
            CREATE TABLE locks (id integer primary key asc, owner text, timeout integer, created integer,
                token text, scope integer, depth integer, uri text);");
        $add = $pdo->prepare("INSERT INTO principals (uri, email, displayname) VALUES (?, ?, ?)");
        $add->execute(["principals/u", "u@example.net", "Test User"]);
        $add->execute(["principals/u/calendar-proxy-read", null, null]);
        $add->execute(["principals/u/calendar-proxy-write", null, null]);
        $pdo->prepare("INSERT INTO users (username, digesta1) VALUES (?, ?)")->execute(["u", md5("u:SabreDAV:p")]);
    ' "$DIR"
fi
cat >"$DIR/server.php" <<PHP
<?php
// Router for php -S: every request is a DAV request, except /.well-known/caldav (RFC 6764).
error_reporting(E_ALL & ~E_DEPRECATED & ~E_NOTICE);
ini_set('display_errors', '0');
date_default_timezone_set('UTC');
if (preg_match('#^/\.well-known/caldav/?\$#i', parse_url(\$_SERVER['REQUEST_URI'], PHP_URL_PATH))) {
    header('Location: /', true, 301);
    exit;
}
require_once 'Sabre/autoload.php';
\$pdo = new PDO('sqlite:$DIR/db.sqlite');
\$pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
class BasicFromDigestHash extends Sabre\DAV\Auth\Backend\AbstractBasic {
    // Basic, checked against the md5(user:realm:password) the Digest backend keeps (as Baïkal does).
    function __construct(private PDO \$pdo) {}
    protected function validateUserPass(\$username, \$password) {
        \$q = \$this->pdo->prepare('SELECT digesta1 FROM users WHERE username = ?');
        \$q->execute([\$username]);
        \$hash = \$q->fetchColumn();
        return \$hash !== false && hash_equals(\$hash, md5("\$username:SabreDAV:\$password"));
    }
}
\$auth = '$AUTH' === 'basic' ? new BasicFromDigestHash(\$pdo) : new Sabre\DAV\Auth\Backend\PDO(\$pdo);
\$principals = new Sabre\DAVACL\PrincipalBackend\PDO(\$pdo);
\$calendars = new Sabre\CalDAV\Backend\PDO(\$pdo);
\$server = new Sabre\DAV\Server([
    new Sabre\CalDAV\Principal\Collection(\$principals),
    new Sabre\CalDAV\CalendarRootNode(\$principals, \$calendars),
]);
\$server->setBaseUri('/');
\$server->addPlugin(new Sabre\DAV\Auth\Plugin(\$auth, 'SabreDAV'));
\$server->addPlugin(new Sabre\DAVACL\Plugin());
\$server->addPlugin(new Sabre\CalDAV\Plugin());
\$server->exec();
PHP
exec php -d include_path=.:/usr/share/php -S "127.0.0.1:$PORT" "$DIR/server.php"
