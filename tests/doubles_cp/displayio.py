"""Test double for CircuitPython's ``displayio``: what adafruit_display_text's
Label builds (Group, Palette, Bitmap, TileGrid), holding what it is given."""


class Group(list):
    def __init__(self, *, scale=1, x=0, y=0):
        super().__init__()
        self._scale = scale  # (not through .scale, which Label overrides)
        self.x = x
        self.y = y
        self.hidden = False

    @property
    def scale(self):
        return self._scale

    @scale.setter
    def scale(self, s):
        self._scale = s


class Palette:
    def __init__(self, color_count, *, dither=False):
        self._colours = [0] * color_count
        self._transparent = set()

    def __setitem__(self, i, colour):
        self._colours[i] = colour

    def __getitem__(self, i):
        return self._colours[i]

    def __len__(self):
        return len(self._colours)

    def make_transparent(self, i):
        self._transparent.add(i)

    def make_opaque(self, i):
        self._transparent.discard(i)


class Bitmap:
    def __init__(self, width, height, value_count):
        self.width = width
        self.height = height
        self._px = bytearray(width * height)

    def __setitem__(self, xy, v):
        x, y = xy if isinstance(xy, tuple) else (xy % self.width, xy // self.width)
        self._px[y * self.width + x] = v

    def __getitem__(self, xy):
        x, y = xy if isinstance(xy, tuple) else (xy % self.width, xy // self.width)
        return self._px[y * self.width + x]

    def fill(self, v):
        for i in range(len(self._px)):
            self._px[i] = v


class TileGrid:
    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None, tile_height=None,
                 default_tile=0, x=0, y=0):
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.tile = default_tile
        self.x = x
        self.y = y
        self.hidden = False
        self.transpose_xy = self.flip_x = self.flip_y = False

    def __setitem__(self, i, tile):
        self.tile = tile

    def __getitem__(self, i):
        return self.tile


CIRCUITPYTHON_TERMINAL = Group()
