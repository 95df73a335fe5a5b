"""What runs when the board powers up (MicroPython runs main.py; on
CircuitPython keep main.py or copy it as code.py).

``startup`` does the one-off work (config, hardware, safe mode, tables) and
is unloaded before the game is built, so its RAM is free for play; ``loop``
then runs the game for good.
"""

import gc
import sys


def boot(folder="", rng=None, log=print):
    """Power on and build the game: a ``loop.Runner``, or None in safe mode."""
    import startup

    parts = startup.power_on(folder)
    del startup
    sys.modules.pop("startup", None)
    gc.collect()
    if parts is None:
        return None
    import loop

    return loop.build(*parts, rng=rng, log=log)


def run(folder="", beside=None, log=print):
    """Power on and play for good. ``beside``, if given, is an async
    function of the runner run next to the loop (the simulator and the tests
    drive the board with it); run() returns when it does."""
    runner = boot(folder, log=log)
    if runner is None:
        return
    gc.collect()  # boot's leftovers, before asyncio takes its share
    try:
        import asyncio
    except ImportError:  # older MicroPython
        import uasyncio as asyncio
    import loop

    async def both():
        asyncio.create_task(loop.run(runner, loop.Clock()))
        await beside(runner)

    try:
        asyncio.run(loop.run(runner, loop.Clock()) if beside is None else both())
    finally:
        # Stopped (Ctrl-C from mpremote, an error): silence the buzzer, which
        # the rp2 port's soft reset leaves playing.
        runner.hw.tone(0)


if __name__ == "__main__":
    run()
