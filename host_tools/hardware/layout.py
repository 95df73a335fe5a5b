"""The layout of the 3x3 grid (``hardware/layout.md`` and ``layout.svg``):
its dimensions in mm, where the pixels and buttons sit in the cells, and
the section through the walls, diffuser and base."""

from host_tools.hardware import svg

HERE = "host_tools/hardware/layout.py"

# Layout of the grid, in millimetres.
PITCH = 100 / 3  # the pixel pitch of a 30 LEDs/m strip: cut pieces drop in
WALL = 2.0
WALL_HEIGHT = 20.0  # pixel to diffuser
DIFFUSER = 3.0
MARGIN = 8.0  # grid to the enclosure's outside
BASE = 20.0  # room under the LED board for the Pico or ESP32
TOUCH_PAD = 24.0  # touch pad side (ESP32)
PIXEL = 5.0  # a WS2812B's package
STRIP = 10.0  # the width of a common WS2812B strip
# A 6 x 6 mm button in front of each pixel: clear of a strip through the
# pixels and of the cell's wall. A 12 x 12 mm one has no room beside a strip.
BUTTON = 6.0
BUTTON_OFFSET = 10.0  # pixel centre to button centre, towards the front

# The kit (the case, the tiles and the PCB share these). Coordinates in mm:
# origin at the grid's centre on the LED board's top face, x to the right,
# y towards the back (row 0, away from the player), z up. KiCad's y runs the
# other way (down the page, towards the front).
BOARD_THICKNESS = 1.6  # the LED board (PCB or perfboard)
PCB_SIZE = 110.0  # the square PCB, centred on the grid, inside the base's walls
# Fixings: four M3 screws at the grid's four inner wall crossings, from under
# the base, through the PCB, into the grid's pillars. They hold the board flat
# where it is pressed, and stay clear of the Pico under the middle column.
SCREW = 3.0  # M3
SCREW_HOLE = 3.2  # clearance hole in the PCB
SCREW_AT = PITCH / 2  # the holes are at (+-SCREW_AT, +-SCREW_AT)
# Under the board (its bottom face): the Pico, upside down in two 20-pin
# sockets, its USB socket at the back edge; the level shifter, resistors,
# capacitors and buzzer beside it. Nothing under the board taller than this:
UNDER_HEIGHT = 15.0
PICO = (21.0, 51.0)  # the Pico's board, x by y
PICO_ROW_SPACING = 17.78  # its two rows of pins, 20 each at 2.54
PICO_CENTRE = (0.0, PCB_SIZE / 2 - PICO[1] / 2)  # under the middle column, USB end at the PCB's back edge
SOCKET_HEIGHT = 8.5  # a 2.54 mm female header
SWITCH_HEIGHT = 4.3  # a B3F-1000's actuator top above the board
SWITCH_TRAVEL = 0.25  # its travel to click
SWITCH_ACTUATOR = 3.5  # its round actuator's diameter

# The printed case (hardware/case/*.scad reads these from dimensions.scad,
# which make hardware writes from here). Three parts: the base (a tray under
# the board), the grid (walls, top frame, pillars and skirt, in one print)
# and nine loose key tiles, white, which are also the diffuser. Each tile is
# a thin-walled box in its cell's well: its top shows through the frame, a
# flange round it sits under the frame (it can't fall out when the board is
# turned over), a post under the top reaches the switch, and the box's bottom
# edge is the stop. At rest the post sits on the switch's actuator, the top
# PROUD above the frame, the flange RATTLE below the frame, the bottom edge
# STOP_GAP above the board: a press clicks after SWITCH_TRAVEL and lands on
# the board before the switch takes the push.
FIT = 0.35  # FDM clearance, each side, where parts slide or drop in
MIN_WALL = 1.2  # the thinnest printed wall: three 0.4 mm lines
CASE_WALL = 2.0  # the base's walls and floor, the skirt, the frame
TILE_SKIN = MIN_WALL  # the tile's diffusing top, and its walls
PROUD = 1.0  # a tile's top above the frame at rest
TILE_CHAMFER = 0.5  # round the tile's top: the first layers' squish (it is printed top down) stays clear of the frame
LIP = 1.2  # how far a tile's flange reaches under the frame, each side
RATTLE = 0.5  # a tile's lift from rest until its flange meets the frame
STOP_GAP = SWITCH_TRAVEL + 0.25  # rest to the tile's edge landing on the board
POST = 4.0  # the post's diameter: covers the actuator with the tile's play
SWITCH_BODY = 3.5  # a B3F-1000's body height (its actuator stands above it)
LED_HEIGHT = 1.6  # a WS2812B 5050's height
PILLAR = 6.0  # the grid's pillars at the screws
PILOT = 2.5  # the pilot hole in a pillar: an M3 screw cuts its own thread
PILOT_DEPTH = 10.0
SCREW_LENGTH = 16.0  # M3 x 16, socket or pan head, from under the base
SCREW_CLEARANCE = 3.4  # through the base's boss
HEAD_BORE = 6.5  # the counterbore for the screw's head (5.5) and a hex key
BOSS = 9.5  # the base's bosses under the screws
BOSS_SEAT = 6.0  # the screw head's seat, this far under the board
BOSS_TOP = 6.2  # the boss from the seat up to the board: slimmer, clear of the parts beside the screws
LIP_HEIGHT = 3.0  # the base's inner lip, up inside the skirt
PCB_LEDGE = 2.0  # how far the base's ledge reaches under the board's edge
SEAM = 0.2  # skirt to base wall: the screws clamp the board, not the seam
# The solder joints on the board's top side (the leads of the parts under it)
# stand up to this: where one is under a wall or a tile's edge, the grid or
# the tile has a notch over it (case.py reads where from the PCB's files and the perfboard's layout).
JOINT_HEIGHT = 2.0
CORNER = 3.0  # the case's corner radius, seen from above
# The Pico under the board (upside down): the male header's plastic between
# it and the sockets, its board, its micro-USB socket (on its component
# side, now facing down) and BOOTSEL button, from the Pico datasheet's
# drawing: the button 14.5 from the USB end and 5.5 from the left edge seen
# from the component side; upside down that edge is on the right (+x).
PICO_SPACER = 2.5
PICO_THICKNESS = 1.0
PICO_USB = (8.0, 2.8)  # the micro-USB socket, wide x high
PICO_USB_OVERHANG = 1.3  # beyond the Pico's edge
USB_OPENING = (12.0, 8.0)  # in the base's back wall, for a micro-USB plug's moulding
BOOTSEL_AT = (PICO_CENTRE[0] + PICO[0] / 2 - 5.5, PICO_CENTRE[1] + PICO[1] / 2 - 14.5)
BOOTSEL_HOLE = 4.0  # in the base's floor: press BOOTSEL with a pen refill
BED = 220.0  # the printer bed every part must fit


def case_values():
    """The case's dimensions in mm (``dimensions.scad`` has them all), the
    derived ones worked out here once."""
    opening = PITCH - WALL  # a cell's well
    flange = opening - 2 * FIT  # the tile's box and flange
    frame_opening = flange - 2 * LIP
    cap = frame_opening - 2 * FIT  # the tile's top, through the frame
    frame_top = WALL_HEIGHT + CASE_WALL
    cap_bottom = WALL_HEIGHT + FIT - RATTLE  # where the flange's 45 degree shoulder meets the cap
    pico_face = -(BOARD_THICKNESS + SOCKET_HEIGHT + PICO_SPACER + PICO_THICKNESS)
    floor_top = -(BOARD_THICKNESS + BASE)
    return {
        "opening": opening, "flange": flange, "frame_opening": frame_opening, "cap": cap,
        "frame_bottom": WALL_HEIGHT, "frame_top": frame_top, "tile_top": frame_top + PROUD,
        "cap_bottom": cap_bottom, "flange_top": cap_bottom - (flange - cap) / 2, "tile_bottom": STOP_GAP,
        # the tiles' and the grid's corners clear the pillars by FIT
        "corner_cut": PITCH / 2 * 2 ** 0.5 - PILLAR / 2 - FIT,
        "outside": 3 * PITCH + WALL + 2 * MARGIN, "grid": 3 * PITCH + WALL,
        "floor_top": floor_top, "floor_bottom": floor_top - CASE_WALL,
        "skirt_bottom": -BOARD_THICKNESS + SEAM, "seat": -BOARD_THICKNESS - BOSS_SEAT,
        "pico_face": pico_face, "usb_z": pico_face - PICO_USB[1] / 2,
        "pico_end": PICO_CENTRE[1] + PICO[1] / 2,
    }



def pixel_at(cell):
    """A cell's pixel centre ``(x, y)`` in mm (x right, y to the back)."""
    return ((cell % 3 - 1) * PITCH, (1 - cell // 3) * PITCH)


def button_at(cell):
    """A cell's button centre ``(x, y)`` in mm: in front of its pixel."""
    x, y = pixel_at(cell)
    return (x, y - BUTTON_OFFSET)


def screws():
    """The four screw holes ``[(x, y)]`` in mm."""
    return [(sx * SCREW_AT, sy * SCREW_AT) for sy in (1, -1) for sx in (-1, 1)]


def layout_values():
    """The grid's dimensions in mm, rounded as the docs print them."""
    grid = 3 * PITCH + WALL
    return {"pitch": PITCH, "wall": WALL, "opening": PITCH - WALL, "grid": grid, "outside": grid + 2 * MARGIN,
            "wall_height": WALL_HEIGHT, "diffuser": DIFFUSER, "base": BASE, "pad": TOUCH_PAD,
            "height": case_values()["tile_top"] - case_values()["floor_bottom"], "button": BUTTON,
            "button_offset": BUTTON_OFFSET,
            "button_to_wall": (PITCH - WALL) / 2 - BUTTON_OFFSET - BUTTON / 2,
            "button_to_strip": BUTTON_OFFSET - BUTTON / 2 - STRIP / 2}


def mm(v):
    """A length as the docs print it: 33.3, 2, 102."""
    return ("%.1f" % v).rstrip("0").rstrip(".")


def fine(v):
    """A small length to the hundredth: 0.25, 0.35, 0.5."""
    return ("%.2f" % v).rstrip("0").rstrip(".")


def _dim(x1, y1, x2, y2, label, vertical=False):
    """A dimension line with end ticks, labelled above (or right of) it."""
    out = [svg.line(x1, y1, x2, y2, stroke=svg.MUTED, width=1)]
    for x, y in ((x1, y1), (x2, y2)):
        if vertical:
            out.append(svg.line(x - 5, y, x + 5, y, stroke=svg.MUTED, width=1))
        else:
            out.append(svg.line(x, y - 5, x, y + 5, stroke=svg.MUTED, width=1))
    if label and vertical:
        out.append(svg.text(x1 + 9, (y1 + y2) / 2 + 4, label, 12))
    elif label:
        out.append(svg.text((x1 + x2) / 2, y1 - 8, label, 12, anchor="middle"))
    return "".join(out)


def _poly(points, fill, stroke="none"):
    return '<path d="M%s z" fill="%s" stroke="%s" stroke-width="0.8"/>' % (
        " L".join("%.2f %.2f" % p for p in points), fill, stroke)


def _tile_profile(c, yc):
    """The outline of a tile's section through its middle (x = 0) at rest:
    [(y, z)], a cup open at the bottom."""
    f, t, s = c["flange"] / 2, c["cap"] / 2, TILE_SKIN
    drop = s * (2 ** 0.5 - 1)
    ch = TILE_CHAMFER
    outer = [(-f, c["tile_bottom"]), (-f, c["flange_top"]), (-t, c["cap_bottom"]), (-t, c["tile_top"] - ch),
             (-t + ch, c["tile_top"])]
    inner = [(-f + s, c["tile_bottom"]), (-f + s, c["flange_top"] - drop), (-t + s, c["cap_bottom"] - drop),
             (-t + s, c["tile_top"] - s)]
    left = outer + [(-y, z) for y, z in reversed(outer)]
    inside = inner + [(-y, z) for y, z in reversed(inner)]
    return [(yc + y, z) for y, z in left + list(reversed(inside))]


def _section(ox, oy, k, ys, zs, name):
    """The board's section through x = 0, the window ``ys`` x ``zs`` (mm)
    drawn at ``k`` px per mm from (ox, oy): y to the right, z up."""
    c = case_values()
    y0, y1 = ys
    z0, z1 = zs
    Y = lambda y: ox + (y - y0) * k  # noqa: E731
    Z = lambda z: oy + (z1 - z) * k  # noqa: E731

    def box(ya, yb, za, zb, fill):
        return _poly([(Y(ya), Z(za)), (Y(yb), Z(za)), (Y(yb), Z(zb)), (Y(ya), Z(zb))], fill)

    half, wall_in = c["outside"] / 2, c["outside"] / 2 - CASE_WALL
    out = ['<clipPath id="window-%s"><rect x="%g" y="%g" width="%g" height="%g"/></clipPath>' % (
        name, ox, oy, (y1 - y0) * k, (z1 - z0) * k), '<g clip-path="url(#window-%s)">' % name]
    grid, base, tile = "#455a64", "#b0bec5", "#fffde7"
    cells = [-PITCH, 0.0, PITCH]
    # the grid: frame (between the openings), skirt, walls
    edges = [-half] + [e for yc in cells for e in (yc - c["frame_opening"] / 2, yc + c["frame_opening"] / 2)] + [half]
    for a, b in zip(edges[::2], edges[1::2]):
        out.append(box(a, b, c["frame_bottom"], c["frame_top"], grid))
    for side in (-1, 1):
        out.append(box(side * half, side * wall_in, c["skirt_bottom"], c["frame_bottom"], grid))
    for i in range(4):
        yw = (i - 1.5) * PITCH
        out.append(box(yw - WALL / 2, yw + WALL / 2, 0, c["frame_bottom"], grid))
    # the board, its pixels and switches, and light from each pixel
    out.append(box(-PCB_SIZE / 2, PCB_SIZE / 2, -BOARD_THICKNESS, 0, "#2e7d32"))
    for yc in cells:
        out.append('<path d="M%g %g L%g %g L%g %g z" fill="#fff59d" opacity="0.45"/>' % (
            Y(yc), Z(LED_HEIGHT), Y(yc - c["cap"] / 2 + TILE_SKIN), Z(c["tile_top"] - TILE_SKIN),
            Y(yc + c["cap"] / 2 - TILE_SKIN), Z(c["tile_top"] - TILE_SKIN)))
        out.append(box(yc - PIXEL / 2, yc + PIXEL / 2, 0, LED_HEIGHT, "#fff3c4"))
        yb = yc - BUTTON_OFFSET
        out.append(box(yb - BUTTON / 2, yb + BUTTON / 2, 0, SWITCH_BODY, "#78909c"))
        out.append(box(yb - SWITCH_ACTUATOR / 2, yb + SWITCH_ACTUATOR / 2, SWITCH_BODY, SWITCH_HEIGHT, "#263238"))
        # the tile and its post
        out.append(_poly([(Y(y), Z(z)) for y, z in _tile_profile(c, yc)], tile, svg.INK))
        out.append(_poly([(Y(yb - POST / 2), Z(SWITCH_HEIGHT)), (Y(yb + POST / 2), Z(SWITCH_HEIGHT)),
                          (Y(yb + POST / 2), Z(c["tile_top"] - TILE_SKIN)),
                          (Y(yb - POST / 2), Z(c["tile_top"] - TILE_SKIN))], tile, svg.INK))
    # the Pico and its USB socket
    py = PICO_CENTRE[1]
    out.append(box(py - PICO[1] / 2, py + PICO[1] / 2, c["pico_face"], c["pico_face"] + PICO_THICKNESS, "#1f5f3a"))
    usb_end = c["pico_end"] + PICO_USB_OVERHANG
    out.append(box(usb_end - 5.5, usb_end, c["usb_z"] - PICO_USB[1] / 2, c["usb_z"] + PICO_USB[1] / 2, "#90a4ae"))
    # the base: floor, walls (the back one round the USB opening), ledge and lip
    out.append(box(-half, half, c["floor_bottom"], c["floor_top"], base))
    top = -BOARD_THICKNESS
    out.append(box(-half, -wall_in, c["floor_top"], top, base))
    out.append(box(wall_in, half, c["floor_top"], c["usb_z"] - USB_OPENING[1] / 2, base))
    out.append(box(wall_in, half, c["usb_z"] + USB_OPENING[1] / 2, top, base))
    lip = wall_in - FIT
    for side in (-1, 1):
        out.append(box(side * lip, side * (lip - MIN_WALL), top, top + LIP_HEIGHT, base))
    # the ledge under the board's edge: in front, sloped underneath; behind the Pico only the lip's width
    inner = PCB_SIZE / 2 - PCB_LEDGE
    slope = wall_in - inner
    out.append(_poly([(Y(-wall_in), Z(top - CASE_WALL - slope)), (Y(-inner), Z(top - CASE_WALL)), (Y(-inner), Z(top)),
                      (Y(-wall_in), Z(top))], base))
    out.append(box(wall_in, lip - MIN_WALL, top - CASE_WALL, top, base))
    out.append("</g>")
    return out


def layout_svg():
    """Top view and section of the grid, dimensioned in mm, as SVG text."""
    v = layout_values()
    k = 3.0  # px per mm
    ox, oy = 40, 100
    outside = v["outside"] * k
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="540" viewBox="0 0 1000 540">',
           "<title>3x3 grid layout</title>", '<rect width="100%" height="100%" fill="#ffffff"/>',
           svg.text(20, 30, "3x3 grid: top view and section, in mm", 20, weight="bold"),
           svg.text(20, 50, "generated by make hardware from the numbers in %s" % HERE, 12, fill=svg.MUTED),
           svg.text(ox, oy - 30, "top view", 13, weight="bold")]
    # Top view: enclosure, grid walls, a pixel and its button in each cell.
    out.append(svg.rect(ox, oy, outside, outside, fill="#f5f5f5", stroke=svg.INK, width=2, rx=6))
    gx, gy = ox + MARGIN * k, oy + MARGIN * k
    grid = v["grid"] * k
    for i in range(4):  # wall centre lines
        p = (WALL / 2 + i * PITCH) * k
        out.append(svg.line(gx + p, gy, gx + p, gy + grid, width=WALL * k))
        out.append(svg.line(gx, gy + p, gx + grid, gy + p, width=WALL * k))
    for cell in range(9):
        cx = gx + (WALL / 2 + (cell % 3 + 0.5) * PITCH) * k
        cy = gy + (WALL / 2 + (cell // 3 + 0.5) * PITCH) * k
        h = PIXEL / 2 * k
        out.append('<g id="pixel-%d">%s</g>' % (cell, svg.rect(cx - h, cy - h, 2 * h, 2 * h, fill="#fff3c4",
                                                               stroke=svg.INK, width=1, rx=1)))
        out.append(svg.text(cx, cy - 4 * k, str(cell), 11, anchor="middle", fill=svg.MUTED))
        h, by = BUTTON / 2 * k, cy + BUTTON_OFFSET * k
        out.append('<g id="button-%d">%s%s</g>' % (
            cell, svg.rect(cx - h, by - h, 2 * h, 2 * h, fill="#cfd8dc", stroke=svg.INK, width=1, rx=1),
            '<circle cx="%g" cy="%g" r="%g" fill="#78909c"/>' % (cx, by, 1.75 * k)))
    mid = WALL / 2 + 1.5 * PITCH  # the grid's centre, from its corner
    for i, (x, y) in enumerate(screws()):  # the M3 screws, at the inner wall crossings
        out.append('<g id="screw-%d"><circle cx="%g" cy="%g" r="%g" fill="#ffffff" stroke="%s" stroke-width="1.5"/>'
                   '</g>' % (i, gx + (mid + x) * k, gy + (mid - y) * k, PILLAR / 2 * k, svg.INK))
    c0 = gx + WALL / 2 * k
    out.append(_dim(c0 + 0.5 * PITCH * k, oy - 8, c0 + 1.5 * PITCH * k, oy - 8, "pitch %s" % mm(v["pitch"])))
    o0 = gx + WALL * k
    yo = gy + WALL * k + 22  # in the top row, above the pixels' numbers
    out.append(_dim(o0, yo, o0 + v["opening"] * k, yo, "opening %s" % mm(v["opening"])))
    # The button's place, on the bottom right cell (clear of the other dimensions).
    cx = gx + (WALL / 2 + 2.5 * PITCH) * k
    cy = gy + (WALL / 2 + 2.5 * PITCH) * k
    out.append(_dim(cx + 18, cy, cx + 18, cy + BUTTON_OFFSET * k, "", vertical=True))
    out.append(svg.text(cx + 24, cy + BUTTON_OFFSET * k / 2 + 4, mm(BUTTON_OFFSET), 12))
    out.append(_dim(gx, oy + outside + 30, gx + grid, oy + outside + 30, "grid %s" % mm(v["grid"])))
    out.append(_dim(ox, oy + outside + 62, ox + outside, oy + outside + 62, "outside %s" % mm(v["outside"])))
    # The section through the middle column (x = 0), front on the left: the
    # whole board, and below it one cell's tile, post and switch enlarged.
    c = case_values()
    sx, sy, k2 = 500, 130, 2.7
    out.append(svg.text(sx, oy - 30, "section through the middle column (front on the left)", 13, weight="bold"))
    out += _section(sx, sy, k2, (-c["outside"] / 2, c["outside"] / 2), (c["floor_bottom"], c["tile_top"]), "all")
    width = c["outside"] * k2
    y_of = lambda z: sy + (c["tile_top"] - z) * k2  # noqa: E731
    right = sx + width + 14
    out.append(_dim(right, y_of(c["frame_bottom"]), right, y_of(0), "wells %s" % mm(WALL_HEIGHT), vertical=True))
    out.append(_dim(right, y_of(-BOARD_THICKNESS), right, y_of(c["floor_top"]), "room %s" % mm(BASE), vertical=True))
    out.append(_dim(sx - 12, y_of(c["tile_top"]), sx - 12, y_of(c["floor_bottom"]), ""))
    height = c["tile_top"] - c["floor_bottom"]
    out.append(svg.text(sx - 18, y_of(c["tile_top"] - height / 2) + 4, mm(height), 12, anchor="end"))
    out.append(svg.text(sx + (PICO_CENTRE[1] + c["outside"] / 2) * k2, y_of(c["pico_face"]) + 16,
                        "Pico, upside down in its sockets", 11, anchor="middle", fill=svg.MUTED))
    # One cell enlarged: the front cell, its tile at rest.
    dx, dy, k3 = 520, 300, 6.0
    y0, y1 = -c["outside"] / 2 + 6, -PITCH / 2 + WALL
    z0, z1 = -BOARD_THICKNESS - 1, c["tile_top"] + 0.5
    out.append(svg.text(dx, dy - 10, "the front cell at rest, enlarged", 12, weight="bold"))
    out += _section(dx, dy, k3, (y0, y1), (z0, z1), "cell")
    Y = lambda y: dx + (y - y0) * k3  # noqa: E731
    Z = lambda z: dy + (z1 - z) * k3  # noqa: E731
    post_y = -PITCH - BUTTON_OFFSET
    labels = [  # (y, z, text): a leader from the label to the point, top to bottom
        (-PITCH + c["cap"] / 2 - 3, c["tile_top"] - TILE_SKIN / 2, "top %s: the diffuser" % mm(TILE_SKIN)),
        (-PITCH + c["flange"] / 2 - 0.6, (c["flange_top"] + c["cap_bottom"]) / 2, "flange, %s under the frame" % fine(
            RATTLE)),
        (post_y + POST / 2, 9, "post %s, on the switch" % mm(POST)),
        (-PITCH + c["flange"] / 2 - 0.6, c["tile_bottom"] + 2, "edge %s above the board: the stop" % fine(STOP_GAP)),
        (-PITCH + PIXEL / 2, LED_HEIGHT / 2, "pixel"),
    ]
    lx = Y(y1) + 12
    for i, (y, z, words) in enumerate(labels):
        ly = dy + 14 + i * 24
        out.append(svg.line(Y(y), Z(z), lx - 2, ly - 4, stroke=svg.MUTED, width=1))
        out.append(svg.text(lx, ly, words, 11))
    out.append(svg.text(dx, Z(z0) + 18, "at rest the post sits on the switch's actuator (%s above the board), the"
                        " top %s above the frame;" % (mm(SWITCH_HEIGHT), mm(PROUD)), 11, fill=svg.MUTED))
    out.append(svg.text(dx, Z(z0) + 34, "a press clicks after %s and the tile's edge lands on the board after %s;"
                        " turned over," % (fine(SWITCH_TRAVEL), fine(STOP_GAP)), 11, fill=svg.MUTED))
    out.append(svg.text(dx, Z(z0) + 50, "the flange meets the frame after %s. %s clearance all round in the"
                        " well and the frame." % (fine(RATTLE), fine(FIT)), 11, fill=svg.MUTED))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def layout_page():
    """The layout notes as Markdown text."""
    v = layout_values()
    c = case_values()
    m = {key: mm(val) for key, val in v.items()}
    lines = [
        "# Layout of the 3x3 grid", "",
        "<!-- Generated by `make hardware` (%s): edit the numbers there, not this file. -->" % HERE, "",
        "![top view and section of the grid, in mm](layout.svg)", "",
        "All sizes in millimetres.", "",
        "- **Cell pitch %s.** That is the pixel pitch of a 30 LEDs/m strip, so three pieces of three pixels"
        " drop straight in; single-pixel boards can go anywhere, so the same pitch suits them. A cell of %s"
        " fits a fingertip, and the pixel with its button in front of it. On 2.54 mm perfboard it is 13 holes (33.0),"
        " close enough." % (m["pitch"], m["opening"]),
        "- **Walls %s thick, %s high,** from the LED board to the top frame, one well per cell. They keep each"
        " cell's light in its own cell: without them the marks bleed into their neighbours. Make them opaque"
        " (black or another dark filament, card, or wood). With strip pieces, notch the walls' bottom edge where"
        " the strip passes under them." % (m["wall"], m["wall_height"]),
        "- **Diffuser: the key tiles' tops, %s thick,** printed in white PLA or PETG. The pixel sits in the middle"
        " of its well, its face about %s below the tile's top (its underside): closer gives a bright spot with"
        " dark corners, farther a more even but dimmer glow. Without buttons (touch pads), lay a %s mm opal"
        " (milky white) acrylic sheet, or two layers of tracing paper on clear acrylic, on the walls instead." % (
            mm(TILE_SKIN), mm(c["tile_top"] - TILE_SKIN - LED_HEIGHT), m["diffuser"]),
        "- **Grid %s square, enclosure %s square** (%s of margin for its walls), %s tall: the base leaves %s"
        " under the LED board for the Pico or ESP32 and its wiring (at least %s: the Pico stands %s under the board"
        " in its sockets, its USB socket below it). The printed base has the opening for the USB plug (%s x %s)"
        " at the Pico's socket, in its back wall; keep the pixels' 5 V and GND wires short and thick." % (
            m["grid"], m["outside"], mm(MARGIN), mm(v["height"]), m["base"], mm(UNDER_HEIGHT),
            mm(-c["pico_face"] - BOARD_THICKNESS), mm(USB_OPENING[0]), mm(USB_OPENING[1])),
        "- **Buttons.** A %s x %s mm tactile button in each cell, its centre %s in front of the pixel's"
        " (the grey squares in the top view), its actuator %s above the board. That leaves %s to the wall"
        " and keeps it %s clear of a %s mm strip through the pixels, or of a pixel board that size. A 12 x 12 mm"
        " button has no room beside a strip: put those on a keypad of their own beside the grid, at the same pitch." % (
            m["button"], m["button"], m["button_offset"], mm(SWITCH_HEIGHT), m["button_to_wall"],
            m["button_to_strip"], mm(STRIP)),
        "- **Key tiles.** Each cell's button is pressed through a loose tile, which is also the cell's diffuser"
        " (the section's enlarged cell): a box %s square with %s walls that drops into the %s well with %s to"
        " spare all round; its top, %s square, stands through the frame's %s opening, %s above the frame; a"
        " flange (the box's 45 degree shoulder, printable without supports) under the frame keeps it in when the"
        " board is turned over; a %s post under the top, %s in front of its middle, reaches the button. At rest the"
        " post sits on the button's actuator, the flange %s under the frame and the box's edge %s above the board."
        " A press clicks the button after %s; at %s the edge lands on the board, the stop, so a hard press goes"
        " into the board. The box's corners are cut to clear the pillars (%s) at the screws. The post is the"
        " tile's only support besides its edge, so at rest the tile leans back onto its back edge and works as"
        " a lever hinged there: a press over the button takes the button's own force (about 1 N), one in the"
        " middle about %s times that, and one near the back edge several times more. The front half, over"
        " the button, presses best." % (
            mm(c["flange"]), mm(TILE_SKIN), m["opening"], fine(FIT), mm(c["cap"]), mm(c["frame_opening"]),
            mm(PROUD), mm(POST), mm(BUTTON_OFFSET), fine(RATTLE), fine(STOP_GAP), fine(SWITCH_TRAVEL),
            fine(STOP_GAP), mm(PILLAR), "%.1f" % ((c["flange"] / 2 + BUTTON_OFFSET) / (c["flange"] / 2))),
        "- **The printed case** (`hardware/case/`: OpenSCAD sources, and STLs made from these numbers): the base"
        " ([base.stl](case/base.stl)), the grid with its top frame, pillars and skirt ([grid.stl](case/grid.stl),"
        " printed frame down) and nine tiles ([tile.stl](case/tile.stl), printed top down), all without supports"
        " on a %s mm bed, every wall %s or more, and four M3 x %s screws. The board sits on the base's four"
        " bosses and, round its edge, on a %s ledge (cut back behind the Pico); the screws go up through the"
        " bosses and the board's %s holes at the four inner wall crossings into the grid's pillars, and cut"
        " their thread in the %s pilot holes. To build: lay the grid frame down and drop a"
        " tile into each well, the posts all towards the same side; lay the board on, pixels down, its buttons"
        " towards the posts (its USB edge on the other side); put the base on and screw it together. On the"
        " board, keep each cell's edge clear %s in from the walls (the tiles' stop lands there) and the bottom"
        " side clear %s round each screw (the bosses; %s where parts hang more than %s below it) and %s in from"
        " its edge (the ledge). Where solder joints"
        " on the board's top are under a wall or a tile's edge anyway (the Pico's header rows cross two walls),"
        " the walls and every tile have %s high slots over them, placed from the PCB's own files"
        " (`hardware/pcb/`) and the shipped perfboard layout's (`pico-buttons/perfboard.md`)." % (
            mm(BED), mm(MIN_WALL), mm(SCREW_LENGTH), mm(PCB_LEDGE), mm(SCREW_HOLE), mm(PILOT),
            mm(FIT + TILE_SKIN + 0.5), mm(BOSS_TOP / 2), mm(BOSS / 2),
            mm(-(case_values()["seat"] + MIN_WALL) - BOARD_THICKNESS), mm(PCB_LEDGE), mm(JOINT_HEIGHT)),
        "",
        "  ![the board assembled](case/assembly.png)",
        "  ![the parts, apart: tiles, grid, board, base](case/exploded.png)",
        "  ![section through the middle column: tiles, posts on the buttons, pixels, the board, the Pico and the"
        " base](case/section.png)",
        "  ![underneath: the four screws, the hole to press BOOTSEL through, the USB opening at the back]"
        "(case/underside.png)",
        "",
        "- **Touch pads (ESP32).** A copper pad about %s square on the outside of the diffuser in each cell, with"
        " a hole in the middle for the light (or a frame of copper tape around the cell's edge), one thin wire"
        " through a hole to the ESP32, under 15 cm. Bare copper works best; a layer of clear tape over it is fine."
        " Through the diffuser itself the change is smaller: lower `input.threshold` and check with"
        " `check.touch()`." % m["pad"],
    ]
    return "\n".join(lines) + "\n"


