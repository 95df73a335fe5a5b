"""Issue 33: the trainer, the hints, puzzle judging and the perfect player
exact under the board's own repetition rule (tactic-toe: the same position
with the same player to move for the third time within 64 plies is a draw).

Checked against this file's own count over a plain list of the game's
positions (not match.Match's ring) and the solver's values (not the table):
a move that makes the third repetition is a draw for its mover, unless it
makes a line; any other move has the table's value."""

import random

import pytest
from hypothesis import example, given, settings, strategies as st

from tactictoe import ai, app, config, match, narrate_text, review, rules, table
from test_teacher import Pico

WINDOW = 64  # the board's rule (README): the third time within the last 64 plies
LIMIT = 3

# Histories found by a search over tactic-toe games (X to move at the end):
# X's only table win (2, in 7 plies) makes a third repetition; 8 draws, 7 loses.
ONLY_WIN = [7, 4, 6, 3, 5, 1, 2, 8, 0, 4, 6, 3, 5, 1, 2, 8, 0, 4, 6, 3, 5, 1]
# X's faster win (8, in 5) makes a third repetition, the slower (7, in 7) does not; 5 draws.
FASTER_WIN = [5, 4, 1, 2, 6, 3, 8, 7, 0, 4, 1, 2, 6, 3, 8, 7, 0, 4, 1, 2, 6, 3]
# X is lost: 4 loses slowest (in 10 plies); 0 (in 4) makes a third repetition, a draw.
LOST = [2, 8, 7, 3, 6, 1, 0, 2, 5, 8, 7, 3, 6, 1, 0, 2, 5, 8, 7, 3, 6, 1]
# At its last move, a position the move leads to was seen twice, once of them
# exactly 64 plies before the move: out of the window, no draw.
EDGE = [0, 4, 6, 1, 2, 3, 5, 0, 4, 7, 6, 1, 3, 2, 5, 4, 0, 7, 6, 3, 1, 2, 5, 4, 0, 7, 6, 3, 1, 2, 5, 4, 0, 7, 3,
        6, 1, 2, 5, 0, 4, 7, 6, 1, 3, 2, 5, 4, 0, 7, 1, 3, 6, 2, 5, 4, 0, 7, 1, 3, 6, 2, 5, 4, 0, 7, 3, 6, 1, 2, 5,
        0, 4, 7, 6, 1]


def state(pos):
    return pos.sides[0], pos.sides[1], pos.turn


def third(history, after):
    """True if the position ``after`` a move, added to ``history`` (every
    position of the game so far, the start first), is there for the LIMIT-th
    time within WINDOW plies."""
    return history[-(WINDOW - 1):].count(after) + 1 >= LIMIT


def thirds(history, pos):
    """The mask of the moves of ``pos`` (the last of ``history``) that make
    a third repetition and no line."""
    out = 0
    for c in pos.legal_moves():
        pos.push(c)
        if pos.winner() is None and third(history, state(pos)):
            out |= 1 << c
        pos.pop()
    return out


def expected(sol, history, pos):
    """{cell: value} for the player to move: a line wins, a third
    repetition draws, else the solver's value of the position after."""
    out = {}
    draws = thirds(history, pos)
    for c in pos.legal_moves():
        pos.push(c)
        try:
            if pos.winner() is not None:
                out[c] = ai.WIN | 1
            elif draws >> c & 1:
                out[c] = ai.DRAW
            else:
                out[c] = ai.flip(sol.value_of(pos))
        finally:
            pos.pop()
    return out


def walk(picks):
    """The cells a tactic-toe game plays from ``picks``: each one if legal,
    else the cell the mover's mark left at its last move (shuffling back
    and forth, so positions repeat), else the lowest legal cell; a move
    that would make a line or (but the last) a third repetition gives way to
    one that does not if there is one (each ply checks every move's
    outcome), so games go on, repeating, to the end of ``picks``."""
    pos = rules.Position(rules.TACTICTOE)
    left = {}
    cells = []
    history = [state(pos)]
    for i, p in enumerate(picks):
        free = pos.legal_mask()
        quiet = [c for c in range(9) if free >> c & 1 and not _lines(pos, c)] or pos.legal_moves()
        if i < len(picks) - 1:  # (the last pick may end the game by repetition)
            quiet = [c for c in quiet if not thirds(history, pos) >> c & 1] or quiet
        c = p if p in quiet else left.get(pos.turn, -1)
        if c not in quiet:
            c = quiet[0]
        gone = pos.vanishing()
        if gone is not None:
            left[pos.turn] = gone
        pos.push(c)
        cells.append(c)
        if pos.winner() is not None or third(history, state(pos)):
            break
        history.append(state(pos))
    return cells


def _lines(pos, c):
    pos.push(c)
    won = pos.winner() is not None
    pos.pop()
    return won


@pytest.fixture(scope="module")
def tables(table_files):
    return {g: table.Table(path, g) for g, path in table_files.items()}


def judge_app(tables):
    """An App showing hints to whoever moves, its trainer on."""
    a = app.App(config.validate(config.DEFAULT), dict(tables))
    a.state, a.hints, a.trainer = app.PLAY, True, True
    return a


def test_the_constants_are_the_boards():
    assert (match.REPEAT_WINDOW, match.REPEAT_DRAW) == (WINDOW, LIMIT)


@st.composite
def games(draw):
    """``walk``'s picks: a game of 16 to 90 plies that shuffles its marks
    back and forth at one of three rates (9: the shuffle)."""
    rnd = random.Random(draw(st.integers(0, 0xFFFF)))
    rate = draw(st.sampled_from([0.5, 0.8, 0.95]))
    return [9 if rnd.random() < rate else rnd.randrange(9) for _ in range(draw(st.integers(16, 90)))]


@settings(max_examples=25, deadline=None)
@given(picks=games())
@example(picks=ONLY_WIN + [2])
@example(picks=FASTER_WIN + [8])
@example(picks=LOST + [0])
@example(picks=EDGE)
def test_every_move_s_value_is_the_history_s(solutions, tables, picks):
    """At every ply of a game that repeats positions, for every legal move:
    Match.draws, the hints, the trainer's verdict (App._judge) and the
    perfect player's choice agree with the values above; playing the move
    ends the game in a draw exactly when it makes a third repetition."""
    sol, tb = solutions[rules.TACTICTOE], tables[rules.TACTICTOE]
    a = judge_app(tables)
    m = a.match = match.Match(rules.TACTICTOE, match.TWO)
    history = [state(m.pos)]
    draws_seen = 0
    for cell in walk(picks):
        pos = m.pos
        copy = rules.Position(rules.TACTICTOE, *pos.sides, turn=pos.turn)
        want = expected(sol, history, copy)
        d = m.draws()
        assert d == thirds(history, copy), (history[-3:], bin(d))
        draws_seen += d != 0
        assert dict(ai.move_values(tb, pos, d)) == want
        every = {c: ai.WIN | 1 if v == ai.WIN | 1 else ai.DRAW for c, v in want.items()}
        assert dict(ai.move_values(tb, pos, pos.legal_mask())) == every  # a line wins first
        m.mode = match.YOU_X if pos.turn == rules.X else match.YOU_O  # the mover is the person: judged
        hints = a.hint_outcomes()
        assert {c: hints[c] - 1 for c in want} == {c: ai.outcome(v) for c, v in want.items()}
        top = max(ai.outcome(v) for v in want.values())
        best = max(ai.score(v) for v in want.values())
        keep = sum(1 << c for c, v in want.items() if ai.outcome(v) == top)
        for c, v in want.items():
            caught = a._judge(c)
            if ai.outcome(v) == top:
                assert caught is None, c
            else:
                assert caught == (v, caught[1], keep) and ai.score(caught[1]) == best, (c, caught)
        picked = ai.best_moves(tb, pos, d)
        assert picked and all(ai.score(want[c]) == best for c in picked), (want, picked)
        for c, v in want.items():  # the review judges the move as the trainer does
            kind = review.judge(tb, pos, c, d)
            assert kind == (review.BEST if ai.score(v) == best else review.SLOWER if ai.outcome(v) == top
                            else review.THREW_WIN if top > 0 else review.THREW_DRAW), (c, kind)
        for c, v in want.items():  # each move, played on the board, then taken back
            m.play(c)
            ended = m.result
            m.undo(1)
            if v == ai.WIN | 1:
                assert ended == pos.turn, c
            else:
                assert (ended == -1) == (d >> c & 1 == 1), c
        m.play(cell)
        history.append(state(m.pos))
        if m.result is not None:
            break
    if picks in (ONLY_WIN + [2], FASTER_WIN + [8], LOST + [0]):
        assert draws_seen
    if picks == EDGE:  # 64 plies back counts no more
        assert len(history) == len(EDGE) + 1 and _edge(history, EDGE[-1])


def _edge(history, cell):
    # The position ``cell`` led to (the last of ``history``) was seen twice
    # before within 65 positions (the window and one more), not within 64.
    after = history[-1]
    return history[-66:-1].count(after) == 2 and history[-64:-1].count(after) == 1


def _at(moves):
    m = match.Match(rules.TACTICTOE, match.TWO)
    for c in moves:
        m.play(c)
        assert m.result is None
    return m


def test_the_hints_of_a_position_seen_again_know_its_repetitions(tables):
    """The hints of a position shown once are not the hints it has when it
    comes again with a third repetition on offer (the same position, other
    draws): the hints' cache knows the history."""
    a = judge_app(tables)
    m = a.match = match.Match(rules.TACTICTOE, match.YOU_X)
    for c in ONLY_WIN[:14]:
        m.play(c)
    before = bytes(a.hint_outcomes())
    a.hints = False  # (not asked for again until the position comes back)
    for c in ONLY_WIN[14:]:
        m.play(c)
    a.hints = True
    assert m.pos.code() == _at(ONLY_WIN[:14]).pos.code() and m.draws() == 1 << 2
    assert before[2] == 2 and a.hint_outcomes()[2] == 1  # a win then, a draw now


def _board_move(tables, m):
    # The perfect board's move (it plays X here) in the App.
    a = judge_app(tables)
    m.mode = match.YOU_O
    a.match = m
    assert a.level == ai.PERFECT and m.ai_turn()
    return a._ai_move()


def test_the_perfect_player_takes_a_repetition_draw_when_lost(tables):
    m = _at(LOST)
    tb = tables[rules.TACTICTOE]
    assert ai.best_moves(tb, m.pos) == [4]  # without the history: the slowest loss
    assert m.draws() == 1 << 0
    for seed in range(1, 9):
        assert ai.choose_move(m.pos, ai.PERFECT, tb, ai.Rng(seed), m.draws()) == 0
    assert _board_move(tables, m) == 0
    m.play(0)
    assert m.result == -1


def test_the_perfect_player_winning_never_walks_into_a_repetition(tables):
    m = _at(FASTER_WIN)
    tb = tables[rules.TACTICTOE]
    assert ai.best_moves(tb, m.pos) == [8]  # without the history: the fastest win, a draw here
    assert m.draws() == 1 << 8 and ai.best_moves(tb, m.pos, m.draws()) == [7]
    assert _board_move(tables, m) == 7
    m.play(7)
    assert m.result is None


# --- the issue's scenario, through the game flow ------------------------------


class Script(ai.Rng):
    """The easy board's picks, scripted: ``choice`` gives the next one."""

    def __init__(self, picks):
        super().__init__(1)
        self.picks = list(picks)

    def choice(self, seq):
        c = self.picks.pop(0)
        assert c in seq, (c, seq)
        return c


def _replay(tables, moves):
    """You X against the easy board (its picks scripted), the trainer on:
    the game up to X's last move of ``moves``; a move the trainer catches
    is played on (any other cell)."""
    b = Pico(tables)
    b.menu(5, 0, 6, 4)  # tactic-toe, you are X, easy, the trainer
    a = b.app
    a.rng = Script(moves[1::2])
    for c in moves[0::2]:
        b.wait_human()
        b.press(c)
        if a.blunder:
            b.press([x for x in a.match.pos.legal_moves()][0])  # play on
    b.wait_human()
    assert a.state == app.PLAY and a.match.plies == len(moves)
    return b


def test_the_issue_s_game_the_trainer_no_longer_calls_a_draw_a_blunder(tables):
    """X's only win makes the third repetition: 8, a draw, throws nothing
    away (the trainer used to say "X on 8 throws the win away: O can hold a
    draw; 2 still won."); 7, a loss, is caught with 2 and 8 as the draws it
    threw away; 2 ends the game at once in a draw."""
    b = _replay(tables, ONLY_WIN)
    a = b.app
    tb, pos = tables[rules.TACTICTOE], a.match.pos
    value, best, mask = ai.verdict(tb, pos, 8)  # blind to the history, as the issue found it
    assert narrate_text.lesson("X", 8, value, best, mask) == (
        "X on 8 throws the win away: O can hold a draw; 2 would have kept the win.")
    assert ai.verdict(tb, pos, 8, a.match.draws()) is None
    said = len(b.said)
    b.press(8)
    assert not a.blunder and not any("throws the win away" in line for line in b.said[said:])
    b = _replay(tables, ONLY_WIN)
    b.press(7)
    assert b.app.blunder == 1 << 2 | 1 << 8
    assert b.said[-2] == "X on 7 lets O win in 3 moves; 2 or 8 would have kept the draw."
    b = _replay(tables, ONLY_WIN)
    b.press(2)
    assert b.app.state == app.OVER and b.app.match.result == -1
    assert "You (X) played on cell 2 and the mark on cell 0 vanished: a draw (the same position 3 times)!" in b.said
    review = [line for line in b.said if line.startswith("Review: you (X)")]  # its last move: the best, a draw
    assert len(review) == 1 and "threw a draw" not in review[0]


def test_the_trainer_names_only_the_win_that_is_no_repetition(tables):
    b = _replay(tables, FASTER_WIN)
    b.press(5)
    assert b.app.blunder == 1 << 7
    assert b.said[-2] == "X on 5 throws the win away: O can hold a draw; 7 would have kept the win."
