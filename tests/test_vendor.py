"""vendor/: every third-party file is the one its README describes. (The
official firmware images are not here: host_tools/images.py fetches them;
tests/test_images.py.)"""

import hashlib
import os
import re
import subprocess

from conftest import ROOT

import pytest

KICAD_VENDOR = os.path.join(ROOT, "vendor", "kicad-footprints")
KICAD_SYM_VENDOR = os.path.join(ROOT, "vendor", "kicad-symbols")


def readme_table(folder):
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
    assert all(name.endswith(".kicad_mod") for name in readme_table(KICAD_VENDOR))
    assert all(name.endswith(".kicad_sym") for name in readme_table(KICAD_SYM_VENDOR))


def test_vendor_holds_only_these_folders():
    assert sorted(os.listdir(os.path.join(ROOT, "vendor"))) == ["kicad-footprints", "kicad-symbols"]


@pytest.mark.parametrize("folder, licences", [
    (KICAD_VENDOR, {"LICENSE-kicad-footprints"}),
    (KICAD_SYM_VENDOR, {"LICENSE-kicad-symbols"}),
])
def test_every_file_here_is_described(folder, licences):
    # Anything but the README and the licence texts needs a row (and so a
    # source and a sha256) before it may sit here.
    files = {n for n in os.listdir(folder) if n != "README.md" and not n.startswith("LICENSE-")}
    assert files == set(readme_table(folder))
    assert licences == {n for n in os.listdir(folder) if n.startswith("LICENSE-")}


@pytest.mark.parametrize("folder", [KICAD_VENDOR, KICAD_SYM_VENDOR])
def test_each_binary_matches_its_sha256_and_size(folder):
    for name, (size, sha) in readme_table(folder).items():
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        assert len(data) == size, name
        assert hashlib.sha256(data).hexdigest() == sha, "%s has changed: it is not the file the README describes" % name


def test_the_licences_are_the_upstream_texts():
    with open(os.path.join(ROOT, "licenses", "LICENSE-micropython"), encoding="utf-8") as f:
        mp = f.read()  # (make web ships it with MicroPython's WebAssembly port)
    assert mp.startswith("The MIT License (MIT)\n\nCopyright (c) 2013-2026 Damien P. George\n")
    assert sorted(os.listdir(os.path.join(ROOT, "licenses"))) == ["LICENSE-micropython", "README.md"]
    with open(os.path.join(KICAD_SYM_VENDOR, "LICENSE-kicad-symbols"), encoding="utf-8") as f:
        sym = f.read()
    assert "Upstream-Name: kicad-symbols" in sym and "waives article 3 of the license" in sym
    assert "Attribution-ShareAlike 4.0 International" in sym


# What the project's own commands build from its own code and registry
# packages, and so may be committed: the puzzles (make puzzles, from the
# tables the solver writes).
BUILT_HERE = {"firmware/tactictoe/puzzles.bin"}
COMPILED = re.compile(r"\.(uf2|bin|rom|elf|mpy|o|a|so|dll|dylib|exe|hex|wasm|pyc)$", re.I)


def test_no_compiled_file_is_committed():
    # No firmware image, ROM or compiled module from elsewhere: the official
    # images come from their publishers at set-up (host_tools/images.py).
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    found = {p for p in tracked.splitlines() if COMPILED.search(p)}
    assert found == BUILT_HERE
