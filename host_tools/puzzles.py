"""Puzzles mined from the solved tables: positions where the side to move
wins in N plies, with one winning first move or two, graded and written as
``puzzles.bin`` (docs/puzzles.md), which ships beside the tables.

The tables are read through the firmware's own modules (``table``,
``rules``, ``ai``), so a puzzle says what the board's perfect player will
find: its value is the record's, and its first moves are counted with
``ai.move_values``, as the board's hints are.

The choice, all of it deterministic (the same tables give the same bytes):

- every record of a table whose side to move wins in ``SHORTEST`` (3) plies
  or more (a win in 1 is no puzzle: the mover only completes a line);
- with at most ``MOST_WINS`` (2) first moves that win, at any length;
- one per class of the same puzzle (``same``): the 8 symmetries and the
  colour swap (X's marks for O's, each keeping its age, and the other side
  to move), the first of the class in grade order;
- in grade order (``grade``): fewer plies first; then more winning first
  moves first (two ways to win are easier to find than one); then fewer
  losing first moves first (a wrong first move that loses is a trap; one
  that only draws forgives the miss, so a position where every other move
  loses is the hardest of its kind); then by the record's key;
- up to ``PER_PLIES`` (6) a game and a length, by preference (``rank``):
  a single winning first move, then a fastest one that is unique (the other
  slower), then two as fast; within a rank taken evenly from that grade
  order (the easiest, the hardest and the ones between), all of them when
  there are fewer.

Records are canonical (one per position up to the 8 symmetries) and every
record is a position play reaches from the empty board (``inspect
--verify`` proves it), so the puzzles are too.
"""

import struct
import zlib

from host_tools import outputs
from tactictoe import ai, rules, rules_extra, table, table_extra
from tactictoe import puzzles as reader

SHORTEST = 3  # plies: the shortest win a puzzle asks for
MOST_WINS = 2  # winning first moves a puzzle may have
PER_PLIES = 6  # puzzles a game and a length

# rank: how much a puzzle is preferred, best first
ONE_WIN = 0  # a single winning first move
ONE_FASTEST = 1  # the fastest winning first move is unique: the other is slower
TIED = 2  # two winning first moves, as fast as each other


class Puzzle:
    """One puzzle: the canonical position24 ``code`` of ``game`` with
    ``turn`` to move, who wins in ``plies``; ``wins`` and ``losses`` of its
    first moves win (at any length) and lose. ``rank`` (``ONE_WIN``,
    ``ONE_FASTEST`` or ``TIED``) is the miner's, not the file's: a Puzzle
    read back has None."""

    __slots__ = ("game", "code", "turn", "plies", "wins", "losses", "rank")

    def __init__(self, game, code, turn, plies, wins, losses, rank=None):
        self.game, self.code, self.turn, self.plies, self.wins, self.losses = game, code, turn, plies, wins, losses
        self.rank = rank

    def __eq__(self, other):
        return isinstance(other, Puzzle) and self.fields() == other.fields()

    def __repr__(self):
        return "Puzzle(%s, %06x, %s to move, wins in %d, %d winning and %d losing first moves)" % (
            rules.GAMES[self.game], self.code, rules.PLAYERS[self.turn], self.plies, self.wins, self.losses)

    def fields(self):
        return self.game, self.code, self.turn, self.plies, self.wins, self.losses

    def position(self):
        """The ``rules.Position``."""
        return rules_extra.from_code(self.game, self.code, self.turn)


def grade(p):
    """The sort key, easiest first (see the module doc)."""
    return p.plies, -p.wins, p.losses, p.code << 1 | p.turn


def same(p):
    """The key shared by every puzzle that is the same as ``p``: the
    smallest ``code << 1 | turn`` among the 16 images of its position (the 8
    symmetries, each with the colours kept or swapped: X's marks become O's
    and O's X's, each mark keeping its age, and the other side is to move).
    A swapped image is a win in as many plies, with as many winning and
    losing first moves, as the rules treat X and O alike after the first
    move."""
    xside, oside = rules_extra.decode(p.game, p.code)
    return min(p.code << 1 | p.turn, rules.canonical(p.game, oside, xside) << 1 | p.turn ^ 1)


def candidates(t):
    """Every Puzzle the open ``table.Table`` ``t`` offers, in record order,
    each with its ``rank``."""
    out = []
    for i in range(t.count):
        key, value = table_extra.record(t, i)
        plies = value & 0x3F
        if not value & ai.WIN or plies < SHORTEST:
            continue
        pos = rules_extra.from_code(t.game, key >> 1, key & 1)
        values = [v for _, v in ai.move_values(t, pos)]
        wins = sorted(v & 0x3F for v in values if v & ai.WIN)  # plies of each winning first move, fastest first
        if len(wins) > MOST_WINS:
            continue
        rank = ONE_WIN if len(wins) == 1 else ONE_FASTEST if wins[1] > wins[0] else TIED
        losses = sum(ai.outcome(v) < 0 for v in values)
        out.append(Puzzle(t.game, key >> 1, key & 1, plies, len(wins), losses, rank))
    return out


def spread(items, k):
    """At most ``k`` of ``items``, evenly spaced, the first and last among them."""
    n = len(items)
    if n <= k or k < 2:
        return list(items[:k])
    return [items[(i * (n - 1) + (k - 1) // 2) // (k - 1)] for i in range(k)]


def choose(items, k):
    """At most ``k`` of ``items`` (in grade order), the best rank first:
    ``spread`` over each rank in turn while places are left; in grade order."""
    out = []
    for rank in (ONE_WIN, ONE_FASTEST, TIED):
        out += spread([p for p in items if p.rank == rank], k - len(out))
    return sorted(out, key=grade)


def mine(tables):
    """The puzzles in file order: classic's then tactic-toe's, each easiest
    first, no two the same (``same``). ``tables``: ``{game: open
    table.Table}``."""
    out = []
    for game in sorted(tables):
        by_plies = {}
        seen = set()
        for p in sorted(candidates(tables[game]), key=grade):
            k = same(p)
            if k not in seen:  # (the first of its class in grade order: the smallest key)
                seen.add(k)
                by_plies.setdefault(p.plies, []).append(p)
        for plies in sorted(by_plies):
            out += choose(by_plies[plies], PER_PLIES)
    return out


def mine_files(folder):
    """``mine`` over the two table files in ``folder``; table.TableError or
    OSError as opening them gives."""
    import os

    tables = {}
    try:
        for game in (rules.CLASSIC, rules.TACTICTOE):
            tables[game] = table.Table(os.path.join(folder, rules.GAMES[game] + ".tbl"), game)
        return mine(tables)
    finally:
        for t in tables.values():
            t.close()


def pack(puzzles):
    """The bytes of a puzzles file holding ``puzzles`` (docs/puzzles.md)."""
    body = b"".join(bytes((p.game << 7 | p.turn << 6 | p.plies, p.code >> 16, p.code >> 8 & 0xFF,
                           p.code & 0xFF, p.wins << 4 | p.losses)) for p in puzzles)
    return struct.pack(reader._HEADER, reader.MAGIC, reader.VERSION, 0, len(puzzles), zlib.crc32(body)) + body


def unpack(data):
    """The Puzzles of a puzzles file's bytes, read by the firmware's reader
    (``reader.PuzzleError`` for a bad file)."""
    import io

    r = reader.Puzzles(io.BytesIO(data))
    out = []
    for i in range(len(r)):
        pos, plies = r.get(i)
        wins, losses = r.grade(i)
        out.append(Puzzle(pos.game, pos.code(), pos.turn, plies, wins, losses))
    return out


def first_wrong(data, tables):
    """None if every puzzle of the puzzles file ``data`` is what its game's
    table says, else one line naming the first wrong one: its position
    canonical, the table's value for it a win in its N plies for the side to
    move, its winning and losing first moves counted as ``ai.move_values``
    (the board's hints) counts them. ``tables``: ``{game: open Table}``,
    proven right (a game without one is left to the reader's checks).
    ``reader.PuzzleError`` if the board itself would refuse the file."""
    import io

    r = reader.Puzzles(io.BytesIO(data))
    for i in range(len(r)):
        pos, plies = r.get(i)
        t = tables.get(pos.game)
        if t is None:
            continue
        name = "puzzle %d (%s)" % (i + 1, rules.GAMES[pos.game])
        if pos.code() != pos.canonical():
            return "%s: position %06x is not in canonical form (%06x)" % (name, pos.code(), pos.canonical())
        v = t.lookup(pos.code() << 1 | pos.turn)
        if v != ai.WIN | plies:
            return "%s: the table has no win in %d plies for %s here (its value7 is %02x)" % (
                name, plies, rules.PLAYERS[pos.turn], v & 0xFF)
        moves = [ai.outcome(w) for _, w in ai.move_values(t, pos)]
        if (moves.count(1), moves.count(-1)) != r.grade(i):
            return "%s: %d winning and %d losing first moves, the file says %d and %d" % (
                (name, moves.count(1), moves.count(-1)) + r.grade(i))
    return None


def prove_files(data, folder):
    """``first_wrong`` against the tables in ``folder`` that are there (each
    proven first by ``verify``, as a flash proves it); table.TableError or
    OSError as opening them gives."""
    import os

    from host_tools import verify

    tables = {}
    try:
        for game in (rules.CLASSIC, rules.TACTICTOE):
            path = os.path.join(folder, rules.GAMES[game] + ".tbl")
            if not os.path.exists(path):
                continue
            with open(path, "rb") as f:
                blob = f.read()
            if verify.first_wrong(blob):
                continue  # a wrong table proves nothing (the tools refuse it on its own)
            tables[game] = table.Table(path, game)
        return first_wrong(data, tables)
    finally:
        for t in tables.values():
            t.close()


def write(path, puzzles):
    """Write the file whole or not at all (``outputs``), after the board's
    own reader has checked it; its size."""
    import io

    data = pack(puzzles)
    reader.Puzzles(io.BytesIO(data))  # (PuzzleError: a file the board would refuse is not written)
    outputs.write_file(path, data)
    return len(data)
