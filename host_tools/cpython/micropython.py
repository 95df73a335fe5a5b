"""CPython's stand-in for MicroPython's ``micropython`` module: ``const``,
the one name the firmware imports from it, so each firmware module imports
it in one line (on a board, and in the MicroPython Unix port, the real
module is built in and this file is never read). pyproject.toml installs
it into .venv as the top-level module ``micropython``."""


def const(x):
    """The value itself: MicroPython folds it into the bytecode instead."""
    return x
