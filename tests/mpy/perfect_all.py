# The perfect player's choice in every canonical position of a table.
# Usage: perfect_all.py PATH SEED   Prints "<record index> <cell>" per record.
import sys

from tactictoe import ai
from tactictoe import rules_extra
from tactictoe import table
from tactictoe import table_extra

t = table.Table(sys.argv[1])
rng = ai.Rng(int(sys.argv[2]))
for i in range(t.count):
    key, _ = table_extra.record(t, i)
    pos = rules_extra.from_code(t.game, key >> 1, key & 1)
    print(i, ai.choose_move(pos, ai.PERFECT, t, rng))
t.close()
