"""The MX kit's two footprints that KiCad 6's library lacks, drawn from the
numbers in ``mx.py`` as KiCad 6 ``.kicad_mod`` text (``make pcb`` writes
them to ``hardware/pcb/tactictoe.pretty/``):

- ``SW_MX_Hotswap_Kailh``: an MX switch's holes (all unplated: the switch
  plugs into the socket, it is not soldered) and the Kailh CPG151101S11
  hot-swap socket's two SMD pads on the underside. Origin: the switch's
  centre (its 4 mm peg).
- ``LED_SK6812MINI-E_Reverse``: the SK6812MINI-E's four pads on the
  underside around a cut-out its body sits in, shining up. Origin: the
  LED's centre. Pads as the public SK6812MINI-E footprints number them:
  1 VDD, 2 DOUT, 3 GND, 4 DIN.

Both are drawn from above (the switch's side), as keyboard footprints are:
the footprint sits on the top, its copper on B.Cu. KiCad's y runs down the
page, the kit's up: a y here is mx.py's negated.
"""

from host_tools.hardware import mx

LIBRARY = "tactictoe"
SWITCH = "SW_MX_Hotswap_Kailh"
LED = "LED_SK6812MINI-E_Reverse"
SILK = 0.15  # JLCPCB's thinnest silkscreen line
FAB, COURTYARD, EDGE = 0.1, 0.05, 0.1

# The SK6812MINI-E's pads from its centre, KiCad's y (the reverse-mount
# footprints': GND and DIN on the left, VDD and DOUT on the right).
LED_PADS = {"1": (1, 1), "2": (1, -1), "3": (-1, -1), "4": (-1, 1)}  # signs of (x, y) * mx.LED_PAD_AT


def _n(v):
    s = ("%.4f" % v).rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _line(a, b, layer, width):
    return '  (fp_line (start %s %s) (end %s %s) (layer "%s") (width %s))' % (
        _n(a[0]), _n(a[1]), _n(b[0]), _n(b[1]), layer, _n(width))


def _rect(x0, y0, x1, y1, layer, width):
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return [_line(a, b, layer, width) for a, b in zip(corners, corners[1:] + corners[:1])]


def _hole(x, y, d):
    return '  (pad "" np_thru_hole circle (at %s %s) (size %s %s) (drill %s) (layers *.Cu *.Mask))' % (
        _n(x), _n(y), _n(d), _n(d), _n(d))


def _smd(number, x, y, w, h):
    return '  (pad "%s" smd rect (at %s %s) (size %s %s) (layers "B.Cu" "B.Paste" "B.Mask"))' % (
        number, _n(x), _n(y), _n(w), _n(h))


def _text(kind, text, x, y, layer, mirror):
    justify = " (justify mirror)" if mirror else ""
    return ['  (fp_text %s "%s" (at %s %s) (layer "%s")' % (kind, text, _n(x), _n(y), layer),
            "    (effects (font (size 1 1) (thickness %s))%s)" % (_n(SILK), justify), "  )"]


def _footprint(name, descr, body):
    return "\n".join(['(footprint "%s" (version 20211014) (generator pcbnew)' % name, '  (layer "F.Cu")',
                      '  (descr "%s")' % descr, "  (attr smd)"] + body + [")"]) + "\n"


def switch():
    """The MX switch over its hot-swap socket."""
    (p1x, p1y), (p2x, p2y) = mx.MX_PIN1, mx.MX_PIN2
    (a_x, a_y), (b_x, b_y) = mx.SOCKET_PAD1, mx.SOCKET_PAD2
    w, h = mx.SOCKET_PAD
    (x0, y0), (x1, y1) = mx.SOCKET_BODY
    body = _text("reference", "REF**", 0, -(y1 + 1.0), "B.SilkS", True)
    body += _text("value", SWITCH, 0, 8.5, "F.Fab", False)
    body += [_hole(0, 0, mx.MX_PEG)]
    body += [_hole(x, -y, mx.MX_SIDE_PEG) for x, y in mx.MX_SIDE_PEGS]
    body += [_hole(p1x, -p1y, mx.SOCKET_HOLE), _hole(p2x, -p2y, mx.SOCKET_HOLE)]
    body += [_smd("1", a_x, -a_y, w, h), _smd("2", b_x, -b_y, w, h)]
    body += _rect(x0, -y1, x1, -y0, "B.Fab", FAB)
    # the socket's outline on the silkscreen: its back edge and its sides,
    # broken where a pad is and short of the side pegs' holes
    gap = SILK / 2 + 0.2
    peg = mx.MX_SIDE_PEG / 2 + gap + 0.1
    body += [_line((x0, -y1), (x1, -y1), "B.SilkS", SILK),
             _line((x0, -y1), (x0, -a_y - h / 2 - gap), "B.SilkS", SILK),
             _line((x1, -b_y + h / 2 + gap), (x1, -peg), "B.SilkS", SILK)]
    m = 0.25
    body += _rect(a_x - w / 2 - m, -y1 - m, b_x + w / 2 + m, -y0 + m, "B.CrtYd", COURTYARD)
    half = mx.PLATE_CUTOUT / 2
    body += _rect(-half, -half, half, half, "F.Fab", FAB)
    # the housing under the plate (the plate cut-out's size) on the board
    body += _rect(-half, -half, half, half, "F.CrtYd", COURTYARD)
    return _footprint(SWITCH, "MX-compatible switch in a Kailh CPG151101S11 hot-swap socket on the underside;"
                      " design values from mx.py (the public keyboard footprints' numbers)", body)


def led():
    """The reverse-mount SK6812MINI-E in its cut-out."""
    px, py = mx.LED_PAD_AT
    w, h = mx.LED_PAD
    cw, ch = mx.LED_CUTOUT
    bw, bh = mx.LED_BODY
    body = _text("reference", "REF**", 0, ch / 2 + 1.2, "B.Fab", True)
    body += _text("value", "SK6812MINI-E", 0, -(ch / 2 + 1.2), "B.Fab", True)
    body += [_smd(n, sx * px, sy * py, w, h) for n, (sx, sy) in sorted(LED_PADS.items())]
    body += _rect(-cw / 2, -ch / 2, cw / 2, ch / 2, "Edge.Cuts", EDGE)
    body += _rect(-bw / 2, -bh / 2, bw / 2, bh / 2, "B.Fab", FAB)
    # GND's corner (pad 3, back left): an L outside the pad, on the silkscreen
    gx, gy = -px - w / 2 - 0.4, -py - h / 2 - 0.4
    body += [_line((gx, gy), (gx + 1.6, gy), "B.SilkS", SILK), _line((gx, gy), (gx, gy + 1.5), "B.SilkS", SILK)]
    body += _rect(-px - w / 2 - 0.25, -ch / 2 - 0.25, px + w / 2 + 0.25, ch / 2 + 0.25, "B.CrtYd", COURTYARD)
    return _footprint(LED, "SK6812MINI-E, reverse mount (body through a %gx%g mm cut-out, shining up), pads on the"
                      " underside: 1 VDD, 2 DOUT, 3 GND, 4 DIN; design values from mx.py" % (cw, ch), body)


def library():
    """``[(file name, text)]`` of the library folder."""
    return [(SWITCH + ".kicad_mod", switch()), (LED + ".kicad_mod", led())]
