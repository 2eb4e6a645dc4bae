#!/usr/bin/env python3
"""Crash points for the sync: `hottask-sync` killed before each file system call, and before
each request, of a sync; after each kill, a change here and a clean sync must leave the store
and the server agreeing, with nothing lost and nothing deleted brought back.

Usage: sync_crash_points.py [--binary PATH] [--sample N] [--seed S] [--only calls|requests]
                            [--scenario first|later] [--mode append|compact] [--keep | --discard]

The approach of Tests/EndToEndTests/CrashPointTests.swift, extended to `hottask-sync`:

- A seed: a store and a Radicale calendar (through Tests/Scripts/fault_proxy.py) with work for a
  sync in both directions. `later`: 12 tasks synced before, then here three adds, a completion,
  an edit and two deletes, and on the phone (Python's caldav) two adds, a completion, an edit, a
  delete and a completion of the task edited here; a task deleted here and completed on the
  phone 2.5 s later (it comes back, completed), and one completed on the phone and deleted here
  2.5 s later (it stays deleted). `first`: ten tasks never synced (one deleted before the sync)
  and two of the phone's.
- File system calls: the sync is run once under `strace -f` to list the calls that can change
  the disk (those of CrashPointTests) after `hottask-sync` first names the store's folder, each
  by its name and ordinal (strace counts per thread: `when=K` stops the first thread to make
  its K-th such call); then, on a fresh copy of the seed (store files and the server's
  collection), once per point with `-e inject=CALL:error=EIO:signal=SIGKILL:when=K`.
- Requests: the sync run by `hottask --sync` through the fault proxy, whose rule lets N requests
  pass ("skip") and, before the next, SIGKILLs `hottask-sync` (its "before" hook); the request
  is then either dropped (it never reached the server) or passed on (the server did it, and
  nobody heard the answer). For every N of the clean run's requests.
- Two modes: `append`, where the sync's commit is appended to the log as usual, and `compact`,
  where that commit folds the log into a new snapshot (as the first change after the store's
  files were copied does: the seed is put back by copying, so in `append` mode a filler task
  is added and deleted by number first, a commit that compacts).
- After each kill: `--delete` of a task added here (uploaded or not) and of one synced before,
  then one clean `hottask --sync` (exit 0 required), then the store (`--list --json`) and the
  server (caldav) must both hold exactly the expected tasks, captions and completed states.

Without --sample every point is run (about 160 file system calls and 25 requests (each twice)
per scenario and mode, about a second each: 12 minutes in all); `--sample N` runs N file system
call points (one of each call first, as far as N goes) and N/2 requests per scenario and mode,
drawn with the seed (`--seed`, printed). Exits 1 on any failure, naming the point.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stress  # noqa: E402

CHANGING_CALLS = {
    "openat", "open", "creat", "write", "pwrite64", "writev", "fsync", "fdatasync", "sync_file_range",
    "rename", "renameat", "renameat2", "unlink", "unlinkat", "ftruncate", "truncate", "close", "link",
    "linkat", "symlink", "symlinkat", "flock", "fcntl", "mkdir", "mkdirat", "fchmod", "fchown", "exit_group",
}


class Bench:
    def __init__(self, binary, folder):
        self.binary = binary
        self.helper = os.path.join(os.path.dirname(binary), "hottask-sync")
        self.dir = folder
        self.port = stress.free_port()
        self.env = dict(os.environ)
        for name in ("HOTTASK_FILE", "HOTTASK_LOG_LIMIT", "HOTTASK_LOCK_WAIT"):
            self.env.pop(name, None)
        self.env.update(
            XDG_CONFIG_HOME=os.path.join(folder, "xdg", "config"), XDG_STATE_HOME=os.path.join(folder, "xdg", "state"),
            XDG_DATA_HOME=os.path.join(folder, "xdg", "data"))
        self.processes = []
        radicale = os.path.join(folder, "radicale")
        os.makedirs(radicale)
        self.collections = os.path.join(radicale, "collections")
        conf = os.path.join(radicale, "radicale.conf")
        with open(conf, "w") as f:
            f.write(f"[server]\nhosts = 127.0.0.1:{self.port}\n[auth]\ntype = none\n[storage]\nfilesystem_folder = {self.collections}\n")
        log = open(os.path.join(radicale, "server.log"), "w")
        self.processes.append(subprocess.Popen(["radicale", "--config", conf], stdout=log, stderr=log, env=self.env))
        stress.wait_listening(self.port, "radicale")
        self.direct = f"http://127.0.0.1:{self.port}/u/hot/"
        made = subprocess.run(["python3", os.path.join(stress.SCRIPTS, "caldav_phone.py"), self.direct, "make-calendar"],
                              capture_output=True, text=True, env=self.env)
        if made.returncode != 0:
            raise RuntimeError(made.stderr)
        self.control = os.path.join(folder, "proxy.json")
        self.set_rules([])
        proxy_port = stress.free_port()
        plog = open(os.path.join(folder, "proxy.log"), "w")
        self.processes.append(subprocess.Popen(
            ["python3", os.path.join(stress.SCRIPTS, "fault_proxy.py"), str(proxy_port), f"http://127.0.0.1:{self.port}", self.control],
            stdout=plog, stderr=plog, env=self.env))
        stress.wait_listening(proxy_port, "the fault proxy")
        self.url = f"http://127.0.0.1:{proxy_port}/u/hot/"
        # No login (Radicale takes any): no password command, whose shell strace -f would trace too.
        self.config = os.path.join(folder, "sync.toml")
        with open(self.config, "w") as f:
            f.write(f'[sync]\nurl = "{self.url}"\n')
        os.chmod(self.config, 0o600)
        self.store = os.path.join(folder, "store", "tasks.json")
        self.calendar = os.path.join(self.collections, "collection-root", "u", "hot")

    def stop(self):
        for p in reversed(self.processes):
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()

    def set_rules(self, rules):
        tmp = self.control + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"rules": rules}, f)
        os.replace(tmp, self.control)

    def hottask(self, *arguments, check=True, prefix=()):
        result = subprocess.run([*prefix, self.binary, "--file", self.store, "--config", self.config, *arguments],
                                capture_output=True, text=True, env=self.env, timeout=120)
        if check and result.returncode != 0:
            raise RuntimeError(f"hottask {' '.join(arguments)} exited {result.returncode}: {result.stderr}")
        return result

    def phone(self, *arguments):
        result = subprocess.run(["python3", os.path.join(stress.SCRIPTS, "caldav_phone.py"), self.direct, *arguments],
                                capture_output=True, text=True, env=self.env, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"phone {' '.join(arguments)}: {result.stderr}")
        return json.loads(result.stdout)

    def ids(self):
        document = json.loads(self.hottask("--list", "--json").stdout)
        return {t["caption"]: t["id"] for t in document["tasks"]}

    def store_state(self):
        result = self.hottask("--list", "--json", check=False)
        if result.returncode != 0:
            return None, result.stderr
        return sorted((t["caption"], t["completed"]) for t in json.loads(result.stdout)["tasks"]), ""

    def server_state(self):
        return sorted((t["summary"], t["completed"]) for t in stress.server_tasks(self.direct) if t["status"].upper() != "CANCELLED")

    # The seed, kept aside and put back before each point.

    def save_seed(self, name):
        seed = os.path.join(self.dir, "seed-" + name)
        shutil.copytree(os.path.dirname(self.store), os.path.join(seed, "store"))
        shutil.copytree(self.calendar, os.path.join(seed, "calendar"))
        return seed

    def restore(self, seed, mode):
        """The seed's store and calendar, put back. A copied snapshot no longer matches the stat
        its log's header names, and so "the next change compacts": in mode `compact` the sync's
        own commit folds the log into a new snapshot. In mode
        `append` a filler task is added and deleted by number first (a whole-store commit that
        compacts), so that the sync's commit is appended to the log, as it usually is."""
        shutil.rmtree(os.path.dirname(self.store))
        shutil.copytree(os.path.join(seed, "store"), os.path.dirname(self.store))
        shutil.rmtree(self.calendar)
        shutil.copytree(os.path.join(seed, "calendar"), self.calendar)
        if mode == "append":
            self.hottask("--add", "Filler")
            self.hottask("--delete", "1")

    def helper_arguments(self):
        # What `hottask --sync` hands its helper (SyncRunner.arguments), without --die-with-parent:
        # here nobody holds a lifeline.
        return [self.helper, "--store", self.store, "--url", self.url]


def later_scenario(bench):
    """12 synced tasks, then work on both sides; returns (seed, expected, post-kill deletes)."""
    for n in range(1, 13):
        bench.hottask("--add", f"T{n:02}")
    bench.hottask("--sync")
    ids = bench.ids()
    for caption in ("L1", "L2", "L3"):
        bench.hottask("--add", caption)
    bench.hottask("--done", ids["T01"])
    bench.hottask("--edit", ids["T02"], "T02 edited")
    bench.hottask("--delete", ids["T03"], "--delete", ids["T04"])
    bench.phone("add", "P1")
    bench.phone("add", "P2")
    bench.phone("edit", "T05", "--status", "COMPLETED")
    bench.phone("edit", "T06", "--summary", "T06 phone")
    bench.phone("delete", "T07")
    bench.phone("edit", "T02", "--status", "COMPLETED")
    # A delete here, a change there 2.5 s later: the task comes back, changed. And the other way.
    bench.hottask("--delete", ids["T09"])
    bench.phone("edit", "T10", "--status", "COMPLETED")
    time.sleep(3.2)
    bench.phone("edit", "T09", "--status", "COMPLETED")
    bench.hottask("--delete", ids["T10"])
    expected = {("T01", True), ("T02 edited", True), ("T05", True), ("T06 phone", False), ("T08", False), ("T09", True),
                ("T11", False), ("T12", False), ("L1", False), ("L2", False), ("L3", False), ("P1", False), ("P2", False)}
    deletes = ["L1", "T08"]
    expected -= {("L1", False), ("T08", False)}
    return bench.save_seed("later"), sorted(expected), deletes


def first_scenario(bench):
    """Ten tasks never synced (one deleted here), two of the phone's: a first sync."""
    for n in range(1, 11):
        bench.hottask("--add", f"F{n:02}")
    bench.phone("add", "Q1")
    bench.phone("add", "Q2")
    bench.hottask("--delete", bench.ids()["F10"])
    expected = {(f"F{n:02}", False) for n in range(2, 10)} | {("Q1", False), ("Q2", False)}
    return bench.save_seed("first"), sorted(expected), ["F01"]


def check_point(bench, label, deletes, expected, failures):
    """After a kill: deletes here, one clean sync, then store == server == expected."""
    leftover = subprocess.run(["pgrep", "-f", f"hottask-sync --store {bench.store}"], capture_output=True, text=True).stdout.split()
    for pid in leftover:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except OSError:
            pass
    if leftover:
        failures.append(f"{label}: hottask-sync still running after the kill ({', '.join(leftover)})")
    ids = bench.ids()
    for caption in deletes:
        deleted = bench.hottask("--delete", ids.get(caption, "missing-" + caption), check=False)
        if deleted.returncode != 0:
            failures.append(f"{label}: --delete {caption} after the kill exited {deleted.returncode}: {deleted.stderr.strip()}")
    synced = bench.hottask("--sync", check=False)
    if synced.returncode != 0:
        failures.append(f"{label}: the clean sync exited {synced.returncode}: {synced.stderr.strip()}")
    here, problem = bench.store_state()
    there = bench.server_state()
    want = sorted(expected)
    if here != want:
        failures.append(f"{label}: the store holds {describe_difference(here, want, problem)}")
    if there != want:
        failures.append(f"{label}: the server holds {describe_difference(there, want)}")
    return here == want and there == want and synced.returncode == 0


def describe_difference(got, want, problem=""):
    if got is None:
        return f"nothing readable: {problem.strip()}"
    extra = sorted(set(got) - set(want))
    missing = sorted(set(want) - set(got))
    return f"{len(got)} tasks; not expected: {extra or 'none'}; missing: {missing or 'none'}" + (
        "; duplicates" if len(got) != len(set(got)) else "")


def clean_trace(bench, seed, mode):
    """The sync run once under strace: its changing calls after it first names the store's folder."""
    bench.restore(seed, mode)
    trace = os.path.join(bench.dir, "trace")
    run = subprocess.run(["strace", "-f", "-qq", "-s", "0", "-o", trace, *bench.helper_arguments()],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, env=bench.env, timeout=120)
    if run.returncode != 0:
        raise RuntimeError(f"the clean traced sync failed: {run.stderr}")
    folder = os.path.dirname(bench.store)
    ordinals = {}
    reached = False
    points = []
    threads = set()
    with open(trace) as f:
        for line in f:
            pid, _, rest = line.partition(" ")
            rest = rest.lstrip()
            paren = rest.find("(")
            if paren <= 0 or not rest[0].isalpha():
                continue
            call = rest[:paren]
            key = (pid, call)
            ordinals[key] = ordinals.get(key, 0) + 1
            if not reached and folder in rest:
                reached = True
            if reached and call in CHANGING_CALLS:
                threads.add(pid)
                points.append((call, ordinals[key]))
    if not reached:
        raise RuntimeError("the trace never names the store's folder")
    # when=K counts per thread: one point per call and ordinal, whichever thread makes it.
    return sorted(set(points), key=lambda p: (p[0], p[1])), len(threads)


def sample(points, n, rng):
    """n points drawn with rng: one of each call first (as far as n goes), then any."""
    if n is None or len(points) <= n:
        return points
    by_call = {}
    for call, k in points:
        by_call.setdefault(call, []).append((call, k))
    calls = sorted(by_call)
    rng.shuffle(calls)
    chosen = {rng.choice(by_call[call]) for call in calls[:n]}
    rest = [p for p in points if p not in chosen]
    rng.shuffle(rest)
    chosen |= set(rest[: max(0, n - len(chosen))])
    return sorted(chosen)


def file_call_points(bench, name, mode, seed, expected, deletes, args, rng, failures):
    points, threads = clean_trace(bench, seed, mode)
    chosen = sample(points, args.sample, rng)
    print(f"{name}, {mode}: {len(points)} file system call points in {threads} threads; running {len(chosen)}", flush=True)
    killed = not_killed = 0
    for call, k in chosen:
        bench.restore(seed, mode)
        label = f"{name}, {mode}: killed before {call} #{k}"
        run = subprocess.run(
            ["strace", "-f", "-qq", "-o", "/dev/null", "-e", f"trace={call}", "-e", f"inject={call}:error=EIO:signal=SIGKILL:when={k}",
             *bench.helper_arguments()],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, env=bench.env, timeout=120)
        # strace dies of the signal that killed its tracee.
        if run.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL):
            killed += 1
        else:
            # A thread made fewer such calls this time: the sync ran to its end (or failed on the
            # EIO alone); still checked.
            not_killed += 1
            label += f" (not killed: exit {run.returncode})"
        check_point(bench, label, deletes, expected, failures)
    return killed, not_killed


def request_points(bench, name, mode, seed, expected, deletes, args, rng, failures):
    bench.restore(seed, mode)
    log = bench.control + ".log"
    if os.path.exists(log):
        os.unlink(log)
    bench.hottask("--sync")
    with open(log) as f:
        requests = [line.split()[0] for line in f if line.strip()]
    indexes = list(range(len(requests)))
    if args.sample is not None and len(indexes) > max(1, args.sample // 2):
        rng.shuffle(indexes)
        indexes = sorted(indexes[: max(1, args.sample // 2)])
    print(f"{name}, {mode}: {len(requests)} requests ({', '.join(sorted(set(requests)))}); killing before {len(indexes)} of them, "
          "each with the request dropped and passed on", flush=True)
    hook = ["pkill", "-KILL", "-f", f"hottask-sync --store {bench.store}"]
    count = 0
    for n in indexes:
        for action in ("drop-before", "pass"):
            bench.restore(seed, mode)
            bench.set_rules([{"method": "*", "skip": n, "times": 1, "action": action, "before": hook}])
            label = f"{name}, {mode}: killed before request {n + 1} ({requests[n]}), {'dropped' if action == 'drop-before' else 'passed on'}"
            run = bench.hottask("--sync", check=False)
            bench.set_rules([])
            if run.returncode != 5 or "SIGKILL" not in run.stderr:
                label += f" (exit {run.returncode}: {run.stderr.strip()[:200]})"
            check_point(bench, label, deletes, expected, failures)
            count += 1
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(stress.ROOT, ".build", "release", "hottask"))
    parser.add_argument("--sample", type=int, help="points per scenario and kind (default: all)")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--only", choices=["calls", "requests"])
    parser.add_argument("--scenario", choices=["first", "later"], action="append")
    parser.add_argument(
        "--mode", choices=["append", "compact"], action="append",
        help="append: the sync's commit is appended to the log; compact: it folds the log into a new snapshot "
        "(as the first change after the store's files were copied does); default both")
    parser.add_argument("--keep", action="store_true", help="keep the folder even when every point passes")
    parser.add_argument("--discard", action="store_true", help="remove the folder even when a point fails (the test's known issue)")
    args = parser.parse_args()
    for tool in ("strace", "radicale", "pgrep", "pkill"):
        if shutil.which(tool) is None:
            sys.exit(f"sync_crash_points.py needs {tool}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="hottask-sync-crash-")
    binary = os.path.abspath(args.binary)
    print(f"sync crash points: seed {seed}, sample {args.sample or 'all'}, folder {folder}", flush=True)
    failures = []
    started = time.time()
    totals = {}
    try:
        for scenario in args.scenario or ["later", "first"]:
            bench = Bench(binary, os.path.join(folder, scenario))
            try:
                seeded, expected, deletes = (later_scenario if scenario == "later" else first_scenario)(bench)
                for mode in args.mode or ["append", "compact"]:
                    if args.only != "requests":
                        totals[f"{scenario}, {mode}, file system calls"] = file_call_points(
                            bench, scenario, mode, seeded, expected, deletes, args, rng, failures)
                    if args.only != "calls":
                        totals[f"{scenario}, {mode}, requests"] = request_points(
                            bench, scenario, mode, seeded, expected, deletes, args, rng, failures)
            finally:
                bench.stop()
    finally:
        left = stress.processes_naming(folder, exclude={os.getpid()})
        for pid, cmdline in left.items():
            failures.append(f"left behind: {pid} {cmdline}")
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    for failure in failures:
        print("FAILURE " + failure)
    for key, value in totals.items():
        if isinstance(value, tuple):
            print(f"{key}: {value[0]} killed, {value[1]} ran to their end")
        else:
            print(f"{key}: {value} kills")
    print(f"{len(failures)} failures in {time.time() - started:.0f} s; seed {seed}")
    if args.keep or (failures and not args.discard):
        print(f"folder kept: {folder}")
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
