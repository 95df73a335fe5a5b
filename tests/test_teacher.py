"""The board as a teacher (issue 23): the trainer's verdict against the
solver in every position of both games; the trainer, the take-back double
tap, the puzzles and the score through the game flow as the board's loop
drives it (loop.build and Runner on a simulated clock, CPython), on a
nine-key board (the Pico's config) and on a board with function keys."""

import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tactictoe import ai, app, config, loop, puzzles, rules, score, table
from test_panel import UNDO_K, Board, FakeHw


@pytest.fixture(scope="module")
def tables(table_files):
    return {g: table.Table(path, g) for g, path in table_files.items()}


def _outcomes(sol, i):
    """{cell: +1/0/-1} for the mover of state ``i``, from the solver's own
    arrays (not the table): a move into a line wins, into a full board draws,
    else the opposite of the child's value for the opponent."""
    out = {}
    for c in range(9):
        j = int(sol.children[i, c])
        if j < 0:
            continue
        if sol.terminal[j]:
            x, o = int(sol.sides.codes[sol.x[j]]), int(sol.sides.codes[sol.o[j]])
            out[c] = 1 if rules.Position(sol.game, x, o).winner() is not None else 0
        else:
            out[c] = -ai.outcome(int(sol.value[j]))
    return out


@pytest.mark.parametrize("game", [rules.CLASSIC, rules.TACTICTOE])
def test_the_trainer_s_verdict_in_every_position(solutions, tables, game):
    """Every reachable position, every legal move: a verdict exactly when
    the move's outcome is below the best there is (a slower win is no
    blunder, a lost position can't be thrown away), its mask exactly the
    moves that keep the best outcome, its values the table's."""
    sol, tb = solutions[game], tables[game]
    caught = 0
    for i in np.nonzero(~sol.terminal)[0]:
        pos = rules.Position(game, int(sol.sides.codes[sol.x[i]]), int(sol.sides.codes[sol.o[i]]), int(sol.turn[i]))
        out = _outcomes(sol, i)
        best = max(out.values())
        keep = sum(1 << c for c, o in out.items() if o == best)
        for c, o in out.items():
            v = ai.verdict(tb, pos, c)
            if o == best:
                assert v is None, (pos.sides, pos.turn, c)
            else:
                caught += 1
                value, top, mask = v
                assert (ai.outcome(value), ai.outcome(top), mask) == (o, best, keep), (pos.sides, pos.turn, c)
    assert caught > 0


# --- the flow ---------------------------------------------------------------


class Pico(Board):
    """A nine-key board (the default config: a Pico's), built by loop.build
    with a score file and the puzzles."""

    def __init__(self, tables, score_=None, puzzles_=None, seed=3):
        self.cfg = config.validate(config.DEFAULT)
        self.hw = FakeHw(False)
        self.log, self.said = [], []
        self.runner = loop.build(self.hw, self.cfg, dict(tables), {}, None, ai.Rng(seed), self._log,
                                 score=score_, puzzles=puzzles_)
        self.app = self.runner.app
        self.now = 0
        self.run(app.SELFTEST_MS + 20)

    def double_tap(self, cell):
        self.press(cell, 40, 40)
        self.press(cell, 40, 40)

    def menu(self, *cells):
        for c in cells:
            self.press(c)


def _blunder(b):
    # A move of the player to move that the trainer catches.
    a = b.app
    pos = a.match.pos
    return [c for c in pos.legal_moves() if ai.verdict(a.tables[a.game], pos, c)][0]


def _colour(b, c):
    return tuple(b.hw.canvas[3 * c:3 * c + 3])


def test_a_blunder_is_shown_at_once_and_taken_back_by_a_double_tap(tables):
    b = Pico(tables)
    b.menu(3, 2, 8, 4)  # classic, you are O, perfect, the trainer
    b.wait_human()
    a = b.app
    before = (list(a.match.pos.sides), a.match.plies)
    cell = _blunder(b)
    b.press(cell)
    b.run(3000)  # the board waits: it does not reply
    assert a.match.plies == before[1] + 1 and a.blunder and not a.busy() and a.caught[0] == cell
    value, best, mask = ai.verdict(a.tables[a.game], rules.Position(a.game, *before[0], turn=rules.O), cell)
    assert a.blunder == mask
    assert b.said[-2].startswith("O on %d lets X win in " % cell) and b.said[-2].endswith("would have kept the draw.")
    assert b.said[-1] == "Tap cell %d twice to undo it, or any other cell to play on." % cell
    o = a.colours["o"]
    for c in range(9):  # the moves that kept the draw glow in O's colour, now and then
        if mask >> c & 1:
            seen = set()
            for _ in range(12):
                b.run(80)
                seen.add(_colour(b, c))
            assert any(rgb != (0, 0, 0) and max(rgb) == rgb[2] for rgb in seen) and o[2] == max(o)
    b.double_tap(cell)
    assert (list(a.match.pos.sides), a.match.plies) == before and not a.blunder and a.caught is None
    assert "classic: take back 1" in b.log and "Undid 1 move." in b.said


def test_after_a_blunder_any_other_key_plays_on(tables):
    b = Pico(tables)
    b.menu(3, 2, 8, 4)
    b.wait_human()
    cell = _blunder(b)
    b.press(cell)
    plies = b.app.match.plies
    other = [c for c in b.app.match.pos.legal_moves()][0]
    b.press(other)  # not a move: the board replies now
    b.wait_human()
    assert b.app.match.plies == plies + 1 or b.app.state == app.OVER
    assert not b.app.blunder and b.app.caught is None  # (no stale move)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(1, 5000), moves=st.integers(1, 12))
def test_double_taps_take_back_to_the_start(tables, seed, moves):
    """Tactic-toe against the easy board: play, then double tap the newest
    mark until nothing is left: the empty board, the start (the exact
    positions and repetition counts after take-backs: test_panel's
    hypothesis tests of match.Match)."""
    b = Pico(tables, seed=seed)
    b.menu(5, 0, 6, 3)  # tactic-toe, you are X, easy, no help
    a = b.app
    played = 0
    while played < moves and a.state == app.PLAY:
        b.wait_human()
        if a.state != app.PLAY:
            break
        b.press(a.match.pos.legal_moves()[0])
        played += 1
    b.wait_human()
    if a.state != app.PLAY:
        return  # the game ended: nothing to take back (the end is final)
    while a.undo_plies():
        m = a.match
        cell = m.newest()
        plies = m.plies
        b.double_tap(cell)
        assert a.match.plies == plies - 2
    assert a.match.plies == 0 and a.match.pos.code() == rules.Position(rules.TACTICTOE).code()
    assert b.said[-1] == "Your move (X): tap a free cell."


def _puzzles(table_files):
    return puzzles.Puzzles(os.path.join(os.path.dirname(table_files[0]), "puzzles.bin"))


def _solve(b):
    a = b.app
    while a.state == app.PLAY:
        b.wait_human()
        if a.state == app.PLAY:
            b.press(ai.best_moves(a.tables[a.game], a.match.pos)[0])


def test_a_puzzle_solved_then_one_failed_then_tried_again(tables, table_files, tmp_path):
    s = score.Score(str(tmp_path / "score.bin"))
    s.load()
    p = _puzzles(table_files)
    b = Pico(tables, s, p)
    a = b.app
    b.press(1)  # puzzles
    first = a.puzzle
    assert b.said[-2].startswith("Puzzle %d of %d, " % (first + 1, len(p)))
    plies = p.get(first)[1]
    assert plies == min(p.get(i)[1] for i in range(len(p)))  # the easiest first
    _solve(b)
    assert a.solved and s.solved(first) and b.said[-3:-1] == ["Puzzle %d solved!" % (first + 1),
                                                              "Puzzles solved: 1 of %d." % len(p)]
    b.run(app.OVER_GUARD_MS)
    b.press(4)  # the next puzzle
    second = a.puzzle
    assert second != first and a.state == app.PLAY
    b.wait_human()
    b.press(_blunder(b))  # lets the win go: failed at once
    assert a.state == app.OVER and not a.solved and s.failures(second) == 1 and not s.solved(second)
    assert "Puzzle %d failed." % (second + 1) in b.said
    b.run(app.OVER_GUARD_MS)
    b.press(4)
    assert a.puzzle == second  # a failed puzzle comes again
    again = score.Score(str(tmp_path / "score.bin"))  # what the flash holds
    again.load()
    assert again.solved(first) and again.failures(second) == 1


def test_the_score_is_kept_shown_and_reset(tables, tmp_path):
    path = str(tmp_path / "score.bin")
    s = score.Score(path)
    s.load()
    b = Pico(tables, s)
    b.menu(3, 6, 3)  # classic, two players, no help: X wins on the top row
    for c in (0, 3, 1, 4, 2):
        b.press(c)
    assert b.said[-4] == "Score, classic for two: X won 1, O won 0, 0 drawn."
    assert b.said[-3].startswith("Review: X 3 moves: ") and b.said[-2].startswith("Review: O 2 moves: ")
    b2 = Pico(tables, score.Score(path))  # a power cycle: the board's score file
    b2.app.score.load()
    assert b2.app.score.two(rules.CLASSIC) == (1, 0, 0)
    b2.press(7)  # the score screen
    assert b2.said[-4] == ("Your score: classic for two: X won 1, O won 0, 0 drawn; puzzles solved: 0 of %d."
                          % b2.app.puzzle_count())
    b2.press(5)  # reset
    assert b2.app.screen == app.PICK_GAME and b2.app.score.two(rules.CLASSIC) == (0, 0, 0)
    fresh = score.Score(path)
    fresh.load()
    assert fresh.two(rules.CLASSIC) == (0, 0, 0)


def test_a_board_with_a_take_back_key_takes_back_after_a_blunder(tables):
    b = Board(tables)
    for c in (3, 2, 8, 4):
        b.press(c)
    b.wait_human()
    plies = b.app.match.plies
    b.press(_blunder(b))
    assert b.app.blunder and b.app.undo_plies() == 1
    b.press(UNDO_K)
    assert b.app.match.plies == plies and not b.app.blunder
