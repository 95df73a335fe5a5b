# The move of a score an older firmware kept at the flash's root into the
# score's folder (tactictoe.score.on_flash), on a flash folder mounted at
# /flash through a VFS that can fail, or lose its power, at any step.
#
#   micropython score_move.py DIR MODE    DIR holds the old score.bin. For
#       every step k of the first load, from the same old file: that load
#       with step k failing (MODE oserror: OSError EIO, the step not done)
#       or the power cut just before it (MODE kill), then a load afresh and
#       a save; prints per k: "k K RESULT SAID STATE AFTER_LOAD AFTER_SAVE
#       SAVED LOG": the first load's result and how many lines it logged,
#       the score the second load found (old, or other:...), the files after
#       it and after its save, that save's result, the second load's log;
#       then "end K", K the steps of a load that goes through.
#
# A step is one change to the flash: making a folder, opening a file to
# write, a write, a close, a rename, a remove.
import os
import sys

from tactictoe import score


class Cut(BaseException):
    """The power fails (not an Exception: nothing on the board catches it)."""


class Flash:
    def __init__(self, root):
        self.fs = os.VfsPosix(root)
        self.fs.chdir("/")
        self.at = 0  # the step that fails, 0: none
        self.mode = ""
        self.steps = 0
        self.hit = False

    def arm(self, at, mode):
        self.at = at
        self.mode = mode
        self.steps = 0
        self.hit = False

    def step(self):
        self.steps += 1
        if self.steps == self.at:
            self.hit = True
            if self.mode == "kill":
                raise Cut()
            raise OSError(5)

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def open(self, path, mode):
        if "w" in mode:
            self.step()
            return File(self.fs.open(path[1:], mode), self)
        return self.fs.open(path[1:], mode)

    def ilistdir(self, path):
        return self.fs.ilistdir(path[1:] or ".")

    def stat(self, path):
        return self.fs.stat(path[1:] or ".")

    def mkdir(self, path):
        try:
            self.fs.stat(path[1:])
        except OSError:
            self.step()
            self.fs.mkdir(path[1:])
            return
        raise OSError(17)  # EEXIST

    def rmdir(self, path):
        self.fs.rmdir(path[1:])

    def remove(self, path):
        self.fs.stat(path[1:])  # ENOENT: nothing to change
        self.step()
        self.fs.remove(path[1:])

    def rename(self, old, new):
        self.step()
        self.fs.rename(old[1:], new[1:])


class File:
    def __init__(self, f, flash):
        self.f = f
        self.flash = flash

    def write(self, buf):
        self.flash.step()
        return self.f.write(buf)

    def close(self):
        try:
            self.flash.step()
        finally:
            self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def names(path="/flash", prefix=""):
    out = []
    for entry in os.ilistdir(path):
        name, kind = entry[0], entry[1]
        if kind == 0x4000:
            out += names(path + "/" + name, prefix + name + "/")
        else:
            out.append(prefix + name)
    return out


def files():
    return ",".join(sorted(names())) or "-"


def wipe(path="/flash"):
    for entry in os.ilistdir(path):
        if entry[1] == 0x4000:
            wipe(path + "/" + entry[0])
            os.rmdir(path + "/" + entry[0])
        else:
            os.remove(path + "/" + entry[0])


def state(s):
    return "%r/%r/%d" % (s.games(0, 0), s.two(1), s.solved_count())


root, mode = sys.argv[1], sys.argv[2]
flash = Flash(root)
os.mount(flash, "/flash")
with open("/flash/" + score.OLD_PATH, "rb") as f:
    old = f.read()
logs = []
s = score.Score("/flash/" + score.OLD_PATH, logs.append)
s.load()
want = state(s)
k = 0
while True:
    k += 1
    wipe()
    with open("/flash/" + score.OLD_PATH, "wb") as f:
        f.write(old)
    del logs[:]
    s = score.on_flash("/flash", logs.append)
    flash.arm(k, mode)
    try:
        s.load()
        result = "loaded" if state(s) == want else "wrong:" + state(s)
    except Cut:
        result = "cut"
    hit = flash.hit
    flash.arm(0, "")
    if not hit:
        print("end", k - 1, result, len(logs), files())
        break
    said = len(logs)
    del logs[:]
    t = score.on_flash("/flash", logs.append)
    t.load()
    got = state(t)
    after_load = files()
    log = "|".join(logs) or "-"
    saved = t.save()
    print("k %d %s %d %s %s %s %s %s" % (k, result, said, "old" if got == want else "other:" + got, after_load,
                                        files(), saved, log))
