"""vendor/: every third-party binary is the one its README describes."""

import hashlib
import os
import re

from conftest import ROOT

import pytest

VENDOR = os.path.join(ROOT, "vendor", "micropython-rp2")
CP_VENDOR = os.path.join(ROOT, "vendor", "circuitpython-rp2")
ASYNCIO_VENDOR = os.path.join(ROOT, "vendor", "circuitpython-asyncio")
KICAD_VENDOR = os.path.join(ROOT, "vendor", "kicad-footprints")
KICAD_SYM_VENDOR = os.path.join(ROOT, "vendor", "kicad-symbols")
README = os.path.join(VENDOR, "README.md")


def readme_table(folder=VENDOR):
    """{file: (bytes, sha256)} from the README's table of binaries: rows
    `| `NAME` | what | 1,234 | `SHA256` | licence |`."""
    rows = {}
    with open(os.path.join(folder, "README.md"), encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 5 and re.fullmatch(r"`[0-9a-f]{64}`", cells[3]):
                name = cells[0].strip("`")
                assert name not in rows, "%s listed twice" % name
                rows[name] = (int(cells[2].replace(",", "")), cells[3].strip("`"))
    return rows


def test_the_readmes_list_the_binaries():
    assert set(readme_table()) == {"RPI_PICO-v1.28.0.uf2", "rp2040-bootrom-B1.bin"}
    assert set(readme_table(CP_VENDOR)) == {"circuitpython-10.2.1-raspberry_pi_pico-en_US.uf2",
                                            "circuitpython-10.2.1-adafruit_macropad_rp2040-en_US.uf2",
                                            "circuitpython-10.2.1-pimoroni_keybow2040-en_US.uf2"}
    assert set(readme_table(ASYNCIO_VENDOR)) == {"core.mpy", "event.mpy", "funcs.mpy", "lock.mpy", "stream.mpy"}
    assert all(name.endswith(".kicad_mod") for name in readme_table(KICAD_VENDOR))
    assert all(name.endswith(".kicad_sym") for name in readme_table(KICAD_SYM_VENDOR))


def test_vendor_holds_only_these_folders():
    assert sorted(os.listdir(os.path.join(ROOT, "vendor"))) == ["circuitpython-asyncio", "circuitpython-rp2",
                                                                 "kicad-footprints", "kicad-symbols", "micropython-rp2"]


@pytest.mark.parametrize("folder, licences", [
    (VENDOR, {"LICENSE-micropython", "LICENSE-pico-bootrom"}),
    (CP_VENDOR, {"LICENSE-circuitpython"}),
    (ASYNCIO_VENDOR, {"LICENSE-asyncio"}),
    (KICAD_VENDOR, {"LICENSE-kicad-footprints"}),
    (KICAD_SYM_VENDOR, {"LICENSE-kicad-symbols"}),
])
def test_every_file_here_is_described(folder, licences):
    # Anything but the README and the licence texts needs a row (and so a
    # source and a sha256) before it may sit here.
    files = {n for n in os.listdir(folder) if n != "README.md" and not n.startswith("LICENSE-")}
    assert files == set(readme_table(folder))
    assert licences == {n for n in os.listdir(folder) if n.startswith("LICENSE-")}


@pytest.mark.parametrize("folder", [VENDOR, CP_VENDOR, ASYNCIO_VENDOR, KICAD_VENDOR, KICAD_SYM_VENDOR])
def test_each_binary_matches_its_sha256_and_size(folder):
    for name, (size, sha) in readme_table(folder).items():
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        assert len(data) == size, name
        assert hashlib.sha256(data).hexdigest() == sha, "%s has changed: it is not the file the README describes" % name


def test_the_licences_are_the_upstream_texts():
    with open(os.path.join(VENDOR, "LICENSE-micropython"), encoding="utf-8") as f:
        mp = f.read()
    assert mp.startswith("The MIT License (MIT)\n\nCopyright (c) 2013-2026 Damien P. George\n")
    with open(os.path.join(VENDOR, "LICENSE-pico-bootrom"), encoding="utf-8") as f:
        rom = f.read()
    assert "Copyright 2020 (c) 2020 Raspberry Pi (Trading) Ltd." in rom
    assert "3. Neither the name of the copyright holder nor the names of its contributors" in rom
    assert "Copyright (c) 2020 Mark Owen" in rom  # the ROM's float routines, licensed apart
    with open(os.path.join(CP_VENDOR, "LICENSE-circuitpython"), encoding="utf-8") as f:
        cp = f.read()
    assert cp.startswith("The MIT License (MIT)\n\nCopyright (c) 2013-2025 Damien P. George\n")
    assert "See the comments and SPDX headers." in cp
    with open(os.path.join(ASYNCIO_VENDOR, "LICENSE-asyncio"), encoding="utf-8") as f:
        assert f.read().startswith("The MIT License (MIT)\n\nCopyright (c) 2021 Dan Halbert for Adafruit Industries\n")
    with open(os.path.join(KICAD_SYM_VENDOR, "LICENSE-kicad-symbols"), encoding="utf-8") as f:
        sym = f.read()
    assert "Upstream-Name: kicad-symbols" in sym and "waives article 3 of the license" in sym
    assert "Attribution-ShareAlike 4.0 International" in sym
