"""Test double for MicroPython's ``machine``: pins, touch pads and PWM wired
to a simulated 3x3 board. The harness sets ``held`` (a mask of the cells a
finger is on) after ``wire(cfg["input"])``."""

held = 0
_input = None
_out = {}  # levels driven on output pins
_touch_rises = False
tones = []  # (freq, duty) each time the buzzer changes


def wire(inp, rises=False):
    global _input, held, _touch_rises, tones
    _input = inp
    held = 0
    _out.clear()
    _touch_rises = rises
    tones = []


def _read(pin_id):
    kind = _input["kind"]
    if kind == "buttons" and pin_id in _input["pins"]:
        return 0 if held >> _input["pins"].index(pin_id) & 1 else 1
    if kind == "matrix" and pin_id in _input["cols"]:
        c = _input["cols"].index(pin_id)
        for r in range(3):
            if _out.get(_input["rows"][r], 1) == 0 and held >> (3 * r + c) & 1:
                return 0
        return 1
    return _out.get(pin_id, 1)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if value is not None:
            _out[id] = value

    def value(self, v=None):
        if v is None:
            return _read(self.id)
        _out[self.id] = v


class TouchPad:
    BASE = 600  # an untouched ESP32 pad; an S3 pad reads about 30000

    def __init__(self, pin):
        self.cell = _input["pins"].index(pin.id)

    def read(self):
        if _touch_rises:
            return 30000 + (12000 if held >> self.cell & 1 else 0)
        return self.BASE - (450 if held >> self.cell & 1 else 0)


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self._freq = freq

    def freq(self, f):
        self._freq = f

    def duty_u16(self, d):
        tones.append((self._freq, d))
