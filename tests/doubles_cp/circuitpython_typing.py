"""Stand-in for adafruit-circuitpython-typing, which adafruit_dotstar and
adafruit_is31fl3731 import inside a try for their annotations: CPython
evaluates them (CircuitPython, like MicroPython, never does), so without
these names the modules won't load."""

from typing import TypeAlias, Union  # noqa: F401  (re-exported, as the real module does)

ReadableBuffer = WriteableBuffer = bytes
