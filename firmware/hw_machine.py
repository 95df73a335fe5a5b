"""Hardware layer for MicroPython boards (rp2, esp32): NeoPixels through
``neopixel``, keys through ``machine.Pin`` (buttons or a 3x3 matrix) or
``machine.TouchPad``, an optional buzzer through ``machine.PWM``.

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
        elif self.kind == "matrix":  # drive one row low, read the columns
            self._rows = [machine.Pin(p, machine.Pin.OUT, value=1) for p in inp["rows"]]
            self._pins = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in inp["cols"]]
        else:
            touch_pad = machine.TouchPad  # type: ignore[attr-defined]  # esp32 only
            self._pads = [touch_pad(machine.Pin(p)) for p in inp["pins"]]
            self.rises = _touch_rises(inp["direction"])
            self.calibrate(inp["threshold"])
        self._pwm = None
        if cfg["buzzer"] is not None:
            self._pwm = machine.PWM(machine.Pin(cfg["buzzer"]), freq=1000, duty_u16=0)

    def calibrate(self, threshold, samples=8):
        """Touch: read each pad untouched and set its trip level
        ``threshold`` (a fraction) below or above that baseline."""
        self.baseline = []
        for pad in self._pads:
            total = 0
            for _ in range(samples):
                total += pad.read()
            self.baseline.append(total // samples)
        # A pad touched during calibration (the centre, for safe mode) reads
        # far from the others: give it the typical baseline so it reads held.
        typical = sorted(self.baseline)[4]
        margin = typical * 2 * threshold
        self._limit = []
        for c in range(9):
            base = self.baseline[c]
            if (base > typical + margin) if self.rises else (base < typical - margin):
                self.baseline[c] = base = typical
            delta = int(base * threshold)
            self._limit.append(base + delta if self.rises else base - delta)

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
            for c in range(9):
                v = self._pads[c].read()
                if (v > self._limit[c]) if self.rises else (v < self._limit[c]):
                    mask |= 1 << c
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
        if self._pwm is None:
            return
        if freq:
            self._pwm.freq(freq)
            self._pwm.duty_u16(32768)
        else:
            self._pwm.duty_u16(0)


def _touch_rises(direction):
    # The original ESP32's touch reading drops when touched; the S2's and
    # S3's rises.
    if direction != "auto":
        return direction == "rises"
    import sys

    # e.g. "ESP32S3 module with ESP32S3", "Generic ESP32 module with ESP32"
    chip = getattr(sys.implementation, "_machine", "").upper().replace("-", "")
    return "ESP32S2" in chip or "ESP32S3" in chip
