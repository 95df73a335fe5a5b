"""One game in progress: who plays each side, the position, how it ended,
and the take-backs.

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
UNDO_PLIES = const(256)  # how many plies a game can take back in a row


def line_of(mask):
    """The first of rules.LINES inside ``mask``, or 0."""
    for line in rules.LINES:
        if mask & line == line:
            return line
    return 0


def ring(undo_plies=UNDO_PLIES):
    """Storage for a match's history; the app makes one and reuses it for
    every match, so a new game allocates almost nothing."""
    return array("i", bytes(4 * (REPEAT_WINDOW + undo_plies)))


def _key(pos):
    # Both sides and the mover in one int, +1 (0 marks an empty slot).
    return ((pos.sides[0] << 12 | pos.sides[1]) << 1 | pos.turn) + 1


class Match:
    """:param ring_: from ``ring()``, reused (it is cleared here).
    :param start: a ``rules.Position`` to start from (a puzzle), else the
        empty board.
    :param review: a ``review.Review`` (cleared by its owner) that keeps
        each move's judgement (``play``'s ``judged``) and drops those a
        take-back undoes, or None.

    The ring holds the position after each ply: the last REPEAT_WINDOW
    count tactic-toe's repetitions, the UNDO_PLIES before them keep that
    count exact after a take-back (``undo``)."""

    def __init__(self, game, mode, ring_=None, start=None, review=None):
        self.game = game
        self.mode = mode
        self.pos = rules.Position(game)
        if start is not None:
            self.pos.sides[0], self.pos.sides[1], self.pos.turn = start.sides[0], start.sides[1], start.turn
        self.result = None  # None while playing; X, O, or -1 for a draw
        self.line = 0  # the winning line's mask
        self.plies = 0
        self.back = 0  # plies that can be taken back now
        self.slip = 0  # the matched level (ai.MATCHED): the share of its moves it slips, in percent (the app sets it)
        self.slipped = False  # ...and whether the board's last move was a slip (a legal move at random)
        if ring_ is None:
            ring_ = ring()
        else:
            for i in range(len(ring_)):
                ring_[i] = 0
        self._recent = ring_
        self.review = review
        self._draws = -1  # draws() until the next move or take-back
        self._count()

    def ai_turn(self):
        """True if the board, not a person, moves now."""
        if self.mode == DEMO:
            return True
        if self.mode == TWO:
            return False
        return self.pos.turn == (rules.O if self.mode == YOU_X else rules.X)

    def play(self, cell, judged=0):
        """Play ``cell`` (rules.IllegalMove if it can't be) and settle the
        result if the game ended; ``judged``: the review's judgement of the
        move (``review.BEST``...), 0 if none."""
        mover = self.pos.turn
        self.pos.push(cell)
        self.pos.clear_stack()
        self._draws = -1
        self.plies += 1
        if judged and self.review is not None:
            self.review.add(self.plies, mover, cell, judged)
        if self.back < len(self._recent) - REPEAT_WINDOW:
            self.back += 1
        n = self._count()
        winner = self.pos.winner()
        if winner is not None:
            self.result = winner
            self.line = line_of(self.pos.mask(winner))
        elif self.pos.is_over():  # a full classic board
            self.result = -1
        elif n >= REPEAT_DRAW:
            self.result = -1

    def _count(self):
        """Record the position; how often it has now been seen within
        REPEAT_WINDOW plies (tactic-toe; 0 in classic)."""
        key = _key(self.pos)
        recent = self._recent
        size = len(recent)
        recent[self.plies % size] = key
        if self.game != rules.TACTICTOE:
            return 0
        n = 0
        for i in range(REPEAT_WINDOW):
            if recent[(self.plies - i) % size] == key:
                n += 1
        return n

    def draws(self):
        """The 9-bit mask of the legal moves that would make the third
        repetition, so a draw (``play`` would settle it so; a move that
        makes a line still wins); 0 in classic and once the game is over.
        Allocates nothing: one pass over the window, for the positions a
        move can lead to (the opponent to move, its marks as now) each
        cell's count so far; kept until the next move or take-back."""
        if self._draws < 0:
            self._draws = self._find_draws()
        return self._draws

    def _find_draws(self):
        pos = self.pos
        if self.game != rules.TACTICTOE or self.result is not None or pos.is_over():
            return 0
        me = pos.turn
        mine, other = pos.sides[me], pos.sides[me ^ 1]
        free = ~pos.occupied() & 0x1FF
        recent = self._recent
        size = len(recent)
        once = twice = 0  # cells whose position was seen once, twice before
        for i in range(REPEAT_WINDOW - 1):  # (play counts the new one too)
            k = recent[(self.plies - i) % size] - 1
            if k < 0 or k & 1 == me:  # empty, or the mover's turn
                continue
            side = k >> 13 if me == rules.X else k >> 1 & 0xFFF
            if (k >> 1 & 0xFFF if me == rules.X else k >> 13) != other:
                continue
            # The cell the mover's newest slot holds: the move that leads there.
            c = side & 0xF if side & 0xF != 0xF else side >> 4 & 0xF if side & 0xF0 != 0xF0 else side >> 8
            if c < 9 and free >> c & 1 and rules.side_place(self.game, mine, c) == side:
                twice |= once & 1 << c
                once |= 1 << c
        # REPEAT_DRAW is 3: seen twice before. A line wins first.
        m = twice
        for c in range(9):
            if m >> c & 1 and rules.has_line(rules.side_mask(self.game, rules.side_place(self.game, mine, c))):
                m &= ~(1 << c)
        return m

    def undo(self, plies):
        """Take back the last ``plies`` moves (at most ``back``), the marks
        tactic-toe removed back in place, their judgements dropped from the
        review; a finished game goes on again."""
        if not 0 <= plies <= self.back:
            raise ValueError("can take back %d plies, not %d" % (self.back, plies))
        self._draws = -1
        recent = self._recent
        size = len(recent)
        for _ in range(plies):
            recent[self.plies % size] = 0
            if self.review is not None:
                self.review.drop(self.plies)
            self.plies -= 1
            self.back -= 1
        key = recent[self.plies % size] - 1
        pos = self.pos
        pos.sides[0] = key >> 13
        pos.sides[1] = key >> 1 & 0xFFF
        pos.turn = key & 1
        self.result = None
        self.line = 0

    def newest(self, ago=0):
        """The cell of the move made ``ago`` plies before the last one
        (0: the last move), or -1 if it can't be taken back."""
        if ago >= self.back:
            return -1
        recent = self._recent
        size = len(recent)
        after = recent[(self.plies - ago) % size] - 1
        before = recent[(self.plies - ago - 1) % size] - 1
        mover = before & 1
        shift = 1 if mover else 13
        side, was = after >> shift & 0xFFF, before >> shift & 0xFFF
        if self.game == rules.TACTICTOE:  # the newest filled slot
            if side & 0xF != 0xF:
                return side & 0xF
            return side >> 4 & 0xF if side & 0xF0 != 0xF0 else side >> 8
        added = side & ~was
        cell = 0
        while added > 1:
            added >>= 1
            cell += 1
        return cell
