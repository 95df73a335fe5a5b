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

    It reads through the Table's own file (a board keeps one table file
    open at a time: a second costs RAM), seeking before each read as the
    AI's lookups do, into one buffer made here, never the AI's bucket, so a
    slice allocates nothing and the AI's cached bucket stays right."""
    b = bytearray(RECORD_SIZE * records)
    todo = []
    for game in (rules.CLASSIC, rules.TACTICTOE):
        t = tables.get(game)
        if t is not None and t._path:
            todo.append((game, t))
    del t
    for game, t in todo:
        longest = LONGEST[game]
        path, count = t._path, t.count
        prev = -1
        i = 0
        problem = None
        while i < count and problem is None:
            yield True
            if t._path is None:  # closed meanwhile (the game fell back): nothing left to check
                break
            n = min(len(b), RECORD_SIZE * (count - i))
            f = t._file()
            f.seek(HEADER_SIZE + RECORD_SIZE * i)
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
        if problem:
            wrong(game, "table %s: %s" % (path, problem))
    yield False
