"""Property tests of the firmware on the simulated board (CPython, with the
machine/neopixel doubles): random presses never crash it, tactic-toe never
shows more than 3 marks of a player, and the perfect AI never turns a won or
drawn position into a worse one."""

import sys

import pytest
from hypothesis import HealthCheck, event, example, given, settings, strategies as st

from conftest import DOUBLES, FW

sys.path.insert(0, FW)
sys.path.insert(0, DOUBLES)  # before site-packages, which has Adafruit's neopixel

from tactictoe import ai  # noqa: E402
from tactictoe import app  # noqa: E402
from tactictoe import rules  # noqa: E402
from tactictoe import rules_extra  # noqa: E402
import sim  # noqa: E402


@pytest.fixture(scope="module")
def board_folder(flash):
    return flash["buttons"]


press = st.tuples(st.integers(0, 8), st.sampled_from([30, 90, 200, 1700]), st.integers(0, 900))
# Mostly start from a valid walk through the menu, so that most examples play.
menu = st.tuples(st.sampled_from([3, 5]), st.sampled_from([0, 2, 6, 8]), st.sampled_from([4, 6, 7, 8]),
                 st.sampled_from([3, 5])).map(lambda cells: [(c, 90, 100) for c in cells])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=menu, presses=st.lists(press, min_size=5, max_size=80), seed=st.integers(0, 0xFFFF))
# X's move lands in the last scan of a press: the check must not read the frame from before it.
@example(start=[(c, 90, 100) for c in (5, 0, 6, 3)], presses=[(0, 30, 0), (0, 30, 0), (1, 30, 0), (0, 30, 0),
                                                               (0, 30, 0)], seed=0)
# The trainer catches X's move: the moves that kept the better outcome pulse in X's colour while O is to move.
@example(start=[(c, 90, 100) for c in (3, 0, 6, 3)], presses=[(0, 1700, 0), (5, 30, 0), (0, 30, 0), (6, 30, 0),
                                                               (4, 30, 26), (0, 30, 0)], seed=0)
# A long press plays its move as the key goes down (a puzzle's, caught and failed), then goes to the menu:
# the next game (two players, no trainer) must not still hold that caught move.
@example(start=[(c, 90, 100) for c in (3, 0, 6, 3)], presses=[(0, 1700, 0), (1, 30, 26), (1, 1700, 0), (5, 30, 0),
                                                               (6, 30, 0), (3, 30, 0), (0, 30, 0)], seed=0)
def test_random_presses(board_folder, start, presses, seed):
    b = sim.Board(board_folder, seed)
    b.run(app.SELFTEST_MS + 20)
    presses = start + presses
    table_of = b.app.tables
    ai_moves = []
    real_ai_move = b.app._ai_move

    def watched():
        pos = b.app.match.pos
        before = None
        if b.app.level >= ai.PERFECT and not pos.is_over():
            before = table_of[pos.game].value(pos)
        cell = real_ai_move()
        if b.app.match.slipped:  # the matched level's slip: a legal move at random (the move pushes it)
            before = None
        ai_moves.append((before, cell, rules.Position(pos.game, pos.sides[0], pos.sides[1], pos.turn)))
        return cell

    b.app._ai_move = watched
    for cell, hold, gap in presses:
        b.press(cell, hold, gap)
        assert not [line for line in b.lines if line.startswith("error")], b.lines
        m = b.app.match
        if m is not None and m.game == rules.TACTICTOE:
            assert len(rules_extra.marks(m.pos, rules.X)) <= 3 and len(rules_extra.marks(m.pos, rules.O)) <= 3
            if b.app.state == app.PLAY:
                # The player not to move shows only its marks (the mover's
                # colour also lights empty cells): never more than 3. While
                # the trainer holds a caught move, the moves that kept the
                # better outcome pulse in that player's colour too.
                other = "Oo" if m.pos.turn == rules.X else "Xx"
                # The strip shows the last frame drawn, up to frame_ms old:
                # draw this moment's, as the board's next frame will.
                b.runner.draw(b.now)
                shown = {i for i, ch in enumerate(b.picture().replace(" ", "")) if ch in other}
                if b.app.caught:
                    player = rules.O if m.pos.turn == rules.X else rules.X
                    better = {i for i in range(9) if b.app.blunder >> i & 1}
                    assert better and shown <= set(rules_extra.marks(m.pos, player)) | better, b.show()
                else:
                    assert len(shown) <= 3, b.show()
    event("AI moves: %s" % ("none" if not ai_moves else "some"))
    event("reached play" if b.app.match is not None or ai_moves else "stayed in the menu")
    for before, cell, pos in ai_moves:
        if before is None:
            continue
        after = dict(ai.move_values(table_of[pos.game], pos))[cell]
        assert ai.outcome(after) >= ai.outcome(before), (before, after)
        assert ai.score(after) == ai.score(before)  # perfect keeps the exact value
