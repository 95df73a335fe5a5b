"""Boot and the cooperative loop: what runs when the board powers up.

1. Read ``board.json`` (or fall back to the default config, and say so).
2. Open the hardware layer for this runtime.
3. Safe mode: if the centre cell is held at power-on, stop here so that
   ``mpremote`` finds a free REPL.
4. Open the tables, then run three asyncio tasks that share one loop: key
   scanning, the game flow, and drawing. Nothing blocks; an unexpected error
   is printed and the board goes back to the menu.
"""

import sys

try:
    import asyncio
except ImportError:  # older MicroPython
    import uasyncio as asyncio

import ai
import config
import rules
import table
from app import App
from frames import Canvas
from keys import Keys
from sound import Sequencer

CENTRE = 4

try:
    from time import ticks_diff, ticks_ms  # MicroPython
except ImportError:
    try:
        from supervisor import ticks_ms  # CircuitPython: wraps at 2**29

        def ticks_diff(a, b):
            return ((a - b + 0x10000000) & 0x1FFFFFFF) - 0x10000000

    except ImportError:  # CPython
        import time

        def ticks_ms():
            return int(time.monotonic() * 1000)  # type: ignore[attr-defined]  # CPython only

        def ticks_diff(a, b):
            return a - b


class Clock:
    """Milliseconds since start that never wrap (the loop needs ordered
    times; the hardware tick counter wraps)."""

    def __init__(self):
        self._last = ticks_ms()
        self.ms = 0

    def now(self):
        t = ticks_ms()
        self.ms += ticks_diff(t, self._last)
        self._last = t
        return self.ms


def print_error(e):
    if hasattr(sys, "print_exception"):
        sys.print_exception(e)  # MicroPython, CircuitPython
    else:
        import traceback  # type: ignore[import-not-found]  # CPython only

        traceback.print_exception(type(e), e, e.__traceback__)


def runtime(cfg):
    """The hardware layer to use: the running implementation's on a board;
    under CPython (simulator, tests) the one the config names."""
    name = sys.implementation.name
    return name if name in config.RUNTIMES else cfg["runtime"]


def open_hardware(cfg):
    if runtime(cfg) == "circuitpython":
        import hw_circuitpython as layer
    else:
        import hw_machine as layer
    return layer.Hardware(cfg)


def load_tables(folder=""):
    """``(tables, problems)``: an open Table or None per game, and a message
    for each game whose table can't be used."""
    tables = {}  # type: dict
    problems = {}  # type: dict
    for game in (rules.CLASSIC, rules.TACTICTOE):
        path = (folder + "/" if folder else "") + rules.GAMES[game] + ".tbl"
        try:
            tables[game] = table.Table(path, game)
        except OSError:
            tables[game] = None
            problems[game] = "table %s not found" % path
        except table.TableError as e:
            tables[game] = None
            problems[game] = "table %s: %s" % (path, e)
    return tables, problems


def centre_held(hw, samples=5):
    """True if the centre cell reads as held on every one of a few scans."""
    for _ in range(samples):
        if not hw.scan() >> CENTRE & 1:
            return False
    return True


class Runner:
    """The three steps the loop repeats, kept apart from asyncio so that the
    simulator and the tests can drive them with their own clock."""

    def __init__(self, hw, app, keys, sequencer):
        self.hw = hw
        self.app = app
        self.keys = keys
        self.sequencer = sequencer

    def scan(self, now):
        self.keys.update(now, self.hw.scan())

    def step(self, now):
        app = self.app
        try:
            app.update(now, self.keys.get())
        except Exception as e:  # never freeze: report, then back to the menu
            app.log("error: %r; back to the menu" % (e,))
            print_error(e)
            self.keys.clear()
            app.to_menu(now)
        while app.sounds:
            self.sequencer.play(app.sounds.pop(0), now)

    def draw(self, now):
        try:
            self.hw.show(self.app.frame(now))
        except Exception as e:
            print_error(e)
            self.app.to_menu(now)
        self.sequencer.update(now)


if hasattr(asyncio, "sleep_ms"):
    _sleep_ms = asyncio.sleep_ms
else:  # CircuitPython's asyncio

    def _sleep_ms(ms):
        return asyncio.sleep(ms / 1000)


async def _every(ms, fn, clock):
    while True:
        fn(clock.now())
        await _sleep_ms(ms)


async def _loop(runner, timing, clock):
    await asyncio.gather(
        _every(timing["scan_ms"], runner.scan, clock),
        _every(timing["scan_ms"], runner.step, clock),
        _every(timing["frame_ms"], runner.draw, clock),
    )


def build(folder="", rng=None, log=print):
    """Set up everything but the loop, with the app started at time 0.
    Returns ``(runner, timing)``, or ``(None, hw)`` in safe mode."""
    cfg, problem = config.load((folder + "/" if folder else "") + "board.json")
    if problem is None and runtime(cfg) != cfg["runtime"]:
        problem = "board.json is for %s but this is %s: check the pins" % (cfg["runtime"], runtime(cfg))
    hw = open_hardware(cfg)
    if centre_held(hw):
        return None, hw
    tables, problems = load_tables(folder)
    app = App(cfg, tables, problems, rng or ai.Rng(), log)
    keys = Keys(cfg["timing"]["debounce_ms"], cfg["timing"]["long_press_ms"])
    app.start(0, problem)
    return Runner(hw, app, keys, Sequencer(hw.tone)), cfg["timing"]


def safe_mode(hw):
    canvas = Canvas()
    canvas.set(CENTRE, (0, 0, 255), 64)  # a dim blue centre: safe mode
    hw.show(canvas)
    print("safe mode: the centre cell was held at power-on, so the game did not start."
          " The REPL is free for mpremote; reset to play.")


def run(folder=""):
    runner, timing = build(folder)
    if runner is None:
        safe_mode(timing)
        return
    asyncio.run(_loop(runner, timing, Clock()))


if __name__ == "__main__":
    run()
