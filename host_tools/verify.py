"""Prove a table file right on the host (``inspect --verify``, and ``flash``
before it copies a table): the firmware's own ``tableverify`` over the
file's bytes, after the checks the board makes when it opens a table."""

import hashlib
import io

from tactictoe import table
from tactictoe import tableverify


_proven = {}  # sha256 of a table file -> its first_wrong(): a tool run proves each file once


def first_wrong(data):
    """None if the table file ``data`` (bytes) is right, else one line
    naming the first wrong record and what is wrong with it. TableError if
    the board itself would refuse the file."""
    digest = hashlib.sha256(data).digest()
    if digest not in _proven:
        _proven[digest] = tableverify.first_wrong(table.Table(io.BytesIO(data)))
    return _proven[digest]
