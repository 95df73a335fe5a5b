"""The simulator's terminal front-end (``host_tools.sim.terminal``), driven
in a real terminal: a tmux pane, read back with ``capture-pane``."""

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import types
import uuid

import pytest

from conftest import HANG_S, FIRMWARE, PACKAGE, ROOT, TABLES, put_tables
from host_tools import flash as flash_tool
from host_tools.sim import board as sim_board, terminal as st
from host_tools.screens import as_seen
from tactictoe import rules

WAIT_S = 600  # a guard against a hang, not a deadline: a loaded machine is slower, not red

# Runs sim.terminal.run() in the pane and says how it ended. Once the test
# creates the file TRIGGER, the board powers off (MODE "stop") or its poll
# raises (MODE "fail").
LAUNCHER = """\
import os, sys, termios, time
root, flash, trigger, mode = sys.argv[1:]
sys.path.insert(0, root)
from host_tools.sim import board as sim_board, terminal as sim_terminal
before = termios.tcgetattr(0)
board = sim_board.VirtualBoard(flash, "pico-buttons", seed=1)
poll = board.poll

def poll_until_triggered(timeout):
    poll(timeout)
    if mode == "fail" and os.path.exists(trigger):
        raise sim_board.SimError("the test broke the board")
    if mode == "stop" and os.path.exists(trigger):
        board.status = sim_board.OFF

board.poll = poll_until_triggered
board.start()
try:
    rc = sim_terminal.run(board)
except sim_board.SimError as e:
    print("error: %s" % e)
    rc = 2
finally:
    board.close()
after = termios.tcgetattr(0)
print("run returned %d, terminal %s" % (rc, "restored" if after == before else "CHANGED"), flush=True)
time.sleep(3600)  # keep the pane for the test to read
"""


@pytest.fixture
def flash(tmp_path, table_files):
    """A flash folder with the firmware, the pico-buttons wiring, both tables
    and the puzzles (conftest.put_tables)."""
    d = tmp_path / "flash"
    d.mkdir()
    package = d / TABLES  # the package and its tables: lib/tactictoe
    package.mkdir(parents=True)
    for name in os.listdir(PACKAGE):
        if name.endswith(".py") and name != "hw_circuitpython.py":
            shutil.copy(os.path.join(PACKAGE, name), package)
    shutil.copy(os.path.join(FIRMWARE, "main.py"), d)
    shutil.copy(os.path.join(FIRMWARE, "boards", "pico-buttons.json"), d / "board.json")
    put_tables(d, [table_files[rules.CLASSIC], table_files[rules.TACTICTOE]])
    return str(d)


class Pane:
    """A program in a tmux pane of its own tmux server."""

    def __init__(self, tmp_path, flash, cols=80, rows=24, mode="play"):
        if shutil.which("tmux") is None:
            pytest.fail("tmux is not on PATH: the terminal front-end is tested in tmux (apt-get install tmux)")
        self.server = "sim-terminal-test-" + uuid.uuid4().hex[:8]
        self.trigger_file = tmp_path / "trigger"
        launcher = tmp_path / "launcher.py"
        launcher.write_text(LAUNCHER)
        command = shlex.join([sys.executable, str(launcher), ROOT, flash, str(self.trigger_file), mode])
        self.tmux("new-session", "-d", "-s", "sim", "-x", str(cols), "-y", str(rows), command)

    def trigger(self):
        self.trigger_file.write_text("")

    def tmux(self, *args):
        r = subprocess.run(["tmux", "-L", self.server, "-f", "/dev/null"] + list(args),
                           capture_output=True, text=True, timeout=HANG_S)
        assert r.returncode == 0, r.stderr
        return r.stdout

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "sim", *keys)

    def text(self):
        return self.tmux("capture-pane", "-p", "-J", "-t", "sim")

    def colours(self):
        """``{(row, col): background rgb}`` of the pane (no entry where the
        background is the terminal's own)."""
        return _backgrounds(self.tmux("capture-pane", "-p", "-e", "-N", "-t", "sim"))

    def wait(self, what, check, timeout=WAIT_S):
        """Poll the pane until ``check(pane)`` is true; returns the last result."""
        end = time.monotonic() + timeout
        while True:
            result = check(self)
            if result or time.monotonic() > end:
                break
            time.sleep(0.05)
        assert result, "timed out waiting for %s; the pane shows:\n%s" % (what, self.text())
        return result

    def close(self):
        subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True, timeout=HANG_S)


_SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def _backgrounds(captured):
    """Follow the SGR sequences of ``capture-pane -e`` (its state carries
    over from line to line) to the background colour of every character."""
    bg, out = None, {}
    for row, line in enumerate(captured.split("\n")):
        col = 0
        texts_and_params = _SGR.split(line)  # text, SGR parameters, text, ...
        for k, part in enumerate(texts_and_params):
            if k % 2 == 0:
                for _ in part:
                    if bg is not None:
                        out[(row, col)] = bg
                    col += 1
                continue
            params = [int(p or 0) for p in re.split("[;:]", part)]
            i = 0
            while i < len(params):
                if params[i] in (0, 49):
                    bg = None
                elif params[i] in (38, 48):  # a colour: 5;N (palette) or 2;R;G;B
                    if params[i] == 48 and params[i + 1] == 2:
                        bg = tuple(params[i + 2:i + 5])
                    i += 2 if params[i + 1] == 5 else 4
                i += 1
    return out


def cell_colours(pane):
    """The nine cells' colours as drawn (None for an unlit cell), or None
    while the grid is not all drawn."""
    bgs = pane.colours()
    out = []
    for cell in range(9):
        top = st.GRID_TOP + cell // 3 * (st.CELL_H + st.GAP_H)
        left = st.GRID_LEFT + cell % 3 * (st.CELL_W + st.GAP_W)
        rgb = bgs.get((top, left))
        if rgb is None:
            return None
        out.append(None if rgb == st.UNLIT else rgb)
    return out


def lit(pane, cells):
    """The cell colours if exactly ``cells`` are lit, else None."""
    colours = cell_colours(pane)
    return colours if colours and {c for c in range(9) if colours[c]} == set(cells) else None


def showing(pane, check):
    """``check(colours)`` once all nine cells are lit."""
    colours = lit(pane, range(9))
    return colours and check(colours)


def orange(rgb):
    return rgb[0] > 2 * rgb[2]


def blue(rgb):
    return rgb[2] > 2 * rgb[0]


@pytest.fixture
def pane(request, tmp_path, flash):
    p = Pane(tmp_path, flash, **getattr(request, "param", {}))
    yield p
    p.close()


def ended(pane, how):
    """Wait for the launcher to say ``how`` run() ended, and check the
    terminal is as it was: its modes, the main screen, the cursor, no colour."""
    pane.wait("the program to end", lambda p: how + ", terminal" in p.text())
    assert how + ", terminal restored" in pane.text()
    assert pane.tmux("display-message", "-p", "-t", "sim", "#{alternate_on} #{cursor_flag}").split() == ["0", "1"]
    assert "\x1b[" not in pane.tmux("capture-pane", "-p", "-e", "-t", "sim")


def first_menu(pane):
    # 1. game: classic (cell 3, orange) or tactic-toe (cell 5, blue); puzzles (1), the score (7)
    colours = lit(pane, {1, 3, 5, 7})
    return colours and orange(colours[3]) and blue(colours[5])


def test_plays_the_board_in_80x24(pane):
    seen = []

    def self_test_then_menu(p):
        colours = cell_colours(p)
        if colours:
            seen.append(sum(1 for c in colours if c))
        return first_menu(p)

    pane.wait("the grid in 24-bit colour", lambda p: "\x1b[48;2;" in p.tmux("capture-pane", "-p", "-e", "-t", "sim"))
    text = pane.text()
    assert "virtual board  pico-buttons" in text
    assert st.LEGEND in text
    assert re.search(r"serial console: /dev/pts/\d+ +\((\.venv/bin/)?mpremote connect /dev/pts/\d+ repl\)", text)
    pane.wait("the self-test, then the menu", self_test_then_menu)
    assert 1 in seen or 9 in seen, "no self-test frame (one cell or all lit) before the menu: %s" % seen
    text = pane.text()
    # the keys, shown in every cell: the unlit ones and the menu's two lit options
    assert all(key in text for key in ("0 or q", "8 or c", "3 or a", "5 or d"))
    # the caption beside the grid: what the narration says of the screen
    rows = text.splitlines()
    assert st.CAPTION in rows[st.GRID_TOP] and "console output" in rows[st.CONSOLE_TOP]
    caption = "\n".join(r[st.PANEL_LEFT:] for r in rows[st.GRID_TOP + 1:st.CONSOLE_TOP])
    assert "Choose a game: cell 3 classic" in caption and "Pulsing now: cell 5, tactic-toe." in caption

    pane.keys("3")  # cell 3: classic; 2. who plays: cells 0, 2, 6, 8
    pane.wait("the second menu screen", lambda p: lit(p, {0, 2, 6, 8}))
    pane.keys("r")  # power-cycle: back through the self-test to the first screen
    pane.wait("the first menu after a power cycle", first_menu)
    assert "--- power-cycled ---" in pane.text()

    pane.keys("3")
    pane.wait("the second menu screen", lambda p: lit(p, {0, 2, 6, 8}))
    pane.wait("its caption", lambda p: "Who plays? cell 0 you are X" in p.text())
    pane.keys("Up", "z")  # an arrow key does nothing (it is no Esc); cell 6: two players
    pane.wait("4. help: none | trainer | hints", lambda p: lit(p, {3, 4, 5}))
    pane.keys("a")  # hints off: play, X to move, the empty cells glow orange
    pane.wait("play to start", lambda p: showing(p, lambda c: all(orange(rgb) for rgb in c)))
    pane.keys("q")  # X in cell 0; O to move: the empty cells glow blue
    pane.wait("X in the top left", lambda p: showing(p, lambda c: orange(c[0]) and blue(c[1])))
    pane.keys("4")  # O in the centre
    pane.wait("O in the centre", lambda p: showing(p, lambda c: orange(c[0]) and blue(c[4]) and orange(c[1])))
    pane.keys("Space")  # a long press: back to the first menu screen
    pane.wait("the first menu after a long press", first_menu)

    port = re.search(r"serial console: (/dev/pts/\d+)", pane.text()).group(1)
    console = os.open(port, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(console, b"\x03")  # as mpremote would: stop the game, get the REPL
        pane.wait("the REPL's prompt beside the grid",
                  lambda p: "stopped: Ctrl-C; the REPL is yours" in p.text() and re.search(r">>> *$", p.text(), re.M))
        assert "Traceback" not in pane.text()  # a stop asked for looks like one, not like a crash
        pane.wait("the notice that the REPL has the board", lambda p: st.REPL_NOTICE.strip() in p.text())
        os.write(console, b"print(6 * 7)\r")
        pane.wait("what the board printed", lambda p: re.search(r"print\(6 \* 7\) *\n +42 *$", p.text(), re.M))
        assert st.REPL_NOTICE.strip() in pane.text()
    finally:
        os.close(console)

    pane.keys("Escape")
    ended(pane, "run returned 0")


def test_mpremote_on_the_console_shows_as_lines_under_the_heading(pane, tmp_path):
    from live_sim import mpremote

    pane.wait("the menu", first_menu)
    port = re.search(r"serial console: (/dev/pts/\d+)", pane.text()).group(1)
    note = tmp_path / "note.txt"
    note.write_text("x" * 5000)  # a few raw-paste windows of traffic
    r = mpremote(port, "cp", str(note), ":note.txt", "+", "exec", "print(6 * 7)")
    assert r.returncode == 0 and "42" in r.stdout, r.stderr

    def heading_above(lines):
        rows = pane.text().splitlines()
        return "console output" in rows[st.CONSOLE_TOP] and all(line in "\n".join(rows) for line in lines)

    pane.wait("a line for mpremote's turn, under the panel's heading",
              lambda p: heading_above([r"[mpremote is done: it ran "]))
    assert st.REPL_NOTICE.strip() in pane.text()  # it left the board at the REPL
    assert "raw REPL" not in pane.text() and not re.search(r"\bOK\b", pane.text())
    r = mpremote(port, "reset")
    assert r.returncode == 0, r.stderr
    pane.wait("the game again, and the line saying mpremote reset the board",
              lambda p: (first_menu(p) and heading_above(["and reset the board]"])
                         and st.REPL_NOTICE.strip() not in p.text()))
    pane.keys("Escape")
    ended(pane, "run returned 0")


def test_resizing_below_80x24_shows_a_notice_until_it_is_enlarged(pane):
    pane.wait("the menu", first_menu)
    pane.tmux("resize-window", "-t", "sim", "-x", "60", "-y", "20")
    pane.wait("the too-small notice", lambda p: p.text().strip() == "too small: needs 80x24, this is 60x20")
    pane.tmux("resize-window", "-t", "sim", "-x", "80", "-y", "24")
    pane.wait("the grid again", lambda p: first_menu(p) and st.LEGEND in p.text())
    pane.keys("C-c")
    ended(pane, "run returned 0")


@pytest.mark.parametrize("pane", [dict(mode="stop")], indirect=True)
def test_a_board_that_stops_ends_it_saying_why(pane):
    pane.wait("the menu", first_menu)
    pane.trigger()
    ended(pane, "the virtual board powered off\nrun returned 1")


@pytest.mark.parametrize("pane", [dict(mode="fail")], indirect=True)
def test_an_error_still_restores_the_terminal(pane):
    pane.wait("the menu", first_menu)
    pane.trigger()
    ended(pane, "error: the test broke the board\nrun returned 2")


@pytest.mark.parametrize("pane", [dict(cols=60, rows=20)], indirect=True)
def test_a_small_terminal_gets_a_one_line_error(pane):
    ended(pane, "run returned 2")
    lines = [line for line in pane.text().splitlines() if line.strip()]
    assert lines == ["error: the simulator needs a terminal of at least 80x24 (this one is 60x20)",
                     "run returned 2, terminal restored"]


def test_no_terminal_is_an_error():
    r, w = os.pipe()
    try:
        with pytest.raises(sim_board.SimError, match="needs a terminal.*--headless"):
            st.run(None, infd=r, out=io.StringIO())
    finally:
        os.close(r)
        os.close(w)


# --- the parts -------------------------------------------------------------------


def test_the_picture_fits_80x24_and_shows_cells_keys_and_buzzer():
    board = types.SimpleNamespace(cfg={"name": "pico-buttons"}, port="/dev/pts/7", tone=1319,
                                  frame=[(0, 0, 0)] * 9, held=1 << 0 | 1 << 4)
    board.frame[2] = board.frame[4] = (63, 27, 0)
    pieces = st.picture(board, st.ConsoleLines(), 80)
    for (row, col), text in pieces.items():
        assert row < 23 and col + len(re.sub("\x1b\\[[0-9;?]*[a-zA-Z]", "", text)) < 80, (row, col, text)

    def middle(cell):
        return pieces[(st.GRID_TOP + cell // 3 * (st.CELL_H + st.GAP_H) + st.CELL_H // 2,
                       st.GRID_LEFT + cell % 3 * (st.CELL_W + st.GAP_W))]

    seen = "\x1b[48;2;%d;%d;%dm" % as_seen((63, 27, 0))
    assert middle(1).startswith(st._bg(st.UNLIT) + st._fg(st.FAINT)) and "1 or w" in middle(1)  # dark: keys, faint
    ink = st._fg(st._ink(as_seen((63, 27, 0))))
    assert middle(2).startswith(seen + ink) and "2 or e" in middle(2)  # lit: keys, in black or white
    assert st.BOLD in middle(0) and "0 or q" in middle(0)  # held: keys, bold
    assert middle(4).startswith(seen) and st.BOLD in middle(4) and "4 or s" in middle(4)
    text = "".join(pieces.values())
    assert "virtual board  pico-buttons" in text and "buzzer 1319 Hz" in text
    assert "serial console: /dev/pts/7  (%s connect /dev/pts/7 repl)" % flash_tool.mpremote() in text
    board.tone = 0
    assert "buzzer" not in "".join(st.picture(board, st.ConsoleLines(), 80).values())


@pytest.mark.parametrize("rgb", [(0, 0, 0)] + [(r, g, b) for r in (0, 3, 63, 255) for g in (0, 27, 255)
                                                 for b in (0, 40, 255) if r or g or b])
def test_every_cell_shows_its_keys_readable_against_its_colour(rgb):
    for held in (False, True):
        rows = st._cell_rows(rgb, "0 or q", held)
        middle = rows[st.CELL_H // 2]
        assert "0 or q" in middle
        bg = tuple(map(int, re.search(r"\x1b\[48;2;(\d+);(\d+);(\d+)m", middle).groups()))
        fg = tuple(map(int, re.search(r"\x1b\[38;2;(\d+);(\d+);(\d+)m", middle).groups()))
        hi, lo = sorted((st.luminance(bg), st.luminance(fg)), reverse=True)
        # the faint keys on an unlit cell are meant to be quiet; lit or held, they must read
        need = 2.5 if rgb == (0, 0, 0) and not held else 4.5
        assert (hi + 0.05) / (lo + 0.05) >= need, (rgb, held, bg, fg)


def test_keys_tell_esc_from_escape_sequences():
    k = st.KeyReader()
    assert k.feed(b"7q\x1b[A\x1bOB\x1b[15~\x03", 0.0) == ["7", "q", "\x03"]
    assert k.feed(b"\x1b", 1.0) == [] and k.expire(1.01) == []
    assert k.feed(b"[", 1.02) == [] and k.feed(b"C5", 1.03) == ["5"]  # an arrow sent in pieces
    assert k.feed(b"\x1b", 2.0) == [] and k.expire(2.0 + st.ESC_WAIT_S) == [st.ESC]
    assert k.feed(b"\x1b\x1b", 3.0) == [st.ESC] and k.expire(3.1) == [st.ESC]
    assert k.feed(b"\x1b[1", 4.0) == [] and k.expire(4.1) == []  # cut short: dropped


def test_a_tap_holds_its_cell_and_repeats_keep_it_held():
    f = st.Fingers()
    f.tap(0, 0.0)
    f.lift(0.05)
    assert f.mask() == 1
    f.lift(st.TAP_S)
    assert f.mask() == 0
    t = 1.0
    f.tap(8, t)
    while t < 3.0:  # the terminal repeats the key every 33 ms
        t += 0.033
        f.tap(8, t)
        f.lift(t)
        assert f.mask() == 1 << 8
    f.lift(t + st.REPEAT_S)
    assert f.mask() == 0


def test_console_lines_are_plain_text_wrapped_to_the_panel():
    c = st.ConsoleLines()
    c(b"\x1b[1mbold\x1b[0m and \x07bell\r\n>>> 1+\x08+1\r\n2\r\n>>> ")
    assert c.last(40, 5) == ["bold and bell", ">>> 1+1", "2", ">>>"]
    c(b"caf\xc3")  # a character split between two reads
    c(b"\xa9\r\n" + b"x" * 50 + b"\r\n")
    assert c.last(20, 4) == [">>> caf\u00e9", "x" * 20, "x" * 20, "x" * 10]
    c.note("--- power-cycled ---")
    assert c.last(60, 3) == [">>> caf\u00e9", "x" * 50, "--- power-cycled ---"]


def test_the_caption_shows_the_screen_s_narration_each_line_at_least_begun():
    board = types.SimpleNamespace(cfg={"name": "pico-buttons"}, port=None, tone=0, frame=[(0, 0, 0)] * 9, held=0)
    now = [0.0]
    c = st.ConsoleLines(clock=lambda: now[0])
    c(b"> Testing the lights.\r\ntactictoe: X 4\r\n")
    now[0] = 2.0  # a pause: the next lines are the next screen's
    said = ["Line %d %s." % (n, "word " * 12) for n in range(6)]
    c("".join("> %s\r\n" % line for line in said).encode())
    assert c.said == said[1:]  # the screen's last 5, without "> "; the self-test's line is gone
    pieces = st.picture(board, c, 80)
    rows = [pieces[(st.GRID_TOP + 1 + r, st.PANEL_LEFT)] for r in range(st.CAPTION_ROWS - 1)]
    assert all(r.startswith(st._bg(st.CAPTION_BG)) for r in rows)
    text = [re.sub("\x1b\\[[0-9;?]*[a-zA-Z]", "", r).strip() for r in rows]
    # each line wraps to 2 rows in the 37 columns, 10 in all for 8: each keeps its first row, the
    # first (the screen's question) and then the newest get their second
    assert [t.split()[:2] for t in text if t.startswith("Line")] == [["Line", str(n)] for n in range(1, 6)]
    assert text[0].startswith("Line 1 ") and text[3].startswith("Line 3 ") and text[4].startswith("Line 4 ")
    assert text[2].endswith("…") and text[3].endswith("…") and text[-2].startswith("Line 5 ")
    assert "tactictoe: X 4" not in " ".join(text)
    # the console panel has the other lines; the narration is the caption's
    assert c.last(39, 6) == ["tactictoe: X 4"]
    now[0] = 4.0
    c(b"> A short one.\r\n")
    text = [re.sub("\x1b\\[[0-9;?]*[a-zA-Z]", "", pieces).strip()
            for pieces in (st.picture(board, c, 80)[(st.GRID_TOP + 1 + r, st.PANEL_LEFT)]
                           for r in range(st.CAPTION_ROWS - 1))]
    assert text[0] == "A short one." and not "".join(text[1:])  # a new screen: nothing left of the last
    assert pieces[(st.CONSOLE_TOP, st.PANEL_LEFT)].startswith(st.DIM + "console output")


def test_circuitpythons_title_sequences_are_not_console_text():
    # CircuitPython writes its status into the terminal's title (OSC 0),
    # ended by ESC \ or BEL: none of it is a line on the panel.
    c = st.ConsoleLines()
    c("\x1b]0;\U0001f40dcode.py | 10.2.1\x1b\\".encode() + b"code.py output:\r\n\x1b]0;t\x07ok\r\n")
    assert c.last(40, 2) == ["code.py output:", "ok"]


def test_the_screen_says_when_the_repl_has_the_board():
    board = types.SimpleNamespace(cfg={"name": "pico-buttons"}, port="/dev/pts/7", tone=0,
                                  frame=[(0, 0, 0)] * 9, held=0)

    def notice(c):
        return st.REPL_NOTICE in "".join(st.picture(board, c, 80).values())

    def hint(c):
        return st.REPL_HINT in "".join(st.picture(board, c, 80).values())

    c = st.ConsoleLines()
    c(b"classic: X 4\r\n")
    # While the game runs, the screen says how mpremote repl gets the prompt.
    assert not c.at_repl() and not notice(c) and hint(c)
    assert "Ctrl-C" in st.REPL_HINT and "mpremote repl" in st.REPL_HINT
    # mpremote ls: Ctrl-C, the raw REPL, its answer, then back to the friendly REPL
    c(b"stopped: Ctrl-C; the REPL is yours (reset to play again)\r\n>>> ")
    assert c.at_repl() and notice(c) and not hint(c)
    c(b"\r\nraw REPL; CTRL-B to exit\r\n>")
    assert c.at_repl()
    c(b"OK\x04\x04>")
    c(b"\r\nMicroPython v1.24.0 on 2024-10-25; linux [GCC 12.2.0] version\r\n"
      b"Type \"help()\" for more information.\r\n>>> ")
    assert c.at_repl() and notice(c)
    c(b"import os")  # typing at the prompt: still the REPL's
    assert c.at_repl()
    c(b"\r\n")
    assert not c.at_repl()
    c(b">>> ")
    c.note("--- power-cycled ---")  # r
    assert not c.at_repl() and not notice(c)


def test_the_raw_repl_shows_as_one_line_that_counts_its_runs():
    c = st.ConsoleLines()
    c(b"classic: X 4\r\n")
    # mpremote connects: two Ctrl-Cs (one bare prompt shows), then Ctrl-A
    c(b"Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n>>> \r\n>>> \r\n")
    c(b"raw REPL; CTRL-B to exit\r\n>")
    assert c.at_repl()
    assert c.last(60, 3) == ["KeyboardInterrupt:", ">>>", "[mpremote is using the board: 0 commands so far]"]
    c(b"OKhello\r\n\x04")  # a run in the raw REPL: its output, then its error, each ended by Ctrl-D
    c(b"\x04>")
    # raw paste: its window and flow control, the end's ack, then as above
    c(b"R\x01\x00\x08\x01\x01\x04(1, 2)\r\n\x04Traceback (most recent call last):\r\nOSError: 2\r\n\x04>")
    assert c.last(60, 2) == [">>>", "[mpremote is using the board: 2 commands so far]"]
    assert c.at_repl()
    c(b"OK\r\n")  # Ctrl-D: a soft reset, back into the raw REPL
    c.board_reset()
    c(b"MPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>OK\x04\x04>")
    assert c.at_repl() and c.last(60, 1) == ["[mpremote is using the board: 3 commands so far]"]
    # Ctrl-B: the friendly REPL again, and the line says what happened
    c(b"\r\nMicroPython v1.29.0 on the tactictoe simulator\r\nType \"help()\" for more information.\r\n>>> ")
    assert c.last(60, 4) == ["[mpremote is done: it ran 3 commands]",
                             "MicroPython v1.29.0 on the tactictoe simulator", 'Type "help()" for more information.',
                             ">>>"]
    assert c.at_repl()
    # mpremote reset: machine.reset() never ends its run; the game's lines follow the reset
    c(b"\r\n>>> \r\nraw REPL; CTRL-B to exit\r\n>OK")
    c.board_reset()
    assert not c.at_repl() and c.last(60, 1) == ["[mpremote is done: it ran 0 commands and reset the board]"]
    c(b"classic: O 2\r\n")
    assert not c.at_repl() and c.last(60, 2) == ["[mpremote is done: it ran 0 commands and reset the board]",
                                                 "classic: O 2"]
    assert not any("raw REPL" in line or "OK" in line or "hello" in line for line in c.lines)
    c(b"raw REPL; CTRL-B to exit\r\n>")
    for _ in range(1000):  # copying a file off the board: answers with no newline
        c(b"OK" + b"ab" * 500 + b"\x04\x04>")
    assert c.runs == 1000 and len(c._raw_line) <= st.RAW_LINE_KEPT
    c.note("--- power-cycled ---")  # r: the board starts afresh
    assert not c.at_repl() and c.last(60, 2) == ["[mpremote is done: it ran 1000 commands]", "--- power-cycled ---"]


def test_the_readme_picture_hides_the_console_number():
    from host_tools.sim import picture as sim_picture
    line = "\x1b[0m serial console: %s  (mpremote connect %s repl)\n"
    a, b = (sim_picture.svg(sim_picture.fixed_ports(line % (p, p))) for p in ("/dev/pts/3", "/dev/pts/12"))
    assert a == b


def _pad_board(name, hardware, pixels, screen=None):
    _, cfg = sim_board.wiring(name)
    return types.SimpleNamespace(cfg=cfg, hardware=hardware, title="emulated RP2040", port=None, tone=0,
                                 pixels=pixels, held=0, screen=screen, turned=0)


def test_the_macropad_is_drawn_with_its_keys_leds_and_screen():
    from host_tools.sim import screen as oled

    fb = bytearray(1024)
    fb[0] = 0x03  # pixels (0, 0) and (0, 1): the first character a full block
    pixels = [(0, 0, 0, 31)] * 12
    pixels[2] = (40, 0, 0, 31)  # the take-back key lit red
    board = _pad_board("macropad", "macropad", pixels, bytes(fb))
    board.held = 1 << 7  # the grid's centre
    pad = st.pad_of(board)
    full = pad.full  # the screen a pixel a column: its 128 columns right of the keys
    assert (full.cols, full.rows) == (st.GRID_LEFT + 3 * (st.CELL_W + st.GAP_W) + 2 + oled.WIDTH + 2, 40)
    assert pad.view(full.cols, full.rows) is full and pad.view(full.cols - 1, full.rows) is pad.compact
    pieces = st.pad_picture(board, pad, st.ConsoleLines(), full.cols, full.rows)
    assert_fits(pieces, full.cols, full.rows)

    def middle(key):
        return pieces[(st.GRID_TOP + key // 3 * (st.CELL_H + st.GAP_H) + st.CELL_H // 2,
                       st.GRID_LEFT + key % 3 * (st.CELL_W + st.GAP_W))]

    assert "/ m Menu" in middle(0) and "* h Hint" in middle(1) and "- u Undo" in middle(2)
    assert middle(2).startswith("\x1b[48;2;%d;%d;%dm" % as_seen((40, 0, 0)))  # its LED's colour
    assert "0 or q" in middle(3) and "8 or c" in middle(11) and st.BOLD in middle(7)
    top, left = full.glass[:2]
    glass = [pieces[(top + r, left)] for r in range(32)]
    assert "\u2588" + " " * 127 in glass[0] and all(" " * 128 in row for row in glass[1:])
    text = "".join(pieces.values())
    assert "Enter: push" in text and "[ turn left" in text and "/ m: Menu" in text


def visible(text):
    return re.sub("\x1b\\[[0-9;?]*[a-zA-Z]", "", text)


def assert_fits(pieces, cols, rows):
    """Every piece inside ``cols`` x ``rows``, none over another."""
    taken = {}
    for (row, col), text in pieces.items():
        assert 0 <= row < rows and col + len(visible(text)) <= cols, (row, col, visible(text))
        for c in range(col, col + len(visible(text))):
            assert (row, c) not in taken, ((row, col, visible(text)), taken[(row, c)])
            taken[(row, c)] = (row, col, visible(text))


@pytest.mark.parametrize("name, hardware", [("macropad", "macropad"), ("keypad", "pico-rgb-keypad"),
                                            ("keybow", "keybow2040")])
def test_each_bought_board_fits_80x24_with_its_leds_keys_caption_and_console(name, hardware):
    """What the other boards need: every key with its LED and its label, the
    caption, the console, the legend, the address, and the REPL's notice."""
    pixels = [(0, 0, 0, 31)] * 16
    board = _pad_board(name, hardware, pixels, bytes(1024) if hardware == "macropad" else None)
    board.port = "/dev/pts/12"
    pad = st.pad_of(board)
    assert (pad.min_cols, pad.min_rows) == (st.MIN_COLS, st.MIN_ROWS) == (80, 24)
    view = pad.view(80, 24)
    assert view is pad.compact
    undo = pad.keymap["-"]
    pixels[undo] = (40, 0, 0, 31)  # the take-back key lit red
    board.held = 1 << pad.keymap["s"]
    console = st.ConsoleLines()
    console(b"> Your move (X): tap a free cell.\r\nclassic: X 4\r\nclassic: O 6\r\n")
    pieces = st.pad_picture(board, pad, console, 80, 24)
    assert_fits(pieces, 80, 24)
    labels = pad.short if view.short else pad.labels
    for key in range(pad.count):
        top, left = view.key_at(pad.place[key], pad.columns)
        rows = [pieces[(top + r, left)] for r in range(view.cell_h)]
        assert all(visible(row) and len(visible(row)) == view.cell_w for row in rows)
        label = labels.get(key, ())
        assert [line for line in map(str.strip, map(visible, rows)) if line] == \
            ([label] if isinstance(label, str) else list(label))
        colour = as_seen((40, 0, 0)) if key == undo else st.UNLIT
        assert all(row.startswith(st._bg(colour)) for row in rows)
        assert (st.BOLD in rows[(view.cell_h - 1) // 2]) == (key == pad.keymap["s"])
    text = "\n".join(map(visible, pieces.values()))
    for words in ("what the board shows", "Your move (X):", "console output",
                  "classic: X 4", "classic: O 6", "Space: long press", "Esc: quit", "0-8 or q-c",
                  "serial console: /dev/pts/12"):
        assert words in text
    if pad.has_screen:
        top, left = view.glass[:2]
        assert [len(visible(pieces[(top + r, left)])) for r in range(16)] == [64] * 16
        assert "turned +0" in text and "[ ] turn" in text and "Enter: push" in text
    console(b"Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n>>> ")
    pieces = st.pad_picture(board, pad, console, 80, 24)
    assert_fits(pieces, 80, 24)
    assert st.REPL_NOTICE in "".join(map(visible, pieces.values()))
    full = pad.full  # and full size, once there is room
    assert pad.view(full.cols, full.rows) is full and full.cell_h == st.CELL_H
    assert_fits(st.pad_picture(board, pad, console, full.cols, full.rows), full.cols, full.rows)


def test_the_pads_keys_press_the_boards_keys():
    turns = []
    board = _pad_board("macropad", "macropad", [])
    board.tap = lambda key, ms: None
    board.turn = turns.append
    board.cfg["timing"] = {"long_press_ms": 1500}
    session = st.Session(board, io.StringIO(), (200, 50), st.pad_of(board))
    for key in "0/*-8\r][[":
        session.press(key, 0.0)
    assert set(session.fingers.until) == {3, 0, 1, 2, 11, 12} and turns == [1, -1, -1]
    session.press(" ", 0.0)  # Space: a long press of the grid's centre, key 7
    assert session.fingers.until[7] > 1.5
    keypad = st.pad_of(_pad_board("keypad", "pico-rgb-keypad", []))
    assert [keypad.keymap[k] for k in "012345678/*-"] == [0, 1, 2, 4, 5, 6, 8, 9, 10, 3, 7, 11]
    assert not keypad.encoder and not keypad.has_screen


def test_the_keybow_is_drawn_usb_at_the_top_each_key_over_its_led():
    """SW0 at the bottom left, up each column; the grid the top-left 3x3."""
    pixels = [(0, 0, 0, 31)] * 16
    pixels[13] = (40, 0, 0, 31)  # SW13, the take-back key, lit red
    board = _pad_board("keybow", "keybow2040", pixels)
    pad = st.pad_of(board)
    assert [pad.keymap[k] for k in "012345678/*-"] == [3, 7, 11, 2, 6, 10, 1, 5, 9, 15, 14, 13]
    pieces = st.pad_picture(board, pad, st.ConsoleLines(), 200, 50)

    def middle(row, col):
        return pieces[(st.GRID_TOP + row * (st.CELL_H + st.GAP_H) + st.CELL_H // 2,
                       st.GRID_LEFT + col * (st.CELL_W + st.GAP_W))]

    assert "0 or q" in middle(0, 0) and "8 or c" in middle(2, 2) and "/ m Menu" in middle(0, 3)
    assert "- u Undo" in middle(2, 3) and middle(2, 3).startswith("\x1b[48;2;%d;%d;%dm" % as_seen((40, 0, 0)))


@pytest.mark.parametrize("name, hardware", [("pico-buttons", "pico"), ("macropad", "macropad"),
                                            ("keypad", "pico-rgb-keypad")])
def test_a_board_json_for_another_wiring_stays_on_the_screen_until_the_repl_has_the_board(name, hardware):
    """The board's ``mismatch`` (sim.board) is drawn under the board for as
    long as it holds, however far the console's own line has scrolled; the
    REPL's notice, while it has the board, goes over it."""
    mismatch = "board.json is for pico-matrix, not %s: make clean-sim fixes it" % name
    if hardware == "pico":
        board = types.SimpleNamespace(cfg={"name": name}, port="/dev/pts/7", tone=0, frame=[(0, 0, 0)] * 9, held=0)
    else:
        board = _pad_board(name, hardware, [(0, 0, 0, 31)] * 16, bytes(1024) if hardware == "macropad" else None)
    board.mismatch = mismatch

    def text(c):
        pieces = st.picture(board, c, 80) if hardware == "pico" else st.pad_picture(board, st.pad_of(board), c, 80, 24)
        assert_fits(pieces, 80, 24)
        return visible("".join(pieces.values()))

    c = st.ConsoleLines()
    for _ in range(60):
        c(b"classic: X 4\r\n")
    assert mismatch in text(c) and st.REPL_NOTICE not in text(c)
    c(b"stopped: Ctrl-C; the REPL is yours (reset to play again)\r\n>>> ")
    assert c.at_repl() and st.REPL_NOTICE in text(c) and mismatch not in text(c)
    board.mismatch = None
    c(b"\r\nclassic: X 4\r\n")
    assert mismatch not in text(c)
