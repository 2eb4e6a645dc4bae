#!/usr/bin/env python3
"""What an idle UI costs and how soon it shows another program's change, for two builds in turn:
each started in tmux (80x24) on a store of two tasks; after a second of quiet, `strace -f`
attached for 10 s counts the system calls made, by name (the calls the threads were already
waiting in at attach and detach left out); then 10 times `hottask --add` from outside, each timed from its
exit to the frame that shows it (capture-pane polled every millisecond).

Usage: loop_wakeups.py BEFORE AFTER
"""
import collections, os, shutil, statistics, subprocess, sys, tempfile, time


def measure(binary):
    work = tempfile.mkdtemp(prefix="hottask-wakeups-")
    trace = tempfile.mkdtemp(prefix="hottask-trace-") + "/trace"  # outside the store's folder
    socket = f"hottask-wakeups-{os.getpid()}"
    store = f"{work}/tasks.json"
    environment = {"XDG_CONFIG_HOME": f"{work}/config", "XDG_STATE_HOME": f"{work}/state", "PATH": os.environ["PATH"]}
    subprocess.run([binary, "--file", store, "--add", "Call mum", "--add", "Buy milk", "-q"], check=True, env=environment)
    tmux = lambda *a: subprocess.run(["tmux", "-L", socket] + list(a), capture_output=True, text=True).stdout
    tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "t",
         f"env XDG_CONFIG_HOME={work}/config XDG_STATE_HOME={work}/state TERM=tmux-256color {binary} --file {store}")
    try:
        while "Call mum" not in tmux("capture-pane", "-p", "-t", "t"):
            time.sleep(0.01)
        pid = subprocess.run(["pgrep", "-f", "--", f"--file {store}$"], capture_output=True, text=True).stdout.split()[-1]
        time.sleep(1)
        strace = subprocess.Popen(["strace", "-f", "-qq", "-o", trace, "-p", pid])
        time.sleep(10)
        strace.terminate()
        strace.wait()
        made = [line for line in open(trace) if not line.rstrip().endswith("<unfinished ...>") and "resumed>" not in line
                and "restart_syscall(<... resuming" not in line and not line.rstrip().endswith("<detached ...>")]
        latencies = []
        for round_number in range(10):
            caption = f"Added from outside {round_number}"
            subprocess.run([binary, "--file", store, "--add", caption, "-q"], check=True, env=environment)
            start = time.perf_counter()
            while caption not in tmux("capture-pane", "-p", "-t", "t"):
                if time.perf_counter() - start > 5:
                    sys.exit(f"{binary}: {caption} never showed")
                time.sleep(0.001)
            latencies.append((time.perf_counter() - start) * 1000)
            time.sleep(0.2)
        names = collections.Counter(line.split(None, 1)[1].split("(", 1)[0] for line in made if " " in line)
        calls = ", ".join(f"{name} {count}" for name, count in names.most_common(6))
        return len(made), calls, statistics.median(latencies), min(latencies), max(latencies)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


print("| build | system calls in 10 s idle | the most made | another program's change on screen: median (min–max) ms |\n|---|---:|---|---:|")
for name, binary in (("before", sys.argv[1]), ("after", sys.argv[2])):
    count, calls, median, low, high = measure(binary)
    print(f"| {name} | {count} | {calls or '–'} | {median:.1f} ({low:.1f}–{high:.1f}) |")
