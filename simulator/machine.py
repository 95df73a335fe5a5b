"""``machine`` for the virtual board: pins, PWM, touch pads, SPI, I2C and
resets, wired as the virtual board's ``board.json`` says (``simbus.wiring``:
the config as the firmware's ``config.validate`` returns it, every key there).
SPI and I2C transfers go whole to ``simbus``, whose other end hands them to
a bought board's chips (the JavaScript models of simulator/rp2040/chips/).

It models MicroPython v1.28's rp2 port, the one a Pico runs: what each call
returns, the exceptions and messages it raises, how pins and PWM channels
print, which names exist. ``tests/test_port_parity.py`` runs one probe here
and on that very port in an emulated RP2040 and compares the two.

Each GPIO keeps the chip's state that MicroPython shows: its function (SIO,
PWM, or none as at reset), its pulls (a pull-down at reset), the SIO output
level and output enable, and MicroPython's open-drain flag. A pin reads what
its pad sees: the level it drives when its output is on (an open-drain pin
driven low included); otherwise a finger (a button to ground, an extra key's
button, or a matrix key joining its column to a row driven low), or the
encoder's switches (``simbus.encoder``), else its pull. A pin with no pull
floats, and reads low, as in the emulated RP2040. Pins keep their state
through a soft reset, as on the chip (``simulator/rom.py`` carries it over).

The ESP32 board (``esp32-touch``) gets the same model on GPIO 0-39, printed
as that port prints its pins, with ``TouchPad`` and its reset causes.

The page of ``make web`` runs this file (and ``neopixel.py``) too, in
MicroPython's WebAssembly port, where ``web/simbus.py`` is its ``simbus``:
keep to what both ports have (tests/test_web.py plays on all three boards).
"""

import simbus

_TOUCH = (0, 2, 4, 12, 13, 14, 15, 27, 32, 33)  # ESP32 pins with a touch channel
_F = 125000000  # the rp2 port's system clock, Hz

# GPIO functions (the RP2040's FUNCSEL values)
_PWM_F = 4
_SIO = 5
_NULL = 31  # no function: a pin at reset
_ALT_NAMES = {1: "SPI", 2: "UART", 3: "I2C", 4: "PWM", 5: "SIO", 6: "PIO0", 7: "PIO1", 9: "USB"}

# pin -> [function, pulls, SIO output level, output enabled, open drain]
_pads = {}
_objs = {}  # pin -> its Pin (one object per GPIO, as on the port)
_cause = 1  # reset_cause(): PWRON_RESET, or what the ROM carried over
_next_cause = 1  # what the next boot says if this one ends in machine.reset()
_cpu_hz = None  # machine.freq(), once set


def _chip():
    return "esp32" if simbus.wiring["input"]["kind"] == "touch" else "rp2"


def _int(x):
    # mp_obj_get_int: ints and bools only
    if isinstance(x, (int, bool)):
        return int(x)
    raise TypeError("can't convert %s to int" % type(x).__name__)


def _named(name):
    # The Pico's board names (GP0-GP22, GP25-GP28, LED), then the chip's (GPIO0-GPIO29).
    if name == "LED":
        return 25
    for prefix, ok in (("GP", lambda n: n <= 22 or 25 <= n <= 28), ("GPIO", lambda n: n <= 29)):
        digits = name[len(prefix):]
        if name.startswith(prefix) and digits.isdigit() and str(int(digits)) == digits and ok(int(digits)):
            return int(digits)
    return None


def _find(pin):
    """The GPIO number of a Pin, a pin number or a pin name, as the port
    finds it (ValueError as the port words it)."""
    if isinstance(pin, Pin):
        return pin._id
    esp = _chip() == "esp32"
    if isinstance(pin, str) and not esp:
        n = _named(pin)
        if n is None:
            raise ValueError('unknown named pin "%s"' % pin)
        return n
    if isinstance(pin, int) and not isinstance(pin, bool) and 0 <= pin < (40 if esp else 30):
        return pin
    raise ValueError("invalid pin")


def _pad(n):
    p = _pads.get(n)
    if p is None:
        # at reset: no function; the RP2040's pads come up pulled down
        p = _pads[n] = [_NULL, 0 if _chip() == "esp32" else Pin.PULL_DOWN, 0, 0, 0]
    return p


def _drives_low(n):
    p = _pads.get(n)
    return p is not None and p[0] == _SIO and p[3] and not p[2]


def _level(n):
    """What GPIO ``n`` reads."""
    func, pulls, out, oe, _ = _pad(n)
    if func == _SIO and oe:
        return out
    w = simbus.wiring
    inp = w["input"]
    kind = inp["kind"]
    extra = w["extra"]  # (an extra key on the expander has a "key", not a "pin")
    for j in range(len(extra)):  # an extra key (bit 9 + j of held()): a button to ground
        if extra[j].get("pin") == n and simbus.held() >> (9 + j) & 1:
            return 0
    if w["encoder"] and n in w["encoder"]["pins"]:  # the dial's switches, to ground
        return simbus.encoder(n)
    if kind == "buttons" and n in inp["pins"]:
        if simbus.held() >> inp["pins"].index(n) & 1:
            return 0
    elif kind == "matrix" and n in inp["cols"]:
        c = inp["cols"].index(n)
        held = simbus.held()
        for r in range(3):
            if held >> (3 * r + c) & 1 and _drives_low(inp["rows"][r]):
                return 0
    return 1 if pulls == Pin.PULL_UP else 0


# Pin interrupts: GPIO -> [handler, trigger, the level last seen]. The
# virtual board has no interrupt controller: a pin's edges are looked for
# whenever the firmware reads another pin (its key scan does, every few ms),
# and a handler runs at once, seeing the levels of that moment (_seen).
_irqs = {}
_seen = None


def _edges():
    global _seen
    if _seen is not None or not _irqs:  # a handler is running; none to run
        return
    levels = {n: _level(n) for n in _irqs}  # each read once: one moment
    for n in levels:
        lvl = levels[n]
        h = _irqs.get(n)
        if h is not None and lvl != h[2]:
            h[2] = lvl
            if h[1] & (Pin.IRQ_RISING if lvl else Pin.IRQ_FALLING):
                _seen = levels
                try:
                    h[0](_objs[n])
                finally:
                    _seen = None


def _args(args, kw, names, positional):
    """Arguments as the port's C functions parse them: a dict of those of
    ``names`` given, the first ``positional`` of them by position."""
    if len(args) > positional:
        raise TypeError("extra positional arguments given")
    got = dict(zip(names, args))
    for k in kw:
        if k not in names or k in got:
            raise TypeError("extra keyword arguments given")
        got[k] = kw[k]
    return got


class irq:
    """What ``Pin.irq()`` returns."""

    def __init__(self, trigger):
        self._trigger = trigger

    def flags(self):
        """The triggers that have fired: 0 here (the handler is told)."""
        return 0

    def trigger(self, *value):
        """The triggers it was set up with (a new value is ignored)."""
        return self._trigger


_Irq = irq  # (the port's machine module has no name for it)
del irq


class Pin:
    """``Pin(id, mode=-1, pull=-1, *, value, alt)``: a GPIO, by number or
    name (``"GP15"``, ``"GPIO15"``, ``"LED"``; numbers only on the ESP32).
    One object per GPIO, as on the port. What it reads comes from the
    virtual board's wiring and the fingers on its cells (see the module)."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __new__(cls, *args, **kw):
        if not args:
            raise TypeError("function missing 1 required positional arguments")
        n = _find(args[0])
        pin = _objs.get(n)
        if pin is None:
            pin = _objs[n] = object.__new__(cls)
            pin._id = n
        return pin

    def __init__(self, id, *args, **kw):
        if args or kw:  # a mode, pull or value given: configure the GPIO
            self.init(*args, **kw)

    def init(self, *args, **kw):
        """``init(mode=-1, pull=-1, *, value, alt)``: set the pin up as the
        rp2 port does; the pull is set whatever was given (None: no pull).
        ``Pin.ALT`` records the function; ``SPI`` and ``I2C`` below are
        what drives such pins."""
        a = _args(args, kw, ("mode", "pull", "value", "alt"), 2)
        p = _pad(self._id)
        value = a.get("value")
        value = -1 if value is None else 1 if value else 0
        mode = a.get("mode")
        if mode is not None:
            mode = _int(mode)
            if mode == Pin.IN:
                p[0], p[3], p[4] = _SIO, 0, 0
            elif mode == Pin.OUT:
                if value != -1:
                    p[2] = value
                p[0], p[3], p[4] = _SIO, 1, 0
            elif mode == Pin.OPEN_DRAIN:  # driven low, or let go (the default)
                p[0], p[2], p[3], p[4] = _SIO, 0, 0 if value else 1, 1
            else:
                alt = _int(a.get("alt", _SIO))
                if alt not in _ALT_NAMES:
                    raise ValueError("invalid pin af: %d" % alt)
                p[0], p[4] = alt, 0
        # the pulls are set whatever was given: None is no pull
        pull = a.get("pull")
        p[1] = 0 if pull is None else _int(pull) & 3
        return None

    def value(self, *v):
        """``value()``: the level the pin reads (what it drives, when it is
        an output); ``value(x)``: set the level it drives (an open-drain pin:
        drive low, or let go)."""
        if not v:
            if _seen is not None and self._id in _seen:
                return _seen[self._id]  # in a handler: the level at the edge
            if self._id not in _irqs:
                _edges()
            return _level(self._id)
        if len(v) > 1:
            raise TypeError("function expected at most 2 arguments, got %d" % (len(v) + 1))
        p = _pad(self._id)
        if p[4]:  # open drain: drive low, or let go
            p[3] = 0 if v[0] else 1
        else:
            p[2] = 1 if v[0] else 0
        return None

    __call__ = value

    def on(self):
        """Drive the pin high (``high()`` too)."""
        self.value(1)

    def off(self):
        """Drive the pin low (``low()`` too)."""
        self.value(0)

    high = on
    low = off

    def toggle(self):
        """Invert the level the pin drives."""
        p = _pad(self._id)
        if p[4]:
            p[3] ^= 1
        else:
            p[2] ^= 1

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        """Call ``handler(pin)`` on the edges in ``trigger`` (None: stop).
        The virtual board looks for them whenever another pin is read (see
        ``_edges``), so a handler runs between two of the firmware's reads,
        never inside one."""
        if handler is None:
            _irqs.pop(self._id, None)
        else:
            _irqs[self._id] = [handler, trigger, _level(self._id)]
        return _Irq(trigger)

    def __repr__(self):
        # As each port prints it: Pin(GPIO15, mode=IN, pull=PULL_UP) on rp2.
        if _chip() == "esp32":
            return "Pin(%d)" % self._id
        func, pulls, _, oe, od = _pad(self._id)
        if func == _SIO:
            mode = "OPEN_DRAIN" if od else "OUT" if oe else "IN"
        else:
            mode = "ALT"
        s = "Pin(GPIO%d, mode=%s" % (self._id, mode)
        if pulls:
            s += ", pull=" + "|".join(name for bit, name in ((1, "PULL_UP"), (2, "PULL_DOWN")) if pulls & bit)
        if func != _SIO:
            s += ", alt=%s" % _ALT_NAMES.get(func, func)
        return s + ")"


class _Names:
    """``Pin.board`` and ``Pin.cpu``: the pins by name."""

    def __init__(self, board):
        self._board = board

    def __getattr__(self, name):
        n = _named(name)
        if n is None or name.startswith("GPIO") == self._board:
            raise AttributeError("type object '%s' has no attribute '%s'" % ("board" if self._board else "cpu", name))
        return Pin(n)


Pin.board = _Names(True)
Pin.cpu = _Names(False)


class TouchPad:  # the ESP32's: machine.TouchPad on an ESP32 board only (__getattr__)
    """``TouchPad(pin)``: an ESP32 touch channel (ValueError on a pin with
    none)."""

    def __init__(self, pin):
        self._pin = _find(pin)
        if self._pin not in _TOUCH:
            raise ValueError("invalid pin for touchpad")

    def config(self, value):
        """Accepted and ignored (the port sets a wake-up threshold)."""

    def read(self):
        """The pad's reading: lower when touched. Here a fixed value for
        each pad, 400 lower while a finger is on its cell; a wired pad
        with no cell reads 600, as one with nothing on it."""
        inp = simbus.wiring["input"]
        if self._pin not in inp["pins"]:
            return 600  # a pad with nothing on it
        cell = inp["pins"].index(self._pin)
        # Pads differ with their size and wiring; a finger takes most away.
        return 520 + 15 * cell - (400 if simbus.held() >> cell & 1 else 0)


_TouchPad = TouchPad
del TouchPad


# --- PWM: eight slices of two channels, GPIO n on slice n >> 1 & 7, channel n & 1

_slices = {}  # slice -> [div16, top, frequency set, enabled], as its registers hold them
_channels = {}  # slice * 2 + channel -> its PWM (one object per channel, as on the port)
_tone = 0  # what the buzzer plays now (Hz)
_defer = False  # PWM.init() is checking its arguments: start nothing yet


def _slice(s):
    sl = _slices.get(s)
    if sl is None:
        sl = _slices[s] = [16, 0xFFFF, False, False]
    return sl


def _div_top(freq):
    """The divider (in 16ths) and top the port sets for ``freq``, in its C
    arithmetic: unsigned 32-bit, so a negative frequency wraps round."""
    f = freq & 0xFFFFFFFF
    if not f:
        raise ValueError("freq too small")
    half = freq // 2 if freq >= 0 else -(-freq // 2)  # C division truncates
    q = (_F + half & 0xFFFFFFFF) // f
    if q < 65534:
        div16, top = 16, q - 1
    else:
        div16 = (16 * _F + 65534 * f - 1) // (65534 * f)
        top = (16 * _F + div16 * f // 2) // (div16 * f) - 1
    if div16 >= 256 * 16:
        raise ValueError("freq too small")
    return div16, top & 0xFFFF  # a 16-bit register


def _sound():
    """Tell the host what the buzzer plays: its channel's frequency while
    the pin is PWM and the output toggles, else silence."""
    global _tone
    hz = 0
    b = simbus.wiring["buzzer"]  # (the wiring is a validated config: a pin or None)
    if b is not None and _pads.get(b, (0,))[0] == _PWM_F:
        ch = _channels.get((b >> 1 & 7) * 2 + (b & 1))
        sl = _slice(b >> 1 & 7)
        if ch is not None and sl[3] and 0 < ch._cc <= sl[1]:
            hz = ch._freq()
    if hz != _tone:
        _tone = hz
        simbus.tone(hz)


class PWM:
    """``PWM(pin, *, freq, duty_u16, duty_ns, invert)``: one channel of the
    rp2 port's eight two-channel slices (GPIO n is slice n >> 1 & 7, channel
    n & 1), with its divider and counter arithmetic. Nothing is generated:
    on the wired buzzer pin the host hears the tone it would play."""

    def __new__(cls, *args, **kw):
        if not args:
            raise TypeError("function missing 1 required positional arguments")
        n = _find(args[0])
        key = (n >> 1 & 7) * 2 + (n & 1)
        self = _channels.get(key)
        if self is None:
            self = _channels[key] = object.__new__(cls)
            self._slice, self._channel, self._cc, self._duty = key >> 1, key & 1, 0, 0
        self._invert = 0
        self._type = None  # no duty set: "u16" or "ns" once it is
        self.init(*args[1:], **kw)
        _pad(n)[0] = _PWM_F
        _sound()
        return self

    def __init__(self, *args, **kw):
        pass  # __new__ did it all

    def init(self, *args, **kw):
        """``init(*, freq, duty_u16, duty_ns, invert)``: set what is given;
        the channel starts once it has both a frequency and a duty."""
        global _defer
        a = _args(args, kw, ("freq", "duty_u16", "duty_ns", "invert"), 1)
        a = dict((k, _int(v)) for k, v in a.items())
        # Nothing starts until every argument is checked; as on the port, an
        # argument it refuses leaves starts deferred until the next init().
        _defer = True
        if a.get("freq", -1) != -1:
            self.freq(a["freq"])
        if a.get("duty_u16", -1) != -1:
            self.duty_u16(a["duty_u16"])
        if a.get("duty_ns", -1) != -1:
            self.duty_ns(a["duty_ns"])
        if a.get("invert", -1) != -1:
            self._invert = 1 if a["invert"] else 0
        _defer = False
        self._start()

    def _start(self):
        sl = _slice(self._slice)
        if not _defer and sl[2] and self._type is not None:
            sl[3] = True
        _sound()

    def _freq(self):
        div16, top = _slice(self._slice)[:2]
        d = div16 * (top + 1)
        return (16 * _F + d // 2) // d

    def freq(self, *f):
        """``freq()``: the slice's frequency in Hz, as its divider gives it
        (0 before one is set); ``freq(hz)``: set it, for both channels."""
        sl = _slice(self._slice)
        if not f:
            return self._freq() if sl[2] else 0
        sl[0], sl[1] = _div_top(_int(f[0]))
        sl[2] = True
        for ch in (_channels.get(self._slice * 2), _channels.get(self._slice * 2 + 1)):
            if ch is not None and ch._type == "u16":
                ch.duty_u16(ch._duty)
            elif ch is not None and ch._type == "ns":
                ch.duty_ns(ch._duty)
        _sound()

    def duty_u16(self, *d):
        """``duty_u16()``: the duty as 0-65535 (0 before one is set);
        ``duty_u16(x)``: set it."""
        sl = _slice(self._slice)
        top = sl[1]
        if not d:
            if self._type is None or not sl[2]:
                return 0
            return (self._cc * 65535 + (top + 1) // 2) // (top + 1)
        d = min(_int(d[0]), 65535)
        # as the port computes it: in 32-bit unsigned arithmetic, into a 16-bit register
        cc = (d * (top + 1) & 0xFFFFFFFF) + 32767 & 0xFFFFFFFF
        self._cc = cc // 65535 & 0xFFFF
        self._duty, self._type = d, "u16"
        self._start()

    def duty_ns(self, *d):
        """``duty_ns()``: the high time in ns (0 before one is set);
        ``duty_ns(ns)``: set it."""
        sl = _slice(self._slice)
        hz = (16 * _F + sl[0] // 2) // sl[0]
        if not d:
            if self._type is None or not sl[2]:
                return 0
            return (self._cc * 1000000000 + hz // 2) // hz
        d = _int(d[0])
        cc = (d * hz & 0xFFFFFFFFFFFFFFFF) + 500000000 & 0xFFFFFFFFFFFFFFFF  # 64-bit unsigned
        self._cc = min(cc // 1000000000, sl[1] + 1) & 0xFFFF
        self._duty, self._type = d, "ns"
        self._start()

    def deinit(self):
        """Stop the slice (both its channels), as the port does."""
        _slice(self._slice)[3] = False
        _sound()

    def __repr__(self):
        return "<PWM slice=%d channel=%d invert=%d>" % (self._slice, self._channel, self._invert)


# --- SPI and I2C: whole transfers to the chips on the bus (simbus.spi / simbus.i2c) ------

# The RP2040's pins for each function (datasheet 1.4.3): SPI n's SCK is a pin
# with n & 3 == 2 in bank n (bit 3 of the pin number), MOSI & 3 == 3, MISO &
# 3 == 0; I2C n's SDA has n & 3 == 2 * n, SCL 2 * n + 1. The defaults are
# the Pico's (PICO_DEFAULT_SPI 0: 18, 19, 16; SPI1: 10, 11, 8; I2C0: SDA 4,
# SCL 5; I2C1: 6, 7).
_SPI_PINS = ((18, 19, 16), (10, 11, 8))
_I2C_PINS = ((4, 5), (6, 7))
_EIO = 5  # errno: no acknowledge from the addressed target (the rp2 port's hardware I2C)
_ENODEV = 19  # errno: no acknowledge to a write of no bytes (the port bit-bangs those)


def _driven():
    # (output enables, output levels) of every GPIO, as two bit masks: what
    # the chips on the bus see of chip select, D/C and reset lines.
    oe = out = 0
    for n, p in _pads.items():
        if p[0] == _SIO and p[3]:
            oe |= 1 << n
            out |= p[2] << n
    return oe, out


def _fill(buf, data):
    for i in range(len(buf)):
        buf[i] = data[i]


def _bus_pin(pin, ok, name):
    n = _find(pin)
    if not ok(n):
        raise ValueError("bad %s pin" % name)
    return n


class SPI:
    """``SPI(id, baudrate=1000000, *, polarity, phase, bits, firstbit, sck,
    mosi, miso)``: the rp2 port's SPI controller 0 or 1 (ValueError for a
    pin that is not that controller's). What it clocks out goes to the chips
    on the board's bus (``simbus.spi``), with the level each GPIO drives
    (their chip-select and D/C pins); nothing drives MISO, so reads give
    zeros, as the pin's pull-down does."""

    MSB = 1
    LSB = 0

    def __init__(self, id, baudrate=1000000, **kw):
        id = _int(id)
        if id not in (0, 1):
            raise ValueError("SPI(%d) doesn't exist" % id)
        self._id = id
        self._sck, self._mosi, self._miso = _SPI_PINS[id]
        self.init(baudrate, **kw)

    def init(self, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=MSB, sck=None, mosi=None,
             miso=None):
        """Set the rate, mode and pins (each pin given becomes the SPI's)."""
        bank = self._id << 3
        if sck is not None:
            self._sck = _bus_pin(sck, lambda n: n & 3 == 2 and n & 8 == bank, "SCK")
        if mosi is not None:
            self._mosi = _bus_pin(mosi, lambda n: n & 3 == 3 and n & 8 == bank, "MOSI")
        if miso is not None:
            self._miso = _bus_pin(miso, lambda n: n & 3 == 0 and n & 8 == bank, "MISO")
        self._mode = (_int(polarity), _int(phase), _int(bits), _int(firstbit))
        self._baudrate = _int(baudrate)
        for n in (self._sck, self._mosi):
            Pin(n).init(Pin.ALT, alt=1)

    def _send(self, buf):
        if len(buf):
            oe, out = _driven()
            simbus.spi(self._id, self._sck, self._mosi, bytes(buf), oe, out)

    def write(self, buf):
        """Clock ``buf`` out on MOSI."""
        self._send(buf)

    def readinto(self, buf, write=0):
        """Clock out ``write`` for each byte of ``buf``, reading MISO (zeros) into it."""
        self._send(bytes((write & 0xFF,)) * len(buf))
        for i in range(len(buf)):
            buf[i] = 0

    def read(self, nbytes, write=0):
        """``nbytes`` read while ``write`` goes out."""
        buf = bytearray(_int(nbytes))
        self.readinto(buf, write)
        return bytes(buf)

    def write_readinto(self, write_buf, read_buf):
        """Clock out ``write_buf`` while reading as many bytes into ``read_buf``."""
        if len(write_buf) != len(read_buf):
            raise ValueError("buffers must be the same length")
        self._send(write_buf)
        for i in range(len(read_buf)):
            read_buf[i] = 0

    def deinit(self):
        """Release the controller (nothing to do here)."""

    def __repr__(self):
        return "SPI(%d, baudrate=%d, polarity=%d, phase=%d, bits=%d, sck=%d, mosi=%d, miso=%d)" % (
            (self._id, self._baudrate) + self._mode[:3] + (self._sck, self._mosi, self._miso))


class I2C:
    """``I2C(id, *, scl, sda, freq=400000, timeout=50000)``: the rp2 port's
    I2C controller 0 or 1. Each call is one transaction with the chips on
    the board's bus (``simbus.i2c``), and as on the port: OSError EIO when
    nothing acknowledges (ENODEV for a write of no bytes, which the port
    bit-bangs, as ``scan()`` does), ``writeto`` returns the bytes
    acknowledged, reads fill the buffer from the target."""

    def __init__(self, id=0, freq=400000, *, scl=None, sda=None, timeout=50000):
        id = _int(id)
        if id not in (0, 1):
            raise ValueError("I2C(%d) doesn't exist" % id)
        self._id = id
        self._sda, self._scl = _I2C_PINS[id]
        if scl is not None:
            self._scl = _bus_pin(scl, lambda n: n & 3 == 2 * id + 1, "SCL")
        if sda is not None:
            self._sda = _bus_pin(sda, lambda n: n & 3 == 2 * id, "SDA")
        self._freq = _int(freq)
        self._timeout = _int(timeout)
        for n in (self._sda, self._scl):
            Pin(n).init(Pin.ALT, alt=3)

    def _transfer(self, addr, write, nread):
        """One transaction: ``write`` then (repeated start) ``nread`` bytes;
        the bytes read, or OSError as the port raises it."""
        got = simbus.i2c(self._id, self._sda, self._scl, _int(addr) & 0x7F, bytes(write), nread)
        if got is None:
            raise OSError(_EIO if write or nread else _ENODEV)
        return got

    def scan(self):
        """The addresses 0x08-0x77 that acknowledge a write of no bytes."""
        found = []
        for addr in range(0x08, 0x78):
            try:
                self._transfer(addr, b"", 0)
                found.append(addr)
            except OSError:
                pass
        return found

    def writeto(self, addr, buf, stop=True):
        """Write ``buf`` to ``addr``; the number of bytes acknowledged."""
        self._transfer(addr, buf, 0)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        """Write the buffers in ``vector`` as one transaction."""
        data = b"".join(bytes(b) for b in vector)
        self._transfer(addr, data, 0)
        return len(data)

    def readfrom_into(self, addr, buf, stop=True):
        """Read ``len(buf)`` bytes from ``addr`` into ``buf``."""
        _fill(buf, self._transfer(addr, b"", len(buf)))

    def readfrom(self, addr, nbytes, stop=True):
        """``nbytes`` read from ``addr``."""
        return self._transfer(addr, b"", _int(nbytes))

    def _mem(self, memaddr, addrsize):
        return _int(memaddr).to_bytes(addrsize // 8, "big")

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        """Write ``memaddr``, then read ``len(buf)`` bytes into ``buf``."""
        _fill(buf, self._transfer(addr, self._mem(memaddr, addrsize), len(buf)))

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        """Write ``memaddr``, then read ``nbytes``."""
        return self._transfer(addr, self._mem(memaddr, addrsize), _int(nbytes))

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        """Write ``memaddr`` then ``buf``, as one transaction."""
        self._transfer(addr, self._mem(memaddr, addrsize) + bytes(buf), 0)

    def deinit(self):
        """Release the controller (nothing to do here)."""

    def __repr__(self):
        return "I2C(%d, freq=%d, scl=%d, sda=%d, timeout=%d)" % (self._id, self._freq, self._scl, self._sda,
                                                                  self._timeout)


# --- the rest of machine ------------------------------------------------------------


def bitstream(pin, encoding, timing, buf):
    """Send ``buf`` on ``pin`` (high-low encoding: ``timing`` is (high_0,
    low_0, high_1, low_1) ns). A WS2812 chain on the wired LED pin takes it:
    each pixel its 3 bytes, the rest runs off the end of the chain (the
    config's ``leds.count`` pixels), and
    pixels sent less than 3 bytes keep their colour."""
    n = _find(pin)
    if _int(encoding) != 0:
        raise ValueError("encoding")
    t = [_int(v) for v in timing]
    if len(t) != 4:
        raise ValueError("requested length 4 but object has length %d" % len(t))
    data = bytes(buf)
    p = _pad(n)  # the pin becomes an output
    p[0], p[3], p[4] = _SIO, 1, 0
    if n != simbus.wiring["leds"].get("pin"):  # (an APA102 or IS31FL3731 chain has none)
        return None
    # A WS2812 tells a 1 from a 0 by how long the line stays high (over
    # about 590 ns is a 1, as the emulated RP2040's chain decodes it).
    zero, one = 0xFF if t[0] > 590 else 0, 0xFF if t[2] > 590 else 0
    if (zero, one) != (0, 0xFF):
        data = bytes((b & one) | (~b & zero) for b in data)
    whole = 3 * simbus.wiring["leds"]["count"]
    n = min(len(data), whole) // 3 * 3
    simbus.leds(data[:n] + simbus.last_leds()[n:whole])
    return None


def reset():
    """Reset the board: the virtual board starts again from power-on, on the
    same console (a real board's USB port goes away for a moment); the next
    ``reset_cause()`` is ``WDT_RESET`` (``HARD_RESET`` on the ESP32)."""
    global _next_cause
    # the rp2 port resets through its watchdog; the ESP32's says HARD_RESET
    _next_cause = _ESP32["HARD_RESET"] if _chip() == "esp32" else WDT_RESET
    raise simbus.Reset(simbus.HARD)


def soft_reset():
    """A soft reset, as ``sys.exit()`` or Ctrl-D: the REPL it came from
    decides what runs next (``main.py`` after the friendly REPL)."""
    raise SystemExit  # as on a board: the REPL it came from decides what follows


def bootloader():
    """On a Pico: reboot into its USB drive. Here: say so and carry on."""
    print("the virtual board has no bootloader; it keeps running")


def reset_cause():
    """Why the board last started: ``PWRON_RESET``, ``WDT_RESET`` after
    ``reset()`` (on the ESP32 also ``HARD_RESET``, ``SOFT_RESET``)."""
    return _cause


def freq(*hz):
    """``freq()``: the CPU clock in Hz; ``freq(hz)``: set it. Only remembered:
    nothing runs faster, and PWM keeps the default clock's arithmetic."""
    global _cpu_hz
    if not hz:
        return _cpu_hz or (160000000 if _chip() == "esp32" else _F)
    _cpu_hz = _int(hz[0])  # (PWM frequencies stay those of the default clock)
    return None


def unique_id():
    """The board's ID bytes: the same fixed 8 (6 on the ESP32) on every
    virtual board."""
    return b"\x00sim\x00\x01" if _chip() == "esp32" else b"\x00sim\x00\x00\x00\x01"


def idle():
    """Wait for an interrupt on a board; returns at once here."""


def lightsleep(ms=None):
    """Sleep ``ms`` ms (None: 0 here, where a board sleeps until woken)."""
    import time

    time.sleep_ms(ms or 0)


def deepsleep(ms=None):
    """Sleep ``ms`` ms, then reset as the rp2 port wakes (``reset()``)."""
    lightsleep(ms)  # then a reset, as the rp2 port wakes
    reset()


def disable_irq():
    """Returns the state for ``enable_irq``; nothing to disable here (no
    interrupts run beside the firmware)."""
    return 0


def enable_irq(state=0):
    """Undo ``disable_irq``: nothing to do here."""


PWRON_RESET = 1
WDT_RESET = 3
_ESP32 = {"HARD_RESET": 2, "DEEPSLEEP_RESET": 4, "SOFT_RESET": 5}


def __getattr__(name):
    # What only the ESP32 port has; the rest is missing as on the port.
    if simbus.wiring is not None and _chip() == "esp32":
        if name == "TouchPad":
            return _TouchPad
        if name in _ESP32:
            return _ESP32[name]
    raise AttributeError("'module' object has no attribute '%s'" % name)


# --- what a reset keeps (the ROM calls these) -------------------------------------


def _power_on(reason, kept):
    """Start a boot: ``reason`` "power" or "soft"; ``kept`` what the last
    boot's ``_power_off`` returned (None if it left nothing).

    A soft reset keeps the pads and, on the rp2 port, the reset cause. It
    forgets every PWM slice's frequency, but stops only slices 0-3: v1.28's
    machine_pwm_deinit_all() disables the slices of PWM objects 0-7, which
    are channels A and B of slices 0-3, so a buzzer on GPIO 8-15 or 24-29
    plays on; the LED chain, which no reset of the chip reaches, shows what
    it showed. A machine.reset() shows in the next reset_cause(), and the
    virtual board then starts afresh, as from power-on, LEDs included (so
    that the host sees every boot's first frame; a real chain would keep its
    colours)."""
    global _cause, _tone
    if kept and reason == "soft":
        _cause = kept["cause"]
        simbus._leds = bytes.fromhex(kept["leds"])  # the chain shows what it showed
        for n, pad in kept["pads"]:
            _pads[n] = pad
        for s, sl in kept["slices"]:
            _slices[s] = [sl[0], sl[1], False, sl[3] and s >= 4]
        for key, (cc, duty, kind, invert) in kept["channels"]:
            ch = _channels[key] = object.__new__(PWM)
            ch._slice, ch._channel, ch._cc, ch._duty, ch._type, ch._invert = key >> 1, key & 1, cc, duty, kind, invert
    elif kept and reason == "power":  # after machine.reset(); not what a soft exit left
        _cause = kept.get("next", _cause)
    if reason == "soft" and _chip() == "esp32":
        _cause = _ESP32["SOFT_RESET"]
    _tone = -1  # tell the host, whatever it heard last
    _sound()


def _power_off(status):
    """What this boot leaves the next one, for an exit with ``status``."""
    if status in (simbus.SOFT_FRIENDLY, simbus.SOFT_RAW):
        return {"leds": simbus.last_leds().hex(), "cause": _cause, "pads": [[n, p] for n, p in _pads.items()],
                "slices": [[s, sl] for s, sl in _slices.items()],
                "channels": [[key, [ch._cc, ch._duty, ch._type, ch._invert]] for key, ch in _channels.items()]}
    if status == simbus.HARD:
        return {"next": _next_cause}
    return None
