#!/usr/bin/env python3
"""Times the keys a person presses most, as a person sees them: two builds of hottask side by
side in tmux on copies of one large store, each key timed from `tmux send-keys` until its frame
shows, the builds taken in turn round after round (one run, the same machine load for both).

Usage: tmux_key_latency.py BEFORE AFTER STORE [ROUNDS]
STORE is a tasks.json (with its .journal and .index, if any), e.g. the store-100k.json that
`hottask-bench --make-stores DIR --sizes 100000` writes. Each round, for each build: a fresh copy,
the app at 120x40, Tab to the list, then 20 j (each until the selection moved), 10 Space (each
until the selected row's box flipped) and a filter: / then 8 letters (each until the filter line
shows it). Prints the medians and the 90th percentiles in milliseconds, per build.
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

from tmux_timing import Tmux

before, after, source = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
socket = f"hottask-latency-{os.getpid()}"


tmux = Tmux(socket, "keys")
until = tmux.wait_for


def timed(key, predicate, what):
    took, shown = tmux.press(key, predicate, what)
    return took * 1000, shown


def selected_row(shown):
    return next((line for line in shown.split("\n") if line.startswith("›")), "")


def walk(binary, times):
    work = tempfile.mkdtemp(prefix="hottask-latency-")
    for suffix in ["", ".journal", ".index"]:
        if os.path.exists(source + suffix):
            shutil.copy(source + suffix, f"{work}/tasks.json{suffix}")
    environment = f"env HOME={work} XDG_CONFIG_HOME={work}/config XDG_STATE_HOME={work}/state TERM=xterm-256color NO_COLOR="
    tmux("new-session", "-d", "-s", "keys", "-x", "120", "-y", "40", f"{environment} {binary} --file {work}/tasks.json")
    try:
        until(lambda s: "to go" in s, "the first frame", deadline=60)
        shown = timed("Tab", lambda s: "Tab input" in s, "the list's focus")[1]
        for _ in range(20):
            row = selected_row(shown)
            took, shown = timed("j", lambda s, row=row: selected_row(s) != row, "the selection to move")
            times["j"].append(took)
        for _ in range(10):
            box = selected_row(shown)[:5]
            flipped = "› [x]" if box == "› [ ]" else "› [ ]"
            took, shown = timed("Space", lambda s, flipped=flipped: selected_row(s).startswith(flipped), "the box to flip")
            times["Space"].append(took)
        timed("/", lambda s: "type to filter" in s, "the filter line")
        typed = ""
        for letter in "review":
            typed += letter
            took, shown = timed(letter, lambda s, typed=typed: f"/ {typed}" in s, "the filter text")
            times["filter"].append(took)
        tmux("send-keys", "-t", "keys", "C-c")
        time.sleep(0.3)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


results = {name: {"j": [], "Space": [], "filter": []} for name in ("before", "after")}
for _ in range(rounds):
    walk(before, results["before"])
    walk(after, results["after"])
print("| key | before: median (p90) ms | after: median (p90) ms |\n|---|---:|---:|")
for key in ("j", "Space", "filter"):
    cells = []
    for name in ("before", "after"):
        values = sorted(results[name][key])
        p90 = values[int(len(values) * 0.9) - 1]
        cells.append(f"{statistics.median(values):.1f} ({p90:.1f})")
    print(f"| {key} | {cells[0]} | {cells[1]} |")
