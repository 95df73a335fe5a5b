"""`make bench`: the heap soak. The whole firmware, cross-compiled as a board
gets it, powers on (config, hardware doubles, both tables) under the
MicroPython Unix port in the heap the test suite holds it to, then plays
10,000 demo games against itself on a synthetic clock (benchmarks/mpy/soak.py):
easy, medium and perfect, classic and tactic-toe, changing setting through
the menu every 25 games. The free heap after a collection is sampled every
500 games; it must stay flat.

Usage: python benchmarks/soak.py [--games N] [--every N] [--heap KIB]
Prints the series, then a table: the verdict and the wall time, the games'
tallies and the synthetic time they took (written to build/bench/soak.md
too, benchmarks/report.py); exits 1 if the heap is not flat.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from run import MICROPYTHON, board_folders  # noqa: E402

HEAP_KIB = 122  # tests/test_firmware.py's whole-firmware heap
WARM_UP = 500  # games before the baseline sample: every setting played, every lazy import done
TOLERANCE = 256  # bytes (16 GC blocks): what the conservative stack scan can keep by chance


def soak(tmp, games, every, heap_kib):
    code, flash = board_folders(tmp, os.path.join(ROOT, "benchmarks", "mpy", "soak.py"))
    t0 = time.perf_counter()
    # From the .mpy folder, as a board imports them (tests/test_firmware.py).
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=%dk" % heap_kib, "-m", "soak", flash, str(games), str(every)],
                       capture_output=True, text=True, cwd=code, env=dict(os.environ, MICROPYPATH=".frozen"))
    wall = time.perf_counter() - t0
    if r.returncode != 0 or not r.stdout.rstrip().endswith("done"):
        raise SystemExit("the soak failed:\n" + r.stdout[-3000:] + r.stderr[-3000:])
    lines = r.stdout.splitlines()
    samples = [tuple(map(int, line.split()[1:])) for line in lines if line.startswith("sample ")]
    other = [line for line in lines if not line.startswith("sample ")][:-1]
    return samples, other, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--every", type=int, default=500)
    ap.add_argument("--heap", type=int, default=HEAP_KIB, help="KiB (default %(default)s)")
    args = ap.parse_args()
    if args.games < WARM_UP + args.every:
        ap.error("--games must be at least %d: %d warm-up games, then at least one sample (--every %d)"
                 % (WARM_UP + args.every, WARM_UP, args.every))
    with tempfile.TemporaryDirectory() as tmp:
        samples, other, wall = soak(tmp, args.games, args.every, args.heap)
    print("heap soak: %d demo games, %d KiB heap, free bytes after gc.collect() every %d games:"
          % (args.games, args.heap, args.every))
    print("  games: " + " ".join("%d" % g for g, _ in samples))
    print("  free:  " + " ".join("%d" % f for _, f in samples))
    for line in other:
        print("  " + line)
    after = [f for g, f in samples if g >= WARM_UP]
    first, last = after[0], after[-1]
    flat = abs(last - first) <= TOLERANCE
    print("| what | figure |")
    print("|---|---|")
    print("| heap soak: %d self-play games, all levels, both games, %d KiB heap (free after gc, every %d games)"
          " | %s: %d bytes free after %d games, %d after %d (range %d-%d; %d at power-on); %.1f s wall |"
          % (args.games, args.heap, args.every, "flat" if flat else "NOT FLAT", first, WARM_UP, last,
             samples[-1][0], min(after), max(after), samples[0][1], wall))
    for line in other:
        if line.startswith("games "):  # "games classic easy: 1162 X wins, ..."
            what, _, figure = line[len("games "):].partition(": ")
            print("| heap soak: its %s games | %s |" % (what, figure))
        elif line.startswith("clock "):
            print("| heap soak: synthetic time the games took | %s |" % line.split(" ", 1)[1])
    if not flat:
        raise SystemExit(1)


if __name__ == "__main__":
    import report

    with report.record(__file__):
        main()
