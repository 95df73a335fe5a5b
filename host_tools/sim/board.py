"""The virtual board: the firmware in the real MicroPython interpreter, with
only the hardware simulated, and a serial console that ``mpremote`` talks to.

``VirtualBoard`` runs ``simulator/rom.py`` under the MicroPython Unix port
with the board's flash folder mounted as ``/``. The ROM plays the part of
MicroPython's C code (boot, ``main.py``, REPL, raw REPL) and the doubles in
``simulator/`` that of the chips. This side of the wires:

* the console: a pseudo-terminal (``/dev/pts/N``) that ``mpremote`` opens
  like a USB serial port. Ctrl-C interrupts running code, as a board's USB
  stack does, by sending the interpreter SIGINT;
* the LEDs and the buzzer: reported by the doubles over a pipe;
* a bought board's chips (``chips.py``): its SPI and I2C transfers, over
  the same pipe, handed to the chips' models in the order they came; an
  I2C read gets its answer back;
* the keys: the mask of cells a finger is on, sent over another pipe;
* resets: the ROM exits with a status saying which reset, and is started
  again on the same console, so every reset gets a fresh heap.

Front-ends (``terminal``, ``headless``) drive it with ``poll()``
and ``hold()``.
"""

import errno
import fcntl
import importlib.util
import json
import os
import selectors
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROM_DIR = os.path.join(ROOT, "simulator")
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")
HEAP = "512k"  # 64-bit objects are twice a Pico's: about its ~200 KiB free heap
BUFFER = 65536  # console bytes held in each direction before the writer must wait
INTR_FALLBACK_S = 0.5  # a Ctrl-C code hasn't acted on by then comes as a SIGINT (see _interrupt)
# The bought boards (a config's "board"), whose chips are modelled (chips.py).
BOUGHT = ("macropad", "pico-rgb-keypad", "keybow2040")
EDGE_MS = 10  # a turn of the encoder: one quadrature edge every 10 ms (chips/encoder.mjs's default)
ENCODER_BIT = 14  # in the key mask: bits 14 and 15, the encoder's switch on its pins[0], pins[1] closed


def _exit_statuses():
    # Which reset ended a run: the ROM's own simulator/simexit.py, loaded
    # from its file (simulator/ is the board's sys.path, not the host's).
    spec = importlib.util.spec_from_file_location("simexit", os.path.join(ROM_DIR, "simexit.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SOFT_FRIENDLY, module.SOFT_RAW, module.HARD, module.OFF


SOFT_FRIENDLY, SOFT_RAW, HARD, OFF = _exit_statuses()


def die_with_parent():
    """In the child, before it runs: if the simulator dies, so does the
    board (a busy loop in the REPL would otherwise spin on, orphaned)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


class SimError(Exception):
    """A problem starting or running the virtual board, as one line."""


def wiring(board):
    """The virtual board's real wiring: a shipped board name or a path to a
    board.json. Returns ``(path, validated config)``."""
    from host_tools import flash

    try:
        path, cfg, _ = flash.board_config(board)
    except flash.FlashError as e:
        raise SimError(str(e))
    if cfg["runtime"] == "circuitpython":
        raise SimError("the simulator runs MicroPython boards only; %s is a CircuitPython board"
                       " (try pico-buttons, pico-matrix, pico-mx or esp32-touch, or CHIP=rp2040 for real CircuitPython"
                       " in the emulated RP2040)" % cfg["name"])
    return path, cfg


def wiring_differences(cfg, wired):
    """What of the config ``cfg`` (validated) does not match the wiring
    ``wired``: a list of its keys, empty if the firmware drives the pins
    that are wired. A buzzer the config leaves out is only silence."""
    def input_pins(c):
        return {k: v for k, v in c["input"].items()
                if k in ("kind", "pins", "rows", "cols", "keys", "i2c", "sda", "scl", "address")}

    out = ["leds." + k for k in ("kind", "pin", "spi", "sck", "mosi", "cs", "i2c", "sda", "scl", "address", "order",
                                 "colour_order") if cfg["leds"].get(k) != wired["leds"].get(k)]
    if input_pins(cfg) != input_pins(wired):
        out.append("input")
    if cfg["buzzer"] is not None and cfg["buzzer"] != wired["buzzer"]:
        out.append("buzzer")
    return out


def cells_of(wire, cfg):
    """The (r, g, b) each cell shows, from the bytes the LED chain latched,
    undoing the wiring's pixel order and colour order."""
    leds = cfg["leds"]
    pick = [leds["colour_order"].index(ch) for ch in "RGB"]
    out = []
    for cell in range(9):
        p = 3 * leds["order"][cell]
        px = wire[p:p + 3]
        out.append(tuple(px[i] for i in pick) if len(px) == 3 else (0, 0, 0))
    return out


def cells_of_pixels(pixels, cfg):
    """The (r, g, b) each cell shows, from a chip's decoded LEDs
    (``[r, g, b, level]`` each: an APA102's, or the IS31FL3731's as
    reported so), each at its 5-bit brightness, in the wiring's pixel order."""
    cells = []
    for i in cfg["leds"]["order"]:
        r, g, b, level = pixels[i] if i < len(pixels) else (0, 0, 0, 0)
        cells.append((r * level // 31, g * level // 31, b * level // 31))
    return cells


def key_bits(cfg, spec):
    """The bit in the key mask (cells 0-8, then 9 + j for the config's
    extra key j) of each of a bought board's own keys, as its chips' wiring
    (``spec``, boards.mjs) numbers them: None for a key the config leaves
    out. Keys on GPIOs go by pin, an expander's by its pin number."""
    extra = cfg["extra"]
    if spec.get("expanderKeys"):
        wired = list(cfg["input"]["keys"]) + [e.get("key") for e in extra]
        keys = range(spec["expanderKeys"])
    else:
        wired = list(cfg["input"]["pins"]) + [e.get("pin") for e in extra]
        keys = spec["keys"]
    return [wired.index(k) if k in wired else None for k in keys]


class VirtualBoard:
    """One virtual board.

    :param flash: the host folder that is its flash.
    :param board: a shipped board name or a board.json path: its real wiring.
    :param seed: seed for its hardware random numbers (None: random).
    :param console: give it a serial console (a pseudo-terminal).
    :param replay: ``(timeline, end_ms)``: run on a virtual clock with the
        keys following ``timeline`` ([(ms, mask)]) and power off at
        ``end_ms``; None for a live board.
    :param on_frame: called with ``(ms, cells)`` whenever the LEDs change.
    :param on_output: called with bytes the board writes to its console.

    A bought board (``BOUGHT``) also has its chips (``chips.Chips``): what
    they show is ``pixels`` (per LED ``(r, g, b, brightness 0-31)``, as the
    APA102s, the IS31FL3731 or the WS2812 chain decoded it), ``screen``
    (the SH1106's 128x64 glass, 1024 bytes, or None) with ``screen_state``,
    and ``turned`` (encoder detents sent); ``on_screen`` is called with
    ``(ms, glass)`` when the glass changes. ``key_bits`` has the bit in the
    key mask of each of the board's own keys (None: a key the config leaves
    out), as ``terminal.Pad`` numbers them.
    """

    def __init__(self, flash, board="pico-buttons", seed=None, console=True, replay=None,
                 on_frame=None, on_output=None, heap=HEAP):
        self.flash = os.path.abspath(flash)
        self.wiring_path, self.cfg = wiring(board)
        self.seed = seed
        self.replay = replay
        self.heap = heap
        self.on_frame = on_frame
        self.on_output = on_output
        self.on_beat = None  # called with the board's clock (ms) as its key scans run on
        self.clock = 0
        self._script_sent = self._script_done = 0
        self.sel = selectors.DefaultSelector()
        self.proc = None
        self.held = 0
        self.armed = False  # Ctrl-C interrupts running code now
        self.frame = [(0, 0, 0)] * 9
        self.tone = 0
        self.hardware = self.cfg["board"] if self.cfg["board"] in BOUGHT else "pico"
        self.chips = None
        self.pixels = []
        self.screen = None
        self.screen_state = {}
        self.turned = 0
        self.on_screen = None
        self.key_bits = None
        self._glass_at = None  # the board's ms of a screen change not read yet (see _glass)
        self.status = None  # the last run's exit status, once it powers off
        self.mismatch = None  # what _check_wiring found, in short, or None
        self.resets = 0
        self._bus = b""
        self._crashes = []  # times of recent crashes: three in 5 s and it stays off
        self._cr = False  # the console output so far ended with "\r"
        self._line_start = True  # and with a line's end (or there was none)
        self._out_buf = bytearray()  # console output the client hasn't taken yet
        self._out_since = 0.0
        self._in_buf = bytearray()  # console input the board hasn't taken yet
        self._queued = 0  # console bytes passed on to the board so far (this connection)
        self._key_ctrl_c = None  # where in them a Ctrl-C passed on as a key is, until it interrupts
        self._missed = False  # the board said it took a Ctrl-C too late: the next run's
        self._timeline_file = None
        self._wiring_file = None
        self._bus_out = self._bus_in = None
        self.port = None
        self._master = self._slave = None
        self._con_in = self._con_out = None
        if console:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # no echo, no line editing: a serial line
            os.set_blocking(self._master, False)
            self.port = os.ttyname(self._slave)
            self.sel.register(self._master, selectors.EVENT_READ, self._from_client)

    # --- power -------------------------------------------------------------

    def start(self):
        """Power on."""
        if not os.path.exists(MICROPYTHON):
            raise SimError("micropython is missing at %s: run `make sim`, which installs it" % MICROPYTHON)
        os.makedirs(self.flash, exist_ok=True)
        if self._wiring_file is None:
            # The ROM's wiring is the config as the firmware's config module
            # reads it (every key there, defaults filled in), as the web
            # page's is: a board.json may leave out what has a default.
            fd, self._wiring_file = tempfile.mkstemp(prefix="sim-wiring-", suffix=".json")
            with os.fdopen(fd, "w") as f:
                json.dump(self.cfg, f)
        if self.hardware != "pico" and self.chips is None:
            from host_tools.sim.chips import Chips

            self.chips = Chips(self.hardware, self.cfg, error=SimError, preexec_fn=die_with_parent)
            self.key_bits = key_bits(self.cfg, self.chips.spec)
        if self.replay is not None:
            fd, self._timeline_file = tempfile.mkstemp(prefix="sim-replay-", suffix=".txt")
            with os.fdopen(fd, "w") as f:
                for t, mask in self._expand(self.replay[0]):
                    f.write("%d %d\n" % (t, mask))
        self._spawn("friendly", "power", new_console=True)

    def _spawn(self, mode, reason, new_console, held=False):
        """Start the ROM. ``held``: a Ctrl-C the last run did not act on,
        which interrupts as soon as code runs (or is a key for the REPL)."""
        if new_console:
            self._close_console_pipes()
            self._con_in = os.pipe()  # console bytes to the board; kept across soft resets
            self._con_out = os.pipe()
            os.set_blocking(self._con_in[1], False)
            self.sel.register(self._con_out[0], selectors.EVENT_READ, self._from_board)
        if mode == "friendly":  # main.py runs: the firmware reads board.json
            self._check_wiring()
        if new_console and self.chips is not None:  # power on: so do the chips (a reset of the RP2040 alone keeps them)
            self.chips.power_on()
            self.pixels, self.screen, self.screen_state, self._glass_at = [], None, {}, None
        bus_out = os.pipe()
        bus_in = os.pipe()
        argv = [MICROPYTHON, "-X", "heapsize=" + self.heap, os.path.join(ROM_DIR, "rom.py"),
                self.flash, self._wiring_file, mode, reason, "-" if self.seed is None else str(self.seed),
                str(bus_out[1]), str(bus_in[0])]
        if self.replay is not None:
            argv += [self._timeline_file, str(self.replay[1])]
        else:
            argv += ["-"]
        env = dict(os.environ, MICROPYPATH=ROM_DIR + os.pathsep + ".frozen")
        # A replay has no console: at the end of its input the ROM powers off.
        stdin = subprocess.DEVNULL if self.replay is not None else self._con_in[0]
        # In a replay its console shares the bus pipe, so that printed lines
        # and frames keep their order (see simulator/simbus.py).
        stdout = bus_out[1] if self.replay is not None else self._con_out[1]
        self.proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout,
                                     stderr=stdout, pass_fds=(bus_out[1], bus_in[0]),
                                     env=env, cwd=ROM_DIR, preexec_fn=die_with_parent)
        os.close(bus_out[1])
        os.close(bus_in[0])
        self._bus_out = bus_out[0]
        self._bus_in = bus_in[1]
        os.set_blocking(self._bus_in, False)
        self._bus = b""
        self._script_sent = self._script_done = 0  # a new run has no press script
        self.armed = False
        self._booting = True  # until the ROM first says where Ctrl-C goes
        self._held_intr = held  # and any Ctrl-C that comes while it boots
        self._missed = False
        self._signalled = False  # it has been sent a SIGINT
        self._intr_since = None  # when a Ctrl-C went to running code as "C", until the code stops
        self.sel.register(self._bus_out, selectors.EVENT_READ, self._from_bus)
        if self.replay is None:
            self._send_keys()

    def _check_wiring(self):
        """Say on the console, in one line, when the flash's board.json is
        not for this board's wiring (a real board can't know; this one can),
        and keep it short in ``mismatch`` for a front-end to show for as
        long as it holds (None: they match). A file the firmware can't use
        it reports itself."""
        from host_tools import flash

        self.mismatch = None
        try:
            cfg = flash.board_config(os.path.join(self.flash, "board.json"))[1]
        except flash.FlashError:
            return
        from tactictoe.config import one_line

        differ = wiring_differences(cfg, self.cfg)
        if not differ:
            return
        name, wired = one_line(cfg["name"]), one_line(self.cfg["name"])
        fixes = ["flash a config for its wiring (%s)" % wired]
        if cfg["name"] in flash.micropython_boards():
            fixes.append("start the simulator with BOARD=%s" % name)
        # make sim's own flash: make clean-sim gives it a fresh one, with the wiring's config
        sims = os.path.join(ROOT, "build", "sim")
        ours = os.path.commonpath([self.flash, sims]) == sims
        if ours:
            fixes.append("wipe the virtual boards' flashes (build/sim/) with make clean-sim")
        # A key on another kind of input's pin (a button where the config has a
        # matrix's column) can press a whole row or column of cells, or none.
        keys = " (one key can press several cells, or none)" if "input" in differ else ""
        fix = ", ".join(fixes[:-1]) + " or " + fixes[-1] if len(fixes) > 1 else fixes[0]
        line = ("[virtual board: board.json (%s) does not match this board's wiring (%s): %s differ, so its keys,"
                " LEDs or buzzer will misbehave%s; %s]\n" % (name, wired, ", ".join(differ), keys, fix))
        self.mismatch = "board.json is for %s, not %s: %s" % (
            name, wired, "make clean-sim fixes it" if ours else "flash a %s config" % wired)
        self._output(("" if self._line_start else "\n").encode() + line.encode())

    def power_cycle(self):
        """Pull the plug and plug it in again."""
        self._stop_process()
        self._spawn("friendly", "power", new_console=True)

    def _stop_process(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait()
        self._drop_bus()

    def _drop_bus(self):
        self._forget(self._bus_out, self._bus_in)
        self._bus_out = self._bus_in = None

    def _forget(self, *fds):
        """Stop watching and close each fd (None: nothing to do)."""
        for fd in fds:
            if fd is not None:
                self._reading(fd, None, False)
                os.close(fd)

    def _close_console_pipes(self):
        self._in_buf.clear()  # a new USB connection: nothing in flight survives
        self._queued = 0
        self._key_ctrl_c = None
        if self._con_out is not None:
            self._forget(*self._con_in, *self._con_out)
        self._con_in = self._con_out = None

    def close(self):
        """Power off for good and let go of the console."""
        self._stop_process()
        if self.chips is not None:
            self.chips.close()
            self.chips = None
        self._close_console_pipes()
        self._forget(self._master, self._slave)
        self._master = self._slave = None
        for name in ("_timeline_file", "_wiring_file"):
            if getattr(self, name):
                os.remove(getattr(self, name))
                setattr(self, name, None)
        self.sel.close()

    @property
    def running(self):
        return self.status is None

    # --- keys --------------------------------------------------------------

    def hold(self, mask):
        """Put fingers on the keys in ``mask`` (cells, then extra keys; and lift the others)."""
        self.held = mask & 0x3FFF  # the cells, the extra keys (the encoder's bits are its own)
        self._send_keys()

    def tap(self, cell, ms):
        """A press script's tap or hold: the board holds ``cell`` until its
        key scans have seen it for ``ms`` of its own time, then lifts it for
        a gap before the next (``simbus.script``)."""
        self._script_sent += 1
        self._send_bus(b"P" + struct.pack("<H", cell | min((ms + 9) // 10, 0xFFF) << 4))

    def idle(self, ms):
        """A press script's wait, on the board's clock after what went before."""
        self._script_sent += 1
        self._send_bus(b"W" + struct.pack("<H", min(ms, 0xFFFF)))

    @property
    def script_busy(self):
        """True while taps or waits sent with ``tap``/``idle`` are not done
        (a reset drops them, as a finger lifts when the power goes)."""
        return self._script_done < self._script_sent

    def turn(self, detents):
        """Turn the encoder ``detents`` clicks (negative: anticlockwise): its
        model's quadrature edges, ``EDGE_MS`` each on the board's clock,
        played by its key scans as a press script's taps are."""
        if self.chips is None:
            return
        for a, b in self.chips.turn(detents):
            closed = self._encoder_levels(a, b)
            self._send_bus(b"E" + struct.pack("<H", closed | EDGE_MS << 2))
        self.idle(0)
        self.turned += detents

    def _encoder_levels(self, a, b):
        """The key mask's encoder bits (ENCODER_BIT up) for the model's A
        and B levels (True: open): bit 0 the switch on the config's
        ``encoder.pins[0]`` closed, bit 1 on ``pins[1]``."""
        part = self.chips.spec["encoder"]
        closed = {part["a"]: not a, part["b"]: not b}
        return sum(closed.get(p, False) << i for i, p in enumerate(self.cfg["encoder"]["pins"]))

    def _expand(self, changes):
        """A replay's timeline with each ``(ms, "turn", n)`` made the
        encoder's edges, ``EDGE_MS`` apart (``script.timeline`` left room)."""
        mask = 0
        for change in changes:
            if change[1] != "turn":
                mask = change[1]
                yield change
                continue
            t, _, n = change
            steps = self.chips.turn(n) if self.chips is not None and self.cfg["encoder"] else []
            for i, (a, b) in enumerate(steps):
                yield t + i * EDGE_MS, mask | self._encoder_levels(a, b) << ENCODER_BIT
            yield t + len(steps) * EDGE_MS, mask

    def _send_keys(self):
        self._send_bus(b"K" + bytes((self.held & 0xFF, self.held >> 8)))

    def _send_bus(self, msg):
        if self._bus_in is None:
            return
        try:
            os.write(self._bus_in, msg)
        except OSError:
            pass  # resetting (the next start sends the keys), or not reading them now

    # --- the loop ----------------------------------------------------------

    def poll(self, timeout=None):
        """Handle what the board and the console client have sent, waiting
        up to ``timeout`` seconds for something to arrive."""
        if self._out_buf or self._in_buf:  # retry the writes soon
            timeout = 0.005 if timeout is None else min(timeout, 0.005)
        if self._intr_since is not None:  # a "C" not yet acted on: look again soon
            timeout = INTR_FALLBACK_S if timeout is None else min(timeout, INTR_FALLBACK_S)
        for key, _ in self.sel.select(timeout):
            # A reset earlier in this batch may have closed this fd (and a
            # new pipe may have its number): act only on live registrations.
            if self.sel.get_map().get(key.fd) is key:
                key.data(key.fileobj)
        self._flush()
        if (self._intr_since is not None and self.armed
                and time.monotonic() - self._intr_since > INTR_FALLBACK_S):
            self._intr_since = None
            self._sigint()  # code that reads no keys (a busy loop, a long sleep): the signal after all

    def _flush(self):
        """Pass on buffered console bytes both ways. Like a USB serial line,
        a full buffer makes the writer wait (we stop reading it) instead of
        losing bytes; output that waits 2 s with no client connected is dropped,
        as a board with no USB host drops it (a connected client is waited for
        however slow it reads)."""
        if self._out_buf:
            try:
                n = os.write(self._master, self._out_buf) if self._master is not None else len(self._out_buf)
                del self._out_buf[:n]
                self._out_since = time.monotonic()
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.EIO):
                    raise
                if time.monotonic() - self._out_since > 2.0:
                    if self._client_connected():
                        self._out_since = time.monotonic()  # look again in 2 s
                    else:
                        self._out_buf.clear()
        if self._in_buf and self._con_in is not None:
            try:
                n = os.write(self._con_in[1], self._in_buf)
                del self._in_buf[:n]
            except BlockingIOError:
                pass
        if self._con_out is not None:
            self._reading(self._con_out[0], self._from_board, len(self._out_buf) < BUFFER)
        if self._master is not None:
            self._reading(self._master, self._from_client, len(self._in_buf) < BUFFER)

    def _client_connected(self):
        """Whether a console client (mpremote, a terminal) has the port open
        now: another process holds our pseudo-terminal's slave. Asked only
        when output has waited 2 s: a client that is slow to read (a machine
        starved of CPU) is waited for, never dropped; with none, the output
        goes. Where /proc can't say, no client is assumed."""
        try:
            pids = os.listdir("/proc")
        except OSError:
            return False
        me = str(os.getpid())
        for pid in pids:
            if not pid.isdigit() or pid == me:
                continue
            try:
                fds = os.listdir("/proc/%s/fd" % pid)
            except OSError:  # gone, or not ours to look at
                continue
            for fd in fds:
                try:
                    if os.readlink("/proc/%s/fd/%s" % (pid, fd)) == self.port:
                        return True
                except OSError:
                    continue
        return False

    def _reading(self, fd, callback, on):
        registered = fd in self.sel.get_map()
        if on and not registered:
            self.sel.register(fd, selectors.EVENT_READ, callback)
        elif not on and registered:
            self.sel.unregister(fd)

    def _from_bus(self, fd):
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            self._ended()
            return
        self._bus += data
        while True:
            if self.replay is not None:  # console text, then a line marked \x1e
                mark = self._bus.find(b"\x1e")
                text = self._bus if mark < 0 else self._bus[:mark]
                if text:
                    self._bus = self._bus[len(text):]
                    self._output(text)
                if mark < 0:
                    break
            end = self._bus.find(b"\n")
            if end < 0:
                break
            line, self._bus = self._bus[:end].lstrip(b"\x1e"), self._bus[end + 1:]
            kind, _, rest = line.partition(b" ")
            if self._glass_at is not None and not (kind == b"S" and rest.startswith(b"%d " % self._glass_at)):
                self._glass()  # the screen's writes of that moment are over: show it
            if kind == b"L":
                t, _, hexed = rest.partition(b" ")
                wire = bytes.fromhex(hexed.decode())
                if self.hardware != "pico":  # the MacroPad's chain: GRB, in key order
                    self.pixels = [(wire[i + 1], wire[i], wire[i + 2], 31) for i in range(0, len(wire) - 2, 3)]
                self.frame = cells_of(wire, self.cfg)
                if self.on_frame:
                    self.on_frame(int(t), self.frame)
            elif kind == b"T":
                self.tone = int(rest.split()[1])
            elif kind == b"I":
                on, _, number = rest.partition(b" ")
                self._interrupts(on == b"1", int(number))
            elif kind == b"H":
                self._missed = True
            elif kind == b"Q":
                self._script_done = int(rest)
            elif kind == b"B":
                self.clock = int(rest)
                if self.on_beat:
                    self.on_beat(self.clock)
            elif kind == b"S":
                self._spi(rest)
            elif kind == b"2":
                self._i2c(rest)
        if self.replay is None:  # live: the screen as the last transfer so far left it
            self._glass()

    def _spi(self, rest):
        ms, bus, sck, mosi, oe, out, hexed = rest.split()
        if self.chips is None:
            return
        changed = self.chips.spi(int(bus), int(sck), int(mosi), bytes.fromhex(hexed.decode()), int(oe), int(out))
        if "screen" in changed:
            self._glass_at = int(ms)
        if "leds" in changed:
            self._leds(int(ms))

    def _i2c(self, rest):
        ms, n, bus, sda, scl, held, addr, hexed, nread = rest.split()
        data, changed = None, []
        if self.chips is not None:
            data, changed = self.chips.i2c(int(bus), int(sda), int(scl), int(addr),
                                           b"" if hexed == b"-" else bytes.fromhex(hexed.decode()), int(nread),
                                           int(held))
        word = (len(data) if data is not None else 0) | (0 if data is not None else 1) << 14
        self._answer(b"R" + struct.pack("<HH", int(n), word) + (data or b""))
        if "leds" in changed:
            self._leds(int(ms))

    def _answer(self, msg):
        # The board waits for it: written whole, however full the pipe is.
        if self._bus_in is None:
            return
        os.set_blocking(self._bus_in, True)
        try:
            os.write(self._bus_in, msg)
        except OSError:
            pass  # it has gone (a reset): its next run asks again
        finally:
            os.set_blocking(self._bus_in, False)

    def _leds(self, ms):
        """The chips' LEDs changed: the cells they light, reported as a
        WS2812 chain's frame is (each LED at its 5-bit brightness)."""
        self.pixels = self.chips.pixels()
        cells = cells_of_pixels(self.pixels, self.cfg)
        if cells != self.frame:
            self.frame = cells
            if self.on_frame:
                self.on_frame(ms, cells)

    def _glass(self):
        """Read the screen, if its RAM changed since it was last read."""
        if self._glass_at is None:
            return
        ms, self._glass_at = self._glass_at, None
        glass, self.screen_state = self.chips.glass()
        if glass != self.screen:
            self.screen = glass
            if self.on_screen:
                self.on_screen(ms, glass)

    def _interrupts(self, on, number):
        self.armed = on
        self._booting = False
        if on:
            # Code starts. A Ctrl-C held since boot interrupts it, and so
            # does one passed on as a key that the board has not read: the
            # board reads in order and has read the code, so it was typed
            # after the code was sent, and on a board would have come while
            # the code ran (here, the board may not have said "I 1" yet).
            # The board raises it itself as the code starts ("S"): a SIGINT
            # would land wherever the code had got to, perhaps in the GC.
            unread = self._ctrl_c_unread()  # (asked every time: it is used up once it interrupts)
            stop = self._held_intr or unread
            self._held_intr = False
            self._send_bus((b"S" if stop else b"G") + struct.pack("<H", number))
            return
        self._send_bus(b"A" + struct.pack("<H", number))  # acknowledged: no SIGINT can follow now
        self._intr_since = None  # a "C" the code ended before reading: disarm took it (simbus.missed)
        if self._held_intr:  # no code ran after all: it is a key for the REPL
            self._held_intr = False
            self._to_board(b"\x03")

    def _ctrl_c_unread(self):
        """Whether a Ctrl-C passed on as a key still waits, unread, in the
        board's input (and has not interrupted code already). The pipe's
        unread bytes are the last ones written to it; a query, so the board
        may go on reading."""
        if self._key_ctrl_c is None:
            return False
        waiting = len(self._in_buf)
        if self._con_in is not None:
            waiting += struct.unpack("i", fcntl.ioctl(self._con_in[0], termios.FIONREAD, b"\0\0\0\0"))[0]
        if self._key_ctrl_c < self._queued - waiting:
            self._key_ctrl_c = None  # read: it did what a key does
            return False
        self._key_ctrl_c = None  # it interrupts now, once
        return True

    def _interrupt(self):
        # Ask the running code to stop with a "C" on the bus: the board
        # raises KeyboardInterrupt at its next key scan, in its own code
        # (the game scans every few ms). Only code that reads no keys for
        # INTR_FALLBACK_S gets a SIGINT, which the Unix port raises wherever
        # the interpreter is: in its GC or halfway through a write that can
        # leave the board dead or silent for good (a "reset" then "exec" from
        # mpremote hung once in about 900 on a loaded machine).
        if self._intr_since is None:
            self._intr_since = time.monotonic()
            self._send_bus(b"C\x00\x00")

    def _sigint(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self._signalled = True
            self._send_bus(b"C\x00\x00")

    def _ended(self):
        # The ROM closed its end of the bus: it has exited. Read what it
        # printed last, then start it again the way its status says.
        self._drain_output()
        self._glass()
        status = self.proc.wait()
        self._drop_bus()
        if status == OFF or (status == SOFT_FRIENDLY and self.replay is not None):
            self.status = status
            return
        self.resets += 1
        # The console outlives the reset, so a Ctrl-C this run took too late
        # to act on, or one it never read, is the next run's: on a board it
        # would have come once the port was back (or after a soft reset).
        held = self._ctrl_c_unread() or self._missed or self._intr_since is not None
        if status == SOFT_FRIENDLY:
            self._spawn("friendly", "soft", new_console=False, held=held)
        elif status == SOFT_RAW:
            self._spawn("raw", "soft", new_console=False, held=held)
        elif status == HARD:  # the console keeps what is in flight: a port is the same port
            self._spawn("friendly", "power", new_console=False, held=held)
        elif self._signalled:
            # The Unix port raises KeyboardInterrupt from its signal handler
            # wherever the interpreter is; in its garbage collector, that
            # leaves the heap locked (MemoryError ever after) or worse, and
            # the board dies of it. A board's Ctrl-C never does that: start
            # again on the same console with the Ctrl-C held, so the next
            # code stops as it starts (the REPL's banner comes as it would).
            self._output(b"\r\n[virtual board: a Ctrl-C landed in the interpreter's garbage collector;"
                         b" starting again]\r\n")
            self._spawn("friendly", "soft", new_console=False, held=True)
        else:
            self._output(b"\r\n[virtual board crashed with status %d; powering on again]\r\n" % status)
            now = time.monotonic()
            self._crashes = [t for t in self._crashes if now - t < 5] + [now]
            if len(self._crashes) >= 3:
                self.status = status
                raise SimError("the virtual board crashed three times in a row (status %d)" % status)
            self._spawn("friendly", "power", new_console=True)

    def _drain_output(self):
        if self._con_out is None:
            return
        os.set_blocking(self._con_out[0], False)
        try:
            while True:
                data = os.read(self._con_out[0], 65536)
                if not data:
                    break
                self._output(data)
        except BlockingIOError:
            pass
        finally:
            os.set_blocking(self._con_out[0], True)

    def _from_board(self, fd):
        data = os.read(fd, 65536)
        if data:
            self._output(data)

    def _output(self, data):
        # A board's stdout turns "\n" into "\r\n" (as MicroPython's
        # mp_hal_stdout_tx_strn_cooked does); the Unix port leaves that to
        # the terminal, so do it here.
        if self._cr and data.startswith(b"\n"):  # the "\r\n" straddles two reads
            data = data[1:]
            if self.on_output:
                self.on_output(b"\n")
            self._write_client(b"\n")
        self._cr = data.endswith(b"\r")
        if data:
            self._line_start = data.endswith((b"\n", b"\r"))
        data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        if self.on_output:
            self.on_output(data)
        self._write_client(data)

    def _write_client(self, data):
        if not self._out_buf:
            self._out_since = time.monotonic()
        self._out_buf += data
        self._flush()

    def _from_client(self, fd):
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: no client right now
            return
        self.type(data)

    def _to_board(self, data):
        if data and self._con_in is not None:
            at = data.rfind(b"\x03")
            if at >= 0:
                self._key_ctrl_c = self._queued + at
            self._queued += len(data)
            self._in_buf += data
            self._flush()

    def type(self, data):
        """Bytes from the console client (or a front-end typing)."""
        if (self.armed or self._booting) and b"\x03" in data:
            # The interrupt character: as a board's USB stack does, raise
            # KeyboardInterrupt in the running code instead of passing it on
            # (during boot, as soon as boot.py or main.py starts). Several
            # at once are one interrupt, as on a board (and a second SIGINT
            # before the interpreter takes the first would kill it).
            self._to_board(data.replace(b"\x03", b""))
            if self.armed:
                self._interrupt()
            else:
                self._held_intr = True
            return
        self._to_board(data)

