"""The score on the emulated Pico (``host_tools.sim.pico``, in lockstep):
on the real MicroPython rp2 port, ``data/tactictoe/score.bin`` in the littlefs on its
flash; on real CircuitPython 10.2.1, ``microcontroller.nvm``. Saved, the
board power-cycled, read back; and the power cut just before each flash
erase or program a save does (``EmulatedPico.cut_power``), at the emulated
chip's own flash writes.

Each board runs a small main.py (code.py) of its own in place of the game:
load, say what it loaded, then save, with a pause before each save for the
test to arm the cut.
"""

import os
import re

from pico_board import PicoRun, flash_image
from host_tools.drive import circuitpy, fat, picofs
from tactictoe import rules, score

MAIN = """\
import os, time
from tactictoe import score
s = score.Score()
s.load()
print("loaded %d %d %s" % (s.games(1, 2)[0], s.solved_count(), ",".join(sorted(os.listdir(score.FOLDER)))))
time.sleep_ms(300)
s.record(1, 2, score.WON)
s.solve(s.games(1, 2)[0] & 255)
print("saved", s.save())
"""

LOADED = re.compile(r"^serial loaded (\d+) (\d+) (\S*)$")


def _boot(b, limit_ms=10000):
    """The next "loaded" line: (games won, puzzles solved, score files)."""
    m = LOADED.match(b.wait(lambda line: LOADED.match(line), limit_ms, "the score loaded"))
    return int(m.group(1)), int(m.group(2)), m.group(3)


def _saved_or_cut(b):
    line = b.wait(lambda line: line.startswith("serial saved") or line.startswith("power ") and line.endswith(" cut"),
                  5000, "the save, or the cut")
    assert line in ("serial saved True",) or line.startswith("power "), line
    return line.startswith("serial")


def _cuts(b):
    """The flash operations the cuts landed before: [(erase|program, address, bytes)]."""
    hit = []
    chained = b.chip.on_event

    def on_event(words):
        if words[0] == "cut":
            hit.append((words[2], int(words[3], 16), int(words[4])))
        chained(words)

    b.chip.on_event = on_event
    return hit


def test_micropython_score_survives_power_cycles(tmp_path):
    image = flash_image(tmp_path / "flash.lfs", extra=[("main.py", MAIN.encode())])
    b = PicoRun(image)
    try:
        for n in range(3):
            assert _boot(b) == (n, n, "score.bin" if n else "")
            assert _saved_or_cut(b)
            b.chip.power_cycle()
        assert _boot(b) == (3, 3, "score.bin")
    finally:
        b.close()
    files = picofs.read_image((tmp_path / "flash.lfs").read_bytes())
    assert score.PATH + ".tmp" not in files and len(files[score.PATH]) == score.SIZE
    (tmp_path / "score.bin").write_bytes(files[score.PATH])  # the board's bytes, read on the host
    log = []
    s = score.Score(str(tmp_path / "score.bin"), log.append)
    s.load()
    assert s.games(rules.TACTICTOE, 2) == (3, 0, 0) and s.solved_count() == 3 and log == []


def test_micropython_power_cut_before_each_flash_write_of_a_save(tmp_path):
    """Cut before the 1st, 2nd, ... erase or program of a save on littlefs,
    until a save gets through: each time the next power-on loads the old
    score or the new, never an unreadable one, and leaves no .tmp."""
    image = flash_image(tmp_path / "flash.lfs", extra=[("main.py", MAIN.encode())])
    b = PicoRun(image)
    cuts = []
    hit = _cuts(b)
    try:
        won, _, _ = _boot(b)
        assert _saved_or_cut(b)  # a first score.bin
        b.chip.power_cycle()
        won, _, files = _boot(b)
        k = 0
        while True:
            k += 1
            b.chip.cut_power(k)
            if _saved_or_cut(b):
                break
            now, _, files = _boot(b)
            assert now in (won, won + 1) and files == "score.bin", (k, won, now, files)
            cuts.append(now - won)
            won = now
        b.chip.cut_power(0)
        assert not any("unreadable" in line for line in b.lines)
    finally:
        b.close()
    # littlefs: the .tmp's data and its commit, then the rename's commit
    assert k > 2 and len(cuts) == k - 1 and len(hit) == k - 1, (cuts, hit)
    assert cuts == [0] * (k - 1)  # until the rename is on the flash, the old score
    assert {h[0] for h in hit} <= {"erase", "program"} and "program" in {h[0] for h in hit}, hit


CODE = """\
import time
from tactictoe import score
s = score.Score()
s.load()
print("loaded %d" % s.games(1, 2)[0])
while True:
    time.sleep(0.1)
    s.record(1, 2, score.WON)
    print("save %d slot %d" % (s.games(1, 2)[0], s._free))
    time.sleep(0.2)
    print("saved", s.save())
"""

SAVE = re.compile(r"^serial save (\d+) slot (\d+)$")


def test_circuitpython_score_in_nvm(tmp_path, table_files):
    """The score in CircuitPython's nvm: 13 saves (the 12th erases the
    nvm and starts again at its first slot), a power cycle, read back; then
    the power cut before each of the first two pages of a save into an
    erased slot (the old score), and before each operation of a save that
    erases the nvm: before the erase the old score; after it, before the
    program, the score lost; after both, the new score."""
    board = "circuitpython-pico"
    files = dict(circuitpy.drive_files(board, tables_dir=os.path.dirname(table_files[rules.CLASSIC])))
    files["code.py"] = CODE.encode()
    drive = tmp_path / "circuitpy.img"
    drive.write_bytes(fat.image(sorted(files.items())))
    b = PicoRun(str(drive), board=board, runtime="circuitpython")
    hit = _cuts(b)

    def saving(limit_ms=5000):
        m = SAVE.match(b.wait(lambda line: SAVE.match(line), limit_ms, "a save"))
        return int(m.group(1)), int(m.group(2))

    def loaded():  # (the line may start with CircuitPython's title escape: "code.py | 10.2.1")
        line = b.wait(lambda line: line.startswith("serial ") and re.search(r"loaded \d+$", line), 20000, "the load")
        return int(line.split()[-1])

    try:
        assert loaded() == 0
        for n in range(1, 14):
            assert saving() == (n, n - 1 if n <= 11 else 11 if n == 12 else 1)
            assert b.wait(lambda line: line.startswith("serial saved"), 5000, "saved") == "serial saved True"
        b.chip.power_cycle()
        assert loaded() == 13
        # Into an erased slot: the cut before its first, second (or third) page.
        for k in (1, 2):
            n, slot = saving()
            assert slot < 11
            b.chip.cut_power(k)
            assert not _saved_or_cut(b)
            assert loaded() == n - 1
        # The save that erases the nvm: its erase and its program, each one
        # call of the boot ROM here (the model in tests/test_score.py cuts
        # inside the program, page by page, as a flash chip can).
        seen = {}
        for k in (1, 2, 3):
            while True:
                n, slot = saving(20000)
                if slot == 11:
                    break
            b.chip.cut_power(k)
            if k < 3:
                assert not _saved_or_cut(b), (k, seen, "\n".join(b.lines[-8:]))
                seen[k] = (n, loaded())
        assert _saved_or_cut(b)  # a save of two operations: the third never came
        b.chip.cut_power(0)
        b.chip.power_cycle()
        assert seen[1][1] == seen[1][0] - 1  # cut before the erase: the old score
        assert seen[2][1] == 0  # erased, not programmed: lost
        assert loaded() == n  # after both: the new score
        assert [h[0] for h in hit] == ["program", "program", "erase", "program"], hit
        assert not any("unreadable" in line for line in b.lines)
    finally:
        b.close()
