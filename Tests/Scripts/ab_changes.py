#!/usr/bin/env python3
"""Times the add and change commands of two hottask binaries in turn on the same 100,000-task
store (issue 39's "add and change cost within 5% of today's").

Usage: ab_changes.py BEFORE_BIN AFTER_BIN FOLDER [ROUNDS]
FOLDER holds store-100k.json, as `hottask-bench --make-stores FOLDER --sizes 100000` writes it.
Each binary works on its own copy of it; every round runs each command once per binary, the
binaries' order alternating (so a busy machine slows both alike), each run naming another task.
The table gives each one's median in milliseconds.
"""
import json, shutil, statistics, subprocess, sys, time

before, after, folder = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 21
bins = {"before": before, "after": after}
source = f"{folder}/store-100k.json"
stores = {}
for which in bins:
    stores[which] = f"{folder}/ab-{which}.json"
    for suffix in ["", ".journal"]:
        try:
            shutil.copyfile(source + suffix, stores[which] + suffix)
        except FileNotFoundError:
            pass
    for suffix in [".bak", ".index", ".lock", ".carried", ".imported"]:
        try:
            __import__("os").remove(stores[which] + suffix)
        except FileNotFoundError:
            pass
tasks = json.load(open(source))["tasks"]
open_ids = [t["id"].lower() for t in tasks if not t.get("completed")]

def run(command):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000

operations = {
    "--add X": lambda b, s, n: run([b, "--file", s, "--add", f"Benchmark task {n}"]),
    "--done ID": lambda b, s, n: run([b, "--file", s, "--done", open_ids[n]]),
    "--undone ID": lambda b, s, n: run([b, "--file", s, "--undone", open_ids[n]]),
    "--move ID": lambda b, s, n: run([b, "--file", s, "--move", open_ids[1000 + n]]),
    "--edit ID TEXT": lambda b, s, n: run([b, "--file", s, "--edit", open_ids[2000 + n], f"Edited by the benchmark {n}"]),
}
times = {(name, which): [] for name in operations for which in bins}
for n in range(rounds):
    for name, operation in operations.items():
        for which in (["before", "after"] if n % 2 == 0 else ["after", "before"]):
            times[(name, which)].append(operation(bins[which], stores[which], n))
print(f"| operation (100,000 tasks) | before (ms, median of {rounds}) | after | after / before |")
print("|---|---|---|---|")
for name in operations:
    b, a = statistics.median(times[(name, "before")]), statistics.median(times[(name, "after")])
    print(f"| hottask {name} | {b:.2f} | {a:.2f} | {a / b:.3f}× |")
