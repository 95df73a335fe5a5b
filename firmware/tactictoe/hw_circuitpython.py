"""Hardware layer for CircuitPython boards, a facade of parts: LEDs
(NeoPixels through Adafruit's ``neopixel``, APA102s through
``adafruit_dotstar``, or the Keybow 2040's IS31FL3731 through
``adafruit_is31fl3731``), keys through ``keypad`` (buttons or a 3x3 matrix),
``touchio`` or a TCA9555 expander on ``busio.I2C``, and on the boards that
have them extra keys, a rotary encoder (``rotaryio``), the board's own
screen (``displayio`` with ``adafruit_display_text``) and a buzzer
(``pwmio``). Each is imported only by a board that names its part.

Same calls as ``hw_machine``: ``scan()``, ``turns()``, ``show(canvas)``,
``text(lines)``, ``tone(freq)``, ``deinit()``. Pins are board names such as
"GP16" or the MacroPad's "KEY1".
"""

import board
import keypad

_NONE = 255  # in the pixel map: a cell or key with no LED
# keypad scans in the background every 1 ms, and reports a key on the first
# scan that sees it change: the firmware takes it at its next key scan, so
# a press waits for little more than that one (keypad's default 20 ms would
# add up to 20 ms). Bounces are keys.Keys' to lock out, as on MicroPython.
_SCAN_S = 0.001


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


class I2CBus:
    """``busio.I2C`` with ``machine.I2C``'s ``readfrom_mem_into``, so that
    a driver runs unchanged on both runtimes: the bus is locked around
    each transfer (as Adafruit's libraries do)."""

    def __init__(self, i2c):
        self.i2c = i2c
        self._reg = bytearray(1)

    def readfrom_mem_into(self, addr, reg, buf):
        i2c = self.i2c
        while not i2c.try_lock():
            pass
        try:
            self._reg[0] = reg
            i2c.writeto_then_readfrom(addr, self._reg, buf)
        finally:
            i2c.unlock()

    def deinit(self):
        self.i2c.deinit()


class Hardware:
    """:param cfg: a config from ``config.load()``."""

    def __init__(self, cfg):
        leds = cfg["leds"]
        inp = cfg["input"]
        # Look every pin up before claiming any: a bad name then fails with
        # nothing held, so the default config can still start.
        if leds["kind"] == "apa102":
            led_pins = [_pin(leds["sck"]), _pin(leds["mosi"]), leds["cs"] and _pin(leds["cs"])]
        elif leds["kind"] == "is31fl3731":
            led_pins = [_pin(leds["sda"]), _pin(leds["scl"])]
        else:
            led_pins = [_pin(leds["pin"])]
        if inp["kind"] == "tca9555":
            keys = [_pin(inp["sda"]), _pin(inp["scl"])]
        else:
            keys = [_pin(p) for p in inp.get("pins", inp.get("rows", []) + inp.get("cols", []))]
        extra = [_pin(e["pin"]) for e in cfg["extra"] if "pin" in e]
        encoder = cfg["encoder"] and [_pin(p) for p in cfg["encoder"]["pins"]]
        display = cfg["screen"] and _pin(cfg["screen"]["display"])
        buzzer = cfg["buzzer"] is not None and _pin(cfg["buzzer"])
        enable = cfg.get("buzzer_enable") and _pin(cfg["buzzer_enable"])
        self._np = self._keys = self._extra = self._pwm = self._enable = None
        self._cs = self._i2c = self._input = self._encoder = None
        self.screen = None
        self._pads = []
        try:
            self._start(cfg, led_pins, keys, extra, encoder, display, buzzer, enable)
        except Exception:
            self.deinit()  # give the pins back for the default config
            raise

    def _start(self, cfg, led_pins, keys, extra, encoder, display, buzzer, enable):
        leds = cfg["leds"]
        inp = cfg["input"]
        self.kind = inp["kind"]

        # LEDs: pixel of each cell, then of each extra key
        self._pixel = bytes(leds["order"] + [_NONE if e["led"] is None else e["led"] for e in cfg["extra"]])
        self._scale = int(leds["brightness"] * 256)
        # The library does the colour order; the brightness cap is ours, so it
        # is the same on every runtime.
        if leds["kind"] == "apa102":
            import adafruit_dotstar
            import digitalio

            if led_pins[2] is not None:  # the Pico RGB Keypad gates the LEDs' clock with CS: held low
                self._cs = digitalio.DigitalInOut(led_pins[2])
                self._cs.switch_to_output(value=False)
            # "P": the brightness byte each LED's data starts with
            self._np = adafruit_dotstar.DotStar(led_pins[0], led_pins[1], leds["count"], brightness=1.0,
                                                auto_write=False, pixel_order="P" + leds["colour_order"])
        elif leds["kind"] == "is31fl3731":  # the Keybow 2040's, on I2C
            import busio

            from .devices.keybow2040 import Keybow2040Pixels

            self._np = Keybow2040Pixels(busio.I2C(led_pins[1], led_pins[0], frequency=400000), leds["count"],
                                        leds["address"])
        else:
            import neopixel

            self._np = neopixel.NeoPixel(led_pins[0], leds["count"], brightness=1.0, auto_write=False,
                                         pixel_order=leds["colour_order"])

        # Keys: the grid's nine, then the extra keys
        self._held = 0
        # keypad reports nothing for a key already down when it starts, so
        # look at the centre (safe mode) before handing the pins over.
        self.held_at_boot = _centre_at_boot(inp)
        if self.kind == "buttons":  # key_number: the cell, then 9 + extra key
            self._keys = keypad.Keys(keys + extra, value_when_pressed=False, pull=True, interval=_SCAN_S)
            extra = []
        elif self.kind == "matrix":  # key_number = row * 3 + column
            self._keys = keypad.KeyMatrix(keys[:3], keys[3:], interval=_SCAN_S)
        elif self.kind == "touch":
            import touchio  # calibrates itself against the untouched reading

            for p in keys:
                self._pads.append(touchio.TouchIn(p))
            # TouchIn calibrates on the reading it starts with, so a pad held
            # then never reads touched: spot the centre by its raw reading.
            raws = sorted(p.raw_value for p in self._pads)
            if self._pads[4].raw_value > raws[4] * 5 // 4:
                self.held_at_boot = 1 << 4
        else:  # the expander's keys: the grid's, then the extra keys'
            import busio

            from .devices.tca9555 import TCA9555

            self._i2c = I2CBus(busio.I2C(keys[1], keys[0], frequency=400000))
            self._input = TCA9555(self._i2c, bytes(inp["keys"] + [e["key"] for e in cfg["extra"]]),
                                  address=inp["address"])
            try:
                self._input.read()
            except OSError:
                raise ValueError("no TCA9555 answers at I2C address 0x%02x (input.address)" % inp["address"])
        if extra:  # extra buttons beside a matrix or touch pads: bits 9 and up
            self._extra = keypad.Keys(extra, value_when_pressed=False, pull=True, interval=_SCAN_S)
        self._event = keypad.Event()

        # Rotary encoder
        self._turned = 0
        if encoder:
            import rotaryio

            self._encoder = rotaryio.IncrementalEncoder(encoder[0], encoder[1])

        # Screen: the one the board's CircuitPython set up (the MacroPad's SH1106)
        self._lines = None
        if display:
            import displayio
            import terminalio
            from adafruit_display_text.label import Label

            self._labels = []
            group = displayio.Group()
            for i in range(5):  # 5 lines of 12-pixel text in 64 rows
                label = Label(terminalio.FONT, text="", color=0xFFFFFF, anchor_point=(0, 0),
                              anchored_position=(0, 13 * i))
                self._labels.append(label)
                group.append(label)
            display.root_group = group
            self.screen = display

        # Buzzer: PWM, with the amplifier's enable pin if it has one
        if buzzer:
            import pwmio

            self._pwm = pwmio.PWMOut(buzzer, frequency=1000, duty_cycle=0, variable_frequency=True)
        if enable:
            import digitalio

            self._enable = digitalio.DigitalInOut(enable)
            self._enable.switch_to_output(value=False)

    def deinit(self):
        """Release every pin this layer holds."""
        if self.screen is not None:
            import displayio

            self.screen.root_group = displayio.CIRCUITPYTHON_TERMINAL
            self.screen = None
        for part in [self._np, self._keys, self._extra, self._pwm, self._enable, self._cs, self._i2c,
                     self._encoder] + self._pads:
            if part is not None:
                part.deinit()
        self._np = self._keys = self._extra = self._pwm = self._enable = None
        self._cs = self._i2c = self._input = self._encoder = None
        self._pads = []

    def scan(self):
        """The keys held now: bits 0-8 the grid's cells, bit 9 + j extra key j."""
        if self._input is not None:
            return self._input.scan()
        if self._keys is None:
            mask = 0
            for c in range(9):
                if self._pads[c].value:
                    mask |= 1 << c
        else:
            self._drain(self._keys, 0)
            mask = self._held
        if self._extra is not None:
            self._drain(self._extra, 9)
            mask |= self._held & ~0x1FF
        return mask

    def _drain(self, keys, shift):
        ev = self._event
        events = keys.events
        if events.overflowed:  # events were lost: start again from the keys held now
            events.clear()  # (and overflowed with them)
            self._held &= ~(((1 << keys.key_count) - 1) << shift)
            keys.reset()  # (a key held now is reported again)
        while events.get_into(ev):
            if ev.pressed:
                self._held |= 1 << (shift + ev.key_number)
            else:
                self._held &= ~(1 << (shift + ev.key_number))

    def turns(self):
        """Encoder detents since the last call, clockwise positive; 0 without one."""
        if self._encoder is None:
            return 0
        pos = self._encoder.position
        n = pos - self._turned
        self._turned = pos
        return n

    def show(self, canvas):
        """Send a ``frames.Canvas`` to the pixels (pixel order and brightness
        applied): cell i (the grid's, then the extra keys') on its pixel."""
        src = canvas.buf
        scale = self._scale
        pixel = self._pixel
        for cell in range(min(len(pixel), len(src) // 3)):
            p = pixel[cell]
            if p == _NONE:
                continue
            s = 3 * cell
            # a packed 0xRRGGBB int rather than a tuple: no allocation per pixel
            self._np[p] = ((src[s] * scale >> 8) << 16 | (src[s + 1] * scale >> 8) << 8
                           | src[s + 2] * scale >> 8)
        self._np.show()

    def text(self, lines):
        """Show ``lines`` (up to 5 of up to 16 characters) on the screen;
        nothing without one, or when they haven't changed."""
        if self.screen is None or lines is self._lines or lines == self._lines:
            return
        self._lines = lines
        for i in range(5):
            line = lines[i] if i < len(lines) else ""
            if self._labels[i].text != line:
                self._labels[i].text = line

    def tone(self, freq):
        """Sound the buzzer at ``freq`` Hz; 0 silences it. Nothing without a buzzer."""
        if self._pwm is None:
            return
        if freq:
            self._pwm.frequency = freq
            self._pwm.duty_cycle = 32768
        else:
            self._pwm.duty_cycle = 0
        if self._enable is not None:
            self._enable.value = bool(freq)
