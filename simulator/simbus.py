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

The chips on a bought board's buses (``machine.SPI`` / ``machine.I2C``)
live on the host, in the same JavaScript models the web page runs
(``host_tools.sim.chips``):

* board to host: ``S <ms> <bus> <sck> <mosi> <oe> <out> <hex>`` (bytes
  clocked out of SPI ``bus``, with the GPIOs' output enables and levels as
  bit masks: the chips' select and D/C lines), ``2 <ms> <n> <bus> <sda>
  <scl> <held> <addr> <hex or -> <nread>`` (I2C transaction ``n``: write
  the bytes, then read ``nread``; ``held`` is the key mask of that moment,
  for an expander's input pins);
* host to board, the answer: ``R`` + ``n`` (2 bytes), then 2 bytes
  ``count | status << 14`` (status 0: acknowledged, 1: not), then
  ``count`` bytes read. The board waits for it.

In a replay (``vclock``) the presses come from a timeline and the second
pipe carries only those answers. The console (stdout) then shares the
first pipe, each bus line marked by a leading ``\x1e``, so the host sees
frames and printed lines in the order they happened: a replay's output is
the same on every run.
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
_live = True  # False in a replay: no console, no keys from the host
_i2c_seq = 0  # the number of the last I2C transaction
_answer = None  # its answer: the bytes read, or None (no acknowledge)
missed = False  # a Ctrl-C came as code ended, too late to interrupt it (see disarm)
_mark = b""  # before each bus line: b"\x1e" when stdout shares the pipe (replays)
lag = 0  # ms the board dawdles around running code (the ROM reads TACTICTOE_SIM_LAG): tests' races
GAP_MS = 100  # after a script's tap or hold, its cell is up this long before the next command
# A key scan reads each key's pin in turn, and each read asks held(): a
# command lasts at least this many reads too, so that a whole scan sees it
# however long the board was starved between two reads of one scan (the
# MacroPad's is the longest: 15 reads).
STEP_READS = 32
# An expander's read (the keypad's TCA9555) is a whole scan in one: it counts
# as this many, so a command lasts two such scans. Counted as one read, 32
# round trips to the chips' models on a loaded host made a tap last longer
# than a long press (1.5 s on the board's clock), and the tap was lost.
SCAN_READS = STEP_READS // 2
_reads = 0  # held()'s reads since the script's current command started
BEAT_MS = 250  # the key scans' heartbeat to the host (B), in board ms
_script = []  # the press script's commands not yet done: [cell or -1, ms, first read's ms, ms seen so far]
# A command's time is the key scans' (the clock the firmware last read, see
# simtime: a scan reads it, then the pins), and each gap between two scans
# counts at most this. Timed by the reads instead, a board starved between
# two reads of one scan could end a 100 ms tap on scans 10 ms apart, short
# of the firmware's 25 ms debounce, and the tap was lost; and a long gap
# just before a tap's first scan, or just after its last, would have
# counted for the scans between (the debouncer sees neither).
SCAN_GAP_MS = 20
clock_read = None  # the firmware's last reading of time.ticks_ms (simtime), None: not read yet
_last_scan = 0  # the ms of the scan the script last saw
_EDGE = 16  # in _script: 16 + the encoder's switches closed (bit 0: its pins[0], bit 1: pins[1])
_ENCODER = 14  # held(): bits 14 and 15 are those switches
_done = 0  # script commands done since power-on
_tapped = 0  # the cell mask the script's current command holds
_beat = -BEAT_MS  # when the last heartbeat was sent


def start(wired, out_fd, in_fd, live=True):
    """Wire up: ``wired`` is the board's real wiring (a board.json), the fds
    are the pipes to the host; ``live`` False for a replay."""
    global wiring, _out, _in, _poller, _mark, _off, _live
    wiring = wired
    _live = live
    _out = open(out_fd, "wb")
    zero()
    if not live:
        _mark = b"\x1e"
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
    global _held, missed, _answer
    while wait_for or _poller.poll(0):
        if _in.readinto(_msg) != 3:  # the host went away
            raise Reset(OFF)
        if _msg[0] == 0x52:  # "R": an I2C answer, read whole (an old one is dropped)
            n = _msg[1] | _msg[2] << 8
            if _in.readinto(_msg, 2) != 2:
                raise Reset(OFF)
            word = _msg[0] | _msg[1] << 8
            data = _in.read(word & 0x3FFF) if word & 0x3FFF else b""
            if n == _i2c_seq and 0x52 in wait_for:
                _answer = None if word >> 14 else data
                return 0x52
        elif _msg[0] == 0x4B:  # "K"
            _held = _msg[1] | _msg[2] << 8
        elif _msg[0] == 0x50:  # "P": a tap or hold, then the gap before the next command
            v = _msg[1] | _msg[2] << 8
            _script.append([v & 15, (v >> 4) * 10, None, 0])
            _script.append([-1, GAP_MS, None, 0])
        elif _msg[0] == 0x45:  # "E": an encoder edge: its switches' levels, held for a time
            v = _msg[1] | _msg[2] << 8
            _script.append([_EDGE + (v & 3), v >> 2, None, 0])
        elif _msg[0] == 0x57:  # "W": a wait
            _script.append([-1, _msg[1] | _msg[2] << 8, None, 0])
        elif _msg[0] == 0x43:  # "C": Ctrl-C for the running code (the host's SIGINT only if it reads no keys)
            if _armed:
                raise KeyboardInterrupt  # here, in our own code: never in the GC
            missed = True  # read by disarm: it came as the code ended (pyexec raises it then)
        elif _msg[0] in wait_for and _msg[1] | _msg[2] << 8 == number:
            return _msg[0]


def held(reads=1):
    """The mask of cells a finger is on now (a key scan reads it; ``reads``:
    how many of a scan's reads this one is worth, ``SCAN_READS`` for an
    expander's, which reads every key at once)."""
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
        script(t, reads)
    return _held | _tapped


def script(t, reads=1):
    """Play the press script at a key scan at ``t`` ms. A command starts at
    the first scan after the one before it ends, and lasts until the scans
    have seen it for its time (a tap's cell held, or nothing; on the scans'
    clock, each gap between two counting at most ``SCAN_GAP_MS``) and for
    ``STEP_READS`` reads: a board starved of CPU, scanning late or stopped
    between two reads of one scan, still sees every tap held on scans its
    time apart, as the web page's fingers do (web/board.js)."""
    global _tapped, _done, _reads, _last_scan
    if clock_read is not None:
        t = time.ticks_diff(clock_read, _t0)
    gap = min(t - _last_scan, SCAN_GAP_MS)  # (0 within one scan)
    _last_scan = t
    while _script:
        step = _script[0]
        if step[2] is None:  # the first scan to see it
            step[2], step[3] = t, 0
            _reads = 0
            kind = step[0]
            _tapped = (kind - _EDGE) << _ENCODER if kind >= _EDGE else 1 << kind if kind >= 0 else 0
            return
        _reads += reads
        step[3] += gap
        if step[3] < step[1] or _reads < STEP_READS:
            return
        _script.pop(0)
        if step[0] < _EDGE:  # (an encoder edge holds its levels into the next)
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
    return _leds or bytes(3 * wiring["leds"]["count"])


def encoder(pin):
    """The level of the encoder's switch on ``pin`` (one of the wiring's
    ``encoder.pins``): 0 while held()'s bit for it says it is closed."""
    return 0 if held() >> (_ENCODER + wiring["encoder"]["pins"].index(pin)) & 1 else 1


def spi(bus, sck, mosi, data, oe, out):
    """Bytes ``data`` clocked out of SPI ``bus`` on GPIOs ``sck`` and
    ``mosi``, with the output enables and levels of every GPIO (bit masks)."""
    send(b"S %d %d %d %d %d %d %s\n" % (now(), bus, sck, mosi, oe, out, hexlify(data)))


def i2c(bus, sda, scl, addr, write, nread):
    """One I2C transaction on ``bus`` (GPIOs ``sda``, ``scl``): ``write``'s
    bytes to ``addr``, then ``nread`` read. The bytes read, or None if
    nothing acknowledged."""
    global _i2c_seq
    inp = wiring["input"]
    if inp.get("i2c") == bus and inp.get("address") == addr:
        keys = held(SCAN_READS)  # a key scan, through the expander: the press script plays on
    else:
        keys = _held | _tapped  # (another chip, the LEDs: no key scan, the script waits)
    _i2c_seq = (_i2c_seq + 1) & 0xFFFF
    send(b"2 %d %d %d %d %d %d %d %s %d\n" % (now(), _i2c_seq, bus, sda, scl, keys, addr,
                                            hexlify(write) if write else b"-", nread))
    _messages(b"R", _i2c_seq)
    return _answer


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
    global _armed, _seq, clock_read
    if slow:
        time.sleep_ms(slow)
    clock_read = None  # until this code reads the clock, the press script times by its reads (see script)
    _seq = (_seq + 1) & 0xFFFF
    msg = b"I 1 %d\n" % _seq
    _armed = True
    send(msg)
    if not _live:  # a replay: no console
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
            if _live:  # (a replay has no console)
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
    if missed and _live:
        try:
            send(b"H\n")
        except Reset:
            pass


def log(text):
    sys.stdout.write(text + "\n")
