"""The parts of the rules the game never runs: the symmetries as cell maps, a
side's cells in order, position24 decoded, and positions made from a move
list or a table record. The host's solver, the tests and the table proof
(``tableverify``, which a maker runs on a board as ``check.tables()``) use
them; the game never imports this module, so none of it takes a playing
board's RAM: every function a game module holds costs RAM for good, even
one the board never calls (docs/performance.md).
"""

from . import rules

# SYMMETRIES[k][c] is where symmetry k takes cell c (docs/table-format.md
# lists them; rules._IMAGES holds the same maps, 16 bytes apart).
SYMMETRIES = tuple(rules._IMAGES[k:k + 9] for k in range(0, 128, 16))


def side_cells(game, side):
    """The player's cells, oldest first (classic: ascending)."""
    if game == rules.TACTICTOE:
        out = []
        for shift in (8, 4, 0):
            c = (side >> shift) & 0xF
            if c != 0xF:
                out.append(c)
        return out
    return [c for c in range(9) if side >> c & 1]


def side_transform(game, side, sym):
    """The side with every mark moved by ``sym`` (one of SYMMETRIES); slot
    order is unchanged."""
    if game == rules.TACTICTOE:
        out = 0
        for shift in (8, 4, 0):
            c = (side >> shift) & 0xF
            out |= (0xF if c == 0xF else sym[c]) << shift
        return out
    out = 0
    for c in range(9):
        if side >> c & 1:
            out |= 1 << sym[c]
    return out


def decode(game, position24):
    """Split position24 into ``(xside, oside)``; raises ValueError if it is not
    a well-formed encoding (it does not check that play could reach it)."""
    if not 0 <= position24 < 1 << 24:
        raise ValueError("position24 out of range")
    if game == rules.TACTICTOE:
        sides = (position24 >> 12, position24 & 0xFFF)
        seen = 0
        for side in sides:
            ended = False
            for shift in (8, 4, 0):
                c = (side >> shift) & 0xF
                if c == 0xF:
                    ended = True
                elif ended or c > 8 or seen >> c & 1:
                    raise ValueError("bad tactictoe position %06x" % position24)
                else:
                    seen |= 1 << c
        return sides
    if position24 >> 18:
        raise ValueError("bad classic position %06x" % position24)
    x = o = 0
    for c in range(9):
        v = (position24 >> (2 * (8 - c))) & 3
        if v == 1:
            x |= 1 << c
        elif v == 2:
            o |= 1 << c
        elif v == 3:
            raise ValueError("bad classic position %06x" % position24)
    return x, o


def marks(pos, player):
    """``player``'s cells in ``pos`` (a ``rules.Position``), oldest first."""
    return side_cells(pos.game, pos.sides[player])


def from_moves(game, moves):
    """The ``rules.Position`` after playing ``moves`` (cells) from the start."""
    pos = rules.Position(game)
    for cell in moves:
        pos.push(cell)
    return pos


def from_code(game, position24, turn):
    """The position a table record describes; ValueError if malformed."""
    xside, oside = decode(game, position24)
    if turn not in (rules.X, rules.O):
        raise ValueError("turn must be 0 (X) or 1 (O)")
    return rules.Position(game, xside, oside, turn)


def same(a, b):
    """True if two positions are the same game, marks (in age order) and
    side to move."""
    return a.game == b.game and a.turn == b.turn and a.sides == b.sides
