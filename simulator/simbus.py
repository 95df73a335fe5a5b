"""The virtual board's wires to the simulator on the host.

The ROM and the hardware doubles talk to ``host_tools.sim.board`` over two pipes:

* board to host, text lines: ``L <ms> <hex>`` (the bytes the LED chain
  latched), ``T <ms> <hz>`` (the buzzer's tone, 0 for silence), ``I 1 <n>``
  / ``I 0 <n>`` (Ctrl-C on the console interrupts running code, or is just
  a byte; numbered, so an answer can't be mistaken for another's), ``H``
  (resetting with a Ctrl-C it took too late to act on: the host holds it
  for the next run);
* board to host, also: ``Q <n>`` (the press script's command ``n`` is
  done, counted from 1 since power-on), ``B <ms>`` (a heartbeat: the key
  scans have run on to ``ms``, sent every ``BEAT_MS`` of them);
* host to board, 3-byte messages: ``K`` + the 9-bit mask of the cells a
  finger is on (little-endian); ``P`` + ``cell | ms // 10 << 4`` (a tap or
  hold from a press script) and ``W`` + ``ms`` (a script's wait), played in
  order on the board's own clock, each counted from the first key scan
  that sees it (see ``script``); answers, each with the number of the ``I``
  it answers (little-endian): ``G`` (run the code) or ``S`` (a Ctrl-C is
  already waiting: interrupt the code as it starts) to ``I 1``, ``A`` to
  ``I 0``; ``C`` a Ctrl-C (sent with the SIGINT, so code that polls the
  keys stops even if the signal came at a moment the interpreter could not
  take it).

In a replay (``vclock``) there is no second pipe: the presses come from a
timeline. The console (stdout) then shares the first pipe, each bus line
marked by a leading ``\x1e``, so the host sees frames and printed lines in
the order they happened: a replay's output is the same on every run.
"""

import select
from binascii import hexlify
import sys
import time

# Exit statuses the host reads as "start me again" (or "off").
from simexit import SOFT_FRIENDLY, SOFT_RAW, HARD, OFF  # noqa: F401


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
_seq = 0  # the number of the last "I 1"
_seq_off = 0  # and of the last "I 0"
_off = b""  # the next "I 0" message, made in advance (see disarm)
_msg = bytearray(3)  # the host's last message
missed = False  # a Ctrl-C came as code ended, too late to interrupt it (see disarm)
_mark = b""  # before each bus line: b"\x1e" when stdout shares the pipe (replays)
lag = 0  # ms the board dawdles around running code (the ROM reads TACTICTOE_SIM_LAG): tests' races
GAP_MS = 100  # after a script's tap or hold, its cell is up this long before the next command
BEAT_MS = 250  # the key scans' heartbeat to the host (B), in board ms
_script = []  # the press script's commands not yet done: [cell or -1, ms, first and last scan's ms]
_done = 0  # script commands done since power-on
_tapped = 0  # the cell mask the script's current command holds
_beat = -BEAT_MS  # when the last heartbeat was sent


def start(wired, out_fd, in_fd):
    """Wire up: ``wired`` is the board's real wiring (a board.json), the fds
    are the pipes to the host (``in_fd`` None in a replay)."""
    global wiring, _out, _in, _poller, _mark, _off
    wiring = wired
    _out = open(out_fd, "wb")
    zero()
    if in_fd is None:
        _mark = b"\x1e"
    else:
        _in = open(in_fd, "rb")
        _poller = select.poll()
        _poller.register(_in, select.POLLIN)
    _off = _mark + b"I 0 1\n"


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


def _messages(wait_for=b"", number=0):
    """Take the host's messages: key masks, and (when ``wait_for`` holds
    message letters) block until one of them arrives with ``number``, and
    return its letter. Reads into a buffer it has: waiting here allocates
    nothing, so a KeyboardInterrupt (which the Unix port raises from its
    signal handler, wherever the interpreter is) can't land in the GC."""
    global _held, missed
    while wait_for or _poller.poll(0):
        if _in.readinto(_msg) != 3:  # the host went away
            raise Reset(OFF)
        if _msg[0] == 0x4B:  # "K"
            _held = _msg[1] | _msg[2] << 8
        elif _msg[0] == 0x50:  # "P": a tap or hold, then the gap before the next command
            v = _msg[1] | _msg[2] << 8
            _script.append([v & 15, (v >> 4) * 10, None, 0])
            _script.append([-1, GAP_MS, None, 0])
        elif _msg[0] == 0x57:  # "W": a wait
            _script.append([-1, _msg[1] | _msg[2] << 8, None, 0])
        elif _msg[0] == 0x43:  # "C": Ctrl-C for the running code (the host's SIGINT only if it reads no keys)
            if _armed:
                raise KeyboardInterrupt  # here, in our own code: never in the GC
            missed = True  # read by disarm: it came as the code ended (pyexec raises it then)
        elif _msg[0] in wait_for and _msg[1] | _msg[2] << 8 == number:
            return _msg[0]


def held():
    """The mask of cells a finger is on now (a key scan reads it)."""
    global _held, _beat
    if timeline is not None:
        t = now()
        change = timeline.next
        while change is not None and change[0] <= t:
            _held = change[1]
            timeline.advance()
            change = timeline.next
        return _held
    _messages()
    t = now()
    if t - _beat >= BEAT_MS:
        _beat = t
        send(b"B %d\n" % t)
    if _script:
        script(t)
    return _held | _tapped


def script(t):
    """Play the press script at a key scan at ``t`` ms. A command starts at
    the first scan after the one before it ends, and lasts until the scans
    have seen it for its time (a tap's cell held, or nothing): a board
    starved of CPU, scanning late, still sees every tap held on two scans
    its time apart, as the web page's fingers do (web/board.js)."""
    global _tapped, _done
    while _script:
        step = _script[0]
        if step[2] is None:  # the first scan to see it
            step[2] = step[3] = t
            _tapped = 1 << step[0] if step[0] >= 0 else 0
            return
        if step[3] - step[2] < step[1]:
            step[3] = t
            return
        _script.pop(0)
        _tapped = 0
        if step[0] < 0:  # a tap's gap or a wait: one command done
            _done += 1
            send(b"Q %d\n" % _done)


def leds(data):
    """The LED chain latched ``data`` (wire order, 3 bytes a pixel)."""
    global _leds
    if data != _leds:
        _leds = data
        send(b"L %d %s\n" % (now(), hexlify(data)))


def last_leds():
    return _leds or bytes(3 * wiring["leds"].get("count", 9))


def encoder(pin):
    """The level of an encoder's switch on ``pin``: 1, open (the terminal
    has no dial to turn)."""
    return 1


def tone(hz):
    send(b"T %d %d\n" % (now(), hz))


def arm(slow=0):
    """Code is about to run: from now a Ctrl-C on the console interrupts it
    (``slow``: first wait that many ms, as a board starved of CPU might).
    Returns True if a Ctrl-C is already waiting (the host's "S": held since
    the board booted, or typed after the code was sent): the caller raises
    it at once, as the code starts, rather than the host's SIGINT landing
    wherever the code has got to (in the GC, the Unix port's heap stays
    locked)."""
    global _armed, _seq
    if slow:
        time.sleep_ms(slow)
    _seq = (_seq + 1) & 0xFFFF
    msg = b"I 1 %d\n" % _seq
    _armed = True
    send(msg)
    if _in is None:  # a replay: no console
        return False
    return _messages(b"GS", _seq) == 0x53


def disarm(slow=0):
    """No code runs now: a Ctrl-C is a key (the REPL). Waits for the host's
    "A" answering this "I 0" (by its number): after that no SIGINT can be on
    its way, so none can land in the ROM's own code. A KeyboardInterrupt in
    here is a Ctrl-C that came too late for the code: ``missed`` says so.
    Nothing before the ``try`` lets the interpreter raise it outside, and
    nothing in it allocates (the message is made beforehand)."""
    global _armed, _seq_off, missed, _off
    _armed = False
    _seq_off = (_seq_off + 1) & 0xFFFF
    off = _off  # "I 0 <_seq_off>", made while no Ctrl-C could come
    while True:
        try:
            if slow:
                ms, slow = slow, 0
                time.sleep_ms(ms)
            _out.write(off)  # again after a Ctrl-C: the host answers each
            if _in is not None:  # (a replay has no console)
                _messages(b"A", _seq_off)
            break
        except KeyboardInterrupt:
            missed = True
        except OSError:  # the host went away: so does the board
            raise Reset(OFF)
    _off = _mark + b"I 0 %d\n" % ((_seq_off + 1) & 0xFFFF)


def hand_over():
    """The board is resetting: a Ctrl-C it missed is the next run's, as it
    would have reached the next board had the port gone away (the host
    holds it until code runs)."""
    if missed and _in is not None:
        try:
            send(b"H\n")
        except Reset:
            pass


def log(text):
    sys.stdout.write(text + "\n")
