"""Test double for CircuitPython's ``terminalio``: FONT, 6x12 cells (the
built-in font's box), each printable character's glyph one tile of it."""

import displayio


class _Glyph:
    def __init__(self, code):
        self.bitmap = _BITMAP
        self.tile_index = code - 32
        self.width = 6
        self.height = 12
        self.dx = 0
        self.dy = -2
        self.shift_x = 6
        self.shift_y = 0


_BITMAP = displayio.Bitmap(6 * 95, 12, 2)


class _Font:
    def get_bounding_box(self):
        return (6, 12)

    def get_glyph(self, code):
        return _Glyph(code if 32 <= code < 127 else 63)


FONT = _Font()
