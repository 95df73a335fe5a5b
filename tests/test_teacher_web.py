"""The board as a teacher on the web page (``make web``: the firmware in
MicroPython's WebAssembly port, in headless Chromium): the trainer
catching a blunder and a double tap taking it back, a puzzle solved by
clicking, and the score screen's narration in the caption beside the
board, after a power cycle. Every wait is on the page's state (its LEDs,
its console, its caption), never on the clock.
"""

import pytest

from tactictoe import ai, app, narrate_text, puzzles, rules
from test_web import LEVEL_SCREEN, MODE_SCREEN, Board, _Later, browser, need, site, tables  # noqa: F401

MENU = [1, 3, 5, 7]  # the first screen: puzzles, classic, tactic-toe, score
HELP = [3, 4, 5]  # no help, the trainer, hints and the trainer
SCORE = [3, 5]  # keep it, reset it


@pytest.fixture
def board(browser, site):  # noqa: F811
    b = _Later(lambda: Board(need(browser).new_page(), site))
    yield b
    if b._it is not None:
        b._it.page.close()


@pytest.fixture(scope="module")
def book(table_files):
    import os

    return puzzles.Puzzles(os.path.join(os.path.dirname(table_files[rules.CLASSIC]), puzzles.NAME))


def said(board, text):
    """Until the narration has said ``text`` (on the console, after "> ")."""
    board.wait("(t) => board.lines.includes('> ' + t)", text, "the narration to say %r" % text)


def caption(board):
    return board.page.get_by_role("status", name="what the board shows").locator("li").all_inner_texts()


TAP_TWICE = """(n) => {
    for (let i = 0; i < 2; i++) {
        for (const type of ["keydown", "keyup"]) document.dispatchEvent(new KeyboardEvent(type, {key: String(n)}));
    }
}"""


def double_tap(board, cell, tries=5):
    """Two taps on ``cell`` (its key on the keyboard), at once: the page
    holds the second until its key scans have seen the first let go past
    the debounce (board.js), a person's quick double tap, well within the
    firmware's 700 ms on the page's own clock. On a machine starved of CPU
    the scans can come so late that the board takes the second tap as a
    first one (it says "Tap N again" once more); then, once the board has
    run past that window (on its own clock, ``board.progress``), two taps
    again, ``tries`` times at most. Returns the number of the console's
    take-back line."""
    armed = "> Tap cell %d again to undo " % cell
    at = board.end()
    for _ in range(tries):
        board.page.evaluate(TAP_TWICE, cell)
        at, _ = board.wait_line(armed, at)  # the first tap
        at, line = board.wait_line((armed, "classic: take back "), at + 1)  # the second
        if not line.startswith(armed):
            return at
        past = board.page.evaluate("board.progress") + app.UNDO_TAP_MS
        board.wait("(p) => board.progress > p", past, "the board's clock past the take-back window")
        at += 1
    raise AssertionError("%d double taps on %d, each taken as two single taps; the board's last lines:\n%s"
                         % (tries, cell, "\n".join(board.lines()[-20:])))


def leds(board):
    return board.page.evaluate("board.leds")


def test_a_blunder_is_caught_and_taken_back_on_the_page(board, tables):  # noqa: F811
    t = tables[rules.CLASSIC]
    board.wait_lit(MENU)
    board.tap(3)  # classic
    board.wait_lit(MODE_SCREEN)
    board.tap(2)  # you are O
    board.wait_lit(LEVEL_SCREEN)
    board.tap(8)  # perfect
    board.wait_lit(HELP)
    board.tap(4)  # the trainer
    at, line = board.wait_line("classic: X ")
    x = int(line.split()[-1])
    said(board, "Your move (O): tap a free cell.")
    board.wait_lit(range(9))  # X's mark, O's free cells glowing
    before = leds(board)
    pos = rules.Position(rules.CLASSIC)
    pos.push(x)
    cell = [c for c in pos.legal_moves() if ai.verdict(t, pos, c)][0]
    value, best, mask = ai.verdict(t, pos, cell)
    better = [c for c in range(9) if mask >> c & 1]
    board.tap(cell)
    at, _ = board.wait_line("classic: O %d" % cell, at)
    lesson = narrate_text.lesson("O", cell, value, best, mask)
    said(board, "Tap cell %d twice to undo it, or any other cell to play on." % cell)
    assert caption(board)[-2:] == [lesson, "Tap cell %d twice to undo it, or any other cell to play on." % cell]
    # While the board waits: the blunder blinks red, the better cells glow
    # in O's colour (blue), X's mark stays, the other cells are dark.
    board.wait("""([cell, better, x]) => {
        const l = board.leds;
        const dark = l.every((rgb, c) => c === cell || c === x || better.includes(c) || rgb.every(v => v === 0));
        return l[cell][0] > 0 && l[cell][1] === 0 && l[cell][2] === 0 && dark && l[x][0] > l[x][2]
            && better.every(c => l[c][2] > l[c][0]);
    }""", [cell, better, x])
    at, line = board.wait_line("classic: take back ", double_tap(board, cell))
    assert line == "classic: take back 1"
    said(board, "Undid 1 move.")
    board.wait("(t) => board.caption.at(-1) === t", "Your move (O): tap a free cell.")
    assert caption(board)[-3:] == ["Tap cell %d again to undo that move." % cell, "Undid 1 move.",
                                   "Your move (O): tap a free cell."]
    board.wait_lit(range(9))
    assert leds(board) == before  # X's mark alone, O's free cells glowing as before the move
    # The board never moved while it waited.
    assert [line for line in board.lines() if line.startswith("classic: ")] == [
        "classic: X %d" % x, "classic: O %d" % cell, "classic: take back 1"]
    assert board.errors == []


def _posed_from_leds(board, want):
    """The puzzle's position as the LEDs show it: marks bright, X's orange
    and O's blue; it must be one of the puzzle's eight turns."""
    lit = leds(board)
    top = max(max(rgb) for rgb in lit)
    sides = [0, 0]
    for c, rgb in enumerate(lit):
        if max(rgb) > top // 2:
            sides[0 if rgb[0] > rgb[2] else 1] |= 1 << c
    pos = rules.Position(rules.CLASSIC)
    pos.sides[0], pos.sides[1] = sides
    pos.turn = want.turn
    return pos


def test_a_puzzle_solved_and_the_score_screen_in_the_caption(board, tables, book):  # noqa: F811
    t = tables[rules.CLASSIC]
    want, plies = book.get(0)
    assert want.game == rules.CLASSIC
    n = len(book)
    me, other = rules.PLAYERS[want.turn], rules.PLAYERS[want.turn ^ 1]
    board.wait_lit(MENU)
    board.tap(1)
    moves = (plies + 1) // 2
    said(board, "Puzzle 1 of %d, classic: you are %s; win in %d move%s. The board defends as well as it can."
         % (n, me, moves, "" if moves == 1 else "s"))
    said(board, "Your move (%s): tap a free cell." % me)
    turns = {(rules.transform(rules.CLASSIC, want.sides[0], k), rules.transform(rules.CLASSIC, want.sides[1], k))
             for k in range(8)}
    marks = bin(want.sides[0] | want.sides[1]).count("1")
    board.wait("(k) => board.leds.filter(rgb => Math.max(...rgb) > 40).length === k", marks)
    pos = _posed_from_leds(board, want)
    assert (pos.sides[0], pos.sides[1]) in turns
    at = 0
    while True:
        move = ai.best_moves(t, pos)[0]
        board.tap(move)
        at, _ = board.wait_line("classic: %s %d" % (me, move), at)
        pos.push(move)
        if pos.is_over():
            break
        at, line = board.wait_line("classic: %s " % other, at + 1)
        pos.push(int(line.split()[-1]))
        assert not pos.is_over()
    board.wait_line("classic: %s wins" % me, at)
    said(board, "Puzzle 1 solved!")
    said(board, "Puzzles solved: 1 of %d." % n)
    # Power-cycled, the score screen (key 7): the caption says the score,
    # kept on the board's flash.
    # (every frame kept: the self-test's first pixel lasts 60 ms of the
    # board's time, which a poll can miss on a busy machine, as test_web's)
    board.page.evaluate("board.record = []")
    board.page.evaluate("board.powerCycle()")
    board.wait_line("--- power-cycled ---")
    board.wait("board.frames > 0 && board.record.some(leds => leds.filter(rgb => rgb.some(v => v > 0)).length === 1)")
    board.wait_lit(MENU)
    board.tap(7)
    board.wait_lit(SCORE)
    text = "Your score: no games yet; puzzles solved: 1 of %d." % n
    board.wait("(t) => board.caption.includes(t) && board.caption.at(-1).startsWith('Tap a lit cell')", text)
    shown = caption(board)
    assert shown[-4:] == [text, "Your score: cell 3 keep it (back to the menu), cell 5 reset it (every count to 0).",
                          "Pulsing now: cell 3, keep it.",
                          "Tap a lit cell to choose; hold any cell 1.5 s to start over."]
    board.tap(5)  # reset it
    board.wait("(t) => board.caption.includes(t)", "The score is reset: every count is back to 0.")
    board.wait_lit(MENU)
    board.tap(7)
    board.wait("(t) => board.caption.includes(t)",
               "Your score: no games yet; puzzles solved: 0 of %d." % n)
    assert board.errors == []
