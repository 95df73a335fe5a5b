"""Test double for CircuitPython's ``digitalio``: what the NeoPixel library
uses, and the firmware's look at the centre key before ``keypad`` starts."""

import fingers
from microcontroller import claim, release


class Direction:
    INPUT = 0
    OUTPUT = 1


class Pull:
    UP = 1
    DOWN = 2


_driven_low = set()
levels = {}  # pin name -> the level each output drives now


def _names(pins):
    """The pins' own names: a config may use another ("KEY4" is GP4); a
    name the board lacks (a MicroPython config's number) stays as it is."""
    import board

    return [getattr(board, p).name if isinstance(p, str) and hasattr(board, p) else p for p in pins]


class DigitalInOut:
    def __init__(self, pin):
        claim(pin)
        self.pin = pin
        self.direction = Direction.INPUT
        self._out = None

    def switch_to_output(self, value=False, drive_mode=None):
        self.direction = Direction.OUTPUT
        self.value = value

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT

    @property
    def value(self):
        if self.direction == Direction.OUTPUT:  # reads back what it drives, as the real one does
            return bool(self._out)
        inp = fingers._input or {"kind": None}
        name = self.pin.name
        if inp["kind"] == "buttons" and name in _names(inp["pins"]):
            return not fingers.held >> _names(inp["pins"]).index(name) & 1
        if inp["kind"] == "matrix" and name in _names(inp["cols"]):
            c = _names(inp["cols"]).index(name)
            for r in range(3):
                if _names(inp["rows"])[r] in _driven_low and fingers.held >> (3 * r + c) & 1:
                    return False
        return True

    @value.setter
    def value(self, v):
        assert self.direction == Direction.OUTPUT, "setting the value of an input"
        self._out = v
        levels[self.pin.name] = 1 if v else 0
        if v:
            _driven_low.discard(self.pin.name)
        else:
            _driven_low.add(self.pin.name)

    def deinit(self):
        levels.pop(self.pin.name, None)
        _driven_low.discard(self.pin.name)
        release(self.pin)
