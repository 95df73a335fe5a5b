# The live heap at the menu and at review time, the whole firmware running
# as on a board (main.run: boot, then the asyncio loop; as
# tests/fw/heap_games.py), a player task beside it: tactic-toe, you are O
# against the perfect board, each of your moves the slowest loss (the
# longest game the board allows), one take-back on the way. Collected, then
# gc.mem_alloc(): at the first menu, and at the end with the review said.
# Usage: review_heap.py FOLDER. Prints "menu N", "review N", "plies N".
import gc
import sys

import machine
from tactictoe import ai, main

machine.wire({"kind": "buttons", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]})
errors = []


async def player(runner):
    import asyncio

    app = runner.app
    keys = runner.keys

    def seen():
        m = app.match
        return app.state, app.screen, m.plies if m else -1

    async def until(done):
        while not done():
            if errors:
                raise SystemExit(errors[0])
            await asyncio.sleep_ms(10)

    async def press(cell, wait=True):
        before = seen()
        machine.held = 1 << cell
        await until(lambda: keys.held() >> cell & 1)
        machine.held = 0
        await until(lambda: not keys.held() >> cell & 1)
        if wait:
            await until(lambda: seen() != before)

    await until(lambda: app.state == 2)
    gc.collect()
    print("menu", gc.mem_alloc())
    for cell in (5, 2, 8, 3):  # tactic-toe, you are O, perfect, no help
        await press(cell)
    undone = False
    while app.state != 4:
        if app.busy():
            await asyncio.sleep_ms(10)
        elif not undone and app.match.plies >= 6:  # a take-back: the newest mark, twice
            undone = True
            cell = app.match.newest()
            await press(cell, False)  # (the first tap arms it: nothing else changes)
            await press(cell)
        else:
            await press(ai.best_moves(app.tables[1], app.match.pos)[0])
    await asyncio.sleep_ms(100)  # the end narrated (the review's lines), a few frames drawn
    gc.collect()
    print("review", gc.mem_alloc())
    print("plies", app.match.plies)


main.run(sys.argv[1], player, lambda line: line.startswith("error") and errors.append(line))
