"""A static check of firmware/ against the MicroPython stubs of the rp2 and
esp32 ports (micropython-rp2-stubs, micropython-esp32-stubs) with mypy."""

import os
import subprocess
import sys

import pytest

from conftest import HANG_S, FIRMWARE, PACKAGE, ROOT

STUBS = os.path.join(os.path.dirname(os.path.dirname(sys.executable)), "stubs")


def mypy(port, files, cwd=FIRMWARE):
    stubs = os.path.join(STUBS, port)
    assert os.path.isdir(stubs), "stubs for %s missing: `make test` installs them" % port
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", os.path.join(ROOT, "mypy-firmware.ini"),
         "--custom-typeshed-dir", stubs, "--cache-dir", os.path.join(ROOT, ".venv", "mypy-cache", port)] + files,
        capture_output=True, text=True, cwd=cwd, env=dict(os.environ, MYPYPATH=stubs), timeout=HANG_S)


@pytest.mark.parametrize("port", ["rp2", "esp32"])
def test_firmware_type_checks_against_port_stubs(port):
    files = sorted("tactictoe/" + f for f in os.listdir(PACKAGE) if f.endswith(".py")) + sorted(
        "tactictoe/devices/" + f for f in os.listdir(os.path.join(PACKAGE, "devices")) if f.endswith(".py"))
    r = mypy(port, files)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues found in %d source files" % len(files) in r.stdout


def test_the_check_catches_a_wrong_port_api(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import machine\nmachine.Pin(2, machine.Pin.IN).toggle_everything()\n")
    r = mypy("rp2", [str(bad)], cwd=str(tmp_path))
    assert r.returncode == 1 and 'has no attribute "toggle_everything"' in r.stdout
