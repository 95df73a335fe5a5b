"""Test double for CircuitPython's ``supervisor``: its presence is how the
firmware knows it runs on CircuitPython; ticks_ms as on the board (wrapping
at 2**29)."""

import time


def ticks_ms():
    return int(time.monotonic() * 1000) & 0x1FFFFFFF
