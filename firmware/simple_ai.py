"""Moves without the table: the easy and medium levels, which play like
people, and the depth-limited minimax the perfect level falls back to when
its table can't be used. Loaded only when one of them plays.
"""

import rules


def _wins_now(pos, cell):
    pos.push(cell)
    won = pos.winner() is not None
    pos.pop()
    return won


def _gives_win(pos, cell):
    # True if after ``cell`` the opponent can complete a line at once.
    pos.push(cell)
    try:
        free = pos.legal_mask()
        for reply in range(9):
            if free >> reply & 1 and _wins_now(pos, reply):
                return True
        return False
    finally:
        pos.pop()


def weak_move(pos, moves, block, rng):
    """Easy (``block`` False): an immediate win, else a random move. Medium:
    also avoid any move that lets the opponent complete a line at once."""
    wins = [c for c in moves if _wins_now(pos, c)]
    if wins:
        return rng.choice(wins)
    if block:
        safe = [c for c in moves if not _gives_win(pos, c)]
        if safe:
            moves = safe
    return rng.choice(moves)


def _negamax(pos, depth, ply):
    if pos.winner() is not None:
        return ply - 100  # the player to move has lost; later is better
    moves = pos.legal_moves()
    if not moves or depth == 0:
        return 0  # draw, or the horizon: unknown counts as even
    best = -1000
    for cell in moves:
        pos.push(cell)
        s = -_negamax(pos, depth - 1, ply + 1)
        pos.pop()
        if s > best:
            best = s
    return best


def minimax_move(pos, depth=4, rng=None):
    """The best move a ``depth``-ply minimax sees. Not perfect in tactic-toe,
    where play can cycle; it is the fallback when no table is available."""
    moves = pos.legal_moves()
    if not moves:
        raise rules.IllegalMove("the game is over")
    if rng is None:
        import ai

        rng = ai.Rng()
    best, picks = -1000, []
    for cell in moves:
        pos.push(cell)
        s = -_negamax(pos, depth - 1, 1)
        pos.pop()
        if s > best:
            best, picks = s, [cell]
        elif s == best:
            picks.append(cell)
    return rng.choice(picks)


SEARCH_BUDGET = 1500  # positions the fallback may look at for one move


def search_depth(pos):
    """How deep the fallback minimax may look and stay around SEARCH_BUDGET
    positions, so that a slow board keeps its LEDs and keys alive."""
    n = len(pos.legal_moves())
    depth, nodes = 0, 1
    while depth < 6 and n > 0 and nodes * n <= SEARCH_BUDGET:
        nodes *= n
        depth += 1
        if pos.game == rules.CLASSIC:
            n -= 1  # a classic board fills up; tactic-toe keeps about as many moves
    return max(depth, 1)
