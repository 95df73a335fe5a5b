"""The simulated fingers and buzzer for the CircuitPython doubles (keypad,
touchio, pwmio read and write here)."""

held = 0
tones = []
position = 0  # the rotary encoder's, in detents
_input = None


def wire(inp, rises=False):
    global held, tones, _input, position
    held = position = 0
    tones = []
    _input = inp
