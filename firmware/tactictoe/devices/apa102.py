"""APA102 (DotStar) LEDs on an SPI bus, with NeoPixel's surface: ``buf``
(3 bytes a LED, in the chain's colour order) and ``write()``.

Frame (APA102 datasheet; Pimoroni's pico_rgb_keypad sends the same): a
start frame of 32 zero bits; per LED 0xE0 | a 5-bit global brightness, then
the three colour bytes (blue, green, red on the chip); then an end frame.
"""

from micropython import const

_START = const(4)  # start frame: 4 zero bytes


class APA102:
    """:param spi: an SPI bus with ``write(buf)``, such as ``machine.SPI``
        (CircuitPython boards drive their APA102s with adafruit_dotstar).
    :param n: LEDs in the chain.
    :param cs: a ``machine.Pin`` driven low while a frame goes out (the
        Pico RGB Keypad gates the LEDs' clock with GPIO 17), or None.
    :param brightness: the chip's 5-bit global brightness, 0-31 (the game
        scales the colours itself, so full by default)."""

    def __init__(self, spi, n, *, cs=None, brightness=31):
        self.spi = spi
        self.cs = cs
        self.n = n
        self.buf = bytearray(3 * n)
        # Zero bits, not ones, for the end frame (as adafruit_dotstar): the
        # data runs one clock late at each LED, so n/2 more clocks push it to
        # the last; at least 32, as Pimoroni's driver sends.
        self._frame = bytearray(_START + 4 * n + max(4, (n + 15) // 16))
        for i in range(n):
            self._frame[_START + 4 * i] = 0xE0 | brightness
        if cs is not None:
            cs(1)

    def write(self):
        """Send ``buf`` to the chain (no allocation)."""
        buf = self.buf
        frame = self._frame
        j = _START
        for i in range(0, 3 * self.n, 3):
            frame[j + 1] = buf[i]
            frame[j + 2] = buf[i + 1]
            frame[j + 3] = buf[i + 2]
            j += 4
        cs = self.cs
        if cs is not None:
            cs(0)
        self.spi.write(frame)
        if cs is not None:
            cs(1)

    def deinit(self):
        """Blank the LEDs."""
        for i in range(3 * self.n):
            self.buf[i] = 0
        self.write()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
