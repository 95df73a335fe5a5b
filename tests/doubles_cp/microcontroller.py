"""Test double for CircuitPython's ``microcontroller`` (the Pin type, and
``nvm``: the RP2040's 4 KiB, erased)."""

nvm = bytearray(b"\xff" * 4096)


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


_claimed = set()


def claim(pin):
    """Take a pin, as CircuitPython's drivers do: twice is an error."""
    if pin.name in _claimed:
        raise ValueError("%s in use" % pin.name)
    _claimed.add(pin.name)


def release(pin):
    _claimed.discard(pin.name)
