"""The perfect level's move when its table can't be used (missing,
corrupt, failed during play): an alpha-beta search. Loaded only then; the
easy and medium levels are ``simple_ai``.
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
_DEEPEST = const(13)  # tactic-toe plies: X's win after an edge opening is at most 11 away
_BUDGET = const(2000)  # positions one tactic-toe decision may look at (see docs/performance.md)
_SLOTS = const(6)  # work array entries a ply of the stack takes (see _score)

# The cells in the order the search tries them: the centre and the corners
# lie on more lines, so good moves come early and alpha-beta cuts more.
_ORDER = b"\x04\x00\x02\x06\x08\x01\x03\x05\x07"
# The empty board is not searched: in classic every opening draws and a
# corner leaves O the most ways to lose (7 of its 8 replies); in tactic-toe
# only an edge wins (docs/firmware.md). Searching it would cost twice the
# worst position after it.
_OPENINGS = (b"\x00\x02\x06\x08", b"\x01\x03\x05\x07")


def _marks(game, side):
    """The 9-bit mask of a side's cells (rules.side_mask, inlined here)."""
    if game:
        return (1 << (side >> 8) | 1 << (side >> 4 & 0xF) | 1 << (side & 0xF)) & 0x1FF
    return side


def _staying(game, side):
    """The cells of a side that stay when it places its next mark (in
    tactic-toe a third mark's owner loses its oldest)."""
    if game and side & 0xF != 0xF:
        return (1 << (side >> 4 & 0xF) | 1 << (side & 0xF)) & 0x1FF
    return _marks(game, side)


def _wins(stay, free):
    """The cells of ``free`` that complete a line with ``stay``, a mask."""
    wins = rules._WINS
    out = 0
    for c in range(9):
        if free >> c & 1:
            m = stay | 1 << c
            if wins[m >> 3] >> (m & 7) & 1:
                out |= 1 << c
    return out


def _score(game, me, other, depth, alpha, beta, work):
    """The score (see above) of the position one ply into the decision:
    ``me`` to move, ``other`` just moved (and made no line), looking
    ``depth`` plies into the decision (a win on ply ``depth`` is seen);
    exact between ``alpha`` and ``beta``, else only a bound on that side.
    ``work[0]`` is the positions left to look at: when it runs out the
    result is meaningless (the caller checks ``work[0]``).

    A stack of the nodes on the current line of play, _SLOTS entries each
    from work[1]: the mover's side, the other side, the moves still to try
    (a 9-bit mask), alpha, beta and the best score so far."""
    place = rules.side_place
    order = _ORDER
    k = 0  # the ply of the current node, 0 = the position given
    v = -1  # the value of a node just settled, or -1 while none is
    ret = False  # True when v is the settled node's score, to hand up
    while True:
        if not ret:  # a new node: me, other, alpha, beta and k are set
            left = work[0] - 1
            work[0] = left
            free = ~(_marks(game, me) | _marks(game, other)) & 0x1FF
            ply = k + 1
            if left <= 0:
                return 0  # out of budget: the caller drops this search
            if not free:
                v, ret = 0, True  # a full classic board
            elif _wins(_staying(game, me), free):
                v, ret = _WIN - ply - 1, True
            elif ply + 2 > depth:
                v, ret = 0, True  # the horizon: unknown counts as even
            else:
                # A cell where the opponent would complete a line must be
                # taken now: every other move loses on its next ply, and
                # with two such cells every move does.
                threat = _wins(_staying(game, other), free)
                if threat:
                    free = threat
                    if threat & (threat - 1):
                        alpha = beta = ply + 2 - _WIN  # settled just below
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
        else:  # hand the settled node's score to its parent
            if k == 0:
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
                me, other = work[i + 1], place(game, work[i], c)
                alpha, beta = -work[i + 4], -work[i + 3]
                k += 1


def _root(game, me, other, moves, depth, work):
    """The best score at ``depth`` and the moves that reach it."""
    place = rules.side_place
    best, picks = -1000, []  # type: tuple[int, list]
    for c in moves:
        # A move only needs to be told apart from the best so far: a score
        # at or below best - 1 is enough to drop it.
        s = -_score(game, other, place(game, me, c), depth, -1000, 1 - best if picks else 1000, work)
        if s > best:
            best, picks = s, [c]
        elif s == best:
            picks.append(c)
    return best, picks


def move(pos, rng):
    """The perfect level's move when its table can't be used.

    Classic: the whole game tree is searched (540 positions at most once
    a mark is down), so it never loses a drawn position or misses a win.
    Tactic-toe: deeper and deeper searches while the budget lasts; as X it
    opens on an edge, the only winning opening, and from there sees its
    whole win (docs/performance.md has its record against the table)."""
    moves = pos.legal_moves()
    if not moves:
        raise rules.IllegalMove("the game is over")
    game = pos.game
    if not pos.occupied():
        return rng.choice(_OPENINGS[game])
    me, other = pos.sides[pos.turn], pos.sides[pos.turn ^ 1]
    free = pos.legal_mask()
    wins = _wins(_staying(game, me), free)
    if wins:  # saves a search
        return rng.choice([c for c in moves if wins >> c & 1])
    work = array("h", bytes(2 + 2 * _SLOTS * _DEEPEST))
    work[0] = _BUDGET
    if game == rules.TACTICTOE:
        depth = 2
    else:
        depth = len(moves)  # to the end of the game, in one search
    picks = moves
    while depth <= _DEEPEST:
        best, found = _root(game, me, other, moves, depth, work)
        if work[0] <= 0:
            break  # out of budget: the last complete search stands
        picks = found
        if best > _WIN - 50 or best < 50 - _WIN or game == rules.CLASSIC:
            break  # a win or a loss is as near as it can be
        # The next search tries these first: their scores cut the most.
        moves = found + [c for c in moves if c not in found]
        depth += 1
    return rng.choice(picks)
