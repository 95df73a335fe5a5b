"""The Pimoroni Keybow 2040 end to end on CircuitPython: the file ``make uf2
BOARD=keybow RUNTIME=circuitpython`` writes (CircuitPython 10.2.1's own
Keybow 2040 build and the CIRCUITPY drive ``make circuitpy`` stages), in
the emulated RP2040 wired as the Keybow: ``keypad.Keys`` on SW0-SW15,
``busio.I2C`` (it first checks SDA and SCL for the board's pull-up
resistors) carrying ``adafruit_is31fl3731``'s Keybow2040 writes, the
colours decoded from the IS31FL3731's registers.

One board shared by the module's tests, in file order. All in lockstep on
the emulated clock: limits are emulated milliseconds.
"""

import os

import pytest

from host_tools.drive import uf2
from pico_board import PicoRun, is_menu, perfect, play, start_game
from tactictoe import rules

BOARD = "circuitpython-keybow"
GRID = (3, 7, 11, 2, 6, 10, 1, 5, 9)  # the top-left 3x3 (USB at the top), in reading order
MENU, HINT, UNDO = 15, 14, 13  # the right-hand column, top down
UNUSED = (0, 4, 8, 12)  # the bottom row


@pytest.fixture(scope="module")
def board(tmp_path_factory, table_files):
    path = str(tmp_path_factory.mktemp("cpkeybow") / "tactictoe-circuitpython-keybow.uf2")
    uf2.write(path, board=BOARD, tables_dir=os.path.dirname(table_files[rules.CLASSIC]), runtime="circuitpython")
    b = PicoRun(None, board=BOARD, uf2=(path,), runtime="circuitpython", grid=GRID)
    yield b
    b.close()


def dark(b, keys):
    return all(b.chip.pixels[k][:3] == (0, 0, 0) for k in keys)


def test_boots_to_the_menu_on_the_is31fl3731(board):
    b = board
    assert b.chip.hardware == "keybow2040"
    b.wait(is_menu, 15000, "the menu")  # decoded from the IS31FL3731's registers
    assert len(b.chip.pixels) == 16 and dark(b, UNUSED)
    config = [line for line in b.lines if "config:" in line]
    assert config == [], config  # its own config taken, the chip found
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_tactictoe_won_with_a_take_back(board, table_files):
    b = board
    start_game(b, rules.TACTICTOE)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 8000, "the game")
    assert dark(b, (UNDO,) + UNUSED) and not dark(b, (MENU, HINT))
    b.tap(4)
    b.serial("tactictoe: X 4", 3000)
    b.wait(lambda line: line.startswith("serial tactictoe: O "), 20000, "the board's reply")
    b.run(300)
    assert not dark(b, (UNDO,)) and dark(b, UNUSED)  # take back possible: its key lit
    b.press(UNDO)
    b.serial("tactictoe: take back 2", 3000)
    pos, result = play(b, rules.TACTICTOE, perfect(rules.TACTICTOE, table_files[rules.TACTICTOE]), limit_ms=30000)
    assert result == "serial tactictoe: X wins" and pos.winner() == rules.X
    assert dark(b, UNUSED) and [f for f in b.lines if f.startswith("fault")] == []
