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

    return loop.build(*parts, rng=rng, log=log)


def run(folder="", beside=None, log=print):
    """Power on and play for good. ``beside``, if given, is an async
    function of the runner run next to the loop (the simulator and the tests
    drive the board with it); run() returns when it does."""
    runner = boot(folder, log=log)
    if runner is None:
        return
    gc.collect()  # boot's leftovers, before asyncio takes its share
    from . import loop

    asyncio = loop.asyncio_module()

    async def both():
        asyncio.create_task(loop.run(runner, loop.Clock()))
        await beside(runner)

    try:
        asyncio.run(loop.run(runner, loop.Clock()) if beside is None else both())
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


async def _every(asyncio, ms, fn, clock):
    sleep_ms = getattr(asyncio, "sleep_ms", None)
    seconds = ms / 1000  # CircuitPython's asyncio has only sleep(seconds)
    while True:
        fn(clock.now())
        if sleep_ms:
            await sleep_ms(ms)
        else:
            await asyncio.sleep(seconds)


async def tasks(runner, clock):
    """``loop.run``'s coroutine: keys and LEDs as two tasks, the game flow
    in this one."""
    from .loop import asyncio_module

    asyncio = asyncio_module()
    # Two tasks and this coroutine itself (gather would pull in one more
    # asyncio module, and RAM is scarce).
    asyncio.create_task(_every(asyncio, runner.timing["scan_ms"], runner.scan, clock))
    asyncio.create_task(_every(asyncio, runner.timing["frame_ms"], runner.draw, clock))
    await _every(asyncio, runner.timing["scan_ms"], runner.step, clock)
