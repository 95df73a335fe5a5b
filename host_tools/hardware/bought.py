"""A bought board's page (``hardware/<board>/README.md``, beside its
``keymap.svg``): what to buy, the one-file install, what each key and the
encoder do. No pins to wire: the key map comes from ``boards.BOUGHT``, and
each shipped config of the board is checked against it here."""

import json
import os

from host_tools import flash
from host_tools.hardware import boards, keymap

HERE = "host_tools/hardware/bought.py"
CHECKED = "2026-11"  # when the part numbers, shops and prices were last looked up

# What to buy: ``[(qty, what, part number, where, about what it costs, notes)]``.
# Prices in the shop's own currency, rounded: "about". The sources are
# named in the page's footnote (SHOPPING_NOTE).
SHOPPING = {
    "macropad": [
        (1, "Adafruit MacroPad RP2040 Starter Kit", "Adafruit 5128", "Adafruit (adafruit.com) and its resellers",
         "about US$50", "the board with 12 key switches, 12 clear keycaps and a case: nothing else to buy but the"
         " cable"),
        (1, "or: Adafruit MacroPad RP2040 Bare Bones", "Adafruit 5100", "Adafruit and its resellers", "about US$35",
         "the board alone: no switches, no keycaps; add the two rows below"),
        (12, "Cherry MX-compatible key switches (with the Bare Bones)", "e.g. Adafruit 5876 (Kailh, a pack of 12)",
         "Adafruit, keyboard shops", "about US$8 for 12",
         "they snap into the board's sockets, no soldering; take ones with a slot or a clear housing that lets"
         " the light under each key shine through (Adafruit's advice)"),
        (12, "MX keycaps, clear or translucent (with the Bare Bones)", "e.g. Adafruit 5068 (clear DSA, 12)",
         "Adafruit, keyboard shops", "about US$7 for 12",
         "the game is in the colours under the keys: opaque keycaps hide it"),
        (1, "USB-C data cable", "generic: a data cable, not charge-only", "any", "",
         "to install the game and power the board"),
    ],
    "pico-rgb-keypad": [
        (1, "Pimoroni Pico RGB Keypad Base", "Pimoroni PIM551", "Pimoroni (shop.pimoroni.com) and its resellers",
         "see the shop", "16 silicone keys over 16 APA102 LEDs; the Pico plugs into its back"),
        (1, "Raspberry Pi Pico H", "Raspberry Pi Pico H (the Pico with its headers soldered on)",
         "Raspberry Pi resellers (Pimoroni, The Pi Hut, Adafruit, ...)", "see the shop",
         "a plain Pico needs its headers soldered on first; the one-file install is the build for the Pico"
         " (RP2040): not a Pico W or Pico 2, which need `make flash`"),
        (1, "micro-USB data cable", "generic: a data cable, not charge-only", "any", "",
         "to install the game and power the board"),
    ],
    "keybow2040": [
        (1, "Pimoroni Keybow 2040", "Pimoroni PIM56X (the code's last digit depends on the switches chosen)",
         "Pimoroni (shop.pimoroni.com) and its resellers", "see the shop",
         "an RP2040 board with 16 key switches, clear keycaps and an RGB LED under each key; comes assembled"),
        (1, "USB-C data cable", "generic: a data cable, not charge-only", "any", "",
         "to install the game and power the board"),
    ],
}
SHOPPING_NOTE = {
    "macropad": "Part numbers are Adafruit's product IDs: the MacroPad's two as Adafruit's own"
                " `adafruit_macropad` library and its CircuitPython page (circuitpython.org) list them; the"
                " switch and keycap packs' and the prices from public listings read in %s (the newest dated"
                " 2026-09). Prices change: check the shop." % CHECKED,
    "pico-rgb-keypad": "PIM551 is Pimoroni's product code for the Pico RGB Keypad Base (their keypad library"
                       " calls its driver `pim551`). No price could be confirmed from the sources read in %s:"
                       " see the shop." % CHECKED,
    "keybow2040": "PIM56X is the name Pimoroni's own keybow2040 library gives the Keybow 2040's hardware (its"
                  " product codes share it); the switch variants (clicky or linear) differ in the last digit."
                  " No price could be confirmed from the sources read in %s: see the shop." % CHECKED,
}


def uf2_name(board, runtime):
    """The file ``make uf2`` writes for a bought board's config: the
    Makefile's ``build/tactictoe-CONFIG.uf2``, CONFIG the runtime's config
    (``circuitpython-NAME`` with RUNTIME=circuitpython)."""
    return "build/tactictoe-%s.uf2" % boards.BOUGHT[board]["configs"][runtime]


# What a player types as BOARD= for each bought board (the MicroPython
# config's name; RUNTIME=circuitpython picks its CircuitPython config).
BOUGHT_MAKE_BOARD = {board: info["configs"]["micropython"] for board, info in boards.BOUGHT.items()}


def _install(board):
    info = boards.BOUGHT[board]
    name = BOUGHT_MAKE_BOARD[board]
    out = uf2_name(board, "micropython")
    if board == "macropad":
        bootloader = ("Hold the encoder's knob pressed while you press the reset button on the MacroPad's side (or"
                      " while you plug it in), then let go: the board shows up as a USB drive called RPI-RP2.")
        stock = ("Adafruit's CircuitPython for the MacroPad, the `.uf2` from"
                 " <https://circuitpython.org/board/adafruit_macropad_rp2040/>")
    elif board == "keybow2040":
        bootloader = ("Unplug the Keybow, hold the BOOT button on its top edge (\"the button on the top edge\", as"
                      " Pimoroni's keybow2040 README puts it) while you plug the cable back in, then let go: it shows"
                      " up as a USB drive called RPI-RP2.")
        stock = ("CircuitPython for the Keybow 2040, the `.uf2` from"
                 " <https://circuitpython.org/board/pimoroni_keybow2040/> (Pimoroni's keybow2040 library runs"
                 " on it)")
    else:
        bootloader = ("Hold the Pico's BOOTSEL button while you plug it in, then let go: it shows up as a USB drive"
                      " called RPI-RP2.")
        stock = ("MicroPython for the Pico, the `.uf2` from <https://micropython.org/download/RPI_PICO/>, or"
                 " CircuitPython's from <https://circuitpython.org/board/raspberry_pi_pico/>")
    return [
        "## Install: one file",
        "",
        "In a clone of this repository (`make venv` once), one command makes the one file, runtime, game and"
        " tables together. Each command writes a file of its own, named after the config it uses.",
        "",
        "```sh",
        "make uf2 BOARD=%s                          # MicroPython: %s" % (name, out),
        "make uf2 BOARD=%s RUNTIME=circuitpython    # CircuitPython 10.2.1 and a CIRCUITPY drive: %s"
        % (name, uf2_name(board, "circuitpython")),
        "```",
        "",
        "1. %s" % bootloader,
        "2. Drag the `.uf2` file onto RPI-RP2. The board writes it, restarts by itself and runs its self-test"
        " (the grid's lights one by one, then red, green, blue), then the menu.",
        "",
        "The file replaces the runtime and the files on the board: copy off anything you want to keep. The"
        " MicroPython one holds"
        " MicroPython v1.28.0's build for the Raspberry Pi Pico%s and the game as `make flash` installs it; the"
        " CircuitPython one holds CircuitPython 10.2.1 (%s) and a CIRCUITPY drive with the game, which"
        " `make circuitpy DEST=... BOARD=%s` can update later. Both runtimes are the official builds, which the"
        " first `make uf2` downloads from their publishers (or `make firmware`; see"
        " [the README](../../README.md#commands))."
        % ({"macropad": " (it runs on the MacroPad's RP2040, pins by number)",
            "keybow2040": " (it runs on the Keybow's RP2040, pins by number)"}.get(board, ""),
           {"macropad": "Adafruit's build for the MacroPad",
            "keybow2040": "its own build for the Keybow 2040"}.get(board, "its build for the Pico"),
           info["configs"]["circuitpython"]),
        "",
        "**Going back** to what the board ran before: put it in bootloader mode the same way and drag %s onto"
        " RPI-RP2. If CircuitPython then still starts the game, delete `code.py`, `board.json` and"
        " `lib/tactictoe/` from its CIRCUITPY drive (or erase the whole flash first with Raspberry Pi's"
        " `flash_nuke.uf2`, from the Pico's documentation)." % stock,
    ]


def _keys(board):
    info = boards.BOUGHT[board]
    cols = info["columns"]
    roles = {key: role for role, key in info["keys"].items()}
    rows = ["| key | what it does |", "|---|---|"]

    def where(key):
        row, col = key // cols, key % cols
        return "%s (row %d, column %d)" % (boards.key_name(board, key), row + 1, col + 1)

    def names(keys):
        if info.get("switches"):
            return ", ".join(boards.key_name(board, k) for k in keys)
        return "keys " + ", ".join(str(k) for k in keys)

    for key in sorted(roles):
        label, what = boards.ROLES[roles[key]]
        rows.append("| %s: **%s** | %s |" % (where(key), label, what[0].upper() + what[1:]))
    rows.append("| %s: **the grid**, cells 0 to 8 | Tap a cell to play there; in the menu, tap the option a"
                " cell shows. A move is made as the key goes down. Hold a cell about 1.5 s: back to the"
                " menu. |" % names(info["grid"]))
    if info["encoder"]:
        rows.append("| the encoder: **turn** | Pick an option of the menu screen (the option picked pulses) |")
        rows.append("| the encoder: **press** | %s |" % boards.ROLES["select"][1].capitalize())
    unused = boards.unused_keys(board)
    if unused:
        rows.append("| %s | Unused: they stay dark |" % names(unused))
    out = ["## The keys", "", "![key map](keymap.svg)", ""]
    if board == "macropad":
        out.append("Hold the MacroPad with its screen at the top and the knob at the top right. Its 12 keys are"
                   " numbered across each row from the top left, 0 to 11. The top row, right under the screen,"
                   " holds the three function keys; the 3 x 3 below it is the board (cell %d is key %d, cell 8 key"
                   " %d)." % (0, info["grid"][0], info["grid"][-1]))
    elif board == "keybow2040":
        out.append("Hold the Keybow with its USB-C connector at the top, as Pimoroni's keybow2040 library does. Its"
                   " 16 keys are its switches SW0 to SW15 (GPIO 21 down to 6), each over its own LED: SW0 at the"
                   " bottom left, up each column to SW15 at the top right. The 3 x 3 at the top left is the board"
                   " (cell 0 is SW3, cell 8 SW9); the column beside it holds the function keys; the bottom row is"
                   " unused: the same places as on Pimoroni's Pico RGB Keypad. At power-on the self-test lights"
                   " cells 0 to 8 in reading order, so if the light walks any other way, turn the Keybow until it"
                   " walks across from the top left.")
    else:
        out.append("The 16 keys are numbered across each row, 0 to 15, as the keypad's expander reads them"
                   " (Pimoroni's own library numbers them the same way). The 3 x 3 in the corner of key 0 is the"
                   " board; the column beside it holds the function keys; the row under it is unused. Hold the"
                   " keypad with key 0 at the top left: at power-on the self-test lights cells 0 to 8 in reading"
                   " order, so if the light walks any other way, turn the keypad until it walks across from the"
                   " top left.")
    out += ["", *rows, ""]
    if info["screen"]:
        out.append("The screen says everything else: the menu in words, whose move it is, the game, who plays"
                   " and the level, what the hints mean, the result and the running score. Its bottom line names"
                   " what the three keys under it do right now.")
    else:
        out.append("There is no screen: the menu is in colours, as on the boards you solder yourself"
                   " ([the README](../../README.md#the-menu) shows every screen), and each function key's light"
                   " says whether it can do something now (Undo only when there is a move to undo).")
    return out


def page(board):
    """The bought board's page as Markdown text."""
    info = boards.BOUGHT[board]
    out = ["# %s" % info["title"], "",
           "<!-- Generated by `make hardware` (%s) from the key map in host_tools/hardware/boards.py: edit those,"
           " not this page. -->" % HERE, ""]
    if board == "macropad":
        out.append("Bought ready-made: 12 lit keys, a knob and a screen on an RP2040. No soldering and no wiring:"
                   " buy it, drag one file onto it, play. Nine keys are the board, three keys and the knob do the"
                   " rest, and the screen says what is going on.")
    elif board == "keybow2040":
        out.append("Bought ready-made: a 4 x 4 keypad of mechanical keys on an RP2040, an RGB LED under each key"
                   " (driven by an IS31FL3731 chip). No soldering and no wiring: buy it, drag one file onto it,"
                   " play. The 3 x 3 corner is the board, three keys beside it do the rest.")
    else:
        out.append("Bought ready-made: a 4 x 4 keypad of lit silicone keys that a Raspberry Pi Pico plugs into."
                   " No soldering with a Pico H: buy the two, plug the Pico in, drag one file onto it, play. The"
                   " 3 x 3 corner is the board, three keys beside it do the rest.")
    out += ["", "## What to buy", "",
            "| qty | what | part number | where | costs | notes |", "|---|---|---|---|---|---|"]
    for row in SHOPPING[board]:
        out.append("| %d | %s | %s | %s | %s | %s |" % row)
    out += ["", SHOPPING_NOTE[board], ""]
    if board == "pico-rgb-keypad":
        out += ["The keypad comes in a few pieces held by four bolts: tighten them evenly and gently (too tight"
                " and keys read as held down). Plug the Pico H into the header on the keypad's back, the way"
                " round Pimoroni's product page shows: the header is not symmetric, and a Pico the wrong way"
                " round can be damaged.", ""]
    out += _install(board) + [""] + _keys(board)
    configs = info["configs"]
    out += ["", "## Configs", "",
            "The board's wiring is in `firmware/boards/%s.json` (MicroPython) and `firmware/boards/%s.json`"
            " (CircuitPython), installed on the board as `board.json`; `make hardware` checks both against this"
            " page's key map. [docs/board-config.md](../../docs/board-config.md) lists every key."
            % (configs["micropython"], configs["circuitpython"])]
    return "\n".join(out) + "\n"


def check_configs():
    """HardwareError when a shipped config of a bought board disagrees with
    its key map."""
    for name in flash.shipped_boards():
        with open(os.path.join(flash.BOARDS, name + ".json")) as f:
            try:
                raw = json.load(f)
            except ValueError:
                continue  # flash.board_config says what is wrong with it
        if isinstance(raw, dict):
            boards.check_keymap(raw)


def files():
    """``[(path under hardware/, text)]`` of every bought board: its page and
    its key map, after checking the shipped configs against the key maps."""
    check_configs()
    out = []
    for board in boards.BOUGHT:
        out += [(board + "/README.md", page(board)), (board + "/keymap.svg", keymap.keymap_svg(board))]
    return out
