"""hardware/pcb/: the PCBs of the Pico builds (make pcb) are fresh, KiCad's design
rule check passes on it, its copper joins what the board config says, its
parts sit where layout.py (and so the case) puts them, and its gerbers, BOM
and placement file hold what a fab needs.

The netlist is read back from the saved .kicad_pcb by KiCad itself and
checked against expectations built here from the config, the Pico's pinout
(boards.PICO_HEADER) and the Pico's geometry, not from the generator's own
net tables. pcbnew lives in the system Python (Debian's kicad): these tests
need it, as .ci/run installs it.
"""

import csv
import io
import json
import os
import subprocess
import warnings
import zipfile

from conftest import ROOT

import pytest

from host_tools import flash
from host_tools.hardware import boards, layout, pcb
from host_tools.hardware.pcb import route as pcb_route
from host_tools.hardware.boards import HardwareError
from tactictoe import config

KICAD = [pcb.KICAD_PYTHON, os.path.join(ROOT, "host_tools", "hardware", "pcb", "kicad.py")]
TOL = 0.01  # mm


def folder(name):
    return os.path.join(ROOT, "hardware", "pcb", name)


def kicad_check(name, *extra):
    path = os.path.join(folder(name), name + ".kicad_pcb")
    r = subprocess.run(KICAD + ["check", path] + list(extra), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module", params=pcb.B3F_BOARDS)
def name(request):
    return request.param


@pytest.fixture(scope="module")
def cfg(name):
    return flash.board_config(name)[1]


@pytest.fixture(scope="module")
def board(name):
    return kicad_check(name)


@pytest.fixture(scope="module")
def fresh(name):
    return dict(pcb.board_files(name)[0])


def near(a, b, tol=TOL):
    return abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) <= tol


def centre(fp):
    """The middle of a footprint's pads (the part's centre)."""
    xs = [p["at"][0] for p in fp["pads"]]
    ys = [p["at"][1] for p in fp["pads"]]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def pad_at(board, xy):
    """The one pad at ``xy`` (kit mm)."""
    found = [(fp, p) for fp in board["footprints"] for p in fp["pads"] if near(p["at"], xy)]
    assert len(found) == 1, (xy, found)
    return found[0]


def net_pads(board, net):
    """``{(ref, pad number)}`` on a net."""
    return {(fp["ref"], p["number"]) for fp in board["footprints"] for p in fp["pads"] if p["net"] == net}


def part_at(board, xy, fpid_start):
    found = [fp for fp in board["footprints"] if fp["fpid"].startswith(fpid_start) and near(centre(fp), xy)]
    assert len(found) == 1, (xy, fpid_start)
    return found[0]


def pico_pin(pin):
    """Where the Pico's physical pin sits, from its datasheet and its place:
    seen from its top with the USB end up, pin 1 is top left and the pins
    run down the left side to 20, then up the right from 21 to 40. Upside
    down under the board (its top facing down), USB end at the back, its
    left side is on our right."""
    cx, cy = layout.PICO_CENTRE
    top = cy + 19 * 2.54 / 2  # the 20 pins of a row are centred on the board's length
    if pin <= 20:
        return (cx + layout.PICO_ROW_SPACING / 2, top - (pin - 1) * 2.54)
    return (cx - layout.PICO_ROW_SPACING / 2, top - (40 - pin) * 2.54)


def pico_net(board, pin):
    fp, p = pad_at(board, pico_pin(pin))
    assert fp["ref"] == "U1" and p["number"] == str(pin), "the Pico's pin %d is not where the Pico puts it" % pin
    return p["net"]


# --- the files -----------------------------------------------------------------


def test_make_pcb_makes_these_boards_and_its_readme_is_fresh():
    assert sorted(os.listdir(os.path.join(ROOT, "hardware", "pcb"))) == sorted(
        pcb.BOARDS + ("README.md", pcb.LIBRARY_FOLDER))
    with open(os.path.join(ROOT, "hardware", "pcb", "README.md")) as f:
        assert f.read() == pcb.readme(), "stale (run make pcb)"


def test_the_committed_files_are_what_make_pcb_makes_byte_for_byte(name, fresh):
    # Regenerating gives the same bytes (no dates, no random ids), and what is
    # committed is not stale.
    committed = {}
    for f_name in sorted(os.listdir(folder(name))):
        with open(os.path.join(folder(name), f_name), "rb") as f:
            committed[name + "/" + f_name] = f.read()
    made = {name: data.encode() if isinstance(data, str) else data for name, data in fresh.items()}
    assert sorted(made) == sorted(committed), "make pcb writes other files than hardware/pcb/ holds"
    stale = [n for n in made if made[n] != committed[n]]
    assert not stale, "stale (run make pcb): %s" % stale


def test_the_design_rule_check_is_clean(name, board):
    violations, unconnected, footprint_errors = board["drc"]
    assert (violations, unconnected, footprint_errors) == (0, 0, 0), board["report"]
    with open(os.path.join(folder(name), name + "-drc.rpt")) as f:
        assert "** Found 0 DRC violations **" in f.read()


def test_the_design_rule_check_finds_a_short():
    # The same check, on the same board with a GND track laid over the VBUS
    # pin: it is really checking.
    violations, unconnected, _ = kicad_check(pcb.BOARDS[0], "--short")["drc"]
    assert violations >= 1


def test_the_board_is_the_kits_square_with_ground_zones_on_both_sides(board):
    half = layout.PCB_SIZE / 2
    points = {tuple(p) for edge in board["edges"] for p in edge}
    assert points == {(-half, half), (half, half), (half, -half), (-half, -half)}
    assert sorted(board["zones"]) == ["GND", "GND"]
    assert board["tracks"] > 50


# --- where the parts are ---------------------------------------------------------


def test_pixels_switches_and_holes_are_where_layout_puts_them(board):
    for cell in range(9):
        led = part_at(board, layout.pixel_at(cell), "LED_WS2812B")
        sw = part_at(board, layout.button_at(cell), "SW_PUSH_6mm")
        assert not led["bottom"] and not sw["bottom"]
    holes = [fp for fp in board["footprints"] if fp["fpid"].startswith("MountingHole")]
    assert len(holes) == 4
    for x, y in layout.screws():
        assert [h for h in holes if near(h["at"], (x, y))], (x, y)
        hole = next(p for h in holes for p in h["pads"] if near(p["at"], (x, y)))
        assert hole["size"] == [layout.SCREW_HOLE, layout.SCREW_HOLE]


def test_the_pico_hangs_upside_down_under_the_middle_column(board):
    pico = next(fp for fp in board["footprints"] if fp["ref"] == "U1")
    assert pico["bottom"]
    assert near(centre(pico), layout.PICO_CENTRE)
    for pin in range(1, 41):
        pad_at(board, pico_pin(pin))
        assert pico_net(board, pin) is not None
    # Its USB end is at the PCB's back edge.
    assert layout.PICO_CENTRE[1] + layout.PICO[1] / 2 == layout.PCB_SIZE / 2


def test_every_other_part_is_underneath_and_on_the_board(board):
    half = layout.PCB_SIZE / 2
    for fp in board["footprints"]:
        if fp["fpid"].startswith(("LED_", "SW_", "MountingHole")):
            continue
        assert fp["bottom"], "%s is not under the board" % fp["ref"]
        for p in fp["pads"]:
            assert abs(p["at"][0]) < half - 1 and abs(p["at"][1]) < half - 1


def test_no_solder_joint_is_under_a_wall_but_the_picos_header(board):
    # The grid's walls stand on the board's top: lines 2 mm wide at +-PITCH/2
    # and +-1.5 PITCH. Through-hole joints stick up there, so none may be under
    # a wall, except the Pico's two header rows, which the walls at y =
    # PITCH/2 and at the back cross (the case notches its walls there).
    lines = [k * layout.PITCH / 2 for k in (-3, -1, 1, 3)]
    reach = 3 * layout.PITCH / 2 + layout.WALL / 2
    under = []
    for fp in board["footprints"]:
        for p in fp["pads"]:
            if not p["through"]:
                continue
            (x, y), r = p["at"], max(p["size"]) / 2
            if any(abs(x - w) < layout.WALL / 2 + r and abs(y) < reach + r for w in lines) or any(
                    abs(y - w) < layout.WALL / 2 + r and abs(x) < reach + r for w in lines):
                under.append((fp["ref"], p["number"]))
    assert {ref for ref, _ in under} <= {"U1"}, under
    assert sorted(int(n) for _, n in under) == [2, 3, 15, 16, 25, 26, 38, 39]


# --- the netlist, against the config ------------------------------------------------


def test_each_switch_joins_what_the_config_says(board, cfg):
    gnd = pico_net(board, 38)
    inp = cfg["input"]
    if inp["kind"] == "buttons":  # each button between its pin and GND
        for cell, gp in enumerate(inp["pins"]):
            net = pico_net(board, boards.PICO_HEADER[gp])
            sw = part_at(board, layout.button_at(cell), "SW_PUSH_6mm")
            nets = sorted(p["net"] for p in sw["pads"])
            assert nets == sorted([net, net, gnd, gnd]), (cell, nets)
            assert net_pads(board, net) == {("U1", str(boards.PICO_HEADER[gp]))} | {
                (sw["ref"], p["number"]) for p in sw["pads"] if p["net"] == net}, "GP%d joins something else" % gp
        return
    assert inp["kind"] == "matrix"  # each between its row and its column
    rows = [pico_net(board, boards.PICO_HEADER[gp]) for gp in inp["rows"]]
    cols = [pico_net(board, boards.PICO_HEADER[gp]) for gp in inp["cols"]]
    assert len(set(rows + cols)) == 6 and "" not in rows + cols and gnd not in rows + cols
    for cell in range(9):
        sw = part_at(board, layout.button_at(cell), "SW_PUSH_6mm")
        nets = sorted(p["net"] for p in sw["pads"])
        assert nets == sorted([rows[cell // 3]] * 2 + [cols[cell % 3]] * 2), (cell, nets)
    for net in rows + cols:
        # its Pico pin and one terminal of each of the 3 switches of its row or column, nothing else
        pads = net_pads(board, net)
        assert len(pads) == 1 + 3 and sum(ref == "U1" for ref, _ in pads) == 1, net


def test_the_led_data_runs_from_gp16_through_the_shifter_and_330r_along_the_chain(board, cfg):
    # WS2812B pads (datasheet): 1 VDD, 2 DOUT, 3 VSS, 4 DIN.
    def pads(fp):
        return {p["number"]: p["net"] for p in fp["pads"]}

    gnd = pico_net(board, 38)
    data = pico_net(board, boards.PICO_HEADER[cfg["leds"]["pin"]])
    shifter = next(fp for fp in board["footprints"] if fp["value"] == "74AHCT125")
    pull_down = next(fp for fp in board["footprints"] if fp["value"] == "10k")
    series = next(fp for fp in board["footprints"] if fp["value"] == "330R")
    assert pads(shifter)["2"] == data  # 1A
    assert sorted(pads(pull_down).values()) == sorted([data, gnd])
    assert net_pads(board, data) == {("U1", str(boards.PICO_HEADER[cfg["leds"]["pin"]])), (shifter["ref"], "2"),
                                     (pull_down["ref"], next(n for n, v in pads(pull_down).items() if v == data))}
    out = pads(shifter)["3"]  # 1Y
    assert len(net_pads(board, out)) == 2 and out in pads(series).values()
    first = next(v for v in pads(series).values() if v != out)
    pixel = config.pixel_order(cfg["leds"]["order"])  # pixel[cell]
    cells = sorted(range(9), key=lambda c: pixel[c])
    leds = [part_at(board, layout.pixel_at(c), "LED_WS2812B") for c in cells]
    assert pads(leds[0])["4"] == first and len(net_pads(board, first)) == 2
    for a, b in zip(leds, leds[1:]):
        link = pads(a)["2"]
        assert link and pads(b)["4"] == link
        assert net_pads(board, link) == {(a["ref"], "2"), (b["ref"], "4")}
    assert pads(leds[-1])["2"] == ""  # the last pixel's DOUT goes nowhere


def test_power_and_ground_reach_every_pixel_the_shifter_and_the_capacitors(board):
    vbus, gnd = pico_net(board, 40), pico_net(board, 38)
    assert vbus and gnd and vbus != gnd
    for pin in (3, 8, 13, 18, 23, 28, 33, 38):
        assert pico_net(board, pin) == gnd
    for cell in range(9):
        led = {p["number"]: p["net"] for p in part_at(board, layout.pixel_at(cell), "LED_WS2812B")["pads"]}
        assert (led["1"], led["3"]) == (vbus, gnd)
    shifter = {p["number"]: p["net"] for p in next(fp for fp in board["footprints"]
                                                    if fp["value"] == "74AHCT125")["pads"]}
    assert shifter["14"] == vbus
    assert all(shifter[str(p)] == gnd for p in (1, 4, 5, 7, 9, 10, 12, 13))
    assert all(shifter[str(p)] == "" for p in (6, 8, 11))  # the three unused outputs
    for value in ("470uF", "100nF"):
        cap = {p["number"]: p["net"] for p in next(fp for fp in board["footprints"] if fp["value"] == value)["pads"]}
        assert (cap["1"], cap["2"]) == (vbus, gnd), value  # pad 1 is the + of the 470 uF
    # Nothing else is on VBUS: 9 pixels, the shifter, 2 capacitors, the Pico.
    assert len(net_pads(board, vbus)) == 9 + 1 + 2 + 1


def test_the_buzzer_is_on_its_pin_and_fitted_only_where_the_config_has_one(name, board, cfg):
    # A board without one gets the footprint on the pin pico-matrix.json
    # gives its buzzer, not fitted (out of the BOM).
    pin = cfg["buzzer"] if cfg["buzzer"] is not None else flash.board_config("pico-matrix")[1]["buzzer"]
    bz = next(fp for fp in board["footprints"] if fp["ref"] == "BZ1")
    nets = {p["number"]: p["net"] for p in bz["pads"]}
    assert nets["1"] == pico_net(board, boards.PICO_HEADER[pin])
    assert nets["2"] == pico_net(board, 38)
    with open(os.path.join(folder(name), name + "-bom.csv")) as f:
        assert ("BZ1" in f.read()) == (cfg["buzzer"] is not None)


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
    half = layout.PCB_SIZE / 2
    (x0, y0), (x1, y1) = stack.outline.bounding_box()
    assert near((x0, y0), (-half, -half), 0.1) and near((x1, y1), (half, half), 0.1)
    holes = [(round(h.x, 3), round(h.y, 3), h.aperture.diameter) for h in stack.drill_npth.drills()]
    assert sorted(holes) == sorted((round(x, 3), round(y, 3), layout.SCREW_HOLE) for x, y in layout.screws())
    # every through-hole pad (switches 9 x 4, the Pico's 40, the shifter's 14, ...) has its hole
    assert len(list(stack.drill_pth.drills())) >= 9 * 4 + 40 + 14 + 2 * 3 + 2


def test_the_bom_and_placement_are_jlcpcbs_csv_and_agree_with_the_layout(name, board, cfg):
    with open(os.path.join(folder(name), name + "-bom.csv")) as f:
        bom = list(csv.reader(f))
    assert bom[0] == ["Comment", "Designator", "Footprint", "LCSC Part #"]
    refs = [r for row in bom[1:] for r in row[1].split(",")]
    fitted = sorted(fp["ref"] for fp in board["footprints"] if not fp["fpid"].startswith("MountingHole")
                    and (fp["ref"] != "BZ1" or cfg["buzzer"] is not None))
    assert sorted(refs) == fitted
    with open(os.path.join(folder(name), name + "-cpl.csv")) as f:
        cpl = list(csv.DictReader(io.StringIO(f.read())))
    assert sorted(row["Designator"] for row in cpl) == fitted
    where = {row["Designator"]: (float(row["Mid X"][:-2]), float(row["Mid Y"][:-2]), row["Layer"]) for row in cpl}
    for fp in board["footprints"]:
        if fp["ref"] in where:
            x, y, side = where[fp["ref"]]
            assert near((x, y), centre(fp) if fp["ref"] != "U1" else layout.PICO_CENTRE, 0.002), fp["ref"]
            assert side == ("Bottom" if fp["bottom"] else "Top")


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
    assert "pico-buttons, pico-matrix, pico-mx" in r.stderr and not os.listdir(tmp_path)


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
