"""The CircuitPython hardware layer, driving the real Adafruit NeoPixel
library (adafruit-circuitpython-neopixel, with adafruit-circuitpython-pixelbuf)
on CPython. Only the lowest call, neopixel_write, and the chip modules
(board, digitalio, keypad, touchio, pwmio) are test doubles
(tests/doubles_cp)."""

import json
import os
import subprocess
import sys

import pytest

from conftest import CPYTHON, FIRMWARE, FW, HANG_S, ROOT, put_tables, run_scenario, transcript

DOUBLES_CP = os.path.join(ROOT, "tests", "doubles_cp")
CP_PATH = [DOUBLES_CP, FW, FIRMWARE, CPYTHON]


def _cp_board(**inp):
    with open(os.path.join(FIRMWARE, "boards", "circuitpython-pico.json")) as f:
        cfg = json.load(f)
    cfg["leds"]["brightness"] = 1.0
    cfg["buzzer"] = "GP15"
    if inp:
        cfg["input"] = inp
    return cfg


@pytest.fixture(scope="module")
def cp_flash(table_files, tmp_path_factory):
    root = tmp_path_factory.mktemp("cpflash")
    out = {}
    for name, cfg in {
        "buttons": _cp_board(),
        "matrix": _cp_board(kind="matrix", rows=["GP2", "GP3", "GP4"], cols=["GP5", "GP6", "GP7"]),
        "touch": _cp_board(kind="touch", pins=["GP%d" % i for i in range(2, 11)]),
        # a MicroPython board's config on a CircuitPython board: pin numbers
        "micropython-config": json.load(open(os.path.join(FIRMWARE, "boards", "pico-buttons.json"))),
        # touch pads on GP2-GP9 and GP28, which has no pull-down: the layer fails
        # after claiming pins the default config needs, and must give them back
        "no-pulldown": _cp_board(kind="touch", pins=["GP%d" % i for i in range(2, 10)] + ["GP28"]),
    }.items():
        d = root / name
        d.mkdir()
        (d / "board.json").write_text(json.dumps(cfg))
        put_tables(d, table_files.values())
        out[name] = str(d)
    return out


def test_the_real_library_is_used():
    r = subprocess.run([sys.executable, "-c",
                        "import neopixel, adafruit_pixelbuf; print(neopixel.__version__, neopixel.__file__)"],
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=DOUBLES_CP))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("6.4.2") and "site-packages" in r.stdout


@pytest.mark.parametrize("name, board", [
    ("selftest", "buttons"), ("two-classic", "buttons"), ("vanishing", "buttons"), ("safe-mode", "buttons"),
    ("wiring", "buttons"), ("wiring", "matrix"), ("wiring", "touch"), ("safe-mode", "touch"),
    ("config-problem", "micropython-config"), ("config-problem", "no-pulldown"), ("at-once", "buttons"),
    ("at-once", "matrix"),
])
def test_scenarios_through_the_circuitpython_layer(cp_flash, flash, name, board):
    cp = run_scenario("cpython", cp_flash[board], name, path=CP_PATH)
    assert cp.returncode == 0 and cp.stdout.rstrip().endswith("PASS"), cp.stdout[-3000:] + cp.stderr[-3000:]
    # the LEDs show the same pictures as on the MicroPython layer
    mp = run_scenario("micropython", flash["bad-config" if name == "config-problem" else "buttons"], name)
    def pictures(r):
        return [line for line in transcript(r) if not line.startswith(("| tones", "| config:"))]

    assert pictures(cp) == pictures(mp)
    if name == "config-problem":  # the layer can't start: the CircuitPython default steps in
        assert "using the default circuitpython-pico config" in transcript(cp)[0]
    if name == "wiring":  # the buzzer (GP15 here) played through pwmio
        assert any(line.startswith("| tones") for line in transcript(cp))


BYTES_SCRIPT = r"""
import json, sys
import neopixel_write
from tactictoe import config, frames, hw_circuitpython
cfg = config.validate(json.loads(sys.argv[1]))
hw = hw_circuitpython.Hardware(cfg)
cv = frames.Canvas()
for c in range(9):
    cv.set(c, (10 * c + 1, 100 + c, 200 + c))
hw.show(cv)
print(neopixel_write.last.hex(), neopixel_write.writes)
"""


@pytest.mark.parametrize("order, colour_order, brightness", [
    ("row-major", "GRB", 1.0), ("serpentine", "GRB", 1.0), ("row-major", "RGB", 0.5),
    ([8, 7, 6, 5, 4, 3, 2, 1, 0], "BRG", 0.25),
])
def test_bytes_sent_to_the_strip(order, colour_order, brightness):
    cfg = _cp_board()
    cfg["leds"].update(order=order, colour_order=colour_order, brightness=brightness)
    r = subprocess.run([sys.executable, "-c", BYTES_SCRIPT, json.dumps(cfg)], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(CP_PATH)))
    assert r.returncode == 0, r.stderr
    hexbytes, writes = r.stdout.split()
    data = bytes.fromhex(hexbytes)
    assert writes == "1" and len(data) == 27
    pixel_of = {"row-major": list(range(9)), "serpentine": [0, 1, 2, 5, 4, 3, 6, 7, 8]}.get(
        order if isinstance(order, str) else "", order)
    scale = int(brightness * 256)
    for cell in range(9):
        rgb = (10 * cell + 1, 100 + cell, 200 + cell)
        want = bytes(rgb["RGB".index(ch)] * scale >> 8 for ch in colour_order)
        p = pixel_of[cell]
        assert data[3 * p:3 * p + 3] == want, (cell, p)


OVERFLOW_SCRIPT = r"""
import json, sys
import fingers
from tactictoe import config, hw_circuitpython
cfg = config.validate(json.loads(sys.argv[1]))
fingers.wire(cfg["input"])
hw = hw_circuitpython.Hardware(cfg)
fingers.held = 1 << 4 | 1 << 7
print(hw.scan())
# keypad's queue overflowed: 7's release was lost, and 2 went down meanwhile
events = hw._keys.events
fingers.held = 1 << 4 | 1 << 2
events._state = fingers.held & ~(1 << 2)
events.overflowed = True
got = [hw.scan(), hw.scan()]
print(got[0], got[1], events.overflowed)
"""


@pytest.mark.parametrize("board", ["buttons", "matrix"])
def test_a_lost_keypad_event_is_not_a_key_stuck_down(board):
    """keypad scans every 1 ms (a press waits for little more than the
    firmware's own scan); if its queue ever overflows, the layer starts
    again from the keys held now rather than keep a release it lost."""
    cfg = _cp_board() if board == "buttons" else _cp_board(kind="matrix", rows=["GP2", "GP3", "GP4"],
                                                             cols=["GP5", "GP6", "GP7"])
    r = subprocess.run([sys.executable, "-c", OVERFLOW_SCRIPT, json.dumps(cfg)], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(CP_PATH)), timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    first, after, again, overflowed = r.stdout.split()
    assert int(first) == 1 << 4 | 1 << 7
    assert int(after) == int(again) == 1 << 4 | 1 << 2 and overflowed == "False"
