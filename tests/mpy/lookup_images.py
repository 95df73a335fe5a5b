# For every record, look up a symmetric image of its position through the
# reader (which canonicalises it) and print "xside oside turn value".
# Usage: lookup_images.py PATH SEED
import sys

from tactictoe.players import perfect as ai
from tactictoe.games import rules
from tactictoe.games import decode as rules_extra
from tactictoe.table import reader as table
from tactictoe.table import records as table_extra

t = table.Table(sys.argv[1])
rng = ai.Rng(int(sys.argv[2]))
g = t.game
for i in range(t.count):
    key, value = table_extra.record(t, i)
    pos = rules_extra.from_code(g, key >> 1, key & 1)
    sym = rules_extra.SYMMETRIES[rng.bits16() % 8]
    img = rules.Position(g, rules_extra.side_transform(g, pos.sides[0], sym),
                         rules_extra.side_transform(g, pos.sides[1], sym), pos.turn)
    got = t.value(img)
    if got != value:
        print("MISMATCH record %d: stored %d, image looked up as %d" % (i, value, got))
    print(img.sides[0], img.sides[1], img.turn, got)
t.close()
