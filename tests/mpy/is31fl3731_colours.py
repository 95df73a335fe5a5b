"""IS31FL3731 smoke test: 16 known colours on the Pimoroni Keybow 2040's
LEDs, with machine.I2C alone, no driver; then an LED switched off, another
frame shown, and the chip shut down. Prints "sent", "off", "frame 1" and
"end", each once the chip has it.

Wiring (Keybow 2040): I2C0 SDA 4, SCL 5, the chip at 0x74. Register 0xFD
selects the page (frames 0-7, 0x0B the function registers); a write's
first byte is the register, the next go to the registers after it.
Key k's red, green and blue are LEDs LEDS[3k], [3k+1], [3k+2] (Adafruit's
keybow2040 table); LED n's duty is register 0x24 + n, its on bit register
n >> 3, bit n & 7.
Run: copy as main.py onto the board (tests/test_chips.py does it in the
emulated RP2040), or mpremote run tests/mpy/is31fl3731_colours.py."""

import time

from machine import I2C, Pin

LEDS = (123, 91, 107, 122, 90, 106, 121, 89, 105, 120, 88, 104, 139, 26, 75, 138, 25, 74, 137, 41, 73,
        136, 40, 72, 115, 83, 99, 114, 82, 98, 113, 81, 97, 112, 80, 96, 131, 18, 67, 130, 17, 66,
        129, 33, 65, 128, 32, 64)

i2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400_000)


def reg(page, r, *data):
    i2c.writeto(0x74, bytes((0xFD, page)))
    i2c.writeto(0x74, bytes((r,) + data))


found = i2c.scan()  # a write of no bytes to each address, bit-banged on the pins
try:  # AD to ground: 0x74; nothing answers at 0x75
    i2c.readfrom(0x75, 1)
    other = "answers"
except OSError:
    other = "silent"
reg(0x0B, 0x00, *bytes(13))  # picture mode, frame 0; shut down
frame = bytearray(1 + 0xB4)  # from register 0: on bits, blink bits, duties
for k in range(16):
    r, g, b = 16 * k, 255 - 16 * k, k
    for n, duty in zip(LEDS[3 * k:3 * k + 3], (r, g, b)):
        frame[1 + (n >> 3)] |= 1 << (n & 7)
        frame[1 + 0x24 + n] = duty
reg(0, 0x00, *frame[1:])
reg(1, 0x24 + LEDS[0], 200)  # frame 1, not shown yet: key 0's red at 200...
reg(1, LEDS[0] >> 3, 1 << (LEDS[0] & 7))  # ...and on
# the Command Register reads back the page last selected
print("page", i2c.readfrom_mem(0x74, 0xFD, 1)[0], "0x75", other, "scan", found)


def seen(what):
    time.sleep_ms(20)  # the chip's report follows a quiet bus
    print(what)
    time.sleep_ms(200)  # the test looks before the next change


reg(0x0B, 0x0A, 1)  # shutdown register: normal operation
seen("sent")
n = LEDS[3 * 5]  # key 5's red off: its on bit cleared, the duty kept
reg(0, n >> 3, frame[1 + (n >> 3)] & ~(1 << (n & 7)))
seen("off")
reg(0x0B, 0x01, 1)  # picture display: frame 1, its one LED
seen("frame 1")
reg(0x0B, 0x0A, 0)  # software shutdown: all dark
seen("end")
