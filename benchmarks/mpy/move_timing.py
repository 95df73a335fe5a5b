# AI move decision time under MicroPython, the perfect player (table on disk)
# against the fallback it plays without a table (fallback.move), on
# the same positions.
# Usage: move_timing.py TABLE SEED COUNT
# Prints "perfect <median us> <p90 us> <worst us>" and the same for "fallback".
import sys
import time

from tactictoe import ai
from tactictoe import fallback
from tactictoe import rules
from tactictoe import table

t = table.Table(sys.argv[1])
rng = ai.Rng(int(sys.argv[2]))
count = int(sys.argv[3])


def positions():
    out = []
    while len(out) < count:
        pos = rules.Position(t.game)
        for _ in range(rng.bits16() % 16):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        if pos.legal_moves():
            out.append(pos)
    return out


def timed(fn, cases):
    times = []
    for pos in cases:
        t0 = time.ticks_us()
        fn(pos)
        times.append(time.ticks_diff(time.ticks_us(), t0))
    times.sort()
    return times[len(times) // 2], times[len(times) * 9 // 10], times[-1]


cases = positions()
print("perfect %d %d %d" % timed(lambda p: ai.choose_move(p, ai.PERFECT, t, rng), cases))
print("fallback %d %d %d" % timed(lambda p: fallback.move(p, rng), cases))
t.close()
