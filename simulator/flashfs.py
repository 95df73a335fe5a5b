"""The virtual board's flash: a host folder as the whole filesystem.

``os.VfsPosix(folder)`` alone lets ``..`` climb out of the folder into the
host's files (``mpremote ls :..``); on a board ``/..`` is ``/``. This VFS
resolves every path to an absolute one inside the folder first, and keeps
its own current directory.
"""

import os


class Flash:
    def __init__(self, root):
        self._fs = os.VfsPosix(root)
        # The host's working directory becomes the folder (see rename()).
        self._fs.chdir("/")
        self._cwd = "/"

    def _path(self, path):
        if not path.startswith("/"):
            path = self._cwd + "/" + path
        parts = []
        for part in path.split("/"):
            if part == "..":
                if parts:
                    parts.pop()
            elif part and part != ".":
                parts.append(part)
        return "/" + "/".join(parts)

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def open(self, path, mode):
        return self._fs.open(self._path(path), mode)

    def ilistdir(self, path):
        return self._fs.ilistdir(self._path(path))

    def stat(self, path):
        return self._fs.stat(self._path(path))

    def statvfs(self, path):
        return self._fs.statvfs(self._path(path))

    def mkdir(self, path):
        self._fs.mkdir(self._path(path))

    def rmdir(self, path):
        self._fs.rmdir(self._path(path))

    def remove(self, path):
        self._fs.remove(self._path(path))

    def rename(self, old, new):
        # VfsPosix.rename loses its root on one of two absolute paths (they
        # share a buffer), so give it paths relative to the folder.
        self._fs.rename(self._path(old)[1:], self._path(new)[1:])

    def chdir(self, path):
        p = self._path(path)
        if not self._fs.stat(p)[0] & 0x4000:
            raise OSError(20)  # ENOTDIR
        self._cwd = p

    def getcwd(self):
        return self._cwd
