"""Drive ``python -m host_tools sim --headless`` from a test: a live virtual
board in a subprocess, press commands in, frames and console lines out."""

import os
import queue
import subprocess
import sys
import threading
import time
from conftest import HANG_S

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")

from tactictoe import rules  # noqa: E402

MENU_TAPS = {rules.CLASSIC: 3, rules.TACTICTOE: 5}
BEAT_CAP_MS = 1000  # a heartbeat counts at most this much of the board's time (see LiveSim.wait)
STALL = 60  # seconds with no output at all (not even a heartbeat): the board has stopped


class LiveSim:
    def __init__(self, flash, *args, board="pico-buttons", env=None):
        cmd = [PY, "-m", "host_tools", "sim", "--headless", "--board", board, "--flash", str(flash)] + list(args)
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1,
                                     env=None if env is None else dict(os.environ, **env))
        self.lines = []
        self.clock = None  # the board's key-scan clock (ms), from its heartbeats
        self.stall = STALL
        self._q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.port = self.wait(lambda line: line.startswith("port "), 30)[5:]

    def _read(self):
        for line in self.proc.stdout:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def wait(self, match, timeout=30, what=None):
        """The next line (after those already seen) for which ``match`` is
        true. ``timeout`` counts the board's progress, not the host's
        clock: seconds on its key scans' clock (the ``clock`` lines), each
        heartbeat counting at most ``BEAT_CAP_MS`` however late it came, so a
        machine starved of CPU makes this slower, never a failure.
        AssertionError, with the last lines, once the board has run that
        long without the line, or has printed nothing at all for ``stall``
        seconds (stopped: hung, or not scanning its keys), or has exited."""
        progress = 0.0
        quiet_since = time.monotonic()
        while True:
            try:
                line = self._q.get(timeout=1.0)
            except queue.Empty:
                line = ""
            if line is None:
                raise AssertionError("the simulator stopped (%s) waiting for %s; stderr: %s"
                                     % (self.proc.wait(), what or match, self.proc.stderr.read()))
            if line:
                quiet_since = time.monotonic()
            if line.startswith("clock "):
                ms = int(line[6:])
                if self.clock is not None and ms >= self.clock:
                    progress += min(ms - self.clock, BEAT_CAP_MS) / 1000
                self.clock = ms
            elif line:
                self.lines.append(line)
                if match(line):
                    return line
            stalled = time.monotonic() - quiet_since > self.stall
            if progress > timeout or stalled:
                raise AssertionError("no line for %s in %s; %s" % (
                    what or match, "%ss of the board's time" % timeout if not stalled
                    else "%ss with no word from the board" % self.stall, self.last_lines()))

    def last_lines(self):
        """The board's last words and frames, for a failure's message: the
        frames alone (a pulsing cell prints dozens) would hide the console."""
        other = [line for line in self.lines if not line.startswith(("frame ", "screen "))]
        frames = [line for line in self.lines if line.startswith("frame ")]
        return "its last console lines (and the commands sent):\n%s\nits last frames:\n%s" % (
            "\n".join(other[-16:]), "\n".join(frames[-6:]))

    def screen_is(self, want, what, timeout=30):
        """Wait until the screen shows ``want`` (1024 bytes): at once if the
        last screen seen already does. (A screen and the console line that
        goes with it come down different pipes, in either order.)"""
        screens = [line for line in self.lines if line.startswith("screen ")]
        if screens and bytes.fromhex(screens[-1].split()[2]) == want:
            return
        self.wait(lambda line: line.startswith("screen ") and bytes.fromhex(line.split()[2]) == want, timeout, what)

    def serial(self, text, timeout=30):
        """Wait for a console line containing ``text``."""
        return self.wait(lambda line: line.startswith("serial ") and text in line, timeout, repr(text))

    def send(self, *commands):
        for c in commands:
            self.proc.stdin.write(c + "\n")
            # among the board's lines, so that a failure shows what was sent when
            self.lines.append("sent %s" % c)
        self.proc.stdin.flush()

    def last_frame(self):
        frames = [line for line in self.lines if line.startswith("frame ")]
        return frames[-1].split()[2] if frames else None

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def mpremote(port, *args, timeout=HANG_S):  # a guard against a hang, not a deadline
    return subprocess.run([MPREMOTE, "connect", port] + list(args), capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


# A loaded host reads the board's lines late: when a wait begins, frames of
# boots before the last reset may still be unread, and a self-test or menu
# frame of one of those was taken for the new boot's (the taps then went to
# a board still in its self-test, and were lost). So a wait after a reset
# first finds a line that only the resetting session prints.
_marks = iter(range(1, 1 << 30))


def reset(sim, *said):
    """``mpremote reset``, then the self-test of the boot it started: the
    session prints a mark of its own first (a serial line after every frame
    of the boots before), and the waits start from it; ``said``: console
    lines the new boot prints before its self-test, waited for in order."""
    mark = "reset mark %d.%d" % (os.getpid(), next(_marks))
    r = mpremote(sim.port, "exec", "print(%r)" % mark, "+", "reset")
    assert r.returncode == 0, r.stderr
    sim.serial(mark)
    for line in said:
        sim.serial(line)
    sim.wait(is_self_test, 30, "the self-test after the reset")


def rebooted(sim):
    """The self-test of the boot a tool's mpremote session (make flash,
    make flash-table, flash) reset the board to: its "MPY: soft reboot"
    (every session prints one as it takes the raw REPL), then the
    self-test. Call once for each such session, in order."""
    sim.serial("MPY: soft reboot")
    sim.wait(is_self_test, 30, "the self-test after the flash's reset")


def is_menu(line):
    """A frame of the first menu screen: X's colour on cell 3, O's on 5."""
    if not line.startswith("frame "):
        return False
    grid = line.split()[2].replace("/", "")
    return grid[3] in "Xx" and grid[5] in "Oo" and grid[4] == "."


def is_self_test(line):
    """The self-test's first frame: every power-on or reset shows it."""
    return line.startswith("frame ") and line.split()[2] == "W../.../..."


def start_game(sim, game, hints=False):
    """From the menu: the game, "you play X", perfect level, hints."""
    sim.wait(is_menu, 30, "the menu")
    sim.send("tap %d" % MENU_TAPS[game], "tap 0", "tap 8", "tap %d" % (5 if hints else 3))


def next_game(sim):
    """After a result: a tap (once the end has shown a moment) starts the next
    game, with X to move on an empty board (every cell glows faintly)."""
    sim.send("wait 700", "tap 4")
    sim.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 30, "a new game")


def play(sim, game, choose):
    """Play a game as X against the board: ``choose(pos)`` picks X's cell;
    the board's replies are read from its console. Returns (pos, result line)."""
    pos = rules.Position(game)
    name = rules.GAMES[game]
    while True:
        cell = choose(pos)
        sim.send("tap %d" % cell)
        sim.serial("%s: X %d" % (name, cell))
        pos.push(cell)
        if pos.is_over():
            break
        line = sim.wait(lambda line: line.startswith("serial %s: O " % name), 30, "the board's move")
        pos.push(int(line.split()[-1]))
        if pos.is_over():
            break
    result = sim.wait(lambda line: line.startswith("serial %s: " % name) and
                      (line.endswith("wins") or line.endswith("draw")), 30, "the result")
    return pos, result


class Console:
    """The virtual board's serial console opened directly, byte by byte, for
    tests that must time what they send against what the board says."""

    def __init__(self, port):
        import tty

        self.fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.seen = b""

    def write(self, data):
        os.write(self.fd, data)

    def expect(self, marker, timeout=HANG_S):
        """Read until ``marker`` has come (after what earlier calls took);
        AssertionError after ``timeout`` seconds without it."""
        import select

        end = time.monotonic() + timeout
        while marker not in self.seen:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError("no %r from the board in %ss; it said:\n%r" % (marker, timeout, self.seen[-600:]))
            if select.select([self.fd], [], [], left)[0]:
                self.seen += os.read(self.fd, 4096)
        got, _, self.seen = self.seen.partition(marker)
        return got + marker

    def close(self):
        os.close(self.fd)
