"""The rest of the ``machine`` double: pin names, touch pads, PWM and the
module's other names, as the rp2 port has them."""

import machine

PWRON_RESET = 1
WDT_RESET = 3


def find(pin):
    """The GPIO number of a Pin or a Pico pin name ("GP16", "GPIO16",
    "LED"), else the port's ValueError."""
    if isinstance(pin, machine.Pin):
        return pin._id
    if isinstance(pin, str):
        for prefix in ("GPIO", "GP"):
            digits = pin[len(prefix):]
            if pin.startswith(prefix) and digits.isdigit() and str(int(digits)) == digits:
                n = int(digits)
                if n < 30 and (prefix == "GPIO" or n <= 22 or 25 <= n <= 28):
                    return n
        if pin == "LED":
            return 25
        raise ValueError('unknown named pin "%s"' % pin)
    raise ValueError("invalid pin")


class TouchPad:
    def __init__(self, pin):
        self.cell = machine._in["pins"].index(pin._id)

    def read(self):
        down = machine.held >> self.cell & 1
        if down and machine.flaky >> self.cell & 1:  # pressed hard: reads 0, which is an error
            raise ValueError("Touch pad error")
        spread = 40 * self.cell  # pads differ with their size and wiring
        if machine._in["rises"]:  # ESP32-S2/S3: about 30000, higher when touched
            return 30000 + 20 * spread + (12000 if down else 0)
        return 500 + spread - (380 if down else 0)  # ESP32: about 600, lower when touched


_F = 125000000  # the rp2 port's clock


def _int(x):
    if not isinstance(x, int) or isinstance(x, bool):
        raise TypeError("can't convert %s to int" % type(x).__name__)
    return x


class PWM:
    """One channel. Frequencies and duties read back as the rp2 port
    computes them; each duty_u16() call is kept in ``machine.tones``."""

    def __init__(self, pin, freq=-1, duty_u16=-1):
        machine.Pin(pin)  # the port's ValueError for a pin it hasn't got
        self.f = self.d = self.cc = 0
        if freq != -1:
            self.freq(freq)
        if duty_u16 != -1:
            self.duty_u16(duty_u16)

    def freq(self, f=None):
        if f is None:  # what the divider and top give, 0 before any was set
            d = self.div * (self.top + 1) if self.f else 0
            return (16 * _F + d // 2) // d if d else 0
        if _int(f) <= 0:
            raise ValueError("freq too small")  # (the port wraps negative ones round: see the simulator's)
        if (_F + f // 2) // f < 65534:
            div, top = 16, (_F + f // 2) // f - 1
        else:
            div = (16 * _F + 65534 * f - 1) // (65534 * f)
            if div >= 4096:
                raise ValueError("freq too small")
            top = (16 * _F + div * f // 2) // (div * f) - 1
        self.div, self.top, self.f = div, top & 0xFFFF, f
        self.cc = (self.d * (self.top + 1) + 32767) // 65535  # the duty is kept

    def duty_u16(self, d=None):
        if d is None:  # the compare register, as the port reads it back
            return (self.cc * 65535 + (self.top + 1) // 2) // (self.top + 1) if self.f else 0
        self.d = d = max(min(_int(d), 65535), 0)
        if self.f:
            self.cc = (d * (self.top + 1) + 32767) // 65535
        machine.tones.append((self.f, d))

    def deinit(self):
        self.duty_u16(0)


# --- the buses: what the chips would receive ---------------------------------

# The last KEEP transfers (a long game sends thousands of frames), each
# (bus id, bytes, {pin: level driven} at the time: D/C and CS read from it),
# and how many there were in all.
KEEP = 256
spi_writes = []
spi_count = 0
i2c_reads = []  # the last KEEP reads: (bus id, address, register, count)


class SPI:
    def __init__(self, id, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0, sck=None, mosi=None,
                 miso=-1):
        if id not in (0, 1):
            raise ValueError("SPI(%s) doesn't exist" % id)
        self.id = id
        self.baudrate = baudrate
        self.pins = (find(sck), find(mosi), None if miso is None else miso)

    def write(self, buf):
        global spi_count
        spi_writes.append((self.id, bytes(buf), dict(machine._out)))
        spi_count += 1
        if len(spi_writes) > KEEP:
            del spi_writes[0]


def tca9555_ports():
    """The TCA9555's input ports as the keys held make them (low = held):
    cells through input.keys, then the extra keys after them."""
    port = 0xFFFF
    keys = machine._in.get("keys", ())
    for i in range(len(keys)):
        if machine.held >> i & 1:
            port &= ~(1 << keys[i])
    return port


class I2C:
    def __init__(self, id, scl=None, sda=None, freq=400000):
        if id not in (0, 1):
            raise ValueError("I2C(%s) doesn't exist" % id)
        self.id = id
        self.pins = (find(sda), find(scl))

    def writeto(self, addr, buf):
        """An IS31FL3731 at 0x74 (tests/fw/is31regs.py) takes the bytes."""
        import is31regs

        if addr != is31regs.ADDRESS:
            raise OSError(19)  # ENODEV: no acknowledge
        is31regs.CHIP.write(bytes(buf))
        return len(buf)

    def readfrom_mem_into(self, addr, reg, buf):
        """A TCA9555 at input.address: registers 0-1 the input ports, 2-3
        output, 4-5 polarity, 6-7 configuration; reads go through a pair."""
        if machine._in.get("kind") != "tca9555" or addr != machine._in.get("address"):
            raise OSError(19)  # ENODEV: no acknowledge, as the rp2 port reports it
        i2c_reads.append((self.id, addr, reg, len(buf)))
        if len(i2c_reads) > KEEP:
            del i2c_reads[0]
        port = tca9555_ports()
        regs = (port & 0xFF, port >> 8, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF)
        for i in range(len(buf)):
            buf[i] = regs[(reg & 6) | ((reg + i) & 1)]
