"""``os`` for the virtual board: the Unix port's, with ``ilistdir`` giving
sizes as a board's filesystems do (so ``mpremote ls`` shows them) and a
``urandom`` that ``--seed`` makes repeatable. The ROM installs it as ``os``."""

from os import *  # noqa: F401,F403
from os import ilistdir as _ilistdir
from os import stat as _stat
from os import urandom as _urandom

_x = 0  # 0: not seeded, the host's random numbers


def seed(n):
    global _x
    _x = (n & 0x7FFFFFFF) or 1


def urandom(n):
    global _x
    if not _x:
        return _urandom(n)
    out = bytearray(n)
    for i in range(n):
        _x = (_x * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = _x >> 16 & 0xFF
    return bytes(out)


def ilistdir(path=""):
    for entry in _ilistdir(path):
        name, kind = entry[0], entry[1]
        size = 0
        if kind == 0x8000:
            try:
                size = _stat((path + "/" if path else "") + name)[6]
            except OSError:
                pass
        yield (name, kind, 0, size)
