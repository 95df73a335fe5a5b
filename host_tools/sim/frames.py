"""Frames as text: a line per LED frame for the headless modes, with a
letter per cell naming the colour it shows."""

# The names the headless output gives colours, by hue; X and O first.
_NAMES = (("X", "x"), ("O", "o"), ("W", "win"), ("D", "draw"), ("R", "error"), ("M", "menu"),
          ("N", "notice"), ("H", "x"), ("J", "o"))
_HINTS = "HJ"  # X's and O's hints: their marks' colours lightened (app.App's tints)


def _tint(colour):
    return [v + ((255 - v) * 3 >> 3) for v in colour]


def letter(rgb, cfg):
    """One character for a cell: "." off, else the nearest of the config's
    colours by hue (X, O, W win/white, D draw, R error, M menu, N notice,
    H and J X's and O's hints), lower case when lit at under half the
    brightness cap."""
    top = max(rgb)
    if not top:
        return "."
    unit = [v / top for v in rgb]
    best, dist = "?", 9.0
    for ch, name in _NAMES:
        ref = _tint(cfg["colours"][name]) if ch in _HINTS else cfg["colours"][name]
        m = max(ref)
        d = sum((u - v / m) ** 2 for u, v in zip(unit, ref))
        if d < dist:
            best, dist = ch, d
    if top < 0.5 * 255 * cfg["leds"]["brightness"]:
        best = best.lower()
    return best


def frame_line(ms, cells, cfg):
    """``frame MS GRID HEX``: e.g. ``frame 4120 X../.O./... ff6e00,000000,...``."""
    grid = "".join(letter(c, cfg) for c in cells)
    return "frame %d %s/%s/%s %s" % (ms, grid[0:3], grid[3:6], grid[6:9],
                                     ",".join("%02x%02x%02x" % c for c in cells))
