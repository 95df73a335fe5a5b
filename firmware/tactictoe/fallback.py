"""The perfect level's move when its table can't be used (missing,
corrupt, failed during play): a small book of the positions the search
gets wrong or is slow in (``BOOKS``), else an alpha-beta search.
Loaded only then; the easy and medium levels are ``simple_ai``.
"""

from array import array

from micropython import const

from . import rules

# An alpha-beta negamax over the two sides as small ints (no Position, no
# lists per node, so a search allocates nothing but its one work array). It
# loops over an explicit stack instead of recursing: a search goes up to
# _DEEPEST plies, and on CircuitPython each Python call takes room from a
# fixed 1.5 KiB "pystack" that the game's own calls already use.
#
# Scores are for the player to move and count plies from the decision: a win
# in d plies is _WIN - d, a loss in d plies d - _WIN, a draw (or, in
# tactic-toe, nothing found before the horizon) 0. Slower losses and faster
# wins score higher, as with the table's values.

_WIN = const(100)
_DEEPEST = const(20)  # plies of the stack: the horizon plus forced replies
# Positions one tactic-toe decision may look at: about 0.2 ms each on a
# Pico, so a decision (its first with the import) takes under 100 ms. That
# sees wins of up to 9 plies and losses of up to 10; longer tactic-toe
# traps and wins are beyond it (docs/firmware.md counts them).
_BUDGET = const(350)
_SLOTS = const(7)  # work array entries a ply of the stack takes (see _score)

# The cells in the order the search tries them: the centre and the corners
# lie on more lines, so good moves come early and alpha-beta cuts more.
_ORDER = b"\x04\x00\x02\x06\x08\x01\x03\x05\x07"
# The empty board is not searched: in classic every opening draws and a
# corner leaves O the most ways to lose (7 of its 8 replies); in tactic-toe
# only an edge wins (docs/firmware.md). Searching it would cost twice the
# worst position after it.
_OPENINGS = (b"\x00\x02\x06\x08", b"\x01\x03\x05\x07")


def _thirds():
    """A tactic-toe side's one winning cell, by two of its cells ``a << 4 |
    b``: the cell that completes a line with a and b, 15 when none does
    (and ``free >> 15 & 1`` is 0). Made from rules.LINES at import."""
    t = bytearray(b"\x0f" * 256)
    for line in rules.LINES:
        a, b, c = [c for c in range(9) if line >> c & 1]
        t[a << 4 | b] = t[b << 4 | a] = c
        t[a << 4 | c] = t[c << 4 | a] = b
        t[b << 4 | c] = t[c << 4 | b] = a
    return t


_THIRD = _thirds()
del _thirds  # its code runs once: let its RAM go


def _marks(game, side):
    """The 9-bit mask of a side's cells (rules.side_mask, inlined here)."""
    if game:
        return (1 << (side >> 8) | 1 << (side >> 4 & 0xF) | 1 << (side & 0xF)) & 0x1FF
    return side


def _wins(game, side, free):
    """The cells of ``free`` where ``side`` completes a line by moving, a
    mask. In tactic-toe that is the line of the two marks that stay (a
    third mark's owner loses its oldest), so one cell at most."""
    if game:
        return 1 << _THIRD[side >> 4 if side & 0xF == 0xF else side & 0xFF] & free
    out = 0
    for line in rules.LINES:
        line &= ~side
        if not line & (line - 1):  # one cell of the line left
            out |= line
    return out & free


def _score(game, me, other, depth, alpha, beta, work):
    """The score (see above) of the position one ply into the decision:
    ``me`` to move, ``other`` just moved (and made no line), looking
    ``depth`` plies into the decision (a win on ply ``depth`` is seen), and
    in tactic-toe further along replies that are forced (a block, the only
    move that does not lose at once): those don't count; exact between
    ``alpha`` and ``beta``, else only a bound on that side. ``work[0]`` is
    the positions left to look at: when it runs out the result is
    meaningless (the caller checks ``work[0]``).

    A stack of the nodes on the current line of play, _SLOTS entries each
    from work[1]: the mover's side, the other side, the moves still to try
    (a 9-bit mask), alpha, beta, the best score so far and the plies the
    search may still look at."""
    order = _ORDER
    third = _THIRD
    k = 0  # the ply of the current node, 0 = the position given
    left = depth - 1  # plies the search may still look at from the node
    v = -1  # the value of a node just settled, or -1 while none is
    ret = False  # True when v is the settled node's score, to hand up
    n = work[0]
    while True:
        if not ret:  # a new node: me, other, alpha, beta, k and left are set
            n -= 1
            if n <= 0:
                work[0] = n
                return 0  # out of budget: the caller drops this search
            ply = k + 1
            # A cell where the opponent would complete a line must be taken
            # now: every other move loses on its next ply, and with two such
            # cells every move does.
            if game:  # _marks and _wins inlined: this runs for every node
                free = ~(1 << (me >> 8) | 1 << (me >> 4 & 0xF) | 1 << (me & 0xF)
                         | 1 << (other >> 8) | 1 << (other >> 4 & 0xF) | 1 << (other & 0xF)) & 0x1FF
                win = 1 << third[me >> 4 if me & 0xF == 0xF else me & 0xFF] & free
                threat = 1 << third[other >> 4 if other & 0xF == 0xF else other & 0xFF]
                # The mark the mover loses may be the one in the way: lost.
                lost = me & 0xF != 0xF and threat == 1 << (me >> 8)
                threat &= free
            else:
                free = ~(me | other) & 0x1FF
                win = _wins(game, me, free)
                threat = _wins(game, other, free)
                lost = threat & (threat - 1)
            if not free:
                v, ret = 0, True  # a full classic board
            elif win:
                v, ret = _WIN - ply - 1, True
            else:
                if lost:
                    alpha = beta = ply + 2 - _WIN  # settled just below
                elif threat:
                    free = threat
                    left += game  # tactic-toe: a forced reply is not counted
                if (left < 2 or k + 1 >= _DEEPEST) and alpha < beta:
                    alpha = beta = 0  # the horizon: unknown counts as even
                # Mate-distance bounds: with no win now, the mover wins in
                # ply + 3 at best, and loses in ply + 2 at worst.
                if beta > _WIN - ply - 3:
                    beta = _WIN - ply - 3
                if alpha < ply + 2 - _WIN:
                    alpha = ply + 2 - _WIN
                if alpha >= beta:
                    v, ret = alpha, True
                else:
                    i = 1 + _SLOTS * k
                    work[i] = me
                    work[i + 1] = other
                    work[i + 2] = free
                    work[i + 3] = alpha
                    work[i + 4] = beta
                    work[i + 5] = -1000
                    work[i + 6] = left
        else:  # hand the settled node's score to its parent
            if k == 0:
                work[0] = n
                return v
            k -= 1
            i = 1 + _SLOTS * k
            s = -v
            ret = False
            if s > work[i + 5]:
                work[i + 5] = s
                if s > work[i + 3]:
                    work[i + 3] = s
                    if s >= work[i + 4]:
                        v, ret = s, True  # a cut: the opponent avoids this line
        if not ret:  # go into node k's next move, or settle it
            i = 1 + _SLOTS * k
            free = work[i + 2]
            if not free:
                v, ret = work[i + 5], True
            else:
                for c in order:
                    if free >> c & 1:
                        break
                work[i + 2] = free & ~(1 << c)
                me, other = work[i + 1], work[i]
                if not game:
                    other |= 1 << c
                elif other & 0xF != 0xF:  # rules.side_place inlined
                    other = (other << 4 | c) & 0xFFF
                elif other & 0xF0 != 0xF0:
                    other = other & 0xFF0 | c
                elif other & 0xF00 != 0xF00:
                    other = other & 0xF0F | c << 4
                else:
                    other = c << 8 | 0xFF
                alpha, beta = -work[i + 4], -work[i + 3]
                left = work[i + 6] - 1
                k += 1


def _search(game, turn, me, other, free, work):
    """The best moves of the position (``me`` to move, ``other`` its
    opponent, ``free`` the empty cells, none of them a win on the spot),
    a list in cell order.

    Moves that lead to the same position up to symmetry are searched once
    and kept or dropped together. Deeper and deeper searches (tactic-toe;
    classic goes to the end of the game at once) while the budget lasts:
    a search that runs out of it is dropped, and the last complete one
    stands. Each search tries the moves in the order of the last one's
    scores, best first; a move it proved lost is not searched again."""
    place = rules.side_place
    cells = []
    keys = []
    for c in range(9):
        if free >> c & 1:
            side = place(game, me, c)
            cells.append(c)
            keys.append(rules.canonical(game, other, side) if turn else rules.canonical(game, side, other))
    kinds = []  # type: list  # one cell of each kind of move, the first in _ORDER
    for c in _ORDER:
        if free >> c & 1:
            key = keys[cells.index(c)]
            if key not in [keys[cells.index(d)] for d in kinds]:
                kinds.append(c)
    scores = [0] * len(kinds)
    work[0] = _BUDGET if game else 30000  # classic: never runs out
    depth = 2 if game else len(cells)  # classic: to the end of the game
    while True:
        # Only the outcome first (a window around a draw cuts the most):
        # a score above 0 is a win, below 0 a loss, in neither case exact.
        now = list(scores)
        best = -1000
        for j in range(len(kinds)):
            if scores[j] < 0:
                continue  # proved lost: lost at any depth
            s = -_score(game, other, place(game, me, kinds[j]), depth, -1, 1, work)
            now[j] = s
            if s > best:
                best = s
        if work[0] <= 0:
            break  # out of budget: the last complete search stands
        scores = now
        done = depth
        if best or not game or depth >= _DEEPEST:
            break  # a win, or every move loses: nearer than any deeper search
        # The next search tries the best first: their scores cut the most.
        order = sorted(range(len(kinds)), key=lambda j: -scores[j])
        kinds = [kinds[j] for j in order]
        scores = [scores[j] for j in order]
        depth += 1 if depth > 2 else 3  # 2, then 5 on: fewer rounds
    scores = [1 if x > 0 else -1 if x < 0 else 0 for x in scores]
    if not max(scores):  # a draw as far as it sees (or no search done)
        return _pick(cells, keys, kinds, scores)
    # A win: the fastest; every move loses: the slowest; both exact at the
    # same depth, if the budget lasts.
    w = max(scores)
    return _best(game, me, other, cells, keys, kinds, [x if x == w else -1000 for x in scores], done, work, scores)


def _best(game, me, other, cells, keys, kinds, scores, depth, work, rough=None):
    """_pick after searching the moves whose ``scores`` are above -1000 to
    ``depth`` with every score exact; the ``rough`` scores if the budget
    runs out (and if they all lose, a move that does not lose at once)."""
    place = rules.side_place
    best = -1000
    exact = list(scores)
    for j in range(len(kinds)):
        if scores[j] > -1000:
            # A move only needs to be told apart from the best so far: a
            # score at or below best - 1 is enough to drop it.
            s = -_score(game, other, place(game, me, kinds[j]), depth, -1000, 1 - best if best > -1000 else 1000, work)
            exact[j] = s
            if s > best:
                best = s
    if work[0] > 0:
        return _pick(cells, keys, kinds, exact)
    if max(rough) < 0:  # every move loses, how soon unknown: one that doesn't at once, if any does
        marks = _marks(game, other)
        rough = [-1 - (_wins(game, other, ~(marks | _marks(game, place(game, me, c))) & 0x1FF) != 0) for c in kinds]
    return _pick(cells, keys, kinds, rough)


def _pick(cells, keys, kinds, scores):
    """The cells of the moves of the same kind as the best scored."""
    best = max(scores)
    good = [keys[cells.index(kinds[j])] for j in range(len(kinds)) if scores[j] == best]
    return [c for c in cells if keys[cells.index(c)] in good]


# The book: the moves of the positions where the search is wrong or slow
# (host_tools/fallback_book.py says which), made from the tables and the
# search by ``python -m host_tools fallback-book``, which rewrites BOOKS
# below (don't edit it by hand; tests/test_fallback.py checks it is what
# the tables and the search make). One bytes object a game, records of 5
# bytes sorted by position: the canonical position24 (3 bytes), then turn
# << 15 | the moves, a 9-bit mask of the canonical image's cells (2
# bytes), both big-endian.
BOOKS = (
    # classic: 15 positions, 75 bytes
    (
        b"\x00\x00\x01\x80\x10\x00\x00\x04\x81\x52\x00\x00\x06\x00\x35\x00\x00\x09\x00\x34\x00\x00\x12\x00\x0d"
        b"\x00\x00\x48\x01\x10\x00\x00\x60\x01\x00\x00\x00\x90\x01\x11\x00\x01\x00\x81\x45\x00\x01\x02\x00\xef"
        b"\x00\x01\x08\x01\x6d\x00\x02\x01\x00\xef\x00\x02\x04\x01\x6d\x00\x04\x80\x01\xd7\x00\x10\x20\x01\x01"
    ),
    # tactictoe: 157 positions, 785 bytes
    (
        b"\x01\x52\x63\x81\x00\x01\x52\x83\x00\x40\x01\x54\x83\x00\x04\x01\x56\x23\x81\x00\x01\x74\x86\x00\x0c"
        b"\x02\x31\x45\x81\x00\x02\x31\x5f\x80\x40\x02\x34\x15\x80\x40\x02\x34\x56\x01\x00\x02\x34\x61\x80\x20"
        b"\x02\x35\x46\x01\x00\x02\x36\x15\x01\x00\x02\x36\x15\x81\x00\x02\x37\x15\x80\x40\x02\x38\x46\x00\x20"
        b"\x02\x41\x63\x80\x80\x02\x41\x65\x80\x80\x02\x58\x13\x00\x40\x02\x61\x48\x80\x28\x02\x64\x31\x00\x80"
        b"\x02\x73\x1f\x80\x40\x02\x74\x31\x80\x40\x02\x75\x31\x80\x40\x02\x76\x31\x81\x00\x02\x78\x46\x00\x02"
        b"\x02\x83\x51\x00\x80\x02\x84\x51\x00\x80\x02\xf1\x3f\x00\x20\x04\x13\x27\x01\x00\x04\x28\x61\x80\x80"
        b"\x04\x28\x65\x80\x08\x04\x51\x23\x01\x00\x04\x53\x61\x01\x00\x04\x53\x62\x00\x02\x04\x57\x23\x01\x00"
        b"\x05\x14\x28\x80\x80\x05\x28\x16\x00\x10\x05\x41\x32\x80\x80\x05\x43\x28\x00\x82\x05\x43\x82\x00\x82"
        b"\x05\x61\x2f\x80\x10\x05\x61\x32\x80\x80\x05\x63\x12\x80\x10\x05\x63\x82\x00\x02\x05\x64\x82\x00\x02"
        b"\x05\x67\x12\x80\x10\x05\x67\x82\x00\x02\x05\x68\x12\x80\x10\x05\x72\x1f\x81\x40\x05\x72\x81\x00\x40"
        b"\x05\x72\x81\x80\x40\x05\x73\x21\x81\x40\x05\x74\x21\x81\x40\x05\x78\x21\x80\x40\x05\xf4\x8f\x00\x40"
        b"\x08\x12\x57\x00\x40\x08\x14\x25\x80\x80\x08\x14\x37\x80\x40\x08\x14\x57\x80\x08\x08\x25\x67\x00\x02"
        b"\x08\x25\x76\x00\x08\x08\x52\x13\x00\x40\x10\x52\x43\x80\x40\x10\x52\x47\x80\x40\x10\x53\x47\x80\x40"
        b"\x10\x53\x48\x00\x40\x10\x54\x38\x00\x40\x10\x54\x7f\x80\x40\x10\x57\x48\x00\x40\x10\x63\x42\x01\x00"
        b"\x10\x68\x32\x80\x80\x10\x82\x47\x80\x20\x10\x84\x73\x00\x20\x13\x20\x54\x00\x80\x13\x20\x56\x00\x80"
        b"\x13\x20\x6f\x81\x20\x13\x27\x05\x81\x40\x13\x27\x06\x81\x20\x13\x45\x06\x00\x80\x13\x45\x60\x00\x80"
        b"\x13\x60\x2f\x81\x80\x13\x60\x72\x00\x10\x13\x65\x02\x81\x80\x13\x67\x02\x81\x00\x13\x68\x02\x80\x80"
        b"\x13\xf0\x5f\x01\x00\x13\xf2\xff\x80\x20\x13\xf5\x6f\x00\x80\x13\xf6\x5f\x00\x05\x14\x07\x83\x80\x04"
        b"\x14\x32\x05\x00\x40\x14\x35\x27\x00\x01\x14\x37\x05\x00\x44\x14\x62\x08\x00\x28\x14\x62\x7f\x80\x01"
        b"\x14\x63\x27\x80\x01\x14\x65\x27\x80\x01\x14\x67\x20\x81\x00\x14\x67\x23\x81\x00\x14\x68\x27\x80\x01"
        b"\x16\x03\x78\x00\x24\x16\x03\x87\x00\x04\x16\x07\x38\x00\x24\x16\x30\x24\x00\x80\x16\x30\x2f\x81\x20"
        b"\x16\x30\x75\x01\x04\x16\x35\x02\x81\x00\x16\x37\x02\x81\x20\x16\x38\x02\x80\x20\x16\x50\x24\x00\x80"
        b"\x16\x50\x43\x81\x00\x16\x53\x42\x00\x01\x16\x54\x02\x80\x08\x16\x54\x32\x00\x01\x16\x54\x3f\x81\x01"
        b"\x16\x57\x38\x00\x05\x16\x57\x42\x00\x01\x16\x57\x43\x81\x01\x16\x58\x43\x80\x01\x16\x80\x74\x80\x28"
        b"\x16\x82\x70\x80\x20\x16\x82\x74\x80\x28\x16\x83\x74\x80\x20\x16\x85\x74\x80\x08\x16\x87\x03\x00\x24"
        b"\x16\x87\x30\x00\x04\x16\x87\x40\x00\x04\x16\x87\x42\x00\x01\x16\x87\x4f\x80\x28\x17\x30\x68\x80\x20"
        b"\x17\x34\x68\x80\x20\x17\x36\x05\x01\x00\x17\x36\x8f\x80\x20\x17\x38\x65\x00\x04\x17\x68\x32\x00\x10"
        b"\x40\x12\x37\x01\x40\x40\x16\x23\x00\x20\x40\x21\x65\x00\x08\x40\x26\x13\x00\x20\x40\x27\x13\x00\x20"
        b"\x40\x28\x16\x80\x20\x40\x28\x71\x80\x60\x40\x52\x81\x00\x80\x40\x58\x73\x80\x40\x41\x30\x62\x80\x20"
        b"\x41\x30\x65\x00\x04\x41\x32\x05\x01\x00\x41\x32\x65\x00\x01\x41\x36\x02\x80\x20\x41\x36\x2f\x80\x20"
        b"\x41\x37\x62\x80\x20\x41\x38\x05\x00\x80\x41\x62\x7f\x80\x01\x41\x63\x27\x80\x01\x41\x65\x27\x80\x01"
        b"\x41\x68\x27\x80\x01\x41\xf0\x7f\x00\x44"
    ),
)


def book(game, code, turn):
    """The moves the book gives the canonical position ``code`` (position24)
    with ``turn`` to move, a 9-bit mask of its cells; 0 when it has none.
    A binary search of BOOKS[game] (its records: above)."""
    b = BOOKS[game]
    key = code << 1 | turn
    lo, hi = 0, len(b) // 5
    while lo < hi:
        mid = (lo + hi) >> 1
        i = 5 * mid
        k = b[i] << 17 | b[i + 1] << 9 | b[i + 2] << 1 | b[i + 3] >> 7
        if k < key:
            lo = mid + 1
        elif k > key:
            hi = mid
        else:
            return (b[i + 3] << 8 | b[i + 4]) & 0x1FF
    return 0


def move(pos, rng, use_book=True):
    """The perfect level's move when its table can't be used
    (``use_book=False``: the search's alone, for the host's book maker).

    The position is looked up in the book, else searched, as its canonical
    image (rules.canonical), and the moves mapped back, so mirror images
    play alike. Classic: the book holds every position of up to two marks
    (where the search takes longest); elsewhere the whole game tree is
    searched (130 positions at most), so it never loses a drawn position
    or misses a win. Tactic-toe: deeper and deeper searches while the
    budget lasts, and the book holds the positions where they would pick
    a move worse than the best (from a draw a loss, from a win a slower
    win or none, from a loss a faster loss); as X it opens on an edge,
    the only winning opening (docs/firmware.md)."""
    moves = pos.legal_moves()
    if not moves:
        raise rules.IllegalMove("the game is over")
    game = pos.game
    if not pos.occupied():
        return rng.choice(_OPENINGS[game])
    x, o = pos.sides
    code = rules.canonical(game, x, o)
    k = 0  # the symmetry that takes the position to its canonical image
    while rules.encode(game, rules.transform(game, x, k), rules.transform(game, o, k)) != code:
        k += 1
    me, other = rules.transform(game, pos.sides[pos.turn], k), rules.transform(game, pos.sides[pos.turn ^ 1], k)
    free = ~(_marks(game, me) | _marks(game, other)) & 0x1FF
    # The book's moves, else the immediate wins (they save a search).
    best = use_book and book(game, code, pos.turn) or _wins(game, me, free)
    if best:
        best = [c for c in range(9) if best >> c & 1]
    else:
        best = _search(game, pos.turn, me, other, free, array("h", bytes(2 + 2 * _SLOTS * _DEEPEST)))
    # Back through the symmetry, in the canonical image's cell order.
    t = rules._IMAGES
    return rng.choice([c for b in best for c in range(9) if t[16 * k + c] == b])
