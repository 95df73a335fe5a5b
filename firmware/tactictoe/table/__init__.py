"""The solved table (docs/table-format.md): this package's own module holds
the format every part shares (the header, the record, the index's bucket,
where the tables live, the error); ``reader`` opens a table and looks
positions up, ``check`` checks a file as it opens, ``walk`` checks every
record in the background after power-on, ``proof`` proves a table right
record by record, and ``records`` is what only a writer or the proof needs.
"""

from micropython import const

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


class TableError(Exception):
    """The table file can't be used; the message says why. Each kind of bad
    file has its own message (docs/table-format.md lists them): one class
    rather than seven keeps the reader small in RAM."""


try:
    from binascii import crc32
except ImportError:  # binascii.crc32 is optional in MicroPython builds
    from ..files.crc32 import crc32  # noqa: F401 (check and the writers import it from here)
