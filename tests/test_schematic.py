"""hardware/pcb/BOARD/BOARD.kicad_sch: the schematic beside each PCB (make pcb)
is a KiCad 6 file, fresh, and draws the board's circuit.

Its netlist is rebuilt here from the file's geometry alone: each pin's end
from its symbol's library pins (in the file's lib_symbols) placed, turned
and mirrored as the symbol says, joined by wire end points, junctions,
global labels and power symbols. It is checked against the netlist read
from the committed .kicad_pcb (each pad's net, by reference and pad
number), not against the generator's tables. Neither file needs KiCad here.
"""

import hashlib
import os
import re
import xml.etree.ElementTree as ET

from conftest import ROOT

import pytest

from host_tools import flash
from host_tools.hardware import pcb
from host_tools.hardware.pcb import schematic, schematic_svg
from host_tools.hardware.boards import HardwareError

SYMBOLS = os.path.join(ROOT, "vendor", "kicad-symbols")


def folder(name):
    return os.path.join(ROOT, "hardware", "pcb", name)


def read(name, ext):
    with open(os.path.join(folder(name), name + ext), encoding="utf-8") as f:
        return f.read()


# A reader of KiCad's s-expressions of its own (not the generator's).
_TOKENS = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+')


def sexp(text):
    """The one top-level expression of ``text`` as nested lists; strings
    unquoted. Unbalanced parentheses or anything after it fail."""
    stack = [[]]
    for tok in _TOKENS.findall(text):
        if tok == "(":
            stack.append([])
        elif tok == ")":
            assert len(stack) > 1, "a ) closes nothing"
            item = stack.pop()
            stack[-1].append(item)
        elif tok.startswith('"'):
            stack[-1].append(re.sub(r"\\(.)", r"\1", tok[1:-1]))
        else:
            stack[-1].append(tok)
    assert len(stack) == 1, "%d ( left open" % (len(stack) - 1)
    assert len(stack[0]) == 1, "more than one expression at the top"
    return stack[0][0]


def kids(node, key):
    return [c for c in node if isinstance(c, list) and c and c[0] == key]


def kid(node, key):
    found = kids(node, key)
    assert len(found) <= 1, (key, found)
    return found[0] if found else None


def prop(sym, name):
    return next(p[2] for p in kids(sym, "property") if p[1] == name)


def pin_on_page(sx, sy, rot, mirror, x, y):
    """A library point (y up) on the page (y down), for a symbol at
    (sx, sy) turned ``rot`` degrees anticlockwise and mirrored, as KiCad 6
    reads it (sch_sexpr_parser.cpp): the turn's matrix, (1, 0, 0, -1) at 0,
    (0, -1, -1, 0) at 90, (-1, 0, 0, 1) at 180, (0, 1, 1, 0) at 270; then a
    mirror flips the page's y (x) or x (y) about the symbol's place."""
    x1, y1, x2, y2 = {0: (1, 0, 0, -1), 90: (0, -1, -1, 0), 180: (-1, 0, 0, 1), 270: (0, 1, 1, 0)}[rot % 360]
    px, py = x1 * x + y1 * y, x2 * x + y2 * y
    if mirror == "x":
        py = -py
    elif mirror == "y":
        px = -px
    return (sx + px, sy + py)


def key(x, y):
    return (round(x * 1000), round(y * 1000))


class Nets:
    """The netlist of a .kicad_sch, from its geometry."""

    def __init__(self, text):
        self.tree = tree = sexp(text)
        libs = {s[1]: s for s in kids(kid(tree, "lib_symbols"), "symbol")}
        self.parent = {}
        self.names = {}  # point -> net names seen there
        self.pins = {}  # (ref, number) -> point, for the parts (not power symbols)
        self.symbols = []
        points = []
        for sym in kids(tree, "symbol"):
            lib = libs[kid(sym, "lib_id")[1]]
            at = kid(sym, "at")
            sx, sy, rot = float(at[1]), float(at[2]), int(at[3])
            mirror = kid(sym, "mirror")[1] if kid(sym, "mirror") else None
            unit = int(kid(sym, "unit")[1])
            ref, value = prop(sym, "Reference"), prop(sym, "Value")
            self.symbols.append(sym)
            for sub in kids(lib, "symbol"):
                u, style = (int(n) for n in sub[1].rsplit("_", 2)[1:])
                if u not in (0, unit) or style not in (0, 1):
                    continue
                for pin in kids(sub, "pin"):
                    pat = kid(pin, "at")
                    p = key(*pin_on_page(sx, sy, rot, mirror, float(pat[1]), float(pat[2])))
                    self.add(p)
                    points.append(p)
                    if kids(lib, "power"):
                        self.names.setdefault(p, set()).add(value)
                    else:
                        number = kid(pin, "number")[1]
                        assert (ref, number) not in self.pins, "%s pin %s twice" % (ref, number)
                        self.pins[(ref, number)] = p
        self.wires = []
        for w in kids(tree, "wire"):
            (_, ax, ay), (_, bx, by) = kids(kid(w, "pts"), "xy")
            a, b = key(float(ax), float(ay)), key(float(bx), float(by))
            self.wires.append((a, b))
            self.union(a, b)
        for label in kids(tree, "global_label") + kids(tree, "label"):
            at = kid(label, "at")
            p = key(float(at[1]), float(at[2]))
            self.add(p)
            points.append(p)
            self.names.setdefault(p, set()).add(label[1])
        self.junctions = [key(float(kid(j, "at")[1]), float(kid(j, "at")[2])) for j in kids(tree, "junction")]
        self.noconnects = {key(float(kid(n, "at")[1]), float(kid(n, "at")[2])) for n in kids(tree, "no_connect")}
        self.points = points

    def add(self, p):
        self.parent.setdefault(p, p)

    def find(self, p):
        self.add(p)
        while self.parent[p] != p:
            self.parent[p] = self.parent[self.parent[p]]
            p = self.parent[p]
        return p

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)

    def net_names(self):
        """{group: set of names}."""
        out = {}
        for p, names in self.names.items():
            out.setdefault(self.find(p), set()).update(names)
        return out

    def netlist(self):
        """{(ref, pin number): net name, "" for none}."""
        names = self.net_names()
        out = {}
        for (ref, number), p in self.pins.items():
            found = names.get(self.find(p), set())
            assert len(found) <= 1, "%s pin %s: nets %s joined" % (ref, number, sorted(found))
            out[(ref, number)] = next(iter(found)) if found else ""
        return out


def pcb_parts(name):
    """From the committed .kicad_pcb: {ref: (footprint id, value)} and
    {(ref, pad number): net name}."""
    tree = sexp(read(name, ".kicad_pcb"))
    parts, pads = {}, {}
    for fp in kids(tree, "footprint"):
        texts = {t[1]: t[2] for t in kids(fp, "fp_text")}
        ref = texts["reference"]
        parts[ref] = (fp[1], texts["value"])
        for pad in kids(fp, "pad"):
            if pad[1] == "":  # a screw hole's unplated, unnumbered pad
                continue
            net = kid(pad, "net")
            number = pad[1]
            got = net[2] if net else ""
            assert pads.setdefault((ref, number), got) == got, "%s pad %s on two nets" % (ref, number)
    return parts, pads


@pytest.fixture(scope="module", params=pcb.BOARDS)
def name(request):
    return request.param


@pytest.fixture(scope="module")
def text(name):
    return read(name, ".kicad_sch")


@pytest.fixture(scope="module")
def nets(text):
    return Nets(text)


def test_the_file_is_a_kicad_6_schematic(text):
    assert text.startswith("(kicad_sch (version 20211123) (generator eeschema)\n")
    tree = sexp(text)  # balanced, one expression
    assert tree[0] == "kicad_sch" and kid(tree, "version") == ["version", "20211123"]
    assert kid(tree, "paper")[1] in ("A4", "A3")
    assert kid(tree, "sheet_instances") == ["sheet_instances", ["path", "/", ["page", "1"]]]
    # every uuid is one, and none is used twice
    ids = re.findall(r"\(uuid ([^)]*)\)", text)
    assert ids and len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", i) for i in ids)


def test_the_title_block_names_the_board_and_its_config(name, nets):
    tb = kid(nets.tree, "title_block")
    assert kid(tb, "title")[1] == name
    comments = {c[1]: c[2] for c in kids(tb, "comment")}
    assert comments["1"] == "generated by make pcb from firmware/boards/%s.json" % name


def test_it_sits_beside_the_board_as_one_kicad_project(name):
    files = os.listdir(folder(name))
    assert {name + ".kicad_pro", name + ".kicad_pcb", name + ".kicad_sch"} <= set(files)


def test_its_netlist_is_the_boards(name, nets):
    _, pads = pcb_parts(name)
    got = nets.netlist()
    assert set(got) == set(pads), "pins and pads differ: %s" % sorted(set(got) ^ set(pads))
    wrong = {k: (got[k], pads[k]) for k in pads if got[k] != pads[k]}
    assert not wrong, "(schematic, board): %s" % wrong
    # and it is a real circuit: every GPIO net reaches a part beside the Pico
    for net in {n for n in pads.values() if n.startswith("GP")}:
        assert len({ref for (ref, _), n in got.items() if n == net}) >= 2, net


def test_every_pin_off_a_net_has_a_no_connect_flag_and_no_flag_is_on_a_net(nets):
    got = nets.netlist()
    loose = {nets.pins[k] for k, n in got.items() if not n}
    assert loose == nets.noconnects


def test_wires_meet_only_end_to_end(nets):
    # The netlist above joins wires at their ends only; KiCad also joins a
    # pin or label lying on a wire's middle: there must be none, or the two
    # would read the sheet differently.
    ends = set(nets.points) | {p for w in nets.wires for p in w}
    for (ax, ay), (bx, by) in nets.wires:
        assert ax == bx or ay == by, "a slanted wire"
        for px, py in ends:
            inside = (ax == bx == px and min(ay, by) < py < max(ay, by)) or \
                     (ay == by == py and min(ax, bx) < px < max(ax, bx))
            assert not inside, "something touches a wire's middle at %s" % ((px / 1000, py / 1000),)
    # three or more things meeting at a wire's end get a junction dot
    count = {}
    for w in nets.wires:
        for p in w:
            count[p] = count.get(p, 0) + 1
    for p, n in count.items():
        if n >= 3:
            assert p in nets.junctions


def test_each_symbol_is_the_boards_part_with_its_reference_value_and_footprint(name, nets):
    parts, _ = pcb_parts(name)
    seen = {}
    for sym in nets.symbols:
        ref = prop(sym, "Reference")
        if ref.startswith("#"):  # power symbols and flags: no part
            continue
        assert ref in parts, ref
        footprint, value = parts[ref]
        assert prop(sym, "Footprint") == footprint, ref
        assert prop(sym, "Value") == value, ref
        seen.setdefault(ref, set()).add(int(kid(sym, "unit")[1]))
    assert set(seen) == set(parts)
    # the SN74AHCT1G125: one unit, its power pins with it
    assert seen["U2"] == {1}
    # the instance table (what KiCad 6 annotates from) says the same
    for path in kids(kid(nets.tree, "symbol_instances"), "path"):
        ref = kid(path, "reference")[1]
        sym = next(s for s in nets.symbols if "/" + kid(s, "uuid")[1] == path[1])
        assert prop(sym, "Reference") == ref
        assert kid(path, "footprint")[1] == prop(sym, "Footprint")
        assert int(kid(path, "unit")[1]) == int(kid(sym, "unit")[1])


def test_each_footprint_is_linked_to_its_symbol(name, nets):
    # KiCad pairs a footprint with its symbol by the footprint's path: "/"
    # and the symbol's uuid (for the level shifter's five units, its first's).
    uuids = {}
    for sym in nets.symbols:
        uuids.setdefault(prop(sym, "Reference"), {})[int(kid(sym, "unit")[1])] = kid(sym, "uuid")[1]
    tree = sexp(read(name, ".kicad_pcb"))
    for fp in kids(tree, "footprint"):
        ref = {t[1]: t[2] for t in kids(fp, "fp_text")}["reference"]
        assert kid(fp, "path")[1] == "/" + uuids[ref][min(uuids[ref])], ref


def test_the_not_fitted_parts_are_out_of_the_bom(name, nets):
    for sym in nets.symbols:
        ref = prop(sym, "Reference")
        # (the BOM is the fab's: the Pico, in the maker's sockets, is not in it)
        if ref.startswith("H") or ref == "U1":
            assert kid(sym, "in_bom")[1] == "no", ref
        elif not ref.startswith("#"):
            assert kid(sym, "in_bom")[1] == "yes", ref


def test_the_library_symbols_are_kicads_own_from_vendor(nets, text):
    # Each embedded symbol but the Pico's is the vendored library's text,
    # line for line (KiCad embeds it with its library's name and indented).
    vendored = {}
    for fname in os.listdir(SYMBOLS):
        if fname.endswith(".kicad_sym"):
            with open(os.path.join(SYMBOLS, fname), encoding="utf-8") as f:
                lib = sexp(f.read())
            for sym in kids(lib, "symbol"):
                vendored["%s:%s" % (fname[:-len(".kicad_sym")], sym[1])] = sym[2:]
    for sym in kids(kid(nets.tree, "lib_symbols"), "symbol"):
        if sym[1] == schematic.PICO_LIB_ID:
            continue
        assert sym[2:] == vendored[sym[1]], sym[1]


def test_the_pico_symbol_has_the_datasheets_pins(nets):
    lib = next(s for s in kids(kid(nets.tree, "lib_symbols"), "symbol") if s[1] == schematic.PICO_LIB_ID)
    pins = {kid(p, "number")[1]: kid(p, "name")[1] for sub in kids(lib, "symbol") for p in kids(sub, "pin")}
    assert sorted(pins, key=int) == [str(n) for n in range(1, 41)]
    # the Pico datasheet's pinout, pin by pin
    expect = ("GP0 GP1 GND GP2 GP3 GP4 GP5 GND GP6 GP7 GP8 GP9 GND GP10 GP11 GP12 GP13 GND GP14 GP15 GP16 GP17 GND"
              " GP18 GP19 GP20 GP21 GND GP22 RUN GP26_A0 GP27_A1 AGND GP28_A2 ADC_VREF 3V3(OUT) 3V3_EN GND VSYS"
              " VBUS").split()
    assert [pins[str(n)] for n in range(1, 41)] == expect


def made(name):
    """The schematic and its picture as make pcb makes them."""
    path, cfg, _ = flash.board_config(name)
    text = schematic.kicad_sch(pcb.design(cfg), cfg, "firmware/boards/%s.json" % name)
    return {name + ".kicad_sch": text, name + "-schematic.svg": schematic_svg.draw(text)}


def test_regenerating_gives_the_same_bytes(name):
    first = made(name)
    for fname, data in first.items():
        with open(os.path.join(folder(name), fname), "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == hashlib.sha256(data.encode()).hexdigest(), \
                "stale (run make pcb): %s" % fname
    assert made(name) == first


def test_the_check_finds_a_wrong_label(name, text):
    # The same file with one switch's GPIO label renamed: the netlist
    # comparison must see it.
    _, pads = pcb_parts(name)
    m = re.search(r'\(global_label "(GP\d+)"', text)
    bad = text[:m.start(1)] + "GP99" + text[m.end(1):]
    got = Nets(bad).netlist()
    assert any(got[k] != pads[k] for k in pads)


def test_the_picture_shows_the_sheet(name, nets):
    svg = read(name, "-schematic.svg")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    words = {t.text for t in root.iter() if t.tag.endswith("text")}
    for sym in nets.symbols:
        ref = prop(sym, "Reference")
        if not ref.startswith("#") and ref != "U2":
            assert ref in words, ref
    assert "U2" in words
    for label in kids(nets.tree, "global_label"):
        assert label[1] in words
    # one drawn line per wire
    assert svg.count('stroke="#008400" stroke-width="0.25"') == len(nets.wires)


def test_a_part_the_sheet_has_no_place_for_is_an_error_not_a_missing_symbol():
    cfg = flash.board_config("pico-mx")[1]
    design = pcb.design(cfg)
    extra = dict(next(p for p in design["parts"] if p["ref"] == "R2"), ref="R9")
    design["parts"].append(extra)
    with pytest.raises(HardwareError, match="no place for R9"):
        schematic.kicad_sch(design, cfg, "firmware/boards/pico-mx.json")
    design["parts"][-1] = dict(extra, footprint="SOT-23")
    with pytest.raises(HardwareError, match="no symbol for the footprint SOT-23"):
        schematic.kicad_sch(design, cfg, "firmware/boards/pico-mx.json")
