"""The official firmware images: MicroPython's and CircuitPython's UF2s for
the RP2040 boards, and the RP2040's boot ROM, which ``make uf2`` and the
emulated RP2040 (``make sim CHIP=rp2040``, the emulated-board tests and
benchmarks) need. None is kept in the repository: each comes from its
publisher, on the user's machine, the first time something needs it
(``make firmware`` fetches them all).

``IMAGES`` is the manifest: for each image, the file it is kept as, where
it comes from, what must be inside it, and its sha256 once a maintainer has
recorded it (``python -m host_tools firmware --sha256`` prints them).

Where they are kept: the folder ``FIRMWARE_DIR`` names (the environment or
make variable: files downloaded by hand; nothing is downloaded into it),
else the cache, ``$XDG_CACHE_HOME/tactictoe/firmware`` (default
``~/.cache/tactictoe/firmware``). ``find`` returns a checked image's path and
never downloads; ``get`` downloads a missing one first, unless FIRMWARE_DIR
is set or ``TACTICTOE_NO_DOWNLOAD=1`` (the test suite sets it: a test only
looks).

Each image is checked before use: a UF2's blocks (whole, numbered 0 to n-1
of n: a truncated file fails), its family (RP2040) and the version and board
strings inside it; the boot ROM's size and its header (``Mu``, version 2:
B1); the sha256 when one is recorded. A wrong, missing or truncated file is
one line (``ImageError``) naming it and saying what to do.

Downloads use the standard library only: a file is fetched whole, checked,
then written to a temporary name and renamed, so a cut connection, a wrong
file or Ctrl-C leaves nothing behind. (The ecosystem's downloaders, PyPI's
``mpflash`` and ``circfirm``, each cover one runtime and neither the boot
ROM, and bring in dozens of packages, circfirm with exact pins such as
``requests==2.34.2``; this takes five URLs.)
"""

import glob
import hashlib
import http.client
import os
import re
import struct
import urllib.parse
import urllib.request

from host_tools import outputs
from host_tools.oserrors import reported

NO_DOWNLOAD = "TACTICTOE_NO_DOWNLOAD"
FAMILY_RP2040 = 0xE48BFF56
ROM_SIZE = 16384  # the RP2040's boot ROM, 0x0000-0x3fff
TIMEOUT_S = 60  # a connection that says nothing for this long is given up


class ImageError(Exception):
    """An image that is wrong, or can't be fetched: one line naming it."""


class ImageMissing(ImageError):
    """An image that is not there (and was not downloaded). ``image`` is its
    ``Image``."""

    def __init__(self, message, image):
        super().__init__(message)
        self.image = image


class Image:
    """One official image.

    :param str title: what it is, as the tools say it.
    :param str file: the name it is kept under.
    :param str source: where it comes from (a download page, or the file).
    :param str published: the publisher's file name (a glob for
        MicroPython's, whose name carries its build date); found under that
        name too.
    :param marks: bytes that must be inside it (version, board).
    :param str kind: "uf2", or "rom" (the boot ROM, published as an ELF).
    :param link: for a download page, the pattern of the link to follow.
    :param sha256: its hex digest, once recorded.
    """

    def __init__(self, title, file, source, published, marks, kind="uf2", link=None, sha256=None):
        self.title, self.file, self.source, self.published = title, file, source, published
        self.marks, self.kind, self.link, self.sha256 = marks, kind, link, sha256

    def __repr__(self):
        return "<Image %s>" % self.file


def _circuitpython(board, banner):
    name = "adafruit-circuitpython-%s-en_US-10.2.1.uf2" % board
    return Image("CircuitPython 10.2.1 (%s, en_US)" % board, name,
                 "https://downloads.circuitpython.org/bin/%s/en_US/%s" % (board, name), name,
                 (b"CircuitPython 10.2.1", banner))


IMAGES = {
    "micropython": Image("MicroPython v1.28.0 (rp2 port, RPI_PICO)", "RPI_PICO-v1.28.0.uf2",
                         "https://micropython.org/download/RPI_PICO/", "RPI_PICO-*-v1.28.0.uf2",
                         (b"MicroPython v1.28.0", b"Raspberry Pi Pico with RP2040"),
                         link=r"/resources/firmware/RPI_PICO-\d{8}-v1\.28\.0\.uf2"),
    "circuitpython-pico": _circuitpython("raspberry_pi_pico", b"Raspberry Pi Pico with rp2040"),
    "circuitpython-macropad": _circuitpython("adafruit_macropad_rp2040", b"Adafruit Macropad RP2040 with rp2040"),
    "circuitpython-keybow": _circuitpython("pimoroni_keybow2040", b"Pimoroni Keybow 2040 with rp2040"),
    "bootrom": Image("the RP2040's boot ROM B1", "rp2040-bootrom-B1.bin",
                     "https://github.com/raspberrypi/pico-bootrom-rp2040/releases/download/b1/b1.elf", "b1.elf",
                     (b"Mu\x01\x02",), kind="rom"),
}


# --- where they are ---------------------------------------------------------------


def cache_dir():
    """The cache: ``$XDG_CACHE_HOME/tactictoe/firmware`` (default
    ``~/.cache/tactictoe/firmware``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tactictoe", "firmware")


def hand_dir():
    """The folder FIRMWARE_DIR names, or None; ImageError if it names no
    folder."""
    folder = os.environ.get("FIRMWARE_DIR")
    if not folder:
        return None
    if not os.path.isdir(folder):
        raise ImageError("FIRMWARE_DIR=%s: no such folder (it names a folder of firmware images you downloaded;"
                         " leave it unset for the cache, %s)" % (folder, cache_dir()))
    return folder


def folder():
    """Where the images are looked for: FIRMWARE_DIR's folder, else the cache."""
    return hand_dir() or cache_dir()


def can_download():
    """Whether ``get`` may download: not into FIRMWARE_DIR, not in tests."""
    return not os.environ.get("FIRMWARE_DIR") and os.environ.get(NO_DOWNLOAD) != "1"


def missing(image, where):
    """The one line for an image that is not in ``where``: which file, where
    it comes from, where it goes."""
    named = "" if image.published == image.file else " (published as %s)" % image.published
    if os.environ.get("FIRMWARE_DIR"):
        how = "download %s%s from %s into FIRMWARE_DIR=%s" % (image.title, named, image.source, where)
    else:
        how = ("`make firmware` downloads %s%s from %s into %s (or put it there by hand)"
               % (image.title, named, image.source, where))
    return "%s is missing: %s" % (image.file, how)


# --- checks -------------------------------------------------------------------------


def _uf2_payload(data):
    """The payload of a UF2, checked whole and for the RP2040; ValueError
    saying what is wrong. (The blocks as ``drive/uf2.py`` reads them, which
    takes its base image from here: https://github.com/microsoft/uf2.)"""
    if not data or len(data) % 512:
        raise ValueError("is truncated (%d bytes, not whole 512-byte UF2 blocks)" % len(data))
    count = len(data) // 512
    payload = []
    for i in range(count):
        at = i * 512
        m0, m1, flags, _, size, number, total, family = struct.unpack_from("<8I", data, at)
        end, = struct.unpack_from("<I", data, at + 508)
        if (m0, m1, end) != (0x0A324655, 0x9E5D5157, 0x0AB16F30) or size > 476:
            raise ValueError("is not a UF2 file (block %d, byte %d, is not a UF2 block)" % (i, at))
        if not flags & 0x2000 or family != FAMILY_RP2040:
            raise ValueError("is not for the RP2040 (block %d's family is %s, not 0xe48bff56)"
                             % (i, "%#x" % family if flags & 0x2000 else "missing"))
        if (number, total) != (i, count):
            raise ValueError("is truncated or damaged (block %d says it is %d of %d; the file holds %d)"
                             % (i, number, total, count))
        payload.append(data[at + 32:at + 32 + size])
    return b"".join(payload)


def problem(image, data):
    """What is wrong with ``data`` as ``image`` ("is truncated ..."), or None."""
    if image.kind == "rom":
        if len(data) != ROM_SIZE:
            return "is %d bytes, not the %d of the RP2040's boot ROM" % (len(data), ROM_SIZE)
        body = data[0x10:0x14]
    else:
        try:
            body = _uf2_payload(data)
        except ValueError as e:
            return str(e)
    for mark in image.marks:
        if mark not in body:
            return "is not %s (%r is not in it)" % (image.title, mark)
    if image.sha256 and hashlib.sha256(data).hexdigest() != image.sha256:
        return "is not the file recorded (its sha256 is not %s)" % image.sha256
    return None


def check(image, data, name=None):
    """ImageError unless ``data`` is ``image``: one line naming the file
    (``name``, default its own) and saying what to do."""
    wrong = problem(image, data)
    if wrong:
        raise ImageError("%s %s: delete it and run `make firmware` (or download it again from %s)"
                         % (name or image.file, wrong, image.source))


def rom_from_elf(data):
    """The 16 KiB ROM image from an ELF's loadable segments at 0x0-0x3fff
    (by load address; gaps are zeros); ValueError for anything else."""
    if data[:4] != b"\x7fELF" or data[4:6] != b"\x01\x01":
        raise ValueError("not a 32-bit little-endian ELF file")
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    rom = bytearray(ROM_SIZE)
    at_zero = False
    for i in range(phnum):
        p_type, offset, _, paddr, filesz, _, _, _ = struct.unpack_from("<8I", data, phoff + i * phentsize)
        if p_type != 1 or not filesz:  # PT_LOAD, with bytes in the file
            continue
        if paddr + filesz > ROM_SIZE:
            continue  # (RAM's, not the ROM's)
        if offset + filesz > len(data):
            raise ValueError("segment %d runs past the end of the file" % i)
        rom[paddr:paddr + filesz] = data[offset:offset + filesz]
        at_zero = at_zero or paddr == 0
    if not at_zero:
        raise ValueError("no loadable segment at address 0")
    return bytes(rom)


_checked = {}  # path -> (size, mtime) of what passed ``check`` in this process


def _check_file(image, path):
    st = os.stat(path)
    if _checked.get(path) == (st.st_size, st.st_mtime_ns):
        return
    with reported(ImageError, "cannot read %s" % path):
        with open(path, "rb") as f:
            data = f.read()
    check(image, data, path)
    _checked[path] = (st.st_size, st.st_mtime_ns)


def _from_elf(image, elf, path):
    """Write the ROM out of the ELF ``elf`` as ``path``."""
    with reported(ImageError, "cannot read %s" % elf):
        with open(elf, "rb") as f:
            data = f.read()
    try:
        rom = rom_from_elf(data)
    except (ValueError, struct.error) as e:
        raise ImageError("%s: %s: delete it and run `make firmware` (or download it again from %s)"
                         % (elf, e, image.source)) from None
    check(image, rom, elf)
    with reported(ImageError, "cannot write %s" % path):
        outputs.write_file(path, rom)


def find(key, where=None):
    """The path of image ``key``, checked; never downloads. ImageMissing
    when it is not there (under its name or the publisher's)."""
    image = IMAGES[key]
    where = where or folder()
    path = os.path.join(where, image.file)
    if not os.path.exists(path):
        published = sorted(glob.glob(os.path.join(glob.escape(where), image.published)))
        if not published:
            raise ImageMissing(missing(image, where), image)
        if image.kind == "rom":
            _from_elf(image, published[-1], path)
        else:
            path = published[-1]
    _check_file(image, path)
    return path


def get(key, say=None):
    """``find(key)``, downloading the image first when it is missing and
    downloads are allowed (``can_download``)."""
    try:
        return find(key)
    except ImageMissing:
        if not can_download():
            raise
    download(IMAGES[key], cache_dir(), say)
    return find(key)


# --- downloads ----------------------------------------------------------------------


def _fetch(url):
    """The bytes at ``url``, whole (a short read is an error)."""
    with urllib.request.urlopen(url, timeout=TIMEOUT_S) as r:
        length = r.headers.get("Content-Length")
        data = r.read()
    if length is not None and len(data) != int(length):
        raise http.client.IncompleteRead(data, int(length) - len(data))
    return data


def resolve(image):
    """The URL of the file itself: for a download page, the link on it."""
    if not image.link:
        return image.source
    page = _fetch(image.source).decode("utf-8", "replace")
    links = sorted(set(re.findall(r'href="(%s)"' % image.link, page)))
    if not links:
        raise ValueError("the page links no %s" % image.published)
    return urllib.parse.urljoin(image.source, links[-1])


def download(image, where, say=None):
    """Fetch ``image`` from its publisher into ``where`` (made if need be),
    checked; ImageError, one line, when it can't."""
    say = say or (lambda line: print(line, flush=True))
    say("downloading %s: %s, from %s" % (image.file, image.title, image.source))
    named = "" if image.published == image.file else " (published as %s)" % image.published
    url = image.source
    try:
        url = resolve(image)
        data = _fetch(url)
        if image.kind == "rom":
            data = rom_from_elf(data)
    except (OSError, ValueError, struct.error, http.client.HTTPException) as e:
        reason = getattr(e, "reason", None) or e
        reason = getattr(reason, "strerror", None) or reason
        if isinstance(e, http.client.IncompleteRead):
            reason = "the connection closed after %d bytes" % len(e.partial)
        raise ImageError("cannot download %s from %s: %s; download it%s by hand into %s, or set FIRMWARE_DIR= to"
                         " the folder that holds it" % (image.file, url, reason, named, where)) from None
    wrong = problem(image, data)
    if wrong:
        raise ImageError("%s from %s %s: nothing was written; download it by hand into %s"
                         % (image.file, url, wrong, where))
    with reported(ImageError, "cannot write %s" % os.path.join(where, image.file)):
        os.makedirs(where, exist_ok=True)
        outputs.write_file(os.path.join(where, image.file), data)
    return os.path.join(where, image.file)


def sha256s(where=None):
    """``[(file, hex digest)]`` of the images present, for a maintainer to
    record in ``IMAGES``."""
    out = []
    for key in IMAGES:
        try:
            path = find(key, where)
        except ImageMissing:
            continue
        with open(path, "rb") as f:
            out.append((key, os.path.basename(path), hashlib.sha256(f.read()).hexdigest()))
    return out
