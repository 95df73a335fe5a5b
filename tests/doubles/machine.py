"""Test double for MicroPython's ``machine``: pins, touch pads and PWM wired
to a simulated 3x3 board. The harness calls ``wire(cfg["input"])`` and then
sets ``held``, a mask of the cells a finger is on. Kept small: on a board
``machine`` is built in and costs no heap, and the heap tests count this."""

held = 0
tones = []  # (freq, duty) each time the buzzer changes
_in = {}
_out = {}  # levels driven on output pins


def wire(inp, rises=False):
    global held, tones
    _in.clear()
    _in.update(inp)
    _in["rises"] = rises
    _out.clear()
    held = 0
    tones = []


class Pin:
    IN = 0
    OUT = PULL_UP = 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if value is not None:
            _out[id] = value

    def value(self, v=None):
        if v is not None:
            _out[self.id] = v
            return None
        pid = self.id
        if pid in _in.get("pins", ()):  # a button to ground
            return 0 if held >> _in["pins"].index(pid) & 1 else 1
        if pid in _in.get("cols", ()):  # a matrix column: low if a driven-low row's key is down
            c = _in["cols"].index(pid)
            for r in range(3):
                if not _out.get(_in["rows"][r], 1) and held >> (3 * r + c) & 1:
                    return 0
        return 1


class TouchPad:
    def __init__(self, pin):
        self.cell = _in["pins"].index(pin.id)

    def read(self):
        down = held >> self.cell & 1
        if _in["rises"]:  # ESP32-S2/S3: about 30000, higher when touched
            return 42000 if down else 30000
        return 150 if down else 600  # ESP32: about 600, lower when touched


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.f = freq

    def freq(self, f):
        self.f = f

    def duty_u16(self, d):
        tones.append((self.f, d))
