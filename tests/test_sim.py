"""The virtual board (``make sim``'s engine) through its public interfaces:
the ``sim`` command's headless and replay modes, and ``mpremote`` on its
serial console."""

import json
import os
import re
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings, strategies as st

from live_sim import ROOT, Console, LiveSim, is_menu, is_self_test, mpremote, play, reset, start_game
from host_tools.sim import script as sim_script
from tactictoe import ai, rules, table
from conftest import HANG_S

PY = sys.executable


def run_sim(*args, stdin=None, timeout=HANG_S):
    return subprocess.run([PY, "-m", "host_tools", "sim"] + list(args), cwd=ROOT, capture_output=True,
                          text=True, input=stdin, timeout=timeout)


@pytest.fixture
def tables(tmp_path, table_files):
    """A folder of this test's own: both tables and the puzzles. The
    repository's build/ is no place for a test's flash to get them from:
    the make targets other tests run beside it write build/ while it plays."""
    folder = tmp_path / "tables"
    folder.mkdir()
    for g, path in table_files.items():
        (folder / os.path.basename(path)).write_bytes(open(path, "rb").read())
    puzzles = os.path.join(os.path.dirname(table_files[rules.CLASSIC]), "puzzles.bin")
    (folder / "puzzles.bin").write_bytes(open(puzzles, "rb").read())
    return str(folder)


@pytest.fixture
def live(tmp_path, tables):
    boards = []

    def start(*args, **kw):
        b = LiveSim(tmp_path / "flash", "--tables", str(tables), *args, **kw)
        boards.append(b)
        return b

    yield start
    for b in boards:
        b.close()


MENU_CLASSIC_YOU_X = "wait 1700\ntap 3\ntap 0\ntap 8\ntap 3\n"


def test_replay_is_repeatable(tmp_path, table_files):
    script = tmp_path / "game.txt"
    script.write_text(MENU_CLASSIC_YOU_X + "tap 4\nwait 1500\ntap 0\nwait 1500\n")
    runs = [run_sim("--replay", str(script), "--flash", str(tmp_path / "flash"), "--tables",
                    os.path.dirname(table_files[rules.CLASSIC]), "--seed", "7") for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert runs[0].stdout == runs[1].stdout
    out = runs[0].stdout.splitlines()
    serial = [line for line in out if line.startswith("serial ") and not line.startswith("serial > ")]
    # The firmware reports the moves: X's taps became moves and the board answered each.
    assert serial[0] == "serial classic: X 4"
    assert serial[2] == "serial classic: X 0"
    assert [line.split()[1] for line in serial] == ["classic:"] * 4
    # Frames carry virtual times: the self-test starts at 0, pixel by pixel.
    first = [line.split() for line in out if line.startswith("frame ")][:3]
    assert [f[2] for f in first] == ["W../.../...", ".W./.../...", "..W/.../..."]
    assert int(first[0][1]) < 30
    # The final position is on the LEDs: X on 4 and 0, O on the board's cells.
    o_cells = [int(line.split()[-1]) for line in serial if " O " in line]
    grid = [line for line in out if line.startswith("frame ")][-1].split()[2].replace("/", "")
    assert grid[4].upper() == "X" and grid[0].upper() == "X"
    for c in o_cells:
        assert grid[c].upper() == "O"


def test_the_console_narrates_every_screen_a_game_and_its_result(live, table_files):
    """In "> " lines, for a first-time player: each menu screen's question
    and options by key, the choice, how to choose, a refused press, whose
    move it is, what hints mean, each move and the result."""
    sim = live()

    def said(text):
        return sim.serial("> " + text)

    said("Testing the lights.")
    said(("Choose a game: cell 3 classic (3 in a row wins), cell 5 tactic-toe (old marks vanish),"
     " cell 1 puzzles (win in N moves), cell 7 score (see or reset it)."))
    said("Pulsing now: cell 5, tactic-toe.")
    said("Tap a lit cell to choose; hold any cell 1.5 s to start over.")
    sim.send("tap 4")  # not an option
    said("Cell 4 is not an option here: tap a lit cell.")
    sim.send("tap 3")
    said("Who plays? cell 0 you are X (you go first), cell 2 you are O (board goes first),"
         " cell 6 two players (take turns), cell 8 demo (board vs board).")
    said("Pulsing now: cell 0, you are X.")
    said("Tap a lit cell to choose; hold any cell 1.5 s to start over.")
    sim.send("tap 0")
    said("Board's level: cell 6 easy (sees 1-move wins), cell 7 medium (blocks your wins),"
         " cell 8 perfect (never loses), cell 4 matched (keeps it close).")
    said("Pulsing now: cell 8, perfect.")
    sim.send("tap 8")
    said(("Play with help? cell 3 no help (just play), cell 4 trainer (shows blunders),"
     " cell 5 hints on (best moves glow)."))
    said("Pulsing now: cell 3, no help.")
    sim.send("tap 5")
    said("New game of classic: you are X against the perfect board; hints on.")
    said("Your move (X): tap a free cell.")
    hints = "Hints: a fast bright pulse wins, a slow dim breath draws, a faint steady glow loses."
    said(hints)
    start = len(sim.lines)
    with table.Table(table_files[rules.CLASSIC], rules.CLASSIC) as tbl:
        pos, result = play(sim, rules.CLASSIC, lambda pos: ai.best_moves(tbl, pos)[0])
    assert result == "serial classic: draw"
    last = said("Tap any cell to play again; hold one 1.5 s for the menu.")
    lines = sim.lines[start:sim.lines.index(last) + 1]
    # After each move on the console, the narration says it, then whose move it is.
    narration = [line[9:] for line in lines if line.startswith("serial > ")]
    moves = [line.split()[2:] for line in lines if re.match(r"serial classic: [XO] \d$", line)]
    assert len(moves) == 9
    expect = []
    for n, (player, cell) in enumerate(moves):
        who = "You (X)" if player == "X" else "The board (O)"
        if n == 8:
            expect += ["You (X) played on cell %s: a draw!" % cell]
        elif player == "X":
            expect += ["%s played on cell %s." % (who, cell), "The board (O) is thinking."]
        else:
            expect += ["%s played on cell %s." % (who, cell), "Your move (X): tap a free cell.", hints]
    expect.append("Score, classic against the perfect board: you won 0, drew 1, lost 0.")  # kept on its flash
    expect.append("Review: you (X) 5 moves: 5 best, none thrown away; accuracy 100%.")  # the best moves only
    expect.append("Review: the board (O) 4 moves: 4 best, none thrown away; accuracy 100%.")
    expect.append("Tap any cell to play again; hold one 1.5 s for the menu.")
    assert narration == expect


def test_a_different_seed_can_change_the_game_but_not_the_menu(tmp_path, tables):
    script = tmp_path / "game.txt"
    script.write_text(MENU_CLASSIC_YOU_X)
    out = [run_sim("--replay", str(script), "--flash", str(tmp_path / "flash"), "--tables", tables,
                   "--seed", str(s)).stdout
           for s in (1, 2)]
    assert out[0] == out[1]  # no AI move yet: nothing random


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["tap", "hold", "press", "release", "wait"]),
                          st.integers(0, 8), st.integers(0, 3000)), max_size=12))
def test_timeline_follows_the_script(commands):
    lines = []
    held = 0
    for name, cell, ms in commands:
        lines.append({"tap": "tap %d", "press": "press %d", "release": "release %d"}.get(name, "") % cell
                     if name in ("tap", "press", "release") else
                     ("hold %d %d" % (cell, ms) if name == "hold" else "wait %d" % ms))
    changes, end = sim_script.timeline(lines)
    times = [t for t, _ in changes]
    assert times == sorted(times)
    assert all(0 <= m < 512 for _, m in changes)
    assert end >= (times[-1] if times else 0)
    # A tap or hold is always released again; press/release are explicit.
    for name, cell, ms in commands:
        if name == "press":
            held |= 1 << cell
        elif name == "release":
            held &= ~(1 << cell)
    assert (changes[-1][1] if changes else 0) == held


@pytest.mark.parametrize("script, message", [
    ("tapp 3", "s.txt line 1: unknown command 'tapp'"),
    ("wait 100\ntap 9", "s.txt line 2: cell 9: cells are 0-8"),
    ("hold 4", "s.txt line 1: hold takes hold CELL MS"),
    ("wait soon", "s.txt line 1: wait takes wait MS"),
    ("wait 100\nturn 1", "s.txt line 2: turn: pico-buttons has no dial (its config has no encoder)"),
])
def test_script_mistakes_get_one_line(tmp_path, script, message):
    f = tmp_path / "s.txt"
    f.write_text(script + "\n")
    r = run_sim("--replay", str(f), "--flash", str(tmp_path / "flash"))
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_turn_on_a_board_without_a_dial_is_said_and_the_board_plays_on(live):
    b = live()
    b.wait(is_menu, 30, "the menu")
    b.send("turn 1", "tap 3")
    assert b.wait(lambda line: line.startswith("error ")) == (
        "error stdin line 1: turn: pico-buttons has no dial (its config has no encoder)")
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "X.O/.../M.W", 30, "who plays")


def test_sim_needs_a_terminal_or_headless(tmp_path):
    r = run_sim("--flash", str(tmp_path / "flash"), stdin="")
    assert r.returncode == 1
    assert r.stderr.strip() == ("error: the simulator needs a terminal (stdin and stdout); for scripts use"
                                " python -m host_tools sim --headless (see docs/simulator.md)")


def test_sim_refuses_a_board_it_cannot_be(tmp_path):
    r = run_sim("--board", "circuitpython-pico", "--flash", str(tmp_path / "f"), "--headless", stdin="")
    assert r.returncode == 1 and "runs MicroPython boards only" in r.stderr
    r = run_sim("--board", "pico-nope", "--flash", str(tmp_path / "f"), "--headless", stdin="")
    assert r.returncode == 1 and "no board 'pico-nope'" in r.stderr and "pico-buttons" in r.stderr
    # A file as --headless's input can't be waited on: one line, not a traceback.
    with open(os.devnull) as nothing:
        r = subprocess.run([PY, "-m", "host_tools", "sim", "--flash", str(tmp_path / "f"), "--headless"], cwd=ROOT,
                           capture_output=True, text=True, stdin=nothing, timeout=HANG_S)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip().splitlines()[-1] == ("error: --headless reads its commands from a pipe or a terminal,"
                                                 " not a file: pipe them in (cat script | ...), or use --replay FILE")


def test_mpremote_lists_copies_runs_and_resets(live, tmp_path):
    b = live()
    b.wait(lambda line: line.startswith("frame "), 30, "a frame")
    r = mpremote(b.port, "ls", "+", "ls", ":lib/tactictoe")
    assert r.returncode == 0, r.stderr
    root, package = r.stdout.split("ls :lib/tactictoe")
    sizes = {line.split()[1]: int(line.split()[0]) for line in root.splitlines()[1:]}
    assert sizes["main.py"] > 0 and sizes["lib/"] == 0
    sizes = {line.split()[1]: int(line.split()[0]) for line in package.splitlines()[1:]}
    assert sizes["classic.tbl"] == 2524 and sizes["tactictoe.tbl"] == 58088
    # and the puzzles beside them, as a new flash gets them
    assert sizes["puzzles.bin"] == len((tmp_path / "tables" / "puzzles.bin").read_bytes())
    assert "rules.mpy" in sizes
    note = tmp_path / "note.txt"
    note.write_bytes(bytes(range(256)) * 3)
    r = mpremote(b.port, "cp", str(note), ":note.bin", "+", "exec", "import os; print(os.stat('note.bin')[6])")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[-1] == "768"
    assert (tmp_path / "flash" / "note.bin").read_bytes() == note.read_bytes()
    r = mpremote(b.port, "exec", "1/0")
    assert r.returncode == 1 and "ZeroDivisionError" in r.stdout + r.stderr
    # Reset: the firmware starts again from power-on (its self-test).
    n = len(b.lines)
    reset(b)
    assert len(b.lines) > n


def test_console_repl_interrupts_and_soft_resets(live):
    """The friendly REPL as a person at `mpremote repl` sees it."""
    b = live("--seed", "1")
    b.wait(lambda line: line.startswith("frame "), 30, "a frame")
    r = mpremote(b.port, "exec", "import machine\nprint(machine.Pin(2).value(), len(machine.unique_id()))")
    assert r.returncode == 0 and r.stdout.split() == ["1", "8"], r.stdout + r.stderr
    # Files written on the board live in the flash folder; soft reset keeps them.
    r = mpremote(b.port, "exec", "open('boot.py','w').write('print(\"boot.py ran\")')", "+", "soft-reset")
    assert r.returncode == 0, r.stderr
    reset(b, "boot.py ran")


def test_holding_the_centre_at_power_on_is_safe_mode(live):
    b = live()
    b.wait(lambda line: line.startswith("frame "), 30, "a frame")
    b.send("press 4", "reset")
    b.serial("safe mode: the centre cell was held at power-on")
    b.send("release 4")
    r = mpremote(b.port, "exec", "print('free')")
    assert r.stdout.strip() == "free"


def test_play_on_the_live_board(live):
    b = live("--seed", "5")
    start_game(b, rules.CLASSIC)
    pos, result = play(b, rules.CLASSIC, lambda p: p.legal_moves()[0])
    assert result == "serial classic: O wins"
    assert pos.winner() == rules.O


def _stall_trials(mode):
    from conftest import run_micropython

    r = run_micropython("press_script_stalls.py", os.path.join(ROOT, "simulator"), 400, mode)
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.fullmatch(r"lost (\d+) long (\d+) of 400\n", r.stdout)
    assert m, r.stdout
    return int(m.group(1)), int(m.group(2))


def test_no_tap_of_the_press_script_is_lost_to_a_stall_inside_a_key_scan():
    """The press script against the firmware's own debouncer, on the Unix
    port, with stalls between scans and between two reads of one scan:
    timed by the scans' clock (simtime), every tap lands; timed by the
    reads, as before, a stall inside a scan lost taps (which is what this
    test would see if the script went back to that)."""
    lost, long = _stall_trials("scans")
    assert lost == 0
    # A stall of the long-press time with a finger down is a long press, as
    # on a board; with stalls this heavy (a 6 % chance per key read of up to
    # 0.4 s) about one trial in eight meets one. Many more would mean the
    # script holds taps too long.
    assert long < 80
    lost, _ = _stall_trials("reads")
    assert lost > 100


def test_taps_sent_while_the_board_is_frozen_all_land(live):
    """A board starved of CPU still takes every tap: the taps are played on
    its own clock from the first key scan that sees each. Here the board's
    interpreter is stopped outright (SIGSTOP) while the menu's four taps and
    a move are sent, for longer than a tap lasts, then let go."""
    import signal

    b = live("--seed", "5")
    b.wait(is_menu, 30, "the menu")
    children = open("/proc/%d/task/%d/children" % (b.proc.pid, b.proc.pid)).read().split()
    assert len(children) == 1, children  # the board's MicroPython
    board = int(children[0])
    os.kill(board, signal.SIGSTOP)
    try:
        b.send("tap 3", "tap 0", "tap 8", "tap 3", "tap 4")
        # The host plays no part in timing the taps now: with the old
        # wall-clock taps, these 0.9 s were every tap's whole length.
        time.sleep(0.9)
    finally:
        os.kill(board, signal.SIGCONT)
    b.serial("classic: X 4")
    line = b.wait(lambda line: line.startswith("serial classic: O "), 30, "the board's move")
    assert int(line.split()[-1]) != 4


def test_a_wait_on_a_board_that_has_stopped_fails_with_its_last_lines(live):
    """The other side of waiting on the board's progress: a board that
    makes none (stopped here with SIGSTOP) fails the wait once it has said
    nothing for ``stall`` seconds, with what it said last."""
    import signal

    b = live("--seed", "5")
    b.wait(is_menu, 30, "the menu")
    board = int(open("/proc/%d/task/%d/children" % (b.proc.pid, b.proc.pid)).read().split()[0])
    b.stall = 2
    os.kill(board, signal.SIGSTOP)
    try:
        with pytest.raises(AssertionError, match=r"(?s)no line for 'a move' in 2s with no word from the board.*frame "):
            b.serial("a move")
    finally:
        os.kill(board, signal.SIGCONT)


def test_console_edge_cases_behave_as_on_a_board(live, tmp_path):
    b = live()
    b.wait(lambda line: line.startswith("frame "), 30, "a frame")
    # "/.." is "/": nothing outside the flash folder can be reached.
    r = mpremote(b.port, "exec", "import os; print(os.listdir('/..') == os.listdir('/'), os.getcwd())")
    assert r.stdout.split() == ["True", "/"], r.stdout + r.stderr
    r = mpremote(b.port, "exec", "open('/../../../etc/hostname')")
    assert r.returncode == 1 and "ENOENT" in r.stdout + r.stderr
    # sys.exit() in code run by mpremote soft-resets and mpremote returns.
    r = mpremote(b.port, "exec", "import sys; sys.exit()", timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    # Lots of output at once: none of it lost.
    r = mpremote(b.port, "exec", "for i in range(20000): print(i)", timeout=HANG_S)
    assert r.stdout.split() == [str(i) for i in range(20000)]
    # A reset, then straight away another command: the board is interrupted
    # however early the Ctrl-C comes.
    for _ in range(5):
        assert mpremote(b.port, "reset").returncode == 0
        r = mpremote(b.port, "exec", "print('up')", timeout=HANG_S)
        assert r.stdout.strip() == "up", r.stdout + r.stderr


def test_a_console_client_that_stops_reading_loses_nothing(live):
    # A client with the port open that reads nothing for longer than the 2 s
    # a board with no client keeps its output (a machine starved of CPU can
    # stall mpremote that long): the board waits for it, as on a USB line.
    b = live()
    b.wait(lambda line: line.startswith("frame "), 30, "a frame")
    con = Console(b.port)
    try:
        _to_raw_repl(con)
        con.write(b"for i in range(30000): print(i)\x04")
        time.sleep(3)  # not a deadline: longer than the 2 s, however fast the machine
        out = con.expect(b"\x04", HANG_S)
        assert out[:2] == b"OK" and out[2:-1].split() == [str(i).encode() for i in range(30000)]
        con.write(b"\r\x02")
    finally:
        con.close()


RAW = b"raw REPL; CTRL-B to exit\r\n>"


def _to_raw_repl(con):
    """mpremote's way in: Ctrl-C, then Ctrl-A, until the raw REPL answers."""
    con.write(b"\r\x03\r\x01")
    con.expect(RAW)


def _runs_code(con):
    """The raw REPL runs code: the board is back."""
    con.write(b"print('up')\x04")
    assert con.expect(b"\x04>").endswith(b"OKup\r\n\x04\x04>")


@pytest.mark.parametrize("when", ["as the code starts", "as the board goes down"])
def test_a_ctrl_c_that_meets_a_reset_interrupts_the_next_board(live, when):
    # mpremote's Ctrl-C can reach the board while the code that resets it
    # (`mpremote reset`) is starting, or while the board is going down. It
    # must not be lost: it interrupts that code or, once the board is past
    # that, the next board's main.py (the console outlives the reset, as a
    # board takes a Ctrl-C sent once its port is back). Lost, main.py runs on
    # and mpremote waits for the raw REPL for ever. TACTICTOE_SIM_LAG makes
    # the board dawdle before it tells the host that code starts or has
    # ended, which holds each race open; however the race goes, the board
    # must come to the raw REPL.
    b = live(env={"TACTICTOE_SIM_LAG": "500"})
    b.wait(lambda line: line.startswith("frame "), 30, "a frame")
    con = Console(b.port)
    try:
        _to_raw_repl(con)
        if when == "as the code starts":
            con.write(b"import machine; machine.reset()\x04")
            con.expect(b"OK")  # the board has the code and dawdles before it runs it
        else:
            con.write(b"print('going'); import machine; machine.reset()\x04")
            con.expect(b"going")  # the code runs: the board dawdles as it goes down
        _to_raw_repl(con)
        _runs_code(con)
    finally:
        con.close()


def test_a_ctrl_c_in_the_garbage_collector_still_reaches_the_repl(live):
    # The Unix port raises KeyboardInterrupt from its SIGINT handler, inside
    # the garbage collector too, which it then leaves locked: the board died
    # of MemoryError and came back on a new console without the bytes in
    # flight, so mpremote waited for the raw REPL for ever. Code that does
    # nothing but collect is interrupted there nearly every time.
    b = live()
    b.wait(lambda line: line.startswith("frame "), 30, "a frame")
    con = Console(b.port)
    try:
        _to_raw_repl(con)
        for _ in range(3):
            con.write(b"import gc\nj = [bytearray(64) for i in range(1000)]\nprint('spin')\n"
                      b"while True: gc.collect()\x04")
            con.expect(b"spin")
            _to_raw_repl(con)
        _runs_code(con)
    finally:
        con.close()


def test_a_long_replay_is_streamed_not_held_in_the_boards_heap(tmp_path, tables):
    # 1500 taps, five virtual minutes: the timeline once held in a list
    # filled the virtual board's heap at about 800.
    script = tmp_path / "long.txt"
    script.write_text("".join("tap %d\n" % (i % 9) for i in range(1500)))
    r = run_sim("--replay", str(script), "--flash", str(tmp_path / "flash"), "--tables", tables, "--then", "100",
                timeout=HANG_S)
    assert r.returncode == 0, r.stdout[-500:] + r.stderr
    assert "MemoryError" not in r.stdout and "error" not in r.stdout.lower()
    frames = [line.split() for line in r.stdout.splitlines() if line.startswith("frame ")]
    assert int(frames[-1][1]) >= 1499 * 200  # it ran to the last tap (each tap is 200 ms)
    # The game the first taps pick depends on when the self-test ends; either
    # way the board must have kept playing moves to the end.
    moves = [line for line in r.stdout.splitlines() if re.match(r"serial (classic|tactictoe): X \d$", line)]
    assert len(moves) > 10, r.stdout[-500:]


def test_a_replay_that_ends_in_the_repl_still_ends(tmp_path, tables):
    script = tmp_path / "safe.txt"
    script.write_text("press 4\nwait 2000\nrelease 4\n")  # safe mode: main.py returns at once
    r = run_sim("--replay", str(script), "--flash", str(tmp_path / "flash"), "--tables", tables, timeout=HANG_S)
    assert r.returncode == 0
    assert "serial safe mode: the centre cell was held at power-on" in r.stdout


def test_wiring_differences_are_the_pins_not_the_settings():
    from host_tools import flash
    from host_tools.sim.board import wiring_differences

    buttons, matrix, touch = (flash.board_config(b)[1] for b in ("pico-buttons", "pico-matrix", "esp32-touch"))
    assert wiring_differences(matrix, buttons) == ["leds.order", "input", "buzzer"]
    assert wiring_differences(buttons, matrix) == ["leds.order", "input"]  # no buzzer in the config: silence
    assert wiring_differences(touch, buttons) == ["leds.pin", "input", "buzzer"]
    mine = dict(buttons, name="mine", colours=dict(buttons["colours"], x=(1, 2, 3)),
                leds=dict(buttons["leds"], brightness=0.5))
    assert wiring_differences(mine, buttons) == []
    tuned = dict(touch, input=dict(touch["input"], threshold=0.3, direction="falls"))
    assert wiring_differences(tuned, touch) == []
    swapped = dict(buttons, leds=dict(buttons["leds"], colour_order="RGB"))
    assert wiring_differences(swapped, buttons) == ["leds.colour_order"]


def test_pico_mx_plays_with_its_keys_on_gp26_to_gp28_and_its_chain_entering_at_cell_8(tmp_path, table_files):
    """make sim BOARD=pico-mx: the MX kit's wiring (keys 0-2 on GP26-GP28,
    the RP2040's ADC pins, read as digital inputs with pull-ups; the chain
    entering at cell 8). The self-test walks cells 0 to 8 in reading order,
    which on this chain is pixels 8 7 6 3 4 5 2 1 0; each key pressed marks
    its own cell; the frames are decoded from the pixels with the kit's
    leds.order, so a firmware that ignored it would show the marks in the
    mirrored cells."""
    from host_tools import flash
    from host_tools.sim.board import cells_of, wiring_differences

    mx = flash.board_config("pico-mx")[1]
    assert mx["input"]["pins"] == [26, 27, 28, 20, 21, 22, 17, 18, 19]
    assert mx["leds"]["order"] == [8, 7, 6, 3, 4, 5, 2, 1, 0]
    assert wiring_differences(mx, mx) == []
    assert wiring_differences(mx, flash.board_config("pico-buttons")[1]) == ["leds.order", "input"]
    # pixel 0 of the chain, GRB on the wire, is cell 8's
    assert cells_of(bytes([2, 1, 3]) + bytes(24), mx) == [(0, 0, 0)] * 8 + [(1, 2, 3)]
    script = tmp_path / "game.txt"
    # classic, two players, no help: X 8, O 3, X 0, O 6, X 1, O 7, X 2 (X wins along the top row)
    script.write_text("wait 1700\ntap 3\ntap 6\ntap 3\n" + "".join("tap %d\n" % c for c in (8, 3, 0, 6, 1, 7, 2))
                      + "wait 500\n")
    r = run_sim("--replay", str(script), "--flash", str(tmp_path / "flash"), "--tables",
                os.path.dirname(table_files[rules.CLASSIC]), "--board", "pico-mx", "--seed", "1")
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert not any("[virtual board" in line for line in out)
    frames = [line.split() for line in out if line.startswith("frame ")]
    walk = ["." * c + "W" + "." * (8 - c) for c in range(9)]
    assert [f[2] for f in frames[:9]] == ["%s/%s/%s" % (w[0:3], w[3:6], w[6:9]) for w in walk]
    moves = [line[7:] for line in out if re.match(r"serial classic: ", line)]
    assert moves == ["classic: X 8", "classic: O 3", "classic: X 0", "classic: O 6", "classic: X 1", "classic: O 7",
                     "classic: X 2", "classic: X wins"]
    after_x8 = out[out.index("serial classic: X 8") + 1:]
    first = next(line.split()[2] for line in after_x8 if line.startswith("frame "))
    assert first.replace("/", "")[8].upper() == "X" and first.replace("/", "")[:8].upper().count("X") == 0
    # The end's first frame (from 2.4 s on, the review flashes O's move on 3 over the marks dimmed)
    end = out[out.index("serial classic: X wins") + 1:]
    last = next(line.split()[2] for line in end if line.startswith("frame ")).replace("/", "").upper()
    assert [c for c in range(9) if last[c] == "X"] == [0, 1, 2, 8]
    assert [c for c in range(9) if last[c] == "O"] == [3, 6, 7]


MISMATCH = ("serial [virtual board: board.json (pico-matrix) does not match this board's wiring (pico-buttons):"
            " leds.order, input, buzzer differ, so its keys, LEDs or buzzer will misbehave (one key can press several"
            " cells, or none); flash a config for its wiring (pico-buttons) or start the simulator with"
            " BOARD=pico-matrix]")


def test_a_config_for_another_wiring_is_said_at_power_on(tmp_path, table_files):
    """The virtual board knows its wiring, as a real one can't: flashed with
    another board's config, it says so in one line as it powers on (and
    plays on with the config, as a real board would)."""
    flash = tmp_path / "flash"
    flash.mkdir()
    script = tmp_path / "s.txt"
    script.write_text("wait 300\n")
    tables = os.path.dirname(table_files[rules.CLASSIC])
    (flash / "board.json").write_bytes(open(os.path.join(ROOT, "firmware", "boards", "pico-matrix.json"), "rb").read())
    r = run_sim("--replay", str(script), "--flash", str(flash), "--tables", tables, "--board", "pico-buttons")
    assert r.returncode == 0, r.stderr
    assert [line for line in r.stdout.splitlines() if "[virtual board" in line] == [MISMATCH]
    r = run_sim("--replay", str(script), "--flash", str(flash), "--tables", tables, "--board", "pico-matrix")
    assert r.returncode == 0 and "[virtual board" not in r.stdout, r.stdout + r.stderr


def test_make_flash_of_another_wiring_is_said_by_the_board(live):
    from host_tools import flash as flash_tool

    b = live("--seed", "3")
    b.wait(is_self_test, 30, "the self-test")
    assert not any("[virtual board" in line for line in b.lines)
    # make flash BOARD=pico-matrix's config step, then its reset
    flash_tool.flash(b.port, board="pico-matrix", firmware=False, say=lambda line: None)
    b.serial("[virtual board: board.json (pico-matrix) does not match", 60)
    assert b.lines[-1] == MISMATCH


def test_any_valid_config_on_any_wiring_plays_without_a_crash(tmp_path, table_files):
    """A config is read as the firmware reads it, defaults and all: LEDs with
    no ``pin`` (APA102s, the IS31FL3731), a wiring with no ``buzzer`` key
    (it defaults to none) neither crash the virtual board, whichever of
    them is its wiring and which is flashed into it."""
    boards = os.path.join(ROOT, "firmware", "boards")
    no_buzzer = json.load(open(os.path.join(boards, "pico-buttons.json")))
    del no_buzzer["buzzer"]
    (tmp_path / "quiet.json").write_text(json.dumps(dict(no_buzzer, name="quiet")))
    with_buzzer = json.dumps(dict(no_buzzer, name="loud", buzzer=15)).encode()
    script = tmp_path / "s.txt"
    script.write_text(MENU_CLASSIC_YOU_X + "tap 4\nwait 1500\n")
    tables = os.path.dirname(table_files[rules.CLASSIC])
    for wired, flashed in (("pico-buttons", "keypad"), ("pico-buttons", "keybow"), ("keypad", "pico-buttons"),
                           (str(tmp_path / "quiet.json"), with_buzzer)):
        flash = tmp_path / ("flash-%s" % len(os.listdir(tmp_path)))
        flash.mkdir()
        (flash / "board.json").write_bytes(flashed if isinstance(flashed, bytes) else
                                           open(os.path.join(boards, flashed + ".json"), "rb").read())
        r = run_sim("--replay", str(script), "--flash", str(flash), "--tables", tables, "--board", wired)
        assert r.returncode == 0, (wired, r.stdout[-2000:] + r.stderr)
        assert "Traceback" not in r.stdout and "KeyError" not in r.stdout, (wired, r.stdout[-2000:])
        assert "[virtual board: board.json" in r.stdout  # the mismatch is said, in its one line
        assert "serial > Testing the lights." in r.stdout


def test_a_replay_that_is_not_a_small_regular_text_file_is_refused_in_one_line(tmp_path):
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)  # nobody writes it: reading it would wait forever
    big = tmp_path / "big.txt"
    big.write_text("wait 1\n" * 150000)  # over 1 MiB
    odd = tmp_path / "odd.txt"
    odd.write_text("wait 100\ntap \u00b2\n")  # a digit to isdigit(), not to int()
    for script, why in ((fifo, "it is a FIFO (named pipe), not a file"), ("/dev/zero", "it is a device, not a file"),
                        (big, "over 1 MiB: a press script is commands, one a line (docs/simulator.md)"),
                        (odd, "line 2: tap takes tap CELL")):
        r = run_sim("--replay", str(script), "--flash", str(tmp_path / "flash"))
        assert r.returncode == 1 and r.stdout == "", r.stdout[-500:] + r.stderr
        assert r.stderr == "error: %s%s%s\n" % (script, " " if why.startswith("line") else ": ", why), r.stderr
    assert not (tmp_path / "flash").exists()


@pytest.mark.parametrize("name", ["board.json", "main.py", "lib/tactictoe/score.bin", "lib/tactictoe/puzzles.bin",
                                  "lib/tactictoe/classic.tbl"])
def test_a_fifo_in_the_flash_is_refused_in_one_line_not_read(tmp_path, name):
    flash = tmp_path / "flash"
    os.makedirs(os.path.dirname(flash / name), exist_ok=True)
    os.mkfifo(flash / name)
    script = tmp_path / "s.txt"
    script.write_text("wait 100\n")
    for args in (("--replay", str(script)), ("--headless",)):
        r = run_sim(*args, "--flash", str(flash), stdin="")
        assert r.returncode == 1 and r.stdout == "", r.stdout[-500:] + r.stderr
        assert r.stderr == ("error: the flash %s holds %s, which is a FIFO (named pipe), not a file: a board's flash"
                            " holds only files; remove it (make clean-sim wipes the flash)\n" % (flash, name)), r.stderr


def test_a_config_for_another_wiring_stays_said_and_make_sims_own_flash_names_make_clean_sim(table_files):
    """pico-matrix's config on the pico-buttons wiring: its rows and columns
    are the buttons' pins, so the button on a column's pin holds that column
    down for every row the firmware scans, and one tap of cell 3 is taps of
    cells 0, 3 and 6 (as on a real board wired so). The board keeps the
    mismatch (``mismatch``) for the terminal to show under the board for as
    long as it holds, and in make sim's own flash (build/sim/) both lines
    name make clean-sim."""
    from host_tools.sim import board as sim_board, terminal
    from host_tools.sim.flash import prepare_flash

    flash = os.path.join(ROOT, "build", "sim", "test-mismatch-%d" % os.getpid())
    os.makedirs(flash)
    try:
        with open(os.path.join(ROOT, "firmware", "boards", "pico-matrix.json"), "rb") as f:
            open(os.path.join(flash, "board.json"), "wb").write(f.read())
        wiring, cfg = sim_board.wiring("pico-buttons")
        prepare_flash(flash, cfg, wiring, tables_dir=os.path.dirname(table_files[rules.CLASSIC]))
        lines = []
        b = sim_board.VirtualBoard(flash, "pico-buttons", seed=1, console=False,
                                   replay=sim_script.timeline(["wait 1700", "tap 3", "wait 1000"]))
        b.on_output = lambda data: lines.append(data.decode())
        b.start()
        try:
            while b.running:
                b.poll(1.0)
        finally:
            b.close()
        out = "".join(lines)
        assert ("flash a config for its wiring (pico-buttons), start the simulator with BOARD=pico-matrix or wipe the"
                " virtual boards' flashes (build/sim/) with make clean-sim]") in out
        # one tap of cell 3 (GP5, the matrix's first column): cells 0, 3 and 6
        assert "Cell 0 is not an option here" in out and "Who plays?" in out and "Play with help?" in out
        assert b.mismatch == "board.json is for pico-matrix, not pico-buttons: make clean-sim fixes it"
        console = terminal.ConsoleLines()
        for _ in range(40):  # the console's line has long scrolled away
            console(b"classic: X 4\r\n")
        row = terminal.picture(b, console, 80)[(terminal.GRID_BOTTOM + 3, 1)]
        assert b.mismatch in row
    finally:
        import shutil

        shutil.rmtree(flash)


def test_a_fifo_among_the_tables_is_refused_in_one_line_not_copied(tmp_path):
    """--tables: what a new flash gets its tables from (the Unix port's
    folder, the emulated RP2040's littlefs image)."""
    from host_tools.sim import board as sim_board, pico

    tables = tmp_path / "tables"
    tables.mkdir()
    os.mkfifo(tables / "classic.tbl")  # nobody writes it: reading it would wait forever
    script = tmp_path / "s.txt"
    script.write_text("wait 100\n")
    r = run_sim("--replay", str(script), "--flash", str(tmp_path / "flash"), "--tables", str(tables))
    assert r.returncode == 1 and r.stdout == "", r.stdout[-500:] + r.stderr
    assert r.stderr == "error: cannot read %s: it is a FIFO (named pipe), not a file\n" % (tables / "classic.tbl")
    assert not (tmp_path / "flash").exists()
    wired, cfg = sim_board.wiring("pico-buttons")
    with pytest.raises(sim_board.SimError) as e:
        pico.prepare_flash_file(str(tmp_path / "pico.lfs"), cfg, wired, tables_dir=str(tables))
    assert str(e.value) == "cannot read %s: it is a FIFO (named pipe), not a file" % (tables / "classic.tbl")
    assert not (tmp_path / "pico.lfs").exists()


def test_a_board_json_a_board_refuses_is_said_by_the_firmware_not_a_host_traceback(tmp_path, tables):
    """A number of 4,400 digits (CPython's json refuses over 4,300; the
    file is over 4096 bytes, which a board refuses) in the flash's
    board.json: the firmware says why it uses its default, the host checks
    the wiring without a traceback."""
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "board.json").write_text('{"name": "big", "buzzer": %s}' % ("7" * 4400))
    script = tmp_path / "s.txt"
    script.write_text("wait 300\n")
    r = run_sim("--replay", str(script), "--flash", str(flash), "--tables", tables)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, r.stdout[-1000:] + r.stderr
    assert "serial config: board.json is over 4096 bytes, too big for a board config: using the default" in r.stdout
