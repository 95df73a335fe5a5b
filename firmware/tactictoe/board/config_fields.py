"""The checks of single board.json values that ``config`` and
``config_parts`` both make (a pin, a list of pins, a number, a section, its
keys, the pixel order, the input section), each raising ``ConfigError``
with the key at fault. Its own module so that ``config_parts``, loaded only
for the bought boards' parts, needs nothing of ``config``; ``startup``
unloads all three after power-on.
"""

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
