"""Nine ESP32 capacitive touch pads (``machine.TouchPad``), calibrated
against their untouched readings at power-on.

The original ESP32's reading drops when a pad is touched; the S2's and S3's
rises. Only touch boards import this module.
"""

import machine


class TouchPads:
    """:param pins: the 9 touch GPIOs, cell 0 to 8.
    :param threshold: how far (a fraction of its baseline) a reading must
        move to count as a touch.
    :param direction: "falls", "rises" or "auto" (from the chip's name)."""

    def __init__(self, pins, threshold, direction="auto"):
        touch_pad = machine.TouchPad  # type: ignore[attr-defined]  # esp32 only
        self._pads = [touch_pad(machine.Pin(p)) for p in pins]
        self.rises = _rises(direction)
        self.calibrate(threshold)

    def calibrate(self, threshold, samples=8):
        """Touch: read each pad untouched and set its trip level
        ``threshold`` (a fraction) below or above that baseline."""
        self.baseline = []
        for pad in self._pads:
            _read(pad)  # the first readings after power-up can be off
            total = 0
            for _ in range(samples):
                total += max(0, _read(pad))
            self.baseline.append(total // samples)
        # The centre touched at power-on (safe mode) reads far from the
        # other pads: give it their typical baseline so that it reads held.
        typical = sorted(self.baseline)[4]
        base = self.baseline[4]
        if (base > typical * (1 + 2 * threshold)) if self.rises else (base < typical * (1 - 2 * threshold)):
            self.baseline[4] = typical
        self._limit = []
        for base in self.baseline:
            delta = int(base * threshold)
            self._limit.append(base + delta if self.rises else base - delta)

    def scan(self):
        """The touched pads as a 9-bit mask."""
        mask = 0
        for c in range(9):
            v = _read(self._pads[c])
            if v < 0 or ((v > self._limit[c]) if self.rises else (v < self._limit[c])):
                mask |= 1 << c
        return mask


def _read(pad):
    # An ESP32 pad pressed hard or wet can read 0, which TouchPad.read()
    # reports as ValueError("Touch pad error"): that is a touch, whichever
    # way the chip's readings move; -1 says so.
    try:
        return pad.read()
    except ValueError:
        return -1


def _rises(direction):
    # The original ESP32's touch reading drops when touched; the S2's and
    # S3's rises.
    if direction != "auto":
        return direction == "rises"
    import sys

    # e.g. "ESP32S3 module with ESP32S3", "Generic ESP32 module with ESP32"
    chip = getattr(sys.implementation, "_machine", "").upper().replace("-", "")
    return "ESP32S2" in chip or "ESP32S3" in chip
