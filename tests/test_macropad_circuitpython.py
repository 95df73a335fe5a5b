"""The Adafruit MacroPad RP2040 end to end on CircuitPython: the file ``make
uf2 BOARD=macropad RUNTIME=circuitpython`` writes (the MacroPad's own
CircuitPython 10.2.1 build and the CIRCUITPY drive ``make circuitpy``
stages) in the emulated RP2040 wired as the MacroPad: ``keypad`` scanning
the keys, ``rotaryio`` counting the encoder, ``displayio`` drawing the
words on the SH1106, ``neopixel`` driving GPIO 19.

CircuitPython draws the words in its own font (``terminalio.FONT``), not
framebuf's, so the screen is checked by what changes it and what brings it
back: the same words make the same picture. Which way a turn goes is
checked by its effect: one clockwise detent on "Who plays?" picks "You are
O", and the board then opens the game.

One board shared by the module's tests, in file order (the classic game
can also run alone); then a second power-on whose drive holds a corrupt
table. All in lockstep on the emulated clock: limits are emulated
milliseconds.
"""

import os

import pytest

from conftest import need_image
from host_tools.drive import uf2
from host_tools.sim import pico
from pico_board import (
    corrupt_drive, PicoRun, is_menu, perfect, play, plays_on_without_its_table, start_game, to_the_menu,
)
from tactictoe import rules

BOARD = "circuitpython-macropad"
GRID = range(3, 12)
MENU, HINT, UNDO, SELECT = 0, 1, 2, 12


def lit(fb):
    return sum(bin(byte).count("1") for byte in fb or b"")


def settled(b, ms=600):
    """The screen once it has stopped changing for ``ms``."""
    b.run(ms)
    return b.chip.screen


@pytest.fixture(scope="module")
def board(tmp_path_factory, table_files):
    path = str(tmp_path_factory.mktemp("cpmacropad") / "tactictoe-circuitpython-macropad.uf2")
    need_image("circuitpython-macropad", "bootrom")  # (or the tests skip, saying which)
    uf2.write(path, board=BOARD, tables_dir=os.path.dirname(table_files[rules.CLASSIC]), runtime="circuitpython")
    b = PicoRun(None, board=BOARD, uf2=(path,), runtime="circuitpython", grid=GRID)
    yield b
    b.close()


def test_boots_to_the_menu_with_words_on_the_screen(board):
    b = board
    assert b.chip.uf2 and b.chip.hardware == "macropad"
    b.wait(is_menu, 15000, "the menu")
    menu = settled(b)
    # Words on the glass: several text rows lit, CircuitPython's terminal gone.
    rows = [lit(menu[128 * p:128 * (p + 1)]) for p in range(8)]
    assert lit(menu) > 150 and sum(1 for n in rows if n) >= 4, rows
    assert pico.timing_problems({k: v for k, v in b.chip.timing.items() if k != "low"}) == []
    assert len(b.chip.wire) == 36  # the 12 NeoPixels, from the PIO's pulses


def test_the_encoder_and_its_switch(board):
    b = board
    menu = b.chip.screen
    b.press(SELECT)  # Tactic-toe: "Who plays?"
    who = settled(b)
    assert who != menu
    b.chip.turn(1)
    assert settled(b, 800) not in (who, menu)  # another option
    b.chip.turn(-1)
    assert settled(b, 800) == who  # back: the same words, the same picture
    b.chip.turn(1)  # "You are O"
    b.run(800)
    for _ in range(3):  # that, the level, no hints
        b.press(SELECT)
    # The board plays X: one clockwise detent went forward, from X to O.
    b.serial("tactictoe: X ", 20000)
    b.press(MENU)
    assert settled(b) == menu  # the first menu screen again, the same words


def test_tactictoe_won_through_the_keys_with_the_take_back_key_lit(board, table_files):
    b = board
    b.wait(is_menu, 3000, "the menu")
    start_game(b, rules.TACTICTOE)  # the grid's keys pick in the menu too
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 8000, "the game")
    assert b.chip.pixels[UNDO][:3] == (0, 0, 0)
    choose = perfect(rules.TACTICTOE, table_files[rules.TACTICTOE])
    first = []

    def chooser(pos):
        if len(pos._undo) == 2 and not first:
            b.run(300)
            first.append(b.chip.pixels[UNDO][:3])  # after X's move and O's reply
        return choose(pos)

    pos, result = play(b, rules.TACTICTOE, chooser, limit_ms=30000)
    assert result == "serial tactictoe: X wins" and pos.winner() == rules.X
    assert first and first[0] != (0, 0, 0)  # lit while a take-back was possible
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_classic_drawn_with_the_hint_key(board, table_files):
    b = board
    to_the_menu(b, MENU)  # from the won game: the menu key
    start_game(b, rules.CLASSIC)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 8000, "the game")
    game, before = settled(b), b.chip.frame
    b.press(HINT)  # the hints on the cells, their legend on the screen
    assert settled(b) != game and b.chip.frame != before
    b.press(HINT)  # and hidden again: the same words, the same picture
    assert settled(b) == game and b.chip.frame == before
    pos, result = play(b, rules.CLASSIC, perfect(rules.CLASSIC, table_files[rules.CLASSIC]), limit_ms=30000)
    assert result == "serial classic: draw" and pos.winner() is None
    assert settled(b) != game  # the result on the screen
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_a_corrupt_table_is_refused_and_the_game_plays_on(tmp_path, table_files):
    drive = corrupt_drive(tmp_path, BOARD, table_files)
    b = PicoRun(str(drive), board=BOARD, runtime="circuitpython", grid=GRID)  # the MacroPad's own build
    try:
        assert os.path.basename(b.chip.uf2[0]) == "adafruit-circuitpython-adafruit_macropad_rp2040-en_US-10.2.1.uf2"
        b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table corrupt: CRC-32 of records is", 15000)
        b.wait(is_menu, 15000, "the menu")
        for key in (SELECT, SELECT, SELECT, SELECT):  # tactic-toe, you are X, perfect, no hints: the encoder's switch
            b.press(key)
        plays_on_without_its_table(b)
    finally:
        b.close()
