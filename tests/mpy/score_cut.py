# The score (tactictoe.score) on a flash folder mounted at /flash through a
# VFS that can fail, or lose its power, at any step of a save.
#
#   micropython score_cut.py DIR load          load; print the score, the log, the files
#   micropython score_cut.py DIR save          load, one more game of each kind, save
#   micropython score_cut.py DIR sweep MODE    for every step k of a save, from the
#       same old score: save with step k failing (MODE oserror: OSError EIO,
#       the step not done) or the power cut just before it (MODE kill), then
#       load afresh and save again; print what each saw: k, the save's
#       result and how many lines it logged, the score loaded (old, new or
#       other), the files after that load and after its save, that save's
#       result, the load's log. MODE fat-oserror /
#       fat-kill: the same on a filesystem whose rename won't replace a file.
#
# A step is one change to the flash: opening a file to write, each byte
# written, a close, a rename, a remove.
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
        self.fat = False

    def arm(self, at, mode):
        self.at = at
        self.mode = mode
        self.steps = 0
        self.hit = False

    def step(self):
        self.steps += 1
        if self.steps == self.at:
            self.hit = True
            if self.mode.endswith("kill"):
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

    def remove(self, path):
        self.step()
        self.fs.remove(path[1:])

    def rename(self, old, new):
        self.step()
        if self.fat:
            try:
                self.fs.stat(new[1:])
                raise OSError(17)  # EEXIST: FAT's f_rename won't replace a file
            except OSError as e:
                if e.args[0] == 17:
                    raise
        self.fs.rename(old[1:], new[1:])


class File:
    def __init__(self, f, flash):
        self.f = f
        self.flash = flash

    def write(self, buf):
        for i in range(len(buf)):
            self.flash.step()
            self.f.write(buf[i:i + 1])
        return len(buf)

    def close(self):
        try:
            self.flash.step()
        finally:
            self.f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


PATH = "/flash/score.bin"
logs = []


def state(s):
    return "%r %r %r %d %d %d" % (s.games(0, 0), s.games(1, 2), s.two(1), s.solved_count(), s.solved(7),
                                  s.failures(9))


def files():
    return ",".join(sorted(n for n in os.listdir("/flash")))


def more(s):
    s.record(0, 0, score.WON)
    s.record(1, 2, score.LOST)
    s.record_two(1, -1)
    s.solve(7)
    s.fail(9)


root, what = sys.argv[1], sys.argv[2]
flash = Flash(root)
os.mount(flash, "/flash")
if what == "load":
    s = score.Score(PATH, logs.append)
    s.load()
    print("state", state(s))
    print("log", "|".join(logs))
    print("files", files())
elif what == "save":
    s = score.Score(PATH, logs.append)
    s.load()
    more(s)
    print("saved", s.save())
    print("log", "|".join(logs))
    print("files", files())
else:
    mode = sys.argv[3]
    flash.fat = mode.startswith("fat")
    with open(PATH, "rb") as f:
        old = f.read()
    k = 0
    while True:
        k += 1
        for name in os.listdir("/flash"):
            os.remove("/flash/" + name)
        with open(PATH, "wb") as f:
            f.write(old)
        s = score.Score(PATH, logs.append)
        s.load()
        a = state(s)
        more(s)
        b = state(s)
        flash.arm(k, mode)
        try:
            result = "saved" if s.save() else "failed"
        except Cut:
            result = "cut"
        hit = flash.hit
        flash.arm(0, "")
        if not hit:
            print("end", k - 1, result)
            break
        said = len(logs)
        del logs[:]
        t = score.Score(PATH, logs.append)
        t.load()
        got = state(t)
        after_load = files()
        saved = t.save()
        which = "old" if got == a else "new" if got == b else "other:" + got
        print("k %d %s %d %s %s %s %s %s" % (k, result, said, which, after_load, files(), saved, "|".join(logs) or "-"))
