"""Move choice: the perfect player (from the solved table), hints, and the
entry point for the two levels that play like people (``simple_ai``). The
perfect level's search for when its table can't be used is ``fallback``;
the matched level's slips and setting are ``matched``'s.

Values are value7 bytes as stored in the table (docs/table-format.md):
0 = draw, ``0x40 | d`` = win in d plies, ``d`` = loss in d plies, always for
the player the value belongs to.
"""

from micropython import const


from . import rules

EASY = const(0)
MEDIUM = const(1)
PERFECT = const(2)
MATCHED = const(3)  # the perfect player but for its slips (``matched``; not a level of choose_move)

WIN = const(0x40)
DRAW = const(0)
_PLIES = const(0x3F)


class Rng:
    """A small seedable generator (16-bit xorshift) that gives the same
    sequence on MicroPython and CPython and never allocates."""

    def __init__(self, seed=None):
        if seed is None:
            try:
                import os

                b = os.urandom(2)
                seed = b[0] << 8 | b[1]
            except (ImportError, AttributeError, NotImplementedError):
                import time

                seed = time.ticks_us() if hasattr(time, "ticks_us") else int(time.time() * 1e6)
        self._x = (seed & 0xFFFF) or 0xACE1

    def bits16(self):
        """The next 16-bit value (never 0)."""
        x = self._x
        x ^= (x << 7) & 0xFFFF
        x ^= x >> 9
        x ^= (x << 8) & 0xFFFF
        self._x = x
        return x

    def choice(self, seq):
        """One item of the non-empty sequence ``seq``."""
        return seq[self.bits16() % len(seq)]


# --- values -----------------------------------------------------------------


def outcome(value):
    """+1 win, 0 draw, -1 loss."""
    if value & WIN:
        return 1
    return -1 if value else 0


def score(value):
    """An int that orders values from the owner's point of view: faster wins
    first, then draws, then slower losses before faster ones."""
    if value & WIN:
        return 128 - (value & _PLIES)
    return value - 128 if value else 0


def flip(value):
    """The value of a move for its mover, from the value of the position it
    leads to (which belongs to the opponent): one ply longer, other side."""
    if value & WIN:
        return (value & _PLIES) + 1
    return WIN | (value + 1) if value else DRAW


def _code(game, mover, side, other):
    """The canonical position24 of the position ``mover`` has just moved
    into (its marks ``side``, the opponent's ``other``), or -1 if the move
    made a line, -2 if it filled a classic board."""
    # rules.side_mask and rules.has_line, inlined: this runs for every
    # child and grandchild a decision looks at.
    m = side
    if game:  # tactictoe: a side's slots to its mask
        m = (1 << (side >> 8) | 1 << (side >> 4 & 0xF) | 1 << (side & 0xF)) & 0x1FF
    if rules._WINS[m >> 3] >> (m & 7) & 1:
        return -1
    if game:
        return rules.canonical_t(other << 12 | side if mover else side << 12 | other)
    if side | other == 0x1FF:
        return -2
    return rules.canonical_c(other, side) if mover else rules.canonical_c(side, other)


def _after(table, game, mover, side, other):
    """The value for ``mover`` of the position it has just moved into."""
    code = _code(game, mover, side, other)
    if code < 0:
        return WIN | 1 if code == -1 else DRAW
    return flip(table.need(code, mover ^ 1))


def _check(table, pos):
    table.check_game(pos.game)
    return pos.game, pos.turn, pos.sides[pos.turn], pos.sides[pos.turn ^ 1], pos.legal_mask()


def _value(table, g, me, mine, other, c, draws):
    # The value of ``me`` moving on ``c``: DRAW if ``draws`` has it (the
    # third repetition), unless it makes a line (the board checks that first).
    v = _after(table, g, me, rules.side_place(g, mine, c), other)
    return DRAW if draws >> c & 1 and v != WIN | 1 else v


def move_values(table, pos, draws=0):
    """Hints: ``[(cell, value), ...]`` for every legal move, value for the
    player to move. ``draws``: the 9-bit mask of the moves that make a
    third repetition (``match.Match.draws``), valued DRAW."""
    g, me, mine, other, free = _check(table, pos)
    return [(c, _value(table, g, me, mine, other, c, draws)) for c in range(9) if free >> c & 1]


def verdict(table, pos, cell, draws=0):
    """The trainer's judgement of the player to move playing ``cell``:
    None if the move keeps the best outcome there is (a slower win than
    the fastest is not a blunder; a lost position can't be thrown away),
    else ``(value, best, mask)``: the move's value, the best move's value
    and the 9-bit mask of the moves that keep the best outcome.
    ``draws`` as for ``move_values``."""
    values = move_values(table, pos, draws)
    top = -1
    best = value = 0
    for c, v in values:
        o = outcome(v)
        if o > top or o == top and score(v) > score(best):
            top, best = o, v
        if c == cell:
            value = v
    if outcome(value) >= top:
        return None
    mask = 0
    for c, v in values:
        if outcome(v) == top:
            mask |= 1 << c
    return value, best, mask


def bits(m):
    """How many bits of ``m`` are set (cells in a mask)."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def _traps(table, game, me, side, other, goal, most):
    """How many of the opponent's replies fall short of its best outcome
    ``goal`` (+1 win, 0 draw), after ``me`` moved to ``side`` (``other``:
    the opponent's marks); -1 as soon as that can no longer reach ``most``."""
    free = ~(rules.side_mask(game, side) | rules.side_mask(game, other)) & 0x1FF
    left = bits(free)
    n = 0
    for reply in range(9):
        if free >> reply & 1:
            left -= 1
            v = _after(table, game, me ^ 1, rules.side_place(game, other, reply), side)
            if not v & WIN and (v or goal):  # a loss, or a draw when it could win
                n += 1
            elif n + left < most:
                return -1
    return n


# --- choosing a move ---------------------------------------------------------


def best_moves(table, pos, draws=0):
    """The moves ``perfect`` may pick: best value, then the most traps: the
    opponent's replies that fall short of its best outcome after the move
    (when it can win, those that draw or lose; when it can draw, those that
    lose; when it is lost, all of them). ``draws`` as for ``move_values``:
    lost, it takes such a draw; winning, it never plays one; a draw by
    repetition ends the game, so it sets no traps."""
    g, me, mine, other, free = _check(table, pos)
    moves = []
    top = -1000
    best = 0
    for c in range(9):
        if free >> c & 1:
            v = _value(table, g, me, mine, other, c, draws)
            s = score(v)
            if s > top:
                top, best, moves = s, v, [c]
            elif s == top:
                moves.append(c)
    if len(moves) < 2 or best == WIN | 1:
        return moves  # one move, or wins on the spot (no replies to count)
    counts = []  # type: list
    keys = []  # type: list
    goal = 1 if outcome(best) < 0 else 0  # the opponent's best after any of the moves
    for c in moves:
        side = rules.side_place(g, mine, c)
        if best & WIN:
            # The move wins: the opponent is lost after it, so every reply
            # loses. The count is its number of replies, no lookups.
            n = bits(~(rules.side_mask(g, side) | rules.side_mask(g, other)) & 0x1FF)
        else:
            # Symmetric moves lead to the same canonical position and set
            # as many traps: each is counted once. A move that can no
            # longer reach the most found so far is dropped early (-1).
            k = _code(g, me, side, other)
            if draws >> c & 1:
                k, n = -3, 0  # (not the same as a symmetric move that plays on)
            elif k in keys:
                n = counts[keys.index(k)]
            else:
                n = _traps(table, g, me, side, other, goal, max(counts) if counts else -1)
            keys.append(k)
        counts.append(n)
    most = max(counts)
    return [moves[i] for i in range(len(moves)) if counts[i] == most]


def choose_move(pos, level=PERFECT, table=None, rng=None, draws=0):
    """Pick a move for the player to move.

    ``perfect`` needs ``table`` (and values the moves of ``draws``, the
    third repetitions of ``match.Match.draws``, as draws); ``easy`` takes an
    immediate win, else plays at random; ``medium`` also blocks (avoids any
    move that lets the opponent complete a line at once).
    """
    if level not in (EASY, MEDIUM, PERFECT):
        raise ValueError("unknown level %r (use ai.EASY, ai.MEDIUM or ai.PERFECT)" % (level,))
    moves = pos.legal_moves()
    if not moves:
        raise rules.IllegalMove("the game is over")
    if rng is None:
        rng = Rng()
    if level == PERFECT:
        if table is None:
            raise ValueError("the perfect level needs a table")
        return rng.choice(best_moves(table, pos, draws))
    from . import simple_ai  # loaded only when a weaker level plays

    return simple_ai.weak_move(pos, moves, level == MEDIUM, rng)
