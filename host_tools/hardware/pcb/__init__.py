"""The kit's PCB (``hardware/pcb/BOARD/``), from its board config and the
kit's shared dimensions (``mx.py``).

``mxboard.design(cfg)`` says what goes where and which pad joins which: the
nine MX switches' hot-swap sockets and the nine reverse-mount pixels under
their windows, the level shifter and the small parts, all underneath, the
Pico upside down in its sockets beside the keys, the four screw holes at
``mx.SCREWS``; ``footprints.py`` draws the two footprints KiCad 6 lacks
(written to ``hardware/pcb/tactictoe.pretty/``). ``kicad.py`` then builds
the board in KiCad 6 (pcbnew, under the system Python, in a subprocess: that
is where Debian's ``kicad`` puts it), routes it (``route.py``), fills the
ground zones, runs KiCad's design rule check and plots the gerbers and drill
files, and the switch plate, a second board; this module zips them and
writes the BOM, the placement file and the pictures, and ``schematic.py``
the schematic of the same parts and nets. Coordinates here are the kit's:
mm from the middle key's centre, x to the right, y to the back.
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
from host_tools.hardware.pcb import footprints, schematic, schematic_svg
from host_tools.hardware import boards
from host_tools.hardware.boards import HardwareError

HERE = os.path.dirname(os.path.abspath(__file__))
FOOTPRINTS = os.path.join(flash.ROOT, "vendor", "kicad-footprints")
KICAD_PYTHON = "/usr/bin/python3"  # Debian's kicad installs pcbnew for the system Python only
MISSING = "KiCad 6 is missing: apt-get install kicad"
BOARDS = ("pico-mx",)  # the kit's: mx.py's board (mxboard.py)
LIBRARY_FOLDER = "tactictoe.pretty"  # the footprints drawn here (footprints.py), beside the boards

# PCB-only dimensions (mm); the shared ones are mx.py's.
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


def design(cfg):
    """The parts and their nets: ``{"parts": [...], "power": [...], ...}``,
    as JSON for ``kicad.py`` (``mxboard.design``'s); HardwareError, one
    line, for a config the kit's board can't take."""
    from host_tools.hardware.pcb import mxboard

    if cfg["board"] != "pico" or cfg["input"]["kind"] != "buttons" or boards.undrawn(cfg):
        raise HardwareError("the PCB is the kit's, for a Pico with a key on a pin each (pico-mx), not %s" % cfg["name"])
    return mxboard.design(cfg, sys.modules[__name__])


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
    from host_tools.hardware.pcb import mxboard

    for part in sorted(design["parts"], key=lambda p: _natural(p["ref"])):
        if part["bom"]:
            x, y = part.get("place_at", part["at"])
            where = placed[part["ref"]]
            # every fab part is on the underside, some drawn from above (footprints.py)
            rows.append((part["ref"], "%.3fmm" % x, "%.3fmm" % y, "Bottom", "%g" % mxboard.cpl_rotation(part, where)))
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
        d["libraries"] = {footprints.LIBRARY: _library(lib)}
        files, gerbers, summary = _kicad_build("build", d)
    files.append((name + "-gerbers.zip", fixed_zip([(g, text.encode()) for g, text in gerbers])))
    files.append((name + "-bom.csv", bom(d)))
    files.append((name + "-cpl.csv", cpl(d, summary["parts"])))
    top, bottom = pictures(gerbers)
    files += [(name + "-top.svg", top), (name + "-bottom.svg", bottom)]
    from host_tools.hardware.pcb import mxboard

    plate, plate_gerbers, _ = _kicad_build("plate", mxboard.plate(name + "-plate"))
    files += plate + [(name + "-plate-gerbers.zip", fixed_zip([(g, text.encode()) for g, text in plate_gerbers]))]
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
    """``hardware/pcb/README.md``: what the folder holds and how to order
    the board, as Markdown."""
    from host_tools.hardware.pcb import mxboard

    out = ["# The PCB", "",
           "<!-- Generated by `make pcb` (%s) from firmware/boards/*.json and host_tools/hardware/mx.py: edit"
           " those, not this file. -->" % "host_tools/hardware/pcb/", "",
           "The kit's board, generated from its board config, so a pin in the config and a trace on the board"
           " can't disagree, and from the same dimensions (`mx.py`) as the printed case. The build guide,"
           " [../README.md](../README.md#the-kit), takes you from ordering it to playing.", ""]
    for name in names:
        out += mxboard.readme(name, flash.board_config(name)[1], sys.modules[__name__])
    out += ["## The tools, and the libraries not used", "",
            "- **KiCad 6's own Python API** (pcbnew, Debian's `kicad` 6.0.11) places the parts, fills the zones,"
            " runs the design rule check and plots the gerbers and drill files; the pictures are drawn from the"
            " gerbers by PyPI's `gerbonara`.",
            "- **Routing: `route.py`, the project's maze router**, routes this board in a few seconds, DRC-clean."
            " PyPI's `freeroute` (2026.7.14) routes a Specctra DSN that pcbnew exports, but KiCad 6 cannot read"
            " its session (SES) back without its GUI (`ImportSpecctraSES` fails headless), so using it would mean"
            " a hand-written SES reader in place of the router.",
            "- **Fab files: the BOM and placement file are written here** (the LCSC numbers and the rotation"
            " corrections are tables in `mxboard.py`). KiCad 6's last KiKit (1.7.2) writes the same from schematic"
            " fields, but needs its own environment (its `pcbnewTransition` pin conflicts with pcbdraw's) and"
            " writes dated gerbers, where these are regenerated byte for byte.",
            "- **The populated board's picture is OpenSCAD's** (`../case/pcb-top.png`, `pcb-bottom.png`, drawn"
            " from `mx.py`): pcbdraw's last version for KiCad 6 (1.1.2) plots boards, but has no art for the MX"
            " switch, the SK6812MINI-E or the Pico, so it would show bare pads.", ""]
    return "\n".join(out)


def write(folder, names=BOARDS):
    """Each board's folder under ``folder`` (and the README, when they are
    the shipped boards), all or none; the files written."""
    from host_tools import outputs

    files = []
    for name in names:
        files += board_files(name)[0]
    files += [(LIBRARY_FOLDER + "/" + n, text) for n, text in footprints.library()]
    if tuple(names) == BOARDS:
        files.append(("README.md", readme(names)))
    return sorted(outputs.write_tree(folder, files))
