"""SH1106 128x64 OLED on SPI (the MacroPad's), as a ``framebuf.FrameBuffer``
(MONO_VLSB: each byte a column of 8 pixels, bit 0 on top), with ``show()``
sending the buffer one 8-row page at a time.

The SH1106 has 132 columns of RAM for a 128-pixel panel: the panel's
column 0 is RAM column 2. A page write: with D/C low, set the page (0xB0 |
page) and the column (0x02: low nibble 2; 0x10: high nibble 0), then with
D/C high 128 data bytes.
"""

import framebuf
from micropython import const

WIDTH = const(128)
HEIGHT = const(64)
_COLUMN = const(2)  # RAM column of the panel's first column

# The MacroPad's own CircuitPython board.c sends this (less its SSD1306-only
# 0x20 0x20); each byte is a command, D/C low.
_INIT = bytes((
    0xAE,  # display off
    0xD5, 0x80,  # clock: divide by 1, oscillator default
    0xA8, 0x3F,  # multiplex ratio: 64 rows
    0xD3, 0x00,  # display offset 0
    0x40,  # start line 0
    0xAD, 0x8B,  # DC-DC converter on
    0xA1,  # segment remap: column 131 is SEG0 (the MacroPad's panel is turned)
    0xC8,  # COM scan from COM63 down
    0xDA, 0x12,  # COM pins: alternative
    0x81, 0xFF,  # contrast 255
    0xD9, 0x1F,  # pre-charge 15 clocks, discharge 1
    0xDB, 0x20,  # VCOM deselect level 0.77 Vcc
    0x33,  # pump voltage 9 V
    0xA6,  # normal, not inverted
    0xA4,  # show the RAM, not all on
))
_ON = const(0xAF)
_OFF = const(0xAE)


class SH1106(framebuf.FrameBuffer):
    """:param spi: a ``machine.SPI`` (mode 0; the MacroPad's SPI1, SCK 26,
        MOSI 27).
    :param dc: the D/C pin (low: command, high: data), a ``machine.Pin``.
    :param res: the reset pin (low resets), or None.
    :param cs: the chip-select pin (low selects), or None."""

    def __init__(self, spi, dc, res=None, cs=None):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        # Preallocated: one page's data, and the page-address commands.
        view = memoryview(self.buffer)
        self._pages = [view[WIDTH * p:WIDTH * (p + 1)] for p in range(HEIGHT // 8)]
        self._cmd = bytearray(3)
        dc(0)
        if cs is not None:
            cs(1)
        if res is not None:  # at least 10 us low (datasheet), as board.c: 1 ms
            import time

            res(0)
            time.sleep(0.001)
            res(1)
            time.sleep(0.001)
        self._send(0, _INIT)
        self.fill(0)
        self.show()
        self.power(True)

    def _send(self, data, buf):
        if self.cs is not None:
            self.cs(0)
        self.dc(data)
        self.spi.write(buf)
        if self.cs is not None:
            self.cs(1)

    def power(self, on):
        """Turn the panel on or off (the RAM is kept)."""
        self._cmd[0] = _ON if on else _OFF
        self._send(0, memoryview(self._cmd)[:1])

    def show(self):
        """Send the whole buffer, page by page."""
        cmd = self._cmd
        for page in range(HEIGHT // 8):
            cmd[0] = 0xB0 | page
            cmd[1] = _COLUMN & 0x0F  # column low nibble
            cmd[2] = 0x10 | _COLUMN >> 4  # column high nibble
            self._send(0, cmd)
            self._send(1, self._pages[page])

    def deinit(self):
        """Blank the panel and turn it off."""
        self.fill(0)
        self.show()
        self.power(False)

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
