# The whole firmware playing complete games in a small heap, exactly as a
# board runs it (main.run: boot, then the asyncio loop), with a "player"
# task beside it pressing cells through the machine double in real time.
# Kept tiny: the heap budget is for the firmware, not the harness.
# The player never trusts the clock: it waits for the board to take each
# press (the debounced key state, then the app's state), so a loaded
# machine only makes it slower. Usage: heap_games.py FOLDER GAMES. Prints
# "games N", then "PASS". Runs under CPython too (its asyncio).
import sys

import machine
from tactictoe import main

machine.wire({"kind": "buttons", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]})  # as board.json says
errors = []


async def player(runner):
    import asyncio

    def nap():  # CPython's asyncio has no sleep_ms
        return asyncio.sleep_ms(10) if hasattr(asyncio, "sleep_ms") else asyncio.sleep(0.01)

    app = runner.app
    keys = runner.keys

    def seen():  # what a press changes: the state, the menu screen, the game
        m = app.match
        return app.state, app.screen, m.plies if m else -1

    async def until(done):
        while not done():
            if errors:  # the firmware caught an error (a MemoryError, say) and left the game
                raise SystemExit(errors[0])
            await nap()

    async def press(cell, done=None):
        # Held until the keys have debounced it (or, for a long press, until
        # the board reacts), then released until the tap is taken.
        before = seen()
        machine.held = 1 << cell
        await until(done or (lambda: keys.held() >> cell & 1))
        machine.held = 0
        await until(lambda: not keys.held() >> cell & 1)
        if done is None:
            await until(lambda: seen() != before)

    await until(lambda: app.state == 2)  # the self-test, then the menu
    games = int(sys.argv[2])
    for n in range(games):
        # game, you X/O, the level (as X perfect, as O matched: its module and setting too), no hints
        for cell in ((3, 5)[n % 2], (0, 2)[n % 4 // 2], (8, 4)[n % 4 // 2], 3):
            await press(cell)
        while app.state != 4:  # until the game is over
            if app.busy():
                await nap()
            else:
                await press(app.match.pos.legal_moves()[0])
        await press(0, lambda: app.state == 2)  # a long press: back to the menu
    print("games", games)


main.run(sys.argv[1], player, lambda line: line.startswith("error") and errors.append(line))
print("PASS")
