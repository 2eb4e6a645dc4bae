#!/usr/bin/env python3
"""Times the UI's whole-list keys as a person sees them: the real binary in tmux on a large store,
each key sent with `tmux send-keys` and timed until the screen shows its result.

Usage: tmux_heavy_keys.py HOTTASK STORE [ROUNDS]
STORE is a tasks.json (with its .journal and .index, if any), e.g. the store-100k.json that
`hottask-bench --make-stores DIR --sizes 100000` writes (29,901 of its tasks completed). Each round
works on a fresh copy: three presses of s (sort modes), then C y (clear the completed) and u (bring
them back), each timed from the key to the frame that shows it. The u is sent as soon as the
cleared list shows, so it also waits for the clear's save. Prints one line per round, in seconds;
after each round, q, and the store read back by `--list --json` must hold every task as before
(by id, caption, section and completed).
"""
import json, os, re, shutil, subprocess, sys, tempfile, time

from tmux_timing import Tmux

hottask, source = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
socket = f"hottask-heavy-{os.getpid()}"


tmux = Tmux(socket, "heavy")
screen, wait_for, press = tmux.screen, tmux.wait_for, tmux.press


def progress(shown):
    found = re.search(r"(\d+) down (\d+) to go|Get started - (\d+) to go", shown)
    return found.group(0) if found else None


def tasks_in(store):
    """Every task of the store as (id, caption, section, completed): what the walk must leave."""
    listed = subprocess.run([hottask, "--file", store, "--list", "--json"], capture_output=True, text=True, check=True)
    return {(t["id"], t["caption"], t["section"], t["completed"]) for t in json.loads(listed.stdout)["tasks"]}


print("| round | s s s (each) | C | y | u | C y u together |\n|---|---|---:|---:|---:|---:|")
for round_number in range(1, rounds + 1):
    work = tempfile.mkdtemp(prefix="hottask-heavy-")
    for suffix in ["", ".journal", ".index"]:
        if os.path.exists(source + suffix):
            shutil.copy(source + suffix, f"{work}/tasks.json{suffix}")
    environment = f"env HOME={work} XDG_CONFIG_HOME={work}/config XDG_STATE_HOME={work}/state TERM=xterm-256color"
    tmux("new-session", "-d", "-s", "heavy", "-x", "120", "-y", "40", f"{environment} {hottask} --file {work}/tasks.json")
    try:
        before_tasks = tasks_in(f"{work}/tasks.json")
        first = wait_for(progress, "the first frame")
        before = progress(first)
        _, shown = press("Tab", lambda s: s != first, "the list's focus")
        sorts = []
        for _ in range(3):
            last = shown
            took, shown = press("s", lambda s, last=last: s != last, "the next sort mode")
            sorts.append(took)
        asked, _ = press("C", lambda s: "y to clear" in s, "the question")
        start = time.perf_counter()
        cleared, _ = press("y", lambda s: (progress(s) or before) != before and "y to clear" not in s, "the cleared list")
        undone, _ = press("u", lambda s: progress(s) == before, "the tasks back")
        together = time.perf_counter() - start + asked
        each = " ".join(f"{took:.2f}" for took in sorts)
        print(f"| {round_number} | {each} | {asked:.2f} | {cleared:.2f} | {undone:.2f} | {together:.2f} |")
        # Quit as a person would (a wrapper such as `perf record` then finishes its file).
        tmux("send-keys", "-t", "heavy", "q")
        start = time.perf_counter()
        while subprocess.run(["tmux", "-L", socket, "has-session", "-t", "heavy"], capture_output=True).returncode == 0:
            if time.perf_counter() - start > 30:
                sys.exit("hottask did not quit on q")
            time.sleep(0.05)
        after = tasks_in(f"{work}/tasks.json")
        if after != before_tasks:
            lost, gained = len(before_tasks - after), len(after - before_tasks)
            sys.exit(f"the store differs after the walk: {lost} tasks missing or changed, {gained} new or changed")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
