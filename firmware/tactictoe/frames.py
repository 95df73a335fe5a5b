"""The 3x3 picture: a canvas of nine logical RGB cells (and one more per
extra key of the board) and the time-based brightness curves the
animations use.

The canvas is one preallocated bytearray; levels are ints 0-256 (256 = full)
so drawing a frame allocates nothing. The hardware layer maps cells to
pixels, applies the brightness cap and the strip's colour order.
"""

from micropython import const


FULL = const(256)
CORNERS = const(0b101000101)
CROSS = const(0b101010101)  # the X-shaped error pattern
ALL = const(0x1FF)


class Canvas:
    """One frame of the 3x3 grid: 3 bytes, (r, g, b), per cell in cell
    order, before the wiring's pixel order, colour order and brightness.
    :param n: how many cells: the grid's 9, then the extra keys' (cell 9 + j
      is extra key j)."""

    def __init__(self, n=9):
        self.buf = bytearray(3 * n)

    def clear(self):
        """All cells off."""
        for i in range(len(self.buf)):
            self.buf[i] = 0

    def set(self, cell, colour, level=FULL):
        """Light ``cell`` with ``colour`` (r, g, b) at ``level`` (0-256, 256 full)."""
        i = 3 * cell
        b = self.buf
        b[i] = colour[0] * level >> 8
        b[i + 1] = colour[1] * level >> 8
        b[i + 2] = colour[2] * level >> 8

    def fill(self, mask, colour, level=FULL):
        """``set`` each grid cell whose bit is set in ``mask``."""
        for c in range(9):
            if mask >> c & 1:
                self.set(c, colour, level)


def pulse(t, period=900, low=64):
    """A triangle wave from ``low`` up to FULL and back, ``period`` ms long."""
    p = t % period
    half = period >> 1
    rise = p if p < half else period - p
    return low + (FULL - low) * rise // half


def blink(t, period=400):
    """FULL for the first half of each period, else 0."""
    return FULL if t % period < period >> 1 else 0
