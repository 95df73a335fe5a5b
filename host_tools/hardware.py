"""The build docs of a board, generated from its board config.

For each config the firmware reads (``firmware/boards/*.json``, or your own
``board.json``) this writes a folder with a page (pin table, parts list,
notes) and a wiring diagram (SVG), and once for all boards the dimensioned
layout drawing of the 3x3 grid. The pins come from the very file that goes on
the board as ``board.json``, so the docs and the firmware can't drift:
``python -m host_tools hardware -o hardware`` (``make hardware``); a test
fails when the committed files are stale.
"""

import json
import os

from tactictoe import config

from host_tools import flash

HERE = "host_tools/hardware.py"

# --- what the docs know about each development board -------------------------

# The Pico's GPIOs on its 40-pin header (Pico, Pico H, Pico W, Pico 2 and
# Pico 2 W share it): GPIO -> physical pin.
PICO_HEADER = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
               13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
               27: 32, 28: 34}

# The original ESP32 (WROOM/WROVER DevKits): touch channel of each touch GPIO.
ESP32_TOUCH = {4: 0, 0: 1, 2: 2, 15: 3, 13: 4, 12: 5, 14: 6, 27: 7, 33: 8, 32: 9}
ESP32_GPIOS = set(range(0, 20)) | {21, 22, 23, 25, 26, 27} | set(range(32, 40))
ESP32_INPUT_ONLY = set(range(34, 40))  # no output, no internal pull-up
ESP32_FLASH = set(range(6, 12))  # wired to the module's flash chip
ESP32_CAUTION = {
    0: "a strapping pin: held low at power-on, it starts the ROM loader instead of MicroPython",
    2: "a strapping pin, and the on-board LED's on many DevKits: if this pad misbehaves, move it",
    5: "a strapping pin",
    12: "a strapping pin (flash voltage): nothing may pull it high at power-on",
    15: "a strapping pin (boot messages)",
}

BOARDS = {
    "pico": {
        "title": "Raspberry Pi Pico",
        "variants": "Pico, Pico H, Pico W, Pico 2 or Pico 2 W: the same header",
        "usb": "micro-USB",
        "port": "/dev/ttyACM0",
        "v5": ("VBUS", 40),
        "gnd": ("GND", 38),
        "mcu_ma": 30,
        "colour": "#1f5f3a",
        "micropython": "<https://micropython.org/download/RPI_PICO/> (Pico W: `RPI_PICO_W`, Pico 2:"
                       " `RPI_PICO2`, Pico 2 W: `RPI_PICO2_W`)",
        "circuitpython": "<https://circuitpython.org/board/raspberry_pi_pico/> (the Pico W and Pico 2 have"
                         " pages of their own)",
        "install": "hold BOOTSEL while plugging it in, then copy the `.uf2` file to the RPI-RP2 (RP2350 on a"
                   " Pico 2) drive that appears; it restarts by itself",
    },
    "esp32-devkit": {
        "title": "ESP32 DevKit",
        "variants": "ESP32-WROOM-32 DevKitC (38 pins) or a 30-pin DevKit; not the S2, S3 or C3",
        "usb": "micro-USB (USB-C on newer DevKits)",
        "port": "/dev/ttyUSB0",
        "v5": ("5V", None),
        "gnd": ("GND", None),
        "mcu_ma": 80,
        "colour": "#1d3557",
        "micropython": "<https://micropython.org/download/ESP32_GENERIC/>",
        "circuitpython": None,
        "install": "with esptool (`pip install esptool`), `esptool.py --chip esp32 --port /dev/ttyUSB0"
                   " erase_flash`, then `esptool.py --chip esp32 --port /dev/ttyUSB0 --baud 460800 write_flash -z"
                   " 0x1000 FILE.bin` (the `.bin` from that page)",
    },
}

# --- the parts and their numbers (the notes quote these) ---------------------

PIXEL_MA = 60  # a WS2812B at full white: about 20 mA per colour
USB_MA = 500  # what a USB 2.0 port promises
RESISTOR = "330 \u03a9"
CAPACITOR = "470 \u00b5F"
PULL_DOWN = "10 k\u03a9"
SHIFTER = "74AHCT125"

# Layout of the grid, in millimetres.
PITCH = 100 / 3  # the pixel pitch of a 30 LEDs/m strip: cut pieces drop in
WALL = 2.0
WALL_HEIGHT = 20.0  # pixel to diffuser
DIFFUSER = 3.0
MARGIN = 8.0  # grid to the enclosure's outside
BASE = 20.0  # room under the LED board for the Pico or ESP32
TOUCH_PAD = 24.0  # touch pad side (ESP32)


class HardwareError(Exception):
    """A config whose pins can't work on its board, as one line."""


# --- reading a config -----------------------------------------------------------


def gpio(pin):
    """The GPIO number of a config pin: ``16``, or ``"GP16"`` on CircuitPython;
    None for a name without one."""
    if isinstance(pin, int):
        return pin
    if pin.upper().startswith("GP") and pin[2:].isdigit():
        return int(pin[2:])
    return None


def pin_label(cfg, pin):
    """How the board's silkscreen and pinout call ``pin``."""
    n = gpio(pin)
    if n is None:
        return str(pin)
    return "GP%d" % n if cfg["board"] == "pico" else "GPIO%d" % n


def header(cfg, pin):
    """Where ``pin`` is on the board's header, as text ("" when unknown)."""
    n = gpio(pin)
    if cfg["board"] == "pico" and n in PICO_HEADER:
        return "pin %d" % PICO_HEADER[n]
    return ""


def signals(cfg):
    """Every wire the config names: ``[(role, cells, pin)]``, role one of
    "leds", "button", "row", "col", "pad", "buzzer"; cells is a list."""
    out = [("leds", [], cfg["leds"]["pin"])]
    inp = cfg["input"]
    if inp["kind"] == "matrix":
        for r, pin in enumerate(inp["rows"]):
            out.append(("row", [3 * r + c for c in range(3)], pin))
        for c, pin in enumerate(inp["cols"]):
            out.append(("col", [3 * r + c for r in range(3)], pin))
    else:
        role = "pad" if inp["kind"] == "touch" else "button"
        for cell, pin in enumerate(inp["pins"]):
            out.append((role, [cell], pin))
    if cfg["buzzer"] is not None:
        out.append(("buzzer", [], cfg["buzzer"]))
    return out


def check(cfg):
    """HardwareError naming the first pin that can't do its job on the
    config's board (when the config says which board)."""
    board = cfg["board"]
    for role, cells, pin in signals(cfg):
        what = _what(role, cells)
        n = gpio(pin)
        if board == "pico":
            if n not in PICO_HEADER:
                raise HardwareError("%s: %r is not on the Pico's header (GP0-GP22, GP26-GP28)" % (what, pin))
        elif board == "esp32-devkit":
            if n not in ESP32_GPIOS:
                raise HardwareError("%s: the ESP32 has no GPIO%s" % (what, pin))
            if n in ESP32_FLASH:
                raise HardwareError("%s: GPIO%d belongs to the flash chip; never use GPIO6-GPIO11" % (what, n))
            if n in (1, 3):
                raise HardwareError("%s: GPIO%d is the USB serial console (TX/RX)" % (what, n))
            if n in ESP32_INPUT_ONLY and role in ("leds", "row", "buzzer"):
                raise HardwareError("%s: GPIO%d is input-only (GPIO34-GPIO39 can't drive a signal)" % (what, n))
            if n in ESP32_INPUT_ONLY and role in ("button", "col"):
                raise HardwareError("%s: GPIO%d has no internal pull-up (GPIO34-GPIO39)" % (what, n))
            if role == "pad" and n not in ESP32_TOUCH:
                raise HardwareError("%s: GPIO%d is not a touch pin (touch pins: %s)"
                                    % (what, n, ", ".join(str(p) for p in sorted(ESP32_TOUCH))))
    if cfg["input"]["kind"] == "touch" and board == "pico":
        raise HardwareError("input.kind: the Pico has no touch pads (use buttons or a matrix)")


def _what(role, cells):
    if role == "leds":
        return "leds.pin"
    if role == "buzzer":
        return "buzzer"
    if role == "row":
        return "input.rows[%d]" % (cells[0] // 3)
    if role == "col":
        return "input.cols[%d]" % cells[0]
    return "input.pins[%d]" % cells[0]


def chain(cfg):
    """The cells in chain order: ``chain(cfg)[p]`` is the cell pixel p lights."""
    order = cfg["leds"]["order"]
    return [order.index(p) for p in range(9)]


def current_ma(cfg):
    """The most the pixels can draw under the config's brightness cap."""
    return round(9 * PIXEL_MA * cfg["leds"]["brightness"])


# --- the page ---------------------------------------------------------------------


def _board_info(cfg):
    return BOARDS.get(cfg["board"])


def _power(cfg):
    """``((name, header pin), (name, header pin))`` of the board's 5 V and GND
    (header pin None where unknown)."""
    info = _board_info(cfg)
    return (info["v5"], info["gnd"]) if info else (("5V", None), ("GND", None))


def _touch_channel(cfg, pin):
    """"T2" for an ESP32 touch pin, else ""."""
    n = gpio(pin)
    return "T%d" % ESP32_TOUCH[n] if cfg["board"] == "esp32-devkit" and n in ESP32_TOUCH else ""


def _sorted_signals(cfg):
    # In header order on a Pico (the order you meet them soldering), else by GPIO.
    def key(sig):
        n = gpio(sig[2])
        if cfg["board"] == "pico" and n in PICO_HEADER:
            return (PICO_HEADER[n], 0)
        return (n if n is not None else 999, str(sig[2]))
    return sorted(signals(cfg), key=key)


def _connect_to(cfg, role, cells):
    if role == "leds":
        return ("%s pin 2 (1A), with the %s pull-down to GND; its pin 3 (1Y) through the %s resistor to the first"
                " pixel's DIN" % (SHIFTER, PULL_DOWN, RESISTOR))
    if role == "button":
        return "one leg of the button of cell %d; its other leg to GND" % cells[0]
    if role == "row":
        return "one leg of the buttons of cells %s" % ", ".join(str(c) for c in cells)
    if role == "col":
        return "the other leg of the buttons of cells %s" % ", ".join(str(c) for c in cells)
    if role == "pad":
        return "the touch pad of cell %d, by its own wire; nothing else on this pin" % cells[0]
    return "the piezo buzzer's + lead; its other lead to GND"


def _role_name(role, cells):
    return {"leds": "LED data", "button": "button", "row": "matrix row %d" % (cells[0] // 3 if cells else 0),
            "col": "matrix column %d" % (cells[0] if cells else 0), "pad": "touch pad",
            "buzzer": "buzzer"}[role]


def _cells_text(role, cells):
    if role in ("button", "pad"):
        return str(cells[0])
    if role in ("row", "col"):
        return " ".join(str(c) for c in cells)
    return ""


def pin_table(cfg):
    """The pin table as Markdown lines."""
    pico = cfg["board"] == "pico"
    lines = ["| what | cells | GPIO | %sconnect it to |" % ("Pico pin | " if pico else ""),
             "|---|---|---|%s---|" % ("---|" if pico else "")]
    for role, cells, pin in _sorted_signals(cfg):
        label = pin_label(cfg, pin)
        if role == "pad" and _touch_channel(cfg, pin):
            label += " (%s)" % _touch_channel(cfg, pin)
        note = ""
        if cfg["board"] == "esp32-devkit" and gpio(pin) in ESP32_CAUTION:
            note = ". %s is %s" % (label.split()[0], ESP32_CAUTION[gpio(pin)])
        where = (header(cfg, pin) or "-") + " | " if pico else ""
        lines.append("| %s | %s | %s | %s%s%s |" % (_role_name(role, cells), _cells_text(role, cells), label, where,
                                                   _connect_to(cfg, role, cells), note))
    (v5, v5_pin), (gnd, gnd_pin) = _power(cfg)
    lines.append("| 5 V from USB | | %s | %severy pixel's 5V (+), %s pin 14 (VCC), the %s capacitor's + |"
                 % (v5, "pin %d | " % v5_pin if pico else "", SHIFTER, CAPACITOR))
    others = ("every pixel's GND, %s pins 1, 4, 5, 7, 9, 10, 12 and 13, the capacitor's -, the %s pull-down"
              % (SHIFTER, PULL_DOWN))
    if cfg["input"]["kind"] == "buttons":
        others += ", the buttons' other legs"
    if cfg["buzzer"] is not None:
        others += ", the buzzer's other lead"
    lines.append("| ground | | %s | %s%s |" % (gnd, "pin %d (or any GND) | " % gnd_pin if pico else "", others))
    return lines


def parts(cfg):
    """The bill of materials: ``[(quantity, part, why/notes)]``."""
    info = _board_info(cfg)
    kind = cfg["input"]["kind"]
    out = []
    if info:
        out.append((1, info["title"], info["variants"]))
    else:
        out.append((1, "a development board", "whatever your board.json is written for"))
    out.append((9, "WS2812B RGB pixels (5 V)", "single-pixel breakout boards, or three 3-pixel pieces cut from a"
                " 30 LEDs/m strip (33 mm apart, the cell pitch); RGB, not RGBW"))
    if kind == "buttons":
        out.append((9, "tactile push buttons, 12 x 12 mm, normally open", "one per cell; 6 x 6 mm ones work too"))
    elif kind == "matrix":
        out.append((9, "tactile push buttons, 12 x 12 mm, normally open", "one per cell, wired as a 3 x 3 matrix;"
                    " no diodes needed (the game reads one press at a time and the rows are open-drain)"))
    else:
        out.append((9, "touch pads, 15 to %d mm square" % TOUCH_PAD,
                    "copper tape (or aluminium foil, or copper-clad board) with a wire soldered on; about 0.3 m of"
                    " 25 mm copper tape does all nine"))
    out.append((1, "%s quad buffer (DIP-14), with a 100 nF capacitor" % SHIFTER,
                "lifts the 3.3 V data signal to the 5 V the pixels need; the 100 nF goes across its pins 14 and 7"))
    out.append((1, "%s resistor, 1/4 W" % RESISTOR, "in the data line, at the first pixel's DIN"))
    out.append((1, "%s resistor, 1/4 W" % PULL_DOWN, "from the %s's input (pin 2) to GND: holds the data line low"
                " until the firmware drives it, so the pixels don't flash at power-on" % SHIFTER))
    out.append((1, "%s electrolytic capacitor, 10 V or more" % CAPACITOR,
                "across 5 V and GND at the first pixel, + to 5 V; 220 to 1000 \u00b5F all work (more makes a bigger"
                " surge when it is plugged in)"))
    if cfg["buzzer"] is not None:
        out.append((1, "passive piezo buzzer (about 12 mm)", "a passive one plays the firmware's tunes; an 'active'"
                    " buzzer only beeps one tone, and a magnetic one needs a transistor"))
    out.append((1, "USB data cable, %s" % (info["usb"] if info else "for your board"),
                "to flash and power the board; a charge-only cable powers it but shows no serial port"))
    out.append((1, "perfboard or stripboard, about 110 x 110 mm, and hook-up wire (22-26 AWG)",
                "the LED board; red for 5 V, black for GND, another colour for data helps"))
    return out


def _power_notes(cfg):
    info = _board_info(cfg)
    b = cfg["leds"]["brightness"]
    leds = current_ma(cfg)
    mcu = info["mcu_ma"] if info else 100
    line = ("- **Current.** Each pixel draws up to about %d mA at full white, so nine could draw %d mA. The firmware"
            " scales every colour by `leds.brightness` (%s here) before it sends it, so no frame can draw more than"
            " %d mA; with the %s (about %d mA) that is %d mA of the %d mA a USB 2.0 port promises."
            % (PIXEL_MA, 9 * PIXEL_MA, b, leds, info["title"] if info else "board", mcu, leds + mcu, USB_MA))
    if leds + mcu > USB_MA * 9 // 10:
        line += (" **That is more than a USB port should be asked for: lower `leds.brightness`, or power the"
                 " pixels from their own 5 V supply (grounds joined).**")
    return [line]


def page(cfg, source):
    """The board's page as Markdown text; ``source`` is the config's path as
    the page should name it."""
    info = _board_info(cfg)
    kind = cfg["input"]["kind"]
    inputs = {"buttons": "nine push buttons", "matrix": "nine push buttons in a 3 x 3 matrix",
              "touch": "nine touch pads"}[kind]
    runtime = "CircuitPython" if cfg["runtime"] == "circuitpython" else "MicroPython"
    title = info["title"] if info else "a development board"
    out = ["# %s" % cfg["name"], "",
           "<!-- Generated by `make hardware` (%s) from %s: edit that file, not this one. -->" % (HERE, source), "",
           "%s, nine WS2812B pixels, %s%s; %s. The firmware reads these pins from `%s`, installed on the"
           " board as `board.json`." % (title, inputs, ", a buzzer" if cfg["buzzer"] is not None else "", runtime,
                                        source),
           "", "![wiring diagram](wiring.svg)", "",
           "Read [the build guide](../README.md) first: it explains the parts, the bring-up and what to do"
           " when something doesn't light.", "", "## Pins", ""]
    out += pin_table(cfg)
    if cfg["board"] == "esp32-devkit":
        out += ["", "DevKits print the GPIO number on the header as `18`, `D18`, `G18` or `IO18`; the 5 V pin is"
                " `5V` or `VIN`."]
    out += ["", "## Parts", "", "| qty | part | notes |", "|---|---|---|"]
    for qty, part, notes in parts(cfg):
        out.append("| %d | %s | %s |" % (qty, part, notes))
    out += ["", "## Notes for this board", ""]
    cells = chain(cfg)
    walk = " ".join(str(c) for c in cells)
    out.append("- **Pixel chain.** Data runs from the first pixel's DOUT to the next one's DIN through the cells in"
               " this order: %s (`leds.order` = `%s`). The arrows in the diagram show it; the arrow printed on a"
               " strip or pixel board points from DIN to DOUT." % (walk, json.dumps(_order_setting(cfg))))
    if walk == "0 1 2 3 4 5 6 7 8":
        out.append("  With strip pieces, the wire from cell 2's DOUT back to cell 3's DIN (and from 5 to 6) crosses"
                   " the row; `serpentine` saves those two long wires.")
    out.append("- **Data line.** %s to %s pin 2; its pin 3 through the %s resistor to the first pixel's DIN,"
               " with the resistor at the pixel end. Keep the 3.3 V wire into the %s short (under 10 cm); the"
               " 5 V signal out of it can run further." % (pin_label(cfg, cfg["leds"]["pin"]), SHIFTER, RESISTOR,
                                                          SHIFTER))
    out += _power_notes(cfg)
    if kind == "touch":
        out.append("- **Touch pads.** 15 to %d mm square, one wire each, under 15 cm and kept apart from the LED"
                   " wires. The firmware measures each pad untouched at power-on, so keep hands off the board while"
                   " it starts (except the centre, for safe mode). `input.threshold` (%s here) is how far a reading"
                   " must move to count; `from tactictoe import check; check.touch()` shows the readings."
                   % (TOUCH_PAD, cfg["input"]["threshold"]))
    if kind == "matrix":
        out.append("- **Matrix.** Each button joins its row wire to its column wire. The firmware pulls one row low"
                   " at a time (open-drain) and reads the columns with internal pull-ups, so two buttons held in one"
                   " column can't short anything.")
    if kind == "buttons":
        out.append("- **Buttons.** Each input has the chip's internal pull-up, so a button only joins its pin to"
                   " GND: no resistors.")
    if cfg["buzzer"] is not None:
        out.append("- **Buzzer.** Driven straight from %s with a square wave; a piezo draws a milliamp or so."
                   % pin_label(cfg, cfg["buzzer"]))
    if info:
        out += ["", "## Flashing", "",
                "1. Install %s: %s; %s." % (runtime, info[cfg["runtime"] or "micropython"] or info["micropython"],
                                            info["install"])]
        if cfg["runtime"] == "circuitpython":
            out.append("2. Copy the firmware to the CIRCUITPY drive as [the README](../../README.md#putting-it-on-a-board)"
                       " says (`make flash` doesn't write to CircuitPython's drive), with `%s` as `board.json`,"
                       " and delete the drive's `code.py`: CircuitPython runs it before `main.py`." % source)
        else:
            out.append("2. `make flash PORT=%s BOARD=%s` (`mpremote connect list` names the port)."
                       % (info["port"], cfg["name"]))
        out.append("3. The board restarts and runs its self-test: see [bring-up](../README.md#bring-up).")
        if cfg["board"] == "pico" and cfg["runtime"] != "circuitpython":
            out += ["", "Or steps 1 and 2 in one file: `make uf2 BOARD=%s`, then hold BOOTSEL while plugging the"
                        " Pico in and drag `build/tactictoe-%s.uf2` onto the RPI-RP2 drive. It replaces MicroPython"
                        " and every file on the Pico's flash, and holds the build for the Pico (RP2040), not the"
                        " Pico W or Pico 2." % (cfg["name"], cfg["name"])]
    return "\n".join(out) + "\n"


def _order_setting(cfg):
    order = cfg["leds"]["order"]
    if order == list(range(9)):
        return "row-major"
    if order == config.pixel_order("serpentine"):
        return "serpentine"
    return order


# --- the wiring diagram ----------------------------------------------------------

INK = "#20242a"
MUTED = "#6b7280"
RED = "#c62828"
DATA = "#1565c0"
COPPER = "#c77c3a"
FONT = 'font-family="Helvetica, Arial, sans-serif"'


def _esc(text):
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _text(x, y, s, size=13, anchor="start", fill=INK, weight="normal"):
    return '<text x="%g" y="%g" %s font-size="%g" text-anchor="%s" fill="%s" font-weight="%s">%s</text>' % (
        x, y, FONT, size, anchor, fill, weight, _esc(s))


def _line(x1, y1, x2, y2, stroke=INK, width=2, extra=""):
    return '<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="%g"%s/>' % (
        x1, y1, x2, y2, stroke, width, extra)


def _path(d, stroke=INK, width=2, extra=""):
    return '<path d="%s" fill="none" stroke="%s" stroke-width="%g"%s/>' % (d, stroke, width, extra)


def _rect(x, y, w, h, fill="none", stroke=INK, width=2, rx=4):
    return '<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="%s" stroke="%s" stroke-width="%g"/>' % (
        x, y, w, h, rx, fill, stroke, width)


def _dot(x, y, fill=INK, r=3.5):
    return '<circle cx="%g" cy="%g" r="%g" fill="%s"/>' % (x, y, r, fill)


def _ground(x, y):
    """A ground symbol hanging from (x, y)."""
    return "".join([_line(x, y, x, y + 8, width=1.5), _line(x - 8, y + 8, x + 8, y + 8, width=1.5),
                    _line(x - 5, y + 12, x + 5, y + 12, width=1.5), _line(x - 2, y + 16, x + 2, y + 16, width=1.5)])


def _switch(x, y, size=1.0):
    """A push button between (x, y) and (x + 36 * size, y)."""
    w = 36 * size
    return "".join([_dot(x + 6 * size, y, r=2.5), _dot(x + w - 6 * size, y, r=2.5),
                    _line(x, y, x + 6 * size, y, width=1.5), _line(x + w - 6 * size, y, x + w, y, width=1.5),
                    _line(x + 4 * size, y - 7 * size, x + w - 4 * size, y - 7 * size, width=1.5),
                    _line(x + w / 2, y - 7 * size, x + w / 2, y - 13 * size, width=1.5)])


ARROW = ('<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"'
         ' orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>' % DATA)

# Diagram geometry (px).
W = 1060
BOARD_X, BOARD_W = 20, 230
STUB = 40
ROW_H = 26
TOP = 64
GRID_X = 700
CELL = 96  # pitch of the cells in the diagram
BOX = 62  # a pixel's square


def _cell_xy(cell, top):
    """Centre of a cell of a grid whose top-left is (GRID_X, top)."""
    return GRID_X + (cell % 3) * CELL + CELL / 2, top + (cell // 3) * CELL + CELL / 2


def wiring_svg(cfg):
    """The wiring diagram of a config as SVG text."""
    info = _board_info(cfg)
    (v5, v5_pin), (gnd, gnd_pin) = _power(cfg)
    rows = [(role, cells, pin_label(cfg, pin), header(cfg, pin)) for role, cells, pin in _sorted_signals(cfg)]
    rows.append(("gnd", [], gnd, "pin %d" % gnd_pin if gnd_pin else ""))
    rows.append(("5v", [], v5, "pin %d" % v5_pin if v5_pin else ""))
    board_h = 56 + ROW_H * len(rows)
    grid_top = TOP + 20
    # The rails run under the board and the pixels; the inputs go below them.
    railg = max(TOP + board_h, grid_top + 3 * CELL) + 40
    rail5 = railg + 30
    inputs_top = rail5 + 70
    height = inputs_top + 3 * CELL + 50
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (W, height, W, height),
           "<title>%s wiring</title>" % _esc(cfg["name"]),
           "<defs>%s</defs>" % ARROW,
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           _text(20, 30, "%s: %s" % (cfg["name"], info["title"] if info else "your board"), 20, weight="bold"),
           _text(20, 50, "generated from the board config by make hardware; the same label on two ends"
                 " means one wire", 12, fill=MUTED)]
    # The board and its pins.
    out.append(_rect(BOARD_X, TOP, BOARD_W, board_h, fill=info["colour"] if info else "#444", stroke="none", rx=8))
    out.append(_text(BOARD_X + 14, TOP + 26, info["title"] if info else "your board", 15, fill="#ffffff",
                     weight="bold"))
    out.append(_text(BOARD_X + 14, TOP + 44, "pins used, %s" % ("in header order" if cfg["board"] == "pico"
                                                                 else "by GPIO"), 11, fill="#d0d7de"))
    stub_y = {}
    x1 = BOARD_X + BOARD_W
    for i, (role, cells, label, where) in enumerate(rows):
        y = TOP + 70 + i * ROW_H
        stub_y[role] = y
        out.append(_text(x1 - 10, y + 4, ("%s  \u00b7  %s" % (label, where)) if where else label, 12,
                         anchor="end", fill="#ffffff"))
        colour = RED if role == "5v" else DATA if role == "leds" else INK
        out.append(_line(x1, y, x1 + STUB, y, stroke=colour))
        out.append(_dot(x1 + STUB, y, fill=colour))
        tag = {"button": "button %d", "pad": "pad %d", "row": "row %d", "col": "column %d",
               "buzzer": "buzzer"}.get(role)
        if tag:
            n = cells[0] // 3 if role == "row" else cells[0] if cells else 0
            out.append(_text(x1 + STUB + 8, y + 4, tag % n if "%" in tag else tag, 12, fill=MUTED))
    # Power rails, fed from the board's GND and 5 V (GND comes first down
    # the header and turns down last, so the two wires don't cross).
    rail_x, rail_end = x1 + STUB, GRID_X + 3 * CELL
    out.append(_path("M%g %g H%g V%g H%g" % (rail_x, stub_y["gnd"], rail_x + 30, railg, rail_end)))
    out.append(_path("M%g %g H%g V%g H%g" % (rail_x, stub_y["5v"], rail_x + 16, rail5, rail_end), stroke=RED))
    out.append(_text(rail_end + 6, railg + 4, "GND", 12))
    out.append(_text(rail_end + 6, rail5 + 4, "5 V", 12, fill=RED))
    # The level shifter: 2 in, 3 out, 1 (enable, active low) and 7 to GND,
    # 14 to 5 V, 100 nF across 14 and 7; a pull-down holds its input low
    # until the firmware drives the pin.
    yd = stub_y["leds"]
    sx, sw, sh = 440, 120, 58
    sy = yd - 20
    out.append(_line(x1 + STUB, yd, sx, yd, stroke=DATA))
    out.append(_rect(sx, sy, sw, sh, fill="#f3f4f6"))
    out.append(_text(sx + sw / 2, sy - 8, SHIFTER, 13, anchor="middle", weight="bold"))
    out.append(_text(sx + 6, yd + 4, "2", 11, fill=MUTED))
    out.append(_text(sx + 6, sy + sh - 6, "1", 11, fill=MUTED))
    out.append(_text(sx + sw - 6, yd + 4, "3", 11, anchor="end", fill=MUTED))
    out.append(_text(sx + 40, sy + sh - 6, "14", 11, anchor="middle", fill=MUTED))
    out.append(_text(sx + 90, sy + sh - 6, "7", 11, anchor="middle", fill=MUTED))
    out.append(_path("M%g %g H%g V%g" % (sx, sy + sh - 10, sx - 14, railg), width=1.5))
    out.append(_dot(sx - 14, railg))
    out.append(_line(sx + 40, sy + sh, sx + 40, rail5, stroke=RED, width=1.5))
    out.append(_dot(sx + 40, rail5, fill=RED))
    out.append(_line(sx + 90, sy + sh, sx + 90, railg, width=1.5))
    out.append(_dot(sx + 90, railg))
    yc = sy + sh + 20  # 100 nF between the 14 and 7 wires
    out.append(_line(sx + 40, yc, sx + 61, yc, width=1.5))
    out.append(_line(sx + 61, yc - 7, sx + 61, yc + 7, width=2))
    out.append(_line(sx + 67, yc - 7, sx + 67, yc + 7, width=2))
    out.append(_line(sx + 67, yc, sx + 90, yc, width=1.5))
    out.append(_dot(sx + 40, yc, fill=RED))
    out.append(_dot(sx + 90, yc))
    out.append(_text(sx + 64, yc + 20, "100 nF", 10, anchor="middle", fill=MUTED))
    px = sx - 50  # the pull-down
    out.append(_dot(px, yd, fill=DATA))
    out.append(_line(px, yd, px, yd + 12, width=1.5))
    out.append(_rect(px - 6, yd + 12, 12, 30, fill="#fff8e1", width=1.5, rx=2))
    out.append(_line(px, yd + 42, px, railg, width=1.5))
    out.append(_dot(px, railg))
    out.append(_text(px - 10, yd + 32, PULL_DOWN, 11, anchor="end"))
    out.append(_text(sx + sw / 2, sy - 24, "unused pins 4, 5, 9, 10, 12, 13 to GND", 10, anchor="middle", fill=MUTED))
    # The resistor at the first pixel, and the data into it.
    cells = chain(cfg)
    cx, cy = _cell_xy(cells[0], grid_top)
    lane = GRID_X - 24
    rx = lane - 70
    out.append(_line(sx + sw, yd, rx, yd, stroke=DATA))
    out.append(_rect(rx, yd - 8, 50, 16, fill="#fff8e1", width=1.5, rx=2))
    out.append(_text(rx + 25, yd - 14, RESISTOR, 12, anchor="middle"))
    out.append(_text(rx + 25, yd + 22, "at the first pixel", 10, anchor="middle", fill=MUTED))
    if cells[0] % 3 == 0:  # straight in from the left
        d = "M%g %g H%g V%g H%g" % (rx + 50, yd, lane, cy, cx - BOX / 2 - 2)
        din = (lane - 6, cy - 8)
    else:  # along the gap above its row, then down into it
        gap = cy - CELL / 2
        d = "M%g %g H%g V%g H%g V%g" % (rx + 50, yd, lane, gap, cx - 14, cy - BOX / 2 - 2)
        din = (lane - 6, gap - 6)
    out.append(_path(d, stroke=DATA, extra=' marker-end="url(#arrow)"'))
    out.append(_text(din[0], din[1], "DIN", 11, anchor="end", fill=DATA))
    # Bulk capacitor across the rails at the first pixel.
    kx = GRID_X - 50
    out.append(_line(kx, railg, kx, railg + 5, width=1.5))
    out.append(_path("M%g %g Q%g %g %g %g" % (kx - 7, railg + 9, kx, railg + 5, kx + 7, railg + 9), width=2))
    out.append(_line(kx - 7, rail5 - 5, kx + 7, rail5 - 5, stroke=RED, width=2))
    out.append(_line(kx, rail5 - 5, kx, rail5, stroke=RED, width=1.5))
    out.append(_dot(kx, railg))
    out.append(_dot(kx, rail5, fill=RED))
    out.append(_text(kx - 12, railg + 19, CAPACITOR + " (+ to 5 V)", 11, anchor="end"))
    # The pixels, the chain and its direction.
    out.append(_text(GRID_X, grid_top - 26, "pixels (front view), data in chain order", 12, fill=MUTED))
    for p, cell in enumerate(cells):
        x, y = _cell_xy(cell, grid_top)
        out.append(_rect(x - BOX / 2, y - BOX / 2, BOX, BOX, fill="#fafafa"))
        out.append(_text(x, y - 4, "cell %d" % cell, 12, anchor="middle", weight="bold"))
        out.append(_text(x, y + 14, "pixel %d" % p, 11, anchor="middle", fill=MUTED))
    for p in range(8):
        out.append(_chain_arrow(cells[p], cells[p + 1], grid_top, p % 4))
    bottom = grid_top + 3 * CELL - (CELL - BOX) / 2
    for x, y, colour in ((GRID_X + 3 * CELL - 40, railg, INK), (GRID_X + 3 * CELL - 30, rail5, RED)):
        out.append(_line(x, bottom + 8, x, y, stroke=colour, width=1.5))
        out.append(_dot(x, y, fill=colour))
    out.append(_text(GRID_X + 3 * CELL - 46, bottom + 22, "5 V and GND to every pixel", 11, anchor="end",
                     fill=MUTED))
    # The inputs, laid out like the cells.
    out += _inputs(cfg, inputs_top)
    if cfg["buzzer"] is not None:
        bx, by = BOARD_X + 40, inputs_top + 20
        out.append(_text(bx - 20, by - 24, "buzzer", 12, fill=MUTED))
        out.append(_text(bx - 20, by + 4, pin_label(cfg, cfg["buzzer"]), 12, weight="bold"))
        out.append(_line(bx + 50, by, bx + 70, by, width=1.5))
        out.append('<circle cx="%g" cy="%g" r="14" fill="#eee" stroke="%s" stroke-width="2"/>' % (bx + 84, by, INK))
        out.append(_text(bx + 84, by + 4, "+", 12, anchor="middle"))
        out.append(_line(bx + 98, by, bx + 114, by, width=1.5))
        out.append(_ground(bx + 114, by))
        out.append(_text(bx - 20, by + 40, "passive piezo", 11, fill=MUTED))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _chain_arrow(a, b, top, lane=0):
    """The data link from cell a's DOUT to cell b's DIN: straight between
    neighbours, else along the gaps between rows (and round the right of the
    grid), never through another cell; ``lane`` (0-3) keeps links that
    share a gap apart."""
    ax, ay = _cell_xy(a, top)
    bx, by = _cell_xy(b, top)
    h = BOX / 2
    arrow = ' marker-end="url(#arrow)"'
    if ay == by and abs(ax - bx) == CELL:
        s = 1 if bx > ax else -1
        return _line(ax + s * h, ay, bx - s * (h + 2), by, stroke=DATA, extra=arrow)
    if ax == bx and abs(ay - by) == CELL:
        s = 1 if by > ay else -1
        return _line(ax, ay + s * h, bx, by - s * (h + 2), stroke=DATA, extra=arrow)
    down = 1 if by >= ay else -1
    if by == ay:  # same row, not neighbours: over the top
        down = -1
    o = (lane - 1.5) * 5
    gap_a = ay + down * CELL / 2 + o
    gap_b = by - (1 if by > ay else -1) * CELL / 2 + o if by != ay else gap_a
    d = "M%g %g V%g" % (ax + 12 + o, ay + down * h, gap_a)
    if gap_b != gap_a:  # two rows apart: round the right of the grid
        d += " H%g V%g" % (GRID_X + 3 * CELL + 12 + o, gap_b)
    into = by - h - 2 if gap_b < by else by + h + 2
    d += " H%g V%g" % (bx + 12 + o, into)
    return _path(d, stroke=DATA, extra=arrow)


def _inputs(cfg, top):
    inp = cfg["input"]
    kind = inp["kind"]
    title = {"buttons": "buttons (front view): each joins its pin to GND",
             "matrix": "button matrix (front view): each button joins its row to its column",
             "touch": "touch pads (front view): one wire each, nothing else on it"}[kind]
    out = [_text(GRID_X - (150 if kind == "matrix" else 0), top - 14, title, 12, fill=MUTED)]
    for cell in range(9):
        x, y = _cell_xy(cell, top)
        if kind == "touch":
            pin = inp["pins"][cell]
            s = BOX + 6
            out.append(_rect(x - s / 2, y - s / 2, s, s, fill=COPPER, stroke="#8d5524", rx=6))
            out.append(_text(x, y - 4, "cell %d" % cell, 12, anchor="middle", fill="#ffffff", weight="bold"))
            label = (pin_label(cfg, pin) + " " + _touch_channel(cfg, pin)).strip()
            out.append(_text(x, y + 14, label, 11, anchor="middle", fill="#ffffff"))
        elif kind == "buttons":
            pin = inp["pins"][cell]
            out.append(_rect(x - BOX / 2, y - BOX / 2, BOX, BOX, fill="#fafafa", stroke="#cfd4da", width=1))
            out.append(_text(x, y - 16, "%d: %s" % (cell, pin_label(cfg, pin)), 12, anchor="middle",
                             weight="bold"))
            out.append(_switch(x - 18, y + 8, 1.0))
            out.append(_ground(x + 18, y + 8))
        else:
            out.append(_rect(x - BOX / 2, y - BOX / 2, BOX, BOX, fill="#fafafa", stroke="#cfd4da", width=1))
            out.append(_text(x - 24, y - 14, str(cell), 12, weight="bold"))
            # from the row wire (left of the cell) to the column wire (right)
            out.append(_switch(x - 24, y + 12, 0.9))
            out.append(_line(x - 24, y + 12, x - 24, y + BOX / 2 + 10, width=1.5))
            out.append(_line(x + 8, y + 12, x + 8 + 6, y + 12, width=1.5))
    if kind == "matrix":
        for r in range(3):
            _, y = _cell_xy(3 * r, top)
            yl = y + BOX / 2 + 10
            out.append(_line(GRID_X - 10, yl, GRID_X + 3 * CELL, yl, width=2))
            for c in range(3):
                x, _ = _cell_xy(3 * r + c, top)
                out.append(_dot(x - 24, yl))
            out.append(_text(GRID_X - 14, yl + 4, "row %d: %s" % (r, pin_label(cfg, inp["rows"][r])), 12,
                             anchor="end", weight="bold"))
        for c in range(3):
            x, _ = _cell_xy(c, top)
            xl = x + 14
            out.append(_line(xl, top - 4, xl, top + 3 * CELL, width=2, stroke="#455a64"))
            for r in range(3):
                _, y = _cell_xy(3 * r + c, top)
                out.append(_dot(xl, y + 12, fill="#455a64"))
            out.append(_text(xl, top + 3 * CELL + 16, "col %d: %s" % (c, pin_label(cfg, inp["cols"][c])), 12,
                             anchor="middle", weight="bold"))
    return out


# --- the layout drawing ------------------------------------------------------------


def layout_values():
    """The grid's dimensions in mm, rounded as the docs print them."""
    grid = 3 * PITCH + WALL
    return {"pitch": PITCH, "wall": WALL, "opening": PITCH - WALL, "grid": grid, "outside": grid + 2 * MARGIN,
            "wall_height": WALL_HEIGHT, "diffuser": DIFFUSER, "base": BASE, "pad": TOUCH_PAD,
            "height": BASE + 1.6 + WALL_HEIGHT + DIFFUSER}


def _mm(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


def _dim(x1, y1, x2, y2, label, vertical=False):
    """A dimension line with end ticks, labelled above (or right of) it."""
    out = [_line(x1, y1, x2, y2, stroke=MUTED, width=1)]
    for x, y in ((x1, y1), (x2, y2)):
        if vertical:
            out.append(_line(x - 5, y, x + 5, y, stroke=MUTED, width=1))
        else:
            out.append(_line(x, y - 5, x, y + 5, stroke=MUTED, width=1))
    if label and vertical:
        out.append(_text(x1 + 9, (y1 + y2) / 2 + 4, label, 12))
    elif label:
        out.append(_text((x1 + x2) / 2, y1 - 8, label, 12, anchor="middle"))
    return "".join(out)


def layout_svg():
    """Top view and section of the grid, dimensioned in mm, as SVG text."""
    v = layout_values()
    k = 3.0  # px per mm
    ox, oy = 40, 100
    outside = v["outside"] * k
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="540" viewBox="0 0 1000 540">',
           "<title>3x3 grid layout</title>", '<rect width="100%" height="100%" fill="#ffffff"/>',
           _text(20, 30, "3x3 grid: top view and section, in mm", 20, weight="bold"),
           _text(20, 50, "generated by make hardware from the numbers in %s" % HERE, 12, fill=MUTED),
           _text(ox, oy - 30, "top view", 13, weight="bold")]
    # Top view: enclosure, grid walls, a pixel in each cell.
    out.append(_rect(ox, oy, outside, outside, fill="#f5f5f5", stroke=INK, width=2, rx=6))
    gx, gy = ox + MARGIN * k, oy + MARGIN * k
    grid = v["grid"] * k
    for i in range(4):  # wall centre lines
        p = (WALL / 2 + i * PITCH) * k
        out.append(_line(gx + p, gy, gx + p, gy + grid, width=WALL * k))
        out.append(_line(gx, gy + p, gx + grid, gy + p, width=WALL * k))
    for cell in range(9):
        cx = gx + (WALL / 2 + (cell % 3 + 0.5) * PITCH) * k
        cy = gy + (WALL / 2 + (cell // 3 + 0.5) * PITCH) * k
        out.append(_rect(cx - 2.5 * k, cy - 2.5 * k, 5 * k, 5 * k, fill="#fff3c4", stroke=INK, width=1, rx=1))
        out.append(_text(cx, cy - 4 * k, str(cell), 11, anchor="middle", fill=MUTED))
    c0 = gx + WALL / 2 * k
    out.append(_dim(c0 + 0.5 * PITCH * k, oy - 8, c0 + 1.5 * PITCH * k, oy - 8, "pitch %s" % _mm(v["pitch"])))
    o0 = gx + WALL * k
    yo = gy + grid - WALL * k - 10
    out.append(_dim(o0, yo, o0 + v["opening"] * k, yo, "opening %s" % _mm(v["opening"])))
    out.append(_dim(gx, oy + outside + 30, gx + grid, oy + outside + 30, "grid %s" % _mm(v["grid"])))
    out.append(_dim(ox, oy + outside + 62, ox + outside, oy + outside + 62, "outside %s" % _mm(v["outside"])))
    # Section through a row: diffuser, walls, LED board, base.
    sx, sy = 500, 130
    k2 = 3.0
    width = v["grid"] * k2
    y_wall = sy + DIFFUSER * k2
    y_board = y_wall + WALL_HEIGHT * k2
    y_base = y_board + 1.6 * k2
    y_end = y_base + BASE * k2
    out.append(_text(sx, oy - 30, "section through a row", 13, weight="bold"))
    out.append(_rect(sx, sy, width, DIFFUSER * k2, fill="#e8eaf6", stroke=INK, width=1, rx=0))
    for i in range(4):
        x = sx + i * PITCH * k2
        out.append(_rect(x, y_wall, WALL * k2, WALL_HEIGHT * k2, fill="#455a64", stroke="none", rx=0))
    out.append(_rect(sx, y_board, width, 1.6 * k2, fill="#2e7d32", stroke="none", rx=0))
    for i in range(3):
        x = sx + (WALL / 2 + (i + 0.5) * PITCH) * k2
        out.append('<path d="M%g %g L%g %g L%g %g z" fill="#fff59d" opacity="0.5"/>' % (
            x, y_board - 1.6 * k2, x - 14 * k2, y_wall, x + 14 * k2, y_wall))
        out.append(_rect(x - 2.5 * k2, y_board - 1.6 * k2, 5 * k2, 1.6 * k2, fill="#fff3c4", stroke=INK, width=1,
                         rx=0))
    out.append(_rect(sx, y_base, width, BASE * k2, fill="none", stroke=INK, width=1.5, rx=0))
    out.append(_rect(sx + 25 * k2, y_base + 11 * k2, 51 * k2, 4 * k2, fill="#1f5f3a", stroke="none", rx=2))
    out.append(_text(sx + 50 * k2, y_base + 7 * k2, "Pico or ESP32 under the LED board", 11, anchor="middle",
                     fill=MUTED))
    right = sx + width + 16
    out.append(_dim(right, sy, right, y_wall, "diffuser %s" % _mm(DIFFUSER), vertical=True))
    out.append(_dim(right, y_wall, right, y_board, "walls %s high, %s thick" % (_mm(WALL_HEIGHT), _mm(WALL)),
                    vertical=True))
    out.append(_dim(right, y_base, right, y_end, "base %s" % _mm(BASE), vertical=True))
    out.append(_dim(sx - 16, sy, sx - 16, y_end, ""))
    out.append(_text(sx - 24, (sy + y_end) / 2 + 4, "about %s" % _mm(round(v["height"])), 12, anchor="end"))
    out.append(_text(sx, y_end + 30, "LED board: 1.6 mm perfboard, pixels facing up, each in its cell's middle", 12,
                     fill=MUTED))
    out.append(_text(sx, y_end + 48, "light spreads from each pixel to fill its cell of the diffuser", 12,
                     fill=MUTED))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def layout_page():
    """The layout notes as Markdown text."""
    v = layout_values()
    m = {key: _mm(val) for key, val in v.items()}
    lines = [
        "# Layout of the 3x3 grid", "",
        "<!-- Generated by `make hardware` (%s): edit the numbers there, not this file. -->" % HERE, "",
        "![top view and section of the grid, in mm](layout.svg)", "",
        "All sizes in millimetres.", "",
        "- **Cell pitch %s.** That is the pixel pitch of a 30 LEDs/m strip, so three pieces of three pixels"
        " drop straight in; single-pixel boards can go anywhere, so the same pitch suits them. A cell of %s"
        " fits a fingertip and a 12 mm button with room to spare. On 2.54 mm perfboard it is 13 holes (33.0),"
        " close enough." % (m["pitch"], m["opening"]),
        "- **Walls %s thick, %s high,** from the LED board to the diffuser, one well per cell. They keep each"
        " cell's light in its own cell: without them the marks bleed into their neighbours. Make them opaque"
        " (black or white filament, card, or wood); white inside gives a brighter, more even cell. With strip"
        " pieces, notch the walls' bottom edge where the strip passes under them." % (
            m["wall"], m["wall_height"]),
        "- **Diffuser %s,** opal (milky white) acrylic, or white 3D print about 1 mm thick, or two layers of"
        " tracing paper on clear acrylic. The pixel sits in the middle of its well, its face about %s below the"
        " diffuser: closer gives a bright spot with dark corners, farther a more even but dimmer glow." % (
            m["diffuser"], _mm(WALL_HEIGHT - 1.6)),
        "- **Grid %s square, enclosure %s square** (%s of margin for its walls), about %s tall: the base leaves %s"
        " under the LED board for the Pico or ESP32 and its wiring. Cut a hole for the USB plug where the board's"
        " socket ends up, and keep the pixels' 5 V and GND wires short and thick." % (
            m["grid"], m["outside"], _mm(MARGIN), _mm(round(v["height"])), m["base"]),
        "- **Buttons.** Put each 12 x 12 mm button in its cell beside the pixel (its centre about 9 from the middle) and"
        " press it through a loose tile: a diffuser square a little smaller than the %s opening, with a small"
        " post underneath that reaches the button. A lip round the tile's underside keeps it in when the board is"
        " turned over. Simpler still: put the nine buttons on a keypad of their own beside the grid, at the same"
        " pitch." % m["opening"],
        "- **Touch pads (ESP32).** A copper pad about %s square on the outside of the diffuser in each cell, with"
        " a hole in the middle for the light (or a frame of copper tape around the cell's edge), one thin wire"
        " through a hole to the ESP32, under 15 cm. Bare copper works best; a layer of clear tape over it is fine."
        " Through the diffuser itself the change is smaller: lower `input.threshold` and check with"
        " `check.touch()`." % m["pad"],
    ]
    return "\n".join(lines) + "\n"


# --- writing -------------------------------------------------------------------------


def _write(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def write_board(board, folder):
    """Write ``folder/README.md`` and ``folder/wiring.svg`` for one board
    config (a shipped name or a path); returns the files written."""
    try:
        path, cfg, _ = flash.board_config(board)
    except flash.FlashError as e:
        raise HardwareError(str(e))
    check(cfg)
    source = os.path.relpath(path, flash.ROOT) if os.path.abspath(path).startswith(flash.BOARDS) else path
    os.makedirs(folder, exist_ok=True)
    files = []
    for name, text in (("README.md", page(cfg, source)), ("wiring.svg", wiring_svg(cfg))):
        _write(os.path.join(folder, name), text)
        files.append(os.path.join(folder, name))
    return files


def write_all(folder):
    """Every shipped board's folder and the layout drawing; returns the files
    written, relative to ``folder``. A folder this wrote for a board config
    that is gone is removed."""
    os.makedirs(folder, exist_ok=True)
    boards = flash.shipped_boards()
    for name in sorted(os.listdir(folder)):
        page_path = os.path.join(folder, name, "README.md")
        if name not in boards and os.path.isfile(page_path):
            with open(page_path) as f:
                generated = "<!-- Generated by `make hardware`" in f.read()
            if generated:
                for stale in os.listdir(os.path.join(folder, name)):
                    os.remove(os.path.join(folder, name, stale))
                os.rmdir(os.path.join(folder, name))
    files = []
    for name in boards:
        for path in write_board(name, os.path.join(folder, name)):
            files.append(os.path.relpath(path, folder))
    for name, text in (("layout.md", layout_page()), ("layout.svg", layout_svg())):
        _write(os.path.join(folder, name), text)
        files.append(name)
    return sorted(files)
