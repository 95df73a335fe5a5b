# Move decisions timed on the board: benchmarks/pico.py puts this on the
# emulated Pico's flash and calls it from the raw REPL. Also runs under
# CPython and the Unix port (the host works out the moves it expects).
#
# games(game, seeds, ...) plays, for each seed, perfect against perfect,
# perfect (X) against random and random against perfect (O), and times every
# decision of the perfect side with its table: one line each,
#   "D kind seed ply move us bytes"
# (bytes: what the decision allocated). fallback(game, seed) times the
# no-table fallback (fallback.move, the search the perfect level
# plays without its table) on the positions of one perfect-against-perfect
# game: "F seed ply move us".
import gc
import time

from tactictoe import ai
from tactictoe import rules
from tactictoe import table

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython

    def ticks_us():
        return int(time.perf_counter() * 1e6)

    def ticks_diff(a, b):
        return a - b


def _alloc():
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


def _open(game):
    try:  # where a board keeps it
        return table.Table(table.path("", rules.GAMES[game]), game)
    except OSError:  # the host's run, in build/
        return table.Table(rules.GAMES[game] + ".tbl", game)


def _timed(fn, pos, arg, rng):
    gc.collect()  # a collection must not land inside the timing
    a = _alloc()
    t0 = ticks_us()
    move = fn(pos, arg, rng)
    us = ticks_diff(ticks_us(), t0)
    return move, us, _alloc() - a


def _perfect(pos, t, rng):
    return ai.choose_move(pos, ai.PERFECT, t, rng)


def _fallback(pos, _, rng):
    from tactictoe import fallback

    return fallback.move(pos, rng)


def _play(game, kind, seed, max_plies, each):
    rng = ai.Rng(seed)
    rnd = ai.Rng(seed + 1000)
    pos = rules.Position(game)
    for ply in range(max_plies):
        if pos.is_over():
            return
        if kind == "pp" or (kind == "pr") == (pos.turn == rules.X):
            move = each(pos, ply, rng)
        else:
            move = rnd.choice(pos.legal_moves())
        pos.push(move)
        pos.clear_stack()


def games(game, seeds, kinds=("pp", "pr", "rp"), max_plies=60, out=print):
    t = _open(game)
    try:
        for seed in seeds:
            for kind in kinds:
                def each(pos, ply, rng):
                    move, us, nbytes = _timed(_perfect, pos, t, rng)
                    out("D %s %d %d %d %d %d" % (kind, seed, ply, move, us, nbytes))
                    return move

                _play(game, kind, seed, max_plies, each)
    finally:
        t.close()
    out("END")


def fallback(game, seed=1, out=print):
    t = _open(game)
    try:
        def each(pos, ply, rng):
            move = _perfect(pos, t, rng)
            fb, us, _ = _timed(_fallback, pos, None, ai.Rng(seed))
            out("F %d %d %d %d" % (seed, ply, fb, us))
            return move

        _play(game, "pp", seed, 60, each)
    finally:
        t.close()
    out("END")


def fallback_at(game, positions, out=print):
    """Time the fallback on given positions, (xside, oside, turn) each: the
    host picks those where its search looks at the most positions. The
    first decision imports ``fallback`` afresh, as a board's first one does.
    "P xside oside turn move us" each."""
    import sys
    import tactictoe

    sys.modules.pop("tactictoe.fallback", None)
    if hasattr(tactictoe, "fallback"):
        delattr(tactictoe, "fallback")
    for x, o, turn in positions:
        pos = rules.Position(game, x, o, turn)
        fb, us, _ = _timed(_fallback, pos, None, ai.Rng(1))
        out("P %d %d %d %d %d" % (x, o, turn, fb, us))
    out("END")
