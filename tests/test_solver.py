"""The solver: the public facts about both games, the table bytes, and the
graph it builds agreeing with rules.Position move by move."""

import struct
import zlib

import numpy as np
import pytest

from tactictoe import ai
from tactictoe import rules_extra
from tactictoe.rules import CLASSIC, TACTICTOE, Position
from host_tools import outputs, solver


def test_tactictoe_facts(solutions):
    sol = solutions[TACTICTOE]
    assert sol.positions == 128170
    assert sol.nonterminal == 116074
    assert len(sol.records) == 14518
    assert len(sol.table_bytes()) == 16 + 4 * 14518 == 58088
    start = Position(TACTICTOE)
    assert sol.value_of(start) == ai.WIN | 13  # X wins in 13 plies
    for cell in range(9):
        start.push(cell)
        v = sol.value_of(start)  # for O, who is to move
        start.pop()
        if cell in (1, 3, 5, 7):
            assert v == 12, "edge opening %d should leave O lost in 12" % cell
        else:
            assert v == 0, "opening %d should draw" % cell


def test_classic_facts(solutions):
    sol = solutions[CLASSIC]
    assert sol.positions == 5478
    assert sol.nonterminal == 4520
    assert len(sol.records) == 627
    assert len(sol.table_bytes()) == 16 + 4 * 627 == 2524
    assert sol.value_of(Position(CLASSIC)) == 0


def test_terminal_positions_have_no_value(solutions):
    with pytest.raises(ValueError, match="terminal"):
        solutions[CLASSIC].value_of(rules_extra.from_moves(CLASSIC, [0, 3, 1, 4, 2]))


def test_classic_known_values(solutions):
    sol = solutions[CLASSIC]
    # X in the corner, O on the edge next to it: X forces a win (in 5 more plies).
    pos = rules_extra.from_moves(CLASSIC, [0, 1])
    assert ai.outcome(sol.value_of(pos)) == 1
    # X centre, O corner: draw.
    assert sol.value_of(rules_extra.from_moves(CLASSIC, [4, 0])) == 0
    # X to move with a line open: wins in 1.
    assert sol.value_of(rules_extra.from_moves(CLASSIC, [0, 3, 1, 4])) == ai.WIN | 1


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_graph_matches_rules_on_every_position(solutions, game):
    """The solver's tables compose the firmware's rules; check the result
    against Position.push itself on every reachable position."""
    sol = solutions[game]
    codes = sol.sides.codes
    for i in range(sol.positions):
        pos = Position(game, codes[sol.x[i]], codes[sol.o[i]], int(sol.turn[i]))
        assert bool(sol.terminal[i]) == pos.is_over()
        legal = pos.legal_moves()
        assert [c for c in range(9) if sol.children[i, c] >= 0] == legal
        for cell in legal:
            pos.push(cell)
            j = sol.children[i, cell]
            assert (codes[sol.x[j]], codes[sol.o[j]], int(sol.turn[j])) == (pos.sides[0], pos.sides[1], pos.turn)
            pos.pop()


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_values_obey_best_play(solutions, game):
    """Every value is the minimax of its children's values, distances
    included: the winner hurries, the loser delays, the rest draw."""
    sol = solutions[game]
    for i in np.flatnonzero(~sol.terminal):
        kids = [sol.children[i, c] for c in range(9) if sol.children[i, c] >= 0]
        scores = []
        for j in kids:
            if sol.terminal[j]:
                # the mover just won (a line) or drew (full classic board)
                won = sol.sides.line[sol.x[j]] or sol.sides.line[sol.o[j]]
                scores.append(ai.score(ai.WIN | 1) if won else 0)
            else:
                v = int(sol.value[j])
                after = 0 if v == 0 else ((v & 63) + 1 if v & ai.WIN else ai.WIN | (v + 1))
                scores.append(ai.score(after))
        assert ai.score(int(sol.value[i])) == max(scores), i


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_table_bytes(solutions, game):
    sol = solutions[game]
    data = sol.table_bytes()
    magic, version, g, reserved, count, crc = struct.unpack(">4sBBHII", data[:16])
    assert (magic, version, g, reserved) == (b"TTTB", 1, game, 0)
    assert count == len(sol.records) and len(data) == 16 + 4 * count
    assert crc == zlib.crc32(data[16:])
    recs = struct.unpack(">%dI" % count, data[16:])
    assert list(recs) == sorted(set(recs))  # ascending, no duplicates
    keys = [r >> 7 for r in recs]
    assert len(set(keys)) == count  # one value per canonical position
    for r in recs:
        code, turn, value = r >> 8, (r >> 7) & 1, r & 0x7F
        xs, os_ = rules_extra.decode(game, code)
        pos = Position(game, xs, os_, turn)
        assert pos.canonical() == code  # stored in canonical form
        assert not pos.is_over()
        assert sol.value_of(pos) == value
        d = value & 0x3F
        assert value == 0 or 1 <= d <= 63
        if value:  # the winner makes the last move: odd for a win, even for a loss
            assert d % 2 == (1 if value & 0x40 else 0)


def test_same_inputs_give_identical_bytes(solutions, tmp_path):
    for game in (CLASSIC, TACTICTOE):
        fresh = solver.solve(game)
        a, b = tmp_path / "a.tbl", tmp_path / "b.tbl"
        solver.write_table(solutions[game], str(a))
        solver.write_table(fresh, str(b))
        assert a.read_bytes() == b.read_bytes()


def test_write_replaces_atomically(solutions, tmp_path, monkeypatch):
    path = tmp_path / "t.tbl"
    path.write_bytes(b"previous working table")

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(outputs.os, "fsync", boom)
    with pytest.raises(OSError):
        solver.write_table(solutions[CLASSIC], str(path))
    assert path.read_bytes() == b"previous working table"
    assert [p.name for p in tmp_path.iterdir()] == ["t.tbl"]  # no temp file left
