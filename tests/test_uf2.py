"""make uf2: one file with MicroPython and the board's files for a Pico's
USB drive, read back block by block; its filesystem mounted by MicroPython's
own littlefs and booted on the emulated Pico; its sectors written as the
RP2040's boot ROM writes them; the littlefs images of ``picofs``.

The packing is tested on two bases: a UF2 the tests build (``fake_uf2``:
the official one's shape, 1,327 pages, and the strings the checks want), so
it is tested everywhere, and the official MicroPython UF2 when ``make
firmware`` has fetched it (else those runs skip, saying so)."""

import hashlib
import os
import random
import subprocess
import struct

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import HANG_S, MICROPYTHON, ROOT, need_image, one_line_error, run_cli
from host_tools import flash
from host_tools.drive import picofs, uf2
from tactictoe import rules, score

MP_BLOCKS = 1327  # the official MicroPython UF2's blocks (and the tests' own base's)
FS_BLOCKS = picofs.FS_SIZE // 256


@pytest.fixture(scope="module")
def tables_dir(table_files):
    return os.path.dirname(table_files[rules.CLASSIC])


@pytest.fixture(scope="module", params=["own base", "official"])
def base(request, fakes):
    """``(env, folder)``: the images make uf2 takes, the tests' own
    (FIRMWARE_DIR=fakes) or the official ones (skips without them)."""
    if request.param == "official":
        need_image("micropython", "circuitpython-pico", "circuitpython-macropad", "circuitpython-keybow")
        return {}, None
    return {"FIRMWARE_DIR": str(fakes)}, str(fakes)


def base_path(base, key):
    """The image ``key`` make uf2 takes on ``base``."""
    from host_tools import images

    return images.find(key, base[1])


@pytest.fixture(scope="module")
def written(tables_dir, tmp_path_factory, base):
    """(CompletedProcess, bytes, the MicroPython UF2's bytes) of python -m
    host_tools uf2 for pico-buttons."""
    out = tmp_path_factory.mktemp("uf2") / "tactictoe-pico-buttons.uf2"
    r = run_cli("uf2", "--board", "pico-buttons", "--tables", tables_dir, "-o", out, env=base[0])
    assert r.returncode == 0, r.stderr
    with open(base_path(base, "micropython"), "rb") as f:
        return r, out.read_bytes(), f.read()


@pytest.fixture(scope="module")
def blocks(written):
    return uf2.parse(written[1])


def raw_blocks(data):
    """Each 512-byte block's header fields and payload, straight from the bytes."""
    out = []
    for i in range(0, len(data), 512):
        head = struct.unpack_from("<8I", data, i)
        out.append(head + (data[i + 32:i + 32 + head[4]], struct.unpack_from("<I", data, i + 508)[0],
                           data[i + 32 + head[4]:i + 508]))
    return out


def test_every_block_is_a_valid_rp2040_block_numbered_across_the_file(written):
    r, data, _ = written
    assert len(data) % 512 == 0
    rows = raw_blocks(data)
    n = len(rows)
    assert n == 6960  # 1,327 + 1 filler page (see below) + 5,632
    for i, (m0, m1, flags, address, size, number, count, family, payload, end, pad) in enumerate(rows):
        assert (m0, m1, end) == (0x0A324655, 0x9E5D5157, 0x0AB16F30)
        assert flags == 0x2000 and family == 0xE48BFF56  # family id present: RP2040
        assert size == 256 and address % 256 == 0
        assert (number, count) == (i, n)
        assert pad == bytes(476 - 256)
    addresses = [row[3] for row in rows]
    assert addresses == sorted(addresses) and len(set(addresses)) == n


def test_micropython_first_byte_for_byte(written):
    data, micropython = written[1:]
    mine, theirs = raw_blocks(data), raw_blocks(micropython)
    assert len(theirs) == MP_BLOCKS
    for a, b in zip(mine, theirs):
        assert a[3] == b[3] and a[8] == b[8]  # address and payload
    # Everything in each block but its number and the total is unchanged.
    for i in range(MP_BLOCKS):
        at = i * 512
        assert data[at:at + 20] + data[at + 28:at + 512] == micropython[at:at + 20] + micropython[at + 28:at + 512]
    # One erased page completes MicroPython's last sector (0x10052f00).
    filler = mine[MP_BLOCKS]
    assert filler[3] == 0x10052F00 and filler[8] == b"\xff" * 256


def test_the_filesystem_is_what_make_flash_installs(blocks, tables_dir, table_files):
    fs = blocks[MP_BLOCKS + 1:]
    assert len(fs) == FS_BLOCKS
    assert [b.address for b in fs] == [0x10000000 + 0xA0000 + 256 * i for i in range(FS_BLOCKS)]
    image = b"".join(b.payload for b in fs)
    assert len(image) == picofs.FS_SIZE == 352 * 4096
    files = picofs.read_image(image)
    expected = picofs.board_files("pico-buttons", tables_dir=tables_dir)
    assert files == dict(expected)
    assert image == picofs.image(expected, picofs.FOLDERS)  # the same files, the same image
    # and the score's folder, made now rather than by the first save (which
    # would add to the root's log: docs/performance.md)
    assert picofs._fs(bytearray(image)).stat(score.FOLDER).type == 2  # a folder
    with open(os.path.join(ROOT, "firmware", "boards", "pico-buttons.json"), "rb") as f:
        assert files["board.json"] == f.read()
    for game, path in table_files.items():
        with open(path, "rb") as f:
            assert files["lib/tactictoe/" + rules.GAMES[game] + ".tbl"] == f.read()
    with open(os.path.join(tables_dir, "puzzles.bin"), "rb") as f:
        assert files["lib/tactictoe/puzzles.bin"] == f.read()  # beside the tables, as the board looks for it
    assert {n for n in files if n.endswith(".mpy")} == {"lib/tactictoe/" + m + ".mpy" for m in flash.MODULES}
    for name in flash.MODULES:
        assert files["lib/tactictoe/" + name + ".mpy"][:2] == b"M\x06"  # .mpy version 6 (v1.28 loads 6.3)
    with open(os.path.join(ROOT, "firmware", "main.py"), "rb") as f:
        assert files["main.py"] == f.read()
    assert len(files) == len(flash.MODULES) + 5


# --- the RP2040 boot ROM ---------------------------------------------------

def bootrom_writes(data, old, order):
    """The flash after the RP2040 boot ROM (pico-bootrom virtual_disk.c) took
    the UF2 ``data``'s blocks in ``order``, over flash holding ``old``: it
    keeps one "erased" bit per 16 block numbers (block_no * 256 / 4096); the
    first block of each 16 to arrive erases the 4 KiB sector holding its own
    address; a page is programmed over what is there (NOR flash: bits only
    fall); a block number seen before is ignored."""
    flash_ = bytearray(old)
    cleared, valid = set(), set()
    parsed = uf2.parse(data)
    for i in order:
        b = parsed[i]
        if b.number in valid:
            continue
        at = b.address - 0x10000000
        if b.number * 256 // 4096 not in cleared:
            cleared.add(b.number * 256 // 4096)
            sector = at - at % 4096
            flash_[sector:sector + 4096] = b"\xff" * 4096
        now = int.from_bytes(flash_[at:at + 256], "little") & int.from_bytes(b.payload, "little")
        flash_[at:at + 256] = now.to_bytes(256, "little")
        valid.add(b.number)
    return flash_


def naive(data):
    """The same pages without the filler: MicroPython's blocks straight
    followed by the filesystem's, renumbered."""
    rows = raw_blocks(data)
    rows = rows[:MP_BLOCKS] + rows[MP_BLOCKS + 1:]
    out = b""
    for n, r in enumerate(rows):
        out += struct.pack("<8I", r[0], r[1], r[2], r[3], r[4], n, len(rows), r[7]) + r[8] + bytes(220) \
            + struct.pack("<I", r[9])
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), shuffled=st.booleans())
def test_the_boot_rom_writes_every_sector_whole(written, seed, shuffled):
    # Whatever the board held before, and in whatever order the computer
    # writes the blocks, the flash ends up holding exactly MicroPython and
    # the filesystem.
    data = written[1]
    rng = random.Random(seed)
    old = rng.randbytes(2 * 1024 * 1024)
    order = list(range(len(data) // 512))
    if shuffled:
        rng.shuffle(order)
    after = bootrom_writes(data, old, order)
    micropython = b"".join(r[8] for r in raw_blocks(written[2]))
    assert after[:len(micropython)] == micropython
    assert after[len(micropython):0x53000] == b"\xff" * (0x53000 - len(micropython))
    fs = b"".join(b.payload for b in uf2.parse(data)[MP_BLOCKS + 1:])
    assert after[0xA0000:0xA0000 + picofs.FS_SIZE] == fs
    assert after[0x53000:0xA0000] == old[0x53000:0xA0000]  # between them: untouched


def test_without_the_filler_the_boot_rom_would_spoil_the_filesystem(written):
    # Why the filler page is there: MicroPython's 1,327 blocks end mid-way
    # through a run of 16, so the filesystem's first block would be taken
    # as already erased, and its sector erased again by the next block.
    data = naive(written[1])
    old = random.Random(1).randbytes(2 * 1024 * 1024)
    after = bootrom_writes(data, old, range(len(data) // 512))
    fs = b"".join(b.payload for b in uf2.parse(data)[MP_BLOCKS:])
    assert after[0xA0000:0xA0000 + picofs.FS_SIZE] != fs


# --- the filesystem on MicroPython -----------------------------------------

MOUNT = """\
import sys, vfs, os, binascii
class Flash:  # rp2.Flash's block protocol, over the image file
    def __init__(self, data):
        self.data = data
    def readblocks(self, n, buf, off=0):
        buf[:] = self.data[n * 4096 + off:n * 4096 + off + len(buf)]
    def writeblocks(self, n, buf, off=0):
        self.data[n * 4096 + off:n * 4096 + off + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // 4096
        if op == 5:
            return 4096
        if op == 6:
            self.data[arg * 4096:arg * 4096 + 4096] = b'\\xff' * 4096
        return 0
with open(sys.argv[1], 'rb') as f:
    data = bytearray(f.read())
vfs.mount(vfs.VfsLfs2(Flash(data), progsize=256), '/pico')  # as ports/rp2/modules/_boot.py
def walk(folder, prefix):
    for name in sorted(os.listdir(folder)):
        if os.stat(folder + '/' + name)[0] & 0x4000:
            walk(folder + '/' + name, prefix + name + '/')
            continue
        with open(folder + '/' + name, 'rb') as f:
            b = f.read()
        print(prefix + name, len(b), binascii.crc32(b))
walk('/pico', '')
with open('/pico/note.txt', 'w') as f:
    f.write('written on MicroPython')
vfs.umount('/pico')
with open(sys.argv[1], 'wb') as f:
    f.write(data)
"""


def test_micropythons_littlefs_mounts_the_image_and_writes_to_it(blocks, tables_dir, tmp_path):
    import binascii

    image = tmp_path / "fs.img"
    image.write_bytes(b"".join(b.payload for b in blocks[MP_BLOCKS + 1:]))
    script = tmp_path / "mount.py"
    script.write_text(MOUNT)
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=4M", str(script), str(image)],
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    expected = sorted(picofs.board_files("pico-buttons", tables_dir=tables_dir))
    assert r.stdout.splitlines() == ["%s %d %d" % (n, len(d), binascii.crc32(d)) for n, d in expected]
    back = picofs.read_image(image.read_bytes())
    assert back == dict(expected, **{"note.txt": b"written on MicroPython"})


def test_the_uf2_boots_on_the_emulated_pico(tmp_path, tables_dir):
    # MicroPython's pages and the filesystem, and nothing else: no flash file.
    from pico_board import PicoRun, is_menu

    need_image("micropython", "bootrom")
    path = tmp_path / "t.uf2"
    uf2.write(str(path), "pico-matrix", tables_dir=tables_dir)
    b = PicoRun(None, board="pico-matrix", uf2=(str(path),))
    try:
        b.wait(is_menu, 5000, "the menu")
        b.run(300)
        b.type("\x03")
        b.run(300)
        with open(os.path.join(flash.BOARDS, "pico-matrix.json")) as f:
            b.type("import os; print('FILES', sorted(os.listdir()), sorted(os.listdir('lib/tactictoe')),"
                   " open('board.json').read() == %r)\r\n" % f.read())
        line = b.wait(lambda x: x.startswith("serial FILES "), 3000, "the listing")
        # (its narration aside)
        console = [x for x in b.lines if x.startswith("serial ") and not x.startswith("serial > ")]
    finally:
        b.close()
    names = sorted(n for n, _ in picofs.board_files("pico-matrix", tables_dir=tables_dir))
    root = sorted({n.split("/")[0] for n in names})
    package = [n[len("lib/tactictoe/"):] for n in names if n.startswith("lib/tactictoe/")]
    assert root == ["board.json", "lib", "main.py"]
    assert line == "serial FILES %r %r True" % (root, package)
    # Until Ctrl-C stopped it, the firmware said nothing but its narration:
    # both tables opened, the config valid (each problem is a console line).
    # Ctrl-C stopped it with one calm line, not a traceback.
    assert console.index("serial stopped: Ctrl-C; the REPL is yours (reset to play again)") == 0


# --- the CLI ---------------------------------------------------------------

def test_cli_says_what_it_wrote(written, tables_dir):
    r, data, _ = written
    out = r.stdout.splitlines()
    assert out[0] == "board:    pico-buttons"
    files = picofs.board_files("pico-buttons", tables_dir=tables_dir)
    assert out[1:5] == ["holds:    MicroPython v1.28.0 (rp2 port, RPI_PICO)",
                        "          and at 0x100a0000 a 1408 KiB littlefs filesystem: %d files, %d bytes"
                        % (len(flash.MODULES) + 5, sum(len(d) for _, d in files)),
                        "          /lib/tactictoe: %d firmware modules (.mpy), classic.tbl, tactictoe.tbl,"
                        " puzzles.bin"
                        % len(flash.MODULES),
                        "          /: main.py, board.json"]
    assert out[5] == "size:     %d bytes (6960 blocks)" % len(data)
    assert out[6].startswith("written:  ") and out[6].endswith("tactictoe-pico-buttons.uf2")
    assert "BOOTSEL" in out[7] and "RPI-RP2" in out[7] and "replaces MicroPython" in out[8]
    assert len(out) == 9 and all(len(line) < 100 for line in out if not line.startswith("written:"))
    assert r.stderr == ""


@pytest.mark.parametrize("board, says", [
    ("esp32-touch", "esp32-touch is wired for an esp32-devkit, not an RP2040"),
    ("circuitpython-pico", "circuitpython-pico is a CircuitPython config"),
    ("nosuch", "no board 'nosuch' (BOARD=nosuch: no such file or directory)"),
])
def test_cli_refuses_a_board_that_is_not_a_micropython_pico(board, says, tables_dir, tmp_path):
    out = tmp_path / "x.uf2"
    line = one_line_error(run_cli("uf2", "--board", board, "--tables", tables_dir, "-o", out))
    assert line.startswith("error: ") and says in line
    assert not out.exists()


@pytest.mark.parametrize("board, runtime, config, build", [
    ("macropad", "micropython", "macropad", "micropython"),
    ("keypad", "micropython", "keypad", "micropython"),
    ("macropad", "circuitpython", "circuitpython-macropad", "circuitpython-macropad"),
    ("keypad", "circuitpython", "circuitpython-keypad", "circuitpython-pico"),
    ("keybow", "micropython", "keybow", "micropython"),
    ("keybow", "circuitpython", "circuitpython-keybow", "circuitpython-keybow"),
])
def test_the_bought_boards_get_their_own_build_and_config(board, runtime, config, build, tables_dir, tmp_path, base):
    """make uf2 BOARD=macropad|keypad|keybow [RUNTIME=circuitpython]: the
    MacroPad's and the Keybow's CircuitPython are their own builds; the
    keypad is a Pico."""
    build = base_path(base, build)
    out = tmp_path / "x.uf2"
    r = run_cli("uf2", "--board", board, "--runtime", runtime, "--tables", tables_dir, "-o", out, env=base[0])
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "board:    %s" % config
    below = uf2.FS_ADDRESS if runtime == "micropython" else uf2.FLASH_BASE + 0x100000
    firmware = uf2.micropython_pages(build, below)
    blocks = uf2.parse(out.read_bytes())
    assert [(b.address, bytes(b.payload)) for b in blocks[:len(firmware)]] == firmware
    assert ("encoder's knob" in r.stdout) == (board == "macropad")
    assert ("Keybow's top edge" in r.stdout) == (board == "keybow")


@pytest.mark.parametrize("board", ["pico-matrix", "pico-mx"])
def test_make_uf2_board_carries_that_config(board, tables_dir, tmp_path, fakes):
    """make uf2 BOARD=pico-mx (or any shipped Pico config): the file make
    names after the board, holding that config as board.json, the files
    make flash puts on such a board and MicroPython's pages below them."""
    r = subprocess.run(["make", "--no-print-directory", "-n", "uf2", "BOARD=%s" % board], cwd=ROOT,
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    assert ' uf2 --runtime "micropython" --board "%s" ' % board in r.stdout, r.stdout
    assert r.stdout.rstrip().endswith('-o "build/tactictoe-%s.uf2"' % board), r.stdout
    out = tmp_path / ("tactictoe-%s.uf2" % board)
    r = run_cli("uf2", "--board", board, "--tables", tables_dir, "-o", out, env={"FIRMWARE_DIR": str(fakes)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "board:    %s" % board
    blocks = uf2.parse(out.read_bytes())
    files = picofs.read_image(b"".join(b.payload for b in blocks if b.address >= uf2.FS_ADDRESS))
    assert files == dict(picofs.board_files(board, tables_dir=tables_dir))
    with open(os.path.join(ROOT, "firmware", "boards", board + ".json"), "rb") as f:
        assert files["board.json"] == f.read()
    firmware = uf2.micropython_pages(base_path(({}, str(fakes)), "micropython"), uf2.FS_ADDRESS)
    assert [(b.address, bytes(b.payload)) for b in blocks[:len(firmware)]] == firmware


def test_cli_refuses_a_touch_config(tmp_path, tables_dir):
    cfg = tmp_path / "touch.json"
    cfg.write_text('{"input": {"kind": "touch", "pins": [1, 2, 3, 4, 5, 6, 7, 8, 9]}, "leds": {"pin": 13}}')
    line = one_line_error(run_cli("uf2", "--board", cfg, "--tables", tables_dir, "-o", tmp_path / "x.uf2"))
    assert "touch pads, which a Pico does not have" in line


def test_cli_errors_are_one_line(tmp_path, tables_dir):
    line = one_line_error(run_cli("uf2", "--tables", tmp_path, "-o", tmp_path / "x.uf2"))
    assert "classic.tbl" in line and "make table" in line
    line = one_line_error(run_cli("uf2", "--tables", tables_dir, "-o", tmp_path / "no" / "x.uf2"))
    assert "does not exist" in line
    line = one_line_error(run_cli("uf2", "--tables", tables_dir, "-o", tmp_path))
    assert "it is a folder" in line
    # a usage error, as argparse's own are (status 2)
    line = one_line_error(run_cli("uf2", "--games", "chess", "--tables", tables_dir, "-o", tmp_path / "x.uf2"), 2)
    assert line == ("python -m host_tools uf2: error: argument --games: no game 'chess' (games: classic, tactictoe)"
                    " (see --help)"), line
    # no game at all: a UF2 is the board's whole filesystem, so it would have no table
    line = one_line_error(run_cli("uf2", "--games", "", "--tables", tables_dir, "-o", tmp_path / "x.uf2"))
    assert line == ("error: --games '' names no game: a UF2 replaces every file on the board, so it needs a table"
                    " (give --games classic, or leave it out for both)"), line
    assert os.listdir(tmp_path) == []


def test_one_game_only(tmp_path, tables_dir, fakes):
    r = run_cli("uf2", "--games", "tactictoe", "--tables", tables_dir, "-o", tmp_path / "t.uf2",
                env={"FIRMWARE_DIR": str(fakes)})
    assert r.returncode == 0, r.stderr
    files = picofs.read_image(b"".join(b.payload for b in uf2.parse((tmp_path / "t.uf2").read_bytes())
                                       if b.address >= uf2.FS_ADDRESS))
    assert "lib/tactictoe/tactictoe.tbl" in files and "lib/tactictoe/classic.tbl" not in files


# --- the pieces ------------------------------------------------------------

def test_parse_refuses_what_is_not_uf2():
    good = uf2.pack([(0x10000000, b"x" * 10)])
    assert len(uf2.parse(good)) == 16  # a whole sector
    with pytest.raises(uf2.UF2Error, match="whole number"):
        uf2.parse(good[:-1])
    with pytest.raises(uf2.UF2Error, match=r"block 3 \(byte 1536\) is not a UF2 block"):
        uf2.parse(good[:3 * 512] + b"\0" + good[3 * 512 + 1:])


def test_pack_fills_sectors_and_wants_pages_in_order():
    data = uf2.pack([(0x10001100, b"a" * 300), (0x10003000, b"b")])
    got = uf2.parse(data)
    assert [b.address for b in got] == [0x10001000 + 256 * i for i in range(16)] + \
        [0x10003000 + 256 * i for i in range(16)]
    assert got[0].payload == b"\xff" * 256 and got[17].payload == b"\xff" * 256
    assert got[1].payload == b"a" * 256
    assert got[16].payload == b"b" + b"\xff" * 255
    assert got[2].payload == b"a" * 44 + b"\xff" * 212
    with pytest.raises(uf2.UF2Error, match="page"):
        uf2.pack([(0x10000010, b"x")])
    with pytest.raises(uf2.UF2Error, match="ascending"):
        uf2.pack([(0x10001000, b"x"), (0x10000000, b"y")])


names = st.text("abcdefghijklmnopqrstuvwxyz0123456789_.-", min_size=1, max_size=20).filter(
    lambda n: n not in (".", ".."))


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.one_of(names, st.tuples(names, names).map("/".join)), st.binary(max_size=9000),
                       max_size=12))
def test_picofs_reads_back_what_it_was_given(files):
    folders = {n.split("/")[0] for n in files if "/" in n}
    files = {n: d for n, d in files.items() if n not in folders}  # a name is a file or a folder
    data = picofs.image(sorted(files.items()))
    assert len(data) == picofs.FS_SIZE
    assert picofs.read_image(data) == files


def test_picofs_superblock_and_limits():
    data = picofs.image([("a", b"1")])
    # littlefs's superblock: disk version 2.1, 4096-byte blocks, 352 of them,
    # names to 255 bytes, MicroPython's LFS2_FILE_MAX and LFS2_ATTR_MAX.
    at = data.index(b"littlefs") + 8 + 4
    assert struct.unpack_from("<6I", data, at) == (0x00020001, 4096, 352, 255, 0x7FFFFFFF, 1022)
    assert hashlib.sha256(picofs.image([("a", b"1")])).digest() == hashlib.sha256(data).digest()
    with pytest.raises(flash.FlashError, match="do not fit"):
        picofs.image([("big", bytes(picofs.FS_SIZE))])
    with pytest.raises(ValueError, match="not a littlefs"):
        picofs.read_image(b"\xff" * picofs.FS_SIZE)
    with pytest.raises(ValueError, match="bytes"):
        picofs.read_image(b"\xff" * 4096)
