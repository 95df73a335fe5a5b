"""A KiCad 6 schematic sheet as an SVG picture (``schematic.svg``): KiCad 6
plots schematics only from its GUI, so this draws what the file holds,
the way eeschema shows it: each symbol's graphics and pins from the file's
``lib_symbols``, placed, turned and mirrored as the symbol says, its visible
fields, the wires, junctions, no-connect flags, global labels and text.
"""

import math
from xml.sax.saxutils import escape

from host_tools.hardware.pcb.schematic import PAPER, find, first, parse, transform

BODY = "#840000"  # eeschema's colours
BODY_FILL = "#ffffc2"
WIRE = "#008400"
LABEL = "#840000"
TEXT = "#000084"
FIELD = "#006464"
PIN_TEXT = "#008484"
NOCONNECT = "#0000c2"
EM = 1.5  # SVG font size per KiCad text size: KiCad's size is its capitals' height, and about
# its letters' width


def _f(v):
    s = "%.3f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


class Canvas:
    def __init__(self):
        self.out = []

    def line(self, pts, colour, width=0.15, fill="none"):
        self.out.append('<polyline points="%s" fill="%s" stroke="%s" stroke-width="%s"/>' % (
            " ".join("%s,%s" % (_f(x), _f(y)) for x, y in pts), fill, colour, _f(width)))

    def circle(self, x, y, r, colour, width=0.15, fill="none"):
        self.out.append('<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" stroke-width="%s"/>' % (
            _f(x), _f(y), _f(r), fill, colour, _f(width)))

    def path(self, d, colour, width=0.15, fill="none"):
        self.out.append('<path d="%s" fill="%s" stroke="%s" stroke-width="%s"/>' % (d, fill, colour, _f(width)))

    def text(self, words, x, y, size, colour, h="middle", v="central", vertical=False, weight=None):
        rot = ' transform="rotate(-90 %s %s)"' % (_f(x), _f(y)) if vertical else ""
        bold = ' font-weight="bold"' if weight else ""
        self.out.append('<text x="%s" y="%s" font-size="%s" fill="%s" text-anchor="%s" dominant-baseline="%s"%s%s>'
                        '%s</text>' % (_f(x), _f(y), _f(size * EM), colour, h, v, rot, bold, escape(words)))


def _num(node, i):
    return float(node[i])


def _stroke_width(node, default=0.15):
    stroke = first(node, "stroke")
    w = float(first(stroke, "width")[1]) if stroke and first(stroke, "width") else 0.0
    return w if w > 0 else default


def _fill(node):
    fill = first(node, "fill")
    kind = first(fill, "type")[1] if fill and first(fill, "type") else "none"
    return {"background": BODY_FILL, "outline": BODY}.get(kind, "none")


def _justify(effects):
    """(text-anchor, dominant-baseline, hidden) of KiCad text effects."""
    h, v, hidden = "middle", "central", False
    if effects:
        hidden = "hide" in effects
        j = first(effects, "justify")
        if j:
            if "left" in j:
                h = "start"
            if "right" in j:
                h = "end"
            if "top" in j:
                v = "hanging"
            if "bottom" in j:
                v = "auto"
    return h, v, hidden


def _size(effects):
    font = first(effects, "font") if effects else None
    size = first(font, "size") if font else None
    return float(size[1]) if size else 1.27


def _arc(c, a, m, b, colour, width):
    """An arc through three page points."""
    (ax, ay), (mx, my), (bx, by) = a, m, b
    d = 2 * (ax * (my - by) + mx * (by - ay) + bx * (ay - my))
    if abs(d) < 1e-9:
        c.line([a, b], colour, width)
        return
    ux = ((ax * ax + ay * ay) * (my - by) + (mx * mx + my * my) * (by - ay) + (bx * bx + by * by) * (ay - my)) / d
    uy = ((ax * ax + ay * ay) * (bx - mx) + (mx * mx + my * my) * (ax - bx) + (bx * bx + by * by) * (mx - ax)) / d
    r = math.hypot(ax - ux, ay - uy)
    cross = (mx - ax) * (by - ay) - (my - ay) * (bx - ax)
    sweep = 1 if cross > 0 else 0
    c.path("M%s %s A%s %s 0 0 %d %s %s" % (_f(ax), _f(ay), _f(r), _f(r), sweep, _f(bx), _f(by)), colour, width)


def _symbol(c, sym, libs):
    lib = libs[first(sym, "lib_id")[1]]
    at = first(sym, "at")
    sx, sy, rot = float(at[1]), float(at[2]), int(float(at[3]))
    mirror = first(sym, "mirror")
    mirror = mirror[1] if mirror else None
    unit = int(first(sym, "unit")[1])

    def p(x, y):
        dx, dy = transform(x, y, rot, mirror)
        return (sx + dx, sy + dy)

    names_hidden = bool(first(lib, "pin_names")) and "hide" in first(lib, "pin_names")
    numbers_hidden = bool(first(lib, "pin_numbers")) and "hide" in first(lib, "pin_numbers")
    offset = first(first(lib, "pin_names"), "offset") if first(lib, "pin_names") else None
    offset = float(offset[1]) if offset else 0.508
    graphics = []
    for sub in find(lib, "symbol"):
        u, style = (int(n) for n in sub[1].rsplit("_", 2)[1:])
        if u in (0, unit) and style in (0, 1):
            graphics += [g for g in sub[2:] if isinstance(g, list)]
    # as eeschema does: the bodies' background fills under everything else
    graphics.sort(key=lambda g: _fill(g) != BODY_FILL)
    for g in graphics:
        kind = g[0]
        if kind == "rectangle":
            s, e = first(g, "start"), first(g, "end")
            x0, y0, x1, y1 = float(s[1]), float(s[2]), float(e[1]), float(e[2])
            c.line([p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1), p(x0, y0)], BODY, _stroke_width(g), _fill(g))
        elif kind == "polyline":
            pts = [p(float(xy[1]), float(xy[2])) for xy in find(first(g, "pts"), "xy")]
            c.line(pts, BODY, _stroke_width(g), _fill(g))
        elif kind == "circle":
            ce = first(g, "center")
            x, y = p(float(ce[1]), float(ce[2]))
            c.circle(x, y, float(first(g, "radius")[1]), BODY, _stroke_width(g), _fill(g))
        elif kind == "arc":
            pts = [first(g, k) for k in ("start", "mid", "end")]
            _arc(c, *[p(float(pt[1]), float(pt[2])) for pt in pts], BODY, _stroke_width(g))
        elif kind == "text":
            tat = first(g, "at")
            x, y = p(float(tat[1]), float(tat[2]))
            c.text(g[1], x, y, _size(first(g, "effects")), BODY)
        elif kind == "pin":
            pat = first(g, "at")
            length = float(first(g, "length")[1])
            if "hide" in g:
                continue
            ex, ey, angle = float(pat[1]), float(pat[2]), float(pat[3])
            ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            a = p(ex, ey)
            b = p(ex + ux * length, ey + uy * length)
            if g[2] == "inverted":  # a bubble at the body
                r = 0.635
                c.line([a, p(ex + ux * (length - 2 * r), ey + uy * (length - 2 * r))], BODY, 0.15)
                cx, cy = p(ex + ux * (length - r), ey + uy * (length - r))
                c.circle(cx, cy, r, BODY, 0.15)
            else:
                c.line([a, b], BODY, 0.15)
            dx, dy = b[0] - a[0], b[1] - a[1]
            n = math.hypot(dx, dy) or 1.0
            dx, dy = dx / n, dy / n
            name = first(g, "name")[1]
            if not names_hidden and name != "~":
                x, y = b[0] + dx * offset, b[1] + dy * offset
                if abs(dx) > 0.5:
                    c.text(name, x, y, 1.27, PIN_TEXT, "start" if dx > 0 else "end")
                else:
                    c.text(name, x, y, 1.27, PIN_TEXT, "start" if dy < 0 else "end", vertical=True)
            if not numbers_hidden:
                mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
                number = first(g, "number")[1]
                if abs(dx) > 0.5:
                    c.text(number, mx, my - 0.4, 1.0, BODY, v="auto")
                else:
                    c.text(number, mx - 0.4, my, 1.0, BODY, v="auto", vertical=True)
    for prop in find(sym, "property"):
        effects = first(prop, "effects")
        h, v, hidden = _justify(effects)
        if hidden or not prop[2]:
            continue
        pat = first(prop, "at")
        angle = int(float(pat[3])) % 180
        if rot % 180:
            angle = 90 - angle
        words = prop[2]
        if prop[1] == "Reference" and len([u for u in find(lib, "symbol")
                                           if int(u[1].rsplit("_", 2)[1]) > 1]):
            words += chr(ord("A") + unit - 1)
        c.text(words, float(pat[1]), float(pat[2]), _size(effects), FIELD, h, v, vertical=angle == 90)


def _label(c, node):
    at = first(node, "at")
    x, y, angle = float(at[1]), float(at[2]), int(float(at[3]))
    words = node[1]
    size = 1.27
    length = len(words) * size * EM * 0.6 + 2 * size
    half = size * 0.9
    ux, uy = {0: (1, 0), 90: (0, -1), 180: (-1, 0), 270: (0, 1)}[angle]
    vx, vy = -uy, ux
    tip = half  # the passive shape: a box, its near side at the anchor
    corners = [(0, -half), (length, -half), (length, half), (0, half)]
    pts = [(x + ux * a + vx * b, y + uy * a + vy * b) for a, b in corners]
    c.line(pts + pts[:1], LABEL, 0.15)
    tx, ty = x + ux * (length / 2), y + uy * (length / 2)
    c.text(words, tx, ty, size, LABEL, vertical=angle in (90, 270))
    del tip


def draw(text):
    """The SVG text of a ``kicad_sch`` file's text."""
    tree = parse(text)[0]
    _, width, height = PAPER
    paper = first(tree, "paper")
    if paper and paper[1] == "A4":
        width, height = 297.0, 210.0
    c = Canvas()
    libs = {s[1]: s for s in find(first(tree, "lib_symbols"), "symbol")}
    m = 10.0
    c.line([(m, m), (width - m, m), (width - m, height - m), (m, height - m), (m, m)], BODY, 0.2)
    for wire in find(tree, "wire"):
        pts = [(float(xy[1]), float(xy[2])) for xy in find(first(wire, "pts"), "xy")]
        c.line(pts, WIRE, 0.25)
    for j in find(tree, "junction"):
        at = first(j, "at")
        c.circle(float(at[1]), float(at[2]), 0.5, WIRE, 0.1, WIRE)
    for nc in find(tree, "no_connect"):
        at = first(nc, "at")
        x, y, r = float(at[1]), float(at[2]), 0.7
        c.line([(x - r, y - r), (x + r, y + r)], NOCONNECT, 0.2)
        c.line([(x - r, y + r), (x + r, y - r)], NOCONNECT, 0.2)
    for sym in find(tree, "symbol"):
        _symbol(c, sym, libs)
    for label in find(tree, "global_label"):
        _label(c, label)
    for t in find(tree, "text"):
        at = first(t, "at")
        effects = first(t, "effects")
        h, v, _ = _justify(effects)
        c.text(t[1], float(at[1]), float(at[2]), _size(effects), TEXT, h, v)
    # The title block, bottom right.
    tb = first(tree, "title_block")
    bx0, by0, bx1, by1 = width - m - 120, height - m - 24, width - m, height - m
    c.line([(bx0, by1), (bx0, by0), (bx1, by0)], BODY, 0.2)
    if tb:
        c.text("Title: " + first(tb, "title")[1], bx0 + 2, by0 + 5, 2.0, TEXT, "start", weight=True)
        y = by0 + 11
        for comment in sorted(find(tb, "comment"), key=lambda n: int(n[1])):
            c.text(comment[2], bx0 + 2, y, 1.27, TEXT, "start")
            y += 3.5
        company = first(tb, "company")
        if company:
            c.text(company[1], bx0 + 2, y, 1.27, TEXT, "start")
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" viewBox="0 0 %s %s"'
            ' font-family="DejaVu Sans, Arial, sans-serif" stroke-linecap="round" stroke-linejoin="round">\n'
            '<rect width="100%%" height="100%%" fill="white"/>\n%s\n</svg>\n'
            % (_f(width), _f(height), _f(width), _f(height), "\n".join(c.out)))
