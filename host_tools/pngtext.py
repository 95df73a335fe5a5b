"""A PNG's own note of what made it: one tEXt chunk, written after the
header and read back, so a picture can say which sources it was drawn from
(``make hardware``'s renders, ``make web-picture``'s page)."""

import struct
import zlib


def add(png, key, text):
    """``png`` with a tEXt chunk ``key``: ``text`` after its header (IHDR)."""
    body = b"tEXt" + key + b"\0" + text.encode()
    end = 8 + 8 + struct.unpack(">I", png[8:12])[0] + 4  # the signature, then IHDR
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    return png[:end] + chunk + png[end:]


def read(png, key):
    """The text of ``png``'s tEXt chunk ``key``, or None."""
    at = 8
    while at + 8 <= len(png):
        size, kind = struct.unpack(">I4s", png[at:at + 8])
        data = png[at + 8:at + 8 + size]
        if kind == b"tEXt" and data.startswith(key + b"\0"):
            return data[len(key) + 1:].decode()
        at += 12 + size
    return None
