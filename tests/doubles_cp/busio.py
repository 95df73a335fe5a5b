"""Test double for CircuitPython's ``busio``: SPI keeps what it sends (with
the levels digitalio drives then, for a chip-select), I2C answers as a
TCA9555 at ``input.address`` with the keys fingers.held says are down, and
as an IS31FL3731 at 0x74 (tests/fw/is31regs.py)."""

import os
import sys

import fingers
from microcontroller import claim, release

try:
    import is31regs
except ImportError:  # the chip's registers live with the MicroPython doubles, beside these: that
    # folder on the path just for this import (its machine_more must stay out of this layer's sight)
    _HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "doubles")
    sys.path.append(_HERE)
    try:
        import is31regs
    finally:
        sys.path.remove(_HERE)

KEEP = 256  # transfers kept: the last ones (a long game sends thousands)
spi_writes = []  # (bytes, {pin name: level driven by digitalio})
i2c_reads = []  # (address, register, count)


class SPI:
    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):
        self.pins = [p for p in (clock, MOSI, MISO) if p is not None]
        for p in self.pins:
            claim(p)
        self._locked = False
        self.baudrate = 100000

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        assert self._locked, "configure() without the lock"
        self.baudrate = baudrate

    def write(self, buf, start=0, end=None):
        import digitalio

        assert self._locked, "write() without the lock"
        spi_writes.append((bytes(buf[start:end]), dict(digitalio.levels)))
        if len(spi_writes) > KEEP:
            del spi_writes[0]

    def deinit(self):
        for p in self.pins:
            release(p)


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        self.pins = [scl, sda]
        for p in self.pins:
            claim(p)
        self._locked = False

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def writeto(self, address, buffer, *, start=0, end=None):
        assert self._locked, "a transfer without the lock"
        if address != is31regs.ADDRESS:
            raise OSError(19)  # no acknowledge (adafruit_bus_device's probe writes no bytes)
        is31regs.CHIP.write(bytes(buffer[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        assert self._locked, "a transfer without the lock"
        raise OSError(19)

    def writeto_then_readfrom(self, address, buffer_out, buffer_in, *, out_start=0, out_end=None, in_start=0,
                              in_end=None):
        assert self._locked, "a transfer without the lock"
        if address == is31regs.ADDRESS:
            n = (len(buffer_in) if in_end is None else in_end) - in_start
            buffer_in[in_start:in_start + n] = is31regs.CHIP.read(buffer_out[out_start], n)
            return
        inp = fingers._input or {}
        if inp.get("kind") != "tca9555" or address != inp.get("address"):
            raise OSError(19)  # no acknowledge
        reg = buffer_out[out_start]
        n = (len(buffer_in) if in_end is None else in_end) - in_start
        i2c_reads.append((address, reg, n))
        if len(i2c_reads) > KEEP:
            del i2c_reads[0]
        port = 0xFFFF
        keys = inp.get("keys", ())
        for i in range(len(keys)):
            if fingers.held >> i & 1:
                port &= ~(1 << keys[i])
        regs = (port & 0xFF, port >> 8, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF)
        for i in range(n):
            buffer_in[in_start + i] = regs[(reg & 6) | ((reg + i) & 1)]

    def deinit(self):
        for p in self.pins:
            release(p)
