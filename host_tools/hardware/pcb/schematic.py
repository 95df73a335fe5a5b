"""The schematic of a Pico build's PCB (``hardware/pcb/BOARD/BOARD.kicad_sch``),
drawn from the same parts and nets as the board (``pcb.design``).

KiCad 6's schematic editor has no Python API, so this writes the file
itself, in KiCad 6's s-expression format (version 20211123, what 6.0 writes),
beside the board's ``.kicad_pro`` so that the two are one project. The
symbols are KiCad's own (``vendor/kicad-symbols``), embedded in the file's
``lib_symbols`` as KiCad does; the Pico's is drawn here from its datasheet's
pinout. Every pin that is on a net has a short wire to a global label named
for the net (GND and VBUS: KiCad's power symbols), so the file's nets are
the board's by name. Each symbol's reference, value and footprint are the
board's, and each footprint holds its symbol's path (``symbol_path``: for
the level shifter, its first unit's), the link by which KiCad pairs them.
``schematic_svg.py`` draws the sheet as a picture (KiCad 6 plots schematics
only from its GUI).
Coordinates are KiCad's: mm on the page, y down; in a symbol, y up.
"""

import os
import re
import uuid

from host_tools import flash
from host_tools.hardware import boards

SYMBOLS = os.path.join(flash.ROOT, "vendor", "kicad-symbols")
VERSION = 20211123
PAPER = ("A3", 420.0, 297.0)
NAMESPACE = uuid.UUID("6d1c5a4e-2f0b-5c3e-9a57-7461637469ce")  # this project's; ids are uuid5s of names
PICO_LIB_ID = "tactictoe:RaspberryPi_Pico"
PICO_FOOTPRINT = "tactictoe:RaspberryPi_Pico_Socketed"  # the id kicad.py gives the Pico's footprint
# The symbol (lib_id) each footprint of pcb.design is drawn as.
SYMBOL_OF = {
    "MountingHole_3.2mm_M3": "Mechanical:MountingHole",
    "RaspberryPi_Pico_Socketed": PICO_LIB_ID,
    "SW_MX_Hotswap_Kailh": "Switch:SW_Push",
    "LED_SK6812MINI-E_Reverse": "LED:WS2812B",  # KiCad 6 has no SK6812MINI-E: same pins (1 VDD 2 DOUT 3 VSS 4 DIN)
    "SOT-23-5": "74xGxx:74LVC1G125",  # KiCad 6's 74AHCT1G125 extends it: the same pins
    "C_0402_1005Metric": "Device:C",
    "C_0805_2012Metric": "Device:C",
    "R_0402_1005Metric": "Device:R",
}
POWER = ("GND", "VBUS")  # nets drawn with KiCad's power symbols
G = 2.54  # KiCad's schematic grid (50 mil)
STUB = G  # the wire from a pin to its label
FONT = 1.27


def uid(*names):
    """A fixed uuid for a thing of the sheet, from its names."""
    return str(uuid.uuid5(NAMESPACE, "/".join(str(n) for n in names)))


def symbol_path(board, ref, unit=1):
    """The symbol's path on the sheet (its uuid), which the board's
    footprint of the same part holds: KiCad's link between the two."""
    return "/" + uid(board, "symbol", ref, unit)


# --- s-expressions ---------------------------------------------------------

_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


def parse(text):
    """KiCad's s-expression text as nested lists of strings."""
    stack = [[]]
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError("not an s-expression at %d" % pos)
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            if len(stack) < 2:
                raise ValueError("unbalanced ) at %d" % pos)
            done = stack.pop()
            stack[-1].append(done)
        elif m.group(3) is not None:
            stack[-1].append(re.sub(r"\\(.)", r"\1", m.group(3)))
        else:
            stack[-1].append(m.group(4))
    if len(stack) != 1:
        raise ValueError("unbalanced: %d ( left open" % (len(stack) - 1))
    return stack[0]


def find(node, key):
    """The children of ``node`` that are lists headed by ``key``."""
    return [c for c in node if isinstance(c, list) and c and c[0] == key]


def first(node, key):
    found = find(node, key)
    return found[0] if found else None


def q(text):
    """A quoted s-expression string."""
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def num(x):
    """A number as KiCad writes it: up to 4 decimals, no trailing zeros."""
    s = ("%.4f" % x).rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# --- the library's symbols -------------------------------------------------


class LibSymbol:
    """A symbol of a library: its text as ``lib_symbols`` embeds it, and
    what is needed to place it and draw it (parsed from that text)."""

    def __init__(self, lib_id, text):
        self.lib_id = lib_id
        self.text = text
        tree = parse(text)[0]
        self.tree = tree
        self.power = bool(find(tree, "power"))
        self.props = {p[1]: p for p in find(tree, "property")}
        self.units = sorted({int(s[1].rsplit("_", 2)[1]) for s in find(tree, "symbol")} - {0}) or [1]
        self.pins = []
        for sub in find(tree, "symbol"):
            unit, style = (int(n) for n in sub[1].rsplit("_", 2)[1:])
            if style not in (0, 1):
                continue
            for pin in find(sub, "pin"):
                at = first(pin, "at")
                self.pins.append({"unit": unit, "number": first(pin, "number")[1], "name": first(pin, "name")[1],
                                  "type": pin[1], "x": float(at[1]), "y": float(at[2]), "angle": float(at[3]),
                                  "length": float(first(pin, "length")[1]), "hide": "hide" in pin})

    def unit_pins(self, unit):
        return [p for p in self.pins if p["unit"] in (0, unit)]


def _library_blocks(path):
    """``{name: text}`` of each symbol in a KiCad 6 library file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines(True)
    out, name, block = {}, None, []
    for line in lines[1:]:
        m = re.match(r'  \(symbol "([^"]+)"', line)
        if m:
            name, block = m.group(1), []
        if name:
            block.append(line)
            if line == "  )\n":
                out[name] = "".join(block)
                name = None
    return out


def library():
    """``{lib_id: LibSymbol}``: the vendored symbols and the Pico's."""
    out = {}
    for fname in sorted(os.listdir(SYMBOLS)):
        if fname.endswith(".kicad_sym"):
            lib = fname[:-len(".kicad_sym")]
            for name, text in _library_blocks(os.path.join(SYMBOLS, fname)).items():
                lib_id = "%s:%s" % (lib, name)
                text = text.replace('(symbol "%s"' % name, '(symbol %s' % q(lib_id), 1)
                out[lib_id] = LibSymbol(lib_id, "".join("  " + line for line in text.splitlines(True)))
    out[PICO_LIB_ID] = LibSymbol(PICO_LIB_ID, pico_symbol())
    return out


# The Pico's pins (its datasheet's pinout) other than the GPIOs.
PICO_OTHER = {3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 30: "RUN", 33: "AGND",
              35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS"}
PICO_TYPES = {"GND": "power_in", "AGND": "power_in", "VBUS": "power_out", "VSYS": "power_in",
              "3V3(OUT)": "power_out", "3V3_EN": "input", "RUN": "input", "ADC_VREF": "power_in"}
PICO_HALF_WIDTH = 10.16  # the body; its pins are G long outside it


def pico_pins():
    """``{pin: name}`` of the Pico's 40 pins."""
    names = dict(PICO_OTHER)
    for gp, pin in boards.PICO_HEADER.items():
        names[pin] = "GP%d" % gp + ("_A%d" % (gp - 26) if gp >= 26 else "")
    return names


def pico_pin_xy(pin):
    """A Pico pin's end in its symbol: as on the board seen from the Pico's
    top, USB up: 1-20 down the left, 21-40 up the right."""
    x = PICO_HALF_WIDTH + G
    if pin <= 20:
        return (-x, 25.4 - (pin - 1) * G, 0)
    return (x, 25.4 - (40 - pin) * G, 180)


def pico_symbol():
    """The Pico's symbol, as ``lib_symbols`` holds it."""
    font = "(effects (font (size 1.27 1.27)))"
    lines = ['    (symbol %s (pin_names (offset 1.016)) (in_bom yes) (on_board yes)' % q(PICO_LIB_ID),
             '      (property "Reference" "U" (id 0) (at 0 30.48 0)', '        %s' % font, '      )',
             '      (property "Value" "Raspberry Pi Pico" (id 1) (at 0 -27.94 0)', '        %s' % font, '      )',
             '      (property "Footprint" %s (id 2) (at 0 -30.48 0)' % q(PICO_FOOTPRINT),
             '        (effects (font (size 1.27 1.27)) hide)', '      )',
             '      (property "Datasheet" "https://datasheets.raspberrypi.com/pico/pico-datasheet.pdf" (id 3)'
             ' (at 0 -33.02 0)', '        (effects (font (size 1.27 1.27)) hide)', '      )',
             '      (property "ki_description" "Raspberry Pi Pico (RP2040), 40 pins, from its datasheet" (id 4)'
             ' (at 0 0 0)', '        (effects (font (size 1.27 1.27)) hide)', '      )',
             '      (symbol "RaspberryPi_Pico_0_1"',
             '        (rectangle (start %s 27.94) (end %s -25.4)' % (num(-PICO_HALF_WIDTH), num(PICO_HALF_WIDTH)),
             '          (stroke (width 0.254) (type default) (color 0 0 0 0))',
             '          (fill (type background))', '        )',
             '        (text "USB" (at 0 25.4 0)', '          %s' % font, '        )', '      )',
             '      (symbol "RaspberryPi_Pico_1_1"']
    for pin, name in sorted(pico_pins().items()):
        x, y, angle = pico_pin_xy(pin)
        kind = PICO_TYPES.get(name, "bidirectional")
        lines += ['        (pin %s line (at %s %s %s) (length %s)' % (kind, num(x), num(y), num(angle), num(G)),
                  '          (name %s %s)' % (q(name), font), '          (number %s %s)' % (q(pin), font),
                  '        )']
    lines += ['      )', '    )']
    return "\n".join(lines) + "\n"


# --- placing ---------------------------------------------------------------


def transform(x, y, rot, mirror=None):
    """A point of a symbol (y up) on the page relative to the symbol's
    place (y down), as KiCad 6 does it: turned ``rot`` degrees anticlockwise
    on the page, then mirrored there (``x``: up and down, ``y``: left and
    right)."""
    x, y = x, -y
    for _ in range(int(rot) // 90 % 4):
        x, y = y, -x
    if mirror == "x":
        y = -y
    elif mirror == "y":
        x = -x
    return x, y


DIRS = {0: (1, 0), 90: (0, -1), 180: (-1, 0), 270: (0, 1)}  # a direction on the page: its angle


def page_angle(angle, rot):
    """A symbol's angle (degrees anticlockwise) on the page."""
    return (angle + rot) % 360


class Sheet:
    """What goes on the page: symbols, wires, labels, flags and text."""

    def __init__(self, lib, name):
        self.lib = lib
        self.name = name
        self.symbols = []  # dicts: lib_id, ref, value, footprint, x, y, rot, unit, bom, fields
        self.wires = []
        self.labels = []  # (net, x, y, angle)
        self.noconnects = []
        self.junctions = []
        self.texts = []  # (text, x, y, size, justify)
        self.power_count = 0

    def place(self, lib_id, ref, value, x, y, rot=0, unit=1, footprint="", bom=True, fields=None):
        sym = dict(lib_id=lib_id, ref=ref, value=value, footprint=footprint, x=x, y=y, rot=rot, unit=unit,
                   bom=bom, fields=fields or {})
        self.symbols.append(sym)
        return sym

    def pin_end(self, sym, number):
        """Where a placed symbol's pin ends (its connection point) and the
        direction, on the page, pointing away from the symbol."""
        lib = self.lib[sym["lib_id"]]
        pin = next(p for p in lib.unit_pins(sym["unit"]) if p["number"] == number)
        dx, dy = transform(pin["x"], pin["y"], sym["rot"])
        # a pin's angle points from its end into the body: outwards is opposite
        out = DIRS[page_angle(pin["angle"] + 180, sym["rot"])]
        return (sym["x"] + dx, sym["y"] + dy), out

    def power(self, net, x, y, rot=0):
        self.power_count += 1
        sym = self.place("power:" + net, "#PWR%02d" % self.power_count, net, x, y, rot=rot, bom=False)
        if rot % 180:  # its name beyond its tip, read upright
            dx, dy = transform(0, 1 if net == "VBUS" else -1, rot)
            reach = G + 1.0 + len(net) * 0.5
            sym["fields"] = {"Value": (dx * reach, dy * reach)}

    def flag(self, x, y, rot=0):
        self.power_count += 1
        self.place("power:PWR_FLAG", "#FLG%02d" % self.power_count, "PWR_FLAG", x, y, rot=rot, bom=False)

    def wire(self, a, b):
        if a != b:
            self.wires.append((a, b))

    def label(self, net, x, y, angle):
        self.labels.append((net, x, y, angle))

    def text(self, words, x, y, size=FONT, justify="left"):
        self.texts.append((words, x, y, size, justify))

    def attach(self, sym, number, net, stub=STUB):
        """Pin ``number`` of ``sym`` to ``net``: a wire out of the pin to a
        global label (or a power symbol) pointing away; no net, a no-connect
        flag."""
        (x, y), (dx, dy) = self.pin_end(sym, number)
        if not net:
            self.noconnects.append((x, y))
            return
        end = (x + dx * stub, y + dy * stub)
        self.wire((x, y), end)
        out = {(1, 0): 0, (0, -1): 90, (-1, 0): 180, (0, 1): 270}[(dx, dy)]
        if net in POWER:
            # GND's symbol points down at rot 0, VBUS's up: turned to point away
            natural = 270 if net == "GND" else 90
            self.power(net, end[0], end[1], rot=(out - natural) % 360)
        else:
            self.label(net, end[0], end[1], out)


def _fmt(v):
    return num(v)


def grid(n):
    return round(n * G, 4)


def data_order(design, lib):
    """The pixels' references in the order the data runs through them,
    followed along their nets: from the one whose DIN no pixel drives, each
    DOUT to the DIN on its net."""
    pin = {p["name"]: p["number"] for p in lib["LED:WS2812B"].pins}
    pixels = {p["ref"]: p["nets"] for p in design["parts"] if SYMBOL_OF[p["footprint"]] == "LED:WS2812B"}
    driven = {nets.get(pin["DOUT"]) for nets in pixels.values()}
    order = [ref for ref, nets in sorted(pixels.items()) if nets[pin["DIN"]] not in driven]
    while order and pixels[order[-1]].get(pin["DOUT"]):
        out = pixels[order[-1]][pin["DOUT"]]
        order += [ref for ref, nets in sorted(pixels.items()) if nets[pin["DIN"]] == out]
    if sorted(order) != sorted(pixels):
        raise boards.HardwareError("the schematic: the pixels are not one chain (%s)" % " ".join(order))
    return order, pin


def build(design, cfg, source):
    """The sheet of a board's design (``pcb.design``)."""
    lib = library()
    sheet = Sheet(lib, design["name"])
    parts = {p["ref"]: p for p in design["parts"]}

    unknown = sorted({p["footprint"] for p in design["parts"]} - set(SYMBOL_OF))
    if unknown:
        raise boards.HardwareError("the schematic has no symbol for the footprint %s" % ", ".join(unknown))

    def put(ref, x, y, rot=0, unit=1):
        part = parts[ref]
        footprint = PICO_FOOTPRINT if part["footprint"] == "RaspberryPi_Pico_Socketed" else part["footprint"]
        if part.get("library"):
            footprint = "%s:%s" % (part["library"], footprint)
        return sheet.place(SYMBOL_OF[part["footprint"]], ref, part["value"], x, y, rot=rot, unit=unit,
                           footprint=footprint, bom=part["bom"])

    def wire_all(sym, skip=()):
        part = parts[sym["ref"]]
        for pin in lib[sym["lib_id"]].unit_pins(sym["unit"]):
            if pin["number"] not in skip:
                sheet.attach(sym, pin["number"], part["nets"].get(pin["number"]))

    _build_mx(sheet, design, cfg, source, put, wire_all)
    left = sorted(set(parts) - {s["ref"] for s in sheet.symbols}, key=_natural)
    if left:
        raise boards.HardwareError("the schematic has no place for %s: draw it in schematic.build" % ", ".join(left))
    return sheet


def _pixels(sheet, design, put, first_text):
    """The pixels in a row in data order, DOUT to the next one's DIN; their
    symbols, the row's y."""
    parts = {p["ref"]: p for p in design["parts"]}
    order, pin = data_order(design, sheet.lib)
    x0, y0, step = grid(24), grid(26), grid(14)
    sheet.text("Pixels in data order (%s): %s, each DOUT to the next's DIN" % (" ".join(order), first_text),
               grid(8), grid(17))
    prev, placed = None, []
    for n, ref in enumerate(order):
        d = put(ref, x0 + n * step, y0)
        placed.append(d)
        nets = parts[ref]["nets"]
        for name in ("VDD", "VSS"):
            (x, y), _ = sheet.pin_end(d, pin[name])
            sheet.power(nets[pin[name]], x, y)
        if prev is None:
            sheet.attach(d, pin["DIN"], nets[pin["DIN"]])
        else:
            (ax, ay), _ = sheet.pin_end(prev, pin["DOUT"])
            (bx, by), _ = sheet.pin_end(d, pin["DIN"])
            mid = (round((ax + bx) / 2 / G) * G, ay)
            sheet.wire((ax, ay), mid)
            sheet.wire(mid, (bx, by))
            sheet.label(nets[pin["DIN"]], mid[0], mid[1], 90)
        if pin["DOUT"] not in nets:
            sheet.attach(d, pin["DOUT"], None)
        prev = d
    return placed, y0


def _build_mx(sheet, design, cfg, source, put, wire_all):
    """The MX kit's sheet (mxboard.py): every part's pins to labels."""
    pico = put("U1", grid(80), grid(64))
    wire_all(pico)
    sheet.text("U1: the Raspberry Pi Pico, upside down in its sockets", grid(68), grid(50))
    for cell in range(9):
        r, c = divmod(cell, 3)
        wire_all(put("SW%d" % (cell + 1), grid(16 + 18 * c), grid(54 + 7 * r)))
    sheet.text("Switches in their hot-swap sockets, one per cell as on the board (SW1 top left, SW9 bottom"
               " right): each between its GPIO and GND", grid(8), grid(48))
    pixels, y0 = _pixels(sheet, design, put, "DATA_R from R1 into the first one's DIN")
    for d in pixels:  # each pixel's 100 nF under it
        cap = "C%s" % d["ref"][1:]
        wire_all(put(cap, d["x"], y0 + grid(10)))
    sheet.text("100 nF at each pixel", grid(8), grid(34))
    wire_all(put("C11", grid(12), y0))
    sheet.text("Level shifter: 3.3 V data from the Pico to 5 V for the pixels", grid(96), grid(42))
    u2 = put("U2", grid(112), grid(52))
    wire_all(u2, skip=("1", "3", "5"))
    (x, y), _ = sheet.pin_end(u2, "1")  # ~OE: up, then left, clear of VCC's symbol
    sheet.wire((x, y), (x, y - G))
    sheet.wire((x, y - G), (x - 2 * G, y - G))
    sheet.power(design_part(design, "U2")["nets"]["1"], x - 2 * G, y - G)
    # its power pins are hidden inside the triangle, "outward" towards each
    # other: wired straight down (GND) and up (VCC) instead
    for number, dy in (("3", 1), ("5", -1)):
        (x, y), _ = sheet.pin_end(u2, number)
        end = (x, y + dy * 3 * G)
        sheet.wire((x, y), end)
        net = design_part(design, "U2")["nets"][number]
        sheet.power(net, end[0], end[1], rot=0 if (net == "GND") == (dy > 0) else 180)
    wire_all(put("R2", grid(100), grid(60)))
    wire_all(put("R1", grid(124), grid(60)))
    wire_all(put("C10", grid(136), grid(52)))
    sheet.text("Power: 5 V from the Pico's USB (VBUS); GND", grid(8), grid(88))
    sheet.flag(grid(12), grid(93))
    sheet.wire((grid(12), grid(93)), (grid(12), grid(95)))
    sheet.power("GND", grid(12), grid(95))
    for n in range(4):
        put("H%d" % (n + 1), grid(34 + 6 * n), grid(94))
    sheet.text("M3 holes for the case's screws", grid(32), grid(88))
    sheet.text("%s: generated by make pcb from %s" % (design["name"], source), grid(8), grid(6), size=2.54)


def design_part(design, ref):
    return next(p for p in design["parts"] if p["ref"] == ref)


# --- writing ---------------------------------------------------------------

FONT_EFFECTS = "(effects (font (size 1.27 1.27))%s)"


def _field(name, value, fid, x, y, angle, effects, indent="    "):
    return ['%s(property %s %s (id %d) (at %s %s %s)' % (indent, q(name), q(value), fid, _fmt(x), _fmt(y),
                                                           _fmt(angle)),
            '%s  %s' % (indent, effects), '%s)' % indent]


def _effects(prop):
    """A library property's effects as text, with or without ``hide``."""
    eff = first(prop, "effects")
    return _sexp(eff) if eff else FONT_EFFECTS % ""


def _sexp(node):
    if isinstance(node, list):
        return "(" + " ".join(_sexp(n) for n in node) + ")"
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*|-?[0-9.]+", node):
        return node
    return q(node)


def fields(sheet, sym):
    """The symbol's four fields, placed as its library places them (turned
    with it, read upright)."""
    lib = sheet.lib[sym["lib_id"]]
    values = {"Reference": sym["ref"], "Value": sym["value"], "Footprint": sym["footprint"],
              "Datasheet": lib.props.get("Datasheet", [None, None, "~"])[2] or "~"}
    out = []
    for fid, name in enumerate(("Reference", "Value", "Footprint", "Datasheet")):
        prop = lib.props.get(name)
        at = first(prop, "at") if prop else None
        lx, ly, langle = (float(at[1]), float(at[2]), float(at[3])) if at else (0.0, 0.0, 0.0)
        dx, dy = transform(lx, ly, sym["rot"])
        effects = _effects(prop) if prop else FONT_EFFECTS % " hide"
        hidden = "hide" in effects or name in ("Footprint", "Datasheet")
        if sym["rot"] % 180:
            # Turned a quarter: KiCad turns a field's text with the symbol,
            # so an upright one is stored at 90; centred on its place.
            langle = 90
            effects = FONT_EFFECTS % (" hide" if hidden else "")
        elif hidden and "hide" not in effects:
            effects = effects[:-1] + " hide)"
        if name in sym["fields"]:
            dx, dy = sym["fields"][name]
        out.append((name, values[name], fid, sym["x"] + dx, sym["y"] + dy, langle, effects))
    return out


def _text(sheet, design, source):
    """The schematic file's text."""
    name = design["name"]
    out = ["(kicad_sch (version %d) (generator eeschema)" % VERSION, "",
           "  (uuid %s)" % uid(name, "sheet"), "", '  (paper "%s")' % PAPER[0], "",
           "  (title_block", "    (title %s)" % q(name), '    (company "tactic-toe")',
           "    (comment 1 %s)" % q("generated by make pcb from " + source),
           "    (comment 2 %s)" % q("the same parts and nets as %s.kicad_pcb (host_tools/hardware/pcb/)" % name),
           "  )", "", "  (lib_symbols"]
    for lib_id in sorted({s["lib_id"] for s in sheet.symbols}):
        out.append(sheet.lib[lib_id].text.rstrip("\n"))
    out += ["  )", ""]
    for x, y in sorted(sheet.junctions):
        out.append("  (junction (at %s %s) (diameter 0) (color 0 0 0 0))" % (_fmt(x), _fmt(y)))
    if sheet.junctions:
        out.append("")
    for x, y in sorted(sheet.noconnects):
        out.append("  (no_connect (at %s %s) (uuid %s))" % (_fmt(x), _fmt(y), uid(name, "nc", _fmt(x), _fmt(y))))
    out.append("")
    for a, b in sheet.wires:
        out += ["  (wire (pts (xy %s %s) (xy %s %s))" % (_fmt(a[0]), _fmt(a[1]), _fmt(b[0]), _fmt(b[1])),
                "    (stroke (width 0) (type default) (color 0 0 0 0))",
                "    (uuid %s)" % uid(name, "wire", a, b), "  )"]
    out.append("")
    for words, x, y, size, justify in sheet.texts:
        just = "" if justify == "center" else " (justify %s)" % justify
        out += ["  (text %s (at %s %s 0)" % (q(words), _fmt(x), _fmt(y)),
                "    (effects (font (size %s %s))%s)" % (_fmt(size), _fmt(size), just),
                "    (uuid %s)" % uid(name, "text", words), "  )"]
    out.append("")
    for net, x, y, angle in sheet.labels:
        just = "left" if angle in (0, 90) else "right"
        out += ["  (global_label %s (shape passive) (at %s %s %d) (fields_autoplaced)" % (q(net), _fmt(x), _fmt(y),
                                                                                       angle),
                "    (effects (font (size 1.27 1.27)) (justify %s))" % just,
                "    (uuid %s)" % uid(name, "label", net, _fmt(x), _fmt(y)),
                '    (property "Intersheet References" "${INTERSHEET_REFS}" (id 0) (at %s %s %d)'
                % (_fmt(x), _fmt(y), angle % 180),
                "      (effects (font (size 1.27 1.27)) (justify %s) hide)" % just, "    )", "  )"]
    out.append("")
    for sym in sheet.symbols:
        key = (sym["ref"], sym["unit"])
        out += ["  (symbol (lib_id %s) (at %s %s %d) (unit %d)" % (q(sym["lib_id"]), _fmt(sym["x"]), _fmt(sym["y"]),
                                                                 sym["rot"], sym["unit"]),
                "    (in_bom %s) (on_board yes)" % ("yes" if sym["bom"] else "no"),
                "    (uuid %s)" % symbol_path(name, *key)[1:]]
        for f in fields(sheet, sym):
            out += _field(*f)
        for pin in sheet.lib[sym["lib_id"]].unit_pins(sym["unit"]):
            out.append("    (pin %s (uuid %s))" % (q(pin["number"]), uid(name, "pin", *key, pin["number"])))
        out += ["  )", ""]
    out += ["  (sheet_instances", '    (path "/" (page "1"))', "  )", "", "  (symbol_instances"]
    for sym in sorted(sheet.symbols, key=lambda s: (_natural(s["ref"]), s["unit"])):
        out += ['    (path "%s"' % symbol_path(name, sym["ref"], sym["unit"]),
                "      (reference %s) (unit %d) (value %s) (footprint %s)" % (q(sym["ref"]), sym["unit"],
                                                                             q(sym["value"]), q(sym["footprint"])),
                "    )"]
    out += ["  )", ")", ""]
    return "\n".join(out)


def _natural(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def kicad_sch(design, cfg, source):
    """The text of a board's schematic (``BOARD.kicad_sch``), from its design
    (``pcb.design``) and config; ``source`` is the config's path, for the
    title block."""
    return _text(build(design, cfg, source), design, source)
