"""The hand-wired build on perfboard (``hardware/<board>/perfboard.md`` and
its pictures), for a Pico with nine buttons: every part on a hole of a
2.54 mm board under the grid and every wire, as the maker solders them,
drawn from the board config and the grid's dimensions in ``layout.py``.

The board is seen from the top (the parts side: pixels and buttons) and from
the underside (turned over left to right: the wires, the Pico's sockets, the
level shifter, the resistors and capacitors). Holes are named by column
letter (A at the left of the top view) and row number (1 at the back edge,
where the Pico's USB socket is).

How it is built (so each joint is where a hand reaches it):

- the pixels and buttons stand on the top, soldered underneath; a wire to
  one of their legs is soldered to that leg underneath;
- the resistors lie underneath, their legs through the board and soldered
  on the top; a wire is soldered to the leg underneath;
- the sockets (the Pico's two, the 74AHCT125's) and the capacitors (standing
  on their legs) sit underneath and are soldered on the top; their pins are
  covered underneath, so a wire to one comes up through the free hole beside
  the pin (its "wire hole") and is joined to the pin on the top with a
  solder bridge. A bar of solder between the 74AHCT125's rows joins its GND
  pins;
- bare rails carry 5 V behind and GND in front of each row of pixels, down
  the left and the right; insulated wires do the rest, routed along the
  rows and columns by negotiation (``Board._route``): they cross each other
  and the rails only at right angles.

Nothing is soldered on the top where the grid's walls stand or round the
four screw holes, except the Pico's socket pins (the Pico's place is the
kit's, ``layout.PICO_CENTRE``): the walls cross eight of them. The parts'
names are the netlist's: pixels ``P<cell>``, buttons ``S<cell>``, ``U2``
the 74AHCT125 (as on the PCB, whose U1 is the Pico), ``R1`` the 330R, ``R2`` the 10k pull-down, ``C1`` the 470 uF,
``C2`` the 100 nF; the Pico's pins by number. A config whose wires don't fit
gets a page that says so (``perfboard_files``).
"""

import heapq
import math

from host_tools.hardware import boards, layout, parts, svg
from host_tools.hardware.boards import HardwareError

HERE = "host_tools/hardware/perfboard.py"

P = 2.54  # the hole pitch
COLS, ROWS = 42, 43  # columns A..AP, rows 1..43: 106.7 x 109.2 mm
WIDTH, HEIGHT = COLS * P, ROWS * P
PAD = 0.9  # a hole's copper pad, radius: a joint is about this wide
SCREW_CLEAR = 4.0  # no joint or part within this of a screw's centre (its washer, the base's boss)
PIXEL_BOARD = 10.0  # a single-pixel breakout board, square
R_BODY = (6.5, 2.5)  # a 1/4 W resistor's body
R_SPAN = 4  # its legs 4 holes apart
C1_BODY = (8.0, 8.0)  # 470 uF, 10 V: 8 mm across, 11.5 mm tall, legs 3.5 mm apart
C1_SPAN = 2
C2_BODY = (5.0, 3.0)  # 100 nF disc, legs 2.54 mm apart
C2_SPAN = 1
DIP_BODY = (10.2, 19.3)  # a DIP-14 socket, rows 7.62 apart
HEADER_BODY = (2.54, 50.8)  # a 20-pin female header

# Wire colours by group, and the groups in the order they are soldered.
COLOURS = {"5v": svg.RED, "gnd": svg.INK, "data": svg.DATA, "button": "#e08a00"}
GROUPS = ("5v", "gnd", "data", "button")
# Parts whose pins are covered underneath (sockets, capacitors standing on
# their legs): a wire to one comes up through the hole beside the pin.
COVERED = ("pico", "dip", "electrolytic", "ceramic")


# --- holes ---------------------------------------------------------------------


def hole_xy(hole):
    """A hole ``(column, row)`` (from 0) as ``(x, y)`` in mm, layout.py's frame."""
    c, r = hole
    return ((c - (COLS - 1) / 2) * P, ((ROWS - 1) / 2 - r) * P)


def hole_at(x, y):
    """The hole at ``(x, y)`` mm, or None when that is not on a hole."""
    c = x / P + (COLS - 1) / 2
    r = (ROWS - 1) / 2 - y / P
    if abs(c - round(c)) > 1e-6 or abs(r - round(r)) > 1e-6:
        return None
    c, r = int(round(c)), int(round(r))
    return (c, r) if 0 <= c < COLS and 0 <= r < ROWS else None


def column_name(c):
    """Column letters: A..Z, then AA, AB, ..."""
    return chr(65 + c) if c < 26 else "A" + chr(65 + c - 26)


def hole_name(hole):
    """``"K12"``: column letter, row number."""
    return "%s%d" % (column_name(hole[0]), hole[1] + 1)


def snap(v, half=False):
    """``v`` mm to the nearest multiple of the pitch (``half``: of the pitch
    plus a half)."""
    if half:
        return (math.floor(v / P) + 0.5) * P
    return round(v / P) * P


def walls():
    """The grid's wall centre lines: ``[(axis, at)]``, axis "x" for a wall
    along y at x = at."""
    return [(axis, (i - 1.5) * layout.PITCH) for axis in ("x", "y") for i in range(4)]


def under_wall(x, y, clear=PAD):
    """True when a joint at ``(x, y)`` would be under a wall of the grid."""
    half = layout.WALL / 2 + clear
    grid = 1.5 * layout.PITCH + layout.WALL / 2
    for axis, at in walls():
        along, across = (y, x) if axis == "x" else (x, y)
        if abs(across - at) < half and abs(along) < grid + clear:
            return True
    return False


def under_tile(x, y, clear=PAD):
    """True when a joint at ``(x, y)`` would be under a key tile's edge (its
    stop, which comes down to STOP_GAP above the board), with the tile's play
    in its well."""
    v = layout.case_values()
    outer = v["flange"] / 2 + layout.FIT + clear
    inner = v["flange"] / 2 - layout.TILE_SKIN - layout.FIT - clear
    for cell in range(9):
        cx, cy = layout.pixel_at(cell)
        dx, dy = abs(x - cx), abs(y - cy)
        if inner < max(dx, dy) < outer and (dx + dy) / math.sqrt(2) < v["corner_cut"] + clear:
            return not under_wall(x, y)
    return False


def near_screw(x, y, clear=SCREW_CLEAR):
    return any(math.hypot(x - sx, y - sy) < clear for sx, sy in layout.screws())


def _screw_holes():
    """Where each screw hole is to be drilled, in hole names: ``"between O15
    and O16, ..."`` (the screws fall between holes)."""
    out = []
    for sx, sy in layout.screws():
        c = sx / P + (COLS - 1) / 2
        r = (ROWS - 1) / 2 - sy / P
        cols = sorted({math.floor(c + 0.25), math.ceil(c - 0.25)})
        rows = sorted({math.floor(r + 0.25), math.ceil(r - 0.25)})
        names = [hole_name((a, b)) for a in cols for b in rows]
        out.append(names[0] if len(names) == 1 else "between " + " and ".join(names))
    return ", ".join(out)


# --- parts ---------------------------------------------------------------------


class Part:
    """A part on the board: its pins on holes, its body's outline (mm) and
    the side it stands on ("top" or "bottom")."""

    def __init__(self, ref, what, side, pins, body, kind):
        self.ref, self.what, self.side, self.pins, self.body, self.kind = ref, what, side, pins, body, kind

    def hole(self, pin):
        return self.pins[pin]


def _place(ref, what, side, kind, centre, offsets, size, turn=False):
    """A part whose pin ``name`` is at ``centre + offsets[name] * P``
    (offsets as the part's own top view; mirrored for the underside, turned
    a quarter anticlockwise with ``turn``)."""
    cx, cy = centre
    pins = {}
    for name, (dx, dy) in offsets.items():
        if turn:
            dx, dy = -dy, dx
        if side == "bottom":
            dx = -dx
        hole = hole_at(cx + dx * P, cy + dy * P)
        if hole is None:
            raise HardwareError("%s pin %s is off the perfboard's holes" % (ref, name))
        pins[name] = hole
    w, h = (size[1], size[0]) if turn else size
    return Part(ref, what, side, pins, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), kind)


# A single-pixel breakout on four wire legs: data in at the left, out at the
# right, 5 V behind DIN and GND in front of DOUT, so a 5 V rail and a GND
# rail can run along each row of pixels past the data between them.
PIXEL_PINS = {"5V": (-1.5, 1), "DIN": (-1.5, 0), "DOUT": (1.5, 0), "GND": (1.5, -1)}
# A 6 x 6 mm button's legs 3 x 2 holes apart (they spread a little, as on a
# breadboard); two diagonal legs are never joined inside it, so those two
# are the switch, whichever way round it goes in.
BUTTON_PINS = {"GND": (1.5, 1), "SIG": (-1.5, -1), "-": (-1.5, 1), "--": (1.5, -1)}
# The 74AHCT125 in its own top view, notch at the back: 1-7 down the left,
# 8-14 up the right.
DIP_PINS = dict([(str(k), (-1.5, 4 - k)) for k in range(1, 8)] + [(str(k), (1.5, k - 11)) for k in range(8, 15)])


def pico_pin_xy(n, centre):
    """Pico pin ``n`` (1-40) seen from the top of the board, the Pico hanging
    upside down under it, USB end at the back: pin 1 at the right, back."""
    cx, cy = centre
    half = layout.PICO_ROW_SPACING / 2
    if n <= 20:
        return (cx + half, cy + (9.5 - (n - 1)) * P)
    return (cx - half, cy + (n - 21 - 9.5) * P)


PICO_VBUS = 40
PICO_GND = 18  # beside cell 1's button: one wire inside the sockets, one out to the GND rail
INSIDE = (1,)  # the button between the sockets: wired from inside them
RAIL_5V, RAIL_GND = 3, 38  # the columns of the 5 V rail (left) and the GND rail (right)


class Board:
    """The perfboard of a config: its parts, the solder bridges on the top,
    the wire holes beside covered pins, and the wires underneath."""

    def __init__(self, cfg, strict=True):
        if cfg["board"] != "pico" or cfg["input"]["kind"] != "buttons":
            raise HardwareError("the perfboard layout is drawn for a Pico with nine buttons")
        boards.check(cfg)
        self.cfg = cfg
        self.parts = {}
        self.snaps = []  # (what, wanted (x, y), got (x, y))
        self.bridges = []  # (hole, hole): neighbours joined with solder on the top
        self.wire_hole = {}  # (ref, pin) -> the hole its wire comes up through
        self.links = []  # (group, net, (ref, pin), (ref, pin)): the wires to make
        self.wires = []  # (group, net, (terminal, terminal), [corner holes])
        self.failed = []
        self._place_parts()
        self._links()
        self._route()
        if strict and self.failed:
            raise HardwareError(self.failed[0])

    # --- parts

    def _add(self, part):
        self.parts[part.ref] = part
        return part

    def _place_parts(self):
        for cell in range(9):
            for ref, what, kind, at, pins, size in (
                    ("P%d", "pixel, cell %d", "pixel", layout.pixel_at, PIXEL_PINS, (PIXEL_BOARD, PIXEL_BOARD)),
                    ("S%d", "button, cell %d", "button", layout.button_at, BUTTON_PINS, (layout.BUTTON,) * 2)):
                want = at(cell)
                got = (snap(want[0]), snap(want[1]))
                self.snaps.append((what % cell, want, got))
                self._add(_place(ref % cell, what % cell, "top", kind, got, pins, size))
        # The Pico: its rows fall on holes across; along, its pins snap.
        cx, cy = layout.PICO_CENTRE
        self.pico_centre = (cx, snap(cy, half=True))
        self.snaps.append(("the Pico", layout.PICO_CENTRE, self.pico_centre))
        pins = {}
        for n in range(1, 41):
            hole = hole_at(*pico_pin_xy(n, self.pico_centre))
            if hole is None:
                raise HardwareError("Pico pin %d is off the perfboard's holes" % n)
            pins[str(n)] = hole
        x0, y0 = cx - layout.PICO[0] / 2, self.pico_centre[1] - layout.PICO[1] / 2
        self._add(Part("PICO", "Raspberry Pi Pico, upside down in two 20-pin sockets", "bottom", pins,
                       (x0, y0, x0 + layout.PICO[0], y0 + layout.PICO[1]), "pico"))
        self._place_shifter()
        self._rails()
        # The pull-down at the Pico's end of the data wire (the same net as the
        # shifter's pin 2), the 330R and the 470 uF at the first pixel.
        # Every wire hole beside the Pico's pins first: the parts placed next
        # keep out of their way.
        self._pico_hole(PICO_VBUS, True)
        self._pico_hole(PICO_VBUS, False)
        self._pico_hole(PICO_GND, True)
        self._pico_hole(PICO_GND, False)
        data = self._pico_hole(_pico_pin(self.cfg, self.cfg["leds"]["pin"]), False)
        for cell, pin in enumerate(self.cfg["input"]["pins"]):
            self._pico_hole(_pico_pin(self.cfg, pin), cell in INSIDE)
        self._add(self._search("R2", "%s resistor (pull-down)" % parts.PULL_DOWN, "resistor", R_SPAN, R_BODY,
                               self.wire_hole[data], "1"))
        first = self.parts["P%d" % boards.chain(self.cfg)[0]]
        self._add(self._search("R1", "%s resistor" % parts.RESISTOR, "resistor", R_SPAN, R_BODY,
                               first.hole("DIN"), "2"))
        self._add(self._search("C1", "%s capacitor" % parts.CAPACITOR, "electrolytic", C1_SPAN, C1_BODY,
                               first.hole("5V"), "+", "-"))

    def _place_shifter(self):
        """The 74AHCT125 in cell 0's back, between its pixel and the wall:
        its rows across the board, pins 1-7 at the front (1 at the right),
        8-14 at the back. A bar of solder between the rows joins its GND pins
        (1, 4, 5, 7 and the unused gates' 9, 10, 12, 13); the 100 nF sits
        beside pin 14; the 10k pull-down hangs from pin 2's front."""
        pixel = self.parts["P0"]
        c0, r0 = pixel.hole("5V")  # the pixel's 5V leg: the block is drawn from it, a column left
        c0 -= 1
        front, back = r0 - 1, r0 - 4
        x = (hole_xy((c0, 0))[0] + hole_xy((c0 + 6, 0))[0]) / 2
        y = (hole_xy((0, front))[1] + hole_xy((0, back))[1]) / 2
        u2 = self._add(_place("U2", "%s in a DIP-14 socket" % parts.SHIFTER, "bottom", "dip", (x, y), DIP_PINS,
                              DIP_BODY, turn=True))
        assert u2.hole("1") == (c0 + 6, front) and u2.hole("14") == (c0 + 6, back), "U2 turned the wrong way"
        bar = front - 1
        self.bridges += [((c, bar), (c + 1, bar)) for c in range(c0, c0 + 6)]
        for pin in ("1", "4", "5", "7"):
            c, r = u2.hole(pin)
            self.bridges.append(((c, r), (c, bar)))
        for pin in ("9", "10", "12", "13"):
            c, r = u2.hole(pin)
            self.bridges += [((c, r), (c, r + 1)), ((c, r + 1), (c, bar))]
        # Pin 14: along its row to the 5 V wire's hole, then down to C2.
        c14, _ = u2.hole("14")
        five = (c14 + 1, back)
        self.bridges += [(u2.hole("14"), five), (five, (c14 + 2, back + 1)), ((c14 + 2, back + 2), (c14 + 1, bar)),
                         ((c14 + 1, bar), (c14, bar))]
        self.wire_hole[("U2", "14")] = five
        self._add(_two("C2", "100 nF capacitor", "ceramic", (c14 + 2, back + 1), (c14 + 2, back + 2), C2_BODY))
        # Pin 1: GND comes up beside it; pin 3's output beside it; pin 2 to
        # the pull-down's leg, which the data wire comes to.
        for pin, beside in (("1", (1, 0)), ("2", (0, 1)), ("3", (0, 1))):  # pin 1 along its row, 2 and 3 in front
            c, r = u2.hole(pin)
            self.wire_hole[("U2", pin)] = (c + beside[0], r + beside[1])
            self.bridges.append(((c, r), self.wire_hole[("U2", pin)]))

    def used(self):
        """Every hole a pin, a wire hole or a bridge takes."""
        out = {h for part in self.parts.values() for h in part.pins.values()}
        return out | set(self.wire_hole.values()) | {h for b in self.bridges for h in b}

    def taken(self):
        """Every hole a part, a wire hole or a rail takes."""
        return self.used() | self.rail_holes["5v"] | self.rail_holes["gnd"]

    def covered(self, side):
        """The holes under the bodies on ``side`` (a body sits on them)."""
        out = set()
        for part in self.parts.values():
            if part.side == side:
                for box in _boxes(part):
                    out |= _holes_in(box)
        return out

    def _joint_ok(self, hole, used):
        """A joint can go on the top at ``hole``: free, clear of the walls and
        the screws, not under a button (the pixels stand on their legs)."""
        x, y = hole_xy(hole)
        if hole in used or under_wall(x, y) or near_screw(x, y):
            return False
        return not any(_inside((x, y), p.body) for p in self.parts.values() if p.kind == "button")

    def _free_beside(self, part, pin, used, under, inward=False):
        """The hole beside ``part``'s ``pin`` for a wire: away from the
        part's middle first (towards it with ``inward``); free, reachable
        underneath, clear on top."""
        c, r = part.hole(pin)
        x, y = hole_xy((c, r))
        x0, y0, x1, y1 = part.body
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        ox = -1 if x < mx - 1e-6 else 1 if x > mx + 1e-6 else 0
        oy = 1 if y < my - 1e-6 else -1 if y > my + 1e-6 else 0  # rows count down the board
        if y1 - y0 > x1 - x0 + 1e-6:  # a long part: out across its rows of pins
            oy = 0
        elif x1 - x0 > y1 - y0 + 1e-6:
            ox = 0
        if inward:
            ox, oy = -ox, -oy
        tries = sorted(((dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr),
                       key=lambda d: (abs(d[0]) + abs(d[1]), -(d[0] * ox + d[1] * oy), d))
        for dc, dr in tries:
            h = (c + dc, r + dr)
            if 0 <= h[0] < COLS and 0 <= h[1] < ROWS and h not in under and self._joint_ok(h, used):
                return h
        return None

    def _search(self, ref, what, kind, span, size, target, near, other=None):
        """The place nearest ``target`` for a two-legged part on the
        underside, its leg ``near`` closest to it."""
        other = other or ("2" if near == "1" else "1")
        used = self.taken()
        under = self.covered("bottom")
        doors = {n for h in self.wire_hole.values() if h != target for n in _around(h)} - {target}
        tc, tr = target
        best = None
        for c in range(COLS):
            for r in range(ROWS):
                score = abs(c - tc) + abs(r - tr)
                if best is not None and score >= best[0]:
                    continue
                for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    a, b = (c, r), (c + dc * span, r + dr * span)
                    if not (0 <= b[0] < COLS and 0 <= b[1] < ROWS):
                        continue
                    if not (self._joint_ok(a, used) and self._joint_ok(b, used)) or a in under or b in under:
                        continue
                    part = _two(ref, what, kind, a, b, size, (near, other))
                    if not self._body_ok(part, used) or ({a, b} | _holes_in(part.body)) & doors:
                        continue
                    beside = {}
                    if kind in COVERED:  # its legs are under it: a wire hole beside each
                        taken = used | {a, b}
                        for pin in (near, other):
                            beside[pin] = self._free_beside(part, pin, taken, under | _holes_in(part.body))
                            taken = taken | {beside[pin]}
                        if None in beside.values():
                            continue
                    best = (score, part, beside)
                    break
        if best is None:
            raise HardwareError("no room on the perfboard for %s" % ref)
        for pin, hole in best[2].items():
            self.wire_hole[(ref, pin)] = hole
            self.bridges.append((best[1].hole(pin), hole))
        return best[1]

    def _body_ok(self, part, used):
        x0, y0, x1, y1 = part.body
        if x0 < -WIDTH / 2 or y0 < -HEIGHT / 2 or x1 > WIDTH / 2 or y1 > HEIGHT / 2:
            return False
        if any(_box_distance(part.body, s) < SCREW_CLEAR for s in layout.screws()):
            return False
        if (_holes_in(part.body) - set(part.pins.values())) & used:
            return False
        return not any(other.side == "bottom" and _overlap(part.body, box)
                       for other in self.parts.values() for box in [other.body] + _boxes(other))

    # --- wires

    def _pico_hole(self, pin, inside):
        """A wire hole of Pico ``pin``: inside its sockets (towards cell 1)
        or outside."""
        key = ("PICO", "%d%s" % (pin, "i" if inside else ""))
        if key not in self.wire_hole:
            pico = self.parts["PICO"]
            hole = self._free_beside(pico, str(pin), self.taken(), self.covered("bottom"), inward=inside)
            if hole is None:
                raise HardwareError("Pico pin %d: no free hole beside it for its wire" % pin)
            self.wire_hole[key] = hole
            self.bridges.append((pico.hole(str(pin)), hole))
        return key

    def _rails(self):
        """The bare 5 V and GND rails underneath: along each row of pixels
        (5 V behind the data, GND in front of it), tied together by a rail
        down the left (5 V) and the right (GND). The top row's rails stop at
        the Pico's sockets: cell 1 is fed from the Pico inside them, cell 2's
        5 V and cell 0's GND by a wire."""
        px = [self.parts["P%d" % c] for c in range(9)]
        r5 = [px[3 * k].hole("5V")[1] for k in range(3)]
        rg = [px[3 * k].hole("GND")[1] for k in range(3)]
        c5 = [p.hole("5V")[0] for p in px[:3]]
        cg = [p.hole("GND")[0] for p in px[:3]]
        self.rails = [
            ("5v", [(c5[0], r5[0]), (RAIL_5V, r5[0]), (RAIL_5V, r5[2]), (c5[2], r5[2])]),
            ("5v", [(RAIL_5V, r5[1]), (c5[2], r5[1])]),
            ("gnd", [(cg[2], rg[0]), (RAIL_GND, rg[0]), (RAIL_GND, rg[2]), (cg[0], rg[2])]),
            ("gnd", [(cg[0], rg[1]), (RAIL_GND, rg[1])]),
        ]
        self.rail_holes = {"5v": set(), "gnd": set()}
        for group, corners in self.rails:
            self.rail_holes[group] |= set(_cells(corners))

    def _links(self):
        """The wires the config asks for, each between two terminals (a pin,
        or ``("rail", group)``: the nearest hole of that rail): the data
        through the shifter, the 330R and the pixels in chain order; a wire
        from each button to its GPIO; the power the rails don't reach."""
        cfg = self.cfg
        chain = boards.chain(cfg)
        five, gnd = ("rail", "5v"), ("rail", "gnd")
        links = [("5v", "5 V", self._pico_hole(PICO_VBUS, True), ("P1", "5V")),
                 ("5v", "5 V", self._pico_hole(PICO_VBUS, False), five),
                 ("5v", "5 V", ("U2", "14"), five), ("5v", "5 V", ("C1", "+"), five),
                 ("5v", "5 V", ("P2", "5V"), five),
                 ("gnd", "GND", self._pico_hole(PICO_GND, True), ("S1", "GND")),
                 ("gnd", "GND", ("S1", "GND"), ("P1", "GND")),
                 ("gnd", "GND", self._pico_hole(PICO_GND, False), gnd),
                 ("gnd", "GND", ("U2", "1"), gnd), ("gnd", "GND", ("R2", "2"), gnd),
                 ("gnd", "GND", ("C1", "-"), gnd), ("gnd", "GND", ("P0", "GND"), gnd)]
        links += [("gnd", "GND", ("S%d" % c, "GND"), ("P%d" % c, "GND")) for c in range(9) if c != 1]
        data = _pico_pin(cfg, cfg["leds"]["pin"])
        links.append(("data", "data in", self._pico_hole(data, False), ("R2", "1")))
        links.append(("data", "data in", ("R2", "1"), ("U2", "2")))
        links.append(("data", "data out", ("U2", "3"), ("R1", "1")))
        links.append(("data", "data to pixel 0", ("R1", "2"), ("P%d" % chain[0], "DIN")))
        for p in range(8):
            links.append(("data", "data to pixel %d" % (p + 1), ("P%d" % chain[p], "DOUT"),
                          ("P%d" % chain[p + 1], "DIN")))
        for cell, pin in enumerate(cfg["input"]["pins"]):
            links.append(("button", "button %d" % cell, self._pico_hole(_pico_pin(cfg, pin), cell in INSIDE),
                          ("S%d" % cell, "SIG")))
        self.links = links

    def terminal(self, ref, pin):
        """The hole a wire to ``ref``'s ``pin`` ends at (a set of holes for
        a rail)."""
        if ref == "rail":
            return self.rail_holes[pin]
        if (ref, pin) in self.wire_hole:
            return self.wire_hole[(ref, pin)]
        return self.parts[ref].hole(pin)

    def _route(self):
        """Route every link, shortest first in each group, by negotiation:
        wires may share a hole at first, at a price that grows each round
        and stays higher where they fought before, until none do (two wires
        may cross at right angles; a bare rail only be crossed)."""
        order = {g: i for i, g in enumerate(GROUPS)}

        def length(w):
            a, b = self.terminal(*w[2]), self.terminal(*w[3])
            return min(_dist(a, h) for h in (b if isinstance(b, set) else [b]))
        todo = sorted(self.links, key=lambda w: (order[w[0]], length(w)))
        self.blocked = self.covered("bottom") | {h for h in _all_holes() if near_screw(*hole_xy(h))}
        self.rail_way = {}
        for _, corners in self.rails:
            self.rail_way.update(_ways(corners))
        legs = {h for p in self.parts.values() if p.kind in ("pixel", "button", "resistor") for h in p.pins.values()}
        history, price = {}, 0.5
        for _ in range(ROUNDS):
            users, self.wires, self.failed, self.parent = {}, [], [], {}
            for group, holes in self.rail_holes.items():
                for h in holes:
                    self._join(h, min(holes))
            for link in todo:
                group, name, a, b = link
                ha, hb = self.terminal(*a), self.terminal(*b)
                if isinstance(hb, set):  # the rail, or any leg already joined to it
                    rail = self._find(min(hb))
                    hb = hb | {h for h in legs if self._find(h) == rail and self._find(ha) != rail}
                path = self._path(ha, hb if isinstance(hb, set) else {hb}, users, history, price)
                if path is None:
                    self.failed.append("no way for the %s wire from %s on the perfboard" % (name, hole_name(ha)))
                    continue
                for h, way in _ways(path).items():
                    users.setdefault(h, []).append(way)
                self._join(path[0], path[-1])
                self.wires.append((group, name, (a, b), path))
            fights = [h for h, ways in users.items() if not _shared_well(ways)]
            if not fights and not self.failed:
                break
            for h in fights:
                history[h] = history.get(h, 0) + 1
            price *= GROWTH
            todo = todo[::-1] if FLIP else todo
        else:
            self.failed += ["wires run over each other at %s on the perfboard" % ", ".join(
                hole_name(h) for h in sorted(fights)[:5])] if fights else []
        self.wires.sort(key=lambda w: order[w[0]])

    def _find(self, h):
        self.parent.setdefault(h, h)
        while self.parent[h] != h:
            self.parent[h] = self.parent[self.parent[h]]
            h = self.parent[h]
        return h

    def _join(self, a, b):
        self.parent[self._find(a)] = self._find(b)

    def _path(self, a, targets, users, history, price):
        """The cheapest wire from hole a to one of ``targets`` underneath,
        along the rows and columns: round bodies and other pins, across a
        rail only straight and at right angles; a hole other wires use
        costs more the more they clash there."""
        used = self.used()
        dist = {(a, -1): 0}
        prev = {}
        heap = [(0, a, -1)]
        while heap:
            d, h, way = heapq.heappop(heap)
            if h in targets:
                path, key = [h], (h, way)
                while key in prev:
                    key = prev[key]
                    path.append(key[0])
                return _corners(path[::-1])
            if d > dist.get((h, way), math.inf):
                continue
            for nway, (dc, dr) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
                n = (h[0] + dc, h[1] + dr)
                if not (0 <= n[0] < COLS and 0 <= n[1] < ROWS) or n in self.blocked:
                    continue
                if n not in targets and n in used:
                    continue
                here = "E" if h == a else ("H" if dr == 0 else "V") if way == nway else "X"
                if h != a and h in self.rail_way and here != ("V" if self.rail_way[h] == "H" else "H"):
                    continue  # straight across a rail, or not at all
                cost = d + 1 + (BEND if here == "X" else 0)
                if h != a:
                    clash = _clashes(users.get(h, ()), here)
                    cost += clash * price * (1 + history.get(h, 0)) + history.get(h, 0) * 0.5
                key = (n, nway)
                if cost < dist.get(key, math.inf):
                    dist[key] = cost
                    prev[key] = (h, way)
                    heapq.heappush(heap, (cost, n, nway))
        return None


BEND = 2  # a wire's cost of a bend, in holes of length
ROUNDS = 25
GROWTH = 2.0  # how much dearer a shared hole gets each round
FLIP = True  # and the links go the other way round


def _ways(corners):
    """How a wire (or rail) uses each hole it passes: "H" or "V" straight
    through, "X" bending, "E" ending."""
    full = _cells(corners)
    out = {}
    for i, h in enumerate(full):
        if i == 0 or i == len(full) - 1:
            out[h] = "E"
        elif full[i - 1][1] == h[1] == full[i + 1][1]:
            out[h] = "H"
        elif full[i - 1][0] == h[0] == full[i + 1][0]:
            out[h] = "V"
        else:
            out[h] = "X"
    return out


def _clashes(ways, mine):
    """How many of the wires using a hole ``ways`` clash with one more using
    it ``mine``: only one crossing (an "H" and a "V") shares a hole."""
    if mine in ("H", "V"):
        other = "V" if mine == "H" else "H"
        return sum(1 for w in ways if w != other) + max(0, sum(1 for w in ways if w == other) - 1)
    return len(ways)


def _shared_well(ways):
    """A hole's wires don't clash: ends only (at a pin or a rail), one wire,
    or one crossing another at right angles."""
    return all(w == "E" for w in ways) or len(ways) <= 1 or sorted(ways) == ["H", "V"]


def _two(ref, what, kind, a, b, size, names=("1", "2")):
    """A two-legged part on the underside, legs at holes a and b."""
    if kind == "electrolytic" and names == ("1", "2"):
        names = ("+", "-")
    (ax, ay), (bx, by) = hole_xy(a), hole_xy(b)
    w, h = size if ay == by else (size[1], size[0])
    mx, my = (ax + bx) / 2, (ay + by) / 2
    return Part(ref, what, "bottom", {names[0]: a, names[1]: b}, (mx - w / 2, my - h / 2, mx + w / 2, my + h / 2),
                kind)


def _pico_pin(cfg, pin):
    return boards.PICO_HEADER[boards.gpio(pin)]


def _around(hole):
    c, r = hole
    return [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]


def _all_holes():
    return [(c, r) for c in range(COLS) for r in range(ROWS)]


def _dist(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _corners(path):
    """A path of neighbouring holes cut to its ends and bends."""
    out = [path[0]]
    for i in range(1, len(path) - 1):
        a, h, b = path[i - 1], path[i], path[i + 1]
        if (h[0] - a[0], h[1] - a[1]) != (b[0] - h[0], b[1] - h[1]):
            out.append(h)
    if len(path) > 1:
        out.append(path[-1])
    return out


def _cells(corners):
    """Every hole along a path given by its corners."""
    out = [corners[0]]
    for a, b in zip(corners, corners[1:]):
        dc = (b[0] > a[0]) - (b[0] < a[0])
        dr = (b[1] > a[1]) - (b[1] < a[1])
        h = a
        while h != b:
            h = (h[0] + dc, h[1] + dr)
            out.append(h)
    return out


def _boxes(part):
    """The outlines a part's body covers the board with (the Pico: its two
    sockets; the Pico's board hangs 8.5 mm below, clear of the wires)."""
    if part.kind != "pico":
        return [part.body]
    out = []
    for n in (1, 21):
        x, _ = hole_xy(part.pins[str(n)])
        _, ya = hole_xy(part.pins["1"])
        _, yb = hole_xy(part.pins["20"])
        w, h = HEADER_BODY
        out.append((x - w / 2, (ya + yb) / 2 - h / 2, x + w / 2, (ya + yb) / 2 + h / 2))
    return out


def _holes_in(box, margin=0.0):
    x0, y0, x1, y1 = box
    return {h for h in _all_holes() if _inside(hole_xy(h), box, margin)}


def _inside(pt, box, margin=0.0):
    x, y = pt
    return box[0] - margin < x < box[2] + margin and box[1] - margin < y < box[3] + margin


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box_distance(box, pt):
    x, y = pt
    dx = max(box[0] - x, 0, x - box[2])
    dy = max(box[1] - y, 0, y - box[3])
    return math.hypot(dx, dy)


# --- drawing -------------------------------------------------------------------

K = 7.0  # px per mm
LEFT, TOP = 46, 118  # the board's corner in the picture
BOARD_FILL = "#eadfbf"
WIRE_W = 0.75 * K
STEPS = (  # (file, title, what it adds): the hand-wired build's pictures, in order
    ("perfboard-step1.svg", "step 1: the parts underneath", None),
    ("perfboard-step2.svg", "step 2: 5 V and GND", ("5v", "gnd")),
    ("perfboard-step3.svg", "step 3: the data chain", ("data",)),
    ("perfboard-step4.svg", "step 4: the buttons", ("button",)),
)


class _View:
    """Millimetres to the picture: the top seen from above, or the underside
    with the board turned over left to right (the back edge stays at the
    top of the picture, column A goes to the right)."""

    def __init__(self, side):
        self.side = side

    def x(self, x):
        return LEFT + ((WIDTH / 2 - x) if self.side == "bottom" else (x + WIDTH / 2)) * K

    def y(self, y):
        return TOP + (HEIGHT / 2 - y) * K

    def hole(self, hole):
        x, y = hole_xy(hole)
        return self.x(x), self.y(y)

    def box(self, box):
        x0, x1 = sorted((self.x(box[0]), self.x(box[2])))
        return x0, self.y(box[3]), x1 - x0, (box[3] - box[1]) * K


def _poly(view, holes, colour, width, cls, extra=""):
    pts = " ".join("%g,%g" % view.hole(h) for h in holes)
    return ('<polyline class="%s" points="%s" fill="none" stroke="%s" stroke-width="%g" stroke-linejoin="round"'
            ' stroke-linecap="round"%s/>' % (cls, pts, colour, width, extra))


def _pin(view, part, name, hole, r=0.75 * K, fill="#d9d9d9"):
    x, y = view.hole(hole)
    return ('<circle class="pin" data-ref="%s" data-pin="%s" cx="%g" cy="%g" r="%g" fill="%s" stroke="%s"'
            ' stroke-width="1.2"/>' % (part.ref, name, x, y, r, fill, svg.INK))


def _grid(view, side):
    """The board, its holes, the hole names round it, the walls and screws."""
    out = []
    bx, by = view.x(-WIDTH / 2 if side == "top" else WIDTH / 2), view.y(HEIGHT / 2)
    hx0, hy0 = view.hole((0, 0))
    out.append('<defs><pattern id="holes" x="%g" y="%g" width="%g" height="%g" patternUnits="userSpaceOnUse">'
               '<circle cx="%g" cy="%g" r="%g" fill="#ffffff" stroke="%s" stroke-width="1.4"/></pattern>%s</defs>'
               % (hx0 - P * K / 2, hy0 - P * K / 2, P * K, P * K, P * K / 2, P * K / 2, 0.55 * K, svg.COPPER,
                  svg.ARROW))
    out.append('<g class="board" data-side="%s" data-left="%g" data-top="%g" data-scale="%g" data-mirror="%d">'
               % (side, LEFT, TOP, K, side == "bottom"))
    out.append(svg.rect(bx, by, WIDTH * K, HEIGHT * K, fill=BOARD_FILL, stroke="#8a7a4c", width=2, rx=3))
    out.append(svg.rect(bx, by, WIDTH * K, HEIGHT * K, fill="url(#holes)", stroke="none", width=0, rx=3))
    for c in range(COLS):
        x, _ = view.hole((c, 0))
        for y in (by - 6, by + HEIGHT * K + 14):
            out.append(svg.text(x, y, column_name(c), 8, anchor="middle", fill=svg.MUTED))
    for r in range(ROWS):
        _, y = view.hole((0, r))
        out.append(svg.text(bx - 5, y + 3, str(r + 1), 8, anchor="end", fill=svg.MUTED))
        out.append(svg.text(bx + WIDTH * K + 5, y + 3, str(r + 1), 8, fill=svg.MUTED))
    # The walls stand on the top: nothing soldered under them.
    grid = 1.5 * layout.PITCH + layout.WALL / 2
    style = ('fill="#5f6b7a" fill-opacity="%s" stroke="#5f6b7a" stroke-dasharray="%s"'
             % (("0.28", "none") if side == "top" else ("0.08", "5 4")))
    for axis, at in walls():
        box = (at - layout.WALL / 2, -grid, at + layout.WALL / 2, grid) if axis == "x" else \
            (-grid, at - layout.WALL / 2, grid, at + layout.WALL / 2)
        x, y, w, h = view.box(box)
        out.append('<rect class="wall" x="%g" y="%g" width="%g" height="%g" %s/>' % (x, y, w, h, style))
    for sx, sy in layout.screws():
        x, y = view.x(sx), view.y(sy)
        out.append('<circle class="screw" cx="%g" cy="%g" r="%g" fill="#ffffff" stroke="%s" stroke-width="2"/>'
                   % (x, y, layout.SCREW_HOLE / 2 * K, svg.INK))
        out.append('<circle cx="%g" cy="%g" r="%g" fill="none" stroke="%s" stroke-width="1" stroke-dasharray="3 3"/>'
                   % (x, y, SCREW_CLEAR * K, svg.MUTED))
        out.append(svg.text(x, y + 4, "M3", 10, anchor="middle", weight="bold"))
    return out


def _draw_part(view, part, chain_index, cfg, near):
    """A part: solid on its own side (``near``), dashed from the other."""
    out = ['<g class="part" data-ref="%s">' % part.ref]
    x, y, w, h = view.box(part.body)
    cx, cy = x + w / 2, y + h / 2
    if not near:
        out.append('<rect x="%g" y="%g" width="%g" height="%g" rx="3" fill="#ffffff" fill-opacity="0.35"'
                   ' stroke="%s" stroke-width="1.2" stroke-dasharray="4 3"/>' % (x, y, w, h, svg.MUTED))
    elif part.kind == "pixel":
        out.append(svg.rect(x, y, w, h, fill="#fdf6dc", stroke=svg.INK, width=1.5, rx=3))
        s = layout.PIXEL * K
        out.append(svg.rect(cx - s / 2, cy - s / 2, s, s, fill="#ffffff", stroke=svg.INK, width=1, rx=1))
        out.append('<circle cx="%g" cy="%g" r="%g" fill="#ffe082"/>' % (cx, cy, 1.4 * K))
    elif part.kind == "button":
        out.append(svg.rect(x, y, w, h, fill="#cfd8dc", stroke=svg.INK, width=1.5, rx=2))
        out.append('<circle cx="%g" cy="%g" r="%g" fill="#78909c"/>' % (cx, cy, layout.SWITCH_ACTUATOR / 2 * K))
    elif part.kind == "pico":
        out.append('<rect x="%g" y="%g" width="%g" height="%g" rx="4" fill="#1f5f3a" fill-opacity="0.6" stroke="%s"'
                   ' stroke-width="1.5"/>' % (x, y, w, h, svg.INK))
        usb = view.box((-4, layout.PICO_CENTRE[1] + layout.PICO[1] / 2 - 5.5, 4, layout.PICO_CENTRE[1]
                        + layout.PICO[1] / 2 + 1))
        out.append(svg.rect(*usb, fill="#b0bec5", stroke=svg.INK, width=1, rx=1))
        for box in _boxes(part):
            out.append(svg.rect(*view.box(box), fill="#263238", stroke="none", width=0, rx=1))
        top = usb[1] + usb[3]
        out.append(svg.text(cx, top + 13, "USB", 10, anchor="middle", fill="#ffffff"))
        out.append(svg.text(cx, top + 32, "Pico", 15, anchor="middle", fill="#ffffff", weight="bold"))
        out.append(svg.text(cx, top + 46, "plugs in last", 10, anchor="middle", fill="#ffffff"))
    elif part.kind == "dip":
        out.append(svg.rect(x, y, w, h, fill="#37474f", stroke=svg.INK, width=1.5, rx=2))
        one = view.hole(part.hole("1"))
        out.append('<circle cx="%g" cy="%g" r="4" fill="#cfd8dc"/>' % (one[0] + (-9 if one[0] > cx else 9), cy))
        out.append(svg.text(cx, cy + 4, parts.SHIFTER, 11, anchor="middle", fill="#ffffff", weight="bold"))
    elif part.kind == "resistor":
        out.append(_poly(view, list(part.pins.values()), "#9e9e9e", 2, "leg"))
        out.append(svg.rect(x, y, w, h, fill="#f3d9a4", stroke=svg.INK, width=1.2, rx=4))
    elif part.kind == "electrolytic":
        out.append('<circle cx="%g" cy="%g" r="%g" fill="#1e3a6e" stroke="%s" stroke-width="1.5"/>'
                   % (cx, cy, w / 2, svg.INK))
        mx, _ = view.hole(part.hole("-"))
        out.append(svg.text(mx, cy + 4, "\u2212", 13, anchor="middle", fill="#ffffff", weight="bold"))
        px, _ = view.hole(part.hole("+"))
        out.append(svg.text(px, cy + 4, "+", 13, anchor="middle", fill="#ffffff", weight="bold"))
    elif part.kind == "ceramic":
        out.append(svg.rect(x, y, w, h, fill="#e3a857", stroke=svg.INK, width=1.2, rx=5))
    # Its pins.
    for name, hole in part.pins.items():
        out.append(_pin(view, part, name, hole, fill="#d9d9d9" if near or part.side == "top" else "#bdbdbd"))
    out.append(_part_labels(view, part, chain_index, cfg, near))
    out.append("</g>")
    return "".join(out)


def _part_labels(view, part, chain_index, cfg, near):
    out = []
    x, y, w, h = view.box(part.body)
    cx, cy = x + w / 2, y + h / 2
    if part.kind == "pixel":
        for name, hole in part.pins.items():
            px, py = view.hole(hole)
            right = px > cx
            out.append(svg.text(px + (11 if right else -11), py + 3, name, 8, anchor="start" if right else "end",
                                fill=svg.INK))
    elif part.kind == "button":
        cell = int(part.ref[1:])
        label = "cell %d: pixel %d, %s" % (cell, chain_index[cell], boards.pin_label(cfg, cfg["input"]["pins"][cell]))
        out.append(svg.text(cx, y + h + 22, label, 10, anchor="middle", weight="bold"))
        for name in ("SIG", "GND"):
            px, py = view.hole(part.hole(name))
            out.append(svg.text(px + (11 if px > cx else -11), py + 3, name, 8, anchor="start" if px > cx else "end"))
    elif part.kind == "pico":
        used = {str(_pico_pin(cfg, pin)): boards.pin_label(cfg, pin) for _, _, pin in boards.signals(cfg)}
        used.update({str(PICO_VBUS): "VBUS", str(PICO_GND): "GND"})
        for name, hole in part.pins.items():
            px, py = view.hole(hole)
            inner = (px > cx)
            label = "%s %s" % (name, used[name]) if name in used else name
            out.append(svg.text(px + (-8 if inner else 8), py + 3, label, 7 if name not in used else 8,
                                anchor="end" if inner else "start", fill="#ffffff" if near else svg.MUTED,
                                weight="bold" if name in used else "normal"))
    elif part.kind == "dip":
        for name, hole in part.pins.items():
            px, py = view.hole(hole)
            out.append(svg.text(px, py + (18 if py > cy else -12), name, 9, anchor="middle",
                                fill=svg.INK if near else svg.MUTED))
        out.append(svg.text(cx, y - 16, "U2", 11, anchor="middle", weight="bold"))
    else:
        label = {"resistor": {"R1": parts.RESISTOR, "R2": parts.PULL_DOWN}.get(part.ref, ""),
                 "electrolytic": parts.CAPACITOR, "ceramic": "100 nF"}[part.kind]
        if part.kind == "electrolytic":
            out.append(svg.text(cx, y + h + 13, "%s %s" % (part.ref, label), 10, anchor="middle", weight="bold"))
        elif w > h:
            out.append(svg.text(cx, y - 5, "%s %s" % (part.ref, label), 10, anchor="middle", weight="bold"))
        else:
            out.append(svg.text(x + w + 4 if view.side == "top" else x - 4, cy + 4, "%s %s" % (part.ref, label), 10,
                                anchor="start" if view.side == "top" else "end", weight="bold"))
    return "".join(out)


def _svg(board, side, title, stage=None):
    """One view of the board as SVG text: ``side`` "top" or "bottom";
    ``stage`` (a STEPS index) draws the underside as it is after that step:
    that step's wires in colour, the earlier ones faded."""
    cfg = board.cfg
    view = _View(side)
    chain = boards.chain(cfg)
    chain_index = {cell: p for p, cell in enumerate(chain)}
    w = int(LEFT * 2 + WIDTH * K + 30)
    h = int(TOP + HEIGHT * K + 110)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">' % (w, h, w, h),
           "<title>%s: %s</title>" % (svg.esc(cfg["name"]), svg.esc(title)),
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           svg.text(20, 30, "%s perfboard: %s" % (cfg["name"], title), 20, weight="bold")]
    if side == "top":
        sub = ("the TOP, parts side, seen from above; the back edge (the Pico's USB end) at the top;"
               " the grey bands are where the grid's walls stand")
    else:
        sub = ("the UNDERSIDE, wiring side: the board turned over left to right, so column A is on the RIGHT;"
               " the back edge still at the top")
    out.append(svg.text(20, 52, sub, 12, fill=svg.MUTED))
    out.append(svg.text(20, 70, "%d x %d holes at 2.54 mm (%s x %s mm); holes named column letter, row number;"
                        " generated by make hardware from the board config" % (
                            COLS, ROWS, layout.mm(WIDTH), layout.mm(HEIGHT)), 12, fill=svg.MUTED))
    out += _grid(view, side)
    steps = [s[2] for s in STEPS]
    shown = {g for s in steps[1:(stage or 0) + 1] for g in s} if stage is not None else set(GROUPS)
    new = set(steps[stage] or ()) if stage else set(GROUPS)
    far = [p for p in board.parts.values() if p.side != side]
    near = [p for p in board.parts.values() if p.side == side]
    for part in far:
        out.append(_draw_part(view, part, chain_index, cfg, False))
    if side == "top":
        for a, b in board.bridges:
            out.append(_poly(view, [a, b], "#8d8d8d", 0.9 * K, "bridge"))
    for part in near:
        out.append(_draw_part(view, part, chain_index, cfg, True))
    if side == "bottom":
        for hole in board.wire_hole.values():
            x, y = view.hole(hole)
            out.append('<circle class="wire-hole" cx="%g" cy="%g" r="%g" fill="none" stroke="%s" stroke-width="1.6"/>'
                       % (x, y, 1.1 * K, svg.INK))
        for group, corners in board.rails:
            if group in shown:
                fade = "" if group in new else ' stroke-opacity="0.3"'
                out.append(_poly(view, corners, COLOURS[group], 1.1 * K, "rail", fade))
                out.append(_poly(view, corners, "#e0e0e0", 0.3 * K, "rail-shine", fade))
        for group, name, _, corners in board.wires:
            if group in shown:
                fade = "" if group in new else ' stroke-opacity="0.3"'
                out.append(_poly(view, corners, "#ffffff", WIRE_W + 3, "wire-edge", fade))
                out.append(_poly(view, corners, COLOURS[group], WIRE_W, "wire", ' data-group="%s"%s' % (group, fade)))
    out.append("</g>")
    out += _legend(side, TOP + HEIGHT * K + 34)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(side, y):
    out = []
    x = 20
    items = [("#8d8d8d", "solder bridge on the top")] if side == "top" else [
        (svg.RED, "5 V"), (svg.INK, "GND"), (svg.DATA, "data"), (COLOURS["button"], "button")]
    for colour, words in items:
        out.append(svg.line(x, y, x + 28, y, stroke=colour, width=WIRE_W))
        out.append(svg.text(x + 36, y + 4, words, 12))
        x += 60 + 7 * len(words)
    if side == "bottom":
        for i, words in enumerate((
                "thick lines with a shine: bare rails, soldered to every leg they pass; thin: insulated wires,"
                " soldered at their ends; faded: wires of the earlier steps",
                "a ring: the hole a wire comes up through beside a covered pin (a socket's, a standing"
                " capacitor's), bridged to the pin on the top",
                "dashed: the parts on the top, seen through the board; labels under the buttons: cell, its pixel in"
                " the chain, its GPIO")):
            out.append(svg.text(20, y + 24 + 18 * i, words, 12, fill=svg.MUTED))
    else:
        for i, words in enumerate((
                "dashed outlines: the parts underneath, their pins soldered here; grey bands: where the walls"
                " stand, keep them clear",
                "M3: the four screw holes (drill to 3.2 mm); nothing soldered inside the dashed circles",
                "labels under the buttons: the cell, its pixel's place in the data chain, the button's GPIO")):
            out.append(svg.text(20, y + 24 + 18 * i, words, 12, fill=svg.MUTED))
    return out


def _says(board, term, end=None):
    """A wire's end in words, with its hole."""
    ref, pin = term
    if ref == "rail":
        for part in board.parts.values():  # a leg already on the rail, or the rail itself
            for name, hole in part.pins.items():
                if hole == end and part.kind in ("pixel", "button", "resistor"):
                    return "%s %s, %s" % (_name(part), name, hole_name(end))
        return "the %s rail at %s" % ("5 V" if pin == "5v" else "GND", hole_name(end))
    hole = hole_name(board.terminal(ref, pin))
    part = board.parts[ref]
    if ref == "PICO":
        n = pin.rstrip("i")
        name = {str(PICO_VBUS): "VBUS", str(PICO_GND): "GND"}.get(n)
        if name is None:
            gp = [p for _, _, p in boards.signals(board.cfg) if str(_pico_pin(board.cfg, p)) == n][0]
            name = boards.pin_label(board.cfg, gp)
        return "beside Pico pin %s (%s), %s" % (n, name, hole)
    if part.kind in COVERED:
        return "beside %s pin %s, %s" % (ref, pin, hole)
    return "%s %s, %s" % (_name(part), pin, hole)


def _name(part):
    if part.kind in ("pixel", "button"):
        return "cell %s %s" % (part.ref[1:], part.kind)
    return part.ref


def _page(board, source):
    cfg = board.cfg
    chain = boards.chain(cfg)
    lines = [
        "# %s on perfboard" % cfg["name"], "",
        "<!-- Generated by `make hardware` (%s) from %s: edit that file, not this one. -->" % (HERE, source), "",
        "The layout of the hand-wired build: where each part goes on a 2.54 mm perfboard under the grid, and every"
        " wire, from the same config the firmware reads (`%s`) and the grid's dimensions"
        " ([layout.md](../layout.md)). The steps are in"
        " [the build guide](../README.md#route-2-hand-wired-on-perfboard); this page is the drawing and the list"
        " of holes to count." % source, "",
        "## The board", "",
        "- **%d x %d holes** (%s x %s mm): cut it from a bigger double-sided, plated-through board. Columns are"
        " lettered A to %s from the left and rows numbered 1 to %d from the back edge, **as seen from the top**;"
        " the underside pictures are turned over left to right, so there column A is on the right. Mark A1 on"
        " both sides before you start." % (COLS, ROWS, layout.mm(WIDTH), layout.mm(HEIGHT), column_name(COLS - 1),
                                          ROWS),
        "- **The grid's centre** is between columns %s and %s, on row %d. The pixels sit at the cells' centres,"
        " the buttons in front of them, snapped to the nearest hole (below). Nothing is soldered on the top"
        " where the walls stand (the grey bands) or inside the dashed circles round the four M3 screw holes,"
        " except the Pico's socket pins. Drill the screw holes to 3.2 mm centred on the circles, not on a"
        " hole: %s (the drill takes both holes). The holes next to a circle are more than 1 mm off it,"
        " and a screw there misses the grid's pillar." % (
            column_name(COLS // 2 - 1), column_name(COLS // 2), ROWS // 2 + 1, _screw_holes()),
        "- **Top and underside.** The pixels and buttons stand on the top, soldered underneath. The Pico (in its"
        " two sockets), the %s (in its socket), the resistors and the capacitors hang underneath and are"
        " soldered on the top. The wires run underneath: insulated wire soldered at its ends, and four bare"
        " rails (5 V, GND) soldered to every leg they pass." % parts.SHIFTER,
        "- **Wire holes.** A socket's pins and a standing capacitor's legs are covered underneath, so a wire to"
        " one comes up through the free hole beside it (a ring in the underside pictures) and is soldered to the"
        " pin on the top with a solder bridge.",
        "- **Pixels.** Single-pixel WS2812B breakout boards, each on four wire legs (cut resistor leads) about"
        " 3 mm above the board: 5V and DIN on the left, DOUT and GND on the right (`5V`, `DIN`, `DOUT`, `GND` in"
        " the pictures). Follow the labels on your breakout, not its shape. Data runs through them in chain"
        " order: cells %s." % " ".join(str(c) for c in chain),
        "- **Buttons.** Each 6 x 6 mm button's legs spread to 3 x 2 holes (7.62 x 5.08 mm), as on a breadboard."
        " Its wires go to two diagonal legs (`SIG` front left, `GND` back right): those two are never joined"
        " inside the button, whichever way round it goes in.", "",
        "![the top of the perfboard](perfboard-top.svg)", "",
        "![the underside of the perfboard, every wire](perfboard-underside.svg)", "",
        "## Snapped to the holes", "",
        "The kit's positions (`host_tools/hardware/layout.py`) are not all on the 2.54 mm grid; on the"
        " perfboard each part's legs are on holes, its centre off by at most:", "",
        "| part | kit position (mm) | on the perfboard (mm) | off by (mm) |", "|---|---|---|---|",
    ]
    worst = {}
    for what, want, got in board.snaps:
        kind = what.split(",")[0].split(" ")[0]
        off = math.hypot(got[0] - want[0], got[1] - want[1])
        if off > worst.get(kind, (-1,))[0]:
            worst[kind] = (off, what, want, got)
    for kind in ("pixel", "button", "the"):
        off, what, want, got = worst[kind]
        lines.append("| %s | %.2f, %.2f | %.2f, %.2f | %.2f |" % (what, want[0], want[1], got[0], got[1], off))
    under = [hole_name(h) for h in sorted(board.parts["PICO"].pins.values()) if under_wall(*hole_xy(h))]
    lines += ["", "The grid's walls stand across the Pico's socket pins at %s: trim those joints flat, or notch the"
              " walls' bottom edge there." % ", ".join(under), ""]
    joints = {h for part in board.parts.values() if part.side == "bottom" for h in part.pins.values()}
    joints |= set(board.wire_hole.values()) | {h for b in board.bridges for h in b}
    edge = [hole_name(h) for h in sorted(joints) if under_tile(*hole_xy(h))]
    if edge:
        lines += ["A key tile's edge comes down to %s mm above the board (the tiles' stop) over the joints at %s:"
                  " the printed tiles (`hardware/case/tile.stl`, made for the shipped pins) have a slot over each,"
                  " so cut those leads flush and keep the solder low; with other pins, check each tile's edge"
                  " clears them." % (layout.mm(layout.STOP_GAP), ", ".join(edge)), ""]
    lines += ["## Parts and their holes", "", "| part | what | side | legs |", "|---|---|---|---|"]
    for ref in sorted(board.parts, key=_part_order):
        part = board.parts[ref]
        if part.kind == "pico":
            legs = "pin 1 at %s, pin 20 at %s, pin 21 at %s, pin 40 at %s" % tuple(
                hole_name(part.hole(n)) for n in ("1", "20", "21", "40"))
        elif part.kind == "button":
            legs = "SIG %s, GND %s (and %s, %s)" % (hole_name(part.hole("SIG")), hole_name(part.hole("GND")),
                                                    hole_name(part.hole("-")), hole_name(part.hole("--")))
        elif part.kind == "dip":
            legs = "pin 1 at %s, pin 7 at %s, pin 8 at %s, pin 14 at %s" % tuple(
                hole_name(part.hole(n)) for n in ("1", "7", "8", "14"))
        else:
            legs = ", ".join("%s %s" % (n, hole_name(h)) for n, h in part.pins.items())
        side = "top" if part.side == "top" else "underneath"
        lines.append("| %s | %s | %s | %s |" % (_name(part), part.what, side, legs))
    lines += ["", "## Solder bridges on the top", "",
              "Each joins two neighbouring holes with solder (or a bent-over leg): %s." % "; ".join(
                  "%s-%s" % (hole_name(a), hole_name(b)) for a, b in board.bridges), ""]
    lines += ["## Rails and wires underneath", "",
              "Bare tinned wire for the rails, along the holes named (its corners), soldered to every leg it"
              " passes; insulated wire for the rest, cut to length and soldered at its two ends, bent at the"
              " corners named. Wires cross each other and the rails only at right angles.", "",
              "| step | wire | from | to | along |", "|---|---|---|---|---|"]
    for group, corners in board.rails:
        lines.append("| 2 | %s rail | %s | %s | %s |" % ("5 V" if group == "5v" else "GND", hole_name(corners[0]),
                                                          hole_name(corners[-1]),
                                                          " ".join(hole_name(h) for h in corners)))
    step = {"5v": 2, "gnd": 2, "data": 3, "button": 4}
    for group, name, (a, b), corners in sorted(board.wires, key=_wire_order):
        lines.append("| %d | %s | %s | %s | %s |" % (step[group], name, _says(board, a, corners[0]),
                                                     _says(board, b, corners[-1]),
                                                     " ".join(hole_name(h) for h in corners)))
    lines += ["", "## The steps", ""]
    for name, title, _ in STEPS:
        lines += ["![%s](%s)" % (title, name), ""]
    return "\n".join(lines)


def _wire_order(wire):
    """The page's order: by step; the data from the Pico along the chain;
    the buttons by cell."""
    group, name = wire[0], wire[1]
    words = name.split()
    n = int(words[-1]) if words[-1].isdigit() else -1
    return (GROUPS.index(group) if group != "gnd" else 0, {"data in": -3, "data out": -2}.get(name, n))


def _part_order(ref):
    return ("PSU RC".index(ref[0]) if ref[0] in "PSURC" else 9, ref)


def top_joints(cfg):
    """``[(x, y, radius)]`` in mm: the solder joints on the top of a Pico
    with buttons' perfboard (the pins of the parts underneath, the wire holes
    and the bridges), for the printed case to clear; ``[]`` when this layout
    can't take the config."""
    try:
        board = Board(cfg)
    except HardwareError:
        return []
    joints = {h for part in board.parts.values() if part.side == "bottom" for h in part.pins.values()}
    joints |= set(board.wire_hole.values()) | {h for b in board.bridges for h in b}
    return [hole_xy(h) + (PAD,) for h in sorted(joints)]


def perfboard_files(cfg, source="board.json"):
    """``[(name, text)]``: the perfboard page and its pictures, for a Pico
    with nine buttons; ``[]`` for other boards."""
    if cfg["board"] != "pico" or cfg["input"]["kind"] != "buttons" or parts.assembled(cfg):
        return []  # (a board whose PCB comes assembled has nothing to wire)
    try:
        board = Board(cfg)
    except HardwareError as e:  # a config whose wires this layout can't fit: say so, don't stop the rest
        return [("perfboard.md", "# %s on perfboard\n\n<!-- Generated by `make hardware` (%s) from %s. -->\n\n"
                 "The perfboard layout has no room for this config's wires (%s). Wire it from the wiring diagram"
                 " ([wiring.svg](wiring.svg)), or move the pins nearer the cells they serve.\n"
                 % (cfg["name"], HERE, source, e))]
    files = [("perfboard.md", _page(board, source)),
             ("perfboard-top.svg", _svg(board, "top", "the top")),
             ("perfboard-underside.svg", _svg(board, "bottom", "the underside, every wire"))]
    for i, (name, title, _) in enumerate(STEPS):
        files.append((name, _svg(board, "bottom", title, stage=i)))
    return files
