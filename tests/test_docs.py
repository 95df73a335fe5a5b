"""The docs match the code: the README's screen pictures are what the
firmware draws, and every picture the README shows exists."""

import os
import re
import subprocess
import sys

from conftest import ROOT

SCREENS = os.path.join(ROOT, "docs", "screens")


def test_screen_pictures_are_up_to_date(tmp_path):
    r = subprocess.run([sys.executable, "-m", "host_tools", "screens", "-o", str(tmp_path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    fresh = sorted(os.listdir(tmp_path))
    assert fresh == sorted(os.listdir(SCREENS)), "run `make screens` and commit docs/screens"
    for name in fresh:
        with open(os.path.join(SCREENS, name)) as f:
            old = f.read()
        assert (tmp_path / name).read_text() == old, "%s is stale: run `make screens`" % name


def test_readme_pictures_exist():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    shown = re.findall(r"\]\((docs/screens/[^)]+\.svg)\)", readme)
    assert len(shown) >= 10
    for path in shown:
        assert os.path.exists(os.path.join(ROOT, path)), path
