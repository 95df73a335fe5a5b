"""The virtual board's wires to the web page: what ``simulator/machine.py``
and ``simulator/neopixel.py`` (the same doubles ``make sim`` runs) need from
the board around them, with the page at the other end instead of
``host_tools.sim.board``.

The page registers a JavaScript module ``webbus`` with ``held()`` (the mask
of the keys a finger is on: bits 0-8 the grid's cells, bit 9 + j the
config's extra key j), ``leds(hex)`` (the bytes the LED chain latched, in
wire order), ``tone(hz)`` (the buzzer; 0 is silence), ``encoder(pin)`` (the
level of the dial's switch on that GPIO), ``spi(bus, sck, mosi, hex, oe,
out)`` (bytes clocked out of an SPI controller, with the GPIOs' output
enables and levels as bit masks) and ``i2c(bus, sda, scl, addr, hex, n,
held)`` (one I2C transaction: the bytes read as hex, or ``"-"`` when
nothing acknowledged): the page hands those to the chips' models
(``simulator/rp2040/boards.mjs``'s ``transfers``), as the host does for
``make sim``;
``rom.py`` sets ``wiring``, the board's real wiring (the config picked on
the page), before the firmware starts.
"""

from binascii import hexlify, unhexlify
import time

import webbus

# Exit statuses, the simulator's own (a page's board only ever powers off)
from simexit import SOFT_FRIENDLY, SOFT_RAW, HARD, OFF  # noqa: F401


class Reset(BaseException):
    """Leave the firmware (not an Exception, so its own handlers don't
    catch it): the page powered this board off."""


wiring = None
_leds = None
_t0 = time.ticks_ms()
live = True  # False once the page has powered this interpreter off


def now():
    return time.ticks_diff(time.ticks_ms(), _t0)


def held():
    if not live:
        raise Reset(OFF)
    return webbus.held()


def leds(data):
    global _leds
    if not live:
        raise Reset(OFF)
    if data != _leds:
        _leds = data
        webbus.leds(hexlify(data).decode())


def last_leds():
    return _leds or bytes(3 * wiring["leds"]["count"])


def encoder(pin):
    if not live:
        raise Reset(OFF)
    return webbus.encoder(pin)


def spi(bus, sck, mosi, data, oe, out):
    """Bytes ``data`` clocked out of SPI ``bus`` on GPIOs ``sck`` and
    ``mosi``, with the output enables and levels of every GPIO (bit masks):
    the chips on the bus decide whether they are selected."""
    if not live:
        raise Reset(OFF)
    webbus.spi(bus, sck, mosi, hexlify(data).decode(), oe, out)


def i2c(bus, sda, scl, addr, write, nread):
    """One I2C transaction; the bytes read, or None if nothing acknowledged."""
    if not live:
        raise Reset(OFF)
    got = webbus.i2c(bus, sda, scl, addr, hexlify(write).decode(), nread, webbus.held())
    return None if got == "-" else unhexlify(got)


def tone(hz):
    if live:
        webbus.tone(hz)


def interrupts(on):
    pass


def log(text):
    print(text)
