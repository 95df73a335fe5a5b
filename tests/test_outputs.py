"""What every tool writes, tried as a hostile tester would: outputs naming
a device, a FIFO, a socket or a folder; a full disk mid-way; a read-only
folder; odd inputs (a game twice, a binary press script, a port number out
of range). Each gets one line and a non-zero exit, and leaves what was
there before, and nothing else.

A full disk is a tiny tmpfs when this may mount one (root, as in CI), and
otherwise the same command with the write failing with ENOSPC once its
bytes run out (``outputs._put`` patched in the subprocess); the tests that
ask for a tmpfs say which they used, and never skip.
"""

import errno
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import HANG_S, ROOT, one_line_error, run_cli
from host_tools import outputs
from tactictoe import rules

# --- the helper itself, in-process ------------------------------------------


def snapshot(top):
    """{relative path: bytes, or "dir" for a folder} of everything below ``top``."""
    got = {}
    for folder, dirs, names in os.walk(top):
        for d in dirs:
            got[os.path.relpath(os.path.join(folder, d), top)] = "dir"
        for n in names:
            path = os.path.join(folder, n)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    got[os.path.relpath(path, top)] = f.read()
            else:
                got[os.path.relpath(path, top)] = stat.S_IFMT(os.lstat(path).st_mode)
    return got


REAL_PUT = outputs._put


def failing_put(after, error=None):
    """An ``outputs._put`` that writes ``after`` bytes, then fails as a full disk."""
    left = [after]
    real = REAL_PUT

    def put(fd, data):
        if len(data) > left[0]:
            real(fd, bytes(data[:left[0]]))
            left[0] = 0
            raise error or OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        left[0] -= len(data)
        real(fd, data)

    return put


names = st.lists(st.sampled_from(["a", "b.txt", "sub/c", "sub/deeper/d", "e.svg", "new/f"]), min_size=1,
                 max_size=6, unique=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(wanted=names, existing=names, data=st.binary(min_size=1, max_size=64), budget=st.integers(0, 300),
       interrupt=st.booleans())
def test_a_failed_write_leaves_what_was_there_and_nothing_else(monkeypatch, wanted, existing, data, budget,
                                                                interrupt):
    with tempfile.TemporaryDirectory() as top:
        out = os.path.join(top, "out")
        for name in existing:
            path = os.path.join(out, *name.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(b"old " + name.encode())
        before = snapshot(top)
        files = [(name, data) for name in wanted]
        error = KeyboardInterrupt() if interrupt else None
        monkeypatch.setattr(outputs, "_put", failing_put(budget, error))
        if budget >= len(data) * len(files):  # room for all of it
            assert outputs.write_tree(out, files) == wanted
            after = snapshot(top)
            for name in wanted:
                assert after[os.path.join("out", *name.split("/"))] == data
            assert not [p for p in after if p.endswith(".tmp")]
            return
        with pytest.raises(KeyboardInterrupt if interrupt else OSError):
            outputs.write_tree(out, files)
        assert snapshot(top) == before


def test_write_file_makes_replaces_and_writes_through_a_symlink(tmp_path):
    path = tmp_path / "x.bin"
    outputs.write_file(str(path), b"one")
    outputs.write_file(str(path), "two")
    assert path.read_bytes() == b"two"
    link = tmp_path / "link"
    link.symlink_to(path)
    outputs.write_file(str(link), b"three")
    assert link.is_symlink() and path.read_bytes() == b"three"
    assert sorted(os.listdir(tmp_path)) == ["link", "x.bin"]


def test_a_stale_temporary_name_is_reused(tmp_path):
    path = tmp_path / "x.bin"
    (tmp_path / ("x.bin.%d.tmp" % os.getpid())).write_bytes(b"left by a killed run")
    outputs.write_file(str(path), b"new")
    assert os.listdir(tmp_path) == ["x.bin"]


# --- things that are not regular files --------------------------------------

KINDS = ("device", "fifo", "socket", "folder", "file")


@pytest.fixture
def odd():
    """make(kind): a path in a fresh short folder (a socket's name must be
    short) holding a device, FIFO, socket, folder or regular file."""
    top = tempfile.mkdtemp(prefix="odd")
    socks = []

    def make(kind):
        path = os.path.join(top, kind)
        if kind == "device":
            if os.geteuid() == 0:
                os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 7))  # /dev/full's numbers
            else:  # only root may mknod; /dev is not writable for the rest
                os.symlink("/dev/full", path)
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "socket":
            s = socket.socket(socket.AF_UNIX)
            s.bind(path)
            socks.append(s)
        elif kind == "folder":
            os.mkdir(path)
        else:
            with open(path, "w") as f:
                f.write("a file")
        return path

    yield make
    for s in socks:
        s.close()
    shutil.rmtree(top)


def test_check_file_and_check_folder_name_what_is_there(odd):
    for kind, words in (("device", "a device"), ("fifo", "a FIFO (named pipe)"), ("socket", "a socket"),
                        ("folder", "a folder")):
        with pytest.raises(outputs.NotAFile) as e:
            outputs.check_file(odd(kind))
        assert e.value.strerror == "it is %s, not a regular file" % words
    with pytest.raises(outputs.NotAFile) as e:
        outputs.check_folder(odd("file"))
    assert e.value.strerror == "it is a regular file, not a folder"
    assert outputs.check_file(odd("file")).endswith("file")


def file_outputs(tables):
    return {
        "solve": ["solve", "--game", "classic", "-o"],
        "uf2": ["uf2", "--tables", tables, "-o"],
        "sim-picture": ["sim-picture", "-o"],
        "web-picture": ["web-picture", "-o"],
        "sim-rp2040": ["sim", "--chip", "rp2040", "--headless", "--tables", tables, "--flash"],
    }


def folder_outputs(tables, script):
    return {
        "screens": ["screens", "-o"],
        # the docs and dimensions.scad: the case's STLs and pictures go through the same
        # write, but OpenSCAD takes 17 s to make them (tests/test_case.py checks those)
        "hardware": ["hardware", "--no-models", "-o"],
        "hardware-board": ["hardware", "--board", "pico-buttons", "-o"],
        "web": ["web", "--build-only", "--tables", tables, "-o"],
        "circuitpy": ["circuitpy", "--tables", tables, "--dest"],
        "sim": ["sim", "--replay", script, "--tables", tables, "--flash"],
    }


def cli(*args, timeout=HANG_S):
    """``python -m host_tools ARGS`` with nothing on stdin."""
    return subprocess.run([sys.executable, "-m", "host_tools"] + [str(a) for a in args], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def tables(table_files):
    return os.path.dirname(table_files[rules.CLASSIC])


@pytest.fixture(scope="module")
def script(tmp_path_factory):
    path = tmp_path_factory.mktemp("script") / "presses.txt"
    path.write_text("wait 10\n")
    return str(path)


@pytest.mark.parametrize("tool", sorted(file_outputs("T")))
@pytest.mark.parametrize("kind", ["device", "fifo", "socket", "folder"])
def test_a_file_output_is_only_ever_a_regular_file(odd, tables, tool, kind):
    path = odd(kind)
    mode = stat.S_IFMT(os.lstat(path).st_mode)
    line = one_line_error(cli(*file_outputs(tables)[tool], path))
    assert "cannot write" in line and path in line and "not a regular file" in line, line
    assert stat.S_IFMT(os.lstat(path).st_mode) == mode  # still what it was
    assert sorted(os.listdir(os.path.dirname(path))) == [kind]  # and nothing beside it


@pytest.mark.parametrize("tool", sorted(folder_outputs("T", "S")))
@pytest.mark.parametrize("kind", ["device", "fifo", "file"])
def test_a_folder_output_is_only_ever_a_folder(odd, tables, script, tool, kind):
    path = odd(kind)
    mode = stat.S_IFMT(os.lstat(path).st_mode)
    line = one_line_error(cli(*folder_outputs(tables, script)[tool], path))
    assert path in line, line
    assert stat.S_IFMT(os.lstat(path).st_mode) == mode
    assert sorted(os.listdir(os.path.dirname(path))) == [kind]


# --- a full disk --------------------------------------------------------------

# A command that writes this fault into itself: the fallback for a full disk.
FAULT = """\
import errno, os, sys
from host_tools import outputs
left = [int(sys.argv.pop(1))]
real = outputs._put
def put(fd, data):
    if len(data) > left[0]:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    left[0] -= len(data)
    real(fd, data)
outputs._put = put
from host_tools.cli import main
sys.exit(main(sys.argv[1:]))
"""


class Disk:
    """A folder on a nearly full disk: ``room`` bytes left. ``how`` says
    whether it is a real tmpfs or the ENOSPC fault in the command."""

    def __init__(self, top, how):
        self.top, self.how, self.room = top, how, None
        self.env = {}  # variables added to the command's environment

    def fill(self, room):
        """Leave ``room`` bytes for what comes next."""
        self.room = room
        if self.how == "tmpfs":
            st_ = os.statvfs(self.top)
            with open(os.path.join(self.top, "filler"), "wb") as f:
                f.write(bytes(max(0, st_.f_bavail * st_.f_frsize - room)))

    def run(self, *args):
        argv = [str(a) for a in args]
        if self.how == "tmpfs":
            cmd = [sys.executable, "-m", "host_tools"] + argv
        else:
            cmd = [sys.executable, "-c", FAULT, str(self.room)] + argv
        return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=HANG_S, stdin=subprocess.DEVNULL,
                              env=dict(os.environ, **self.env))


def can_mount():
    return sys.platform.startswith("linux") and os.geteuid() == 0


@pytest.fixture(params=["tmpfs", "fault"])
def disk(request, tmp_path):
    """A Disk: a 4 MiB tmpfs (or, where this may not mount, the fault
    instead: said in the test's output), and the fault."""
    top = tmp_path / "disk"
    top.mkdir()
    how = request.param
    if how == "tmpfs":
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(top)], capture_output=True,
                           text=True) if can_mount() else None
        if r is None or r.returncode:
            print("no tmpfs (%s): the ENOSPC fault instead" % (r.stderr.strip() if r else "not root on Linux"))
            how = "fault"
    yield Disk(str(top), how)
    if how == "tmpfs":
        subprocess.run(["umount", str(top)], check=True)


# (tool, file or folder, the files there before, bytes of room)
FULL = [
    ("solve", "file", {"": b"old table"}, 0),
    ("uf2", "file", {"": b"old uf2"}, 64 * 1024),
    ("sim-rp2040", "file", {}, 64 * 1024),
    ("screens", "folder", {"menu-hints.svg": b"old", "mine.txt": b"mine"}, 16 * 1024),
    ("hardware", "folder", {"layout.svg": b"old", "pico-buttons/README.md": b"old"}, 40 * 1024),
    ("circuitpy", "folder", {"code.py": b"old", "lib/neopixel.py": b"old", "notes.txt": b"mine"}, 64 * 1024),
    ("sim", "folder", {"main.py": b"old", "board.json": b"{}"}, 64 * 1024),
    ("web", "folder", {"manifest.json": b"{}", "index.html": b"old"}, 300 * 1024),
]


@pytest.mark.parametrize("tool, kind, old, room", FULL, ids=[f[0] for f in FULL])
def test_a_full_disk_leaves_what_was_there_and_nothing_else(disk, tables, script, fakes, tool, kind, old, room):
    # The tests' own stand-ins for the official images (a UF2's base, the
    # emulator's boot ROM), so the write is what fails, with or without them.
    disk.env = {"FIRMWARE_DIR": str(fakes)}
    out = os.path.join(disk.top, "out")
    if kind == "folder":
        os.mkdir(out)
    for name, data in old.items():
        path = os.path.join(out, name) if name else out
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    disk.fill(room)
    before = snapshot(disk.top)
    args = (file_outputs(tables) if kind == "file" else folder_outputs(tables, script))[tool]
    line = one_line_error(disk.run(*args, out))
    assert line.startswith("error: cannot write") and line.endswith("No space left on device"), line
    assert snapshot(disk.top) == before


# --- odd inputs -----------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["uf2", "--games", "classic,classic", "-o", "x.uf2"],
    ["uf2", "--runtime", "circuitpython", "--games", "tactictoe classic tactictoe", "-o", "x.uf2"],
    ["circuitpy", "--games", "classic,classic", "--dest", "."],
    ["flash", "--port", "nowhere", "--games", "classic classic"],
])
def test_a_game_named_twice_is_one_line(tmp_path, args):
    r = subprocess.run([sys.executable, "-m", "host_tools"] + args, capture_output=True, text=True, cwd=tmp_path,
                       env=dict(os.environ, PYTHONPATH=ROOT), timeout=HANG_S)
    line = one_line_error(r, status=2)  # a usage error, as argparse gives
    assert "twice: name each game once" in line, line
    assert os.listdir(tmp_path) == []


def test_sim_replay_of_a_binary_file_is_one_line_and_flashes_nothing(tmp_path):
    script = tmp_path / "presses.bin"
    script.write_bytes(bytes(range(256)))
    line = one_line_error(cli("sim", "--replay", script, "--flash", tmp_path / "flash"))
    assert line == "error: %s: not a press script: it is not text (UTF-8)" % script
    assert os.listdir(tmp_path) == ["presses.bin"]


def test_sim_flash_naming_a_file_is_one_line(tmp_path, script):
    path = tmp_path / "flash.lfs"
    path.write_bytes(b"mine")
    line = one_line_error(cli("sim", "--replay", script, "--flash", path))
    assert "it is a file: the Unix-port board's flash is a folder" in line, line
    assert path.read_bytes() == b"mine" and os.listdir(tmp_path) == ["flash.lfs"]


def test_sim_flash_in_a_read_only_folder_is_one_line(script):
    # /proc takes no new files or folders, whoever asks (root too).
    line = one_line_error(cli("sim", "--replay", script, "--flash", "/proc/tactictoe-flash"))
    assert line.startswith("error: cannot write the flash /proc/tactictoe-flash: "), line


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "eighty"])
def test_web_port_out_of_range_is_a_usage_error(port):
    line = one_line_error(run_cli("web", "--port", port), status=2)
    assert "argument --port: %r is not a port: give 1-65535 (or 0: any free one)" % port in line, line


def test_make_web_with_a_port_out_of_range_says_so_without_a_traceback():
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
    r = subprocess.run(["make", "--no-print-directory", "web", "WEB_PORT=99999"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode != 0
    assert "error: WEB_PORT=99999: '99999' is not a port: give 1-65535" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and "serving" not in r.stdout
