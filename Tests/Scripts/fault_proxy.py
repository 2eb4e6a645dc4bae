#!/usr/bin/env python3
"""A tiny HTTP/1.1 reverse proxy that injects faults, for the end-to-end tests.

Usage: fault_proxy.py LISTEN_PORT UPSTREAM_URL CONTROL_FILE

Forwards every request (any method, body and headers, Host rewritten) to
UPSTREAM_URL (e.g. http://127.0.0.1:5232) and relays the answer.  Prints
"ready" on stdout once listening, or "ready PORT" when LISTEN_PORT is 0.

Before each request CONTROL_FILE is read (JSON; missing = no faults):

  {"rules": [{"method": "PUT", "path_contains": "/hot/", "times": 1,
              "action": "412", "before": ["python3", "hook.py", "arg"]}]}

A rule matches by method ("*" or missing = any) and, if given, a substring
of the path ("path_contains") and of the request body ("body_contains", e.g.
"sync-collection", "calendar-query" or "calendar-multiget").  A rule with "skip": N lets the
first N matching requests pass (counting them down) before it applies.  The first matching rule
with times > 0 (missing = 1) is used and its times is decremented and written back to
CONTROL_FILE.  Actions:

  "pass"         forward as usual (the default; useful with "before")
  "NNN"          answer with that status (e.g. "412", "507") without forwarding
  "drop"         forward, then close the connection without any answer
  "drop-before"  close the connection without forwarding
  "refuse"       reset the connection (TCP RST) without forwarding
  "truncate"     forward, then send status and headers with the full
                 Content-Length but only half the body, and close
  "empty"        forward, then remove every member (<response> whose href
                 is not the requested path) from a 207 answer: an empty listing
  "drop-member"  forward, then remove the first member that carries
                 calendar-data from a 207 answer (a multiget that left one out)
  "hang"         read the request and never answer (until the client hangs up,
                 or 120 s): a server that accepts and goes silent
  "weaken"       forward, then make every ETag weak (W/"..."), in the ETag
                 header and in getetag properties, as a compressing proxy does

"before" is an optional argv list run (no shell, 60 s timeout) before the
action, e.g. the phone script editing the same task to cause a real 412.

Every PUT body is written to CONTROL_FILE + ".puts/NNNN.ics", numbered from 0001.

One line per request is appended to CONTROL_FILE + ".log":
"METHOD PATH STATUS", STATUS being the upstream status, or "injected-NNN",
"dropped", "dropped-before", "refused", "truncated", or "502" when upstream
is unreachable.
"""

import http.client
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

HOP_BY_HOP = {
    "connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
    "proxy-connection", "te", "trailer", "trailers", "transfer-encoding", "upgrade",
}

lock = threading.Lock()  # guards the control file and the log


def load_rules(path):
    """Read the control file; retry briefly in case a test is mid-write."""
    for attempt in range(5):
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except FileNotFoundError:
            return {"rules": []}
        except json.JSONDecodeError:
            if attempt == 4:
                raise
            time.sleep(0.02)


def take_rule(path, method, url_path, body=b""):
    """Find the first live rule for this request, consume one use, return it."""
    with lock:
        control = load_rules(path)
        for rule in control.get("rules", []):
            if str(rule.get("method", "*")).upper() not in ("*", method):
                continue
            if rule.get("path_contains", "") not in url_path:
                continue
            if rule.get("body_contains", "").encode() not in body:
                continue
            times = rule.get("times", 1)
            if times <= 0:
                continue
            skip = rule.get("skip", 0)
            if skip > 0:
                rule["skip"] = skip - 1
            else:
                rule["times"] = times - 1
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(control, f, indent=1)
            os.replace(tmp, path)  # atomic, so readers never see half a file
            if skip > 0:
                return None
            return dict(rule)
    return None



class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like a real server

    # Set in main().
    upstream = None  # urlsplit() result
    control = None

    def __getattr__(self, name):
        # Any method at all (PROPFIND, REPORT, MKCALENDAR...) goes to proxy().
        if name.startswith("do_"):
            return self.proxy
        raise AttributeError(name)

    def log_message(self, *args):
        pass  # quiet

    def log_line(self, status):
        with lock:
            with open(self.control + ".log", "a", encoding="utf-8") as f:
                f.write(f"{self.command} {self.path} {status}\n")

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline().strip():  # trailers
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()  # CRLF after the chunk
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def forward(self, body):
        """Send the request upstream; return (status, reason, headers, body)."""
        up = self.upstream
        conn = http.client.HTTPConnection(up.hostname, up.port or 80, timeout=60)
        try:
            headers = {
                k: v for k, v in self.headers.items()
                # No accept-encoding: answers come uncompressed, so that they can be rewritten.
                if k.lower() not in HOP_BY_HOP | {"host", "content-length", "expect", "accept-encoding"}
            }
            headers["Host"] = up.netloc
            if body or self.command in ("PUT", "POST", "PROPFIND", "REPORT", "PROPPATCH", "MKCALENDAR"):
                headers["Content-Length"] = str(len(body))
            conn.request(self.command, up.path.rstrip("/") + self.path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, resp.reason, resp.getheaders(), data
        finally:
            conn.close()

    def reply(self, status, reason, headers, body, cut=False):
        self.send_response_only(status, reason)
        no_body = self.command == "HEAD" or status in (204, 304) or 100 <= status < 200
        for k, v in headers:
            if k.lower() in HOP_BY_HOP or (k.lower() == "content-length" and not no_body):
                continue
            self.send_header(k, v)
        if not no_body:
            self.send_header("Content-Length", str(len(body)))
        if cut:
            self.send_header("Connection", "close")
        self.end_headers()
        if not no_body:
            self.wfile.write(body[: len(body) // 2] if cut else body)
        self.wfile.flush()

    def hang_up(self, reset=False):
        self.close_connection = True
        if reset:  # SO_LINGER 0 turns close() into a RST; see Server.shutdown_request
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.server.resets.add(self.connection)

    def proxy(self):
        body = self.read_body()
        if self.command == "PUT":
            # Every body a client PUTs is kept, numbered, beside the control file: the tests
            # check each one strictly (Tests/Scripts/ics_strict.py).
            with lock:
                folder = self.control + ".puts"
                os.makedirs(folder, exist_ok=True)
                number = len(os.listdir(folder)) + 1
                with open(os.path.join(folder, f"{number:04d}.ics"), "wb") as f:
                    f.write(body)
        try:
            rule = take_rule(self.control, self.command, self.path, body)
        except (OSError, ValueError, AttributeError, TypeError) as e:  # a broken control file
            print(f"fault_proxy: bad control file: {e}", file=sys.stderr, flush=True)
            self.reply(500, None, [("Content-Type", "text/plain")], f"bad control file: {e}\n".encode())
            return self.log_line("bad-control-file")
        action = str(rule.get("action", "pass")) if rule else "pass"
        if rule and rule.get("before"):
            subprocess.run(rule["before"], timeout=60, stdout=subprocess.DEVNULL)

        if action.isdigit():
            self.reply(int(action), None, [("Content-Type", "text/plain")], f"injected {action}\n".encode())
            return self.log_line(f"injected-{action}")
        if action == "hang":
            self.log_line("hung")
            self.connection.settimeout(120)
            try:
                while self.connection.recv(4096):
                    pass
            except OSError:
                pass
            return self.hang_up()
        if action in ("drop-before", "refuse"):
            self.log_line("dropped-before" if action == "drop-before" else "refused")
            return self.hang_up(reset=action == "refuse")

        try:
            status, reason, headers, data = self.forward(body)
        except OSError as e:
            self.reply(502, None, [("Content-Type", "text/plain")], f"upstream: {e}\n".encode())
            return self.log_line("502")
        if action == "drop":
            self.log_line("dropped")
            return self.hang_up()
        if action in ("empty", "drop-member", "weaken"):
            headers, data = rewrite(action, self.path, headers, data)
            self.reply(status, reason, headers, data)
            return self.log_line(f"{status}-{action}")
        if action == "truncate":
            self.reply(status, reason, headers, data, cut=True)
            self.log_line("truncated")
            return self.hang_up()
        self.reply(status, reason, headers, data)
        self.log_line(str(status))


# The prefix group always takes part (maybe empty): a back reference to a group that did not
# take part never matches, and servers that use a default namespace write no prefix.
RESPONSE = re.compile(rb"<(?P<p>(?:[\w.-]+:)?)response\b.*?</(?P=p)response>", re.S)
HREF = re.compile(rb"<(?P<p>(?:[\w.-]+:)?)href>(.*?)</(?P=p)href>", re.S)
GETETAG = re.compile(rb"(<(?P<p>[\w.-]+:)?getetag>)\s*(?:W/)?(&quot;|\")")


def rewrite(action, path, headers, data):
    """Changes an upstream answer as "empty", "drop-member" or "weaken" say."""
    if action == "weaken":
        headers = [(k, v if k.lower() != "etag" or v.startswith("W/") else "W/" + v) for k, v in headers]
        return headers, GETETAG.sub(rb"\1W/\3", data)
    if action == "empty":
        def member(match):
            href = HREF.search(match.group(0))
            own = href and href.group(2).strip().decode(errors="replace").rstrip("/").endswith(path.rstrip("/"))
            return match.group(0) if own else b""
        return headers, RESPONSE.sub(member, data)
    dropped = []
    def first_with_data(match):
        if not dropped and b"calendar-data" in match.group(0):
            dropped.append(True)
            return b""
        return match.group(0)
    return headers, RESPONSE.sub(first_with_data, data)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    resets = set()  # sockets to close with a RST

    def shutdown_request(self, request):
        if request in self.resets:  # no shutdown(): it would send a FIN first
            self.resets.discard(request)
            return self.close_request(request)
        super().shutdown_request(request)

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: fault_proxy.py LISTEN_PORT UPSTREAM_URL CONTROL_FILE")
    port, upstream, control = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    Proxy.upstream = urlsplit(upstream)
    Proxy.control = control
    server = Server(("127.0.0.1", port), Proxy)
    print("ready" if port else f"ready {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
