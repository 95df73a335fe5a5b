"""The cooperative loop the board runs: two asyncio tasks sharing one loop,
the keys with the game flow (a key seen goes to the game step at once, and
the step shows what it did at once), and the LEDs' frames. Nothing blocks,
and an unexpected error is printed and sends the board back to the menu
instead of freezing it. After power-on the game-flow step also walks every
record of the tables, one small slice a step, until they are all checked.
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
        """Milliseconds since the clock was made."""
        t = ticks_ms()
        self.ms += ticks_diff(t, self._last)
        self._last = t
        return self.ms


def print_error(e):
    """Print an exception with its traceback on any runtime."""
    if sys.implementation.name == "micropython":
        sys.print_exception(e)
    else:  # CircuitPython 10 dropped sys.print_exception; CPython never had it
        import traceback  # type: ignore[import-not-found]

        traceback.print_exception(type(e), e, e.__traceback__)


# Records of the tables the background check reads and checks in one game
# step: about 1 ms on a Pico (docs/performance.md), so a frame or a key scan
# due meanwhile waits at most that.
WALK_RECORDS = 16


def build(hw, cfg, tables, problems, config_problem, rng=None, log=print, score=None, puzzles=None):
    """The game for ``startup.power_on()``'s results, started at time 0,
    with the board's ``score.Score`` (else one in RAM only) and
    ``puzzles.Puzzles`` (or None)."""
    from . import ai

    if not (cfg.get("extra") or cfg.get("encoder") or cfg.get("screen")):
        from .app import App  # the grid alone: the panel's code takes no RAM
        from .keys import Keys
    else:  # function keys, an encoder, a screen
        from .panel import PanelApp as App, PanelKeys as Keys

    sequencer = None
    if cfg["buzzer"] is not None:  # no buzzer, no tunes in RAM
        from .sound import Sequencer

        sequencer = Sequencer(hw.tone)
    timing = cfg["timing"]
    app = App(cfg, tables, problems, rng or ai.Rng(), log, score, puzzles)
    app.start(0, config_problem)
    walk = None
    if any(t is not None for t in tables.values()):
        from . import tablewalk

        walk = tablewalk.walk(tables, app.table_wrong, WALK_RECORDS)
    return Runner(hw, app, Keys(timing["debounce_ms"], timing["long_press_ms"]), sequencer, timing, walk)


class Runner:
    """The steps the loop repeats (``tick``: ``scan`` then ``step``; and
    ``draw``), kept apart from asyncio so that the simulator and the tests
    can drive them with their own clock."""

    def __init__(self, hw, app, keys, sequencer, timing, walk=None):
        self.hw = hw
        self.app = app
        self.keys = keys
        self.sequencer = sequencer
        self.timing = timing
        self.walk = walk  # tablewalk.walk's generator while the tables' records are being checked
        self._key_error = None
        from .narrate import Narrator  # (loaded with the loop, not by every import of this module)

        self.narrator = Narrator(app)  # type: Narrator | None  # (None once it failed)
        self._narrate()  # the first screen: the self-test

    def _fault(self, now, e):
        # Never freeze: report, then back to the menu.
        self.app.log("error: %r; back to the menu" % (e,))
        print_error(e)
        self.keys.clear()
        self.app.to_menu(now)

    def tick(self, now):
        """The key task's work every ``scan_ms``: read the keys, then the
        game step at once, so a press is taken and lit in the scan that
        sees it."""
        self.scan(now)
        self.step(now)

    def scan(self, now):
        """Read the keys and the encoder once. A key newly down is read
        again at once (``Keys.update``'s confirm read), so its press is
        taken in the scan that first sees it, not a scan later."""
        keys = self.keys
        try:
            hw = self.hw
            held = hw.scan()
            turns = hw.turns() if hasattr(hw, "turns") else 0  # (a hardware layer of old has no encoder)
            if keys.update(now, held):
                keys.update(now, hw.scan())  # the confirm read
        except Exception as e:  # a flaky sensor must not stop the keys for good
            text = repr(e)
            if text != self._key_error:  # once, not 200 times a second
                self.app.log("error reading keys: " + text)
                self._key_error = text
            return
        if turns:
            keys.turn(turns)

    def step(self, now):
        """Advance the game flow to ``now`` with the keys' events: what a
        key did (or what changed the score) is shown at once, and only then
        is the score saved."""
        app = self.app
        try:
            if app.busy():  # the board's turn: presses now must not become moves
                self.keys.ignore_taps()
            event = self.keys.get()
            app.update(now, event)
            if event or app.unsaved:  # lit now, not at the next frame
                self.hw.show(app.frame(now))
        except Exception as e:
            self._fault(now, e)
        app.save()  # after the frame (or its failure): a flash write never holds a light back
        while app.sounds:
            name = app.sounds.pop(0)
            if self.sequencer:
                self.sequencer.play(name, now)
        self._narrate()  # then the console says what changed, in words
        if self.walk is not None:
            self._walk()

    def _narrate(self):
        # Words must never stop the game: a narration that fails is said
        # once, with its traceback, and the board plays on without it.
        if self.narrator is None:
            return
        try:
            self.narrator.update()
        except Exception as e:
            self.narrator = None
            self.app.log("error narrating: %r; the board plays on without its narration" % (e,))
            print_error(e)

    def _walk(self):
        # One slice of the background check of the tables; a table found
        # wrong goes to app.table_wrong. When both are done, or reading one
        # fails (the game goes on), the checking code's RAM goes.
        try:
            more = next(self.walk)
        except Exception as e:
            self.app.log("error checking the tables: %r" % (e,))
            more = False
        if not more:
            self.walk = None
            from .main import unload

            unload("tablewalk")

    def draw(self, now):
        """Show the frame for ``now`` (the LED task, every ``frame_ms``), and
        the screen's lines if the board has a screen (``hw.text`` redraws
        only when they change)."""
        try:
            self.hw.show(self.app.frame(now))
            if getattr(self.hw, "screen", None) is not None:
                self.hw.text(self.app.text(now))
        except Exception as e:
            self._fault(now, e)
        if self.sequencer:
            self.sequencer.update(now)


def asyncio_module():
    """asyncio, imported only when the loop starts (its RAM is not needed
    before): ``uasyncio`` on older MicroPython."""
    try:
        import asyncio
    except ImportError:
        import uasyncio as asyncio
    return asyncio


def run(runner, clock):
    """The cooperative loop, a coroutine: the LEDs as a task, the keys and
    the game flow in this one. (Its async code is in ``tasks``: CircuitPython
    compiles async code only from source, and this module ships compiled.)"""
    from .tasks import game

    return game(runner, clock)
