"""``config.load`` never raises, whatever board.json holds: any JSON value at
any key, any bytes, any encoding, any size. Proven on the real MicroPython
Unix port in a small heap (as a board's power-on calls it) and on CPython
(the host tools); and the host tools say what is wrong in one line."""

import copy
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from tactictoe import config
from conftest import HANG_S, CPYTHON, FIRMWARE, PACKAGE, MICROPYTHON, MPY_SCRIPTS, cross_compile

SCRIPT = os.path.join(MPY_SCRIPTS, "config_load.py")
# Far less than a board has: a load must not need much. (In 32k, whether a
# 4 KB file could still be read depended on where earlier objects had landed,
# which moved with the length of the checkout's path.)
HEAP = "40k"


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """config.py (and config_parts.py, for the bought boards' keys)
    cross-compiled, as a board gets it (compiling the source would take more
    heap than loading a config)."""
    out = tmp_path_factory.mktemp("mpy")
    cross_compile([os.path.join(PACKAGE, n) for n in ("__init__.py", "config.py", "config_parts.py")],
                  out / "tactictoe")
    return str(out)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20)

KEY_PATHS = [(k,) for k in config.DEFAULT] + [("leds", k) for k in config.DEFAULT["leds"]] + \
    [("input", k) for k in ("kind", "pins", "rows", "cols", "threshold", "direction")] + \
    [("colours",), ("timing",), ("colours", "x"), ("timing", "scan_ms")] + \
    [("extra",), ("encoder",), ("screen",), ("leds", "kind"), ("leds", "count"), ("leds", "sck"), ("input", "keys"),
     ("input", "address"), ("screen", "dc"), ("encoder", "pins"), ("buzzer", "enable")]


def _shipped(name):
    with open(os.path.join(FIRMWARE, "boards", name + ".json")) as f:
        return json.load(f)


# The configs altered: the default and the bought boards' (their newer keys).
BASES = [config.DEFAULT, _shipped("macropad"), _shipped("keypad")]


@st.composite
def altered_configs(draw):
    """A shipped config with one key (at any depth) set to any JSON value."""
    raw = copy.deepcopy(draw(st.sampled_from(BASES)))
    path = draw(st.sampled_from(KEY_PATHS))
    at = raw
    for k in path[:-1]:
        if not isinstance(at.get(k), dict):  # (a buzzer's pin becomes an object)
            at[k] = {}
        at = at[k]
    at[path[-1]] = draw(json_values)
    return json.dumps(raw).encode()


def _encoded(value):
    try:
        return json.dumps(value).encode()
    except (TypeError, ValueError):  # not every value hypothesis draws is JSON
        return b"null"


contents = st.one_of(
    altered_configs(),
    json_values.map(_encoded),
    st.binary(max_size=300),
    st.sampled_from([
        b"[" * 50000,  # unclosed nesting, far past the size limit
        b"[" * 4000,  # unclosed nesting within it
        b"{" * 3000 + b"}" * 3000,
        b" " * 3 * 1024 * 1024,  # 3 MB
        json.dumps(config.DEFAULT).encode("utf-16"),
        b"\xef\xbb\xbf" + json.dumps(config.DEFAULT).encode(),  # UTF-8 with a byte-order mark
        b"\xff\xfe\x00",
        b"",
    ]),
)


def _load_all(tmp_path, files, platform, interpreter, compiled, heap=HEAP):
    folder = tmp_path / ("in-%d" % len(os.listdir(tmp_path)))
    folder.mkdir()
    for i, data in enumerate(files):
        (folder / ("%03d.json" % i)).write_bytes(data)
    if interpreter == "micropython":
        cmd = [MICROPYTHON, "-X", "heapsize=" + heap, SCRIPT, str(folder), platform]
        env = dict(os.environ, MICROPYPATH=compiled)
    else:
        cmd = [sys.executable, SCRIPT, str(folder), platform]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([FIRMWARE, CPYTHON]))
    r = subprocess.run(cmd, capture_output=True, env=env, timeout=HANG_S)
    r.stdout, r.stderr = (b.decode(errors="backslashreplace") for b in (r.stdout, r.stderr))
    assert r.returncode == 0, "config.load raised:\n" + r.stdout[-500:] + r.stderr[-2000:]
    # (a warning about sloppy JSON starts with the file's path; results with its name)
    lines = [line for line in r.stdout.splitlines() if not line.startswith(str(folder))]
    assert len(lines) == len(files)
    return [line.split(" ", 2) for line in lines]


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
@given(files=st.lists(contents, min_size=1, max_size=12), platform=st.sampled_from(["rp2", "esp32", "linux"]))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
def test_load_returns_for_any_file(tmp_path, compiled, interpreter, files, platform):
    for name, outcome, problem in _load_all(tmp_path, files, platform, interpreter, compiled):
        assert outcome in ("used", "default")
        assert (problem == "-") == (outcome == "used")
        assert "\n" not in problem


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_what_broke_boards_gets_its_own_line(tmp_path, compiled, interpreter):
    good = json.dumps(config.DEFAULT).encode()
    files = [
        json.dumps(dict(config.DEFAULT, board={"a": 1})).encode(),
        json.dumps(dict(config.DEFAULT, board=[])).encode(),
        json.dumps(dict(config.DEFAULT, board=[1])).encode(),
        json.dumps(dict(config.DEFAULT, runtime=["micropython"])).encode(),
        b"\xc3\x28" + good,
        good.decode().encode("utf-16"),
        b"[" * 50000,
        b" " * (2 * 1024 * 1024) + good,
        b"[" * 4000,
        b"\xef\xbb\xbf" + good,
        json.dumps(dict(config.DEFAULT,
                        leds=dict(config.DEFAULT["leds"], order=[[], 1, 2, 3, 4, 5, 6, 7, 8]))).encode(),
    ]
    got = _load_all(tmp_path, files, "rp2", interpreter, compiled)
    assert [g[1] for g in got] == ["default"] * 9 + ["used", "default"]
    problems = [g[2] for g in got]
    for i in range(3):
        assert ("board: expected one of esp32-devkit, keybow2040, macropad, pico, pico-rgb-keypad, or leave it out,"
                " got " in problems[i])
    assert "runtime: expected one of" in problems[3]
    assert "is not UTF-8 text" in problems[4] and "is not UTF-8 text" in problems[5]
    assert "is over 4096 bytes, too big for a board config" in problems[6]
    assert "is over 4096 bytes, too big for a board config" in problems[7]
    assert "is not valid JSON" in problems[8]
    assert got[9][1] == "used"  # a byte-order mark is not an error
    assert "leds.order: a list must hold each pixel 0-8 exactly once" in problems[10]
    assert all(p.endswith("using the default pico-buttons config") for p in problems[:9] + problems[10:])


@pytest.mark.parametrize("command", [["flash", "--port", "/dev/ttyNOPE0", "--board"],
                                     ["hardware", "-o", "OUT", "--board"], ["sim", "--board"]])
def test_host_tools_say_what_is_wrong_with_a_config_in_one_line(tmp_path, command):
    command = [str(tmp_path / "out") if a == "OUT" else a for a in command]
    good = json.dumps(config.DEFAULT)
    cases = {
        "list.json": (json.dumps(dict(config.DEFAULT, board=[])), "board: expected one of"),
        "latin1.json": (good.replace("pico-buttons", "pico-bütton").encode("latin-1"),
                        "is not UTF-8 text (can't decode byte 0xfc at position"),
        "deep.json": ("[" * 100000 + "]" * 100000, ""),
        "order.json": (json.dumps(dict(config.DEFAULT, leds=dict(config.DEFAULT["leds"], order=[[]] * 9))),
                       "leds.order: a list must hold each pixel 0-8 exactly once"),
    }
    for name, (text, want) in cases.items():
        path = tmp_path / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        r = subprocess.run([sys.executable, "-m", "host_tools"] + command + [str(path)], cwd=os.path.dirname(FIRMWARE),
                           capture_output=True, text=True, timeout=HANG_S)
        assert r.returncode != 0, (name, r.stdout)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ") and str(path) in r.stderr, (name, r.stderr)
        assert want in r.stderr, (name, r.stderr)
    assert not (tmp_path / "out").exists()


def _power_on(folder, monkeypatch, refuse):
    """startup.power_on with the hardware layer replaced: ``refuse(cfg)``
    says whether it fails to start with ``cfg``."""
    from tactictoe import startup

    opened = []

    def open_hardware(cfg):
        if refuse(cfg):
            raise ValueError("invalid pin")
        opened.append(cfg)
        return object()

    monkeypatch.setattr(startup, "open_hardware", open_hardware)
    monkeypatch.setattr(startup, "runtime", lambda cfg: "micropython")  # as on a MicroPython board
    monkeypatch.setattr(startup, "centre_held", lambda hw: False)
    monkeypatch.setattr(startup, "load_tables", lambda folder: ({}, {}))
    return startup.power_on(str(folder)), opened


@pytest.mark.parametrize("runtime", ["micropython", "circuitpython"])
def test_hardware_that_will_not_start_falls_back_to_the_default(tmp_path, monkeypatch, runtime):
    """A board.json that validates but the hardware refuses (for this
    runtime or, with its own problem, for another): power-on says so and
    plays with the default (built only on this path)."""
    cfg = copy.deepcopy(config.default_for(runtime))
    cfg["name"] = "my board"
    (tmp_path / "board.json").write_text(json.dumps(cfg))
    parts, opened = _power_on(tmp_path, monkeypatch, lambda c: c["name"] == "my board")
    problem = parts[4]
    assert problem.startswith("board.json: the hardware would not start with it (ValueError('invalid pin'")
    assert problem.endswith("using the default %s config" % config.DEFAULT["name"])
    assert [c["name"] for c in opened] == [config.DEFAULT["name"]] and parts[1] == opened[0]


def test_a_default_the_hardware_refuses_is_said_and_raised(tmp_path, monkeypatch, capsys):
    (tmp_path / "board.json").write_text(json.dumps(config.DEFAULT))
    with pytest.raises(ValueError):
        _power_on(tmp_path, monkeypatch, lambda c: True)
    assert "the default %s config does not fit this board either" % config.DEFAULT["name"] in capsys.readouterr().out
    (tmp_path / "board.json").write_text("{")  # a broken file: load() already fell back to the default
    with pytest.raises(ValueError):
        _power_on(tmp_path, monkeypatch, lambda c: True)


@given(value=json_values, indent=st.sampled_from([None, 0, 2]))
def test_strict_json_is_never_called_sloppy(value, indent):
    assert config.strict_problem(json.dumps(value, indent=indent)) is None


@given(value=json_values, which=st.integers(0, 10**6), cut=st.sampled_from([",", ":"]))
def test_a_dropped_comma_or_colon_is_named(value, which, cut):
    text = json.dumps(value, indent=1)
    # Only the separators outside strings: json.dumps puts ", " / ": " there,
    # and with indent=1 every comma ends its line.
    at = [i for i in range(len(text)) if text[i] == cut and text[i + 1:i + 2] in ("\n", " ")
          and (cut == "," and text[i + 1] == "\n" or cut == ":" and text[i - 1] == '"')]
    assume(at)
    i = at[which % len(at)]
    problem = config.strict_problem(text[:i] + text[i + 1:])
    assert problem and ("missing comma" in problem if cut == "," else "missing colon" in problem), problem


PINS = b'"pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]'
SLOPPY = [
    (b'{"leds": {"pin": 16} "input": {"kind": "buttons", ' + PINS + b'}}', "a missing comma, line 1"),
    (b'{"leds": {"pin": 16},,\n "input": {"kind": "buttons", ' + PINS + b'}}', "an extra comma, line 1"),
    (b'{"leds": {"pin": 16},\n "input": {"kind" "buttons", ' + PINS + b'}}', "a missing colon, line 2"),
    (b'{"leds": {"pin": 16},\n "input": {"kind": "buttons", ' + PINS.replace(b"[2,", b"[02,") + b'}}',
     "a number with a leading zero, line 2"),
    (b'{"leds": {"pin": 16, "brightness": 1.},\n "input": {"kind": "buttons", ' + PINS + b'}}',
     "a number with no digit after its point, line 1"),
    (b'{"leds": {"pin": 16},\n "name": "my \\uZZZZ board", "input": {"kind": "buttons", ' + PINS + b'}}',
     "a \\u not followed by 4 hex digits, line 2"),
    (b'{"name": "my\\qboard", "leds": {"pin": 16},\n "input": {"kind": "buttons", ' + PINS + b'}}',
     "an escape JSON does not have, line 1"),
    (b'{"name": "my\tboard", "leds": {"pin": 16},\n "input": {"kind": "buttons", ' + PINS + b'}}',
     "a control character in a string, line 1"),
]


@pytest.mark.parametrize("data, words", SLOPPY)
def test_json_only_micropython_reads_is_named(data, words):
    """CPython's json (as the host's tools) refuses each; strict_problem names it."""
    with pytest.raises(ValueError):
        json.loads(data)
    assert config.strict_problem(data.decode()) == words


def test_the_board_warns_of_json_only_micropython_reads(tmp_path, compiled):
    """MicroPython's json reads these as meant; the host's tools refuse them,
    so the board says so at power-on, naming the line."""
    folder = tmp_path / "sloppy"
    folder.mkdir()
    for i, (data, _) in enumerate(SLOPPY):
        (folder / ("%d.json" % i)).write_bytes(data)
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=" + HEAP, SCRIPT, str(folder), "rp2"], capture_output=True,
                       text=True, env=dict(os.environ, MICROPYPATH=compiled), timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    for i, (_, words) in enumerate(SLOPPY):
        assert "%d.json used -" % i in r.stdout, r.stdout
        assert ("%s/%d.json: not strict JSON (%s): this board reads it,"
                " but make flash and other tools will refuse it" % (folder, i, words)) in r.stdout, r.stdout
        with pytest.raises(ValueError):  # as the host's tools do
            json.loads(SLOPPY[i][0])


# The bought boards' configs are longer and load config_parts beside config:
# 44k is the least that reads the MacroPad's CircuitPython one here; 48k is
# still under a quarter of the heap of these RP2040 boards.
BOUGHT_HEAP = "48k"


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_the_bought_boards_configs_load_in_a_small_heap(tmp_path, compiled, interpreter):
    """Their keys are checked by config_parts, which only they load; each
    in a power-on of its own (a board loads one config, then unloads both)."""
    for name in ["macropad", "circuitpython-macropad", "keypad", "circuitpython-keypad", "keybow",
                 "circuitpython-keybow"]:
        with open(os.path.join(FIRMWARE, "boards", name + ".json"), "rb") as f:
            got = _load_all(tmp_path, [f.read()], "rp2", interpreter, compiled, heap=BOUGHT_HEAP)
        assert got[0][1:] == ["used", "-"], name
