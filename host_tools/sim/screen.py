"""The MacroPad's 128x64 screen in a terminal, in one of two sizes: two
pixel rows per text line in half-block characters (``render``: 128x32
characters), or 2x4 pixels per character in Unicode braille (``braille``:
64x16, for an 80x24 terminal).

The picture is the emulated SH1106's glass (``pico.EmulatedPico.screen``):
1024 bytes, byte ``(y >> 3) * 128 + x`` holding pixel (x, y) in bit
``y & 7`` (the SH1106's own page layout, and framebuf's MONO_VLSB).
"""

WIDTH = 128
HEIGHT = 64
# by (top pixel lit, bottom pixel lit): neither, top, bottom, both
BLOCKS = (" ", "\u2580", "\u2584", "\u2588")
# Braille patterns (U+2800 plus a bit per dot): the bit of the dot at
# (x, y) in a 2x4 cell, dots 1-2-3-7 down the left, 4-5-6-8 down the right.
BRAILLE = 0x2800
DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def pixel(fb, x, y):
    """1 if pixel (x, y) of ``fb`` is lit, else 0."""
    return (fb[(y >> 3) * WIDTH + x] >> (y & 7)) & 1


def _check(fb):
    if len(fb) != WIDTH * HEIGHT // 8:
        raise ValueError("a 128x64 screen is %d bytes, not %d" % (WIDTH * HEIGHT // 8, len(fb)))


def render(fb):
    """The picture as 32 str lines of 128 characters: space, upper half
    block, lower half block or full block for each pair of rows."""
    _check(fb)
    return ["".join(BLOCKS[pixel(fb, x, y) | pixel(fb, x, y + 1) << 1] for x in range(WIDTH))
            for y in range(0, HEIGHT, 2)]


def _cell(fb, x, y):
    """The braille character of the 2x4 pixels from (x, y); a space if none is lit."""
    dots = sum(bit for dy, row in enumerate(DOTS) for dx, bit in enumerate(row) if pixel(fb, x + dx, y + dy))
    return chr(BRAILLE + dots) if dots else " "


def braille(fb):
    """The picture as 16 str lines of 64 characters, each 2x4 pixels as a
    braille pattern (a space where all eight are dark)."""
    _check(fb)
    return ["".join(_cell(fb, x, y) for x in range(0, WIDTH, 2)) for y in range(0, HEIGHT, 4)]
