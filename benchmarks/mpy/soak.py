# Heap soak: the whole firmware (main.boot: power-on with config, hardware
# doubles and both tables) plays GAMES demo games against itself on a
# synthetic clock, every level of both games, and the free heap is sampled
# after a collection every EVERY games.
# Usage: soak.py FOLDER GAMES EVERY [BLOCK]
# The clock jumps to the app's next deadline (the self-test's end, the
# board's move, the next demo game), so no time is waited. The settings
# change every BLOCK games (default 25) through the menu, as a person does it:
# a long press, then the game, demo and the level.
# Prints "sample GAMES FREE" lines, "games ..." tallies, then "done".
import gc
import sys

import machine
from tactictoe import main

machine.wire({"kind": "buttons", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]})  # as board.json says

CAP = 300  # plies: a game still going after this many is stopped (counted as capped)
PAUSE_MS = 2500  # app's pause between demo games


def main_():
    folder, games, every = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    block = int(sys.argv[4]) if len(sys.argv) > 4 else 25
    from tactictoe import ai

    runner = main.boot(folder, rng=ai.Rng(11), log=lambda line: None)
    # Only now, as on a board: power-on runs before the game's modules load.
    from tactictoe.app import MENU, NOTICE, OVER, PLAY, SELFTEST_MS
    from tactictoe.keys import LONG, TAP
    app = runner.app
    # (game cell, level cell): classic / tactic-toe x easy / medium / perfect
    settings = ((3, 6), (5, 6), (3, 7), (5, 7), (3, 8), (5, 8))
    names = ("classic easy", "tactictoe easy", "classic medium", "tactictoe medium", "classic perfect",
             "tactictoe perfect")
    tally = [[0, 0, 0, 0, 0] for _ in settings]  # X wins, O wins, draws, capped, plies
    clock = [0]
    played = 0
    setting = -1
    gc.collect()
    print("sample", 0, gc.mem_free())

    def step(event=0):
        app.update(clock[0], event)
        del app.sounds[:]  # what Runner.step does with them, minus the buzzer
        if runner.walk is not None:  # and its slice of the tables' check, which unloads itself when done
            runner._walk()
        runner.draw(clock[0])

    while played < games:
        state = app.state
        if state == PLAY:
            m = app.match
            if m.plies >= CAP:
                tally[setting][3] += 1
                step(LONG)  # back to the menu, as a person stops a game
            else:
                clock[0] = max(clock[0] + 1, app.ai_at)
                step()
                if app.state != OVER:
                    continue
                t = tally[setting]
                t[2 if m.result < 0 else m.result] += 1
            tally[setting][4] += m.plies
            played += 1
            if played % every == 0:
                gc.collect()
                print("sample", played, gc.mem_free())
        elif state == OVER:
            if played // block % len(settings) != setting:  # a new setting: through the menu
                step(LONG)
            else:
                clock[0] += PAUSE_MS  # the next demo game starts by itself
                step()
        elif state == MENU:
            setting = played // block % len(settings)
            game, level = settings[setting]
            for cell in (game, 8, level):  # game, demo mode, level
                clock[0] += 100
                step(TAP | cell)
        elif state == NOTICE:
            clock[0] += 2000
            step()
        else:  # the self-test
            clock[0] += SELFTEST_MS
            step()
    for s in range(len(settings)):
        t = tally[s]
        print("games %s: %d X wins, %d O wins, %d draws, %d capped, %d plies"
              % (names[s], t[0], t[1], t[2], t[3], t[4]))
    print("clock %d s" % (clock[0] // 1000))
    print("done")


main_()
