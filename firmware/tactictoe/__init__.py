"""The game board's firmware: one package, a sub-package a room
(docs/architecture.md). ``main`` powers the board on; ``check`` is a
maker's bring-up at the REPL.

``unload`` is here, in the module every other one already has loaded, so
any room can let a module's RAM go without importing another room.
"""

import sys


def unload(name):
    """Forget this package's module ``name`` (dotted below the package, as
    ``"table.walk"``) so its RAM can go: its parent package holds it as an
    attribute too, not only ``sys.modules``."""
    full = __name__ + "." + name
    sys.modules.pop(full, None)
    parent, _, leaf = full.rpartition(".")
    try:
        delattr(sys.modules[parent], leaf)
    except (KeyError, AttributeError):
        pass
