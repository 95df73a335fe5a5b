"""The CircuitPython layer on the bought boards' configs (the MacroPad's,
the Pico RGB Keypad's and the Keybow 2040's), on CPython with the real
Adafruit libraries (neopixel, dotstar, display_text, is31fl3731) over the
doubles of tests/doubles_cp: the expander answers I2C reads from the keys
held, the DotStar frame and the IS31FL3731's registers are decoded back to
colours, the screen's labels hold the lines."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from conftest import CPYTHON, FIRMWARE, HANG_S, ROOT

DOUBLES_CP = os.path.join(ROOT, "tests", "doubles_cp")
PROBE = os.path.join(ROOT, "tests", "cp", "devices_cp.py")


def probe(board, name, *args):
    r = subprocess.run([sys.executable, PROBE, os.path.join(FIRMWARE, "boards", board + ".json"), name]
                       + [str(a) for a in args], capture_output=True, text=True, timeout=HANG_S,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join([DOUBLES_CP, FIRMWARE, CPYTHON])))
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.splitlines()[-1])


@settings(max_examples=5, deadline=None)
@given(helds=st.lists(st.integers(0, (1 << 12) - 1), min_size=1, max_size=8))
def test_keypad_keys_through_the_expander(helds):
    out = probe("circuitpython-keypad", "scan", *helds)
    assert out["scans"] == helds
    assert out["i2c"] == [[0x20, 0, 2]]  # both input ports in one read
    assert "adafruit_display_text" not in " ".join(out["modules"])


def test_keypad_leds_are_a_dotstar_frame_under_each_key():
    colours = [[10 * c, 10 * c + 1, 10 * c + 2] for c in range(12)]
    out = probe("circuitpython-keypad", "show", json.dumps(colours))
    frame = out["frame"]
    assert frame[:4] == [0, 0, 0, 0] and set(frame[4 + 64:]) == {0}
    leds = []
    for i in range(16):
        head, b, g, r = frame[4 + 4 * i:8 + 4 * i]
        assert head == 0xFF
        leds.append([r, g, b])
    want = [[0, 0, 0]] * 16
    for cell, led in enumerate([0, 1, 2, 4, 5, 6, 8, 9, 10, 3, 7, 11]):
        want[led] = colours[cell]
    assert leds == want
    assert out["levels"].get("GP17") == 0  # the keypad's CS held low
    assert "adafruit_dotstar" in out["modules"] and "tactictoe.devices.tca9555" in out["modules"]


@settings(max_examples=5, deadline=None)
@given(helds=st.lists(st.integers(0, (1 << 13) - 1), min_size=1, max_size=8))
def test_macropad_keys_are_cells_then_extra_keys(helds):
    out = probe("circuitpython-macropad", "scan", *helds)
    assert out["scans"] == helds


def test_macropad_leds():
    colours = [[c, 2 * c, 3 * c] for c in range(1, 14)]
    out = probe("circuitpython-macropad", "show", json.dumps(colours))
    pixels = [[p >> 16, p >> 8 & 255, p & 255] if isinstance(p, int) else p for p in out["pixels"]]
    assert pixels[3:] == colours[:9] and pixels[:3] == colours[9:12]


def test_macropad_screen_holds_the_lines_and_gives_the_display_back():
    lines = ["MENU", "pick a game", "", "x", "Menu Hint Back"]
    out = probe("circuitpython-macropad", "screen", json.dumps(lines))
    assert out["ours"] and out["after"]
    assert [t for t, _ in out["labels"]] == lines
    ys = [y for _, y in out["labels"]]
    assert ys == [0, 13, 26, 39, 52]  # five 12-row lines down the 64 rows
    assert "adafruit_display_text.label" in out["modules"]


def test_macropad_encoder_turns():
    assert probe("circuitpython-macropad", "turns", 0, 1, 3, 3, -2)["turns"] == [0, 1, 2, 0, -5]


def test_macropad_speaker_amplifier_follows_the_tone():
    out = probe("circuitpython-macropad", "tone")
    assert out["enable"] == [1, 0, 1]


@pytest.mark.parametrize("board", ["circuitpython-macropad", "circuitpython-keypad"])
def test_deinit_gives_every_pin_back(board):
    assert probe(board, "deinit")["again"]


def test_the_pico_loads_no_driver_of_the_bought_boards():
    assert probe("circuitpython-pico", "scan", 0)["modules"] == ["adafruit_pixelbuf"]  # (neopixel's)


@settings(max_examples=3, deadline=None)
@given(colours=st.lists(st.lists(st.integers(0, 255), min_size=3, max_size=3), min_size=12, max_size=12))
def test_keybow_leds_through_adafruit_is31fl3731(colours):
    out = probe("circuitpython-keybow", "show", json.dumps(colours))
    want = [[0, 0, 0]] * 16
    for cell, key in enumerate([3, 7, 11, 2, 6, 10, 1, 5, 9, 15, 14, 13]):
        want[key] = colours[cell]
    assert out["keys"] == want
    assert "adafruit_is31fl3731.keybow2040" in out["modules"] and "adafruit_dotstar" not in out["modules"]


def test_keybow_sends_only_the_leds_that_changed():
    out = probe("circuitpython-keybow", "twice", json.dumps([[5, 6, 7]] * 12))
    assert out["writes"][0] > 0 and out["writes"][1] == 0
