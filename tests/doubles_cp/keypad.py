"""Test double for CircuitPython's ``keypad``: Keys and KeyMatrix report
events for the cells fingers.held says are pressed."""

import fingers
from microcontroller import claim, release


class Event:
    def __init__(self, key_number=0, pressed=True):
        self.key_number = key_number
        self.pressed = pressed

    @property
    def released(self):
        return not self.pressed


class _Events:
    def __init__(self, count=9, shift=0):
        self._count = count
        self._shift = shift  # the first bit of fingers.held these keys read
        # Like the real keypad: a key already down when scanning starts
        # gives no event until it is released and pressed again.
        self._state = fingers.held >> shift
        self.overflowed = False  # (read-only on a board) the test sets it, with _state, to lose events

    def clear(self):
        self._state = fingers.held >> self._shift  # (the events waiting are gone)
        self.overflowed = False

    def get_into(self, event):
        held = fingers.held >> self._shift
        changed = held ^ self._state
        for k in range(self._count):
            if changed >> k & 1:
                event.key_number = k
                event.pressed = bool(held >> k & 1)
                self._state ^= 1 << k
                return True
        return False


class Keys:
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64):
        # Nine: the grid's cells, bits 0-8 of fingers.held, perhaps followed
        # by extra keys; fewer: extra keys beside a matrix or pads, bits 9 up.
        assert len(pins) <= 16 and value_when_pressed is False and pull
        for p in pins:
            claim(p)
        self.pins = list(pins)
        self.key_count = len(pins)
        self.events = _Events(len(pins), 0 if len(pins) >= 9 else 9)

    def reset(self):  # every key taken as released: those held are pressed again
        self.events._state = 0

    def deinit(self):
        for p in self.pins:
            release(p)


class KeyMatrix:
    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.02, max_events=64):
        assert len(row_pins) == 3 and len(column_pins) == 3
        self.pins = list(row_pins) + list(column_pins)
        for p in self.pins:
            claim(p)
        self.key_count = 9
        self.events = _Events()

    def reset(self):
        self.events._state = 0

    def deinit(self):
        for p in self.pins:
            release(p)
