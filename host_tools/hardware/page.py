"""A board's page (``hardware/<board>/README.md``): the pin table, the parts
list, the notes for its wiring and how to flash it, as Markdown."""

import json

from tactictoe import config

from host_tools.hardware import boards, layout, parts

HERE = "host_tools/hardware/page.py"


def _kit_connects(cfg, role, cells):
    """What the assembled PCB joins a pin to (``parts.ASSEMBLED``)."""
    kit, sh = parts.assembled(cfg), parts.shifter(cfg)
    if role == "leds":
        return ("on the PCB: the %s's A (pin %d), with the %s pull-down (%s) to GND; its Y (pin %d) through the %s"
                " resistor (%s) to the first pixel's DIN (cell %d)" % (sh["name"], sh["in"], parts.PULL_DOWN,
                                                                      kit["pull_down"], sh["out"], parts.RESISTOR,
                                                                      kit["series"], boards.chain(cfg)[0]))
    return "on the PCB: one contact of cell %d's hot-swap socket; the other to GND" % cells[0]


def _connect_to(cfg, role, cells):
    if parts.assembled(cfg) and role in ("leds", "button"):
        return _kit_connects(cfg, role, cells)
    if role == "leds":
        return ("%s pin 2 (1A), with the %s pull-down to GND; its pin 3 (1Y) through the %s resistor to the first"
                " pixel's DIN" % (parts.SHIFTER, parts.PULL_DOWN, parts.RESISTOR))
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
    for role, cells, pin in boards.sorted_signals(cfg):
        label = boards.pin_label(cfg, pin)
        if role == "pad" and boards.touch_channel(cfg, pin):
            label += " (%s)" % boards.touch_channel(cfg, pin)
        note = ""
        if cfg["board"] == "esp32-devkit" and boards.gpio(pin) in boards.ESP32_CAUTION:
            note = ". %s is %s" % (label.split()[0], boards.ESP32_CAUTION[boards.gpio(pin)])
        where = (boards.header(cfg, pin) or "-") + " | " if pico else ""
        lines.append("| %s | %s | %s | %s%s%s |" % (_role_name(role, cells), _cells_text(role, cells), label, where,
                                                    _connect_to(cfg, role, cells), note))
    (v5, v5_pin), (gnd, gnd_pin) = boards.power(cfg)
    kit, sh = parts.assembled(cfg), parts.shifter(cfg)
    if kit:
        ref, value = parts.bulk(cfg)
        lines.append("| 5 V from USB | | %s | %son the PCB: every pixel's VDD, the %s's VCC (pin %d), the 100 nF"
                     " capacitors, the %s capacitor's + (%s) |" % (v5, "pin %d | " % v5_pin, sh["name"], sh["vcc"],
                                                                  value, ref))
        lines.append("| ground | | %s | pin %d (and the Pico's other GND pins) | on the PCB: every pixel's GND, the"
                     " %s's pins %s, the capacitors' -, the %s pull-down, each socket's other contact |"
                     % (gnd, gnd_pin, sh["name"], sh["grounded"], parts.PULL_DOWN))
        return lines
    lines.append("| 5 V from USB | | %s | %severy pixel's 5V (+), %s pin 14 (VCC), the %s capacitor's + |"
                 % (v5, "pin %d | " % v5_pin if pico else "", parts.SHIFTER, parts.CAPACITOR))
    others = ("every pixel's GND, %s pins 1, 4, 5, 7, 9, 10, 12 and 13, the capacitor's -, the %s pull-down"
              % (parts.SHIFTER, parts.PULL_DOWN))
    if cfg["input"]["kind"] == "buttons":
        others += ", the buttons' other legs"
    if cfg["buzzer"] is not None:
        others += ", the buzzer's other lead"
    lines.append("| ground | | %s | %s%s |" % (gnd, "pin %d (or any GND) | " % gnd_pin if pico else "", others))
    return lines



def parts_section(cfg, intro):
    """The page's "Parts" section: ``intro``, then the parts list as a table."""
    out = ["", "## Parts", "", intro, "", "| qty | part | part number | where to get it | notes |",
           "|---|---|---|---|---|"]
    return out + ["| %d | %s | %s | %s | %s |" % row for row in parts.parts(cfg)]


def _power_notes(cfg):
    info = boards.board_info(cfg)
    b = cfg["leds"]["brightness"]
    leds = boards.current_ma(cfg)
    mcu = info["mcu_ma"] if info else 100
    kit = parts.assembled(cfg)
    each = ("Each pixel is counted at up to about %d mA at full white (a WS2812B's figure; the %s's datasheet could"
            " not be read here)" % (boards.PIXEL_MA, kit["pixels"]) if kit else
            "Each pixel draws up to about %d mA at full white" % boards.PIXEL_MA)
    line = ("- **Current.** %s, so nine could draw %d mA. The firmware"
            " scales every colour by `leds.brightness` (%s here) before it sends it, so no frame can draw more than"
            " %d mA; with the %s (about %d mA) that is %d mA of the %d mA a USB 2.0 port promises."
            % (each, 9 * boards.PIXEL_MA, b, leds, info["title"] if info else "board", mcu, leds + mcu,
               boards.USB_MA))
    if leds + mcu > boards.USB_MA * 9 // 10:
        line += (" **That is more than a USB port should be asked for: lower `leds.brightness`, or power the"
                 " pixels from their own 5 V supply (grounds joined).**")
    return [line]


def kit_page(cfg, source):
    """The page of a board whose PCB the fab assembles (``parts.ASSEMBLED``):
    the pins as the PCB joins them, what to buy, the little there is to
    solder and put together, and how to flash it."""
    kit, sh = parts.assembled(cfg), parts.shifter(cfg)
    cells = boards.chain(cfg)
    ref, value = parts.bulk(cfg)
    out = ["# %s" % cfg["name"], "",
           "<!-- Generated by `make hardware` (%s) from %s: edit that file, not this one. -->" % (HERE, source), "",
           "%s: a Raspberry Pi Pico under a PCB the fab assembles, nine %s pixels under nine %s; MicroPython. The"
           " firmware reads these pins from `%s`, installed on the board as `board.json`."
           % (kit["kit"][0].upper() + kit["kit"][1:], kit["pixels"], kit["inputs"], source), "",
           "![wiring diagram: what the PCB connects](wiring.svg)", "",
           "The diagram and the pin table are what the PCB's copper joins: there is nothing to wire. Every part on"
           " the board is placed and soldered by the fab ([the PCB's files and how to order it](../pcb/README.md));"
           " you solder the Pico's two sockets, click in the switches and fit the caps. [The build guide](../README.md)"
           " has the bring-up and what to do when something doesn't light.", "", "## Pins", ""]
    out += pin_table(cfg)
    out += parts_section(cfg, "The fab's parts come on the PCB (its BOM lists them); the rest you buy. `generic:` says"
                         " what to ask for where no one part number means anything.")
    out += ["", "## Putting it together", "",
            "1. Fit the two 20-pin female headers under the PCB, in the two rows of holes by the Pico's outline, and"
            " solder them from the top: the only soldering. (A plain Pico: first solder its two male headers, long"
            " pins out of its back.)",
            "2. Plug the Pico into the sockets from below, its parts facing down and its USB socket at the back edge.",
            "3. Set the board in the printed tray and screw it down: the four M3 screws from above, through the holes"
            " at the key grid's inner corners into the tray's bosses. Their heads sit under the plate, so they go in"
            " first.",
            "4. Lay the plate on the tray's ledge over the board, then push each switch down through its cut-out until"
            " its clips snap into the plate, its pins into its hot-swap socket.",
            "5. Fit the nine keycaps.",
            "", "## Notes for this board", ""]
    walk = " ".join(str(c) for c in cells)
    out.append("- **Pixel chain.** On the PCB the data runs from GP%d through the cells in this order: %s"
               " (`leds.order` = `%s`): it enters at cell %d, the front right, and snakes back along the rows. The"
               " arrows in the diagram show it; the self-test and `check.leds()` show it on the board (see the"
               " guide's bring-up)." % (cfg["leds"]["pin"], walk, json.dumps(_order_setting(cfg)), cells[0]))
    out.append("- **Data line.** The %s (a single-gate 74AHCT125) lifts the Pico's 3.3 V data to the 5 V the pixels"
               " need; its ~OE (pin %d) is tied to GND, the %s pull-down (%s) holds its input low until the firmware"
               " drives GP%d, and the %s resistor (%s) sits at the first pixel's DIN. %s (%s) is the bulk capacitor"
               " at the first pixel; %s."
               % (sh["name"], sh["oe"], parts.PULL_DOWN, kit["pull_down"], cfg["leds"]["pin"], parts.RESISTOR,
                  kit["series"], ref, value, "the 100 nF capacitors are " + kit["decoupling"]))
    out += _power_notes(cfg)
    out.append("- **Switches.** Each switch joins its pin to GND through its hot-swap socket; each input has the"
               " chip's internal pull-up, so there are no resistors. Keys 0-2 are on GP26-GP28, the pins the Pico"
               " can also read as analogue inputs: the firmware reads them as plain digital inputs." if
               [boards.gpio(p) for p in cfg["input"]["pins"][:3]] == [26, 27, 28] else
               "- **Switches.** Each switch joins its pin to GND through its hot-swap socket; each input has the"
               " chip's internal pull-up, so there are no resistors.")
    out += _flashing(cfg, source)
    return "\n".join(out) + "\n"


def page(cfg, source):
    """The board's page as Markdown text; ``source`` is the config's path as
    the page should name it."""
    if parts.assembled(cfg):
        return kit_page(cfg, source)
    info = boards.board_info(cfg)
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
    out += parts_section(cfg, "The part numbers are parts that fit, not the only ones: any part of the same value,"
                         " package and pin spacing does. `generic:` says what to ask for where no one part number"
                         " means anything.")
    out += ["", "## Notes for this board", ""]
    cells = boards.chain(cfg)
    walk = " ".join(str(c) for c in cells)
    out.append("- **Pixel chain.** Data runs from the first pixel's DOUT to the next one's DIN through the cells in"
               " this order: %s (`leds.order` = `%s`). The arrows in the diagram show it; the arrow printed on a"
               " strip or pixel board points from DIN to DOUT." % (walk, json.dumps(_order_setting(cfg))))
    if walk == "0 1 2 3 4 5 6 7 8":
        out.append("  With strip pieces, the wire from cell 2's DOUT back to cell 3's DIN (and from 5 to 6) crosses"
                   " the row; `serpentine` saves those two long wires.")
    out.append("- **Data line.** %s to %s pin 2; its pin 3 through the %s resistor to the first pixel's DIN,"
               " with the resistor at the pixel end. Keep the 3.3 V wire into the %s short (under 10 cm); the"
               " 5 V signal out of it can run further." % (boards.pin_label(cfg, cfg["leds"]["pin"]), parts.SHIFTER,
                                                           parts.RESISTOR, parts.SHIFTER))
    out += _power_notes(cfg)
    if kind == "touch":
        out.append("- **Touch pads.** 15 to %d mm square, one wire each, under 15 cm and kept apart from the LED"
                   " wires. The firmware measures each pad untouched at power-on, so keep hands off the board while"
                   " it starts (except the centre, for safe mode). `input.threshold` (%s here) is how far a reading"
                   " must move to count; `from tactictoe import check; check.touch()` shows the readings."
                   % (layout.TOUCH_PAD, cfg["input"]["threshold"]))
    if kind == "matrix":
        out.append("- **Matrix.** Each button joins its row wire to its column wire. The firmware pulls one row low"
                   " at a time (open-drain) and reads the columns with internal pull-ups, so two buttons held in one"
                   " column can't short anything.")
    if kind == "buttons":
        out.append("- **Buttons.** Each input has the chip's internal pull-up, so a button only joins its pin to"
                   " GND: no resistors.")
    if cfg["buzzer"] is not None:
        out.append("- **Buzzer.** Driven straight from %s with a square wave; a piezo draws a milliamp or so."
                   % boards.pin_label(cfg, cfg["buzzer"]))
    out += _flashing(cfg, source)
    return "\n".join(out) + "\n"


def _flashing(cfg, source):
    """The page's "Flashing" section, as lines (none for a board not known)."""
    info = boards.board_info(cfg)
    runtime = "CircuitPython" if cfg["runtime"] == "circuitpython" else "MicroPython"
    out = []
    if info:
        out += ["", "## Flashing", "",
                "1. Install %s: %s; %s." % (runtime, info[cfg["runtime"] or "micropython"] or info["micropython"],
                                            info["install"])]
        if cfg["runtime"] == "circuitpython":
            out.append("2. `make circuitpy DEST=/path/to/CIRCUITPY BOARD=%s` (the drive's mount point): it copies"
                       " `code.py`, the firmware, `%s` as `board.json`, the tables and Adafruit's libraries"
                       " (`make flash` doesn't write to CircuitPython's drive)." % (cfg["name"], source))
        else:
            out.append("2. `make flash PORT=%s BOARD=%s` (`.venv/bin/mpremote connect list` names the port)."
                       % (info["port"], cfg["name"]))
        out.append("3. The board restarts and runs its self-test: see [bring-up](../README.md#bring-up).")
        if cfg["board"] == "pico" and cfg["runtime"] != "circuitpython":
            out += ["", "Or steps 1 and 2 in one file: `make uf2 BOARD=%s`, then hold BOOTSEL while plugging the"
                        " Pico in and drag `build/tactictoe-%s.uf2` onto the RPI-RP2 drive. It replaces MicroPython"
                        " and every file on the Pico's flash, and holds the build for the Pico (RP2040), not the"
                        " Pico W or Pico 2." % (cfg["name"], cfg["name"])]
        elif cfg["board"] == "pico":
            out += ["", "Or steps 1 and 2 in one file: `make uf2 RUNTIME=circuitpython BOARD=%s`, then hold BOOTSEL"
                        " while plugging the Pico in and drag `build/tactictoe-%s.uf2` onto the RPI-RP2 drive: it"
                        " holds CircuitPython 10.2.1 for the Pico (RP2040; not the Pico W or Pico 2) and a CIRCUITPY"
                        " drive with the game, and replaces every file on the Pico's flash."
                        % (cfg["name"], cfg["name"])]
    return out


def _order_setting(cfg):
    order = cfg["leds"]["order"]
    if order == list(range(9)):
        return "row-major"
    if order == config.pixel_order("serpentine"):
        return "serpentine"
    return order

