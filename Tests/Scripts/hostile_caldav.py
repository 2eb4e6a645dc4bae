#!/usr/bin/env python3
"""A hostile CalDAV server for the end-to-end tests: one task calendar at /cal/ that
misbehaves as CONFIG_JSON says.

Usage: hostile_caldav.py PORT CONFIG_JSON LOG_FILE

Prints "ready" on stdout once listening. Every request is logged to LOG_FILE as one JSON line:
{"method", "path", "authorization" (true/false), "body_length"}.

CONFIG_JSON keys (all optional):
  "tasks": N               members /cal/task-N.ics, each a readable VTODO "Task N"
  "big_bytes": N           one more member /cal/big.ics whose VTODO carries an inline ATTACH
                           making it N bytes
  "undelivered": N         N more members listed but never sent in a multiget
  "hostile_href": true     one more member whose href percent-encodes escape sequences;
                           its body does not parse either
  "unreadable": true       one more member whose body has "END:<OSC 52>" where a VTODO ends
  "foreign_hrefs": true    members "//otherhost.invalid/cal/x.ics", "/cal/../escaped.ics",
                           "http://other.invalid/cal/y.ics" in the listing
  "error_page": true       every request answers 500 with an HTML page full of escapes
  "digest": true           every request answers 401 with a Digest challenge whose algorithm
                           is escape sequences
  "redirect": URL          every request answers 301 Location: URL + the path asked for
  "moved": true            /old/... answers 301 to /cal/... (a request body must follow)
  "display_name": TEXT     the calendar's display name (default "Tasks")
  "listing_bytes": N       the calendar-query answer is padded to about N bytes (a comment)
  "delay": S               each answer waits S seconds first
  "tls": [CERT, KEY]       serve HTTPS with this certificate and key (PEM files)
  "stream_bytes": N        the calendar-query answer is a 207 of N bytes, sent in pieces
  "flood_bytes": N         the calendar-query answer is a 207 of N bytes of responses, each
                           naming the first member again with an ETag of 1 MB, sent in pieces
"""

import json
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, unquote
from xml.sax.saxutils import escape

HOSTILE = "\x1b]52;c;aGk=\x07\x1b[2J\x1b]0;pwned\x07\x9b31m\u202e"
lock = threading.Lock()


def vtodo(uid, summary, extra=""):
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\nBEGIN:VTODO\r\n"
            f"UID:{uid}\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:{summary}\r\n{extra}"
            "END:VTODO\r\nEND:VCALENDAR\r\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    config = {}
    log_path = None
    members = {}  # href -> body (None: listed, never sent)
    by_plain = {}  # href percent-decoded -> href

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.handle_any
        raise AttributeError(name)

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock, open(self.log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps({"method": self.command, "path": self.path,
                                  "authorization": "Authorization" in self.headers,
                                  "body_length": len(body)}) + "\n")
        config = self.config
        time.sleep(config.get("delay", 0))
        if "redirect" in config:
            return self.answer(301, headers={"Location": config["redirect"] + self.path})
        if config.get("moved") and self.path.startswith("/old/"):
            return self.answer(301, headers={"Location": "/cal/" + self.path[len("/old/"):]})
        if config.get("error_page"):
            page = f"<html><body><h1>{HOSTILE}Server error</h1></body></html>".encode()
            return self.answer(500, page, {"Content-Type": "text/html"})
        if config.get("digest"):
            # Headers are Latin-1: the escapes without the bidi override.
            challenge = f'Digest realm="r", nonce="n", algorithm="{HOSTILE[:-1]}"'
            return self.answer(401, headers={"WWW-Authenticate": challenge})
        if self.command == "PROPFIND":
            return self.multistatus([self.collection_response()])
        if self.command == "REPORT":
            text = body.decode("utf-8", "replace")
            if "sync-collection" in text:
                return self.answer(403)
            if "calendar-multiget" in text:
                responses = []
                hrefs = [h.split("</d:href>")[0] for h in text.split("<d:href>")[1:]]
                for href in hrefs:
                    key = self.by_plain.get(unquote(href.replace("&amp;", "&")))
                    if key is None or self.members.get(key) is None:
                        continue
                    responses.append(self.member_response(key, self.members[key]))
                return self.multistatus(responses)
            if config.get("stream_bytes"):
                return self.stream(config["stream_bytes"])
            if config.get("flood_bytes"):
                response = ('<d:response><d:href>/cal/task-0.ics</d:href><d:propstat><d:prop><d:getetag>"'
                            + "e" * (1 << 20) + '"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status>'
                            "</d:propstat></d:response>")
                return self.stream(config["flood_bytes"], response.encode())
            responses = [self.member_response(href, None) for href in self.members]
            padding = ""
            if config.get("listing_bytes"):
                padding = "<!-- " + "x" * config["listing_bytes"] + " -->"
            return self.multistatus(responses, padding)
        if self.command == "PUT":
            self.members[self.path] = body.decode("utf-8", "replace")
            self.by_plain[unquote(self.path)] = self.path
            return self.answer(201, headers={"ETag": self.etag(self.path)})
        if self.command == "DELETE":
            self.members.pop(self.path, None)
            return self.answer(204)
        return self.answer(405)

    def collection_response(self):
        name = escape(self.config.get("display_name", "Tasks"))
        return ("<d:response><d:href>/cal/</d:href><d:propstat><d:prop>"
                "<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>"
                f"<d:displayname>{name}</d:displayname>"
                '<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>'
                f"<cs:getctag>{len(self.members)}-{time.time()}</cs:getctag>"
                "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")

    def member_response(self, href, data):
        shown = href if href.startswith(("//", "http:")) or "%" in href else quote(href, safe="/:.")
        etag = self.etag(href)
        calendar = "" if data is None else f"<c:calendar-data>{escape(data)}</c:calendar-data>"
        return (f"<d:response><d:href>{escape(shown)}</d:href><d:propstat><d:prop>"
                f"<d:getetag>{escape(etag)}</d:getetag>{calendar}"
                "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")

    def stream(self, total, response=None):
        """A multistatus of `total` bytes, padded by a comment (or by `response` again and
        again), never held whole."""
        head = b'<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">' + (b"" if response else b"<!-- ")
        tail = b"</d:multistatus>" if response else b" --></d:multistatus>"
        left = total - len(head) - len(tail)
        left -= left % len(response) if response else 0
        piece = response * max(1, (1 << 20) // len(response)) if response else b"x" * (1 << 20)
        self.send_response(207)
        self.send_header("Content-Type", "application/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(head) + left + len(tail)))
        self.end_headers()
        try:
            self.wfile.write(head)
            while left > 0:
                self.wfile.write(piece[:min(left, len(piece))])
                left -= len(piece)
            self.wfile.write(tail)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def etag(self, href):
        return f'"{abs(hash((href, self.members.get(href)))) % 10**8}"'

    def multistatus(self, responses, padding=""):
        text = ('<?xml version="1.0" encoding="utf-8"?>' + padding +
                '<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" '
                'xmlns:cs="http://calendarserver.org/ns/">' + "".join(responses) + "</d:multistatus>")
        self.answer(207, text.encode("utf-8"), {"Content-Type": "application/xml; charset=utf-8"})


def main():
    port, config_path, log_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    with open(config_path, encoding="utf-8") as f:
        config = json.load(f)
    members = {}
    for n in range(config.get("tasks", 0)):
        members[f"/cal/task-{n}.ics"] = vtodo(f"task-{n}", f"Task {n}")
    if config.get("big_bytes"):
        line = "ATTACH;ENCODING=BASE64;VALUE=BINARY:" + "A" * 70 + "\r\n "
        chunk = "A" * 74 + "\r\n "
        count = max(0, (config["big_bytes"] - len(line)) // len(chunk))
        members["/cal/big.ics"] = vtodo("big", "Big one", line + chunk * count + "A\r\n")
    for n in range(config.get("undelivered", 0)):
        members[f"/cal/gone-{n}.ics"] = None
    if config.get("hostile_href"):
        members["/cal/" + quote(HOSTILE, safe="") + ".ics"] = "not iCalendar " + HOSTILE
    if config.get("unreadable"):
        members["/cal/unreadable.ics"] = vtodo("unreadable", "Unreadable").replace(
            "END:VTODO", "END:" + HOSTILE)
    if config.get("foreign_hrefs"):
        members["//otherhost.invalid/cal/x.ics"] = vtodo("x", "Foreign x")
        members["/cal/../escaped.ics"] = vtodo("escaped", "Escaped")
        members["http://other.invalid/cal/y.ics"] = vtodo("y", "Foreign y")
    Handler.config = config
    Handler.log_path = log_path
    Handler.members = members
    Handler.by_plain = {unquote(href): href for href in members}
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    if config.get("tls"):
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(config["tls"][0], config["tls"][1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
