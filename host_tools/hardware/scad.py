"""OpenSCAD for the printed case (``case.py``): running it (under
``xvfb-run`` for a picture when there is no display), STLs in one canonical
byte order, and PNGs tagged with a digest of what they were drawn from, so
that a stale picture shows without drawing it again.
"""

import os
import shutil
import struct
import subprocess

from host_tools import pngtext
from host_tools.hardware.boards import HardwareError


class CaseError(HardwareError):
    """OpenSCAD is missing or failed: one line for the user."""


def num(v):
    """A number as OpenSCAD reads it, the same text every run."""
    text = ("%.6f" % v).rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def vec(values):
    return "[" + ", ".join(vec(v) if isinstance(v, (tuple, list)) else num(v) for v in values) + "]"


def openscad():
    """The openscad command, or CaseError."""
    path = shutil.which("openscad")
    if not path:
        raise CaseError("openscad is not installed (apt-get install openscad): it exports the case's STLs")
    return path


def run(args, pictures=False):
    """Run openscad with ``args``; under xvfb-run for a picture without a
    display. CaseError with OpenSCAD's last line when it fails."""
    cmd = [openscad()] + args
    if pictures and not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if not xvfb:
            raise CaseError("xvfb-run is not installed (apt-get install xvfb xauth): OpenSCAD draws the case's"
                            " pictures on a display, and there is none")
        cmd = [xvfb, "-a", "-s", "-screen 0 1280x1024x24"] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["exit status %d" % r.returncode])[-1]
        raise CaseError("openscad failed on %s: %s" % (args[-1], last))
    return r


PNG_KEY = b"tactictoe-source"


def tag_png(data, digest):
    """The PNG ``data`` with a tEXt chunk ``tactictoe-source: digest`` after
    its header."""
    return pngtext.add(data, PNG_KEY, digest)


def png_tag(data):
    """The digest a PNG was tagged with, or None."""
    return pngtext.read(data, PNG_KEY)


def tagged(path, digest):
    """The PNG at ``path`` when it is tagged ``digest`` (drawn from these
    very sources), else None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data if png_tag(data) == digest else None


def _triangles(data):
    """The triangles of an ASCII or binary STL, as [((x, y, z) * 3)]."""
    if data.lstrip().startswith(b"solid") and b"facet" in data[:1000]:
        nums = [tuple(float(v) for v in line.split()[1:4]) for line in data.decode().splitlines()
                if line.strip().startswith("vertex")]
        return [tuple(nums[i:i + 3]) for i in range(0, len(nums), 3)]
    count = struct.unpack("<I", data[80:84])[0]
    out = []
    for i in range(count):
        v = struct.unpack("<12f", data[84 + 50 * i:84 + 50 * i + 48])[3:]
        out.append((v[0:3], v[3:6], v[6:9]))
    return out


def canonical_stl(data, name):
    """A binary STL of the same triangles as ``data``, in one order whatever
    order OpenSCAD wrote them in: each triangle starts at its least corner
    (its winding kept), and the triangles are sorted. The same model makes
    the same bytes."""
    tris = []
    for t in _triangles(data):
        t = [tuple(struct.unpack("<3f", struct.pack("<3f", *p))) for p in t]  # as float32 stores them
        k = t.index(min(t))
        tris.append(tuple(t[k:] + t[:k]))
    tris.sort()
    out = [(b"tactic-toe " + name.encode()).ljust(80, b" "), struct.pack("<I", len(tris))]
    for a, b, c in tris:
        u = [b[i] - a[i] for i in range(3)]
        w = [c[i] - a[i] for i in range(3)]
        n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]
        length = sum(x * x for x in n) ** 0.5 or 1.0
        out.append(struct.pack("<12fH", *[x / length for x in n], *a, *b, *c, 0))
    return b"".join(out)
