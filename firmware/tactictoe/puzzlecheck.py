"""Checking a puzzles file's records (docs/puzzles.md, "Validation"), as
``tablecheck`` checks a table's: each puzzle a position play reaches and
not over, with an answer it can have. ``puzzles.Puzzles`` imports this when
it reads a file; ``puzzles.load`` (the board's, at power-on) unloads it
afterwards: its code and messages are not needed again.
"""

from . import rules
from .ai import bits
from .puzzles import RECORD_SIZE, PuzzleError
from .table import LONGEST


def records(data, count):
    """Check the ``count`` records of ``data``; PuzzleError naming the first
    bad one (numbered from 1, as the board says them) and why."""
    prev = 0
    for i in range(count):
        j = i * RECORD_SIZE
        b = data[j]
        n = b & 0x3F
        w = data[j + 4]
        if n < 3 or not n & 1 or not 0 < w >> 4 <= 9 or w & 15 > 9:
            raise PuzzleError("puzzle %d: not a win in 3 or more plies with 1-9 winning moves" % (i + 1))
        order = (b >> 7) << 6 | n  # game, then plies: never down
        if order < prev:
            raise PuzzleError("puzzle %d: out of order (its game, or its plies within the game, go down)" % (i + 1))
        prev = order
        why = problem(b >> 7, data[j + 1] << 16 | data[j + 2] << 8 | data[j + 3], b >> 6 & 1, n, w >> 4, w & 15)
        if why:
            raise PuzzleError("puzzle %d (%s): %s" % (i + 1, rules.GAMES[b >> 7], why))


def _slots(side):
    """``(mask, marks)`` of a tactic-toe side (three 4-bit slots, oldest
    first), or ``(-1, why)`` when no play makes it."""
    mask = k = 0
    for shift in (8, 4, 0):
        c = side >> shift & 0xF
        if c == 0xF:
            continue
        if c > 8:
            return -1, "a slot coded %d (cells are 0-8, an empty slot 15)" % c
        if k < 8 - shift >> 2:
            return -1, "a mark after an empty slot"
        if mask >> c & 1:
            return -1, "cell %d twice" % c
        mask |= 1 << c
        k += 1
    return mask, k


def _side(side):
    """A tactic-toe side's marks (0-3), or -1 if no play makes it: the quick
    test of ``_slots``, allocating nothing."""
    a = side >> 8
    b = side >> 4 & 0xF
    c = side & 0xF
    if a == 0xF:
        return 0 if side == 0xFFF else -1
    if b == 0xF:
        return 1 if c == 0xF and a < 9 else -1
    if c == 0xF:
        return 2 if a < 9 and b < 9 and a != b else -1
    return 3 if a < 9 and b < 9 and c < 9 and a != b and a != c and b != c else -1


def _marks(game, code, turn):
    """``position``'s quick test, allocating nothing: X's marks plus 16
    times O's if play reaches the position and it is not over, else -1."""
    if game == rules.TACTICTOE:
        nx = _side(code >> 12)
        no = _side(code & 0xFFF)
        if nx < 0 or no < 0:
            return -1
        x = (1 << (code >> 20) | 1 << (code >> 16 & 0xF) | 1 << (code >> 12 & 0xF)) & 0x1FF  # (rules.side_mask)
        o = (1 << (code >> 8 & 0xF) | 1 << (code >> 4 & 0xF) | 1 << (code & 0xF)) & 0x1FF
        if x & o:
            return -1
    else:
        if code >> 18:
            return -1
        x = o = nx = no = 0
        for c in range(9):
            v = code >> 16 - 2 * c & 3
            if v == 3:
                return -1
            if v == 1:
                x |= 1 << c
                nx += 1
            elif v:
                o |= 1 << c
                no += 1
    if nx != no + turn and not (game == rules.TACTICTOE and nx == no == 3):
        return -1
    if rules.has_line(x) or rules.has_line(o) or nx + no == 9:
        return -1
    return no << 4 | nx


def position(game, code, turn):
    """``(X's marks, O's marks)`` of ``game``'s position24 ``code`` with
    ``turn`` to move, or a string saying why play never reaches it or
    why it is over. Legal (each cell once, each side's marks counted as
    the turn says) and without a line is reachable (docs/puzzles.md)."""
    if game == rules.TACTICTOE:
        x, nx = _slots(code >> 12)
        if x < 0:
            return "X has " + nx
        o, no = _slots(code & 0xFFF)
        if o < 0:
            return "O has " + no
        both = x & o
        if both:
            c = 0
            while not both >> c & 1:
                c += 1
            return "cell %d is both X's and O's" % c
    else:
        if code >> 18:
            return "bits above the 9 cells are set"
        x = o = 0
        for c in range(9):
            v = code >> 16 - 2 * c & 3
            if v == 3:
                return "cell %d is coded 3 (0 empty, 1 X, 2 O)" % c
            x |= (v & 1) << c
            o |= (v >> 1) << c
        nx, no = bits(x), bits(o)
    if nx != no + turn and not (game == rules.TACTICTOE and nx == no == 3):
        return "X has %d marks and O %d, so %s can't be to move" % (nx, no, rules.PLAYERS[turn])
    if rules.has_line(x) or rules.has_line(o):
        return "%s already has a line: the game is over" % rules.PLAYERS[rules.O if rules.has_line(o) else rules.X]
    if nx + no == 9:
        return "the board is full: the game is over"
    return nx, no


def problem(game, code, turn, plies, wins, losses):
    """Why ``game``'s position24 ``code`` with ``turn`` to move, won by it
    in ``plies`` plies with ``wins`` winning and ``losses`` losing first
    moves, can't be a puzzle, or None: its ``position`` must be one play
    reaches and not over, and its answer possible (a line in reach, no
    longer than the game's longest win, no more first moves than empty
    cells). The tables prove the rest on the host (host_tools/puzzles.py)."""
    marks = _marks(game, code, turn)
    if marks < 0:  # (the quick test says no: position() says why)
        return position(game, code, turn)
    mine = marks >> 4 if turn else marks & 15
    empty = 9 - (marks >> 4) - (marks & 15)
    if plies > LONGEST[game]:
        return "a win in %d plies, longer than any %s win (%d)" % (plies, rules.GAMES[game], LONGEST[game])
    if mine + (plies + 1) // 2 < 3:
        return "%s has %d marks: no line of 3 in %d plies" % (rules.PLAYERS[turn], mine, plies)
    if game == rules.CLASSIC and plies > empty:
        return "a win in %d plies with %d empty cells" % (plies, empty)
    if wins + losses > empty:
        return "%d winning and %d losing first moves, with %d empty cells" % (wins, losses, empty)
    return None
