#!/usr/bin/env python3
"""Times two hottask binaries in turn on copies of one store: --add, --done, --edit and --list.

Usage: ab_fast_paths.py BEFORE_BIN AFTER_BIN STORE [RUNS]
STORE is a tasks.json (with its .journal, if any), e.g. one `hottask-bench --make-stores DIR
--sizes 100000` writes. Runs alternate between the binaries (a busy machine slows both alike);
each row gives both medians in milliseconds and their ratio, for the wall clock and for the CPU
time the command used (user + system; steadier than the wall clock while other work shares the
machine).
"""
import json, os, resource, shutil, statistics, subprocess, sys, tempfile, time

before, after, source = sys.argv[1], sys.argv[2], sys.argv[3]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 9
bins = {"before": before, "after": after}
work = tempfile.mkdtemp(prefix="hottask-ab-")
stores = {}
for tag in bins:
    os.makedirs(f"{work}/{tag}")
    for suffix in ["", ".journal"]:
        if os.path.exists(source + suffix):
            shutil.copy(source + suffix, f"{work}/{tag}/tasks.json{suffix}")
    stores[tag] = f"{work}/{tag}/tasks.json"
listed = subprocess.run([after, "--file", stores["after"], "--list", "--json"], capture_output=True, text=True, check=True).stdout
open_ids = [task["id"] for task in json.loads(listed)["tasks"] if not task["completed"]]
operations = [
    ("--add X", lambda i: ["--add", f"Benchmark {i}"]),
    ("--done ID", lambda i: ["--done", open_ids[i]]),
    ("--edit ID TEXT", lambda i: ["--edit", open_ids[100 + i], f"Edited {i}"]),
    ("--list", lambda i: ["--list"]),
]
times, cpu_times = {}, {}
for i in range(runs):
    for tag in (["before", "after"] if i % 2 == 0 else ["after", "before"]):
        for name, arguments in operations:
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            run = subprocess.run([bins[tag], "--file", stores[tag]] + arguments(i), capture_output=True)
            times.setdefault((name, tag), []).append((time.perf_counter() - start) * 1000)
            after_run = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after_run.ru_utime + after_run.ru_stime) - (used.ru_utime + used.ru_stime)
            cpu_times.setdefault((name, tag), []).append(cpu * 1000)
            if run.returncode != 0:
                sys.exit(f"{tag} {arguments(i)} exited {run.returncode}: {run.stderr[:300]!r}")
print("| operation | before ms | after ms | after/before | before CPU ms | after CPU ms | after/before |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, _ in operations:
    b, a = statistics.median(times[(name, "before")]), statistics.median(times[(name, "after")])
    cb, ca = statistics.median(cpu_times[(name, "before")]), statistics.median(cpu_times[(name, "after")])
    print(f"| {name} | {b:.1f} | {a:.1f} | {a / b:.2f}× | {cb:.1f} | {ca:.1f} | {ca / cb:.2f}× |")
shutil.rmtree(work)
