"""Reader for the puzzles file on flash (docs/puzzles.md): positions where
the side to move wins in N plies, easiest first, mined from the tables by
``python -m host_tools puzzles``.

The file is small (12 bytes of header and 5 a puzzle: 287 bytes for the 55
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
                import errno

                if e.args and e.args[0] == errno.ENOENT:
                    raise PuzzleError("%s not found" % source)
                from .oserrors import missing, words  # (loaded only to say it)

                if missing(e, source):  # (the WebAssembly port's own numbers)
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
    finally:
        from .main import unload

        unload("puzzlecheck")  # the checks are done: let their RAM go


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
    from . import puzzlecheck  # (unloaded by load(): power-on needs it once)

    puzzlecheck.records(data, count)
    return data
