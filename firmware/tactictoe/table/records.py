"""The parts of the table format the game never runs: the header a writer
packs, and one record read by its number. The host's solver, the tests and
``tableverify`` use them; the game never imports this module (see
rules_extra).
"""

import struct

from . import _HEADER, HEADER_SIZE, MAGIC, RECORD_SIZE, VERSION, TableError
from . import check


def pack_header(game, count, crc):
    """The 16 header bytes for ``count`` records with CRC-32 ``crc``."""
    return struct.pack(_HEADER, MAGIC, VERSION, game, 0, count, crc)


def record(t, i):
    """``(key, value7)`` of record ``i`` of the open ``reader.Table`` ``t``;
    key = ``position24 << 1 | turn``."""
    if not 0 <= i < t.count:
        raise IndexError("record index out of range")
    f = t._file()
    f.seek(HEADER_SIZE + RECORD_SIZE * i)
    b = f.read(RECORD_SIZE)
    if len(b) != RECORD_SIZE:
        raise TableError("table file shrank while open")
    return check.key_at(b, 0), b[3] & 0x7F
