"""Test double for MicroPython's ``machine``: pins, touch pads and PWM wired
to a simulated 3x3 board. The harness calls ``wire(cfg["input"])`` and then
sets ``held``, a mask of the cells a finger is on. Kept small: on a board
``machine`` is built in and costs no heap, and the heap tests count this.

The forms the firmware uses behave as on the rp2 port (checked against it by
tests/test_port_parity.py): a pin it hasn't got raises its ValueError, an
output reads the level it drives, an input a finger, else its pull (low
without one)."""

held = 0
tones = []  # (freq, duty) each time the buzzer changes
flaky = 0  # touch pads whose read() raises while pressed, as an ESP32 pad pressed hard does
_in = {}
_out = {}  # levels driven on output pins (on an open-drain pin, 1 is let go)
modes = {}  # pin -> the mode it was set up with | its pull << 2
levels = {}  # input pins a test drives itself (an encoder's A and B): pin -> level


def wire(inp, rises=False):
    global held, tones, flaky
    _in.clear()
    _in.update(inp)
    _in["rises"] = rises
    _out.clear()
    modes.clear()
    levels.clear()
    held = flaky = 0
    tones = []


class Pin:
    IN = 0
    OUT = PULL_UP = 1
    OPEN_DRAIN = PULL_DOWN = 2

    def __init__(self, id, mode=None, pull=None, value=None):
        if type(id) is not int or not 0 <= id < (40 if _in.get("kind") == "touch" else 30):
            from machine_more import find

            id = find(id)  # a Pin or a pin name, else the port's ValueError
        self._id = id
        if mode is not None:
            modes[id] = mode | (pull or 0) << 2
            if mode == 2 and value is None:
                value = 1  # open drain: let go
        if value is not None:
            _out[id] = 1 if value else 0

    def __call__(self, v=None):
        return self.value(v)

    def value(self, v=None):
        pid = self._id
        if v is not None:
            _out[pid] = 1 if v else 0
            return None
        mode = modes.get(pid, 0)
        if mode & 3 == 1 or mode & 3 == 2 and not _out[pid]:  # driven
            return _out.get(pid, 0)
        if pid in levels:
            return levels[pid]
        if pid in _in.get("pins", ()):  # a button to ground
            if held >> _in["pins"].index(pid) & 1:
                return 0
        elif pid in _in.get("cols", ()):  # a matrix column: low if a driven-low row's key is down
            c = _in["cols"].index(pid)
            for r in range(3):
                if not _out.get(_in["rows"][r], 1) and held >> (3 * r + c) & 1:
                    return 0
        return mode >> 2 & 1  # its pull-up, else low


def __getattr__(name):
    # TouchPad, PWM and the rest live in machine_more.py, loaded only by the
    # boards that use them: this double stays as small as the heap tests need.
    import machine_more

    return getattr(machine_more, name)
