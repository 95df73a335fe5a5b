"""The game flow: power-on self-test, the menu, play and results, the
trainer and take-backs.

A state machine driven by ``update(now, event)`` (time in ms, one key event
or 0) and drawn by ``frame(now)``. No hardware and no asyncio in here, so the
flow is the same on every board, in the simulator and in tests; ``main``
runs it in a cooperative loop.
"""

from micropython import const


import gc

from . import ai
from . import review as review_mod
from . import rules
from . import score as score_mod
from . import table as table_mod
from .frames import ALL, CORNERS, CROSS, FULL, Canvas, blink, pulse
from .keys import CELL, LONG, PRESS, TAP
from .match import DEMO, TWO, YOU_O, YOU_X, Match, ring

# States
_SELFTEST = const(0)
NOTICE = const(1)
MENU = const(2)
PLAY = const(3)
OVER = const(4)

# Menu screens, in the order they are shown
PICK_GAME = const(0)
PICK_MODE = const(1)
_PICK_LEVEL = const(2)
PICK_SCORE = const(4)  # from the first screen's score key: keep it, or reset it
_PICK_HINTS = const(3)  # the help while playing: none, the trainer, hints

# The first screen's choices besides the two games (rules.CLASSIC, rules.TACTICTOE)
PUZZLES = const(2)
SCORE = const(3)

# The help setting (the menu's last screen)
HELP_OFF = const(0)
HELP_TRAINER = const(1)  # a move that throws away a win or a draw is shown at once
HELP_HINTS = const(2)  # every move's outcome glows before you play

WALK_MS = const(60)  # self-test: each pixel in turn...
RGB_MS = const(150)  # ...then all red, green, blue (a second in all: boot to the menu
SELFTEST_MS = const(9 * 60 + 3 * 150)  # within 2 s on MicroPython, 3 s on CircuitPython)
_STEPS = const(12)  # its steps: 9 pixels, then red, green, blue
_SELFTEST_CAP_MS = const(10000)  # however slow its frames (a long frame_ms), the menu by then
_NOTICE_MS = const(2000)
REFUSE_MS = const(450)  # a refused press: its key solid red this long
_WIN_HINT_MS = const(500)  # hints: a winning move pulses 64-256 this fast...
_DRAW_HINT_MS = const(2000)  # ...a drawing one breathes this slowly...
_DRAW_HINT_LOW = const(32)  # ...between these levels (a losing one: 22, steady)
_DRAW_HINT_HIGH = const(128)
OVER_GUARD_MS = const(800)  # a tap this soon after the end (which came as the key went down) does not skip it
_DEMO_PAUSE_MS = const(2500)
REVIEW_AT_MS = const(2400)  # the end: after the result's own animation, the review's moves flash...
REVIEW_MOVE_MS = const(1200)  # ...each this long, in turn (3 flashes), then the result this long again
UNDO_TAP_MS = const(2000)  # the second tap of a double tap on the newest mark comes within this
# (a player who stops to look at what the first tap showed still makes it)


WHITE = (255, 255, 255)
_RGB = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
_GREY = (70, 70, 70)


def _tint(colour):
    # ``colour`` lightened 3/8 of the way to white.
    return (colour[0] + ((255 - colour[0]) * 3 >> 3), colour[1] + ((255 - colour[1]) * 3 >> 3),
            colour[2] + ((255 - colour[2]) * 3 >> 3))


class App:
    """:param cfg: a config from ``config.load()``.
    :param tables: ``{game: table.Table or None}`` for both games.
    :param problems: ``{game: message}`` for tables that could not be used.
    :param rng: an ``ai.Rng``; seed it for repeatable play.
    :param log: where console messages go.
    :param score: a ``score.Score``, loaded (else one in RAM only).
    :param puzzles: a ``puzzles.Puzzles``, or None if there are none."""

    def __init__(self, cfg, tables, problems=None, rng=None, log=print, score=None, puzzles=None):
        self.colours = cfg["colours"]
        self.timing = cfg["timing"]
        self.tables = tables
        self.problems = problems or {}
        self.rng = rng or ai.Rng()
        self.log = log
        self.canvas = Canvas()
        self.sounds = []  # names of sounds for the buzzer, taken by main
        self.game = rules.TACTICTOE
        self.mode = YOU_X
        self.level = ai.PERFECT
        self.help = HELP_OFF
        self.hints = False  # every move's outcome glows (HELP_HINTS)
        self.trainer = False  # a blunder is shown at once, and can be taken back (HELP_TRAINER)
        self.blunder = 0  # the trainer caught one: the mask of the moves that kept the better outcome
        self.caught = None  # ...and (the move, its value, the best value); None with blunder 0
        self._armed = -1  # a mark tapped once: a second tap within UNDO_TAP_MS takes back
        self._armed_until = 0
        # The hints' colours: each mark's lightened towards white, so that a
        # hint (or the trainer's better moves) at any point of its pulse never
        # has a mark's colour, in a still picture too.
        self._tints = (_tint(self.colours["x"]), _tint(self.colours["o"]))  # by rules.X, rules.O
        self._held = -1  # a cell that can't be played, pressed: refused when let go (a tap), not if held
        self.state = _SELFTEST
        self.t0 = 0  # when the current state began
        self._lit = -1  # the self-test's step last drawn (see _selftest)
        self._began = 0  # ...and when it began
        self.screen = PICK_GAME
        self.match = None
        self.notices = []  # (mask, colour) patterns still to show
        self._after_notice = MENU
        self.refused = -1
        self.refused_until = 0
        self.ai_at = 0
        self.think_ms = self.timing["think_ms"]
        self._hint_key = -1  # the hints' position (code << 1 | turn)...
        self._hint_draws = 0  # ...and its repetition draws (match.Match.draws)
        self._hint = bytearray(9)  # outcome+1 per cell: 0 loss, 1 draw, 2 win
        self._options = None
        self._options_of = -1
        self._ring = ring()
        self.review = None  # the game's judged moves, beside the ring (made at the first game)
        self._picked_best = False  # the board's move came from best_moves (best by construction)
        self._flash = -1  # the review's move flashing now (its slot: see _draw_review)...
        self._flash_note = 0  # ...and its note
        self.score = score if score is not None else score_mod.Score(None, log)
        self.unsaved = False  # the score changed in RAM: save() writes it, after the frame that shows it
        self.score.puzzles = len(puzzles) if puzzles is not None else 0  # (the solved it counts)
        self.puzzles = puzzles
        self.puzzle = -1  # the puzzle being played (its index), or -1
        self.plies = 0  # ...the plies it is won in
        self.solved = False  # ...and, once it is over, how it went
        self._before = (0, 0)  # the game and mode the menu had before the puzzles

    # --- flow ----------------------------------------------------------------

    def start(self, now, config_problem=None):
        """Begin with the self-test; report a config problem and unusable
        tables on the console (and the grid, for the config)."""
        self.state, self.t0, self._lit, self._began = _SELFTEST, now, -1, now
        if config_problem:
            self.log("config: " + config_problem)
            self.notices.append((CORNERS, self.colours["notice"]))
        for game in (rules.CLASSIC, rules.TACTICTOE):
            if self.tables.get(game) is None:
                self._no_table(game)

    def _no_table(self, game):
        self.log("%s: %s; its perfect level plays a minimax search instead, and hints are off"
                 % (rules.GAMES[game], self.problems.get(game, "no table")))

    def table_wrong(self, game, problem):
        """The background check (``tablecheck.Walk``) found ``game``'s
        table wrong: from now on the game is as if power-on had refused it
        (the console line, the menu's red cell, the red X before its next
        game, the fallback AI, no hints). A game of it in progress plays on,
        the board's moves from the fallback from its next one, and the red X
        shows before the game after it."""
        t = self.tables.get(game)
        if t is None:
            return
        self.tables[game] = None
        t.close()
        self.problems[game] = problem
        if self.state != MENU:  # the next menu is built again: its puzzles may have gone with the table
            self._options_of = -1  # (a menu on show keeps its options, so a dial's pick stays one; cell 1 is refused)
        self._no_table(game)
        if game == self.game and (self.state in (PLAY, OVER) or self.state == NOTICE and self._after_notice == PLAY):
            self.notices.append((CROSS, self.colours["error"]))

    def to_menu(self, now):
        """Back to the game menu at time ``now``: the match and any notices are dropped."""
        self.state, self.t0 = MENU, now
        self.screen = PICK_GAME
        self._options_of = -1  # (built again: a table found wrong since may have taken its puzzles)
        self.match = None
        self.notices = []
        self.refused = -1
        self.blunder, self.caught = 0, None
        self._armed = -1
        self._held = -1
        if self.puzzle >= 0:  # the menu's own game and mode again
            self.puzzle = -1
            self.game, self.mode = self._before

    def save(self):
        """Write the score to flash if it changed: called once the frame
        showing what changed it is out, so a flash write (milliseconds, more
        when the flash erases) never holds a move's light back; a person's
        move the review owes is judged first (``settle``)."""
        self.settle()
        if self.unsaved:
            self.unsaved = False
            self.score.save()

    def busy(self):
        """True while the board is making its move (not while it waits
        after the trainer caught a blunder)."""
        return self.state == PLAY and self.match.ai_turn() and not self.blunder

    def update(self, now, event=0):
        """Advance to ``now`` and handle ``event`` (a keys event, or 0)."""
        self.settle()  # (a driver that never calls save(): the review stays whole)
        t = now - self.t0
        if self.state == _SELFTEST:
            # Once blue has been drawn (every step is: late frames make it
            # longer), or _SELFTEST_CAP_MS after it began, if drawn at all.
            if self._lit == _STEPS - 1 and t >= SELFTEST_MS or self._lit >= 0 and now - self._began >= _SELFTEST_CAP_MS:
                self._show_notices(now, MENU)
            return
        if self.state == NOTICE:
            if t >= _NOTICE_MS:
                self.notices.pop(0)
                self._show_notices(now, self._after_notice)
            return
        if event & LONG:
            self.to_menu(now)
            return
        if self.state == MENU:
            if event & TAP:
                self._menu_tap(now, event & CELL)
        elif self.state == PLAY:
            self._play(now, event)
        elif self.state == OVER:
            if self.mode == DEMO:
                if t >= _DEMO_PAUSE_MS:
                    self.think_ms = max(60, self.think_ms * 3 // 4)  # WarGames: faster and faster
                    self._show_notices(now, PLAY)  # (the red X, if its table was found wrong meanwhile)
            elif event & TAP and t >= OVER_GUARD_MS:
                self._show_notices(now, PLAY)

    def _show_notices(self, now, then):
        self.t0 = now
        if self.notices:
            self.state, self._after_notice = NOTICE, then
        elif then == PLAY:
            self._new_match(now)
        else:
            self.state = then

    # --- menu ----------------------------------------------------------------

    def menu_options(self):
        """``[(cell, value, colour, level), ...]`` of the current screen."""
        if self._options_of != self.screen:  # built once per screen, not per frame
            self._options = self._build_options()
            self._options_of = self.screen
        return self._options

    def _build_options(self):
        c = self.colours
        if self.screen == PICK_GAME:  # (the puzzles only when they can be played)
            puzzles = [(1, PUZZLES, c["draw"], FULL)] if self.puzzles_ready() else []
            return [(3, rules.CLASSIC, c["x"], FULL), (5, rules.TACTICTOE, c["o"], FULL)] + puzzles + [
                (7, SCORE, WHITE, 96)]
        if self.screen == PICK_SCORE:
            return [(3, 0, _GREY, FULL), (5, 1, c["error"], FULL)]
        if self.screen == PICK_MODE:
            return [(0, YOU_X, c["x"], FULL), (2, YOU_O, c["o"], FULL),
                    (6, TWO, c["menu"], FULL), (8, DEMO, WHITE, 160)]
        if self.screen == _PICK_LEVEL:
            return [(6, ai.EASY, c["menu"], 64), (7, ai.MEDIUM, c["menu"], 140), (8, ai.PERFECT, c["menu"], FULL),
                    (4, ai.MATCHED, c["draw"], FULL)]
        return [(3, HELP_OFF, _GREY, FULL), (4, HELP_TRAINER, c["menu"], FULL), (5, HELP_HINTS, c["win"], FULL)]

    def _setting(self):
        return (self.game, self.mode, self.level, self.help, 0)[self.screen]

    def _menu_tap(self, now, cell):
        for opt_cell, value, _, _ in self.menu_options():
            if opt_cell == cell:
                break
        else:
            self._refuse(now, cell)
            return
        if self.screen == PICK_GAME and value == SCORE:
            self.screen, self.t0 = PICK_SCORE, now
            self.sounds.append("move")
            return
        if self.screen == PICK_SCORE:
            if value:
                self.score.reset()
                self.unsaved = True
                self.log("> The score is reset: every count is back to 0.")
            self.screen, self.t0 = PICK_GAME, now
            self.sounds.append("move")
            return
        if self.screen == PICK_GAME and value == PUZZLES:
            if not self.puzzles_ready():
                self._refuse(now, cell)
                return
            self._before = (self.game, self.mode)
            self.puzzle = 0
            self.think_ms = self.timing["think_ms"]
            self.sounds.append("move")
            self._show_notices(now, PLAY)
            return
        if self.screen == PICK_GAME:
            self.game = value
        elif self.screen == PICK_MODE:
            self.mode = value
        elif self.screen == _PICK_LEVEL:
            self.level = value
        else:
            self.help = value
            self.hints = value == HELP_HINTS
            self.trainer = value == HELP_TRAINER
        self.sounds.append("move")
        nxt = self.screen + 1
        if nxt == _PICK_LEVEL and self.mode == TWO:
            nxt += 1
        if nxt == _PICK_HINTS and self.mode == DEMO:
            nxt += 1
        if nxt <= _PICK_HINTS:
            self.screen, self.t0 = nxt, now
            return
        self.think_ms = self.timing["think_ms"]
        if self.tables.get(self.game) is None:
            self.notices.append((CROSS, self.colours["error"]))
            self.log("%s: %s; playing with the fallback AI, hints off"
                     % (rules.GAMES[self.game], self.problems.get(self.game, "no table")))
        self._show_notices(now, PLAY)

    # --- play ----------------------------------------------------------------

    def _new_match(self, now):
        self.state, self.t0 = PLAY, now
        self.match = None
        if hasattr(gc, "mem_free"):  # a board's small heap (not CPython's)
            gc.collect()  # a quiet moment: tidy the heap before a game
        start = self._pose() if self.puzzle >= 0 else None
        # Reviewed: games against the board and two-player games with the
        # game's table; not puzzles (judged already) or the demo.
        if self.review is None:  # (after power-on: the heap's large blocks go to asyncio first)
            self.review = review_mod.Review(len(self._ring))
        self.review.clear(self.puzzle < 0 and self.mode != DEMO and self.tables.get(self.game) is not None)
        self._flash = -1
        self.match = Match(self.game, self.mode, self._ring, start, self.review)
        if self.level == ai.MATCHED and start is None and self.mode != TWO:  # its setting for this game
            from . import matched  # (loaded only when the matched level plays)

            self.match.slip = matched.setting(self.score, self.game)
        self.refused = -1
        self.blunder, self.caught = 0, None
        self._armed = -1
        self._held = -1
        if self.match.ai_turn():
            self.ai_at = now + self.think_ms

    def _refuse(self, now, cell):
        self.refused, self.refused_until = cell, now + REFUSE_MS
        self.sounds.append("refused")

    def _play(self, now, event):
        m = self.match
        cell = event & CELL
        if self.blunder:  # the trainer caught one: take it back, or play on
            if event & PRESS:
                if cell == m.newest():
                    self._tap_back(now, cell)
                else:
                    self.blunder, self.caught = 0, None
                    self._armed = -1
                    self.ai_at = now + self.think_ms
            return
        if m.ai_turn():  # presses during the board's turn are ignored
            if now >= self.ai_at:
                self._move(now, self._ai_move())
            return
        if event & PRESS:  # a move as the cell goes down: lit a frame later
            self._held = -1
            if cell == m.newest() and self.undo_plies():  # (the newest mark is always on the board)
                self._tap_back(now, cell)  # the newest mark, tapped twice: take back
                return
            try:
                m.pos.check_move(cell)
            except rules.IllegalMove:
                self._held = cell  # refused if it is let go as a tap: held, it is the menu's
                return
            self._move(now, cell)
        elif event & TAP and cell == self._held:
            self._held = -1
            self._refuse(now, cell)

    def _tap_back(self, now, cell):
        # A tap on the newest mark: the first arms, a second soon after takes back.
        if self._armed == cell and now < self._armed_until:
            self._take_back(now, self.undo_plies())
            return
        self._armed, self._armed_until = cell, now + UNDO_TAP_MS
        self.sounds.append("move")
        self.log("> Tap cell %d again to undo %s." % (cell, "that move" if self.undo_plies() == 1 else
                                                       "your move and the board's reply"))

    def undo_plies(self):
        """How many plies a take-back would take back now: 2 (your move
        and the board's reply), 1 (two players, or your move while the
        board thinks or after the trainer caught it), or 0 (none: the
        menu, the start, the end, the demo)."""
        m = self.match
        if self.state != PLAY or m.result is not None or self.mode == DEMO:
            return 0
        plies = 1 if self.mode == TWO or m.ai_turn() else 2
        return plies if m.back >= plies else 0

    def _take_back(self, now, plies):
        m = self.match
        m.undo(plies)
        self.blunder, self.caught = 0, None
        self._armed = -1
        self.refused = -1
        self.sounds.append("move")
        self.log("%s: take back %d" % (rules.GAMES[m.game], plies))
        if m.ai_turn():
            self.ai_at = now + self.think_ms

    def _ai_move(self):
        m = self.match
        pos = m.pos
        m.slipped = False
        self._picked_best = False
        if self.level == ai.MATCHED and self.puzzle < 0:
            from . import matched

            cell = matched.slip(pos, self.rng, m.slip)
            if cell >= 0:  # a slip: a legal move at random
                m.slipped = True
                return cell
        elif self.level != ai.PERFECT and self.puzzle < 0:  # (a puzzle's board defends perfectly)
            return ai.choose_move(pos, self.level, None, self.rng)
        table = self.tables.get(self.game)
        if table is not None:
            try:
                cell = ai.choose_move(pos, ai.PERFECT, table, self.rng, self.match.draws())
                self._picked_best = True
                return cell
            except (table_mod.TableError, OSError) as e:
                self._table_failed(e)
        from . import fallback  # loaded only when needed

        return fallback.move(pos, self.rng)

    def _table_failed(self, e):
        # A table that breaks during play (a flash read error, a file changed
        # under us): stop using it rather than failing every move.
        game = self.game
        self.tables[game] = None
        self.problems[game] = "table error during play: %s" % (e,)
        self.log("%s: %s; playing on with the fallback AI, hints off" % (rules.GAMES[game], self.problems[game]))

    def _move(self, now, cell):
        m = self.match
        verdict = self._judge(cell)
        # The review: a person's move is judged after the frame that lights
        # it (settle, from save() or the next update), the board's at once
        # (it has thought); the perfect player's pick is the best there was.
        board = m.ai_turn()
        judged = 0
        if self.review.on:
            if board and self._picked_best:
                judged = review_mod.BEST
            else:
                self.review.owe(m.plies + 1, cell, m.pos, m.draws())
        # The console narrates the game: a maker can follow it over USB, and
        # a script driving the simulator can too.
        self.log("%s: %s %d" % (rules.GAMES[m.game], rules.PLAYERS[m.pos.turn], cell))
        m.play(cell, judged)
        self.refused = -1
        self._armed = -1
        if board or m.result is not None:
            self.settle()  # (the board's move; or the review's counts, whole for the end)
        if m.result is None:
            self.sounds.append("move")
            if verdict is not None:
                self._caught(now, cell, verdict)
                if self.puzzle >= 0:  # a move that lets the win go fails the puzzle
                    self._puzzle_over(now, False)
            elif m.ai_turn():
                self.ai_at = now + self.think_ms
            return
        self.state, self.t0 = OVER, now
        if m.result < 0:
            self.sounds.append("draw")
            self.log("%s: draw" % rules.GAMES[m.game])
        else:
            self.sounds.append("win")
            self.log("%s: %s wins" % (rules.GAMES[m.game], rules.PLAYERS[m.result]))
        if self.puzzle >= 0:
            self._puzzle_over(now, m.result == self._you())
        elif self.mode != DEMO:
            s = self.score
            if self.mode == TWO:
                s.record_two(m.game, m.result)
            else:
                result = score_mod.DRAWN if m.result < 0 else score_mod.WON if m.result == self._you() else \
                    score_mod.LOST
                if self.level == ai.MATCHED:  # counted, and its setting moved by the result
                    from . import matched

                    matched.record(s, m.game, m.slip, result)
                else:
                    s.record(m.game, self.level, result)
                self._keep_review(m)
            self.unsaved = True
        self.review.end(m.plies)

    def _you(self):
        return rules.X if self.mode == YOU_X else rules.O

    # --- the review ------------------------------------------------------------

    def settle(self):
        """Judge a person's move the review still owes (``review.Review.owe``):
        called after the frame that lit it (``save``), and before anything
        else happens (``update``)."""
        r = self.review
        if r is None or not r.owed[0]:
            return
        table = self.tables.get(self.game)
        if table is None or not r.on:  # found wrong since: no review of this game
            r.owed[0] = 0
            r.on = False
            return
        try:
            r.settle(table)
        except Exception as e:  # noqa: BLE001 (called after the loop's guard: the review must never stop the game)
            r.on = False
            if isinstance(e, (table_mod.TableError, OSError)):
                self._table_failed(e)
            else:
                self.log("review: %r; no review of this game" % (e,))

    def _keep_review(self, m):
        # Your accuracy in this game, into the score (saved with its result).
        r = self.review
        you = self._you()
        n = r.count(you)
        if not r.on or not n:
            return
        s = self.score
        s.review(m.game, n, r.points(you))
        new = r.accuracy(you)
        old = s.recent(m.game)
        s.set_recent(m.game, new if old < 0 else (3 * old + new) // 4)

    # --- puzzles ---------------------------------------------------------------

    def puzzle_count(self):
        """How many puzzles there are (0: none on this board)."""
        return len(self.puzzles) if self.puzzles is not None else 0

    def puzzles_ready(self):
        """True if the puzzles can be played: their file, and a puzzle
        whose game's table (to defend and to judge) is here."""
        if self.puzzles is None:
            return False
        for game in (rules.CLASSIC, rules.TACTICTOE):
            first, end = self.puzzles.span(game)
            if first < end and self.tables.get(game) is not None:
                return True
        return False

    def _pose(self):
        # The easiest puzzle not solved yet (whose table is here), turned by
        # a random symmetry: the game and mode for it, and its position.
        p = self.puzzles
        i = first = -1
        easiest = 64
        for j in range(len(p)):
            pos, plies = p.get(j)
            if self.tables.get(pos.game) is None:
                continue
            if first < 0:
                first = j
            if plies < easiest and not self.score.solved(j):
                i, easiest = j, plies
        if i < 0:
            i = first
            self.log("> Every puzzle is solved! Here they are again from the first.")
        pos, plies = p.get(i)
        k = self.rng.bits16() & 7
        pos.sides[0] = rules.transform(pos.game, pos.sides[0], k)
        pos.sides[1] = rules.transform(pos.game, pos.sides[1], k)
        self.puzzle, self.plies = i, plies
        self.game = pos.game
        self.mode = YOU_X if pos.turn == rules.X else YOU_O
        return pos

    def _puzzle_over(self, now, solved):
        # Solved or failed: remembered at once (saved after its frame: save()).
        self.state, self.t0 = OVER, now
        self.solved = solved
        s = self.score
        if solved:
            s.solve(self.puzzle)
        else:
            s.fail(self.puzzle)
        self.unsaved = True

    # --- the trainer -------------------------------------------------------------

    def _judge(self, cell):
        """The trainer's verdict on the person's move ``cell`` (every move
        of a puzzle is judged): None, or ``ai.verdict``'s (value, best,
        mask) when it throws away a win or a draw."""
        m = self.match
        table = self.tables.get(self.game)
        if not (self.trainer or self.puzzle >= 0) or table is None or m.mode == TWO or m.ai_turn():
            return None
        try:
            return ai.verdict(table, m.pos, cell, m.draws())
        except (table_mod.TableError, OSError) as e:
            self._table_failed(e)
            return None

    def _caught(self, now, cell, verdict):
        # Shown at once: the better moves glow in the player's colour and the
        # board waits: take back (tap the mark twice) or play on (any other key).
        value, best, mask = verdict
        self.blunder = mask
        self.caught = (cell, value, best)
        self.sounds.append("refused")  # (the narration says it: narrate_text)

    def hint_outcomes(self):
        """Per cell: -1, 0 or 1 for the mover if hints are showing, else None."""
        m = self.match
        table = self.tables.get(self.game)
        if not (self.hints and table is not None and m is not None and self.state == PLAY and self.puzzle < 0
                and m.result is None and not m.ai_turn()):
            return None
        key = m.pos.code() << 1 | m.pos.turn
        draws = m.draws()  # (the same position may have other draws later)
        if key != self._hint_key or draws != self._hint_draws:
            for c in range(9):
                self._hint[c] = 3  # not a legal move
            try:
                values = ai.move_values(table, m.pos, draws)
            except (table_mod.TableError, OSError) as e:
                self._table_failed(e)
                return None
            for cell, value in values:
                self._hint[cell] = ai.outcome(value) + 1
            self._hint_key, self._hint_draws = key, draws
        return self._hint

    # --- drawing -------------------------------------------------------------

    def _selftest(self, now, t):
        """The self-test's step to draw at ``t`` ms into it: 0-8 each pixel
        white in turn, 9-11 all red, green, blue. None is skipped: a frame
        that comes late (a board slow to start) draws the step after the
        last one drawn, and the test's time counts on from that step's start,
        so every pixel is seen lit, however late the frames."""
        step = t // WALK_MS if t < 9 * WALK_MS else min(_STEPS - 1, 9 + (t - 9 * WALK_MS) // RGB_MS)
        if step > self._lit + 1:
            step = self._lit + 1
            self.t0 = now - (step * WALK_MS if step < 9 else 9 * WALK_MS + (step - 9) * RGB_MS)
        self._lit = step
        return step

    def frame(self, now):
        """Draw the grid for ``now``; returns the Canvas."""
        cv = self.canvas
        cv.clear()
        t = now - self.t0
        if self.state == _SELFTEST:
            step = self._selftest(now, t)
            if step < 9:
                cv.set(step, WHITE)  # the pixel walk: cells 0-8 in order
            else:
                cv.fill(ALL, _RGB[step - 9])
        elif self.state == NOTICE:
            mask, colour = self.notices[0]
            cv.fill(mask, colour, blink(t, 500))
        elif self.state == MENU:
            self._draw_menu(now)
        else:
            self._draw_board(now, t)
        if self.refused >= 0 and now < self.refused_until:
            cv.set(self.refused, self.colours["error"])  # solid red over what the cell shows, long enough to see
        return cv

    def _draw_menu(self, now):
        cv = self.canvas
        current = self._setting()
        for cell, value, colour, level in self.menu_options():
            cv.set(cell, colour, pulse(now - self.t0, 900, level // 4) * level >> 8 if value == current else level)
            if self.screen == PICK_GAME and value < PUZZLES and self.tables.get(value) is None:
                cv.set(cell + 3, self.colours["error"], 96)  # below it: no perfect table

    def _mark_colour(self, player):
        return self.colours["x" if player == rules.X else "o"]

    def _draw_review(self, t):
        # After the result's animation: each move that threw a win or a
        # draw away flashes in turn in its player's colour over the dimmed
        # marks, then the result shows again for a while, and round again.
        r = self.review
        slot = t // REVIEW_MOVE_MS % (r.listed + 1)
        if slot == r.listed:
            return  # the result's own picture
        if slot != self._flash:  # (looked up once a move, not every frame)
            self._flash = slot
            self._flash_note = r.thrown(slot)[1]
        note = self._flash_note
        cv = self.canvas
        pos = self.match.pos
        cv.clear()
        for c in range(9):
            p = pos.piece_at(c)
            if p is not None:
                cv.set(c, self._mark_colour(p), 40)
        cv.set(note >> 3 & 0xF, self._mark_colour(note >> 7), blink(t, 400))  # (3 flashes a move)


    def _draw_board(self, now, t):
        cv = self.canvas
        m = self.match
        pos = m.pos
        mover = pos.turn
        over = self.state == OVER and m.result is not None  # (not a failed puzzle: its better moves show)
        oldest_x, oldest_o = pos.vanishing(rules.X), pos.vanishing(rules.O)
        for c in range(9):
            p = pos.piece_at(c)
            if p is None:
                continue
            level = FULL
            if over:
                if m.result < 0:
                    level = pulse(t, 1400, 30)  # draw: every mark breathes
                elif not m.line >> c & 1:
                    level = 48  # win: the other marks dim under the line
                elif t < 2400:
                    level = blink(t, 300)  # ...which flashes, then glows
                else:
                    level = pulse(t, 1200, 96)
            elif c == (oldest_x if p == rules.X else oldest_o):
                # The mark that leaves on its owner's next move: the mover's
                # blinks (hints pulse smoothly, so the two never look alike),
                # the other player's is dimmed.
                level = (FULL if blink(t, 700) else 40) if p == mover else 90
            cv.set(c, self._mark_colour(p), level)
        free = pos.legal_mask() if not over else ~pos.occupied() & ALL
        if over:
            if m.result < 0:  # draw: the empty cells glow too
                cv.fill(free, self.colours["draw"], pulse(t, 1400, 30) >> 1)
            if t >= REVIEW_AT_MS and self.review.listed:
                self._draw_review(t - REVIEW_AT_MS)
            return
        colour = self._mark_colour(mover)
        if self._armed >= 0 and now < self._armed_until:  # tapped once: what a second tap takes back blinks white
            for ago in range(self.undo_plies()):
                if blink(now - self._armed_until, 120):
                    cv.set(m.newest(ago), WHITE)
        if self.blunder:  # the trainer caught one: the move blinks red, the better ones glow
            mine = self._tints[mover ^ 1]
            if not blink(t, 400):
                cv.set(m.newest(), self.colours["error"])
            for c in range(9):
                if self.blunder >> c & 1:
                    cv.set(c, mine, pulse(t, 800, 96))
            return
        if m.ai_turn():  # thinking: a light runs round the empty cells
            if self.tables.get(self.game) is None and self.level >= ai.PERFECT:
                colour = WHITE  # the fallback AI, not the perfect one
            n = 0
            for c in range(9):
                n += free >> c & 1
            k = (t // 110) % n if n else -1
            for c in range(9):
                if free >> c & 1:
                    if k == 0:
                        cv.set(c, colour, 110)
                    k -= 1
            return
        hints = self.hint_outcomes()
        if hints is None:  # the mover's colour glows faintly where it may play
            cv.fill(free, colour, 22)
            return
        # Hints, in the mover's colour lightened (so the turn stays clear,
        # and a hint never has a mark's colour), told apart by brightness and
        # motion: wins pulse fast and bright, draws breathe slowly and dimly,
        # losses glow faintly and steadily (as with hints off, in the mark's
        # own colour). Marks never move.
        colour = self._tints[mover]
        win = pulse(t, _WIN_HINT_MS, 64)
        draw = _DRAW_HINT_LOW + (pulse(t, _DRAW_HINT_MS, 0) * (_DRAW_HINT_HIGH - _DRAW_HINT_LOW) >> 8)
        for c in range(9):
            h = hints[c]
            if h < 3:
                if h:
                    cv.set(c, colour, win if h == 2 else draw)
                else:
                    cv.set(c, self._mark_colour(mover), 22)
