# check.tables() as a maker runs it at the board's REPL, in FOLDER.
# Usage: check_tables.py FOLDER     Prints check's lines, then "ok True|False".
import sys

from tactictoe import check

print("ok", check.tables(sys.argv[1]))
