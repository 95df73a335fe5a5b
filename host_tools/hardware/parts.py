"""The parts list of a board: what to buy, a manufacturer part number that
fits, where such parts are sold, and why each part is there.

The part numbers are real parts that fit the build (looked up in makers'
datasheets and distributors' listings), not the only ones: any part of the same value, package
and pin spacing does. Where no one part number means anything (wire,
perfboard, acrylic) the row says ``generic:`` and what to ask for.
"""

from host_tools.hardware import boards, layout

RESISTOR = "330 \u03a9"
CAPACITOR = "470 \u00b5F"
PULL_DOWN = "10 k\u03a9"
SHIFTER = "74AHCT125"

# The level shifters, by the roles of their pins: the hand-wired boards'
# quad 74AHCT125 (DIP-14, one of its four gates used) and the MX kit's
# single-gate SN74AHCT1G125 (SOT-23-5: 1 ~OE, 2 A, 3 GND, 4 Y, 5 VCC).
QUAD = {"name": SHIFTER, "in": 2, "out": 3, "oe": 1, "vcc": 14, "gnd": 7,
        "grounded": "1, 4, 5, 7, 9, 10, 12 and 13", "unused": "4, 5, 9, 10, 12, 13"}
SINGLE = {"name": "SN74AHCT1G125", "in": 2, "out": 4, "oe": 1, "vcc": 5, "gnd": 3, "grounded": "1 and 3",
          "unused": None}

# The boards whose PCB comes assembled from the fab (by the config's
# name): the maker buys the parts around it and solders only the Pico's
# sockets. ``parts``, ``page`` and ``wiring`` draw them from this table:
# the parts as the PCB's designators have them (host_tools/hardware/pcb/).
ASSEMBLED = {
    "pico-mx": {
        "kit": "the MX kit",
        "pixels": "SK6812MINI-E",
        "inputs": "MX switches",
        "shifter": SINGLE,
        "pull_down": "R2",
        "series": "R1",
        "bulk": ("C11", "10 \u00b5F"),
        "decoupling": "C1-C9 at the pixels, C10 at the shifter",
    },
}

# Shops, by kind of part: distributors' names, not their order codes, which
# change more often than the makers' part numbers.
DISTRIBUTORS = "DigiKey, Mouser, Farnell"
MAKER_SHOPS = "Adafruit, Pimoroni, SparkFun"

BOARD_PARTS = {
    "pico": ("Raspberry Pi SC0915 (Pico)", "Raspberry Pi resellers (Pimoroni, The Pi Hut, Adafruit), " + DISTRIBUTORS),
    "esp32-devkit": ("Espressif ESP32-DevKitC-32E", DISTRIBUTORS + ", Espressif's own shops"),
}


def assembled(cfg):
    """The ``ASSEMBLED`` entry of a config whose PCB the fab assembles, or None."""
    return ASSEMBLED.get(cfg["name"]) if cfg["board"] == "pico" else None


def shifter(cfg):
    """The level shifter the config's board is built with (``QUAD``, ``SINGLE``)."""
    kit = assembled(cfg)
    return kit["shifter"] if kit else QUAD


def bulk(cfg):
    """``(designator, value)`` of the bulk capacitor at the first pixel."""
    kit = assembled(cfg)
    return kit["bulk"] if kit else ("C1", CAPACITOR)


def kit_parts(cfg):
    """The parts list of a board whose PCB comes assembled (``ASSEMBLED``):
    the PCB and plate from the fab, and what the maker buys for them."""
    from host_tools.hardware import mx

    kit = assembled(cfg)
    headers = DISTRIBUTORS + ", " + MAKER_SHOPS
    keyboard = "keyboard shops (KBDfans, NovelKeys, Keychron, AliExpress), " + MAKER_SHOPS
    return [
        (1, "%s's PCB, assembled by the fab: 9 SK6812MINI-E pixels, 10 100 nF 0402 capacitors, an SN74AHCT1G125DBVR,"
            " a 10 k\u03a9 and a 330 \u03a9 0402 resistor, a 10 \u00b5F 0805 capacitor, 9 Kailh MX hot-swap"
            " sockets" % kit["kit"],
         "ordered: the gerbers, BOM and placement file of `make pcb` (hardware/pcb/)",
         "a fab that assembles boards (JLCPCB: the BOM carries LCSC part numbers)",
         "every part on the underside, placed and soldered by the fab: nothing on it for you to solder but the"
         " Pico's two sockets"),
        (1, "switch plate, FR-4 %s mm, nine %s mm square cut-outs" % (layout.mm(mx.FR4_PLATE_THICKNESS),
                                                                      layout.mm(mx.PLATE_CUTOUT)),
         "ordered: the plate's gerbers, from `make pcb` (hardware/pcb/)", "the same fab, a second board, no assembly",
         "the switches clip into it, %s mm above the PCB" % layout.mm(mx.PLATE_TOP)),
        (1, "Raspberry Pi Pico H (its headers fitted), or a Pico and 2 20-pin male headers",
         "Raspberry Pi SC0917 (Pico H); or SC0915 (Pico) with 2 x Sullins PRPC020SAAN-RC",
         "Raspberry Pi resellers (Pimoroni, The Pi Hut, Adafruit), " + DISTRIBUTORS,
         "a plain Pico needs its two 1 x 20 male headers soldered on, their long pins out of its back (the side"
         " without parts), as a Pico H has them"),
        (2, "20-pin female headers, 2.54 mm", "Sullins PPPC201LFBN-RC", headers,
         "fitted under the PCB in its two rows of holes and soldered from the top, so the Pico plugs in from"
         " below, parts down, and can come out again: the only soldering"),
        (9, "MX-compatible key switches, 3- or 5-pin", "generic: any brand's MX-style switch (Cherry, Gateron,"
            " Kailh, ...), linear, tactile or clicky", keyboard,
         "clipped into the plate, their pins pushed into the hot-swap sockets: no soldering; a 5-pin switch's two"
         " plastic pegs have their holes"),
        (9, "1u MX keycaps, translucent or relegendable", "generic: 1u, MX cross stem; translucent, or a clear"
            " relegendable cap with an insert", keyboard,
         "the pixel shines up through the switch's window into the cap: an opaque cap hides it"),
        (4, "M3 x %s pan head screws" % layout.mm(mx.SCREW_LENGTH),
         "generic: ISO 7045 (cross) or ISO 14583 (Torx) M3 x %s, steel or A2 stainless" % layout.mm(mx.SCREW_LENGTH),
         DISTRIBUTORS + ", hardware shops",
         "from above through the board's %s mm holes (under the plate) into the printed tray's bosses; they cut their"
         " own thread in the %s mm pilot holes" % (layout.mm(mx.SCREW_HOLE), layout.mm(mx.PILOT))),
        (1, "USB data cable, micro-USB", "generic: a data cable, not charge-only", "any",
         "to flash and power the board; a charge-only cable powers it but shows no serial port"),
        (1, "tray (the case), 3D-printed", "printed: hardware/case/tray.stl",
         "a 3D printer with a %s mm bed, a makerspace, a printing service" % layout.mm(mx.BED),
         "PLA or PETG, any colour; 0.2 mm layers, 3 perimeters, 15%% infill, no supports; floor down as the STL"
         " lies. The board screws into it, the plate rests on its ledge"),
        (1, "switch plate, 3D-printed, %s mm: instead of the FR-4 one" % layout.mm(mx.PLATE_THICKNESS),
         "printed: hardware/case/plate.stl",
         "a 3D printer with a %s mm bed, a makerspace, a printing service" % layout.mm(mx.BED),
         "only if you don't order the FR-4 plate; PLA or PETG, flat on the bed as the STL lies"),
    ]


def parts(cfg):
    """The bill of materials: ``[(quantity, part, part number, where to get
    it, why/notes)]``."""
    if assembled(cfg):
        return kit_parts(cfg)
    info = boards.board_info(cfg)
    kind = cfg["input"]["kind"]
    out = []
    if info:
        mpn, where = BOARD_PARTS[cfg["board"]]
        out.append((1, info["title"], mpn, where, info["variants"]))
    else:
        out.append((1, "a development board", "generic: the board your board.json is written for", "-",
                    "whatever your board.json is written for"))
    if cfg["board"] == "pico" and kind in ("buttons", "matrix"):  # the kit's PCB (hardware/pcb/) is drawn for these
        out.append((9, "WS2812B RGB pixels (5 V)", "Worldsemi WS2812B (bare, or the LED on each breakout)",
                    "bare: " + DISTRIBUTORS + ", LCSC; breakouts as NeoPixels: " + MAKER_SHOPS,
                    "for perfboard"
                    " single-pixel breakout boards; or, wired from the diagram, three 3-pixel pieces cut from a 30"
                    " LEDs/m strip (33 mm apart, the cell pitch); RGB, not RGBW"))
    else:
        out.append((9, "WS2812B RGB pixels (5 V)", "Worldsemi WS2812B (the LED on each breakout or strip)",
                    "as NeoPixels: " + MAKER_SHOPS + "; strips from most LED shops",
                    "single-pixel breakout boards, or three 3-pixel pieces cut from a 30 LEDs/m strip (33 mm apart,"
                    " the cell pitch); RGB, not RGBW"))
    buttons = ("Omron B3F-1000 (6 x 6 mm, 4.3 mm tall); 12 x 12 mm for a keypad: Omron B3F-4055", DISTRIBUTORS
               + "; packs of generic ones from " + MAKER_SHOPS)
    if kind == "buttons":
        out.append((9, "tactile push buttons, 6 x 6 mm, normally open") + buttons
                   + ("one per cell, in front of its pixel (see the layout); 12 x 12 mm ones only fit on a keypad"
                      " beside the grid",))
    elif kind == "matrix":
        out.append((9, "tactile push buttons, 6 x 6 mm, normally open") + buttons
                   + ("one per cell, wired as a 3 x 3 matrix; no diodes needed (the game reads one press at a time"
                      " and the rows are open-drain)",))
    else:
        out.append((9, "touch pads, 15 to %d mm square" % layout.TOUCH_PAD,
                    "3M 1181 (copper foil tape, conductive adhesive), 25 mm wide", DISTRIBUTORS + ", craft shops",
                    "copper tape (or aluminium foil, or copper-clad board) with a wire soldered on; about 0.3 m of"
                    " 25 mm copper tape does all nine"))
    out.append((1, "%s quad buffer (DIP-14)" % SHIFTER, "Texas Instruments SN74AHCT125N",
                DISTRIBUTORS + ", Adafruit", "lifts the 3.3 V data signal to the 5 V the pixels need"))
    out.append((1, "DIP-14 socket", "On Shore Technology ED14DT", DISTRIBUTORS,
                "for the %s, so a chip that was wired wrong can be swapped; optional" % SHIFTER))
    out.append((1, "100 nF ceramic capacitor, 50 V", "KEMET C320C104K5R5TA", DISTRIBUTORS,
                "across the %s's pins 14 and 7, as close to the chip as it goes" % SHIFTER))
    out.append((1, "%s resistor, 1/4 W" % RESISTOR, "Yageo MFR-25FBF52-330R", DISTRIBUTORS,
                "in the data line, at the first pixel's DIN"))
    out.append((1, "%s resistor, 1/4 W" % PULL_DOWN, "Yageo MFR-25FBF52-10K", DISTRIBUTORS,
                "from the %s's input (pin 2) to GND: holds the data line low until the firmware drives it, so the"
                " pixels don't flash at power-on" % SHIFTER))
    out.append((1, "%s electrolytic capacitor, 10 V or more" % CAPACITOR,
                "Panasonic EEU-FR1A471 (470 \u00b5F, 10 V)", DISTRIBUTORS,
                "across 5 V and GND at the first pixel, + to 5 V; 220 to 1000 \u00b5F all work (more makes a bigger"
                " surge when it is plugged in)"))
    if cfg["buzzer"] is not None:
        out.append((1, "passive piezo buzzer (about 12 mm)", "TDK PS1240P02BT", DISTRIBUTORS,
                    "a passive one plays the firmware's tunes; an 'active' buzzer only beeps one tone, and a"
                    " magnetic one needs a transistor"))
    if cfg["board"] == "pico":
        out.append((2, "20-pin female headers, 2.54 mm", "Sullins PPPC201LFBN-RC", DISTRIBUTORS + ", " + MAKER_SHOPS,
                    "soldered to the perfboard, so the Pico plugs in and can come out again"))
        out.append((1, "40-pin male header strip, 2.54 mm", "Sullins PRPC040SAAN-RC", DISTRIBUTORS + ", " + MAKER_SHOPS,
                    "cut in two and soldered to the Pico; not needed with a Pico H, which has its headers"))
    elif cfg["board"] == "esp32-devkit":
        out.append((2, "20-pin female headers, 2.54 mm", "Sullins PPPC201LFBN-RC", DISTRIBUTORS + ", " + MAKER_SHOPS,
                    "cut to the DevKit's rows (19 pins on a 38-pin DevKitC, 15 on a 30-pin one) and soldered to the"
                    " perfboard, so the DevKit plugs in; it comes with its headers"))
    out.append((1, "USB data cable, %s" % (info["usb"] if info else "for your board"),
                "generic: a data cable, not charge-only", "any", "to flash and power the board; a charge-only cable"
                " powers it but shows no serial port"))
    out.append((1, "perfboard or stripboard, about 110 x 110 mm", "generic: 2.54 mm pitch, FR-4, 1.6 mm",
                DISTRIBUTORS + ", " + MAKER_SHOPS, "the LED board, under the grid"))
    out.append((1, "hook-up wire, 22-26 AWG", "generic: solid core for the board, stranded for the pads and the"
                " controller", DISTRIBUTORS + ", " + MAKER_SHOPS,
                "red for 5 V, black for GND, another colour for data helps"))
    v = layout.layout_values()
    out.append((1, "diffuser, %s mm opal acrylic, %s mm square" % (layout.mm(layout.DIFFUSER), layout.mm(v["grid"])),
                "generic: opal (milky white) cast acrylic sheet", "plastics suppliers, laser-cutting services",
                "on top of the walls; white 3D print about 1 mm thick or tracing paper on clear acrylic also work"
                " (see the layout)"))
    box = "about %s x %s x %s mm" % (layout.mm(v["outside"]), layout.mm(v["outside"]), layout.mm(round(v["height"])))
    out.append((1, "grid walls and enclosure, " + box, "generic: 3D-printed PLA or PETG; the box may be 3 mm plywood",
                "a 3D printer, a makerspace, a laser-cutting service",
                "opaque walls %s mm thick (black, or white inside for a brighter cell); the layout has the sizes"
                % layout.mm(layout.WALL)))
    return out
