"""The kit's generators (``make hardware``): how long the PCB and the case
take to build, and how big their files are.

* ``make pcb``'s work for every board (``python -m host_tools pcb``: parts,
  placement, routing, zones, DRC, gerbers, drills, BOM, placement file,
  pictures and schematics, in KiCad 6's pcbnew), the median of ``RUNS``;
* the kit's tray and plate STLs exported by OpenSCAD 2021.01 from ``hardware/case/``
  (each part alone, the median of ``RUNS``), and each STL's triangles;
* the PCB's files and the gerbers' zip.

Wall-clock figures on this machine (2 shared cores); a desktop's are lower.
The case's pictures are left out: ``make hardware`` keeps a picture whose
sources are unchanged, and drawing them takes a display (or xvfb-run).
``python benchmarks/hardware.py`` prints the table (and writes it to
build/bench/hardware.md, benchmarks/report.py).
"""

import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools.hardware import case, scad  # noqa: E402

RUNS = 3


def _timed(fn):
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


def measure(runs=RUNS):
    """``{figure: value}`` of one round of measurements."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        pcb_dir = os.path.join(tmp, "pcb")

        def pcb():
            shutil.rmtree(pcb_dir, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "host_tools", "pcb", "-o", pcb_dir], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)

        out["pcb"] = sorted(_timed(pcb) for _ in range(runs))
        out["pcb_files"] = {}
        for board in sorted(os.listdir(pcb_dir)):
            folder = os.path.join(pcb_dir, board)
            if os.path.isfile(os.path.join(folder, board + ".kicad_pcb")):  # not tactictoe.pretty
                out["pcb_files"][board] = {n: os.path.getsize(os.path.join(folder, n))
                                           for n in sorted(os.listdir(folder))}
        out["stl"] = {}
        for name, source_file, _ in case.PARTS:
            path = os.path.join(tmp, name + ".stl")
            src = os.path.join(ROOT, "hardware", "case", source_file)
            times = sorted(_timed(lambda: scad.run(["-o", path, src])) for _ in range(runs))
            with open(path, "rb") as f:
                data = f.read()
            if data[:5] == b"solid":
                triangles = data.count(b"facet normal")
            else:
                triangles = struct.unpack_from("<I", data, 80)[0]
            out["stl"][name] = (times, triangles)
    return out


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=RUNS, help="runs of each (default %(default)s)")
    m = measure(ap.parse_args(argv).runs)
    print("| figure | value |")
    print("|---|---|")
    t = m["pcb"]
    print("| make pcb, every board, median of %d (min-max) | %d ms (%d-%d) |"
          % (len(t), statistics.median(t), t[0], t[-1]))
    for board, files in m["pcb_files"].items():
        print("| %s: files, the .kicad_pcb, the gerbers' zip | %d files, %d bytes, %d bytes |"
              % (board, len(files), files[board + ".kicad_pcb"], files[board + "-gerbers.zip"]))
    for name, (t, triangles) in m["stl"].items():
        print("| the case's %s.stl exported by OpenSCAD, median of %d (min-max); its triangles | %d ms (%d-%d); %d |"
              % (name, len(t), statistics.median(t), t[0], t[-1], triangles))
    return m


if __name__ == "__main__":
    import report

    with report.record(__file__):
        main()
