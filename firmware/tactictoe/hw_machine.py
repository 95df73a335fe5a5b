"""Hardware layer for MicroPython boards (rp2, esp32), a facade of parts:
LEDs (NeoPixels through ``neopixel``, or APA102s), keys (buttons or a 3x3
matrix through ``machine.Pin``, touch pads, or a TCA9555 expander), and on
the boards that have them extra keys, a rotary encoder, a screen and a
buzzer. Each driver in ``devices/`` is imported only by a board that names
its part, so a Pico with loose parts loads none of them.

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
        # LEDs: pixel of each cell, then of each extra key
        leds = cfg["leds"]
        extra = cfg["extra"]
        self._pixel = bytes(leds["order"] + [_NONE if e["led"] is None else e["led"] for e in extra])
        # which canvas channel (0 R, 1 G, 2 B) goes in each byte on the wire
        self._channel = bytes("RGB".index(ch) for ch in leds["colour_order"])
        self._scale = int(leds["brightness"] * 256)  # the brightness cap
        if leds["kind"] == "apa102":
            from .devices.apa102 import APA102

            spi = machine.SPI(leds["spi"], baudrate=4000000, sck=pin(leds["sck"]), mosi=pin(leds["mosi"]),
                              miso=None)
            cs = None if leds["cs"] is None else pin(leds["cs"], pin.OUT, value=1)
            self._np = APA102(spi, leds["count"], cs=cs)
        else:
            import neopixel

            # (either driver: a buf and write())
            self._np = neopixel.NeoPixel(pin(leds["pin"], pin.OUT), leds["count"])  # type: ignore[assignment]

        # Keys: the grid's nine, and extra keys
        inp = cfg["input"]
        self.kind = inp["kind"]
        self._input = None  # a driver with scan(), for touch pads and the expander
        pins = [e["pin"] for e in extra if "pin" in e]  # extra buttons on GPIOs
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
        else:  # the expander's keys: the grid's, then the extra keys'
            from .devices.tca9555 import TCA9555

            i2c = machine.I2C(inp["i2c"], sda=pin(inp["sda"]), scl=pin(inp["scl"]), freq=400000)
            self._input = TCA9555(i2c, bytes(inp["keys"] + [e["key"] for e in extra]),  # type: ignore[assignment]
                                  address=inp["address"])
            try:
                self._input.read()
            except OSError:  # no acknowledge: a wrong address, or no keypad
                raise ValueError("no TCA9555 answers at I2C address 0x%02x (input.address)" % inp["address"])
        self._pins = [pin(p, pin.IN, pin.PULL_UP) for p in pins]
        # the bit of the first GPIO button: the grid's on a buttons board,
        # else the extra keys'
        self._shift = 0 if self.kind == "buttons" else 9

        # Rotary encoder: polled from scan()
        self._encoder = None
        self._turned = 0
        if cfg["encoder"] is not None:
            from .devices.encoder import Encoder

            a, b = cfg["encoder"]["pins"]
            self._encoder = Encoder(pin(a, pin.IN, pin.PULL_UP), pin(b, pin.IN, pin.PULL_UP))

        # Screen: an SH1106 on SPI
        self.screen = None
        self._lines = None
        screen = cfg["screen"]
        if screen is not None:
            from .devices.sh1106 import SH1106

            spi = machine.SPI(screen["spi"], baudrate=10000000, sck=pin(screen["sck"]), mosi=pin(screen["mosi"]),
                              miso=None)
            self.screen = SH1106(spi, pin(screen["dc"], pin.OUT, value=0),
                                 None if screen["reset"] is None else pin(screen["reset"], pin.OUT, value=1),
                                 None if screen["cs"] is None else pin(screen["cs"], pin.OUT, value=1))

        # Buzzer: PWM, with the amplifier's enable pin if it has one
        self._pwm = None  # a machine.PWM, or a Buzzer with its amplifier
        if cfg["buzzer"] is not None:
            pwm = machine.PWM(pin(cfg["buzzer"]), freq=1000, duty_u16=0)
            if cfg.get("buzzer_enable") is None:
                self._pwm = pwm
            else:
                from .devices.buzzer import Buzzer

                self._pwm = Buzzer(pwm, pin(cfg["buzzer_enable"], pin.OUT, value=0))  # type: ignore[assignment]

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
        pwm = self._pwm
        if pwm is None:
            return
        if hasattr(pwm, "tone"):
            pwm.tone(freq)
        elif freq:
            pwm.freq(freq)
            pwm.duty_u16(32768)
        else:
            pwm.duty_u16(0)

    def deinit(self):
        """Silence the buzzer, darken the LEDs and the screen."""
        self.tone(0)
        for i in range(len(self._np.buf)):
            self._np.buf[i] = 0
        self._np.write()
        if self.screen is not None:
            self.screen.deinit()
