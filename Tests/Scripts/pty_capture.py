#!/usr/bin/env python3
"""Runs a command in a raw pseudo-terminal and prints every byte it wrote to the terminal.

usage: pty_capture.py [--cols N] [--rows N] [--term TERM] [--step TEXT BYTES]...
                      [--timeout SECONDS] -- COMMAND...

For each step in turn: waits until the output holds TEXT (UTF-8) after the previous step's
bytes, then writes BYTES (Python escapes allowed, e.g. '\\x03' for Ctrl-C) to the terminal;
BYTES of the form '!TSTP' (any signal name without SIG) sends that signal to the command instead.
Then keeps reading until the command exits. The exit status is the command's; 124 when a TEXT
never came or the command did not exit in time.
"""
import argparse, fcntl, os, pty, select, signal, struct, sys, termios, time

parser = argparse.ArgumentParser()
parser.add_argument("--cols", type=int, default=80)
parser.add_argument("--rows", type=int, default=24)
parser.add_argument("--term", default="xterm-256color")
parser.add_argument("--step", nargs=2, action="append", default=[], metavar=("TEXT", "BYTES"))
parser.add_argument("--timeout", type=float, default=20)
parser.add_argument("command", nargs=argparse.REMAINDER)
args = parser.parse_args()
command = args.command[1:] if args.command[:1] == ["--"] else args.command

pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = args.term
    os.environ.setdefault("LANG", "C.UTF-8")
    os.execvp(command[0], command)

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", args.rows, args.cols, 0, 0))
output = bytearray()
deadline = time.monotonic() + args.timeout
steps = [(text.encode(), send.encode().decode("unicode_escape").encode("latin-1")) for text, send in args.step]
searched_from = 0
status = None
while time.monotonic() < deadline:
    if steps and steps[0][0] in output[searched_from:]:
        send = steps.pop(0)[1]
        if send.startswith(b"!"):
            os.kill(pid, getattr(signal, "SIG" + send[1:].decode()))
        else:
            os.write(fd, send)
        searched_from = len(output)
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        output += chunk
    finished, code = os.waitpid(pid, os.WNOHANG)
    if finished:
        status = os.waitstatus_to_exitcode(code)
        # What the program wrote before exiting is still in the pty.
        while select.select([fd], [], [], 0.05)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        break
# The terminal closed (EOF) before the exit was seen: wait for the exit itself.
while status is None and time.monotonic() < deadline:
    finished, code = os.waitpid(pid, os.WNOHANG)
    if finished:
        status = os.waitstatus_to_exitcode(code)
    else:
        time.sleep(0.01)
if status is None:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    status = 124
sys.stdout.buffer.write(bytes(output))
sys.exit(124 if steps else status)
