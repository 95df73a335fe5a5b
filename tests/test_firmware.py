"""The board firmware end to end: scripted sessions on a simulated board
(tests/fw/scenarios.py) under the real MicroPython Unix port and under
CPython, with only machine and neopixel replaced by test doubles."""

import os
import shutil

import pytest

from conftest import DOUBLES, FW, FIRMWARE, run_scenario, transcript

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
