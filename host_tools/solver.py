"""Exact solver: retrograde analysis over the whole reachable game graph.

Tactic-toe positions repeat, so its graph has cycles and depth-limited minimax
is wrong for it. Instead every position is labelled backwards from the
terminal ones, one ply per round:

* a position with a child that is lost for the player to move there is won,
  in one ply more than the fastest such child (the winner hurries);
* a position whose children are all won for the opponent is lost, in one ply
  more than the slowest of them (the loser delays);
* what is still unlabelled when a round labels nothing is a draw.

The rules are not restated here. ``Sides`` tabulates the firmware's own
``rules`` functions for every possible side (one player's marks: 586 of them in
tactic-toe, 512 in classic) and the graph is composed from those tables with
numpy; tests check it against ``rules.Position.push`` on every reachable
position.
"""

import zlib

import numpy as np

from host_tools import outputs
from tactictoe import rules
from tactictoe import rules_extra
from tactictoe import table_extra


class Sides:
    """Every side one player can have, indexed 0..n-1, with the firmware's
    answers about each precomputed."""

    def __init__(self, game):
        self.game = game
        empty = rules.empty_side(game)
        codes = [empty]
        index = {empty: 0}
        nxt = []
        i = 0
        while i < len(codes):  # breadth-first over rules.side_place
            side = codes[i]
            mask = rules.side_mask(game, side)
            row = []
            for cell in range(9):
                if mask >> cell & 1:
                    row.append(-1)
                    continue
                after = rules.side_place(game, side, cell)
                if after not in index:
                    index[after] = len(codes)
                    codes.append(after)
                row.append(index[after])
            nxt.append(row)
            i += 1
        self.codes = codes
        self.index = index
        self.next = np.array(nxt, dtype=np.int32)  # [side, cell] -> side, -1 if taken
        self.mask = np.array([rules.side_mask(game, s) for s in codes], dtype=np.int32)
        self.line = np.array([rules.has_line(rules.side_mask(game, s)) for s in codes])
        # free[s, c]: cell c is not taken by side s
        self.free = (self.mask[:, None] >> np.arange(9)) & 1 == 0
        # full[x, o]: the two sides cover the board (only classic uses it)
        self.full = (self.mask[:, None] | self.mask[None, :]) == 0x1FF
        self.xcode = np.array([rules.side_code(game, rules.X, s) for s in codes], dtype=np.int64)
        self.ocode = np.array([rules.side_code(game, rules.O, s) for s in codes], dtype=np.int64)
        self.sym = np.array(
            [[index[rules_extra.side_transform(game, s, sym)] for sym in rules_extra.SYMMETRIES] for s in codes],
            dtype=np.int32,
        )

    def __len__(self):
        return len(self.codes)


class Solution:
    """The solved game.

    ``x``, ``o``, ``turn``: side indices and side to move of every reachable
    position (state i); ``children[i, cell]``: the state after playing
    ``cell``, or -1; ``terminal[i]``; ``value[i]``: value7 for the side to
    move (docs/table-format.md), meaningless (0) for terminal states;
    ``records``: the sorted table records.
    """

    def __init__(self, game, sides, x, o, turn, children, terminal, value, records, index):
        self.game = game
        self.sides = sides
        self.x, self.o, self.turn = x, o, turn
        self.children = children
        self.terminal = terminal
        self.value = value
        self.records = records
        self._index = index

    @property
    def positions(self):
        return len(self.x)

    @property
    def nonterminal(self):
        return int(np.count_nonzero(~self.terminal))

    def state(self, pos):
        """The state index of a ``rules.Position``; KeyError if unreachable."""
        n = len(self.sides)
        key = (self.sides.index[pos.sides[0]] * n + self.sides.index[pos.sides[1]]) * 2 + pos.turn
        i = int(self._index[key])
        if i < 0:
            raise KeyError("position not reachable")
        return i

    def value_of(self, pos):
        """value7 of a reachable non-terminal position for its side to move;
        ValueError for a terminal one (it has no value7: see is_over())."""
        i = self.state(pos)
        if self.terminal[i]:
            raise ValueError("terminal position: the game is over")
        return int(self.value[i])

    def table_bytes(self):
        """The complete table file (header and records)."""
        body = self.records.astype(">u4").tobytes()
        return table_extra.pack_header(self.game, len(self.records), zlib.crc32(body)) + body


def _expand(sides, game, keys):
    """Children of the positions ``keys`` as a (len(keys), 9) array of keys,
    -1 where the move is illegal; plus which positions are terminal and which
    of those are lost (a line on the board) rather than drawn.

    A key is ``(x * n + o) * 2 + turn`` for side indices x, o."""
    n = len(sides)
    turn = keys & 1
    xo = keys >> 1
    x, o = xo // n, xo % n
    lost = sides.line[x] | sides.line[o]
    terminal = lost | sides.full[x, o] if game == rules.CLASSIC else lost
    mover = np.where(turn == 0, x, o)
    other = np.where(turn == 0, o, x)
    after = sides.next[mover]  # (k, 9): the mover's side after each move
    legal = (after >= 0) & sides.free[other] & ~terminal[:, None]
    # The mover's side changes; the other side and the turn flip.
    child = np.where(turn[:, None] == 0, (after * n + o[:, None]) * 2 + 1, (x[:, None] * n + after) * 2)
    return np.where(legal, child, -1), terminal, lost


def solve(game):
    """Solve ``game`` (rules.CLASSIC or rules.TACTICTOE) exactly."""
    sides = Sides(game)
    n = len(sides)
    seen = np.zeros(n * n * 2, dtype=bool)
    seen[0] = True
    stamp = np.zeros(n * n * 2, dtype=np.int32)
    frontier = np.zeros(1, dtype=np.int32)  # both sides empty, X to move
    found = []
    while frontier.size:  # breadth-first over the whole reachable graph
        child, terminal, lost = _expand(sides, game, frontier)
        found.append((frontier, child, terminal, lost))
        new = child[child >= 0]
        new = new[~seen[new]]
        # Deduplicate without sorting: each key keeps the slot that wrote it last.
        order = np.arange(len(new), dtype=np.int32)
        stamp[new] = order
        new = new[stamp[new] == order]
        seen[new] = True
        frontier = new
    keys, child, terminal, lost = (np.concatenate(parts) for parts in zip(*found))
    index = np.full(n * n * 2 + 1, -1, dtype=np.int32)  # key -> state; index[-1] stays -1
    index[keys] = np.arange(len(keys), dtype=np.int32)
    children = index[child]
    value = _retrograde(children, terminal, lost)

    # Records: canonical key and value of every non-terminal position.
    live = ~terminal
    turn = (keys & 1)[live].astype(np.int64)
    x, o = ((keys >> 1) // n)[live], ((keys >> 1) % n)[live]
    canon = np.min(sides.xcode[sides.sym[x]] | sides.ocode[sides.sym[o]], axis=1)
    recs = np.unique((((canon << 1) | turn) << 7) | value[live])
    if len(np.unique(recs >> 7)) != len(recs):
        raise RuntimeError("symmetric positions got different values")
    return Solution(game, sides, (keys >> 1) // n, (keys >> 1) % n, keys & 1,
                    children, terminal, value, recs.astype(np.uint32), index)


def _retrograde(children, terminal, lost):
    """value7 of every state, by rounds of backward labelling."""
    count = len(terminal)
    res = np.zeros(count + 1, dtype=np.int8)  # 0 unknown or draw, 1 won, 2 lost
    dist = np.zeros(count + 1, dtype=np.int64)
    res[count] = 1  # the padding child (-1 -> last slot) counts as won: never a reason to win
    # Terminal: a line means the player to move has lost; a full classic
    # board without one is a draw.
    res[:count][lost] = 2
    pending = np.flatnonzero(~terminal)
    ch = children[pending].T.copy()  # (9, pending): row-wise ops are the fast ones
    ch[ch < 0] = count
    ply = 1
    while pending.size:
        cr = res[ch]
        win = np.bitwise_or.reduce(cr, axis=0) & 2 != 0  # some child lost
        loss = np.bitwise_and.reduce(cr, axis=0) == 1  # every child won
        done = win | loss
        if not done.any():
            break  # what is left can't be forced either way: draws
        res[pending[win]] = 1
        res[pending[loss]] = 2
        dist[pending[done]] = ply
        keep = ~done
        pending, ch = pending[keep], ch[:, keep]
        ply += 1
    res, dist = res[:count], dist[:count]
    if dist.max() > 63:
        raise RuntimeError("a game longer than 63 plies does not fit value7")
    return np.where(res == 1, 0x40 | dist, np.where(res == 2, dist, 0))


def write_table(solution, path):
    """Write the table to ``path`` whole or not at all (``outputs``): an
    interrupted write never leaves a half-written table behind."""
    data = solution.table_bytes()
    outputs.write_file(path, data)
    return len(data)
