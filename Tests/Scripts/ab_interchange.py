#!/usr/bin/env python3
"""Counts the instructions two hottask binaries spend on import and export at 100,000 tasks
(issue 41's "import and export speed at 100k stay within 1.1x of today's").

Usage: ab_interchange.py BEFORE_BIN AFTER_BIN FOLDER [OPERATION ...]
FOLDER holds store-100k.json (with its .journal) and tw-100k.json, as `hottask-bench
--make-stores FOLDER --sizes 100000` writes them. OPERATION is any of import-tw,
import-todotxt, import-ics, export-taskwarrior, export-todotxt, export-ics (all six when none).

Each run is counted by valgrind's callgrind (instructions, not time: the machine may be busy,
the count does not move), on fresh files: an export works on a copy of the store with no side
file but its change log, so it is a first export; an import makes a new store. The todo.txt and
.ics files imported are the ones BEFORE_BIN exports from the store. Counts are kept in
FOLDER/ab-interchange/counts.json by the binary's hash, so a binary already counted is not run
again (delete the file to count afresh); the callgrind files stay there for a per-function look
(callgrind_annotate). Both binaries should be built alike (`make build` links the Swift runtime
statically; a dynamic build spends more instructions on each call into it).
"""
import hashlib, json, os, shutil, subprocess, sys

OPERATIONS = ["import-tw", "import-todotxt", "import-ics",
              "export-taskwarrior", "export-todotxt", "export-ics"]
SIDE_FILES = [".bak", ".index", ".lock", ".imported", ".carried", ".journal"]

before, after, folder = sys.argv[1], sys.argv[2], sys.argv[3]
operations = sys.argv[4:] or OPERATIONS
for operation in operations:
    if operation not in OPERATIONS:
        sys.exit(f"ab_interchange.py: no operation {operation}; the operations are {', '.join(OPERATIONS)}")
if not shutil.which("valgrind"):
    sys.exit("ab_interchange.py: valgrind is needed (apt-get install valgrind)")
work = os.path.join(folder, "ab-interchange")
os.makedirs(work, exist_ok=True)
store, tw = os.path.join(folder, "store-100k.json"), os.path.join(folder, "tw-100k.json")
counts_path = os.path.join(work, "counts.json")
counts = json.load(open(counts_path)) if os.path.exists(counts_path) else {}


def remove(path):
    for suffix in [""] + SIDE_FILES:
        try:
            os.remove(path + suffix)
        except FileNotFoundError:
            pass


def fresh_store(path):
    """A copy of the 100k store with its change log and no other side file."""
    remove(path)
    shutil.copyfile(store, path)
    shutil.copyfile(store + ".journal", path + ".journal")


def digest(binary):
    with open(binary, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()[:16]


def export_input(fmt):
    """The file BEFORE_BIN exports in `fmt`, made once per BEFORE_BIN."""
    path = os.path.join(work, f"input-{digest(before)}.{'txt' if fmt == 'todotxt' else fmt}")
    if not os.path.exists(path):
        source = os.path.join(work, "input-store.json")
        fresh_store(source)
        subprocess.run([before, "--file", source, "--export", path, "--export-format", fmt],
                       check=True, stdout=subprocess.DEVNULL)
        remove(source)
    return path


def command(binary, operation, name):
    kind, fmt = operation.split("-", 1)
    target = os.path.join(work, f"{name}.json")
    if kind == "export":
        fresh_store(target)
        out = os.path.join(work, f"{name}.out")
        if os.path.exists(out):
            os.remove(out)
        return [binary, "--file", target, "--export", out, "--export-format", fmt]
    remove(target)
    source = tw if fmt == "tw" else export_input(fmt)
    return [binary, "--file", target, "--import", source]


def count(binary, operation):
    key = f"{digest(binary)} {operation}"
    if key in counts:
        return counts[key]
    name = f"{operation}-{digest(binary)}"
    callgrind = os.path.join(work, f"cg.{name}")
    run = command(binary, operation, name)
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={callgrind}"] + run,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = None
    for line in open(callgrind):
        if line.startswith("summary:") or line.startswith("totals:"):
            total = int(line.split()[1])
    counts[key] = total
    json.dump(counts, open(counts_path, "w"), indent=1)
    return total


print(f"{'operation':20s} {'before Ir':>15s} {'after Ir':>15s}  ratio")
for operation in operations:
    b, a = count(before, operation), count(after, operation)
    print(f"{operation:20s} {b:15,d} {a:15,d}  {a / b:.3f}", flush=True)
