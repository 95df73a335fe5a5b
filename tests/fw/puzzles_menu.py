# Power on with the puzzles file the flash holds (good, bad or none), then
# tap key 1 (the puzzles' key) on the game menu twice (issue 32).
#
#   puzzles_menu.py FLASH_FOLDER
#
# Prints the firmware's modules loaded after power-on, each console line
# ("line ..."), the game menu's option cells, which
# tables are open, and after each tap of key 1 the state, the screen, the
# refused cell and the puzzle being played.
import sys

import sim
from tactictoe import app, rules

b = sim.Board(sys.argv[1])
b.run(app.SELFTEST_MS + 20)
while b.app.state == app.NOTICE:
    b.run(100)
a = b.app
print("modules", " ".join(sorted(m[10:] for m in sys.modules if m.startswith("tactictoe."))))
print("options", " ".join(str(o[0]) for o in a.menu_options()))
for _ in range(2):
    b.press(1)
    print("tap1", a.state, a.screen, a.refused, a.puzzle)
    b.run(1000)
print("tables", " ".join(rules.GAMES[g] for g in (rules.CLASSIC, rules.TACTICTOE) if a.tables.get(g) is not None))
for line in b.lines:
    print("line", line)
