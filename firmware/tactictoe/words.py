"""The screen's words: what a ``panel.PanelApp`` shows on a board's text
screen, up to 5 lines of at most 16 characters (a 128x64 OLED in an 8x8
font). Loaded only on a board with a screen.

The lines say the menu's question and the option picked, whose move it is,
the game, who plays and the level, what the hints mean, the result and this
power-on's score, then, a page each, the review of each player's moves;
on a board with function keys the last line labels them, as soft keys
(column 0, 6 and 12: above the MacroPad's keys 0, 1, 2).
"""

from micropython import const

from . import ai
from . import review
from . import rules
from .app import MENU, NOTICE, OVER, PICK_GAME, PLAY
from .frames import CORNERS
from .match import DEMO, TWO, YOU_O, YOU_X
from .narrate_text import GAMES, LEVELS, OPTIONS, QUESTIONS
from .panel import HINT_KEY, MENU_KEY, SELECT_KEY, UNDO_KEY
from .score import LEVELS as LEVELS_COUNTED

WIDTH = const(16)  # characters a line holds
LINES = const(5)

_PICK_LEVEL = const(2)  # app's menu screens
_PICK_HINTS = const(3)
_PICK_SCORE = const(4)
_HELP_OFF = const(0)  # app's help settings
_HELP_TRAINER = const(1)
_BETTER_LINE = const(4)  # better moves a line: "Better: 0 2 3 5" is 15 characters
_PAGE_MS = const(2000)  # a screen with more than fits shows it a page at a time, this long each
_HELPS = ("", "With the trainer", "With hints")  # by app.HELP_OFF, HELP_TRAINER, HELP_HINTS


def count(n, exact=10000):
    """A count in few characters: as it is below ``exact``, else in
    thousands ("12k", rounded down) or millions ("3M")."""
    if n < exact:
        return "%d" % n
    if n < 1000000:
        return "%dk" % (n // 1000)
    return "%dM" % (n // 1000000)


def counts(prefix, labels, values):
    """``values`` (3 counts) after their one-letter ``labels``, as
    "You: W12 D3 L0", in at most WIDTH characters: as long as it doesn't
    fit, without ``prefix``, then with counts from 10000 in thousands
    ("12k"), then from 1000 ("1k"), then without spaces."""
    a, b, c = values
    line = "%s%s%d %s%d %s%d" % (prefix, labels[0], a, labels[1], b, labels[2], c)
    if len(line) > WIDTH:
        line = line[len(prefix):]
    for exact in (10000, 1000):
        if len(line) > WIDTH:
            line = "%s%s %s%s %s%s" % (labels[0], count(a, exact), labels[1], count(b, exact),
                                       labels[2], count(c, exact))
    if len(line) > WIDTH:
        line = line.replace(" ", "")
    return line


class Words:
    """The lines for ``app`` (a ``panel.PanelApp``): ``lines()`` returns
    the same tuple while nothing on it changed, and allocates nothing then."""

    def __init__(self, app):
        self.app = app
        self._key = -1  # what the lines were made from (``_state()``)
        self._lines = ()
        self._now = 0
        self._key2 = -1  # the game's other page (its help), made with it
        self._lines2 = ()
        # The labelled keys: the extra keys but the encoder's switch, 3 at most.
        self._soft = bytes(r for r in app.roles if r != SELECT_KEY)[:3]

    def lines(self, now=0):
        """The screen's lines at ``now`` (ms): a tuple of up to 5 str of at
        most 16 characters."""
        self._now = now
        key = self._state()
        if key != self._key:
            if key == self._key2:  # the other page, made with this one
                self._key, self._key2 = key, self._key
                self._lines, self._lines2 = self._lines2, self._lines
                return self._lines
            self._lines = self._make()
            self._key = key
            if self._paged():  # the game's other page too, so turning pages allocates nothing
                self._now = now + _PAGE_MS
                self._lines2, self._key2 = self._make(), self._state()
                self._now = now
        return self._lines

    def _paged(self):
        # True while the game's line turns between its name and its help.
        a = self.app
        return (a.state == PLAY and a.help != _HELP_OFF and a.mode != DEMO and not a.blunder and a.puzzle < 0
                and a.hint_outcomes() is None and not (a.help == _HELP_TRAINER and a.mode == TWO))

    def _state(self):
        # Everything the lines depend on, in one small int (no allocation).
        a = self.app
        m = a.match
        key = a.state | a.screen << 3 | a.game << 6 | a.mode << 7 | a.level << 9 | a.help << 11
        key |= (a.tables.get(0) is None) << 13 | (a.tables.get(1) is None) << 14
        if a.state == MENU:
            key |= a.picked() << 15 | (a.score.saves() & 0xFF) << 17  # (the score screen: a reset)
            if a.screen == _PICK_SCORE:
                key |= (self._now // _PAGE_MS % 11) << 25  # its pages (2 games x 4 levels and two players, the puzzles)
        elif a.state == NOTICE:
            key |= (a.notices[0][0] == CORNERS) << 15
        elif m is not None:
            result = m.result
            key |= (3 if result is None else result + 1) << 15 | m.pos.turn << 17 | m.ai_turn() << 18
            key |= (a.hint_outcomes() is not None) << 19 | a.hints_possible() << 20 | (a.undo_plies() > 0) << 21
            key |= (a.blunder != 0) << 22 | (a.puzzle >= 0) << 23 | a.solved << 24
            if self._paged():  # the game's line: its name, then its help
                key |= (self._now // _PAGE_MS & 1) << 25
            elif a.state == OVER:  # the result, then the review's pages
                key |= self._page() << 25
        return key

    def _page(self):
        # The end's page, _PAGE_MS each from the end: 0 the result, 1 and 2
        # each player's review (1 alone: why there is none); 0 for a puzzle
        # or the demo.
        a = self.app
        if a.puzzle >= 0 or a.mode == DEMO:
            return 0
        return (self._now - a.t0) // _PAGE_MS % (3 if a.review.on else 2)

    def _make(self):
        a = self.app
        state = a.state
        if state == MENU:
            out = self._menu()
        elif state == NOTICE:
            out = self._notice()
        elif state == PLAY:
            out = self._play()
        elif state == OVER:
            out = self._over()
        else:  # the self-test
            out = ["Tactic-toe", "", "Testing lights"]
        while len(out) < LINES - 1:
            out.append("")
        if self._soft:
            out.append(self._labels())
        return tuple(line[:WIDTH] for line in out)

    def _menu(self):
        a = self.app
        i = a.picked()
        value = a.menu_options()[i][1]
        name, meaning = OPTIONS[a.screen][int(value)]  # (by value: the puzzles may be left out)
        last = "Turn dial, press" if a.dial else "Tap a lit cell"
        if a.screen == _PICK_SCORE:  # the score, a game and level a page, then the puzzles
            return self._score_page() + ["> " + name]
        if a.screen == PICK_GAME:
            if value == 2 and not a.puzzles_ready():
                last = "None here"
            elif value < 2 and a.tables.get(value) is None:
                last = "No table: weaker"
        elif a.tables.get(a.game) is None:
            if a.screen == _PICK_LEVEL and value >= ai.PERFECT:
                last = "No table: weaker"
            elif a.screen == _PICK_HINTS and value:
                last = "No table: none"
        elif a.screen == _PICK_LEVEL and value == ai.MATCHED:  # its setting now
            from . import matched

            last = "Slips %d%% now" % matched.setting(a.score, a.game)
        return [QUESTIONS[a.screen], "> " + name, meaning, last]

    def _notice(self):
        a = self.app
        if a.notices[0][0] == CORNERS:
            return ["board.json bad:", "default wiring", "(details: USB", "serial console)"]
        return [GAMES[a.game] + " table", "missing or bad:", "weaker AI, no", "hints"]

    def _who(self):
        # Who plays, and the level: "You X vs Perfect", "Two players", "Demo: Easy".
        a = self.app
        if a.mode == TWO:
            return "Two players"
        if a.mode == DEMO:
            return "Demo: " + LEVELS[a.level]
        return "You %s vs %s" % ("X" if a.mode == YOU_X else "O", LEVELS[a.level])

    def _score(self):
        # The score kept on the board, for the game and level being played.
        a = self.app
        if a.mode == DEMO:
            return ""
        if a.mode == TWO:
            return counts("", "XOD", a.score.two(a.game))
        return counts("You: ", "WDL", a.score.games(a.game, a.level))

    def _score_page(self):
        # The score screen's first three lines: each game and level played
        # (a page each, _PAGE_MS long), then the puzzles solved.
        s = self.app.score
        pages = []
        for game in (0, 1):
            for level in range(LEVELS_COUNTED):
                wdl = s.games(game, level)
                if wdl[0] or wdl[1] or wdl[2]:
                    pages.append((game, level, wdl))
            two = s.two(game)
            if two[0] or two[1] or two[2]:
                pages.append((game, -1, two))
        page = self._now // _PAGE_MS % (len(pages) + 1)
        if page == len(pages):
            return ["Puzzles solved:", "%d of %d" % (s.solved_count(), self.app.puzzle_count()),
                    "" if pages else "No games yet"]
        game, level, values = pages[page]
        if level < 0:
            return [GAMES[game], "Two players", counts("", "XOD", values)]
        return [GAMES[game], "You vs " + LEVELS[level], counts("", "WDL", values)]

    def _play(self):
        a = self.app
        m = a.match
        if a.blunder:  # the trainer caught a move: "X on 2:", "O wins in 3", "Better: 4", "Undo: try again"
            cell, value, _ = a.caught
            mover = rules.PLAYERS[m.pos.turn ^ 1]
            if ai.outcome(value) < 0:
                what = "%s wins in %d" % (rules.PLAYERS[m.pos.turn], (value & 0x3F) // 2)
            else:
                what = "Only draws now"
            out = ["%s on %d:" % (mover, cell), what] + self._better()
            if len(out) < 4 or not self._soft:  # (else the soft keys' line says Undo)
                out.append("Undo: try again" if self._soft else "2x tap %d: undo" % cell)
            return out
        mover = rules.PLAYERS[m.pos.turn]
        if a.puzzle >= 0:
            return ["Puzzle %d/%d" % (a.puzzle + 1, len(a.puzzles)), "%s: win in %d" % (mover, (a.plies + 1) // 2),
                    "Board thinking" if m.ai_turn() else "Your move (%s)" % mover]
        if a.mode == TWO:
            turn = "%s to move" % mover
        elif a.mode == DEMO:
            turn = "%s thinking" % mover
        elif m.ai_turn():
            turn = "Board thinking"
        else:
            turn = "Your move (%s)" % mover
        if a.hint_outcomes() is not None:
            return [turn, "Fast: %s wins" % mover, "Slow: draw", "Faint: %s loses" % mover]
        return [self._game(), self._who(), turn, self._score()]

    def _game(self):
        # The game's line: its name, every other page its help ("With hints").
        a = self.app
        if self._paged() and self._now // _PAGE_MS & 1:
            return _HELPS[a.help]
        return GAMES[a.game]

    def _over(self):
        a = self.app
        m = a.match
        if a.puzzle >= 0:
            solved = "Solved %d/%d" % (a.score.solved_count(), len(a.puzzles))
            if a.solved:
                return ["Puzzle solved!", solved, "", "Tap: next one"]
            out = ["Puzzle failed"] + (self._better() if a.blunder else [""])
            if len(out) < 3 or not self._soft:  # (else the count gives way)
                out.append(solved)
            return out + ["Tap: try again"]
        if m.result < 0:
            result = "Draw (repeated)" if m.game == rules.TACTICTOE else "Draw"
        elif a.mode in (TWO, DEMO):
            result = "%s wins!" % rules.PLAYERS[m.result]
        elif m.result == (rules.X if a.mode == YOU_X else rules.O):
            result = "You win!"
        else:
            result = "Board wins"
        page = self._page()
        if page:
            return self._review(page)
        again = "Next game soon" if a.mode == DEMO else ("Press: again" if a.dial else "Tap: play again")
        return [result, self._who(), self._score(), again]

    def _review(self, page):
        # A player's review: "You (X): 83%", "Best 9 of 12", "Slower 2",
        # "Threw 1: 3" (the cells of the moves that threw a value away).
        a = self.app
        r = a.review
        if not r.on:
            return ["No review:", "it needs the", GAMES[a.match.game], "table"]
        player = (rules.O if a.mode == YOU_O else rules.X) ^ (page - 1)
        name = rules.PLAYERS[player]
        if a.mode != TWO:
            name = "%s (%s)" % ("You" if player == (rules.X if a.mode == YOU_X else rules.O) else "Board", name)
        thrown = r.count(player, review.THREW_WIN) + r.count(player, review.THREW_DRAW)
        last = "Threw %d:" % thrown if thrown else "None thrown away"
        notes = r.notes
        for ply in range(r.first, r.plies + 1):
            note = notes[ply % len(notes)]
            if note & 7 >= review.THREW_DRAW and note >> 7 == player and len(last) < WIDTH:
                last += " %d" % (note >> 3 & 0xF)
        return ["%s: %d%%" % (name, r.accuracy(player)), "Best %d of %d" % (r.count(player, review.BEST),
                                                                          r.count(player)),
                "Slower %d" % r.count(player, review.SLOWER), last]

    def _better(self):
        # The moves the trainer says were better, in one line ("Better: 4 6")
        # or, past four, two: "Better: 0 2 3 5" then "        6 8".
        out = ["Better:"]
        n = 0
        for c in range(9):
            if self.app.blunder >> c & 1:
                if n == _BETTER_LINE:
                    out.append("       ")
                out[-1] += " %d" % c
                n += 1
        return out

    def _labels(self):
        # The soft keys' line: a label over each key that does something now.
        a = self.app
        state = a.state
        out = ""
        soft = self._soft
        for j in range(len(soft)):
            role = soft[j]
            label = ""
            if role == MENU_KEY:
                if state == MENU:
                    label = "Menu" if a.screen > PICK_GAME else ""  # (back one screen)
                elif state >= PLAY:
                    label = "Menu"
            elif role == HINT_KEY:
                if a.hint_outcomes() is not None:
                    label = "Hide"
                elif a.hints_possible():
                    label = "Hint"
            elif role == UNDO_KEY and a.undo_plies():
                label = "Undo"
            if j == 0:
                out = "%-4s" % label
            elif j == 1:
                out += "  %-4s" % label
            else:
                out += "  %4s" % label
        return out.rstrip()
