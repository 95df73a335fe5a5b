# The whole firmware playing complete games in a small heap: the real boot
# (main.boot: config, hardware layer, tables), then loop.run, the asyncio
# loop of the board, with a "player" task pressing cells through the machine
# double in real time. Kept tiny on purpose: the heap budget is for the
# firmware, not for the test harness.
# Usage: heap_games.py FOLDER GAMES
# Prints "games N", then "PASS". Runs under CPython too (its asyncio).
import sys

import asyncio

import machine
import main

machine.wire({"kind": "buttons", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]})  # as board.json says
runner = main.boot(sys.argv[1], None, lambda line: None)
timing = runner.timing
app = runner.app
import loop  # noqa: E402  (already loaded by main.boot)
want = int(sys.argv[2])


def sleep_ms(ms):  # CPython's asyncio has no sleep_ms
    return asyncio.sleep_ms(ms) if hasattr(asyncio, "sleep_ms") else asyncio.sleep(ms / 1000)


async def press(cell, ms=60):
    machine.held = 1 << cell
    await sleep_ms(ms)
    machine.held = 0
    await sleep_ms(40)


async def player():
    await sleep_ms(1700)  # the self-test
    for n in range(want):
        for cell in ((3, 5)[n % 2], (0, 2)[n % 4 // 2], 8, 3):  # game, you X/O, perfect, no hints
            await press(cell)
        while app.state != 4:  # until the game is over
            m = app.match
            if m is None or m.ai_turn():
                await sleep_ms(20)
            else:
                await press(m.pos.legal_moves()[0])
        await press(0, timing["long_press_ms"] + 100)  # back to the menu
    print("games", want)


async def session():
    board = asyncio.create_task(loop.run(runner, loop.Clock()))
    await player()
    board.cancel()


asyncio.run(session())
print("PASS")
