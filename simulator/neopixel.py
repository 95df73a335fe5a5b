"""``neopixel`` for the virtual board: the chain on the wired LED pin shows
what it is sent (``simbus.leds``); a chain on any other pin lights nothing."""

import simbus


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        o = i * self.bpp
        for k in range(self.bpp):
            self.buf[o + self.ORDER[k]] = v[k]

    def __getitem__(self, i):
        o = i * self.bpp
        return tuple(self.buf[o + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        if getattr(self.pin, "id", self.pin) != simbus.wiring["leds"]["pin"]:
            return
        # The chain has 9 pixels: extra data runs off its end, and pixels
        # sent nothing keep their colour.
        old = simbus.last_leds()
        n = min(len(self.buf), 27) if self.bpp == 3 else 0
        simbus.leds(bytes(self.buf[:n]) + old[n:])
