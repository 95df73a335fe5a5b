"""``python -m host_tools sim``: the firmware on a virtual board.

The simulator's modules, each named for its job:

* ``sim_board``: ``VirtualBoard``, the firmware in the real MicroPython
  Unix port with only the hardware simulated, and its serial console;
* ``sim_flash``: its flash folder, filled as ``make flash`` fills a board;
* ``sim_terminal``: the board in this terminal, played with the keyboard;
* ``sim_headless``: ``--headless`` and ``--replay``, for scripts and tests;
* ``sim_script``: the press commands both of those read;
* ``sim_frames``: an LED frame as a line of text;
* ``pico``: ``--chip rp2040``, the real rp2 port in an emulated RP2040.
"""

import os
import sys

from host_tools import sim_headless, sim_terminal
from host_tools.sim_board import ROOT, SimError, VirtualBoard, wiring
from host_tools.sim_flash import default_flash, prepare_flash


def main(args):
    """``python -m host_tools sim``: SimError for anything the user can fix."""
    if args.chip == "rp2040":
        from host_tools import pico  # needs Node.js: only when asked for

        return pico.main(args)
    path, cfg = wiring(args.board)
    flash_dir = args.flash or default_flash(cfg)
    tables = args.tables or os.path.join(ROOT, "build")
    if args.replay:
        script = sim_headless.read_script(args.replay)  # a bad script changes nothing
        prepare_flash(flash_dir, cfg, path, update=not args.no_update, tables_dir=tables)
        seed = 1 if args.seed is None else args.seed
        return sim_headless.run_replay(args.board, flash_dir, script, seed, args.then)
    if not args.headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise SimError("the simulator needs a terminal (stdin and stdout); for scripts use"
                       " python -m host_tools sim --headless (see docs/simulator.md)")
    changed = prepare_flash(flash_dir, cfg, path, update=not args.no_update, tables_dir=tables)
    board = VirtualBoard(flash_dir, args.board, seed=args.seed)
    try:
        if args.headless:
            if changed:
                sim_headless.emit("flashed %s into %s" % (", ".join(changed), flash_dir))
            return sim_headless.run_live(board)
        if changed:
            print("flashed %s into %s" % (", ".join(changed), flash_dir))
        board.start()
        return sim_terminal.run(board)
    finally:
        board.close()
