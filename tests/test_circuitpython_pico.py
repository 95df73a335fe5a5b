"""The firmware on real CircuitPython (the official 10.2.1 UF2 for the Pico)
in an emulated RP2040: ``keypad`` scanning the GPIO buttons, Adafruit's
``neopixel`` library driving the data pin through PIO, the CIRCUITPY drive
exactly as ``make circuitpy`` stages it.

Two boards, each shared by the tests of one module-scoped fixture (a
CircuitPython boot takes 4.3 emulated seconds to the menu, and
CircuitPython's asyncio never lets the core sleep, so the emulator runs at
about a fifth of real time): one flashed with the single
file ``make uf2 RUNTIME=circuitpython`` writes, one whose drive (a FAT
image) holds a corrupt tactic-toe table. The tests of each board run in
file order, each going on from where the one before left it. All in
lockstep on the emulated clock: limits are emulated milliseconds.
"""

import os

import pytest

from pico_board import PicoRun, check_self_test, is_menu, perfect, play, plays_on_without_its_table, start_game
from host_tools.drive import circuitpy, fat, uf2
from host_tools.sim import pico
from tactictoe import rules
from conftest import HANG_S, need_image

BOARD = "circuitpython-pico"
PROBE = os.path.join(os.path.dirname(__file__), "cp", "cp_probe.py")
DOUBLES_CP = os.path.join(os.path.dirname(__file__), "doubles_cp")

# Where our doubles may differ from the real thing, and why that is fine.
DOUBLES_DIFFER = {
    # the achievable PWM frequency nearest 440 Hz on the RP2040 (the
    # firmware never reads it back)
    "pwm frequency, duty_cycle": ("(442, 32768)", "(440, 32768)"),
    "implementation": ("'circuitpython'", "'cpython'"),
}


@pytest.fixture(scope="module")
def uf2_board(tmp_path_factory, table_files):
    """A Pico flashed with build/tactictoe-circuitpython-pico.uf2 alone."""
    path = str(tmp_path_factory.mktemp("cpuf2") / "tactictoe-circuitpython-pico.uf2")
    need_image("circuitpython-pico", "bootrom")  # (or the tests skip, saying which)
    uf2.write(path, board=BOARD, tables_dir=os.path.dirname(table_files[rules.CLASSIC]), runtime="circuitpython")
    b = PicoRun(None, board=BOARD, uf2=(path,), runtime="circuitpython")
    yield b
    b.close()


@pytest.fixture(scope="module")
def corrupt_board(tmp_path_factory, table_files):
    """A Pico with CircuitPython whose CIRCUITPY drive has a corrupt
    tactictoe.tbl (and the doubles' probe, tests/cp/cp_probe.py), the
    centre held from power-on."""
    files = dict(circuitpy.drive_files(BOARD, tables_dir=os.path.dirname(table_files[rules.CLASSIC])))
    name = circuitpy._join(circuitpy.LAYOUT["tables"], "tactictoe.tbl")
    bad = bytearray(files[name])
    bad[1000] ^= 0xFF
    files[name] = bytes(bad)
    with open(PROBE, "rb") as f:
        files["cp_probe.py"] = f.read()  # for the doubles' check, at the REPL
    drive = tmp_path_factory.mktemp("cpfat") / "circuitpy.img"
    drive.write_bytes(fat.image(sorted(files.items())))
    b = PicoRun(str(drive), board=BOARD, runtime="circuitpython")
    b.hold(1 << 4)
    yield b
    b.close()


def test_boots_to_the_menu_on_real_circuitpython(uf2_board):
    b = uf2_board
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == ".D./X.o/.w.", 12000, "the menu")
    check_self_test(b)  # as on MicroPython, from the pulses PIO put on GP16
    # What the pin carried is what the neopixel library handed the PIO's TX
    # FIFO, byte for byte, the whole chain.
    assert len(b.chip.wire) == 27 and b.chip.fifo == b.chip.wire
    # The program's pulses: 0 and 1 bits within the WS2812 datasheet's
    # windows, whole bytes.
    assert set(b.chip.timing) >= {"h0", "h1", "low"}
    problems = pico.timing_problems({k: v for k, v in b.chip.timing.items() if k != "low"})
    assert problems == []


def test_a_tactictoe_game_won_as_x_through_presses(uf2_board, table_files):
    b = uf2_board
    start_game(b, rules.TACTICTOE)
    pos, result = play(b, rules.TACTICTOE, perfect(rules.TACTICTOE, table_files[rules.TACTICTOE]))
    assert result == "serial tactictoe: X wins"
    assert pos.winner() == rules.X and len(pos._undo) == 13  # X wins in 13 against the perfect level
    assert [f for f in b.lines if f.startswith("fault")] == []


def test_holding_the_centre_at_power_on_is_safe_mode(corrupt_board):
    b = corrupt_board
    b.serial("safe mode: the centre cell was held at power-on", 12000)
    assert b.frames()[-1].split()[2] == ".../.o./..."
    b.hold(0)
    at_repl(b)
    b.type("import sys; print(sys.implementation.name, sys.implementation.version)\r")
    b.serial("circuitpython (10, 2, 1, '')", 2000)


def at_repl(b):
    """code.py has returned (safe mode): the first key pressed enters
    CircuitPython's REPL, so wait for that before typing a line (each test
    may run alone, with -k)."""
    if not getattr(b, "in_repl", False):
        b.serial("Code done running.", 12000)
        b.type("\r")
        b.run(500)
        b.in_repl = True


def probe_lines(lines):
    out = {}
    for line in lines:
        key, _, value = line.partition("\t")
        if key not in ("probe",):
            out[key] = value
    return out


def test_our_doubles_agree_with_real_circuitpython(corrupt_board):
    """tests/cp/cp_probe.py on the board (at its REPL, cell 0 held) and on
    CPython over tests/doubles_cp, which the CircuitPython layer's other
    tests run on."""
    import subprocess
    import sys

    b = corrupt_board
    at_repl(b)
    b.hold(1)
    b.type("import cp_probe\r")
    b.serial("probe\tend", 10000)
    b.hold(0)
    begin = max(i for i, line in enumerate(b.lines) if line == "serial probe\tbegin")
    real = probe_lines(line[len("serial "):] for line in b.lines[begin:] if line.startswith("serial "))
    script = ("import fingers; fingers.wire({'kind': 'buttons', 'pins': ['GP%d' % n for n in range(2, 11)]});"
              " fingers.held = 1; import cp_probe")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_S,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join([DOUBLES_CP, os.path.dirname(PROBE)])))
    assert r.returncode == 0, r.stderr
    ours = probe_lines(r.stdout.splitlines())
    assert set(real) == set(ours) and len(real) > 40
    for key, (on_board, on_doubles) in DOUBLES_DIFFER.items():
        assert real[key].endswith(on_board) and ours[key].endswith(on_doubles), (key, real[key], ours[key])
    assert {k: v for k, v in real.items() if k not in DOUBLES_DIFFER} == \
        {k: v for k, v in ours.items() if k not in DOUBLES_DIFFER}


def test_the_board_imports_the_compiled_modules(corrupt_board):
    """make circuitpy's .mpy files (CircuitPython 10's format) are what the
    board runs: it would refuse a wrong one ("incompatible .mpy file"), and
    a module's __file__ names the file imported."""
    b = corrupt_board
    at_repl(b)
    b.type("import tactictoe.rules, tactictoe.loop, neopixel, asyncio.core; print('files', tactictoe.rules.__file__,"
           " neopixel.__file__, tactictoe.loop.__file__, asyncio.core.__file__)\r")
    line = b.serial("files /", 5000)
    assert line.endswith("files /lib/tactictoe/rules.mpy /lib/neopixel.mpy /lib/tactictoe/loop.mpy"
                         " /lib/asyncio/core.mpy"), line
    b.type("print('game', tactictoe.rules.Position(tactictoe.rules.TACTICTOE).legal_moves())\r")
    assert b.serial("game [", 5000).endswith("game [0, 1, 2, 3, 4, 5, 6, 7, 8]")


def test_a_corrupt_table_is_refused_and_the_game_plays_on(corrupt_board):
    b = corrupt_board
    b.chip.power_cycle()
    b.wait(is_menu, 12000, "the menu")
    start_game(b, rules.TACTICTOE)
    b.serial("tactictoe: table lib/tactictoe/tactictoe.tbl: table corrupt: CRC-32 of records is", 3000)
    plays_on_without_its_table(b)
