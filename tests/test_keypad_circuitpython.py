"""The Pimoroni Pico RGB Keypad Base end to end on CircuitPython: the file
``make uf2 BOARD=keypad RUNTIME=circuitpython`` writes (the Pico's own
CircuitPython 10.2.1 build and the CIRCUITPY drive ``make circuitpy``
stages), in the emulated RP2040 wired as the keypad: ``busio.I2C`` reading
the keys from the TCA9555 (it first checks SDA and SCL for the base's
pull-up resistors), ``adafruit_dotstar`` sending the APA102 frames, decoded
on SPI0.

One board shared by the module's tests, in file order (each can also run
alone); then a second power-on whose drive holds a corrupt table. All in
lockstep on the emulated clock: limits are emulated milliseconds.
"""

import os

import pytest

from conftest import need_image
from host_tools.drive import uf2
from pico_board import (
    corrupt_drive, PicoRun, is_menu, perfect, play, plays_on_without_its_table, start_game, to_the_menu,
)
from tactictoe import rules

BOARD = "circuitpython-keypad"
GRID = (0, 1, 2, 4, 5, 6, 8, 9, 10)  # the 4x4's top-left 3x3
MENU, HINT, UNDO = 3, 7, 11
UNUSED = (12, 13, 14, 15)


@pytest.fixture(scope="module")
def board(tmp_path_factory, table_files):
    path = str(tmp_path_factory.mktemp("cpkeypad") / "tactictoe-circuitpython-keypad.uf2")
    need_image("circuitpython-pico", "bootrom")  # (or the tests skip, saying which)
    uf2.write(path, board=BOARD, tables_dir=os.path.dirname(table_files[rules.CLASSIC]), runtime="circuitpython")
    b = PicoRun(None, board=BOARD, uf2=(path,), runtime="circuitpython", grid=GRID)
    yield b
    b.close()


def dark(b, keys):
    return all(b.chip.pixels[k][:3] == (0, 0, 0) for k in keys)


def test_boots_to_the_menu_on_the_apa102s(board):
    b = board
    assert b.chip.uf2 and b.chip.hardware == "pico-rgb-keypad"
    b.wait(is_menu, 15000, "the menu")  # decoded from the APA102 frames
    assert len(b.chip.pixels) == 16 and dark(b, UNUSED)
    config = [line for line in b.lines if "config:" in line]
    assert config == [], config  # its own config taken, the expander found
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_tactictoe_won_through_the_expander_with_a_take_back(board, table_files):
    b = board
    start_game(b, rules.TACTICTOE)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 8000, "the game")
    assert dark(b, (UNDO,) + UNUSED)
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


def test_classic_drawn_after_the_menu_key_with_a_hint(board, table_files):
    b = board
    to_the_menu(b, MENU)  # from the won game: the menu key
    start_game(b, rules.CLASSIC)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 8000, "the game")
    before = b.chip.frame
    b.press(HINT)  # the hints on the empty cells, as the APA102s show them
    b.run(500)
    assert b.chip.frame != before and dark(b, UNUSED)
    b.press(HINT)  # and off again
    b.run(500)
    assert b.chip.frame == before
    pos, result = play(b, rules.CLASSIC, perfect(rules.CLASSIC, table_files[rules.CLASSIC]), limit_ms=30000)
    assert result == "serial classic: draw" and pos.winner() is None
    assert dark(b, UNUSED) and [f for f in b.lines if f.startswith("fault")] == []


def test_a_corrupt_table_is_refused_and_the_game_plays_on(tmp_path, table_files):
    drive = corrupt_drive(tmp_path, BOARD, table_files)
    b = PicoRun(str(drive), board=BOARD, runtime="circuitpython", grid=GRID)  # the Pico's own build
    try:
        assert os.path.basename(b.chip.uf2[0]) == "adafruit-circuitpython-raspberry_pi_pico-en_US-10.2.1.uf2"
        b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table corrupt: CRC-32 of records is", 15000)
        start_game(b, rules.TACTICTOE)
        plays_on_without_its_table(b)
        assert dark(b, UNUSED)
    finally:
        b.close()
