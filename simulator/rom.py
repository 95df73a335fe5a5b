"""The virtual board's ROM: what MicroPython's C code does on a real board
around ``main.py``, for the Unix port. Power-on or soft reset, ``boot.py``,
``main.py``, then the friendly REPL or the raw REPL (and raw-paste mode) that
``mpremote`` drives, byte for byte as ``pyexec.c`` does it.

``host_tools.sim.board`` runs it as::

    micropython rom.py FLASH WIRING MODE REASON SEED OUT IN REPLAY [END]

FLASH is the host folder that is the board's flash (``/`` on the board),
WIRING the virtual board's own ``board.json`` (which pins really go where),
MODE ``friendly`` or ``raw`` (the REPL a soft reset returns to), REASON
``power`` or ``soft``, SEED the hardware RNG's seed (``-``: random) and
OUT and IN the file descriptors of the wires to the host (``simbus``), and
REPLAY a file of ``ms mask`` lines that replaces the live keys until END ms
(``-``: live).
A reset ends the process with one of ``simbus``'s exit statuses and the host
starts it again, so every reset starts from a fresh heap, as on a board.
What outlives a reset on a board (the pins' setup through a soft reset, the
reset cause, the LED chain's colours: ``machine._power_off``) goes to the
next boot in a file in the host's /tmp.
"""

import gc
import json
import os
import sys

import flashfs
import simbus

# The doubles: loaded now, from the ROM's folder, because the flash is about
# to be mounted over "/" and the firmware finds them in sys.modules.
import machine
import neopixel  # noqa: F401

CTRL_A = 1
CTRL_B = 2
CTRL_C = 3
CTRL_D = 4
CTRL_E = 5
_WINDOW = 2048  # raw-paste flow-control window: the pipe buffers far more

_stdin = sys.stdin.buffer
_cancelled = False  # the last readline() ended with Ctrl-C


def out(text):
    sys.stdout.write(text)


def getc():
    """The next console byte. A Ctrl-C the host sent as an interrupt just as
    the board stopped running code arrives as KeyboardInterrupt: same key."""
    try:
        b = _stdin.read(1)
    except KeyboardInterrupt:
        return CTRL_C
    if not b:  # the host closed the console: power off
        raise simbus.Reset(simbus.OFF)
    return b[0]


def execute(src, g, mode, filename, raw):
    """Compile and run ``src`` in the globals ``g``; Ctrl-C interrupts it.
    In the raw REPL, mark the ends of its output and error with Ctrl-D."""
    err = None
    simbus.missed = False
    try:
        try:
            if simbus.arm(simbus.lag):  # inside the try: a Ctrl-C may land at once
                raise KeyboardInterrupt  # one was waiting: the code stops as it starts
            exec(compile(src, filename, mode), g)
        finally:
            simbus.disarm(simbus.lag)
    except simbus.Reset:
        raise  # a Ctrl-C that came too late goes to the next run (simbus.hand_over)
    except SystemExit:  # sys.exit() on a board: a soft reset, after the end marks
        if raw:
            out("\x04\x04")
        raise simbus.Reset(simbus.SOFT_RAW if raw else simbus.SOFT_FRIENDLY)
    except BaseException as e:  # noqa: B036  (KeyboardInterrupt too, as on a board)
        err = e
    if simbus.missed and err is None:  # as pyexec raises a Ctrl-C pending when the code returns
        err = KeyboardInterrupt()
    simbus.missed = False
    if raw:
        out("\x04")
    if err is not None:
        sys.print_exception(err)
    if raw:
        out("\x04")


def run_file(name, g):
    try:
        with open(name) as f:
            src = f.read()
    except OSError:
        return
    execute(src, g, "exec", name, False)


def banner():
    v = sys.implementation.version
    out("MicroPython v%d.%d.%d on the tactictoe simulator; virtual %s board\n"
        'Type "help()" for more information.\n' % (v[0], v[1], v[2], simbus.wiring["name"]))


def readline(prompt):
    """A line typed at the friendly REPL, or one of the control keys that
    act on an empty line (Ctrl-A, Ctrl-B, Ctrl-D, Ctrl-E) as an int."""
    global _cancelled
    _cancelled = False
    out(prompt)
    line = ""
    last = 0
    while True:
        c = getc()
        if c == 0x0A and last == 0x0D:  # the \n of a \r\n
            last = c
            continue
        last = c
        if c in (0x0D, 0x0A):
            out("\n")
            return line
        if c == CTRL_C:
            _cancelled = True
            out("\n")
            return ""
        if c in (CTRL_A, CTRL_B, CTRL_D, CTRL_E):
            if not line:
                return c
        elif c in (0x08, 0x7F):
            if line:
                line = line[:-1]
                out("\b \b")
        elif c == 0x1B:  # an escape sequence (arrow keys): no line editing here
            c = getc()
            if c == 0x5B:
                while not 0x40 <= getc() <= 0x7E:
                    pass
        elif c >= 0x20:
            line += chr(c)
            out(chr(c))


def _continues(text):
    # More lines to come: a compound statement, or an open bracket.
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
    return depth > 0 or text.rstrip().endswith(":") or text.endswith("\\")


def friendly(g):
    simbus.disarm()  # Ctrl-C is a key here (the host holds one sent during boot till now)
    banner()
    while True:
        line = readline(">>> ")
        if line == CTRL_D:
            out("\n")
            raise simbus.Reset(simbus.SOFT_FRIENDLY)
        if line == CTRL_A:
            out("\n")
            return "raw"
        if line == CTRL_B:
            out("\n")
            banner()
            continue
        if line == CTRL_E:
            paste(g)
            continue
        if not line:
            continue
        if _continues(line):
            while True:
                more = readline("... ")
                if more == "" and _cancelled:  # Ctrl-C drops the whole block
                    line = ""
                    break
                if not isinstance(more, str) or not more:
                    break
                line += "\n" + more
        if line:
            execute(line + "\n", g, "single", "<stdin>", False)


def paste(g):
    out("\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\n=== ")
    text = ""
    while True:
        c = getc()
        if c == CTRL_C:
            out("\n")
            return
        if c == CTRL_D:
            out("\n")
            break
        if c == 0x0D:
            c = 0x0A
            out("\n=== ")
        else:
            out(chr(c))
        text += chr(c)
    execute(text, g, "exec", "<stdin>", False)


def raw(g):
    simbus.disarm()
    out("raw REPL; CTRL-B to exit\n>")
    buf = bytearray()
    while True:
        c = getc()
        if c == CTRL_A:
            if buf == b"\x05A":
                raw_paste(g)
                out(">")
            elif buf[:1] == b"\x05" and len(buf) == 2:  # a raw-paste request we don't know
                out("R\x00")
            else:
                out("raw REPL; CTRL-B to exit\n>")
            buf = bytearray()
        elif c == CTRL_B:
            out("\n")
            return "friendly"
        elif c == CTRL_C:
            buf = bytearray()
        elif c == CTRL_D:
            out("OK")
            if not buf:
                out("\n")
                raise simbus.Reset(simbus.SOFT_RAW)
            execute(bytes(buf), g, "exec", "<stdin>", True)
            buf = bytearray()
            out(">")
        else:
            buf.append(c)


def raw_paste(g):
    # As pyexec.c: "R\x01", the window size, and one window granted up front;
    # another each time a window's worth has been read. Ctrl-D ends the code.
    out("R\x01" + chr(_WINDOW & 0xFF) + chr(_WINDOW >> 8) + "\x01")  # both < 0x80
    buf = bytearray()
    left = _WINDOW
    while True:
        c = getc()
        if c in (CTRL_C, CTRL_D):
            out("\x04")
            if c == CTRL_C:
                out("\x04")
                sys.print_exception(KeyboardInterrupt())
                out("\x04")
                return
            break
        buf.append(c)
        left -= 1
        if not left:
            out("\x01")
            left = _WINDOW
    execute(bytes(buf), g, "exec", "<stdin>", True)


def _kept_path(flash):
    # Where one boot leaves the next what a reset keeps (machine._power_off):
    # a file in the host's /tmp (absolute: a VfsPosix's root prefixes only
    # those), one per flash folder.
    return "/tactictoe-sim-kept" + flash.replace("/", "_")[-200:]


def take_kept(tmp, flash):
    path = _kept_path(flash)
    try:
        with tmp.open(path, "r") as f:
            kept = json.load(f)
        tmp.remove(path)
    except (OSError, ValueError):
        return None
    return kept


def leave_kept(tmp, flash, kept):
    path = _kept_path(flash)
    try:
        if kept is None:
            tmp.remove(path)
        else:
            with tmp.open(path, "w") as f:
                json.dump(kept, f)
    except OSError:
        pass


class Timeline:
    """A replay's presses, ``(ms, mask)`` changes read from their file as the
    virtual clock reaches them, so a long script never sits in the board's
    heap. ``next`` is the coming change, or None after the last."""

    def __init__(self, path):
        self._f = open(path)
        self.next = None
        self.advance()

    def advance(self):
        """Move ``next`` on to the change after it."""
        while self._f is not None:
            line = self._f.readline()
            if not line:
                self._f.close()
                self._f = None
            elif line.strip():
                t, mask = line.split()
                self.next = (int(t), int(mask))
                return
        self.next = None


def main():
    flash, wiring, mode, reason, seed, bus_out, bus_in, replay = sys.argv[1:9]
    simbus.lag = int(os.getenv("TACTICTOE_SIM_LAG") or 0)
    with open(wiring) as f:
        simbus.start(json.load(f), int(bus_out), int(bus_in), live=replay == "-")
    import simos

    if seed != "-":
        simos.seed(int(seed))
    sys.modules["os"] = simos
    if replay != "-":
        import vclock

        simbus.timeline = Timeline(replay)
        vclock.end = int(sys.argv[9])
        simbus.ticks = vclock.ticks_ms
        simbus.zero()  # time 0 on the virtual clock
        sys.modules["time"] = vclock
        sys.modules["select"] = vclock
        sys.modules["_asyncio"] = vclock
    else:
        import simtime

        sys.modules["time"] = simtime  # (each reading noted: the press script times taps by the scans')
    # What the last boot's reset kept (a soft reset keeps the pins' setup).
    tmp = os.VfsPosix("/tmp")
    machine._power_on(reason, take_kept(tmp, flash))
    # The flash becomes the whole filesystem, as "/" on a board.
    os.umount("/")
    os.mount(flashfs.Flash(flash), "/")
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]
    gc.collect()
    g = {"__name__": "__main__"}
    try:
        if reason == "soft":
            out("MPY: soft reboot\n")
        run_file("boot.py", g)
        if mode == "friendly":
            run_file("main.py", g)
        while True:
            mode = raw(g) if mode == "raw" else friendly(g)
    except simbus.Reset as e:
        status = e.args[0]
    except KeyboardInterrupt:  # between two pieces of code: start again
        status = simbus.SOFT_FRIENDLY if mode == "friendly" else simbus.SOFT_RAW
    simbus.hand_over()
    leave_kept(tmp, flash, machine._power_off(status))
    sys.exit(status)


main()
