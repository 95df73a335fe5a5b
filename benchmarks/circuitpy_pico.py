"""The firmware's figures on real CircuitPython (10.2.1, the official UF2) in
the emulated Pico, beside MicroPython's (``benchmarks/pico.py``): run in
lockstep, so every figure is emulated time (the board's
``time.monotonic_ns``, or the emulated clock the LED frames carry), the same
on every run. Only the emulator's speed is wall time.

* power-on to the first menu frame, on the drive ``make circuitpy`` stages,
  and on that drive as CircuitPython leaves it after its first power-on
  (``BOOT_OUT``);
* perfect decisions (with the table) on every position of perfect-against-
  perfect games from each opening, timed on the board; the host checks the
  board chose the moves the firmware chooses on the host;
* the heap: free after power-on (collected, once the game loop runs), and
  the lowest free heap (collected every 20 ms) over a tactic-toe game won as
  X and a classic game drawn, played through presses.

``python benchmarks/circuitpy_pico.py [--only decide,heap]`` prints the table
(about 5 minutes; boot alone, ``--only boot``, a fraction of that),
and writes it to build/bench/circuitpy_pico.md (benchmarks/report.py).
"""

import os
import re
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from host_tools.drive import circuitpy  # noqa: E402
from pico_board import PicoRun, is_menu, perfect, play, start_game  # noqa: E402
from tactictoe import ai, rules, table  # noqa: E402

BOARD = "circuitpython-pico"
TABLES = os.path.join(ROOT, "build")
# What the official CircuitPython writes to /boot_out.txt on the emulated
# Pico (its flash answers 0 for the unique ID). On a drive without this
# very text it waits 1 s and writes it, at every power-on here, since the
# emulated drive is read-only; a real board waits on its first only.
BOOT_OUT = (b"Adafruit CircuitPython 10.2.1 on 2026-11-22; Raspberry Pi Pico with rp2040\r\n"
            b"Board ID:raspberry_pi_pico\r\nUID:0000000000000000\r\n")

DECIDE = """\
import time, supervisor
while not supervisor.runtime.serial_connected:  # print nothing the host can't see yet
    time.sleep(0.05)
time.sleep(0.3)
from tactictoe import rules, table, ai
for game in (rules.TACTICTOE, rules.CLASSIC):
    t = table.Table(table.path("", rules.GAMES[game]), game)
    for first in range(9):
        rng = ai.Rng(first + 1)
        pos = rules.Position(game)
        pos.push(first)
        out = []
        while not pos.is_over() and len(out) < 30:
            t0 = time.monotonic_ns()
            m = ai.choose_move(pos, ai.PERFECT, t, rng)
            out.append("%d:%d" % (m, (time.monotonic_ns() - t0) // 1000))
            pos.push(m)
        print("decide", game, first, " ".join(out))
print("decide done")
"""

HEAP = """\
import gc
from tactictoe import main

async def beside(runner):
    import asyncio
    gc.collect()
    print("heap boot", gc.mem_free(), gc.mem_alloc())
    low = 1 << 30
    while True:
        gc.collect()
        free = gc.mem_free()
        if free < low:
            low = free
            print("heap low", low)
        await asyncio.sleep(0.02)

main.run(beside=beside)
"""


def drive(folder, code=None, booted=False):
    """A CIRCUITPY image as make circuitpy stages it, with another code.py
    if ``code``, with CircuitPython's boot_out.txt if ``booted``; returns
    its path."""
    files = dict(circuitpy.drive_files(BOARD, tables_dir=TABLES))
    if code is not None:
        files["code.py"] = code.encode()
    if booted:
        files["boot_out.txt"] = BOOT_OUT
    path = os.path.join(folder, "drive-%d.img" % len(os.listdir(folder)))
    with open(path, "wb") as f:
        f.write(circuitpy.image(sorted(files.items())))
    return path


def boot_ms(path):
    """Power-on to the first menu frame, in emulated ms, and the emulator's
    speed."""
    b = PicoRun(path, board=BOARD, runtime="circuitpython")
    try:
        t0 = time.monotonic()
        line = b.wait(is_menu, 15000, "the menu")
        return int(line.split()[1]), b.ms / 1000 / (time.monotonic() - t0)
    finally:
        b.close()


def bench_boot(folder):
    first, speed = boot_ms(drive(folder))
    again, _ = boot_ms(drive(folder, booted=True))
    if first - again < 900:  # BOOT_OUT is not what this CircuitPython writes
        raise SystemExit("boot_out.txt saved %d ms, not the 1 s wait: update BOOT_OUT" % (first - again))
    return {"boot_ms": first, "again_ms": again, "speed": speed}


def bench_decide(folder):
    b = PicoRun(drive(folder, DECIDE), board=BOARD, runtime="circuitpython")
    try:
        b.serial("decide done", 600000)
        # (the console's title escape may run into the first line)
        lines = [m.groups() for m in (re.search(r"decide (\d+) (\d+) (.*)$", line) for line in b.lines
                                      if line.startswith("serial ")) if m]
    finally:
        b.close()
    out = {}
    for game in (rules.TACTICTOE, rules.CLASSIC):
        t = table.Table(os.path.join(TABLES, rules.GAMES[game] + ".tbl"), game)
        times, agree = [], True
        for g, first, rest in lines:
            moves = rest.split()
            if int(g) != game:
                continue
            rng = ai.Rng(int(first) + 1)
            pos = rules.Position(game)
            pos.push(int(first))
            for mv in moves:
                m, us = (int(v) for v in mv.split(":"))
                agree &= ai.choose_move(pos, ai.PERFECT, t, rng) == m
                times.append(us / 1000)
                pos.push(m)
        out[game] = {"n": len(times), "median": statistics.median(times), "worst": max(times), "agree": agree}
    return out


def bench_heap(folder):
    b = PicoRun(drive(folder, HEAP), board=BOARD, runtime="circuitpython")
    try:
        boot = re.search(r"heap boot (\d+) (\d+)", b.serial("heap boot", 15000)).groups()
        b.wait(is_menu, 5000, "the menu")
        start_game(b, rules.TACTICTOE)
        play(b, rules.TACTICTOE, perfect(rules.TACTICTOE, os.path.join(TABLES, "tactictoe.tbl")))
        b.hold(1 << 4)
        b.run(1800)
        b.hold(0)
        start_game(b, rules.CLASSIC)
        play(b, rules.CLASSIC, perfect(rules.CLASSIC, os.path.join(TABLES, "classic.tbl")))
        lows = [int(m.group(1)) for m in (re.search(r"heap low (\d+)", line) for line in b.lines
                                          if line.startswith("serial ")) if m]
    finally:
        b.close()
    return {"free": int(boot[0]), "alloc": int(boot[1]), "low": min(lows)}


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="comma-separated parts: decide,heap (boot is always measured)")
    args = ap.parse_args(argv)
    parts = set(args.only.split(",")) if args.only else {"decide", "heap"}
    decide, heap = {}, None
    with tempfile.TemporaryDirectory() as folder:
        boot = bench_boot(folder)
        print("boot:", boot, flush=True)
        if "decide" in parts:
            decide = bench_decide(folder)
            print("decide:", decide, flush=True)
        if "heap" in parts:
            heap = bench_heap(folder)
            print("heap:", heap, flush=True)
    rows = [("power-on to the first menu frame (self-test included)", "%d ms" % boot["boot_ms"]),
            ("the same, on a drive CircuitPython has booted before (its boot_out.txt there)",
             "%d ms" % boot["again_ms"])]
    for game in (rules.TACTICTOE, rules.CLASSIC) if decide else ():
        d = decide[game]
        rows.append(("%s perfect decision, median / worst of %d%s" % (
            rules.GAMES[game], d["n"], "" if d["agree"] else " (MOVES DIFFER FROM THE HOST'S)"),
            "%.1f ms / %.1f ms" % (d["median"], d["worst"])))
    if heap:
        rows.append(("free heap after power-on, the game loop running (collected); heap in use then",
                     "%d / %d bytes" % (heap["free"], heap["alloc"])))
        rows.append(("lowest free heap over a tactic-toe game won and a classic game drawn (collected every 20 ms)",
                     "%d bytes" % heap["low"]))
    rows.append(("emulator speed (emulated s per wall s, lockstep, booting)", "%.2f" % boot["speed"]))
    print("| what (emulated Pico, CircuitPython 10.2.1, emulated time) | figure |")
    print("|---|---|")
    for what, fig in rows:
        print("| %s | %s |" % (what, fig))
    return {"boot": boot, "decide": decide, "heap": heap}


if __name__ == "__main__":
    import report

    if report.need_images(__file__, ("circuitpython-pico", "bootrom")):
        with report.record(__file__):
            main()
