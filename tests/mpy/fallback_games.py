# Games of the no-table fallback (fallback.move) against the
# table-driven perfect player, under MicroPython (or CPython).
# Usage: fallback_games.py TABLE SIDE FIRST_SEED COUNT [CAP] [RULE] [OPENING]
#   SIDE: x or o, the fallback's side. Game i uses seed FIRST_SEED + i for
#   the perfect player and that + 5000 for the fallback.
#   CAP: plies before a game counts as a draw (default 200).
#   RULE: "cap" (default) or "board": also a draw at the third repetition of
#   a tactic-toe position within 64 plies, as the board plays (match.py).
#   OPENING: a cell X must open on (whoever plays X), then play as usual.
# Prints "G <seed> <winner X|O|-> <plies> <moves>" a game, then
# "T <fallback decisions> <median us> <worst us>".
import sys
import time

from tactictoe import ai
from tactictoe import match
from tactictoe import rules
from tactictoe import fallback
from tactictoe import table

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython

    def ticks_us():
        return int(time.perf_counter() * 1e6)

    def ticks_diff(a, b):
        return a - b


t = table.Table(sys.argv[1])
side = "xo".index(sys.argv[2])
first, count = int(sys.argv[3]), int(sys.argv[4])
cap = int(sys.argv[5]) if len(sys.argv) > 5 else 200
board_rule = len(sys.argv) > 6 and sys.argv[6] == "board"
opening = int(sys.argv[7]) if len(sys.argv) > 7 else -1
times = []
for seed in range(first, first + count):
    perfect_rng, fallback_rng = ai.Rng(seed), ai.Rng(seed + 5000)
    m = match.Match(t.game, match.DEMO)
    moves = []
    while m.result is None and len(moves) < cap:
        pos = m.pos
        if not moves and opening >= 0:
            cell = opening
        elif pos.turn == side:
            t0 = ticks_us()
            cell = fallback.move(pos, fallback_rng)
            times.append(ticks_diff(ticks_us(), t0))
        else:
            cell = ai.choose_move(pos, ai.PERFECT, t, perfect_rng)
        moves.append(cell)
        if board_rule:
            m.play(cell)
        else:
            pos.push(cell)
            pos.clear_stack()
            if pos.is_over():
                m.result = -1 if pos.winner() is None else pos.winner()
    result = "-" if m.result is None or m.result < 0 else rules.PLAYERS[m.result]
    print("G %d %s %d %s" % (seed, result, len(moves), "".join(str(c) for c in moves)))
times.sort()
print("T %d %d %d" % (len(times), times[len(times) // 2] if times else 0, times[-1] if times else 0))
t.close()
