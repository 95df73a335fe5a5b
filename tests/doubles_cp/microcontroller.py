"""Test double for CircuitPython's ``microcontroller`` (the Pin type)."""


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name
