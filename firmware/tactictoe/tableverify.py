"""Prove a table right, record by record, beyond what opening it checks
(header, count, order a bucket at a time, CRC): every record's key is a
canonical position of the table's game that play can reach and that is not
over, every value is the best of its moves' values as ``ai`` reads them from
the same table (retrograde consistency), and every position reachable from
the empty board has its record.

One source for the host (``inspect --verify``, ``flash``) and the board
(``check.tables()``): it streams the file a record at a time, so it runs in a
board's small heap. The game never imports it.
"""

from . import ai
from . import rules
from . import rules_extra
from . import table
from . import table_extra


def describe(value, other="the other side"):
    """value7, for its owner, in moves as the board counts them (the
    winner's own, docs/table-format.md): 'wins in 7 moves' (13 plies),
    'draw' or 'loses: X wins in 6 moves' (12 plies; ``other`` names the
    winner)."""
    if value & ai.WIN:
        return "wins in %s" % moves((value & 0x3F) + 1 >> 1)
    return "loses: %s wins in %s" % (other, moves(value >> 1)) if value else "draw"


def moves(n):
    """'1 move', '7 moves'."""
    return "%d move%s" % (n, "" if n == 1 else "s")


def first_wrong(t, progress=None):
    """None if the open ``table.Table`` ``t`` is right, else one line naming
    its first wrong record and what is wrong. ``progress(done, count)`` is
    called every 1024 records."""
    game = t.game
    name = rules.GAMES[game]
    prev = -1
    for i in range(t.count):
        if progress and not i & 1023:
            progress(i, t.count)
        key, value = table_extra.record(t, i)
        code, turn = key >> 1, key & 1
        where = "record %d (position %06x, %s to move)" % (i, code, rules.PLAYERS[turn])
        if key <= prev:
            return "%s: out of order (the records must strictly ascend)" % where
        prev = key
        try:
            pos = rules_extra.from_code(game, code, turn)
        except ValueError:
            return "%s: not a %s position" % (where, name)
        if pos.canonical() != code:
            return "%s: not in canonical form (that is %06x)" % (where, pos.canonical())
        nx = len(rules_extra.marks(pos, rules.X))
        no = len(rules_extra.marks(pos, rules.O))
        if not (nx - no == turn or (game == rules.TACTICTOE and nx == no == 3)):
            return "%s: X has %d marks and O %d: play can't reach it" % (where, nx, no)
        if pos.is_over():
            return "%s: the game is over there, so it has no value" % where
        try:
            moves = ai.move_values(t, pos)
        except table.TableError as e:
            return "%s: one of its moves leads where the table has nothing (%s)" % (where, e)
        best = max((v for _, v in moves), key=ai.score)
        if value != best:
            return "%s: says %s, but its best move %s" % (where, describe(value), describe(best))
    start = rules.Position(game)
    if t.lookup(start.canonical() << 1 | start.turn) < 0:
        return "the empty board has no record"
    if progress:
        progress(t.count, t.count)
    return None
