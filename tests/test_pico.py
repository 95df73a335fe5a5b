"""The firmware on the real MicroPython rp2 port (the UF2 a maker flashes) in
an emulated RP2040: boot, self-test, menu and whole games through GPIO
presses, the NeoPixel frames decoded from the data pin, the buzzer's PWM,
tables refused, safe mode, the matrix wiring.

Everything runs in lockstep on the emulated clock (``pico_board``): limits
are emulated milliseconds, so a loaded machine makes these slower, never
different.
"""

import os

import pytest

from conftest import DOUBLED, SWAPPED, out_of_order
from pico_board import PicoRun, check_self_test, flash_image, perfect, play, plays_on_without_its_table, start_game
from host_tools.sim import pico
from tactictoe import rules
from conftest import HANG_S



@pytest.fixture
def board(tmp_path):
    boards = []

    def make(image=None, **kw):
        b = PicoRun(image, **kw)
        boards.append(b)
        return b

    yield make
    for b in boards:
        b.close()


@pytest.fixture(scope="module")
def image(tmp_path_factory, table_files):
    """The littlefs image make flash leaves on a pico-buttons board."""
    d = tmp_path_factory.mktemp("pico")
    return flash_image(d / "flash.lfs", tables_dir=os.path.dirname(table_files[rules.CLASSIC]))


def copy(src, tmp_path, name="flash.lfs"):
    dst = tmp_path / name
    dst.write_bytes(open(src, "rb").read())
    return str(dst)


def test_boots_to_the_menu_with_the_self_test_on_the_pin(board, image, tmp_path):
    b = board(copy(image, tmp_path))
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == ".D./X.o/.w.", 4000, "the menu")
    check_self_test(b)  # decoded from the data pin's edges
    # Every bit on the wire within the WS2812 datasheet's windows, whole bytes.
    assert set(b.chip.timing) >= {"h0", "h1", "low"}
    assert pico.timing_problems(b.chip.timing) == []
    assert b.chip.wire and len(b.chip.wire) == 27


def test_tactictoe_won_as_x_and_classic_drawn_through_gpio_presses(board, image, tmp_path, table_files):
    b = board(copy(image, tmp_path))
    start_game(b, rules.TACTICTOE)
    pos, result = play(b, rules.TACTICTOE, perfect(rules.TACTICTOE, table_files[rules.TACTICTOE]))
    assert result == "serial tactictoe: X wins"
    assert pos.winner() == rules.X and len(pos._undo) == 13  # X wins in 13
    # A long press goes back to the menu; classic against the perfect level.
    b.hold(1 << 4)
    b.run(1800)
    b.hold(0)
    start_game(b, rules.CLASSIC)
    pos, result = play(b, rules.CLASSIC, perfect(rules.CLASSIC, table_files[rules.CLASSIC]))
    assert result == "serial classic: draw"
    assert pos.winner() is None
    assert [f for f in b.lines if f.startswith("fault")] == []
    # The tables' background check, long over, found nothing to say.
    assert b.ms > 10000 and not [line for line in b.lines if "table" in line]


def test_the_console_narrates_and_a_refused_cell_shows_solid_red(board, image, tmp_path):
    """The narration ("> " lines) on the serial console, screen by screen;
    a press on a taken cell: the cell solid red (one colour, full) for at
    least 400 ms of the chip's clock, on the frames decoded from the pin."""
    b = board(copy(image, tmp_path))
    for line in ("Testing the lights.",
                 ("Choose a game: cell 3 classic (3 in a row wins), cell 5 tactic-toe (old marks vanish),"
     " cell 1 puzzles (win in N moves), cell 7 score (see or reset it)."),
                 "Pulsing now: cell 5, tactic-toe.", "Tap a lit cell to choose; hold any cell 1.5 s to start over."):
        b.serial("> " + line, 4000)
    for cell, said in ((3, "Who plays? cell 0 you are X (you go first), cell 2 you are O"),
                       (6, ("Play with help? cell 3 no help (just play), cell 4 trainer (shows blunders),"
     " cell 5 hints on (best moves glow).")),
                       (3, "New game of classic: two players, X starts; no help.")):
        b.tap(cell)
        b.serial("> " + said, 2000)
    b.serial("> X to move: tap a free cell.", 500)
    b.tap(4)
    b.serial("classic: X 4", 2000)
    b.serial("> X played on cell 4.", 500)
    b.serial("> O to move: tap a free cell.", 500)
    b.tap(0)
    b.serial("classic: O 0", 2000)
    b.serial("> X to move: tap a free cell.", 500)
    start = len(b.lines)
    b.tap(4)  # taken (not the newest mark, 0, which a double tap would take back): refused
    b.serial("> Cell 4 can't be played now: tap a free cell.", 1000)
    b.run(1000)
    frames = [line.split() for line in b.lines[start:] if line.startswith("frame ")]
    red = [i for i, f in enumerate(frames) if f[2].replace("/", "")[4] == "R"]
    assert red and red == list(range(red[0], red[-1] + 1)) and red[-1] + 1 < len(frames)
    assert len({frames[i][3].split(",")[4] for i in red}) == 1  # one colour: solid, no blink
    lit_ms = int(frames[red[-1] + 1][1]) - int(frames[red[0]][1])
    assert 400 <= lit_ms <= 520, lit_ms
    assert frames[-1][2].replace("/", "")[4] == "X"  # then the mark again


def test_a_corrupt_table_is_refused_and_the_game_still_plays(board, tmp_path, table_files):
    good = open(table_files[rules.TACTICTOE], "rb").read()
    bad = bytearray(good)
    bad[1000] ^= 0xFF
    img = flash_image(tmp_path / "flash.lfs", tables_dir=os.path.dirname(table_files[rules.CLASSIC]),
                      extra=[("lib/tactictoe/tactictoe.tbl", bytes(bad))])
    b = board(img)
    start_game(b, rules.TACTICTOE)
    # The console says why, the red X blinks before play, then the fallback
    # AI plays.
    b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table corrupt: CRC-32 of records is", 3000)
    plays_on_without_its_table(b)


@pytest.mark.parametrize("how, record", [("swapped", SWAPPED + 1), ("doubled", DOUBLED)])
def test_records_out_of_order_are_caught_after_power_on(board, tmp_path, table_files, how, record):
    """A tactic-toe table power-on accepts (count, CRC and each bucket's
    ends right) with two records swapped, or one doubled, inside a bucket:
    the background check finds it a few seconds after power-on, says so as
    power-on would, and the game falls back: the menu's red cell, the red X
    before play, then the fallback AI."""
    good = open(table_files[rules.TACTICTOE], "rb").read()
    img = flash_image(tmp_path / "flash.lfs", tables_dir=os.path.dirname(table_files[rules.CLASSIC]),
                      extra=[("lib/tactictoe/tactictoe.tbl", out_of_order(good, how))])
    b = board(img)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == ".D./X.o/.w.", 4000, "the menu")
    assert not [line for line in b.lines if "table" in line]  # power-on accepted it
    b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table records out of order at record %d; its perfect"
             " level plays a minimax search instead, and hints are off" % record, 8000)
    assert b.ms < 8000
    b.wait(lambda line: line.startswith("frame ") and line.split()[2][-1] in "Rr", 1000, "the menu's red cell")
    for cell in (5, 0, 8, 3):  # tactic-toe, you are X, perfect, no hints
        b.tap(cell)
    b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table records out of order", 1000)
    plays_on_without_its_table(b)


def test_holding_the_centre_at_power_on_is_safe_mode(board, image, tmp_path):
    b = board(copy(image, tmp_path))
    b.hold(1 << 4)
    b.chip.power_cycle()
    b.serial("safe mode: the centre cell was held at power-on", 3000)
    assert b.frames()[-1].split()[2] == ".../.o./..."
    b.hold(0)
    # The REPL is free: the game did not start.
    b.type("print(6 * 7)\r\n")
    b.serial("42", 2000)


def test_matrix_wiring_and_buzzer_on_the_real_port(board, tmp_path, table_files):
    img = flash_image(tmp_path / "flash.lfs", board="pico-matrix",
                      tables_dir=os.path.dirname(table_files[rules.CLASSIC]))
    b = board(img, board="pico-matrix")
    # The serpentine chain decodes back to cells 0..8 in order.
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == ".../.../..W", 3000, "the walk's end")
    assert [f.split()[2] for f in b.frames()[:3]] == ["W../.../...", ".W./.../...", "..W/.../..."]
    start_game(b, rules.CLASSIC)
    # Every cell of the matrix is a key: X plays 4, then a refused press on it.
    b.tap(4)
    b.serial("classic: X 4", 2000)
    b.wait(lambda line: line == "tone %s 1319" % line.split()[1] if line.startswith("tone ") else False,
           1000, "the move's beep")
    line = b.wait(lambda line: line.startswith("serial classic: O "), 5000, "the board's move")
    o = int(line.split()[-1])
    b.run(300)
    b.tap(4)  # X's own mark (the newest, the board's, would start a take-back's double tap)
    b.wait(lambda line: line.startswith("tone ") and line.split()[2] == "196", 1000, "the refusal's grumble")
    b.wait(lambda line: line.startswith("tone ") and line.split()[2] == "0", 1000, "silence")
    free = [c for c in range(9) if c not in (4, o)]
    b.tap(free[-1])
    b.serial("classic: X %d" % free[-1], 2000)
    # Stopped from the computer (Ctrl-C, as mpremote does) while a note
    # plays, the buzzer falls silent: the port's own reset would leave its
    # PWM sounding.
    b.run(1500)
    b.tap(4)
    b.wait(lambda line: line.startswith("tone ") and line.split()[2] == "196", 1000, "the refusal's grumble")
    b.type("\x03")
    b.serial("stopped: Ctrl-C; the REPL is yours (reset to play again)", 1000)  # one calm line, no traceback
    b.wait(lambda line: line.startswith("tone ") and line.split()[2] == "0", 200, "silence after Ctrl-C")


def test_the_mx_kit_on_the_real_port(board, tmp_path, table_files):
    """pico-mx on the rp2 port: keys 0-2 on GP26-GP28 (ADC pins, read as
    GPIO inputs with pull-ups) and the chain entering at cell 8, read back
    from the data pin's bytes themselves, not only through the config."""
    order = [8, 7, 6, 3, 4, 5, 2, 1, 0]
    img = flash_image(tmp_path / "flash.lfs", board="pico-mx",
                      tables_dir=os.path.dirname(table_files[rules.CLASSIC]))
    b = board(img, board="pico-mx")
    assert b.chip.cfg["leds"]["order"] == order
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == ".../.../..W", 3000, "the walk's end")
    check_self_test(b)  # cells 0 to 8 in reading order, decoded through leds.order
    for cell in range(9):  # on the wire: pixel order[cell] alone, pixel 8 (cell 0) first
        wire = b.wires[cell]
        assert [p for p in range(9) if any(wire[3 * p:3 * p + 3])] == [order[cell]], cell
    start_game(b, rules.CLASSIC)
    mine = []

    def choose(pos):  # X: cell 8 first, then the top row's keys (GP26-GP28) while one is free
        free = [c for c in (8, 0, 1, 2, 3, 4, 5, 6, 7) if c in pos.legal_moves()]
        mine.append(free[0])
        return free[0]

    n = len(b.frames())
    pos, result = play(b, rules.CLASSIC, choose)
    assert result in ("serial classic: draw", "serial classic: O wins")
    assert mine[0] == 8 and mine[1] in (0, 1, 2)  # each tap became its cell's move (play waits for it)
    frames = b.frames()
    k = next(i for i in range(n, len(frames)) if frames[i].split()[2].replace("/", "")[8] == "X")
    wire = b.wires[k]
    assert wire[1] > wire[2] == 0 and wire[0] > 0  # pixel 0 shows X's orange, GRB on the wire


@pytest.mark.parametrize("args, message", [
    (["--board", "esp32-touch"], "the emulated RP2040 is a Pico; esp32-touch is wired for esp32-devkit"),
    (["--replay", "x.txt"], "--replay runs on the Unix-port board; with --chip rp2040 use --headless"),
    (["--flash", "junk.lfs"], "junk.lfs: a Pico filesystem image is 1441792 bytes, not 5; it should be"),
])
def test_sim_on_the_emulated_chip_refuses_in_one_line(tmp_path, args, message):
    import subprocess
    import sys

    (tmp_path / "junk.lfs").write_bytes(b"junk\n")
    r = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--chip", "rp2040", "--headless"] + args,
                       cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=HANG_S,
                       env=dict(os.environ, PYTHONPATH=pico.ROOT))
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and message in r.stderr, r.stderr
