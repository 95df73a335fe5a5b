"""Host-side tools: the solver, table inspection and (later) flashing.

The rules, the encoding and the table reader live in ``firmware/`` and run on
the board; the host imports those very modules so the two can never disagree.
"""

import os
import sys

FIRMWARE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
# CPython has no ``micropython`` module: the stand-in's folder comes after
# the firmware's (the firmware imports ``const`` from it).
CPYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cpython")
for _dir in (CPYTHON_DIR, FIRMWARE_DIR):
    if _dir not in sys.path:
        sys.path.insert(0, _dir)
