"""Reading what a user names: regular files only, and never more than a
tool can use.

A FIFO, a device or a socket where a file should be is refused before it is
opened (opening a FIFO nobody writes waits forever; ``/dev/zero`` never
ends), with ``outputs.NotAFile``, an OSError, so ``oserrors.reported`` makes
it one line: "it is a FIFO (named pipe), not a file".
"""

import errno
import os
import stat

from host_tools.outputs import NotAFile, kind


def check(path):
    """NotAFile unless ``path`` is a regular file (or a link to one);
    FileNotFoundError if nothing is there."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotAFile(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL, "it is %s, not a file" % kind(mode))


def read(path, limit):
    """The bytes of the regular file ``path``, at most ``limit`` + 1 of them
    (more than ``limit``: the caller's "too big")."""
    check(path)
    with open(path, "rb") as f:
        return f.read(limit + 1)


def special_file(folder):
    """The first thing under ``folder`` that is neither a regular file nor
    a folder, as ``(path relative to it, what it is)``, or None. A board's
    flash holds only files and folders; a FIFO there would hang whatever
    reads it."""
    for top, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(top, name)
            try:
                mode = os.stat(path).st_mode
            except OSError:  # a dangling link: the board sees nothing there
                continue
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                return os.path.relpath(path, folder), kind(mode)
    return None
