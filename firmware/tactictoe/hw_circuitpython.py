"""Hardware layer for CircuitPython boards: NeoPixels through Adafruit's
``neopixel`` library, keys through ``keypad`` (buttons or a 3x3 matrix) or
``touchio``, an optional buzzer through ``pwmio``.

Same calls as ``hw_machine``: ``scan()``, ``show(canvas)``, ``tone(freq)``.
Pins are board names such as "GP16".
"""

import board
import keypad
import neopixel


def _pin(name):
    pin = getattr(board, name, None) if isinstance(name, str) else None
    if pin is None:
        raise ValueError("board has no pin %r (use names such as \"GP16\")" % (name,))
    return pin


def _centre_at_boot(inp):
    """Mask with the centre cell's bit if it is held now (buttons, matrix)."""
    import digitalio

    if inp["kind"] == "buttons":
        pin = digitalio.DigitalInOut(_pin(inp["pins"][4]))
        pin.switch_to_input(pull=digitalio.Pull.UP)
        held = not pin.value
        pin.deinit()
    elif inp["kind"] == "matrix":  # row 1 low, read column 1
        row = digitalio.DigitalInOut(_pin(inp["rows"][1]))
        row.switch_to_output(value=False)
        col = digitalio.DigitalInOut(_pin(inp["cols"][1]))
        col.switch_to_input(pull=digitalio.Pull.UP)
        held = not col.value
        col.deinit()
        row.deinit()
    else:
        return 0
    return 1 << 4 if held else 0


class Hardware:
    """:param cfg: a config from ``config.load()``."""

    def __init__(self, cfg):
        leds = cfg["leds"]
        inp = cfg["input"]
        # Look every pin up before claiming any: a bad name then fails with
        # nothing held, so the default config can still start.
        led_pin = _pin(leds["pin"])
        keys = [_pin(p) for p in inp.get("pins", inp.get("rows", []) + inp.get("cols", []))]
        buzzer = _pin(cfg["buzzer"]) if cfg["buzzer"] is not None else None
        self._np = self._keys = self._pwm = None
        self._pads = []
        try:
            self._start(cfg, led_pin, keys, buzzer)
        except Exception:
            self.deinit()  # give the pins back for the default config
            raise

    def _start(self, cfg, led_pin, keys, buzzer):
        leds = cfg["leds"]
        inp = cfg["input"]
        self.kind = inp["kind"]
        self._pixel = bytes(leds["order"])
        self._scale = int(leds["brightness"] * 256)
        self._held = 0
        # keypad reports nothing for a key already down when it starts, so
        # look at the centre (safe mode) before handing the pins over.
        self.held_at_boot = _centre_at_boot(inp)
        # The library does the colour order; the brightness cap is ours, so it
        # is the same on every runtime.
        self._np = neopixel.NeoPixel(led_pin, 9, brightness=1.0, auto_write=False, pixel_order=leds["colour_order"])
        if self.kind == "buttons":
            self._keys = keypad.Keys(keys, value_when_pressed=False, pull=True)
        elif self.kind == "matrix":
            self._keys = keypad.KeyMatrix(keys[:3], keys[3:])
        else:
            import touchio  # calibrates itself against the untouched reading

            for p in keys:
                self._pads.append(touchio.TouchIn(p))
            # TouchIn calibrates on the reading it starts with, so a pad held
            # then never reads touched: spot the centre by its raw reading.
            raws = sorted(p.raw_value for p in self._pads)
            if self._pads[4].raw_value > raws[4] * 5 // 4:
                self.held_at_boot = 1 << 4
        self._event = keypad.Event()
        if buzzer is not None:
            import pwmio

            self._pwm = pwmio.PWMOut(buzzer, frequency=1000, duty_cycle=0, variable_frequency=True)

    def deinit(self):
        """Release every pin this layer holds."""
        for part in [self._np, self._keys, self._pwm] + self._pads:
            if part is not None:
                part.deinit()
        self._np = self._keys = self._pwm = None
        self._pads = []

    def scan(self):
        """The cells held now, as a 9-bit mask."""
        if self._keys is None:
            mask = 0
            for c in range(9):
                if self._pads[c].value:
                    mask |= 1 << c
            return mask
        ev = self._event
        while self._keys.events.get_into(ev):  # key_number = row * 3 + column
            if ev.pressed:
                self._held |= 1 << ev.key_number
            else:
                self._held &= ~(1 << ev.key_number)
        return self._held

    def show(self, canvas):
        """Send a ``frames.Canvas`` to the pixels (pixel order and brightness applied)."""
        src = canvas.buf
        scale = self._scale
        for cell in range(9):
            s = 3 * cell
            # a packed 0xRRGGBB int rather than a tuple: no allocation per pixel
            self._np[self._pixel[cell]] = ((src[s] * scale >> 8) << 16 | (src[s + 1] * scale >> 8) << 8
                                           | src[s + 2] * scale >> 8)
        self._np.show()

    def tone(self, freq):
        """Sound the buzzer at ``freq`` Hz; 0 silences it. Nothing without a buzzer."""
        if self._pwm is None:
            return
        if freq:
            self._pwm.frequency = freq
            self._pwm.duty_cycle = 32768
        else:
            self._pwm.duty_cycle = 0
