#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that makes a loopback server feel like one across the internet.

Usage: latency_proxy.py --to HOST:PORT [--listen PORT] [--one-way-ms MS] [--connect-ms MS]
                        [--stats FILE] [--keep-alive]

Every chunk read from one side is written to the other side one-way-ms after it arrived, in
each direction, while the chunks behind it keep arriving and get their own due time: a link
with latency, not a slow link (pipelined or parallel requests overlap as they would on a real
network, and a request/answer costs one round trip, 2 x one-way-ms). A new connection waits
connect-ms before the proxy connects upstream (what a TCP handshake, and TLS where the real link
would have it, cost). Defaults: 25 ms one way, 50 ms per connection.

--listen 0 (the default) picks a free port. Once listening it prints "ready PORT" on stdout.
--stats FILE is rewritten (atomically, one JSON line) whenever a connection opens or closes:
{"connections": N, "open": N, "max_open": N, "bytes_up": N, "bytes_down": N, "requests": N,
"methods": {"PUT": N, ...}}. Connections count the ones clients made (whether or not upstream
answered); requests are the HTTP/1.x request lines seen going up (a heuristic: the proxy does not
parse HTTP, it spots lines like "PUT /path HTTP/1.1" at the start of a line, which an iCalendar or
XML body does not hold).

--keep-alive makes the proxy an HTTP/1.1 front, as a hosted server's reverse proxy (nginx and
the like) is: it keeps each client connection open across requests and hands every request to the
server on a new upstream connection (with Connection: close), answering the client with a
Content-Length and HTTP/1.1. Radicale's own server speaks HTTP/1.0 and closes every connection,
so without it no client can keep a connection alive, and what keep-alive saves is not seen. The
delays are the same: a request goes up one-way-ms after its last byte arrived, its answer comes
back one-way-ms after the server gave it (requests on one connection are handled in turn: no
client here pipelines). "Expect: 100-continue" is answered after one round trip.

Needs nothing beyond Python's standard library (no netem, no root). Stops on SIGTERM or SIGINT.
Used by `make bench-sync` (Tests/Scripts/bench_sync.py).
"""

import argparse
import asyncio
import collections
import json
import os
import re
import signal
import sys


class Stats:
    def __init__(self, path):
        self.path = path
        self.connections = 0
        self.open = 0
        self.max_open = 0
        self.bytes_up = 0
        self.bytes_down = 0
        self.methods = {}

    def request(self, method):
        self.methods[method] = self.methods.get(method, 0) + 1

    def opened(self):
        self.connections += 1
        self.open += 1
        self.max_open = max(self.max_open, self.open)
        self.write()

    def closed(self):
        self.open -= 1
        self.write()

    def write(self):
        if not self.path:
            return
        line = json.dumps({"connections": self.connections, "open": self.open, "max_open": self.max_open,
                           "bytes_up": self.bytes_up, "bytes_down": self.bytes_down,
                           "requests": sum(self.methods.values()), "methods": self.methods})
        temp = self.path + ".tmp"
        with open(temp, "w") as f:
            f.write(line + "\n")
        os.replace(temp, self.path)


REQUEST_LINE = re.compile(rb"\n([A-Z]{3,12}) [^ \r\n]+ HTTP/1\.[01]\r?\n")


class RequestCounter:
    """Spots request lines in a byte stream that arrives in arbitrary chunks: each line is counted
    once, when its end arrives (a line split across two chunks is found in the kept tail)."""

    KEEP = 4096

    def __init__(self, stats):
        self.stats = stats
        self.tail = b"\n"  # the stream's start counts as a line start

    def feed(self, chunk):
        buffer = self.tail + chunk
        for match in REQUEST_LINE.finditer(buffer):
            if match.end() > len(self.tail):
                self.stats.request(match.group(1).decode("ascii"))
        self.tail = buffer[-self.KEEP:]


class DelayedPipe:
    """Reads from `reader` as fast as it can; each chunk is handed to `writer` `delay` seconds after
    it was read, in order. The reading never waits for the writing, so later bytes are not held
    back behind earlier ones (only by their own delay)."""

    def __init__(self, reader, writer, delay, count, watch=None):
        self.reader, self.writer, self.delay, self.count, self.watch = reader, writer, delay, count, watch
        self.pending = collections.deque()  # (due, bytes or None for end of stream)
        self.ready = asyncio.Event()

    async def run(self):
        loop = asyncio.get_running_loop()
        sender = asyncio.create_task(self.send())
        try:
            while True:
                chunk = await self.reader.read(1 << 16)
                if not chunk:
                    break
                self.count(len(chunk))
                if self.watch:
                    self.watch(chunk)
                self.pending.append((loop.time() + self.delay, chunk))
                self.ready.set()
        except (ConnectionError, OSError):
            pass
        self.pending.append((loop.time() + self.delay, None))
        self.ready.set()
        try:
            await sender
        except (ConnectionError, OSError):
            pass

    async def send(self):
        loop = asyncio.get_running_loop()
        while True:
            while not self.pending:
                self.ready.clear()
                await self.ready.wait()
            due, chunk = self.pending.popleft()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if chunk is None:
                try:
                    if self.writer.can_write_eof():
                        self.writer.write_eof()
                except OSError:
                    pass
                return
            self.writer.write(chunk)
            await self.writer.drain()


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--to", required=True, help="HOST:PORT of the real server")
    p.add_argument("--listen", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    p.add_argument("--one-way-ms", type=float, default=25.0, help="delay of each direction")
    p.add_argument("--connect-ms", type=float, default=50.0, help="extra delay of a new connection")
    p.add_argument("--stats", help="file for the counters (one JSON line)")
    p.add_argument("--keep-alive", action="store_true", help="an HTTP/1.1 front that keeps client connections")
    return p.parse_args(argv)


HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
              "content-length", "expect"}


def parse_head(head):
    lines = head.decode("latin-1").split("\r\n")
    headers = []
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
    return lines[0], headers


def header(headers, name):
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


async def read_body(reader, headers):
    if "chunked" in (header(headers, "transfer-encoding") or "").lower():
        body = b""
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                    pass
                return body
            body += await reader.readexactly(size)
            await reader.readexactly(2)
    length = header(headers, "content-length")
    return await reader.readexactly(int(length)) if length else b""


def unchunk(data):
    body, at = b"", 0
    while True:
        end = data.index(b"\r\n", at)
        size = int(data[at:end].split(b";")[0].strip(), 16)
        if size == 0:
            return body
        body += data[end + 2:end + 2 + size]
        at = end + 2 + size + 2


def wants_close(version, headers):
    connection = (header(headers, "connection") or "").lower()
    return "close" in connection or (version == "HTTP/1.0" and "keep-alive" not in connection)


async def http_front(client_reader, client_writer, host, port, delay, stats):
    """Serves one client connection as an HTTP/1.1 front (see --keep-alive) until either side ends it."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            start, headers = parse_head(await client_reader.readuntil(b"\r\n\r\n"))
            method, target, version = start.split(" ", 2)
            if (header(headers, "expect") or "").lower() == "100-continue":
                await asyncio.sleep(2 * delay)
                client_writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
                await client_writer.drain()
            body = await read_body(client_reader, headers)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, OSError, ValueError):
            return
        arrived = loop.time()
        stats.request(method)
        stats.bytes_up += len(start) + len(body)
        close = wants_close(version, headers)
        lines = [f"{method} {target} HTTP/1.1"] + [f"{k}: {v}" for k, v in headers if k.lower() not in HOP_BY_HOP]
        if body or header(headers, "content-length") is not None or header(headers, "transfer-encoding"):
            lines.append(f"Content-Length: {len(body)}")
        lines.append("Connection: close")
        wait = arrived + delay - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(host, port)
            upstream_writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
            await upstream_writer.drain()
            answer = await upstream_reader.read()  # to its end: Connection: close
            upstream_writer.close()
            head, _, answer_body = answer.partition(b"\r\n\r\n")
            status, answer_headers = parse_head(head)
            _, code, reason = (status.split(" ", 2) + [""])[:3]
        except (OSError, ValueError):
            return
        if "chunked" in (header(answer_headers, "transfer-encoding") or "").lower():
            answer_body = unchunk(answer_body)
        elif header(answer_headers, "content-length") is not None:
            answer_body = answer_body[:int(header(answer_headers, "content-length"))]
        if method == "HEAD" or code in ("204", "304"):
            answer_body = b""
        out = [f"HTTP/1.1 {code} {reason}".rstrip()] + [f"{k}: {v}" for k, v in answer_headers
                                                       if k.lower() not in HOP_BY_HOP]
        length = header(answer_headers, "content-length")
        out.append(f"Content-Length: {length if method == 'HEAD' and length else len(answer_body)}")
        out.append("Connection: close" if close else "Connection: keep-alive")
        data = ("\r\n".join(out) + "\r\n\r\n").encode("latin-1") + answer_body
        stats.bytes_down += len(data)
        await asyncio.sleep(delay)
        try:
            client_writer.write(data)
            await client_writer.drain()
        except (ConnectionError, OSError):
            return
        if close:
            return


async def serve(args):
    host, port = args.to.rsplit(":", 1)
    delay, connect = args.one_way_ms / 1000, args.connect_ms / 1000
    stats = Stats(args.stats)

    def up(n):
        stats.bytes_up += n

    def down(n):
        stats.bytes_down += n

    async def handle(client_reader, client_writer):
        stats.opened()
        server_writer = None
        try:
            if connect > 0:
                await asyncio.sleep(connect)
            if args.keep_alive:
                await http_front(client_reader, client_writer, host, int(port), delay, stats)
                return
            try:
                server_reader, server_writer = await asyncio.open_connection(host, int(port))
            except OSError:
                return
            await asyncio.gather(DelayedPipe(client_reader, server_writer, delay, up, RequestCounter(stats).feed).run(),
                                 DelayedPipe(server_reader, client_writer, delay, down).run())
        finally:
            for writer in (server_writer, client_writer):
                if writer is not None:
                    try:
                        writer.close()
                    except OSError:
                        pass
            stats.closed()

    server = await asyncio.start_server(handle, "127.0.0.1", args.listen)
    stats.write()
    print(f"ready {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()
    stats.write()


def main(argv):
    asyncio.run(serve(parse_args(argv)))


if __name__ == "__main__":
    main(sys.argv[1:])
