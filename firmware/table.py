"""Reader for the solved-position table on flash (docs/table-format.md).

The table is never loaded into RAM: ``Table`` keeps the file open and finds a
position by binary search with seek/readinto into a 4-byte buffer, so a lookup
allocates nothing. Opening a table checks the whole file (header, size, CRC)
and raises a ``TableError`` that says exactly what is wrong.
"""

import struct

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


import rules

MAGIC = b"TTTB"
VERSION = const(1)
HEADER_SIZE = const(16)
RECORD_SIZE = const(4)
_HEADER = ">4sBBHII"  # magic, version, game, reserved, count, crc32
_CHUNK = const(128)  # bytes read at a time while checking the CRC


class TableError(Exception):
    """The table file can't be used; the message says why. Each kind of bad
    file has its own message (docs/table-format.md lists them): one class
    rather than seven keeps the reader small in RAM."""


def pack_header(game, count, crc):
    """The 16 header bytes for ``count`` records with CRC-32 ``crc``."""
    return struct.pack(_HEADER, MAGIC, VERSION, game, 0, count, crc)


try:
    from binascii import crc32
except ImportError:  # binascii.crc32 is optional in MicroPython builds
    from crc32 import crc32


class Table:
    """An open, validated table.

    :param source: a path, or a binary file object with ``seek`` and
        ``readinto`` (the Table then does not close it).
    :param game: the game the caller expects (``rules.CLASSIC`` or
        ``rules.TACTICTOE``); None accepts either.
    :param check_crc: verify the CRC-32 of the records while opening.
    """

    def __init__(self, source, game=None, check_crc=True):
        self._own = isinstance(source, str)
        self._f = open(source, "rb") if self._own else source
        self._buf = bytearray(RECORD_SIZE)
        try:
            self._validate(game, check_crc)
        except BaseException:
            self.close()
            raise

    def _validate(self, expected_game, check_crc):
        f = self._f
        size = f.seek(0, 2)
        if size < HEADER_SIZE:
            raise TableError("table truncated: %d bytes, the header alone is %d" % (size, HEADER_SIZE))
        head = bytearray(HEADER_SIZE)
        f.seek(0)
        if f.readinto(head) != HEADER_SIZE:
            raise TableError("table truncated: could not read the header")
        magic, version, game, reserved, count, crc = struct.unpack(_HEADER, head)
        if magic != MAGIC:
            raise TableError("not a table file: starts with %r, expected %r" % (bytes(magic), MAGIC))
        if version != VERSION:
            raise TableError("table format version %d is not supported (this reader reads %d)" % (version, VERSION))
        if game >= len(rules.GAMES):
            raise TableError("table is for unknown game number %d" % game)
        if expected_game is not None and game != expected_game:
            raise TableError("table is for %s, expected %s" % (rules.GAMES[game], rules.GAMES[expected_game]))
        if reserved != 0:
            raise TableError("table header reserved field is %d, expected 0" % reserved)
        want = HEADER_SIZE + RECORD_SIZE * count
        if size < want:
            raise TableError("table truncated: header says %d records (%d bytes), file has %d bytes" % (count, want, size))
        if size > want:
            raise TableError("record count mismatch: header says %d records (%d bytes), file has %d bytes" % (count, want, size))
        if check_crc:
            chunk = bytearray(_CHUNK)
            view = memoryview(chunk)
            got = 0
            left = size - HEADER_SIZE
            while left > 0:
                n = f.readinto(view[:min(left, _CHUNK)])
                if not n:
                    raise TableError("table truncated while reading")
                got = crc32(view[:n], got)
                left -= n
            got &= 0xFFFFFFFF
            if got != crc:
                raise TableError("table corrupt: CRC-32 of records is %08x, header says %08x" % (got, crc))
        self.game = game
        self.count = count
        self.crc = crc
        self.size = size

    def close(self):
        if self._own and self._f is not None:
            self._f.close()
        self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _probe(self, i):
        # Reads record i into self._buf and returns its key. The key is built
        # from bytes rather than a u32 so it stays a small int on 32-bit ports:
        # a probe allocates nothing.
        b = self._buf
        self._f.seek(HEADER_SIZE + RECORD_SIZE * i)
        if self._f.readinto(b) != RECORD_SIZE:
            raise TableError("table file shrank while open")
        return (b[0] << 17) | (b[1] << 9) | (b[2] << 1) | (b[3] >> 7)

    def record(self, i):
        """``(key, value7)`` of record ``i``; key = ``position24 << 1 | turn``."""
        if not 0 <= i < self.count:
            raise IndexError("record index out of range")
        return self._probe(i), self._buf[3] & 0x7F

    def lookup(self, key):
        """value7 stored for ``key``, or -1 if there is no such record."""
        lo, hi = 0, self.count - 1
        while lo <= hi:
            mid = (lo + hi) >> 1
            k = self._probe(mid)
            if k < key:
                lo = mid + 1
            elif k > key:
                hi = mid - 1
            else:
                return self._buf[3] & 0x7F
        return -1

    def value(self, pos):
        """value7 of a non-terminal ``rules.Position`` for its side to move."""
        if pos.game != self.game:
            raise TableError("table is for %s, position is %s" % (rules.GAMES[self.game], rules.GAMES[pos.game]))
        v = self.lookup(pos.key())
        if v < 0:
            raise TableError("table has no record for position %06x (%s to move)" % (pos.canonical(), rules.PLAYERS[pos.turn]))
        return v
