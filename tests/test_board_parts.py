"""Units of the board firmware: config validation, key debouncing, the
buzzer sequencer and the canvas (CPython here; the scenarios run them all
under MicroPython too)."""

import json
import os

import pytest
from hypothesis import given, settings, strategies as st

from tactictoe import config
from tactictoe import frames
from tactictoe import keys
from tactictoe import sound
from conftest import FIRMWARE

BOARDS = sorted(f[:-5] for f in os.listdir(os.path.join(FIRMWARE, "boards")) if f.endswith(".json"))


def _raw(name):
    with open(os.path.join(FIRMWARE, "boards", name + ".json")) as f:
        return json.load(f)


def test_shipped_boards():
    assert BOARDS == ["circuitpython-keybow", "circuitpython-keypad", "circuitpython-macropad", "circuitpython-pico",
                      "esp32-touch", "keybow", "keypad", "macropad", "pico-buttons", "pico-matrix", "pico-mx"]


@pytest.mark.parametrize("name", BOARDS)
def test_every_shipped_config_is_valid(name):
    cfg = config.validate(_raw(name))
    assert cfg["name"] == name
    order = cfg["leds"]["order"]
    assert len(set(order)) == 9 and all(0 <= p < cfg["leds"]["count"] for p in order)
    assert cfg["colours"]["x"] != cfg["colours"]["o"]


def test_default_is_the_pico_buttons_board():
    assert config.validate(config.DEFAULT) == config.validate(_raw("pico-buttons"))


def test_serpentine_and_custom_orders():
    assert config.pixel_order("serpentine") == [0, 1, 2, 5, 4, 3, 6, 7, 8]
    assert config.pixel_order([8, 7, 6, 5, 4, 3, 2, 1, 0]) == [8, 7, 6, 5, 4, 3, 2, 1, 0]


def _broken(**changes):
    raw = _raw("pico-buttons")
    for path, value in changes.items():
        section, _, key = path.partition("__")
        if key:
            raw[section][key] = value
        elif value is None:
            del raw[section]
        else:
            raw[section] = value
    return raw


@pytest.mark.parametrize("changes, message", [
    (dict(leds__pin=-1), "leds.pin: pin numbers can't be negative"),
    (dict(leds__pin=True), "leds.pin: expected a pin number or name"),
    (dict(leds__order="zigzag"), "leds.order: expected \"row-major\""),
    (dict(leds__order=[0, 1, 2, 3, 4, 5, 6, 7, 7]), "leds.order: a list must hold each pixel 0-8 exactly once"),
    (dict(leds__colour_order="RGBW"), "leds.colour_order"),
    (dict(leds__brightness=2), "leds.brightness: expected a number from 0.01 to 1.0"),
    (dict(leds__glow=1), "leds.glow: unknown key"),
    (dict(leds=None), "leds: missing"),
    (dict(input__kind="joystick"), "input.kind: expected one of buttons, matrix, touch, tca9555"),
    (dict(input__pins=[2, 3, 4]), "input.pins: expected a list of 9 pins"),
    (dict(input__pins=[2, 3, 4, 5, 6, 7, 8, 9, 2]), "input.pins: pin 2 is listed twice"),
    (dict(input__pins=[16, 3, 4, 5, 6, 7, 8, 9, 10]), "leds.pin: pin 16 is also an input"),
    (dict(input={"kind": "matrix", "rows": [2, 3, 4], "cols": [4, 5, 6]}), "input.cols: pin 4 is also a row"),
    (dict(input={"kind": "touch", "pins": list(range(9)), "direction": "up"}), "input.direction"),
    (dict(runtime="arduino"), "runtime: expected one of micropython, circuitpython"),
    (dict(board="pico2"), "board: expected one of esp32-devkit, keybow2040, macropad, pico, pico-rgb-keypad, or leave"
                          " it out"),
    (dict(colours={"x": [300, 0, 0]}), "colours.x: expected [r, g, b] with 0-255 each"),
    (dict(colours={"purple": [1, 2, 3]}), "colours.purple: unknown colour"),
    (dict(timing={"think_ms": 0}), "timing.think_ms: expected a number from 1 to 60000"),
    (dict(wifi=True), "wifi: unknown key"),
    (dict(buzzer=16), "buzzer: pin 16 is already in use"),
    (dict(buzzer=5), "buzzer: pin 5 is already in use"),
    (dict(runtime="circuitpython"), "runtime: CircuitPython names its pins (\"GP16\"), got the number 16"),
])
def test_config_errors_name_the_key(changes, message):
    with pytest.raises(config.ConfigError) as info:
        config.validate(_broken(**changes))
    assert str(info.value).startswith(message)


def _bought(name, **changes):
    """A bought board's config with ``changes`` ("section__key": value, a
    value None deletes; "extra__N__key" changes extra key N)."""
    raw = _raw(name)
    for path, value in changes.items():
        at = raw
        keys = [int(k) if k.isdigit() else k for k in path.split("__")]
        for k in keys[:-1]:
            at = at[k]
        if value is None:
            del at[keys[-1]]
        else:
            at[keys[-1]] = value
    return raw


@pytest.mark.parametrize("name, changes, message", [
    ("keypad", dict(leds__kind="ws2811"), "leds.kind: expected one of ws2812, apa102, is31fl3731, got 'ws2811'"),
    ("keypad", dict(leds__pin=5), "leds.pin: unknown key (known: spi, sck, mosi, cs, kind,"),
    ("keypad", dict(leds__sck=None), "leds.sck: missing (a pin)"),
    ("keypad", dict(leds__spi=2), "leds.spi: expected the bus number, 0 or 1, got 2"),
    ("keypad", dict(leds__count=8), "leds.count: expected a whole number from 9 to 64, got 8"),
    ("keypad", dict(leds__count=10), "leds.order: a list must hold 9 different pixels from 0 to 9"),
    ("keypad", dict(leds__order=[0, 1, 2, 4, 5, 6, 8, 9, 9]), "leds.order: a list must hold 9 different pixels"),
    ("keypad", dict(leds__mosi=4), "input.sda: pin 4 is already in use (leds.mosi)"),
    ("keypad", dict(input__address=0x30), "input.address: expected a number from 32 to 39, got 48"),
    ("keypad", dict(input__keys=[0, 1, 2, 4, 5, 6, 8, 9, 16]), "input.keys: expected a list of 9 key numbers"),
    ("keypad", dict(input__keys=[0, 1, 2, 4, 5, 6, 8, 9, 9]), "input.keys: key 9 is listed twice"),
    ("keypad", dict(input__scl=None), "input.scl: missing (a pin)"),
    ("keypad", dict(extra__0__key=4), "extra[0].key: key 4 is listed twice"),
    ("keypad", dict(extra__1__key=3), "extra[1].key: key 3 is listed twice"),
    ("keypad", dict(extra__0__pin=3), "extra[0].key: missing (the expander's key number"),
    ("keypad", dict(extra__0__led=0), "extra[0].led: pixel 0 already lights a cell or a key"),
    ("keypad", dict(extra__0__led=16), "extra[0].led: expected a pixel from 0 to 15 or null, got 16"),
    ("keypad", dict(extra__1__role="menu"), "extra[1].role: 'menu' is already given to another key"),
    ("keypad", dict(extra__0__role="reset"), "extra[0].role: expected one of menu, hint, undo, select"),
    ("keypad", dict(extra__0__colour=1), "extra[0].colour: unknown key"),
    ("keypad", dict(extra={"role": "menu"}), "extra: expected a list of at most 7 keys"),
    ("keypad", dict(extra=[3]), "extra[0]: expected {\"role\": ..., \"pin\": ...}, got 3"),
    ("macropad", dict(extra__0__key=3), "extra[0].pin: missing (the button's GPIO; a \"key\" needs input.kind"),
    ("macropad", dict(extra__0__pin=4), "extra[0].pin: pin 4 is already in use (input)"),
    ("macropad", dict(encoder__pins=[17, 17]), "encoder.pins: pin 17 is listed twice"),
    ("macropad", dict(encoder__pins=[16, 17]), "encoder.pins[0]: pin 16 is already in use (buzzer.pin)"),
    ("macropad", dict(encoder=[17, 18]), "encoder: expected {\"pins\": [A, B]} or null"),
    ("macropad", dict(screen__kind="ssd1306"), "screen.kind: expected \"sh1106\", got 'ssd1306'"),
    ("macropad", dict(screen__dc=None), "screen.dc: missing (the data/command pin)"),
    ("macropad", dict(screen__dc=19), "screen.dc: pin 19 is already in use (leds.pin)"),
    ("macropad", dict(screen__display="DISPLAY"), "screen.display: only on CircuitPython"),
    ("macropad", dict(screen__width=132), "screen.width: unknown key"),
    ("macropad", dict(buzzer__enable=19), "buzzer.enable: pin 19 is already in use (leds.pin)"),
    ("macropad", dict(buzzer__pin=None), "buzzer.pin: missing"),
    ("macropad", dict(buzzer__volume=3), "buzzer.volume: unknown key (known: pin, enable)"),
    ("circuitpython-macropad", dict(screen__spi=1), "screen.spi: CircuitPython's board set the screen up"),
    ("circuitpython-macropad", dict(screen__display=None), "screen.display: expected the board's display"),
    ("circuitpython-macropad", dict(encoder__pins=[17, "ROTA"]), "runtime: CircuitPython names its pins"),
    ("circuitpython-keypad", dict(leds__cs=17), "runtime: CircuitPython names its pins"),
    ("keybow", dict(leds__address=0x20), "leds.address: expected a number from 116 to 119, got 32"),
    ("keybow", dict(leds__count=12), "leds.count: an IS31FL3731 lights the Keybow 2040's 16 keys, got 12"),
    ("keybow", dict(leds__colour_order="GRB"), "leds.colour_order: an IS31FL3731's LEDs take red, green, blue"),
    ("keybow", dict(leds__i2c=2), "leds.i2c: expected the bus number, 0 or 1, got 2"),
    ("keybow", dict(leds__sda=None), "leds.sda: missing (a pin)"),
    ("keybow", dict(leds__pin=16), "leds.pin: unknown key (known: i2c, sda, scl, address, kind,"),
    ("keybow", dict(leds__cs=17), "leds.cs: unknown key (known: i2c, sda, scl, address, kind,"),
    ("keybow", dict(input__pins=[18, 14, 10, 19, 15, 11, 20, 16, 5]), "input: pin 5 is already in use (leds.scl)"),
    ("keybow", dict(extra__0__pin=18), "extra[0].pin: pin 18 is already in use (input)"),
    ("keybow", dict(extra__0__key=15), "extra[0].pin: missing (the button's GPIO; a \"key\" needs input.kind"),
    ("keybow", dict(extra__2__led=3), "extra[2].led: pixel 3 already lights a cell or a key"),
    ("circuitpython-keybow", dict(leds__scl=5), "runtime: CircuitPython names its pins"),
])
def test_bought_board_config_errors_name_the_key(name, changes, message):
    with pytest.raises(config.ConfigError) as info:
        config.validate(_bought(name, **changes))
    assert str(info.value).startswith(message)


def test_old_configs_keep_their_meaning():
    """A config without the new keys: NeoPixels, nine of them, no extra
    keys, no encoder, no screen, the buzzer a pin with nothing to enable."""
    cfg = config.validate(_raw("pico-matrix"))
    assert cfg["leds"] == {"kind": "ws2812", "count": 9, "pin": 16, "order": [0, 1, 2, 5, 4, 3, 6, 7, 8],
                           "colour_order": "GRB", "brightness": 0.25}
    assert (cfg["buzzer"], cfg["buzzer_enable"], cfg["extra"], cfg["encoder"], cfg["screen"]) == (15, None, [], None,
                                                                                                  None)


def test_bought_boards_match_the_contract():
    """The key map the docs give: the MacroPad's top row and the keypad's
    right-hand column are menu, hint and take back; the grid lies under
    its LEDs."""
    mp = config.validate(_raw("macropad"))
    assert mp["input"]["pins"] == [c + 4 for c in range(9)]  # key k on GPIO k + 1, cell c = key c + 3
    assert mp["leds"]["order"] == [c + 3 for c in range(9)]
    assert [(e["role"], e["pin"], e["led"]) for e in mp["extra"]] == [
        ("menu", 1, 0), ("hint", 2, 1), ("undo", 3, 2), ("select", 0, None)]
    kp = config.validate(_raw("keypad"))
    assert kp["input"]["keys"] == kp["leds"]["order"] == [0, 1, 2, 4, 5, 6, 8, 9, 10]
    assert [(e["role"], e["key"], e["led"]) for e in kp["extra"]] == [("menu", 3, 3), ("hint", 7, 7), ("undo", 11, 11)]
    kb = config.validate(_raw("keybow"))
    # SW k on GPIO 21 - k; the grid the top-left 3x3 with the USB connector
    # at the top (SW3, 7, 11 across the top row), each cell over its key's LED
    assert kb["input"]["pins"] == [21 - k for k in kb["leds"]["order"]]
    assert kb["leds"]["order"] == [3, 7, 11, 2, 6, 10, 1, 5, 9]
    assert [(e["role"], e["pin"], e["led"]) for e in kb["extra"]] == [("menu", 6, 15), ("hint", 7, 14),
                                                                      ("undo", 8, 13)]
    assert (kb["leds"]["kind"], kb["leds"]["address"], kb["leds"]["sda"], kb["leds"]["scl"]) == ("is31fl3731", 0x74,
                                                                                                 4, 5)
    twin = config.validate(_raw("circuitpython-keybow"))
    assert twin["input"]["pins"] == ["SW%d" % k for k in kb["leds"]["order"]]
    assert [e["pin"] for e in twin["extra"]] == ["SW15", "SW14", "SW13"]
    for name in ("macropad", "keypad", "keybow"):  # the CircuitPython twin means the same, by pin names
        mine, twin = config.validate(_raw(name)), config.validate(_raw("circuitpython-" + name))
        assert mine["leds"]["order"] == twin["leds"]["order"]
        assert [e["role"] for e in mine["extra"]] == [e["role"] for e in twin["extra"]]


def test_default_per_kind_of_board(tmp_path):
    assert config.default_for("circuitpython")["leds"]["pin"] == "GP16"
    assert config.default_for("esp32")["input"]["kind"] == "touch"
    assert config.default_for("rp2") is config.DEFAULT and config.default_for(None) is config.DEFAULT
    for platform, name in (("circuitpython", "circuitpython-pico"), ("esp32", "esp32-touch")):
        cfg, problem = config.load(str(tmp_path / "none.json"), platform)
        assert cfg == config.validate(_raw(name)) and problem.endswith("using the default %s config" % name)


def test_runtime_may_be_left_out():
    raw = _raw("circuitpython-pico")
    del raw["runtime"]
    assert config.validate(raw)["runtime"] is None


def test_board_may_be_left_out_and_must_match_the_chip(tmp_path):
    raw = _raw("esp32-touch")
    del raw["board"]
    assert config.validate(raw)["board"] is None
    path = tmp_path / "board.json"
    path.write_text(json.dumps(raw))
    assert config.load(str(path), "rp2")[1] is None  # not stated: not checked
    path.write_text(json.dumps(_raw("esp32-touch")))
    cfg, problem = config.load(str(path), "rp2")
    assert cfg == config.validate(config.DEFAULT)
    assert problem == ("%s: board: esp32-devkit is an esp32 board but this is an rp2;"
                       " using the default pico-buttons config" % path)
    assert config.load(str(path), "esp32") == (config.validate(_raw("esp32-touch")), None)
    # the simulator (linux) and CircuitPython run any board's config
    assert config.load(str(path), "linux")[1] is None and config.load(str(path), None)[1] is None
    path.write_text(json.dumps(_raw("pico-buttons")))
    cfg, problem = config.load(str(path), "esp32")
    assert cfg["name"] == "esp32-touch" and "pico is an rp2 board but this is an esp32" in problem


def test_load_falls_back_and_says_why(tmp_path):
    cfg, problem = config.load(str(tmp_path / "board.json"))
    assert cfg == config.validate(config.DEFAULT) and "not found" in problem
    (tmp_path / "board.json").write_text("{not json")
    cfg, problem = config.load(str(tmp_path / "board.json"))
    assert "not valid JSON (" in problem and cfg["name"] == "pico-buttons"
    (tmp_path / "board.json").write_text(json.dumps(_broken(leds__brightness=5)))
    cfg, problem = config.load(str(tmp_path / "board.json"))
    assert problem.startswith(str(tmp_path / "board.json") + ": leds.brightness:")
    assert problem.endswith("using the default pico-buttons config")
    (tmp_path / "board.json").write_text(json.dumps(_raw("pico-matrix")))
    cfg, problem = config.load(str(tmp_path / "board.json"))
    assert problem is None and cfg["input"]["kind"] == "matrix"


# --- keys --------------------------------------------------------------------


def feed(k, timeline, until, step=5, confirm=None):
    """timeline: [(t, mask)], the raw mask from time t on. A scan reads
    the mask once, and again at once when ``Keys.update`` asks for the
    confirm read (as ``loop.Runner.scan`` does): that read gives the same
    mask, or ``confirm[t]`` (a glitch gone by then). ``confirm=False``:
    no confirm read (a press then takes two scans)."""
    out = []
    mask = 0
    events = dict(timeline)
    for t in range(0, until, step):
        mask = events.get(t, mask)
        if k.update(t, mask) and confirm is not False:
            k.update(t, (confirm or {}).get(t, mask))
        e = k.get()
        while e:
            out.append((t, e))
            e = k.get()
    return out


def test_a_bouncy_press_is_one_press_at_its_first_edge_and_one_tap():
    k = keys.Keys(debounce_ms=25, long_ms=1500)
    bounce = [(0, 0), (100, 1 << 4), (105, 0), (110, 1 << 4), (115, 0), (120, 1 << 4),
              (300, 0), (305, 1 << 4), (310, 0)]
    got = feed(k, bounce, 600)
    # One PRESS, in the scan that sees the key go down (its confirm read
    # agrees), the bounces after it locked out; one TAP, once the release
    # has settled
    assert [e for _, e in got] == [keys.PRESS | 4, keys.TAP | 4]
    assert got[0][0] == 100
    assert got[1][0] >= 310 + 25


def test_a_press_seen_by_one_read_only_waits_for_the_next_scan():
    # The confirm read caught a bounce: the next scan that sees the key
    # down, and its confirm read, make the press.
    k = keys.Keys(debounce_ms=25)
    got = feed(k, [(100, 1), (200, 0)], 400, confirm={100: 0})
    assert [e for _, e in got] == [keys.PRESS | 0, keys.TAP | 0] and got[0][0] == 105
    # Without confirm reads (a caller that reads once a scan), two scans.
    k = keys.Keys(debounce_ms=25)
    got = feed(k, [(100, 1), (200, 0)], 400, confirm=False)
    assert [e for _, e in got] == [keys.PRESS | 0, keys.TAP | 0] and got[0][0] == 105


def test_long_press_is_sent_while_held_and_its_release_is_silent():
    k = keys.Keys(debounce_ms=25, long_ms=1500)
    got = feed(k, [(0, 0), (100, 1 << 7), (2000, 0)], 2500)
    assert [e for _, e in got] == [keys.PRESS | 7, keys.LONG | 7]
    assert 100 + 1500 <= got[1][0] <= 100 + 25 + 1500 + 5


def test_glitches_are_ignored():
    # A reading its confirm read does not repeat: not even a PRESS...
    k = keys.Keys(debounce_ms=25)
    assert feed(k, [(100, 1), (105, 0)], 400, confirm={100: 0}) == []
    # ...nor one the next scan does not repeat, without confirm reads
    k = keys.Keys(debounce_ms=25)
    assert feed(k, [(100, 1), (105, 0)], 400, confirm=False) == []
    # A glitch shorter than the debounce that both reads see is a PRESS but no TAP
    k = keys.Keys(debounce_ms=25)
    assert [e for _, e in feed(k, [(100, 1), (110, 0)], 400)] == [keys.PRESS | 0]
    # and the next real press is a PRESS again
    k = keys.Keys(debounce_ms=25)
    got = feed(k, [(100, 1), (110, 0), (200, 1), (300, 0)], 400)
    assert [e for _, e in got] == [keys.PRESS | 0, keys.PRESS | 0, keys.TAP | 0]


def test_a_bounce_after_the_press_is_locked_out_until_let_go_for_the_debounce():
    k = keys.Keys(debounce_ms=25)
    # Let go for 20 ms (under the debounce) then down again: still the same press.
    got = feed(k, [(100, 1), (200, 0), (220, 1), (400, 0)], 600)
    assert [e for _, e in got] == [keys.PRESS | 0, keys.TAP | 0]
    # Let go for 30 ms: two presses.
    k = keys.Keys(debounce_ms=25)
    got = feed(k, [(100, 1), (200, 0), (230, 1), (400, 0)], 600)
    assert [e for _, e in got] == [keys.PRESS | 0, keys.TAP | 0, keys.PRESS | 0, keys.TAP | 0]
    assert [t for t, e in got if e & keys.PRESS] == [100, 230]


def test_presses_wait_in_the_queue_and_the_oldest_drop_when_full():
    k = keys.Keys(debounce_ms=10, size=4)
    timeline = []
    for i in range(6):  # six taps while nobody reads the queue
        timeline += [(100 * i + 10, 1 << i), (100 * i + 60, 0)]
    mask = 0
    ev = dict(timeline)
    for t in range(0, 700, 5):
        mask = ev.get(t, mask)
        k.update(t, mask)
    got = []
    e = k.get()
    while e:
        got.append(e)
        e = k.get()
    assert got == [keys.PRESS | 4, keys.TAP | 4, keys.PRESS | 5, keys.TAP | 5]  # the newest four


@given(st.lists(st.tuples(st.integers(0, 8), st.integers(40, 400), st.integers(40, 400)), max_size=12))
@settings(max_examples=100)
def test_every_clean_press_gives_exactly_one_event(presses):
    """Presses that last longer than the debounce time are never lost."""
    k = keys.Keys(debounce_ms=25, long_ms=1500)
    t = 0
    timeline = []
    for cell, hold, gap in presses:
        timeline += [(t, 1 << cell), (t + hold, 0)]
        t += hold + gap
    got = feed(k, [(x - x % 5, m) for x, m in timeline], t + 100)
    assert [e for _, e in got] == [e for cell, _, _ in presses for e in (keys.PRESS | cell, keys.TAP | cell)]


# --- sound and canvas -----------------------------------------------------------


def test_sequencer_plays_a_tune_without_blocking():
    heard = []
    seq = sound.Sequencer(heard.append)
    seq.play("win", 0)
    for t in range(0, 1000, 10):
        seq.update(t)
    notes = [f for f, _ in sound.TUNES["win"]]
    assert heard == notes + [0]
    silent = sound.Sequencer(None)
    silent.play("move", 0)
    silent.update(100)  # a board without a buzzer: nothing to call


def test_canvas_levels():
    cv = frames.Canvas()
    cv.set(4, (200, 100, 50), frames.FULL)
    cv.set(0, (200, 100, 50), 128)
    assert bytes(cv.buf[12:15]) == bytes((200, 100, 50))
    assert bytes(cv.buf[0:3]) == bytes((100, 50, 25))
    cv.clear()
    assert not any(cv.buf)
    assert {frames.pulse(t, 900, 64) for t in range(0, 900, 10)} >= {64, frames.FULL}
    assert frames.blink(0) == frames.FULL and frames.blink(300) == 0
