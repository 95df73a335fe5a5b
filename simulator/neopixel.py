"""``neopixel`` for the virtual board, as the rp2 port freezes it
(micropython-lib's driver): a buffer of the pixels' bytes in the chain's
order (G R B, or G R B W with ``bpp=4``), sent with ``machine.bitstream``.
The virtual board's ``bitstream`` hands what goes out on the wired LED pin to
its chain of nine WS2812s; a chain on any other pin lights nothing."""

from machine import bitstream


class NeoPixel:
    # where the R, G, B and W of a colour go among a pixel's bytes
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.pin.init(pin.OUT)
        # 1: 800 kHz, 0: 400 kHz, or (high_0, low_0, high_1, low_1) in ns
        if isinstance(timing, int):
            timing = (400, 850, 800, 450) if timing else (800, 1700, 1600, 900)
        self.timing = timing

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        at = i * self.bpp
        for k in range(self.bpp):
            self.buf[at + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        at = i * self.bpp
        return tuple(self.buf[at + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        buf = self.buf
        for k in range(self.bpp):
            c = v[k]
            for j in range(self.ORDER[k], len(buf), self.bpp):
                buf[j] = c

    def write(self):
        bitstream(self.pin, 0, self.timing, self.buf)
