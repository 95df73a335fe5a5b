"""``inspect --verify`` proves a table right, and ``flash`` refuses one that
is not, naming the first wrong record: tables that pass every check the
board makes at open (count, order, CRC) and still play wrong."""

import os
import struct
import subprocess
import sys
import zlib

import pytest

from conftest import HANG_S, MICROPYTHON, MPY_SCRIPTS, ROOT, TABLES, compile_package, put_tables
from tactictoe import ai
from tactictoe import rules
from tactictoe import rules_extra
from tactictoe import table_extra
from tactictoe.rules import CLASSIC, TACTICTOE


def _sealed(game, records):
    body = b"".join(struct.pack(">I", r) for r in records)
    return table_extra.pack_header(game, len(records), zlib.crc32(body)) + body


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), cwd=ROOT, capture_output=True,
                          text=True, timeout=HANG_S)


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_the_solvers_tables_verify(table_files, game):
    r = _cli("inspect", "--verify", table_files[game])
    assert r.returncode == 0, r.stderr
    assert "verified: %d %s records" % ({CLASSIC: 627, TACTICTOE: 14518}[game], rules.GAMES[game]) in r.stdout


def _altered(solutions, game):
    """name -> (records, words the message must hold): each passes the
    board's checks at open, but is wrong."""
    recs = [int(r) for r in solutions[game].records]
    i = len(recs) // 2
    flipped = list(recs)
    v = flipped[i] & 0x7F
    flipped[i] = flipped[i] & ~0x7F | (ai.DRAW if v & ai.WIN or v else ai.WIN | 1)
    plies = list(recs)
    j = next(k for k, r in enumerate(recs) if r & ai.WIN and (r & 0x3F) > 1)
    plies[j] += 1  # one ply slower than it is
    key = recs[i] >> 7
    out = {"value flipped": (flipped, "record %d (position %06x" % (i, key >> 1)),
           "plies off by one": (plies, "record %d " % j)}
    keys = set(r >> 7 for r in recs)

    def swapped_in(make, words):
        """A record replaced by a key ``make(pos)`` gives for its position,
        where that key still sorts between its neighbours."""
        for n in range(1, len(recs) - 1):
            code, turn = recs[n] >> 8, recs[n] >> 7 & 1
            for k in make(rules_extra.from_code(game, code, turn)):
                if recs[n - 1] >> 7 < k < recs[n + 1] >> 7 and k not in keys:
                    changed = list(recs)
                    changed[n] = k << 7 | (recs[n] & 0x7F)
                    out[words] = (changed, words)
                    return

    def images(pos):  # the position's other images: the same, not canonical
        for sym in rules_extra.SYMMETRIES:
            x, o = (rules_extra.side_transform(game, side, sym) for side in pos.sides)
            yield rules.encode(game, x, o) << 1 | pos.turn

    def one_x_more(pos):  # X with a mark more than play allows
        for c in range(9):
            if not pos.occupied() >> c & 1:
                more = rules.Position(game, rules.side_place(game, pos.sides[0], c), pos.sides[1], pos.turn)
                if not more.is_over() and len(rules_extra.marks(more, rules.X)) > len(rules_extra.marks(pos, rules.X)):
                    yield more.canonical() << 1 | more.turn

    def other_turn(pos):  # the other side to move, where the marks rule it out
        nx, no = len(rules_extra.marks(pos, rules.X)), len(rules_extra.marks(pos, rules.O))
        if not (nx - no == pos.turn ^ 1 or (game == TACTICTOE and nx == no == 3)):
            yield pos.canonical() << 1 | pos.turn ^ 1

    swapped_in(images, "not in canonical form")
    swapped_in(one_x_more if game == CLASSIC else other_turn, "play can't reach it")
    return out


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_a_wrong_table_is_refused_naming_the_record(solutions, tmp_path, game):
    cases = _altered(solutions, game)
    assert len(cases) == 4, sorted(cases)
    for name, (records, words) in cases.items():
        path = tmp_path / ("%s.tbl" % rules.GAMES[game])
        path.write_bytes(_sealed(game, records))
        r = _cli("inspect", "--verify", str(path))
        assert r.returncode == 1, (name, r.stdout)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: %s: record " % path), (name, r.stderr)
        # A swapped-in record leaves its own position unrecorded: a record
        # before it whose move leads there may be the first one found.
        found = words if words in r.stderr else "leads where the table has nothing"
        assert found in r.stderr and (found == words or name in ("not in canonical form", "play can't reach it")), (
            name, r.stderr)
        # flash refuses it before it looks for a board.
        r = _cli("flash", "--port", "/dev/ttyNOPE0", "--table", rules.GAMES[game], "--tables", str(tmp_path))
        assert r.returncode == 1 and "not flashed" in r.stderr and found in r.stderr, (name, r.stderr)
        assert "/dev/ttyNOPE0" not in r.stderr


@pytest.fixture(scope="module")
def compiled_firmware(tmp_path_factory):
    out = tmp_path_factory.mktemp("mpy")
    compile_package(out)
    return str(out)


def _check_on_micropython(folder, compiled_firmware):
    env = dict(os.environ, MICROPYPATH=compiled_firmware)
    return subprocess.run([MICROPYTHON, "-X", "heapsize=" + CHECK_HEAP, os.path.join(MPY_SCRIPTS, "check_tables.py"),
                           str(folder)], capture_output=True, text=True, env=env, timeout=HANG_S)


CHECK_HEAP = "48k"  # the board's REPL has far more; the check streams the file


def test_the_boards_check_tables_proves_them_in_a_small_heap(solutions, table_files, tmp_path, compiled_firmware):
    good = tmp_path / "good"
    put_tables(good, table_files.values())
    r = _check_on_micropython(good, compiled_firmware)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "ok True"
    assert "tactictoe.tbl: 14518 of 14518 records checked" in r.stdout
    assert "tactictoe.tbl: right: every record canonical" in r.stdout
    # A value altered, CRC made to fit: the board names the record, as the host does.
    bad = tmp_path / "bad"
    (bad / TABLES).mkdir(parents=True)
    records, words = _altered(solutions, CLASSIC)["value flipped"]
    (bad / TABLES / "classic.tbl").write_bytes(_sealed(CLASSIC, records))
    r = _check_on_micropython(bad, compiled_firmware)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "ok False"
    assert words in r.stdout and "tactictoe.tbl: not found" in r.stdout


# --- every way onto a board proves a table (issue 32) -----------------------------------------------------------


@pytest.fixture(scope="module")
def wrong_folder(table_files, tmp_path_factory):
    """A tables folder whose tactic-toe table passes every check the board
    makes at open (its CRC made to fit) but has two records swapped, with
    the right classic table and the puzzles beside it."""
    import shutil

    from conftest import SWAPPED, out_of_order

    d = tmp_path_factory.mktemp("wrong")
    shutil.copy(table_files[CLASSIC], d)
    shutil.copy(os.path.join(os.path.dirname(table_files[CLASSIC]), "puzzles.bin"), d)
    with open(table_files[TACTICTOE], "rb") as f:
        (d / "tactictoe.tbl").write_bytes(out_of_order(f.read(), "swapped"))
    r = _cli("inspect", "--verify", str(d / "tactictoe.tbl"))
    assert r.returncode == 1 and "record %d" % (SWAPPED + 1) in r.stderr, r.stderr  # (the one uf2 refuses)
    return d


def _refused(r, path):
    from conftest import one_line_error

    line = one_line_error(r)
    assert line.startswith("error: %s: record " % path), line
    return line


def test_uf2_and_inspect_and_now_puzzles_and_sim_refuse_the_same_wrong_table(wrong_folder, tmp_path):
    """Issue 32: a CRC-valid wrong table got through ``sim --tables`` and
    ``puzzles --tables`` while ``uf2`` and ``inspect --verify`` refused it.
    One line, status 1, nothing written."""
    path = wrong_folder / "tactictoe.tbl"
    line = _refused(_cli("uf2", "--tables", str(wrong_folder), "-o", str(tmp_path / "x.uf2")), path)
    assert line.endswith("; not flashed (make table writes a right one)")
    _refused(_cli("puzzles", "--tables", str(wrong_folder), "-o", str(tmp_path / "p.bin")), path)
    (tmp_path / "module").mkdir()
    book = tmp_path / "module" / "book.py"  # (a module it can rewrite: the tool checks that first)
    book.write_bytes(open(os.path.join(ROOT, "firmware", "tactictoe", "fallback.py"), "rb").read())
    _refused(_cli("fallback-book", "--tables", str(wrong_folder), "--module", str(book)), path)
    assert book.read_bytes() == open(os.path.join(ROOT, "firmware", "tactictoe", "fallback.py"), "rb").read()
    assert os.listdir(tmp_path / "module") == ["book.py"]
    script = tmp_path / "script.txt"
    script.write_text("wait 100\n")
    flash = tmp_path / "flash"
    line = _refused(_cli("sim", "--replay", str(script), "--flash", str(flash), "--tables", str(wrong_folder)), path)
    assert line.endswith("; not put on the virtual board (make table writes a right one)"), line
    assert sorted(os.listdir(tmp_path)) == ["module", "script.txt"]  # nothing written: no flash, no uf2, no puzzles


def test_the_rp2040_sims_flash_image_proves_its_tables_too(wrong_folder, tmp_path):
    from host_tools import flash
    from host_tools.sim import SimError, pico

    path, cfg, _ = flash.board_config("pico-buttons")
    with pytest.raises(SimError) as info:
        pico.prepare_flash_file(str(tmp_path / "flash.lfs"), cfg, path, tables_dir=str(wrong_folder))
    assert str(info.value).startswith("%s: record " % (wrong_folder / "tactictoe.tbl")), str(info.value)
    assert not (tmp_path / "flash.lfs").exists()


def test_a_puzzle_the_tables_disown_is_refused_where_it_goes_onto_a_board(table_files, tmp_path):
    """The host proves each puzzle against the tables (its value, its
    first moves), past what the board checks: a position the table holds,
    stated a win in 5 where the table says otherwise."""
    import io
    import shutil

    from host_tools import puzzles
    from tactictoe import puzzles as reader

    folder = os.path.dirname(table_files[CLASSIC])
    for name in ("classic.tbl", "tactictoe.tbl"):
        shutil.copy(os.path.join(folder, name), tmp_path)
    with open(os.path.join(folder, "puzzles.bin"), "rb") as f:
        good = f.read()
    assert puzzles.prove_files(good, str(tmp_path)) is None
    r = reader.Puzzles(io.BytesIO(good))
    body = bytearray(good[12:])
    first, _ = r.span(TACTICTOE)
    body[5 * first + 4] = 0x20 | body[5 * first + 4] & 15  # two winning first moves where there is one or two
    if bytes(body) == good[12:]:
        body[5 * first + 4] = 0x10 | body[5 * first + 4] & 15
    bad = good[:6] + struct.pack(">HI", len(body) // 5, zlib.crc32(bytes(body))) + bytes(body)
    (tmp_path / "puzzles.bin").write_bytes(bad)
    reader.Puzzles(io.BytesIO(bad))  # the board's checks can't tell
    wrong = puzzles.prove_files(bad, str(tmp_path))
    assert wrong.startswith("puzzle %d (tactictoe): " % (first + 1)) and "winning and" in wrong, wrong
    r = _cli("uf2", "--tables", str(tmp_path), "-o", str(tmp_path / "x.uf2"))
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr == "error: %s: %s; not flashed (make puzzles writes a right one)\n" % (tmp_path / "puzzles.bin",
                                                                                          wrong)
