# Read puzzles files with the firmware's reader and print what it finds:
# for each PATH, "OK <count> <classic span> <tactictoe span>" and a line a
# puzzle ("<game> <position24 hex> <turn> <plies> <wins> <losses>
# <canonical hex>"), or "ERR <ExceptionClass>: <message>"; then what
# load() says of a folder with no puzzles. Usage: read_puzzles.py PATH...
import sys

from tactictoe import puzzles

for path in sys.argv[1:]:
    try:
        p = puzzles.Puzzles(path)
    except puzzles.PuzzleError as e:
        print("ERR %s: %s" % (type(e).__name__, e))
        continue
    print("OK %d %d-%d %d-%d" % ((len(p),) + p.span(0) + p.span(1)))
    for i in range(len(p)):
        pos, plies = p.get(i)
        print("%d %06x %d %d %d %d %06x" % ((pos.game, pos.code(), pos.turn, plies) + p.grade(i) + (pos.canonical(),)))
print(puzzles.load("no-such-folder"))
