"""hardware/case/: the printed kit. The committed STLs are what OpenSCAD
exports from the .scad sources now (exported afresh once a session), each
part is one closed solid that fits the bed, no wall is thinner than
MIN_WALL, and the parts fit together: each tile's post rests on its switch,
a press clicks the switch before the tile lands on the board, the tile moves
freely in its well and can't come out of it, the screws go from the base's
bosses into the grid's pillars, and the USB plug reaches the Pico.

The geometry is measured on the meshes by casting rays (numpy, below), in
assembly coordinates (layout.py's: z = 0 on the LED board's top face)."""

import os
import shutil
import struct
import subprocess
import sys

import numpy as np
import pytest
import trimesh
from hypothesis import given, settings, strategies as st

from conftest import HANG_S, ROOT, one_line_error
from host_tools.hardware import case, layout as L

CASE = os.path.join(ROOT, "hardware", "case")
V = L.case_values()
TOL = 0.02  # mm: float32 in the STL, OpenSCAD's 6 digits


# --- the meshes ------------------------------------------------------------------


@pytest.fixture(scope="session")
def fresh(tmp_path_factory):
    """Each part's STL as OpenSCAD exports it now, from the sources and a
    dimensions.scad written from layout.py (canonical bytes)."""
    tmp = tmp_path_factory.mktemp("case")
    for name in case.SOURCES:
        shutil.copy(os.path.join(CASE, name), tmp)
    (tmp / "dimensions.scad").write_text(case.dimensions_scad())
    out = {}
    for name, path in case.export_stls(str(tmp), str(tmp)).items():
        with open(path, "rb") as f:
            out[name] = case.canonical_stl(f.read(), name)
    return out


def committed(name):
    with open(os.path.join(CASE, name), "rb") as f:
        return f.read()


def load(name):
    return trimesh.load(os.path.join(CASE, name + ".stl"), file_type="stl")


def placed(name, cell=4, lift=0.0):
    """A part moved from the printer's bed to where it is in the board (a
    tile in ``cell``, raised by ``lift``: negative is pressed)."""
    mesh = load(name).copy()
    if name == "base":
        mesh.apply_translation([0, 0, V["floor_bottom"]])
        return mesh
    flip = np.diag([1.0, -1.0, -1.0, 1.0])  # the bed's print turned over: 180 degrees round x
    mesh.apply_transform(flip)
    if name == "grid":
        mesh.apply_translation([0, 0, V["frame_top"]])
    else:
        x, y = L.pixel_at(cell)
        mesh.apply_translation([x, y, V["tile_top"] + lift])
    return mesh


def near(mesh, lo, hi):
    """The triangles of ``mesh`` that reach into the box ``lo``..``hi``."""
    tris = np.asarray(mesh.triangles, dtype=float)
    keep = (tris.max(axis=1) >= lo).all(axis=1) & (tris.min(axis=1) <= hi).all(axis=1)
    return tris[keep]


def rays(mesh, origins, directions, chunk=128):
    """Each ray's distance to the first face of ``mesh`` (or of an array of
    triangles) it meets (inf for none): Moller-Trumbore against every
    triangle."""
    tris = np.asarray(getattr(mesh, "triangles", mesh), dtype=float)
    a, e1, e2 = tris[:, 0], tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]
    origins = np.atleast_2d(np.asarray(origins, dtype=float))
    directions = np.atleast_2d(np.asarray(directions, dtype=float))
    directions = np.broadcast_to(directions, origins.shape)
    out = np.full(len(origins), np.inf)
    for i in range(0, len(origins), chunk):
        o, d = origins[i:i + chunk, None, :], directions[i:i + chunk, None, :]
        p = np.cross(d, e2)
        det = np.einsum("kmj,mj->km", p, e1)
        ok = np.abs(det) > 1e-12
        inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
        s = o - a
        u = np.einsum("kmj,kmj->km", s, p) * inv
        q = np.cross(s, e1)
        v = np.einsum("kmj,kj->km", q, d[:, 0, :]) * inv
        t = np.einsum("kmj,mj->km", q, e2) * inv
        hit = ok & (u >= -1e-9) & (v >= -1e-9) & (u + v <= 1 + 1e-9) & (t > 1e-6)
        out[i:i + chunk] = np.where(hit, t, np.inf).min(axis=1)
    return out


def samples(mesh, count, seed=1):
    """Points spread over the surface, with their faces' outward normals."""
    points, faces = trimesh.sample.sample_surface(mesh, count, seed=seed)
    return points, mesh.face_normals[faces]


def surface(mesh, count, seed=1):
    """Points spread over the surface, and along every edge (where parts
    meet first), and the corners."""
    edges = mesh.vertices[mesh.edges_unique]
    along = np.linspace(0, 1, 9)[:, None, None]
    on_edges = (edges[None, :, 0] * (1 - along) + edges[None, :, 1] * along).reshape(-1, 3)
    return np.vstack([samples(mesh, count, seed)[0], on_edges])


def bodies(mesh):
    """How many separate pieces the mesh is (faces joined by shared
    vertices)."""
    parent = np.arange(len(mesh.vertices))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b, c in mesh.faces:
        ra, rb, rc = root(a), root(b), root(c)
        parent[rb] = ra
        parent[root(rc)] = ra
    return len({root(i) for i in np.unique(mesh.faces)})


# --- the files are what the sources make --------------------------------------------


def test_dimensions_scad_is_written_from_layout():
    assert committed("dimensions.scad").decode() == case.dimensions_scad(), "run `make hardware`"


@pytest.mark.parametrize("name", [p[0] for p in case.PARTS])
def test_each_stl_is_what_openscad_exports_now(fresh, name):
    """Byte for byte: canonical_stl writes the triangles in one order (OpenSCAD
    writes them in another each run)."""
    assert fresh[name] == committed(name + ".stl"), "%s.stl is stale: run `make hardware`" % name


@pytest.mark.parametrize("name", [p[0] for p in case.PICTURES])
def test_each_picture_is_drawn_from_these_sources(name):
    data = committed(name)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert "%d,%d" % (width, height) == case.IMAGE_SIZE
    assert case.png_tag(data) == case.source_digest(CASE), "%s is stale: run `make hardware`" % name


# --- each part on its own ---------------------------------------------------------------


@pytest.mark.parametrize("name", [p[0] for p in case.PARTS])
def test_each_part_is_one_closed_solid_flat_on_the_bed(name):
    mesh = load(name)
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume and mesh.volume > 0
    assert bodies(mesh) == 1
    (x0, y0, z0), (x1, y1, z1) = mesh.bounds
    assert abs(z0) < TOL and max(x1 - x0, y1 - y0, z1 - z0) <= L.BED
    # it stands on a face, not an edge
    flat = (np.abs(mesh.triangles[:, :, 2]).max(axis=1) < TOL) & (mesh.face_normals[:, 2] < -0.999)
    assert mesh.area_faces[flat].sum() > 100


@pytest.mark.parametrize("name", [p[0] for p in case.PARTS])
def test_no_wall_is_thinner_than_min_wall(name):
    """From points all over the surface, a ray straight in meets the other
    side no nearer than MIN_WALL."""
    mesh = load(name)
    points, normals = samples(mesh, 3000)
    keep = np.linalg.norm(normals, axis=1) > 0.5
    points, normals = points[keep], normals[keep] / np.linalg.norm(normals[keep], axis=1)[:, None]
    thickness = rays(mesh, points - 1e-4 * normals, -normals) + 1e-4
    assert np.isfinite(thickness).all()
    worst = int(np.argmin(thickness))
    assert thickness[worst] >= L.MIN_WALL - TOL, "%.2f mm at %s" % (thickness[worst], points[worst].round(2))


def test_the_tile_top_is_a_thin_diffuser():
    """Straight down through the middle of a tile: its top, TILE_SKIN thick,
    then nothing till the pixel."""
    tile = placed("tile", 4)
    down = rays(tile, [[0, 0, 30]], [0, 0, -1])[0]
    through = rays(tile, [[0, 0, 30 - down - 1e-4]], [0, 0, -1])[0]
    below = rays(tile, [[0, 0, 30 - down - through - 1e-3]], [0, 0, -1])[0]
    assert abs(30 - down - V["tile_top"]) < TOL and abs(through - L.TILE_SKIN) < TOL and below == np.inf


# --- a tile in its well -------------------------------------------------------------------


def board_parts():
    """The LED board's top side as meshes: its face (a thin slab), and each
    cell's LED and switch (body and actuator)."""
    parts = [trimesh.creation.box([L.PCB_SIZE, L.PCB_SIZE, 1], trimesh.transformations.translation_matrix(
        [0, 0, -0.5]))]
    for cell in range(9):
        x, y = L.pixel_at(cell)
        parts.append(trimesh.creation.box([L.PIXEL, L.PIXEL, L.LED_HEIGHT],
                                          trimesh.transformations.translation_matrix([x, y, L.LED_HEIGHT / 2])))
        bx, by = L.button_at(cell)
        parts.append(trimesh.creation.box([L.BUTTON, L.BUTTON, L.SWITCH_BODY],
                                          trimesh.transformations.translation_matrix([bx, by, L.SWITCH_BODY / 2])))
    return trimesh.util.concatenate(parts)


def actuator(cell):
    bx, by = L.button_at(cell)
    return trimesh.creation.cylinder(L.SWITCH_ACTUATOR / 2, L.SWITCH_HEIGHT, sections=48,
                                     transform=trimesh.transformations.translation_matrix(
                                         [bx, by, L.SWITCH_HEIGHT / 2]))


@pytest.fixture(scope="module")
def grid():
    return placed("grid")


@pytest.fixture(scope="module")
def board():
    return board_parts()


@pytest.mark.parametrize("cell", range(9))
def test_the_post_rests_on_its_switch(cell):
    """The post's end, flat, centred on button_at(cell), touching the
    actuator's top at rest, and still over it wherever the tile's play in
    its well puts it."""
    tile = placed("tile", cell)
    bx, by = L.button_at(cell)
    down = tile.face_normals[:, 2] < -0.999
    centres = tile.triangles_center
    end = down & (np.hypot(centres[:, 0] - bx, centres[:, 1] - by) < L.POST / 2 + 0.5) & (centres[:, 2] < 10)
    corners = tile.triangles[end].reshape(-1, 3)
    assert np.ptp(corners[:, 2]) < TOL and abs(corners[:, 2].mean() - L.SWITCH_HEIGHT) < TOL
    centre = corners[:, :2].mean(axis=0)
    radius = np.hypot(corners[:, 0] - centre[0], corners[:, 1] - centre[1]).min()
    assert np.hypot(centre[0] - bx, centre[1] - by) < TOL
    # its actuator's middle stays under the post with the tile pushed into a corner of its well
    assert radius > L.FIT * 2 ** 0.5 + 0.5 and radius * 2 >= L.SWITCH_ACTUATOR
    # touching: straight down from the post's end, the actuator at once
    gap = rays(actuator(cell), [[bx, by, L.SWITCH_HEIGHT + 1]], [0, 0, -1])[0] - 1
    assert abs(gap) < TOL


@pytest.mark.parametrize("cell", [0, 4, 8])
def test_a_press_clicks_then_stops_on_the_board(board, cell):
    """Pressed, the tile moves with the actuator; the first thing it meets
    besides (the stop) is the board's face, past the switch's travel, and
    never the LED or the switch's body."""
    tile = placed("tile", cell)
    points = surface(tile, 4000)
    bx, by = L.button_at(cell)
    post_end = (np.hypot(points[:, 0] - bx, points[:, 1] - by) <= L.POST / 2 + TOL) & (
        points[:, 2] < L.SWITCH_HEIGHT + TOL)
    travel = rays(board, points[~post_end], [0, 0, -1])
    stop = travel.min()
    assert L.SWITCH_TRAVEL + 0.2 <= stop <= L.SWITCH_TRAVEL + 0.3, stop
    at = points[~post_end][np.argmin(travel)]
    assert abs(at[2] - stop) < TOL  # it lands on the board's face (z = 0)
    # only the post's end meets the actuator; pressed to the stop, the post is
    # still clear of the switch's body
    assert (rays(actuator(cell), points[~post_end], [0, 0, -1]) > stop).all()
    assert rays(board, points[post_end], [0, 0, -1]).min() > stop


@settings(max_examples=6, derandomize=True)
@given(cell=st.integers(0, 8), press=st.floats(0, 1))
def test_a_tile_moves_freely_in_its_well(grid, cell, press):
    """From rest to the stop, the tile is FIT clear of the grid all round:
    walls, pillars and the frame's opening."""
    depth = press * L.STOP_GAP
    tile = placed("tile", cell, -depth)
    points = surface(tile, 1000, seed=cell)
    lo, hi = tile.bounds
    grid = near(grid, lo - [3, 3, 1], hi + [3, 3, 1])
    h = 0.5 ** 0.5
    for direction in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (h, h, 0), (h, -h, 0), (-h, h, 0), (-h, -h, 0)):
        gap = rays(grid, points, direction)
        assert gap.min() >= L.FIT - TOL, (direction, gap.min(), points[np.argmin(gap)])
    # and nothing of the grid is above or below it nearer than the frame
    assert rays(grid, points, (0, 0, -1)).min() > L.STOP_GAP


@pytest.mark.parametrize("cell", [0, 4, 7])
def test_turned_over_the_tile_stays_in(grid, cell):
    """Lifted from rest (the board upside down), the tile's flange meets the
    frame's underside after RATTLE: it can't drop out, and at rest it is
    clear of it."""
    tile = placed("tile", cell)
    points = surface(tile, 4000, seed=cell)
    lo, hi = tile.bounds
    up = rays(near(grid, lo - [1, 1, 1], hi + [1, 1, 5]), points, (0, 0, 1))
    gpoints = surface(grid, 4000, seed=cell)
    mine = np.abs(gpoints[:, :2] - L.pixel_at(cell)).max(axis=1) < L.PITCH / 2 + 1
    down = rays(tile, gpoints[mine], (0, 0, -1))
    lift = min(up.min(), down.min())
    assert L.RATTLE - 0.05 <= lift <= L.RATTLE + TOL, lift
    # the tile's top stands PROUD above the frame at rest
    top = tile.bounds[1][2]
    assert abs(top - V["frame_top"] - L.PROUD) < TOL


def test_the_walls_keep_each_cells_light_in_it(grid):
    """From each pixel towards each neighbour's, the light meets a wall."""
    for cell in range(9):
        x, y = L.pixel_at(cell)
        for other in range(9):
            ox, oy = L.pixel_at(other)
            if other != cell and max(abs(ox - x), abs(oy - y)) < L.PITCH + 1:
                d = np.array([ox - x, oy - y, 0.0])
                hit = rays(grid, [[x, y, L.LED_HEIGHT]], d / np.linalg.norm(d))[0]
                assert hit < np.linalg.norm(d) / 2 + L.WALL, (cell, other)


# --- the base, the screws and the Pico -------------------------------------------------------


@pytest.fixture(scope="module")
def base():
    return placed("base")


@pytest.mark.parametrize("screw", range(4))
def test_the_screws_go_from_the_bases_bosses_into_the_grids_pillars(base, grid, screw):
    sx, sy = L.screws()[screw]
    # along the axis: nothing of the base in the way, the pilot hole's end in the grid
    assert rays(base, [[sx, sy, V["floor_bottom"] - 1]], [0, 0, 1])[0] == np.inf
    assert abs(rays(grid, [[sx, sy, -1]], [0, 0, 1])[0] - 1 - L.PILOT_DEPTH) < TOL
    # the head's seat: up the counterbore, outside the screw's clearance hole
    r_head = (L.SCREW_CLEARANCE + L.HEAD_BORE) / 4
    seat = V["floor_bottom"] - 1 + rays(base, [[sx + r_head, sy, V["floor_bottom"] - 1]], [0, 0, 1])[0]
    assert abs(seat - V["seat"]) < TOL
    # round the screw the boss holds the board up, and the pillar holds it down
    r_clamp = (L.SCREW_CLEARANCE + L.PILLAR) / 4
    assert abs(rays(base, [[sx + r_clamp, sy, 5]], [0, 0, -1])[0] - 5 - L.BOARD_THICKNESS) < TOL
    assert abs(rays(grid, [[sx + r_clamp, sy, -1]], [0, 0, 1])[0] - 1) < TOL
    # the thread: between the pilot hole and the screw's outside there is pillar
    r_thread = (L.PILOT + L.SCREW) / 4
    assert abs(rays(grid, [[sx + r_thread, sy, -1]], [0, 0, 1])[0] - 1) < TOL
    # the screw reaches into the pillar, at least twice its diameter, and not to the pilot hole's end
    tip = seat + L.SCREW_LENGTH
    assert 2 * L.SCREW <= tip <= L.PILOT_DEPTH - 0.5
    # the PCB's hole is where the screw goes
    assert L.SCREW_HOLE > L.SCREW


def test_the_usb_plug_reaches_the_picos_socket(base):
    """Straight back from the Pico's USB socket, a micro-USB plug's moulding
    (10.5 x 7 mm) meets nothing; above and below the opening the wall is
    there."""
    x, y, z = L.PICO_CENTRE[0], V["pico_end"] + L.PICO_USB_OVERHANG, V["usb_z"]
    corners = [[x + dx, y, z + dz] for dx in (-5.25, 0, 5.25) for dz in (-3.5, 0, 3.5)]
    assert (rays(base, corners, [0, 1, 0]) == np.inf).all()
    wall = rays(base, [[x, 0, z + L.USB_OPENING[1] / 2 + 1], [x, 0, z - L.USB_OPENING[1] / 2 - 1]], [0, 1, 0])
    assert (np.abs(wall - (V["outside"] / 2 - L.CASE_WALL)) < TOL).all()
    # the socket's face is inside the base's wall, not in it
    assert y < V["outside"] / 2 - L.CASE_WALL


def test_the_pico_fits_under_the_board(base):
    """The room under the board is at least UNDER_HEIGHT; the Pico, its
    sockets and USB socket are clear of the bosses; BOOTSEL can be pressed
    through the floor."""
    px, py = L.PICO_CENTRE
    floor = rays(base, [[px, py, -L.BOARD_THICKNESS - 0.1]], [0, 0, -1])[0] + L.BOARD_THICKNESS + 0.1
    assert floor >= L.BOARD_THICKNESS + L.UNDER_HEIGHT
    assert V["usb_z"] - L.PICO_USB[1] / 2 > V["floor_top"]
    for sx, sy in L.screws():
        gap_x = abs(sx - px) - L.PICO[0] / 2 - L.BOSS / 2
        gap_y = abs(sy - py) - L.PICO[1] / 2 - L.BOSS / 2
        assert max(gap_x, gap_y) > 0.5
    bx, by = L.BOOTSEL_AT
    assert rays(base, [[bx, by, V["floor_bottom"] - 1]], [0, 0, 1])[0] == np.inf


def test_the_board_sits_in_the_base_and_the_skirt_meets_it(base, grid):
    """The board's edge is clear of the base's lip and rests on its ledge;
    the grid's skirt comes down outside the lip to SEAM above the base's
    walls."""
    half = L.PCB_SIZE / 2
    lip = rays(base, [[half, 0, -L.BOARD_THICKNESS / 2], [0, -half, -L.BOARD_THICKNESS / 2]],
               [[1, 0, 0], [0, -1, 0]])
    assert (lip >= 0.3).all() and np.isfinite(lip).all()
    # it rests on the ledge round its edge, except behind the Pico, where its sockets reach the edge
    inside = half - L.PCB_LEDGE / 2
    rests = rays(base, [[inside, 0, 5], [-inside, 20, 5], [20, -inside, 5], [20, inside, 5]], [0, 0, -1]) - 5
    assert (np.abs(rests - L.BOARD_THICKNESS) < TOL).all(), rests
    x, y = L.PICO_CENTRE
    for dx in (-L.PICO_ROW_SPACING / 2, L.PICO_ROW_SPACING / 2):  # the sockets, to their last pin
        assert rays(base, [[x + dx, y + L.PICO[1] / 2 - 0.5, -L.BOARD_THICKNESS - 0.01]], [0, 0, -1])[0] > 10
    edge = V["outside"] / 2 - L.CASE_WALL / 2
    skirt = rays(grid, [[edge, 0, -10]], [0, 0, 1])[0] - 10
    wall = 10 - rays(base, [[edge, 0, 10]], [0, 0, -1])[0]
    assert abs(skirt - wall - L.SEAM) < TOL


# --- make hardware without OpenSCAD -------------------------------------------------------------


def test_without_openscad_make_hardware_says_so_in_one_line_and_writes_nothing(tmp_path):
    """A PATH without openscad: one line naming the package, and the folder
    left as it was."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    r = subprocess.run([sys.executable, "-m", "host_tools", "hardware", "-o", str(out)], capture_output=True,
                       text=True, cwd=ROOT, timeout=HANG_S, env=dict(os.environ, PATH=str(bin_dir)))
    line = one_line_error(r)
    assert "openscad is not installed (apt-get install openscad)" in line, line
    assert os.listdir(out) == []


# --- the PCB (hardware/pcb/, make pcb's) in the case ----------------------------------------------


def _box_to_point(box, x, y):
    x0, y0, x1, y1 = box
    return np.hypot(max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1))


def test_the_pcbs_are_read_where_kicad_put_them():
    """read_pcb against positions KiCad reported for pico-buttons: the
    Pico's pin 16 joint and the level shifter's socket's courtyard."""
    path = [p for p in case.pcb_files() if p.endswith("pico-buttons.kicad_pcb")]
    assert path, "no hardware/pcb/pico-buttons: run `make pcb`"
    parts = case.read_pcb(path[0])
    pico = [p for p in parts if "Pico" in p["footprint"]][0]
    assert pico["side"] == "bottom" and len(pico["pads"]) == 40
    assert any(abs(x - 8.89) < 0.01 and abs(y - 15.53) < 0.01 for x, y, _ in pico["pads"])
    dip = [p for p in parts if p["footprint"].startswith("DIP-14")][0]
    assert np.allclose(dip["courtyard"], (-29.49, -4.72, -18.79, 13.73), atol=0.02)


@pytest.mark.parametrize("name", ["grid", "tile"])
def test_no_wall_or_tile_edge_comes_down_on_a_solder_joint(grid, name):
    """Every joint on the PCBs' top side has JOINT_HEIGHT clear above it:
    under the grid's walls, and under a tile pressed to its stop, wherever
    its play in the well puts it."""
    joints = case.top_joints()
    assert joints
    ring = [(np.cos(a), np.sin(a)) for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]
    worst = np.inf
    for x, y, r in joints:
        below = 0.01  # start just under the board's face, where the grid and a tile at its stop sit
        points = [[x, y, -below]] + [[x + r * c, y + r * s, -below] for c, s in ring]
        if name == "grid":
            worst = min(worst, rays(grid, points, [0, 0, 1]).min() - below)
            continue
        cell = min(range(9), key=lambda c: np.hypot(x - L.pixel_at(c)[0], y - L.pixel_at(c)[1]))
        tile = placed("tile", cell, -L.STOP_GAP)
        for dx, dy in ((0, 0), (L.FIT, 0), (-L.FIT, 0), (0, L.FIT), (0, -L.FIT)):
            worst = min(worst, rays(tile, np.array(points) - [dx, dy, 0], [0, 0, 1]).min() - below)
    assert worst >= L.JOINT_HEIGHT - TOL, worst


def test_the_parts_under_the_pcbs_clear_the_bosses_and_the_ledge():
    """The courtyard of each part under a PCB is clear of the bosses' slim
    tops (and the Pico of their full width, it hangs below their seats), and
    of the ledge round the board's edge, but for the Pico at the back, where
    the ledge is cut back."""
    boxes = [p for path in case.pcb_files() for p in case.read_pcb(path) if p["side"] == "bottom"]
    assert boxes
    inner = L.PCB_SIZE / 2 - L.PCB_LEDGE
    for part in boxes:
        box = part["courtyard"]
        pico = "Pico" in part["footprint"]
        for sx, sy in L.screws():
            clear = _box_to_point(box, sx, sy)
            assert clear > (L.BOSS if pico else L.BOSS_TOP) / 2, (part["footprint"], clear)
        x0, y0, x1, y1 = box
        if pico:
            assert -L.PICO[0] / 2 - 1 <= x0 and x1 <= L.PICO[0] / 2 + 1 and -inner < y0
        else:
            assert -inner < min(x0, y0) and max(x1, y1) < inner, part["footprint"]
