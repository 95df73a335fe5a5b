"""The virtual board's wires to the web page: what ``simulator/machine.py``
and ``simulator/neopixel.py`` (the same doubles ``make sim`` runs) need from
the board around them, with the page at the other end instead of
``host_tools.sim.board``.

The page registers a JavaScript module ``webbus`` with ``held()`` (the mask
of the keys a finger is on: bits 0-8 the grid's cells, bit 9 + j the
config's extra key j), ``leds(hex)`` (the bytes the LED chain latched, in
wire order), ``tone(hz)`` (the buzzer; 0 is silence), ``encoder(pin)`` (the
level of the dial's switch on that GPIO) and ``screen(hex, dc)`` (bytes
that reached the screen's controller, with the level of its D/C pin);
``rom.py`` sets ``wiring``, the board's real wiring (the config picked on
the page), before the firmware starts.
"""

from binascii import hexlify
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


def spi(bus, sck, mosi, data, driven):
    """Bytes ``data`` clocked out of SPI ``bus`` on GPIOs ``sck`` and
    ``mosi``; ``driven(pin)`` is the
    level a GPIO drives (None if it drives none). The screen on that bus
    takes them while its CS is low and its RST is not, with its D/C level;
    nothing else hangs on an SPI bus of the boards the page offers."""
    if not live:
        raise Reset(OFF)
    screen = wiring["screen"]
    if screen is None or (screen["spi"], screen["sck"], screen["mosi"]) != (bus, sck, mosi):
        return
    if screen["cs"] is not None and driven(screen["cs"]) != 0:
        return  # not selected
    if screen["reset"] is not None and driven(screen["reset"]) == 0:
        return  # held in reset
    webbus.screen(hexlify(data).decode(), driven(screen["dc"]) == 1)


def tone(hz):
    if live:
        webbus.tone(hz)


def interrupts(on):
    pass


def log(text):
    print(text)
