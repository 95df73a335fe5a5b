# The whole firmware playing complete games in a small heap, exactly as a
# board runs it (main.run: boot, then the asyncio loop), with a "player"
# task beside it pressing cells through the machine double in real time.
# Kept tiny: the heap budget is for the firmware, not the harness.
# Usage: heap_games.py FOLDER GAMES. Prints "games N", then "PASS". Runs
# under CPython too (its asyncio).
import sys

import machine
import main

machine.wire({"kind": "buttons", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]})  # as board.json says
errors = []


async def player(runner):
    import asyncio

    def sleep_ms(ms):  # CPython's asyncio has no sleep_ms
        return asyncio.sleep_ms(ms) if hasattr(asyncio, "sleep_ms") else asyncio.sleep(ms / 1000)

    async def press(cell, ms=60):
        machine.held = 1 << cell
        await sleep_ms(ms)
        machine.held = 0
        await sleep_ms(40)

    app = runner.app
    await sleep_ms(1700)  # the self-test
    games = int(sys.argv[2])
    for n in range(games):
        for cell in ((3, 5)[n % 2], (0, 2)[n % 4 // 2], 8, 3):  # game, you X/O, perfect, no hints
            await press(cell)
        while app.state != 4:  # until the game is over
            if errors:  # the firmware caught an error (a MemoryError, say) and left the game
                raise SystemExit(errors[0])
            if app.busy():
                await sleep_ms(20)
            else:
                await press(app.match.pos.legal_moves()[0])
        await press(0, runner.timing["long_press_ms"] + 100)  # back to the menu
    print("games", games)


main.run(sys.argv[1], player, lambda line: line.startswith("error") and errors.append(line))
print("PASS")
