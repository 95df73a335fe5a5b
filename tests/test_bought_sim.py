"""The bought boards on the MicroPython Unix port (``make sim BOARD=macropad``,
``keypad``, ``keybow``): the firmware's machine.SPI / I2C transfers reach
the chips' own JavaScript models (simulator/rp2040/chips/, the web page's),
and what is checked is what those chips decoded: the LEDs from the APA102
frames, the IS31FL3731's PWM registers or the WS2812 chain, the MacroPad's
screen from the SH1106's RAM, the keypad's keys read through the TCA9555
(active low), the dial's quadrature edges from the encoder's model.

Through the public CLI where it can (``sim --replay``, on a virtual clock,
and ``sim --headless``), through ``VirtualBoard`` where a test reads a chip
that the text output doesn't show (the extra keys' and unused keys' LEDs).
The smoke scripts of tests/mpy/ (which tests/test_chips.py runs on the rp2
image) run here as main.py, against the same models.
"""

import os
import re
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings, strategies as st

from conftest import HANG_S, MICROPYTHON, MPY_SCRIPTS, constant
from host_tools import flash as host_flash
from host_tools.sim import screen as sim_screen
from host_tools.sim.board import VirtualBoard
from host_tools.sim.chips import Chips
from host_tools.sim.headless import SerialLines
from live_sim import ROOT, LiveSim, is_menu, play, start_game
from tactictoe import ai, rules, table

BOARDS = ("macropad", "keypad", "keybow")
# The LED under each extra key (menu, hint, undo) and the LEDs no key of
# the game has, by the board's own LED numbers.
UNDO_LED = {"macropad": 2, "keypad": 11, "keybow": 13}
UNUSED_LEDS = {"macropad": (), "keypad": (12, 13, 14, 15), "keybow": (0, 4, 8, 12)}
MENU_WORDS = ("Choose a game:", "> Tactic-toe", "Old marks vanish", "Turn dial, press", "")
CLASSIC_X = "wait 1700\ntap 3\ntap 0\ntap 8\ntap 3\n"  # the menu: classic, you are X, perfect, no hints
TACTICTOE_X = "wait 1700\ntap 5\ntap 0\ntap 8\ntap 3\n"


def rendered(lines, step=14):
    """The picture the Unix port's own framebuf makes of ``lines`` (MONO_VLSB,
    128x64), a line every ``step`` rows (hw_machine's): not through any chip."""
    code = ("import framebuf\nb = bytearray(1024)\nf = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)\n"
            "for i, s in enumerate(%r):\n    f.text(s, 0, %d * i, 1)\nprint(b.hex())\n" % (tuple(lines), step))
    r = subprocess.run([MICROPYTHON, "-c", code], capture_output=True, text=True, timeout=HANG_S, check=True)
    return bytes.fromhex(r.stdout.strip())


def shown(glass):
    return "\n".join(sim_screen.render(glass)) if glass else "(dark)"


@pytest.fixture(scope="module")
def tables(table_files, tmp_path_factory):
    """A folder with both tables and the puzzles, as build/ holds them."""
    return os.path.dirname(table_files[rules.CLASSIC])


def replay(tmp_path, tables, board, script, *args):
    """``sim --replay`` on a fresh flash: its stdout lines."""
    path = tmp_path / "script.txt"
    path.write_text(script)
    r = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--board", board, "--replay", str(path),
                        "--flash", str(tmp_path / ("flash-" + board)), "--tables", tables, "--seed", "3"] + list(args),
                       cwd=ROOT, capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    return r.stdout.splitlines()


def screens(lines):
    return [bytes.fromhex(line.split()[2]) for line in lines if line.startswith("screen ")]


def run_board(b, rec, limit_s=HANG_S):
    """Run a replay ``VirtualBoard`` to its end (a guard against a hang, not
    a deadline: then fail with its last lines)."""
    b.start()
    end = time.monotonic() + limit_s
    try:
        while b.running:
            assert time.monotonic() < end, "the board hung; its last lines:\n" + "\n".join(rec.lines[-20:])
            b.poll(1.0)
    finally:
        b.close()


class Recorder:
    """A board's console lines, each with what its LEDs showed as it was
    printed (in a replay, frames and lines come in the order they happened)."""

    def __init__(self, board):
        self.board = board
        self.lines = []
        self.at = []
        board.on_output = SerialLines(self._line)

    def _line(self, text):
        self.lines.append(text[len("serial "):])
        self.at.append(list(self.board.pixels))

    def pixels_at(self, text):
        for line, px in zip(self.lines, self.at):
            if text in line:
                return px
        raise AssertionError("no %r in:\n%s" % (text, "\n".join(self.lines[-20:])))


# --- the firmware, through the CLI --------------------------------------------------------------


@pytest.mark.parametrize("board", BOARDS)
def test_boots_to_its_menu_as_its_chips_decoded_it_the_same_every_run(board, tmp_path, tables):
    runs = [replay(tmp_path, tables, board, "wait 2500\n") for _ in range(2)]
    assert runs[0] == runs[1]
    out = runs[0]
    assert any(is_menu(line) for line in out), "\n".join(out[-20:])
    if board == "macropad":
        assert screens(out)[-1] == rendered(MENU_WORDS), shown(screens(out)[-1])
    else:
        assert screens(out) == []


def test_the_dial_and_its_push_pick_options_on_the_macropad(tmp_path, tables):
    out = replay(tmp_path, tables, "macropad", "wait 1700\ntap select\nturn 1\nwait 300\n")
    want = rendered(("Who plays?", "> You are O", "Board goes first", "Turn dial, press", "Menu"))
    assert screens(out)[-1] == want, shown(screens(out)[-1])
    out = replay(tmp_path, tables, "macropad", "wait 1700\ntap select\nturn 1\nturn -1\nwait 300\n")
    want = rendered(("Who plays?", "> You are X", "You go first", "Turn dial, press", "Menu"))
    assert screens(out)[-1] == want, shown(screens(out)[-1])


@pytest.mark.parametrize("board", BOARDS)
def test_a_game_played_through_the_keys_with_hint_and_take_back(board, tmp_path, tables):
    sim = LiveSim(tmp_path / "flash", "--tables", tables, "--seed", "5", board=board)
    try:
        start_game(sim, rules.CLASSIC)
        sim.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 30, "the game")
        sim.send("tap 4")
        sim.serial("classic: X 4")
        sim.wait(lambda line: line.startswith("serial classic: O "), 30, "the board's reply")
        if board == "macropad":
            want = rendered(("Classic", "You X vs Perfect", "Your move (X)", "You: W0 D0 L0", "Menu  Hint  Undo"))
            sim.screen_is(want, "the game's screen")
        sim.send("tap hint")
        sim.wait(lambda line: line.startswith("serial > ") and "hint" in line.lower(), 30, "the hint")
        if board == "macropad":
            want = rendered(("Your move (X)", "Fast: X wins", "Slow: draw", "Faint: X loses", "Menu  Hide  Undo"))
            sim.screen_is(want, "the hint's screen")
        sim.send("tap hint", "tap undo")
        sim.serial("classic: take back 2")
        t = table.Table(os.path.join(tables, "classic.tbl"), rules.CLASSIC)
        rng = ai.Rng(1)
        pos, result = play(sim, rules.CLASSIC, lambda p: ai.choose_move(p, ai.PERFECT, t, rng))
        assert result == "serial classic: draw" and pos.winner() is None
    finally:
        sim.close()


@pytest.mark.parametrize("board", BOARDS)
def test_the_take_back_key_lights_once_there_is_a_move_to_take_back(board, tmp_path, tables):
    path, cfg = host_flash.board_config(board)[:2]
    from host_tools.sim import flash as sim_flash, script as sim_script

    flash_dir = str(tmp_path / "flash")
    sim_flash.prepare_flash(flash_dir, cfg, path, tables_dir=tables)
    changes, end = sim_script.timeline((CLASSIC_X + "wait 500\ntap 4\nwait 3000\n").splitlines(), cfg=cfg)
    b = VirtualBoard(flash_dir, board, seed=3, console=False, replay=(changes, end))
    rec = Recorder(b)
    run_board(b, rec)
    before = rec.pixels_at("Your move")
    after = rec.pixels_at("classic: O ")
    undo = UNDO_LED[board]
    assert before[undo][:3] == (0, 0, 0) and after[undo][:3] != (0, 0, 0)
    assert all(after[i][:3] == (0, 0, 0) for i in UNUSED_LEDS[board])
    assert {p[3] for p in after} == {31}  # the chips' brightness field: full (the colours carry the cap)


@pytest.mark.parametrize("board", BOARDS)
def test_a_corrupt_table_is_refused_and_the_game_plays_on(board, tmp_path, tables):
    # On the board's flash itself: sim --tables proves a table before it
    # copies one (test_sim_tables_refuses_a_wrong_table), as make flash does.
    bad = tmp_path / ("flash-" + board) / "lib" / "tactictoe"
    bad.mkdir(parents=True)
    data = bytearray(open(os.path.join(tables, "tactictoe.tbl"), "rb").read())
    data[1000] ^= 0xFF
    (bad / "tactictoe.tbl").write_bytes(bytes(data))
    out = replay(tmp_path, tables, board, TACTICTOE_X + "wait 2500\ntap 1\nwait 4000\n")
    assert any("tactictoe: table lib/tactictoe/tactictoe.tbl: table corrupt: CRC-32 of records is" in line
               for line in out), "\n".join(out[-20:])
    grids = [line.split()[2] for line in out if line.startswith("frame ")]
    assert "R.R/.R./R.R" in grids  # the red X before play
    serial = [line for line in out if line.startswith("serial tactictoe: ")]
    assert "serial tactictoe: X 1" in serial and any(line.startswith("serial tactictoe: O ") for line in serial)
    if board == "macropad":
        words = ("Choose a game:", "> Tactic-toe", "Old marks vanish", "No table: weaker", "")
        assert rendered(words) in screens(out)


# --- the smoke scripts of tests/mpy/, as main.py, against the chips' models -------------------


def script_board(tmp_path, script, board, changes=(), end=6000, live=False):
    """A Unix-port board wired as ``board`` whose main.py is tests/mpy/``script``."""
    flash_dir = tmp_path / "flash"
    flash_dir.mkdir()
    with open(os.path.join(MPY_SCRIPTS, script), "rb") as f:
        (flash_dir / "main.py").write_bytes(f.read())
    b = VirtualBoard(str(flash_dir), board, seed=1, console=False, replay=None if live else (list(changes), end))
    return b, Recorder(b)


def test_sh1106_shows_the_framebuf_text_sent_over_machine_spi(tmp_path):
    b, rec = script_board(tmp_path, "sh1106_text.py", "macropad")
    run_board(b, rec)
    assert "shown" in rec.lines
    assert b.screen == rendered(constant("sh1106_text.py", "TEXT"), step=12), shown(b.screen)
    st_ = b.screen_state
    assert (st_["on"], st_["contrast"], st_["segmentRemap"], st_["comReverse"]) == (True, 0xCF, True, True)


def test_apa102_frame_decoded_to_the_colours_sent(tmp_path):
    b, rec = script_board(tmp_path, "apa102_colours.py", "keypad")
    run_board(b, rec)
    assert "sent" in rec.lines
    assert b.pixels == [(16 * i, 255 - 16 * i, i, i + 1) for i in range(16)]


def test_tca9555_reads_the_held_keys_active_low(tmp_path):
    _, cfg = host_flash.board_config("keypad")[:2]
    keys = cfg["input"]["keys"] + [e["key"] for e in cfg["extra"]]  # the expander pin of each key-mask bit
    masks = [1 << i for i in range(12)] + [0b100000010001, 0xFFF, 0]
    changes = [(500 + 100 * n, mask) for n, mask in enumerate(masks)]
    b, rec = script_board(tmp_path, "tca9555_keys.py", "keypad", changes, end=4000)
    run_board(b, rec)
    assert "config ffff" in rec.lines and "end" in rec.lines
    seen = [line.split()[1] for line in rec.lines if line.startswith("keys ")]
    want = ["ffff"]
    for mask in masks:
        ports = 0xFFFF & ~sum(1 << keys[i] for i in range(12) if mask >> i & 1)
        want.append("%02x%02x" % (ports & 0xFF, ports >> 8))
    assert seen == want


def test_is31fl3731_registers_decoded_to_the_keybows_colours(tmp_path):
    b, rec = script_board(tmp_path, "is31fl3731_colours.py", "keybow")
    run_board(b, rec)
    # the Command Register reads back the page last selected; nothing
    # answers at 0x75 (OSError, as the port raises it); scan() finds the chip alone
    assert "page 1 0x75 silent scan [116]" in rec.lines
    colours = [(16 * k, 255 - 16 * k, k, 31) for k in range(16)]
    assert rec.pixels_at("sent") == colours  # frame 0 as written; nothing of frame 1
    colours[5] = (0, 255 - 80, 5, 31)  # key 5's red: its on bit cleared
    assert rec.pixels_at("off") == colours
    assert rec.pixels_at("frame 1") == [(200, 0, 0, 31)] + [(0, 0, 0, 31)] * 15
    assert b.pixels == [(0, 0, 0, 31)] * 16  # shut down: dark


def test_encoder_edges_from_its_model_are_seen_by_a_polling_script(tmp_path):
    b, rec = script_board(tmp_path, "encoder_edges.py", "macropad", live=True)
    b.start()
    try:
        # queued before the script runs: its key reads play them on the board's clock
        b.idle(100)
        b.turn(3)
        b.turn(-2)
        end = time.monotonic() + HANG_S  # a guard against a hang, not a deadline
        while not any(line.startswith("edges ") for line in rec.lines):
            assert b.running and time.monotonic() < end, "\n".join(rec.lines[-20:])
            b.poll(1.0)
    finally:
        b.close()
    assert "edges 20 detents 1" in rec.lines
    edges = [line.split()[-1] for line in rec.lines if line.startswith("edge ")]
    assert edges == ["10", "00", "01", "11"] * 3 + ["01", "00", "10", "11"] * 2


# --- the TCA9555 model behind whole I2C transactions --------------------------------------------


@pytest.fixture(scope="module")
def keypad_chips():
    _, cfg = host_flash.board_config("keypad")[:2]
    chips = Chips("pico-rgb-keypad", cfg)  # (a missing Node: RuntimeError, with one line)
    yield chips, cfg
    chips.close()


REG = st.integers(0, 7)
WRITE = st.tuples(st.just("write"), REG, st.lists(st.integers(0, 255), max_size=4))
READ = st.tuples(st.just("read"), REG, st.integers(1, 4))


@settings(max_examples=60, deadline=None)
@given(held=st.integers(0, 0xFFF), ops=st.lists(st.one_of(WRITE, READ), max_size=8),
       stray=st.integers(0, 0x7F).filter(lambda a: a != 0x20))
def test_tca9555_transactions_follow_the_datasheet(keypad_chips, held, ops, stray):
    """Register pairs toggle, the input ports read the pins (held keys low;
    outputs read back their level) XOR polarity, writes to them are
    ignored; nothing answers at another address."""
    chips, cfg = keypad_chips
    chips.power_on()
    keys = cfg["input"]["keys"] + [e["key"] for e in cfg["extra"]]
    low = sum(1 << keys[i] for i in range(12) if held >> i & 1)
    regs = {2: 0xFF, 3: 0xFF, 4: 0, 5: 0, 6: 0xFF, 7: 0xFF}

    def value(r):
        if r < 2:
            port = r & 1
            pins = ~(low >> 8 * port) & 0xFF
            level = (pins & regs[6 + port]) | (regs[2 + port] & ~regs[6 + port])
            return (level ^ regs[4 + port]) & 0xFF
        return regs[r]

    for kind, reg, arg in ops:
        if kind == "write":
            data, _ = chips.i2c(0, 4, 5, 0x20, bytes([reg] + arg), 0, held)
            assert data == b""
            r = reg
            for v in arg:
                if r >= 2:
                    regs[r] = v
                r ^= 1
        else:
            data, _ = chips.i2c(0, 4, 5, 0x20, bytes([reg]), arg, held)
            want, r = [], reg
            for _ in range(arg):
                want.append(value(r))
                r ^= 1
            assert list(data) == want
    assert chips.i2c(0, 4, 5, stray, b"\x00", 2, held)[0] is None
    assert chips.i2c(1, 6, 7, 0x20, b"\x00", 2, held)[0] is None  # the other controller: nothing on it


# --- make sim's terminal front-end ---------------------------------------------------------------


def tmux_sim(tmp_path, tables, board, size=(200, 50)):
    """``sim --board BOARD`` in a tmux pane of ``size`` (columns, rows) on its own server: (server, tmux)."""
    import shlex
    import shutil
    import uuid

    if shutil.which("tmux") is None:
        pytest.fail("tmux is not on PATH: the terminal front-end is tested in tmux (apt-get install tmux)")
    server = "bought-sim-" + uuid.uuid4().hex[:8]

    def tmux(*args):
        r = subprocess.run(["tmux", "-L", server, "-f", "/dev/null"] + list(args), capture_output=True, text=True,
                           timeout=HANG_S)
        assert r.returncode == 0, r.stderr
        return r.stdout

    command = shlex.join([sys.executable, "-m", "host_tools", "sim", "--board", board, "--flash",
                          str(tmp_path / "flash"), "--tables", tables])
    tmux("new-session", "-d", "-s", "sim", "-x", str(size[0]), "-y", str(size[1]),
         "cd %s && %s" % (shlex.quote(ROOT), command))
    return server, tmux


def until(tmux, text):
    """Until the pane shows ``text`` (a guard against a hang, not a deadline)."""
    end = time.monotonic() + HANG_S
    while text not in tmux("capture-pane", "-p", "-J", "-t", "sim"):
        assert time.monotonic() < end, tmux("capture-pane", "-p", "-J", "-t", "sim")
        time.sleep(0.1)


@pytest.mark.parametrize("board, keys, narrated", [
    ("macropad", ["Enter", "]"], "Pulsing now: cell 2, you are O."),  # the dial pushed, then turned
    ("keypad", ["3"], "Pulsing now: cell 0, you are X."),  # cell 3 through the TCA9555
    ("keybow", ["d"], "Pulsing now: cell 0, you are X."),  # tactic-toe, on GPIO
])
def test_the_terminal_draws_the_bought_board_and_its_keys_play(board, keys, narrated, tmp_path, tables):
    server, tmux = tmux_sim(tmp_path, tables, board)
    try:
        until(tmux, "Pulsing now: cell 5, tactic-toe.")
        until(tmux, "- u Undo")  # the function keys, labelled with their keys
        if board == "macropad":
            until(tmux, "screen (SH1106, 128x64)")
        for key in keys:  # played in order on the board's own clock, however fast they come
            tmux("send-keys", "-t", "sim", key)
        until(tmux, narrated)
        if board == "macropad":
            until(tmux, "encoder: turned +1")
        tmux("send-keys", "-t", "sim", "Escape")
    finally:
        subprocess.run(["tmux", "-L", server, "kill-server"], capture_output=True, timeout=HANG_S)


# --- the MacroPad's screen in braille, for an 80x24 terminal ----------------------------------------

# Unicode's braille dots, numbered 1-8 (bit n-1 of the code point after
# U+2800): 1, 2, 3, 7 down a cell's left column, 4, 5, 6, 8 down its right.
DOT_AT = {1: (0, 0), 2: (0, 1), 3: (0, 2), 7: (0, 3), 4: (1, 0), 5: (1, 1), 6: (1, 2), 8: (1, 3)}


def from_braille(lines):
    """The 1024-byte glass (MONO_VLSB) that 16 lines of 64 braille
    characters (a space: no dot) draw, decoded by Unicode's dot numbering."""
    assert [len(line) for line in lines] == [64] * 16, lines
    fb = bytearray(1024)
    for row, line in enumerate(lines):
        for col, ch in enumerate(line):
            code = 0 if ch == " " else ord(ch) - 0x2800
            assert 0 <= code < 0x100, repr(ch)
            for n, (dx, dy) in DOT_AT.items():
                if code >> (n - 1) & 1:
                    x, y = 2 * col + dx, 4 * row + dy
                    fb[(y >> 3) * 128 + x] |= 1 << (y & 7)
    return bytes(fb)


def test_the_macropads_glass_in_80x24_decodes_to_the_sh1106s_pixels(tmp_path, tables):
    """The compact drawing, read back dot by dot, is the glass the SH1106's
    model decoded from the firmware's SPI traffic: mid-game, hints shown."""
    from host_tools.sim import flash as sim_flash, script as sim_script, terminal

    path, cfg = host_flash.board_config("macropad")[:2]
    flash_dir = str(tmp_path / "flash")
    sim_flash.prepare_flash(flash_dir, cfg, path, tables_dir=tables)
    changes, end = sim_script.timeline((CLASSIC_X + "wait 500\ntap 4\nwait 3000\ntap hint\nwait 1000\n").splitlines(),
                                       cfg=cfg)
    b = VirtualBoard(flash_dir, "macropad", seed=3, console=False, replay=(changes, end))
    rec = Recorder(b)
    run_board(b, rec)
    assert b.screen, "\n".join(rec.lines[-20:])
    pad = terminal.pad_of(b)
    view = pad.view(80, 24)
    pieces = terminal.pad_picture(b, pad, terminal.ConsoleLines(), 80, 24)
    top, left = view.glass[:2]
    lines = [re.sub("\x1b\\[[0-9;]*m", "", pieces[(top + r, left)]) for r in range(16)]
    assert from_braille(lines) == b.screen, "\n".join(lines) + "\n" + shown(b.screen)
    assert sum(bin(v).count("1") for v in b.screen) > 500  # words on it, not a blank glass


def test_the_macropad_plays_in_an_80x24_terminal(tmp_path, tables):
    """make sim BOARD=macropad in 80x24: the glass in braille is the SH1106
    model's (``sim --replay``'s screen line at the menu), the dial turns,
    and the keys, the caption and the console are there."""
    menu = screens(replay(tmp_path, tables, "macropad", "wait 2500\n"))[-1]
    server, tmux = tmux_sim(tmp_path, tables, "macropad", (80, 24))
    try:
        def glass(text):
            """The glass drawn in the pane, or None while it shows no glass (the set-up's output)."""
            lines = [line[16:80].ljust(64) for line in text.split("\n")[1:17]]
            if len(lines) < 16 or any(ch != " " and not 0x2800 <= ord(ch) < 0x2900 for ch in "".join(lines)):
                return None
            return from_braille(lines)

        def until_glass(want, what):
            end = time.monotonic() + HANG_S  # a guard against a hang, not a deadline
            while True:
                text = tmux("capture-pane", "-p", "-t", "sim")
                if glass(text) == want:
                    return text
                assert time.monotonic() < end, "no %s; the pane:\n%s" % (what, text)
                time.sleep(0.1)

        text = until_glass(menu, "menu on the glass")
        lines = text.split("\n")
        assert lines[1][:15] == " Menu Hint Undo" and lines[2][:15] == " / m  * h  - u "
        for words in ("0 q", "4 s", "8 c", "what the board shows", "console output", "Esc: quit",
                      "serial console: /dev/pts/", "turned +0"):
            assert words in text, text
        until(tmux, "Pulsing now: cell 5, tactic-toe.")
        tmux("send-keys", "-t", "sim", "Enter")  # the dial pushed: tactic-toe
        tmux("send-keys", "-t", "sim", "]")  # and turned
        until(tmux, "Pulsing now: cell 2, you are O.")
        until(tmux, "turned +1")
        until_glass(rendered(("Who plays?", "> You are O", "Board goes first", "Turn dial, press", "Menu")),
                    "'Who plays?' on the glass")
        tmux("send-keys", "-t", "sim", "Escape")
    finally:
        subprocess.run(["tmux", "-L", server, "kill-server"], capture_output=True, timeout=HANG_S)


@pytest.mark.parametrize("board", ("keypad", "keybow"))
def test_the_4x4_boards_play_in_an_80x24_terminal(board, tmp_path, tables):
    server, tmux = tmux_sim(tmp_path, tables, board, (80, 24))
    try:
        # the caption is 25 characters wide here: its lines wrap
        for words in ("Pulsing now: cell 5,", "tactic-toe.", "0 or q", "8 or c", "/ m Menu", "- u Undo",
                      "console output", "Esc: quit"):
            until(tmux, words)
        tmux("send-keys", "-t", "sim", "3")
        until(tmux, "Pulsing now: cell 0,")
        tmux("send-keys", "-t", "sim", "Escape")
    finally:
        subprocess.run(["tmux", "-L", server, "kill-server"], capture_output=True, timeout=HANG_S)
