# The perfect player's choice in every canonical position of a table.
# Usage: perfect_all.py PATH SEED   Prints "<record index> <cell>" per record.
import sys

import ai
import rules
import table

t = table.Table(sys.argv[1])
rng = ai.Rng(int(sys.argv[2]))
for i in range(t.count):
    key, _ = t.record(i)
    pos = rules.Position.from_code(t.game, key >> 1, key & 1)
    print(i, ai.choose_move(pos, ai.PERFECT, t, rng))
t.close()
