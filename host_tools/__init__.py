"""Host-side tools, on CPython: the solver and table tools, flashing, the
virtual board (simulator), the emulated Pico, the web build and the
hardware pages. ``python -m host_tools --help`` lists the commands.

The rules, the encoding and the table reader are the firmware's own
modules, imported by name from the ``tactictoe`` package (firmware/tactictoe/,
installed into .venv by ``make``), so the board and the host can never
disagree.

Where to look:

- ``cli.py``: the commands (``__main__.py`` runs it), and ``makevars.py``,
  which names ``make``'s variables in their errors;
- ``solver.py``: the tables; ``verify.py``: proving a table file right;
- ``flash.py``: a board over its serial console (``make flash``), and the
  board configs and paths the other tools share;
- ``drive/``: what goes on a board's USB drive (``make uf2``, ``make
  circuitpy``) and the filesystem images behind it;
- ``sim/``: the virtual board (``make sim``) and the emulated Pico;
- ``web/``: the board in a browser (``make web``);
- ``hardware/``: each board's build docs (``make hardware``);
- ``screens.py``: the docs' pictures of the board's screens;
- ``outputs.py``, ``oserrors.py``: writing files whole, and OSErrors as
  one-line errors;
- ``cpython/``: the ``micropython`` module's stand-in for CPython.
"""
