# One complete AI move decision with the table on disk, as the board makes it.
# Usage: decide.py PATH MOVES LEVEL SEED   (MOVES like 1,4,0 or - for none;
# LEVEL easy, medium, perfect or fallback)
# Prints "move <cell>" and the heap high-water figures.
import gc
import sys

from tactictoe import ai
from tactictoe import rules
from tactictoe import table

gc.collect()
t = table.Table(sys.argv[1])
moves = [] if sys.argv[2] == "-" else [int(c) for c in sys.argv[2].split(",")]
pos = rules.Position(t.game)
for cell in moves:
    pos.push(cell)
if sys.argv[3] == "fallback":  # the perfect level without its table
    from tactictoe import fallback

    move = fallback.move(pos, ai.Rng(int(sys.argv[4])))
else:
    level = ("easy", "medium", "perfect").index(sys.argv[3])
    move = ai.choose_move(pos, level, t, ai.Rng(int(sys.argv[4])))
print("move", move)
gc.collect()
print("heap free", gc.mem_free(), "used", gc.mem_alloc())
t.close()
