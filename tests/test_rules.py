"""The rules module: moves, push/pop, encoding, symmetries."""

import pytest
from hypothesis import given, settings, strategies as st

from tactictoe import rules
from tactictoe import rules_extra
from tactictoe.rules import CLASSIC, TACTICTOE, X, O, Position

games = st.sampled_from([CLASSIC, TACTICTOE])


@st.composite
def played(draw, game=None):
    """A position reached by random legal play, with its move list."""
    g = draw(games) if game is None else game
    pos = Position(g)
    moves = []
    for _ in range(draw(st.integers(0, 40))):
        legal = pos.legal_moves()
        if not legal:
            break
        cell = draw(st.sampled_from(legal))
        pos.push(cell)
        moves.append(cell)
    return pos, moves


def test_empty_board():
    for g in (CLASSIC, TACTICTOE):
        pos = Position(g)
        assert pos.turn == X
        assert pos.legal_moves() == list(range(9))
        assert pos.winner() is None and not pos.is_over()
        assert [pos.piece_at(c) for c in range(9)] == [None] * 9
    assert Position(TACTICTOE).code() == 0xFFFFFF
    assert Position(CLASSIC).code() == 0


def test_tactictoe_fourth_mark_removes_the_oldest():
    pos = rules_extra.from_moves(TACTICTOE, [0, 4, 2, 6, 5, 7])
    assert rules_extra.marks(pos, X) == [0, 2, 5] and rules_extra.marks(pos, O) == [4, 6, 7]
    assert pos.vanishing() == 0  # X's oldest leaves on X's next move
    pos.push(8)
    assert rules_extra.marks(pos, X) == [2, 5, 8]
    assert pos.piece_at(0) is None
    assert pos.winner() == X  # 2-5-8 is a column, made after the removal


def test_tactictoe_cannot_place_on_own_oldest_mark():
    pos = rules_extra.from_moves(TACTICTOE, [0, 4, 2, 6, 5, 7])
    assert 0 not in pos.legal_moves()
    with pytest.raises(rules.IllegalMove, match="cell 0 is occupied"):
        pos.push(0)


def test_tactictoe_line_broken_by_removal_does_not_win():
    # X holds 0,1 and plays 2 as a 4th mark: the oldest (0) leaves first,
    # so 0-1-2 is not a line.
    pos = rules_extra.from_moves(TACTICTOE, [0, 4, 1, 5, 6, 8])
    pos.push(2)
    assert rules_extra.marks(pos, X) == [1, 6, 2]
    assert pos.winner() is None


def test_encoding_of_a_known_position():
    pos = rules_extra.from_moves(TACTICTOE, [1, 4, 0, 2, 3, 5, 7])
    assert pos.code() == 0x037425  # X: 0,3,7 oldest first; O: 4,2,5
    cl = rules_extra.from_moves(CLASSIC, [4, 0, 8])
    # cell 0 = O (2) in bits 17-16, cell 4 = X in bits 9-8, cell 8 = X in bits 1-0
    assert cl.code() == (2 << 16) | (1 << 8) | 1
    one = rules_extra.from_moves(TACTICTOE, [4])
    assert one.code() == 0x4FFFFF


def test_classic_full_board_is_a_draw():
    pos = rules_extra.from_moves(CLASSIC, [4, 0, 8, 2, 1, 7, 6, 3, 5])
    assert pos.is_over() and pos.winner() is None and pos.legal_moves() == []


def test_no_moves_after_a_win():
    pos = rules_extra.from_moves(CLASSIC, [0, 3, 1, 4, 2])
    assert pos.winner() == X
    with pytest.raises(rules.IllegalMove, match="over"):
        pos.push(8)


@pytest.mark.parametrize("cell", [-1, 9, "4", None, 1.0])
def test_off_board_cells_are_refused(cell):
    with pytest.raises(rules.IllegalMove, match="not on the board"):
        Position(TACTICTOE).push(cell)


def test_symmetries_form_the_dihedral_group():
    syms = set(rules_extra.SYMMETRIES)
    assert len(syms) == 8
    assert all(sorted(s) == list(range(9)) for s in syms)
    for a in rules_extra.SYMMETRIES:
        for b in rules_extra.SYMMETRIES:
            assert bytes(a[b[c]] for c in range(9)) in syms  # closed
    lines = set(rules.LINES)
    for s in rules_extra.SYMMETRIES:  # every symmetry maps lines to lines
        for line in rules.LINES:
            img = 0
            for c in range(9):
                if line >> c & 1:
                    img |= 1 << s[c]
            assert img in lines


@given(played())
def test_push_pop_round_trip(case):
    pos, moves = case
    replay = Position(pos.game)
    for cell in moves:
        replay.push(cell)
    assert rules_extra.same(replay, pos)
    for cell in reversed(moves):
        assert pos.pop() == cell
    assert rules_extra.same(pos, Position(pos.game))


def test_same_compares_game_marks_in_age_order_and_turn():
    a = rules_extra.from_moves(TACTICTOE, [0, 4, 2])
    assert rules_extra.same(a, rules_extra.from_moves(TACTICTOE, [0, 4, 2]))
    assert not rules_extra.same(a, rules_extra.from_moves(TACTICTOE, [2, 4, 0]))  # same cells, other ages
    assert not rules_extra.same(a, rules_extra.from_moves(CLASSIC, [0, 4, 2]))
    b = rules_extra.from_moves(TACTICTOE, [0, 4, 2])
    b.turn ^= 1
    assert not rules_extra.same(a, b)


@given(played())
def test_pop_with_nothing_to_take_back_changes_nothing(case):
    pos, _ = case
    pos.clear_stack()  # the moves that made it can no longer be taken back
    before = (pos.game, pos.turn, list(pos.sides))
    with pytest.raises(IndexError):
        pos.pop()
    assert (pos.game, pos.turn, list(pos.sides)) == before
    legal = pos.legal_moves()
    if legal:  # and it still plays: push, then pop back to it
        pos.push(legal[0])
        assert pos.pop() == legal[0]
        assert (pos.game, pos.turn, list(pos.sides)) == before


@given(played())
def test_invariants_of_play(case):
    pos, moves = case
    nx, no = len(rules_extra.marks(pos, X)), len(rules_extra.marks(pos, O))
    assert pos.occupied() == pos.mask(X) | pos.mask(O) and not pos.mask(X) & pos.mask(O)
    if pos.game == TACTICTOE:
        assert nx <= 3 and no <= 3
        assert rules_extra.marks(pos, X) == [c for c in moves[0::2]][-3:]  # the newest three, oldest first
        assert rules_extra.marks(pos, O) == [c for c in moves[1::2]][-3:]
    assert pos.turn == len(moves) % 2
    assert not (rules.has_line(pos.mask(X)) and rules.has_line(pos.mask(O)))


@given(played(), st.integers(0, 7))
def test_encode_decode_and_canonical(case, k):
    pos, _ = case
    g = pos.game
    assert rules_extra.decode(g, pos.code()) == tuple(pos.sides)
    assert rules_extra.same(rules_extra.from_code(g, pos.code(), pos.turn),
                            Position(g, pos.sides[0], pos.sides[1], pos.turn))
    sym = rules_extra.SYMMETRIES[k]
    image = Position(g, rules_extra.side_transform(g, pos.sides[0], sym),
                     rules_extra.side_transform(g, pos.sides[1], sym), pos.turn)
    assert image.canonical() == pos.canonical()
    assert image.turn == pos.turn
    assert pos.canonical() <= pos.code()
    # The image plays like the original: same number of moves, same winner.
    assert len(image.legal_moves()) == len(pos.legal_moves())
    assert image.winner() == pos.winner()


@given(st.integers(0, (1 << 24) - 1))
@settings(max_examples=300)
def test_decode_rejects_or_round_trips(code):
    for g in (CLASSIC, TACTICTOE):
        try:
            xs, os_ = rules_extra.decode(g, code)
        except ValueError:
            continue
        assert rules.encode(g, xs, os_) == code


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_canonical_is_the_smallest_image_in_every_reachable_position(solutions, game):
    """rules.canonical takes shortcuts (tactic-toe: the two images that can
    be smallest; classic: the 2-bit fields moved in place); the solver
    computes the definition, all 8 images through side_transform."""
    import numpy as np

    sol = solutions[game]
    sides = sol.sides
    want = np.min(sides.xcode[sides.sym[sol.x]] | sides.ocode[sides.sym[sol.o]], axis=1).tolist()
    codes = sides.codes
    got = [rules.canonical(game, codes[x], codes[o]) for x, o in zip(sol.x.tolist(), sol.o.tolist())]
    assert got == want


def test_has_line_and_side_mask_against_their_definitions():
    for mask in range(512):
        assert rules.has_line(mask) is any(mask & line == line for line in rules.LINES)
    slots = list(range(9)) + [0xF]
    for a in slots:
        for b in slots:
            for c in slots:
                side = a << 8 | b << 4 | c
                assert rules.side_mask(TACTICTOE, side) == sum(1 << s for s in {a, b, c} if s != 0xF)
