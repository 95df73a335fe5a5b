"""Reader for the solved-position table on flash (docs/table-format.md).

The table is never loaded into RAM. Opening it reads the whole file once
(``tablecheck``), checking it (header, size, CRC; a ``TableError`` says
exactly what is wrong) and keeping a small index: the key of every
``BUCKET``-th record, 114 keys (456 bytes) for tactic-toe. A lookup finds
the bucket its key falls in from the index, reads that bucket's records (one
seek, one read of at most 512 bytes, into a buffer the tables share) and
searches them there; a lookup in the bucket already read reads nothing. A
lookup allocates nothing, except the first after the other table was used:
only one table keeps its file open, so that one reopens its own.
"""

from micropython import const

from . import rules

MAGIC = b"TTTB"
VERSION = const(1)
HEADER_SIZE = const(16)
RECORD_SIZE = const(4)
_HEADER = ">4sBBHII"  # magic, version, game, reserved, count, crc32
BUCKET = const(128)  # records per bucket: the index holds every BUCKET-th key
# The longest win or loss in each game's table, in plies (value7's d), by
# rules.GAMES order: what the checks of a record's value allow.
LONGEST = (5, 17)
# Where every install puts the tables, from the flash's root: beside the
# package's code in /lib, as mip installs a package's files.
TABLES = "lib/tactictoe"


def path(folder, game):
    """The table file of ``game`` (a name in ``rules.GAMES``) on the flash
    whose root is ``folder`` ("" on a board)."""
    return (folder + "/" if folder else "") + TABLES + "/" + game + ".tbl"

# The last bucket read, by any table (one lookup at a time): which table,
# which bucket, and its records; the three bytes a lookup searches for; and
# the table whose file is open (a board's open file holds a 1 KiB cache, so
# of the tables opened by path only the last one used keeps its file open).
_held = [None, -1, bytearray(RECORD_SIZE * BUCKET), bytearray(3), None]  # type: list


class TableError(Exception):
    """The table file can't be used; the message says why. Each kind of bad
    file has its own message (docs/table-format.md lists them): one class
    rather than seven keeps the reader small in RAM."""


try:
    from binascii import crc32
except ImportError:  # binascii.crc32 is optional in MicroPython builds
    from .crc32 import crc32  # noqa: F401 (re-exported: tablecheck imports it from here)


class Table:
    """An open, validated table.

    :param source: a path (only one such table keeps its file open: the
        others open theirs again when they need it), or a binary file object
        with ``seek`` and ``readinto`` (the Table then does not close it).
    :param game: the game the caller expects (``rules.CLASSIC`` or
        ``rules.TACTICTOE``); None accepts either.
    :param check_crc: verify the CRC-32 of the records while opening.
    """

    def __init__(self, source, game=None, check_crc=True):
        self._own = isinstance(source, str)
        self._path = source if self._own else None
        self._f = None
        self._f = self._file() if self._own else source
        try:
            from . import tablecheck

            _held[0] = None  # the check reads through the bucket buffer
            self.game, self.count, self.crc, self.size, self._index = tablecheck.check(
                self._f, game, check_crc, _held[2])
        except BaseException:
            self.close()
            raise

    def _file(self):
        f = self._f
        if f is None:
            if self._path is None:
                raise ValueError("the table is closed")
            held = _held
            other = held[4]
            if other is not None and other._f is not None:
                other._f.close()
                other._f = None
                import gc

                gc.collect()  # its RAM is free now, for this one's file
            f = self._f = open(self._path, "rb")
            held[4] = self
        return f

    def close(self):
        """Close the table's file (if it opened it); lookups fail after."""
        if _held[0] is self:
            _held[0] = None
        if _held[4] is self:
            _held[4] = None
        if self._own and self._f is not None:
            self._f.close()
        self._f = None
        self._path = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def lookup(self, key):
        """value7 stored for ``key``, or -1 if there is no such record."""
        index = self._index
        hi = len(index)
        if not hi or key < index[0] or key >> 25:
            return -1
        lo = 0  # the last bucket whose first key is <= key
        while hi - lo > 1:
            mid = (lo + hi) >> 1
            if index[mid] <= key:
                lo = mid
            else:
                hi = mid
        first = lo * BUCKET
        end = RECORD_SIZE * min(BUCKET, self.count - first)
        held = _held
        b = held[2]
        if held[0] is not self or held[1] != lo:
            held[0] = None
            f = self._file()
            f.seek(HEADER_SIZE + RECORD_SIZE * first)
            if f.readinto(b) < end:
                raise TableError("table file shrank while open")
            held[0] = self
            held[1] = lo
        # The record's first three bytes are the position: find them in the
        # bucket (a search in C, not a bisection in Python), at the start of
        # a record, with the player to move in the fourth.
        t = held[3]
        t[0] = key >> 17
        t[1] = key >> 9 & 0xFF
        t[2] = key >> 1 & 0xFF
        turn = key & 1
        j = -1
        while True:
            j = b.find(t, j + 1, end)
            if j < 0:
                return -1
            if not j & 3 and b[j + 3] >> 7 == turn:
                return b[j + 3] & 0x7F

    def check_game(self, game):
        """TableError unless this is ``game``'s table."""
        if game != self.game:
            raise TableError("table is for %s, position is %s" % (rules.GAMES[self.game], rules.GAMES[game]))

    def need(self, code, turn):
        """value7 of the canonical position24 ``code`` with ``turn`` to move;
        TableError if the table has no record of it."""
        v = self.lookup(code << 1 | turn)
        if v < 0:
            raise TableError("table has no record for position %06x (%s to move)" % (code, rules.PLAYERS[turn]))
        return v

    def value(self, pos):
        """value7 of a non-terminal ``rules.Position`` for its side to move."""
        self.check_game(pos.game)
        return self.need(pos.canonical(), pos.turn)
