# A Pico's littlefs, as MicroPython's rp2 port mounts it, on a RAM block
# device that counts what littlefs asks of it: the real littlefs (the Unix
# port's vfs.VfsLfs2, the same extmod code as the rp2 port's).
#
#   micropython saves.py IMAGE N EVERY [root]    N score saves, as the
#       firmware's score.py makes them (its own code; with root, in a file at
#       the root, as an older firmware's), a power cycle every EVERY saves;
#       IMAGE is written back; prints "saves N reads R bytes B progs P erases E"
#   micropython saves.py IMAGE boot       one power-on: mount, boot.py,
#       main.py's main.run up to its loop's first pass, as the rp2 port and
#       main.py do it; prints "boot mount R/B reads R bytes B progs P erases E us T"
#       and "ops N" (the filesystem calls the firmware made)
#
# The geometry is rp2.Flash's on a Pico (4096-byte blocks, 1408 KiB) and the
# mount _boot.py's: VfsLfs2(bdev, progsize=256), read size and lookahead
# vfs_lfs.c's defaults (32, 32), mtime on (host_tools/drive/picofs.py). An
# IMAGE ending in .fat is a FAT drive of 512-byte sectors instead, mounted by
# os.VfsFat (the FatFs CircuitPython's drive uses too).
# Needs the hardware doubles (tests/doubles) on MICROPYPATH for the boot;
# the firmware comes from IMAGE then, as a board imports it.
import os
import sys
import time

BLOCK = 4096
SECTOR = 512  # a FAT drive's (IMAGE ending in .fat: CircuitPython's CIRCUITPY, through MicroPython's VfsFat)


class Flash:
    """rp2.Flash's interface (the extended block protocol) over a bytearray;
    with ``fat``, a drive of 512-byte sectors (the simple protocol)."""

    def __init__(self, data, fat=False):
        self.data = data
        self.fat = fat
        self.size = SECTOR if fat else BLOCK
        self.reads = self.read_bytes = self.progs = self.erases = 0

    def readblocks(self, block, buf, off=0):
        at = block * self.size + off
        buf[:] = self.data[at:at + len(buf)]
        self.reads += 1
        self.read_bytes += len(buf)

    def writeblocks(self, block, buf, off=None):
        if off is None:  # (the simple protocol: erase, then program)
            if not self.fat:
                self.ioctl(6, block)
            off = 0
        at = block * self.size + off
        self.data[at:at + len(buf)] = buf
        self.progs += 1

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.data) // self.size
        if op == 5:  # block size
            return self.size
        if op == 6 and not self.fat:  # erase
            at = arg * BLOCK
            self.data[at:at + BLOCK] = b"\xff" * BLOCK
            self.erases += 1
        return 0

    def counts(self):
        return "reads %d bytes %d progs %d erases %d" % (self.reads, self.read_bytes, self.progs, self.erases)


class Traced:
    """A VFS that passes each call on to ``fs`` and counts them."""

    def __init__(self, fs):
        self.fs = fs
        self.ops = 0

    def __getattr__(self, name):
        fn = getattr(self.fs, name)

        def call(*args):
            self.ops += 1
            return fn(*args)

        return call


def mount(flash):
    if flash.fat:
        return os.VfsFat(flash)
    return os.VfsLfs2(flash, progsize=256)  # ports/rp2/modules/_boot.py


def load(host, path):
    with host.open(path, "rb") as f:
        return Flash(bytearray(f.read()), path.endswith(".fat"))


def saves(host, path, n, every, root=False):
    from tactictoe import score  # the firmware's own code, from the host

    flash = load(host, path)
    os.umount("/")  # (score is loaded; from now on "/" is the board's flash)
    done = 0
    while done < n:
        fs = mount(flash)  # a power-on
        os.mount(fs, "/")
        os.chdir("/")
        # main.boot's (an older firmware's, or with ``root``: the file at the root)
        if hasattr(score, "on_flash") and not root:
            s = score.on_flash(log=print)
        else:
            s = score.Score("score.bin", print)
        s.load()
        for _ in range(min(every, n - done)):
            s.record(done & 1, done % 3, done % 3)
            if not s.save():
                raise SystemExit("save %d failed" % done)
            done += 1
        os.umount("/")  # the power goes
    with host.open(path, "wb") as f:
        f.write(flash.data)
    print("saves", n, flash.counts())


def boot(host, path):
    import machine
    import neopixel  # noqa: F401  (the doubles, before "/" becomes the flash)

    machine.wire({"kind": "buttons", "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10]})
    flash = load(host, path)
    os.umount("/")
    t0 = time.ticks_us()
    fs = Traced(mount(flash))
    mounted = (flash.reads, flash.read_bytes)
    os.mount(fs, "/")
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]  # the rp2 port's
    # pyexec_file_if_exists: boot.py, then main.py, as the rp2 port's main.c
    for name in ("boot.py", "main.py"):
        try:
            os.stat(name)
        except OSError:
            continue
        with open(name) as f:
            src = f.read()
        if name == "main.py":
            # main.py's own two lines, with run()'s loop ended after its
            # first pass: beside() returns at once.
            assert src.split() == ["from", "tactictoe", "import", "main", "main.run()"], src
            from tactictoe import main

            async def beside(runner):
                pass

            main.run(beside=beside, log=lambda line: None)
    us = time.ticks_diff(time.ticks_us(), t0)
    print("boot mount %d/%d %s us %d" % (mounted[0], mounted[1], flash.counts(), us))
    print("ops", fs.ops)


host = os.VfsPosix("/")
image = sys.argv[1]
if sys.argv[2] == "boot":
    boot(host, image)
else:
    saves(host, image, int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:] == ["root"])
