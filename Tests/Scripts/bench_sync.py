#!/usr/bin/env python3
"""`make bench-sync`: HotTask's sync against vdirsyncer and a minimal client, through a latency proxy.

Usage: bench_sync.py [--tasks N] [--big N[,N...]] [--big-clients NAMES] [--lists LxN[,LxN...]] [--repeats R]
                     [--latencies 25:50,25:50:keepalive,0:0] [--out FILE]
                     [--hottask BIN] [--timeout S] [--keep]
       bench_sync.py floor put|change|quiet|pull URL STATE [N]     (the floor client, run by the above;
                                                                  put takes URL,URL,... too)
       bench_sync.py floor quiet-home HOME_URL STATE

One run starts Radicale on 127.0.0.1 (auth none, a temporary folder) and, for each latency
profile ONE_WAY_MS:CONNECT_MS[:keepalive], Tests/Scripts/latency_proxy.py in front of it (with
:keepalive, as an HTTP/1.1 front that keeps client connections open, as a hosted server's reverse
proxy does: Radicale's own server speaks HTTP/1.0 and closes every connection, so that without it
no client can keep one alive). Three clients then
sync the same N new tasks into a fresh calendar collection each (/u/run-K/, made by
Tests/Scripts/caldav_phone.py straight on Radicale), through the same proxy, interleaved case by
case (HotTask, vdirsyncer, floor; again for each repeat):

  first upload   N new tasks to the empty collection
  one changed    one task completed locally, then a sync
  quiet sync     nothing changed
  pull           the filled collection into an empty store (a second HotTask store, a second
                 vdir, the floor's one REPORT)
  big            for each size in --big (e.g. 2000,10000; 0, the default, leaves them out: slow
                 on Radicale), a first upload of that many new tasks, then one changed task and
                 a quiet sync at that size, by the clients in --big-clients (all three unless
                 told: vdirsyncer takes minutes per thousand tasks on Radicale)
  lists          for each LxN in --lists (e.g. 10x200,1x2000; issue 53's goal is 10x200), L task
                 calendars of N tasks each, synced at once by HotTask and the floor only: a first
                 upload of the L x N new tasks, then a quiet sync of all L calendars. HotTask's
                 store holds L lists (`--new-list`, `--add ... --in`), its [sync] the calendar
                 home (url) and the L calendars (calendars = [...]), made beforehand by
                 caldav_phone.py with the lists' names. The floor's upload is the same PUTs
                 (If-None-Match: *) spread over the L collections on the same 8 kept-alive
                 connections; its quiet sync is one Depth-1 PROPFIND of the home for every
                 calendar's ctag and sync-token. --tasks 0 leaves out the rows above, so the
                 lists rows run alone.

Clients: HotTask (`hottask --file STORE --config CFG --sync`, a store made by one
`hottask --add ...`); vdirsyncer (a filesystem vdir of N .ics files paired with the caldav
collection, collections = null, `discover` untimed, `sync` timed); the floor (this script: the
same PUTs with If-None-Match: * over 8 kept-alive HTTP/1.1 connections, one per thread; one PUT
with If-Match for a change; one PROPFIND of the ctag for a quiet sync; one calendar-query REPORT
for a pull). Each is a child process, timed from start to exit: wall time, and CPU (user + sys of
the process and every child it waited for, from wait4). The proxy counts the connections and
request lines of each. Every step is checked (exit status, objects on the server, tasks pulled);
a failed step is shown as such and the run exits 1.

Defaults come from the environment: BENCH_SYNC_TASKS (200), BENCH_SYNC_BIG (0),
BENCH_SYNC_BIG_CLIENTS (HotTask,vdirsyncer,floor), BENCH_SYNC_LISTS (0: none),
BENCH_SYNC_REPEATS (1), BENCH_SYNC_LATENCIES ("25:50,25:50:keepalive,0:0": 25 ms each way and
50 ms per new connection, plain TCP and then behind a keep-alive front; then no added latency), HOTTASK_BIN (.build/release/hottask; hottask-sync is taken
from beside it), BENCH_SYNC_TIMEOUT (900 s per step). The tables go to stdout and to --out.
"""

import argparse
import base64
import datetime
import http.client
import json
import os
import queue
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLIENTS = ["HotTask", "vdirsyncer", "floor"]
CASES = ["first", "changed", "quiet", "pull"]
CASE_TITLES = {"first": "first upload of {n}", "changed": "one changed task", "quiet": "quiet sync (nothing changed)",
               "pull": "pull {n} into an empty store"}
# Each --big size's cases, in order: the first is timed for every big client before the next.
BIG_CASES = {"first": "first upload of {big}", "changed": "one changed task at {big}", "quiet": "quiet sync at {big}"}


def big_case(size, case):
    return f"big{size}-{case}"


# Each --lists LxN's cases, by HotTask and the floor (LISTS_CLIENTS), in order.
LISTS_CASES = {"first": "first upload of {l} calendars × {n}", "quiet": "quiet sync of {l} calendars × {n}"}
LISTS_CLIENTS = ["HotTask", "floor"]


def lists_case(shape, case):
    return f"lists{shape[0]}x{shape[1]}-{case}"


def case_title(case, n):
    if case in CASE_TITLES:
        return CASE_TITLES[case].format(n=n)
    if case.startswith("lists"):
        shape, _, which = case[5:].partition("-")
        calendars, _, size = shape.partition("x")
        return LISTS_CASES[which].format(l=calendars, n=f"{int(size):,}")
    size, _, which = case[3:].partition("-")
    return BIG_CASES[which].format(big=f"{int(size):,}")
FLOOR_CONNECTIONS = 8
def auth_headers(headers):
    """The headers with the server's login added, when it has one ("Basic …" in BENCH_SYNC_AUTH,
    set by main() for Cyrus and inherited by the floor's child processes)."""
    login = os.environ.get("BENCH_SYNC_AUTH")
    return dict(headers, Authorization=login) if login else headers


# ---------------------------------------------------------------------------------------------
# iCalendar objects, the same for vdirsyncer and the floor (HotTask writes its own).

def caption(i):
    return f"Bench task {i}"


def vtodo(uid, summary, completed=False):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//HotTask//bench-sync//EN", "BEGIN:VTODO",
             f"UID:{uid}", "DTSTAMP:20261125T120000Z", "CREATED:20261125T120000Z",
             "LAST-MODIFIED:20261125T120000Z", f"SUMMARY:{summary}"]
    if completed:
        lines += ["STATUS:COMPLETED", "COMPLETED:20261125T130000Z", "PERCENT-COMPLETE:100",
                  "LAST-MODIFIED:20261125T130000Z"]
        lines.remove("LAST-MODIFIED:20261125T120000Z")
    else:
        lines.append("STATUS:NEEDS-ACTION")
    lines += ["END:VTODO", "END:VCALENDAR"]
    return ("\r\n".join(lines) + "\r\n").encode()


# ---------------------------------------------------------------------------------------------
# The floor client: the least a client must send. Run as a child process so it is timed alike.

def floor_connection(url):
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=120), parts.path


def unique_uid(client, collection_path, i):
    """A UID no other collection of the run uses: Cyrus keeps UIDs unique across all of a user's
    calendars (CALDAV:no-uid-conflict) and refuses a PUT that repeats one with 403."""
    return f"{client}-{collection_path.rstrip('/').rsplit('/', 1)[-1]}-{i}"


def floor_uid(base, i):
    return unique_uid("floor", base, i)


def floor_put(url, state_path, count):
    """`count` new tasks into each collection of `url` (one URL, or several joined by commas: the
    collection's tasks are sent in turn, the connections shared by all)."""
    urls = url.split(",")
    work = queue.Queue()
    for u in urls:
        for i in range(1, count + 1):
            work.put((urlsplit(u).path, i))
    etags, errors, lock = {}, [], threading.Lock()

    def worker():
        conn, _ = floor_connection(urls[0])
        try:
            while True:
                try:
                    base, i = work.get_nowait()
                except queue.Empty:
                    return
                uid = floor_uid(base, i)
                conn.request("PUT", f"{base}{uid}.ics", body=vtodo(uid, caption(i)),
                             headers=auth_headers({"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"}))
                answer = conn.getresponse()
                answer.read()
                with lock:
                    if answer.status in (201, 204):
                        etags[uid] = answer.getheader("ETag")
                    else:
                        errors.append(f"PUT {uid}: {answer.status}")
        finally:
            conn.close()

    threads = [threading.Thread(target=worker) for _ in range(min(FLOOR_CONNECTIONS, count * len(urls)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(state_path, "w") as f:
        json.dump(etags, f)
    if errors:
        sys.exit("floor: " + "; ".join(errors[:5]))


def floor_change(url, state_path):
    with open(state_path) as f:
        etags = json.load(f)
    conn, base = floor_connection(url)
    headers = {"Content-Type": "text/calendar; charset=utf-8"}
    first = floor_uid(base, 1)
    if etags.get(first):
        headers["If-Match"] = etags[first]
    conn.request("PUT", f"{base}{first}.ics", body=vtodo(first, caption(1), completed=True), headers=auth_headers(headers))
    answer = conn.getresponse()
    answer.read()
    conn.close()
    if answer.status not in (200, 201, 204):
        sys.exit(f"floor: PUT {first}: {answer.status}")


def floor_quiet(url):
    conn, base = floor_connection(url)
    body = (b'<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" '
            b'xmlns:cs="http://calendarserver.org/ns/"><d:prop><cs:getctag/><d:sync-token/></d:prop></d:propfind>')
    conn.request("PROPFIND", base, body=body, headers=auth_headers({"Depth": "0", "Content-Type": "application/xml; charset=utf-8"}))
    answer = conn.getresponse()
    answer.read()
    conn.close()
    if answer.status != 207:
        sys.exit(f"floor: PROPFIND: {answer.status}")


def floor_quiet_home(url, state_path):
    """A quiet sync of every calendar in a home: one Depth-1 PROPFIND for their ctags and tokens."""
    conn, base = floor_connection(url)
    body = (b'<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" '
            b'xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:resourcetype/><d:displayname/><cs:getctag/>'
            b'<d:sync-token/></d:prop></d:propfind>')
    conn.request("PROPFIND", base, body=body, headers=auth_headers({"Depth": "1", "Content-Type": "application/xml; charset=utf-8"}))
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    if answer.status != 207:
        sys.exit(f"floor: PROPFIND {base}: {answer.status}")
    with open(state_path, "w") as f:
        json.dump({"ctags": data.count(b"getctag>") // 2}, f)


def floor_pull(url, state_path):
    conn, base = floor_connection(url)
    body = (b'<?xml version="1.0" encoding="utf-8"?><c:calendar-query xmlns:d="DAV:" '
            b'xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>'
            b'<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter>'
            b'</c:filter></c:calendar-query>')
    conn.request("REPORT", base, body=body, headers=auth_headers({"Depth": "1", "Content-Type": "application/xml; charset=utf-8"}))
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    if answer.status != 207:
        sys.exit(f"floor: REPORT: {answer.status}")
    with open(state_path, "w") as f:
        json.dump({"pulled": data.count(b"BEGIN:VTODO")}, f)


def floor_main(argv):
    verb, url, state = argv[0], argv[1], argv[2]
    if verb == "put":
        floor_put(url, state, int(argv[3]))
    elif verb == "change":
        floor_change(url, state)
    elif verb == "quiet":
        floor_quiet(url)
    elif verb == "quiet-home":
        floor_quiet_home(url, state)
    elif verb == "pull":
        floor_pull(url, state)
    else:
        sys.exit(f"floor: unknown verb {verb}")


# ---------------------------------------------------------------------------------------------
# Processes: timing, and the servers.

class Step:
    """One timed run of a client: wall seconds, CPU seconds, connections and requests."""

    def __init__(self, ok, wall, cpu, note="", conns=None, requests=None, methods=None):
        self.ok, self.wall, self.cpu, self.note = ok, wall, cpu, note
        self.conns, self.requests, self.methods = conns, requests, methods or {}


def timed(argv, log_path, timeout, env=None, cwd=None):
    """Runs argv to its end; returns (exit code or None on time-out, wall s, user+sys s of it and
    its waited-for children)."""
    with open(log_path, "ab") as log:
        log.write(("\n$ " + " ".join(argv) + "\n").encode())
        log.flush()
        start = time.monotonic()
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env, cwd=cwd,
                                 start_new_session=True)
        timer = threading.Timer(timeout, kill_group, (child.pid,))
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        kill_group(child.pid)  # whatever the child left in its session (a killed hottask's hottask-sync)
    code = child.returncode
    if code == -signal.SIGKILL and wall >= timeout:
        code = None
    return code, wall, usage.ru_utime + usage.ru_stime


def kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_quiet(argv, log_path, env=None, timeout=300):
    code, _, _ = timed(argv, log_path, timeout, env=env)
    if code != 0:
        raise SystemExit(f"bench-sync: {' '.join(argv[:3])}… failed (exit {code}); see {log_path}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process, what, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"bench-sync: {what} exited at start (exit {process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"bench-sync: {what} is not listening on {port} after {seconds} s")


class Radicale:
    collections = "/u/"
    login = None

    def __init__(self, folder):
        self.port = free_port()
        self.folder = folder
        config = os.path.join(folder, "radicale.conf")
        with open(config, "w") as f:
            f.write(f"[server]\nhosts = 127.0.0.1:{self.port}\n[auth]\ntype = none\n"
                    f"[storage]\nfilesystem_folder = {os.path.join(folder, 'collections')}\n")
        self.log = open(os.path.join(folder, "radicale.log"), "wb")
        self.process = subprocess.Popen(["radicale", "--config", config], stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=self.log)
        wait_for_port(self.port, self.process, "radicale")
        self.url = f"http://127.0.0.1:{self.port}"

    def version(self):
        try:
            return subprocess.run(["radicale", "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return "?"

    def stop(self):
        stop_process(self.process)
        self.log.close()


class Cyrus:
    """Cyrus IMAP 3.6's CalDAV (Fastmail's engine), which handles requests in parallel: started by
    Tests/Scripts/cyrus_server.sh, user u, password p."""

    collections = "/dav/calendars/user/u/"
    login = ("u", "p")

    def __init__(self, folder):
        self.port = free_port()
        self.folder = os.path.join(folder, "cyrus")
        # Cyrus runs as the user cyrus, who must get through every folder above its own.
        path = folder
        while path not in ("/", ""):
            os.chmod(path, os.stat(path).st_mode | 0o005)
            path = os.path.dirname(path)
        self.log = open(os.path.join(folder, "cyrus.log"), "wb")
        self.process = subprocess.Popen([os.path.join(HERE, "cyrus_server.sh"), str(self.port), self.folder],
                                        stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        wait_for_port(self.port, self.process, "cyrus")
        deadline = time.time() + 30
        while not os.path.exists(os.path.join(self.folder, "ready")) and time.time() < deadline:
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def version(self):
        return "Cyrus IMAP 3.6 (Debian cyrus-caldav)"

    def stop(self):
        stop_process(self.process)
        self.log.close()


def phone_environment(server):
    """What caldav_phone.py needs to log in to `server`."""
    env = dict(os.environ)
    if getattr(server, "login", None):
        env.update(PHONE_AUTH="basic", HOTTASK_PHONE_PASSWORD=server.login[1])
    return env


class Proxy:
    def __init__(self, folder, upstream_port, one_way_ms, connect_ms, keep_alive):
        self.stats_path = os.path.join(folder, f"proxy-{one_way_ms:g}-{connect_ms:g}{'-ka' if keep_alive else ''}.json")
        self.log = open(self.stats_path + ".log", "wb")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "latency_proxy.py"), "--to", f"127.0.0.1:{upstream_port}",
             "--one-way-ms", str(one_way_ms), "--connect-ms", str(connect_ms), "--stats", self.stats_path]
            + (["--keep-alive"] if keep_alive else []),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log)
        line = self.process.stdout.readline().decode()
        if not line.startswith("ready "):
            raise SystemExit(f"bench-sync: the latency proxy did not start: {line!r}")
        self.port = int(line.split()[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def stats(self):
        """The counters once every connection is closed (the proxy closes a connection one delay
        after its client did; at most 5 s are waited for)."""
        deadline = time.monotonic() + 5
        while True:
            try:
                with open(self.stats_path) as f:
                    stats = json.load(f)
            except (OSError, ValueError):
                stats = None
            if stats and stats["open"] == 0 or time.monotonic() > deadline:
                return stats or {"connections": 0, "requests": 0, "methods": {}}
            time.sleep(0.02)

    def stop(self):
        stop_process(self.process)
        self.log.close()


def stop_process(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ---------------------------------------------------------------------------------------------
# The server's side of the checks, straight on Radicale (not through the proxy, not timed).

def objects_on_server(collection_url):
    parts = urlsplit(collection_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    conn.request("PROPFIND", parts.path, body=b'<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop>'
                 b'<d:getetag/></d:prop></d:propfind>', headers=auth_headers({"Depth": "1", "Content-Type": "application/xml"}))
    answer = conn.getresponse()
    data = answer.read().decode("utf-8", "replace")
    conn.close()
    hrefs = re.findall(r"<(?:\w+:)?href>([^<]+)</(?:\w+:)?href>", data)
    return sum(1 for h in hrefs if h.rstrip("/") != parts.path.rstrip("/"))


def completed_on_server(collection_url):
    parts = urlsplit(collection_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    conn.request("REPORT", parts.path, body=(
        b'<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">'
        b'<d:prop><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR">'
        b'<c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>'),
        headers=auth_headers({"Depth": "1", "Content-Type": "application/xml"}))
    data = conn.getresponse().read().decode("utf-8", "replace")
    conn.close()
    return data.count("STATUS:COMPLETED")


# ---------------------------------------------------------------------------------------------
# The three clients. Each has a collection of its own; setup is untimed, each case one timed step.

class Client:
    name = "?"

    def __init__(self, bench, folder, collection, count):
        self.bench, self.folder, self.count = bench, folder, count
        os.makedirs(folder, exist_ok=True)
        self.log = os.path.join(folder, "log.txt")
        self.direct_url = f"{bench.radicale.url}{collection}"  # for make-calendar and the checks
        self.url = f"{bench.proxy.url}{collection}"
        run_quiet([sys.executable, os.path.join(HERE, "caldav_phone.py"), self.direct_url, "make-calendar"], self.log,
                  env=phone_environment(bench.radicale))

    def step(self, argv, check, env=None):
        before = self.bench.proxy.stats()
        code, wall, cpu = timed(argv, self.log, self.bench.timeout, env=env)
        after = self.bench.proxy.stats()
        methods = {m: n - before.get("methods", {}).get(m, 0) for m, n in after.get("methods", {}).items()}
        methods = {m: n for m, n in methods.items() if n}
        result = Step(code == 0, wall, cpu, conns=after["connections"] - before["connections"],
                      requests=after.get("requests", 0) - before.get("requests", 0), methods=methods)
        if code is None:
            result.note = f"timed out after {self.bench.timeout:g} s"
        elif code != 0:
            result.note = f"exit {code}"
        else:
            problem = check()
            if problem:
                result.ok, result.note = False, problem
        if not result.ok:
            result.note += f" (log: {self.log})"
        return result

    def expect_objects(self, n):
        def check():
            found = objects_on_server(self.direct_url)
            return None if found == n else f"{found} objects on the server, {n} expected"
        return check

    def expect_completed(self):
        def check():
            found = completed_on_server(self.direct_url)
            return None if found == 1 else f"{found} completed tasks on the server, 1 expected"
        return check


def write_sync_config(folder, lines, login):
    """HotTask's config.toml in `folder`: the [sync] table's `lines`, and the login when given."""
    path = os.path.join(folder, "config.toml")
    with open(path, "w") as f:
        f.write(f"[sync]\n{lines}\n")
        if login:
            f.write(f'username = "{login[0]}"\npassword_command = "echo {login[1]}"\n')
    return path


class HotTask(Client):
    name = "HotTask"

    def __init__(self, bench, folder, collection, count):
        super().__init__(bench, folder, collection, count)
        self.bin = bench.hottask
        self.config = write_sync_config(folder, f'url = "{self.url}"', bench.radicale.login)
        os.makedirs(os.path.join(folder, "a"))
        os.makedirs(os.path.join(folder, "b"))
        self.store = os.path.join(folder, "a", "tasks.json")
        self.empty_store = os.path.join(folder, "b", "tasks.json")
        adds = []
        for i in range(1, count + 1):
            adds += ["--add", caption(i)]
        run_quiet([self.bin, "--file", self.store, "--quiet"] + adds, self.log)

    def sync(self, store):
        return [self.bin, "--file", store, "--config", self.config, "--sync"]

    def first(self):
        return self.step(self.sync(self.store), self.expect_objects(self.count))

    def changed(self):
        run_quiet([self.bin, "--file", self.store, "--quiet", "--done", "1"], self.log)
        return self.step(self.sync(self.store), self.expect_completed())

    def quiet(self):
        return self.step(self.sync(self.store), self.expect_objects(self.count))

    def pull(self):
        def check():
            listing = subprocess.run([self.bin, "--file", self.empty_store, "--list", "--json"], capture_output=True,
                                     timeout=60)
            try:
                found = len(json.loads(listing.stdout)["tasks"])
            except (ValueError, KeyError):
                return f"--list --json of the pulled store failed (exit {listing.returncode})"
            return None if found == self.count else f"{found} tasks pulled, {self.count} expected"
        return self.step(self.sync(self.empty_store), check)


class Vdirsyncer(Client):
    name = "vdirsyncer"

    def __init__(self, bench, folder, collection, count):
        super().__init__(bench, folder, collection, count)
        self.collection = collection
        self.vdir = os.path.join(folder, "vdir")
        os.makedirs(self.vdir)
        for i in range(1, count + 1):
            uid = unique_uid("vdir", self.collection, i)
            with open(os.path.join(self.vdir, f"{uid}.ics"), "wb") as f:
                f.write(vtodo(uid, caption(i)))
        self.config = self.write_config("a", self.vdir)
        os.makedirs(os.path.join(folder, "pulled"))
        self.pull_config = self.write_config("b", os.path.join(folder, "pulled"))
        run_quiet(bench.vdirsyncer + ["-c", self.config, "discover"], self.log)
        run_quiet(bench.vdirsyncer + ["-c", self.pull_config, "discover"], self.log)

    def write_config(self, name, vdir):
        path = os.path.join(self.folder, f"vdirsyncer-{name}.conf")
        with open(path, "w") as f:
            f.write(f'[general]\nstatus_path = "{os.path.join(self.folder, "status-" + name)}/"\n\n'
                    f'[pair bench]\na = "bench_local"\nb = "bench_remote"\ncollections = null\n'
                    f'conflict_resolution = "a wins"\n\n'
                    f'[storage bench_local]\ntype = "filesystem"\npath = "{vdir}/"\nfileext = ".ics"\n\n'
                    f'[storage bench_remote]\ntype = "caldav"\nurl = "{self.url}"\n'
                    + (f'username = "{self.bench.radicale.login[0]}"\npassword = "{self.bench.radicale.login[1]}"\n'
                       if self.bench.radicale.login else ''))
        return path

    def sync(self, config):
        return self.bench.vdirsyncer + ["-c", config, "sync"]

    def first(self):
        return self.step(self.sync(self.config), self.expect_objects(self.count))

    def changed(self):
        # A new mtime and new content, as an editor's save would leave.
        first = unique_uid("vdir", self.collection, 1)
        with open(os.path.join(self.vdir, f"{first}.ics"), "wb") as f:
            f.write(vtodo(first, caption(1), completed=True))
        return self.step(self.sync(self.config), self.expect_completed())

    def quiet(self):
        return self.step(self.sync(self.config), self.expect_objects(self.count))

    def pull(self):
        def check():
            found = len([n for n in os.listdir(os.path.join(self.folder, "pulled")) if n.endswith(".ics")])
            return None if found == self.count else f"{found} files pulled, {self.count} expected"
        return self.step(self.sync(self.pull_config), check)


class Floor(Client):
    name = "floor"

    def __init__(self, bench, folder, collection, count):
        super().__init__(bench, folder, collection, count)
        self.state = os.path.join(folder, "etags.json")
        self.pulled = os.path.join(folder, "pulled.json")

    def floor(self, *args):
        return [sys.executable, os.path.abspath(__file__), "floor"] + list(args)

    def first(self):
        return self.step(self.floor("put", self.url, self.state, str(self.count)), self.expect_objects(self.count))

    def changed(self):
        return self.step(self.floor("change", self.url, self.state), self.expect_completed())

    def quiet(self):
        return self.step(self.floor("quiet", self.url, self.state), lambda: None)

    def pull(self):
        def check():
            with open(self.pulled) as f:
                found = json.load(f)["pulled"]
            return None if found == self.count else f"{found} tasks pulled, {self.count} expected"
        return self.step(self.floor("pull", self.url, self.pulled), check)


CLIENT_CLASSES = {"HotTask": HotTask, "vdirsyncer": Vdirsyncer, "floor": Floor}


class ListsClient(Client):
    """A client of the --lists rows: `calendars` task calendars of `count` tasks each, in the home
    (every collection of the run is in it), made straight on the server beforehand (untimed)."""

    def __init__(self, bench, folder, calendars, count):
        self.bench, self.folder, self.count = bench, folder, count
        os.makedirs(folder, exist_ok=True)
        self.log = os.path.join(folder, "log.txt")
        self.collections = [bench.collection() for _ in range(calendars)]
        self.names = [c.rstrip("/").rsplit("/", 1)[-1] for c in self.collections]  # their display names
        self.direct_urls = [f"{bench.radicale.url}{c}" for c in self.collections]
        self.urls = [f"{bench.proxy.url}{c}" for c in self.collections]
        self.home = f"{bench.proxy.url}{bench.radicale.collections}"
        for url in self.direct_urls:
            run_quiet([sys.executable, os.path.join(HERE, "caldav_phone.py"), url, "make-calendar"], self.log,
                      env=phone_environment(bench.radicale))

    def expect_objects(self, n):
        def check():
            wrong = [f"{name}: {found}" for name, found in
                     ((name, objects_on_server(url)) for name, url in zip(self.names, self.direct_urls)) if found != n]
            return None if not wrong else f"objects on the server, {n} expected in each: " + ", ".join(wrong[:5])
        return check


class ListsHotTask(ListsClient):
    name = "HotTask"

    def __init__(self, bench, folder, calendars, count):
        super().__init__(bench, folder, calendars, count)
        self.bin = bench.hottask
        # Radicale asks for a login at the home (its rights: owner only), though not for a calendar.
        self.config = write_sync_config(
            folder, f'url = "{self.home}"\ncalendars = [{", ".join(json.dumps(u) for u in self.urls)}]',
            bench.radicale.login or ("u", "p"))
        os.makedirs(os.path.join(folder, "a"))
        self.store = os.path.join(folder, "a", "tasks.json")
        for k, name in enumerate(self.names):
            run_quiet([self.bin, "--file", self.store, "--quiet", "--new-list", name], self.log)
            adds = []
            for i in range(1, count + 1):
                adds += ["--add", caption(k * count + i)]
            run_quiet([self.bin, "--file", self.store, "--quiet"] + adds + ["--in", name], self.log)

    def sync(self):
        return [self.bin, "--file", self.store, "--config", self.config, "--sync"]

    def first(self):
        return self.step(self.sync(), self.expect_objects(self.count))

    def quiet(self):
        return self.step(self.sync(), self.expect_objects(self.count))


class ListsFloor(ListsClient):
    name = "floor"

    def __init__(self, bench, folder, calendars, count):
        super().__init__(bench, folder, calendars, count)
        self.state = os.path.join(folder, "etags.json")
        self.ctags = os.path.join(folder, "ctags.json")

    def floor(self, *args):
        return [sys.executable, os.path.abspath(__file__), "floor"] + list(args)

    def first(self):
        return self.step(self.floor("put", ",".join(self.urls), self.state, str(self.count)),
                         self.expect_objects(self.count))

    def quiet(self):
        def check():
            with open(self.ctags) as f:
                found = json.load(f)["ctags"]
            return None if found >= len(self.urls) else f"{found} ctags in the home's listing, {len(self.urls)} expected"
        return self.step(self.floor("quiet-home", self.home, self.ctags), check)


LISTS_CLIENT_CLASSES = {"HotTask": ListsHotTask, "floor": ListsFloor}


# ---------------------------------------------------------------------------------------------
# The run.

class Bench:
    def __init__(self, args, folder):
        self.args, self.folder = args, folder
        self.hottask = os.path.abspath(args.hottask)
        self.timeout = args.timeout
        found = shutil.which("vdirsyncer")
        self.vdirsyncer = [found] if found else [sys.executable, "-m", "vdirsyncer"]
        self.collections = 0
        self.radicale = None
        self.proxy = None

    def collection(self):
        self.collections += 1
        return f"{self.radicale.collections}run-{self.collections}/"

    def profile(self, one_way_ms, connect_ms, keep_alive):
        """Every case for every client, interleaved, at one latency; returns {case: {client: [Step]}}."""
        cases = (CASES if self.args.tasks > 0 else []) + [big_case(size, case) for size in self.args.big for case in BIG_CASES]
        cases += [lists_case(shape, case) for shape in self.args.lists for case in LISTS_CASES]
        results = {case: {c: [] for c in CLIENTS} for case in cases}
        self.proxy = Proxy(self.folder, self.radicale.port, one_way_ms, connect_ms, keep_alive)
        label = f"{one_way_ms:g}+{connect_ms:g} ms{' keep-alive' if keep_alive else ''}"
        try:
            for repeat in range(1, self.args.repeats + 1):
                clients = [CLIENT_CLASSES[name](self, os.path.join(self.folder, f"{one_way_ms:g}ms{'-ka' if keep_alive else ''}-r{repeat}-{name}"),
                                                self.collection(), self.args.tasks) for name in CLIENTS] if self.args.tasks > 0 else []
                for case in (CASES if clients else []):
                    for client in clients:
                        step = getattr(client, case)()
                        results[case][client.name].append(step)
                        progress(label, repeat, case, client.name, step)
                for size in self.args.big:
                    bigs = [CLIENT_CLASSES[name](self, os.path.join(self.folder, f"{one_way_ms:g}ms{'-ka' if keep_alive else ''}-r{repeat}-big{size}-{name}"),
                                                 self.collection(), size) for name in CLIENTS if name in self.args.big_clients]
                    for case in BIG_CASES:
                        for client in bigs:
                            step = getattr(client, case)()
                            results[big_case(size, case)][client.name].append(step)
                            progress(label, repeat, big_case(size, case), client.name, step)
                for shape in self.args.lists:
                    several = [LISTS_CLIENT_CLASSES[name](self, os.path.join(self.folder, f"{one_way_ms:g}ms{'-ka' if keep_alive else ''}-r{repeat}-lists{shape[0]}x{shape[1]}-{name}"),
                                                          shape[0], shape[1]) for name in LISTS_CLIENTS]
                    for case in LISTS_CASES:
                        for client in several:
                            step = getattr(client, case)()
                            results[lists_case(shape, case)][client.name].append(step)
                            progress(label, repeat, lists_case(shape, case), client.name, step)
        finally:
            self.proxy.stop()
        return results


def progress(label, repeat, case, client, step):
    state = "ok" if step.ok else "FAILED: " + step.note
    print(f"  [{label}, run {repeat}] {case:8} {client:10} {step.wall:7.2f} s wall "
          f"{step.cpu:6.2f} s CPU {step.conns:4} conns {step.requests:5} requests  {state}", file=sys.stderr, flush=True)


def median(values):
    return statistics.median(values) if values else None


def cell(steps, attr):
    if not steps:
        return "–"
    if not all(s.ok for s in steps):
        return "failed"
    values = [getattr(s, attr) for s in steps]
    text = f"{median(values):.2f}"
    if len(values) > 1:
        text += f" ({min(values):.2f}–{max(values):.2f})"
    return text


def value(results, case, client, attr="wall"):
    steps = results.get(case, {}).get(client, [])
    if not steps or not all(s.ok for s in steps):
        return None
    return median([getattr(s, attr) for s in steps])


def ratio_line(label, a, b, target=None):
    if a is None or b is None or b == 0:
        text = "n/a (a step failed)"
    else:
        r = a / b
        text = f"{r:.2f}×"
        if target is not None:
            text += " ✓" if r <= target else " ✗"
    goal = f" (target ≤ {target:g}×)" if target is not None else ""
    return f"- {label}: {text}{goal}"


def seconds_line(label, a, target=None, extra=""):
    if a is None:
        text = "n/a (a step failed)"
    else:
        text = f"{a:.2f} s"
        if target is not None:
            text += " ✓" if a <= target else " ✗"
    goal = f" (target ≤ {target:g} s)" if target is not None else ""
    return f"- {label}: {text}{goal}{extra}"


def report(args, one_way_ms, connect_ms, keep_alive, results):
    n = args.tasks
    issue_profile = (one_way_ms, connect_ms) == (25, 50)
    lines = [f"### {one_way_ms:g} ms each way, {connect_ms:g} ms per new connection "
             f"(round trip {2 * one_way_ms:g} ms), "
             + ("behind a keep-alive HTTP/1.1 front, " if keep_alive else
                "plain TCP (Radicale closes every connection), " if args.server == "radicale" else "plain TCP, ")
             + (f"{n} tasks, " if n > 0 else "")
             + f"{args.repeats} run{'s' if args.repeats > 1 else ''}", ""]
    head = "| case |" + "".join(f" {c} s | {c} CPU s |" for c in CLIENTS)
    lines += [head, "|---|" + "---:|---:|" * len(CLIENTS)]
    for case in results:
        title = case_title(case, n)
        row = f"| {title} |"
        for c in CLIENTS:
            steps = results[case][c]
            row += f" {cell(steps, 'wall')} | {cell(steps, 'cpu')} |"
        lines.append(row)
    lines += ["", "Connections / requests each (as the proxy saw them, last run):", "",
              "| case |" + "".join(f" {c} |" for c in CLIENTS), "|---|" + "---:|" * len(CLIENTS)]
    for case in results:
        row = f"| {case_title(case, n)} |"
        for c in CLIENTS:
            steps = results[case][c]
            if steps:
                s = steps[-1]
                methods = ", ".join(f"{m} {k}" for m, k in sorted(s.methods.items()))
                row += f" {s.conns} / {s.requests}" + (f" ({methods})" if methods else "") + " |"
            else:
                row += " – |"
        lines.append(row)
    t = (lambda x: x) if issue_profile else (lambda x: None)
    lines += lists_report(args, results, t)
    if n <= 0:
        lines += big_report(args, results, t)
        return finish_report(lines, results)
    h_first, v_first, f_first = (value(results, "first", c) for c in CLIENTS)
    lines += ["", "Ratios" + (" (targets of issue 31):" if issue_profile else ":"),
              ratio_line(f"first upload of {n}, HotTask / floor", h_first, f_first, t(1.5)),
              ratio_line(f"first upload of {n}, HotTask / vdirsyncer", h_first, v_first, t(0.3)),
              ratio_line(f"CPU of that upload, HotTask / vdirsyncer", value(results, "first", "HotTask", "cpu"),
                         value(results, "first", "vdirsyncer", "cpu"), t(1.0)),
              ratio_line("one changed task, HotTask / vdirsyncer", value(results, "changed", "HotTask"),
                         value(results, "changed", "vdirsyncer"), t(0.5))]
    quiet_steps = results["quiet"]["HotTask"]
    quiet_requests = f", {quiet_steps[-1].requests} request(s)" if quiet_steps else ""
    lines.append(seconds_line("quiet sync, HotTask", value(results, "quiet", "HotTask"), t(0.35), quiet_requests))
    lines.append(seconds_line(f"pull {n} into an empty store, HotTask", value(results, "pull", "HotTask"), t(1.0)))
    lines += big_report(args, results, t)
    return finish_report(lines, results)


def lists_report(args, results, t):
    """Issue 53's rows: several calendars at once, HotTask / floor (target 1.2× for 10 × 200)."""
    if not args.lists:
        return []
    lines = ["", "Several calendars at once, HotTask / floor" + (" (target of issue 53: 10 × 200 within 1.2×):"
                                                                if t(1) else ":")]
    for shape in args.lists:
        target = t(1.2) if shape == (10, 200) else None
        for case in LISTS_CASES:
            key = lists_case(shape, case)
            lines.append(ratio_line(f"{case_title(key, 0)}", value(results, key, "HotTask"),
                                    value(results, key, "floor"), target))
        first = value(results, lists_case(shape, "first"), "HotTask", "cpu")
        if first is not None:
            lines.append(f"- CPU of that upload, HotTask, per task: {first / (shape[0] * shape[1]) * 1000:.2f} ms")
    return lines


def big_report(args, results, t):
    lines = []
    for size in args.big:
        lines.append(ratio_line(f"first upload of {size:,}, HotTask / floor", value(results, big_case(size, "first"), "HotTask"),
                                value(results, big_case(size, "first"), "floor"), t(1.5)))
        per_task = cpu_per_task(results, size)
        lines.append(f"- CPU of that upload, HotTask, per task: "
                     + ("n/a (a step failed)" if per_task is None else f"{per_task * 1000:.2f} ms" + (" ✓" if per_task <= 0.003 else " ✗"))
                     + " (target ≤ 3 ms, issue 49)")
    return lines


def finish_report(lines, results):
    failures = [f"- {case} / {c}: {s.note}" for case in results for c in CLIENTS for s in results[case][c] if not s.ok]
    if failures:
        lines += ["", "Failed steps:"] + failures
    return "\n".join(lines) + "\n", not failures


def cpu_per_task(results, size):
    cpu = value(results, big_case(size, "first"), "HotTask", "cpu")
    return None if cpu is None else cpu / size


def parse_latencies(text):
    profiles = []
    for item in text.replace(" ", ",").split(","):
        if not item:
            continue
        parts = item.split(":")
        keep_alive = len(parts) > 2 and parts[2] == "keepalive"
        if len(parts) > 3 or len(parts) > 2 and not keep_alive:
            raise SystemExit(f"bench-sync: a latency profile is ONE_WAY_MS:CONNECT_MS[:keepalive], not {item!r}")
        profiles.append((float(parts[0]), float(parts[1]) if len(parts) > 1 else 0.0, keep_alive))
    return profiles


def main(argv):
    if argv and argv[0] == "floor":
        return floor_main(argv[1:])
    env = os.environ
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tasks", type=int, default=int(env.get("BENCH_SYNC_TASKS", "200")))
    p.add_argument("--big", default=env.get("BENCH_SYNC_BIG", "0") or "0",
                   help="sizes of the big uploads, comma-separated (0: none)")
    p.add_argument("--big-clients", default=env.get("BENCH_SYNC_BIG_CLIENTS") or ",".join(CLIENTS),
                   help="the clients the big sizes run, comma-separated")
    p.add_argument("--lists", default=env.get("BENCH_SYNC_LISTS", "0") or "0",
                   help="LxN,...: L calendars of N tasks each, synced at once (issue 53: 10x200; 0: none)")
    p.add_argument("--repeats", type=int, default=int(env.get("BENCH_SYNC_REPEATS", "1")))
    p.add_argument("--latencies", default=env.get("BENCH_SYNC_LATENCIES", "25:50,25:50:keepalive,0:0"),
                   help="ONE_WAY_MS:CONNECT_MS[:keepalive] profiles, comma-separated")
    p.add_argument("--hottask", default=env.get("HOTTASK_BIN") or os.path.join(ROOT, ".build/release/hottask"))
    p.add_argument("--timeout", type=float, default=float(env.get("BENCH_SYNC_TIMEOUT", "900")))
    p.add_argument("--server", choices=["radicale", "cyrus"], default=env.get("BENCH_SYNC_SERVER") or "radicale",
                   help="the CalDAV server: Radicale (serial writes) or Cyrus (parallel)")
    p.add_argument("--out", help="also write the tables here (Markdown)")
    p.add_argument("--keep", action="store_true", default=env.get("BENCH_SYNC_KEEP") == "1",
                   help="keep the run's folder (servers' data, logs)")
    args = p.parse_args(argv)
    try:
        args.big = [int(size) for size in args.big.replace(" ", ",").split(",") if size and int(size) > 0]
    except ValueError:
        raise SystemExit(f"bench-sync: --big takes task counts, comma-separated (2000,10000), not {args.big!r}")
    try:
        args.lists = [tuple(int(x) for x in shape.lower().split("x", 1))
                      for shape in args.lists.replace(" ", ",").split(",") if shape and shape != "0"]
        if any(len(shape) != 2 or min(shape) < 1 for shape in args.lists):
            raise ValueError
    except ValueError:
        raise SystemExit(f"bench-sync: --lists takes CALENDARSxTASKS, comma-separated (10x200,1x2000), not {args.lists!r}")
    args.big_clients = [name for name in args.big_clients.replace(" ", ",").split(",") if name]
    unknown = [name for name in args.big_clients if name not in CLIENTS]
    if unknown:
        raise SystemExit(f"bench-sync: --big-clients names {', '.join(unknown)}; the clients are {', '.join(CLIENTS)}")
    if not os.access(args.hottask, os.X_OK):
        raise SystemExit(f"bench-sync: no hottask binary at {args.hottask} (build it, or set HOTTASK_BIN)")
    for tool in (("radicale",) if args.server == "radicale" else ()):
        if not shutil.which(tool):
            raise SystemExit(f"bench-sync: {tool} is not installed (make bench-sync installs it)")

    folder = tempfile.mkdtemp(prefix="hottask-bench-sync.")
    bench = Bench(args, folder)
    ok = True
    try:
        # `radicale` names whichever server runs (Radicale or Cyrus).
        bench.radicale = Cyrus(folder) if args.server == "cyrus" else Radicale(folder)
        if bench.radicale.login:
            os.environ["BENCH_SYNC_AUTH"] = "Basic " + base64.b64encode(":".join(bench.radicale.login).encode()).decode()
        vdirsyncer_version = subprocess.run(bench.vdirsyncer + ["--version"], capture_output=True, text=True,
                                            timeout=60).stdout.strip()
        hottask_version = subprocess.run([bench.hottask, "--version"], capture_output=True, text=True,
                                         timeout=60).stdout.strip()
        header = (f"## bench-sync, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC\n\n"
                  f"{'' if args.server == 'cyrus' else 'Radicale '}{bench.radicale.version()} on 127.0.0.1 behind Tests/Scripts/latency_proxy.py; "
                  f"HotTask {hottask_version or '?'} ({bench.hottask}); {vdirsyncer_version or 'vdirsyncer ?'}; "
                  f"floor: {FLOOR_CONNECTIONS} kept-alive HTTP/1.1 connections (Python http.client). "
                  f"Wall and CPU (user + sys, with children) in seconds, median of the runs. "
                  f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n")
        print(header, file=sys.stderr, flush=True)
        sections = [header]
        for one_way_ms, connect_ms, keep_alive in parse_latencies(args.latencies):
            results = bench.profile(one_way_ms, connect_ms, keep_alive)
            text, passed = report(args, one_way_ms, connect_ms, keep_alive, results)
            ok = ok and passed
            sections.append(text)
        output = "\n".join(sections)
        print(output)
        if args.out:
            os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
            with open(args.out, "w") as f:
                f.write(output)
    finally:
        if bench.radicale:
            bench.radicale.stop()
        if args.keep or not ok:
            print(f"bench-sync: the run's folder (logs, data) is kept: {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
