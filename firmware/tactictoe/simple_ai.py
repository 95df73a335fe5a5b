"""The easy and medium levels, which play like people (no table, no
search). Loaded only when one of them plays.
"""


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
