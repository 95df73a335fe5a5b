"""One file that installs everything on a Pico: MicroPython's rp2 port and
a filesystem holding what ``make flash`` would copy, as a UF2 for the
Pico's USB drive (RPI-RP2, hold BOOTSEL while plugging it in).

UF2 (https://github.com/microsoft/uf2): 512-byte blocks, each little-endian
magic 0x0A324655, 0x9E5D5157, flags, target address, payload size, block
number, number of blocks, family id (flag 0x2000 says it is there), then the
payload from byte 32 and the end magic 0x0AB16F30 in the last 4 bytes.

The file is the official MicroPython UF2's pages (``host_tools/images.py``
fetches it), then the littlefs image
(``picofs``) at 0x10000000 + 0xa0000, where the port mounts its filesystem,
every block renumbered across the whole file.

One thing the UF2 spec leaves open matters here: the RP2040's boot ROM
decides when to erase a 4 KiB sector from the *block number*, not from the
address (``pico-bootrom`` ``virtual_disk.c``: the sector bit it keeps is
``block_no * 256 / 4096``; the first block of each run of 16 erases the
sector holding its own address). So every sector the file writes is written
whole, 16 blocks in a row starting at a block number that is a multiple of
16: pages the image lacks are filled with 0xff (what an erased page holds).
MicroPython's 1,327 pages end mid-sector, so one 0xff page follows them
before the filesystem's first block.
"""

import struct

from host_tools import flash, outputs
from host_tools.drive import picofs
from host_tools.oserrors import reported
from tactictoe import rules

MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_FAMILY_ID = 0x2000
FAMILY_RP2040 = 0xE48BFF56
BLOCK = 512
PAGE = 256  # payload bytes per block, the flash's program page
SECTOR = 4096  # the flash's erase sector
FLASH_BASE = 0x10000000  # the RP2040's flash in its address space (XIP)
FS_ADDRESS = FLASH_BASE + picofs.FS_OFFSET

# The official images (keys of ``images.IMAGES``): MicroPython's, and the
# CircuitPython build for each RP2040 board a config can name (its "board"):
# the MacroPad and the Keybow 2040 have their own; a Pico on the RGB Keypad
# Base runs the Pico's.
MICROPYTHON = "micropython"
CIRCUITPYTHON_BUILDS = {None: "circuitpython-pico", "pico": "circuitpython-pico",
                        "pico-rgb-keypad": "circuitpython-pico", "macropad": "circuitpython-macropad",
                        "keybow2040": "circuitpython-keybow"}
_HEADER = struct.Struct("<8I")


class UF2Error(ValueError):
    """Not a UF2 file, or pages a UF2 can't hold."""


class Block:
    """One parsed block."""

    __slots__ = ("flags", "address", "size", "number", "count", "family", "payload")

    def __init__(self, flags, address, size, number, count, family, payload):
        self.flags, self.address, self.size = flags, address, size
        self.number, self.count, self.family, self.payload = number, count, family, payload

    def __repr__(self):
        return "<Block %d/%d at %#x, %d bytes>" % (self.number, self.count, self.address, self.size)


def parse(data):
    """The blocks of a UF2 file, each checked (magics, payload size, family
    flag); UF2Error, naming the block, otherwise."""
    if not data or len(data) % BLOCK:
        raise UF2Error("a UF2 file is a whole number of %d-byte blocks; this is %d bytes" % (BLOCK, len(data)))
    blocks = []
    for i in range(0, len(data), BLOCK):
        m0, m1, flags, address, size, number, count, family = _HEADER.unpack_from(data, i)
        (end,) = struct.unpack_from("<I", data, i + BLOCK - 4)
        if (m0, m1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise UF2Error("block %d (byte %d) is not a UF2 block (bad magic)" % (i // BLOCK, i))
        if size > 476:
            raise UF2Error("block %d says it has %d payload bytes (at most 476)" % (i // BLOCK, size))
        blocks.append(Block(flags, address, size, number, count,
                            family if flags & FLAG_FAMILY_ID else None, data[i + 32:i + 32 + size]))
    return blocks


def pack(chunks, family=FAMILY_RP2040):
    """A UF2 file writing ``chunks``, ``[(address, bytes)]`` in ascending
    address order, each 256-byte aligned (the last page of a chunk may be
    short: filled with 0xff). Each 4 KiB sector touched is written whole
    (0xff fills), in order, so the RP2040 boot ROM erases each once, before
    its first page (see the module's doc)."""
    data = {}
    last = -1
    for address, payload in chunks:
        if address % PAGE:
            raise UF2Error("a chunk at %#x: not on a %d-byte page" % (address, PAGE))
        if address <= last:
            raise UF2Error("a chunk at %#x: chunks must be in ascending address order, without overlaps" % address)
        for off in range(0, len(payload), PAGE):
            data[address + off] = bytes(payload[off:off + PAGE]).ljust(PAGE, b"\xff")
        last = address + len(payload) - 1
    sectors = sorted({a - a % SECTOR for a in data})
    out = [(a, data.get(a, b"\xff" * PAGE)) for s in sectors for a in range(s, s + SECTOR, PAGE)]
    blob = bytearray(BLOCK * len(out))
    for n, (address, payload) in enumerate(out):
        at = n * BLOCK
        _HEADER.pack_into(blob, at, MAGIC_START0, MAGIC_START1, FLAG_FAMILY_ID, address, PAGE, n, len(out), family)
        blob[at + 32:at + 32 + PAGE] = payload
        struct.pack_into("<I", blob, at + BLOCK - 4, MAGIC_END)
    return bytes(blob)


def micropython_pages(path, below=FS_ADDRESS):
    """The pages of the MicroPython UF2 at ``path`` (or CircuitPython's),
    checked to be RP2040 flash pages below the filesystem."""
    with open(path, "rb") as f:
        blocks = parse(f.read())
    for b in blocks:
        if b.family != FAMILY_RP2040 or b.size != PAGE or not FLASH_BASE <= b.address < below:
            raise UF2Error("%s: %r is not an RP2040 flash page below the filesystem" % (path, b))
    return [(b.address, bytes(b.payload)) for b in blocks]


def build(files, base=None):
    """The UF2 (bytes) of MicroPython (the UF2 file ``base``, default the
    official one: ``images.get``, which may download it) and a filesystem
    holding ``files``, ``[(name, bytes)]``."""
    from host_tools import images

    fs = picofs.image(files, picofs.FOLDERS)
    return pack(micropython_pages(base or images.get(MICROPYTHON)) + [(FS_ADDRESS, fs)])


def build_circuitpython(files, build):
    """The UF2 (bytes) of CircuitPython (the UF2 file ``build``) and a
    CIRCUITPY drive holding ``files``, ``[(path, bytes)]``. The drive's unused tail (zeros) is left
    out: a FAT drive never reads a cluster it has not allocated."""
    from host_tools.drive import circuitpy, fat

    drive = circuitpy.image(files)
    used = len(drive.rstrip(b"\0"))
    drive = drive[:used + (-used) % SECTOR]
    return pack(micropython_pages(build, FLASH_BASE + fat.FS_OFFSET) + [(FLASH_BASE + fat.FS_OFFSET, drive)])


def write(path, board="pico-buttons", games=rules.GAMES, tables_dir=None, runtime="micropython"):
    """Write ``build(picofs.board_files(...))`` to ``path`` (through a
    temporary name), or with ``runtime="circuitpython"``
    ``build_circuitpython(circuitpy.drive_files(...))``; returns ``(files,
    size)``. FlashError for what the user can fix (a config not for a Pico
    or for the other runtime, a missing table); ``images.ImageError`` for an
    official image that is missing and can't be downloaded, or wrong."""
    from host_tools import images

    if runtime == "circuitpython":
        from host_tools.drive import circuitpy

        _, cfg, _ = flash.board_config(board)
        circuitpy.check_circuitpython(cfg)
        if cfg["board"] not in CIRCUITPYTHON_BUILDS:
            raise flash.FlashError("%s is wired for %s, not an RP2040 board: the UF2 holds CircuitPython for the"
                                   " Pico, the MacroPad or the Keybow 2040" % (cfg["name"], cfg["board"]))
        files = circuitpy.drive_files(board, games, tables_dir)
        data = build_circuitpython(files, images.get(CIRCUITPYTHON_BUILDS[cfg["board"]]))
    else:
        files = picofs.board_files(board, games, tables_dir)
        data = build(files)
    with reported(flash.FlashError, "cannot write %s" % path):
        outputs.write_file(path, data)
    return files, len(data)
