"""One small driver per chip on the bought boards: each takes ready-made
bus and pin objects, and ``hw_machine`` / ``hw_circuitpython`` import only
the ones a board's config names (a Pico with loose parts imports none)."""
