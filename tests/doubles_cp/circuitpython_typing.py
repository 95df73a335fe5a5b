"""Stand-in for adafruit-circuitpython-typing, which adafruit_dotstar imports
inside a try for its annotations: CPython evaluates them (CircuitPython,
like MicroPython, never does), so without these names the module won't load."""

ReadableBuffer = WriteableBuffer = bytes
