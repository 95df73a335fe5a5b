"""The fallback's book (``BOOKS`` in ``firmware/tactictoe/fallback.py``),
made from the solved tables and the fallback's own search: ``python -m
host_tools fallback-book`` rewrites it in place.

The book holds, for canonical positions (one per position up to the 8
symmetries), the moves the perfect player may make there, as cells of the
canonical image: every move whose value is the best (the fastest win, a
draw, the slowest loss). A position is in it when:

- classic: it has one or two marks (``CLASSIC_MARKS``): the search is
  exact, but there it looks at the most positions (up to 545, about 200 ms
  on a Pico), and there are only 15 such positions;
- either game: a move the search alone (``fallback.move(...,
  use_book=False)``) may pick is worse than the best: from a draw it loses,
  from a win it fails to win or wins slower than the fastest, from a loss
  it loses faster than the slowest; in tactic-toe those are the traps,
  wins and defences longer than its position budget sees (none in classic,
  whose search is exact).

The book lives in fallback.py itself, not in a module of its own: a module
costs the board about 300 bytes of RAM more. It can't drift from the
search: change the search or its budget and ``tests/test_fallback.py``
finds the committed book is no longer what this makes. The tables are read through the firmware's own modules
(``table``, ``ai``), as the board's perfect player reads them.
"""

import os

from host_tools import inputs, outputs
from tactictoe import ai, fallback, rules, rules_extra, table, table_extra

CLASSIC_MARKS = 2  # classic positions with this many marks or fewer are all in the book
PER_LINE = 5  # records a line of the module

START = "BOOKS = (\n"  # the block ``rewrite`` replaces, from this line
END = "\n)\n"  # to this one


class BookError(ValueError):
    """The file to rewrite has no BOOKS block."""


class _Picks:
    """An rng stand-in that records every move the fallback could pick."""

    def choice(self, seq):
        self.seen = list(seq)
        return seq[0]


def _mask(cells):
    out = 0
    for c in cells:
        out |= 1 << c
    return out


def entries(t):
    """The book's records for the open ``table.Table`` ``t``, in key order:
    [(position24, turn, mask)]."""
    game = t.game
    out = []
    for i in range(t.count):
        key, value = table_extra.record(t, i)
        code, turn = key >> 1, key & 1
        pos = rules_extra.from_code(game, code, turn)
        if pos.is_over() or not pos.occupied():
            continue  # no move to make, or the opening rule's
        vals = dict(ai.move_values(t, pos))
        top = max(map(ai.score, vals.values()))
        best = _mask(c for c, v in vals.items() if ai.score(v) == top)
        marks = bin(rules.side_mask(game, pos.sides[0]) | rules.side_mask(game, pos.sides[1])).count("1")
        if game == rules.CLASSIC and marks <= CLASSIC_MARKS:
            out.append((code, turn, best))
            continue
        picks = _Picks()
        fallback.move(pos, picks, use_book=False)  # pos is canonical: its cells are the image's
        if _mask(picks.seen) & ~best:
            out.append((code, turn, best))
    return out


def pack(records):
    """The bytes of a game's book."""
    return b"".join(bytes((code >> 16, code >> 8 & 0xFF, code & 0xFF, turn << 7 | mask >> 8, mask & 0xFF))
                    for code, turn, mask in records)


def source(books):
    """The text of the BOOKS block, from ``{game: records}``."""
    lines = [START]
    for game in (rules.CLASSIC, rules.TACTICTOE):
        data = pack(books[game])
        lines.append("    # %s: %d positions, %d bytes\n" % (rules.GAMES[game], len(books[game]), len(data)))
        lines.append("    (\n")
        step = 5 * PER_LINE
        for i in range(0, len(data), step):
            lines.append('        b"%s"\n' % "".join("\\x%02x" % b for b in data[i:i + step]))
        lines.append("    ),\n")
    lines.append(END.lstrip("\n"))
    return "".join(lines)


def _block(text):
    """Where fallback.py's BOOKS block is in ``text``: ``(start, end)``."""
    a = text.find(START)
    b = text.find(END, a)
    if a < 0 or b < 0 or (a and text[a - 1] != "\n"):
        raise BookError("no BOOKS = ( ... ) block to rewrite")
    return a, b + len(END)


def rewrite(text, books):
    """``text`` (fallback.py's) with its BOOKS block made from ``books``."""
    a, b = _block(text)
    return text[:a] + source(books) + text[b:]


def make_files(folder):
    """``{game: records}`` from the two table files in ``folder``;
    table.TableError or OSError as opening them gives."""
    tables = {}
    try:
        for game in (rules.CLASSIC, rules.TACTICTOE):
            tables[game] = table.Table(os.path.join(folder, rules.GAMES[game] + ".tbl"), game)
        return {game: entries(t) for game, t in tables.items()}
    finally:
        for t in tables.values():
            t.close()


def read(path):
    """The text of the fallback.py at ``path``, which must have a BOOKS block
    to rewrite: BookError, or OSError as reading it gives (NotAFile for a
    FIFO or a device). Asked before the search's long work, and again by
    ``write``."""
    inputs.check(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise BookError("not a Python source file (not UTF-8 text)") from None
    _block(text)
    return text


def write(path, books):
    """Rewrite the BOOKS block of the fallback.py at ``path``, the file whole
    or not at all (``outputs``); BookError, or OSError, as ``read``."""
    outputs.write_file(path, rewrite(read(path), books).encode())
