"""Test double for CircuitPython's ``digitalio`` (what the NeoPixel library uses)."""


class Direction:
    INPUT = 0
    OUTPUT = 1


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT

    def switch_to_output(self, value=False):
        self.direction = Direction.OUTPUT

    def deinit(self):
        pass
