"""`make bench`: power-on after many saves of the score, on a Pico's littlefs.

A Pico's filesystem as a UF2 (``make uf2``) leaves it, holding what ``make
flash`` installs, sees N saves of the score made by the firmware's own
``score.py``, a power cycle every ``EVERY`` saves; after each N, one
power-on (``benchmarks/mpy/saves.py``: mount as the rp2 port's ``_boot.py``
does, ``boot.py`` / ``main.py`` as its ``main.c`` looks for them, then
``main.run`` up to its loop's first pass), counting the reads the real
littlefs (the MicroPython Unix port's ``vfs.VfsLfs2``, the rp2 port's code)
makes of a RAM block device with ``rp2.Flash``'s geometry. The counts are
exact and the same on every run; the Unix port's time for the same
power-on is a secondary figure, wall time on this machine (median of
``REPEAT`` power-ons).

Usage: python benchmarks/saves.py [--boards NAME,...] [--checkout DIR] [--to N]
``--checkout`` measures an older checkout (``git archive REV | tar -x -C
DIR``), for a before/after: its tools make the image, its ``score.py`` the
saves. Prints the table (written to build/bench/saves.md too,
benchmarks/report.py).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
SCRIPT = os.path.join(ROOT, "benchmarks", "mpy", "saves.py")
DOUBLES = os.path.join(ROOT, "tests", "doubles")
HEAP = "8M"  # the image itself (1408 KiB) lives in the Unix port's heap
EVERY = 10  # saves per power cycle
# A Pico of loose parts; the MacroPad, whose power-on the issue timed; and
# the first on a FAT drive (":fat"), CircuitPython's filesystem, through
# MicroPython's VfsFat (the same FatFs).
BOARDS = ("pico-buttons", "macropad", "pico-buttons:fat")
SHOWN = (0, 1, 5, 50, 1000)  # the rows
EACH = 60  # every N up to this one is booted: littlefs compacts a log every few saves
REPEAT = 5  # power-ons timed per row


def board_image(path, board="pico-buttons", checkout=ROOT):
    """Write to ``path`` the filesystem of ``board``'s UF2, as the tools of
    ``checkout`` (this one, or an older one's folder) make it, with the
    tables of this checkout's build/; for a ``path`` ending in ``.fat``, the
    same files on a CIRCUITPY drive (``fat.image``: FAT12, 512-byte sectors)."""
    code = ("import sys\n"
            "from host_tools.drive import fat, picofs\n"
            "files = sorted(picofs.board_files(sys.argv[1], tables_dir=sys.argv[2]))\n"
            "folders = getattr(picofs, 'FOLDERS', ())\n"
            "if sys.argv[3].endswith('.fat'):\n"
            "    data = fat.image(files)\n"
            "else:\n"
            "    data = picofs.image(files, folders) if folders else picofs.image(files)\n"
            "open(sys.argv[3], 'wb').write(data)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([checkout, os.path.join(checkout, "firmware")]))
    r = subprocess.run([sys.executable, "-c", code, board, os.path.join(ROOT, "build"), path], env=env,
                       capture_output=True, text=True, cwd=checkout)
    if r.returncode:
        raise SystemExit("the image of %s at %s: %s" % (board, checkout, r.stderr.strip().splitlines()[-1:]))


def _run(args, path):
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=" + HEAP, SCRIPT] + [str(a) for a in args],
                       capture_output=True, text=True, env=dict(os.environ, MICROPYPATH=":".join(path)))
    if r.returncode:
        raise SystemExit("%s %s failed:\n%s%s" % (os.path.basename(SCRIPT), " ".join(map(str, args)),
                                                 r.stdout[-2000:], r.stderr[-2000:]))
    return r.stdout.splitlines()


def save(image, n, checkout=ROOT):
    """``n`` more saves on the image, by ``checkout``'s score.py."""
    _run([image, n, EVERY], [os.path.join(checkout, "firmware")])


def boot(image):
    """One power-on of the image: ``{"reads", "bytes", "progs", "erases",
    "us", "mount_reads", "ops"}``."""
    lines = _run([image, "boot"], [DOUBLES, ".frozen"])
    words = lines[0].split()
    assert words[0] == "boot" and words[1] == "mount", lines
    mount_reads = int(words[2].split("/")[0])
    out = {k: int(v) for k, v in zip(words[3::2], words[4::2])}
    out.update(mount_reads=mount_reads, ops=int(lines[1].split()[1]))
    return out


def series(image, upto, each=EACH, shown=SHOWN, checkout=ROOT, repeat=REPEAT):
    """``{N: boot(...)}`` after N saves: every N up to ``each``, and those
    in ``shown`` (timed ``repeat`` times, the median kept)."""
    out = {}
    done = 0
    for n in sorted({*range(min(each, upto) + 1), *(s for s in shown if s <= upto)}):
        if n > done:
            save(image, n - done, checkout)
            done = n
        runs = [boot(image) for _ in range(repeat if n in shown else 1)]
        assert all({k: v for k, v in r.items() if k != "us"} == {k: v for k, v in runs[0].items() if k != "us"}
                   for r in runs), runs  # the counts: the same every time
        out[n] = dict(runs[0], us=statistics.median(r["us"] for r in runs))
    return out


def rows(figures, label):
    fresh = figures[0]
    out = []
    for n in sorted(figures):
        if n not in SHOWN:
            continue
        f = figures[n]
        out.append("| %s, power-on after %d save%s of the score | %d block reads (%d KiB; mount %d), %+.1f%% against"
                   " none; %d filesystem calls; %d programs, %d erases; %.1f ms on the Unix port |"
                   % (label, n, "" if n == 1 else "s", f["reads"], f["bytes"] // 1024, f["mount_reads"],
                      100.0 * (f["reads"] - fresh["reads"]) / fresh["reads"], f["ops"], f["progs"], f["erases"],
                      f["us"] / 1000))
    each = [n for n in figures if 0 < n <= EACH]
    if each:
        worst = max(each, key=lambda n: figures[n]["reads"])
        best = min(each, key=lambda n: figures[n]["reads"])
        out.append("| %s, power-on after each of saves 1-%d | %d-%d block reads (%+.1f%% to %+.1f%% against none;"
                   " the most after %d) |"
                   % (label, max(each), figures[best]["reads"], figures[worst]["reads"],
                      100.0 * (figures[best]["reads"] - fresh["reads"]) / fresh["reads"],
                      100.0 * (figures[worst]["reads"] - fresh["reads"]) / fresh["reads"], worst))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default=",".join(BOARDS),
                    help="MicroPython configs for an RP2040, comma-separated (default %(default)s)")
    ap.add_argument("--checkout", default=ROOT, help="another checkout's folder: its firmware, made into an image"
                    " by its tools (a before/after)")
    ap.add_argument("--to", type=int, default=max(SHOWN), help="saves in all (default %(default)s)")
    ap.add_argument("--json", help="write the figures, N by N, to this file too")
    args = ap.parse_args()
    out = {}
    for board in args.boards.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            image = os.path.join(tmp, "flash" + (".fat" if board.endswith(":fat") else ".lfs"))
            board_image(image, board.split(":")[0], args.checkout)
            out[board] = series(image, args.to, checkout=args.checkout)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f)
    print("| what | figure |")
    print("|---|---|")
    for board, figures in out.items():
        label = board.replace(":fat", " on FAT") + ("" if os.path.samefile(args.checkout, ROOT)
                                                    else " (%s)" % args.checkout)
        for row in rows(figures, label):
            print(row)


if __name__ == "__main__":
    import report

    with report.record(__file__):
        main()
