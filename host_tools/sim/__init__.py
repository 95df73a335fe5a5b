"""``python -m host_tools sim``: the firmware on a virtual board.

Where to look:

- ``board.py``: ``VirtualBoard``, the firmware in the real MicroPython
  Unix port with only the hardware simulated, and its serial console;
- ``flash.py``: its flash folder, filled as ``make flash`` fills a board;
- ``terminal.py``: the board in this terminal, played with the keyboard;
- ``headless.py``: ``--headless`` and ``--replay``, for scripts and tests;
- ``script.py``: the press commands both of those read;
- ``frames.py``: an LED frame as a line of text;
- ``screen.py``: a 128x64 screen (the MacroPad's) as half-block text;
- ``pico.py``: ``--chip rp2040``, the real rp2 port in an emulated RP2040;
- ``picture.py``: the README's picture of it (``sim-picture``);
- this file: ``main``, which picks one of them for the command line.
"""

import os
import sys

from host_tools import makevars
from host_tools.sim import headless, terminal
from host_tools.sim.board import ROOT, SimError, VirtualBoard, wiring
from host_tools.sim.flash import default_flash, prepare_flash

__all__ = ["main"]

# The bought boards (a config's "board"): only the emulated RP2040 models
# their chips, so sim runs them there unless told otherwise.
BOUGHT = ("macropad", "pico-rgb-keypad", "keybow2040")


def bought(board):
    """True when ``board`` (a name or path) is a config for a bought board."""
    from host_tools import flash

    try:
        return flash.board_config(board)[1]["board"] in BOUGHT
    except flash.FlashError:
        return False  # the usual error, from wiring()


def main(args):
    """``python -m host_tools sim``: SimError for anything the user can fix."""
    if args.chip == "rp2040" or (args.chip is None and bought(args.board)):
        from host_tools.sim import pico  # needs Node.js: only when asked for

        return pico.main(args)
    if bought(args.board):
        raise SimError("the Unix-port virtual board has no chip models (screen, encoder, expander): %s plays on"
                       " the emulated RP2040 (%s, or leave it out)" % (args.board, makevars.name("--chip", "rp2040")))
    path, cfg = wiring(args.board)
    flash_dir = args.flash or default_flash(cfg)
    tables = args.tables or os.path.join(ROOT, "build")
    if args.replay:
        script = headless.read_script(args.replay)  # a bad script changes nothing
        prepare_flash(flash_dir, cfg, path, update=not args.no_update, tables_dir=tables)
        seed = 1 if args.seed is None else args.seed
        return headless.run_replay(args.board, flash_dir, script, seed, args.then)
    if not args.headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise SimError("the simulator needs a terminal (stdin and stdout); for scripts use"
                       " python -m host_tools sim --headless (see docs/simulator.md)")
    changed = prepare_flash(flash_dir, cfg, path, update=not args.no_update, tables_dir=tables)
    board = VirtualBoard(flash_dir, args.board, seed=args.seed)
    try:
        if args.headless:
            if changed:
                headless.emit("flashed %s into %s" % (", ".join(changed), flash_dir))
            return headless.run_live(board)
        if changed:
            print("flashed %s into %s" % (", ".join(changed), flash_dir))
        board.start()
        return terminal.run(board)
    finally:
        board.close()
