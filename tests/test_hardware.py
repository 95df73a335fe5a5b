"""hardware/: the build docs are generated from the board configs the
firmware reads, they are up to date, and what they say is what the configs
and the firmware do."""

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

import config
from conftest import DOUBLES, FIRMWARE, MICROPYTHON, MPY_SCRIPTS, ROOT
from host_tools import hardware

HARDWARE = os.path.join(ROOT, "hardware")
BOARDS = sorted(f[:-5] for f in os.listdir(os.path.join(FIRMWARE, "boards")) if f.endswith(".json"))
SVG = "{http://www.w3.org/2000/svg}"


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def shipped(name):
    with open(os.path.join(FIRMWARE, "boards", name + ".json")) as f:
        return json.load(f)


def generated_files(folder):
    out = []
    for dirpath, _, names in os.walk(folder):
        for n in names:
            out.append(os.path.relpath(os.path.join(dirpath, n), folder))
    return sorted(out)


def table_rows(markdown, heading):
    """The rows of the first table after ``heading``, as lists of cells."""
    text = markdown.split(heading, 1)[1]
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif rows:
            break
    return rows[2:]  # without the header and the ---


def texts(svg_text):
    """[(x, y, text)] of every text element."""
    root = ET.fromstring(svg_text)
    return [(float(t.get("x")), float(t.get("y")), t.text) for t in root.iter(SVG + "text")]


# --- the committed docs are what the command writes ------------------------------


def test_hardware_docs_are_up_to_date(tmp_path):
    r = run("hardware", "-o", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "wrote %d files to %s" % (2 * len(BOARDS) + 2, tmp_path)
    fresh = generated_files(tmp_path)
    committed = [f for f in generated_files(HARDWARE) if f != "README.md"]
    assert fresh == committed, "run `make hardware` and commit hardware/"
    for name in fresh:
        with open(os.path.join(HARDWARE, name)) as f:
            assert (tmp_path / name).read_text() == f.read(), "%s is stale: run `make hardware`" % name


def test_every_shipped_board_has_its_folder_and_a_row_in_the_guide():
    with open(os.path.join(HARDWARE, "README.md")) as f:
        guide = f.read()
    for name in BOARDS:
        assert os.path.exists(os.path.join(HARDWARE, name, "wiring.svg"))
        assert "[%s](%s/README.md)" % (name, name) in guide


def test_links_in_the_hardware_docs_resolve():
    for page in [os.path.join(HARDWARE, "README.md"), os.path.join(HARDWARE, "layout.md")] + [
            os.path.join(HARDWARE, b, "README.md") for b in BOARDS]:
        with open(page) as f:
            text = f.read()
        for target in re.findall(r"\]\(([^)#<>]+)(?:#[^)]*)?\)", text):
            if "://" in target:
                continue
            assert os.path.exists(os.path.join(os.path.dirname(page), target)), (page, target)
        for anchor in re.findall(r"\]\(\.\./README\.md#([^)]+)\)", text):
            with open(os.path.join(os.path.dirname(page), "..", "README.md")) as f:
                headings = [h.strip().lower().replace(" ", "-") for h in re.findall(r"^#+ (.+)$", f.read(), re.M)]
            assert anchor in headings, (page, anchor)


# --- what a board's page says is what its config says ------------------------------


@pytest.mark.parametrize("name", BOARDS)
def test_pin_table_matches_the_config(name):
    raw = shipped(name)
    with open(os.path.join(HARDWARE, name, "README.md")) as f:
        page = f.read()
    rows = table_rows(page, "## Pins")
    by_what = {}
    for row in rows:
        by_what.setdefault(row[0], []).append(row)

    def gpio_cell(pin):
        n = pin if isinstance(pin, int) else int(pin[2:])
        return ("GP%d" % n) if raw["board"] == "pico" else ("GPIO%d" % n)

    assert [r[2] for r in by_what["LED data"]] == [gpio_cell(raw["leds"]["pin"])]
    inp = raw["input"]
    if inp["kind"] == "matrix":
        for r, pin in enumerate(inp["rows"]):
            (row,) = by_what["matrix row %d" % r]
            assert row[2] == gpio_cell(pin) and row[1] == " ".join(str(3 * r + c) for c in range(3))
        for c, pin in enumerate(inp["cols"]):
            (row,) = by_what["matrix column %d" % c]
            assert row[2] == gpio_cell(pin) and row[1] == " ".join(str(3 * r + c) for r in range(3))
    else:
        what = "touch pad" if inp["kind"] == "touch" else "button"
        seen = {int(row[1]): row[2].split()[0] for row in by_what[what]}
        assert seen == {cell: gpio_cell(pin) for cell, pin in enumerate(inp["pins"])}
    if raw["buzzer"] is None:
        assert "buzzer" not in by_what
    else:
        assert [r[2] for r in by_what["buzzer"]] == [gpio_cell(raw["buzzer"])]
    if raw["board"] == "pico":  # the physical pins, from the Pico's pinout
        assert by_what["LED data"][0][3] == "pin 21"
        assert by_what["5 V from USB"][0][2:4] == ["VBUS", "pin 40"]
    # the current line quotes this config's cap
    assert "`leds.brightness` (%s here)" % raw["leds"]["brightness"] in page
    assert "more than %d mA" % round(540 * raw["leds"]["brightness"]) in page


@pytest.mark.parametrize("name", BOARDS)
def test_wiring_diagram_shows_every_pin_and_the_chain(name):
    cfg = config.validate(shipped(name))
    with open(os.path.join(HARDWARE, name, "wiring.svg")) as f:
        svg = f.read()
    words = " ".join(t for _, _, t in texts(svg))
    for _, _, pin in hardware.signals(cfg):
        assert hardware.pin_label(cfg, pin) in words
    _check_chain(cfg, svg)


def _check_chain(cfg, svg):
    """Each pixel's label sits in the cell leds.order puts it in, and the
    data arrows run 0 -> 8."""
    items = texts(svg)
    cells = {}
    for x, y, t in items:  # the pixel grid's labels come first (touch pads say "cell N" too)
        if re.fullmatch(r"cell \d", t or ""):
            cells.setdefault(int(t.split()[1]), (x, y))
    pixels = {int(t.split()[1]): (x, y) for x, y, t in items if re.fullmatch(r"pixel \d", t or "")}
    assert len(pixels) == 9
    order = cfg["leds"]["order"]
    for cell in range(9):
        px, py = pixels[order[cell]]
        cx, cy = cells[cell]
        assert px == cx and 0 < py - cy < 30, (cell, order[cell])
    assert svg.count('marker-end="url(#arrow)"') == 9  # DIN and eight DOUT -> DIN links


def test_a_board_without_a_table_key_pins_are_still_drawn(tmp_path):
    raw = shipped("pico-matrix")
    del raw["board"]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(raw))
    r = run("hardware", "--board", str(path), "-o", str(tmp_path / "docs"))
    assert r.returncode == 0, r.stderr
    page = (tmp_path / "docs" / "README.md").read_text()
    assert "| what | cells | GPIO | connect it to |" in page and "Pico pin" not in page
    assert "from %s" % path in page
    svg = (tmp_path / "docs" / "wiring.svg").read_text()
    assert "your board" in svg and "GPIO16" in svg


# --- the guide's bring-up advice is what the firmware does -----------------------------


def test_colour_order_table_fixes_what_the_self_test_shows():
    """Each row of the guide's table: on a chip whose byte order is the
    row's answer, the default config's red, green, blue steps show the row's
    colours (run under MicroPython through the firmware's own hardware layer)."""
    with open(os.path.join(HARDWARE, "README.md")) as f:
        rows = table_rows(f.read(), "### The colours are wrong")
    table = {re.search(r'"(\w{3})"', fix).group(1): seen for seen, fix in rows}
    assert sorted(table) == sorted(["RGB", "RBG", "GRB", "GBR", "BRG", "BGR"])
    r = subprocess.run([MICROPYTHON, os.path.join(MPY_SCRIPTS, "colour_order.py")], capture_output=True, text=True,
                       timeout=60, env=dict(os.environ, MICROPYPATH=":".join([DOUBLES, FIRMWARE, ".frozen"])))
    assert r.returncode == 0, r.stderr
    shown = dict(line.split(": ", 1) for line in r.stdout.splitlines())
    assert shown == table


def test_bring_up_describes_the_firmware_self_test_and_pixel_order():
    import app

    with open(os.path.join(HARDWARE, "README.md")) as f:
        guide = f.read()
    assert "about %.1f seconds" % (app.SELFTEST_MS / 1000) in guide
    assert app.WALK_MS == 90 and "a tenth of a second each" in guide
    assert app.RGB_MS == 250 and "a quarter second each" in guide
    example = re.search(r"`(\[0, 1, 2, 5, 4, 3, 6, 7, 8\])`", guide).group(1)
    assert json.loads(example) == config.pixel_order("serpentine")


# --- a config the board can't wire gets one line --------------------------------------


@pytest.mark.parametrize("board, change, message", [
    ("pico-buttons", {"leds": {"pin": 25}}, "leds.pin: 25 is not on the Pico's header"),
    ("pico-buttons", {"input": {"kind": "touch", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]}},
     "input.kind: the Pico has no touch pads"),
    ("esp32-touch", {"leds": {"pin": 7}}, "leds.pin: GPIO7 belongs to the flash chip"),
    ("esp32-touch", {"leds": {"pin": 34}}, "leds.pin: GPIO34 is input-only"),
    ("esp32-touch", {"leds": {"pin": 20}}, "leds.pin: the ESP32 has no GPIO20"),
    ("esp32-touch", {"input": {"kind": "touch", "pins": [4, 2, 15, 13, 12, 14, 27, 33, 5]}},
     "input.pins[8]: GPIO5 is not a touch pin"),
    ("esp32-touch", {"input": {"kind": "buttons", "pins": [4, 2, 15, 13, 12, 14, 27, 33, 35]}},
     "input.pins[8]: GPIO35 has no internal pull-up"),
    ("esp32-touch", {"buzzer": 1}, "buzzer: GPIO1 is the USB serial console"),
])
def test_pins_that_cannot_work_are_refused_in_one_line(tmp_path, board, change, message):
    raw = shipped(board)
    for key, value in change.items():
        raw[key] = dict(raw[key], **value) if key == "leds" else value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(raw))
    r = run("hardware", "--board", str(path), "-o", str(tmp_path / "out"))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("error: " + message)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists()


def test_unknown_board_and_invalid_config_get_one_line(tmp_path):
    r = run("hardware", "--board", "no-such-board", "-o", str(tmp_path))
    assert r.returncode == 1 and r.stderr.startswith("error: no board 'no-such-board'")
    assert "pico-buttons" in r.stderr and r.stderr.count("\n") == 1
    bad = tmp_path / "b.json"
    bad.write_text('{"leds": {"pin": 16, "order": "zigzag"}, "input": {"kind": "buttons"}}')
    r = run("hardware", "--board", str(bad), "-o", str(tmp_path))
    assert r.returncode == 1 and "leds.order: expected" in r.stderr and r.stderr.count("\n") == 1


def test_a_bright_config_is_warned_about_usb_power():
    cfg = config.validate(dict(shipped("pico-buttons"), leds=dict(shipped("pico-buttons")["leds"], brightness=1.0)))
    page = hardware.page(cfg, "mine.json")
    assert "no frame can draw more than 540 mA" in page and "more than a USB port should be asked for" in page
    assert "USB port should" not in hardware.page(config.validate(shipped("pico-buttons")), "x.json")


# --- any valid Pico config draws right (hypothesis) ---------------------------------------

HEADER = sorted(hardware.PICO_HEADER)


@st.composite
def pico_configs(draw):
    kind = draw(st.sampled_from(["buttons", "matrix"]))
    need = 1 + (9 if kind == "buttons" else 6) + 1
    pins = draw(st.lists(st.sampled_from(HEADER), min_size=need, max_size=need, unique=True))
    order = draw(st.one_of(st.sampled_from(["row-major", "serpentine"]), st.permutations(list(range(9)))))
    inp = {"kind": kind, "pins": pins[1:10]} if kind == "buttons" else {
        "kind": kind, "rows": pins[1:4], "cols": pins[4:7]}
    raw = {"name": "random", "board": "pico", "leds": {"pin": pins[0], "order": order,
                                                       "brightness": draw(st.sampled_from([0.1, 0.25, 0.5, 1.0]))},
           "input": inp, "buzzer": draw(st.sampled_from([None, pins[-1]]))}
    return config.validate(raw)


@settings(max_examples=40, deadline=None)
@given(pico_configs())
def test_any_pico_config_gets_a_consistent_page_and_diagram(cfg):
    hardware.check(cfg)
    page = hardware.page(cfg, "mine.json")
    rows = table_rows(page, "## Pins")
    listed = [r[2] for r in rows if r[0] not in ("5 V from USB", "ground")]
    assert sorted(listed) == sorted(hardware.pin_label(cfg, p) for _, _, p in hardware.signals(cfg))
    physical = [int(r[3].split()[1]) for r in rows if r[0] not in ("5 V from USB", "ground")]
    assert physical == sorted(physical)  # in the order you meet them along the header
    svg = hardware.wiring_svg(cfg)
    _check_chain(cfg, svg)
