"""`make bench`: press to light on the virtual clock, per board config.

Each MicroPython board config the Unix-port simulator wires (``firmware/
boards/``) plays games of classic for two players from a press script, as
``python -m host_tools sim --replay`` plays it: every move is a key going
down at a known ms, and its light is the first LED frame showing that cell
in its mark's colour. Time moves only while the firmware waits
(``simulator/vclock.py``), so the figures are the loop's own waits (a key
scan to see the key, the game step, the frame) with the Python work and
the wire counted as nothing: the same on every run and every machine.
Moves are pressed at offsets spread over the scan and frame periods.

Also the free heap at the menu on the Unix port (the firmware compiled
with ``mpy-cross``, as a board gets it; 64-bit objects, so about twice a
Pico's figure), for the heap's before and after.

Usage: python benchmarks/latency.py [--boards pico-buttons,macropad,...] [--games N]
Prints the table; writes it to build/bench/latency.md too (benchmarks/report.py).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from host_tools.sim.script import timeline  # noqa: E402

BOARDS = ("pico-buttons", "pico-matrix", "pico-mx", "esp32-touch", "keypad", "macropad", "keybow")
# Classic for two players: X on the top row, O below it; the fifth move wins.
MOVES = (0, 3, 1, 4, 2)
MENU = ("tap 3", "tap 6", "tap 3")  # classic, two players, no help
BOOT_MS = 1800  # the self-test, then the menu
NEXT_MS = 900  # after a game is won: a tap then starts the next (app.OVER_GUARD_MS)


def press_script(games):
    """The script's lines and ``[(edge ms, cell, mark letter, winning)]``
    of every move. Each game's five moves go down at the five ms of a
    5 ms key scan period, and game g's winning move at ms g % 5 of it (so
    five games give the winning moves the same spread as all the moves),
    at offsets spread over the 20 ms frames too."""
    lines = ["wait %d" % BOOT_MS] + list(MENU)
    marks = []
    for g in range(games):
        if g:
            lines += ["wait %d" % NEXT_MS, "tap 8"]  # the next game
        for i, cell in enumerate(MOVES):
            t = timeline(lines)[1]
            lines.append("wait %d" % ((g + 2 * i + 1 - t) % 5 + 5 * ((g + i) % 4)))
            lines.append("tap %d" % cell)
            marks.append((len(lines) - 1, cell, "XO"[i % 2], i == len(MOVES) - 1))
    changes, end = timeline(lines)
    # Each tap is one press change: the n-th press in the changes is line n's.
    downs = [t for (t, mask), (_, before) in zip(changes, [(0, 0)] + changes) if mask & ~before]
    taps = [i for i, line in enumerate(lines) if line.startswith("tap")]
    edge = dict(zip(taps, downs))
    return lines, [(edge[i], cell, mark, won) for i, cell, mark, won in marks], end


def frames(out):
    """``[(ms, grid)]`` of the replay's frame lines (grid: 9 letters)."""
    got = []
    for line in out.splitlines():
        if line.startswith("frame "):
            _, ms, grid = line.split()[:3]
            got.append((int(ms), grid.replace("/", "")))
    return got


def latencies(marks, got):
    """``[(ms from the edge to the first frame with the mark, winning)]``;
    SystemExit naming the move if a frame never showed it."""
    out = []
    for edge, cell, mark, won in marks:
        for ms, grid in got:
            if ms >= edge and grid[cell] == mark:
                out.append((ms - edge, won))
                break
        else:
            raise SystemExit("latency: the move on cell %d at %d ms was never lit" % (cell, edge))
    return out


def replay(board, tmp, games):
    """Play the games on ``board``: its latencies."""
    lines, marks, _ = press_script(games)
    path = os.path.join(tmp, "script.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--replay", path, "--board", board,
                        "--flash", os.path.join(tmp, board), "--then", "500"],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode:
        raise SystemExit("latency: %s: the replay failed: %s" % (board, (r.stderr.strip() or r.stdout)[-400:]))
    return latencies(marks, frames(r.stdout))


MENU_HEAP = """
import gc, sys, machine
from tactictoe import main
machine.wire({"kind": "buttons", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]})
async def at_menu(runner):
    import asyncio
    while runner.app.state != 2:
        await asyncio.sleep_ms(10)
    gc.collect()
    print("free", gc.mem_free())
main.run(sys.argv[1], at_menu)
"""
HEAP = 256 * 1024


def menu_heap(tmp):
    """Free bytes after a collection at the menu, the whole firmware in a
    ``HEAP`` heap (``.mpy``, the machine doubles; Unix port)."""
    from run import MICROPYTHON, board_folders

    script = os.path.join(tmp, "menu_heap.py")
    with open(script, "w") as f:
        f.write(MENU_HEAP)
    code, flash = board_folders(tmp, script)
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=%d" % HEAP, "-m", "menu_heap", flash], capture_output=True,
                       text=True, cwd=code, env=dict(os.environ, MICROPYPATH=".frozen"), timeout=600)
    words = r.stdout.split()
    if "free" not in words:
        raise SystemExit("latency: the heap run failed: %s" % (r.stderr.strip() or r.stdout)[-400:])
    return int(words[words.index("free") + 1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default=",".join(BOARDS), help="comma-separated configs: " + ",".join(BOARDS))
    ap.add_argument("--games", type=int, default=10, help="games per board (5 moves each; default 10)")
    args = ap.parse_args(argv)
    boards = args.boards.split(",")
    if set(boards) - set(BOARDS):
        ap.error("--boards: no such board: %s" % ", ".join(sorted(set(boards) - set(BOARDS))))
    if args.games < 1:
        ap.error("--games: at least 1")
    print("| board config (Unix port, virtual clock) | press to light, median / worst of %d moves |"
          " the winning move's, median / worst of %d |" % (5 * args.games, args.games))
    print("|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for board in boards:
            got = replay(board, tmp, args.games)
            every = [ms for ms, _ in got]
            won = [ms for ms, w in got if w]
            print("| %s | %g / %d ms | %g / %d ms |" % (board, statistics.median(every), max(every),
                                                        statistics.median(won), max(won)), flush=True)
        print("| free heap at the menu after a collection (pico-buttons, .mpy, %d KiB heap, 64-bit) | %d bytes |"
              " |" % (HEAP // 1024, menu_heap(tmp)))


if __name__ == "__main__":
    import report

    with report.record(__file__):
        main()
