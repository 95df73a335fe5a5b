"""Host-side tools, on CPython: the solver and table tools, flashing, the
virtual board (simulator), the emulated Pico, the web build and the
hardware pages. ``python -m host_tools --help`` lists the commands.

The rules, the encoding and the table reader are the firmware's own
modules, imported by name from the ``tactictoe`` package (firmware/tactictoe/,
installed into .venv by ``make``), so the board and the host can never
disagree.
"""
