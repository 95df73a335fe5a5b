"""The Adafruit MacroPad RP2040 end to end on MicroPython: the file ``make
uf2 BOARD=macropad`` writes (the stock RPI_PICO build and the littlefs that
``make flash`` fills) in the emulated RP2040 wired as the MacroPad, with its
chips: the SH1106's glass decoded and compared with the words rendered by
the MicroPython Unix port's own framebuf, the NeoPixels decoded from GPIO
19, the encoder's quadrature edges, the keys on GPIO 0-12.

One board shared by the module's tests, in file order, each going on from
where the one before left it; then a second power-on with a corrupt table.
All in lockstep on the emulated clock: limits are emulated milliseconds.
"""

import os

import pytest

from conftest import need_image
from host_tools.drive import uf2
from host_tools.sim import pico, screen as sim_screen
from pico_board import PicoRun, flash_image, perfect, play, plays_on_without_its_table, rendered, start_game
from tactictoe import rules

BOARD = "macropad"
GRID = range(3, 12)  # the 3x3 under the top row: cell c is key c + 3
MENU, HINT, UNDO, SELECT = 0, 1, 2, 12  # the function keys, and the encoder's switch (GPIO 0)
BLANK = ""


def shows(b, lines, limit_ms=3000):
    """Run until the screen shows exactly ``lines`` (as framebuf draws them,
    a line every 14 rows); AssertionError with both pictures if not."""
    want = rendered(lines)
    end = b.ms + limit_ms
    while b.chip.screen != want:
        if b.ms >= end:
            got = sim_screen.render(b.chip.screen) if b.chip.screen else ["(dark)"]
            raise AssertionError("the screen, after %d emulated ms, is not %r:\n%s\nexpected:\n%s"
                                 % (limit_ms, lines, "\n".join(got), "\n".join(sim_screen.render(want))))
        b.run(50)


def turn(b, detents, edge_ms=None):
    b.chip.turn(detents, edge_ms)
    b.wait(lambda line: line.startswith("turned "), 500, "the encoder's detents")


@pytest.fixture(scope="module")
def tables_dir(table_files):
    return os.path.dirname(table_files[rules.CLASSIC])


@pytest.fixture(scope="module")
def board(tmp_path_factory, tables_dir):
    """A MacroPad flashed with build/tactictoe-macropad.uf2 alone."""
    path = str(tmp_path_factory.mktemp("macropad") / "tactictoe-macropad.uf2")
    need_image("micropython", "bootrom")  # (or the tests skip, saying which)
    uf2.write(path, board=BOARD, tables_dir=tables_dir)
    b = PicoRun(None, board=BOARD, uf2=(path,), grid=GRID)
    yield b
    b.close()


def test_boots_to_the_menu_with_its_words_on_the_screen(board):
    b = board
    assert b.chip.hardware == "macropad"
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == ".D./X.o/.w.", 6000, "the menu")
    shows(b, ("Choose a game:", "> Tactic-toe", "Old marks vanish", "Turn dial, press", BLANK))
    st = b.chip.screen_state
    assert (st["on"], st["remap"], st["comrev"]) == (1, 1, 1)
    # The NeoPixels' bits within the WS2812 datasheet's windows, 12 pixels.
    assert pico.timing_problems(b.chip.timing) == [] and len(b.chip.wire) == 36
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_the_encoder_picks_options_clockwise_forward(board):
    b = board
    b.press(SELECT)  # Tactic-toe
    shows(b, ("Who plays?", "> You are X", "You go first", "Turn dial, press", "Menu"))
    # A flick: a detent in 2 ms, faster than the 5 ms key scan (each edge
    # counted as it comes, by the pins' interrupts)
    turn(b, 1, edge_ms=0.5)  # one clockwise detent: the next option
    shows(b, ("Who plays?", "> You are O", "Board goes first", "Turn dial, press", "Menu"))
    turn(b, -1, edge_ms=0.5)
    shows(b, ("Who plays?", "> You are X", "You go first", "Turn dial, press", "Menu"))
    assert b.chip.turned == 0
    b.press(SELECT)  # you are X
    shows(b, ("Board's level:", "> Perfect", "Never loses", "Turn dial, press", "Menu"))
    b.press(SELECT)
    shows(b, ("Play with help?", "> No help", "Just play", "Turn dial, press", "Menu"))
    b.press(SELECT)


def test_tactictoe_won_through_the_keys(board, table_files):
    b = board
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 5000, "the game")
    shows(b, ("Tactic-toe", "You X vs Perfect", "Your move (X)", "You: W0 D0 L0", "Menu  Hint"))
    pos, result = play(b, rules.TACTICTOE, perfect(rules.TACTICTOE, table_files[rules.TACTICTOE]))
    assert result == "serial tactictoe: X wins"
    assert pos.winner() == rules.X and len(pos._undo) == 13
    shows(b, ("You win!", "You X vs Perfect", "You: W1 D0 L0", "Press: again", "Menu"))


def test_function_keys_hint_take_back_and_menu(board):
    b = board
    b.press(MENU)
    shows(b, ("Choose a game:", "> Tactic-toe", "Old marks vanish", "Turn dial, press", BLANK))
    start_game(b, rules.CLASSIC)  # through the grid's keys, as on a Pico
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 5000, "the game")
    before = b.chip.frame
    assert b.chip.pixels[UNDO][:3] == (0, 0, 0)  # nothing to take back: its key dark
    b.tap(4)
    b.serial("classic: X 4", 2000)
    b.wait(lambda line: line.startswith("serial classic: O "), 20000, "the board's reply")
    shows(b, ("Classic", "You X vs Perfect", "Your move (X)", "You: W0 D0 L0", "Menu  Hint  Undo"))
    assert b.chip.pixels[UNDO][:3] != (0, 0, 0)  # lit: a take-back is possible
    b.press(HINT)
    shows(b, ("Your move (X)", "Fast: X wins", "Slow: draw", "Faint: X loses", "Menu  Hide  Undo"))
    b.press(HINT)
    shows(b, ("Classic", "You X vs Perfect", "Your move (X)", "You: W0 D0 L0", "Menu  Hint  Undo"))
    b.press(UNDO)
    b.serial("classic: take back 2", 2000)
    shows(b, ("Classic", "You X vs Perfect", "Your move (X)", "You: W0 D0 L0", "Menu  Hint"))
    b.run(500)
    assert b.chip.frame == before and b.chip.pixels[UNDO][:3] == (0, 0, 0)


def test_classic_drawn_through_the_keys(board, table_files):
    b = board
    pos, result = play(b, rules.CLASSIC, perfect(rules.CLASSIC, table_files[rules.CLASSIC]))
    assert result == "serial classic: draw" and pos.winner() is None
    shows(b, ("Draw", "You X vs Perfect", "You: W0 D1 L0", "Press: again", "Menu"))
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_a_corrupt_table_is_refused_and_the_game_plays_on(tmp_path, tables_dir):
    bad = bytearray(open(os.path.join(tables_dir, "tactictoe.tbl"), "rb").read())
    bad[1000] ^= 0xFF
    img = flash_image(tmp_path / "flash.lfs", board=BOARD, tables_dir=tables_dir,
                      extra=[("lib/tactictoe/tactictoe.tbl", bytes(bad))])
    b = PicoRun(img, board=BOARD, grid=GRID)
    try:
        b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table corrupt: CRC-32 of records is", 6000)
        shows(b, ("Choose a game:", "> Tactic-toe", "Old marks vanish", "No table: weaker", BLANK), 6000)
        for key in (SELECT, SELECT, SELECT, SELECT):  # tactic-toe, you are X, perfect, no hints
            b.press(key)
        shows(b, ("Tactic-toe table", "missing or bad:", "weaker AI, no", "hints", BLANK))
        plays_on_without_its_table(b)
    finally:
        b.close()
