"""The virtual board's flash: a host folder holding what ``make flash``
would put on a board."""

import os

from host_tools import inputs
from host_tools.oserrors import reported
from host_tools.sim.board import ROOT, SimError
from tactictoe import puzzles, rules


def default_flash(cfg):
    """``build/sim/BOARD``: where ``make sim`` keeps a board's flash."""
    return os.path.join(ROOT, "build", "sim", cfg["name"])


def prepare_flash(folder, cfg, wiring_path, update=True, tables_dir=os.path.join(ROOT, "build")):
    """Make the flash folder a working board: the firmware (what ``make
    flash`` would copy, refreshed from firmware/ when ``update``), and the
    board config, the tables and the puzzles when it has none. Returns what was written."""
    from host_tools import flash

    if os.path.isfile(folder):
        raise SimError("--flash %s: it is a file: the Unix-port board's flash is a folder (a littlefs image"
                       " file is --chip rp2040's)" % folder)
    check_files(folder)
    with reported(SimError, "cannot write the flash %s" % folder):
        if os.path.isdir(folder):
            flash.tidy_folder(folder)
    files = _files(folder, cfg, wiring_path, update, tables_dir)
    with reported(SimError, "cannot write the flash %s" % folder):
        return flash.install(folder, files)


def check_files(folder):
    """SimError, in one line, if the flash folder holds anything but files
    and folders (a FIFO as board.json or score.bin would hang the board,
    and the host that reads it)."""
    odd = os.path.isdir(folder) and inputs.special_file(folder)
    if odd:
        raise SimError("the flash %s holds %s, which is %s, not a file: a board's flash holds only files; remove it"
                       " (make clean-sim wipes the flash)" % (folder, odd[0], odd[1]))


def _files(folder, cfg, wiring_path, update, tables_dir):
    """What ``prepare_flash`` writes: (name, bytes) for each file."""
    from host_tools import flash

    files = []
    if update or not os.path.exists(os.path.join(folder, "main.py")):
        files += flash.firmware_files(cfg, compile_mpy=True)
    if not os.path.exists(os.path.join(folder, "board.json")):
        with open(wiring_path, "rb") as f:
            files.append(("board.json", f.read()))
    for base in [game + ".tbl" for game in rules.GAMES] + [puzzles.NAME]:
        name = flash.ON_BOARD + "/" + base
        source = os.path.join(tables_dir, base)
        if not os.path.exists(os.path.join(folder, name)) and os.path.exists(source):
            with reported(SimError, "cannot read %s" % source):
                inputs.check(source)  # (a FIFO would never end)
            files.append(proven(base, tables_dir))  # (SimError for a wrong one, as make flash refuses it)
    return files


def proven(base, tables_dir):
    """``(name on the board, bytes)`` of a table or the puzzles from
    ``tables_dir``, proven right as ``make flash`` and ``make uf2`` prove
    them (SimError, one line, for a wrong one)."""
    from host_tools import flash

    try:
        if base == puzzles.NAME:
            return flash.puzzle_file(tables_dir)
        return flash.table_file(base[:-4], tables_dir)
    except flash.FlashError as e:
        raise SimError(str(e).replace("not flashed", "not put on the virtual board"))
