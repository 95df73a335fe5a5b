"""The Pico's flash filesystem as a file: the littlefs v2 image MicroPython's
rp2 port mounts at flash offset 0xa0000 on RPI_PICO, built and read with
the pinned ``littlefs-python``."""

FS_OFFSET = 0xA0000  # where the rp2 port's filesystem starts in flash
BLOCK_SIZE = 4096
BLOCK_COUNT = 352  # 1,441,792 bytes on RPI_PICO
FS_SIZE = BLOCK_SIZE * BLOCK_COUNT


def _fs(**kw):
    from littlefs import LittleFS

    # MicroPython's lfs2 block device: read and program 256 bytes at a time.
    return LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, read_size=256, prog_size=256, **kw)


def image(files):
    """A whole filesystem image (FS_SIZE bytes) holding ``files``, a list of
    ``(name, bytes)`` in the root folder."""
    fs = _fs()
    for name, data in files:
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def read_image(data):
    """``{path: bytes}`` of every file in an image (paths without a leading
    "/"; files in folders as "folder/name")."""
    fs = _fs(mount=False)
    fs.context.buffer[:] = data
    fs.mount()
    out = {}
    for root, _dirs, names in fs.walk("/"):
        for name in names:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out
