"""The Pimoroni Keybow 2040's LEDs on CircuitPython: its IS31FL3731
through Adafruit's ``adafruit_is31fl3731`` (the Keybow2040 class), with
``neopixel``'s surface for ``hw_circuitpython``. Loaded only by a board
whose config names the chip (MicroPython boards use ``is31fl3731.py``).
"""


class Keybow2040Pixels:
    """The Keybow 2040's LEDs through ``adafruit_is31fl3731``'s Keybow2040
    class, with ``neopixel``'s surface: ``pixels[k] = 0xRRGGBB`` for key k's
    LED, then ``show()``, which sends only the LEDs that changed (each is
    six register writes)."""

    def __init__(self, i2c, count, address):
        from adafruit_is31fl3731.keybow2040 import Keybow2040

        self._i2c = i2c
        try:
            self._chip = Keybow2040(i2c, frames=(0,), address=address)
        except (OSError, ValueError):  # no acknowledge: a wrong address, or no chip
            i2c.deinit()
            raise ValueError("no IS31FL3731 answers at I2C address 0x%02x (leds.address)" % address)
        self._want = [0] * count
        self._sent = [0] * count

    def __setitem__(self, k, colour):
        self._want[k] = colour

    def show(self):
        want = self._want
        sent = self._sent
        for k in range(len(want)):
            c = want[k]
            if c != sent[k]:
                # Pimoroni's keybow2040 library: key k is pixel (k % 4, k // 4)
                self._chip.pixelrgb(k % 4, k // 4, c >> 16, c >> 8 & 0xFF, c & 0xFF)
                sent[k] = c

    def deinit(self):
        """Blank the LEDs and give the bus back."""
        for k in range(len(self._want)):
            self._want[k] = 0
        try:
            self.show()
        finally:
            self._i2c.deinit()
