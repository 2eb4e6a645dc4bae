#!/bin/bash
# Cyrus IMAP 3.6 with CalDAV (Debian: cyrus-imapd cyrus-caldav sasl2-bin), Fastmail's engine, for
# the end-to-end tests. Run as root (Cyrus runs as the "cyrus" user, who must reach DIR).
#   cyrus_server.sh PORT DIR
# Writes DIR's configuration (user "u", password "p", SASL realm localhost), then becomes Cyrus's
# master process in the foreground on 127.0.0.1:PORT: the caller stops it by this process's pid.
# The calendar home exists only once u has an INBOX: a helper delivers u's first message over
# LMTP (a unix socket in DIR) as soon as the socket is there, then touches DIR/ready.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PORT DIR" >&2; exit 64; }
PORT=$1 DIR=$2
[ -x /usr/lib/cyrus/bin/master ] && [ -x /usr/lib/cyrus/bin/httpd ] && command -v saslpasswd2 >/dev/null || {
    echo "$0: Cyrus is missing: apt-get install cyrus-imapd cyrus-caldav sasl2-bin" >&2; exit 1; }
mkdir -p "$DIR/conf/socket" "$DIR/conf/proc" "$DIR/conf/lock" "$DIR/spool"
DIR=$(cd "$DIR" && pwd)
cat >"$DIR/imapd.conf" <<CONF
configdirectory: $DIR/conf
proc_path: $DIR/conf/proc
mboxname_lockpath: $DIR/conf/lock
defaultpartition: default
partition-default: $DIR/spool
servername: localhost
admins: cyrus
altnamespace: yes
unixhierarchysep: yes
allowplaintext: yes
sasl_pwcheck_method: auxprop
sasl_auxprop_plugin: sasldb
sasl_sasldb_path: $DIR/sasldb2
autocreate_quota: 0
autocreate_post: yes
httpmodules: caldav
httpallowcompress: no
lmtpsocket: $DIR/conf/socket/lmtp
idlesocket: $DIR/conf/socket/idle
notifysocket: $DIR/conf/socket/notify
syslog_prefix: hottask-test-cyrus
CONF
# Each command needs -C: master does not pass its own on.
cat >"$DIR/cyrus.conf" <<CONF
START {
  recover cmd="ctl_cyrusdb -C $DIR/imapd.conf -r"
}
SERVICES {
  http cmd="httpd -C $DIR/imapd.conf" listen="127.0.0.1:$PORT" prefork=1
  lmtp cmd="lmtpd -C $DIR/imapd.conf" listen="$DIR/conf/socket/lmtp" prefork=0
}
EVENTS {
}
DAEMON {
}
CONF
echo p | saslpasswd2 -p -c -f "$DIR/sasldb2" -u localhost u
chown -R cyrus:mail "$DIR"
# The first message to u makes its INBOX (autocreate_post), and so its calendar home. The helper
# gives up after 10 s; it ends by itself either way.
(
    for _ in $(seq 500); do
        if [ -S "$DIR/conf/socket/lmtp" ]; then
            printf 'From: setup@localhost\r\nTo: u@localhost\r\nSubject: account made\r\n\r\nfor CalDAV tests\r\n' |
                runuser -u cyrus -- /usr/lib/cyrus/bin/deliver -C "$DIR/imapd.conf" u && touch "$DIR/ready"
            exit 0
        fi
        sleep 0.02
    done
) </dev/null >>"$DIR/deliver.log" 2>&1 &
exec /usr/lib/cyrus/bin/master -C "$DIR/imapd.conf" -M "$DIR/cyrus.conf" -p "$DIR/cyrus.pid"
