"""The Pimoroni Keybow 2040 end to end on CircuitPython: the file ``make uf2
BOARD=keybow RUNTIME=circuitpython`` writes (CircuitPython 10.2.1's own
Keybow 2040 build and the CIRCUITPY drive ``make circuitpy`` stages), in
the emulated RP2040 wired as the Keybow: ``keypad.Keys`` on SW0-SW15,
``busio.I2C`` (it first checks SDA and SCL for the board's pull-up
resistors) carrying ``adafruit_is31fl3731``'s Keybow2040 writes, the
colours decoded from the IS31FL3731's registers.

One board shared by the module's tests, in file order (the classic game
can also run alone); then a second power-on whose drive holds a corrupt
table. All in lockstep on the emulated clock: limits are emulated
milliseconds.
"""

import os

import pytest

from conftest import need_image
from host_tools.drive import uf2
from pico_board import (
    corrupt_drive, PicoRun, is_menu, perfect, play, plays_on_without_its_table, start_game, to_the_menu,
)
from tactictoe import config, rules

BOARD = "circuitpython-keybow"
GRID = (3, 7, 11, 2, 6, 10, 1, 5, 9)  # the top-left 3x3 (USB at the top), in reading order
MENU, HINT, UNDO = 15, 14, 13  # the right-hand column, top down
UNUSED = (0, 4, 8, 12)  # the bottom row


@pytest.fixture(scope="module")
def board(tmp_path_factory, table_files):
    path = str(tmp_path_factory.mktemp("cpkeybow") / "tactictoe-circuitpython-keybow.uf2")
    need_image("circuitpython-keybow", "bootrom")  # (or the tests skip, saying which)
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
    # X on the centre: SW6's LED, the config's orange under its 0.25 cap, as
    # pixelrgb() wrote it to the chip's PWM registers
    assert b.chip.pixels[GRID[4]][:3] == tuple(v * 64 >> 8 for v in config.COLOURS["x"])
    b.press(UNDO)
    b.serial("tactictoe: take back 2", 3000)
    b.run(500)
    before = b.chip.frame
    b.press(HINT)  # the hints on the empty cells, then off again
    b.run(500)
    assert b.chip.frame != before
    b.press(HINT)
    b.run(500)
    assert b.chip.frame == before
    pos, result = play(b, rules.TACTICTOE, perfect(rules.TACTICTOE, table_files[rules.TACTICTOE]), limit_ms=30000)
    assert result == "serial tactictoe: X wins" and pos.winner() == rules.X
    assert dark(b, UNUSED) and [f for f in b.lines if f.startswith("fault")] == []


def test_the_menu_key_leaves_the_finished_game(board):
    b = board
    b.press(MENU)
    b.wait(is_menu, 3000, "the menu")


def test_classic_drawn_from_the_menu(board, table_files):
    b = board
    to_the_menu(b, MENU)
    start_game(b, rules.CLASSIC)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 8000, "the game")
    assert dark(b, (UNDO,) + UNUSED) and not dark(b, (MENU, HINT))
    pos, result = play(b, rules.CLASSIC, perfect(rules.CLASSIC, table_files[rules.CLASSIC]), limit_ms=30000)
    assert result == "serial classic: draw" and pos.winner() is None
    assert dark(b, UNUSED) and [f for f in b.lines if f.startswith("fault")] == []


def test_a_corrupt_table_is_refused_and_the_game_plays_on(tmp_path, table_files):
    drive = corrupt_drive(tmp_path, BOARD, table_files)
    b = PicoRun(str(drive), board=BOARD, runtime="circuitpython", grid=GRID)  # the Keybow's own build
    try:
        assert os.path.basename(b.chip.uf2[0]) == "adafruit-circuitpython-pimoroni_keybow2040-en_US-10.2.1.uf2"
        b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table corrupt: CRC-32 of records is", 15000)
        start_game(b, rules.TACTICTOE)
        plays_on_without_its_table(b)
    finally:
        b.close()
