"""Writing what a tool makes: every file replaced whole, or not at all.

Each file goes to a temporary name beside it (``NAME.PID.tmp``), is flushed
to the disk, and is renamed over the old one only when every file of the
output is written. A failure (a full disk, a read-only folder, Ctrl-C)
removes the temporary files and the folders made for them, so what was there
before is left, and nothing else. Only regular files are replaced: a device,
FIFO, socket or folder where a file should go is refused (``NotAFile``, an
OSError, so ``oserrors.reported`` makes it one line), never turned into a
file. A symlink is written through: its target is replaced, the link kept.
"""

import errno
import os
import stat

KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
         (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


class NotAFile(OSError):
    """Something other than a regular file (or a folder) is in the way."""


def kind(mode):
    """What a file of this ``st_mode`` is, in words."""
    for test, words in KINDS:
        if test(mode):
            return words
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def _mode(path):
    """``st_mode`` of ``path``, or None when nothing is there."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        return None


def check_file(path):
    """The path to write for ``path`` (a symlink's target); NotAFile unless
    it is a regular file or nothing yet."""
    real = os.path.realpath(path)
    mode = _mode(real)
    if mode is not None and not stat.S_ISREG(mode):
        raise NotAFile(errno.EISDIR if stat.S_ISDIR(mode) else errno.EEXIST,
                       "it is %s, not a regular file" % kind(mode))
    return real


def check_folder(path):
    """NotAFile unless ``path`` is a folder or nothing yet."""
    mode = _mode(path)
    if mode is not None and not stat.S_ISDIR(mode):
        raise NotAFile(errno.ENOTDIR, "it is %s, not a folder" % kind(mode))


def _put(fd, data):
    """Write all of ``data`` to ``fd``."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _stage(target, data):
    """Write ``data`` to a new temporary file beside ``target``; its name."""
    tmp = "%s.%d.tmp" % (target, os.getpid())
    if os.path.lexists(tmp):  # left by a killed run of this process id
        os.remove(tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        _put(fd, data.encode() if isinstance(data, str) else data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.remove(tmp)
        raise
    os.close(fd)
    return tmp


def _make_folders(folder, made):
    """``os.makedirs(folder)``, noting in ``made`` each folder it made."""
    if not folder or os.path.isdir(folder):
        return
    _make_folders(os.path.dirname(folder), made)
    check_folder(folder)
    os.mkdir(folder)
    made.append(folder)


def _undo(tmps, made):
    """Remove the temporary files and the (now empty) folders made for them."""
    for tmp in tmps:
        if os.path.lexists(tmp):
            os.remove(tmp)
    for folder in reversed(made):
        try:
            os.rmdir(folder)
        except OSError:
            pass


def write_files(files):
    """Write every ``(path, bytes or str)``: all are staged, then renamed
    into place; on any failure none is replaced and nothing is left."""
    targets = [check_file(path) for path, _ in files]
    tmps, made = [], []
    try:
        for target, (_, data) in zip(targets, files):
            _make_folders(os.path.dirname(target), made)
            tmps.append(_stage(target, data))
        for tmp, target in zip(tmps, targets):
            os.replace(tmp, target)
    except BaseException:
        _undo(tmps, made)
        raise


def write_file(path, data):
    """Replace ``path`` with ``data`` (bytes or str), whole or not at all."""
    write_files([(path, data)])


def write_tree(folder, files):
    """``write_files`` of ``(name under folder, data)``: "/" in a name makes
    a subfolder. Returns the names."""
    check_folder(folder)
    write_files([(os.path.join(folder, *name.split("/")), data) for name, data in files])
    return [name for name, _ in files]
