"""Test double for CircuitPython's ``pwmio``."""

import fingers
from microcontroller import claim, release


class PWMOut:
    def __init__(self, pin, *, frequency=500, duty_cycle=0, variable_frequency=False):
        claim(pin)
        self.pin = pin
        self.frequency = frequency
        self._duty = duty_cycle

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, d):
        self._duty = d
        fingers.tones.append((self.frequency, d))

    def deinit(self):
        release(self.pin)
