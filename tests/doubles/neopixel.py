"""Test double for MicroPython's ``neopixel``: keeps the bytes last sent."""

last = None  # bytes of the last write()
writes = 0


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buf = bytearray(n * bpp)

    def write(self):
        global last, writes
        last = bytes(self.buf)
        writes += 1
