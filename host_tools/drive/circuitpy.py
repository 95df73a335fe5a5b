"""``make circuitpy``: exactly what a CircuitPython board's CIRCUITPY drive
needs to play, staged into a folder (the mounted drive), or made into the
drive's FAT image (``fat``) for the emulated Pico and ``make uf2
RUNTIME=circuitpython``.

The firmware goes as sources: CircuitPython's .mpy format is not
MicroPython's, and the project has no CircuitPython mpy-cross, so the
board compiles each module as it imports it. The Adafruit libraries the
firmware imports come from their pinned PyPI packages in .venv (see
requirements-nodeps.txt), never from a hand-made copy.

Where each thing goes on the drive is said once, in ``LAYOUT``.
"""

import importlib.metadata
import os

from host_tools import flash, outputs
from host_tools.drive import fat
from host_tools.oserrors import reported
from tactictoe import rules

# The package goes where MicroPython boards have it, /lib/tactictoe/ (on
# CircuitPython's sys.path), its tables beside it; code.py is the two-line
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
# Only for the boards that have the part: APA102 LEDs (the Pico RGB Keypad)
# and a screen (the MacroPad's; Label, not the rest of the package).
DOTSTAR = ("adafruit-circuitpython-dotstar", ("adafruit_dotstar.py",))
DISPLAY_TEXT = ("adafruit-circuitpython-display-text", ("adafruit_display_text/__init__.py",
                                                        "adafruit_display_text/label.py"))


def libraries(cfg):
    """LIBRARIES, and those of ``cfg``'s parts."""
    out = list(LIBRARIES)
    if cfg["leds"]["kind"] == "apa102":
        out.append(DOTSTAR)
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
    the tables (from ``tables_dir``, default build/, each proven right) and
    the libraries. FlashError (one line) for what the user can fix."""
    _, cfg, data = flash.board_config(board)
    check_circuitpython(cfg)
    with open(LAYOUT["code.py"], "rb") as f:
        files = [("code.py", f.read()), ("board.json", data)]
    for name in MODULES + tuple(flash.device_modules(cfg, circuitpython=True)):
        with open(os.path.join(flash.PACKAGE, name + ".py"), "rb") as f:
            files.append((_join(LAYOUT["firmware"], name + ".py"), f.read()))
    for game in games:
        path, blob = flash.table_file(game, tables_dir) if tables_dir else flash.table_file(game)
        files.append((_join(LAYOUT["tables"], path.rsplit("/", 1)[-1]), blob))
    files += [("lib/" + name, blob) for name, blob in library_files(libraries(cfg))]
    return files


def image(files):
    """The CIRCUITPY drive (FAT12, 1 MiB) holding ``files``."""
    try:
        return fat.image(files)
    except fat.FatError as e:
        raise flash.FlashError(str(e))


def check_dest(dest):
    """FlashError, in one line, unless ``dest`` is a folder."""
    if not os.path.isdir(dest):
        raise flash.FlashError("%s: no such folder (DEST= is the CIRCUITPY drive, mounted)" % dest)


def stage(dest, files):
    """Write ``files`` under the folder ``dest``, making folders as needed:
    each to NAME.PID.tmp, then, when every one is written, all renamed into
    place (``outputs``). FlashError if ``dest`` is not a folder or can't be
    written (a full drive): then the drive holds what it held before."""
    check_dest(dest)
    with reported(flash.FlashError, "cannot write %s" % dest):
        outputs.write_tree(dest, files)
