"""ruff over the whole repo (pyproject.toml's [tool.ruff] settings), so a lint
finding fails make test with the finding shown; make lint runs the same."""

import subprocess
import sys

from conftest import HANG_S, ROOT


def test_ruff_finds_nothing():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", ROOT], cwd=ROOT,
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stdout + r.stderr
