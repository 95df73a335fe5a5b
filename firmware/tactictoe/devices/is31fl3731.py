"""IS31FL3731: a 144-LED matrix driver on I2C, here the Keybow 2040's 16
RGB LEDs, with NeoPixel's surface: ``buf`` (3 bytes a LED: red, green,
blue) and ``write()``.

Registers (ISSI IS31FL3731 datasheet): 0xFD, on every page, selects the
page (frames 0-7, or 0x0B, the function registers). A frame: LED on/off
bits at 0x00-0x11, blink bits at 0x12-0x23, one PWM duty per LED at
0x24-0xB3. The function page: 0x00 configuration (0: picture mode), 0x01
the frame shown, 0x05 display option, 0x0A shutdown (1: on). The address
increments after each byte, so a run of registers is one write.
"""

from micropython import const

_COMMAND = const(0xFD)
_FUNCTION = const(0x0B)
_SHUTDOWN = const(0x0A)
_PWM = const(0x24)
_FRAME_REGS = const(0xB4)  # 0x00-0xB3

# The Keybow 2040's LED under each key SW0-SW15 (GPIO 21 down to 6): its
# red, green and blue LED numbers on the chip (Adafruit's
# adafruit_is31fl3731 keybow2040.py, indexed as Pimoroni's library asks for
# key k's pixel).
KEYBOW2040 = bytes((
    123, 91, 107, 122, 90, 106, 121, 89, 105, 120, 88, 104,
    139, 26, 75, 138, 25, 74, 137, 41, 73, 136, 40, 72,
    115, 83, 99, 114, 82, 98, 113, 81, 97, 112, 80, 96,
    131, 18, 67, 130, 17, 66, 129, 33, 65, 128, 32, 64,
))


class IS31FL3731:
    """:param i2c: an I2C bus with ``writeto(addr, buf)`` (``machine.I2C``;
        the chip takes up to 400 kHz).
    :param leds: the chip's LED numbers (0-143) of each channel of ``buf``,
        as ``bytes`` (3 a pixel); the Keybow 2040's by default.
    :param address: the chip's I2C address (0x74 with AD to ground)."""

    def __init__(self, i2c, leds=KEYBOW2040, *, address=0x74):
        self.i2c = i2c
        self.address = address
        self.leds = leds
        self.n = len(leds) // 3
        self.buf = bytearray(len(leds))
        self._sent = bytearray(len(leds))
        self._lo = min(leds)
        # one write of the PWM registers from the first LED used to the last
        self._pwm = bytearray(2 + max(leds) - self._lo)
        self._pwm[0] = _PWM + self._lo
        self._cmd = bytearray(2)
        self._init()

    def _reg(self, reg, value):
        self._cmd[0] = reg
        self._cmd[1] = value
        self.i2c.writeto(self.address, self._cmd)

    def _init(self):
        self._reg(_COMMAND, _FUNCTION)
        self._reg(_SHUTDOWN, 0)  # off while it is set up
        # picture mode, frame 0 shown, no blink, audio or breath: every
        # function register (0x00-0x0C) zero, shutdown included
        self.i2c.writeto(self.address, bytes(14))
        self._reg(_COMMAND, 0)
        # frame 0: the LEDs in use on, no blinking, every duty 0
        frame = bytearray(1 + _FRAME_REGS)
        for n in self.leds:
            frame[1 + (n >> 3)] |= 1 << (n & 7)
        self.i2c.writeto(self.address, frame)
        self._reg(_COMMAND, _FUNCTION)
        self._reg(_SHUTDOWN, 1)
        self._reg(_COMMAND, 0)  # frame 0's page from here on

    def write(self):
        """Send ``buf`` to the PWM registers, if it changed since the last
        write (no allocation)."""
        buf = self.buf
        if buf == self._sent:
            return
        pwm = self._pwm
        sent = self._sent
        leds = self.leds
        lo = self._lo - 1
        for i in range(len(buf)):
            pwm[leds[i] - lo] = sent[i] = buf[i]
        self.i2c.writeto(self.address, pwm)

    def deinit(self):
        """Blank the LEDs and shut the chip down."""
        for i in range(len(self.buf)):
            self.buf[i] = 0
        self.write()
        self._reg(_COMMAND, _FUNCTION)
        self._reg(_SHUTDOWN, 0)
        self._reg(_COMMAND, 0)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
