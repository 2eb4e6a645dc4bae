#!/usr/bin/env python3
"""Issue 49's first frame with theme = "auto" against theme = "dark", in one run: the real binary
in a pty that never answers OSC 11 (script(1), as a raw pty, the Linux console and terminals
without OSC 11 are), runs interleaved, the time from start to the footer's "quit" on screen.
Prints the medians and auto/dark (the goal: at most 1.05).

Usage: first_frame_theme.py BINARY STORE RUNS
"""
import os, select, statistics, subprocess, sys, tempfile, time

binary, store, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
work = tempfile.mkdtemp(prefix="hottask-first-frame-")
configs = {}
for theme in ("auto", "dark"):
    configs[theme] = f"{work}/{theme}.toml"
    with open(configs[theme], "w") as config:
        config.write(f'theme = "{theme}"\n')


def once(theme):
    environment = {"TERM": "xterm-256color", "LINES": "24", "COLUMNS": "80", "LC_ALL": "C.UTF-8", "PATH": os.environ["PATH"],
                   "HOME": work, "XDG_STATE_HOME": f"{work}/state-{theme}"}
    start = time.perf_counter()
    process = subprocess.Popen(["script", "-qfec", f"'{binary}' --file '{store}' --config '{configs[theme]}'", "/dev/null"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment)
    seen = b""
    while b"quit" not in seen[-8192:]:
        if not select.select([process.stdout], [], [], 10)[0]:
            sys.exit(f"{theme}: no first frame within 10 s")
        chunk = os.read(process.stdout.fileno(), 65536)
        if not chunk:
            break
        seen += chunk
    elapsed = (time.perf_counter() - start) * 1000
    subprocess.run(["pkill", "-TERM", "-f", "--", f"--config {configs[theme]}"])
    process.wait()
    return elapsed


times = {"auto": [], "dark": []}
for run in range(runs):
    for theme in ("auto", "dark") if run % 2 == 0 else ("dark", "auto"):
        times[theme].append(once(theme))
auto, dark = statistics.median(times["auto"]), statistics.median(times["dark"])
print(f"{binary}: auto {auto:.1f} ms, dark {dark:.1f} ms, auto/dark {auto / dark:.3f} (median of {runs})")
