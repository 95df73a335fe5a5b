"""The narration's sentences, for ``narrate.Narrator``, and the menu's
words, which ``words`` (the screen's 16 characters a line) shares.

(Loading this module when the screen changes and unloading it after took
more heap, not less: its pieces fragment the heap between the game's.)
"""

from micropython import const

from . import rules
from .frames import CORNERS

_SELFTEST = const(0)  # app's states
_NOTICE = const(1)
_MENU = const(2)
_OVER = const(4)
_YOU_X = const(0)  # match's modes
_YOU_O = const(1)
_TWO = const(2)
_DEMO = const(3)
_MENU_KEY = const(0)  # panel's roles
_HINT_KEY = const(1)
_UNDO_KEY = const(2)
_TRAINER = const(1)  # app's HELP_TRAINER
_CHOICE = const(1)  # narrate's what
_HINTS = const(2)
_REFUSED = const(3)
_BEST = const(1)  # review's judgements
_SLOWER = const(2)
_THREW_DRAW = const(3)
_THREW_WIN = const(4)
_NAMED = const(6)  # the review names this many moves thrown away of each kind, then says how many more
_PERFECT = const(2)  # ai's levels
_MATCHED = const(3)
_LEVELS = const(4)  # score.LEVELS: the levels it counts

GAMES = ("Classic", "Tactic-toe")  # by rules.CLASSIC, rules.TACTICTOE
LEVELS = ("Easy", "Medium", "Perfect", "Matched")  # by ai.EASY, MEDIUM, PERFECT, MATCHED
# Each menu screen: its question, then (option, what it means) by value.
QUESTIONS = ("Choose a game:", "Who plays?", "Board's level:", "Play with help?", "Your score:")
OPTIONS = (
    (("Classic", "3 in a row wins"), ("Tactic-toe", "Old marks vanish"), ("Puzzles", "Win in N moves"),
     ("Score", "See or reset it")),
    (("You are X", "You go first"), ("You are O", "Board goes first"), ("Two players", "Take turns"),
     ("Demo", "Board vs board")),
    (("Easy", "Sees 1-move wins"), ("Medium", "Blocks your wins"), ("Perfect", "Never loses"),
     ("Matched", "Keeps it close")),
    (("No help", "Just play"), ("Trainer", "Shows blunders"), ("Hints on", "Best moves glow")),
    (("Keep it", "Back to the menu"), ("Reset it", "Every count to 0")),
)
# The help a game is played with (app.HELP_OFF, HELP_TRAINER, HELP_HINTS), as a new game says it.
HELPS = ("no help", "the trainer on", "hints on")
# What hints look like (app.App._draw_board), in the mover's colour.
HINTS = "Hints: a fast bright pulse wins, a slow dim breath draws, a faint steady glow loses."


def say(n, what):
    """Log, through ``n.app.log``, what the ``narrate.Narrator`` ``n``
    has to tell: ``narrate.SCREEN``, ``CHOICE``, ``HINTS`` or ``REFUSED``."""
    a = n.app
    m = a.match
    if what == _CHOICE:
        _say(a, _choice(n))
    elif what == _HINTS:
        _say(a, HINTS if a.hint_outcomes() is not None else "Hints hidden.")
    elif what == _REFUSED:
        _say(a, _refusal(a, a.refused))
    elif a.state == _SELFTEST:
        _say(a, "Testing the lights.")
    elif a.state == _NOTICE:
        if a.notices[0][0] == CORNERS:
            _say(a, "board.json has a problem (the console says which): the board uses its default wiring.")
        else:
            _say(a, "The red X: no %s table, so the board plays weaker and hints are off." % _low(GAMES[a.game]))
    elif a.state == _MENU:
        _menu(n)
    elif m is not None:
        _game(n, m)
    if m is not None:
        n.match, n.plies, n.masks = m, m.plies, m.pos.mask(0) << 9 | m.pos.mask(1)


def cells_text(mask):
    """The cells of ``mask`` in words: "4", "4 or 6", "0, 4 or 6"."""
    out = ""
    left = 0
    for c in range(9):
        left += mask >> c & 1
    for c in range(9):
        if mask >> c & 1:
            left -= 1
            out += str(c) + ("" if not left else " or " if left == 1 else ", ")
    return out


def lesson(player, cell, value, best, mask):
    """What the trainer says of ``player``'s (``"X"``, ``"O"``) move
    ``cell`` that ``ai.verdict`` caught, e.g. "X on 2 lets O win in 3
    moves; 4 would have kept the draw." (moves: the winner's own)."""
    other = "O" if player == "X" else "X"
    if not value & 0x40 and value:  # a loss
        n = (value & 0x3F) // 2  # a loss in d plies, counting this move: the winner moves d // 2 times
        what = "lets %s win in %d move%s" % (other, n, "" if n == 1 else "s")
    else:
        what = "throws the win away: %s can hold a draw" % other
    kept = "would have kept the win" if best & 0x40 else "would have kept the draw"
    return "%s on %d %s; %s %s." % (player, cell, what, cells_text(mask), kept)


def score_text(a, game):
    """The score in words: for ``game`` as it was just played (its
    level, or two players), or (-1) all of it."""
    s = a.score
    if game < 0:  # each game and level played, as the score keeps them
        parts = []
        for g in (0, 1):
            for level in range(_LEVELS):
                w, d, lost = s.games(g, level)
                if w or d or lost:
                    parts.append("%s against the %s board: won %d, drew %d, lost %d" % (
                        _low(GAMES[g]), _low(LEVELS[level]), w, d, lost))
            x, o, d = s.two(g)
            if x or o or d:
                parts.append("%s for two: X won %d, O won %d, %d drawn" % (_low(GAMES[g]), x, o, d))
        parts.append("puzzles solved: %d of %d" % (s.solved_count(), a.puzzle_count()))
        return "Your score: %s." % ("; ".join(parts) if len(parts) > 1 else "no games yet; " + parts[0])
    name = _low(GAMES[game])
    if a.mode == _TWO:
        x, o, d = s.two(game)
        return "Score, %s for two: X won %d, O won %d, %d drawn." % (name, x, o, d)
    w, d, lost = s.games(game, a.level)
    return "Score, %s against the %s board: you won %d, drew %d, lost %d." % (
        name, _low(LEVELS[a.level]), w, d, lost)


def review_text(a, player):
    """The review of ``player``'s moves (rules.X, rules.O) in the game just
    ended, e.g. "Review: you (X) 12 moves: 9 best, 2 slower, 1 threw a win
    away (move 7, cell 3); accuracy 83%." (move 7: the player's own 7th)."""
    r = a.review
    n = r.count(player)
    parts = ["%d best" % r.count(player, _BEST)]
    if r.count(player, _SLOWER):
        parts.append("%d slower" % r.count(player, _SLOWER))
    notes = r.notes
    for kind in (_THREW_WIN, _THREW_DRAW):
        k = r.count(player, kind)
        if k:
            where = []  # type: list  # the first _NAMED of them the notes still hold, then how many more
            for ply in range(r.first, r.plies + 1):
                note = notes[ply % len(notes)]
                if note & 7 == kind and note >> 7 == player and len(where) < _NAMED:
                    where.append("move %d, cell %d" % ((ply + 1) // 2, note >> 3 & 0xF))
            if k > len(where):
                where.append("%d more" % (k - len(where)) if where else "before the last %d plies" % len(notes))
            parts.append("%d threw a %s away (%s)" % (k, "win" if kind == _THREW_WIN else "draw", "; ".join(where)))
    if len(parts) == 1 or len(parts) == 2 and r.count(player, _SLOWER):
        parts.append("none thrown away")
    name = _name(a, player)
    return "Review: %s %d move%s: %s; accuracy %d%%." % (
        name if a.mode == _TWO else _low(name), n, "" if n == 1 else "s", ", ".join(parts), r.accuracy(player))


def _lesson(a):
    cell, value, best = a.caught
    return lesson(rules.PLAYERS[a.match.pos.turn ^ 1], cell, value, best, a.blunder)


def _say(a, line):
    a.log("> " + line)


def _low(text):
    return text[0].lower() + text[1:]


def _hold(a):
    # The long-press time, as said: "1.5 s".
    ms = a.timing["long_press_ms"]
    return "%d.%d s" % (ms // 1000, ms % 1000 // 100) if ms % 1000 else "%d s" % (ms // 1000)


def _menu(n):
    a = n.app
    s = a.screen
    if s == 4:  # the score screen
        _say(a, score_text(a, -1))
    parts = []
    for cell, value, _, _ in a.menu_options():
        name, meaning = OPTIONS[s][int(value)]
        parts.append("cell %d %s (%s)" % (cell, _low(name), _low(meaning)))
    _say(a, "%s %s." % (QUESTIONS[s], ", ".join(parts)))
    _say(a, _choice(n))
    how = "Turn the dial and press it, or tap a lit cell, to choose" if getattr(a, "dial", False) \
        else "Tap a lit cell to choose"
    if s > 0 and n.panel and _MENU_KEY in a.roles:
        how += "; the Menu key goes back"
    _say(a, "%s; hold any cell %s to start over." % (how, _hold(a)))


def _choice(n):
    a = n.app
    s = a.screen
    cell, value, _, _ = a.menu_options()[n.picked()]
    note = ""
    if s == 0 and value == 2:
        if not a.puzzles_ready():
            note = " (none on this board)"
    elif s < 4 and a.tables.get(value if s == 0 else a.game) is None and (
            s == 0 and value < 2 or s == 2 and value >= _PERFECT or s == 3 and value):
        note = " (no table: a weaker board, no hints)"
    elif s == 2 and value == _MATCHED:
        from . import matched

        note = " (it slips %d%% of its moves now)" % matched.setting(a.score, a.game)
    return "Pulsing now: cell %d, %s%s." % (cell, _low(OPTIONS[s][int(value)][0]), note)


def _who(a):
    level = _low(LEVELS[a.level])
    if a.mode == _TWO:
        return "two players, X starts"
    slips = " (slips %d%% of its moves)" % a.match.slip if a.level == _MATCHED else ""  # its setting this game
    if a.mode == _DEMO:
        return "the board plays itself (%s)" % (level + "; " + slips[2:-1] if slips else level)
    return "you are %s against the %s board%s" % ("X" if a.mode == _YOU_X else "O", level, slips)


def _help(a):
    # The help the game is played with: "no help", "hints on"...
    if a.mode == _TWO and a.help == _TRAINER:  # (the trainer judges moves against the board only)
        return "no help (the trainer is for games against the board)"
    return HELPS[a.help]


def _game(n, m):
    a = n.app
    pos = m.pos
    over = a.state == _OVER
    moved = ""
    if m is not n.match:
        if a.puzzle >= 0:
            moves = (a.plies + 1) // 2
            _say(a, "Puzzle %d of %d, %s: you are %s; win in %d move%s. The board defends as well as it can." % (
                a.puzzle + 1, len(a.puzzles), _low(GAMES[m.game]), rules.PLAYERS[pos.turn], moves,
                "" if moves == 1 else "s"))
        else:
            _say(a, "New game of %s: %s%s." % (_low(GAMES[m.game]), _who(a),
                                                "" if a.mode == _DEMO else "; " + _help(a)))
    elif m.plies == n.plies + 1:  # one move since the last narration: whose, where
        player = 1 - pos.turn
        before = n.masks >> 9 * (1 - player) & 0x1FF
        new, gone = pos.mask(player) & ~before, before & ~pos.mask(player)
        for c in range(9):
            if new >> c & 1:
                moved = "%s played on cell %d" % (_name(a, player), c)
        if m.slipped and (a.mode == _DEMO or a.mode < _TWO and player == a.mode ^ 1):  # the board's move
            moved += " (a slip: a move at random)"
        for c in range(9):
            if gone >> c & 1:  # tactic-toe: the oldest mark left
                moved += " and the mark on cell %d vanished" % c
    elif m.plies < n.plies and not over:
        back = n.plies - m.plies
        _say(a, "Undid %d move%s." % (back, "s" if back > 1 else ""))
    if over:
        _over(a, m, moved)
        return
    if moved:
        _say(a, moved + ".")
    if a.blunder:  # the trainer caught the move
        _say(a, _lesson(a))
        _say(a, "Tap cell %d twice to undo it, or any other cell to play on." % a.caught[0])
        return
    mover = rules.PLAYERS[pos.turn]
    if a.mode == _DEMO:
        _say(a, "%s is thinking." % mover)
        return
    if m.ai_turn():
        _say(a, "The board (%s) is thinking." % mover)
        return
    _say(a, ("%s to move" % mover if a.mode == _TWO else "Your move (%s)" % mover) + ": tap a free cell.")
    old = pos.vanishing()
    if old is not None:
        if a.mode == _TWO:
            _say(a, "%s's mark on cell %d (blinking) vanishes when %s plays." % (mover, old, mover))
        else:
            _say(a, "Your %s on cell %d (blinking) vanishes when you play." % (mover, old))
    if a.hint_outcomes() is not None:
        _say(a, HINTS)


def _name(a, player):
    # Who played ``player``'s mark: "You (X)", "The board (O)", or "X".
    if a.mode >= _TWO:
        return rules.PLAYERS[player]
    you = rules.X if a.mode == _YOU_X else rules.O
    return ("You (%s)" if player == you else "The board (%s)") % rules.PLAYERS[player]


def _over(a, m, moved):
    if a.puzzle >= 0:
        if moved:
            _say(a, moved + ".")
        if a.solved:
            _say(a, "Puzzle %d solved!" % (a.puzzle + 1))
        else:
            if a.blunder:
                _say(a, _lesson(a))
            _say(a, "Puzzle %d failed." % (a.puzzle + 1))
        _say(a, "Puzzles solved: %d of %d." % (a.score.solved_count(), len(a.puzzles)))
        _say(a, "Tap any cell for %s; hold one %s for the menu." % (
            "the next puzzle" if a.solved else "another try", _hold(a)))
        return
    if m.result < 0:
        result = "a draw (the same position 3 times)" if m.game == rules.TACTICTOE else "a draw"
    elif a.mode >= _TWO:
        result = "%s wins" % rules.PLAYERS[m.result]
    elif m.result == (rules.X if a.mode == _YOU_X else rules.O):
        result = "you win"
    else:
        result = "the board wins"
    _say(a, "%s: %s!" % (moved, result) if moved else result[0].upper() + result[1:] + "!")
    score = _score(a)
    if score:
        _say(a, score)
    if a.mode != _DEMO:
        _review(a, m)
    if a.mode == _DEMO:
        _say(a, "The next game starts soon; hold any cell %s for the menu." % _hold(a))
    else:
        again = "Press the dial or tap a cell" if getattr(a, "dial", False) else "Tap any cell"
        _say(a, "%s to play again; hold one %s for the menu." % (again, _hold(a)))


def _review(a, m):
    # Each player's review, you first (one line each), or why there is none.
    if not a.review.on:
        _say(a, "No review of this game: it needs the %s table." % _low(GAMES[m.game]))
        return
    first = rules.O if a.mode == _YOU_O else rules.X
    _say(a, review_text(a, first))
    _say(a, review_text(a, first ^ 1))


def _score(a):
    # The score kept on the board, for the game as just played, or "".
    if a.mode == _DEMO:
        return ""
    return score_text(a, a.game)


def _refusal(a, key):
    if key >= 9:
        role = a.roles[key - 9]
        if role == _HINT_KEY:
            return "No hints now (only on your move, with the game's table)."
        if role == _UNDO_KEY:
            return "Nothing to undo."
        return "That key does nothing now."
    if a.state == _MENU:
        if a.screen == 0 and key == 1:
            return "No puzzles here: they need puzzles.bin and a table on the board (make flash)."
        return "Cell %d is not an option here: tap a lit cell." % key
    return "Cell %d can't be played now: tap a free cell." % key
