"""Hardware layer for MicroPython boards (rp2, esp32): NeoPixels through
``neopixel``, keys through ``machine.Pin`` (buttons or a 3x3 matrix) or
touch pads (``touchpads.py``), an optional buzzer through ``machine.PWM``.

Every layer offers the same three calls: ``scan()`` (mask of held cells),
``show(canvas)`` and ``tone(freq)``.
"""

import machine
import neopixel


class Hardware:
    """:param cfg: a config from ``config.load()``; its ``leds``, ``input``
    and ``buzzer`` entries say what is wired where."""

    def __init__(self, cfg):
        leds = cfg["leds"]
        self._np = neopixel.NeoPixel(machine.Pin(leds["pin"], machine.Pin.OUT), 9)
        self._pixel = bytes(leds["order"])  # pixel number of each cell
        # which canvas channel (0 R, 1 G, 2 B) goes in each byte on the wire
        self._channel = bytes("RGB".index(ch) for ch in leds["colour_order"])
        self._scale = int(leds["brightness"] * 256)  # the brightness cap
        inp = cfg["input"]
        self.kind = inp["kind"]
        if self.kind == "buttons":  # to ground, internal pull-ups
            self._pins = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in inp["pins"]]
        elif self.kind == "matrix":  # pull one row low, read the columns
            # Open-drain rows: two keys down in one column can't short a high
            # row to the low one.
            self._rows = [machine.Pin(p, machine.Pin.OPEN_DRAIN, value=1) for p in inp["rows"]]
            self._pins = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in inp["cols"]]
        else:  # loaded only by touch boards
            from .touchpads import TouchPads

            self._pads = TouchPads(inp["pins"], inp["threshold"], inp["direction"])
        self._pwm = None
        if cfg["buzzer"] is not None:
            self._pwm = machine.PWM(machine.Pin(cfg["buzzer"]), freq=1000, duty_u16=0)

    def scan(self):
        """The cells held now, as a 9-bit mask."""
        mask = 0
        if self.kind == "buttons":
            for c in range(9):
                if not self._pins[c].value():
                    mask |= 1 << c
        elif self.kind == "matrix":
            for r in range(3):
                row = self._rows[r]
                row.value(0)
                for c in range(3):
                    if not self._pins[c].value():
                        mask |= 1 << (3 * r + c)
                row.value(1)
        else:
            mask = self._pads.scan()
        return mask

    def show(self, canvas):
        """Light the pixels from a ``frames.Canvas``."""
        src = canvas.buf
        buf = self._np.buf
        scale = self._scale
        ch = self._channel
        for cell in range(9):
            p = 3 * self._pixel[cell]
            s = 3 * cell
            buf[p] = src[s + ch[0]] * scale >> 8
            buf[p + 1] = src[s + ch[1]] * scale >> 8
            buf[p + 2] = src[s + ch[2]] * scale >> 8
        self._np.write()

    def tone(self, freq):
        """Sound the buzzer at ``freq`` Hz; 0 silences it. Nothing without a buzzer."""
        if self._pwm is None:
            return
        if freq:
            self._pwm.freq(freq)
            self._pwm.duty_u16(32768)
        else:
            self._pwm.duty_u16(0)
