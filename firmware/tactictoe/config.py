"""The board's wiring and settings, from ``board.json`` on the device.

``load()`` never fails, whatever the file holds (any bytes, any size, any
JSON value at any key): a missing or invalid file gives the default config
(the ``pico-buttons`` board) plus a message naming the key and what is wrong,
which the board shows at start-up. The keys are documented in
docs/board-config.md; ``boards/*.json`` are the shipped configs.
"""

import gc
import json

# A board.json is well under 1 KB: read at most this much, so that a huge
# file can't fill the heap.
MAX_BYTES = 4096

# The documented defaults, one per kind of board (the same as the files in
# boards/): what a board falls back to when its board.json can't be used.
DEFAULT = {
    "name": "pico-buttons",
    "board": "pico",
    "runtime": "micropython",
    "leds": {"pin": 16, "order": "row-major", "colour_order": "GRB", "brightness": 0.25},
    "input": {"kind": "buttons", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]},
    "buzzer": None,
}
# The other kinds of board's defaults, as JSON text that only those boards
# parse: a board keeps every name its modules mention in RAM for good
# (docs/performance.md), and a Pico never needs these.
_OTHERS = {
    "esp32": """{"name": "esp32-touch", "board": "esp32-devkit", "runtime": "micropython",
        "leds": {"pin": 18, "order": "row-major", "colour_order": "GRB", "brightness": 0.25},
        "input": {"kind": "touch", "pins": [4, 2, 15, 13, 12, 14, 27, 33, 32], "threshold": 0.15,
                  "direction": "auto"},
        "buzzer": 19}""",
    "circuitpython": """{"name": "circuitpython-pico", "board": "pico", "runtime": "circuitpython",
        "leds": {"pin": "GP16", "order": "row-major", "colour_order": "GRB", "brightness": 0.25},
        "input": {"kind": "buttons", "pins": ["GP2", "GP3", "GP4", "GP5", "GP6", "GP7", "GP8", "GP9", "GP10"]},
        "buzzer": null}""",
}


def default_for(platform):
    """The default config for ``platform``: "circuitpython", "esp32", or
    anything else (a Pico, the simulator)."""
    text = _OTHERS.get(platform)
    return json.loads(text) if text else DEFAULT


# Colour-blind-safe defaults (Okabe-Ito hues): marks differ in hue and the
# hints also differ in brightness, so no pair relies on red/green alone.
COLOURS = {
    "x": (255, 110, 0),  # orange
    "o": (0, 110, 255),  # blue
    "win": (230, 230, 230),  # the "hints on" menu option
    "draw": (150, 130, 0),  # the empty cells after a draw
    "error": (255, 0, 0),
    "menu": (0, 160, 120),
    "notice": (255, 180, 0),
}

TIMING = {
    "think_ms": 700,  # the AI's visible "thinking" before it moves
    "long_press_ms": 1500,  # hold any cell this long: back to the menu
    "debounce_ms": 25,
    "scan_ms": 5,  # how often the keys are read
    "frame_ms": 20,  # how often the LEDs are redrawn
}

RUNTIMES = ("micropython", "circuitpython")
# The development boards whose pinouts the hardware docs know, and the chip
# family (sys.platform) each one runs.
# The bought boards: the Adafruit MacroPad RP2040 and a Pico on Pimoroni's
# Pico RGB Keypad Base (PIM551), and the Pimoroni Keybow 2040 (PIM56X).
BOARDS = {"pico": "rp2", "esp32-devkit": "esp32", "macropad": "rp2", "pico-rgb-keypad": "rp2", "keybow2040": "rp2"}
INPUT_KINDS = ("buttons", "matrix", "touch", "tca9555")


class ConfigError(ValueError):
    """An invalid config; the message starts with the key at fault."""


def _pin(value, key):
    # MicroPython names pins by GPIO number, CircuitPython by board name ("GP16").
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ConfigError("%s: expected a pin number or name, got %r" % (key, value))
    if isinstance(value, int) and value < 0:
        raise ConfigError("%s: pin numbers can't be negative, got %d" % (key, value))
    if isinstance(value, str) and not value:
        raise ConfigError("%s: empty pin name" % key)
    return value


def _pins(value, count, key):
    if not isinstance(value, list) or len(value) != count:
        raise ConfigError("%s: expected a list of %d pins, got %r" % (key, count, value))
    out = [_pin(v, "%s[%d]" % (key, i)) for i, v in enumerate(value)]
    for i in range(count):
        if out[i] in out[:i]:
            raise ConfigError("%s: pin %r is listed twice" % (key, out[i]))
    return out


def _number(value, lo, hi, key):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise ConfigError("%s: expected a number from %s to %s, got %r" % (key, lo, hi, value))
    return value


def _section(raw, key):
    value = raw.get(key)
    if not isinstance(value, dict):
        raise ConfigError("%s: missing, or not an object" % key)
    return value


def _check_keys(obj, allowed, where):
    for k in obj:
        if k not in allowed:
            raise ConfigError("%s%s: unknown key (known: %s)" % (where, k, ", ".join(allowed)))


def pixel_order(order, key="leds.order", count=9):
    """``pixel[cell]``: which pixel in the chain (of ``count``) lights each cell."""
    if order == "row-major":
        return list(range(9))
    if order == "serpentine":  # the middle row runs right to left
        return [0, 1, 2, 5, 4, 3, 6, 7, 8]
    if isinstance(order, list) and len(order) == 9:
        if any(isinstance(p, bool) or not isinstance(p, int) for p in order) or (
                sorted(order) != list(range(9)) if count == 9 else len(set(order)) < 9 or min(order) < 0
                or max(order) >= count):
            if count == 9:
                raise ConfigError("%s: a list must hold each pixel 0-8 exactly once, got %r" % (key, order))
            raise ConfigError("%s: a list must hold 9 different pixels from 0 to %d, got %r" % (key, count - 1, order))
        return list(order)
    raise ConfigError("%s: expected \"row-major\", \"serpentine\" or a list of 9 pixel numbers, got %r" % (key, order))


def _colour(value, key):
    if not (isinstance(value, list) and len(value) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)):
        raise ConfigError("%s: expected [r, g, b] with 0-255 each, got %r" % (key, value))
    return tuple(value)


def validate(raw):
    """The normalised config for ``raw`` (a decoded board.json); ConfigError
    names the first problem."""
    if not isinstance(raw, dict):
        raise ConfigError("top level: expected an object {...}")
    _check_keys(raw, ("name", "board", "runtime", "leds", "input", "buzzer", "extra", "encoder", "screen",
                      "colours", "timing"), "")
    name = raw.get("name", "custom")
    if not isinstance(name, str):
        raise ConfigError("name: expected text, got %r" % (name,))
    board = raw.get("board")  # None: not stated, any board
    if board is not None and not (isinstance(board, str) and board in BOARDS):
        raise ConfigError("board: expected one of %s, or leave it out, got %r" % (", ".join(sorted(BOARDS)), board))
    runtime = raw.get("runtime")  # None: not stated, any runtime
    if runtime is not None and not (isinstance(runtime, str) and runtime in RUNTIMES):
        raise ConfigError("runtime: expected one of %s, got %r" % (", ".join(RUNTIMES), runtime))

    if _newer(raw):  # a bought board's parts: validated by a module only such boards load
        from . import config_parts

        hw = config_parts.hardware(raw, runtime)
    else:
        hw = _hardware(raw, runtime)

    colours = _named(raw, "colours", COLOURS, "[r, g, b]", "colour", _colour)
    timing = _named(raw, "timing", TIMING, "milliseconds", "setting",
                    lambda v, key: int(_number(v, 1, 60000, key)))

    out = {"name": name, "board": board, "runtime": runtime, "colours": colours, "timing": timing}
    out.update(hw)
    return out


def _newer(raw):
    """True if ``raw`` uses the keys of the bought boards' parts (APA102s,
    an expander, extra keys, an encoder, a screen, a speaker's amplifier)."""
    leds = raw.get("leds")
    inp = raw.get("input")
    return ("extra" in raw or "encoder" in raw or "screen" in raw or isinstance(raw.get("buzzer"), dict)
            or isinstance(leds, dict) and any(k in leds for k in ("kind", "count", "spi", "sck", "mosi", "cs"))
            or isinstance(inp, dict) and inp.get("kind") == "tca9555")


def _hardware(raw, runtime):
    """The LEDs, keys and buzzer of a board of loose parts: NeoPixels, nine
    keys, perhaps a buzzer, and none of the bought boards' parts."""
    leds = _section(raw, "leds")
    _check_keys(leds, ("pin", "order", "colour_order", "brightness"), "leds.")
    if "pin" not in leds:
        raise ConfigError("leds.pin: missing (the GPIO of the first pixel's data input)")
    out_leds = {"kind": "ws2812", "count": 9, "pin": _pin(leds["pin"], "leds.pin"),
                "order": pixel_order(leds.get("order", "row-major")),
                "colour_order": _colour_order(leds),
                "brightness": _number(leds.get("brightness", 0.25), 0.01, 1.0, "leds.brightness")}
    out_input = input_section(raw)
    input_pins = out_input.get("pins", []) + out_input.get("rows", []) + out_input.get("cols", [])
    if out_leds["pin"] in input_pins:
        raise ConfigError("leds.pin: pin %r is also an input" % (out_leds["pin"],))
    buzzer = raw.get("buzzer")
    if buzzer is not None:
        buzzer = _pin(buzzer, "buzzer")
        if buzzer == out_leds["pin"] or buzzer in input_pins:
            raise ConfigError("buzzer: pin %r is already in use" % (buzzer,))
    if runtime == "circuitpython":
        for pin in [out_leds["pin"], buzzer] + input_pins:
            if isinstance(pin, int):
                raise ConfigError("runtime: CircuitPython names its pins (\"GP16\"), got the number %d" % pin)
    return {"leds": out_leds, "input": out_input, "buzzer": buzzer, "buzzer_enable": None, "extra": [],
            "encoder": None, "screen": None}


def _colour_order(leds):
    colour_order = leds.get("colour_order", "GRB")
    if not isinstance(colour_order, str) or sorted(colour_order) != ["B", "G", "R"]:
        raise ConfigError("leds.colour_order: expected an order of R, G and B such as \"GRB\", got %r"
                          % (colour_order,))
    return colour_order


def input_section(raw, kinds=("buttons", "matrix", "touch")):
    """``input`` of buttons, a matrix or touch pads, checked (its kind
    outside ``kinds``: None, for the caller)."""
    inp = _section(raw, "input")
    kind = inp.get("kind")
    if kind not in INPUT_KINDS:
        raise ConfigError("input.kind: expected one of %s, got %r" % (", ".join(INPUT_KINDS), kind))
    if kind not in kinds:
        return None
    if kind == "matrix":
        _check_keys(inp, ("kind", "rows", "cols"), "input.")
        out = {"kind": kind, "rows": _pins(inp.get("rows"), 3, "input.rows"),
               "cols": _pins(inp.get("cols"), 3, "input.cols")}
        for p in out["rows"]:
            if p in out["cols"]:
                raise ConfigError("input.cols: pin %r is also a row" % (p,))
        return out
    allowed = ("kind", "pins", "threshold", "direction") if kind == "touch" else ("kind", "pins")
    _check_keys(inp, allowed, "input.")
    out = {"kind": kind, "pins": _pins(inp.get("pins"), 9, "input.pins")}
    if kind == "touch":
        out["threshold"] = _number(inp.get("threshold", 0.15), 0.01, 0.9, "input.threshold")
        direction = inp.get("direction", "auto")
        if direction not in ("auto", "falls", "rises"):
            raise ConfigError("input.direction: expected \"auto\", \"falls\" or \"rises\", got %r" % (direction,))
        out["direction"] = direction
    return out


def _named(raw, key, defaults, shape, kind, check):
    """``defaults`` with the entries ``raw[key]`` overrides, each checked."""
    out = dict(defaults)
    given = raw.get(key, {})
    if not isinstance(given, dict):
        raise ConfigError("%s: expected an object of name: %s" % (key, shape))
    for k, v in given.items():
        if k not in defaults:
            raise ConfigError("%s.%s: unknown %s (known: %s)" % (key, k, kind, ", ".join(sorted(defaults))))
        out[k] = check(v, key + "." + k)
    return out


def other_chip(cfg, platform):
    """The chip ``cfg``'s board has, if ``platform`` (sys.platform) is a
    different chip, else None. On a board (not the simulator or
    CircuitPython), a config written for the other chip names pins this one
    lacks or uses for something else."""
    chip = BOARDS.get(cfg["board"])
    if chip and platform in BOARDS.values() and platform != chip:
        return chip
    return None


def one_line(text):
    """``text``, with control characters and line separators (a key may hold
    a newline) escaped: a message is one line on the console."""
    for c in text:
        if c < " " or "\x7f" <= c <= "\x9f" or c in "\u2028\u2029":
            return repr(text)[1:-1]
    return text


def strict_problem(text):
    """What makes ``text`` not strict JSON, or None. MicroPython's ``json``
    reads a missing comma or colon, an extra comma, a number with a leading
    zero (``016``) or none after its point (``1.``), a ``\\u`` without 4 hex
    digits, an unknown escape (``\\q``) and a tab or line break in a string
    as if they were right; the host's tools (and other boards) refuse such a
    file. Only called on text ``json`` has read."""
    stack = []  # type: list  # the containers open at this point, "{" or "["
    want = "value"
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
            continue
        at = i
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                c = text[i]
                if c < " ":  # a tab or a line break, unescaped
                    return "a control character in a string, line %d" % (text.count("\n", 0, i) + 1)
                if c == "\\":
                    c = text[i + 1:i + 2]
                    if c == "u":
                        c = text[i + 2:i + 6]
                        if len(c) < 4 or c.strip("0123456789abcdefABCDEF"):
                            return "a \\u not followed by 4 hex digits, line %d" % (text.count("\n", 0, i) + 1)
                        i += 4
                    elif c not in '"\\/bfnrt' or not c:
                        return "an escape JSON does not have, line %d" % (text.count("\n", 0, i) + 1)
                    i += 1
                i += 1
            i += 1
            kind = "string"
        elif c in "{}[],:":
            i += 1
            kind = c
        else:
            while i < n and text[i] not in ' \t\r\n,:]}[{"':
                i += 1
            kind = "scalar"
            if c == "-":
                at += 1
            # Numbers: no leading zero (016), a digit after the point (1.)
            if text[at:at + 1] == "0" and "0" <= text[at + 1:at + 2] <= "9":
                return "a number with a leading zero, line %d" % (text.count("\n", 0, at) + 1)
            c = text.find(".", at, i)
            if c >= 0 and not "0" <= text[c + 1:c + 2] <= "9":
                return "a number with no digit after its point, line %d" % (text.count("\n", 0, at) + 1)
        closes = (want == "key}" and kind == "}") or (want in ("value]", ",]") and kind == "]") or (
            want == ",}" and kind == "}")
        if closes:
            stack.pop()
        elif want in ("value", "value]") and kind in ("string", "scalar", "{", "["):
            if kind in "{[":
                stack.append(kind)
                want = "key}" if kind == "{" else "value]"
                continue
        elif want in ("key", "key}") and kind == "string":
            want = ":"
            continue
        elif want == ":" and kind == ":":
            want = "value"
            continue
        elif want in (",}", ",]") and kind == ",":
            want = "key" if want == ",}" else "value"
            continue
        else:
            line = text.count("\n", 0, at) + 1
            if want in (",}", ",]", "end"):
                return "a missing comma, line %d" % line if want != "end" else "text after the end, line %d" % line
            if want == ":":
                return "a missing colon, line %d" % line
            if kind in (",", "}", "]"):
                return "an extra comma, line %d" % line
            return "%s where a key should be, line %d" % (kind, line)
        want = "end" if not stack else ",}" if stack[-1] == "{" else ",]"
    return None


def load(path="board.json", platform=None):
    """``(config, problem)``: the board's config, or the default one for
    ``platform`` (see default_for) and a one-line message saying why the file
    could not be used."""
    try:
        return _load(path, platform)
    except Exception as e:  # out of memory while checking or reporting: still never a brick
        why = e
    # Out of the handler, what the failed load held is garbage: collect it
    # before the default is checked, or that can run out of memory too.
    gc.collect()
    default = default_for(platform)
    return validate(default), "%s could not be used (%r): using the default %s config" % (
        path, why, default["name"])


def decode(data, path):
    """The JSON text of a board.json's bytes ``data`` (None: the file at
    ``path`` is over MAX_BYTES, and was not read), as a board reads it;
    ConfigError, starting with ``path``, for a file a board refuses. The
    host's tools refuse the same files with this same check."""
    if data is None or len(data) > MAX_BYTES:
        raise ConfigError("%s is over %d bytes, too big for a board config" % (path, MAX_BYTES))
    try:
        text = data.decode()
    except UnicodeError:
        raise ConfigError("%s is not UTF-8 text" % path)
    if text.startswith("\ufeff"):  # the byte-order mark some editors write
        text = text[1:]
    return text


def _load(path, platform):
    default = default_for(platform)
    using = "using the default %s config" % default["name"]
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            f.seek(0)
            # Only a plausible file is read, and only as much as it holds.
            data = f.read(size) if size <= MAX_BYTES else None
    except OSError:
        return validate(default), "%s not found: %s" % (path, using)
    except MemoryError:
        return validate(default), "%s: no memory to read it: %s" % (path, using)
    try:
        text = decode(data, path)
    except ConfigError as e:
        return validate(default), "%s: %s" % (e, using)
    try:
        raw = json.loads(text)
    except Exception as e:  # ValueError; also MemoryError or RecursionError for deep nesting
        return validate(default), "%s is not valid JSON (%s): %s" % (path, e, using)
    sloppy = strict_problem(text)
    if sloppy:  # read as meant here, but worth fixing before it meets another tool
        print("%s: not strict JSON (%s): this board reads it, but make flash and other tools will refuse it"
              % (path, sloppy))
    del data, text
    try:
        cfg = validate(raw)
    except ConfigError as e:
        return validate(default), "%s: %s; %s" % (path, one_line(str(e)), using)
    chip = other_chip(cfg, platform)
    if chip:
        return validate(default), "%s: board: %s is an %s board but this is an %s; %s" % (
            path, cfg["board"], chip, platform, using)
    return cfg, None
