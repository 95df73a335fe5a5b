# A score saved on FAT, its power cut between the save's remove and its
# rename, then the board powered on again (issue 32): the whole
# score.bin.tmp must become the score, not be removed by power-on.
#
#   score_power_on.py FLASH_FOLDER
#
# Runs the real power-on (main.boot, through tests/fw/sim.py) twice on
# FLASH_FOLDER mounted at /flash through a VFS whose rename won't replace a
# file (FAT's f_rename: EEXIST) and whose power can be cut before the next
# rename. Prints "saved", "files", "lines" and "score" lines.
import os
import sys

import sim
from tactictoe import rules


class Cut(BaseException):
    """The power fails (not an Exception: nothing on the board catches it)."""


class Fat:
    """FLASH_FOLDER as a FAT drive: a rename onto a file is refused."""

    def __init__(self, root):
        self.fs = os.VfsPosix(root)
        self.fs.chdir("/")
        self.cut_rename = False  # the power fails before the next rename

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def open(self, path, mode):
        return self.fs.open(path[1:], mode)

    def ilistdir(self, path):
        return self.fs.ilistdir(path[1:] or ".")

    def stat(self, path):
        return self.fs.stat(path[1:] or ".")

    def remove(self, path):
        self.fs.remove(path[1:])

    def mkdir(self, path):
        self.fs.mkdir(path[1:])

    def rename(self, old, new):
        try:
            self.fs.stat(new[1:])
        except OSError:
            if self.cut_rename:
                raise Cut()
            self.fs.rename(old[1:], new[1:])
            return
        raise OSError(17)  # EEXIST


def files():
    """The flash's root, then the score's folder (score.FOLDER)."""
    try:
        kept = sorted(os.listdir("/flash/data/tactictoe"))
    except OSError:
        kept = ["-"]
    return ",".join(sorted(os.listdir("/flash"))) + " " + ",".join(kept)


fat = Fat(sys.argv[1])
os.mount(fat, "/flash")

b = sim.Board("/flash")
s = b.app.score
for _ in range(50):
    s.record_two(rules.CLASSIC, rules.X)
print("saved", s.save())  # X won 50: refused, removed, renamed
s.record_two(rules.CLASSIC, rules.X)
fat.cut_rename = True
try:
    s.save()  # X won 51: refused, removed, then the power fails
except Cut:
    print("cut")
fat.cut_rename = False
print("files", files())

b = sim.Board("/flash")  # power on again
print("lines", "|".join(b.lines) or "-")
print("score", b.app.score.two(rules.CLASSIC)[0])
print("files", files())
