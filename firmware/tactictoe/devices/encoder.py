"""A rotary encoder's quadrature pins (A, B), read by polling: ``update()``
from the key scan, ``position`` in detents.

The same transitions and sign as CircuitPython's ``rotaryio`` (state =
A << 1 | B; A leading B counts up), four steps a detent, so a board's
``encoder.pins`` mean the same on both runtimes.
"""

from micropython import const

_DIVISOR = const(4)  # quadrature steps per detent
# _STEP[old << 2 | new] + 1: +1 a step one way, -1 the other, 0 for no change
# or a skipped state (a jump of two steps can't tell its direction).
_STEP = b"\x01\x00\x02\x01\x02\x01\x01\x00\x00\x01\x01\x02\x01\x02\x00\x01"


class Encoder:
    """:param a: its A pin, a ``machine.Pin`` input with a pull-up.
    :param b: its B pin, the same."""

    def __init__(self, a, b):
        self.a = a
        self.b = b
        self.position = 0
        self._sub = 0
        self._state = a.value() << 1 | b.value()

    def update(self):
        """Read the pins and count the step they moved, if any."""
        new = self.a.value() << 1 | self.b.value()
        if new == self._state:
            return
        self._sub += _STEP[self._state << 2 | new] - 1
        self._state = new
        if self._sub >= _DIVISOR:
            self.position += 1
            self._sub = 0
        elif self._sub <= -_DIVISOR:
            self.position -= 1
            self._sub = 0

    def deinit(self):
        """Nothing to release: the pins are the caller's."""

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
