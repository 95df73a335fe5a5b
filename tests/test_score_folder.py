"""Where the board keeps its score (``tactictoe.score``: ``PATH``, in a
folder of its own): a thousand saves leave a Pico's power-on reading no
more of its flash than before the first one (``benchmarks/saves.py``, on the
real littlefs of the MicroPython Unix port, counting the block device's
reads); and the score an older firmware kept at the root is moved there,
whole, whatever step of the move fails or loses its power.
"""

import os
import sys

import pytest

from conftest import ROOT, run_micropython
from tactictoe import ai, rules, score

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import saves  # noqa: E402

UNREADABLE = "score: %s was unreadable (%s); starting a new score"


def _old_score(folder):
    """An older firmware's score file at the root of ``folder``: its bytes."""
    s = score.Score(str(folder / score.OLD_PATH), print)
    s.record(rules.TACTICTOE, ai.PERFECT, score.DRAWN)
    s.record_two(rules.CLASSIC, rules.O)
    s.solve(7)
    assert s.save()
    return (folder / score.OLD_PATH).read_bytes()


def _files(folder):
    return sorted(os.path.relpath(os.path.join(d, n), folder) for d, _, names in os.walk(folder) for n in names)


def test_a_thousand_saves_leave_power_on_reading_what_it_read_before_the_first(tmp_path):
    """Power-on's reads of the flash, as a Pico's littlefs serves them:
    fresh from the UF2's image, then after 1000 saves and each of the next
    few (the score folder's log is compacted every few saves: the whole
    cycle). Before the score had a folder of its own they grew with each
    save, up to +85% before littlefs compacted the root's log, and never
    came back to a fresh board's (docs/performance.md)."""
    image = str(tmp_path / "flash.lfs")
    saves.board_image(image)
    fresh = saves.boot(image)
    assert fresh["progs"] == fresh["erases"] == 0  # a power-on writes nothing
    saves.save(image, 1000)
    after = []
    for _ in range(5):
        after.append(saves.boot(image)["reads"])
        saves.save(image, 1)
    # The score's own folder is read by the load alone: its log, a block at
    # most, is all that can differ.
    assert max(after) <= fresh["reads"] * 1.01, (fresh, after)


def test_the_first_save_makes_the_folder(tmp_path):
    s = score.on_flash(str(tmp_path))
    s.load()
    s.record(rules.CLASSIC, ai.EASY, score.WON)
    assert s.save() is True
    assert _files(tmp_path) == [score.PATH]
    t = score.on_flash(str(tmp_path))
    t.load()
    assert t.games(rules.CLASSIC, ai.EASY) == (1, 0, 0)


def test_an_old_score_at_the_root_is_moved_whole_at_the_first_load(tmp_path):
    old = _old_score(tmp_path)
    log = []
    s = score.on_flash(str(tmp_path), log.append)
    s.load()
    assert log == [] and s.games(rules.TACTICTOE, ai.PERFECT) == (0, 1, 0) and s.solved(7)
    assert _files(tmp_path) == [score.PATH]
    assert (tmp_path / score.PATH).read_bytes() == old  # the record as it was: moved, not saved anew


def test_an_old_whole_tmp_alone_at_the_root_is_moved(tmp_path):
    """An older firmware's save cut between FAT's remove and its rename."""
    old = _old_score(tmp_path)
    os.rename(tmp_path / score.OLD_PATH, tmp_path / (score.OLD_PATH + ".tmp"))
    s = score.on_flash(str(tmp_path))
    s.load()
    assert s.solved(7) and _files(tmp_path) == [score.PATH] and (tmp_path / score.PATH).read_bytes() == old


def test_an_unreadable_old_score_is_said_once_and_removed_by_the_next_save(tmp_path):
    (tmp_path / score.OLD_PATH).write_bytes(b"not a score")
    log = []
    s = score.on_flash(str(tmp_path), log.append)
    s.load()
    assert log == [UNREADABLE % (tmp_path / score.OLD_PATH, "not %d bytes" % score.SIZE)]
    s.record(rules.CLASSIC, ai.MEDIUM, score.LOST)
    assert s.save() and _files(tmp_path) == [score.PATH]


def test_a_move_the_flash_refuses_keeps_the_old_file_and_says_so(tmp_path, monkeypatch):
    old = _old_score(tmp_path)

    def read_only(path, mode="r"):
        if "w" in mode:
            raise OSError(30, "EROFS")
        return open(path, mode)

    monkeypatch.setattr(score, "open", read_only, raising=False)
    log = []
    s = score.on_flash(str(tmp_path), log.append)
    s.load()
    assert s.solved(7)  # read all the same
    assert log == ["score: %s not moved to %s ([Errno 30] EROFS); kept where it is"
                   % (tmp_path / score.OLD_PATH, tmp_path / score.PATH)]
    assert (tmp_path / score.OLD_PATH).read_bytes() == old and not os.path.exists(str(tmp_path / score.PATH) + ".tmp")
    monkeypatch.undo()
    s.record(rules.CLASSIC, ai.EASY, score.WON)
    assert s.save()  # the next save puts it in its place, and the old file goes
    assert _files(tmp_path) == [score.PATH]


@pytest.mark.parametrize("mode", ["oserror", "kill"])
def test_micropython_a_move_failing_or_cut_at_every_step_loses_nothing(tmp_path, mode):
    """Every step of the move (making the folders, writing the .tmp, removing
    the old file, the rename) failing with OSError, or the power cut just
    before it: the next load has the old score, in its place, and leaves
    nothing else; the failed move said so in one line, the cut one said
    nothing."""
    _old_score(tmp_path)
    r = run_micropython("score_move.py", tmp_path, mode)
    assert r.returncode == 0 and r.stderr == "", r.stdout + r.stderr
    lines = r.stdout.splitlines()
    # opening the .tmp (no folder yet), the two folders, the .tmp (open,
    # write, close), the old file removed, the rename
    assert lines[-1] == "end 8 loaded 0 " + score.PATH, lines[-1]
    for k, line in enumerate(lines[:-1], 1):
        _, at, result, said, got, after_load, after_save, saved, log = line.split(" ", 8)
        assert int(at) == k and got == "old" and after_load == after_save == score.PATH, line
        assert saved == "True" and log == "-", line
        if mode == "kill":
            assert (result, said) == ("cut", "0"), line
        else:  # the score read all the same; the move that failed said so (the first open's
            # failure only made it make the folders, as the folder's absence does)
            assert (result, said) == ("loaded", "0" if k == 1 else "1"), line
