#!/usr/bin/env python3
"""Many writers, one truth: issue 38's stress harness.

Usage: stress.py [--seconds N] [--seed S] [--binary PATH] [--dir DIR] [--keep]
       stress.py --check-only DIR        (the checker again, on a kept run folder)

For N seconds (default 300), against one store and one Radicale on 127.0.0.1, all at once:

- three CLI loops (cli1, cli2, cli3): each adds tasks with captions it owns (`cli1-17`), and
  completes (`--done ID`), edits (`--edit ID "cli1-17 ~2"`) and deletes (`--delete ID`) only its
  own, by id; about one command in ten is SIGKILLed at a random moment;
- an import about every 30 s of a new file (todo.txt or Taskwarrior JSON) of four new tasks
  (`imp3-2`), one in four killed;
- a sync about every 20 s (`--sync-every`): `hottask --sync`, started with setsid and SIGINT at
  its default, so that its process group is a terminal's foreground job; half of them
  (`--cut-chance`) are cut short at a random moment: SIGKILL of its `hottask-sync`, SIGKILL of
  `hottask --sync`, or SIGINT to its group (Ctrl-C);
- a phone (Python's caldav library): adds its own tasks (`ph-4`), edits and deletes its own,
  and completes random open tasks of any owner, with conditional writes (If-None-Match,
  If-Match), dating each change by the LAST-MODIFIED it writes, as phone apps do;
- two UIs in tmux (100x30, TERM=tmux-256color) typing captions they own (`uiA-5`) and Enter
  every few seconds, quitting with Ctrl-Q at the end. By default neither syncs: their config
  has no [sync] (a UI syncs 3 s after each change whatever HOTTASK_SYNC_INTERVAL says, so only
  a config without [sync] keeps it from syncing), and every sync is the sync actor's, cut or
  not. With --syncing-ui uiA, UI A's config has [sync] and it syncs by itself as well (at
  start, 3 s after each change, every 30 s); its syncs are never cut, and a sync actor's sync
  that meets one running exits 5 ("another sync of this store is running").

Every actor appends what it asked and what it was told to logs/ACTOR.jsonl (one JSON object a
line: actor, op, task, id, value, start, end, exit or http status, whether it was killed).

At the end: everything stops, the UIs quit, two clean `hottask --sync` run, and the checker
reads the logs, `hottask --list --json` and the server's tasks (caldav). It verifies that
- every acknowledged add (exit 0; a 201 for the phone; typed in a UI that quit with 0) is there
  exactly once, unless an acknowledged delete of it came later;
- every acknowledged done, delete and edit holds, unless a later acknowledged change overrides
  it by the documented rule: a change made on the other side after a delete brings the task
  back, the times of the changes themselves compared (a phone's change is dated by its
  LAST-MODIFIED, a command's by when it ran). Within SLACK (2 s) of each other either outcome
  is accepted, and such cases are counted apart;
- nothing refused (non-zero exit not caused by our kill, 412 for the phone) took effect;
- the phone's accepted changes arrived;
- the server and the store agree (the same captions, the same completed states);
- the store reads, nothing was set aside as damaged, no rescue file was written, and no process
  of the run is left.
It prints the counts and the seed, writes report.json, and exits 1 on any failure (the run
folder is then kept), 0 otherwise. Kills whose outcome is unknown are not checked, but the
store they leave must pass every check above.
"""

import argparse
import collections
import json
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid
from datetime import datetime, timezone

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(SCRIPTS))
SLACK = 2.0

try:
    import caldav
    from icalendar import Calendar
except ImportError:  # the checker alone (--check-only) needs neither
    caldav = None
    Calendar = None


def now():
    return time.time()


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%H:%M:%S.%f")[:-3]


class Logs:
    """One JSON-lines file per actor, appended and flushed line by line."""

    def __init__(self, folder):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.files = {}
        self.lock = threading.Lock()

    def write(self, actor, record):
        record = {"actor": actor, **record}
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self.lock:
            f = self.files.get(actor)
            if f is None:
                f = self.files[actor] = open(os.path.join(self.folder, actor + ".jsonl"), "a", encoding="utf-8")
            f.write(line)
            f.flush()

    def close(self):
        with self.lock:
            for f in self.files.values():
                f.close()
            self.files = {}


def read_logs(folder):
    records = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".jsonl"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        records.append(json.loads(line))
    records.sort(key=lambda r: (r.get("start", 0), r.get("end", 0)))
    return records


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, what, timeout=20):
    deadline = now() + timeout
    while now() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start on port {port}")


class Run:
    """The run folder, the store, the configs, the server, and every child process."""

    def __init__(self, args):
        self.args = args
        self.dir = os.path.abspath(args.dir) if args.dir else tempfile.mkdtemp(prefix="hottask-stress-")
        os.makedirs(self.dir, exist_ok=True)
        self.binary = os.path.abspath(args.binary)
        self.store = os.path.join(self.dir, "store", "tasks.json")
        os.makedirs(os.path.dirname(self.store), exist_ok=True)
        self.logs = Logs(os.path.join(self.dir, "logs"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/u/hot/"
        self.config = self.write(
            "sync.toml",
            f'[sync]\nurl = "{self.url}"\nusername = "u"\npassword_command = "printf \'p\\\\n\'"\n',
        )
        self.no_sync_config = self.write("nosync.toml", "# no [sync]: this UI never syncs\n")
        os.chmod(self.config, 0o600)
        os.chmod(self.no_sync_config, 0o600)
        self.env = dict(os.environ)
        for name in ("HOTTASK_FILE", "HOTTASK_LOG_LIMIT", "HOTTASK_LOCK_WAIT", "HOTTASK_SYNC_INTERVAL"):
            self.env.pop(name, None)
        self.env.update(
            XDG_CONFIG_HOME=os.path.join(self.dir, "xdg", "config"),
            XDG_STATE_HOME=os.path.join(self.dir, "xdg", "state"),
            XDG_DATA_HOME=os.path.join(self.dir, "xdg", "data"),
        )
        self.children = set()
        self.children_lock = threading.Lock()
        self.server = None
        self.tmux_socket = os.path.join(self.dir, "tmux.sock")
        self.tmux_pid = None

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def hottask(self, *arguments):
        return [self.binary, "--file", self.store, "--config", self.config, *arguments]

    # Child processes: every one is remembered, so that a failing harness still ends them.

    def spawn(self, argv, **kwargs):
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        kwargs.setdefault("env", self.env)
        process = subprocess.Popen(argv, **kwargs)
        with self.children_lock:
            self.children.add(process)
        return process

    def reap(self, process):
        with self.children_lock:
            self.children.discard(process)

    def command(self, argv, kill_after=None, timeout=120, setsid=False):
        """Runs argv to its end, or SIGKILLs it `kill_after` seconds in. Returns a record."""
        out = tempfile.TemporaryFile(dir=self.dir)
        err = tempfile.TemporaryFile(dir=self.dir)
        start = now()
        process = self.spawn(argv, stdout=out, stderr=err, start_new_session=setsid)
        killed = False
        try:
            if kill_after is not None:
                try:
                    process.wait(timeout=kill_after)
                except subprocess.TimeoutExpired:
                    process.send_signal(signal.SIGKILL)
                    killed = True
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                return self.outcome(process, out, err, start, killed, timed_out=True)
            return self.outcome(process, out, err, start, killed)
        finally:
            self.reap(process)

    @staticmethod
    def outcome(process, out, err, start, killed, timed_out=False):
        end = now()
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
        out.close()
        err.close()
        code = process.returncode
        # Killed by our signal: the outcome is unknown. Killed by anything else is a failure.
        return {
            "start": start,
            "end": end,
            "exit": code if code >= 0 else 128 - code,
            "killed": killed and code == -signal.SIGKILL,
            "timed_out": timed_out,
            "stdout": stdout,
            "stderr": stderr,
        }

    # The server.

    def start_server(self):
        folder = os.path.join(self.dir, "radicale")
        os.makedirs(folder, exist_ok=True)
        conf = os.path.join(folder, "radicale.conf")
        with open(conf, "w", encoding="utf-8") as f:
            f.write(
                f"[server]\nhosts = 127.0.0.1:{self.port}\n[auth]\ntype = none\n"
                f"[storage]\nfilesystem_folder = {folder}/collections\n"
            )
        log = open(os.path.join(folder, "server.log"), "w")
        self.server = self.spawn(["radicale", "--config", conf], stdout=log, stderr=log)
        log.close()
        wait_listening(self.port, "radicale")
        made = subprocess.run(
            ["python3", os.path.join(SCRIPTS, "caldav_phone.py"), self.url, "make-calendar"],
            capture_output=True, text=True, env=self.env, timeout=60)
        if made.returncode != 0:
            raise RuntimeError(f"make-calendar failed: {made.stderr}")

    def stop_server(self):
        if self.server and self.server.poll() is None:
            self.server.terminate()
            try:
                self.server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
        if self.server:
            self.reap(self.server)

    # tmux, one server on a socket in the run folder.

    def tmux(self, *arguments, check=False):
        result = subprocess.run(
            ["tmux", "-u", "-S", self.tmux_socket, "-f", "/dev/null", *arguments],
            capture_output=True, text=True, env=self.env, timeout=30)
        if check and result.returncode != 0:
            raise RuntimeError(f"tmux {arguments[0]} failed: {result.stderr}")
        return result.stdout

    def stop_tmux(self):
        if not os.path.exists(self.tmux_socket):
            return
        self.tmux("kill-server")
        deadline = now() + 5
        while self.tmux_pid and pid_alive(self.tmux_pid) and now() < deadline:
            time.sleep(0.05)
        if self.tmux_pid and pid_alive(self.tmux_pid):
            os.kill(self.tmux_pid, signal.SIGKILL)
        try:
            os.unlink(self.tmux_socket)
        except OSError:
            pass

    def end_everything(self):
        """The harness's own safety net: nothing of the run outlives it. Returns the command
        lines of the children (the server aside) that were still running: none should be."""
        with self.children_lock:
            left = [p for p in self.children if p is not self.server]
        running = []
        for process in left:
            if process.poll() is None:
                running.append(" ".join(process.args) if isinstance(process.args, list) else str(process.args))
                try:
                    os.killpg(process.pid, signal.SIGKILL) if os.getpgid(process.pid) == process.pid else process.kill()
                except OSError:
                    pass
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
        self.stop_server()
        self.stop_tmux()
        return running


def pid_alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        return False


def processes_naming(text, exclude=()):
    """pid → command line of every live process whose command line contains `text`."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in exclude:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError:
            continue
        if text in cmdline and pid_alive(int(entry)):
            found[int(entry)] = cmdline
    return found


def children_of(pid):
    kids = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    return kids


def sync_helper_of(run, pid):
    """The hottask-sync that hottask `pid` started, found as `pgrep -P PID -f 'hottask-sync --store STORE'`."""
    found = subprocess.run(
        ["pgrep", "-P", str(pid), "-f", f"hottask-sync --store {run.store}"], capture_output=True, text=True)
    pids = [int(p) for p in found.stdout.split()]
    return pids[0] if pids else None


class Actor(threading.Thread):
    def __init__(self, run, name, seed, stop, deadline):
        super().__init__(name=name, daemon=True)
        self.run_ = run
        self.actor = name
        self.rng = random.Random(f"{seed}:{name}")
        self.stop = stop
        self.deadline = deadline
        self.error = None

    def log(self, **record):
        self.run_.logs.write(self.actor, record)

    def pause(self, low, high):
        """Sleeps a random while; False when the run is over (then at once)."""
        if now() >= self.deadline or self.stop.is_set():
            return False
        self.stop.wait(min(self.rng.uniform(low, high), self.deadline - now()))
        return now() < self.deadline and not self.stop.is_set()

    def run(self):
        try:
            self.act()
        except Exception:
            self.error = traceback.format_exc()
            self.log(op="harness-error", start=now(), end=now(), value=self.error)

    def act(self):
        raise NotImplementedError


class Durations:
    """Recent durations of a kind of command, to place a kill inside one."""

    def __init__(self, first):
        self.values = collections.deque([first], maxlen=20)

    def add(self, value):
        self.values.append(value)

    def typical(self):
        ordered = sorted(self.values)
        return ordered[len(ordered) // 2]


class CLILoop(Actor):
    KILL_CHANCE = 0.1

    def act(self):
        run = self.run_
        owned = {}  # identity → {"id", "caption", "edits", "done"}
        gone = set()  # deleted, or deleted by a killed command: never touched again
        counter = 0
        durations = Durations(0.05)
        while self.pause(0.1, 0.8):
            usable = [k for k in owned if k not in gone]
            roll = self.rng.random()
            if not usable or roll < 0.4:
                op = "add"
            elif roll < 0.6:
                op = "done"
            elif roll < 0.8:
                op = "edit"
            else:
                op = "delete"
            kill_after = None
            if self.rng.random() < self.KILL_CHANCE:
                kill_after = self.rng.uniform(0, 1.3 * durations.typical())
            if op == "add":
                counter += 1
                task = f"{self.actor}-{counter}"
                value = task
                argv = run.hottask("--add", task, "--json")
                identity = task
            else:
                task = self.rng.choice(usable)
                identity = task
                entry = owned[task]
                if op == "done" and entry["done"]:
                    op = "edit"
                if op == "done":
                    value = True
                    argv = run.hottask("--done", entry["id"])
                elif op == "edit":
                    entry["edits"] += 1
                    value = f"{task} ~{entry['edits']}"
                    argv = run.hottask("--edit", entry["id"], value)
                else:
                    value = None
                    argv = run.hottask("--delete", entry["id"])
            result = run.command(argv, kill_after=kill_after)
            if not result["killed"]:
                durations.add(result["end"] - result["start"])
            record = dict(
                op=op, task=identity, id=owned.get(identity, {}).get("id"), value=value,
                start=result["start"], end=result["end"], exit=result["exit"], killed=result["killed"],
                kill_after=kill_after)
            if result["exit"] != 0 and not result["killed"]:
                record["stderr"] = result["stderr"][-2000:]
            if op == "add" and result["exit"] == 0:
                try:
                    document = json.loads(result["stdout"])
                    record["id"] = document["tasks"][0]["id"]
                    owned[identity] = {"id": record["id"], "caption": value, "edits": 0, "done": False}
                except (ValueError, KeyError, IndexError):
                    record["stdout"] = result["stdout"][-2000:]
            elif op == "done" and result["exit"] == 0:
                owned[identity]["done"] = True
            elif op == "delete" and (result["exit"] == 0 or result["killed"]):
                gone.add(identity)
            self.log(**record)


class Importer(Actor):
    KILL_CHANCE = 0.25
    TASKS_PER_FILE = 4

    def act(self):
        run = self.run_
        folder = os.path.join(run.dir, "imports")
        os.makedirs(folder, exist_ok=True)
        number = 0
        durations = Durations(0.1)
        while self.pause(25, 35):
            number += 1
            captions = [f"imp{number}-{k}" for k in range(1, self.TASKS_PER_FILE + 1)]
            kind = self.rng.choice(["todotxt", "taskwarrior"])
            if kind == "todotxt":
                path = os.path.join(folder, f"import-{number}.txt")
                with open(path, "w", encoding="utf-8") as f:
                    day = datetime.now(timezone.utc).strftime("%Y-%m-%d")
                    f.write("".join(f"{day} {c}\n" for c in captions))
            else:
                path = os.path.join(folder, f"import-{number}.json")
                stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
                tasks = [
                    {"uuid": str(uuid.UUID(int=self.rng.getrandbits(128), version=4)), "description": c, "status": "pending",
                     "entry": stamp, "modified": stamp}
                    for c in captions
                ]
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(tasks, f)
            kill_after = self.rng.uniform(0, 1.3 * durations.typical()) if self.rng.random() < self.KILL_CHANCE else None
            result = run.command(run.hottask("--import", path), kill_after=kill_after)
            if not result["killed"]:
                durations.add(result["end"] - result["start"])
            record = dict(
                op="import", tasks=captions, value=os.path.basename(path), format=kind, start=result["start"],
                end=result["end"], exit=result["exit"], killed=result["killed"], kill_after=kill_after)
            if result["exit"] != 0 and not result["killed"]:
                record["stderr"] = result["stderr"][-2000:]
            self.log(**record)


class Syncer(Actor):
    WAYS = ("kill-helper", "kill-hottask", "sigint")

    def act(self):
        run = self.run_
        durations = Durations(0.3)
        every, cut = run.args.sync_every, run.args.cut_chance
        while self.pause(every * 0.75, every * 1.25):
            way = self.rng.choice(self.WAYS) if self.rng.random() < cut else None
            delay = self.rng.uniform(0.01, durations.typical()) if way else None
            self.log(**self.one(run, way, delay, durations))

    @staticmethod
    def one(run, way, delay, durations=None):
        """One `hottask --sync` in a session of its own, SIGINT at its default (a terminal's
        foreground job), cut the `way` given `delay` seconds in."""
        out = tempfile.TemporaryFile(dir=run.dir)
        err = tempfile.TemporaryFile(dir=run.dir)
        start = now()
        # setsid does not fork here (the child is no group leader): the pid is hottask's, and
        # its process group's.
        process = run.spawn(
            ["setsid", "env", "--default-signal=INT", *run.hottask("--sync")], stdout=out, stderr=err)
        done = "none"
        helper = None
        try:
            if way:
                try:
                    process.wait(timeout=delay)
                except subprocess.TimeoutExpired:
                    pass
                if process.poll() is None:
                    helper = sync_helper_of(run, process.pid)
                    if way == "kill-helper":
                        # Not spawned yet: wait for it a little.
                        until = now() + 1
                        while helper is None and process.poll() is None and now() < until:
                            time.sleep(0.01)
                            helper = sync_helper_of(run, process.pid)
                        if helper is not None:
                            try:
                                os.kill(helper, signal.SIGKILL)
                                done = way
                            except ProcessLookupError:
                                pass
                    elif way == "kill-hottask":
                        process.send_signal(signal.SIGKILL)
                        done = way
                    else:
                        os.killpg(process.pid, signal.SIGINT)
                        done = way
            try:
                process.wait(timeout=150)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        finally:
            run.reap(process)
        result = Run.outcome(process, out, err, start, killed=False)
        lingered = False
        if helper is not None:
            # The helper ends with its hottask, killed or not.
            until = now() + 15
            while pid_alive(helper) and now() < until:
                time.sleep(0.05)
            lingered = pid_alive(helper)
            if lingered:
                os.kill(helper, signal.SIGKILL)
        if done == "none" and durations is not None:
            durations.add(result["end"] - result["start"])
        first = lambda text: text.strip().splitlines()[0] if text.strip() else ""
        record = dict(
            op="sync", way=way, delay=delay, cut=done, start=start, end=result["end"], exit=result["exit"],
            killed=done != "none", stdout=first(result["stdout"])[:500], helper_lingered=lingered)
        if result["exit"] != 0:
            record["stderr"] = result["stderr"][-2000:]
        return record


def vtodo(calendar_text):
    cal = Calendar.from_ical(calendar_text)
    for component in cal.walk("VTODO"):
        return cal, component
    return cal, None


def ical_time(t):
    return datetime.fromtimestamp(int(t), timezone.utc)


class Phone(Actor):
    """A phone app: caldav's client, conditional writes, LAST-MODIFIED on every change."""

    def act(self):
        run = self.run_
        client = caldav.DAVClient(url=run.url, username="u", password="p")
        owned = {}  # identity → {"href", "uid", "edits"}
        gone = set()
        counter = 0
        while self.pause(1, 4):
            usable = [k for k in owned if k not in gone]
            roll = self.rng.random()
            if not usable or roll < 0.3:
                counter += 1
                self.add(client, owned, f"ph-{counter}")
            elif roll < 0.5:
                self.edit(client, owned, gone, self.rng.choice(usable))
            elif roll < 0.65:
                self.delete(client, owned, gone, self.rng.choice(usable))
            else:
                self.complete_random(client)

    def request(self, client, url, method, body="", headers=None):
        try:
            response = client.request(url, method, body, headers or {})
            # The bytes as sent (caldav keeps them in _raw_body, except for XML it parsed).
            body = getattr(response, "_raw_body", None) or getattr(response, "_raw", None) or b""
            return response.status, response.headers, body
        except Exception as e:  # a network failure: the outcome is unknown
            return None, {"error": f"{type(e).__name__}: {e}"}, ""

    def get(self, client, href):
        status, headers, body = self.request(client, href, "GET")
        if status != 200:
            return status, None, None
        if isinstance(body, bytes):
            body = body.decode("utf-8")
        return status, headers.get("ETag"), body

    def put(self, client, href, text, condition):
        return self.request(client, href, "PUT", text, {"Content-Type": "text/calendar; charset=utf-8", **condition})

    def add(self, client, owned, task):
        uid = f"stress-{task}-{self.rng.getrandbits(32):08x}"
        href = run_url_join(self.run_.url, uid + ".ics")
        start = now()
        stamp = ical_time(start)
        text = (
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//HotTask stress//phone//EN\r\nBEGIN:VTODO\r\n"
            f"UID:{uid}\r\nDTSTAMP:{stamp:%Y%m%dT%H%M%SZ}\r\nCREATED:{stamp:%Y%m%dT%H%M%SZ}\r\n"
            f"LAST-MODIFIED:{stamp:%Y%m%dT%H%M%SZ}\r\nSUMMARY:{task}\r\nSTATUS:NEEDS-ACTION\r\n"
            "END:VTODO\r\nEND:VCALENDAR\r\n")
        status, headers, _ = self.put(client, href, text, {"If-None-Match": "*"})
        if status in (200, 201, 204):
            owned[task] = {"href": href, "uid": uid, "edits": 0}
        self.log(op="add", task=task, id=uid, value=task, start=start, end=now(), http=status, lm=int(start),
                 error=headers.get("error") if status is None else None)

    def change(self, client, href, edit):
        """GET, change, PUT If-Match. Returns (status, lm, summary seen)."""
        status, etag, text = self.get(client, href)
        if status != 200 or etag is None:
            return ("get-%s" % status), None, None
        cal, todo = vtodo(text)
        if todo is None:
            return "get-no-vtodo", None, None
        seen = str(todo.get("SUMMARY", ""))
        t = now()
        stamp = ical_time(t)
        edit(todo, stamp)
        for name in ("LAST-MODIFIED", "DTSTAMP"):
            todo.pop(name, None)
            todo.add(name, stamp)
        sequence = int(str(todo.pop("SEQUENCE", 0) or 0))
        todo.add("SEQUENCE", sequence + 1)
        status, headers, _ = self.put(client, href, cal.to_ical().decode("utf-8"), {"If-Match": etag})
        return status, int(t), seen

    def edit(self, client, owned, gone, task):
        entry = owned[task]
        value = f"{task} ~{entry['edits'] + 1}"

        def rename(todo, stamp):
            todo.pop("SUMMARY", None)
            todo.add("SUMMARY", value)

        start = now()
        status, lm, seen = self.change(client, entry["href"], rename)
        if status in (200, 201, 204):
            entry["edits"] += 1
        if status == "get-404":
            gone.add(task)
        self.log(op="edit", task=task, id=entry["uid"], value=value, start=start, end=now(), http=status, lm=lm, seen=seen)

    def delete(self, client, owned, gone, task):
        entry = owned[task]
        start = now()
        status, etag, _ = self.get(client, entry["href"])
        if status == 200 and etag:
            status, headers, _ = self.request(client, entry["href"], "DELETE", "", {"If-Match": etag})
        else:
            status = "get-%s" % status
        if status in (200, 204) or status == "get-404":
            gone.add(task)
        self.log(op="delete", task=task, id=entry["uid"], value=None, start=start, end=now(), http=status, lm=int(start))

    def complete_random(self, client):
        start = now()
        body = ('<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop>'
                "</d:propfind>")
        status, headers, text = self.request(client, self.run_.url, "PROPFIND", body, {"Depth": "1", "Content-Type": "application/xml"})
        if status != 207:
            self.log(op="complete", task=None, start=start, end=now(), http=f"propfind-{status}")
            return
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        import re

        hrefs = [h for h in re.findall(r"<(?:\w+:)?href>([^<]+)</(?:\w+:)?href>", text) if h.endswith(".ics")]
        self.rng.shuffle(hrefs)
        for href in hrefs[:6]:
            url = run_url_join(self.run_.url, href)
            status, etag, ics = self.get(client, url)
            if status != 200:
                continue
            _, todo = vtodo(ics)
            if todo is None or str(todo.get("STATUS", "")).upper() == "COMPLETED":
                continue
            task = str(todo.get("SUMMARY", "")).split(" ")[0]

            def complete(todo, stamp):
                todo.pop("STATUS", None)
                todo.add("STATUS", "COMPLETED")
                todo.pop("COMPLETED", None)
                todo.add("COMPLETED", stamp)

            status, lm, seen = self.change(client, url, complete)
            self.log(op="done", task=task, id=str(todo.get("UID")), value=True, start=start, end=now(), http=status,
                     lm=lm, seen=seen)
            return


def run_url_join(base, href):
    if href.startswith("http://") or href.startswith("https://"):
        return href
    if href.startswith("/"):
        scheme, rest = base.split("://", 1)
        return f"{scheme}://{rest.split('/', 1)[0]}{href}"
    return base.rstrip("/") + "/" + href


class UI(Actor):
    """HotTask's UI in tmux: captions typed and Enter every few seconds, Ctrl-Q at the end."""

    def __init__(self, run, name, seed, stop, deadline, syncs):
        super().__init__(run, name, seed, stop, deadline)
        self.syncs = syncs
        self.status_path = os.path.join(run.dir, f"{name}.status")
        self.started = threading.Event()

    def launch(self):
        run = self.run_
        config = run.config if self.syncs else run.no_sync_config
        variables = {
            "TERM": "tmux-256color",
            "HOTTASK_SYNC_INTERVAL": "30" if self.syncs else "100000",
            **{k: run.env[k] for k in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME")},
        }
        command = " ".join(
            ["env"] + [shlex.quote(f"{k}={v}") for k, v in variables.items()]
            + [shlex.quote(a) for a in (run.binary, "--file", run.store, "--config", config)])
        script = f"{command}; echo $? > {shlex.quote(self.status_path)}"
        if not os.path.exists(run.tmux_socket):
            run.tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", self.actor, "sh", "-c", script, check=True)
            run.tmux_pid = int(run.tmux("display-message", "-p", "-t", self.actor, "#{pid}").strip())
        else:
            run.tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", self.actor, "sh", "-c", script, check=True)
        deadline = now() + 20
        while "Type a new task" not in self.screen() and now() < deadline:
            time.sleep(0.1)
        self.log(op="start", start=now(), end=now(), screen=self.screen()[-500:])

    def screen(self):
        return self.run_.tmux("capture-pane", "-p", "-t", self.actor)

    def act(self):
        run = self.run_
        counter = 0
        while self.pause(2, 5):
            counter += 1
            task = f"{self.actor}-{counter}"
            start = now()
            run.tmux("send-keys", "-t", self.actor, "-l", task)
            run.tmux("send-keys", "-t", self.actor, "Enter")
            self.log(op="add", task=task, value=task, start=start, end=now())

    def quit(self):
        run = self.run_
        start = now()
        run.tmux("send-keys", "-t", self.actor, "C-q")
        deadline = now() + 60
        while not os.path.exists(self.status_path) and now() < deadline:
            time.sleep(0.1)
        status = None
        if os.path.exists(self.status_path):
            with open(self.status_path) as f:
                text = f.read().strip()
            status = int(text) if text.isdigit() else None
        self.log(op="quit", start=start, end=now(), exit=status, screen=None if status == 0 else self.screen()[-1500:])
        return status


def server_tasks(url):
    client = caldav.DAVClient(url=url, username="u", password="p")
    calendar = caldav.Calendar(client=client, url=url)
    tasks = []
    for todo in calendar.todos(include_completed=True):
        component = todo.icalendar_component
        status = str(component.get("STATUS", "") or "")
        tasks.append({
            "uid": str(component.get("UID")),
            "summary": str(component.get("SUMMARY", "")),
            "status": status,
            "completed": status.upper() == "COMPLETED",
            "last_modified": component.get("LAST-MODIFIED").to_ical().decode() if component.get("LAST-MODIFIED") else None,
        })
    return tasks


# The checker.

ACK, UNKNOWN, REFUSED = "acknowledged", "unknown", "refused"


def status_of(record, ui_quits):
    """Whether what the actor was told acknowledges the operation."""
    actor = record["actor"]
    if actor.startswith("ui"):
        return ACK if ui_quits.get(actor) == 0 else UNKNOWN
    if "http" in record:
        http = record.get("http")
        if isinstance(http, int) and 200 <= http < 300:
            return ACK
        if http is None:
            return UNKNOWN
        return REFUSED
    if record.get("killed") or record.get("timed_out"):
        return UNKNOWN
    return ACK if record.get("exit") == 0 else REFUSED


def change_time(record):
    """When a change was made, as HotTask dates it: a phone's by its LAST-MODIFIED (whole
    seconds), a command's by when it ran (an interval)."""
    if record.get("lm") is not None:
        return (float(record["lm"]), float(record["lm"]) + 1.0)
    return (record["start"], record["end"])


def identity(caption):
    return caption.split(" ", 1)[0]


def check(folder):
    logs = read_logs(os.path.join(folder, "logs"))
    with open(os.path.join(folder, "final", "list.json"), encoding="utf-8") as f:
        listed = json.load(f)
    with open(os.path.join(folder, "final", "server.json"), encoding="utf-8") as f:
        server = json.load(f)
    with open(os.path.join(folder, "final", "state.json"), encoding="utf-8") as f:
        state = json.load(f)

    ui_quits = {r["actor"]: r.get("exit") for r in logs if r.get("op") == "quit"}
    noted = collections.defaultdict(list)
    history = collections.defaultdict(lambda: {"adds": [], "edits": [], "dones": [], "deletes": []})
    counts = collections.Counter()
    for record in logs:
        op = record.get("op")
        actor = record["actor"]
        kind = "phone" if actor == "phone" else "ui" if actor.startswith("ui") else "cli" if actor.startswith("cli") else actor
        if op in ("add", "edit", "done", "delete", "import"):
            status = status_of(record, ui_quits)
            counts[f"{kind} {op} {status}"] += 1
            if record.get("killed"):
                counts[f"kills: {kind} {op}"] += 1
        if op == "import":
            for task in record["tasks"]:
                history[task]["adds"].append({**record, "task": task, "value": task, "status": status})
        elif op in ("add", "edit", "done", "delete") and record.get("task"):
            history[record["task"]]["adds" if op == "add" else op + "s"].append({**record, "status": status})
        elif op == "sync":
            counts[f"sync exit {record.get('exit')}"] += 1
            if record.get("exit") != 0 and record.get("cut") in (None, "none"):
                noted["syncs that failed without being cut (not a failure of the run)"].append(
                    {"task": f"sync at {iso(record['start'])}", "present": True,
                     "story": [f"exit {record.get('exit')}: {record.get('stderr', '').strip()[-400:]}"]})
            if record.get("cut") and record["cut"] != "none":
                counts[f"kills: sync {record['cut']}"] += 1
            elif record.get("way"):
                counts[f"sync cut attempted too late ({record['way']})"] += 1
        elif op == "harness-error":
            counts["harness errors"] += 1

    here = collections.defaultdict(list)
    for task in listed.get("tasks", []):
        here[identity(task["caption"])].append(task)

    failures = collections.defaultdict(list)

    def story(name):
        h = history.get(name)
        if not h:
            return []
        events = sorted(h["adds"] + h["edits"] + h["dones"] + h["deletes"], key=lambda r: r["start"])
        return [
            f"{iso(r['start'])}–{iso(r['end'])} {r['actor']} {r['op']}"
            + (f" {r.get('value')!r}" if r["op"] == "edit" else "")
            + f" → {r['status']}"
            + (f" (exit {r.get('exit')}{', killed' if r.get('killed') else ''})" if "exit" in r else "")
            + (f" (http {r.get('http')}, LAST-MODIFIED {iso(r['lm'])})" if r.get("lm") is not None else (f" (http {r.get('http')})" if "http" in r else ""))
            for r in events
        ]

    def fail(kind, name, why):
        failures[kind].append({"task": name, "why": why, "here": here.get(name, []), "story": story(name)})

    for name in sorted(set(here) - set(history)):
        fail("unexpected task (never added by anyone)", name, "in the store")

    for name in sorted(history):
        h = history[name]
        present = here.get(name, [])
        if len(present) > 1:
            fail("duplicated", name, f"{len(present)} copies")
        statuses = {r["status"] for r in h["adds"]}
        add = ACK if ACK in statuses else UNKNOWN if UNKNOWN in statuses else REFUSED
        if not h["adds"]:
            add = ACK  # changed by someone who found it (the phone): it existed
        if add == REFUSED:
            if present:
                fail("refused command took effect", name, "an add that was refused is in the store")
            continue

        acked_deletes = [r for r in h["deletes"] if r["status"] == ACK]
        unknown_deletes = [r for r in h["deletes"] if r["status"] == UNKNOWN]
        changes = h["edits"] + h["dones"]
        expect = "present"  # present, absent, either
        if acked_deletes:
            last = max(acked_deletes, key=lambda r: r["end"])
            d0, d1 = last["start"], last["end"]
            later, near = [], []
            for c in changes:
                if c["status"] == REFUSED or c["actor"] == last["actor"]:
                    continue
                c0, c1 = change_time(c)
                if c0 > d1 + SLACK and c["status"] == ACK:
                    later.append(c)
                elif c1 >= d0 - SLACK and (c0 <= d1 + SLACK or c["status"] == UNKNOWN):
                    near.append(c)
            if later:
                expect = "present"
                noted["brought back by a later change (the documented rule)"].append(
                    {"task": name, "present": bool(present), "story": story(name)})
            elif near:
                expect = "either"
                noted["a change within 2 s of a delete (either outcome accepted)"].append(
                    {"task": name, "present": bool(present), "story": story(name)})
            else:
                expect = "absent"
        elif unknown_deletes or add == UNKNOWN:
            expect = "either"

        if expect == "absent" and present:
            fail("resurrected outside the rule", name, "deleted (acknowledged), and back")
        if expect == "present" and not present:
            if acked_deletes:
                fail("lost: a change that beats the delete", name, "a later change should have brought it back")
            elif h["adds"] and h["adds"][0]["actor"] == "phone":
                fail("lost: the phone's add", name, "accepted by the server, not in the store")
            else:
                fail("lost: add", name, "acknowledged, never deleted, not in the store")
        if not present:
            continue
        task = present[0]

        # The caption: the last acknowledged edit's, or one of the unknown ones after it.
        edits = sorted(h["edits"], key=lambda r: r["start"])
        acked = [i for i, r in enumerate(edits) if r["status"] == ACK]
        base_caption = edits[acked[-1]]["value"] if acked else name
        allowed = {base_caption} | {r["value"] for r in edits[(acked[-1] + 1 if acked else 0):] if r["status"] == UNKNOWN}
        if task["caption"] not in allowed:
            refused = {r["value"] for r in edits if r["status"] == REFUSED}
            if task["caption"] in refused:
                fail("refused command took effect", name, f"caption {task['caption']!r} from a refused edit")
            else:
                fail("lost: edit", name, f"caption {task['caption']!r}, expected {sorted(allowed)}")

        # Completion: nobody reopens, so completed exactly when some done was acknowledged.
        done_statuses = {r["status"] for r in h["dones"]}
        if ACK in done_statuses and not task["completed"]:
            who = ", ".join(sorted({r["actor"] for r in h["dones"] if r["status"] == ACK}))
            fail("lost: done", name, f"completed by {who} (acknowledged), open in the store")
        if not done_statuses & {ACK, UNKNOWN} and task["completed"]:
            fail("refused command took effect" if REFUSED in done_statuses else "completed by nobody", name, "completed in the store")

    # The server and the store agree.
    # One disagreement per caption whose copies (and their completed states) differ.
    mine = collections.defaultdict(list)
    for t in listed.get("tasks", []):
        mine[t["caption"]].append("completed" if t["completed"] else "open")
    theirs = collections.defaultdict(list)
    for t in server:
        if t["status"].upper() != "CANCELLED":
            theirs[t["summary"]].append("completed" if t["completed"] else "open")
    for caption in sorted(set(mine) | set(theirs)):
        if sorted(mine.get(caption, [])) != sorted(theirs.get(caption, [])):
            failures["disagreement: store ≠ server"].append(
                {"task": caption, "why": f"store {sorted(mine.get(caption, [])) or 'none'}, server {sorted(theirs.get(caption, [])) or 'none'}",
                 "story": story(identity(caption))})

    for problem in state.get("problems", []):
        failures["run: " + problem["kind"]].append({"task": "-", "why": problem["why"]})

    lost = sum(len(v) for k, v in failures.items() if k.startswith("lost"))
    resurrected = len(failures.get("resurrected outside the rule", []))
    disagreements = len(failures.get("disagreement: store ≠ server", []))
    summary = {
        "seed": state.get("seed"),
        "seconds": state.get("seconds"),
        "syncing UI": state.get("syncing_ui"),
        "tasks in the store": len(listed.get("tasks", [])),
        "tasks on the server": len(server),
        "lost": lost,
        "resurrected outside the rule": resurrected,
        "disagreements": disagreements,
        "other failures": sum(len(v) for v in failures.values()) - lost - resurrected - disagreements,
        "brought back by the rule": len(noted.get("brought back by a later change (the documented rule)", [])),
        "within 2 s of a delete": len(noted.get("a change within 2 s of a delete (either outcome accepted)", [])),
        "operations": dict(sorted(counts.items())),
    }
    return summary, failures, noted


def print_report(summary, failures, noted, out=sys.stdout, limit=8):
    w = lambda text="": print(text, file=out)
    w(f"seed {summary['seed']}, {summary['seconds']} s, syncing UI: {summary.get('syncing UI')}")
    w(f"tasks: {summary['tasks in the store']} in the store, {summary['tasks on the server']} on the server")
    w("operations (acknowledged / unknown: killed or no answer / refused):")
    for key, value in summary["operations"].items():
        w(f"  {key}: {value}")
    for kind, cases in sorted(noted.items()):
        w(f"{kind}: {len(cases)}")
        for case in cases[:limit]:
            w(f"  {case['task']}" + ("" if case["task"].startswith("sync") else f" ({'present' if case['present'] else 'absent'})") + ":")
            for line in case["story"]:
                w(f"      {line}")
    for kind, cases in sorted(failures.items()):
        w(f"FAILURE {kind}: {len(cases)}")
        for case in cases[:limit]:
            w(f"  {case['task']}: {case['why']}")
            for line in case.get("story", []):
                w(f"      {line}")
            for task in case.get("here", []):
                w(f"      here: {task['caption']!r} completed={task['completed']} id={task['id']}")
        if len(cases) > limit:
            w(f"  … and {len(cases) - limit} more (report.json)")
    w(f"lost {summary['lost']}, resurrected outside the rule {summary['resurrected outside the rule']}, "
      f"disagreements {summary['disagreements']}, other failures {summary['other failures']}; "
      f"brought back by the rule {summary['brought back by the rule']}, within 2 s {summary['within 2 s of a delete']}; "
      f"seed {summary['seed']}")


def finish(run, problems):
    """Two clean syncs, the store and the server read, everything of the run stopped."""
    final = os.path.join(run.dir, "final")
    os.makedirs(final, exist_ok=True)
    for n in (1, 2):
        record = Syncer.one(run, None, None)
        record["op"] = "final-sync"
        run.logs.write("final", record)
        if record["exit"] != 0:
            problems.append({"kind": "a final clean sync failed", "why": f"sync {n}: exit {record['exit']}: {record.get('stderr', '')[-600:]}"})
    listed = run.command(run.hottask("--list", "--json"))
    if listed["exit"] != 0:
        problems.append({"kind": "the store does not read", "why": listed["stderr"][-600:]})
        document = {"tasks": []}
    else:
        document = json.loads(listed["stdout"])
    with open(os.path.join(final, "list.json"), "w", encoding="utf-8") as f:
        json.dump(document, f, ensure_ascii=False, indent=1)
    with open(os.path.join(final, "server.json"), "w", encoding="utf-8") as f:
        json.dump(server_tasks(run.url), f, ensure_ascii=False, indent=1)
    folder = os.path.dirname(run.store)
    for name in sorted(os.listdir(folder)):
        if ".damaged" in name or ".rescue-" in name:
            problems.append({"kind": "damage set aside", "why": name})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "hottask"))
    parser.add_argument("--dir", help="the run folder (default: a new one under TMPDIR)")
    parser.add_argument("--keep", action="store_true", help="keep the run folder even when every check passes")
    parser.add_argument(
        "--syncing-ui", default="none", choices=["uiA", "none"],
        help="uiA: UI A's config has [sync], so it syncs at start, 3 s after each change and every 30 s "
        "(HOTTASK_SYNC_INTERVAL=30), beside the sync actor; none (the default): neither UI's config has "
        "[sync], and every sync is the sync actor's (HOTTASK_SYNC_INTERVAL cannot stop a UI's sync after a change)")
    parser.add_argument("--sync-every", type=float, default=20, help="seconds between the sync actor's syncs, ±25%% (20)")
    parser.add_argument("--cut-chance", type=float, default=0.5, help="the share of its syncs cut short (0.5)")
    parser.add_argument("--check-only", metavar="DIR", help="only run the checker on a kept run folder")
    args = parser.parse_args()

    if args.check_only:
        summary, failures, noted = check(args.check_only)
        print_report(summary, failures, noted)
        return 1 if failures else 0

    if caldav is None:
        sys.exit("stress.py needs Python's caldav and icalendar (pip install caldav icalendar)")
    for tool in ("radicale", "tmux", "setsid", "pgrep"):
        if shutil.which(tool) is None:
            sys.exit(f"stress.py needs {tool}")
    if not os.access(args.binary, os.X_OK) or not os.access(os.path.join(os.path.dirname(args.binary), "hottask-sync"), os.X_OK):
        sys.exit(f"no hottask and hottask-sync at {os.path.dirname(args.binary)}; build them (make build)")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    run = Run(args)
    print(f"stress: seed {seed}, {args.seconds:g} s, run folder {run.dir}, binary {run.binary}", flush=True)
    problems = []
    state = {"seed": seed, "seconds": args.seconds, "syncing_ui": args.syncing_ui, "binary": run.binary, "url": run.url, "store": run.store, "problems": problems}
    interrupted = False
    try:
        run.start_server()
        stop = threading.Event()
        start = now()
        deadline = start + args.seconds
        uis = [UI(run, name, seed, stop, deadline, syncs=name == args.syncing_ui) for name in ("uiA", "uiB")]
        for ui in uis:
            ui.launch()
        deadline = now() + args.seconds
        actors = [CLILoop(run, f"cli{n}", seed, stop, deadline) for n in (1, 2, 3)]
        actors += [Importer(run, "import", seed, stop, deadline), Syncer(run, "sync", seed, stop, deadline),
                   Phone(run, "phone", seed, stop, deadline)]
        for ui in uis:
            ui.deadline = deadline
        for actor in actors + uis:
            actor.start()
        last_said = now()
        while now() < deadline:
            time.sleep(min(1.0, max(0.0, deadline - now())))
            if now() - last_said >= 30:
                last_said = now()
                print(f"stress: {int(now() - start)} s", flush=True)
        stop.set()
        for actor in actors + uis:
            actor.join(timeout=180)
            if actor.is_alive():
                problems.append({"kind": "an actor did not stop", "why": actor.actor})
            if actor.error:
                problems.append({"kind": "harness error", "why": f"{actor.actor}: {actor.error}"})
        for ui in uis:
            status = ui.quit()
            if status != 0:
                problems.append({"kind": "a UI did not quit with 0", "why": f"{ui.actor}: exit {status}"})
        # Nothing of the store runs now but what the UIs may have left (their syncs end with them).
        deadline = now() + 30
        while processes_naming(run.store, exclude={os.getpid()}) and now() < deadline:
            time.sleep(0.1)
        finish(run, problems)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        run.logs.close()
        for command in run.end_everything():
            problems.append({"kind": "a command of the run was still running at the end (killed)", "why": command})
    if interrupted:
        print(f"stress: interrupted; run folder {run.dir}", file=sys.stderr)
        return 130
    time.sleep(0.5)
    left = processes_naming(run.dir, exclude={os.getpid(), os.getppid()})
    for pid, cmdline in left.items():
        problems.append({"kind": "a process of the run was left behind", "why": f"{pid}: {cmdline}"})
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    with open(os.path.join(run.dir, "final", "state.json"), "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1)
    summary, failures, noted = check(run.dir)
    with open(os.path.join(run.dir, "report.json"), "w", encoding="utf-8") as f:
        json.dump({"summary": summary, "failures": failures, "noted": noted}, f, ensure_ascii=False, indent=1)
    print_report(summary, failures, noted)
    if failures or args.keep:
        print(f"stress: run folder kept: {run.dir}", flush=True)
    else:
        shutil.rmtree(run.dir, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
