"""The firmware's async code, and nothing else: the loop's tasks
(``loop.run``) and ``main.run``'s runner beside them.

Its own small module because CircuitPython compiles ``async``/``await``
only from source (MicroPython's ``mpy-cross`` compiles them otherwise):
``make circuitpy`` ships this file as source, and every other module
compiled, so a board compiles little at each power-on.
"""


async def every(asyncio, ms, fn, clock):
    """Call ``fn(clock.now())`` every ``ms`` for good, at a steady rate:
    each wait is what is left of ``ms`` after the work (a late call starts
    the count afresh, it never hurries the next ones)."""
    sleep_ms = getattr(asyncio, "sleep_ms", None)  # CircuitPython's asyncio has only sleep(seconds)
    due = clock.now()
    while True:
        fn(clock.now())
        due += ms
        wait = due - clock.now()
        if wait < 0:
            due -= wait
            wait = 0
        if sleep_ms:
            await sleep_ms(wait)
        else:
            await asyncio.sleep(wait / 1000)


async def game(runner, clock):
    """``loop.run``'s coroutine: the LEDs as a task, and in this one the
    keys with the game flow (``Runner.tick``: a key seen goes to the game
    step at once, without a task switch or a timer of its own)."""
    from .loop import asyncio_module

    asyncio = asyncio_module()
    # One task and this coroutine itself (gather would pull in one more
    # asyncio module, and RAM is scarce).
    asyncio.create_task(every(asyncio, runner.timing["frame_ms"], runner.draw, clock))
    await every(asyncio, runner.timing["scan_ms"], runner.tick, clock)


async def both(asyncio, loop, beside, runner):
    """The ``loop`` coroutine as a task, and ``beside(runner)`` until it
    returns."""
    asyncio.create_task(loop)
    await beside(runner)
