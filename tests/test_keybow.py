"""The Pimoroni Keybow 2040 (PIM56X) end to end on MicroPython: the file
``make uf2 BOARD=keybow`` writes, in the emulated RP2040 wired as the
Keybow: keys SW0-SW15 on GPIO 21 down to 6, LEDs decoded from the
IS31FL3731's registers (I2C0, 0x74).

Keys are the Keybow's SW numbers: SW0 at the bottom left with the USB
connector at the top, up each column to SW15 at the top right. One board
shared by the module's tests, in file order; then a second power-on with a
corrupt table. All in lockstep on the emulated clock: limits are emulated
milliseconds.
"""

import os

import pytest

from conftest import need_image
from host_tools.drive import uf2
from pico_board import PicoRun, flash_image, is_menu, perfect, play, plays_on_without_its_table, start_game
from tactictoe import config, rules

BOARD = "keybow"
GRID = (3, 7, 11, 2, 6, 10, 1, 5, 9)  # the top-left 3x3, in reading order
MENU, HINT, UNDO = 15, 14, 13  # the right-hand column, top down
UNUSED = (0, 4, 8, 12)  # the bottom row


@pytest.fixture(scope="module")
def board(tmp_path_factory, table_files):
    path = str(tmp_path_factory.mktemp("keybow") / "tactictoe-keybow.uf2")
    need_image("micropython", "bootrom")  # (or the tests skip, saying which)
    uf2.write(path, board=BOARD, tables_dir=os.path.dirname(table_files[rules.CLASSIC]))
    b = PicoRun(None, board=BOARD, uf2=(path,), grid=GRID)
    yield b
    b.close()


def dark(b, keys):
    return all(b.chip.pixels[k][:3] == (0, 0, 0) for k in keys)


def test_boots_to_the_menu_on_the_is31fl3731(board):
    b = board
    assert b.chip.hardware == "keybow2040"
    b.wait(is_menu, 6000, "the menu")  # decoded from the IS31FL3731's registers
    assert len(b.chip.pixels) == 16 and dark(b, UNUSED)
    assert [line for line in b.lines if "config:" in line] == []  # its own config taken, the chip found
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_classic_drawn_with_a_take_back_and_a_hint(board, table_files):
    b = board
    start_game(b, rules.CLASSIC)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 5000, "the game")
    assert dark(b, (UNDO,) + UNUSED) and not dark(b, (MENU, HINT))
    b.tap(4)
    b.serial("classic: X 4", 2000)
    b.wait(lambda line: line.startswith("serial classic: O "), 20000, "the board's reply")
    b.run(300)
    assert not dark(b, (UNDO,)) and dark(b, UNUSED)  # take back possible: its key lit
    # X on the centre: SW6's LED, the config's orange under its 0.25 cap, as
    # the chip's PWM registers hold it (red, green, blue LEDs 137, 41, 73)
    assert b.chip.pixels[GRID[4]][:3] == tuple(v * 64 >> 8 for v in config.COLOURS["x"])
    b.press(UNDO)
    b.serial("classic: take back 2", 2000)
    b.run(500)
    assert dark(b, (UNDO,))  # nothing left to take back
    before = b.chip.frame
    b.press(HINT)  # the hints on the empty cells
    b.run(500)
    assert b.chip.frame != before
    b.press(HINT)  # and off again
    b.run(500)
    assert b.chip.frame == before
    pos, result = play(b, rules.CLASSIC, perfect(rules.CLASSIC, table_files[rules.CLASSIC]))
    assert result == "serial classic: draw" and pos.winner() is None
    assert dark(b, UNUSED) and [f for f in b.lines if f.startswith("fault")] == []


def test_tactictoe_won_after_the_menu_key(board, table_files):
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
