"""The board.json keys of the bought boards' parts (docs/board-config.md):
APA102 LEDs or an IS31FL3731 LED driver and a longer chain (``leds.kind``,
``leds.count``), keys through a TCA9555 expander, extra keys, a rotary
encoder, a screen, a speaker's amplifier. ``config.validate`` imports this
module only for a config that uses them, so a board of loose parts never
loads it.
"""

from . import config
from .config import ConfigError, _check_keys, _number, _pin, _pins, _section, pixel_order

LED_KINDS = ("ws2812", "apa102", "is31fl3731")
# What the board's extra keys do: back to the menu, show or hide the hints,
# take back a move, select (the encoder's switch).
ROLES = ("menu", "hint", "undo", "select")
MAX_KEYS = 16  # grid and extra keys together (keys.Keys)
# A bus's keys: its number (MicroPython's machine.SPI / machine.I2C id;
# CircuitPython finds the bus from the pins) and its pins.
SPI_KEYS = ("spi", "sck", "mosi", "cs")
I2C_KEYS = ("i2c", "sda", "scl")
SCREEN_KEYS = ("kind", "spi", "sck", "mosi", "cs", "dc", "reset", "display")


def hardware(raw, runtime):
    """The ``leds``, ``input``, ``buzzer``, ``extra``, ``encoder`` and
    ``screen`` entries of ``raw``, normalised (as ``config.validate``
    gives them), and ``buzzer_enable``; ConfigError names the first problem."""
    leds = _section(raw, "leds")
    led_kind = leds.get("kind", "ws2812")
    if led_kind not in LED_KINDS:
        raise ConfigError("leds.kind: expected one of %s, got %r" % (", ".join(LED_KINDS), led_kind))
    common = ("kind", "count", "order", "colour_order", "brightness")
    colour_order = config._colour_order(leds)
    count = leds.get("count", 9)
    if isinstance(count, bool) or not isinstance(count, int) or not 9 <= count <= 64:
        raise ConfigError("leds.count: expected a whole number from 9 to 64, got %r" % (count,))
    out_leds = {"kind": led_kind, "count": count}  # type: dict
    used = {}  # type: dict  # pin -> the key that uses it
    if led_kind == "ws2812":
        _check_keys(leds, ("pin",) + common, "leds.")
        if "pin" not in leds:
            raise ConfigError("leds.pin: missing (the GPIO of the first pixel's data input)")
        out_leds["pin"] = _pin(leds["pin"], "leds.pin")
        used[out_leds["pin"]] = "leds.pin"
    elif led_kind == "is31fl3731":  # on I2C; LED k is key k's (the Keybow 2040's map)
        _check_keys(leds, I2C_KEYS + ("address",) + common, "leds.")
        if count != 16:
            raise ConfigError("leds.count: an IS31FL3731 lights the Keybow 2040's 16 keys, got %r" % (count,))
        if colour_order != "RGB":
            raise ConfigError("leds.colour_order: an IS31FL3731's LEDs take red, green, blue: \"RGB\", got %r"
                              % (colour_order,))
        out_leds.update(_bus(leds, "leds.", I2C_KEYS, (), used))
        out_leds["address"] = int(_number(leds.get("address", 0x74), 0x74, 0x77, "leds.address"))
    else:
        _check_keys(leds, SPI_KEYS + common, "leds.")
        out_leds.update(_bus(leds, "leds.", SPI_KEYS, ("cs",), used))
    out_leds["order"] = pixel_order(leds.get("order", "row-major"), count=count)
    out_leds["colour_order"] = colour_order
    out_leds["brightness"] = _number(leds.get("brightness", 0.25), 0.01, 1.0, "leds.brightness")

    out_input = config.input_section(raw)
    kind = "tca9555" if out_input is None else out_input["kind"]
    if out_input is None:  # keys through a TCA9555 expander
        inp = raw["input"]
        _check_keys(inp, I2C_KEYS + ("kind", "address", "keys"), "input.")
        out_input = {"kind": kind}
        out_input.update(_bus(inp, "input.", I2C_KEYS, (), used))
        out_input["address"] = int(_number(inp.get("address", 0x20), 0x20, 0x27, "input.address"))
        out_input["keys"] = _keys(inp.get("keys"), 9, "input.keys", [])
    input_pins = out_input.get("pins", []) + out_input.get("rows", []) + out_input.get("cols", [])
    if out_leds.get("pin") in input_pins:
        raise ConfigError("leds.pin: pin %r is also an input" % (out_leds["pin"],))
    for p in input_pins:
        _use(p, "input", used)

    buzzer = raw.get("buzzer")
    enable = None
    if isinstance(buzzer, dict):  # {"pin": 16, "enable": 14}: with an amplifier to switch on
        _check_keys(buzzer, ("pin", "enable"), "buzzer.")
        if "pin" not in buzzer:
            raise ConfigError("buzzer.pin: missing (the PWM pin of the buzzer or speaker)")
        enable = buzzer.get("enable")
        buzzer = _use(_pin(buzzer["pin"], "buzzer.pin"), "buzzer.pin", used)
        if enable is not None:
            enable = _use(_pin(enable, "buzzer.enable"), "buzzer.enable", used)
    elif buzzer is not None:
        buzzer = _pin(buzzer, "buzzer")
        if buzzer in used:
            raise ConfigError("buzzer: pin %r is already in use" % (buzzer,))
        used[buzzer] = "buzzer"

    extra = _extra(raw.get("extra", []), kind, out_leds, out_input, used)
    encoder = raw.get("encoder")
    if encoder is not None:
        if not isinstance(encoder, dict):
            raise ConfigError("encoder: expected {\"pins\": [A, B]} or null, got %r" % (encoder,))
        _check_keys(encoder, ("pins",), "encoder.")
        encoder = {"pins": _pins(encoder.get("pins"), 2, "encoder.pins")}
        for i, p in enumerate(encoder["pins"]):
            _use(p, "encoder.pins[%d]" % i, used)
    screen = _screen(raw.get("screen"), runtime, used)

    if runtime == "circuitpython":
        for pin in used:
            if isinstance(pin, int):
                raise ConfigError("runtime: CircuitPython names its pins (\"GP16\"), got the number %d" % pin)
    return {"leds": out_leds, "input": out_input, "buzzer": buzzer, "buzzer_enable": enable, "extra": extra,
            "encoder": encoder, "screen": screen}



def _use(pin, key, used):
    """``pin``, recorded as used by ``key``; ConfigError if it already is."""
    if pin in used:
        raise ConfigError("%s: pin %r is already in use (%s)" % (key, pin, used[pin]))
    used[pin] = key
    return pin


def _bus(obj, where, keys, optional, used):
    """The bus number and pins of ``obj`` (keys[0] the bus, the rest pins)."""
    out = {}  # type: dict
    bus = obj.get(keys[0], 0)
    if isinstance(bus, bool) or not isinstance(bus, int) or not 0 <= bus <= 1:
        raise ConfigError("%s%s: expected the bus number, 0 or 1, got %r" % (where, keys[0], bus))
    out[keys[0]] = bus
    for k in keys[1:]:
        if obj.get(k) is None:
            if k in optional:
                out[k] = None
                continue
            raise ConfigError("%s%s: missing (a pin)" % (where, k))
        out[k] = _use(_pin(obj[k], where + k), where + k, used)
    return out


def _keys(value, count, key, taken):
    """``count`` different key numbers 0-15, none of them in ``taken``."""
    if not isinstance(value, list) or len(value) != count or any(
            isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 15 for k in value):
        raise ConfigError("%s: expected a list of %d key numbers from 0 to 15, got %r" % (key, count, value))
    for i, k in enumerate(value):
        if k in value[:i] or k in taken:
            raise ConfigError("%s: key %d is listed twice" % (key, k))
    return list(value)


def _extra(value, kind, leds, inp, used):
    """The extra keys: ``[{"role", "pin" or "key", "led"}]``."""
    if not isinstance(value, list) or len(value) > MAX_KEYS - 9:
        raise ConfigError("extra: expected a list of at most %d keys, got %r" % (MAX_KEYS - 9, value))
    out = []  # type: list
    lit = list(leds["order"])
    keys = list(inp.get("keys", []))
    for i, e in enumerate(value):
        at = "extra[%d]." % i
        if not isinstance(e, dict):
            raise ConfigError("extra[%d]: expected {\"role\": ..., \"pin\": ...}, got %r" % (i, e))
        _check_keys(e, ("role", "pin", "key", "led"), at)
        role = e.get("role")
        if role not in ROLES:
            raise ConfigError("%srole: expected one of %s, got %r" % (at, ", ".join(ROLES), role))
        if any(o["role"] == role for o in out):
            raise ConfigError("%srole: %r is already given to another key" % (at, role))
        entry = {"role": role}  # type: dict
        if kind == "tca9555":  # a key of the expander
            if "pin" in e or "key" not in e:
                raise ConfigError("%skey: missing (the expander's key number; input.kind is tca9555)" % at)
            entry["key"] = _keys([e["key"]], 1, at + "key", keys)[0]
            keys.append(entry["key"])
        else:  # a button from a GPIO to ground
            if "key" in e or "pin" not in e:
                raise ConfigError("%spin: missing (the button's GPIO; a \"key\" needs input.kind tca9555)" % at)
            entry["pin"] = _use(_pin(e["pin"], at + "pin"), at + "pin", used)
        led = e.get("led")
        if led is not None:
            if isinstance(led, bool) or not isinstance(led, int) or not 0 <= led < leds["count"]:
                raise ConfigError("%sled: expected a pixel from 0 to %d or null, got %r" % (at, leds["count"] - 1, led))
            if led in lit:
                raise ConfigError("%sled: pixel %d already lights a cell or a key" % (at, led))
            lit.append(led)
        entry["led"] = led
        out.append(entry)
    return out


def _screen(value, runtime, used):
    """The screen: None, or an SH1106 on SPI pins (MicroPython) or the one
    the board's CircuitPython set up (``"display": "DISPLAY"``)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ConfigError("screen: expected an object or null, got %r" % (value,))
    _check_keys(value, SCREEN_KEYS, "screen.")
    if value.get("kind") != "sh1106":
        raise ConfigError("screen.kind: expected \"sh1106\", got %r" % (value.get("kind"),))
    out = {"kind": "sh1106"}  # type: dict
    if runtime == "circuitpython" or "display" in value:
        display = value.get("display")
        if runtime != "circuitpython":
            raise ConfigError("screen.display: only on CircuitPython (set runtime); MicroPython needs the pins")
        if not isinstance(display, str) or not display:
            raise ConfigError("screen.display: expected the board's display, such as \"DISPLAY\", got %r"
                              % (display,))
        for k in SCREEN_KEYS[1:-1]:
            if k in value:
                raise ConfigError("screen.%s: CircuitPython's board set the screen up: give only its display" % k)
        out["display"] = display
        return out
    out.update(_bus(value, "screen.", SPI_KEYS, ("cs",), used))
    for k in ("dc", "reset"):
        if value.get(k) is None:
            if k == "dc":
                raise ConfigError("screen.dc: missing (the data/command pin)")
            out[k] = None
        else:
            out[k] = _use(_pin(value[k], "screen." + k), "screen." + k, used)
    return out
