"""The board firmware end to end: scripted sessions on a simulated board
(tests/fw/scenarios.py) under the real MicroPython Unix port and under
CPython, with only machine and neopixel replaced by test doubles."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import FIRMWARE, MICROPYTHON, ROOT

DOUBLES = os.path.join(ROOT, "tests", "doubles")
FW = os.path.join(ROOT, "tests", "fw")
BOARDS = os.path.join(FIRMWARE, "boards")


def _board_json(name, **changes):
    with open(os.path.join(BOARDS, name + ".json")) as f:
        cfg = json.load(f)
    cfg["leds"]["brightness"] = 1.0  # exact colours in the frames the tests read
    for key, value in changes.items():
        section, _, field = key.partition("__")
        cfg[section][field] = value
    return cfg


@pytest.fixture(scope="session")
def flash(table_files, tmp_path_factory):
    """Flash folders: name -> path, each with board.json and tables."""
    root = tmp_path_factory.mktemp("flash")
    tables = {"classic": table_files[0], "tactictoe": table_files[1]}

    def make(name, cfg, games=("classic", "tactictoe"), damage=None):
        d = root / name
        d.mkdir()
        (d / "board.json").write_text(cfg if isinstance(cfg, str) else json.dumps(cfg))
        for g in games:
            shutil.copy(tables[g], d / (g + ".tbl"))
        if damage:
            damage(d)
        return str(d)

    def flip(d):
        data = bytearray((d / "tactictoe.tbl").read_bytes())
        data[1000] ^= 1
        (d / "tactictoe.tbl").write_bytes(bytes(data))

    def wrong_game(d):
        shutil.copy(tables["classic"], d / "tactictoe.tbl")

    return {
        "buttons": make("buttons", _board_json("pico-buttons")),
        "matrix": make("matrix", _board_json("pico-matrix")),
        "touch": make("touch", _board_json("esp32-touch")),
        "touch-rises": make("touch-rises", _board_json("esp32-touch", input__direction="rises")),
        "corrupt": make("corrupt", _board_json("pico-buttons"), damage=flip),
        "missing": make("missing", _board_json("pico-buttons"), games=("classic",)),
        "wrong-game": make("wrong-game", _board_json("pico-buttons"), games=("classic",), damage=wrong_game),
        "bad-config": make("bad-config", '{"leds": {"pin": 16, "order": "zigzag"}, "input": {"kind": "buttons"}}'),
    }


def run_scenario(interpreter, folder, name, heapsize=None, path=None):
    path = path or [DOUBLES, FW, FIRMWARE]
    script = os.path.join(FW, "scenarios.py")
    if interpreter == "micropython":
        cmd = [MICROPYTHON] + (["-X", "heapsize=" + heapsize] if heapsize else []) + [script, folder, name]
        env = dict(os.environ, MICROPYPATH=":".join(path + [".frozen"]))
    else:
        cmd = [sys.executable, script, folder, name]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)


def transcript(r):
    return [line for line in r.stdout.splitlines() if line.startswith("| ")]


CASES = [
    ("selftest", "buttons"), ("menu", "buttons"), ("two-classic", "buttons"),
    ("two-tactictoe", "buttons"), ("vanishing", "buttons"), ("repetition", "buttons"),
    ("games", "buttons"), ("demo-classic", "buttons"), ("demo-tactictoe", "buttons"),
    ("hints", "buttons"), ("long-press", "buttons"), ("fallback", "corrupt"), ("fallback", "missing"),
    ("fallback", "wrong-game"), ("config-problem", "bad-config"), ("safe-mode", "buttons"),
    ("safe-mode", "matrix"), ("safe-mode", "touch"), ("crash", "buttons"), ("wiring", "buttons"),
    ("wiring", "matrix"), ("wiring", "touch"), ("wiring-rises", "touch-rises"),
]


@pytest.mark.parametrize("name, board", CASES, ids=["%s-%s" % c for c in CASES])
def test_scenario_on_micropython_and_cpython(flash, name, board):
    mp = run_scenario("micropython", flash[board], name)
    assert mp.returncode == 0 and mp.stdout.rstrip().endswith("PASS"), mp.stdout[-3000:] + mp.stderr[-3000:]
    cp = run_scenario("cpython", flash[board], name)
    assert cp.returncode == 0 and cp.stdout.rstrip().endswith("PASS"), cp.stdout[-3000:] + cp.stderr[-3000:]
    assert transcript(mp) == transcript(cp)
    assert transcript(mp)


def test_scenario_checks_can_fail(flash, tmp_path):
    """The harness is not a rubber stamp: a board whose strip is wired in a
    different order than its board.json says fails the self-test walk."""
    folder = tmp_path / "liar"
    shutil.copytree(flash["buttons"], folder)
    r = run_scenario("micropython", str(folder), "selftest",
                     path=[str(tmp_path / "doubles"), DOUBLES, FW, FIRMWARE])
    assert r.returncode == 0, r.stdout + r.stderr
    # A neopixel double that reverses the strip, as a chain soldered backwards would.
    (tmp_path / "doubles").mkdir()
    with open(os.path.join(DOUBLES, "neopixel.py")) as f:
        src = f.read()
    (tmp_path / "doubles" / "neopixel.py").write_text(src.replace(
        "last = bytes(self.buf)", "last = bytes(b for i in range(self.n - 1, -1, -1) for b in self.buf[3 * i:3 * i + 3])"))
    r = run_scenario("micropython", str(folder), "selftest",
                     path=[str(tmp_path / "doubles"), DOUBLES, FW, FIRMWARE])
    assert r.returncode == 1 and "FAIL walk step 0" in r.stdout
