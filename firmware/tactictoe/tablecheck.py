"""Opening a table: the checks of docs/table-format.md and the index, in one
pass over the file. ``table.Table`` imports this when it opens a file; the
board opens its tables once, at power-on, and ``startup`` unloads this
module afterwards (its code and messages are not needed again).
"""

import struct
from array import array

from .table import BUCKET, HEADER_SIZE, LONGEST, MAGIC, RECORD_SIZE, VERSION, _HEADER, TableError, crc32

from . import rules

# Records in each game's table (rules.GAMES order): its canonical positions
# that are not over, with each side to move that can arise.
COUNTS = (627, 14518)


def key_at(b, j):
    """The key (``position24 << 1 | turn``) of the record at byte ``j`` of
    ``b``, without allocating."""
    return b[j] << 17 | b[j + 1] << 9 | b[j + 2] << 1 | b[j + 3] >> 7


def _value(b, j, record, game):
    # A value7 the game's table can hold: a draw (0), or a win or loss in
    # 1 to LONGEST[game] plies.
    v = b[j + 3] & 0x7F
    if v & 0x3F > LONGEST[game] or v == 0x40:
        raise TableError("table record %d has value %02x, no %s value" % (record, v, rules.GAMES[game]))


def check(f, expected_game, check_crc, buf):
    """Check the open table file ``f``; ``(game, count, crc, size, index)``,
    where ``index[i]`` is the key of record ``BUCKET * i``. The chunks go
    through ``buf`` (a bucket's bytes)."""
    size = f.seek(0, 2)
    if size < HEADER_SIZE:
        raise TableError("table truncated: %d bytes, the header alone is %d" % (size, HEADER_SIZE))
    view = memoryview(buf)
    f.seek(0)
    if f.readinto(view[:HEADER_SIZE]) != HEADER_SIZE:
        raise TableError("table truncated: could not read the header")
    magic, version, game, reserved, count, crc = struct.unpack_from(_HEADER, buf)
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
    if count != COUNTS[game]:
        raise TableError("table has %d records, a %s table has %d" % (count, rules.GAMES[game], COUNTS[game]))
    want = HEADER_SIZE + RECORD_SIZE * count
    if size < want:
        raise TableError("table truncated: header says %d records (%d bytes), file has %d bytes" % (count, want, size))
    if size > want:
        raise TableError("record count mismatch: header says %d records (%d bytes), file has %d bytes"
                         % (count, want, size))
    # One pass over the records, a bucket at a time: the CRC, and the key of
    # each bucket's first record for the index. The records must ascend:
    # each bucket's first key above the one before's last, and below its own
    # last, and their values must be in range (tests per bucket, not per
    # record, so power-on stays quick; ``tablewalk`` checks every record's
    # order and value in the background after power-on, ``inspect --verify``
    # proves every record right).
    index = array("I", bytes(4 * ((count + BUCKET - 1) // BUCKET)))
    got = 0
    last = -1
    for i in range(len(index)):
        want = RECORD_SIZE * min(BUCKET, count - i * BUCKET)
        if not check_crc:
            f.seek(HEADER_SIZE + RECORD_SIZE * BUCKET * i)
            want = RECORD_SIZE
        n = 0
        while n < want:
            r = f.readinto(view[n:want])
            if not r:
                raise TableError("table truncated while reading")
            n += r
        first = index[i] = key_at(buf, 0)
        if first <= last:
            raise TableError("table records out of order at record %d" % (i * BUCKET))
        _value(buf, 0, i * BUCKET, game)
        if check_crc:
            got = crc32(view[:want], got)
            last = key_at(buf, want - RECORD_SIZE)
            if want > RECORD_SIZE and last <= first:
                raise TableError("table records out of order in records %d-%d"
                                 % (i * BUCKET, i * BUCKET + want // 4 - 1))
            _value(buf, want - RECORD_SIZE, i * BUCKET + want // 4 - 1, game)
        else:
            last = first
    if check_crc:
        got &= 0xFFFFFFFF
        if got != crc:
            raise TableError("table corrupt: CRC-32 of records is %08x, header says %08x" % (got, crc))
    return game, count, crc, size, index
