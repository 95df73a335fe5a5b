"""The parts of the table format the game never runs: the header a writer
packs, and one record read by its number. The host's solver, the tests and
``tableverify`` use them; the game never imports this module (see
rules_extra).
"""

import struct

from . import table
from . import tablecheck


def pack_header(game, count, crc):
    """The 16 header bytes for ``count`` records with CRC-32 ``crc``."""
    return struct.pack(table._HEADER, table.MAGIC, table.VERSION, game, 0, count, crc)


def record(t, i):
    """``(key, value7)`` of record ``i`` of the open ``table.Table`` ``t``;
    key = ``position24 << 1 | turn``."""
    if not 0 <= i < t.count:
        raise IndexError("record index out of range")
    f = t._file()
    f.seek(table.HEADER_SIZE + table.RECORD_SIZE * i)
    b = f.read(table.RECORD_SIZE)
    if len(b) != table.RECORD_SIZE:
        raise table.TableError("table file shrank while open")
    return tablecheck.key_at(b, 0), b[3] & 0x7F
