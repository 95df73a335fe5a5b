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


def run(folder=""):
    runner = boot(folder)
    if runner is None:
        return
    try:
        import asyncio
    except ImportError:  # older MicroPython
        import uasyncio as asyncio
    import loop

    asyncio.run(loop.run(runner, loop.Clock()))


if __name__ == "__main__":
    run()
