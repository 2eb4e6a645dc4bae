#!/usr/bin/env python3
"""Times the add and change commands of two hottask binaries in turn on the same 100,000-task
store (issue 39's "add and change cost within 5% of today's").

Usage: ab_changes.py [--instructions] BEFORE_BIN AFTER_BIN FOLDER [ROUNDS]
FOLDER holds store-100k.json, as `hottask-bench --make-stores FOLDER --sizes 100000` writes it.
Each binary works on its own copy of it; every round runs each command once per binary, the
binaries' order alternating (so a busy machine slows both alike), each run naming another task.
The table gives each one's median in milliseconds; with --instructions, the instructions
valgrind's callgrind counts (one round unless given: the count does not move), after one add
that does the compaction a copied store's first write may do. Build both binaries alike (`make
build` links the Swift runtime statically). Issue 40 adds `--list --sort due` (within 1.5x of
`--list`) and a due date set by --edit.
"""
import json, re, shutil, statistics, subprocess, sys, time

arguments = sys.argv[1:]
instructions = "--instructions" in arguments
if instructions:
    arguments.remove("--instructions")
before, after, folder = arguments[0], arguments[1], arguments[2]
rounds = int(arguments[3]) if len(arguments) > 3 else (1 if instructions else 21)
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
    if instructions:
        counted = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command, capture_output=True, text=True, check=True)
        return int(re.search(r"Collected : (\d+)", counted.stderr).group(1))
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000

operations = {
    "--add X": lambda b, s, n: run([b, "--file", s, "--add", f"Benchmark task {n}"]),
    "--done ID": lambda b, s, n: run([b, "--file", s, "--done", open_ids[n]]),
    "--undone ID": lambda b, s, n: run([b, "--file", s, "--undone", open_ids[n]]),
    "--move ID": lambda b, s, n: run([b, "--file", s, "--move", open_ids[1000 + n]]),
    "--edit ID TEXT": lambda b, s, n: run([b, "--file", s, "--edit", open_ids[2000 + n], f"Edited by the benchmark {n}"]),
    "--edit ID --due DATE": lambda b, s, n: run([b, "--file", s, "--edit", open_ids[3000 + n], "--due", "2026-12-04"]),
    "--list": lambda b, s, n: run([b, "--file", s, "--list"]),
    "--list --sort due": lambda b, s, n: run([b, "--file", s, "--list", "--sort", "due"]),
}
if instructions:
    for which, binary in bins.items():
        subprocess.run([binary, "--file", stores[which], "--add", "Warm-up"], stdout=subprocess.DEVNULL, check=True)
times = {(name, which): [] for name in operations for which in bins}
for n in range(rounds):
    for name, operation in operations.items():
        for which in (["before", "after"] if n % 2 == 0 else ["after", "before"]):
            times[(name, which)].append(operation(bins[which], stores[which], n))
unit = "instructions" if instructions else "ms"
print(f"| operation (100,000 tasks) | before ({unit}, median of {rounds}) | after | after / before |")
print("|---|---|---|---|")
for name in operations:
    b, a = statistics.median(times[(name, "before")]), statistics.median(times[(name, "after")])
    shown = (lambda value: f"{value:,.0f}") if instructions else (lambda value: f"{value:.2f}")
    print(f"| hottask {name} | {shown(b)} | {shown(a)} | {a / b:.3f}× |")
listed = {which: statistics.median(times[("--list --sort due", which)]) / statistics.median(times[("--list", which)]) for which in bins}
print(f"\n--list --sort due / --list: before {listed['before']:.3f}×, after {listed['after']:.3f}×")
