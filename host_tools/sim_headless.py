"""The virtual board with no terminal: ``--replay`` (a press script on a
virtual clock) and ``--headless`` (press commands on stdin), both printing
frames and console lines on stdout."""

import os
import selectors
import sys
import time

from host_tools.oserrors import reported
from host_tools.sim_board import SimError, VirtualBoard
from host_tools.sim_frames import frame_line
from host_tools.sim_script import TAP_MS, held_ms, parse_command, timeline


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


def read_script(path):
    """``(changes, end)`` of a press script's timeline; SimError (one line)
    if it can't be read, is not text, or has a bad line."""
    try:
        with reported(SimError, path), open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except UnicodeDecodeError:
        raise SimError("%s: not a press script: it is not text (UTF-8)" % path) from None
    return timeline(lines, path)


def run_replay(board_name, flash, script, seed, then_ms):
    """``--replay``: play the press script (``read_script``'s timeline) on a
    virtual clock and print every frame and console line; the same script
    and seed print the same."""
    changes, end = script
    b = VirtualBoard(flash, board_name, seed=seed, console=False, replay=(changes, end + then_ms))
    b.on_frame = lambda ms, cells: emit(frame_line(ms, cells, b.cfg))
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
    board.on_output = SerialLines(emit)
    queue = []
    state = {"eof": False, "busy": 0.0, "release": [], "n": 0}
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
    while board.running:
        t = time.monotonic()
        for item in [r for r in state["release"] if r[0] <= t]:
            state["release"].remove(item)
            board.hold(board.held & ~(1 << item[1]))
        if queue and t >= state["busy"]:
            name, v = queue.pop(0)
            if name == "quit":
                break
            if name == "reset":
                board.power_cycle()
            elif name == "wait":
                state["busy"] = t + v[0] / 1000
            elif name == "press":
                board.hold(board.held | 1 << v[0])
            elif name == "release":
                board.hold(board.held & ~(1 << v[0]))
            else:
                held = held_ms(name, v)
                board.hold(board.held | 1 << v[0])
                state["release"].append((t + held / 1000, v[0]))
                state["busy"] = t + (held + TAP_MS) / 1000
            continue
        if state["eof"] and not queue and not state["release"]:
            break
        board.poll(0.01)
    return 0
