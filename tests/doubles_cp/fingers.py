"""The simulated fingers and buzzer for the CircuitPython doubles (keypad,
touchio, pwmio read and write here)."""

held = 0
tones = []
_input = None


def wire(inp, rises=False):
    global held, tones, _input
    held = 0
    tones = []
    _input = inp
