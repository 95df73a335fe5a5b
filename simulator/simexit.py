"""The ROM's exit statuses: how the virtual board says which reset ended a
run. ``simbus`` raises them; ``host_tools.sim.board`` reads this very file,
so the two sides can't disagree."""

SOFT_FRIENDLY = 3  # soft reset (Ctrl-D, sys.exit()): boot.py, main.py, REPL
SOFT_RAW = 4  # soft reset from the raw REPL: boot.py, then the raw REPL
HARD = 5  # machine.reset(): power on again
OFF = 6  # the console closed, or the replay is over: power off
