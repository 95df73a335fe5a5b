"""APA102 smoke test: one frame of 16 known colours on the Pimoroni RGB
Keypad's LEDs, with machine.SPI and the chip-select pin, no driver. Prints
"sent".

Wiring (Pico RGB Keypad Base, PIM551): SPI0 SCK 18, MOSI 19, CS 17 (low
while sending). A frame: 4 zero bytes, then per LED 0xE0 | brightness
(0-31), blue, green, red; then an end frame.
Run: copy as main.py onto the board (tests/test_chips.py does it in the
emulated RP2040), or mpremote run tests/mpy/apa102_colours.py."""

from machine import Pin, SPI

spi = SPI(0, baudrate=4_000_000, sck=Pin(18), mosi=Pin(19))
cs = Pin(17, Pin.OUT, value=1)
frame = bytearray(4 + 16 * 4 + 4)
for i in range(16):
    # LED i: red 16 * i, green 255 - 16 * i, blue i, brightness i + 1
    frame[4 + 4 * i:8 + 4 * i] = bytes((0xE0 | (i + 1), i, 255 - 16 * i, 16 * i))
frame[-4:] = b"\xff\xff\xff\xff"
cs(0)
spi.write(frame)
cs(1)
print("sent")
