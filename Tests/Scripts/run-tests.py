#!/usr/bin/env python3
"""Runs the Swift Testing suites of a built test bundle in several processes at once.

Most end-to-end tests wait: on a child process, a server, tmux or a person's pace. One test
process runs its tests on the Swift runtime's cooperative pool, one thread a core, and a waiting
test holds its thread; on two cores two waiting tests stopped every other one. Here each suite
runs in a process of its own, WORKERS at a time, the slowest first (suite-weights lists the
seconds each took in a full run; a suite not listed counts as DEFAULT_WEIGHT). Each suite's
CPU, with the processes it waited for, is printed beside its time (--record writes both). A suite's output
is printed whole when it ends, so the log reads suite by suite.

usage: run-tests.py BUNDLE [--workers N] [--weights FILE] [--only REGEX] [--record FILE]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

DEFAULT_WEIGHT = 5.0
COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def suites(bundle):
    listing = subprocess.run(
        [bundle, "--testing-library", "swift-testing", "--list-tests"],
        capture_output=True, text=True, check=True,
    ).stdout
    counts = {}
    for line in listing.splitlines():
        if "/" in line:
            suite = line.split("/", 1)[0]
            counts[suite] = counts.get(suite, 0) + 1
    if not counts:
        sys.exit(f"run-tests: {bundle} lists no tests")
    return counts


def digest(text, limit=40):
    """A failed suite's lines that say why: its failed tests and expectations, a harness's
    FAILURE lines and last summary lines, at most `limit` lines of 300 characters."""
    wanted = re.compile(r"✘|FAILURE|Expectation failed|exited|fatal|crash|run-tests:|^lost \d|seed \d|took \d+ s")
    all_lines = text.splitlines()
    keep = set()
    for at, line in enumerate(all_lines):
        if wanted.search(line):
            # A harness's FAILURE line names its cases on the lines after it.
            keep.update(range(at, min(len(all_lines), at + (5 if "FAILURE" in line else 1))))
    # Swift Testing's details of an issue (`↳ …`) follow its ✘ line.
    keep.update(at + 1 for at in list(keep) if at + 1 < len(all_lines) and all_lines[at + 1].startswith("↳"))
    lines = [all_lines[at][:300] for at in sorted(keep)]
    if not lines:
        # Nothing said why (a crash, a signal, a limit): its last lines, whatever they are.
        lines = [line[:300] for line in all_lines[-10:]]
    if len(lines) > limit:
        lines = lines[: limit // 2] + [f"… {len(lines) - limit} more lines …"] + lines[-(limit // 2):]
    return "".join(line + "\n" for line in lines)


def weights(path):
    table = {}
    if path and os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            fields = line.split()
            if len(fields) >= 2 and not line.startswith("#"):
                table[fields[1]] = float(fields[0])
    return table


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("HOTTASK_TEST_WORKERS", "3")))
    parser.add_argument("--weights", default=os.path.join(os.path.dirname(__file__), "suite-weights"))
    parser.add_argument("--only", help="run only the suites whose names match this regular expression")
    parser.add_argument("--record", help="write each suite's seconds here, in the weights' format")
    options = parser.parse_args()

    known = weights(options.weights)
    listed = suites(options.bundle)
    names = [name for name in sorted(listed) if not options.only or re.search(options.only, name)]
    queue = sorted(names, key=lambda name: -known.get(name, DEFAULT_WEIGHT))
    lock = threading.Lock()
    results = {}
    digests = {}
    started = time.monotonic()

    def run(name):
        began = time.monotonic()
        command = [options.bundle, "--testing-library", "swift-testing", "--filter", re.escape(name) + "/"]
        with tempfile.TemporaryFile() as output:
            child = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            # wait4 gives the CPU of the suite and of every process it waited for.
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            output.seek(0)
            text = COLOUR.sub("", output.read().decode("utf-8", "replace"))
        seconds = time.monotonic() - began
        cpu = usage.ru_utime + usage.ru_stime
        # A suite whose filter ran fewer tests than it lists fails: a test never run is no pass.
        ran = sum(int(n) for n in re.findall(r"Test run with (\d+) tests?\b", text))
        status = child.returncode
        if status == 0 and ran != listed[name]:
            status = 1
            text += f"run-tests: {name} lists {listed[name]} tests and ran {ran}\n"
        with lock:
            results[name] = (status, seconds, cpu)
            if status != 0:
                digests[name] = f"exit {status}\n" + digest(text)
            sys.stdout.write(f"=== {name}: exit {status} after {seconds:.1f} s ({cpu:.1f} s of CPU)\n{text}")
            sys.stdout.flush()

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                name = queue.pop(0)
            run(name)

    threads = [threading.Thread(target=worker) for _ in range(max(1, options.workers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    failed = sorted(name for name, (status, _, _) in results.items() if status != 0)
    total = time.monotonic() - started
    if options.record:
        with open(options.record, "w", encoding="utf-8") as out:
            out.write("# seconds suite cpu-seconds (Tests/Scripts/run-tests.py --record)\n")
            for name, (_, seconds, cpu) in sorted(results.items(), key=lambda item: -item[1][1]):
                out.write(f"{seconds:.1f} {name} {cpu:.1f}\n")
    # Why each suite failed, again at the end: a CI log is often read from its tail only, and a
    # slow suite that failed early is thousands of lines up.
    for name in failed:
        print(f"=== {name} failed:\n{digests.get(name, '')}", end="")
    print(f"=== {len(results)} suites in {total:.0f} s with {options.workers} workers; "
          + (f"{len(failed)} failed: {', '.join(failed)}" if failed else "all passed"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
