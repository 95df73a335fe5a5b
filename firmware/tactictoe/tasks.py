"""The firmware's async code, and nothing else: the loop's tasks
(``loop.run``) and ``main.run``'s runner beside them.

Its own small module because CircuitPython compiles ``async``/``await``
only from source (MicroPython's ``mpy-cross`` compiles them otherwise):
``make circuitpy`` ships this file as source, and every other module
compiled, so a board compiles little at each power-on.
"""


async def every(asyncio, ms, fn, clock):
    """Call ``fn(clock.now())`` every ``ms`` for good."""
    sleep_ms = getattr(asyncio, "sleep_ms", None)
    seconds = ms / 1000  # CircuitPython's asyncio has only sleep(seconds)
    while True:
        fn(clock.now())
        if sleep_ms:
            await sleep_ms(ms)
        else:
            await asyncio.sleep(seconds)


async def game(runner, clock):
    """``loop.run``'s coroutine: keys and LEDs as two tasks, the game flow
    in this one."""
    from .loop import asyncio_module

    asyncio = asyncio_module()
    # Two tasks and this coroutine itself (gather would pull in one more
    # asyncio module, and RAM is scarce).
    asyncio.create_task(every(asyncio, runner.timing["scan_ms"], runner.scan, clock))
    asyncio.create_task(every(asyncio, runner.timing["frame_ms"], runner.draw, clock))
    await every(asyncio, runner.timing["scan_ms"], runner.step, clock)


async def both(asyncio, loop, beside, runner):
    """The ``loop`` coroutine as a task, and ``beside(runner)`` until it
    returns."""
    asyncio.create_task(loop)
    await beside(runner)
