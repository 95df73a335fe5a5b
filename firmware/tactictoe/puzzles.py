"""Reader for the puzzles file on flash (docs/puzzles.md): positions where
the side to move wins in N plies, easiest first, mined from the tables by
``python -m host_tools puzzles``.

The file is small (12 bytes of header and 5 a puzzle: 292 bytes for the 56
shipped), so opening it reads it whole, checks it (a ``PuzzleError`` says
what is wrong) and closes it: holding its bytes costs less RAM than an open
file's cache. ``get`` then allocates only the Position it returns.
"""

from micropython import const

from . import rules

MAGIC = b"TTTP"
VERSION = const(1)
HEADER_SIZE = const(12)
RECORD_SIZE = const(5)
MOST = const(200)  # puzzles a file may hold: what a reader reads into RAM
_HEADER = ">4sBBHI"  # magic, version, reserved, count, crc32
NAME = "puzzles.bin"

try:
    from binascii import crc32
except ImportError:  # binascii.crc32 is optional in MicroPython builds
    from .crc32 import crc32


def path(folder=""):
    """The puzzles file on the flash whose root is ``folder`` ("" on a
    board): beside the tables, in lib/tactictoe."""
    from .table import TABLES

    return (folder + "/" if folder else "") + TABLES + "/" + NAME


class PuzzleError(ValueError):
    """The puzzles file can't be used; the message says why (docs/puzzles.md
    lists each one)."""


class Puzzles:
    """An open, checked puzzles file: ``len(p)`` puzzles, index 0 the
    easiest; each game's run by ``span(game)``.

    :param source: a path, or a binary file object with ``read`` (the
        Puzzles does not close it).
    """

    def __init__(self, source):
        if isinstance(source, str):
            try:
                with open(source, "rb") as f:
                    self._data = _read(f)
            except OSError as e:  # missing; or a folder by that name, a failing flash
                from .score import missing, words

                if missing(e, source):
                    raise PuzzleError("%s not found" % source)
                raise PuzzleError("%s can't be read (%s)" % (source, words(e)))
        else:
            self._data = _read(source)

    def __len__(self):
        return len(self._data) // RECORD_SIZE

    def get(self, i):
        """``(pos, plies)``: puzzle ``i`` as a ``rules.Position`` (its side to
        move wins in ``plies`` plies). IndexError past the end."""
        if not 0 <= i < len(self):
            raise IndexError("puzzle index out of range")
        d = self._data
        j = i * RECORD_SIZE
        b = d[j]
        game = b >> 7
        code = d[j + 1] << 16 | d[j + 2] << 8 | d[j + 3]
        if game == rules.TACTICTOE:
            x, o = code >> 12, code & 0xFFF
        else:
            x = o = 0
            for c in range(9):
                v = code >> (16 - 2 * c) & 3
                if v == 1:
                    x |= 1 << c
                elif v == 2:
                    o |= 1 << c
        return rules.Position(game, x, o, b >> 6 & 1), b & 0x3F

    def grade(self, i):
        """``(wins, losses)``: how many of puzzle ``i``'s first moves win
        (at any length) and how many lose."""
        b = self._data[i * RECORD_SIZE + 4]
        return b >> 4, b & 15

    def span(self, game):
        """``(first, end)``: the indexes of ``game``'s puzzles, easiest
        first (classic's come before tactic-toe's)."""
        d = self._data
        n = len(self)
        first = 0
        while first < n and d[first * RECORD_SIZE] >> 7 < game:
            first += 1
        end = first
        while end < n and d[end * RECORD_SIZE] >> 7 == game:
            end += 1
        return first, end


def load(where=""):
    """``(puzzles, problem)``: the open Puzzles and None, or None and one
    line saying why not (``PATH: reason``, or ``PATH not found``), as
    ``startup.load_tables`` gives for the tables.

    :param where: a path ending in ``.bin``, else the folder that is the
        flash's root ("" on a board: lib/tactictoe/puzzles.bin).
    """
    p = where if where.endswith(".bin") else path(where)
    try:
        return Puzzles(p), None
    except PuzzleError as e:
        msg = str(e)
        return None, msg if msg.startswith(p) else "%s: %s" % (p, msg)


def _read(f):
    """The records of the puzzles file ``f``, checked."""
    import struct

    head = f.read(HEADER_SIZE)
    if len(head) < HEADER_SIZE:
        raise PuzzleError("truncated: %d bytes, the header alone is %d" % (len(head), HEADER_SIZE))
    magic, version, reserved, count, crc = struct.unpack(_HEADER, head)
    if magic != MAGIC:
        raise PuzzleError("not a puzzles file: starts with %r" % (magic,))
    if version != VERSION:
        raise PuzzleError("format version %d is not supported" % version)
    if reserved:
        raise PuzzleError("header reserved field is %d, expected 0" % reserved)
    if count > MOST:
        raise PuzzleError("header says %d puzzles, at most %d" % (count, MOST))
    size = RECORD_SIZE * count
    data = f.read(size + 1)  # one more: a longer file says so
    if len(data) < size:
        raise PuzzleError("truncated: header says %d puzzles (%d bytes), the file has %d"
                          % (count, HEADER_SIZE + size, HEADER_SIZE + len(data)))
    if len(data) > size:
        raise PuzzleError("count mismatch: header says %d puzzles (%d bytes), the file is longer"
                          % (count, HEADER_SIZE + size))
    got = crc32(data) & 0xFFFFFFFF
    if got != crc:
        raise PuzzleError("corrupt: CRC-32 of records is %08x, header says %08x" % (got, crc))
    # Each puzzle checked as a table's record is: a position the game can
    # reach and is not over, with an answer it can have. Numbered from 1,
    # as the board says them.
    prev = 0
    for i in range(count):
        j = i * RECORD_SIZE
        b = data[j]
        n = b & 0x3F
        w = data[j + 4]
        if n < 3 or not n & 1 or not 0 < w >> 4 <= 9 or w & 15 > 9:
            raise PuzzleError("puzzle %d: not a win in 3 or more plies with 1-9 winning moves" % (i + 1))
        order = (b >> 7) << 6 | n  # game, then plies: never down
        if order < prev:
            raise PuzzleError("puzzle %d: out of order (its game, or its plies within the game, go down)" % (i + 1))
        prev = order
        why = problem(b >> 7, data[j + 1] << 16 | data[j + 2] << 8 | data[j + 3], b >> 6 & 1, n, w >> 4, w & 15)
        if why:
            raise PuzzleError("puzzle %d (%s): %s" % (i + 1, rules.GAMES[b >> 7], why))
    return data


def _slots(side):
    """``(mask, marks)`` of a tactic-toe side (three 4-bit slots, oldest
    first), or ``(-1, why)`` when no play makes it."""
    mask = k = 0
    for shift in (8, 4, 0):
        c = side >> shift & 0xF
        if c == 0xF:
            continue
        if c > 8:
            return -1, "a slot coded %d (cells are 0-8, an empty slot 15)" % c
        if k < 8 - shift >> 2:
            return -1, "a mark after an empty slot"
        if mask >> c & 1:
            return -1, "cell %d twice" % c
        mask |= 1 << c
        k += 1
    return mask, k


def _count(mask):
    k = 0
    while mask:
        mask &= mask - 1
        k += 1
    return k


def position(game, code, turn):
    """``(X's marks, O's marks)`` of ``game``'s position24 ``code`` with
    ``turn`` to move, or a string saying why play never reaches it or
    why it is over. Legal (each cell once, each side's marks counted as
    the turn says) and without a line is reachable (docs/puzzles.md)."""
    if game == rules.TACTICTOE:
        x, nx = _slots(code >> 12)
        if x < 0:
            return "X has " + nx
        o, no = _slots(code & 0xFFF)
        if o < 0:
            return "O has " + no
        both = x & o
        if both:
            c = 0
            while not both >> c & 1:
                c += 1
            return "cell %d is both X's and O's" % c
    else:
        if code >> 18:
            return "bits above the 9 cells are set"
        x = o = 0
        for c in range(9):
            v = code >> 16 - 2 * c & 3
            if v == 3:
                return "cell %d is coded 3 (0 empty, 1 X, 2 O)" % c
            x |= (v & 1) << c
            o |= (v >> 1) << c
        nx, no = _count(x), _count(o)
    if nx != no + turn and not (game == rules.TACTICTOE and nx == no == 3):
        return "X has %d marks and O %d, so %s can't be to move" % (nx, no, rules.PLAYERS[turn])
    if rules.has_line(x) or rules.has_line(o):
        return "%s already has a line: the game is over" % rules.PLAYERS[rules.O if rules.has_line(o) else rules.X]
    if nx + no == 9:
        return "the board is full: the game is over"
    return nx, no


def problem(game, code, turn, plies, wins, losses):
    """Why ``game``'s position24 ``code`` with ``turn`` to move, won by it
    in ``plies`` plies with ``wins`` winning and ``losses`` losing first
    moves, can't be a puzzle, or None: its ``position`` must be one play
    reaches and not over, and its answer possible (a line in reach, no
    longer than the game's longest win, no more first moves than empty
    cells). The tables prove the rest on the host (host_tools/puzzles.py)."""
    from .table import LONGEST

    marks = position(game, code, turn)
    if isinstance(marks, str):
        return marks
    mine = marks[turn]
    empty = 9 - marks[0] - marks[1]
    if plies > LONGEST[game]:
        return "a win in %d plies, longer than any %s win (%d)" % (plies, rules.GAMES[game], LONGEST[game])
    if mine + (plies + 1) // 2 < 3:
        return "%s has %d marks: no line of 3 in %d plies" % (rules.PLAYERS[turn], mine, plies)
    if game == rules.CLASSIC and plies > empty:
        return "a win in %d plies with %d empty cells" % (plies, empty)
    if wins + losses > empty:
        return "%d winning and %d losing first moves, with %d empty cells" % (wins, losses, empty)
    return None
