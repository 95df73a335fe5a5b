"""SH1106 smoke test: text from framebuf on the MacroPad's OLED, with
machine.SPI and three pins, no driver. Prints "shown" when the 8 pages are
out.

Wiring (Adafruit MacroPad RP2040): SPI1 SCK 26, MOSI 27, CS 22, D/C 24,
RESET 23; a 128x64 glass on the SH1106's 132 columns from column 2.
Run: copy as main.py onto the board (the tests do it in the emulated RP2040,
tests/test_chips.py), or mpremote run tests/mpy/sh1106_text.py."""

from machine import Pin, SPI
import framebuf
import time

TEXT = ("tactic-toe", "X to play", "#22")
spi = SPI(1, baudrate=10_000_000, sck=Pin(26), mosi=Pin(27))
cs = Pin(22, Pin.OUT, value=1)
dc = Pin(24, Pin.OUT, value=0)
res = Pin(23, Pin.OUT, value=1)
res(0)
time.sleep_ms(1)
res(1)
time.sleep_ms(1)


def send(data, data_mode):
    dc(data_mode)
    cs(0)
    spi.write(data)
    cs(1)


# display off, clock, multiplex 64, offset 0, start line 0, DC-DC on,
# segment remap, COM scan reversed, COM pins, contrast, precharge, VCOM,
# normal (not inverted), RAM shown, display on
send(b"\xae\xd5\x80\xa8\x3f\xd3\x00\x40\xad\x8b\xa1\xc8\xda\x12\x81\xcf\xd9\x1f\xdb\x40\xa6\xa4\xaf", 0)
buf = bytearray(128 * 64 // 8)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
for i, line in enumerate(TEXT):
    fb.text(line, 0, 12 * i, 1)
for page in range(8):
    send(bytes((0xB0 | page, 0x02, 0x10)), 0)  # page, column 2 (low nibble, high nibble)
    send(buf[page * 128:(page + 1) * 128], 1)
print("shown")
