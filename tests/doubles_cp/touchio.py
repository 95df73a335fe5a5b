"""Test double for CircuitPython's ``touchio``: like the real one, a pad
sets its threshold from the reading it starts with, so a pad held at start
does not read as touched (its raw_value is high). A pad on GP28 behaves like
an RP2040 pin without its 1 MOhm pull-down: TouchIn raises."""

import fingers
from microcontroller import claim, release


class TouchIn:
    _count = 0

    def __init__(self, pin):
        if pin.name == "GP28":
            raise ValueError("No pulldown on pin; 1Mohm recommended")
        claim(pin)
        self.pin = pin
        self.cell = TouchIn._count % 9
        TouchIn._count += 1
        self.threshold = self.raw_value + 100

    @property
    def raw_value(self):
        return 1000 + 10 * self.cell + (900 if fingers.held >> self.cell & 1 else 0)

    @property
    def value(self):
        return self.raw_value > self.threshold

    def deinit(self):
        release(self.pin)
