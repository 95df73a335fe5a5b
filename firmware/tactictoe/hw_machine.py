"""Hardware layer for MicroPython boards (rp2, esp32), a facade of parts:
LEDs (NeoPixels through ``neopixel``, or APA102s), keys (buttons or a 3x3
matrix through ``machine.Pin``, touch pads, or a TCA9555 expander), and on
the boards that have them extra keys, a rotary encoder, a screen and a
buzzer. The bought boards' parts are made by ``devices/parts.py`` with the
drivers beside it, imported only by a board whose config names one, so a
Pico of loose parts loads none of them and keeps its heap.

Every layer offers the same calls: ``scan()`` (mask of held cells, then the
extra keys), ``turns()``, ``show(canvas)``, ``text(lines)``, ``tone(freq)``
and ``deinit()``.
"""

import machine

_NONE = 255  # in the pixel map: a cell or key with no LED


class Hardware:
    """:param cfg: a config from ``config.load()``; its ``leds``, ``input``,
    ``extra``, ``encoder``, ``screen`` and ``buzzer`` entries say what is
    wired where."""

    def __init__(self, cfg):
        pin = machine.Pin
        leds = cfg["leds"]
        inp = cfg["input"]
        extra = cfg["extra"]
        self.kind = inp["kind"]
        # Parts a board of loose parts lacks: made by devices/parts.py
        self._np = self._input = self._encoder = self.screen = self._pwm = None
        self._lines = None
        self._turned = 0
        if (leds["kind"] != "ws2812" or self.kind == "tca9555" or cfg["encoder"] or cfg["screen"]
                or cfg["buzzer_enable"] is not None):
            from .devices import parts

            parts.start(self, cfg)

        # LEDs: NeoPixels (or APA102s, above); the pixel of each cell, then of
        # each extra key
        self._pixel = bytes(leds["order"] + [_NONE if e["led"] is None else e["led"] for e in extra])
        # which canvas channel (0 R, 1 G, 2 B) goes in each byte on the wire
        self._channel = bytes("RGB".index(ch) for ch in leds["colour_order"])
        self._scale = int(leds["brightness"] * 256)  # the brightness cap
        if self._np is None:
            import neopixel

            self._np = neopixel.NeoPixel(pin(leds["pin"], pin.OUT), leds["count"])

        # Keys: the grid's nine (or the expander's, above), and extra buttons
        pins = [e["pin"] for e in extra if "pin" in e]
        if self.kind == "buttons":  # to ground, internal pull-ups; the extra buttons follow
            pins = inp["pins"] + pins
        elif self.kind == "matrix":  # pull one row low, read the columns
            # Open-drain rows: two keys down in one column can't short a high
            # row to the low one.
            self._rows = [pin(p, pin.OPEN_DRAIN, value=1) for p in inp["rows"]]
            self._cols = [pin(p, pin.IN, pin.PULL_UP) for p in inp["cols"]]
        elif self.kind == "touch":  # loaded only by touch boards
            from .touchpads import TouchPads

            self._pads = self._input = TouchPads(inp["pins"], inp["threshold"], inp["direction"])
        self._pins = [pin(p, pin.IN, pin.PULL_UP) for p in pins]
        # the bit of the first GPIO button: the grid's on a buttons board,
        # else the extra keys'
        self._shift = 0 if self.kind == "buttons" else 9

        # Buzzer: PWM (or a speaker with an amplifier to switch on, above:
        # the same calls)
        if cfg["buzzer"] is not None and self._pwm is None:
            self._pwm = machine.PWM(pin(cfg["buzzer"]), freq=1000, duty_u16=0)

    def scan(self):
        """The keys held now: bits 0-8 the grid's cells, bit 9 + j extra key j."""
        mask = 0
        if self._input is not None:
            mask = self._input.scan()
        elif self.kind == "matrix":
            for r in range(3):
                row = self._rows[r]
                row.value(0)
                for c in range(3):
                    if not self._cols[c].value():
                        mask |= 1 << (3 * r + c)
                row.value(1)
        pins = self._pins
        shift = self._shift
        for i in range(len(pins)):
            if not pins[i].value():
                mask |= 1 << (shift + i)
        if self._encoder is not None:
            self._encoder.update()
        return mask

    def turns(self):
        """Encoder detents since the last call, clockwise positive; 0 without one."""
        if self._encoder is None:
            return 0
        pos = self._encoder.position
        n = pos - self._turned
        self._turned = pos
        return n

    def show(self, canvas):
        """Light the pixels from a ``frames.Canvas``: cell i (the grid's,
        then the extra keys') on its pixel, if it has one."""
        src = canvas.buf
        buf = self._np.buf
        scale = self._scale
        ch = self._channel
        pixel = self._pixel
        for cell in range(min(len(pixel), len(src) // 3)):
            p = pixel[cell]
            if p == _NONE:
                continue
            p *= 3
            s = 3 * cell
            buf[p] = src[s + ch[0]] * scale >> 8
            buf[p + 1] = src[s + ch[1]] * scale >> 8
            buf[p + 2] = src[s + ch[2]] * scale >> 8
        self._np.write()

    def text(self, lines):
        """Show ``lines`` (up to 5 of up to 16 characters) on the screen;
        nothing without one, or when they haven't changed."""
        screen = self.screen
        if screen is None or lines is self._lines or lines == self._lines:
            return
        self._lines = lines
        screen.fill(0)
        for i in range(len(lines)):
            screen.text(lines[i], 0, 14 * i, 1)  # 8-pixel font: 5 lines in 64 rows
        screen.show()

    def tone(self, freq):
        """Sound the buzzer at ``freq`` Hz; 0 silences it. Nothing without a buzzer."""
        if self._pwm is None:
            return
        if freq:
            self._pwm.freq(freq)
            self._pwm.duty_u16(32768)
        else:
            self._pwm.duty_u16(0)

    def deinit(self):
        """Silence the buzzer, darken the LEDs and the screen."""
        self.tone(0)
        for i in range(len(self._np.buf)):
            self._np.buf[i] = 0
        self._np.write()
        if self.screen is not None:
            self.screen.deinit()
