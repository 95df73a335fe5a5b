"""The kit's PCB (``pico-mx``) and its switch plate, from the board config
and ``mx.py``: what goes where and which pad joins which, for ``kicad.py``.

On top only the nine MX switches (their holes); underneath, all placed by
the fab: the nine hot-swap sockets, the nine reverse-mount SK6812MINI-E
pixels under the switches' windows, a 100 nF capacitor at each, the
SN74AHCT1G125 level shifter with its 100 nF and 10 k pull-down, the 330 R
at the first pixel's DIN and a 10 uF bulk capacitor there. The Pico hangs
under the board in two 20-pin sockets, the only parts the maker solders.
Coordinates: the kit's (mm from the middle key's centre, y to the back).
"""

from host_tools.hardware import boards, mx
from host_tools.hardware.pcb import footprints

# Fab parts: LCSC numbers, each one found in several independent public
# designs, with LCSC's own datasheet URL or JLCPCB's part page naming the
# number and the maker's part. Stock and price were not checked (no
# catalogue here): the fab's BOM tool shows them.
LCSC = {
    "socket": "C5156480",  # Kailh CPG151101S11-16
    "led": "C5149201",  # OPSCO SK6812MINI-E
    "100nF": "C1525",  # Samsung CL05B104KO5NNNC, 0402 X7R 16 V (JLC basic)
    "shifter": "C7484",  # TI SN74AHCT1G125DBVR
    "10k": "C25744",  # UNI-ROYAL 0402WGF1002TCE (JLC basic)
    "330R": "C25104",  # UNI-ROYAL 0402WGF3300TCE (JLC basic)
    "10uF": "C15850",  # Samsung CL21A106KAYNNNE, 0805 X5R 25 V
}
# JLCPCB's basic parts (no fee) and extended ones (a fee per kind), as far
# as public BOMs say; the 10 uF's class was not found.
BASIC = ("100nF", "10k", "330R")
EXTENDED = ("socket", "led", "shifter")

# JLCPCB's rotation corrections (degrees, added to KiCad's): design values,
# the fab's preview decides. Public tools disagree (JLCKicadTools' table
# has SOT-23 at 180); the LED and the socket were drawn here, so no table
# knows them.
JLC_ROTATION = {"SOT-23-5": 180, "C_0402_1005Metric": 0, "R_0402_1005Metric": 0, "C_0805_2012Metric": 0,
                footprints.LED: 0, footprints.SWITCH: 0}

# mm
GRID = 0.3175  # an eighth of the Pico's pitch: every 0402 pad holds a node
TRACK, POWER_TRACK, CLEARANCE = 0.25, 0.4, 0.2
VIA, VIA_DRILL = 0.6, 0.3
EDGE_CLEARANCE = 0.5  # from the outline and (the pour, the traces) from the LEDs' cut-outs
CUTOUT_EDGE = 0.15  # an LED's legs' pads to its cut-out (0.2 by the footprint): the DRC's edge rule
ZONE_CLEARANCE = 0.3
SILK = 0.15  # JLCPCB's thinnest silkscreen line
REF = 0.8  # the small parts' references' height
CAP_AT_LED = 3.0  # the LED's 100 nF this far in front of its centre
SHIFTER_AT = (28.5, -25.0)
SERIES_AT = (24.5, -23.5)  # the 330 R, right of the first pixel's DIN
PULL_DOWN_AT = (33.0, -22.5)
SHIFTER_CAP_AT = (28.5, -28.0)
BULK_AT = (19.05, -30.0)  # the 10 uF, in front of the first pixel (cell 8)


def pico_pin_at(pin):
    """The Pico's pin ``pin`` (1-40), ``(x, y)``: as ``pcb.pico_pin_at``
    (upside down, USB at the back), round ``mx.PICO_CENTRE``."""
    cx, cy = mx.PICO_CENTRE
    first = cy + 19 * mx.PICO_PITCH / 2
    if pin <= 20:
        return (cx + mx.PICO_ROW_SPACING / 2, first - (pin - 1) * mx.PICO_PITCH)
    return (cx - mx.PICO_ROW_SPACING / 2, first - (40 - pin) * mx.PICO_PITCH)


def socket_centre(cell):
    """The hot-swap socket's centre (its pads' middle), where the fab places it."""
    x, y = mx.key_at(cell)
    (ax, ay), (bx, by) = mx.SOCKET_PAD1, mx.SOCKET_PAD2
    return (x + (ax + bx) / 2, y + (ay + by) / 2)


def design(cfg, pcb):
    """The parts and nets, as ``pcb.design`` gives them (``pcb`` is that
    module: its constants and helpers)."""
    if cfg["input"]["kind"] != "buttons" or cfg.get("buzzer") is not None:
        raise boards.HardwareError("%s: the MX board takes one GPIO per key and no buzzer" % cfg["name"])
    boards.check(cfg)
    parts = []

    def part(ref, footprint, value, at, rot, nets, kind=None, side="bottom", **extra):
        parts.append(dict(ref=ref, footprint=footprint, value=value, side=side, at=list(at), rot=rot, nets=nets,
                          bom=kind is not None, lcsc=LCSC.get(kind, ""),
                          path=pcb.schematic.symbol_path(cfg["name"], ref), **extra))

    pins = {}
    for cell, gp in enumerate(cfg["input"]["pins"]):
        pins[boards.PICO_HEADER[gp]] = "GP%d" % gp
        part("SW%d" % (cell + 1), footprints.SWITCH, "CPG151101S11", mx.key_at(cell), 0,
             {"1": "GP%d" % gp, "2": "GND"}, "socket", side="top", library=footprints.LIBRARY, origin=True,
             cell=cell, place_at=list(socket_centre(cell)),
             comment="Kailh MX hot-swap socket CPG151101S11-16")
    data = cfg["leds"]["pin"]
    pins[boards.PICO_HEADER[data]] = "GP%d" % data
    order = pcb.chain(cfg)
    for n, cell in enumerate(order):
        left = pcb.leftwards(order, n)
        nets = {"1": "VBUS", "3": "GND", "4": "DATA_R" if n == 0 else "DATA%d" % n}
        if n < 8:
            nets["2"] = "DATA%d" % (n + 1)
        x, y = mx.led_at(cell)
        part("D%d" % (cell + 1), footprints.LED, "SK6812MINI-E", (x, y), 180 if left else 0, nets, "led",
             side="top", library=footprints.LIBRARY, origin=True, cell=cell)
        # pad 1 (VBUS) on the side of the LED's VDD pad (right when the LED is at 0)
        part("C%d" % (cell + 1), "C_0402_1005Metric", "100nF", (x, y - CAP_AT_LED), 0 if left else 180,
             {"1": "VBUS", "2": "GND"}, "100nF", cell=cell, ref_at=[x + 2.2, y - CAP_AT_LED], ref_size=REF)
    for pin in pcb.PICO_GND:
        pins[pin] = "GND"
    pins[pcb.PICO_VBUS] = "VBUS"
    part("U1", "RaspberryPi_Pico_Socketed", "Raspberry Pi Pico", mx.PICO_CENTRE, 0,
         {str(p): net for p, net in sorted(pins.items())}, pins={str(p): pico_pin_at(p) for p in range(1, 41)},
         comment="Raspberry Pi Pico, upside down in two 20-pin 2.54 mm female headers (soldered by the maker)")
    # SN74AHCT1G125: 1 ~OE, 2 A, 3 GND, 4 Y, 5 VCC
    def beside(at, dx, dy=0.0):
        return dict(ref_at=[at[0] + dx, at[1] + dy], ref_size=REF)

    part("U2", "SOT-23-5", "SN74AHCT1G125", SHIFTER_AT, 180,
         {"1": "GND", "2": "GP%d" % data, "3": "GND", "4": "DATA_5V", "5": "VBUS"}, "shifter",
         comment="SN74AHCT1G125DBVR", **beside(SHIFTER_AT, 3.7, -1.0))
    part("C10", "C_0402_1005Metric", "100nF", SHIFTER_CAP_AT, 0, {"1": "VBUS", "2": "GND"}, "100nF",
         **beside(SHIFTER_CAP_AT, 2.2))
    part("R2", "R_0402_1005Metric", "10k", PULL_DOWN_AT, 90, {"1": "GP%d" % data, "2": "GND"}, "10k",
         **beside(PULL_DOWN_AT, 1.6))
    part("R1", "R_0402_1005Metric", "330R", SERIES_AT, 0, {"1": "DATA_R", "2": "DATA_5V"}, "330R",
         **beside(SERIES_AT, 0, 1.1))
    part("C11", "C_0805_2012Metric", "10uF", BULK_AT, 180, {"1": "VBUS", "2": "GND"}, "10uF",
         comment="10uF 25V X5R 0805", **beside(BULK_AT, 2.9))
    for n, (x, y) in enumerate(mx.SCREWS):
        part("H%d" % (n + 1), "MountingHole_3.2mm_M3", "M3", (x, y), 0, {}, side="top")
    cutouts = [list(mx.led_at(cell)) + list(mx.LED_CUTOUT) for cell in range(9)]
    return {"name": cfg["name"], "box": [mx.PCB_X[0], mx.PCB_Y[0], mx.PCB_X[1], mx.PCB_Y[1]],
            "parts": parts, "power": ["GND", "VBUS"], "screws": mx.SCREWS, "footprints": pcb.FOOTPRINTS,
            "cutouts": cutouts,
            "route_first": route_order(cfg), "zone_nets": ["GND"],
            "rules": {"grid": GRID, "track": TRACK, "power_track": POWER_TRACK, "clearance": CLEARANCE,
                      "via": VIA, "via_drill": VIA_DRILL, "edge": EDGE_CLEARANCE, "cutout_edge": CUTOUT_EDGE,
                      "screw_keepout": mx.SCREW_KEEPOUT, "zone_clearance": ZONE_CLEARANCE,
                      "silk": SILK}}


def route_order(cfg):
    """The nets in the order the router takes them: the pixels' data (the
    longest chain, the tightest places), 5 V, the keys, then GND (which
    the zones on both sides join too)."""
    data = ["GP%d" % cfg["leds"]["pin"], "DATA_5V", "DATA_R"] + ["DATA%d" % n for n in range(1, 9)]
    return data + ["VBUS"] + ["GP%d" % gp for gp in cfg["input"]["pins"]] + ["GND"]


def plate(name):
    """The switch plate, for ``kicad.py plate``."""
    x0, y0, x1, y1 = mx.plate_outline()
    side = mx.PLATE_CUTOUT
    return {"name": name, "box": [x0, y0, x1, y1],
            "cutouts": [list(mx.key_at(cell)) + [side, side] for cell in range(9)],
            "text": "%s plate" % name.rsplit("-plate", 1)[0], "text_at": [mx.PCB_X[1] - 6.0, 0.0]}


def cpl_rotation(part, placed):
    """The CPL's rotation: KiCad's, as seen from the top, plus JLC_ROTATION."""
    return (placed["rotation"] + JLC_ROTATION[part["footprint"]]) % 360


def readme(name, cfg, pcb):
    """The board's section of ``hardware/pcb/README.md``: Markdown lines."""
    x0, y0, x1, y1 = mx.PCB_X[0], mx.PCB_Y[0], mx.PCB_X[1], mx.PCB_Y[1]
    plate = mx.plate_outline()
    parts = [("Kailh MX hot-swap socket CPG151101S11-16", "SW1-SW9", "socket"),
             ("SK6812MINI-E, reverse mount", "D1-D9", "led"),
             ("100 nF 0402 X7R (Samsung CL05B104KO5NNNC)", "C1-C10", "100nF"),
             ("SN74AHCT1G125DBVR, SOT-23-5", "U2", "shifter"),
             ("10 k 0402 (UNI-ROYAL 0402WGF1002TCE)", "R2", "10k"),
             ("330 R 0402 (UNI-ROYAL 0402WGF3300TCE)", "R1", "330R"),
             ("10 uF 0805 X5R 25 V (Samsung CL21A106KAYNNNE)", "C11", "10uF")]
    table = ["Each LCSC number below was found in several independent public designs, with LCSC's own datasheet"
             " address or JLCPCB's part page naming the number and the maker's part; stock and price were not"
             " checked here: the fab's BOM tool shows them when the BOM is uploaded (one public BOM found the"
             " socket out of stock in September 2026: order when it is in).", "",
             "| part | on the board | LCSC | JLCPCB |", "|---|---|---|---|"]
    for what, refs, kind in parts:
        table.append("| %s | %s | %s | %s |" % (what, refs, LCSC[kind], "extended part (a setup fee per kind)"
                                                if kind in EXTENDED else "basic part" if kind in BASIC
                                                else "basic or extended: the BOM tool says"))
    rotations = ", ".join("%s %d" % (fp, deg) for fp, deg in sorted(JLC_ROTATION.items()))
    return ["## %s (the MX kit)" % name, "",
            "![%s, top](%s/%s-top.svg) ![%s, bottom (seen from below)](%s/%s-bottom.svg)" % (
                name, name, name, name, name, name), "",
            "![%s, schematic](%s/%s-schematic.svg)" % (name, name, name), "",
            "A two-layer board, %g x %g mm (`mx.py`: x %g to %g, y %g to %g from the middle key's centre). On top"
            " nothing but the nine MX switches' holes (19.05 mm pitch); underneath, placed by the fab, the nine"
            " Kailh hot-swap sockets, the nine reverse-mount SK6812MINI-E pixels (each in a %g x %g mm cut-out"
            " under its switch's LED window, shining up through it), a 100 nF capacitor at each pixel, the"
            " SN74AHCT1G125 level shifter with its 100 nF and 10 k pull-down, the 330 R at the first pixel's DIN"
            " and a 10 uF bulk capacitor there. The Pico hangs under the board in two 20-pin female sockets, its"
            " USB socket at the back edge; four M3 holes at the keycaps' inner corners. No buzzer." % (
                x1 - x0, y1 - y0, x0, x1, y0, y1, mx.LED_CUTOUT[0], mx.LED_CUTOUT[1]), "",
            "- Config: `firmware/boards/%s.json`: each switch between its GPIO (%s, cells 0 to 8) and GND; the"
            " pixels' data from GP%d (10 k to GND) into the shifter's A (pin 2; ~OE, pin 1, and pin 3 on GND,"
            " VCC, pin 5, on VBUS), from its Y (pin 4) through the 330 R, along the cells in the order %s. The"
            " pixels and the shifter run on VBUS (the Pico's pin 40, 5 V from USB)." % (
                name, ", ".join("GP%d" % p for p in cfg["input"]["pins"]), cfg["leds"]["pin"],
                " ".join(str(c) for c in pcb.chain(cfg))),
            "- `%s.kicad_pcb`, `%s.kicad_pro`, `%s.kicad_sch`, `fp-lib-table`: the design and its schematic, one"
            " project for KiCad 6 or newer (`%s-schematic.svg`: a picture of the sheet; each part's pins go to"
            " global labels named for their nets, the pixels drawn as KiCad's WS2812B and the shifter as its"
            " 74LVC1G125, which have their pins). The"
            " switch-with-socket and the pixel footprints are drawn by `host_tools/hardware/pcb/footprints.py`"
            " from `mx.py`'s numbers (the public keyboard footprints': design values, Kailh's and OPSCO's"
            " drawings were not read) into `../%s/`, which `fp-lib-table` names; the rest are KiCad's own."
            % (name, name, name, name, pcb.LIBRARY_FOLDER),
            "- `%s-gerbers.zip`: the gerbers (copper, mask, silkscreen and paste on both sides, the outline with"
            " the pixels' cut-outs) and the drill files (plated and unplated), named as JLCPCB and PCBWay take"
            " them: upload the zip as it is (tracks %g mm, power %g mm,"
            " gaps %g mm, vias %g/%g mm; the pixels' pads are %g mm from their cut-outs, as the public"
            " footprints have them)." % (name, TRACK, POWER_TRACK, CLEARANCE, VIA, VIA_DRILL,
                                         mx.LED_PAD_AT[0] - mx.LED_PAD[0] / 2 - mx.LED_CUTOUT[0] / 2),
            "- `%s-bom.csv`, `%s-cpl.csv`: JLCPCB's BOM and placement file, the fab-placed parts only (all on"
            " the bottom). Positions are the parts' centres in the gerbers' coordinates (mm from the middle"
            " key's centre, x right, y back) as seen from the top, which is how JLCPCB asks for bottom-side"
            " parts; a socket's is its two pads' middle. Rotation: KiCad's, as seen from the top, plus a"
            " correction for JLCPCB's library (design values, which public tools disagree on: %s)." % (
                name, name, rotations),
            "- `%s-plate.kicad_pcb`, `%s-plate-gerbers.zip`: the switch plate, a second board, %g x %g mm (the"
            " board's outline, %g mm wider all round: it rests on the tray's ledge), nine %g mm square cut-outs at"
            " the switches, no copper; FR-4 %g mm (MX clips are made for 1.5 mm: `mx.py`)." % (
                name, name, plate[2] - plate[0], plate[3] - plate[1], mx.PLATE_LEDGE, mx.PLATE_CUTOUT,
                mx.FR4_PLATE_THICKNESS),
            "- `%s-drc.rpt`: KiCad's design rule check of this board." % name, "",
            "### The parts the fab places", ""] + table + [
            "", "### Ordering (JLCPCB)", "",
            "1. The board: upload `%s-gerbers.zip` (2 layers, 1.6 mm FR-4), choose PCB Assembly on the **bottom**"
            " side, upload `%s-bom.csv` and `%s-cpl.csv`. In the placement preview, check **every pixel**: the"
            " pin-1 dot of JLCPCB's model sits on pad 1 (VDD), the corner diagonally opposite the silkscreen's L"
            " (which marks GND, pad 3); a pixel the wrong way round gets its power backwards. Check the sockets"
            " (their pads on the two square pads) and the shifter's pin 1 as well: the rotations above are not"
            " verified against JLCPCB's library." % (name, name, name),
            "2. The plate: a second order, `%s-plate-gerbers.zip`, FR-4 %g mm, no assembly." % (
                name, mx.FR4_PLATE_THICKNESS),
            "3. Yourself: the Pico's two 1 x 20 female 2.54 mm sockets, on the bottom, soldered from the top; the"
            " Pico into them upside down (its parts facing down, USB at the back edge). Then, as the build guide"
            " says ([../README.md](../README.md#the-kit)): the board screwed into the tray, the plate on the tray's"
            " ledge, each switch pushed through the plate into its socket, the caps.", ""]
