"""The score kept on the board (``tactictoe.score``): the class on CPython;
on the real MicroPython Unix port a save, a load, corrupt files, and a save
failing or losing its power at every step (``tests/mpy/score_cut.py``);
CircuitPython's nvm as its RP2040 port writes it (a model of
``ports/raspberrypi/common-hal/nvm/ByteArray.c``, checked against the real
thing in tests/test_score_pico.py).
"""

import os
import re
import sys
import types
import zlib

import pytest
from hypothesis import given, settings, strategies as st

from tactictoe import ai, rules, score
from conftest import run_micropython

ZERO = ((0, 0, 0),) * 6 + ((0, 0, 0),) * 2
UNREADABLE = re.compile(r"^score: (\S+) was unreadable \((.+)\); starting a new score$")


def counts(s):
    return tuple(s.games(g, lv) for g in (rules.CLASSIC, rules.TACTICTOE)
                 for lv in (ai.EASY, ai.MEDIUM, ai.PERFECT)) + tuple(s.two(g) for g in (0, 1))


def puzzles(s):
    return [i for i in range(256) if s.solved(i)], [s.failures(i) for i in range(256)]


def fresh(path, log=None):
    lines = [] if log is None else log
    s = score.Score(str(path), lines.append)
    s.load()
    return s, lines


# --- the class, on CPython ------------------------------------------------------------------------------------


def test_no_file_is_an_empty_score_silently(tmp_path):
    s, log = fresh(tmp_path / "score.bin")
    assert counts(s) == ZERO and s.solved_count() == 0 and log == []
    assert os.listdir(tmp_path) == []


def test_init_does_not_touch_the_filesystem(tmp_path):
    score.Score(str(tmp_path / "nowhere" / "score.bin"), print)  # a folder that doesn't exist
    assert os.listdir(tmp_path) == []


ops = st.lists(st.one_of(
    st.tuples(st.just("record"), st.sampled_from([0, 1]), st.sampled_from([0, 1, 2]), st.sampled_from([0, 1, 2])),
    st.tuples(st.just("two"), st.sampled_from([0, 1]), st.sampled_from([rules.X, rules.O, -1])),
    st.tuples(st.just("solve"), st.integers(0, 255)),
    st.tuples(st.just("fail"), st.integers(0, 255)),
    st.tuples(st.just("save")),
    st.tuples(st.just("reset"))), max_size=60)


@given(ops)
@settings(max_examples=60)
def test_what_is_recorded_is_what_a_fresh_load_reads(tmp_path_factory, ops):
    path = tmp_path_factory.mktemp("score") / "score.bin"
    s, log = fresh(path)
    games, two, solved, fails = {}, {}, set(), [0] * 256
    saved = None
    for op in ops:
        if op[0] == "record":
            games[op[1:]] = games.get(op[1:], 0) + 1
            s.record(*op[1:])
        elif op[0] == "two":
            key = (op[1], 2 if op[2] < 0 else op[2])
            two[key] = two.get(key, 0) + 1
            s.record_two(*op[1:])
        elif op[0] == "solve":
            solved.add(op[1])
            s.solve(op[1])
        elif op[0] == "fail":
            fails[op[1]] += 1
            s.fail(op[1])
        elif op[0] == "reset":
            games, two, solved, fails = {}, {}, set(), [0] * 256
            s.reset()
        else:
            assert s.save() is True
            saved = (counts(s), puzzles(s))
        want = tuple(tuple(games.get((g, lv, r), 0) for r in range(3)) for g in (0, 1) for lv in range(3)) + \
            tuple(tuple(two.get((g, w), 0) for w in range(3)) for g in (0, 1))
        assert counts(s) == want
        assert puzzles(s) == (sorted(solved), fails) and s.solved_count() == len(solved)
    t, log2 = fresh(path)
    assert (counts(t), puzzles(t)) == (saved or (ZERO, ([], [0] * 256)))
    assert log == log2 == []
    assert os.listdir(path.parent) == (["score.bin"] if saved else [])


def test_counters_saturate(tmp_path):
    s, _ = fresh(tmp_path / "score.bin")
    for _ in range(65540):
        s.record(rules.TACTICTOE, ai.PERFECT, score.DRAWN)
    for _ in range(300):
        s.fail(255)
    s.solve(255)
    s.fail(255)  # a solved puzzle stays solved
    assert s.games(rules.TACTICTOE, ai.PERFECT) == (0, 65535, 0)
    assert s.save()
    t, _ = fresh(tmp_path / "score.bin")
    assert t.games(rules.TACTICTOE, ai.PERFECT) == (0, 65535, 0)
    assert t.failures(255) == 255 and t.solved(255) and t.solved_count() == 1


def test_the_file_format(tmp_path):
    """docs/firmware.md's layout, read back by hand."""
    s, _ = fresh(tmp_path / "score.bin")
    s.record(rules.TACTICTOE, ai.MEDIUM, score.LOST)  # index (1 * 3 + 1) * 3 + 2 = 14
    s.record_two(rules.CLASSIC, rules.O)
    s.solve(9)
    s.fail(200)
    s.record(rules.CLASSIC, 3, score.DRAWN)  # level 3 (matched): index 0 * 3 + 1 = 1 at 344
    s.review(rules.TACTICTOE, 7, 11)
    s.set_recent(rules.CLASSIC, 64)
    s.set_setting(rules.TACTICTOE, 30)
    s.save()
    s.save()
    data = (tmp_path / "score.bin").read_bytes()
    assert len(data) == score.SIZE == 380
    assert data[:6] == b"TTSC\x02\x00" and int.from_bytes(data[6:8], "little") == 2  # two saves
    assert int.from_bytes(data[8 + 2 * 14:10 + 2 * 14], "little") == 1 and sum(data[8:44]) == 1
    assert data[44:56] == bytes([0, 0, 1] + [0] * 9)
    assert data[56:88] == bytes([0, 2] + [0] * 30)
    assert data[88 + 200] == 1 and sum(data[88:344]) == 1
    assert data[344:356] == bytes([0, 0, 1] + [0] * 9)
    assert data[356:372] == bytes(4) + (7).to_bytes(4, "little") + bytes(4) + (11).to_bytes(4, "little")
    assert data[372:376] == bytes([65, 0, 0, 31])
    assert int.from_bytes(data[376:], "little") == zlib.crc32(data[:376])
    assert s.accuracy(rules.TACTICTOE) == 11 * 50 // 7 and s.accuracy(rules.CLASSIC) == -1
    assert s.recent(rules.CLASSIC) == 64 and s.recent(rules.TACTICTOE) == -1
    assert s.setting(rules.TACTICTOE) == 30 and s.setting(rules.CLASSIC) == -1


def _version1(body):
    """A version 1 record (348 bytes) with ``body``'s bytes 8-343."""
    rec = bytearray(b"TTSC\x01\x00\x05\x00") + bytearray(body[8:344])
    return bytes(rec) + zlib.crc32(rec).to_bytes(4, "little")


def test_an_older_firmware_s_version_1_record_is_taken_over(tmp_path):
    """A 348-byte version 1 file: its counts kept, the new ones 0, and the
    next save writes version 2 (380 bytes) over it."""
    body = bytearray(344)
    body[8 + 2 * 14] = 3  # tactic-toe, medium, lost: 3
    body[56] = 0b100  # puzzle 2 solved
    (tmp_path / "score.bin").write_bytes(_version1(body))
    s, log = fresh(tmp_path / "score.bin")
    assert log == [] and s.games(rules.TACTICTOE, ai.MEDIUM) == (0, 0, 3) and s.solved(2)
    assert s.games(rules.TACTICTOE, 3) == (0, 0, 0) and s.accuracy(rules.TACTICTOE) == -1
    assert s.setting(rules.CLASSIC) == -1 and s.recent(rules.TACTICTOE) == -1
    s.record(rules.CLASSIC, 3, score.WON)
    assert s.save() and os.listdir(tmp_path) == ["score.bin"]
    data = (tmp_path / "score.bin").read_bytes()
    assert len(data) == 380 and data[4] == 2
    t, log = fresh(tmp_path / "score.bin")
    assert log == [] and t.games(rules.TACTICTOE, ai.MEDIUM) == (0, 0, 3) and t.games(rules.CLASSIC, 3) == (1, 0, 0)
    bad = bytearray(_version1(body))
    bad[100] ^= 1
    (tmp_path / "score.bin").write_bytes(bytes(bad))
    s, log = fresh(tmp_path / "score.bin")
    assert counts(s) == ZERO and len(log) == 1 and "CRC-32 mismatch" in log[0]


def _valid(tmp_path):
    s, _ = fresh(tmp_path / "score.bin")
    s.record(rules.CLASSIC, ai.EASY, score.WON)
    s.solve(3)
    s.save()
    return (tmp_path / "score.bin").read_bytes()


corruptions = st.one_of(
    st.lists(st.tuples(st.integers(0, 347), st.integers(1, 255)), min_size=1, max_size=8).map(lambda xs: ("xor", xs)),
    st.integers(0, 347).map(lambda n: ("cut", n)),
    st.binary(min_size=1, max_size=64).map(lambda b: ("append", b)),
    st.binary(max_size=700).map(lambda b: ("replace", b)))


def corrupt(data, how):
    kind, arg = how
    if kind == "xor":
        data = bytearray(data)
        for i, x in arg:
            data[i] ^= x
        return bytes(data)
    if kind == "cut":
        return data[:arg]
    if kind == "append":
        return data + arg
    return arg


@given(corruptions)
@settings(max_examples=200)
def test_any_corrupt_file_is_an_empty_score_and_one_line(tmp_path_factory, how):
    d = tmp_path_factory.mktemp("score")
    good = _valid(d)
    bad = corrupt(good, how)
    if bad == good:
        return
    (d / "score.bin").write_bytes(bad)
    s, log = fresh(d / "score.bin")
    assert counts(s) == ZERO and puzzles(s) == ([], [0] * 256)
    assert len(log) == 1 and UNREADABLE.match(log[0]).group(1) == str(d / "score.bin"), log
    s.record(rules.CLASSIC, ai.EASY, score.WON)
    assert s.save()  # the bad file is replaced
    t, log = fresh(d / "score.bin")
    assert t.games(rules.CLASSIC, ai.EASY) == (1, 0, 0) and log == []


def test_a_leftover_temporary_file_is_removed(tmp_path):
    good = _valid(tmp_path)
    (tmp_path / "score.bin.tmp").write_bytes(good[:100])
    s, log = fresh(tmp_path / "score.bin")
    assert s.games(rules.CLASSIC, ai.EASY) == (1, 0, 0) and log == []
    assert os.listdir(tmp_path) == ["score.bin"]


def test_a_whole_temporary_file_without_the_score_file_is_taken(tmp_path):
    """A save cut between FAT's remove and its rename."""
    good = _valid(tmp_path)
    os.rename(tmp_path / "score.bin", tmp_path / "score.bin.tmp")
    s, log = fresh(tmp_path / "score.bin")
    assert s.games(rules.CLASSIC, ai.EASY) == (1, 0, 0) and s.solved(3) and log == []
    assert os.listdir(tmp_path) == ["score.bin"] and (tmp_path / "score.bin").read_bytes() == good


def test_a_broken_temporary_file_alone_is_dropped_silently(tmp_path):
    good = _valid(tmp_path)
    os.remove(tmp_path / "score.bin")
    (tmp_path / "score.bin.tmp").write_bytes(good[:-1])
    s, log = fresh(tmp_path / "score.bin")
    assert counts(s) == ZERO and log == [] and os.listdir(tmp_path) == []


def test_a_flash_that_cannot_be_written_keeps_the_old_file_and_the_ram_copy(tmp_path, monkeypatch):
    good = _valid(tmp_path)
    s, log = fresh(tmp_path / "score.bin")
    s.record(rules.TACTICTOE, ai.PERFECT, score.LOST)
    real_open = open

    def full(path, mode="r", *a):
        if "w" in mode:
            f = real_open(path, mode, *a)
            f.write(b"x" * 10)
            f.close()
            raise OSError(28, "No space left on device")
        return real_open(path, mode, *a)

    monkeypatch.setattr(score, "open", full, raising=False)
    assert s.save() is False
    assert len(log) == 1 and log[0].startswith("score: %s not saved (" % (tmp_path / "score.bin"))
    assert s.games(rules.TACTICTOE, ai.PERFECT) == (0, 0, 1)
    assert os.listdir(tmp_path) == ["score.bin"] and (tmp_path / "score.bin").read_bytes() == good
    monkeypatch.undo()
    assert s.save() is True
    assert fresh(tmp_path / "score.bin")[0].games(rules.TACTICTOE, ai.PERFECT) == (0, 0, 1)


def test_a_rename_that_wont_replace_a_file_removes_it_first(tmp_path, monkeypatch):
    _valid(tmp_path)
    s, log = fresh(tmp_path / "score.bin")
    s.record(rules.CLASSIC, ai.MEDIUM, score.DRAWN)

    def fat_rename(old, new):
        if os.path.exists(new):
            raise OSError(17, "File exists")
        os.replace(old, new)

    monkeypatch.setattr(score.os, "rename", fat_rename)
    assert s.save() and log == []
    monkeypatch.undo()
    assert fresh(tmp_path / "score.bin")[0].games(rules.CLASSIC, ai.MEDIUM) == (0, 1, 0)
    assert os.listdir(tmp_path) == ["score.bin"]


def test_load_never_raises(tmp_path):
    (tmp_path / "score.bin").mkdir()  # a folder where the file should be
    s, log = fresh(tmp_path / "score.bin")
    assert counts(s) == ZERO and len(log) == 1 and UNREADABLE.match(log[0])
    assert s.save() is False and len(log) == 2


def test_an_unreadable_score_is_said_in_words_never_a_bare_number(tmp_path, monkeypatch):
    """Issue 32: "score.bin was unreadable (40)". The reason is words."""
    from tactictoe import oserrors

    os.symlink("score.bin", str(tmp_path / "score.bin"))  # a loop: ELOOP
    s, log = fresh(tmp_path / "score.bin")
    assert log == ["score: %s was unreadable (a loop of symbolic links); starting a new score"
                   % (tmp_path / "score.bin")]
    for n in (5, 28, 30, 13, 99):
        assert not re.search(r"\d", oserrors.words(OSError(n, "x"))) or n == 99, n  # (99: none a flash gives)
    assert oserrors.words(OSError(99, "x")) == "filesystem error 99"


def test_a_short_write_is_a_full_flash_in_words(tmp_path, monkeypatch):
    real_open = open

    class Short:
        def __init__(self, f):
            self.f = f

        def write(self, b):
            return self.f.write(bytes(b)[:10])

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(score, "open", lambda p, m="r": Short(real_open(p, m)) if "w" in m else real_open(p, m),
                        raising=False)
    s, log = fresh(tmp_path / "score.bin")
    assert s.save() is False and log[0].endswith("not saved (the flash is full); the score is kept until power-off")
    assert os.listdir(tmp_path) == []


# --- CircuitPython's nvm ----------------------------------------------------------------------------------------

PAGE = 256


class PowerCut(BaseException):
    pass


class Nvm:
    """``microcontroller.nvm`` on CircuitPython 10.2.1's RP2040 port
    (ports/raspberrypi/common-hal/nvm/ByteArray.c): 4096 bytes, one flash
    sector. A write onto bytes that are all 0xFF programs the 256-byte
    pages they span (``write_page``); any other write erases the sector and
    programs it whole (``erase_and_write_sector``), page by page as the
    flash does. ``cut_at``: the power fails just before that operation."""

    def __init__(self):
        self.flash = bytearray(b"\xff" * 4096)
        self.ops = []
        self.cut_at = None

    def __len__(self):
        return len(self.flash)

    def __getitem__(self, index):
        return bytearray(self.flash[index])

    def _op(self, kind, at, data=None):
        if self.cut_at is not None and len(self.ops) + 1 == self.cut_at:
            raise PowerCut()
        self.ops.append(kind)
        if kind == "erase":
            self.flash[:] = b"\xff" * 4096
        else:
            for i, b in enumerate(data):
                self.flash[at + i] &= b  # NOR flash only clears bits

    def __setitem__(self, index, value):
        start, stop, _ = index.indices(len(self.flash))
        assert len(value) == stop - start
        if min(self.flash[start:stop]) == 0xFF:
            for page in range(start - start % PAGE, stop, PAGE):
                buf = bytearray(self.flash[page:page + PAGE])
                lo, hi = max(start, page), min(stop, page + PAGE)
                buf[lo - page:hi - page] = value[lo - start:hi - start]
                self._op("program", page, buf)
        else:
            buf = bytearray(self.flash)
            buf[start:stop] = value
            self._op("erase", 0)
            for page in range(0, 4096, PAGE):
                self._op("program", page, buf[page:page + PAGE])


@pytest.fixture
def circuitpython(monkeypatch):
    """A CircuitPython whose drive is read-only to code: ``microcontroller.nvm``
    and ``storage.getmount("/").readonly``."""
    nvm = Nvm()
    drive = types.SimpleNamespace(readonly=True)
    monkeypatch.setitem(sys.modules, "microcontroller", types.SimpleNamespace(nvm=nvm))
    monkeypatch.setitem(sys.modules, "storage", types.SimpleNamespace(getmount=lambda path: drive))
    return nvm, drive


def test_circuitpython_keeps_the_score_in_nvm_unless_the_drive_is_writable(circuitpython, tmp_path):
    nvm, drive = circuitpython
    s, log = fresh(tmp_path / "score.bin")
    s.record(rules.TACTICTOE, ai.EASY, score.WON)
    assert s.save() and os.listdir(tmp_path) == [] and nvm.ops == ["program"] * 2  # 380 bytes: pages 0 and 1
    assert fresh(tmp_path / "score.bin")[0].games(rules.TACTICTOE, ai.EASY) == (1, 0, 0)
    drive.readonly = False  # boot.py remounted it: the file
    s, log = fresh(tmp_path / "score.bin")
    assert counts(s) == ZERO and log == []
    s.record(rules.CLASSIC, ai.EASY, score.LOST)
    assert s.save() and os.listdir(tmp_path) == ["score.bin"] and len(nvm.ops) == 2


def test_nvm_saves_program_erased_slots_and_erase_once_the_slots_are_used(circuitpython, tmp_path):
    nvm, _ = circuitpython
    slots = 4096 // score.SIZE
    for n in range(1, 40):
        s, log = fresh(tmp_path / "score.bin")
        assert s.games(rules.CLASSIC, ai.PERFECT) == (0, n - 1, 0) and log == []
        s.record(rules.CLASSIC, ai.PERFECT, score.DRAWN)
        assert s.save()
        assert nvm.ops.count("erase") == (n - 1) // slots
    assert slots == 10


def test_nvm_with_an_older_firmware_s_version_1_slots_is_taken_over(circuitpython, tmp_path):
    """Three version 1 records in 348-byte slots: the newest is the score,
    and the next save rewrites the nvm whole in 380-byte slots."""
    nvm, _ = circuitpython
    for n in range(3):
        body = bytearray(344)
        body[8] = n + 1  # classic, easy, won: 1, 2, 3
        nvm.flash[n * 348:(n + 1) * 348] = _version1(body)
    s, log = fresh(tmp_path / "score.bin")
    assert log == [] and s.games(rules.CLASSIC, ai.EASY) == (3, 0, 0)
    s.record(rules.CLASSIC, ai.EASY, score.WON)
    assert s.save() and "erase" in nvm.ops
    assert bytes(nvm.flash[380:]) == b"\xff" * (4096 - 380)
    t, log = fresh(tmp_path / "score.bin")
    assert log == [] and t.games(rules.CLASSIC, ai.EASY) == (4, 0, 0)


def test_nvm_save_before_any_load_goes_after_the_newest_record(circuitpython, tmp_path):
    nvm, _ = circuitpython
    for n in range(3):
        s, _ = fresh(tmp_path / "score.bin")
        s.record(rules.CLASSIC, ai.EASY, score.WON)
        s.save()
    s = score.Score(str(tmp_path / "score.bin"), print)  # no load: its own count, 1
    s.record(rules.CLASSIC, ai.EASY, score.LOST)
    assert s.save() and "erase" not in nvm.ops
    assert fresh(tmp_path / "score.bin")[0].games(rules.CLASSIC, ai.EASY) == (0, 0, 1)


def _nvm_state(s):
    return s.games(rules.CLASSIC, ai.PERFECT)[1]


def test_nvm_power_cut_at_every_flash_operation(circuitpython, tmp_path):
    """For saves 1-24 and every erase or program each does, the power cut
    just before it: the next load has the old score or the new one, except
    a cut inside the save that erases the full nvm (one save in 10) after
    the erase and before the new record's two pages are programmed, which
    loses the score: that is CircuitPython's nvm (docs/firmware.md)."""
    nvm, _ = circuitpython
    slots = 4096 // score.SIZE
    for n in range(1, 25):
        before = bytes(nvm.flash)
        s, _ = fresh(tmp_path / "score.bin")
        s.record(rules.CLASSIC, ai.PERFECT, score.DRAWN)
        mark = len(nvm.ops)
        s.save()
        count = len(nvm.ops) - mark
        wraps = n > slots and (n - 1) % slots == 0
        assert count == 17 if wraps else count in (2, 3)  # the sector erased and its 16 pages; or a slot's pages
        after = bytes(nvm.flash)
        for k in range(1, count + 1):
            nvm.flash[:] = before
            nvm.ops = []
            nvm.cut_at = k
            s, _ = fresh(tmp_path / "score.bin")
            s.record(rules.CLASSIC, ai.PERFECT, score.DRAWN)
            with pytest.raises(PowerCut):
                s.save()
            nvm.cut_at = None
            t, log = fresh(tmp_path / "score.bin")
            got = _nvm_state(t)
            if wraps and k == 2:  # erased, nothing programmed: the score is lost (no record: said nothing)
                assert got == 0 and log == []
            elif wraps and k == 3:  # the new record half programmed, the old ones erased: lost, and said
                assert got == 0 and len(log) == 1 and UNREADABLE.match(log[0]).group(1) == "microcontroller.nvm"
            elif wraps and k > 3:  # the new record is the sector's first: whole
                assert got == n and log == []
            elif n == 1 and k > 1:  # the first save ever, half programmed: nothing to keep, but said
                assert got == 0 and len(log) == 1 and UNREADABLE.match(log[0]), log
            else:
                assert got == n - 1 and log == [], (n, k, got, log)
            t.record(rules.CLASSIC, ai.PERFECT, score.DRAWN)
            assert t.save()  # and the next save works
        nvm.flash[:] = after


# --- on the MicroPython Unix port -------------------------------------------------------------------------------


def mpy(folder, *args):
    r = run_micropython("score_cut.py", folder, *args)
    assert r.returncode == 0 and r.stderr == "", r.stdout + r.stderr
    return r.stdout.splitlines()


def test_micropython_saves_and_loads_and_the_host_reads_its_file(tmp_path):
    assert mpy(tmp_path, "load") == ["state (0, 0, 0) (0, 0, 0) (0, 0, 0) 0 0 0", "log ", "files "]
    assert mpy(tmp_path, "save") == ["saved True", "log ", "files score.bin"]
    assert mpy(tmp_path, "save")[0] == "saved True"
    assert mpy(tmp_path, "load") == ["state (2, 0, 0) (0, 0, 2) (0, 0, 2) 1 1 2", "log ", "files score.bin"]
    s, log = fresh(tmp_path / "score.bin")  # the same bytes on CPython
    assert (s.games(0, 0), s.games(1, 2), s.two(1), s.solved(7), s.failures(9)) == \
        ((2, 0, 0), (0, 0, 2), (0, 0, 2), True, 2) and log == []


@given(corruptions)
@settings(max_examples=40)
def test_micropython_reads_any_corrupt_file_as_an_empty_score_and_one_line(tmp_path_factory, how):
    d = tmp_path_factory.mktemp("score")
    good = _valid(d)
    bad = corrupt(good, how)
    if bad == good:
        return
    (d / "score.bin").write_bytes(bad)
    state, log, files = mpy(d, "load")
    assert state == "state (0, 0, 0) (0, 0, 0) (0, 0, 0) 0 0 0"
    m = UNREADABLE.match(log[len("log "):])
    assert m and m.group(1) == "/flash/score.bin", log
    assert files == "files score.bin"


def test_micropython_says_an_unreadable_score_in_words(tmp_path):
    """Issue 32: the Unix port's errno module has no ELOOP, and its OSError
    said "(40)"."""
    os.symlink("score.bin", str(tmp_path / "score.bin"))
    state, log, files = mpy(tmp_path, "load")
    assert log == "log score: /flash/score.bin was unreadable (a loop of symbolic links); starting a new score"


WASM_LOAD = """
import { loadMicroPython } from %(port)s;
import { readFileSync } from "fs";
const mp = await loadMicroPython({ stdout: (l) => console.log(l), linebuffer: true });
mp.FS.mkdir("/flash"); mp.FS.mkdir("/flash/lib"); mp.FS.mkdir("/flash/lib/tactictoe");
for (const n of ["__init__.py", "score.py", "oserrors.py", "crc32.py"])
  mp.FS.writeFile("/flash/lib/tactictoe/" + n, readFileSync(%(package)s + "/" + n));
mp.FS.chdir("/flash");  // as web/engine.js: the board's root
mp.runPython(`
import sys
sys.path.append("/flash/lib")
from tactictoe import score
s = score.Score("score.bin")
s.load()
print("loaded", s.two(0))
print("saved", s.save())
s = score.Score("score.bin")
s.load()
print("again", s.saves())
`);
"""


def test_webassembly_a_missing_score_says_nothing(tmp_path):
    """Issue 32, F18: every first visit to the page said "score.bin was
    unreadable (44)": the WebAssembly port's filesystem raises ENOENT as 44
    while its errno.ENOENT is 2. The real port, under Node, as the page runs it."""
    import json
    import subprocess

    from conftest import HANG_S, PACKAGE
    from host_tools import web

    script = tmp_path / "load.mjs"
    script.write_text(WASM_LOAD % {"port": json.dumps(os.path.join(web.PORT_DIR, "micropython.mjs")),
                                   "package": json.dumps(PACKAGE)})
    r = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines() == ["loaded (0, 0, 0)", "saved True", "again 1"]


@pytest.mark.parametrize("mode", ["oserror", "kill", "fat-oserror", "fat-kill"])
def test_micropython_a_save_failing_or_cut_at_every_step_keeps_a_whole_score(tmp_path, mode):
    """Every step of a save (opening the .tmp, each of its 380 bytes, the
    close, the rename; on FAT, the refused rename, the remove, the rename) failing with
    OSError, or the power cut just before it: the next load has the old
    score, or the new one once the new file is whole and named, and leaves
    no .tmp; the failed save said so in one line, the cut one said
    nothing."""
    mpy(tmp_path, "save")
    lines = mpy(tmp_path, "sweep", mode)
    fat = mode.startswith("fat")
    steps = 1 + score.SIZE + 1 + 1 + 2 * fat  # open, the bytes, close, rename (refused, remove, rename)
    assert lines[-1] == "end %d saved" % steps
    for k, line in enumerate(lines[:-1], 1):
        _, at, result, said, got, after_load, after_save, saved, log = line.split()
        assert int(at) == k and after_load == after_save == "score.bin" and saved == "True" and log == "-", line
        assert (result, said) == (("cut", "0") if mode.endswith("kill") else ("failed", "1")), line
        # the new score once the new file is whole: renamed, or (FAT) the
        # old one removed and the .tmp left whole for the next load
        assert got == ("new" if fat and k == steps else "old"), line
    assert len(lines) == steps + 1


def test_over_the_circuitpython_doubles_the_score_goes_to_their_nvm(tmp_path):
    """tests/doubles_cp (which tests/test_circuitpython_pico.py checks against
    the real board: the drive read-only to code, a 4 KiB nvm) make Score
    pick the nvm, so the CircuitPython layer's tests on CPython write no file."""
    import subprocess

    from conftest import CPYTHON, FIRMWARE, HANG_S, ROOT

    code = ("import microcontroller; from tactictoe import score; s = score.Score(); s.load(); s.record(1, 2, 0);"
            " print(s.save(), s._nvm is microcontroller.nvm, bytes(microcontroller.nvm[0:6]))")
    path = os.pathsep.join([os.path.join(ROOT, "tests", "doubles_cp"), FIRMWARE, CPYTHON])
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(tmp_path),
                       env=dict(os.environ, PYTHONPATH=path), timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "True", repr(b"TTSC\x02\x00")] and os.listdir(tmp_path) == []


def test_micropython_power_on_takes_the_whole_tmp_a_cut_fat_save_left(tmp_path, table_files):
    """Issue 32: on FAT (a rename onto a file refused, EEXIST), X won 51
    saved, the power cut between the save's remove and its rename: the next
    power-on (the real main.boot) takes the whole score.bin.tmp, and its
    stale-file sweep leaves it alone."""
    import json
    import subprocess

    from conftest import DOUBLES, FIRMWARE, FW, HANG_S, MICROPYTHON, _board_json, put_tables

    (tmp_path / "board.json").write_text(json.dumps(_board_json("pico-buttons")))
    put_tables(tmp_path, [table_files[rules.CLASSIC], table_files[rules.TACTICTOE]])
    r = subprocess.run([MICROPYTHON, os.path.join(FW, "score_power_on.py"), str(tmp_path)], capture_output=True,
                       text=True, timeout=HANG_S, env=dict(os.environ, MICROPYPATH=":".join(
                           [DOUBLES, FW, FIRMWARE, ".frozen"])))
    assert r.returncode == 0 and r.stderr == "", r.stdout[-2000:] + r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert lines[:3] == ["saved True", "cut", "files board.json,data,lib score.bin.tmp"], lines
    assert "removed" not in r.stdout
    assert lines[-2:] == ["score 51", "files board.json,data,lib score.bin"], lines


def test_power_ons_sweep_leaves_the_scores_tmp_and_says_a_refusal_in_words(tmp_path, monkeypatch, capsys):
    from tactictoe import startup

    (tmp_path / "lib" / "tactictoe").mkdir(parents=True)
    for name in ("score.bin.tmp", "main.py.tmp", "board.json.tmp", "lib/tactictoe/tactictoe.tbl.tmp"):
        (tmp_path / name).write_bytes(b"x")
    startup.remove_stale(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["lib", "score.bin.tmp"] and os.listdir(tmp_path / "lib" / "tactictoe") == []
    said = capsys.readouterr().out.splitlines()
    assert sorted(said) == ["removed %s, left by an interrupted flash" % n
                            for n in ("board.json.tmp", "lib/tactictoe/tactictoe.tbl.tmp", "main.py.tmp")]
    (tmp_path / "main.py.tmp").write_bytes(b"x")

    def read_only(path):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(os, "remove", read_only)  # (startup imports os inside remove_stale)
    startup.remove_stale(str(tmp_path))
    assert capsys.readouterr().out == "could not remove a stale .tmp file (the drive is read-only)\n"
