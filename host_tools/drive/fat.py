"""The CIRCUITPY drive as a file: the FAT12 image CircuitPython mounts at
flash offset 0x100000 on a Raspberry Pi Pico (the last 1 MiB of its 2 MiB),
written and read here, without mtools or dosfstools.

The geometry is what ``mkfs.fat -F 12 -S 512 -s 1 -n CIRCUITPY`` makes of
1 MiB, and what CircuitPython's own format gives the drive: 2,048 sectors
of 512 bytes, one reserved, two FATs of 6 sectors, 512 root entries (32
sectors), one sector a cluster (2,003 clusters). Names that are not plain
8.3 get VFAT long-name entries (with a "~N" short alias), as a computer
writes them; 8.3 names in lower case use the case flags Windows NT uses
instead. Every timestamp is 2020-01-01 00:00 and the volume id is a CRC of
the contents, so the same files give the same bytes.
"""

import binascii
import struct

FS_OFFSET = 0x100000  # where the drive starts in a Pico's flash
SECTOR = 512
SECTORS = 2048  # 1 MiB
FS_SIZE = SECTOR * SECTORS
RESERVED = 1
FATS = 2
FAT_SECTORS = 6
ROOT_ENTRIES = 512
ROOT_SECTORS = ROOT_ENTRIES * 32 // SECTOR
DATA_START = RESERVED + FATS * FAT_SECTORS + ROOT_SECTORS  # first sector of cluster 2
CLUSTERS = SECTORS - DATA_START
LABEL = "CIRCUITPY"
_DATE = (2020 - 1980) << 9 | 1 << 5 | 1
_SHORT_OK = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'()-@^_`{}~")
ATTR_LABEL, ATTR_DIR, ATTR_ARCHIVE, ATTR_LFN = 0x08, 0x10, 0x20, 0x0F


class FatError(ValueError):
    """Files a 1 MiB FAT12 drive can't hold, or an image that isn't one."""


def _checksum(short):
    s = 0
    for c in short:
        s = (((s & 1) << 7) + (s >> 1) + c) & 0xFF
    return s


def _entry(short, attr, cluster=0, size=0, case=0):
    return struct.pack("<11sBBBHHHHHHHI", short, attr, case, 0, 0, _DATE, _DATE, 0, 0, _DATE, cluster, size)


def _plain_short(name):
    """(11-byte short name, NT case flags) if ``name`` is a plain 8.3 name
    in one case per part, else None."""
    base, dot, ext = name.partition(".")
    if not 1 <= len(base) <= 8 or len(ext) > 3 or "." in ext or (dot and not ext):
        return None
    case = 0
    for part, flag in ((base, 0x08), (ext, 0x10)):
        if not set(part.upper()) <= _SHORT_OK:
            return None
        if part != part.upper():
            if part != part.lower():
                return None
            case |= flag
    return (base.upper().ljust(8) + ext.upper().ljust(3)).encode("ascii"), case


def _alias(name, taken):
    base, _, ext = name.rpartition(".") if "." in name.lstrip(".") else (name, "", "")
    def clean(s):
        return "".join(c if c in _SHORT_OK else "_" for c in s.upper().replace(" ", "").replace(".", ""))

    base, ext = clean(base) or "_", clean(ext)[:3]
    for n in range(1, 1000000):
        tail = "~%d" % n
        short = (base[:8 - len(tail)] + tail).ljust(8) + ext.ljust(3)
        short = short.encode("ascii")
        if short not in taken:
            return short
    raise FatError("%s: no short name left" % name)


def _name_entries(name, taken, attr, cluster, size):
    """The 32-byte entries naming ``name``: long-name entries (if needed),
    then the short entry."""
    plain = _plain_short(name)
    if plain is not None and plain[0] not in taken:
        taken.add(plain[0])
        return [_entry(plain[0], attr, cluster, size, plain[1])]
    if len(name) > 255:
        raise FatError("%s: a name of over 255 characters" % name)
    short = _alias(name, taken)
    taken.add(short)
    raw = name.encode("utf-16-le")
    units = list(struct.unpack("<%dH" % (len(raw) // 2), raw))
    if len(units) % 13:
        units.append(0)
    while len(units) % 13:
        units.append(0xFFFF)
    count = len(units) // 13
    out = []
    chk = _checksum(short)
    for seq in range(count, 0, -1):
        u = units[13 * (seq - 1):13 * seq]
        out.append(struct.pack("<B5HBBB6HH2H", seq | (0x40 if seq == count else 0), *u[:5], ATTR_LFN, 0, chk,
                               *u[5:11], 0, *u[11:13]))
    return out + [_entry(short, attr, cluster, size)]


def image(files, label=LABEL):
    """The whole drive (FS_SIZE bytes) holding ``files``, a list of
    ``(path, bytes)``: "name" in the root, "folder/name" in folders (made as
    needed). FatError when they don't fit."""
    tree = {}
    for path, data in files:
        parts = path.strip("/").split("/")
        node = tree
        for p in parts[:-1]:
            node = node.setdefault(p, {})
            if not isinstance(node, dict):
                raise FatError("%s: %s is a file" % (path, p))
        if parts[-1] in node:
            raise FatError("%s: the same name twice" % path)
        node[parts[-1]] = bytes(data)
    fat = [0xFF8, 0xFFF] + [0] * CLUSTERS
    data_area = bytearray(CLUSTERS * SECTOR)
    state = {"next": 2}

    def alloc(nbytes):
        n = max(1, -(-nbytes // SECTOR))
        first = state["next"]
        if first + n > CLUSTERS + 2:
            raise FatError("the files do not fit in the %d KiB CIRCUITPY drive" % (FS_SIZE // 1024))
        for c in range(first, first + n):
            fat[c] = c + 1
        fat[first + n - 1] = 0xFFF
        state["next"] = first + n
        return first

    def put(cluster, blob):
        at = (cluster - 2) * SECTOR
        data_area[at:at + len(blob)] = blob

    def directory(node, own, parent):
        """The entries of folder ``node`` (its contents written first)."""
        taken = set()
        entries = []
        if own is not None:
            entries += [_entry(b".          ", ATTR_DIR, own), _entry(b"..         ", ATTR_DIR, parent)]
        for name in sorted(node):
            item = node[name]
            if isinstance(item, dict):
                # a folder's size is its entry count, known only once named:
                # give it the clusters its entries need
                names = set()
                need = 2 + sum(len(_name_entries(n, names, 0, 0, 0)) for n in sorted(item))
                cluster = alloc(32 * need)
                put(cluster, b"".join(directory(item, cluster, own or 0)))
                entries += _name_entries(name, taken, ATTR_DIR, cluster, 0)
            else:
                cluster = alloc(len(item)) if item else 0
                if item:
                    put(cluster, item)
                entries += _name_entries(name, taken, ATTR_ARCHIVE, cluster, len(item))
        return entries

    root = [_entry(label.upper().ljust(11).encode("ascii"), ATTR_LABEL)] + directory(tree, None, 0)
    if len(root) > ROOT_ENTRIES:
        raise FatError("more than %d entries in the drive's top folder" % ROOT_ENTRIES)
    fat_bytes = bytearray(FAT_SECTORS * SECTOR)
    for n, v in enumerate(fat):
        at = n * 3 // 2
        if n % 2:
            fat_bytes[at] = (fat_bytes[at] & 0x0F) | (v << 4) & 0xF0
            fat_bytes[at + 1] = v >> 4
        else:
            fat_bytes[at] = v & 0xFF
            fat_bytes[at + 1] = (fat_bytes[at + 1] & 0xF0) | v >> 8
    root_bytes = b"".join(root).ljust(ROOT_SECTORS * SECTOR, b"\0")
    serial = binascii.crc32(bytes(fat_bytes) + root_bytes + data_area)
    boot = bytearray(SECTOR)
    boot[0:3] = b"\xeb\x3c\x90"
    struct.pack_into("<8sHBHBHHBHHHII", boot, 3, b"MSWIN4.1", SECTOR, 1, RESERVED, FATS, ROOT_ENTRIES, SECTORS,
                     0xF8, FAT_SECTORS, 32, 64, 0, 0)
    struct.pack_into("<BBBI11s8s", boot, 36, 0x80, 0, 0x29, serial, label.upper().ljust(11).encode("ascii"),
                     b"FAT12   ")
    boot[510:512] = b"\x55\xaa"
    return bytes(boot) + bytes(fat_bytes) * FATS + root_bytes + bytes(data_area)


def read_image(data):
    """``{path: bytes}`` of every file on a FAT12/16 drive image (paths
    without a leading "/", folders as "folder/name", long names where
    there are): what ``image`` was given, or what the board wrote."""
    if len(data) < SECTOR or data[510:512] != b"\x55\xaa":
        raise FatError("not a FAT drive (no boot sector signature)")
    (bps, spc, reserved, fats, root_entries, total16, _media, fat_sectors) = struct.unpack_from("<HBHBHHBH", data, 11)
    if bps not in (512, 1024, 2048, 4096) or not spc or not fats or not fat_sectors:
        raise FatError("not a FAT12/16 drive (its boot sector's geometry is not one)")
    total = total16 or struct.unpack_from("<I", data, 32)[0]
    if total * bps > len(data):
        raise FatError("the drive says %d bytes; the image has %d" % (total * bps, len(data)))
    fat_at = reserved * bps
    root_at = fat_at + fats * fat_sectors * bps
    data_at = root_at + root_entries * 32
    cluster_size = spc * bps
    clusters = (total * bps - data_at) // cluster_size
    fat16 = clusters >= 4085

    def next_cluster(c):
        if fat16:
            return struct.unpack_from("<H", data, fat_at + 2 * c)[0]
        v = struct.unpack_from("<H", data, fat_at + c * 3 // 2)[0]
        return v >> 4 if c % 2 else v & 0xFFF

    def chain(c, size=None):
        out = bytearray()
        seen = set()
        while 2 <= c < clusters + 2 and c not in seen:
            seen.add(c)
            at = data_at + (c - 2) * cluster_size
            out += data[at:at + cluster_size]
            c = next_cluster(c)
        return bytes(out if size is None else out[:size])

    files = {}

    def walk(raw, prefix):
        lfn = []
        for at in range(0, len(raw) - 31, 32):
            e = raw[at:at + 32]
            if e[0] == 0:
                break
            if e[0] == 0xE5:
                lfn = []
                continue
            if e[11] == ATTR_LFN:
                lfn.append(e)
                continue
            short = e[:11]
            attr, case = e[11], e[12]
            (cluster,) = struct.unpack_from("<H", e, 26)
            (size,) = struct.unpack_from("<I", e, 28)
            name = None
            if lfn and all(x[13] == _checksum(short) for x in lfn):
                units = b"".join(x[1:11] + x[14:26] + x[28:32] for x in sorted(lfn, key=lambda x: x[0] & 0x3F))
                name = units.decode("utf-16-le").split("\0")[0]
            lfn = []
            if attr & ATTR_LABEL:
                continue
            if name is None:
                base, ext = short[:8].decode("latin-1").rstrip(), short[8:].decode("latin-1").rstrip()
                if base in (".", ".."):
                    continue
                base = base.lower() if case & 0x08 else base
                ext = ext.lower() if case & 0x10 else ext
                name = base + ("." + ext if ext else "")
            if attr & ATTR_DIR:
                walk(chain(cluster), prefix + name + "/")
            else:
                files[prefix + name] = chain(cluster, size) if size else b""

    walk(data[root_at:data_at], "")
    return files
