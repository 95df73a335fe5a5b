# Open a table and report the outcome on one line: "OK <game> <count>" or
# "ERR <ExceptionClass>: <message>". Usage: open_table.py PATH [GAME]
import sys

from tactictoe import table

game = int(sys.argv[2]) if len(sys.argv) > 2 else None
try:
    t = table.Table(sys.argv[1], game)
except table.TableError as e:
    print("ERR %s: %s" % (type(e).__name__, e))
else:
    print("OK %d %d" % (t.game, t.count))
    t.close()
