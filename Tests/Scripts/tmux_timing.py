"""What the tmux timing scripts share: a private tmux server, its screen, and a key timed from
`send-keys` until the screen shows its result (polled, with a deadline)."""
import subprocess, sys, time


class Tmux:
    def __init__(self, socket, target):
        self.socket, self.target = socket, target

    def __call__(self, *arguments):
        return subprocess.run(["tmux", "-L", self.socket] + list(arguments), capture_output=True, text=True, check=True).stdout

    def screen(self):
        return self("capture-pane", "-p", "-t", self.target)

    def wait_for(self, predicate, what, deadline=30.0, poll=0.002):
        start = time.perf_counter()
        while time.perf_counter() - start < deadline:
            shown = self.screen()
            if predicate(shown):
                return shown
            time.sleep(poll)
        sys.exit(f"gave up waiting for {what}; the screen:\n{self.screen()}")

    def press(self, key, predicate, what, deadline=30.0):
        """Seconds from sending `key` to the screen that satisfies `predicate`, and that screen."""
        start = time.perf_counter()
        self("send-keys", "-t", self.target, key)
        shown = self.wait_for(predicate, what, deadline)
        return time.perf_counter() - start, shown
