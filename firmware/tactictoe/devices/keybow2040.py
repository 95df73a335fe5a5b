"""The Pimoroni Keybow 2040's LEDs on CircuitPython: its IS31FL3731
through Adafruit's ``adafruit_is31fl3731`` (the Keybow2040 class), with
``neopixel``'s surface for ``hw_circuitpython``. Loaded only by a board
whose config names the chip (MicroPython boards use ``is31fl3731.py``).
"""


_COLOR_OFFSET = 0x24  # the first PWM register of a frame (datasheet, and the library)


class Keybow2040Pixels:
    """The Keybow 2040's LEDs through ``adafruit_is31fl3731``'s Keybow2040
    class, with ``neopixel``'s surface: ``pixels[k] = 0xRRGGBB`` for key k's
    LED, then ``show()``, which sends the frame's PWM registers in one
    write when an LED changed."""

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
        self._pwm = bytearray(144)  # frame 0's PWM registers, as sent

    def __setitem__(self, k, colour):
        self._want[k] = colour

    def show(self):
        # The changed LEDs' PWM values go into a copy of the chip's 144 PWM
        # registers (frame 0), sent as one auto-increment write: the
        # library's pixelrgb() writes each colour of each LED as its own
        # transactions, a dozen an LED, too slow to light a move at once.
        want = self._want
        sent = self._sent
        pwm = self._pwm
        addr = self._chip.pixel_addr
        changed = False
        for k in range(len(want)):
            c = want[k]
            if c != sent[k]:
                # Pimoroni's keybow2040 library: key k is pixel (k % 4, k // 4),
                # which the Keybow2040 class maps as pixelrgb() does
                x = 4 * (3 - k % 4) + k // 4
                pwm[addr(x, 0)] = c >> 16
                pwm[addr(x, 1)] = c >> 8 & 0xFF
                pwm[addr(x, 2)] = c & 0xFF
                sent[k] = c
                changed = True
        if changed:
            # The library's own register writes, as its pixel() makes them
            # (private methods of the pinned adafruit-circuitpython-is31fl3731 3.4.8)
            self._chip._bank(0)
            self._chip._i2c_write_reg(_COLOR_OFFSET, pwm)

    def deinit(self):
        """Blank the LEDs and give the bus back."""
        for k in range(len(self._want)):
            self._want[k] = 0
        try:
            self.show()
        finally:
            self._i2c.deinit()
