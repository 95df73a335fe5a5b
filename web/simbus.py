"""The virtual board's wires to the web page: what ``simulator/machine.py``
and ``simulator/neopixel.py`` (the same doubles ``make sim`` runs) need from
the board around them, with the page at the other end instead of
``host_tools.sim.board``.

The page registers a JavaScript module ``webbus`` with ``held()`` (the mask
of the cells a finger is on), ``leds(hex)`` (the bytes the LED chain
latched, in wire order) and ``tone(hz)`` (the buzzer; 0 is silence);
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
    return _leds or bytes(27)


def tone(hz):
    if live:
        webbus.tone(hz)


def interrupts(on):
    pass


def log(text):
    print(text)
