"""``machine`` for the virtual board: pins, touch pads, PWM and resets, wired
as the virtual board's ``board.json`` says (``simbus.wiring``).

A button pulls its pin low while a finger is on it; a matrix column reads low
while a key on a row driven low is down; a touch pad reads lower (ESP32)
while touched. A pin the wiring doesn't use reads high, as a pull-up would.
"""

import simbus

_PINS = 30  # GPIO 0-29 on a Pico; the ESP32 board gets 40
_TOUCH = (0, 2, 4, 12, 13, 14, 15, 27, 32, 33)  # ESP32 pins with a touch channel
_driven = {}  # output pin -> level


def _chip():
    return "esp32" if simbus.wiring["input"]["kind"] == "touch" else "rp2"


def _check(pin):
    n = 40 if _chip() == "esp32" else _PINS
    if not isinstance(pin, int) or not 0 <= pin < n:
        raise ValueError("invalid pin")
    return pin


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id.id if isinstance(id, Pin) else id
        _check(self.id)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is not None:
            _driven[self.id] = 1 if v else 0
            return None
        inp = simbus.wiring["input"]
        kind = inp["kind"]
        if kind == "buttons" and self.id in inp["pins"]:
            return 0 if simbus.held() >> inp["pins"].index(self.id) & 1 else 1
        if kind == "matrix" and self.id in inp["cols"]:
            c = inp["cols"].index(self.id)
            held = simbus.held()
            for r in range(3):
                if not _driven.get(inp["rows"][r], 1) and held >> (3 * r + c) & 1:
                    return 0
            return 1
        return _driven.get(self.id, 1)

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=0):
        return None

    def __repr__(self):
        return "Pin(%d)" % self.id


class TouchPad:
    def __init__(self, pin):
        self._pin = pin.id if isinstance(pin, Pin) else pin
        if _chip() != "esp32" or self._pin not in _TOUCH:
            raise ValueError("invalid pin for touchpad")

    def config(self, value):
        pass

    def read(self):
        inp = simbus.wiring["input"]
        if self._pin not in inp["pins"]:
            return 600  # a pad with nothing on it
        cell = inp["pins"].index(self._pin)
        # Pads differ with their size and wiring; a finger takes most away.
        return 520 + 15 * cell - (400 if simbus.held() >> cell & 1 else 0)


class PWM:
    def __init__(self, pin, freq=1000, duty_u16=0):
        self._pin = pin.id if isinstance(pin, Pin) else pin
        self._freq = freq
        self._duty = 0
        self.duty_u16(duty_u16)

    def _sound(self):
        if self._pin == simbus.wiring["buzzer"]:
            simbus.tone(self._freq if self._duty else 0)

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f
        if self._duty:
            self._sound()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        self._sound()

    def deinit(self):
        self.duty_u16(0)


def reset():
    raise simbus.Reset(simbus.HARD)


def soft_reset():
    raise SystemExit  # as on a board: the REPL it came from decides what follows


def bootloader():
    print("the virtual board has no bootloader; it keeps running")


def reset_cause():
    return 1  # PWRON_RESET


def freq(hz=None):
    return 125000000 if hz is None else None


def unique_id():
    return b"\x00sim\x00\x00\x00\x01"


def idle():
    pass


PWRON_RESET = 1
HARD_RESET = 2
SOFT_RESET = 5
