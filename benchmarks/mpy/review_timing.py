# The review's cost under MicroPython: a move's judgement (review.judge)
# against the perfect player's decision (ai.choose_move) on the same random
# positions, and the review's words after a long game (the console's lines,
# narrate_text.review_text, and a screen's two pages, words.Words) with the
# heap they take.
# Usage: review_timing.py TABLE SEED COUNT
# Prints "judge <median us> <p90 us> <worst us>", the same for "decide",
# then "text <us>", "screen <us>" and "alloc <bytes of the words>".
import gc
import sys
import time

from tactictoe import ai
from tactictoe import match
from tactictoe import narrate_text
from tactictoe import review
from tactictoe import rules
from tactictoe import table
from tactictoe import words

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
        moves = pos.legal_moves()
        if moves:
            out.append((pos, rng.choice(moves)))
    return out


def timed(fn, cases):
    times = []
    for pos, cell in cases:
        t0 = time.ticks_us()
        fn(pos, cell)
        times.append(time.ticks_diff(time.ticks_us(), t0))
    times.sort()
    return times[len(times) // 2], times[len(times) * 9 // 10], times[-1]


cases = positions()
print("judge %d %d %d" % timed(lambda p, c: review.judge(t, p, c), cases))
print("decide %d %d %d" % timed(lambda p, c: ai.choose_move(p, ai.PERFECT, t, rng), cases))


class App:  # what the words read of a finished game against the board: you are X
    mode = match.YOU_X
    roles = b""
    review = review.Review(len(match.ring()))


# A long game: every ply the notes hold (320), a third of them thrown away.
r = App.review
r.clear(True)
for p in range(1, len(r.notes) + 1):
    r.add(p, (p - 1) & 1, p % 9, (review.BEST, review.THREW_WIN, review.SLOWER)[p % 3])
r.end(len(r.notes))
w = words.Words(App())
gc.collect()
before = gc.mem_alloc()
t0 = time.ticks_us()
lines = narrate_text.review_text(App, rules.X), narrate_text.review_text(App, rules.O)
t1 = time.ticks_us()
pages = w._review(1), w._review(2)
t2 = time.ticks_us()
print("text %d" % time.ticks_diff(t1, t0))
print("screen %d" % time.ticks_diff(t2, t1))
print("alloc %d" % (gc.mem_alloc() - before))
t.close()
