"""Rules of classic tic-tac-toe and tactic-toe, the position encoding and the
8 symmetries of the square.

This module is the single source of truth for the game: the board runs it and
the host solver imports it. It runs unchanged on MicroPython, CircuitPython and
CPython. The encoding is specified in docs/table-format.md.

Cells are numbered 0-8 row-major from the top-left. X moves first.

A *side* is one player's marks packed in a small int:

* tactictoe: three 4-bit slots, most significant first, holding that player's
  cells oldest to newest; a slot with no mark is 0xF and missing marks are the
  newest slots (no marks = 0xFFF, one mark on cell 4 = 0x4FF).
* classic: a 9-bit mask, bit ``c`` set when the player has a mark on cell ``c``.

A position is both sides plus the side to move; ``position24`` (see
:func:`encode`) packs the two sides into 24 bits.
"""

from micropython import const


CLASSIC = const(0)
TACTICTOE = const(1)
GAMES = ("classic", "tactictoe")  # index = game number used in table files

X = const(0)
O = const(1)
PLAYERS = "XO"

_FULL = const(0x1FF)  # every cell occupied
_NONE = const(0xF)  # empty tactictoe slot

# The 8 winning lines as 9-bit masks.
LINES = (
    0b000000111, 0b000111000, 0b111000000,  # rows
    0b001001001, 0b010010010, 0b100100100,  # columns
    0b100010001, 0b001010100,  # diagonals
)

# The 8 symmetries of the square, 16 bytes each: _IMAGES[16 * k + c] is where
# symmetry k takes cell c (cells 9-15 stay 15, the empty tactictoe slot, so
# a slot maps through the same table).
_IMAGES = (
    b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0f\x0f\x0f\x0f\x0f\x0f\x0f"  # identity
    b"\x02\x05\x08\x01\x04\x07\x00\x03\x06\x0f\x0f\x0f\x0f\x0f\x0f\x0f"  # rotate 90 clockwise
    b"\x08\x07\x06\x05\x04\x03\x02\x01\x00\x0f\x0f\x0f\x0f\x0f\x0f\x0f"  # rotate 180
    b"\x06\x03\x00\x07\x04\x01\x08\x05\x02\x0f\x0f\x0f\x0f\x0f\x0f\x0f"  # rotate 270 clockwise
    b"\x02\x01\x00\x05\x04\x03\x08\x07\x06\x0f\x0f\x0f\x0f\x0f\x0f\x0f"  # mirror left-right
    b"\x06\x07\x08\x03\x04\x05\x00\x01\x02\x0f\x0f\x0f\x0f\x0f\x0f\x0f"  # mirror top-bottom
    b"\x00\x03\x06\x01\x04\x07\x02\x05\x08\x0f\x0f\x0f\x0f\x0f\x0f\x0f"  # main diagonal
    b"\x08\x05\x02\x07\x04\x01\x06\x03\x00\x0f\x0f\x0f\x0f\x0f\x0f\x0f"  # anti-diagonal
)
# (rules_extra.SYMMETRIES holds them as 9-byte cell maps, for the host.)

# For a cell c other than the centre, _BEST[2c] and _BEST[2c + 1] are the
# offsets in _IMAGES (16 * k) of the two symmetries that take c to the
# smallest cell it can reach: 0 for a corner, 1 for an edge.
_BEST = b"\x00\x60\x00\x40\x30\x40\x10\x60\xff\xff\x30\x70\x10\x50\x20\x50\x20\x70"

# Bit m of this 512-bit set (byte m >> 3, bit m & 7) is set when the 9-bit
# mask m covers a line.
_WINS = (b"\x80\x80\x80\x80\x80\x80\x80\xff\x80\xaa\xf0\xfa\x80\xaa\xf0\xff"
         b"\x80\x80\xcc\xcc\x80\x80\xcc\xff\x80\xaa\xfc\xfe\x80\xaa\xfc\xff"
         b"\x80\x80\xaa\xaa\xf0\xf0\xfa\xff\x80\xaa\xfa\xfa\xf0\xfa\xfa\xff"
         b"\x80\x80\xee\xee\xf0\xf0\xfe\xff\xff\xff\xff\xff\xff\xff\xff\xff")

# A row's three cells (bit 0 = left) as three 2-bit fields, left highest: a
# classic side's row in position24.
_ROW = b"\x00\x10\x04\x14\x01\x11\x05\x15"


class IllegalMove(ValueError):
    """A move the rules do not allow; the message says why."""


def has_line(mask):
    """True if the 9-bit ``mask`` covers one of the 8 lines."""
    return _WINS[mask >> 3] >> (mask & 7) & 1 == 1


# --- one player's marks -----------------------------------------------------


def empty_side(game):
    """A side with no marks: 0xFFF in tactic-toe, 0 in classic."""
    return 0xFFF if game == TACTICTOE else 0


def side_mask(game, side):
    """The 9-bit mask of the player's cells."""
    if game == TACTICTOE:  # an empty slot's 1 << 15 falls off the 9 bits
        return (1 << (side >> 8) | 1 << (side >> 4 & 0xF) | 1 << (side & 0xF)) & _FULL
    return side


def side_place(game, side, cell):
    """The side after adding a mark on ``cell`` (tactictoe: oldest leaves at 4)."""
    if game != TACTICTOE:
        return side | (1 << cell)
    if side & 0xF != _NONE:  # three marks already: the oldest leaves
        return ((side << 4) | cell) & 0xFFF
    if side & 0xF0 != 0xF0:  # two marks: fill the newest slot
        return (side & 0xFF0) | cell
    if side & 0xF00 != 0xF00:  # one mark
        return (side & 0xF0F) | (cell << 4)
    return (cell << 8) | 0xFF


def side_oldest(game, side):
    """The cell that leaves when this player places its next mark, or None."""
    if game == TACTICTOE and side & 0xF != _NONE:
        return side >> 8
    return None


def side_code(game, player, side):
    """The bits one side contributes to position24:
    ``encode(g, x, o) == side_code(g, X, x) | side_code(g, O, o)``."""
    if game == TACTICTOE:
        return side << 12 if player == X else side
    out = 0
    for c in range(9):
        if side >> c & 1:
            out |= (1 + player) << (2 * (8 - c))
    return out


def encode(game, xside, oside):
    """Pack both sides into position24 (docs/table-format.md)."""
    return side_code(game, X, xside) | side_code(game, O, oside)


def canonical(game, xside, oside):
    """The smallest position24 among the 8 images of the position."""
    if game == TACTICTOE:
        return canonical_t(xside << 12 | oside)
    return canonical_c(xside, oside)


def canonical_t(code):
    """``canonical`` of a tactictoe position24. The images differ first at
    the first slot that holds neither the centre nor nothing (which every
    symmetry keeps), so the smallest image is one of the two that take that
    slot's cell to cell 0 (a corner) or cell 1 (an edge)."""
    shift = 20
    while True:
        c = code >> shift & 0xF
        if c != 4 and c != _NONE:
            break
        shift -= 4
        if shift < 0:
            return code  # only the centre: every image is the same
    t = _IMAGES
    best = code
    for i in range(2 * c, 2 * c + 2):
        k = _BEST[i]
        v = (t[k + (code >> 20)] << 20 | t[k + (code >> 16 & 0xF)] << 16 | t[k + (code >> 12 & 0xF)] << 12
             | t[k + (code >> 8 & 0xF)] << 8 | t[k + (code >> 4 & 0xF)] << 4 | t[k + (code & 0xF)])
        if v < best:
            best = v
    return best


def canonical_c(x, o):
    """``canonical`` of a classic position (``x``, ``o``: 9-bit masks). The
    images come from the position24 itself, moving its 2-bit fields: the
    mirror left-right and the mirror in the main diagonal, in turn, walk
    through all 8."""
    r = _ROW
    v = ((r[x & 7] | r[o & 7] << 1) << 12 | (r[x >> 3 & 7] | r[o >> 3 & 7] << 1) << 6
         | r[x >> 6] | r[o >> 6] << 1)
    best = v
    for i in range(7):
        if i & 1:
            v = (v & 0x30303) | (v & 0xC0C0) >> 4 | (v & 0xC0C) << 4 | (v & 0x3000) >> 8 | (v & 0x30) << 8
        else:
            v = (v & 0x30C30) >> 4 | (v & 0xC30C) | (v & 0x30C3) << 4
        if v < best:
            best = v
    return best


def transform(game, side, k):
    """``side`` under symmetry ``k`` (0-7; 0 is the identity)."""
    t = _IMAGES
    k <<= 4
    if game == TACTICTOE:  # each slot maps through the table (an empty slot stays 15)
        return t[k + (side >> 8)] << 8 | t[k + (side >> 4 & 0xF)] << 4 | t[k + (side & 0xF)]
    out = 0
    for c in range(9):
        if side >> c & 1:
            out |= 1 << t[k + c]
    return out


# --- positions --------------------------------------------------------------


class Position:
    """A position: both players' marks and the side to move.

    ``Position(game)`` is the empty board with X to move; ``xside``,
    ``oside`` and ``turn`` set up any other position (see the module doc). ``push(cell)`` plays
    a move and ``pop()`` takes it back, like python-chess.
    """

    def __init__(self, game, xside=None, oside=None, turn=X):
        self.game = game
        e = empty_side(game)
        self.sides = [e if xside is None else xside, e if oside is None else oside]
        self.turn = turn
        self._undo = []  # the mover's side before each pushed move

    def mask(self, player):
        """The 9-bit mask of ``player``'s marks."""
        return side_mask(self.game, self.sides[player])

    def occupied(self):
        """The 9-bit mask of every mark on the board."""
        return self.mask(X) | self.mask(O)

    def piece_at(self, cell):
        """X, O or None."""
        if self.mask(X) >> cell & 1:
            return X
        if self.mask(O) >> cell & 1:
            return O
        return None

    def vanishing(self, player=None):
        """The cell ``player``'s next move removes (tactictoe with 3 marks),
        else None. ``player`` defaults to the side to move."""
        if player is None:
            player = self.turn
        return side_oldest(self.game, self.sides[player])

    def winner(self):
        """X or O if that player holds a line, else None."""
        if has_line(self.mask(X)):
            return X
        if has_line(self.mask(O)):
            return O
        return None

    def is_over(self):
        """A line, or (classic) a full board."""
        if self.winner() is not None:
            return True
        return self.game == CLASSIC and self.occupied() == _FULL

    def legal_mask(self):
        """The legal moves as a 9-bit mask (0 when the game is over); unlike
        legal_moves() it allocates nothing."""
        if self.is_over():
            return 0
        return ~self.occupied() & _FULL

    def legal_moves(self):
        """The empty cells, or [] when the game is over."""
        free = self.legal_mask()
        return [c for c in range(9) if free >> c & 1]

    def check_move(self, cell):
        """Raise IllegalMove saying why ``cell`` can't be played, if it can't."""
        if not (isinstance(cell, int) and 0 <= cell <= 8):
            raise IllegalMove("cell %r is not on the board (0-8)" % (cell,))
        if self.is_over():
            raise IllegalMove("the game is over")
        if self.occupied() >> cell & 1:
            raise IllegalMove("cell %d is occupied" % cell)

    def push(self, cell):
        """Play ``cell`` for the side to move (in tactic-toe its oldest mark
        goes if it already has three); ``pop()`` undoes it. IllegalMove if
        the cell is taken or the game is over."""
        self.check_move(cell)
        side = self.sides[self.turn]
        self._undo.append(side)
        self.sides[self.turn] = side_place(self.game, side, cell)
        self.turn ^= 1

    def pop(self):
        """Take back the last pushed move; returns its cell. IndexError, and
        the position unchanged, if there is none to take back."""
        before = self._undo.pop()  # first, so an empty stack changes nothing
        self.turn ^= 1
        side = self.sides[self.turn]
        self.sides[self.turn] = before
        if self.game == TACTICTOE:  # the newest mark's slot
            if side & 0xF != _NONE:
                return side & 0xF
            return (side >> 4) & 0xF if side & 0xF0 != 0xF0 else side >> 8
        added = side ^ self.sides[self.turn]
        cell = 0
        while added > 1:
            added >>= 1
            cell += 1
        return cell

    def clear_stack(self):
        """Forget the moves pushed so far (pop() can't take them back); a
        game on the board calls it so its history does not grow forever."""
        self._undo = []

    def code(self):
        """position24 of this position as it stands."""
        return encode(self.game, self.sides[0], self.sides[1])

    def canonical(self):
        """position24 of the canonical image (docs/table-format.md)."""
        return canonical(self.game, self.sides[0], self.sides[1])
