"""The virtual board's wires to the simulator on the host.

The ROM and the hardware doubles talk to ``host_tools.sim`` over two pipes:

* board to host, text lines: ``L <ms> <hex>`` (the bytes the LED chain
  latched), ``T <ms> <hz>`` (the buzzer's tone, 0 for silence), ``I 1`` /
  ``I 0`` (Ctrl-C on the console interrupts running code, or is just a byte);
* host to board, 3-byte messages: ``K`` + the 9-bit mask of the cells a
  finger is on (little-endian); ``A`` acknowledging ``I 0``; ``C`` a Ctrl-C
  (sent with the SIGINT, so code that polls the keys stops even if the
  signal came at a moment the interpreter could not take it).

In a replay (``vclock``) there is no second pipe: the presses come from a
timeline. The console (stdout) then shares the first pipe, each bus line
marked by a leading ``\x1e``, so the host sees frames and printed lines in
the order they happened: a replay's output is the same on every run.
"""

import select
from binascii import hexlify
import sys
import time

# Exit statuses the host reads as "start me again" (see host_tools.sim).
SOFT_FRIENDLY = 3  # soft reset (Ctrl-D, sys.exit()): boot.py, main.py, REPL
SOFT_RAW = 4  # soft reset from the raw REPL: boot.py, then the raw REPL
HARD = 5  # machine.reset(): power on again
OFF = 6  # the replay is over


class Reset(BaseException):
    """Leave the ROM with exit status ``args[0]`` (not an Exception, so the
    firmware's own handlers don't catch it)."""


wiring = None  # the virtual board's board.json (its real wiring), set by the ROM
_out = None
_in = None
_poller = None
_held = 0
_leds = None
_t0 = 0
timeline = None  # replays: rom.Timeline, the (ms, mask) changes held() follows
ticks = time.ticks_ms  # the replay's virtual clock replaces it
_armed = False  # running code: a Ctrl-C from the host interrupts it
_mark = b""  # before each bus line: b"\x1e" when stdout shares the pipe (replays)
lag = 0  # ms the board dawdles around running code (the ROM reads TACTICTOE_SIM_LAG): tests' races


def start(wired, out_fd, in_fd):
    """Wire up: ``wired`` is the board's real wiring (a board.json), the fds
    are the pipes to the host (``in_fd`` None in a replay)."""
    global wiring, _out, _in, _poller, _mark
    wiring = wired
    _out = open(out_fd, "wb")
    zero()
    if in_fd is None:
        _mark = b"\x1e"
    else:
        _in = open(in_fd, "rb")
        _poller = select.poll()
        _poller.register(_in, select.POLLIN)


def zero():
    global _t0
    _t0 = ticks()


def now():
    """Milliseconds since power-on (virtual in a replay)."""
    return time.ticks_diff(ticks(), _t0)


def send(line):
    try:
        _out.write(_mark + line)
    except OSError:  # the host went away: so does the board
        raise Reset(OFF)


def _messages(wait_for=None):
    """Take the host's messages: key masks, and (when ``wait_for`` is a
    message letter) block until that one arrives."""
    global _held
    while wait_for is not None or _poller.poll(0):
        msg = _in.read(3)
        if len(msg) < 3:  # the host went away
            raise Reset(OFF)
        if msg[0] == 0x4B:  # "K"
            _held = msg[1] | msg[2] << 8
        elif msg[0] == 0x43 and _armed:  # "C": Ctrl-C, in case the SIGINT went astray
            raise KeyboardInterrupt
        elif msg[0] == wait_for:
            return


def held():
    """The mask of cells a finger is on now."""
    global _held
    if timeline is not None:
        t = now()
        change = timeline.next
        while change is not None and change[0] <= t:
            _held = change[1]
            timeline.advance()
            change = timeline.next
        return _held
    _messages()
    return _held


def leds(data):
    """The LED chain latched ``data`` (wire order, 3 bytes a pixel)."""
    global _leds
    if data != _leds:
        _leds = data
        send(b"L %d %s\n" % (now(), hexlify(data)))


def last_leds():
    return _leds or bytes(27)


def tone(hz):
    send(b"T %d %d\n" % (now(), hz))


def interrupts(on, slow=0):
    """Tell the host whether Ctrl-C should interrupt (running code) or be a
    key (the REPL). Turning it off waits for the host's "A": after that no
    SIGINT can be on its way, so none can land in the ROM's own code.
    ``slow``: first wait that many ms, as a board starved of CPU might."""
    global _armed
    _armed = on
    if on:
        if slow:
            time.sleep_ms(slow)
        send(b"I 1\n")
        return
    sent = False
    while True:
        try:
            if slow:
                ms, slow = slow, 0
                time.sleep_ms(ms)
            if not sent:
                send(b"I 0\n")
                sent = True
            if _in is None:  # a replay: no console
                return
            _messages(0x41)  # "A"
            return
        except KeyboardInterrupt:  # sent before the host read "I 0": moot now
            pass


def log(text):
    sys.stdout.write(text + "\n")
