"""Reader for the solved-position table on flash (docs/table-format.md).

The table is never loaded into RAM: ``Table`` keeps the file open and finds a
position by binary search with seek/readinto into a 4-byte buffer, so a lookup
allocates nothing. Opening a table checks the whole file (header, size, CRC)
and raises a ``TableError`` subclass that says exactly what is wrong.
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
_CHUNK = const(512)  # bytes read at a time while checking the CRC


class TableError(Exception):
    """The table file can't be used; the message says why."""


class TruncatedTable(TableError):
    """The file is shorter than its header says."""


class BadMagic(TableError):
    """The file does not start with b'TTTB'."""


class BadVersion(TableError):
    """A format version this reader does not know."""


class WrongGame(TableError):
    """A valid table, but for another game (or an unknown game number)."""


class CountMismatch(TableError):
    """The file holds more bytes than the header's record count."""


class BadChecksum(TableError):
    """The records do not match the header's CRC-32: the file is corrupt."""


class MissingPosition(TableError):
    """A legal position the table should hold but does not."""


def pack_header(game, count, crc):
    """The 16 header bytes for ``count`` records with CRC-32 ``crc``."""
    return struct.pack(_HEADER, MAGIC, VERSION, game, 0, count, crc)


def _crc32_soft(data, crc=0):
    """CRC-32 (zlib polynomial) for ports built without binascii.crc32.

    Nibble-table version kept in two 16-bit halves, so every intermediate is
    a small int even on 32-bit ports (no big-int allocation per byte)."""
    hi = ((crc >> 16) & 0xFFFF) ^ 0xFFFF
    lo = (crc & 0xFFFF) ^ 0xFFFF
    for b in data:
        lo ^= b
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ _CRC_LO[i]
        hi = (hi >> 4) ^ _CRC_HI[i]
        i = lo & 15
        lo = ((lo >> 4) | ((hi & 15) << 12)) ^ _CRC_LO[i]
        hi = (hi >> 4) ^ _CRC_HI[i]
    return ((hi ^ 0xFFFF) << 16) | (lo ^ 0xFFFF)


# CRC-32 of each nibble value, split into high and low 16 bits.
_CRC_HI = (
    0x0000, 0x1DB7, 0x3B6E, 0x26D9, 0x76DC, 0x6B6B, 0x4DB2, 0x5005,
    0xEDB8, 0xF00F, 0xD6D6, 0xCB61, 0x9B64, 0x86D3, 0xA00A, 0xBDBD,
)
_CRC_LO = (
    0x0000, 0x1064, 0x20C8, 0x30AC, 0x4190, 0x51F4, 0x6158, 0x713C,
    0x8320, 0x9344, 0xA3E8, 0xB38C, 0xC2B0, 0xD2D4, 0xE278, 0xF21C,
)

try:
    from binascii import crc32
except ImportError:  # binascii.crc32 is optional in MicroPython builds
    crc32 = _crc32_soft


class Table:
    """An open, validated table.

    :param source: a path, or a binary file object with ``seek`` and
        ``readinto`` (the Table then does not close it).
    :param game: the game the caller expects (``rules.CLASSIC``,
        ``rules.TACTICTOE`` or its name); None accepts either.
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
        if isinstance(expected_game, str):
            expected_game = rules.game_number(expected_game)
        f = self._f
        size = f.seek(0, 2)
        if size < HEADER_SIZE:
            raise TruncatedTable("table truncated: %d bytes, the header alone is %d" % (size, HEADER_SIZE))
        head = bytearray(HEADER_SIZE)
        f.seek(0)
        if f.readinto(head) != HEADER_SIZE:
            raise TruncatedTable("table truncated: could not read the header")
        magic, version, game, reserved, count, crc = struct.unpack(_HEADER, head)
        if magic != MAGIC:
            raise BadMagic("not a table file: starts with %r, expected %r" % (bytes(magic), MAGIC))
        if version != VERSION:
            raise BadVersion("table format version %d is not supported (this reader reads %d)" % (version, VERSION))
        if game >= len(rules.GAMES):
            raise WrongGame("table is for unknown game number %d" % game)
        if expected_game is not None and game != expected_game:
            raise WrongGame("table is for %s, expected %s" % (rules.GAMES[game], rules.GAMES[expected_game]))
        if reserved != 0:
            raise BadVersion("table header reserved field is %d, expected 0" % reserved)
        want = HEADER_SIZE + RECORD_SIZE * count
        if size < want:
            raise TruncatedTable("table truncated: header says %d records (%d bytes), file has %d bytes" % (count, want, size))
        if size > want:
            raise CountMismatch("record count mismatch: header says %d records (%d bytes), file has %d bytes" % (count, want, size))
        if check_crc:
            chunk = bytearray(_CHUNK)
            view = memoryview(chunk)
            got = 0
            left = size - HEADER_SIZE
            while left > 0:
                n = f.readinto(view[:min(left, _CHUNK)])
                if not n:
                    raise TruncatedTable("table truncated while reading")
                got = crc32(view[:n], got)
                left -= n
            got &= 0xFFFFFFFF
            if got != crc:
                raise BadChecksum("table corrupt: CRC-32 of records is %08x, header says %08x" % (got, crc))
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
            raise TruncatedTable("table file shrank while open")
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
            raise WrongGame("table is for %s, position is %s" % (rules.GAMES[self.game], rules.GAMES[pos.game]))
        v = self.lookup(pos.key())
        if v < 0:
            raise MissingPosition("table has no record for position %06x (%s to move)" % (pos.canonical(), rules.PLAYERS[pos.turn]))
        return v
