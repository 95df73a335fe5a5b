"""The puzzles and the score on the virtual board of ``make sim`` (the
MicroPython Unix port, ``sim --headless``): a puzzle played to its
solution by taps, read off the LED frames and the console; the score in
the flash folder's score file, said again after the board's power cycle."""

import os

from live_sim import LiveSim, is_menu, is_self_test
from tactictoe import ai, puzzles, rules, score, table


def _said(sim, text):
    line = "serial > " + text
    return sim.wait(lambda got: got == line, 30, repr(text))


def _turns(pos):
    return {(rules.transform(pos.game, pos.sides[0], k), rules.transform(pos.game, pos.sides[1], k))
            for k in range(8)}


def _posed(sim, want):
    """The puzzle's position as the LEDs show it (one of its eight turns):
    marks at full brightness, the mover's free cells glowing faintly."""
    turns = _turns(want)
    mover = "xo"[want.turn]
    found = []

    def shows_it(line):
        if not line.startswith("frame "):
            return False
        grid = line.split()[2].replace("/", "")
        sides = tuple(sum(1 << c for c in range(9) if grid[c] == p) for p in "XO")
        if sides in turns and all(grid[c] == mover for c in range(9) if not (sides[0] | sides[1]) >> c & 1):
            found.append(sides)
            return True
        return False

    shown = [line for line in sim.lines if line.startswith("frame ")]
    if not (shown and shows_it(shown[-1])):  # (the frame may come before the narration, or after)
        sim.wait(shows_it, 30, "the puzzle on the LEDs")
    pos = rules.Position(rules.CLASSIC)
    pos.sides[0], pos.sides[1] = found[0]
    pos.turn = want.turn
    return pos


def test_a_puzzle_solved_on_the_unix_port_is_kept_across_a_power_cycle(tmp_path, table_files):
    here = os.path.dirname(table_files[rules.CLASSIC])
    book = puzzles.Puzzles(os.path.join(here, puzzles.NAME))
    want, plies = book.get(0)
    assert want.game == rules.CLASSIC
    n = len(book)
    flash = tmp_path / "flash"
    sim = LiveSim(flash, "--tables", here)
    try:
        with table.Table(table_files[rules.CLASSIC], rules.CLASSIC) as t:
            sim.wait(is_menu, 30, "the menu")
            sim.send("tap 1")
            me, other = rules.PLAYERS[want.turn], rules.PLAYERS[want.turn ^ 1]
            moves = (plies + 1) // 2
            _said(sim, "Puzzle 1 of %d, classic: you are %s; win in %d move%s. The board defends as well as it can."
                  % (n, me, moves, "" if moves == 1 else "s"))
            pos = _posed(sim, want)
            while True:
                move = ai.best_moves(t, pos)[0]
                sim.send("tap %d" % move)
                sim.serial("classic: %s %d" % (me, move))
                pos.push(move)
                if pos.is_over():
                    break
                line = sim.wait(lambda got: got.startswith("serial classic: %s " % other), 30, "the defence")
                pos.push(int(line.split()[-1]))
                assert not pos.is_over()
            sim.serial("classic: %s wins" % me)
            _said(sim, "Puzzle 1 solved!")
            _said(sim, "Puzzles solved: 1 of %d." % n)
            # The board's power cycle: the flash folder and its score file stay.
            sim.send("wait 500", "reset")
            sim.wait(is_self_test, 30, "the self-test again")
            sim.wait(is_menu, 30, "the menu")
            sim.send("tap 7")
            _said(sim, "Your score: no games yet; puzzles solved: 1 of %d." % n)
            # And the next puzzle posed is the second: the first is solved.
            sim.send("tap 3", "tap 1")
            sim.serial("> Puzzle 2 of %d, " % n)
    finally:
        sim.close()
    saved = score.Score(str(flash / score.PATH), lambda line: None)
    saved.load()
    assert saved.solved(0) and saved.solved_count() == 1 and saved.games(rules.CLASSIC, ai.PERFECT) == (0, 0, 0)
