"""Scripted sessions on a simulated board, with their checks.

Usage (MicroPython or CPython, with tests/doubles, tests/fw and firmware on
the path): scenarios.py FLASH_FOLDER NAME [SEED]

Each scenario asserts what the LEDs must show and prints a transcript; the
test suite runs every scenario under both interpreters and compares the
transcripts. Exit status 1 and "FAIL ..." on a failed check.
"""

import sys

from tactictoe import ai
from tactictoe import app
from tactictoe import rules
from tactictoe import rules_extra
import sim
from sim import fingers
from tactictoe.match import DEMO, TWO, YOU_O, YOU_X

# Menu cells (see README, "The menu")
GAME_CELL = {rules.CLASSIC: 3, rules.TACTICTOE: 5}
MODE_CELL = {YOU_X: 0, YOU_O: 2, TWO: 6, DEMO: 8}
LEVEL_CELL = {ai.EASY: 6, ai.MEDIUM: 7, ai.PERFECT: 8, ai.MATCHED: 4}
HINTS_CELL = {False: 3, True: 5}

out = []


def log(*words):
    """A transcript line; the tests compare these between interpreters."""
    line = " ".join(str(w) for w in words)
    out.append(line)
    print("| " + line)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def boot(folder, seed=1, rises=False):
    b = sim.Board(folder, seed, rises)
    b.run(app.SELFTEST_MS + 20)
    while b.app.state == app.NOTICE:
        b.run(100)
    return b


def choose(b, game, mode, level=ai.PERFECT, hints=False):
    check(b.app.state == app.MENU and b.app.screen == app.PICK_GAME, "not at the game menu")
    b.press(GAME_CELL[game])
    b.press(MODE_CELL[mode])
    if mode != TWO:
        b.press(LEVEL_CELL[level])
    if mode != DEMO:
        b.press(HINTS_CELL[hints])
    while b.app.state == app.NOTICE:
        b.run(100)
    check(b.app.state == app.PLAY, "menu did not start play")


def human_move(b, how="perfect"):
    pos = b.app.match.pos
    table = b.app.tables.get(pos.game)
    if how == "perfect" and table is not None:
        return ai.choose_move(pos, ai.PERFECT, table, ai.Rng(7))
    return pos.legal_moves()[0]


def play_out(b, how="perfect", limit=80):
    """Play the person's moves until the game ends; returns the result."""
    for _ in range(limit):
        b.wait_human()
        if b.app.state == app.OVER:
            return b.app.match.result
        b.press(human_move(b, how))
        if b.app.state == app.OVER:
            return b.app.match.result
    raise AssertionError("game did not end")


def check_notice(b, pattern, what):
    """A notice is showing, blinks ``pattern`` and then gives way."""
    check(b.app.state == app.NOTICE, what + ": no notice")
    seen = set()
    for _ in range(10):
        b.run(100)
        seen.add(b.picture().upper())  # a fallback config may have a lower brightness cap
    check(pattern in seen, "%s: %r" % (what, sorted(seen)))
    while b.app.state == app.NOTICE:
        b.run(100)


def check_win_frame(b):
    m = b.app.match
    mark = rules.PLAYERS[m.result]
    on = b.picture()
    line = [c for c in range(9) if m.line >> c & 1]
    check(len(line) == 3, "no winning line")
    # the line blinks: bright in one frame, dark in another, the rest dim
    seen_on = seen_off = False
    for _ in range(8):
        b.run(40)
        p = b.picture()
        if all(p[c] == mark for c in line):
            seen_on = True
        if all(p[c] == "." for c in line):
            seen_off = True
        for c in range(9):
            if c not in line and m.pos.piece_at(c) is not None:
                check(p[c] in "xo", "non-line marks should be dim: " + p)
    check(seen_on and seen_off, "winning line does not flash: " + on)
    log("win", mark, "line", line, b.show())


def check_draw_frame(b):
    levels = set()
    for _ in range(10):
        b.run(140)
        p = b.picture()
        for c in range(9):
            if b.app.match.pos.piece_at(c) is None:
                check(p[c] in "dD", "draw: empty cells glow draw colour: " + p)
        levels.add(b.leds()[next(c for c in range(9) if b.app.match.pos.piece_at(c) is not None)])
    check(len(levels) > 2, "draw animation does not move")
    log("draw", b.show())


# --- scenarios -------------------------------------------------------------------


def selftest(folder):
    b = sim.Board(folder)
    for k in range(9):  # the pixel walk lights each cell alone, in order
        b.run(app.WALK_MS if k else app.WALK_MS // 2)
        want = "." * k + "W" + "." * (8 - k)
        check(b.picture() == want, "walk step %d: %s" % (k, b.picture()))
    for ch in "EGB":
        b.run(app.RGB_MS)
        check(b.picture() == ch * 9, "colour check %s: %s" % (ch, b.picture()))
    b.run(200)
    p = b.picture()
    check(p[3] in "Xx" and p[5] in "Oo" and p[1] in "Dd" and p[7] in "Ww" and p.count(".") == 5, "game menu: " + p)
    log("selftest ok; menu", b.show())


def menu_screens(folder):
    b = boot(folder)
    log("game", b.show())
    b.press(GAME_CELL[rules.CLASSIC])
    p = b.picture()
    check(p[0] in "Xx" and p[2] in "Oo" and p[6] in "Mm" and p[8] in "Ww", "mode screen: " + p)
    log("mode", b.show())
    b.press(4)  # not an option: flashes, stays
    check(b.app.screen == app.PICK_MODE, "a non-option moved the menu")
    b.run(app.REFUSE_MS)
    b.press(MODE_CELL[YOU_X])
    p = b.picture()
    check(p[6] in "Mm" and p[7] in "Mm" and p[8] in "Mm" and p[4] in "Dd" and p[:4] + p[5] == ".....",
          "level screen: " + p)  # (the matched level in the centre, in the draw colour)
    log("level", b.show())
    b.press(LEVEL_CELL[ai.MEDIUM])
    p = b.picture()
    check(p[3] in "Ww" and p[4] in "Mm" and p[5] in "Ww" and p.count(".") == 6, "help screen: " + p)
    check(max(b.leds()[5]) > max(b.leds()[3]), "'on' is the brighter option")
    log("hints", b.show())
    b.hold(0, b.cfg["timing"]["long_press_ms"] + 100)
    check(b.app.state == app.MENU and b.app.screen == app.PICK_GAME, "long press in the menu goes to the start")
    log("long press: back to", b.show())


def two_players(folder, game=rules.CLASSIC):
    b = boot(folder)
    choose(b, game, TWO)
    p = b.picture()
    check(p == "x" * 9, "X to move: empty cells glow X: " + p)
    for cell in (0, 3, 1, 4):
        b.press(cell)
        log("after", cell, b.show())
    p = b.picture()
    check(p[0] == "X" and p[1] == "X" and p[3] == "O" and p[4] == "O", "marks: " + p)
    check(p[2] == "x", "X to move glows in X colour: " + p)
    red = red_run(b, 3)  # occupied: refused (4, the newest mark, would start a take-back's double tap)
    check(b.app.match.pos.turn == rules.X and len(rules_extra.marks(b.app.match.pos, rules.X)) == 2,
          "refused press changed the game")
    check(red >= 400, "a refused cell is solid red for at least 400 ms: %d" % red)
    log("refused 3 solid red for", red, "ms")
    b.press(2)
    check(b.app.state == app.OVER and b.app.match.result == rules.X, "X should have won")
    check_win_frame(b)
    b.press(7)  # a press right after the end does not skip it
    check(b.app.state == app.OVER, "end skipped too soon")
    b.run(app.OVER_GUARD_MS)
    b.press(7)
    check(b.app.state == app.PLAY and b.app.match.pos.code() == rules.Position(game).code(), "next game")
    log("next game", b.show())


def at_once(folder):
    """Each move is lit by the key scan that first sees its key down (one
    ``Runner.tick``: no frame task, no second scan), and the winning move's
    frame is out before the score is saved."""
    b = boot(folder)
    choose(b, rules.CLASSIC, TWO)
    order = []
    hw, score = b.runner.hw, b.app.score
    show, save = hw.show, score.save

    def shown(canvas):
        show(canvas)
        order.append("show")

    def saved():
        order.append("save")
        save()

    hw.show = shown
    score.save = saved
    for i, cell in enumerate((0, 3, 1, 4, 2)):
        fingers.held |= 1 << cell
        del order[:]
        b.now += b.timing["scan_ms"]
        b.runner.tick(b.now)
        p = b.picture()
        check(p[cell] == "XO"[i % 2], "the move on %d was not lit by the scan that saw it: %s" % (cell, p))
        log("lit by its scan", cell, p, order)
        check(order == (["show", "save"] if i == 4 else ["show"]), "a move's frame, then a save after the win: %r"
              % order)
        fingers.held &= ~(1 << cell)
        b.run(100)
    check(b.app.state == app.OVER and b.app.match.result == rules.X, "X should have won")


def save_without_leds(folder):
    """LEDs that fail as the winning move is shown (a chip gone quiet) do
    not cost the score: it is saved after the frame, shown or not."""
    b = boot(folder)
    choose(b, rules.CLASSIC, TWO)
    for cell in (0, 3, 1, 4):
        b.press(cell)
    saves = b.app.score.saves()

    def dead(canvas):
        raise OSError(5)

    b.runner.hw.show = dead
    b.press(2)
    check(b.app.score.saves() == saves + 1 and not b.app.unsaved, "the win was not saved")
    check(any(line.startswith("error: OSError") for line in b.lines), "the LEDs' failure is reported")
    log("saved with the LEDs failing", b.app.score.saves() - saves)


def vanishing(folder):
    b = boot(folder)
    choose(b, rules.TACTICTOE, TWO)
    for cell in (0, 4, 2, 6, 5, 7):
        b.press(cell)
    # X to move with three marks: X's oldest (0) blinks, O's oldest (4) is dim
    levels = set()
    for _ in range(12):
        b.run(60)
        p = b.picture()
        check(p[2] == "X" and p[5] == "X" and p[6] == "O" and p[7] == "O", "marks: " + p)
        check(p[4] == "o", "O's oldest should be dim: " + p)
        check(p[0] in "Xx", "X's oldest stays visible: " + p)
        levels.add(b.level(0))
    check(max(levels) >= 240 and min(levels) <= 50 and len(levels) == 2,
          "X's oldest mark should blink bright/dim: %r" % sorted(levels))
    log("vanishing", b.show(), "levels", sorted(levels))
    b.press(8)  # X's 4th mark: 0 leaves; 2-5-8 wins
    check(b.app.match.pos.piece_at(0) is None and b.app.match.result == rules.X, "oldest removed, X wins")
    check_win_frame(b)


def repetition(folder):
    b = boot(folder)
    choose(b, rules.TACTICTOE, TWO)
    cycle = (8, 7, 0, 2, 1, 5, 3, 6)
    for cell in (0, 2, 1, 5, 3, 6) + cycle + cycle[:-1]:
        b.press(cell)
        check(b.app.state == app.PLAY, "ended early")
    b.press(cycle[-1])  # the position after the opening, for the third time
    check(b.app.state == app.OVER and b.app.match.result == -1, "third repetition should draw")
    check_draw_frame(b)


def vs_board(folder, game, mode, level, how, seed):
    b = boot(folder, seed)
    choose(b, game, mode, level)
    if mode == YOU_O:  # the board opens: it shows itself thinking first
        b.run(50)
        p = b.picture()
        check(p.count(".") == 8, "thinking light: " + p)
        log("board thinking", b.show())
    result = play_out(b, how)
    log("result", "draw" if result < 0 else rules.PLAYERS[result], "after", b.app.match.plies, "plies")
    if result < 0:
        check_draw_frame(b)
    else:
        check_win_frame(b)
    return b, result


def demo(folder, game):
    b = boot(folder, 3)
    choose(b, game, DEMO)
    results = []
    while len(results) < 3:
        b.run(100)
        if b.app.state == app.OVER and (not results or results[-1][1] is not b.app.match):
            results.append((b.app.match.result, b.app.match))  # kept, so no new match can reuse its id
            b.run(100)
    res = [r for r, _ in results]
    log("demo results", res)
    if game == rules.CLASSIC:
        check(res == [-1, -1, -1], "perfect play draws classic")
    else:
        check(res == [rules.X] * 3, "perfect X wins tactic-toe")
    check(b.app.think_ms < b.cfg["timing"]["think_ms"], "the demo speeds up")


def red_run(b, cell):
    """Press ``cell`` and let it go (a tap); the longest run of frames
    in which it shows solid red (the error colour, bright), in ms of the
    board's clock, sampled every 10 ms."""
    fingers.held |= 1 << cell
    run = best = 0
    for t in range(80):
        if t == 10:
            fingers.held &= ~(1 << cell)
        b.run(10)
        run = run + 10 if b.picture()[cell] == "E" else 0
        best = max(best, run)
    return best


def _hint_levels(b, cells):
    """Lowest and highest level of each cell over a second, and how many
    times each turned from rising to falling."""
    lo, hi, turns, last, rising = [999] * 9, [0] * 9, [0] * 9, [0] * 9, [False] * 9
    for _ in range(50):
        b.run(20)
        for c in cells:
            v = b.level(c)
            lo[c], hi[c] = min(lo[c], v), max(hi[c], v)
            if v < last[c] and rising[c]:
                turns[c] += 1
            if v != last[c]:
                rising[c] = v > last[c]
            last[c] = v
    return lo, hi, turns


def check_hints(b, mover_char):
    table = b.app.tables[b.app.match.game]
    values = dict(ai.move_values(table, b.app.match.pos))
    pos = b.app.match.pos
    marks = [c for c in range(9) if pos.piece_at(c) is not None and c not in (pos.vanishing(0), pos.vanishing(1))]
    lo, hi, turns = _hint_levels(b, list(values) + marks)
    p = b.picture()
    tint = "H" if mover_char == "X" else "J"
    for c, v in values.items():
        o = ai.outcome(v)
        # wins and draws in the mover's colour lightened, never a mark's; losses faint in the mover's own
        check(p[c] in (tint + tint.lower() if o >= 0 else mover_char.lower()),
              "hints are in the mover's colour, lightened: " + p)
        if o > 0:
            check(hi[c] > 200 and lo[c] < 100 and turns[c] >= 1,
                  "a winning move pulses fast and bright: %d..%d, %d peaks a second" % (lo[c], hi[c], turns[c]))
        elif o == 0:
            check(25 <= lo[c] and hi[c] <= 140 and hi[c] - lo[c] >= 40,
                  "a drawing move breathes slowly and dimly: %d..%d" % (lo[c], hi[c]))
        else:
            check(hi[c] <= 30 and hi[c] == lo[c], "a losing move glows faintly, steady: %d..%d" % (lo[c], hi[c]))
    for c in marks:
        check(lo[c] == hi[c] and hi[c] > 200, "a mark is steady and bright: %d..%d" % (lo[c], hi[c]))
    log("hints", mover_char, " ".join("%d:%d" % (c, ai.outcome(v)) for c, v in sorted(values.items())))


def hints(folder):
    b = boot(folder)
    choose(b, rules.TACTICTOE, YOU_X, ai.PERFECT, True)
    check_hints(b, "X")  # empty board: edges win, the rest draw
    b.press(4)  # a drawing move: the board replies, then hints again
    b.wait_human()
    b.run(40)
    check_hints(b, "X")
    # two players: the hints follow whoever is to move
    b.hold(0, b.cfg["timing"]["long_press_ms"] + 100)
    choose(b, rules.CLASSIC, TWO, hints=True)
    b.press(0)
    check_hints(b, "O")
    b.press(4)
    check_hints(b, "X")


def ai_turn_press(folder):
    """A press made while the board thinks is not played when it has moved."""
    b = boot(folder)
    choose(b, rules.CLASSIC, YOU_O, ai.PERFECT)
    fingers.held |= 1 << 4  # press the centre during the board's turn...
    b.run(b.cfg["timing"]["think_ms"] + 200)
    check(b.app.match.pos.turn == rules.O, "the board has moved")
    first = b.app.match.pos.piece_at(4)
    fingers.held &= ~(1 << 4)  # ...and let go after it moved
    b.run(200)
    check(b.app.match.pos.turn == rules.O, "the held press was not played: turn %d" % b.app.match.pos.turn)
    check(b.app.match.pos.piece_at(4) == first, "cell 4 unchanged")
    free = b.app.match.pos.legal_moves()[0]
    b.press(free)  # a fresh press plays
    check(b.app.match.pos.piece_at(free) == rules.O, "a new press plays")
    log("press during the board's turn ignored; next press played", free)


class _BrokenFile:
    def seek(self, *a):
        raise OSError(5, "EIO")

    def readinto(self, b):
        raise OSError(5, "EIO")

    def close(self):
        pass


def table_breaks(folder):
    """A table that fails in the middle of a game: the game goes on with the
    fallback AI and no hints."""
    b = boot(folder)
    _walked(b)  # the background check over first: the AI's own read is the one that fails
    choose(b, rules.TACTICTOE, YOU_X, ai.PERFECT, True)
    b.press(4)
    b.wait_human()
    b.app.tables[rules.TACTICTOE]._f = _BrokenFile()
    sys.modules["tactictoe.table"]._held[0] = None  # no bucket in RAM: the next lookup reads
    b.press(b.app.match.pos.legal_moves()[0])
    b.wait_human()
    check(b.app.state in (app.PLAY, app.OVER) and b.app.match is not None, "still playing")
    check(b.app.tables[rules.TACTICTOE] is None, "the broken table is dropped")
    check(any("table error during play" in line for line in b.lines), "and reported: %r" % b.lines)
    check(b.app.hint_outcomes() is None, "hints off")
    log("table failed mid-game; play went on")


def key_errors(folder):
    """A key layer that raises now and then does not stop the board."""
    b = boot(folder)
    real = b.runner.hw.scan
    calls = [0]

    def flaky():
        calls[0] += 1
        if calls[0] % 7 == 0:
            raise OSError(5, "EIO")
        return real()

    b.runner.hw.scan = flaky
    choose(b, rules.CLASSIC, TWO)
    for cell in (0, 3, 1, 4, 2):
        b.press(cell)
    check(b.app.match.result == rules.X, "played through the errors")
    check(any("error reading keys" in line for line in b.lines), "errors reported")
    log("keys survive read errors")


def long_press(folder):
    b = boot(folder)
    choose(b, rules.CLASSIC, TWO)
    b.press(4)
    b.hold(0, b.cfg["timing"]["long_press_ms"] + 100)
    check(b.app.state == app.MENU and b.app.screen == app.PICK_GAME, "long press should open the menu")
    check(b.app.match is None, "game left behind")
    log("long press -> menu", b.show())


def fallback(folder):
    b = sim.Board(folder)
    check(any("minimax" in line for line in b.lines), "console names the fallback: %r" % b.lines)
    b.run(app.SELFTEST_MS + 20)
    p = b.picture()
    check(p[5] in "Oo" and p[8] in "Ee", "the game menu marks the table-less game: " + p)
    log("menu marks missing table", b.show())
    b.press(GAME_CELL[rules.TACTICTOE])
    b.press(MODE_CELL[YOU_X])
    b.press(LEVEL_CELL[ai.PERFECT])
    b.press(HINTS_CELL[True])
    check_notice(b, "E.E.E.E.E", "X-shaped error pattern")
    check(b.app.state == app.PLAY and b.app.hint_outcomes() is None, "plays, hints off")
    b.press(4)
    b.run(100)
    p = b.picture()
    check("W" in p.upper(), "the fallback AI thinks in white: " + p)
    result = play_out(b, "first")
    log("fallback game result", result, b.show())


def _walked(b, limit=20000):
    """Run until the background check of the tables is done; the virtual
    ms it took from power-on."""
    while b.runner.walk is not None:
        check(b.now < limit, "the tables' check still running after %d ms" % limit)
        b.run(100)
    return b.now


def table_check(folder):
    """Right tables: the background check walks every record and says
    nothing, the tables stay, and its code is unloaded when done."""
    b = boot(folder)
    choose(b, rules.TACTICTOE, YOU_X, ai.PERFECT, True)
    b.press(4)
    ms = _walked(b)
    check(b.app.tables[rules.CLASSIC] is not None and b.app.tables[rules.TACTICTOE] is not None, "both kept")
    check(b.app.problems == {}, "no problems: %r" % b.app.problems)
    check(not [line for line in b.lines if "table" in line], "nothing said: %r" % b.lines)
    check("tactictoe.tablewalk" not in sys.modules, "the check's code is unloaded")
    check(b.app.hint_outcomes() is not None, "hints still on")
    log("tables checked by", ms, "ms; nothing said")


def table_wrong(folder):
    """A table power-on accepted but whose records are not in order (two
    swapped, or one doubled, inside a bucket): the background check finds
    it while a game of it is on. The console says so as power-on would; the
    game plays on with the fallback AI (its white thinking light) and no
    hints; the red X shows before the next game; the menu marks the game."""
    b = boot(folder)
    choose(b, rules.TACTICTOE, YOU_X, ai.PERFECT, True)
    b.press(1)
    b.wait_human()
    plies = b.app.match.plies
    check(b.app.hint_outcomes() is not None, "hints on before the check finds it")
    while not [line for line in b.lines if "out of order" in line]:
        check(b.now < 20000, "the wrong table was never caught: %r" % b.lines)
        b.run(50)
    line = [line for line in b.lines if "out of order" in line][0]
    check(line.startswith("tactictoe: table %s/lib/tactictoe/tactictoe.tbl: table records out of order at record "
                          % folder) and line.endswith("; its perfect level plays a minimax search instead, and"
                                                      " hints are off"), line)
    log("caught", line.split(": ", 2)[2], "by", b.now // 100 * 100, "ms")
    check(b.app.state == app.PLAY and b.app.match.plies == plies, "the game goes on")
    check(b.app.tables[rules.TACTICTOE] is None and b.app.hint_outcomes() is None, "no table, no hints")
    b.press(b.app.match.pos.legal_moves()[0])
    b.run(100)
    check("W" in b.picture().upper(), "the fallback AI thinks in white: " + b.picture())
    result = play_out(b, "first")
    log("game played out with the fallback", result)
    b.run(app.OVER_GUARD_MS)
    b.press(0)
    check_notice(b, "E.E.E.E.E", "the red X before the next game")
    check(b.app.state == app.PLAY and b.app.match.plies == 0, "then the next game")
    b.hold(0, b.cfg["timing"]["long_press_ms"] + 100)
    p = b.picture()
    check(p[5] in "Oo" and p[8] in "Ee", "the game menu marks the game: " + p)
    check(b.runner.walk is None and "tactictoe.tablewalk" not in sys.modules, "the check is over and unloaded")
    check(b.app.tables[rules.CLASSIC] is not None, "classic's table kept")
    log("red X, then the fallback; menu", b.show())


def config_problem(folder):
    b = sim.Board(folder)
    said = [line for line in b.lines if line.startswith("config:")]
    check(said, "console reports the config problem: %r" % b.lines)
    log(said[0])
    b.run(app.SELFTEST_MS + 20)
    check_notice(b, "N.N...N.N", "corner notice pattern")
    check(b.app.state == app.MENU, "then the menu")


def safe_mode(folder):
    from tactictoe import config
    from tactictoe import main
    cfg, _ = config.load(folder + "/board.json")
    fingers.wire(cfg["input"])
    fingers.held = 1 << 4  # the centre held at power-on
    main.run(folder)  # returns at once instead of starting the game
    frame = sim.chain(cfg)
    p = 3 * cfg["leds"]["order"][4]  # the centre's pixel
    check(frame is not None and frame[:p] + frame[p + 3:] == bytes(len(frame) - 3), "only the centre is lit")
    centre = frame[p:p + 3]
    blue = cfg["leds"]["colour_order"].index("B")
    check(centre[blue] > 0 and sum(centre) == centre[blue], "dim blue centre: %r" % (centre,))
    log("safe mode: centre blue, game not started")


def crash(folder):
    b = boot(folder)
    choose(b, rules.CLASSIC, YOU_O, ai.PERFECT)

    def broken(*a, **k):
        raise RuntimeError("simulated fault")

    ai.choose_move = broken
    b.run(b.cfg["timing"]["think_ms"] + 100)
    check(b.app.state == app.MENU, "an unexpected error returns to the menu")
    check(any("simulated fault" in line for line in b.lines), "and is reported")
    log("recovered to menu", b.show())


def wiring(folder, rises=False):
    """A quick two-player classic game through whatever wiring board.json has."""
    b = boot(folder, 1, rises)
    inp = b.cfg["input"]
    if inp["kind"] == "matrix" and hasattr(fingers, "modes"):
        # rows are open-drain, so two keys down in a column can't short them
        check(all(fingers.modes[r] == fingers.Pin.OPEN_DRAIN for r in inp["rows"]), "open-drain rows")
    choose(b, rules.CLASSIC, TWO)
    for cell in (0, 3, 1, 4, 2):
        b.press(cell)
    check(b.app.match.result == rules.X, "X wins through the %s wiring" % b.cfg["input"]["kind"])
    check_win_frame(b)
    if b.cfg["buzzer"] is not None:
        check(len(fingers.tones) > 5 and any(d for _, d in fingers.tones), "buzzer played")
        log("tones", len(fingers.tones))


def touch_errors(folder, rises=False):
    """An ESP32 pad that raises "Touch pad error" (pressed hard) counts as
    touched, whichever way the chip's readings move, and the board plays on."""
    b = boot(folder, 1, rises)
    choose(b, rules.CLASSIC, TWO)
    fingers.flaky = 1 << 4  # the centre pad errors while pressed
    b.press(4)
    fingers.flaky = 0
    check(b.app.match.pos.piece_at(4) == rules.X, "the erroring pad was a touch")
    b.press(0)
    check(b.app.match.pos.piece_at(0) == rules.O, "and the others still work")
    log("touch pad errors count as touches")


def games(folder):
    vs_board(folder, rules.CLASSIC, YOU_X, ai.PERFECT, "perfect", 5)  # perfect vs perfect: draw
    b, r = vs_board(folder, rules.TACTICTOE, YOU_O, ai.PERFECT, "first", 6)
    check(r == rules.X, "the board as X beats a careless O")
    vs_board(folder, rules.TACTICTOE, YOU_X, ai.EASY, "perfect", 7)
    vs_board(folder, rules.CLASSIC, YOU_O, ai.MEDIUM, "first", 8)


SCENARIOS = {
    "selftest": selftest, "menu": menu_screens, "two-classic": two_players,
    "two-tactictoe": lambda f: two_players(f, rules.TACTICTOE), "vanishing": vanishing,
    "repetition": repetition, "games": games, "demo-classic": lambda f: demo(f, rules.CLASSIC),
    "demo-tactictoe": lambda f: demo(f, rules.TACTICTOE), "hints": hints, "long-press": long_press,
    "fallback": fallback, "config-problem": config_problem, "safe-mode": safe_mode, "crash": crash,
    "wiring": wiring, "wiring-rises": lambda f: wiring(f, True),
    "touch-errors": touch_errors, "touch-errors-rises": lambda f: touch_errors(f, True),
    "ai-turn-press": ai_turn_press, "table-breaks": table_breaks, "key-errors": key_errors,
    "table-check": table_check, "table-wrong": table_wrong, "at-once": at_once,
    "save-without-leds": save_without_leds,
}

def main(folder, name):
    try:
        SCENARIOS[name](folder)
    except AssertionError as e:
        print("FAIL", e)
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
