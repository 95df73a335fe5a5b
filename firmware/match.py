"""One game in progress: who plays each side, the position, and how it ended.

Knows nothing of LEDs, keys or time; ``app`` drives it.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


import rules

# Modes: who is at the board.
YOU_X = const(0)  # you play X, the board plays O
YOU_O = const(1)  # the board plays X, you play O
TWO = const(2)  # two people
DEMO = const(3)  # the board plays itself
MODES = ("you-x", "you-o", "two", "demo")

REPEAT_DRAW = const(3)  # a tactic-toe position seen this often is a draw


def line_of(mask):
    """The first of rules.LINES inside ``mask``, or 0."""
    for line in rules.LINES:
        if mask & line == line:
            return line
    return 0


class Match:
    def __init__(self, game, mode):
        self.game = game
        self.mode = mode
        self.pos = rules.Position(game)
        self.seen = {}  # position key -> times seen (tactic-toe repetition)
        self.result = None  # None while playing; X, O, or -1 for a draw
        self.line = 0  # the winning line's mask
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
        winner = self.pos.winner()
        if winner is not None:
            self.result = winner
            self.line = line_of(self.pos.mask(winner))
        elif self.pos.is_over():  # a full classic board
            self.result = -1
        elif self._count() >= REPEAT_DRAW:
            self.result = -1

    def _count(self):
        if self.game != rules.TACTICTOE:
            return 0
        key = self.pos.code() << 1 | self.pos.turn
        n = self.seen.get(key, 0) + 1
        self.seen[key] = n
        return n
