"""``python -m host_tools`` as a user runs it."""

import json
import os
import subprocess
import sys
import zlib

import pytest

from conftest import HANG_S, ROOT, one_line_error, run_cli
from tactictoe import rules


run = run_cli
_one_line_error = one_line_error


def test_solve_tactictoe_prints_its_facts(tmp_path, solutions):
    out = tmp_path / "tactictoe.tbl"
    r = run("solve", "--game", "tactictoe", "-o", out)
    assert r.returncode == 0, r.stderr
    assert "positions:   128170 reachable (116074 non-terminal)" in r.stdout
    assert "records:     14518" in r.stdout
    assert "bytes:       58088" in r.stdout
    assert "empty board: X to move, wins in 7 moves" in r.stdout
    assert out.read_bytes() == solutions[rules.TACTICTOE].table_bytes()
    assert os.listdir(tmp_path) == ["tactictoe.tbl"]


def test_solve_classic(tmp_path):
    out = tmp_path / "c.tbl"
    r = run("solve", "--game", "classic", "-o", out)
    assert r.returncode == 0, r.stderr
    assert "records:     627" in r.stdout and "bytes:       2524" in r.stdout
    assert "empty board: X to move, draw" in r.stdout
    assert out.stat().st_size == 2524


def test_inspect_empty_tactictoe(table_files):
    r = run("inspect", table_files[rules.TACTICTOE])
    assert r.returncode == 0, r.stderr
    assert "TTTB version 1, tactictoe, 14518 records, 58088 bytes" in r.stdout
    assert "to move:  X, wins in 7 moves" in r.stdout
    for cell in range(9):
        want = "wins in 7 moves" if cell in (1, 3, 5, 7) else "draw"
        assert "  %d: %s\n" % (cell, want) in r.stdout


def test_inspect_after_moves_shows_board_and_values(table_files):
    r = run("inspect", table_files[rules.TACTICTOE], "--moves", "1,4,0,3,5,2,7")
    assert r.returncode == 0, r.stderr
    # X: 0 (leaves next), 5, 7; O: 4 (leaves next), 3, 2
    assert "board:    x 1 O\n          O o X\n          6 X 8\n" in r.stdout
    assert "to move:  O, wins in 2 moves" in r.stdout
    assert "  1: wins in 2 moves\n  6: loses: X wins in 4 moves\n  8: loses: X wins in 3 moves\n" in r.stdout


def test_inspect_json(table_files):
    r = run("inspect", table_files[rules.TACTICTOE], "--moves", "1", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    with open(table_files[rules.TACTICTOE], "rb") as f:
        crc = "%08x" % zlib.crc32(f.read()[16:])
    assert doc["header"] == {"magic": "TTTB", "version": 1, "game": "tactictoe", "records": 14518,
                             "bytes": 58088, "crc32": crc}
    assert doc["board"] == [None, "X"] + [None] * 7
    assert doc["to_move"] == "O"
    assert doc["value"] == {"outcome": "loss", "plies": 12, "value7": 12}
    assert len(doc["legal_moves"]) == 8
    assert all(m["outcome"] == "loss" for m in doc["legal_moves"])


def test_inspect_finished_game(table_files):
    r = run("inspect", table_files[rules.CLASSIC], "--moves", "4,0,1,2,7")
    assert r.returncode == 0, r.stderr
    assert "result:   game over, X won" in r.stdout
    r = run("inspect", table_files[rules.CLASSIC], "--moves", "4,0,8,2,1,7,6,3,5", "--json")
    doc = json.loads(r.stdout)
    assert doc["over"] and doc["winner"] is None and doc["legal_moves"] == []


@pytest.mark.parametrize("moves, words", [
    ("4,4", "move 2 (cell 4) is illegal: cell 4 is occupied"),
    ("1,9", "move 2 (cell 9) is illegal: cell 9 is not on the board"),
    ("1,x", "expected cells 0-8 separated by commas"),
    ("4,0,1,2,7,8", "move 6 (cell 8) is illegal: the game is over"),
])
def test_inspect_illegal_moves(table_files, moves, words):
    line = _one_line_error(run("inspect", table_files[rules.CLASSIC], "--moves", moves))
    assert words in line


def test_inspect_missing_and_corrupt_files(tmp_path, table_files):
    line = _one_line_error(run("inspect", tmp_path / "nope.tbl"))
    assert "cannot open table" in line and "No such file" in line
    bad = tmp_path / "bad.tbl"
    data = bytearray(open(table_files[rules.CLASSIC], "rb").read())
    data[100] ^= 4
    bad.write_bytes(bytes(data))
    assert "CRC" in _one_line_error(run("inspect", bad))
    bad.write_bytes(bytes(data[:50]))
    assert "truncated" in _one_line_error(run("inspect", bad))
    line = _one_line_error(run("inspect", tmp_path))
    assert "cannot open table" in line


def test_solve_bad_output_paths(tmp_path):
    assert "does not exist" in _one_line_error(run("solve", "--game", "classic", "-o", tmp_path / "no" / "t.tbl"))
    assert "is a folder" in _one_line_error(run("solve", "--game", "classic", "-o", tmp_path))


def test_usage_errors_are_one_line():
    assert "invalid choice" in _one_line_error(run("solve", "--game", "chess", "-o", "x"), status=2)
    assert "required" in _one_line_error(run(), status=2)


def test_output_into_a_closed_pipe_is_quiet(table_files):
    p = subprocess.Popen([sys.executable, "-m", "host_tools", "inspect", table_files[rules.TACTICTOE]],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    p.stdout.read(10)
    p.stdout.close()  # like `| head -c 10`
    err = p.stderr.read().decode()
    p.wait(timeout=HANG_S)
    assert "Traceback" not in err


def test_solve_through_a_symlink_keeps_the_link(tmp_path):
    real, link = tmp_path / "real.tbl", tmp_path / "link.tbl"
    real.write_bytes(b"old")
    link.symlink_to(real)
    assert run("solve", "--game", "classic", "-o", link).returncode == 0
    assert link.is_symlink() and real.stat().st_size == 2524


def test_describe():
    from host_tools.cli import describe
    from tactictoe import ai
    assert describe(ai.WIN | 13) == "wins in 7 moves" and describe(ai.WIN | 1) == "wins in 1 move"
    assert describe(12, "X") == "loses: X wins in 6 moves" and describe(0) == "draw"
    assert describe(0) == "draw"


def test_an_os_error_becomes_one_line_with_its_reason(tmp_path):
    from host_tools.oserrors import reported

    class Mistake(Exception):
        pass

    with pytest.raises(Mistake) as e:
        with reported(Mistake, "cannot write %s" % tmp_path):
            open(tmp_path, "w")
    assert str(e.value) == "cannot write %s: Is a directory" % tmp_path
    assert e.value.__cause__ is None and e.value.__suppress_context__  # no chained traceback
    with reported(Mistake, "cannot write"):  # nothing raised: nothing to report
        pass


def test_solve_reports_an_unwritable_output_in_one_line():
    r = run_cli("solve", "--game", "classic", "-o", "/proc/c.tbl")  # no new files there, even for root
    line = one_line_error(r)
    assert line.startswith("error: cannot write /proc/c.tbl: "), line


def test_help_describes_every_tool():
    r = run("--help")
    assert r.returncode == 0, r.stderr
    description = r.stdout.split("\n\n")[1].replace("\n", " ")
    assert description.startswith("The tic-tac-toe / tactic-toe board's host tools:"), description
    for command in ("solve", "inspect", "sim", "web", "flash", "uf2", "circuitpy", "pictures"):
        assert command in description, command


@pytest.mark.parametrize("content, why", [
    (b"hello\n", "is not JSON (expecting value at line 1 column 1)"),
    (b'{"name": "x",\n', "is not JSON (expecting property name enclosed in double quotes at line 2 column 1)"),
    (b'{"name": "b\xfcttons"}', "is not UTF-8 text (can't decode byte 0xfc at position 11)"),
])
def test_a_board_file_that_is_not_json_is_named_in_one_line(tmp_path, content, why):
    board = tmp_path / "board.json"
    board.write_bytes(content)
    for args in (("uf2", "--board", board, "-o", tmp_path / "t.uf2"),
                 ("hardware", "--board", board, "-o", tmp_path / "hw"),
                 ("sim", "--board", board, "--headless")):
        line = _one_line_error(run(*args))
        assert line.startswith("error: %s %s: a board config is a JSON object" % (board, why)), line
    assert sorted(os.listdir(tmp_path)) == ["board.json"]


def test_inspect_refuses_what_is_not_a_file_before_opening_it(tmp_path):
    fifo = tmp_path / "t.tbl"
    os.mkfifo(fifo)  # nobody writes it: opening it to read would wait forever
    for args in ((fifo,), (fifo, "--verify"), (fifo, "--json")):
        line = _one_line_error(run("inspect", *args))
        assert line == "error: cannot open table %s: it is a FIFO, not a file" % fifo, line
    line = _one_line_error(run("inspect", tmp_path))
    assert line == "error: cannot open table %s: it is a folder, not a file" % tmp_path, line
    line = _one_line_error(run("inspect", "/dev/null"))
    assert line == "error: cannot open table /dev/null: it is a character device, not a file", line


def test_the_host_tools_refuse_exactly_the_configs_a_board_refuses(tmp_path):
    """UTF-16 text, a file over 4096 bytes (a number of 4,300 digits or
    more is one), or a FIFO: a board would use its default config instead
    (the firmware's own ``config.load``, run here), so ``uf2``, ``flash``,
    ``circuitpy``, ``sim`` and ``hardware`` refuse them, in one line,
    before anything is written or opened."""
    from tactictoe import config

    good = json.dumps(config.DEFAULT)
    files = {"utf16.json": (good.encode("utf-16"), "is not UTF-8 text"),
             "padded.json": ((good + " " * 4096).encode(), "is over 4096 bytes, too big for a board config"),
             "digits.json": (good.replace('"buzzer": null', '"buzzer": ' + "7" * 4400).encode(),
                             "is over 4096 bytes, too big for a board config"),
             "nan.json": (good.replace('"brightness": 0.25', '"brightness": NaN').encode(),
                          ": not JSON (NaN is not a JSON value)")}
    for name, (data, why) in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        problem = config.load(str(path))[1]  # (on CPython, whose json takes NaN: the range check refuses it)
        assert problem.endswith("using the default pico-buttons config") and (
            "NaN" in why or problem.startswith("%s %s" % (path, why))), problem
        for args in (("uf2", "--board", path, "-o", tmp_path / "t.uf2"),
                     ("flash", "--port", "/dev/ttyNOPE0", "--board", path),
                     ("circuitpy", "--dest", tmp_path, "--board", path),
                     ("sim", "--board", path, "--headless"),
                     ("hardware", "--board", path, "-o", tmp_path / "hw")):
            line = _one_line_error(run(*args))
            assert line.startswith("error: %s%s%s" % (path, "" if why[0] == ":" else " ", why)), (args, line)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # nobody writes it: reading it would wait forever
    for args in (("uf2", "--board", fifo, "-o", tmp_path / "t.uf2"), ("sim", "--board", fifo, "--headless"),
                 ("flash", "--port", "/dev/ttyNOPE0", "--board", fifo)):
        line = _one_line_error(run(*args))
        assert line == "error: cannot read the board config %s: it is a FIFO (named pipe), not a file" % fifo, line
    assert sorted(os.listdir(tmp_path)) == ["digits.json", "fifo.json", "nan.json", "padded.json", "utf16.json"]
