"""Stand-in for the name adafruit_display_text imports from ``fontio`` (in a
try, for its annotations, which CPython evaluates and CircuitPython never
does)."""


class FontProtocol:
    pass
