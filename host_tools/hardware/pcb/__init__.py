"""The PCB of a Pico build (``hardware/pcb/BOARD/``), from its board config
and the kit's shared dimensions (``layout.py``).

``design(cfg)`` says what goes where and which pad joins which: the nine
pixels and switches at ``layout.pixel_at`` and ``layout.button_at`` on top,
the Pico upside down in its sockets under the middle column, the level
shifter, resistors, capacitors and the optional buzzer beside it underneath,
the four screw holes at ``layout.screws()``. ``kicad.py`` then builds the
board in KiCad 6 (pcbnew, under the system Python, in a subprocess: that is
where Debian's ``kicad`` puts it), routes it (``route.py``), fills the
ground zones, runs KiCad's design rule check and plots the gerbers and drill
files; this module zips them and writes the BOM, the placement file and the
pictures, and ``schematic.py`` the schematic of the same parts and nets.
Coordinates here are the kit's: mm from the grid's centre, x to the
right, y to the back.

The MX kit's board (``pico-mx``) is ``mxboard.py``'s design, with two
footprints ``footprints.py`` draws (written to ``hardware/pcb/tactictoe.pretty/``),
and its switch plate.
"""

import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

from host_tools import flash
from host_tools.hardware import boards, layout, parts
from host_tools.hardware.pcb import footprints, schematic, schematic_svg
from host_tools.hardware.boards import HardwareError

HERE = os.path.dirname(os.path.abspath(__file__))
FOOTPRINTS = os.path.join(flash.ROOT, "vendor", "kicad-footprints")
KICAD_PYTHON = "/usr/bin/python3"  # Debian's kicad installs pcbnew for the system Python only
MISSING = "KiCad 6 is missing: apt-get install kicad"
B3F_BOARDS = ("pico-buttons", "pico-matrix")  # the B3F kit's: layout.py's square board
MX_BOARDS = ("pico-mx",)  # the MX kit's: mx.py's board (mxboard.py)
BOARDS = B3F_BOARDS + MX_BOARDS
LIBRARY_FOLDER = "tactictoe.pretty"  # the footprints drawn here (footprints.py), beside the boards

# PCB-only dimensions (mm); the shared ones are layout.py's.
GRID = 0.635  # the router's grid: a quarter of the Pico's 2.54 pin pitch
TRACK = 0.25
POWER_TRACK = 0.4  # 5 V and GND: nine pixels at full white draw about 0.54 A
CLEARANCE = 0.2
VIA, VIA_DRILL = 0.6, 0.3
EDGE_CLEARANCE = 0.5
SCREW_KEEPOUT = 3.3  # no copper within this of a screw's centre: its head is 5.5 mm across
ZONE_CLEARANCE = 0.3
PICO_PITCH = 2.54
# The Pico's pins: GND and power (its datasheet's pinout).
PICO_GND = (3, 8, 13, 18, 23, 28, 33, 38)
PICO_VBUS = 40
# The buzzer where a config has none: the pin pico-matrix.json gives it.
DEFAULT_BUZZER = 15

# The 74AHCT125 (DIP-14): pin 1 is 1OE, 2 1A, 3 1Y, 7 GND, 14 VCC; the three
# unused buffers' enables and inputs go to GND as well.
SHIFTER_GND = (1, 4, 5, 7, 9, 10, 12, 13)
# WS2812B pads (KiCad's footprint, the datasheet's numbers).
PIXEL_VDD, PIXEL_DOUT, PIXEL_GND, PIXEL_DIN = "1", "2", "3", "4"


def pico_pin_at(pin):
    """Where the Pico's physical pin ``pin`` (1-40) is, ``(x, y)`` in mm:
    the Pico hangs upside down under the board, USB end at the back edge, so
    pins 1-20 (its left row seen from its top) run down the right-hand row
    from the back, and 21-40 up the left-hand one."""
    cx, cy = layout.PICO_CENTRE
    first = cy + 19 * PICO_PITCH / 2
    if pin <= 20:
        return (cx + layout.PICO_ROW_SPACING / 2, first - (pin - 1) * PICO_PITCH)
    return (cx - layout.PICO_ROW_SPACING / 2, first - (40 - pin) * PICO_PITCH)


def chain(cfg):
    """The cells in the order the data runs through their pixels."""
    from tactictoe import config

    order = config.pixel_order(cfg["leds"]["order"])
    # pixel_order gives the pixel index of each cell; the chain is the
    # cells sorted by it.
    return sorted(range(9), key=lambda cell: order[cell])


def leftwards(order, n):
    """Whether the data runs right to left through the n-th pixel of the
    chain (its row's neighbour in the chain is on that side): the pixel is
    then turned so that its DIN faces the one before it."""
    cell = order[n]
    if n + 1 < len(order) and order[n + 1] // 3 == cell // 3:
        return order[n + 1] < cell
    if n > 0 and order[n - 1] // 3 == cell // 3:
        return order[n - 1] > cell
    return False


def buzzer_pin(cfg):
    """The buzzer's GPIO, and whether the board fits one by default."""
    return (cfg["buzzer"], True) if cfg["buzzer"] is not None else (DEFAULT_BUZZER, False)


def design(cfg):
    """The parts and their nets: ``{"parts": [...], "power": [...], ...}``,
    as JSON for ``kicad.py``. The MX kit's boards are ``mxboard.design``'s."""
    if cfg["board"] != "pico" or cfg["input"]["kind"] not in ("buttons", "matrix"):
        raise HardwareError("the PCB is for a Pico with buttons (pico-buttons, pico-matrix, pico-mx), not %s"
                            % cfg["name"])
    if cfg["name"] in MX_BOARDS:
        from host_tools.hardware.pcb import mxboard

        return mxboard.design(cfg, sys.modules[__name__])
    boards.check(cfg)
    parts = []

    def part(ref, footprint, value, side, at, rot, nets, bom=True, **extra):
        parts.append(dict(ref=ref, footprint=footprint, value=value, side=side, at=list(at), rot=rot,
                          nets=nets, bom=bom, path=schematic.symbol_path(cfg["name"], ref), **extra))

    pins = {}  # Pico pin -> net
    inp = cfg["input"]
    for cell in range(9):
        if inp["kind"] == "buttons":  # between its pin and GND
            a, b = "GP%d" % inp["pins"][cell], "GND"
        else:  # between its row and its column
            a, b = "GP%d" % inp["rows"][cell // 3], "GP%d" % inp["cols"][cell % 3]
        for net in (a, b):
            if net != "GND":
                pins[boards.PICO_HEADER[int(net[2:])]] = net
        part("SW%d" % (cell + 1), "SW_PUSH_6mm_H4.3mm", "B3F-1000", "top", layout.button_at(cell), 0,
             {"1": a, "2": b}, cell=cell)
    data = cfg["leds"]["pin"]
    pins[boards.PICO_HEADER[data]] = "GP%d" % data
    order = chain(cfg)
    for n, cell in enumerate(order):
        din = "DATA_R" if n == 0 else "DATA%d" % n
        nets = {PIXEL_VDD: "VBUS", PIXEL_GND: "GND", PIXEL_DIN: din}
        if n < 8:
            nets[PIXEL_DOUT] = "DATA%d" % (n + 1)
        part("D%d" % (cell + 1), "LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", "WS2812B", "top", layout.pixel_at(cell),
             0 if leftwards(order, n) else 180, nets, cell=cell)
    buzzer, fitted = buzzer_pin(cfg)
    pins[boards.PICO_HEADER[buzzer]] = "GP%d" % buzzer
    for pin in PICO_GND:
        pins[pin] = "GND"
    pins[PICO_VBUS] = "VBUS"
    part("U1", "RaspberryPi_Pico_Socketed", "Raspberry Pi Pico", "bottom", layout.PICO_CENTRE, 0,
         {str(pin): net for pin, net in sorted(pins.items())}, pins={str(p): pico_pin_at(p) for p in range(1, 41)},
         comment="Raspberry Pi Pico, upside down in two 20-pin 2.54 mm female headers")
    shifter = {str(p): "GND" for p in SHIFTER_GND}
    shifter.update({"14": "VBUS", "2": "GP%d" % data, "3": "DATA_5V"})
    x0, y0 = layout.pixel_at(order[0])
    part("U2", "DIP-14_W7.62mm_Socket", "74AHCT125", "bottom", (-24.13, 4.5), 0, shifter,
         comment="SN74AHCT125N in a DIP-14 socket")
    part("C2", "C_Disc_D5.0mm_W2.5mm_P2.50mm", "100nF", "bottom", (-24.13, -7.0), 0, {"1": "VBUS", "2": "GND"})
    part("R2", "R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal", "10k", "bottom", (-13.97, 6.0), 90,
         {"1": "GP%d" % data, "2": "GND"})
    # At the first pixel, left of it and its switch.
    part("R1", "R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal", "330R", "bottom", (x0 - 8.0, y0 + 1.0), 90,
         {"1": "DATA_5V", "2": "DATA_R"})
    part("C1", "CP_Radial_D8.0mm_P3.50mm", "470uF", "bottom", (x0 - 11.0, y0 - 9.0), 90, {"1": "VBUS", "2": "GND"})
    part("BZ1", "Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm", "PS1240P02BT", "bottom", (30.0, 8.0), 0,
         {"1": "GP%d" % buzzer, "2": "GND"}, bom=fitted)
    for n, (x, y) in enumerate(layout.screws()):
        part("H%d" % (n + 1), "MountingHole_3.2mm_M3", "M3", "top", (x, y), 0, {}, bom=False)
    return {"name": cfg["name"], "size": layout.PCB_SIZE, "parts": parts, "power": ["GND", "VBUS"],
            "screws": layout.screws(), "footprints": FOOTPRINTS,
            "rules": {"grid": GRID, "track": TRACK, "power_track": POWER_TRACK, "clearance": CLEARANCE,
                      "via": VIA, "via_drill": VIA_DRILL, "edge": EDGE_CLEARANCE, "screw_keepout": SCREW_KEEPOUT,
                      "zone_clearance": ZONE_CLEARANCE}}


def run_kicad(args, stdin=None, timeout=600):
    """Run ``kicad.py`` under the system Python; its stdout. HardwareError
    (one line) when pcbnew isn't there or the script fails."""
    try:
        probe = subprocess.run([KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True)
    except OSError:
        raise HardwareError(MISSING)
    if probe.returncode:
        raise HardwareError(MISSING)
    proc = subprocess.run([KICAD_PYTHON, os.path.join(HERE, "kicad.py")] + args, input=stdin,
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode:
        lines = proc.stderr.strip().splitlines() or ["(no message)"]
        raise HardwareError("kicad.py failed: %s" % lines[-1])
    return proc.stdout


# What a line of KiCad's plots says that changes with each run: dropped, so
# that the same board gives the same files.
_DATED = re.compile(r"CreationDate|^G04 Created by KiCad .* date |^; DRILL file .* date |^\*\* Created on ")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def undated(text):
    """KiCad's output less its dated lines."""
    return "".join(line for line in text.splitlines(True) if not _DATED.search(line))


def fixed_zip(files):
    """A zip of ``[(name, bytes)]`` with fixed times and modes, as bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            info = zipfile.ZipInfo(name, ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return out.getvalue()


def _csv(rows):
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def bom(design):
    """JLCPCB's BOM (Comment, Designator, Footprint, LCSC Part #): one row
    per value and footprint, the parts not fitted by default left out."""
    groups = {}
    for part in design["parts"]:
        if part["bom"]:
            key = (part.get("comment", part["value"]), part["footprint"], part.get("lcsc", ""))
            groups.setdefault(key, []).append(part["ref"])
    rows = [("Comment", "Designator", "Footprint", "LCSC Part #")]
    for (value, footprint, lcsc), refs in sorted(groups.items(), key=lambda g: _natural(g[1][0])):
        rows.append((value, ",".join(sorted(refs, key=_natural)), footprint, lcsc))
    return _csv(rows)


def cpl(design, placed):
    """JLCPCB's placement file (Designator, Mid X, Mid Y, Layer, Rotation) in
    the gerbers' coordinates (the kit's: mm from the grid's centre)."""
    rows = [("Designator", "Mid X", "Mid Y", "Layer", "Rotation")]
    mx_kit = design["name"] in MX_BOARDS
    if mx_kit:
        from host_tools.hardware.pcb import mxboard
    for part in sorted(design["parts"], key=lambda p: _natural(p["ref"])):
        if part["bom"]:
            x, y = part.get("place_at", part["at"])
            where = placed[part["ref"]]
            if mx_kit:  # every fab part is on the underside, some drawn from above (footprints.py)
                side, rotation = "Bottom", mxboard.cpl_rotation(part, where)
            else:
                side, rotation = "Bottom" if where["bottom"] else "Top", where["rotation"] % 360
            rows.append((part["ref"], "%.3fmm" % x, "%.3fmm" % y, side, "%g" % rotation))
    return _csv(rows)


def _natural(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def pictures(gerbers):
    """The board's top and bottom as SVG text, drawn from its gerbers
    (``[(name, text)]``) by gerbonara."""
    import warnings

    from gerbonara import LayerStack

    with tempfile.TemporaryDirectory() as tmp:
        for name, text in gerbers:
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # KiCad's drill header order, which gerbonara notes
            stack = LayerStack.open(tmp)
            return [_readable(str(stack.to_pretty_svg(side=side))) for side in ("top", "bottom")]


PICTURE_SCALE = 7  # px per mm: the silkscreen's pin marks readable in a browser (gerbonara gives mm)


def _readable(svg_text):
    """The picture drawn at PICTURE_SCALE px per mm, not at its size in mm
    (which a browser shows at about 3.8 px per mm)."""
    def px(m):
        return '%s="%d"' % (m.group(1), round(float(m.group(2)) * PICTURE_SCALE))

    start = svg_text.index("<svg")
    end = svg_text.index(">", start)
    return svg_text[:start] + re.sub(r'(width|height)="([0-9.]+)mm"', px, svg_text[start:end]) + svg_text[end:]


def board_files(board):
    """``[(name, text or bytes)]`` of one board's PCB folder."""
    try:
        path, cfg, _ = flash.board_config(board)
    except flash.FlashError as e:
        raise HardwareError(str(e))
    d = design(cfg)
    name = d["name"]
    with tempfile.TemporaryDirectory() as lib:
        if name in MX_BOARDS:
            d["libraries"] = {footprints.LIBRARY: _library(lib)}
        files, gerbers, summary = _kicad_build("build", d)
    files.append((name + "-gerbers.zip", fixed_zip([(g, text.encode()) for g, text in gerbers])))
    files.append((name + "-bom.csv", bom(d)))
    files.append((name + "-cpl.csv", cpl(d, summary["parts"])))
    top, bottom = pictures(gerbers)
    files += [(name + "-top.svg", top), (name + "-bottom.svg", bottom)]
    if name in MX_BOARDS:
        from host_tools.hardware.pcb import mxboard

        plate, plate_gerbers, _ = _kicad_build("plate", mxboard.plate(name + "-plate"))
        files += plate + [(name + "-plate-gerbers.zip",
                           fixed_zip([(g, text.encode()) for g, text in plate_gerbers]))]
        files.append(("fp-lib-table", FP_LIB_TABLE))
    sheet = schematic.kicad_sch(d, cfg, os.path.relpath(path, flash.ROOT))
    files += [(name + ".kicad_sch", sheet), (name + "-schematic.svg", schematic_svg.draw(sheet))]
    return [(name + "/" + n, data) for n, data in files], summary


# The project's footprint library for KiCad (the MX kit's boards): the
# folder of footprints.py's footprints, beside the board's folder.
FP_LIB_TABLE = """(fp_lib_table
  (lib (name "%s")(type "KiCad")(uri "${KIPRJMOD}/../%s")(options "")(descr "the kit's footprints (make pcb)"))
)
""" % (footprints.LIBRARY, LIBRARY_FOLDER)


def _library(folder):
    """footprints.py's footprints written into ``folder``; its path."""
    path = os.path.join(folder, LIBRARY_FOLDER)
    os.makedirs(path)
    for n, text in footprints.library():
        with open(os.path.join(path, n), "w") as f:
            f.write(text)
    return path


def _kicad_build(command, d):
    """``kicad.py COMMAND`` on the design ``d``: its files (the board, the
    project, the DRC report), its gerbers (undated), its summary."""
    name = d["name"]
    with tempfile.TemporaryDirectory() as tmp:
        out = run_kicad([command, tmp], stdin=json.dumps(d))
        summary = json.loads(out) if out.strip() else {}
        if summary.get("unrouted"):
            raise HardwareError("%s: the router could not reach %d pads (the first: %s)"
                                % (name, len(summary["unrouted"]), summary["unrouted"][0]))
        files = []
        for ext in (".kicad_pcb", ".kicad_pro", "-drc.rpt"):
            if os.path.exists(os.path.join(tmp, name + ext)):
                with open(os.path.join(tmp, name + ext)) as f:
                    text = f.read()
                files.append((name + ext, undated(text).replace(tmp + "/", "") if ext == "-drc.rpt" else text))
        gerbers = []
        for g in sorted(os.listdir(os.path.join(tmp, "gerbers"))):
            with open(os.path.join(tmp, "gerbers", g)) as f:
                gerbers.append((g, undated(f.read())))
    return files, gerbers, summary


def readme(names=BOARDS):
    """``hardware/pcb/README.md``: what the folder holds, how to order the
    board and put it together, as Markdown."""
    out = ["# The PCB", "",
           "<!-- Generated by `make pcb` (%s) from firmware/boards/*.json, host_tools/hardware/layout.py and"
           " host_tools/hardware/mx.py: edit those, not this file. -->" % "host_tools/hardware/pcb/", "",
           "Two kits: the B3F kit's boards (pico-buttons, pico-matrix; below) and the MX kit's (pico-mx: its"
           " section after them).", "",
           "A two-layer board, %s mm square, that carries the whole Pico build: the nine pixels and their switches"
           " on top, each at its cell's place in the grid, and underneath the Raspberry Pi Pico (upside down in two"
           " 20-pin sockets, its USB socket at the back edge), the %s level shifter, the resistors, the"
           " capacitors and the buzzer. Four M3 holes at the grid's inner wall crossings take the case's screws."
           " It is generated from the board config, so a pin in the config and a trace on the board can't"
           " disagree, and from the same dimensions as the case." % (layout.mm(layout.PCB_SIZE), parts.SHIFTER), ""]
    for name in [n for n in names if n not in MX_BOARDS]:
        cfg = flash.board_config(name)[1]
        inp = cfg["input"]
        if inp["kind"] == "buttons":
            wiring = "each switch between its GPIO (%s, cells 0 to 8) and GND" % ", ".join(
                "GP%d" % p for p in inp["pins"])
        else:
            wiring = "a 3 x 3 matrix: rows %s, columns %s" % (
                ", ".join("GP%d" % p for p in inp["rows"]), ", ".join("GP%d" % p for p in inp["cols"]))
        buzzer, fitted = buzzer_pin(cfg)
        out += ["## %s" % name, "",
                "![%s, top](%s/%s-top.svg) ![%s, bottom (seen from below)](%s/%s-bottom.svg)" % (
                    name, name, name, name, name, name), "",
                "![%s, schematic](%s/%s-schematic.svg)" % (name, name, name), "",
                "- Config: `firmware/boards/%s.json`: %s; the pixels' data from GP%d through the %s and the %s"
                " resistor, along the cells in the order %s; the buzzer on GP%d%s." % (
                    name, wiring, cfg["leds"]["pin"], parts.SHIFTER, parts.RESISTOR,
                    " ".join(str(c) for c in chain(cfg)), buzzer,
                    "" if fitted else " (the config has none: the footprint is there, not fitted, and out of the"
                    " BOM; set `\"buzzer\": %d` to use one)" % buzzer),
                "- `%s.kicad_pcb`, `%s.kicad_pro`, `%s.kicad_sch`: the design and its schematic, one project for"
                " KiCad 6 or newer. The schematic has the board's parts, references, footprints and nets"
                " (`make test` rebuilds its netlist from the drawing and checks it against the board's), each net"
                " as a global label or power symbol; the symbols are KiCad's own (the 74AHCT125 as the 74LS125,"
                " which has its pins), the Pico's is drawn from its datasheet. `%s-schematic.svg` is a picture of"
                " it. Each footprint holds its symbol's id, as KiCad links the two." % (name, name, name, name),
                "- `%s-gerbers.zip`: the gerbers (copper, mask, silkscreen and paste on both sides, the outline) and"
                " the drill files (plated and unplated), named as JLCPCB and PCBWay take them: upload the zip as it"
                " is. Two layers, 1.6 mm FR-4, 1 oz copper; the smallest track is %g mm, the smallest gap %g mm,"
                " vias %g mm with %g mm holes." % (name, TRACK, CLEARANCE, VIA, VIA_DRILL),
                "- `%s-bom.csv`, `%s-cpl.csv`: the BOM and placement (centroid) file in JLCPCB's columns, in the"
                " gerbers' coordinates (mm from the grid's centre). The LCSC part numbers are left for you to"
                " pick; only the pixels are SMD, everything else is through-hole." % (name, name),
                "- `%s-drc.rpt`: KiCad's design rule check of this board (`make test` runs it again)." % name,
                ""]
    out += ["## Putting it together", "",
            "1. The pixels first (the only SMD parts), on top: each WS2812B's pin 1 (5 V) on the pad by the"
            " silkscreen's 1. The chip's cut corner is not pin 1: it marks pin 3 (GND), so it goes at the"
            " corner diagonally opposite the 1, where the outline has its short extra line. Turned round, a"
            " pixel gets its power backwards.",
            "2. Underneath: the DIP-14 socket (notch as drawn), the resistors, the 100 nF capacitor, the 470 µF"
            " capacitor (+ to the square pad), the buzzer if fitted; then the two 20-pin female sockets. Solder"
            " each from the top.",
            "3. On top: the nine switches. Then the %s into its socket, and the Pico upside down into its sockets,"
            " its USB socket at the board's back edge (pin 1, the square pad, at the back on the right seen from"
            " above)." % parts.SHIFTER,
            "", "The grid's walls stand on the top: two of them cross the Pico's header rows (at the back edge and"
            " a third of the way in). The printed grid ([grid.stl](../case/grid.stl)) has a slot over every"
            " solder joint that sits under a wall or a tile's edge (`make hardware` reads them from this board),"
            " so clip the joints' leads short and nothing presses on them. Nothing else on top but the pixels,"
            " the switches and solder joints is in a cell.",
            ""]
    if any(n in MX_BOARDS for n in names):
        from host_tools.hardware.pcb import mxboard

        for name in [n for n in names if n in MX_BOARDS]:
            out += mxboard.readme(name, flash.board_config(name)[1], sys.modules[__name__])
    return "\n".join(out)


def write(folder, names=BOARDS):
    """Each board's folder under ``folder`` (and the README, when they are
    the shipped boards), all or none; the files written."""
    from host_tools import outputs

    files = []
    for name in names:
        files += board_files(name)[0]
    if any(name in MX_BOARDS for name in names):
        files += [(LIBRARY_FOLDER + "/" + n, text) for n, text in footprints.library()]
    if tuple(names) == BOARDS:
        files.append(("README.md", readme(names)))
    return sorted(outputs.write_tree(folder, files))
