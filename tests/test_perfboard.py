"""hardware/<board>/perfboard*: the hand-wired build's perfboard is the
config. The netlist is rebuilt from the drawings alone, by geometry (a wire's
end on a pin's hole, a rail through every hole it passes, a solder bridge
between its two holes), and compared with what the config says; every part
is on a hole, no two parts overlap, and nothing is soldered on the top
where the grid's walls stand or round its screws."""

import functools
import json
import math
import os
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

from tactictoe import config
from conftest import FIRMWARE, ROOT
from host_tools.hardware import boards, layout, perfboard

HARDWARE = os.path.join(ROOT, "hardware")
SVG = "{http://www.w3.org/2000/svg}"
PITCH = 2.54
PAD = 0.9  # a joint's radius
SHIPPED = [n for n in ("pico-buttons", "circuitpython-pico")]
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)  # joined on the Pico itself
PICO_VBUS = 40


def shipped(name):
    with open(os.path.join(FIRMWARE, "boards", name + ".json")) as f:
        return config.validate(json.load(f))


def files_of(cfg):
    """The perfboard's files for ``cfg``: routed once per config in a run
    (routing takes seconds; several tests read the shipped board's)."""
    return dict(_files(json.dumps(cfg, sort_keys=True)))


@functools.lru_cache(maxsize=None)
def _files(cfg_json):
    return tuple(perfboard.perfboard_files(json.loads(cfg_json)))


# --- reading a drawing back -----------------------------------------------------------


class Drawing:
    """One view, read back: pins, wires, rails and bridges as holes
    (column, row from the back), through the board group's transform."""

    def __init__(self, text):
        root = ET.fromstring(text)
        group = root.find(".//%sg[@class='board']" % SVG)
        self.side = group.get("data-side")
        self.left, self.top = float(group.get("data-left")), float(group.get("data-top"))
        self.scale, self.mirror = float(group.get("data-scale")), group.get("data-mirror") == "1"
        self.pins = {}  # (ref, pin) -> hole
        for c in root.iter(SVG + "circle"):
            if c.get("class") == "pin":
                self.pins[(c.get("data-ref"), c.get("data-pin"))] = self.hole(float(c.get("cx")), float(c.get("cy")))
        self.lines = {}
        for cls in ("wire", "rail", "bridge"):
            self.lines[cls] = [[self.hole(*map(float, p.split(","))) for p in e.get("points").split()]
                               for e in root.iter(SVG + "polyline") if e.get("class") == cls]
        self.screws = [self.mm(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(SVG + "circle")
                       if c.get("class") == "screw"]

    def mm(self, px, py):
        x = (px - self.left) / self.scale - perfboard.WIDTH / 2
        return (-x if self.mirror else x, perfboard.HEIGHT / 2 - (py - self.top) / self.scale)

    def hole(self, px, py):
        """The hole at a point of the picture; fails when it isn't on one."""
        x, y = self.mm(px, py)
        c = x / PITCH + (perfboard.COLS - 1) / 2
        r = (perfboard.ROWS - 1) / 2 - y / PITCH
        assert abs(c - round(c)) < 1e-3 and abs(r - round(r)) < 1e-3, "(%g, %g) mm is not on a hole" % (x, y)
        c, r = int(round(c)), int(round(r))
        assert 0 <= c < perfboard.COLS and 0 <= r < perfboard.ROWS, "(%g, %g) mm is off the board" % (x, y)
        return c, r


def holes_along(corners):
    """Every hole a line through these corners passes (rows and columns only)."""
    out = [corners[0]]
    for a, b in zip(corners, corners[1:]):
        assert a[0] == b[0] or a[1] == b[1], "a wire from %s to %s runs askew" % (a, b)
        dc, dr = (b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])
        h = a
        while h != b:
            h = (h[0] + dc, h[1] + dr)
            out.append(h)
    return out


def xy(hole):
    c, r = hole
    return ((c - (perfboard.COLS - 1) / 2) * PITCH, ((perfboard.ROWS - 1) / 2 - r) * PITCH)


def netlist(top, bottom):
    """The nets the drawings make: ``{frozenset of (ref, pin)}`` (the
    Pico's GND pins joined, as they are on the Pico)."""
    parent = {}

    def find(h):
        parent.setdefault(h, h)
        while parent[h] != h:
            parent[h] = parent[parent[h]]
            h = parent[h]
        return h

    def join(a, b):
        parent[find(a)] = find(b)
    for corners in bottom.lines["wire"]:
        join(corners[0], corners[-1])
    for corners in bottom.lines["rail"]:
        along = holes_along(corners)
        for h in along[1:]:
            join(along[0], h)
    for a, b in top.lines["bridge"]:
        assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1, "bridge %s-%s: holes not neighbours" % (a, b)
        join(a, b)
    gnd = [bottom.pins[("PICO", str(n))] for n in PICO_GND]
    for h in gnd[1:]:
        join(gnd[0], h)
    nets = {}
    for pin, hole in bottom.pins.items():
        nets.setdefault(find(hole), set()).add(pin)
    return {frozenset(n) for n in nets.values()}


def expected(cfg):
    """The nets the config asks for, named as the drawing names its pins:
    pixel ``P<cell>``, button ``S<cell>``, the Pico's pins by number, the
    74AHCT125 ``U2``, the 330R ``R1``, the 10k pull-down ``R2``, the
    470 uF ``C1``, the 100 nF ``C2``."""
    header = boards.PICO_HEADER
    chain = [cfg["leds"]["order"].index(p) for p in range(9)]
    data = header[boards.gpio(cfg["leds"]["pin"])]
    nets = [
        {("PICO", str(PICO_VBUS)), ("U2", "14"), ("C1", "+")} | {("P%d" % c, "5V") for c in range(9)},
        {("PICO", str(n)) for n in PICO_GND} | {("U2", k) for k in ("1", "4", "5", "7", "9", "10", "12", "13")}
        | {("C1", "-")} | {("P%d" % c, "GND") for c in range(9)} | {("S%d" % c, "GND") for c in range(9)},
        {("PICO", str(data)), ("U2", "2")},
        {("U2", "3")},
        {("P%d" % chain[0], "DIN")},
    ]
    nets[3].add(("R1", "?"))  # the 330R's two legs: which is which is the drawing's business
    nets[4].add(("R1", "?"))
    nets[2].add(("R2", "?"))
    nets[1].add(("R2", "?"))
    nets[0].add(("C2", "?"))
    nets[1].add(("C2", "?"))
    for p in range(8):
        nets.append({("P%d" % chain[p], "DOUT"), ("P%d" % chain[p + 1], "DIN")})
    nets.append({("P%d" % chain[8], "DOUT")})
    for cell, pin in enumerate(cfg["input"]["pins"]):
        nets.append({("S%d" % cell, "SIG"), ("PICO", str(header[boards.gpio(pin)]))})
    return nets


def two_legged(nets, ref):
    """Rename a two-legged part's legs to "?" (the expected nets don't say
    which leg goes where), checking its legs are on two different nets."""
    out, seen = [], 0
    for net in nets:
        legs = {p for p in net if p[0] == ref}
        seen += len(legs)
        assert len(legs) <= 1, "%s's legs are shorted together" % ref
        out.append(frozenset({p for p in net if p[0] != ref} | ({(ref, "?")} if legs else set())))
    assert seen == 2
    return set(out)


def check_netlist(cfg, files):
    top = Drawing(files["perfboard-top.svg"])
    bottom = Drawing(files["perfboard-underside.svg"])
    assert (top.side, bottom.side, top.mirror, bottom.mirror) == ("top", "bottom", False, True)
    assert top.pins == bottom.pins, "the two views put a pin in different holes"
    nets = set(netlist(top, bottom))
    for ref in ("R1", "R2", "C2"):
        nets = two_legged(nets, ref)
    want = [frozenset(n) for n in expected(cfg)]
    named = {p for n in want for p in n}
    # Every pin the config doesn't name is on a net of its own (the unused
    # Pico pins and gates, the buttons' other two legs).
    for net in nets:
        assert net in want or not (net & named), "the drawing joins %s" % sorted(net)
    for net in want:
        assert net in nets, "the drawing doesn't make the net %s" % sorted(net)
    return top, bottom


# --- the committed drawings are the configs' ------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_the_perfboard_wires_what_the_config_says(name):
    cfg = shipped(name)
    files = {}
    for f in os.listdir(os.path.join(HARDWARE, name)):
        if f.startswith("perfboard"):
            with open(os.path.join(HARDWARE, name, f)) as fh:
                files[f] = fh.read()
    assert sorted(files) == sorted(["perfboard.md", "perfboard-top.svg", "perfboard-underside.svg"]
                                   + [s[0] for s in perfboard.STEPS])
    check_netlist(cfg, files)


def test_a_board_with_a_matrix_or_touch_pads_gets_no_perfboard():
    assert perfboard.perfboard_files(shipped_raw("pico-matrix")) == []
    assert perfboard.perfboard_files(shipped_raw("esp32-touch")) == []
    assert perfboard.perfboard_files(shipped_raw("pico-mx")) == []  # its PCB comes assembled: nothing to wire


def shipped_raw(name):
    with open(os.path.join(FIRMWARE, "boards", name + ".json")) as f:
        return config.validate(json.load(f))


# --- geometry: holes, overlaps, walls, screws, the kit's positions ----------------------


def under_wall(x, y):
    grid = 1.5 * layout.PITCH + layout.WALL / 2
    for i in range(4):
        at = (i - 1.5) * layout.PITCH
        if abs(x - at) < layout.WALL / 2 + PAD and abs(y) < grid + PAD:
            return True
        if abs(y - at) < layout.WALL / 2 + PAD and abs(x) < grid + PAD:
            return True
    return False


def near_screw(x, y, clear=perfboard.SCREW_CLEAR):
    return any(math.hypot(x - sx, y - sy) < clear for sx, sy in layout.screws())


def check_geometry(cfg, top, bottom):
    # The screws where the kit has them.
    for view in (top, bottom):
        assert sorted((round(x, 2), round(y, 2)) for x, y in view.screws) == \
            sorted((round(x, 2), round(y, 2)) for x, y in layout.screws())
    # One pin a hole.
    holes = list(top.pins.values())
    assert len(holes) == len(set(holes)), "two pins in one hole"
    # Nothing soldered on the top under a wall or by a screw, but the Pico's
    # sockets, whose place the kit fixes: every pin of the other parts, every
    # hole a bridge joins, every hole a wire ends at.
    joints = {h for (ref, _), h in top.pins.items() if ref != "PICO"}
    joints |= {h for b in top.lines["bridge"] for h in b} - {h for (ref, _), h in top.pins.items() if ref == "PICO"}
    rails = {h for r in bottom.lines["rail"] for h in holes_along(r)}  # a wire ending on a rail is soldered underneath
    joints |= ({w[0] for w in bottom.lines["wire"]} | {w[-1] for w in bottom.lines["wire"]}) - rails
    for h in joints:
        assert not under_wall(*xy(h)), "a joint at %s is under a wall" % perfboard.hole_name(h)
        assert not near_screw(*xy(h)), "a joint at %s is by a screw" % perfboard.hole_name(h)
    # Wires and rails: clear of the screws, over no pin but their ends', no
    # two along the same stretch (they cross, at right angles).
    pins = set(top.pins.values())
    runs = set()
    for cls in ("wire", "rail"):
        for corners in bottom.lines[cls]:
            along = holes_along(corners)
            for h in along:
                assert not near_screw(*xy(h), clear=layout.SCREW_HOLE / 2 + PAD), "a %s by a screw" % cls
            if cls == "wire":
                assert not (set(along[1:-1]) & pins), "a wire runs over a pin"
            for a, b in zip(along, along[1:]):
                run = frozenset((a, b))
                assert run not in runs, "two wires along %s-%s" % tuple(perfboard.hole_name(h) for h in (a, b))
                runs.add(run)
    # The pixels and buttons at the kit's positions, snapped to the holes.
    for cell in range(9):
        for ref, pins, at in (("P%d", ("5V", "DIN", "DOUT", "GND"), layout.pixel_at),
                              ("S%d", ("SIG", "GND", "-", "--"), layout.button_at)):
            pts = [xy(top.pins[(ref % cell, p)]) for p in pins]
            cx, cy = sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4
            want = at(cell)
            assert abs(cx - want[0]) <= PITCH / 2 and abs(cy - want[1]) <= PITCH / 2, (ref % cell, cx, cy, want)
        # The two button legs the wires use are diagonal: never joined inside.
        sig, gnd = top.pins[("S%d" % cell, "SIG")], top.pins[("S%d" % cell, "GND")]
        assert sig[0] != gnd[0] and sig[1] != gnd[1]
    # The Pico as the kit hangs it: its rows 17.78 apart round the middle
    # column, its pins along y round PICO_CENTRE, USB (pin 1, pin 40) at the
    # back; upside down, so pin 1 is on the right seen from the top.
    one, twenty, forty = (xy(top.pins[("PICO", n)]) for n in ("1", "20", "40"))
    assert round(one[0] - forty[0], 2) == layout.PICO_ROW_SPACING and one[0] > 0
    assert one[1] > twenty[1] and abs((one[1] + twenty[1]) / 2 - layout.PICO_CENTRE[1]) <= PITCH / 2
    assert one[1] == forty[1]


@pytest.mark.parametrize("name", SHIPPED)
def test_the_perfboard_is_on_holes_and_clear_of_walls_and_screws(name):
    cfg = shipped(name)
    files = files_of(cfg)
    top, bottom = check_netlist(cfg, files)
    check_geometry(cfg, top, bottom)


def test_no_two_parts_overlap():
    board = perfboard.Board(shipped("pico-buttons"))
    parts = list(board.parts.values())
    for i, a in enumerate(parts):
        for b in parts[i + 1:]:
            if a.side == b.side:
                assert not perfboard._overlap(a.body, b.body), (a.ref, b.ref)
        x0, y0, x1, y1 = a.body
        if a.ref == "PICO":  # its USB end flush with the back edge, as in the kit
            assert abs(y1 - perfboard.HEIGHT / 2) < 0.5
            y1 = perfboard.HEIGHT / 2
        assert -perfboard.WIDTH / 2 <= x0 and x1 <= perfboard.WIDTH / 2, a.ref
        assert -perfboard.HEIGHT / 2 <= y0 and y1 <= perfboard.HEIGHT / 2, a.ref


# --- any config the layout takes is wired as it says -------------------------------------


HEADER = sorted(boards.PICO_HEADER)


@st.composite
def pico_button_configs(draw, pins=None):
    if pins is None:
        pins = draw(st.lists(st.sampled_from(HEADER), min_size=10, max_size=10, unique=True))
    else:
        pins = [pins[0]] + draw(st.permutations(pins[1:]))
    order = draw(st.one_of(st.sampled_from(["row-major", "serpentine"]), st.permutations(list(range(9)))))
    return config.validate({"name": "random", "board": "pico", "leds": {"pin": pins[0], "order": order},
                            "input": {"kind": "buttons", "pins": pins[1:]}})


def routed_or_said_so(cfg):
    files = files_of(cfg)
    if list(files) == ["perfboard.md"]:  # no room: one paragraph that says so, and the wiring diagram instead
        assert "no room for this config's wires" in files["perfboard.md"] and "wiring.svg" in files["perfboard.md"]
        return False
    top, bottom = check_netlist(cfg, files)
    check_geometry(cfg, top, bottom)
    return True


@settings(max_examples=8, deadline=None)
@given(pico_button_configs(pins=[16, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
def test_the_shipped_pins_in_any_order_and_chain(cfg):
    routed_or_said_so(cfg)


@settings(max_examples=5, deadline=None)
@given(pico_button_configs())
def test_any_pins(cfg):
    routed_or_said_so(cfg)


@pytest.mark.parametrize("order", ["row-major", "serpentine", [0, 5, 6, 1, 4, 7, 2, 3, 8]])
def test_the_shipped_pins_route_in_the_usual_chains(order):
    with open(os.path.join(FIRMWARE, "boards", "pico-buttons.json")) as f:
        cfg = config.validate(dict(json.load(f), leds={"pin": 16, "order": order}))
    assert routed_or_said_so(cfg)


def test_the_page_lists_every_wire_with_its_holes():
    cfg = shipped("pico-buttons")
    files = files_of(cfg)
    page = files["perfboard.md"]
    bottom = Drawing(files["perfboard-underside.svg"])
    rows = [line for line in page.splitlines() if re.match(r"\| [234] \|", line)]
    assert len(rows) == len(bottom.lines["wire"]) + len(bottom.lines["rail"])
    listed = sorted(tuple(line.split("|")[5].split()) for line in rows)
    drawn = sorted(tuple(perfboard.hole_name(h) for h in c) for c in bottom.lines["wire"] + bottom.lines["rail"])
    assert listed == drawn
    for name in [s[0] for s in perfboard.STEPS] + ["perfboard-top.svg", "perfboard-underside.svg", "../layout.md"]:
        assert "(%s)" % name in page or "(%s#" % name in page, name


def test_the_guide_shows_every_step_picture_of_both_routes():
    with open(os.path.join(HARDWARE, "README.md")) as f:
        guide = f.read()
    route2 = guide.split("### Route 2: hand-wired on perfboard", 1)[1].split("\n### ", 1)[0]
    for name in ["perfboard-top.svg"] + [s[0] for s in perfboard.STEPS]:
        assert "](pico-buttons/%s)" % name in route2, name
    route1 = guide.split("### Route 1: the PCB", 1)[1].split("\n### ", 1)[0]
    for name in ("pcb/pico-buttons/pico-buttons-top.svg", "pcb/pico-buttons/pico-buttons-bottom.svg",
                 "pcb/pico-buttons/pico-buttons-gerbers.zip", "case/exploded.png", "case/section.png",
                 "case/tile.stl"):
        assert "](%s)" % name in route1, name
    assert "TODO" not in guide
