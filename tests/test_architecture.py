"""The firmware's shape (host_tools/architecture.py, docs/architecture.md):
no chain of imports inside firmware/tactictoe/ comes back to where it
started, the package imports its own modules relatively, no module is named
for where it was cut off, and docs/architecture.svg is what the code draws
now. Each check is also shown to fail, on a copy made wrong on purpose."""

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from host_tools import architecture

PACKAGE = architecture.PACKAGE
PICTURE = architecture.PICTURE
HANG_S = 900  # a guard against a hang, not a deadline


def _circles(g):
    return "; ".join(" -> ".join(architecture.circle(g, c)) for c in architecture.cycles(g))


def _copy(tmp_path):
    """The firmware's package copied to tmp_path/tactictoe (its code only)."""
    copy = tmp_path / "tactictoe"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.tbl", "*.bin"))
    return copy


def _import_line(holder, target):
    """The relative import that, in module ``holder`` (no package's
    ``__init__``), imports module ``target``."""
    here = holder.split(".")[:-1]  # the holder's package: each dot one step up from it
    parts = target.split(".")[1:]
    return "from %s%s import %s" % ("." * len(here), ".".join(parts[:-1]), parts[-1])


# --- the graph ---------------------------------------------------------------------------


def test_the_firmwares_imports_go_round_no_circle():
    g = architecture.graph()
    on_disk = sorted(os.path.relpath(os.path.join(d, n), PACKAGE) for d, _, names in os.walk(PACKAGE)
                     for n in names if n.endswith(".py"))
    assert len(g) == len(on_disk), "every module of firmware/tactictoe/ is in the graph"
    folded = architecture.rooms(g)
    assert "flow" in folded["run"]  # the walk sees the imports inside functions (loop.build's)
    assert "run" in folded["main"]
    assert not architecture.cycles(g), "import circles in firmware/tactictoe/: %s" % _circles(g)


def test_a_circle_made_in_a_copy_is_found(tmp_path):
    copy = _copy(tmp_path)
    g = architecture.graph(str(copy))
    # An import the firmware makes (the first between two modules, neither a
    # package), and the way back made inside a function, as the firmware
    # loads its late parts: that closes a circle.
    files = architecture.modules(str(copy))
    importer, imported = next((m, t) for m in sorted(g) for t in g[m]
                              if not files[m].endswith("__init__.py") and not files[t].endswith("__init__.py"))
    with open(files[imported], "a") as f:
        f.write("\n\ndef _back():\n    %s  # noqa\n" % _import_line(imported, importer))
    g = architecture.graph(str(copy))
    found = architecture.cycles(g)
    assert len(found) == 1 and {importer, imported} <= set(found[0]), found
    said = _circles(g)
    assert importer in said and imported in said and said.count(" -> ") >= 2, said
    late = [imp for imp in architecture.imports(str(copy)) if imp.module == imported and imp.target == importer]
    assert late and all(imp.late for imp in late)


def test_a_module_that_imports_itself_is_a_circle():
    assert architecture.cycles({"p.a": ["p.a"], "p.b": []}) == [["p.a"]]
    assert architecture.cycles({"p.a": ["p.b"], "p.b": ["p.c"], "p.c": ["p.a"], "p.d": ["p.a"]}) == [
        ["p.a", "p.b", "p.c"]]
    assert architecture.circle({"p.a": ["p.b"], "p.b": ["p.a", "p.c"], "p.c": ["p.a"]}, ["p.a", "p.b", "p.c"]) == [
        "p.a", "p.b", "p.a"]
    assert architecture.cycles({"p.a": ["p.b"], "p.b": []}) == []


def test_imports_are_resolved_as_the_runtime_resolves_them(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "notes").mkdir()  # no __init__.py: not a sub-package
    (pkg / "notes" / "loose.py").write_text("from .. import top\n")
    (pkg / "__init__.py").write_text("X = 1\n")
    (pkg / "top.py").write_text("from . import sub\nfrom .sub import leaf\nfrom . import X\n"
                                "from .sub.leaf import late\nimport json\n")
    (pkg / "top2.py").write_text("from micropython import const\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "leaf.py").write_text(
        "import os\nfrom .. import X\nfrom ..top2 import const\n\n\nclass K:\n    from ..sub import other\n\n\n"
        "def late():\n    import pkg.sub.other\n    return pkg\n")
    (pkg / "sub" / "other.py").write_text('"""from pkg import top: words, not an import"""\nS = "import pkg.top"\n')
    assert architecture.graph(str(pkg)) == {
        "pkg": [],
        "pkg.sub": [],
        "pkg.sub.leaf": ["pkg", "pkg.sub.other", "pkg.top2"],
        "pkg.sub.other": [],
        "pkg.top": ["pkg", "pkg.sub", "pkg.sub.leaf"],
        "pkg.top2": [],
    }
    # A class body runs as the module loads; a function's, when it is called.
    assert [(i.line, i.late) for i in architecture.imports(str(pkg)) if i.target == "pkg.sub.other"] == [
        (7, False), (11, True)]
    assert [text for _, _, text in architecture.absolute_imports(str(pkg))] == ["import pkg.sub.other"]
    assert architecture.rooms(architecture.graph(str(pkg))) == {
        "pkg": [], "sub": ["pkg", "top2"], "top": ["pkg", "sub"], "top2": []}


def test_rooms_that_import_each_other_are_layered_with_the_fewest_imports_up():
    # A chain of rooms down, each importing the next (twice), and one import
    # back up from the last to the first: only that one goes up, for a few
    # rooms (every order tried) and for many (greedily).
    for n in (3, 8):
        chain = ["r%d" % i for i in range(n)]
        weight = {(a, b): 2 for a, b in zip(chain, chain[1:])}
        weight[(chain[-1], chain[0])] = 1
        assert architecture._order_component(sorted(chain, reverse=True), weight) == tuple(chain)


# --- the package's own rules ----------------------------------------------------------------


def test_the_firmware_imports_its_own_modules_relatively():
    found = architecture.absolute_imports()
    assert not found, "firmware/tactictoe/ imports itself by name (a board installs it anywhere: use relative" \
        " imports): %s" % "; ".join("%s:%d %s" % f for f in found)


def test_an_import_by_the_packages_name_is_found(tmp_path):
    copy = _copy(tmp_path)
    files = architecture.modules(str(copy))
    top = next(m for m in sorted(files) if m.count(".") == 1 and not files[m].endswith("__init__.py"))
    with open(files[top], "a") as f:
        f.write('\n\ndef _named():\n    """import tactictoe.x is words here."""\n'
                '    from tactictoe.games import rules  # noqa\n    return "import tactictoe"\n')
    found = architecture.absolute_imports(str(copy))
    assert [(path, text) for path, _, text in found] == [
        (os.path.relpath(files[top], str(tmp_path)), "from tactictoe.games import rules")]


def test_no_module_is_named_for_where_it_was_cut_off():
    assert architecture.heap_names() == [], "name each module for what it holds (docs/architecture.md)"


@pytest.mark.parametrize("name", ["rules_extra", "table_extras", "app_more", "misc", "board_utils", "words_helpers",
                                  "config_part2", "app_2", "score_new", "common"])
def test_a_heap_name_is_caught(name):
    assert architecture.HEAP_NAME.search(name)


@pytest.mark.parametrize("name", ["crc32", "sh1106", "is31fl3731", "config_parts", "config_fields", "puzzlecheck",
                                  "on_micropython", "sentences", "simple", "records", "partner"])
def test_a_name_for_what_it_holds_passes(name):
    assert not architecture.HEAP_NAME.search(name)


# --- the picture ------------------------------------------------------------------------------


def test_the_picture_is_what_the_code_draws_now(tmp_path):
    out = tmp_path / "architecture.svg"
    architecture.write(str(out))
    with open(PICTURE, "rb") as f:
        committed = f.read()
    same = out.read_bytes() == committed
    assert same, "docs/architecture.svg is not what the firmware's imports draw now: run `make architecture`" \
        " and commit docs/architecture.svg"


def test_the_picture_shows_every_room_and_every_import_between_rooms():
    text = architecture.draw()
    assert architecture.draw() == text  # the same code, the same bytes
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    shown = {el.text for el in root.iter(ns + "text")}
    g = architecture.graph()
    folded = architecture.rooms(g)
    for room, mods in architecture.members(g).items():
        assert room + "/" in shown or "%s.py" % room in shown or room == "tactictoe" and "__init__.py" in shown, room
    arrows = sorted(tuple(el.find(ns + "title").text.split(":")[0].split(" \u2192 ")) for el in root.iter(ns + "path")
                    if el.find(ns + "title") is not None)
    assert arrows == sorted((a, b) for a in folded for b in folded[a])


def test_the_command_writes_the_picture_and_says_a_failure_in_one_line(tmp_path):
    out = tmp_path / "a.svg"
    r = subprocess.run([sys.executable, "-m", "host_tools.architecture", "-o", str(out)], cwd=architecture.ROOT,
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    assert out.read_text() == architecture.draw()
    assert r.stdout.startswith("wrote %s: " % out), r.stdout
    r = subprocess.run([sys.executable, "-m", "host_tools.architecture", "-o", str(tmp_path)], cwd=architecture.ROOT,
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 1 and r.stderr.startswith("error: cannot write %s: " % tmp_path), r.stderr
    assert len(r.stderr.splitlines()) == 1, r.stderr
