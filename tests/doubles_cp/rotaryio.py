"""Test double for CircuitPython's ``rotaryio``: the position is
fingers.position (detents, the count rotaryio keeps from the pins' edges)."""

import fingers
from microcontroller import claim, release


class IncrementalEncoder:
    def __init__(self, pin_a, pin_b, divisor=4):
        self.pins = (pin_a, pin_b)
        for p in self.pins:
            claim(p)

    @property
    def position(self):
        return fingers.position

    def deinit(self):
        for p in self.pins:
            release(p)
