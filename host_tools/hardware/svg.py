"""SVG building blocks shared by the drawings: colours, text, lines, boxes
and the few schematic symbols (ground, push button, arrowhead)."""

INK = "#20242a"
MUTED = "#6b7280"
RED = "#c62828"
DATA = "#1565c0"
COPPER = "#c77c3a"
FONT = 'font-family="Helvetica, Arial, sans-serif"'


def esc(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def text(x, y, s, size=13, anchor="start", fill=INK, weight="normal"):
    return '<text x="%g" y="%g" %s font-size="%g" text-anchor="%s" fill="%s" font-weight="%s">%s</text>' % (
        x, y, FONT, size, anchor, fill, weight, esc(s))


def line(x1, y1, x2, y2, stroke=INK, width=2, extra=""):
    return '<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g"%s/>' % (
        x1, y1, x2, y2, stroke, width, extra)


def path(d, stroke=INK, width=2, extra=""):
    return '<path d="%s" fill="none" stroke="%s" stroke-width="%g"%s/>' % (d, stroke, width, extra)


def rect(x, y, w, h, fill="none", stroke=INK, width=2, rx=4):
    return '<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s" stroke="%s" stroke-width="%g"/>' % (
        x, y, w, h, rx, fill, stroke, width)


def dot(x, y, fill=INK, r=3.5):
    return '<circle cx="%g" cy="%g" r="%g" fill="%s"/>' % (x, y, r, fill)


def ground(x, y):
    """A ground symbol hanging from (x, y)."""
    return "".join([line(x, y, x, y + 8, width=1.5), line(x - 8, y + 8, x + 8, y + 8, width=1.5),
                    line(x - 5, y + 12, x + 5, y + 12, width=1.5), line(x - 2, y + 16, x + 2, y + 16, width=1.5)])


def switch(x, y, size=1.0):
    """A push button between (x, y) and (x + 36 * size, y)."""
    w = 36 * size
    return "".join([dot(x + 6 * size, y, r=2.5), dot(x + w - 6 * size, y, r=2.5),
                    line(x, y, x + 6 * size, y, width=1.5), line(x + w - 6 * size, y, x + w, y, width=1.5),
                    line(x + 4 * size, y - 7 * size, x + w - 4 * size, y - 7 * size, width=1.5),
                    line(x + w / 2, y - 7 * size, x + w / 2, y - 13 * size, width=1.5)])


ARROW = ('<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"'
         ' orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>' % DATA)
