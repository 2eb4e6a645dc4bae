#!/usr/bin/env python3
"""Times two hottask binaries in turn on the same 100,000-task files (issue 28's "within 1.2x").

Usage: ab_bench.py BEFORE_BIN AFTER_BIN FOLDER [RUNS]
FOLDER holds store-100k.json and tw-100k.json, as `hottask-bench --make-stores FOLDER
--sizes 100000` writes them. Runs alternate between the binaries (so a busy machine slows both
alike); the table gives each one's median in milliseconds.
"""
import json, os, statistics, subprocess, sys, time

before, after, folder = sys.argv[1], sys.argv[2], sys.argv[3]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 9
bins = {"before": before, "after": after}
store, tw = f"{folder}/store-100k.json", f"{folder}/tw-100k.json"
rich = f"{folder}/tw-rich-100k.json"
if not os.path.exists(rich):
    # Half the tasks with tags, a project and an annotation: what is carried.
    items = json.load(open(tw))
    for i, task in enumerate(items):
        if i % 2 == 0:
            task.update(tags=["home", f"t{i % 7}"], project="work.q4",
                        annotations=[{"entry": "20261120T100000Z", "description": f"note {i}"}])
    json.dump(items, open(rich, "w"))

def clean(path):
    for suffix in ["", ".bak", ".index", ".journal", ".lock", ".imported", ".carried"]:
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass

def run(command):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000

def imported(source):
    def op(binary, scratch):
        clean(scratch)
        return run([binary, "--file", scratch, "--import", source])
    return op

operations = {
    "import HotTask export (empty store)": imported(store),
    "export - (HotTask)": lambda b, s: run([b, "--file", store, "--export", "-"]),
    "import Taskwarrior export (empty store)": imported(tw),
    "export Taskwarrior to a file": lambda b, s: run([b, "--file", store, "--export", f"{folder}/out.json", "--export-format", "taskwarrior"]),
    "export iCalendar to a file": lambda b, s: run([b, "--file", store, "--export", f"{folder}/out.ics", "--export-format", "ics"]),
    "import Taskwarrior, half with tags/project/annotation": imported(rich),
    "export that back to Taskwarrior": lambda b, s: run([b, "--file", s, "--export", f"{folder}/out-rich.json", "--export-format", "taskwarrior"]),
}
times = {(name, which): [] for name in operations for which in bins}
for attempt in range(runs):
    for name, operation in operations.items():
        for which in (["before", "after"] if attempt % 2 == 0 else ["after", "before"]):
            times[(name, which)].append(operation(bins[which], f"{folder}/scratch-{which}.json"))
print(f"| operation (100,000 tasks) | before (ms, median of {runs}) | after | after / before |")
print("|---|---|---|---|")
for name in operations:
    b, a = statistics.median(times[(name, "before")]), statistics.median(times[(name, "after")])
    print(f"| {name} | {b:.0f} | {a:.0f} | {a / b:.2f}× |")
