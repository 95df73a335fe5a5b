"""``python -m host_tools sim``: the firmware on a virtual board.

Where to look:

- ``board.py``: ``VirtualBoard``, the firmware in the real MicroPython
  Unix port with only the hardware simulated, and its serial console;
- ``chips.py``: a bought board's chips for it (the models the web page
  and the emulated RP2040 run, in Node);
- ``flash.py``: its flash folder, filled as ``make flash`` fills a board;
- ``terminal.py``: the board in this terminal, played with the keyboard;
- ``headless.py``: ``--headless`` and ``--replay``, for scripts and tests;
- ``script.py``: the press commands both of those read;
- ``frames.py``: an LED frame as a line of text;
- ``screen.py``: a 128x64 screen (the MacroPad's) as half-block text, or braille;
- ``pico.py``: ``--chip rp2040``, the real rp2 port in an emulated RP2040;
- ``picture.py``: the README's picture of it (``sim-picture``);
- this file: ``main``, which picks one of them for the command line.
"""

import os
import sys

from host_tools.sim import headless, terminal
from host_tools.sim.board import ROOT, SimError, VirtualBoard, wiring
from host_tools.sim.flash import default_flash, prepare_flash

__all__ = ["main"]


def main(args):
    """``python -m host_tools sim``: SimError for anything the user can fix.
    Every board plays on the Unix port unless ``--chip rp2040`` says
    otherwise; a bought board's chips come with it (``chips.py``)."""
    if args.chip == "rp2040":
        from host_tools.sim import pico  # needs the official images: only when asked for

        return pico.main(args)
    path, cfg = wiring(args.board)
    flash_dir = args.flash or default_flash(cfg)
    tables = args.tables or os.path.join(ROOT, "build")
    if args.replay:
        script = headless.read_script(args.replay, cfg)  # a bad script changes nothing
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
