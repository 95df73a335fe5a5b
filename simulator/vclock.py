"""A virtual clock for replays: ``time`` and ``select`` stand-ins.

A replay must give the same frames every run, so the board's time may not
come from the host's: here time moves only when the firmware waits
(``asyncio`` waits in ``select.poll().ipoll``, nothing else does), and it
moves by exactly what was asked. A move the AI computes takes no time. The
ROM puts this module in ``sys.modules`` as ``time``, ``select`` and
``_asyncio`` (whose task queue would read the real clock) before the
firmware starts.
"""

import time as _time

import simbus

_now = 0
end = 0  # the replay stops here (ms)

ticks_add = _time.ticks_add
ticks_diff = _time.ticks_diff
localtime = _time.localtime
gmtime = getattr(_time, "gmtime", _time.localtime)
mktime = _time.mktime
_EPOCH = 1767225600  # 2026-01-01: every replay starts at the same wall time


def _advance(ms):
    global _now
    if ms > 0:
        _now += ms
    if _now >= end:
        raise simbus.Reset(simbus.OFF)


def ticks_ms():
    return _now


def ticks_us():
    return _now * 1000


ticks_cpu = ticks_us


def sleep_ms(ms):
    _advance(ms)


def sleep_us(us):
    _advance(us // 1000)


def sleep(s):
    _advance(int(s * 1000))


def time():
    return _EPOCH + _now // 1000


def time_ns():
    return (_EPOCH * 1000 + _now) * 1000000


# --- _asyncio ------------------------------------------------------------------

# asyncio's C task queue stamps a task it is given without a time with the
# hardware clock; this one stamps it with the virtual clock.
from _asyncio import Task  # noqa: E402,F401
from _asyncio import TaskQueue as _TaskQueue  # noqa: E402


class TaskQueue:
    def __init__(self):
        self._q = _TaskQueue()

    def peek(self):
        return self._q.peek()

    def push(self, v, key=None):
        self._q.push(v, _now if key is None else key)

    def pop(self):
        return self._q.pop()

    def remove(self, v):
        self._q.remove(v)


# --- select ------------------------------------------------------------------

POLLIN = 1
POLLOUT = 4
POLLERR = 8
POLLHUP = 16


class _Poll:
    def register(self, obj, mask=POLLIN):
        pass

    def unregister(self, obj):
        pass

    def modify(self, obj, mask):
        pass

    def ipoll(self, timeout=-1, flags=0):
        if timeout < 0:  # nothing left to wait for: the firmware has stopped
            raise simbus.Reset(simbus.OFF)
        _advance(timeout)
        return ()

    def poll(self, timeout=-1):
        self.ipoll(timeout)
        return []


def poll():
    return _Poll()
