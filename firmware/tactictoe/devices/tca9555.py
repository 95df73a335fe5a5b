"""TCA9555: a 16-bit I2C port expander, here reading a grid of keys to
ground (the Pico RGB Keypad's 4x4: keys 0-7 on port 0, 8-15 on port 1).

Every pin is an input after power-on, so the driver only reads the two
input-port registers.
"""

from micropython import const

_INPUT_PORT0 = const(0x00)  # then _INPUT_PORT1 at 0x01: one 2-byte read


class TCA9555:
    """:param i2c: an I2C bus with ``readfrom_mem_into(addr, reg, buf)``
        (``machine.I2C``, or busio.I2C through ``hw_circuitpython.I2CBus``).
    :param keys: the expander key (0-15) of each bit ``scan()`` reports, as
        ``bytes``; None: bit k is key k.
    :param address: the chip's I2C address (0x20 with A0-A2 low)."""

    def __init__(self, i2c, keys=None, *, address=0x20):
        self.i2c = i2c
        self.keys = keys
        self.address = address
        self._buf = bytearray(2)

    def read(self):
        """The keys held now, bit k = key k (the pins read low)."""
        self.i2c.readfrom_mem_into(self.address, _INPUT_PORT0, self._buf)
        return ~(self._buf[0] | self._buf[1] << 8) & 0xFFFF

    def scan(self):
        """The held keys as ``keys`` numbers them: bit i if key ``keys[i]``."""
        raw = self.read()
        keys = self.keys
        if keys is None:
            return raw
        mask = 0
        for i in range(len(keys)):
            if raw >> keys[i] & 1:
                mask |= 1 << i
        return mask

    def deinit(self):
        """Nothing to release: the bus is the caller's."""

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
