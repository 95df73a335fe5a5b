"""The game flow on boards with more than the grid: function keys (menu,
hint, take back), an encoder that picks menu options, a screen.

``PanelApp`` is ``app.App`` plus what those parts do; ``loop.build`` loads
this module only for a board whose config has them, so a 9-key board's RAM
holds none of it. The extra keys are key 9 + j for ``cfg["extra"][j]``,
and cells 9 + j of the canvas light them by role.
"""

from micropython import const

from .app import MENU, OVER, OVER_GUARD_MS, PICK_GAME, PICK_MODE, PICK_SCORE, PLAY, WALK_MS, WHITE, App
from .frames import Canvas, pulse
from .keys import CELL, LONG, PRESS, TAP, TURN, Keys
from .match import DEMO, TWO

# Roles of the extra keys (cfg["extra"][j]["role"]), in this order.
ROLES = ("menu", "hint", "undo", "select")
MENU_KEY = const(0)  # back to the menu; in the menu, back one screen
HINT_KEY = const(1)  # show the hints for this move; again, hide them
UNDO_KEY = const(2)  # take back your last move and the board's reply
SELECT_KEY = const(3)  # the encoder's switch: choose the option it picked

_SELFTEST = const(0)  # app's states and menu screens
_PICK_LEVEL = const(2)

class PanelKeys(Keys):
    """``keys.Keys`` for up to 16 keys (the grid's 9, then the extra keys;
    ``n`` is 16 unless given) and an encoder."""

    def __init__(self, debounce_ms=25, long_ms=1500, size=16, n=16):
        Keys.__init__(self, debounce_ms, long_ms, size, n)

    def turn(self, detents):
        """Queue ``detents`` encoder steps (positive: clockwise) as events
        ``TURN | 1`` (clockwise) and ``TURN | 0``."""
        while detents > 0:
            self._put(TURN | 1)
            detents -= 1
        while detents < 0:
            self._put(TURN)
            detents += 1

    def ignore_taps(self):
        """``Keys.ignore_taps`` for the grid only: the extra keys (menu,
        take back...) still work while the board thinks."""
        self._mute |= (self._stable | self._raw) & 0x1FF
        q = self._queue
        for i in range(len(q) - 1, -1, -1):
            if q[i] & (TAP | PRESS) and q[i] & CELL < 9:
                q.pop(i)


class PanelApp(App):
    """``app.App`` for a board with extra keys (``cfg["extra"]``), an
    encoder (``cfg["encoder"]``) or a screen (``cfg["screen"]``): the same
    arguments; events ``TAP | 9 + j`` and ``LONG | 9 + j`` for extra key j,
    ``TURN | 1`` and ``TURN | 0`` for the encoder; ``text(now)`` for the
    screen."""

    def __init__(self, cfg, tables, problems=None, rng=None, log=print, score=None, puzzles=None):
        App.__init__(self, cfg, tables, problems, rng, log, score, puzzles)
        extra = cfg.get("extra") or []
        # role of each extra key (255: a role this firmware doesn't know: dark, does nothing)
        self.roles = bytes(ROLES.index(e["role"]) if e.get("role") in ROLES else 255 for e in extra)
        self.dial = cfg.get("encoder") is not None
        self.canvas = Canvas(9 + len(extra))
        self.pick = -1  # the option the encoder picked (its index), -1: the current setting
        self.flip = False  # the hint key was pressed this move: the menu's hints setting turned over
        self._words = None

    # --- events --------------------------------------------------------------

    def update(self, now, event=0):
        """``App.update``, with the extra keys' and the encoder's events."""
        self.settle()  # (before an Undo key takes back a move the review owes)
        key = event & CELL
        if event & TURN:
            if self.state == MENU:
                self._turn(1 if event & 1 else -1)
            event = 0
        elif event and key >= 9:
            if self.state >= MENU and not event & PRESS:  # not in the self-test or a notice; on the tap
                self._extra_key(now, event, self.roles[key - 9], key)
            event = 0
        App.update(self, now, event)

    def _extra_key(self, now, event, role, key):
        if event & LONG:  # held: only the menu key does something (at once)
            if role == MENU_KEY:
                self.to_menu(now)
            return
        state = self.state
        if role == MENU_KEY:
            if state != MENU:
                self.to_menu(now)
            elif self.screen > PICK_GAME:
                screen = self.screen - 1 if self.screen != PICK_SCORE else PICK_GAME
                if screen == _PICK_LEVEL and self.mode == TWO:
                    screen -= 1
                self.screen, self.t0, self.pick = screen, now, -1
                self.sounds.append("move")
        elif role == HINT_KEY:
            if self.hints_possible():
                self.flip = not self.flip
            else:
                self._refuse(now, key)
        elif role == UNDO_KEY:
            plies = self.undo_plies()
            if plies:
                self._take_back(now, plies)
            else:
                self._refuse(now, key)
        elif role == SELECT_KEY:
            if state == MENU:
                self._menu_tap(now, self.menu_options()[self.picked()][0])
            elif state == OVER and self.mode != DEMO and now - self.t0 >= OVER_GUARD_MS:
                self._show_notices(now, PLAY)

    def picked(self):
        """The index in ``menu_options()`` of the option the encoder
        picked, or of the current setting if it picked none."""
        if self.pick >= 0:
            return self.pick
        options = self.menu_options()
        current = self._current()
        for i in range(len(options)):
            if options[i][1] == current:
                return i
        return 0

    def _turn(self, step):
        self.pick = (self.picked() + step) % len(self.menu_options())

    def _setting(self):
        # What the menu pulses: the option the encoder picked, else the setting.
        if self.pick >= 0:
            return self.menu_options()[self.pick][1]
        return self._current()

    def _current(self):
        # The current screen's setting (as App._setting, without its tuple:
        # a frame of the menu and its lines allocate nothing).
        s = self.screen
        if s == PICK_GAME:
            return self.game
        if s == PICK_MODE:
            return self.mode
        if s == PICK_SCORE:
            return 0  # keep it
        return self.level if s == _PICK_LEVEL else self.help

    def _menu_tap(self, now, cell):
        screen = self.screen
        App._menu_tap(self, now, cell)
        if self.screen != screen or self.state != MENU:
            self.pick = -1

    def to_menu(self, now):
        App.to_menu(self, now)
        self.pick = -1
        self.flip = False

    # --- play ----------------------------------------------------------------

    def _move(self, now, cell):
        self.flip = False
        App._move(self, now, cell)

    def _new_match(self, now):
        App._new_match(self, now)
        self.flip = False

    def _take_back(self, now, plies):
        App._take_back(self, now, plies)
        self.flip = False

    def hints_possible(self):
        """True when the hint key can show hints: your move, with a table."""
        m = self.match
        return (self.state == PLAY and m.result is None and not m.ai_turn()
                and self.tables.get(self.game) is not None)

    def hints_shown(self):
        """The menu's hints setting, turned over if the hint key was pressed this move."""
        return self.hints != self.flip

    def hint_outcomes(self):
        # App's, for hints_shown() rather than the menu's setting.
        setting = self.hints
        self.hints = self.hints_shown()
        try:
            return App.hint_outcomes(self)
        finally:
            self.hints = setting

    # --- drawing -------------------------------------------------------------

    def frame(self, now):
        """``App.frame``, with the extra keys lit by role."""
        cv = App.frame(self, now)
        b = cv.buf
        roles = self.roles
        state = self.state
        c = self.colours
        for j in range(len(roles)):
            cell = 9 + j
            role = roles[j]
            if state == _SELFTEST:
                if now - self.t0 >= 9 * WALK_MS:  # red, green, blue with the grid
                    i = 3 * cell
                    b[i], b[i + 1], b[i + 2] = b[0], b[1], b[2]
            elif state < MENU:  # a notice
                pass
            elif role == MENU_KEY:
                cv.set(cell, WHITE, 40)
            elif role == HINT_KEY:
                if self.hint_outcomes() is not None:
                    cv.set(cell, c["win"], pulse(now, 800, 96))
                elif self.hints_possible():
                    cv.set(cell, c["win"], 48)
            elif role == UNDO_KEY:
                if self.undo_plies():
                    cv.set(cell, c["menu"], 110)
            elif role == SELECT_KEY:
                if state == MENU:
                    cv.set(cell, WHITE, 40)
        if self.refused >= 9 and now < self.refused_until:
            cv.set(self.refused, c["error"])  # as App.frame: solid red over what the key shows
        return cv

    def text(self, now):
        """The screen's lines for ``now`` (``words.Words``): a tuple of up
        to 5 str of at most 16 characters, the same object while they
        don't change."""
        if self._words is None:
            from .words import Words  # only a board with a screen loads it

            self._words = Words(self)
        return self._words.lines(now)
