# Random games through the rules module, printing every position reached.
# Usage: random_games.py SEED GAMES PLIES
# Each line: game turn code canonical vanishing winner legal-moves
import sys

from tactictoe import ai
from tactictoe import rules

rng = ai.Rng(int(sys.argv[1]))
for n in range(int(sys.argv[2])):
    g = n % 2
    pos = rules.Position(g)
    for _ in range(int(sys.argv[3])):
        moves = pos.legal_moves()
        w = pos.winner()
        print(g, pos.turn, pos.code(), pos.canonical(), pos.vanishing(),
              "-" if w is None else w, ",".join(str(c) for c in moves) or "-")
        if not moves:
            break
        pos.push(rng.choice(moves))
        if rng.bits16() % 5 == 0:  # now and then take a move back and replay it
            cell = pos.pop()
            pos.push(cell)
