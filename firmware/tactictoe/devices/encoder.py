"""A rotary encoder's quadrature pins (A, B): each edge counted by a pin
interrupt where the port has them (``Pin.irq``, as the rp2 port does), so a
quick flick (a detent in a few ms, faster than the key scan) is not lost;
else by polling, ``update()`` from the key scan. ``position`` in detents.

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
        self._irq = False
        try:
            edges = a.IRQ_RISING | a.IRQ_FALLING
            # hard: at the edge itself, not when the VM next looks (a long
            # SPI write to the screen would hold a soft one back, and the
            # state it read would have moved two steps); _edge allocates nothing
            a.irq(self._edge, edges, hard=True)
            b.irq(self._edge, edges, hard=True)
            self._irq = True
        except (AttributeError, TypeError, ValueError):  # no pin interrupts: polled
            pass

    def _edge(self, pin):
        self._read()

    def update(self):
        """Count the step the pins moved, if any (polled only where the
        pins have no interrupts: the interrupt counts it otherwise)."""
        if not self._irq:
            self._read()

    def _read(self):
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
        """Stop counting (the pins are the caller's)."""
        if self._irq:
            self.a.irq(None)
            self.b.irq(None)
            self._irq = False

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
