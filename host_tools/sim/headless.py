"""The virtual board with no terminal: ``--replay`` (a press script on a
virtual clock) and ``--headless`` (press commands on stdin), both printing
frames and console lines on stdout, and on a board with a screen its
glass as the SH1106 shows it (``screen MS HEX``: 1024 bytes, byte
``(y >> 3) * 128 + x``, bit ``y & 7``)."""

import io
import os
import selectors
import sys
import time

from host_tools import inputs
from host_tools.oserrors import reported
from host_tools.sim.board import SimError, VirtualBoard
from host_tools.sim.frames import frame_line
from host_tools.sim.script import check_dial, held_ms, key_bit, parse_command, timeline

MAX_SCRIPT = 1 << 20  # a press script's bytes: a day of taps, read whole
IDLE_S = 5.0  # no key scan for this long: the board is not in the game (see _script_playing)


def emit(text):
    """One line on stdout, at once (a script reads it as it comes)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


class SerialLines:
    """Console output as whole text lines, each passed to ``emit`` as
    ``serial TEXT``."""

    def __init__(self, emit):
        self.emit = emit
        self.part = b""

    def __call__(self, data):
        self.part += data
        *lines, self.part = self.part.split(b"\n")
        for line in lines:
            # Control bytes (the raw REPL's while mpremote talks to the
            # board) would make the output binary.
            text = "".join(ch for ch in line.decode("utf-8", "replace") if ch >= " " or ch == "\t")
            if text.strip():
                self.emit("serial " + text)


def read_script(path, cfg=None):
    """``(changes, end)`` of a press script's timeline (``cfg``: the board's
    config, for keys named by role); SimError (one line) if it can't be
    read, is not a regular file (a FIFO, ``/dev/zero``), is over
    MAX_SCRIPT bytes, is not text, or has a bad line."""
    with reported(SimError, path):
        data = inputs.read(path, MAX_SCRIPT)
    if len(data) > MAX_SCRIPT:
        raise SimError("%s: over %d MiB: a press script is commands, one a line (docs/simulator.md)"
                       % (path, MAX_SCRIPT >> 20))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise SimError("%s: not a press script: it is not text (UTF-8)" % path) from None
    return timeline(io.StringIO(text, newline=None).readlines(), path, cfg)  # (lines as open() reads them)


def run_replay(board_name, flash, script, seed, then_ms):
    """``--replay``: play the press script (``read_script``'s timeline) on a
    virtual clock and print every frame and console line; the same script
    and seed print the same."""
    changes, end = script
    b = VirtualBoard(flash, board_name, seed=seed, console=False, replay=(changes, end + then_ms))
    b.on_frame = lambda ms, cells: emit(frame_line(ms, cells, b.cfg))
    b.on_screen = lambda ms, glass: emit("screen %d %s" % (ms, glass.hex()))
    b.on_output = SerialLines(emit)
    b.start()
    try:
        while b.running:
            b.poll(1.0)
    finally:
        b.close()
    return 0


def run_live(board):
    """Headless and live: press commands on stdin, frames and the console's
    lines on stdout, the serial console as usual."""
    t0 = time.monotonic()

    def now_ms():
        return int((time.monotonic() - t0) * 1000)

    # An emulated chip says when on its own clock; the Unix-port board is
    # timed here.
    board.on_frame = lambda ms, cells: emit(frame_line(ms if hasattr(board, "run") else now_ms(), cells,
                                                        board.cfg))
    board.on_screen = lambda ms, glass: emit("screen %d %s" % (now_ms(), glass.hex()))
    board.on_output = SerialLines(emit)
    # The board's clock (the Unix port's key scans', the emulated chip's),
    # for waits that count the board's progress.
    board.on_beat = lambda ms: emit("clock %d" % ms)
    queue = []
    state = {"eof": False, "n": 0}
    stdin = sys.stdin.buffer
    os.set_blocking(stdin.fileno(), False)
    pending = [b""]

    def read_stdin(fd):
        data = os.read(fd, 4096)
        if not data:
            state["eof"] = True
            board.sel.unregister(fd)
            return
        pending[0] += data
        *lines, pending[0] = pending[0].split(b"\n")
        for line in lines:
            state["n"] += 1
            try:
                cmd = parse_command(line.decode("utf-8", "replace"), "stdin line %d" % state["n"], live=True)
            except SimError as e:
                emit("error " + str(e))
                continue
            if cmd and cmd[0] == "turn":
                try:
                    check_dial(board.cfg, "stdin line %d" % state["n"])
                except SimError as e:
                    emit("error " + str(e))
                    continue
            elif cmd and cmd[1] and not isinstance(cmd[1][0], int):  # a key by its role
                try:
                    if hasattr(board, "run"):
                        raise SimError("stdin line %d: keys by role are for the Unix-port board; with --chip"
                                       " rp2040 press the board's own key numbers" % state["n"])
                    cmd = (cmd[0], [key_bit(board.cfg, cmd[1][0], "stdin line %d" % state["n"])] + cmd[1][1:])
                except SimError as e:
                    emit("error " + str(e))
                    continue
            if cmd:
                queue.append(cmd)

    try:
        board.sel.register(stdin.fileno(), selectors.EVENT_READ, read_stdin)
    except PermissionError:  # a regular file (< script, < /dev/null) can't be waited on
        raise SimError("--headless reads its commands from a pipe or a terminal, not a file: pipe them in"
                       " (cat script | ...), or use --replay FILE")
    board.start()
    emit("port %s" % board.port)
    try:
        return _live_loop(board, queue, state)
    finally:
        os.set_blocking(stdin.fileno(), True)


def _live_loop(board, queue, state):
    # Taps, holds and waits go to the board at once: it plays them in order
    # on its own clock, from the first key scan that sees each, so a host
    # (or board) starved of CPU makes them late, never lost. A press,
    # release, reset or quit waits until the board has done them (or, at
    # the REPL or in safe mode, has stopped scanning its keys).
    while board.running:
        if queue and queue[0][0] in ("tap", "hold", "wait", "turn"):
            name, v = queue.pop(0)
            if name == "wait":
                board.idle(v[0])
            elif name == "turn":
                board.turn(v[0])
            else:
                board.tap(v[0], held_ms(name, v))
            continue
        if queue and not _script_playing(board, state):
            name, v = queue.pop(0)
            if name == "quit":
                break
            if name == "reset":
                board.power_cycle()
            elif name == "press":
                board.hold(board.held | 1 << v[0])
            elif name == "release":
                board.hold(board.held & ~(1 << v[0]))
            continue
        if state["eof"] and not queue and not _script_playing(board, state):
            break
        board.poll(0.01)
    return 0


def _script_playing(board, state):
    """Whether the board is still playing the taps and waits sent to it:
    until it says they are done, or (the Unix-port board) its key scans
    have not run (no heartbeat) for ``IDLE_S``: it is not scanning them
    (the REPL, safe mode), and would never be done. The emulated chip plays
    them on its clock, which runs whatever its code does."""
    if not board.script_busy:
        return False
    if hasattr(board, "run"):  # the emulated chip
        return True
    beat = board.clock
    t = time.monotonic()
    if beat != state.get("beat"):
        state["beat"], state["beat_at"] = beat, t
    return t - state.get("beat_at", t) < IDLE_S
