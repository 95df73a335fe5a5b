"""The MacroPad's 128x64 screen in a terminal: two pixel rows per text line,
with half-block characters.

The picture is the emulated SH1106's glass (``pico.EmulatedPico.screen``):
1024 bytes, byte ``(y >> 3) * 128 + x`` holding pixel (x, y) in bit
``y & 7`` (the SH1106's own page layout, and framebuf's MONO_VLSB).
"""

WIDTH = 128
HEIGHT = 64
# by (top pixel lit, bottom pixel lit): neither, top, bottom, both
BLOCKS = (" ", "\u2580", "\u2584", "\u2588")


def pixel(fb, x, y):
    """1 if pixel (x, y) of ``fb`` is lit, else 0."""
    return (fb[(y >> 3) * WIDTH + x] >> (y & 7)) & 1


def render(fb):
    """The picture as 32 str lines of 128 characters: space, upper half
    block, lower half block or full block for each pair of rows."""
    if len(fb) != WIDTH * HEIGHT // 8:
        raise ValueError("a 128x64 screen is %d bytes, not %d" % (WIDTH * HEIGHT // 8, len(fb)))
    return ["".join(BLOCKS[pixel(fb, x, y) | pixel(fb, x, y + 1) << 1] for x in range(WIDTH))
            for y in range(0, HEIGHT, 2)]
