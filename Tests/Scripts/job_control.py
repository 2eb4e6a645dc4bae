#!/usr/bin/env python3
"""Runs a command as the foreground job of its terminal, as an interactive shell would, so that
Ctrl-Z and SIGTSTP really stop it (a command started by `sh -c` is in an orphaned process group,
where the kernel drops a stop).

usage: job_control.py COMMAND...

When the job stops, this takes the terminal back and prints "job stopped"; SIGUSR1 to this
script is `fg`: the terminal goes back to the job, which is continued. Exits with its status.
"""
import os, signal, sys, time

command = sys.argv[1:]
tty = os.open("/dev/tty", os.O_RDWR)
resume = False


def fg(*_):
    global resume
    resume = True


signal.signal(signal.SIGUSR1, fg)
# A background process that takes the terminal would otherwise be stopped for it.
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
signal.signal(signal.SIGTSTP, signal.SIG_IGN)
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.tcsetpgrp(tty, os.getpid())
    signal.signal(signal.SIGTTOU, signal.SIG_DFL)
    signal.signal(signal.SIGTSTP, signal.SIG_DFL)
    signal.signal(signal.SIGUSR1, signal.SIG_DFL)
    os.execvp(command[0], command)
try:
    os.setpgid(pid, pid)
except OSError:
    pass  # the child already did
os.tcsetpgrp(tty, pid)
while True:
    _, status = os.waitpid(pid, os.WUNTRACED)
    if os.WIFSTOPPED(status):
        os.tcsetpgrp(tty, os.getpgrp())
        os.write(tty, b"job stopped\r\n")
        while not resume:
            time.sleep(0.02)
        resume = False
        os.tcsetpgrp(tty, pid)
        os.killpg(pid, signal.SIGCONT)
        continue
    os.tcsetpgrp(tty, os.getpgrp())  # the terminal back to the shell that started us
    sys.exit(os.waitstatus_to_exitcode(status))
