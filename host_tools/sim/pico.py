"""The emulated Pico: the real MicroPython rp2 port (the UF2 a maker flashes)
running in an emulated RP2040 (the npm package ``rp2040js``), with the board's
wiring around it, and its USB serial console on a pseudo-terminal that
``mpremote`` talks to.

``simulator/rp2040/pico.mjs`` runs the chip in Node.js; ``EmulatedPico`` is
its host side, with the same calls as ``board.VirtualBoard`` (``start``,
``poll``, ``hold``, ``power_cycle``, ``close``), so the terminal front-end and
the headless modes drive either. Two ways to run it:

* live: the chip runs as fast as it can, up to real time (``go_live``); the
  console and the front-end work as with a real board;
* lockstep: the chip runs only inside ``run(ms)``, by exactly that much
  emulated time. Tests use this: what they see depends on emulated time
  only, so a loaded machine makes them slower, never different.

The board's flash filesystem is a host file (the littlefs image the port
mounts), written through as the chip erases and programs its flash, so a
killed emulator leaves it as a pulled cable leaves a board.
"""

import os
import selectors
import shutil
import subprocess
import sys
import tty

from host_tools import images, inputs, makevars, outputs
from host_tools.drive import uf2
from host_tools.sim import headless, terminal
from host_tools.oserrors import reported
from host_tools.sim.board import SimError, cells_of, cells_of_pixels, die_with_parent, wiring
from host_tools.sim.flash import proven
from tactictoe import puzzles, rules

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "simulator", "rp2040", "pico.mjs")


def uf2_builds(hardware):
    """The official image (``images.IMAGES`` key) a board's CircuitPython
    is: its own (the MacroPad's, the Keybow 2040's), else the Pico's."""
    return uf2.CIRCUITPYTHON_BUILDS.get(hardware, uf2.CIRCUITPYTHON_BUILDS[None])


# The boards the emulator wires (simulator/rp2040/boards.mjs): a Pico wired
# as its config says, or a bought board with its own pins and chips. Keys
# are the board's: a Pico's 9 cells; the MacroPad's keys 0-11 and, as key
# 12, its encoder's push switch; the keypad's 16 keys; the Keybow's SW0-SW15.
HARDWARE = {"pico": 9, "macropad": 13, "pico-rgb-keypad": 16, "keybow2040": 16}

# WS2812 bit timing, ns (Worldsemi WS2812B datasheet: T0H 0.4 us, T1H 0.8 us,
# T0L 0.85 us, T1L 0.45 us, each +-150 ns; a low of over 50 us latches).
WS2812 = {"h0": (250, 550), "h1": (650, 950), "low": (300, 1000)}


def node():
    """The node executable, or SimError saying what to install."""
    exe = shutil.which("node")
    if exe is None:
        raise SimError("Node.js 20 or newer is needed for the emulated RP2040 (node not found):"
                       " install it (apt-get install nodejs, or https://nodejs.org)")
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "rp2040js")):
        raise SimError("rp2040js is not installed: run `make node` (it runs npm ci)")
    return exe


def runtime_wiring(board, runtime="micropython"):
    """``(path, config)`` of a Pico's wiring for ``runtime``: SimError for
    a config written for the other runtime."""
    if runtime != "circuitpython":
        return wiring(board)
    from host_tools import flash

    try:
        path, cfg, _ = flash.board_config(board)
    except flash.FlashError as e:
        raise SimError(str(e))
    if cfg["runtime"] != "circuitpython":
        raise SimError("%s is a MicroPython board's config; CircuitPython needs one that names its pins"
                       " (such as circuitpython-pico)" % cfg["name"])
    return path, cfg


def default_flash_file(cfg):
    return os.path.join(ROOT, "build", "sim", "rp2040-%s.lfs" % cfg["name"])


def prepare_flash_file(path, cfg, wiring_path, update=True, tables_dir=os.path.join(ROOT, "build")):
    """Make the littlefs image at ``path`` a working board, as
    ``sim.flash.prepare_flash`` does a folder: the firmware that ``make flash``
    installs (refreshed when ``update``), and board.json, the tables and the
    puzzles when it has none. Returns the names written."""
    from host_tools import flash
    from host_tools.drive import picofs

    _check_flash_file(path)
    files = {}
    if os.path.exists(path):
        try:
            with open(path, "rb") as f:
                files = picofs.read_image(f.read())
        except (OSError, ValueError) as e:
            raise SimError("%s: %s; it should be a Pico's filesystem: delete it for a new one, or pick another"
                           " (%s)" % (path, getattr(e, "strerror", None) or e, makevars.name("--flash", "FILE")))
    tidied = flash.tidy_files(files)
    new = []
    if update or "main.py" not in files:
        new += flash.firmware_files(cfg, compile_mpy=True)
    if "board.json" not in files:
        with open(wiring_path, "rb") as f:
            new.append(("board.json", f.read()))
    for base in [game + ".tbl" for game in rules.GAMES] + [puzzles.NAME]:
        name = flash.ON_BOARD + "/" + base
        source = os.path.join(tables_dir, base)
        if name not in files and os.path.exists(source):
            with reported(SimError, "cannot read %s" % source):
                inputs.check(source)  # (a FIFO would never end)
            new.append(proven(base, tables_dir))  # (SimError for a wrong one, as make flash refuses it)
    changed = []
    for name, data in new:
        if files.get(name) != data:
            files[name] = data
            changed.append(name)
            files.pop(flash.other_kind(name), None)
    if changed or tidied:
        _write_flash_file(path, picofs.image(sorted(files.items()), picofs.FOLDERS))
    return changed


def _check_flash_file(path):
    """SimError unless ``--flash`` names a regular file or a new one."""
    with reported(SimError, "cannot write the flash %s" % path):
        outputs.check_file(path)


def _write_flash_file(path, data):
    """Replace the flash file with ``data``, whole or not at all."""
    with reported(SimError, "cannot write the flash %s" % path):
        outputs.write_file(path, data)


class EmulatedPico:
    """One emulated Pico.

    :param flash_file: the host file holding its littlefs filesystem (made
        from ``uf2``'s own image, or empty, when it doesn't exist).
    :param board: a shipped board name or a board.json path: its wiring.
    :param console: give it a serial console (a pseudo-terminal).
    :param uf2: the UF2 files flashed (default: the official MicroPython).
    :param on_frame: called with ``(ms, cells)`` whenever the LEDs latch
        different colours.
    :param on_output: called with the bytes the board writes to its console.
    :param on_event: called with every other line the chip reports
        (``tone``, ``power``, ``usb``, ``speed``, ``fault``), as a list of words.
    :param runtime: "micropython" (the flash file is its littlefs) or
        "circuitpython" (the flash file is the CIRCUITPY drive, FAT12 at
        0x100000; ``uf2`` then defaults to the board's official CircuitPython).

    The official images (and the boot ROM) come from ``images.get``, which
    downloads one that is missing when it may; ``images.ImageError`` (one
    line) when it can't.
    :param hardware: the board around the chip, a key of ``HARDWARE``
        (default: the config's "board" when it is one, else "pico").

    What the bought boards' chips show: ``screen`` (the SH1106's 128x64
    glass, 1024 bytes: byte ``(y >> 3) * 128 + x``, bit ``y & 7``; None
    without a screen) and ``screen_state`` (``on``, ``contrast``,
    ``invert``, ``allon``, ``remap``, ``comrev``, ``start``, ``offset``,
    ``mux``), ``pixels`` (per LED ``(r, g, b, brightness 0-31)``: the
    APA102 frames, or the WS2812 chain's GRB bytes at 31), ``turned``
    (encoder detents played so far).
    """

    @property
    def title(self):
        """What the front-end calls it: the chip, and how fast it runs."""
        pace = "  %.2fx real time" % self.speed if self.speed else ""
        what = "CircuitPython 10.2.1" if self.runtime == "circuitpython" else "MicroPython 1.28 rp2"
        return "emulated RP2040 (%s)" % what + pace

    def __init__(self, flash_file, board="pico-buttons", console=True, uf2=None,
                 on_frame=None, on_output=None, on_event=None, runtime="micropython", hardware=None):
        self.flash_file = os.path.abspath(flash_file) if flash_file else None
        self.wiring_path, self.cfg = runtime_wiring(board, runtime)
        if self.cfg["board"] not in (None,) + tuple(HARDWARE):
            raise SimError("the emulated RP2040 is a Pico; %s is wired for %s"
                           % (self.cfg["name"], self.cfg["board"]))
        self.hardware = hardware or (self.cfg["board"] if self.cfg["board"] in HARDWARE else "pico")
        self.screen = None
        self.screen_state = {}
        self.pixels = []
        self.turned = 0
        self.runtime = runtime
        self.bootrom = images.get("bootrom")
        if uf2 is None:
            uf2 = (images.get(uf2_builds(self.hardware) if runtime == "circuitpython" else "micropython"),)
        self.uf2 = list(uf2)
        self.fifo = b""  # CircuitPython: the bytes the last frame's PIO FIFO took
        self.on_frame = on_frame
        self.on_output = on_output
        self.on_event = on_event
        self.sel = selectors.DefaultSelector()
        self.proc = None
        self.held = 0
        self.frame = [(0, 0, 0)] * 9
        self.wire = b""  # the bytes the LED chain last latched
        self.frames = 0  # frames latched, changed or not
        self.timing = {}  # WS2812 bit times seen: name -> [min, max] ns
        self.tone = 0
        self.speed = None  # emulated seconds per real second, live
        self.ms = 0.0  # the emulated clock, ms since the first power-on
        self._script_sent = self._script_done = 0
        self.clock = 0  # the emulated clock (ms) at the last heartbeat (live)
        self.on_beat = None  # called with it, every wall second while live
        self.resets = 0
        self.status = None
        self.crash = None  # what stopped the emulator, if it failed
        self._ready = False
        self._lines = b""
        self._at = None
        self._in_buf = bytearray()
        self.port = None
        self._master = self._slave = None
        if console:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)
            os.set_blocking(self._master, False)
            self.port = os.ttyname(self._slave)
            self.sel.register(self._master, selectors.EVENT_READ, self._from_client)

    # --- power -------------------------------------------------------------

    def start(self, live=True):
        """Power on, running ``live``, or paused for ``run``."""
        if self.proc is not None:
            raise SimError("the emulated chip is already on")
        argv = [node(), SCRIPT, "--bootrom", self.bootrom, "--wiring", self.wiring_path]
        for path in self.uf2:
            argv += ["--uf2", path]
        if self.flash_file:
            argv += ["--flash-file", self.flash_file]
        argv += ["--runtime", self.runtime, "--board", self.hardware]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
                                     preexec_fn=die_with_parent)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.sel.register(self.proc.stdout, selectors.EVENT_READ, self._from_chip)
        while self.status is None and not self._ready:
            self.poll(1.0)
        if self.status is not None:
            raise SimError("the emulated chip did not start (node exited with status %s)" % self.status)
        if live:
            self.go_live()

    def go_live(self):
        """Run on its own, as fast as it can up to real time."""
        self._send("live")

    def pause(self):
        """Stop the clock (until ``run`` or ``go_live``). ``ms`` is then
        where it stopped (live, it moves only with the events that carry a
        time)."""
        self._send("pause")
        if self.proc is not None and self.proc.poll() is None:
            self.run(0)

    def power_cycle(self):
        """Pull the plug and plug it in again."""
        self._send("power")

    def cut_power(self, n):
        """Arm a power cut just before the ``n``th flash erase or program
        from now (that one not done); the chip then powers on again with
        the flash as the cut left it, and says ``cut MS erase|program ADDR
        COUNT`` then ``power MS cut``."""
        self._send("cut %d" % n)

    def close(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                self._send("quit")
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            self.proc = None
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        self.sel.close()

    @property
    def running(self):
        return self.status is None

    # --- keys and time --------------------------------------------------------

    def hold(self, mask):
        """Put fingers on the keys in ``mask`` (and lift the others): a
        Pico's cells, or a bought board's keys (``HARDWARE``)."""
        self.held = mask & ((1 << HARDWARE[self.hardware]) - 1)
        self._send("keys %d" % self.held)

    def turn(self, detents, edge_ms=None):
        """Turn the encoder ``detents`` clicks (negative: anticlockwise),
        a quadrature edge every ``edge_ms`` of the emulated clock from now
        (default 10: a detent in 40 ms, a brisk turn by hand); ``turned``
        counts them as they are played."""
        self._send("turn %d" % detents + ("" if edge_ms is None else " %g" % edge_ms))

    def read_screen(self):
        """The screen as it is now (``screen``, updated), in lockstep."""
        self._send("screen")
        self.run(0)
        return self.screen

    def tap(self, cell, ms):
        """A press script's tap or hold: ``cell`` held for ``ms`` of the
        emulated clock, then lifted for a gap, after what went before."""
        self._script_sent += 1
        self._send("tap %d %d" % (cell, ms))

    def idle(self, ms):
        """A press script's wait, on the emulated clock after what went before."""
        self._script_sent += 1
        self._send("idle %d" % ms)

    @property
    def script_busy(self):
        """True while taps or waits sent with ``tap``/``idle`` are not done."""
        return self._script_done < self._script_sent

    def run(self, ms):
        """Lockstep: run the chip for ``ms`` of emulated time, handling what
        it reports; returns the emulated clock (ms)."""
        self._at = None
        self._send("run %g" % ms)
        while self._at is None:
            if self.status is not None:
                raise SimError("the emulated chip stopped: %s" % (self.crash or "status %s" % self.status))
            self.poll(5.0)
        return self.ms

    def _send(self, line):
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    # --- the loop ---------------------------------------------------------

    def poll(self, timeout=None):
        """Handle what the chip and the console client have sent, waiting up
        to ``timeout`` seconds for something to arrive."""
        for key, _ in self.sel.select(timeout):
            key.data(key.fileobj)

    def _from_chip(self, f):
        try:
            data = os.read(f.fileno(), 1 << 16)
        except BlockingIOError:
            return
        if not data:
            self.sel.unregister(f)
            self.status = self.proc.wait()
            self._hang_up()
            return
        self._lines += data
        *lines, self._lines = self._lines.split(b"\n")
        for line in lines:
            self._event(line.decode().split())

    def _hang_up(self):
        """The chip has gone: its console goes too, as a port vanishes with
        its cable, so a client's next read or write fails at once instead of
        waiting for a board that will never answer."""
        if self._master is not None:
            self.sel.unregister(self._master)
            os.close(self._master)
            self._master = None

    def _event(self, words):
        if not words:
            return
        kind = words[0]
        if kind == "out":
            if len(words) < 2:
                return
            data = bytes.fromhex(words[1])
            if self.on_output:
                self.on_output(data)
            if self._master is not None:
                try:
                    os.write(self._master, data)
                except OSError:
                    pass  # no client, or it is not reading: a USB host would drop it too
            return
        if kind == "ready":
            self._ready = True
            return
        self.ms = int(words[1]) / 1e6 if len(words) > 1 and words[1].isdigit() else self.ms
        if kind == "frame":
            self._frame(words)
        elif kind == "screen":
            if len(words) > 2:
                self.screen_state = {k: int(v) for k, _, v in (w.partition("=") for w in words[2:-1])}
                self.screen = bytes.fromhex(words[-1])
        elif kind in ("apa102", "is31fl3731"):
            px = bytes.fromhex(words[2])
            self.pixels = [tuple(px[i:i + 4]) for i in range(0, len(px), 4)]
            self._apa102_frame()
        elif kind == "turned":
            self.turned = int(words[2])
        elif kind == "at":
            self._at = self.ms
            return
        elif kind == "tone":
            self.tone = int(words[2])
        elif kind == "power":
            if words[2] != "power" or self.frames:
                self.resets += 1
        elif kind == "speed":  # live, every wall second: the pace and the emulated clock
            self.speed = float(words[1])
            self.clock = int(words[2])
            if self.on_beat:
                self.on_beat(self.clock)
        elif kind == "done":
            self._script_done = int(words[1])
        elif kind == "crash":
            self.crash = " ".join(words[1:])
        if self.on_event:
            self.on_event(words)

    def _frame(self, words):
        self.frames += 1
        wire = b"" if words[2] == "-" else bytes.fromhex(words[2])
        for part in words[4:]:
            name, _, span = part.partition("=")
            if name == "fifo":
                self.fifo = bytes.fromhex(span)
            elif span != "-":
                lo, hi = (int(v) for v in span.split("-"))
                seen = self.timing.setdefault(name, [lo, hi])
                seen[0], seen[1] = min(seen[0], lo), max(seen[1], hi)
        if words[3] != "0":
            self.timing.setdefault("stray_bits", [0, 0])[1] += int(words[3])
        # A pixel sent nothing keeps its colour, as a WS2812 does.
        self.wire = wire = wire + self.wire[len(wire):]
        self.pixels = [(wire[i + 1], wire[i], wire[i + 2], 31) for i in range(0, len(wire) - 2, 3)]
        cells = cells_of(wire, self.cfg)
        if cells != self.frame:
            self.frame = cells
            if self.on_frame:
                self.on_frame(self.ms, cells)

    def _apa102_frame(self):
        """The cells an APA102 frame lights (each LED's colour at its 5-bit
        brightness), reported as a WS2812 chain's frame is."""
        self.frames += 1
        cells = cells_of_pixels(self.pixels, self.cfg)
        if cells != self.frame:
            self.frame = cells
            if self.on_frame:
                self.on_frame(self.ms, cells)

    def _from_client(self, fd):
        try:
            data = os.read(fd, 4096)
        except OSError:  # EIO: no client right now
            return
        self.type(data)

    def type(self, data):
        """Bytes from the console client (or a front-end typing): to the
        board's USB serial port, where the port itself sees Ctrl-C."""
        if data:
            self._send("serial " + data.hex())


def timing_problems(timing):
    """What in ``timing`` (``EmulatedPico.timing``) falls outside the WS2812
    datasheet's windows, as text; empty when all is well."""
    out = []
    for name, (lo, hi) in WS2812.items():
        if name in timing:
            a, b = timing[name]
            if a < lo or b > hi:
                out.append("%s %d-%d ns outside %d-%d" % (name, a, b, lo, hi))
    if "stray_bits" in timing:
        out.append("%d bits that make no whole byte" % timing["stray_bits"][1])
    return out


def _runtime(board):
    """"circuitpython" for a CircuitPython config, else "micropython"."""
    from host_tools import flash

    try:
        cfg = flash.board_config(board)[1]
    except flash.FlashError as e:
        raise SimError(str(e))
    return "circuitpython" if cfg["runtime"] == "circuitpython" else "micropython"


def prepare_drive_file(path, board, tables_dir):
    """Write the CIRCUITPY drive ``make circuitpy`` would stage for
    ``board`` as a FAT image at ``path``, afresh: the emulated chip can't
    write its own flash (rp2040js answers only the flash's status command),
    so the drive is read-only there and nothing on it is the board's own."""
    from host_tools import flash
    from host_tools.drive import circuitpy

    _check_flash_file(path)
    try:
        data = circuitpy.image(circuitpy.drive_files(board, tables_dir=tables_dir))
    except flash.FlashError as e:
        raise SimError(str(e))
    _write_flash_file(path, data)


def main(args):
    """``python -m host_tools sim --chip rp2040``: MicroPython's rp2 port, or
    CircuitPython for a CircuitPython config."""
    runtime = _runtime(args.board)
    path, cfg = runtime_wiring(args.board, runtime)
    tables = args.tables or os.path.join(ROOT, "build")
    if args.replay:
        raise SimError("--replay runs on the Unix-port board; with --chip rp2040 use --headless")
    if not args.headless and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise SimError("the simulator needs a terminal (stdin and stdout); for scripts use"
                       " python -m host_tools sim --chip rp2040 --headless (see docs/simulator.md)")
    if runtime == "circuitpython":
        flash_file = args.flash or os.path.join(ROOT, "build", "sim", "rp2040-%s.fat" % cfg["name"])
        prepare_drive_file(flash_file, args.board, tables)
        changed = ["the CIRCUITPY drive make circuitpy stages"]
    else:
        flash_file = args.flash or default_flash_file(cfg)
        changed = prepare_flash_file(flash_file, cfg, path, update=not args.no_update, tables_dir=tables)
    board = EmulatedPico(flash_file, args.board, runtime=runtime)
    try:
        say = headless.emit if args.headless else print
        if changed:
            say("flashed %s into %s" % (", ".join(changed), flash_file))
        if args.headless:
            return headless.run_live(board)  # which powers it on
        board.start()
        return terminal.run(board)
    finally:
        board.close()
