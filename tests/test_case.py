"""hardware/case/: the kit's printed tray and plate. The committed
files are what the sources make now (the STLs exported afresh once a
session), each part is one closed solid that fits the bed, and the parts
fit each other and what is bought: the plate's cut-outs (measured on its
mesh) take the switches, the board and the plate fit the tray, the bosses
hold the board clear of everything under it, the screws bite and stop
short of the floor, the USB plug reaches the Pico's socket and a pen refill
its BOOTSEL.

The geometry is measured on the meshes (``rays`` below), in the kit's
coordinates (mx.py's: z = 0 on the PCB's top face)."""

import os
import subprocess
import sys
import struct

import numpy as np
import pytest
import trimesh

from conftest import HANG_S, ROOT, one_line_error
from host_tools.hardware import case, mx, scad

TOL = 0.02  # mm: float32 in the STL, OpenSCAD's 6 digits


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


FOLDER = os.path.join(ROOT, "hardware", case.FOLDER)
V = case.tray_values()
USB_FACE_GAP = 1.15  # mm: the socket's face behind the wall's outer face round the opening, at most
PLUG_METAL = 6.5  # mm: a micro-USB plug's metal, in front of its moulding
PART_CLEARANCE = 0.2  # mm: the least gap between the tray and any part under the board


# --- the meshes ------------------------------------------------------------------


@pytest.fixture(scope="session")
def fresh(tmp_path_factory):
    """Each part's STL as OpenSCAD exports it now (canonical bytes)."""
    tmp = str(tmp_path_factory.mktemp("case"))
    case.copy_sources(case.CASE, tmp, case.dimensions_scad())
    out = {}
    for name, path in case.export_stls(tmp, tmp).items():
        with open(path, "rb") as f:
            out[name] = scad.canonical_stl(f.read(), name)
    return out


def committed(name):
    with open(os.path.join(FOLDER, name), "rb") as f:
        return f.read()


def load(name):
    return trimesh.load(os.path.join(FOLDER, name + ".stl"), file_type="stl")


@pytest.fixture(scope="module")
def tray():
    """The tray where it is in the kit (printed floor down)."""
    mesh = load("tray")
    mesh.apply_translation([0, 0, V["floor_bottom"]])
    return mesh


@pytest.fixture(scope="module")
def plate():
    """The plate resting on the tray's ledge."""
    mesh = load("plate")
    mesh.apply_translation([0, 0, V["plate_bottom"]])
    return mesh


def down(mesh, x, y, z=30.0):
    """How high the first face of ``mesh`` is straight down from (x, y, z)
    (-inf for none)."""
    return z - rays(mesh, [[x, y, z]], [0, 0, -1])[0]


def box(x0, y0, z0, x1, y1, z1):
    return (min(x0, x1), min(y0, y1), min(z0, z1), max(x0, x1), max(y0, y1), max(z0, z1))


def grown(b, d):
    return (b[0] - d, b[1] - d, b[2] - d, b[3] + d, b[4] + d, b[5] + d)


def hits_box(mesh, b, step=0.5):
    """True if any face of ``mesh`` comes into the box ``b`` (x0, y0, z0,
    x1, y1, z1): segments across it on a ``step`` grid in x, y and z meet
    none, and its middle is not inside the mesh (a ray up from it meets no
    face: the tray is open above what hangs under the board)."""
    lo, hi = np.array(b[:3]), np.array(b[3:])
    for axis in range(3):
        others = [k for k in range(3) if k != axis]
        grids = [np.linspace(lo[k], hi[k], max(2, int(np.ceil((hi[k] - lo[k]) / step)) + 1)) for k in others]
        g0, g1 = np.meshgrid(*grids, indexing="ij")
        origins = np.zeros((g0.size, 3))
        origins[:, others[0]], origins[:, others[1]] = g0.ravel(), g1.ravel()
        origins[:, axis] = lo[axis]
        d = np.zeros(3)
        d[axis] = 1
        if (rays(mesh, origins, d) <= hi[axis] - lo[axis]).any():
            return True
    return bool(np.isfinite(rays(mesh, [(lo + hi) / 2], [0, 0, 1])[0]))


# --- what hangs under the board (mx.py's numbers) -----------------------------------


def under_board_parts():
    """``{name: box}`` of everything under the PCB: the hot-swap sockets
    (body and pads), the LEDs (legs and pads), the Pico's two sockets, its
    headers' plastic, its board and parts, its USB socket."""
    bottom = -mx.BOARD_THICKNESS
    out = {}
    for cell in range(9):
        kx, ky = mx.key_at(cell)
        (x0, y0), (x1, y1) = mx.SOCKET_BODY
        out["socket %d" % cell] = box(kx + x0, ky + y0, bottom - mx.SOCKET_HEIGHT, kx + x1, ky + y1, bottom)
        for i, (px, py) in enumerate((mx.SOCKET_PAD1, mx.SOCKET_PAD2)):
            w, h = mx.SOCKET_PAD
            out["socket %d pad %d" % (cell, i + 1)] = box(kx + px - w / 2, ky + py - h / 2, bottom - mx.SOCKET_HEIGHT,
                                                        kx + px + w / 2, ky + py + h / 2, bottom)
        lx, ly = mx.led_at(cell)
        ex, ey = mx.LED_PAD_AT[0] + mx.LED_PAD[0] / 2, mx.LED_PAD_AT[1] + mx.LED_PAD[1] / 2
        out["LED %d" % cell] = box(lx - ex, ly - ey, bottom - 0.5, lx + ex, ly + ey, bottom)
    px, py = mx.PICO_CENTRE
    half_row = 20 * mx.PICO_PITCH / 2
    for side in (-1, 1):
        x = px + side * mx.PICO_ROW_SPACING / 2
        out["Pico socket %+d" % side] = box(x - 1.27, py - half_row, bottom - mx.SOCKET_ROW_HEIGHT,
                                           x + 1.27, py + half_row, bottom)
        out["Pico header %+d" % side] = box(x - 1.27, py - half_row, V["pico_back"],
                                           x + 1.27, py + half_row, V["pico_back"] + mx.PICO_SPACER)
    out["Pico"] = box(px - mx.PICO[0] / 2, py - mx.PICO[1] / 2, V["pico_face"] - mx.PICO_PARTS,
                      px + mx.PICO[0] / 2, py + mx.PICO[1] / 2, V["pico_back"])
    out["Pico USB"] = box(px - mx.PICO_USB[0] / 2, V["usb_face"] - 5.5, V["usb_z"] - mx.PICO_USB[1] / 2,
                          px + mx.PICO_USB[0] / 2, V["usb_face"], V["usb_z"] + mx.PICO_USB[1] / 2)
    return out


def _box_to_point(b, x, y):
    return np.hypot(max(b[0] - x, 0, x - b[3]), max(b[1] - y, 0, y - b[4]))


# --- the files are what the sources make --------------------------------------------


def test_dimensions_scad_is_written_from_mx():
    assert committed(case.DIMENSIONS).decode() == case.dimensions_scad(), "run `make hardware`"


@pytest.mark.parametrize("name", [p[0] for p in case.PARTS])
def test_each_stl_is_what_openscad_exports_now(fresh, name):
    assert fresh[name] == committed(name + ".stl"), "%s.stl is stale: run `make hardware`" % name


@pytest.mark.parametrize("name", [p[0] for p in case.PICTURES])
def test_each_picture_is_drawn_from_these_sources(name):
    data = committed(name)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert "%d,%d" % (width, height) == case.IMAGE_SIZE
    assert scad.png_tag(data) == case.source_digest(FOLDER), "%s is stale: run `make hardware`" % name


# --- each part on its own ---------------------------------------------------------------


@pytest.mark.parametrize("name", [p[0] for p in case.PARTS])
def test_each_part_is_one_closed_solid_flat_on_the_bed(name):
    mesh = load(name)
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume and mesh.volume > 0
    assert bodies(mesh) == 1
    (x0, y0, z0), (x1, y1, z1) = mesh.bounds
    assert abs(z0) < TOL and max(x1 - x0, y1 - y0, z1 - z0) <= mx.BED
    flat = (np.abs(mesh.triangles[:, :, 2]).max(axis=1) < TOL) & (mesh.face_normals[:, 2] < -0.999)
    assert mesh.area_faces[flat].sum() > 1000


def test_the_tray_prints_upright_without_supports(tray):
    """Every face looking down more steeply than 45 degrees is on the bed,
    or the top of the USB opening or its pocket: a bridge no longer than
    the pocket is wide."""
    steep = tray.face_normals[:, 2] < -0.71
    z = tray.triangles_center[steep][:, 2]
    tops = [V["usb_z"] + mx.USB_OPENING[1] / 2, V["usb_z"] + mx.USB_RECESS[1] / 2]
    allowed = (np.abs(z - V["floor_bottom"]) < TOL) | np.any([np.abs(z - t) < TOL for t in tops], axis=0)
    assert allowed.all(), np.unique(z[~allowed].round(2))
    bridges = tray.triangles[steep][np.abs(z - V["floor_bottom"]) > TOL]
    assert np.ptp(bridges[:, :, 0]) <= mx.USB_RECESS[0] + TOL


def test_the_plates_cut_outs_take_mx_switches(plate):
    """Sliced at mid-thickness, the plate is its outline and nine holes:
    each a 14.0 +- 0.05 mm square centred on its key, the keys 19.05 apart."""
    z = V["plate_bottom"] + mx.PLATE_THICKNESS / 2
    segments = trimesh.intersections.mesh_plane(plate, [0, 0, 1], [0, 0, z])
    points = segments.reshape(-1, 3)[:, :2]
    keys = [mx.key_at(c) for c in range(9)]
    holes = []
    for kx, ky in keys:
        mine = np.abs(points - (kx, ky)).max(axis=1) < mx.KEY_PITCH / 2
        x0, y0 = points[mine].min(axis=0)
        x1, y1 = points[mine].max(axis=0)
        # every point of the slice near the key is on the hole's square
        on_edge = np.minimum(np.minimum(abs(points[mine, 0] - x0), abs(points[mine, 0] - x1)),
                             np.minimum(abs(points[mine, 1] - y0), abs(points[mine, 1] - y1)))
        assert (on_edge < TOL).all()
        assert abs(x1 - x0 - mx.PLATE_CUTOUT) <= 0.05 and abs(y1 - y0 - mx.PLATE_CUTOUT) <= 0.05
        holes.append(((x0 + x1) / 2, (y0 + y1) / 2))
        assert np.hypot(holes[-1][0] - kx, holes[-1][1] - ky) < TOL
    # the pitch, between the holes as measured
    for a in range(9):
        for b in (a + 1, a + 3):
            if b < 9 and (b == a + 3 or b % 3):
                assert abs(np.hypot(*np.subtract(holes[b], holes[a])) - 19.05) < TOL
    # the rest of the slice is the outline
    rest = np.abs(points[:, None, :] - np.array(keys)[None]).max(axis=2).min(axis=1) >= mx.KEY_PITCH / 2
    assert np.allclose([*points[rest].min(axis=0), *points[rest].max(axis=0)], mx.plate_outline(), atol=TOL)
    # nine holes and the outline, and nothing else: ten closed loops
    assert _loops(segments) == 10


def _loops(segments):
    """How many closed loops the slice's segments make."""
    ends = [tuple(p) for p in np.round(segments[:, :, :2], 3).reshape(-1, 2)]
    index = {p: i for i, p in enumerate(dict.fromkeys(ends))}
    parent = list(range(len(index)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i

    for a, b in zip(ends[0::2], ends[1::2]):
        parent[root(index[a])] = root(index[b])
    return len({root(i) for i in range(len(index))})


def test_the_switches_clip_into_the_plate(plate):
    """The printed plate is PLATE_THICKNESS thick, which the switches'
    clips hold, as is the FR-4 plate; its top is where the switch's bottom
    housing ends, PLATE_TOP above the board."""
    lo, hi = mx.PLATE_THICKNESS_RANGE
    assert lo <= mx.PLATE_THICKNESS <= hi and lo <= mx.FR4_PLATE_THICKNESS <= hi
    (_, _, z0), (_, _, z1) = plate.bounds
    assert abs(z1 - z0 - mx.PLATE_THICKNESS) < TOL and abs(z1 - mx.PLATE_TOP) < TOL
    assert mx.PLATE_TOP == mx.SWITCH_BELOW_PLATE


# --- the parts in the tray ----------------------------------------------------------------


def test_the_board_and_the_plate_fit_the_tray(tray):
    """Out from the board's edges and from the plate's, the wall is FIT
    away; the board's edge passes the plate's ledge on its way in."""
    x0, y0, x1, y1 = mx.PCB_X[0], mx.PCB_Y[0], mx.PCB_X[1], mx.PCB_Y[1]
    p0, q0, p1, q1 = mx.plate_outline()
    for z, (a0, b0, a1, b1) in ((-mx.BOARD_THICKNESS / 2, (x0, y0, x1, y1)),
                                (V["plate_bottom"] + mx.PLATE_THICKNESS / 2, (p0, q0, p1, q1))):
        for t in np.linspace(0.1, 0.9, 9):
            x, y = a0 + t * (a1 - a0), b0 + t * (b1 - b0)
            gaps = rays(tray, [[a1, y, z], [a0, y, z], [x, b1, z], [x, b0, z]],
                        [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]])
            assert np.allclose(gaps, mx.FIT, atol=TOL), (z, t, gaps)
    # over the board's outline and its fit, from the plate's top, nothing above the board's ledge
    for x, y in ((x0 - mx.FIT / 2, 0), (0, y0 - mx.FIT / 2), (x1 + mx.FIT / 2, -25), (-20, y1 + mx.FIT / 2)):
        assert down(tray, x, y) <= -mx.BOARD_THICKNESS + TOL


def test_the_plate_rests_on_its_ledge_and_the_walls_reach_its_top(tray):
    """Round the board's outline the tray's ledge is at the plate's
    underside, PLATE_LEDGE wide; the walls' top is the plate's top."""
    x0, y0, x1, y1 = mx.PCB_X[0], mx.PCB_Y[0], mx.PCB_X[1], mx.PCB_Y[1]
    inside = mx.FIT + mx.PLATE_LEDGE / 2
    for x, y in ((x0 - inside, 0), (x1 + inside, 0), (0, y0 - inside), (0, y1 + inside), (41, y1 + inside)):
        assert abs(down(tray, x, y) - (mx.PLATE_TOP - mx.PLATE_THICKNESS)) < TOL
    assert abs(tray.bounds[1][2] - mx.PLATE_TOP) < TOL
    assert abs(V["plate_inner"][2] - V["inner"][2] - mx.PLATE_LEDGE) < TOL


def test_the_board_rests_on_the_ledge_and_the_bosses(tray):
    """Just inside the board's edge, the ledge is at its underside (but
    beside and behind the Pico, whose sockets come near the edge); round
    each screw, the boss's top."""
    bottom = -mx.BOARD_THICKNESS
    x0, y0, x1, y1 = mx.PCB_X[0], mx.PCB_Y[0], mx.PCB_X[1], mx.PCB_Y[1]
    edge = 0.5
    for x, y in ((x0 + edge, 0), (0, y0 + edge), (x1 - edge, -28), (-20, y1 - edge), (20, y1 - edge)):
        assert abs(down(tray, x, y, 0) - bottom) < TOL, (x, y)
    for x, y in ((x1 - edge, 0), (41, y1 - edge)):  # beside and behind the Pico: no ledge
        assert down(tray, x, y, 0) < V["floor_top"] + TOL
    for sx, sy in mx.SCREWS:
        r = (mx.PILOT + mx.BOSS) / 4
        for a in np.linspace(0, 2 * np.pi, 8, endpoint=False):
            assert abs(down(tray, sx + r * np.cos(a), sy + r * np.sin(a), 0) - bottom) < TOL


def test_nothing_of_the_tray_comes_near_the_parts_under_the_board(tray):
    """The sockets, LEDs, the Pico, its sockets, headers and USB socket
    (mx.py's boxes, PART_CLEARANCE bigger) meet no face of the tray, and the
    board's and the plate's own volumes (a hair smaller) none either."""
    for name, b in under_board_parts().items():
        assert not hits_box(tray, grown(b, PART_CLEARANCE)), name
    pcb = (mx.PCB_X[0], mx.PCB_Y[0], -mx.BOARD_THICKNESS, mx.PCB_X[1], mx.PCB_Y[1], 0)
    plate = (*mx.plate_outline()[:2], V["plate_bottom"], *mx.plate_outline()[2:], mx.PLATE_TOP)
    for b in (pcb, plate):
        assert not hits_box(tray, grown(b, -TOL), step=2.0)


def test_a_collision_would_be_seen(tray):
    """hits_box does see the tray: a box through a boss, and one in the wall."""
    sx, sy = mx.SCREWS[0]
    assert hits_box(tray, (sx + 2, sy - 0.5, -6, sx + 4, sy + 0.5, -5))
    assert hits_box(tray, (V["outer"][0] + 0.5, -1, -6, V["outer"][0] + 1.0, 1, -5))


def test_the_bosses_clear_the_parts_under_the_board(tray):
    """Each boss, measured on the mesh (BOSS across), is under its screw
    and clear of every part's box by at least 0.5 mm (the nearest: a
    hot-swap socket's pad, 0.75 mm)."""
    for sx, sy in mx.SCREWS:
        z = -5.0
        out = rays(tray, [[sx + 5, sy, z], [sx - 5, sy, z], [sx, sy + 5, z], [sx, sy - 5, z]],
                   [[-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0]])
        assert np.allclose(5 - out, mx.BOSS / 2, atol=0.05), out  # a 40-sided polygon's flats and corners
        for name, b in under_board_parts().items():
            assert _box_to_point(b, sx, sy) - mx.BOSS / 2 >= 0.5, (name, (sx, sy))


# --- the screws ---------------------------------------------------------------------------------


def test_the_screws_bite_and_stop_short_of_the_floor(tray):
    """An M3 x 8 from above, its head on the board: at least 4 mm of thread
    in the boss's pilot hole (narrower than the screw, so it cuts its
    thread), its tip above the hole's end, and the floor closed under it."""
    bottom = -mx.BOARD_THICKNESS
    engagement = mx.SCREW_LENGTH - mx.BOARD_THICKNESS
    assert engagement >= 4
    for sx, sy in mx.SCREWS:
        end = down(tray, sx, sy, bottom + 1)
        assert abs(end - V["pilot_bottom"]) < TOL and V["screw_tip"] > end + 1
        assert end > V["floor_top"]
        pilot = rays(tray, [[sx, sy, -5]], [1, 0, 0])[0]
        assert mx.PILOT / 2 - 0.05 <= pilot <= mx.PILOT / 2 + TOL and pilot * 2 < mx.SCREW
        assert rays(tray, [[sx, sy, V["floor_bottom"] - 1]], [0, 0, 1])[0] < 1 + TOL  # the floor is there
    assert mx.SCREW_HOLE > mx.SCREW


def test_the_screw_heads_clear_the_plate_and_the_switches():
    """The pan heads, on the board's top, are below the plate's underside
    and outside every switch's 14 mm bottom housing."""
    assert mx.SCREW_HEAD[1] + 1.0 <= mx.PLATE_TOP - mx.PLATE_THICKNESS
    housing = mx.PLATE_CUTOUT / 2
    for sx, sy in mx.SCREWS:
        for cell in range(9):
            kx, ky = mx.key_at(cell)
            b = (kx - housing, ky - housing, 0, kx + housing, ky + housing, 0)
            assert _box_to_point(b, sx, sy) - mx.SCREW_HEAD[0] / 2 >= 0.5, (cell, (sx, sy))


# --- the Pico ----------------------------------------------------------------------------------


def test_the_stack_adds_up(tray):
    """From the PCB's top: the plate's top 5.0 (the switch's bottom
    housing); below: the sockets, the headers' plastic, the Pico and its
    USB socket, then at least 1 mm of air over the floor."""
    assert mx.PLATE_TOP == (V["plate_bottom"] - 0) + mx.PLATE_THICKNESS == 5.0
    usb_bottom = V["usb_z"] - mx.PICO_USB[1] / 2
    assert abs(usb_bottom - (-mx.BOARD_THICKNESS - mx.SOCKET_ROW_HEIGHT - mx.PICO_SPACER - mx.PICO_THICKNESS
                             - mx.PICO_USB[1])) < 1e-9
    px, py = mx.PICO_CENTRE
    floor = down(tray, px, py, V["pico_face"] - mx.PICO_PARTS)
    assert abs(floor - V["floor_top"]) < TOL and usb_bottom - floor >= 1.0 - TOL
    assert abs(down(tray, px, V["usb_face"] - 2, usb_bottom) - V["floor_top"]) < TOL


def test_the_usb_plug_reaches_the_picos_socket(tray):
    """The opening is centred on the socket; straight back from the socket's
    face a 12 x 8 mm moulding meets nothing; a bigger one stops on the
    pocket's face round the opening, at most USB_FACE_GAP from the socket's
    face, so the plug's metal still goes 5 mm or more into the socket."""
    x, y, z = mx.PICO_CENTRE[0], V["usb_face"], V["usb_z"]
    inside = V["inner"][3] + mx.USB_SKIN / 2  # in the wall's skin
    sides = rays(tray, [[x, inside, z], [x, inside, z]], [[1, 0, 0], [-1, 0, 0]])
    assert np.allclose(sides, mx.USB_OPENING[0] / 2, atol=TOL)
    top = rays(tray, [[x, inside, z]], [0, 0, 1])[0]
    assert abs(top - mx.USB_OPENING[1] / 2) < TOL
    w, h = mx.USB_OPENING[0] / 2 - 0.05, mx.USB_OPENING[1] / 2 - 0.05
    corners = [[x + dx, y, z + dz] for dx in (-w, 0, w) for dz in (-h, 0, h)]
    assert (rays(tray, corners, [0, 1, 0]) == np.inf).all()
    # round the opening, the pocket's face: USB_FACE_GAP from the socket's face, the pocket centred too
    ring = [[x + dx, y + 10, z + dz] for dx, dz in ((-7, 0), (7, 0), (0, 5), (-7, 5), (7, -3))]
    face = y + 10 - rays(tray, ring, [0, -1, 0])
    assert np.allclose(face - y, V["recess_face"] - y, atol=TOL)
    assert (face - y <= USB_FACE_GAP + TOL).all() and PLUG_METAL - USB_FACE_GAP >= 5.0
    for dx in (-1, 1):
        edge = rays(tray, [[x, V["recess_face"] + 0.5, z]], [dx, 0, 0])[0]
        assert abs(edge - mx.USB_RECESS[0] / 2) < TOL
    # elsewhere the back wall's outer face is the tray's
    assert abs(y + 10 - rays(tray, [[0, y + 10, z]], [0, -1, 0])[0] - V["outer"][3]) < TOL
    # the socket's face is inside the tray, not in its wall
    assert y < V["inner"][3]


def test_bootsel_can_be_pressed_through_the_floor(tray):
    """Up the hole from below: nothing of the tray within BOOTSEL_HOLE, the
    floor round it, and BOOTSEL (on the Pico's face) at the top."""
    bx, by = mx.BOOTSEL_AT
    r = mx.BOOTSEL_HOLE / 2
    ring = [[bx + k * r * np.cos(a), by + k * r * np.sin(a), V["floor_bottom"] - 1]
            for k in (0, 0.9) for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]
    assert (rays(tray, ring, [0, 0, 1]) == np.inf).all()
    assert rays(tray, [[bx + r + 0.5, by, V["floor_bottom"] - 1]], [0, 0, 1])[0] < 1 + TOL
    px, py = mx.PICO_CENTRE
    assert abs(bx - px) < mx.PICO[0] / 2 and abs(by - py) < mx.PICO[1] / 2


# --- the guide --------------------------------------------------------------------------------


def test_the_guide_gives_the_kits_numbers():
    """hardware/README.md's section on the tray and plate says the numbers
    mx.py and the tray have."""
    with open(os.path.join(ROOT, "hardware", "README.md")) as f:
        guide = f.read().split("### 2. Print the tray, and the plate if you don't order it", 1)[1].split("\n### ", 1)[0]
    guide = " ".join(guide.split())
    said = ["%.2f mm clear of the walls" % mx.FIT, "%.1f mm of room under the board" % mx.UNDER,
            "%.1f mm switch plate" % mx.PLATE_THICKNESS, "FR-4 one (%.1f mm" % mx.FR4_PLATE_THICKNESS,
            "hold %.1f to %.1f mm" % mx.PLATE_THICKNESS_RANGE, "%.1f mm wider than the board" % mx.PLATE_LEDGE,
            "%.1f mm over the board" % mx.PLATE_TOP, "M3 x %d pan-head" % mx.SCREW_LENGTH,
            "up to %d x %d mm" % mx.USB_OPENING, "%.2f mm short of it" % (V["recess_face"] - V["usb_face"]),
            "%d mm hole in the floor" % mx.BOOTSEL_HOLE]
    for text in said:
        assert text in guide, text
    assert V["recess_face"] - V["usb_face"] <= USB_FACE_GAP + 1e-9


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
