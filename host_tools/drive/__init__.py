"""What goes on a board's USB drive, as files: no serial console needed
(for that, ``host_tools/flash.py``).

Where to look:

- ``uf2.py``: ``make uf2``, one UF2 that installs the runtime and the game
  on a Pico (drop it on RPI-RP2);
- ``circuitpy.py``: ``make circuitpy``, what a CircuitPython board's
  CIRCUITPY drive needs, as a folder or as a FAT image;
- ``fat.py``: the CIRCUITPY drive's FAT12 image, written and read;
- ``picofs.py``: MicroPython's littlefs filesystem on a Pico, written and
  read.

The emulated Pico (``host_tools/sim/pico.py``) boots from the same images.
"""

__all__ = ["circuitpy", "fat", "picofs", "uf2"]
