"""The page's board ROM: what runs before ``main.py`` on the virtual board
in the browser, and what stops it.

MicroPython's WebAssembly port runs on the page's own event loop: it has no
``asyncio.run`` (nothing may block the page), so here ``asyncio.run(coro)``
starts ``coro`` as a task and returns, and ``main.run()`` (the firmware's
own, unchanged) returns once the loop is going. Every task is kept so that
``power_off`` can cancel them; the old interpreter's hardware also refuses
service from then on (``simbus.live``).
"""

import json
import sys

import asyncio
import machine
import simbus

_tasks = []
_create_task = asyncio.create_task


def _task(coro):
    t = _create_task(coro)
    _tasks.append(t)
    return t


class SPI:
    """``machine.SPI(id, baudrate, *, polarity, phase, bits, firstbit, sck,
    mosi, miso)``, the rp2 port's controller as far as a screen needs it:
    ``write(buf)`` clocks the bytes out to the page's bus (``simbus.spi``),
    which hands them to the chip on those pins. (The port's ``machine``
    double, ``simulator/machine.py``, has no SPI of its own; the page adds
    this one.)"""

    MSB = 1
    LSB = 0
    _SCK = ((2, 6, 18, 22), (10, 14, 26))  # the RP2040's SCK and TX pins of SPI0 and SPI1
    _MOSI = ((3, 7, 19, 23), (11, 15, 27))

    def __init__(self, id, baudrate=1000000, **kw):
        if id not in (0, 1):
            raise ValueError("SPI(%d) doesn't exist" % id)
        self._id = id
        self._sck, self._mosi = self._SCK[id][0], self._MOSI[id][0]
        self.init(baudrate, **kw)

    def init(self, baudrate=1000000, *, polarity=0, phase=0, bits=8, firstbit=MSB, sck=None, mosi=None,
             miso=None):
        """Set the mode and pins (a pin given becomes the SPI's: ALT SPI)."""
        for pin, ok, attr, name in ((sck, self._SCK, "_sck", "SCK"), (mosi, self._MOSI, "_mosi", "MOSI")):
            if pin is None:
                continue
            n = machine._find(pin)
            if n not in ok[self._id]:
                raise ValueError("bad %s pin" % name)
            setattr(self, attr, n)
        for n in (self._sck, self._mosi):
            machine.Pin(n).init(machine.Pin.ALT, alt=1)
        self.baudrate = baudrate

    def write(self, buf):
        """Clock ``buf``'s bytes out on MOSI."""
        simbus.spi(self._id, self._sck, self._mosi, bytes(buf), _driven)

    def deinit(self):
        """Release the bus (nothing to do here)."""


def _driven(n):
    # The level GPIO n drives, or None: an output of the SIO.
    p = machine._pads.get(n)
    return p[2] if p is not None and p[0] == machine._SIO and p[3] else None


def wire(wiring):
    """Set the board's real wiring from a board.json's text; returns it as
    the firmware's ``config.validate`` reads it (JSON), so that the page
    lays the pixels out as the firmware does."""
    from tactictoe import config

    simbus.wiring = config.validate(json.loads(wiring))
    machine.SPI = SPI
    # The firmware loads its own, as at any power-on.
    del sys.modules["tactictoe.config"], sys.modules["tactictoe"]
    return json.dumps(simbus.wiring)


def power_on():
    """Boot the flash (the current folder) as a board does: ``main.py``'s
    ``run()``, which returns once its loop is running as tasks."""
    asyncio.create_task = _task
    asyncio.run = _task
    from tactictoe import main

    main.run()


def power_off():
    simbus.live = False
    for t in _tasks:
        t.cancel()
    del _tasks[:]
