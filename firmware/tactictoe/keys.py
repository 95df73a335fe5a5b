"""Debouncing the keys into events.

The hardware layer reports which keys are held as a mask: bits 0-8 the
grid's cells, bit 9 + j the board's extra key j (up to 16 keys). ``Keys``
turns the stream of masks into events, each an int ``kind | key``:

* ``PRESS | key``: a key went down: sent at the first key scan that sees
  it, once a second reading (``loop.Runner.scan`` takes it at once, the
  confirm read) agrees, so a move is lit as the key goes down. A reading
  the next one does not repeat (a glitch, noise) is no press. After it the
  key is locked out until it has been let go for the debounce time: its
  bounces, either way, send nothing more (a press sends one ``PRESS``,
  however it bounces);
* ``TAP | key``: a press released before the long-press time (debounced);
* ``LONG | key``: a press held for the long-press time (sent while still
  held; its release sends nothing);
* ``TURN | 1``, ``TURN | 0``: the encoder turned one detent clockwise,
  anticlockwise (``panel.PanelKeys.turn()``, on boards with an encoder).

Events wait in a queue until taken, so a press is never lost while the game is
busy (the queue keeps the newest ``size`` events).
"""

from micropython import const


TAP = const(0x10)
LONG = const(0x20)
TURN = const(0x40)
PRESS = const(0x80)
CELL = const(0x0F)  # event & CELL is the key (the cell, for 0-8)


class Keys:
    """:param debounce_ms: how long a reading must hold still to count.
    :param long_ms: how long a press must last to be a long press.
    :param size: how many events the queue keeps.
    :param n: how many keys: 9, the grid, plus the extra keys."""

    def __init__(self, debounce_ms=25, long_ms=1500, size=16, n=9):
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self._size = size
        self._queue = []
        self._raw = 0  # last reading
        self._since = 0  # when the reading last changed
        self._stable = 0  # debounced state
        self._down = [0] * n  # when each debounced press began
        self._long = 0  # cells whose long press was sent
        self._mute = 0  # cells whose release must not tap
        self._pressed = 0  # keys whose PRESS was sent, until let go

    def _put(self, event):
        if len(self._queue) >= self._size:
            self._queue.pop(0)
        self._queue.append(event)

    def update(self, now, raw):
        """Feed one reading taken at ``now`` (ms, never decreasing). True
        if a key is newly down in it: take the confirm read now (another
        ``update`` with a fresh reading), and the press is sent at once
        if that agrees."""
        if raw != self._raw:
            self._raw = raw
            self._since = now
            self._hold(now)
            return bool(raw & ~(self._stable | self._pressed))
        # Two readings in a row agree: a key newly down in both is a press.
        down = raw & ~(self._stable | self._pressed)
        if down:
            self._pressed |= down
            for c in range(len(self._down)):
                if down >> c & 1:
                    self._put(PRESS | c)
        if raw != self._stable and now - self._since >= self.debounce_ms:
            changed = raw ^ self._stable
            for c in range(len(self._down)):
                if changed >> c & 1:
                    if raw >> c & 1:
                        self._down[c] = now
                    else:
                        if not (self._long | self._mute) >> c & 1:
                            self._put(TAP | c)
                        self._long &= ~(1 << c)
                        self._mute &= ~(1 << c)
            self._stable = raw
        if now - self._since >= self.debounce_ms:  # let go for good (not a bounce): the lockout ends
            self._pressed &= self._stable | raw
        self._hold(now)
        return False

    def _hold(self, now):
        self._mute &= self._stable | self._raw  # a glitch that came to nothing
        waiting = self._stable & ~self._long
        if waiting:
            for c in range(len(self._down)):
                if waiting >> c & 1 and now - self._down[c] >= self.long_ms:
                    self._long |= 1 << c
                    self._put(LONG | c)

    def held(self):
        """The debounced mask of keys held now."""
        return self._stable

    def get(self):
        """The oldest waiting event, or 0 if there is none."""
        return self._queue.pop(0) if self._queue else 0

    def clear(self):
        """Drop waiting events (a press that is still held stays held)."""
        self._queue = []

    def ignore_taps(self):
        """Drop waiting taps and presses, and let no key held now tap when
        released. Long presses still count. For the board's turn: a press
        made while it thinks must not become a move afterwards."""
        self._mute |= self._stable | self._raw
        q = self._queue
        for i in range(len(q) - 1, -1, -1):
            if q[i] & (TAP | PRESS):
                q.pop(i)
