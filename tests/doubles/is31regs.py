"""The IS31FL3731's registers for the test doubles (MicroPython's
``machine.I2C`` here, and CircuitPython's ``busio.I2C`` in tests/doubles_cp,
which finds this folder beside its own): what
the chip took over I2C, and the colour each Keybow 2040 key's LED shows.
The emulator's model (simulator/rp2040/chips/is31fl3731.mjs) is the full
one; this keeps only what a picture needs: pages, on bits, PWM duties, the
frame shown and the shutdown bit.

A write's first byte is the register; the rest go to the registers after
it. 0xFD selects the page: frames 0-7, 0x0B the function registers (0x01
the frame shown, 0x0A shutdown: 1 on).
"""

ADDRESS = 0x74  # AD to ground, as on the Keybow 2040

# Key k's red, green and blue LED numbers (Adafruit's keybow2040.py table,
# entry 4 * (3 - k % 4) + k // 4), written out here on their own.
KEYBOW2040 = ((123, 91, 107), (122, 90, 106), (121, 89, 105), (120, 88, 104),
              (139, 26, 75), (138, 25, 74), (137, 41, 73), (136, 40, 72),
              (115, 83, 99), (114, 82, 98), (113, 81, 97), (112, 80, 96),
              (131, 18, 67), (130, 17, 66), (129, 33, 65), (128, 32, 64))


class Chip:
    def __init__(self):
        self.reset()

    def reset(self):
        self.frames = [bytearray(0xB4) for _ in range(8)]
        self.func = bytearray(13)
        self.page = 0
        self.writes = 0  # register writes taken (the probe's empty write is none)

    def _regs(self):
        if self.page < 8:
            return self.frames[self.page]
        return self.func if self.page == 0x0B else None

    def write(self, buf):
        if not len(buf):
            return
        reg = buf[0]
        for v in buf[1:]:
            if reg == 0xFD:
                self.page = v
            else:
                regs = self._regs()
                if regs is not None and reg < len(regs):
                    regs[reg] = v
            reg = (reg + 1) & 0xFF
            self.writes += 1

    def read(self, reg, n):
        regs = self._regs()
        out = bytearray(n)
        for i in range(n):
            r = reg + i
            out[i] = self.page if r == 0xFD else (regs[r] if regs is not None and r < len(regs) else 0)
        return out

    def shown(self, n):
        """LED n's duty as seen: 0 if shut down or its on bit is clear."""
        if not self.func[0x0A] & 1:
            return 0
        frame = self.frames[self.func[1] & 7]
        return frame[0x24 + n] if frame[n >> 3] >> (n & 7) & 1 else 0

    def colours(self):
        """3 bytes a key, red, green, blue, keys 0-15; None before any write."""
        if not self.writes:
            return None
        return bytes(self.shown(n) for rgb in KEYBOW2040 for n in rgb)


CHIP = Chip()
