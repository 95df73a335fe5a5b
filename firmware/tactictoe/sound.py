"""Buzzer tunes, played a note at a time from the cooperative loop."""

# name -> ((frequency Hz, ms), ...); frequency 0 is a rest
TUNES = {
    "move": ((1319, 35),),
    "refused": ((196, 160),),
    "win": ((784, 100), (988, 100), (1319, 240)),
    "draw": ((523, 160), (0, 80), (523, 160)),
}


class Sequencer:
    """Plays TUNES through ``tone(freq)`` (0 = silent) without blocking.

    :param tone: the hardware's tone function, or None for a silent board."""

    def __init__(self, tone=None):
        self._tone = tone
        self._tune = TUNES["move"]
        self._i = len(self._tune)  # nothing playing
        self._until = 0

    def play(self, name, now):
        """Start a tune, cutting off the one playing."""
        self._tune = TUNES[name]
        self._i = -1
        self._until = now

    def update(self, now):
        """Move the tune on to time ``now``: call it often (the LED task does)."""
        if self._i >= len(self._tune) or now < self._until:
            return
        self._i += 1
        if self._i < len(self._tune):
            freq, ms = self._tune[self._i]
            self._until = now + ms
        else:
            freq = 0
        if self._tone is not None:
            self._tone(freq)
