"""Test double for MicroPython's ``machine``: pins, touch pads and PWM wired
to a simulated 3x3 board. The harness calls ``wire(cfg["input"])`` and then
sets ``held``, a mask of the cells a finger is on. Kept small: on a board
``machine`` is built in and costs no heap, and the heap tests count this."""

held = 0
tones = []  # (freq, duty) each time the buzzer changes
flaky = 0  # touch pads whose read() raises while pressed, as an ESP32 pad pressed hard does
_in = {}
_out = {}  # levels driven on output pins
modes = {}  # pin -> the mode it was set up with


def wire(inp, rises=False):
    global held, tones, flaky
    _in.clear()
    _in.update(inp)
    _in["rises"] = rises
    _out.clear()
    modes.clear()
    held = flaky = 0
    tones = []


class Pin:
    IN = 0
    OUT = PULL_UP = 1
    OPEN_DRAIN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        modes[id] = mode
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


def __getattr__(name):
    # TouchPad and PWM live in machine_more.py, loaded only by the boards
    # that use them: this double stays as small as the heap tests need.
    import machine_more

    return getattr(machine_more, name)
