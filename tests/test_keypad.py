"""The Pimoroni Pico RGB Keypad Base (PIM551) end to end on MicroPython: the
file ``make uf2 BOARD=keypad`` writes, in the emulated RP2040 wired as the
keypad: keys read through the TCA9555 on I2C0, LEDs decoded from the
APA102 frames on SPI0.

One board shared by the module's tests, in file order; then a second
power-on with a corrupt table. All in lockstep on the emulated clock:
limits are emulated milliseconds.
"""

import os

import pytest

from conftest import need_image
from host_tools.drive import uf2
from pico_board import PicoRun, flash_image, is_menu, perfect, play, plays_on_without_its_table, start_game
from tactictoe import rules

BOARD = "keypad"
GRID = (0, 1, 2, 4, 5, 6, 8, 9, 10)  # the 4x4's top-left 3x3
MENU, HINT, UNDO = 3, 7, 11
UNUSED = (12, 13, 14, 15)


@pytest.fixture(scope="module")
def board(tmp_path_factory, table_files):
    path = str(tmp_path_factory.mktemp("keypad") / "tactictoe-keypad.uf2")
    need_image("micropython", "bootrom")  # (or the tests skip, saying which)
    uf2.write(path, board=BOARD, tables_dir=os.path.dirname(table_files[rules.CLASSIC]))
    b = PicoRun(None, board=BOARD, uf2=(path,), grid=GRID)
    yield b
    b.close()


def dark(b, keys):
    return all(b.chip.pixels[k][:3] == (0, 0, 0) for k in keys)


def test_boots_to_the_menu_on_the_apa102s(board):
    b = board
    assert b.chip.hardware == "pico-rgb-keypad"
    b.wait(is_menu, 6000, "the menu")  # decoded from the APA102 frames
    assert len(b.chip.pixels) == 16 and dark(b, UNUSED)
    # Each LED's brightness field as the driver sends it: full (the colours
    # carry the config's cap).
    assert {p[3] for p in b.chip.pixels} == {31}
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_classic_drawn_through_the_expander(board, table_files):
    b = board
    start_game(b, rules.CLASSIC)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 5000, "the game")
    assert dark(b, (UNDO,) + UNUSED)
    b.tap(4)
    b.serial("classic: X 4", 2000)
    b.wait(lambda line: line.startswith("serial classic: O "), 20000, "the board's reply")
    b.run(300)
    assert not dark(b, (UNDO,)) and dark(b, UNUSED)  # take back possible: its key lit
    b.press(UNDO)
    b.serial("classic: take back 2", 2000)
    pos, result = play(b, rules.CLASSIC, perfect(rules.CLASSIC, table_files[rules.CLASSIC]))
    assert result == "serial classic: draw" and pos.winner() is None
    assert dark(b, UNUSED) and [f for f in b.lines if f.startswith("fault")] == []


def test_tactictoe_won_through_the_expander(board, table_files):
    b = board
    b.press(MENU)
    start_game(b, rules.TACTICTOE)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 5000, "the game")
    pos, result = play(b, rules.TACTICTOE, perfect(rules.TACTICTOE, table_files[rules.TACTICTOE]))
    assert result == "serial tactictoe: X wins" and pos.winner() == rules.X
    assert dark(b, UNUSED) and [f for f in b.lines if f.startswith("fault")] == []


def test_a_corrupt_table_is_refused_and_the_game_plays_on(tmp_path, table_files):
    tables_dir = os.path.dirname(table_files[rules.CLASSIC])
    bad = bytearray(open(table_files[rules.TACTICTOE], "rb").read())
    bad[1000] ^= 0xFF
    img = flash_image(tmp_path / "flash.lfs", board=BOARD, tables_dir=tables_dir,
                      extra=[("lib/tactictoe/tactictoe.tbl", bytes(bad))])
    b = PicoRun(img, board=BOARD, grid=GRID)
    try:
        b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table corrupt: CRC-32 of records is", 6000)
        start_game(b, rules.TACTICTOE)
        plays_on_without_its_table(b)
    finally:
        b.close()
