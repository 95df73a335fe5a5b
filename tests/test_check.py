"""The bring-up checks (firmware/tactictoe/check.py) on the virtual board, as a maker
runs them: ``mpremote exec "from tactictoe import check; check.keys()"`` or the REPL, with
cells pressed through the simulator and its LED frames read back."""

import json
import os
import subprocess
import threading
import time

import pytest
import serial

from live_sim import MPREMOTE, LiveSim
from conftest import HANG_S, BOARDS


@pytest.fixture
def board(tmp_path):
    """Start a headless virtual board (no tables: the checks need none)."""
    (tmp_path / "tables").mkdir()
    boards = []

    def start(name):
        b = LiveSim(tmp_path / "flash", "--tables", str(tmp_path / "tables"), board=name)
        boards.append(b)
        b.wait(lambda line: line.startswith("frame "), 30, "the firmware running")
        return b

    yield start
    for b in boards:
        b.close()


def run_check(b, code, *steps, timeout=HANG_S):
    """``mpremote exec code`` on the board; ``steps`` are ``(text, commands)``:
    once a line starting with ``text`` is printed, the commands go to the simulator
    (in turn, each step after the one before). Returns the printed lines."""
    proc = subprocess.Popen([MPREMOTE, "connect", b.port, "exec", code], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    lines = []
    steps = list(steps)
    try:
        for line in proc.stdout:
            lines.append(line.rstrip())
            if steps and line.startswith(steps[0][0]):
                b.send(*steps.pop(0)[1])
    finally:
        timer.cancel()
    assert proc.wait() == 0 and not steps, "\n".join(lines)
    return lines


def test_keys_prints_each_change_then_the_cells_never_pressed(board):
    b = board("pico-buttons")
    out = run_check(b, "from tactictoe import check; check.keys(3)",
                    ("press each cell", ["press 0", "wait 150", "press 4", "wait 150", "release 0", "wait 150",
                                         "release 4", "wait 150", "tap 8"]))
    assert out[0].startswith("press each cell in turn (0 1 2 / 3 4 5 / 6 7 8 from the top left)")
    assert "for 3 s" in out[0]
    assert out[1:] == ["held: 0", "held: 0 4", "held: 4", "held: none", "held: 8", "held: none",
                       "seen: 0 4 8; never pressed: 1 2 3 5 6 7"]


class Console:
    """The board's serial console as a person at the REPL has it."""

    def __init__(self, port):
        self.port = serial.Serial(port, timeout=0.1)
        self.text = ""

    def type(self, text):
        self.port.write(text.encode())

    def expect(self, what, timeout=HANG_S):
        end = time.monotonic() + timeout
        while what not in self.text:
            assert time.monotonic() < end, "no %r on the console; got:\n%s" % (what, self.text)
            self.text += self.port.read(4096).decode(errors="replace").replace("\r\n", "\n")
        before, _, self.text = self.text.partition(what)
        return before + what


BAD_CONFIG = ("config: board.json: leds.order: expected \"row-major\", \"serpentine\" or a list of 9 pixel numbers,"
              " got 'zigzag'; using the default pico-buttons config")


def test_keys_at_the_repl_ends_on_ctrl_c_and_names_a_bad_config(board, tmp_path):
    b = board("pico-buttons")
    (tmp_path / "flash" / "board.json").write_text(
        '{"leds": {"pin": 16, "order": "zigzag"}, "input": {"kind": "buttons", "pins": [2,3,4,5,6,7,8,9,10]}}')
    con = Console(b.port)
    con.type("\x03")  # stop the game
    con.expect(">>> ")
    con.type("from tactictoe import check; check.keys()\r")
    out = con.expect("for 30 s (Ctrl-C ends sooner)\n").splitlines()
    assert out[1:] == [BAD_CONFIG, "press each cell in turn (0 1 2 / 3 4 5 / 6 7 8 from the top left); each change"
                                   " of the cells held prints a line, for 30 s (Ctrl-C ends sooner)"]
    b.send(*("tap %d" % c for c in range(9)))
    out = con.expect("held: 8\nheld: none\n")
    assert out == "".join("held: %d\nheld: none\n" % c for c in range(9))
    con.type("\x03")
    assert con.expect(">>> ") == "all 9 cells seen\n>>> "
    con.type("check.touch()\r")
    assert con.expect(">>> ").splitlines()[1:] == [
        BAD_CONFIG, "check.touch: this board's input is buttons, not MicroPython touch pads: use check.keys()", ">>> "]


def lit(frame):
    """The cells a ``frame MS GRID HEX`` line lights, and their colours."""
    colours = frame.split()[3].split(",")
    return [(c, colours[c]) for c in range(9) if colours[c] != "000000"]


def test_leds_walks_the_chain_in_its_own_order(board):
    b = board("pico-matrix")  # serpentine: the middle row's pixels run right to left
    n = len(b.lines)
    out = run_check(b, "from tactictoe import check; check.leds(0.25)")
    assert out[0] == "lighting pixels 0 to 8 along the chain, 0.25 s each: note the cell each one lights"
    assert out[1:10] == ["pixel %d" % p for p in range(9)]
    assert out[10] == "all off; board.json has leds.order [0, 1, 2, 5, 4, 3, 6, 7, 8] (order[cell] = pixel)"
    b.wait(lambda line: line.startswith("frame ") and line.split()[3].count("1f1f1f") == 1
           and line.split()[2] == ".../.../..w", 10, "the last pixel")
    b.wait(lambda line: line.startswith("frame ") and not lit(line), 10, "all off")
    frames = [line for line in b.lines[n:] if line.startswith("frame ")]
    walk = [lit(f) for f in frames if "1f1f1f" in f]
    first = frames.index(next(f for f in frames if "1f1f1f" in f))
    # One pixel at a time, dim white under the 0.25 brightness cap, cells in chain order, then dark.
    assert walk == [[(c, "1f1f1f")] for c in (0, 1, 2, 5, 4, 3, 6, 7, 8)]
    assert [lit(f) for f in frames[first:]] == walk + [[]]


def test_leds_and_keys_on_the_mx_kit(board):
    """pico-mx: the chain enters at cell 8 (front right) and snakes back
    along the rows, so check.leds() lights cells 8 7 6 3 4 5 2 1 0 as pixels
    0 to 8; check.keys() reads every key, cells 0-2 on GP26-GP28 (the
    RP2040's ADC pins, digital inputs with pull-ups here)."""
    b = board("pico-mx")
    con = Console(b.port)
    con.type("\x03")  # stop the game
    con.expect(">>> ")
    con.type("from tactictoe import check; check.keys()\r")
    con.expect("(Ctrl-C ends sooner)\n")
    taps = (2, 1, 0, 5, 4, 3, 8, 7, 6)
    b.send(*("tap %d" % c for c in taps))
    assert con.expect("held: 6\nheld: none\n") == "".join("held: %d\nheld: none\n" % c for c in taps)
    con.type("\x03")
    assert con.expect(">>> ") == "all 9 cells seen\n>>> "
    con.port.close()
    n = len(b.lines)
    out = run_check(b, "from tactictoe import check; check.leds(0.25)")
    assert out[1:10] == ["pixel %d" % p for p in range(9)]
    assert out[10] == "all off; board.json has leds.order [8, 7, 6, 3, 4, 5, 2, 1, 0] (order[cell] = pixel)"
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "w../.../...", 10, "the last pixel")
    b.wait(lambda line: line.startswith("frame ") and not lit(line), 10, "all off")
    frames = [line for line in b.lines[n:] if line.startswith("frame ")]
    walk = [lit(f) for f in frames if "1f1f1f" in f]
    assert walk == [[(c, "1f1f1f")] for c in (8, 7, 6, 3, 4, 5, 2, 1, 0)]


def _row(line):
    """The nine numbers of a pad-table row, and the marks after them."""
    name, cells = line[:9].strip(), line[9:]
    return name, [int(cells[7 * i:7 * i + 6]) for i in range(9)], [cells[7 * i + 6:7 * i + 7] or " " for i in range(9)]


def test_touch_board_shows_its_pads_and_marks_the_touched_one(board):
    b = board("esp32-touch")
    with open(os.path.join(BOARDS, "esp32-touch.json")) as f:
        pins = json.load(f)["input"]["pins"]
    out = run_check(b, "from tactictoe import check; check.keys(1.5); check.touch(1.6)",
                    ("press each cell", ["wait 100", "press 2", "wait 200", "release 2"]),
                    ("reading", ["press 6", "wait 1000", "release 6"]))
    assert out[0] == "calibrating the touch pads: keep fingers off them"
    assert out[1] == "touch pads: a reading below its trip level is a touch (input.threshold 0.15)"
    table = dict((name, values) for name, values, _ in map(_row, out[2:6]))
    assert table["cell"] == list(range(9)) and table["GPIO"] == pins
    assert table["trip"] == [base - int(base * 0.15) for base in table["baseline"]]
    assert out[6].startswith("press each cell in turn")
    assert out[7:10] == ["held: 2", "held: none", "seen: 2; never pressed: 0 1 3 4 5 6 7 8"]
    # check.touch(): the table again, then a row of readings every half second
    assert out[10:12] == out[0:2] and out[12:16] == out[2:6]
    readings = [_row(line) for line in out[16:]]
    assert len(readings) in (3, 4) and all(name == "reading" for name, _, _ in readings)
    touched = [(values, marks) for _, values, marks in readings if "*" in marks]
    assert touched, out
    for values, marks in touched:
        assert marks == [" "] * 6 + ["*"] + [" "] * 2
        assert values[6] < table["trip"][6]
        assert all(values[c] > table["trip"][c] for c in range(9) if c != 6)
    assert readings[0][2] == [" "] * 9  # untouched: the pads read their baselines
    assert readings[0][1] == table["baseline"]
