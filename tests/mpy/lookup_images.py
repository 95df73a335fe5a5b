# For every record, look up a symmetric image of its position through the
# reader (which canonicalises it) and print "xside oside turn value".
# Usage: lookup_images.py PATH SEED
import sys

from tactictoe import ai
from tactictoe import rules
from tactictoe import rules_extra
from tactictoe import table
from tactictoe import table_extra

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
