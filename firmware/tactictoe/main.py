"""What runs when the board powers up: the board's two-line ``/main.py``
(``code.py`` on CircuitPython) imports this module and calls ``run()``.

``startup`` does the one-off work (config, hardware, safe mode, tables) and
is unloaded before the game is built, so its RAM is free for play; ``loop``
then runs the game for good.
"""

import gc
import sys


def unload(name):
    """Forget this package's module ``name`` so its RAM can go: the package
    holds each submodule as an attribute too, not only ``sys.modules``.
    (Here, not in ``startup``, because the loop unloads ``tablewalk`` long
    after ``startup`` is gone.)"""
    package = __name__.rsplit(".", 1)[0]
    sys.modules.pop(package + "." + name, None)
    try:
        delattr(sys.modules[package], name)
    except (KeyError, AttributeError):
        pass


def boot(folder="", rng=None, log=print):
    """Power on and build the game: a ``loop.Runner``, or None in safe mode."""
    from . import startup

    parts = startup.power_on(folder)
    unload("startup")
    del startup
    gc.collect()
    if parts is None:
        return None
    from . import loop

    from . import puzzles as puzzles_mod
    from .score import on_flash

    score = on_flash(folder, log)
    score.load()
    puzzles, problem = puzzles_mod.load(folder)
    if problem:  # (the path as the board sees it, from its root)
        log("puzzles: %s; the menu's puzzles are off" % (problem.replace(folder + "/", "") if folder else problem))
    return loop.build(*parts, rng=rng, log=log, score=score, puzzles=puzzles)


def _hold_screen():
    """CircuitPython shows its terminal on a board's own display (the
    MacroPad's) and redraws it as the boot goes, over SPI; held still until
    the game is built, the boot is about 70 ms shorter. The display, or None
    (MicroPython, a board without one)."""
    try:
        import board

        screen = board.DISPLAY
        screen.auto_refresh = False
    except (ImportError, AttributeError):
        return None
    return screen


def run(folder="", beside=None, log=print):
    """Power on and play for good. ``beside``, if given, is an async
    function of the runner run next to the loop (the simulator and the tests
    drive the board with it); run() returns when it does."""
    screen = _hold_screen()
    try:
        runner = boot(folder, log=log)
    finally:
        if screen is not None:
            screen.auto_refresh = True  # the game's screen (or the terminal, on a fault)
    if runner is None:
        return
    gc.collect()  # boot's leftovers, before asyncio takes its share
    from . import loop

    asyncio = loop.asyncio_module()
    game = loop.run(runner, loop.Clock())
    if beside is not None:
        from .tasks import both

        game = both(asyncio, game, beside, runner)
    try:
        asyncio.run(game)
    except KeyboardInterrupt:
        # Ctrl-C on the console (mpremote sends one to get the REPL): a stop
        # asked for, not a crash, so one calm line instead of a traceback.
        # run() returns and the board's REPL follows main.py (rp2, ESP32,
        # the virtual board; CircuitPython's after "press any key").
        print("stopped: Ctrl-C; the REPL is yours (reset to play again)")
    finally:
        # Stopped (Ctrl-C, an error): silence the buzzer, which the rp2
        # port's soft reset leaves playing.
        runner.hw.tone(0)

