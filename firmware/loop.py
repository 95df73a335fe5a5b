"""The cooperative loop the board runs: key scanning, the game flow and the
LEDs as three asyncio tasks sharing one loop. Nothing blocks, and an
unexpected error is printed and sends the board back to the menu instead of
freezing it.
"""

import sys

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


def build(hw, cfg, tables, problems, config_problem, rng=None, log=print):
    """The game for ``startup.power_on()``'s results, started at time 0."""
    import ai
    from app import App
    from keys import Keys
    from sound import Sequencer

    timing = cfg["timing"]
    app = App(cfg, tables, problems, rng or ai.Rng(), log)
    app.start(0, config_problem)
    return Runner(hw, app, Keys(timing["debounce_ms"], timing["long_press_ms"]), Sequencer(hw.tone), timing)


class Runner:
    """The three steps the loop repeats, kept apart from asyncio so that the
    simulator and the tests can drive them with their own clock."""

    def __init__(self, hw, app, keys, sequencer, timing):
        self.hw = hw
        self.app = app
        self.keys = keys
        self.sequencer = sequencer
        self.timing = timing

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


async def _every(asyncio, ms, fn, clock):
    sleep_ms = getattr(asyncio, "sleep_ms", None)
    while True:
        fn(clock.now())
        if sleep_ms:
            await sleep_ms(ms)
        else:  # CircuitPython's asyncio
            await asyncio.sleep(ms / 1000)


async def run(runner, clock):
    """The cooperative loop: keys, game flow and LEDs as three tasks."""
    try:
        import asyncio
    except ImportError:  # older MicroPython
        import uasyncio as asyncio
    # Two tasks and this coroutine itself (gather would pull in one more
    # asyncio module, and RAM is scarce).
    asyncio.create_task(_every(asyncio, runner.timing["scan_ms"], runner.scan, clock))
    asyncio.create_task(_every(asyncio, runner.timing["frame_ms"], runner.draw, clock))
    await _every(asyncio, runner.timing["scan_ms"], runner.step, clock)
