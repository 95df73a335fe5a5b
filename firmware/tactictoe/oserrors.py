"""OSErrors said in words on the console, never as a bare number, and a
missing file told apart on every port. ``score`` and ``puzzles`` import
this only when a file fails them: the game never needs it otherwise.
"""

import os


def words(e):
    """The OSError ``e`` in words, never a bare number: what a user reads."""
    import errno

    # By errno name, with the number MicroPython's mperrno.h (and Linux)
    # give it for a port whose errno module lacks the name (ENOSPC, EROFS,
    # ELOOP... on MicroPython). Here, not at the top: built only when said.
    n = e.args[0] if e.args else None
    for name, number, said in (
            ("ENOENT", 2, "no such file"), ("EISDIR", 21, "a folder by that name"), ("EIO", 5, "the flash failed"),
            ("ENOSPC", 28, "the flash is full"), ("EROFS", 30, "the drive is read-only"),
            ("EACCES", 13, "permission denied"), ("EPERM", 1, "not permitted"), ("ENOMEM", 12, "out of memory"),
            ("ENODEV", 19, "no such device"), ("ENOTDIR", 20, "a file where a folder should be"),
            ("ELOOP", 40, "a loop of symbolic links"), ("ENAMETOOLONG", 36, "a name too long"),
            ("EINVAL", 22, "an invalid name"), ("EBADF", 9, "a bad file"), ("EEXIST", 17, "a file in the way")):
        if n == getattr(errno, name, number):
            return said
    return "filesystem error %s" % (n,)  # (none the flash should give)


def missing(e, path):
    """True if the OSError ``e``, from opening ``path``, says there is no
    such file. On the WebAssembly port the browser's filesystem raises its
    own numbers (ENOENT is 44 there, ``errno.ENOENT`` 2): then the folder,
    and its folder in turn, is asked."""
    import errno

    if e.args and e.args[0] == errno.ENOENT:
        return True
    i = path.rfind("/")
    folder = path[:i] if i > 0 else "/" if i == 0 else ""
    try:
        names = os.listdir(folder) if folder else os.listdir()
    except OSError as e2:
        return folder not in ("", "/") and missing(e2, folder)
    return path[i + 1:] not in names
