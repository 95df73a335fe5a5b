"""The review of each game (docs/firmware.md, "The review of a game"): what
it costs, under the MicroPython Unix port, with the firmware cross-compiled
as a board gets it.

* a move's judgement (``review.judge``: every legal move's value looked up)
  against the perfect player's decision on the same 300 random positions
  (seed 11), in both games; the judgement on the Pico's budget, scaled: the
  Unix port's ratio of the two medians times the emulated Pico's perfect
  decision (this page's pico table, ``benchmarks/pico.py``);
* the review's words after a long game (320 plies judged, a third thrown
  away): both console lines and a screen's two pages, and what they allocate;
* the live heap of the whole firmware (``main.run`` as on a board, a
  pico-buttons config, both tables), collected: at the first menu, and at
  the end of a tactic-toe game (you are O against the perfect board, the
  slowest loss each move, one take-back) with its review said. The Unix
  port is 64-bit: pointers and objects take twice what they take on a Pico.

Usage: python benchmarks/review.py
Prints the table; writes it to build/bench/review.md too (benchmarks/report.py).
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from run import MICROPYTHON, board_folders, cross_compile  # noqa: E402

COUNT = 300


def timings(tbl, firmware):
    r = subprocess.run([MICROPYTHON, os.path.join(ROOT, "benchmarks", "mpy", "review_timing.py"), tbl, "11",
                        str(COUNT)], capture_output=True, text=True, check=True,
                       env=dict(os.environ, MICROPYPATH=firmware))
    return {line.split()[0]: tuple(map(int, line.split()[1:])) for line in r.stdout.splitlines()}


def pico_decision(game):
    """The emulated Pico's median perfect decision (ms) from this page's
    pico table, or None."""
    with open(os.path.join(ROOT, "docs", "performance.md")) as f:
        text = f.read()
    m = re.search(r"^\| %s perfect decision, median / worst of \d+[^|]*\| ([\d.]+) ms /" % game, text, re.M)
    return float(m[1]) if m else None


def live_heap(tmp):
    code, flash = board_folders(tmp, os.path.join(ROOT, "benchmarks", "mpy", "review_heap.py"),
                                {"think_ms": 30, "long_press_ms": 1000, "debounce_ms": 10})
    r = subprocess.run([MICROPYTHON, "-m", "review_heap", flash], capture_output=True, text=True, cwd=code,
                       env=dict(os.environ, MICROPYPATH=".frozen"), timeout=600)
    got = dict(line.split() for line in r.stdout.splitlines() if line.split()[:1] in (["menu"], ["review"],
                                                                                     ["plies"]))
    if r.returncode or len(got) != 3:
        raise SystemExit("review_heap.py failed: %s" % (r.stdout + r.stderr)[-800:])
    return int(got["menu"]), int(got["review"]), int(got["plies"])


def main():
    print("| what (MicroPython Unix port, the firmware as .mpy) | figure |")
    print("|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        firmware = os.path.join(tmp, "mpy")
        os.mkdir(firmware)
        cross_compile(firmware, "firmware")
        for game in ("tactictoe", "classic"):
            t = timings(os.path.join(ROOT, "build", "%s.tbl" % game), firmware)
            print("| %s move's judgement (`review.judge`), median / p90 / worst of %d | %d / %d / %d us |"
                  % ((game, COUNT) + t["judge"]))
            print("| %s perfect decision on the same positions, median / p90 / worst | %d / %d / %d us |"
                  % ((game,) + t["decide"]))
            pico = pico_decision(game)
            share = t["judge"][0] / t["decide"][0]
            print("| %s judgement on the Pico, scaled: judgement / decision (medians) x the emulated Pico's"
                  " median decision | %.2f x %s = %s |" % (game, share, "%.1f ms" % pico if pico else "(no pico table)",
                                                         "%.1f ms" % (share * pico) if pico else "-"))
        print("| the review's words after a 320-ply game: both console lines / a screen's two pages;"
              " bytes they allocate | %d / %d us; %d bytes |" % (t["text"][0], t["screen"][0], t["alloc"][0]))
        menu, end, plies = live_heap(tmp)
        print("| live heap, whole firmware (collected): at the menu / at review time (tactic-toe, %d plies,"
              " the review said) | %d / %d bytes |" % (plies, menu, end))


if __name__ == "__main__":
    import report

    with report.record(__file__):
        main()
