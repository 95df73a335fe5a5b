"""Flashing with ``make flash`` / ``make flash-table`` (mpremote underneath),
end to end against a virtual board, and the one-line errors."""

import os
import pty
import re
import shutil
import subprocess
import sys
import time
import zlib

import pytest

from live_sim import ROOT, LiveSim, is_menu, next_game, play, rebooted, reset, start_game
from host_tools import flash as flash_tool, verify
from tactictoe import ai
from tactictoe import rules
from tactictoe import score
from tactictoe import table
from tactictoe.table import TABLES
from conftest import HANG_S

PY = sys.executable


def make(*args, timeout=HANG_S):
    return subprocess.run(["make", "--no-print-directory"] + list(args), cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def flash_cli(*args, timeout=HANG_S):
    return subprocess.run([PY, "-m", "host_tools", "flash"] + list(args), cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def bare_board(tmp_path):
    """A live virtual board with firmware and config but no tables."""
    (tmp_path / "none").mkdir()
    sims = []

    def start():
        s = LiveSim(tmp_path / "flash", "--tables", str(tmp_path / "none"), "--seed", "11")
        sims.append(s)
        return s

    yield start
    for s in sims:
        s.close()


def perfect(host_table):
    return lambda pos: ai.best_moves(host_table, pos)[0]


def test_flash_tables_then_play_win_draw_and_refuse_a_corrupt_one(bare_board, tmp_path, monkeypatch):
    b = bare_board()
    flash = tmp_path / "flash"
    assert not (flash / TABLES / "classic.tbl").exists()
    b.serial("classic: table lib/tactictoe/classic.tbl not found")  # said at power-on
    # make flash-table: mpremote copies it, the board checks it, then resets.
    r = make("flash-table", "GAME=classic", "PORT=" + b.port)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"classic\.tbl +2524 bytes +crc [0-9a-f]{8} +ok", r.stdout), r.stdout
    assert "the board is restarting" in r.stdout
    assert (flash / TABLES / "classic.tbl").read_bytes() == (
        open(os.path.join(ROOT, "build", "classic.tbl"), "rb").read())
    # The restart flash-table asked for, to its menu; then mpremote's reset,
    # to its self-test: start_game must not take a menu frame from before a
    # reset for the menu it taps (under load that lost the taps: live_sim.reset).
    rebooted(b)
    b.wait(is_menu, 30, "the menu after the flash's restart")
    reset(b)
    start_game(b, rules.CLASSIC)
    # A careless X: the board wins.
    pos, result = play(b, rules.CLASSIC, lambda p: p.legal_moves()[0])
    assert result == "serial classic: O wins" and pos.winner() == rules.O
    assert not any("not found" in line for line in b.lines[-40:])
    # A perfect X: a draw. (A tap after the end starts the next game.)
    classic = table.Table(os.path.join(ROOT, "build", "classic.tbl"), rules.CLASSIC)
    next_game(b)
    pos, result = play(b, rules.CLASSIC, perfect(classic))
    assert result == "serial classic: draw" and pos.winner() is None

    # Tactic-toe back on: a perfect X wins in 13 plies against the board's best defence.
    r = make("flash-table", "GAME=tactictoe", "PORT=" + b.port)
    assert r.returncode == 0, r.stdout + r.stderr
    rebooted(b)
    start_game(b, rules.TACTICTOE)
    tt = table.Table(os.path.join(ROOT, "build", "tactictoe.tbl"), rules.TACTICTOE)
    pos, result = play(b, rules.TACTICTOE, perfect(tt))
    assert result == "serial tactictoe: X wins" and pos.winner() == rules.X

    # A corrupt classic table is refused by the host before it is copied;
    # the old one stays.
    bad = tmp_path / "bad"
    bad.mkdir()
    data = bytearray(classic_bytes())
    data[100] ^= 0x40
    (bad / "classic.tbl").write_bytes(bytes(data))
    r = flash_cli("--port", b.port, "--table", "classic", "--tables", str(bad))
    assert r.returncode == 1
    assert r.stderr == "error: %s: table corrupt: CRC-32 of records is %08x, header says %08x\n" % (
        bad / "classic.tbl", zlib.crc32(bytes(data[16:])), zlib.crc32(classic_bytes()[16:])), r.stderr
    # ...and were the host's proof to pass it (bytes mangled on the way), the
    # board's own reader refuses the staged copy and deletes it.
    with monkeypatch.context() as m:
        m.setattr(verify, "first_wrong", lambda data: None)
        with pytest.raises(flash_tool.FlashError,
                           match=r"the board refused lib/tactictoe/classic.tbl \(table corrupt: CRC-32"):
            flash_tool.flash(b.port, games=("classic",), firmware=False, tables_dir=str(bad), reset=False,
                             say=lambda line: None)
    assert (flash / TABLES / "classic.tbl").read_bytes() == classic_bytes()
    assert not (flash / TABLES / "classic.tbl.tmp").exists()
    reset(b)
    start_game(b, rules.CLASSIC)
    pos, result = play(b, rules.CLASSIC, perfect(classic))
    assert result == "serial classic: draw"


def classic_bytes():
    with open(os.path.join(ROOT, "build", "classic.tbl"), "rb") as f:
        return f.read()


def test_make_flash_installs_firmware_config_and_tables(bare_board, tmp_path):
    b = bare_board()
    flash = tmp_path / "flash"
    (flash / TABLES / "rules.py").write_text("raise ImportError('a stale source that would hide rules.mpy')\n")
    # What the firmware before the package left at the root: removed, its
    # table moved where the board now looks.
    (flash / "app.mpy").write_bytes(b"an old module")
    (flash / "classic.tbl").write_bytes(classic_bytes())
    r = make("flash", "PORT=" + b.port, "BOARD=pico-matrix", "GAMES=tactictoe")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "firmware: compiled with mpy-cross" in r.stdout
    assert "removed 1 firmware file an older flash left at the root" in r.stdout
    assert "classic.tbl: moved to /lib/tactictoe" in r.stdout
    names = sorted(os.listdir(flash))
    assert names == ["board.json", "data", "lib", "main.py"], names
    assert os.listdir(flash / score.FOLDER) == []  # the score's folder, made now (picofs.FOLDERS says why)
    names = sorted(os.listdir(flash / TABLES))
    assert "rules.py" not in names and "rules.mpy" in names and "__init__.mpy" in names
    assert not [n for n in names if n.endswith(".tmp")]
    assert "classic.tbl" in names and "tactictoe.tbl" in names
    # The puzzles go with the firmware, whichever tables go, checked there by its reader.
    assert (flash / TABLES / "puzzles.bin").read_bytes() == open(os.path.join(ROOT, "build", "puzzles.bin"),
                                                                 "rb").read()
    assert re.search(r"lib/tactictoe/puzzles\.bin +\d+ bytes +crc [0-9a-f]{8} +ok", r.stdout), r.stdout
    assert (flash / "board.json").read_bytes() == open(os.path.join(ROOT, "firmware", "boards", "pico-matrix.json"),
                                                       "rb").read()
    # Back to the config that matches the virtual board's wiring.
    rebooted(b)  # (make flash's)
    n = len(b.lines)
    r = flash_cli("--port", b.port, "--board", "pico-buttons", "--games", "")
    assert r.returncode == 0, r.stderr
    rebooted(b)
    assert not any("not found" in line for line in b.lines[n:])
    start_game(b, rules.CLASSIC)
    b.send("tap 4")
    b.serial("classic: X 4")


def test_a_cable_pulled_mid_copy_leaves_the_old_files(bare_board, tmp_path):
    b = bare_board()
    flash = tmp_path / "flash"
    old = (flash / "main.py").read_bytes()
    proc = subprocess.Popen([PY, "-m", "host_tools", "flash", "--port", b.port, "--table", "tactictoe"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    tmp = flash / TABLES / "tactictoe.tbl.tmp"
    end = time.monotonic() + 30
    while not (tmp.exists() and tmp.stat().st_size > 0) and time.monotonic() < end:
        time.sleep(0.001)
    b.proc.kill()  # the whole virtual board, console and all: a pulled cable
    out, err = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 1
    assert err.count("\n") == 1 and "lost the board" in err, err
    assert not (flash / TABLES / "tactictoe.tbl").exists()  # never half-written under its own name
    assert (flash / "main.py").read_bytes() == old
    assert tmp.exists()
    # Power on again: the board removes the staged copy and says so.
    b = bare_board()
    b.serial("removed lib/tactictoe/tactictoe.tbl.tmp, left by an interrupted flash")
    assert not tmp.exists()
    # A flash cut short while the board ran: the next flash removes what it left.
    (flash / TABLES / "app.mpy.tmp").write_bytes(b"half a file")
    (flash / "board.json.tmp").write_bytes(b"half a file")
    r = flash_cli("--port", b.port, "--table", "classic")
    assert r.returncode == 0, r.stderr
    assert "removed board.json.tmp, lib/tactictoe/app.mpy.tmp, left by an interrupted flash" in r.stdout
    assert not [n for n in os.listdir(flash) if n.endswith(".tmp")]


def test_flash_errors_are_one_line(tmp_path):
    r = flash_cli("--port", "/dev/ttyNOPE0")
    assert r.returncode == 1
    m = re.fullmatch(r"error: no board at /dev/ttyNOPE0: that port does not exist \(is it plugged in\?"
                     r" (\S+) connect list shows the ports\)\n", r.stderr)
    assert m, r.stderr
    # The mpremote make venv installed, as it can be typed there: not on
    # the PATH, so by its path (unless .venv is activated).
    assert m.group(1) in (".venv/bin/mpremote", "mpremote"), m.group(1)
    if m.group(1) == "mpremote":
        assert os.path.samefile(shutil.which("mpremote"), flash_tool.MPREMOTE)
    hint = subprocess.run(m.group(1) + " connect list", shell=True, cwd=ROOT, capture_output=True, text=True,
                          timeout=HANG_S)
    assert hint.returncode == 0, hint.stderr  # the command the hint gives works as written
    r = flash_cli()
    assert r.returncode == 1 and "no PORT given" in r.stderr
    # A corrupt puzzles file is refused before any board is looked for.
    tables = tmp_path / "tables"
    tables.mkdir()
    shutil.copy(os.path.join(ROOT, "build", "classic.tbl"), tables)
    data = bytearray(open(os.path.join(ROOT, "build", "puzzles.bin"), "rb").read())
    data[20] ^= 1
    (tables / "puzzles.bin").write_bytes(bytes(data))
    r = flash_cli("--port", "/dev/ttyNOPE0", "--games", "classic", "--tables", str(tables))
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("error: %s: corrupt: CRC-32 of records is " % (tables / "puzzles.bin"))
    assert "not flashed (make puzzles writes a right one)" in r.stderr and "ttyNOPE0" not in r.stderr
    (tables / "puzzles.bin").unlink()
    r = flash_cli("--port", "/dev/ttyNOPE0", "--games", "classic", "--tables", str(tables))
    assert r.stderr == "error: %s: No such file or directory (make puzzles builds it)\n" % (tables / "puzzles.bin")
    r = make("flash-table", "GAME=checkers", "PORT=x")
    assert r.returncode != 0 and "GAME=checkers: say which table" in r.stderr
    # A device that never answers: not MicroPython (or busy with something else).
    master, slave = pty.openpty()
    try:
        r = flash_cli("--port", os.ttyname(slave), "--table", "classic")
        assert r.returncode == 1
        assert "does not answer like MicroPython" in r.stderr and r.stderr.count("\n") == 1, r.stderr
    finally:
        os.close(master)
        os.close(slave)


def test_a_busy_port_is_named(bare_board):
    import serial

    b = bare_board()
    hog = serial.Serial(b.port, exclusive=True)
    try:
        r = flash_cli("--port", b.port, "--table", "classic")
        assert r.returncode == 1
        assert r.stderr == ("error: %s is busy: another program has it open (mpremote, Thonny, a serial monitor);"
                            " close it and try again\n" % b.port)
    finally:
        hog.close()


def test_a_config_for_another_runtime_is_refused_before_anything_is_written(bare_board, tmp_path):
    b = bare_board()
    flash = tmp_path / "flash"
    before = {p: p.read_bytes() for p in flash.rglob("*") if p.is_file()}
    r = flash_cli("--port", b.port, "--board", "circuitpython-pico")
    assert r.returncode == 1
    assert r.stderr == ("error: circuitpython-pico is a config for circuitpython, but the board at %s runs"
                        " MicroPython: pick a MicroPython config (shipped: esp32-touch, keybow, keypad, macropad,"
                        " pico-buttons, pico-matrix, pico-mx)\n"
                        % b.port)
    assert {p: p.read_bytes() for p in flash.rglob("*") if p.is_file()} == before


def test_tools_that_find_the_mpy_cache_stale_at_once_all_get_the_module(tmp_path):
    # Two sims (or test workers) started together after a source changed
    # each compile it into the cache: none may trip over the other's file.
    cache = str(tmp_path / "mpy")
    code = ("import sys; from host_tools import flash; "
            "sys.stdout.buffer.write(flash.compiled('rules', %r))" % cache)
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(6)]
    outs = [p.communicate(timeout=HANG_S) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, [err.decode()[-300:] for _, err in outs]
    assert len({out for out, _ in outs}) == 1 and outs[0][0].startswith(b"M")
    assert os.listdir(cache) == ["rules.mpy"]
