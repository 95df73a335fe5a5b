"""The MX kit (``pico-mx``): its dimensions in mm, shared by the PCB, the
plate and the printed tray, as keyboard makers build a macro pad.

Nine MX-compatible switches, each clipped into a plate and plugged into a
Kailh hot-swap socket on the PCB's underside, over nine reverse-mount
SK6812MINI-E pixels that shine up through a hole in the board into the
switch's window and a translucent keycap. The fab places every SMD part on
the underside; the maker solders the Pico's two 20-pin sockets, clicks in
the switches and fits the caps.

Coordinates: mm, origin at the centre of the middle key on the PCB's top
face, x to the right, y to the back (away from the player), z up. KiCad's
y runs the other way (down the page, towards the front).

Values marked "design value" are this kit's choices or published keyboard
conventions that no test here can check against a datasheet; the rest
follow from them.
"""

# --- the keys ------------------------------------------------------------
KEY_PITCH = 19.05  # 1u: the keyboard makers' key pitch (0.75 in), design value
KEYCAP = 18.0  # a 1u MX keycap's footprint, about; design value
PLATE_CUTOUT = 14.0  # the MX plate cut-out, square; design value (the public plate convention)
PLATE_THICKNESS = 1.5  # what an MX switch's clips are made for (1.5 +-0.1); design value
PLATE_THICKNESS_RANGE = (1.4, 1.6)  # plates the clips hold; design value
FR4_PLATE_THICKNESS = 1.6  # the plate ordered from the fab: FR-4 at its standard 1.6 mm
PLATE_TOP = 5.0  # the plate's top face above the PCB's top face (MX convention); design value
SWITCH_BODY = 15.6  # an MX switch's flange, square, above the plate (cherrymx.de); design value
SWITCH_BELOW_PLATE = 5.0  # an MX switch's bottom housing, from the plate's top to the PCB; design value

# An MX switch's holes, from the switch's centre (its 4 mm centre peg), in
# the kit's coordinates (y to the back). KiCad's SW_Cherry_MX_1.00u_PCB
# footprint (which cites Cherry's catalogue) has the same numbers with y
# negated.
MX_PIN1 = (2.54, 5.08)  # a 1.5 mm pin (the footprint's pad 1)
MX_PIN2 = (-3.81, 2.54)  # the other pin (pad 2)
MX_PEG = 4.0  # the centre peg's hole, Ø
MX_SIDE_PEGS = ((-5.08, 0.0), (5.08, 0.0))  # a PCB-mount (5-pin) switch's two plastic pegs
MX_SIDE_PEG = 1.75  # their holes, Ø (KiCad draws 1.7, the hot-swap libraries 1.75)
MX_LED_WINDOW = (0.0, -5.08)  # the switch's LED window, towards the player (south-facing)

# The Kailh MX hot-swap socket (CPG151101S11), on the PCB's underside: two
# SMD pads, the switch's pins go through 3.0 mm holes into its two cups.
# Design values from the public keyboard footprints (Kailh's drawing could
# not be read here).
SOCKET_PAD = (2.55, 2.5)  # each pad, w x h
SOCKET_PAD1 = (-7.085, 2.54)  # beside MX_PIN2's hole
SOCKET_PAD2 = (5.842, 5.08)  # beside MX_PIN1's hole
SOCKET_HOLE = 3.0  # the switch pins' holes, Ø
SOCKET_HEIGHT = 1.85  # the socket's body under the board
SOCKET_BODY = ((-6.0, 0.8), (4.8, 6.8))  # its outline, corners (x0, y0), (x1, y1)

# The SK6812MINI-E: a 3.2 x 2.8 mm body through a cut-out, its four legs on
# underside pads, the light going up. Design values (two public footprints
# agree within 0.1 mm; the datasheet could not be read here). Pads: 1 VDD,
# 2 DOUT, 3 GND, 4 DIN.
LED_BODY = (3.2, 2.8)
LED_CUTOUT = (3.6, 3.1)  # the hole in the board, w x h
LED_PAD = (1.4, 1.0)
LED_PAD_AT = (2.7, 0.7)  # pad centres at (+-x, +-y) from the LED's centre
LED_HEIGHT = 1.78

# --- the board -----------------------------------------------------------
BOARD_THICKNESS = 1.6
# The PCB's outline: the key grid with a border, and the Pico to its right,
# long side front to back, its USB socket at the back edge.
PCB_X = (-32.5, 52.5)
PCB_Y = (-32.5, 32.5)
PICO = (21.0, 51.0)  # the Pico's board, x by y
PICO_ROW_SPACING = 17.78
PICO_PITCH = 2.54
PICO_USB_OVERHANG = 1.3  # the micro-USB socket beyond the Pico's edge
# The Pico hangs under the board in two 20-pin female sockets, its parts
# facing down (the way the B3F kit hung it): its socket ends flush with the
# PCB's back edge.
PICO_CENTRE = (41.0, PCB_Y[1] - PICO_USB_OVERHANG - PICO[1] / 2)
SOCKET_ROW_HEIGHT = 8.5  # a 2.54 mm female header
PICO_THICKNESS = 1.0
# The plastic of the Pico's own (male) pin headers, between its board and the
# sockets it hangs in: the Pico's back is this much below the sockets.
PICO_SPACER = 2.5
PICO_PARTS = 1.6  # the tallest part on the Pico's face (its USB socket's 2.8 is at the edge)
PICO_USB = (8.0, 2.8)  # the micro-USB socket, wide x high
# BOOTSEL, on the Pico's face, in the kit's coordinates (the Pico turned
# over, as above; its datasheet's drawing).
BOOTSEL_AT = (PICO_CENTRE[0] + PICO[0] / 2 - 5.5, PICO_CENTRE[1] + PICO[1] / 2 - 14.5)
# Four M3 screws, from above, through the board at the key grid's inner
# corners (under the keycaps' corners and the plate: their heads sit in the
# 3.5 mm between board and plate) into the tray's bosses.
SCREW = 3.0
SCREW_HOLE = 3.2
SCREW_HEAD = (5.5, 2.4)  # M3 pan head, diameter x height: under the plate
SCREW_KEEPOUT = 3.3  # no copper within this of a screw's centre
SCREW_LENGTH = 8.0  # M3 x 8 pan head
SCREWS = [(sx * KEY_PITCH / 2, sy * KEY_PITCH / 2) for sy in (1, -1) for sx in (-1, 1)]

# --- the printed tray ------------------------------------------------------
FIT = 0.35  # FDM clearance, each side
CASE_WALL = 2.0  # walls and floor
# The board's underside to the floor's top: the sockets, the Pico's header
# plastic and board, its deepest part (the USB socket, at the back edge) and
# 1 mm of air.
UNDER = SOCKET_ROW_HEIGHT + PICO_SPACER + PICO_THICKNESS + max(PICO_PARTS, PICO_USB[1]) + 1.0
BOSS = 6.5  # the tray's bosses under the screws, Ø
PILOT = 2.5  # their pilot holes: an M3 screw cuts its own thread
PILOT_DEPTH = 8.0  # the pilot hole, down from the boss's top (the screw reaches 6.4 into the boss); design value
PCB_LEDGE = 1.5  # the tray's ledge under the board's edge, from the wall's inner face; design value
BOOTSEL_HOLE = 4.0  # in the floor: press BOOTSEL with a pen refill
USB_OPENING = (12.0, 8.0)  # in the back wall, for a micro-USB plug's moulding
# A pocket in the back wall's outside round the USB opening, w x h, centred
# on the socket: a plug whose moulding is too big for the opening stops on
# the pocket's face, USB_SKIN of wall (and FIT) in front of the socket.
USB_RECESS = (16.0, 12.0)  # design value
USB_SKIN = 0.8  # two 0.4 mm lines; design value
CASE_CORNER = 3.0  # the tray's outside corners' radius; design value
PLATE_LEDGE = 1.5  # the tray's ledge the plate's edge rests on
BED = 220.0  # the printer bed every part must fit


def key_at(cell):
    """A cell's switch centre ``(x, y)`` in mm (row 0 at the back)."""
    return ((cell % 3 - 1) * KEY_PITCH, (1 - cell // 3) * KEY_PITCH)


def led_at(cell):
    """A cell's pixel centre ``(x, y)``: under its switch's window."""
    x, y = key_at(cell)
    return (x + MX_LED_WINDOW[0], y + MX_LED_WINDOW[1])


def plate_outline():
    """The plate's outline, ``(x0, y0, x1, y1)``: the PCB's, PLATE_LEDGE wider
    all round, so it rests on the tray's ledge that the board (screwed in
    first) passes."""
    return (PCB_X[0] - PLATE_LEDGE, PCB_Y[0] - PLATE_LEDGE, PCB_X[1] + PLATE_LEDGE, PCB_Y[1] + PLATE_LEDGE)
