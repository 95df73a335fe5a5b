"""Move choice: the perfect player (from the solved table), hints, and the
entry point for the two levels that play like people (``simple_ai``, which
also holds the minimax for boards without a table).

Values are value7 bytes as stored in the table (docs/table-format.md):
0 = draw, ``0x40 | d`` = win in d plies, ``d`` = loss in d plies, always for
the player the value belongs to.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


import rules

EASY = const(0)
MEDIUM = const(1)
PERFECT = const(2)
LEVELS = ("easy", "medium", "perfect")

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

    def randrange(self, n):
        return self.bits16() % n

    def choice(self, seq):
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


def value_after(table, pos):
    """The value for the player who just moved into ``pos``."""
    if pos.is_over():
        return WIN | 1 if pos.winner() is not None else DRAW
    return flip(table.value(pos))


def move_values(table, pos):
    """Hints: ``[(cell, value), ...]`` for every legal move, value for the
    player to move."""
    out = []
    for cell in pos.legal_moves():
        pos.push(cell)
        try:
            out.append((cell, value_after(table, pos)))
        finally:
            pos.pop()
    return out


def losing_replies(table, pos, cell):
    """How many of the opponent's replies to ``cell`` lose for the opponent."""
    pos.push(cell)
    try:
        n = 0
        free = pos.legal_mask()
        for reply in range(9):
            if not free >> reply & 1:
                continue
            pos.push(reply)
            try:
                if outcome(value_after(table, pos)) < 0:
                    n += 1
            finally:
                pos.pop()
        return n
    finally:
        pos.pop()


# --- choosing a move ---------------------------------------------------------


def best_moves(table, pos):
    """The moves ``perfect`` may pick: best value, then most losing replies."""
    values = move_values(table, pos)
    top = max(score(v) for _, v in values)
    moves = [c for c, v in values if score(v) == top]
    if len(moves) > 1:
        counts = [losing_replies(table, pos, c) for c in moves]
        most = max(counts)
        moves = [moves[i] for i in range(len(moves)) if counts[i] == most]
    return moves


def choose_move(pos, level=PERFECT, table=None, rng=None):
    """Pick a move for the player to move.

    ``perfect`` needs ``table``; ``easy`` takes an immediate win, else plays
    at random; ``medium`` also blocks (avoids any move that lets the opponent
    complete a line at once).
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
        return rng.choice(best_moves(table, pos))
    import simple_ai  # loaded only when a weaker level plays

    return simple_ai.weak_move(pos, moves, level == MEDIUM, rng)
