"""The console's narration: what the board shows, in plain words, for a
first-time player (the simulator and the web page show it as a caption).

Each line starts with ``"> "`` and is one sentence; a screen is told in a
few lines when it changes, never every frame. The console's other lines
(``tactictoe: X 4``, ``config: ...``, errors) are left as they are.
``loop.Runner`` makes a ``Narrator`` and calls ``update()`` after each
game step. This module only watches, allocating nothing while the screen
stays the same; the sentences are in ``narrate_text``.
"""

from micropython import const

from .frames import CORNERS

_MENU = const(2)  # app's states
_NOTICE = const(1)
_PLAY = const(3)
SCREEN = const(0)  # what narrate_text.say tells: the whole screen,
CHOICE = const(1)  # the menu's choice (the dial moved),
HINTS = const(2)  # hints shown or hidden (the hint key),
REFUSED = const(3)  # a refused press


class Narrator:
    """Narrates ``app`` (an ``app.App`` or a ``panel.PanelApp``) through
    its ``log``. ``update()`` allocates nothing while the screen is the same."""

    def __init__(self, app):
        self.app = app
        self.panel = hasattr(app, "picked")  # a panel.PanelApp
        self._key = -1  # what was narrated (``_state()``)
        self._sub = -1  # the menu's pick, or whether hints show
        self._refused = 0  # the refusal narrated (its end time)
        # What narrate_text keeps between calls: the match last narrated,
        # its plies and both players' marks then.
        self.match = None
        self.plies = 0
        self.masks = 0

    def update(self):
        """Narrate what changed since the last call."""
        a = self.app
        key = self._state()
        m = a.match
        if a.state == _MENU:
            sub = self.picked()
        elif m is not None and a.state == _PLAY:
            sub = a.hint_outcomes() is not None
        else:
            sub = 0
        if key != self._key:
            self._key, self._sub = key, sub
            self._tell(SCREEN)
        elif sub != self._sub:
            self._sub = sub
            self._tell(CHOICE if a.state == _MENU else HINTS)
        if a.refused >= 0 and a.refused_until != self._refused:
            self._refused = a.refused_until
            self._tell(REFUSED)

    def _tell(self, what):
        from . import narrate_text  # loaded at the first narration (the self-test's)

        narrate_text.say(self, what)

    def _state(self):
        # What the narration depends on, in one small int (no allocation).
        a = self.app
        m = a.match
        key = a.state | a.screen << 3 | a.game << 6 | a.mode << 7 | a.level << 9
        key |= (a.tables.get(0) is None) << 11 | (a.tables.get(1) is None) << 12
        if a.state == _NOTICE:
            key |= (a.notices[0][0] == CORNERS) << 13
        elif a.state >= _PLAY and m is not None:
            result = m.result
            key |= (3 if result is None else result + 1) << 13 | m.ai_turn() << 15 | (m.plies & 0x3FF) << 16
            key |= (a.blunder != 0) << 26 | (a.puzzle >= 0) << 27
        return key

    def picked(self):
        """The index in the menu's options of the one it pulses."""
        a = self.app
        if self.panel:
            return a.picked()
        s = a.screen
        current = a.game if s == 0 else a.mode if s == 1 else a.level if s == 2 else a.help if s == 3 else 0
        options = a.menu_options()
        for i in range(len(options)):
            if options[i][1] == current:
                return i
        return 0
