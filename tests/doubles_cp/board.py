"""Test double for CircuitPython's ``board``: the Pico's GP pins."""

from microcontroller import Pin

for _i in range(29):
    globals()["GP%d" % _i] = Pin("GP%d" % _i)

# The Adafruit MacroPad RP2040's names (its pins.c), the same pins as the GP
# ones: keys, encoder, speaker, NeoPixels and the display its board.c made.
for _i in range(1, 13):
    globals()["KEY%d" % _i] = globals()["GP%d" % _i]
ENCODER_SWITCH = BUTTON = GP0  # noqa: F821  (made above)
ROTA = ENCODER_A = GP17  # noqa: F821
ROTB = ENCODER_B = GP18  # noqa: F821
SPEAKER_ENABLE = GP14  # noqa: F821
SPEAKER = GP16  # noqa: F821
NEOPIXEL = GP19  # noqa: F821

# The Pimoroni Keybow 2040's (its pins.c): SW0-SW15 on GPIO 21 down to 6,
# the IS31FL3731's I2C on GPIO 4/5.
for _i in range(16):
    globals()["SW%d" % _i] = globals()["GP%d" % (21 - _i)]
SDA = GP4  # noqa: F821
SCL = GP5  # noqa: F821


class _Display:
    """board.DISPLAY: the SH1106 CircuitPython set up; shows ``root_group``."""
    width = 128
    height = 64

    def __init__(self):
        import displayio

        self.root_group = displayio.CIRCUITPYTHON_TERMINAL


DISPLAY = _Display()
