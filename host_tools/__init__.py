"""Host-side tools: the solver, table inspection and (later) flashing.

The rules, the encoding and the table reader live in ``firmware/`` and run on
the board; the host imports those very modules so the two can never disagree.
"""

import os
import sys

FIRMWARE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, FIRMWARE_DIR)
