# The perfect player's choice in every canonical position of a table.
# Usage: perfect_all.py PATH SEED   Prints "<record index> <cell>" per record.
import sys

from tactictoe.players import perfect as ai
from tactictoe.games import decode as rules_extra
from tactictoe.table import reader as table
from tactictoe.table import records as table_extra

t = table.Table(sys.argv[1])
rng = ai.Rng(int(sys.argv[2]))
for i in range(t.count):
    key, _ = table_extra.record(t, i)
    pos = rules_extra.from_code(t.game, key >> 1, key & 1)
    print(i, ai.choose_move(pos, ai.PERFECT, t, rng))
t.close()
