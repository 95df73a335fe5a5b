"""The live virtual board's ``time``: the Unix port's own, except that
``ticks_ms`` notes each reading for the press script (``simbus.script``).
A key scan reads the clock, then its pins, so the script can time a tap
by the clock the firmware's debouncer sees: its scans' (a board starved
between two reads of one scan makes those reads late, not the scan). The
ROM puts this module in ``sys.modules`` as ``time`` before the firmware
starts; a replay uses ``vclock`` instead."""

from time import *  # noqa: F401,F403
import time as _time

import simbus

_ticks_ms = _time.ticks_ms


def ticks_ms():
    t = _ticks_ms()
    simbus.clock_read = t
    return t
