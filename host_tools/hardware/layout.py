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
LIP_HEIGHT = 3.0  # the base's inner lip, up inside the skirt
SEAM = 0.2  # skirt to base wall: the screws clamp the board, not the seam
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
            "height": BASE + 1.6 + WALL_HEIGHT + DIFFUSER, "button": BUTTON, "button_offset": BUTTON_OFFSET,
            "button_to_wall": (PITCH - WALL) / 2 - BUTTON_OFFSET - BUTTON / 2,
            "button_to_strip": BUTTON_OFFSET - BUTTON / 2 - STRIP / 2}


def mm(v):
    """A length as the docs print it: 33.3, 2, 102."""
    return ("%.1f" % v).rstrip("0").rstrip(".")


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
    # Section through a row: diffuser, walls, LED board, base.
    sx, sy = 500, 130
    k2 = 3.0
    width = v["grid"] * k2
    y_wall = sy + DIFFUSER * k2
    y_board = y_wall + WALL_HEIGHT * k2
    y_base = y_board + 1.6 * k2
    y_end = y_base + BASE * k2
    out.append(svg.text(sx, oy - 30, "section through a row", 13, weight="bold"))
    out.append(svg.rect(sx, sy, width, DIFFUSER * k2, fill="#e8eaf6", stroke=svg.INK, width=1, rx=0))
    for i in range(4):
        x = sx + i * PITCH * k2
        out.append(svg.rect(x, y_wall, WALL * k2, WALL_HEIGHT * k2, fill="#455a64", stroke="none", rx=0))
    out.append(svg.rect(sx, y_board, width, 1.6 * k2, fill="#2e7d32", stroke="none", rx=0))
    for i in range(3):
        x = sx + (WALL / 2 + (i + 0.5) * PITCH) * k2
        out.append('<path d="M%g %g L%g %g L%g %g z" fill="#fff59d" opacity="0.5"/>' % (
            x, y_board - 1.6 * k2, x - 14 * k2, y_wall, x + 14 * k2, y_wall))
        out.append(svg.rect(x - 2.5 * k2, y_board - 1.6 * k2, 5 * k2, 1.6 * k2, fill="#fff3c4", stroke=svg.INK, width=1,
                            rx=0))
    out.append(svg.rect(sx, y_base, width, BASE * k2, fill="none", stroke=svg.INK, width=1.5, rx=0))
    out.append(svg.rect(sx + 25 * k2, y_base + 11 * k2, 51 * k2, 4 * k2, fill="#1f5f3a", stroke="none", rx=2))
    out.append(svg.text(sx + 50 * k2, y_base + 7 * k2, "Pico or ESP32 under the LED board", 11, anchor="middle",
                        fill=svg.MUTED))
    right = sx + width + 16
    out.append(_dim(right, sy, right, y_wall, "diffuser %s" % mm(DIFFUSER), vertical=True))
    out.append(_dim(right, y_wall, right, y_board, "walls %s high, %s thick" % (mm(WALL_HEIGHT), mm(WALL)),
                    vertical=True))
    out.append(_dim(right, y_base, right, y_end, "base %s" % mm(BASE), vertical=True))
    out.append(_dim(sx - 16, sy, sx - 16, y_end, ""))
    out.append(svg.text(sx - 24, (sy + y_end) / 2 + 4, "about %s" % mm(round(v["height"])), 12, anchor="end"))
    out.append(svg.text(sx, y_end + 30, "LED board: 1.6 mm perfboard, pixels facing up, each in its cell's middle", 12,
                        fill=svg.MUTED))
    out.append(svg.text(sx, y_end + 48, "light spreads from each pixel to fill its cell of the diffuser", 12,
                        fill=svg.MUTED))
    out.append(svg.text(sx, y_end + 80, "top view: each cell's pixel (%s x %s) in its middle, and its button" % (
        mm(PIXEL), mm(PIXEL)), 12, fill=svg.MUTED))
    out.append(svg.text(sx, y_end + 98, "(%s x %s, grey) %s in front of it, centre to centre; on the bottom right" % (
        mm(BUTTON), mm(BUTTON), mm(BUTTON_OFFSET)), 12, fill=svg.MUTED))
    out.append(svg.text(sx, y_end + 116, "cell the %s is dimensioned" % mm(BUTTON_OFFSET), 12, fill=svg.MUTED))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def layout_page():
    """The layout notes as Markdown text."""
    v = layout_values()
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
        "- **Walls %s thick, %s high,** from the LED board to the diffuser, one well per cell. They keep each"
        " cell's light in its own cell: without them the marks bleed into their neighbours. Make them opaque"
        " (black or white filament, card, or wood); white inside gives a brighter, more even cell. With strip"
        " pieces, notch the walls' bottom edge where the strip passes under them." % (
            m["wall"], m["wall_height"]),
        "- **Diffuser %s,** opal (milky white) acrylic, or white 3D print about 1 mm thick, or two layers of"
        " tracing paper on clear acrylic. The pixel sits in the middle of its well, its face about %s below the"
        " diffuser: closer gives a bright spot with dark corners, farther a more even but dimmer glow." % (
            m["diffuser"], mm(WALL_HEIGHT - 1.6)),
        "- **Grid %s square, enclosure %s square** (%s of margin for its walls), about %s tall: the base leaves %s"
        " under the LED board for the Pico or ESP32 and its wiring. Cut a hole for the USB plug where the board's"
        " socket ends up, and keep the pixels' 5 V and GND wires short and thick." % (
            m["grid"], m["outside"], mm(MARGIN), mm(round(v["height"])), m["base"]),
        "- **Buttons.** A %s x %s mm tactile button in each cell, its centre %s in front of the pixel's (the grey"
        " squares in the top view). That leaves %s to the wall and keeps it %s clear of a %s mm strip through"
        " the pixels, or of a pixel board that size. Press it through a loose tile: a diffuser"
        " square a little smaller than the %s opening, with a small post underneath that reaches the button. A"
        " lip round the tile's underside keeps it in when the board is turned over. A 12 x 12 mm button has no"
        " room beside a strip: put those on a keypad of their own beside the grid, at the same pitch." % (
            m["button"], m["button"], m["button_offset"], m["button_to_wall"], m["button_to_strip"], mm(STRIP),
            m["opening"]),
        "- **Touch pads (ESP32).** A copper pad about %s square on the outside of the diffuser in each cell, with"
        " a hole in the middle for the light (or a frame of copper tape around the cell's edge), one thin wire"
        " through a hole to the ESP32, under 15 cm. Bare copper works best; a layer of clear tape over it is fine."
        " Through the diffuser itself the change is smaller: lower `input.threshold` and check with"
        " `check.touch()`." % m["pad"],
    ]
    return "\n".join(lines) + "\n"


