"""``mpremote`` and ``make flash`` against the real MicroPython rp2 port in an
emulated Pico (``host_tools.sim.pico``): the same commands, the same code path
and the same littlefs as on a board on the desk.

While a command runs (``mpremote``, ``make flash``) the chip runs live, up
to real time, and this process relays its USB console to the pseudo-terminal
the command has open; those waits are bounded by generous subprocess
timeouts only. Everything else runs in lockstep on the emulated clock
(``pico_board``), bounded by emulated milliseconds, so a loaded machine
makes these tests slower, never different.

Covered: ``mpremote ls/cp/exec/rm/reset`` on the port's own USB serial;
``make flash`` into a blank Pico (MicroPython formats its flash at first
boot), ``make flash-table``, then a whole game through GPIO presses; a flash
whose cable is pulled mid-copy (the emulator killed, its flash file as the
chip left it) leaving the old files working; and ``make uf2``'s one file
booted with no other flash and played.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

import pytest

from live_sim import MPREMOTE, ROOT
from pico_board import PicoRun, flash_image, is_menu, perfect, play, start_game
from host_tools import flash
from host_tools.drive import picofs
from tactictoe import rules
from conftest import HANG_S, need_image

PY = sys.executable
LIVE_TIMEOUT = 120  # s: any one command against the live chip (only a hung one gets near it)
COPY_LINE = re.compile(r"^  (\S+) +(\d+) bytes  crc ([0-9a-f]{8})  ok$", re.M)
WALK = ["W../.../...", ".W./.../...", "..W/.../...", ".../W../...", ".../.W./...", ".../..W/...",
        ".../.../W..", ".../.../.W.", ".../.../..W"]


@pytest.fixture
def board():
    boards = []

    def make(flash_file, **kw):
        b = PicoRun(flash_file, **kw)
        boards.append(b)
        # PicoRun keeps tones and power events; the USB host side also
        # wants to know when the device has enumerated.
        b.usb = 0
        chained = b.chip.on_event

        def on_event(words):
            if words[0] == "usb":
                b.usb += 1
            chained(words)

        b.chip.on_event = on_event
        return b

    yield make
    for b in boards:
        b.close()


def files(path):
    """{name: bytes} of the littlefs image at ``path`` (the emulated flash)."""
    with open(path, "rb") as f:
        return picofs.read_image(f.read())


def run_until(b, done, limit_ms, what):
    """Lockstep: run until ``done()``; AssertionError after ``limit_ms`` of
    emulated time."""
    end = b.ms + limit_ms
    while not done():
        if b.ms >= end:
            raise AssertionError("no %s in %d emulated ms; last lines:\n%s"
                                 % (what, limit_ms, "\n".join(b.lines[-15:])))
        b.run(50)


def pull_plug(chip):
    """Kill the emulator (the chip stops wherever it is, its flash as it left
    it) and hang up its console, as a port vanishes with its cable."""
    chip.proc.kill()
    chip.proc.wait()
    chip.close()


def live(b, *argv, kill_when=None, timeout=LIVE_TIMEOUT):
    """Run a command (from the project's root) to its end while the chip runs
    live and its console is relayed; the chip is paused again afterwards.
    ``kill_when(stdout so far)``: pull the plug once it says so.
    Returns ``(status, stdout, stderr)``."""
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    chip = b.chip
    chip.go_live()
    # Unbuffered: kill_when reads the tool's lines as it prints them.
    proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    plugged = True
    try:
        end = time.monotonic() + timeout
        while proc.poll() is None:
            if time.monotonic() > end:
                raise AssertionError("%s still running after %d s" % (" ".join(argv), timeout))
            if not plugged:
                time.sleep(0.02)
                continue
            # One pass of the relay at most between two looks at the output:
            # the command can't get far past what kill_when waits for.
            chip.poll(0.02)
            if kill_when:
                out.seek(0)
                if kill_when(out.read().decode()):
                    pull_plug(chip)
                    plugged = False
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if plugged:
            chip.pause()
            # Live, the host learns the emulated time only from the events
            # that carry it (frames, tones, power, usb): a run of nothing
            # brings ``ms`` to where the clock stopped, so that lockstep
            # waits count from there.
            chip.run(0)
    out.seek(0)
    err.seek(0)
    return proc.returncode, out.read().decode(), err.read().decode()


def mpremote(b, *args, **kw):
    return live(b, MPREMOTE, "connect", b.chip.port, *args, **kw)


def one_line(err):
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err, err
    return err.strip()


def earlier_firmware(cfg, folder):
    """[(name, bytes)]: the firmware as an earlier ``make flash`` left it: the
    same modules, compiled from sources one comment line longer, so every
    .mpy works the same but differs in its line numbers; app.mpy says it is
    the previous firmware at power-on."""
    out = []
    for name, data in flash.firmware_files(cfg, compile_mpy=True):
        source = os.path.join(ROOT, "firmware", name.replace("lib/", "").rsplit(".", 1)[0] + ".py")
        with open(source, "rb") as f:
            text = f.read()
        if name == "main.py":
            out.append((name, b"# the previous main.py\n" + text))
            continue
        if name.endswith("/app.mpy"):
            # Said once the game is being built: a print from main.py itself
            # comes before the emulated USB host has connected, and is lost.
            text = b"print('the previous firmware')\n" + text
        base = name.rsplit("/", 1)[-1][:-4]
        src, mpy = os.path.join(folder, base + ".py"), os.path.join(folder, base + ".mpy")
        with open(src, "wb") as f:
            # (the empty __init__ gets a docstring: a comment alone compiles the same)
            f.write(b"# an earlier build\n" + (text or b'"""an earlier build"""\n'))
        subprocess.run(flash.mpy_cross_command(src, mpy, base), check=True)
        with open(mpy, "rb") as f:
            out.append((name, f.read()))
        assert out[-1][1] != data
    return out


@pytest.fixture(scope="module")
def tables(table_files):
    return os.path.dirname(table_files[rules.CLASSIC])


def test_mpremote_ls_cp_exec_reset_on_the_real_port(board, tmp_path, tables):
    image = flash_image(tmp_path / "flash.lfs", tables_dir=tables)
    old = files(image)
    b = board(image, console=True)
    b.wait(is_menu, 5000, "the menu")  # the game runs: mpremote has to interrupt it
    # ls: every file, with its size in the littlefs image.
    status, out, err = mpremote(b, "ls", "+", "ls", ":lib/tactictoe")
    assert status == 0, err
    root, package = out.split("ls :lib/tactictoe")
    listed = dict((name, int(size)) for size, name in (line.split() for line in root.splitlines()[1:]))
    listed.update(("lib/tactictoe/" + name, int(size))
                  for size, name in (line.split() for line in package.splitlines()[1:]))
    assert listed == dict({name: len(data) for name, data in old.items()}, **{"lib/": 0})
    # cp both ways: every byte value, and the console's control bytes, arrive.
    blob = bytes(range(256)) * 24 + b"\x03\x04\x01\x02\r\n\n\r\x1b\x00\xff" * 20
    (tmp_path / "blob").write_bytes(blob)
    status, out, err = mpremote(b, "cp", str(tmp_path / "blob"), ":blob.bin", "+",
                                "cp", ":blob.bin", str(tmp_path / "back"), "+", "ls")
    assert status == 0, err
    assert (tmp_path / "back").read_bytes() == blob
    assert re.search(r"^ +%d blob\.bin$" % len(blob), out, re.M), out
    now = files(image)  # what the chip programmed into its flash
    assert now["blob.bin"] == blob
    assert {n: d for n, d in now.items() if n != "blob.bin"} == old
    # exec: output back; an exception is a non-zero exit with its text.
    status, out, err = mpremote(b, "exec", "import os, sys; print(os.stat('blob.bin')[6], sys.platform)")
    assert (status, out.split()) == (0, [str(len(blob)), "rp2"]), err
    status, out, err = mpremote(b, "exec", "raise ValueError('refused on the board')")
    assert status != 0 and "ValueError: refused on the board" in out + err, out + err
    # reset: the watchdog resets the chip, which starts over from its self-test.
    n = len(b.lines)
    status, out, err = mpremote(b, "reset")
    assert status == 0, err
    b.wait(lambda line: line.startswith("power ") and line.endswith(" watchdog"), 3000, "the watchdog reset")
    b.wait(is_menu, 5000, "the menu")
    assert [f.split()[2] for f in b.lines[n:] if f.startswith("frame ")][:9] == WALK
    assert files(image)["blob.bin"] == blob


def test_make_flash_into_a_blank_pico_then_make_flash_table_and_a_game(board, tmp_path):
    path = str(tmp_path / "blank.lfs")  # no such file: erased flash, which MicroPython formats
    b = board(path, console=True)
    run_until(b, lambda: b.usb, 5000, "USB connection")
    assert files(path) == {}
    # A config for another chip is refused before anything is written.
    status, out, err = live(b, "make", "--no-print-directory", "flash", "PORT=" + b.chip.port, "BOARD=esp32-touch")
    assert status != 0 and ("error: esp32-touch is a config for esp32-devkit (an esp32 board), but the board at %s"
                            " is an rp2: pick a config for it (shipped: keybow, keypad, macropad, pico-buttons,"
                            " pico-matrix, pico-mx)" % b.chip.port) in err
    assert files(path) == {}
    # The README's command.
    status, out, err = live(b, "make", "--no-print-directory", "flash", "PORT=" + b.chip.port, "BOARD=pico-buttons")
    assert status == 0, out + err
    assert "board: MicroPython 1.28.0 on rp2" in out and "firmware: compiled with mpy-cross" in out, out
    assert "the board is restarting" in out
    # Every file in place (what the UF2 also holds), nothing left staged.
    want = dict(picofs.board_files("pico-buttons"))
    assert files(path) == want
    assert {m.group(1): int(m.group(2)) for m in COPY_LINE.finditer(out)} == {n: len(d) for n, d in want.items()}
    # The tool reset the board, which starts the game from the new files.
    b.wait(lambda line: line.startswith("power ") and line.endswith(" watchdog"), 3000, "the reset")
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == WALK[0], 3000, "the self-test")
    # make flash-table puts back a table that has gone.
    status, out, err = mpremote(b, "rm", ":lib/tactictoe/classic.tbl")
    assert status == 0, err
    assert "lib/tactictoe/classic.tbl" not in files(path)
    status, out, err = live(b, "make", "--no-print-directory", "flash-table", "GAME=classic", "PORT=" + b.chip.port)
    assert status == 0, out + err
    assert re.search(r"^  lib/tactictoe/classic\.tbl +2524 bytes +crc [0-9a-f]{8} +ok$", out, re.M), out
    assert "the board is restarting" in out
    assert files(path) == want
    # Reset again: in lockstep from here, a whole game through GPIO presses,
    # the perfect level reading the table just copied.
    n = len(b.lines)
    b.wait(lambda line: line.startswith("power ") and line.endswith(" watchdog"), 3000, "the reset")
    start_game(b, rules.CLASSIC)
    pos, result = play(b, rules.CLASSIC, perfect(rules.CLASSIC, os.path.join(ROOT, "build", "classic.tbl")))
    assert result == "serial classic: draw" and pos.winner() is None
    # Nothing else said since the reset: no table or config problem.
    said = [line for line in b.lines[n:] if line.startswith("serial ") and "classic: " not in line
            and not line.startswith("serial > ")]  # (but the narration)
    assert said == []


def test_a_flash_killed_mid_copy_leaves_the_old_files_working(board, tmp_path, tables):
    # A working board whose every firmware file and board.json differ from
    # what make flash brings: its main.py says so at power-on, its config
    # lights the LEDs twice as bright.
    _, cfg, data = flash.board_config("pico-buttons")
    config = json.loads(data)
    config["leds"]["brightness"] = 0.5
    image = flash_image(tmp_path / "flash.lfs", tables_dir=tables,
                        extra=earlier_firmware(cfg, str(tmp_path)) + [("board.json", json.dumps(config).encode())])
    old = files(image)
    b = board(image, console=True)
    b.serial("the previous firmware", 3000)
    # make flash's tool, killed with the chip once it has copied and checked
    # its first file and the chip is programming the next one's bytes into
    # its flash (the second change to the flash after the line: the file's
    # creation, then its data): nothing is renamed yet (that comes once every
    # firmware file and board.json check out).
    flash_was = []  # the flash at the last look, and how often it had changed

    def under_way(out):
        if not COPY_LINE.search(out):
            return False
        with open(image, "rb") as f:
            now = f.read()
        changes = flash_was[1] + (now != flash_was[0]) if flash_was else 0
        flash_was[:] = [now, changes]
        return changes >= 2

    status, out, err = live(b, PY, "-m", "host_tools", "flash", "--port", b.chip.port, "--board", "pico-buttons",
                            kill_when=under_way)
    copied = [m.group(1) for m in COPY_LINE.finditer(out)]
    assert copied and "board.json" not in copied and "main.py" not in copied, out
    assert status == 1 and "lost the board" in one_line(err), err
    # The flash as the chip left it: the old files byte for byte; the only
    # others are staged copies, NAME.tmp (the first one whole; the one under
    # way as littlefs last committed it: its bytes programmed since are not
    # part of any file), which no one imports and the next flash overwrites.
    left = files(image)
    assert {n: d for n, d in left.items() if n in old} == old
    staged = sorted(set(left) - set(old))
    assert staged and all(n.endswith(".tmp") for n in staged), staged
    new = dict(flash.firmware_files(cfg, compile_mpy=True))
    first = "lib/tactictoe/__init__.mpy"  # the first file make flash copies
    assert left[first + ".tmp"] == new[first] != left[first]  # arrived, checked, not in use
    # Power on again: the old firmware and config, and the game plays.
    b = board(image)
    b.serial("the previous firmware", 3000)
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "W../.../...", 3000, "the self-test")
    assert b.frames()[0].split()[3].split(",")[0] == "7f7f7f"  # the previous brightness cap
    # ... and the staged copies are gone, each said once.
    said = [line for line in b.lines if line.startswith("serial removed ")]
    assert sorted(said) == ["serial removed %s, left by an interrupted flash" % name for name in staged]
    assert files(image) == old
    start_game(b, rules.CLASSIC)
    b.tap(4)
    b.serial("classic: X 4", 2000)
    line = b.wait(lambda line: line.startswith("serial classic: O "), 10000, "the board's move")
    free = [c for c in range(9) if c not in (4, int(line.split()[-1]))]
    b.tap(free[0])
    b.serial("classic: X %d" % free[0], 2000)
    assert not [line for line in b.lines if "not found" in line or line.startswith("fault")]


def test_the_one_file_uf2_boots_on_the_emulated_pico_and_plays(board, tmp_path):
    # make uf2's file: MicroPython and the filesystem in one, and no flash
    # file beside it: everything the chip runs comes from this file.
    need_image("micropython", "bootrom")
    path = tmp_path / "tactictoe-pico-buttons.uf2"
    r = subprocess.run([PY, "-m", "host_tools", "uf2", "--board", "pico-buttons", "-o", str(path)], cwd=ROOT,
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stdout + r.stderr
    b = board(None, uf2=(str(path),))
    start_game(b, rules.TACTICTOE)
    # Nothing to say at power-on but the narration: board.json valid, both tables opened.
    assert [line for line in b.lines if line.startswith("serial ") and not line.startswith("serial > ")] == []
    pos, result = play(b, rules.TACTICTOE, perfect(rules.TACTICTOE, os.path.join(ROOT, "build", "tactictoe.tbl")))
    assert result == "serial tactictoe: X wins"
    assert pos.winner() == rules.X and len(pos._undo) == 13  # X wins in 13
