"""hardware/pcb/: what make pcb writes beside the kit's board (its README),
that KiCad's design rule check really checks, that the gerbers parse with
every layer, the one-line errors, and the router on its own. The kit's
board itself is tests/test_pcb_mx.py's. pcbnew lives in the system Python
(Debian's kicad): these tests need it, as .ci/run installs it.
"""

import json
import os
import subprocess
import warnings
import zipfile

from conftest import ROOT

import pytest

from host_tools.hardware import mx, pcb
from host_tools.hardware.pcb import route as pcb_route
from host_tools.hardware.boards import HardwareError

KICAD = [pcb.KICAD_PYTHON, os.path.join(ROOT, "host_tools", "hardware", "pcb", "kicad.py")]
TOL = 0.01  # mm


def folder(name):
    return os.path.join(ROOT, "hardware", "pcb", name)


def kicad_check(name, *extra):
    path = os.path.join(folder(name), name + ".kicad_pcb")
    r = subprocess.run(KICAD + ["check", path] + list(extra), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module", params=pcb.BOARDS)
def name(request):
    return request.param


def near(a, b, tol=TOL):
    return abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) <= tol


# --- the files -----------------------------------------------------------------


def test_make_pcb_makes_these_boards_and_its_readme_is_fresh():
    assert sorted(os.listdir(os.path.join(ROOT, "hardware", "pcb"))) == sorted(
        pcb.BOARDS + ("README.md", pcb.LIBRARY_FOLDER))
    with open(os.path.join(ROOT, "hardware", "pcb", "README.md")) as f:
        assert f.read() == pcb.readme(), "stale (run make pcb)"


def test_the_design_rule_check_finds_a_short():
    # The same check, on the same board with a GND track laid over the VBUS
    # pin: it is really checking.
    violations, unconnected, _ = kicad_check(pcb.BOARDS[0], "--short")["drc"]
    assert violations >= 1


# --- where the parts are ---------------------------------------------------------


# --- what goes to the fab ------------------------------------------------------------


def test_the_gerbers_parse_and_hold_every_layer_the_outline_and_the_drills(name):
    from gerbonara import LayerStack

    path = os.path.join(folder(name), name + "-gerbers.zip")
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        assert all(i.date_time == pcb.ZIP_TIME for i in z.infolist())
    ext = sorted(n.rsplit(".", 1)[1] for n in names)
    assert ext == sorted(["gtl", "gbl", "gts", "gbs", "gto", "gbo", "gtp", "gbp", "gm1", "drl", "drl"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stack = LayerStack.open(path)
    for side in ("top", "bottom"):
        for use in ("copper", "mask", "silk"):
            layer = stack[side, use]
            assert layer is not None and len(layer.objects) > 0, (side, use)
    (x0, y0), (x1, y1) = stack.outline.bounding_box()
    assert near((x0, y0), (mx.PCB_X[0], mx.PCB_Y[0]), 0.1) and near((x1, y1), (mx.PCB_X[1], mx.PCB_Y[1]), 0.1)
    holes = [(round(h.x, 3), round(h.y, 3), h.aperture.diameter) for h in stack.drill_npth.drills()]
    screws = [(round(x, 3), round(y, 3), d) for x, y, d in holes if d == mx.SCREW_HOLE]
    assert sorted(screws) == sorted((round(x, 3), round(y, 3), mx.SCREW_HOLE) for x, y in mx.SCREWS)
    # each switch's five holes (its peg, two side pegs, its two pins into the socket), unplated
    assert len(holes) == 4 + 9 * 5
    # the Pico's 40 pins are the only plated holes but vias
    assert len([h for h in stack.drill_pth.drills() if h.aperture.diameter > 0.5]) == 40


def test_the_pictures_are_svg(name):
    for side in ("top", "bottom"):
        with open(os.path.join(folder(name), "%s-%s.svg" % (name, side))) as f:
            assert f.read(200).startswith("<?xml")


# --- errors ---------------------------------------------------------------------


def test_without_kicad_it_says_so_in_one_line(monkeypatch):
    monkeypatch.setattr(pcb, "KICAD_PYTHON", "/nonexistent/python3")
    with pytest.raises(HardwareError, match="^KiCad 6 is missing: apt-get install kicad$"):
        pcb.run_kicad(["check", os.path.join(folder(pcb.BOARDS[0]), pcb.BOARDS[0] + ".kicad_pcb")])


def test_a_board_other_than_the_buttons_build_is_refused_in_one_line(tmp_path):
    import sys

    r = subprocess.run([sys.executable, "-m", "host_tools", "pcb", "-o", str(tmp_path), "--board", "esp32-touch"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "pico-mx" in r.stderr and not os.listdir(tmp_path)


# --- the router, on its own -------------------------------------------------------


def _segment_gap(seg, pad):
    """Closest approach of a segment's centre line to a pad's copper (mm)."""
    (x0, y0), (x1, y1) = seg
    steps = max(1, int(max(abs(x1 - x0), abs(y1 - y0)) / 0.05))
    return min(pcb_route.pad_distance(pad, x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)
               for k in range(steps + 1))


def test_the_router_joins_a_net_around_a_wall_of_other_pads_keeping_clear():
    half = {"thin": 0.125, "power": 0.2, "via": 0.3}
    r = pcb_route.Router((0, 0, 20, 20), 0.635, 0.2, half)
    a = r.add_pad({"net": 1, "layers": [0], "shape": "rect", "x": 2, "y": 10, "w": 1.5, "h": 0.9})
    b = r.add_pad({"net": 1, "layers": [0], "shape": "rect", "x": 18, "y": 10, "w": 1.5, "h": 0.9})
    # a column of through-hole pads of net 2 between them, top to bottom but for a gap at the edge
    wall = [r.add_pad({"net": 2, "layers": [0, 1], "shape": "circle", "x": 10, "y": y, "w": 1.7, "h": 1.7})
            for y in [1.5 + 2.54 * k for k in range(7)]]
    paths, failed = r.route(1, [a, b], "thin")
    assert not failed and paths
    tracks, vias = r.segments(paths)
    ends = {t[1] for t in tracks} | {t[2] for t in tracks}
    assert any(pcb_route.pad_distance(r.pads[a], *p) < 0 for p in ends)
    assert any(pcb_route.pad_distance(r.pads[b], *p) < 0 for p in ends)
    for _, p0, p1 in tracks:
        for w in wall:
            assert _segment_gap((p0, p1), r.pads[w]) >= 0.2 + 0.125 - 1e-6
    for x, y in vias:
        for w in wall:
            assert pcb_route.pad_distance(r.pads[w], x, y) >= 0.2 + 0.3 - 1e-6
    # the same input, the same traces
    r2 = pcb_route.Router((0, 0, 20, 20), 0.635, 0.2, half)
    for pad in r.pads:
        r2.add_pad(dict(pad))
    assert r2.segments(r2.route(1, [a, b], "thin")[0]) == (tracks, vias)
