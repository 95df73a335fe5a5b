"""The background check of the tables after power-on: every record, in
order, a slice at a time between the game loop's steps (``loop.Runner``),
which unloads this module when the walk is over.

Opening a table (``tablecheck``) checks its header, size and CRC, but the
order and the values only at each bucket's first and last record: a full
pass costs about 840 ms on a Pico, too long for power-on. The walk checks
every record: the keys strictly ascend across the whole table (so two
records swapped, or one doubled, inside a bucket are caught), and every
value is one the game's table can hold (a draw, a win in an odd number of
plies or a loss in an even number, none longer than the game's longest).
"""

from . import rules
from .table import HEADER_SIZE, LONGEST, RECORD_SIZE


def walk(tables, wrong, records):
    """A generator: each ``next()`` checks the next ``records`` records
    (one read) and gives True; False once both tables are walked.

    :param tables: ``{game: table.Table or None}``; a table opened from a
        file object rather than a path is not walked.
    :param wrong: called as ``wrong(game, problem)`` for a table found
        wrong, ``problem`` worded as power-on's (``table PATH: ...``).

    It reads through a file of its own, never the Table's (whose position
    and bucket the AI's lookups rely on), into one buffer made here, so a
    slice allocates nothing."""
    b = bytearray(RECORD_SIZE * records)
    todo = []
    for game in (rules.CLASSIC, rules.TACTICTOE):
        t = tables.get(game)
        if t is not None and t._path:
            todo.append((game, t._path, t.count))
    del t
    for game, path, count in todo:
        longest = LONGEST[game]
        f = open(path, "rb")
        f.seek(HEADER_SIZE)
        prev = -1
        i = 0
        problem = None
        while i < count and problem is None:
            yield True
            n = min(len(b), RECORD_SIZE * (count - i))
            if f.readinto(b) < n:
                problem = "table file shrank while open"
                break
            for j in range(0, n, RECORD_SIZE):
                key = b[j] << 17 | b[j + 1] << 9 | b[j + 2] << 1 | b[j + 3] >> 7
                if key <= prev:
                    problem = "table records out of order at record %d" % (i + j // RECORD_SIZE)
                    break
                prev = key
                v = b[j + 3] & 0x7F
                # A win's plies are odd and a loss's even: the value's top
                # bit and its lowest agree (and 0x40, a win in 0, is none).
                if v and (v & 0x3F > longest or (v >> 6 ^ v) & 1):
                    problem = "table record %d has value %02x, no %s value" % (
                        i + j // RECORD_SIZE, v, rules.GAMES[game])
                    break
            i += n // RECORD_SIZE
        f.close()
        if problem:
            wrong(game, "table %s: %s" % (path, problem))
    yield False
