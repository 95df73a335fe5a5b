"""One game in progress: who plays each side, the position, and how it ended.

Knows nothing of LEDs, keys or time; ``app`` drives it.
"""

from micropython import const


from array import array

from . import rules

# Modes: who is at the board.
YOU_X = const(0)  # you play X, the board plays O
YOU_O = const(1)  # the board plays X, you play O
TWO = const(2)  # two people
DEMO = const(3)  # the board plays itself

REPEAT_DRAW = const(3)  # a tactic-toe position seen this often is a draw...
REPEAT_WINDOW = const(64)  # ...within this many plies (bounded memory)


def line_of(mask):
    """The first of rules.LINES inside ``mask``, or 0."""
    for line in rules.LINES:
        if mask & line == line:
            return line
    return 0


def ring():
    """Storage for a match's repetition memory; the app makes one and
    reuses it for every match, so a new game allocates almost nothing."""
    return array("i", bytes(4 * REPEAT_WINDOW))


class Match:
    """:param ring: from ``ring()``, reused (it is cleared here)."""

    def __init__(self, game, mode, ring_=None):
        self.game = game
        self.mode = mode
        self.pos = rules.Position(game)
        self.result = None  # None while playing; X, O, or -1 for a draw
        self.line = 0  # the winning line's mask
        self.plies = 0
        # The last REPEAT_WINDOW position keys (+1, so 0 is an empty slot),
        # a ring: a game that goes on for hours must not eat the heap.
        if ring_ is None:
            ring_ = ring()
        else:
            for i in range(REPEAT_WINDOW):
                ring_[i] = 0
        self._recent = ring_
        self._count()

    def ai_turn(self):
        """True if the board, not a person, moves now."""
        if self.mode == DEMO:
            return True
        if self.mode == TWO:
            return False
        return self.pos.turn == (rules.O if self.mode == YOU_X else rules.X)

    def play(self, cell):
        """Play ``cell`` (rules.IllegalMove if it can't be) and settle the
        result if the game ended."""
        self.pos.push(cell)
        self.pos.clear_stack()
        self.plies += 1
        winner = self.pos.winner()
        if winner is not None:
            self.result = winner
            self.line = line_of(self.pos.mask(winner))
        elif self.pos.is_over():  # a full classic board
            self.result = -1
        elif self._count() >= REPEAT_DRAW:
            self.result = -1

    def _count(self):
        """Record the position; how often it has now been seen (tactic-toe)."""
        if self.game != rules.TACTICTOE:
            return 0
        key = (self.pos.code() << 1 | self.pos.turn) + 1
        recent = self._recent
        recent[self.plies % REPEAT_WINDOW] = key
        n = 0
        for k in recent:
            if k == key:
                n += 1
        return n
