"""What a board config means electrically: the development boards' headers
and pins, the wires a config names, and the checks that refuse pins that
can't do their job (a Pico GPIO off the header, an ESP32 flash pin, ...)."""


class HardwareError(Exception):
    """A config whose pins can't work on its board, as one line."""


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


PIXEL_MA = 60  # a WS2812B at full white: about 20 mA per colour
USB_MA = 500  # what a USB 2.0 port promises


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


def undrawn(cfg):
    """What of a valid config these drawings can't show, in words: they
    know a WS2812 chain, keys on GPIOs (or a matrix, or touch pads) and a
    buzzer on a pin, not a bought board's parts."""
    parts = []
    if cfg["leds"]["kind"] != "ws2812":
        parts.append("%s LEDs (leds.kind)" % cfg["leds"]["kind"].upper())
    if cfg["input"]["kind"] not in ("buttons", "matrix", "touch"):
        parts.append("%s key expander (input.kind)" % cfg["input"]["kind"].upper())
    for key, words in (("extra", "extra keys (extra)"), ("encoder", "encoder (encoder)"), ("screen", "screen (screen)"),
                       ("buzzer_enable", "amplifier's enable pin (buzzer.enable)")):
        if cfg.get(key):
            parts.append(words)
    return parts


def check(cfg):
    """HardwareError naming a part these drawings can't show (``undrawn``),
    or the first pin that can't do its job on the config's board (when
    the config says which board)."""
    parts = undrawn(cfg)
    if parts:
        raise HardwareError("%s: the wiring drawings know WS2812 (NeoPixel) LEDs and keys on GPIOs; they can't draw"
                            " its %s" % (cfg["name"], ", ".join(parts)))
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


def board_info(cfg):
    """The facts about the config's development board, or None."""
    return BOARDS.get(cfg["board"])


def power(cfg):
    """``((name, header pin), (name, header pin))`` of the board's 5 V and GND
    (header pin None where unknown)."""
    info = board_info(cfg)
    return (info["v5"], info["gnd"]) if info else (("5V", None), ("GND", None))


def touch_channel(cfg, pin):
    """"T2" for an ESP32 touch pin, else ""."""
    n = gpio(pin)
    return "T%d" % ESP32_TOUCH[n] if cfg["board"] == "esp32-devkit" and n in ESP32_TOUCH else ""


def sorted_signals(cfg):
    """``signals(cfg)`` in header order on a Pico (the order you meet them
    soldering), else by GPIO."""
    def key(sig):
        n = gpio(sig[2])
        if cfg["board"] == "pico" and n in PICO_HEADER:
            return (PICO_HEADER[n], 0)
        return (n if n is not None else 999, str(sig[2]))
    return sorted(signals(cfg), key=key)


# --- boards bought ready-made ---------------------------------------------------

# What each role of an extra key does (the config's ``extra[j]["role"]``):
# its label on the key map, and what it does, as the pages say it.
ROLES = {
    "menu": ("Menu", "leave the game; in the menu, go back"),
    "hint": ("Hint", "show the hints for this move; press again to hide them"),
    "undo": ("Undo", "undo your last move and the board's reply"),
    "select": ("Select", "choose the option the encoder picked"),
}

# The bought boards and their key maps: the one table the pages and the
# pictures are drawn from. Keys are numbered row-major from the top left
# (``columns`` to a row); ``grid[c]`` is the key of cell c, ``keys`` the
# function keys by role. Each shipped config that names one of these boards
# (its "board") must agree (``check_keymap``), so the pictures can't drift
# from what the firmware reads.
BOUGHT = {
    "macropad": {
        "title": "Adafruit MacroPad RP2040",
        "columns": 3,
        "rows": 4,
        "grid": (3, 4, 5, 6, 7, 8, 9, 10, 11),
        "keys": {"menu": 0, "hint": 1, "undo": 2},
        # key k on GPIO k + 1 (CircuitPython's board.KEY<k + 1>), the
        # encoder's push switch on GPIO 0 (board.ENCODER_SWITCH)
        "key_gpio": 1,
        "encoder": True,
        "screen": True,
        "configs": {"micropython": "macropad", "circuitpython": "circuitpython-macropad"},
    },
    "pico-rgb-keypad": {
        "title": "Pimoroni Pico RGB Keypad Base",
        "columns": 4,
        "rows": 4,
        "grid": (0, 1, 2, 4, 5, 6, 8, 9, 10),
        "keys": {"menu": 3, "hint": 7, "undo": 11},
        # keys read through its TCA9555 (the config's "keys"/"key" are its
        # input bits, key k on bit k); LED k under key k
        "key_gpio": None,
        "encoder": False,
        "screen": False,
        "configs": {"micropython": "keypad", "circuitpython": "circuitpython-keypad"},
    },
    "keybow2040": {
        "title": "Pimoroni Keybow 2040",
        "columns": 4,
        "rows": 4,
        # held with the USB connector at the top, as the keypad: the same
        # keys in the same places
        "grid": (0, 1, 2, 4, 5, 6, 8, 9, 10),
        "keys": {"menu": 3, "hint": 7, "undo": 11},
        # the board's own names: the switch (SW0-SW15, on GPIO 21 down to 6,
        # its LED k under SW k) at each place, SW0 at the bottom left and up
        # each column (Pimoroni's keybow2040 library)
        "switches": (3, 7, 11, 15, 2, 6, 10, 14, 1, 5, 9, 13, 0, 4, 8, 12),
        "key_gpio": None,
        "encoder": False,
        "screen": False,
        "configs": {"micropython": "keybow", "circuitpython": "circuitpython-keybow"},
    },
}
SWITCH = "encoder switch"


def unused_keys(board):
    """The keys of a bought board that do nothing (dark)."""
    info = BOUGHT[board]
    used = set(info["grid"]) | set(info["keys"].values())
    return [k for k in range(info["columns"] * info["rows"]) if k not in used]


def key_name(board, key):
    """What the board calls ``key`` (a place, row-major): "key 3", or the
    Keybow's "SW15"."""
    switches = BOUGHT[board].get("switches")
    return "SW%d" % switches[key] if switches else "key %d" % key


def led_key(board, led):
    """The key whose LED is ``led`` (the config's pixel number): LED k is
    under key k, or on the Keybow under SW k."""
    switches = BOUGHT[board].get("switches")
    return switches.index(led) if switches and led in switches else led


def led_of(board, key):
    """The LED under ``key`` (a place): ``led_key``'s inverse."""
    switches = BOUGHT[board].get("switches")
    return switches[key] if switches else key


def key_of(board, where):
    """The key a config entry names on a bought board: ``where`` is the
    entry's pin (``4``, ``"KEY5"``, ``"ENCODER_SWITCH"``, the Keybow's
    ``"SW3"`` or GPIO ``18``) or, on a board read through an expander, its
    key number. ``SWITCH`` for the encoder's switch; None for a pin that is
    no key."""
    switches = BOUGHT[board].get("switches")
    if switches:  # SW k on GPIO 21 - k
        if isinstance(where, str) and where.upper().startswith("SW") and where[2:].isdigit():
            sw = int(where[2:])
        else:
            n = gpio(where) if isinstance(where, (int, str)) else None
            sw = 21 - n if n is not None else None
        return switches.index(sw) if sw in switches else None
    base = BOUGHT[board]["key_gpio"]
    if base is None:
        return where if isinstance(where, int) else None
    if where in (0, "ENCODER_SWITCH", "GP0"):
        return SWITCH
    if isinstance(where, str) and where.upper().startswith("KEY") and where[3:].isdigit():
        return int(where[3:]) - 1
    n = gpio(where) if isinstance(where, (int, str)) else None
    return n - base if n is not None and base <= n < base + 12 else None


def check_keymap(raw):
    """HardwareError when the config ``raw`` (the JSON as read) of a bought
    board disagrees with ``BOUGHT``'s key map: its grid keys, its extra keys'
    roles, the LEDs under them, the encoder and the screen. Quiet for a
    config of any other board."""
    board = raw.get("board")
    if board not in BOUGHT:
        return
    info = BOUGHT[board]
    name = raw.get("name", board)
    inp = raw.get("input", {})
    found = inp.get("keys", inp.get("pins", []))
    grid = [key_of(board, p) for p in found]
    if grid != list(info["grid"]):
        raise HardwareError("%s: its grid is on keys %s, the key map (host_tools/hardware/boards.py) says %s"
                            % (name, grid, list(info["grid"])))
    order = raw.get("leds", {}).get("order")
    if not isinstance(order, list) or [led_key(board, p) for p in order] != list(info["grid"]):
        raise HardwareError("%s: leds.order is %s: the LED under each grid key is %s"
                            % (name, order, [led_of(board, k) for k in info["grid"]]))
    roles = {}
    for j, entry in enumerate(raw.get("extra", [])):
        role = entry.get("role")
        key = key_of(board, entry.get("key", entry.get("pin")))
        if role == "select":
            if key != SWITCH or not info["encoder"]:
                raise HardwareError("%s: extra[%d] (select) is not the encoder's switch" % (name, j))
            continue
        if info["keys"].get(role) != key:
            raise HardwareError("%s: extra[%d] (%s) is key %s, the key map says key %s"
                                % (name, j, role, key, info["keys"].get(role)))
        if entry.get("led") is None or led_key(board, entry.get("led")) != key:
            raise HardwareError("%s: extra[%d] (%s) lights LED %s, not the one under key %s"
                                % (name, j, role, entry.get("led"), key))
        roles[role] = key
    if roles != info["keys"]:
        raise HardwareError("%s: its extra keys are %s, the key map says %s" % (name, roles, info["keys"]))
    for part in ("encoder", "screen"):
        if (raw.get(part) is not None) != info[part]:
            raise HardwareError("%s: the %s has %s %s" % (name, info["title"], "a" if info[part] else "no", part))
