"""The review of a game: each move judged as it is made, from the table's
exact values, for both players (docs/firmware.md, "The review of a game").

``judge`` compares a move with the best there was; a ``Review`` keeps the
judgements by ply beside the match's ring (``match.Match`` adds each move's
and drops the ones a take-back undoes), and the counts of each player's.
"""

from micropython import const

from array import array

from . import ai

# A move's judgement: how its value compares with the best move's.
BEST = const(1)  # the best value there was (the fastest win, a draw, the slowest loss)
SLOWER = const(2)  # the best outcome, but a slower win or a faster loss
THREW_DRAW = const(3)  # a loss where a draw was there
THREW_WIN = const(4)  # a draw or a loss where a win was there
_KINDS = const(5)  # counts per player: 0 (unused), then by kind


def judge(table, pos, cell, draws=0):
    """The judgement (BEST, SLOWER, THREW_DRAW or THREW_WIN) of the
    player to move in ``pos`` playing ``cell``, from ``table``'s values
    (the review's only call of ``ai.move_values``); ``draws``: the moves
    that would make a third repetition (``Match.draws``), valued a draw."""
    top = -1000
    best = mine = 0
    for c, v in ai.move_values(table, pos, draws):
        s = ai.score(v)
        if s > top:
            top, best = s, v
        if c == cell:
            mine = v
    if ai.score(mine) == top:
        return BEST
    o = ai.outcome(best)
    if ai.outcome(mine) == o:
        return SLOWER
    return THREW_WIN if o > 0 else THREW_DRAW


class Review:
    """A game's judged moves.

    :param int size: plies kept, ``len(match.ring())``: the ply ``p``
        (1: the first move) is ``notes[p % size]``, as the match's ring
        keeps its position, so a take-back reaches every ply it undoes.

    A note is ``kind | cell << 3 | mover << 7`` (0: not judged);
    ``counts[player * 5 + kind]`` count the whole game, however long (the
    notes keep its last ``size`` plies). Allocates nothing after it is made.
    """

    def __init__(self, size):
        self.notes = bytearray(size)
        self.counts = array("I", bytes(4 * 2 * _KINDS))
        self.on = False  # this game is reviewed
        self.plies = 0  # the game's plies when it ended (``end``)
        self.first = 1  # ...the first of them the notes still hold
        self.listed = 0  # ...and how many of those threw a value away
        # A person's move judged after the frame that lights it (``owe``,
        # ``settle``): its ply (0: none owed), cell, the sides and mover
        # before it and its draws mask; and a position to judge it in.
        self.owed = array("i", bytes(4 * 6))
        self.scratch = None

    def clear(self, on):
        """A new game: reviewed if ``on``."""
        notes, counts = self.notes, self.counts
        for i in range(len(notes)):
            notes[i] = 0
        for i in range(len(counts)):
            counts[i] = 0
        self.owed[0] = 0
        self.on = on
        self.plies = self.listed = 0
        self.first = 1

    def owe(self, ply, cell, pos, draws):
        """The move ``cell`` from ``pos`` (made ``ply``) is judged later, by ``settle``."""
        o = self.owed  # (one by one: a tuple of six would be allocated)
        o[0] = ply
        o[1] = cell
        o[2] = pos.sides[0]
        o[3] = pos.sides[1]
        o[4] = pos.turn
        o[5] = draws

    def settle(self, table):
        """Judge the move owed (``owe``) with ``table``, if one is: after
        its frame, so a person's move is lit without waiting for the table
        (table.TableError or OSError as ``judge``)."""
        o = self.owed
        if not o[0]:
            return
        ply = o[0]
        o[0] = 0
        p = self.scratch
        if p is None or p.game != table.game:
            from .rules import Position

            p = self.scratch = Position(table.game)
        p.sides[0], p.sides[1], p.turn = o[2], o[3], o[4]
        self.add(ply, o[4], o[1], judge(table, p, o[1], o[5]))

    def add(self, ply, mover, cell, kind):
        """``mover`` (rules.X, rules.O) played ``cell`` at ``ply``, judged ``kind``."""
        self.notes[ply % len(self.notes)] = kind | cell << 3 | mover << 7
        self.counts[mover * _KINDS + kind] += 1

    def drop(self, ply):
        """``ply`` taken back: its judgement goes."""
        i = ply % len(self.notes)
        n = self.notes[i]
        if n:
            self.counts[(n >> 7) * _KINDS + (n & 7)] -= 1
            self.notes[i] = 0

    def count(self, player, kind=0):
        """How many of ``player``'s moves were judged ``kind`` (0: all)."""
        c = self.counts
        at = player * _KINDS
        return c[at + kind] if kind else c[at + 1] + c[at + 2] + c[at + 3] + c[at + 4]

    def points(self, player):
        """2 for each best move, 1 for each slower one."""
        return 2 * self.count(player, BEST) + self.count(player, SLOWER)

    def accuracy(self, player):
        """``100 * points / (2 * moves)``, rounded down; -1 if no moves."""
        n = self.count(player)
        return self.points(player) * 50 // n if n else -1

    def end(self, plies):
        """The game ended after ``plies``: count the throws the notes hold."""
        self.plies = plies
        self.first = max(1, plies - len(self.notes) + 1)
        self.listed = self.thrown(-1)[0] if self.on else 0  # (a table gone mid-game: no review)

    def thrown(self, k):
        """The ``k``-th (from 0) move that threw a value away, of those the
        notes hold (``listed``): ``(ply, note)``; (how many, 0) if fewer."""
        notes = self.notes
        n = 0
        for p in range(self.first, self.plies + 1):
            note = notes[p % len(notes)]
            if note & 7 >= THREW_DRAW:
                if n == k:
                    return p, note
                n += 1
        return n, 0
