"""The board as a teacher on the real MicroPython rp2 port in an emulated
RP2040 (``pico_board``, in lockstep on the emulated clock): the trainer
catching a blunder and a double tap taking it back, a take-back chain to
the empty board, the puzzles solved and failed, and the score on the
flash across a power cycle and a save cut short.

The moves are chosen with the firmware's own table code on the host; the
board's moves are read from its console, a puzzle's position from the LED
frames decoded from its data pin (puzzles come turned by a random
symmetry).
"""

import os

import pytest

from live_sim import is_self_test
from pico_board import PicoRun, flash_image, is_menu
from tactictoe import ai, narrate_text, puzzles, rules, score, table


@pytest.fixture(scope="module")
def image(tmp_path_factory, table_files):
    """The littlefs image make flash leaves on a pico-buttons board
    (tables and puzzles.bin)."""
    d = tmp_path_factory.mktemp("teacher")
    return flash_image(d / "flash.lfs", tables_dir=os.path.dirname(table_files[rules.CLASSIC]))


@pytest.fixture
def board(image, tmp_path):
    """A fresh board on a copy of the image: (the board, its flash file)."""
    flash = tmp_path / "flash.lfs"
    flash.write_bytes(open(image, "rb").read())
    b = PicoRun(str(flash))
    yield b
    b.close()


@pytest.fixture(scope="module")
def tables(table_files):
    out = {g: table.Table(path, g) for g, path in table_files.items()}
    yield out
    for t in out.values():
        t.close()


@pytest.fixture(scope="module")
def book(table_files):
    return puzzles.Puzzles(os.path.join(os.path.dirname(table_files[rules.CLASSIC]), puzzles.NAME))


def said(b, text, limit_ms=3000):
    """The next narration line that is ``text`` exactly."""
    line = "serial > " + text
    return b.wait(lambda got: got == line, limit_ms, repr(text))


def menu(b, *keys):
    """From power-on: the first menu screen, then ``keys`` tapped in turn."""
    b.wait(is_menu, 5000, "the menu")
    for key in keys:
        b.tap(key)


def now_showing(b, settle_ms=150):
    """The frame on the LEDs now, split: [frame, ms, grid (9 letters), [hex by cell]]."""
    b.run(settle_ms)
    f = b.frames()[-1].split()
    return [f[0], int(f[1]), f[2].replace("/", ""), f[3].split(",")]


def frames_since(b, start):
    return [(line.split()[2].replace("/", ""), line.split()[3].split(",")) for line in b.lines[start:]
            if line.startswith("frame ")]


def board_reply(b, game, player):
    line = b.wait(lambda got: got.startswith("serial %s: %s " % (rules.GAMES[game], player)), 20000,
                  "the board's move")
    return int(line.split()[-1])


def classic_position(grid, turn):
    """A classic position read off a frame: marks at full brightness
    (upper case), free cells glowing faintly (lower case) or dark."""
    pos = rules.Position(rules.CLASSIC)
    for c, ch in enumerate(grid):
        if ch == "X":
            pos.sides[0] |= 1 << c
        elif ch == "O":
            pos.sides[1] |= 1 << c
    pos.turn = turn
    return pos


def test_a_blunder_is_caught_shown_and_taken_back_by_a_double_tap(board, tables):
    """Classic, you are O against the perfect board, the trainer on: a move
    that lets X win is caught at once; the board waits, the better cells
    pulse in O's colour and the blunder blinks red; tapping it twice takes
    it back, and the board is as before the move."""
    b = board
    t = tables[rules.CLASSIC]
    menu(b, 3, 2, 8, 4)  # classic, you are O, perfect, trainer
    said(b, "New game of classic: you are O against the perfect board; the trainer on.")
    x = board_reply(b, rules.CLASSIC, "X")
    said(b, "Your move (O): tap a free cell.")
    pos = rules.Position(rules.CLASSIC)
    pos.push(x)
    before = now_showing(b)
    bad = [c for c in pos.legal_moves() if ai.verdict(t, pos, c)]
    assert bad, "after X's opening some move of O's must lose"
    cell = bad[0]
    value, best, mask = ai.verdict(t, pos, cell)
    assert mask and not mask >> cell & 1
    b.tap(cell)
    b.serial("classic: O %d" % cell, 1000)
    said(b, "You (O) played on cell %d." % cell)
    said(b, narrate_text.lesson("O", cell, value, best, mask))
    said(b, "Tap cell %d twice to undo it, or any other cell to play on." % cell)
    start = len(b.lines)
    b.run(1600)  # two periods of the pulse, four of the blink
    shown = frames_since(b, start)
    assert len(shown) > 20
    # The board waits: no move of X's in all that time.
    assert not [line for line in b.lines[start:] if line.startswith("serial classic: X")]
    better = [c for c in range(9) if mask >> c & 1]
    for grid, _ in shown:
        assert grid[x] == "X" and all(grid[c] in "Oo" for c in better), grid
        assert all(grid[c] == "." for c in range(9) if c not in better and c not in (x, cell)), grid
    assert {grid[cell] for grid, _ in shown} == {"R", "O"}  # the blunder blinks red
    for c in better:  # ...and the better cells pulse
        assert len({hexes[c] for _, hexes in shown}) > 3
    # The double tap on the blunder: the first arms, the second takes back.
    b.tap(cell)
    said(b, "Tap cell %d again to undo that move." % cell)
    b.tap(cell)
    b.serial("classic: take back 1", 1000)
    said(b, "Undid 1 move.")
    said(b, "Your move (O): tap a free cell.")
    after = now_showing(b)
    assert after[2] == before[2] and after[3] == before[3]  # X's mark alone, O's free cells glowing
    assert after[2][x] == "X" and after[2].count("o") == 8
    # Now the better move: no verdict, and the board answers.
    b.tap(better[0])
    b.serial("classic: O %d" % better[0], 1000)
    board_reply(b, rules.CLASSIC, "X")
    assert not [line for line in b.lines if "fault" in line.split()[:1]]


def test_take_backs_chain_to_the_empty_board_in_tactictoe(board, tables):
    """Tactic-toe, you are X against the perfect board: five moves each
    (marks have vanished), then a double tap on the newest mark, again and
    again, takes back two plies each time, the vanished marks back in place,
    until the board is empty."""
    b = board
    t = tables[rules.TACTICTOE]
    menu(b, 5, 0, 8, 3)  # tactic-toe, you are X, perfect, no help
    said(b, "New game of tactic-toe: you are X against the perfect board; no help.")
    said(b, "Your move (X): tap a free cell.")
    empty = now_showing(b)
    assert empty[2] == "xxxxxxxxx" and len(set(empty[3])) == 1
    faint = empty[3][0]
    pos = rules.Position(rules.TACTICTOE)
    seen = [(pos.sides[0], pos.sides[1])]  # the position before each of X's moves
    last_o = []
    for _ in range(5):
        move = ai.best_moves(t, pos)[0]
        b.tap(move)
        b.serial("tactictoe: X %d" % move, 1000)
        pos.push(move)
        o = board_reply(b, rules.TACTICTOE, "O")
        pos.push(o)
        pos.clear_stack()
        assert not pos.is_over()
        seen.append((pos.sides[0], pos.sides[1]))
        last_o.append(o)
    said(b, "Your move (X): tap a free cell.")
    while len(seen) > 1:
        newest = last_o.pop()
        b.tap(newest)
        said(b, "Tap cell %d again to undo your move and the board's reply." % newest)
        b.tap(newest)
        b.serial("tactictoe: take back 2", 1000)
        said(b, "Undid 2 moves.")
        said(b, "Your move (X): tap a free cell.")
        seen.pop()
        expect = rules.Position(rules.TACTICTOE)
        expect.sides[0], expect.sides[1] = seen[-1]
        shown = now_showing(b)
        grid, hexes = shown[2], shown[3]
        for c in range(9):
            piece = expect.piece_at(c)
            if piece is None:
                assert grid[c] == "x" and hexes[c] == faint, (c, grid, hexes)
            else:
                assert grid[c].upper() == rules.PLAYERS[piece] and hexes[c] != faint, (c, grid, hexes)
    assert now_showing(b)[2:] == empty[2:]  # the empty board, X to move
    takes = [line for line in b.lines if line.startswith("serial tactictoe: take back")]
    assert takes == ["serial tactictoe: take back 2"] * 5


def _pose(b, book, n):
    """Puzzle ``n`` (from 1) as the board poses it: its narration, its
    position read off the LEDs (one of the puzzle's eight turns); returns
    (pos, plies)."""
    want, plies = book.get(n - 1)
    assert want.game == rules.CLASSIC  # (read off the frame below as classic)
    moves = (plies + 1) // 2
    said(b, "Puzzle %d of %d, classic: you are %s; win in %d move%s. The board defends as well as it can."
         % (n, len(book), rules.PLAYERS[want.turn], moves, "" if moves == 1 else "s"), 5000)
    said(b, "Your move (%s): tap a free cell." % rules.PLAYERS[want.turn])
    shown = now_showing(b)
    pos = classic_position(shown[2], want.turn)
    turns = {(rules.transform(rules.CLASSIC, want.sides[0], k), rules.transform(rules.CLASSIC, want.sides[1], k))
             for k in range(8)}
    assert (pos.sides[0], pos.sides[1]) in turns, shown
    mover = "xo"[want.turn]
    assert all(shown[2][c] == mover for c in range(9) if pos.piece_at(c) is None), shown
    return pos, plies


def _solve(b, tables, pos):
    """Play the fastest win, reading the board's defence off the console."""
    me, other = rules.PLAYERS[pos.turn], rules.PLAYERS[pos.turn ^ 1]
    while True:
        move = ai.best_moves(tables[rules.CLASSIC], pos)[0]
        b.tap(move)
        b.serial("classic: %s %d" % (me, move), 1000)
        pos.push(move)
        if pos.is_over():
            break
        pos.push(board_reply(b, rules.CLASSIC, other))
        assert not pos.is_over()
    assert pos.winner() is not None
    b.serial("classic: %s wins" % me, 1000)


def _score_screen(b):
    """From the first menu screen: the score screen's narration of it."""
    b.tap(7)
    line = b.wait(lambda got: got.startswith("serial > Your score: "), 3000, "the score")
    return line[len("serial > "):]


def test_puzzles_solved_and_failed_and_the_score_kept_on_the_flash(board, tables, book):
    """Key 1: the easiest puzzle, solved; the next one, failed by a move that
    lets the win go; the count said each time. Power-cycled, the score
    screen says the same count; a save cut before its first flash write
    (the power gone as the next puzzle is solved) leaves the old score."""
    b = board
    n = len(book)
    menu(b, 1)
    pos, plies = _pose(b, book, 1)
    _solve(b, tables, pos)
    said(b, "Puzzle 1 solved!")
    said(b, "Puzzles solved: 1 of %d." % n)
    said(b, "Tap any cell for the next puzzle; hold one 1.5 s for the menu.")
    b.run(800)
    b.tap(4)
    pos, plies = _pose(b, book, 2)
    bad = [c for c in pos.legal_moves() if ai.verdict(tables[rules.CLASSIC], pos, c)]
    assert bad
    me = rules.PLAYERS[pos.turn]
    b.tap(bad[0])
    b.serial("classic: %s %d" % (me, bad[0]), 1000)
    said(b, "You (%s) played on cell %d." % (me, bad[0]))
    value, best, mask = ai.verdict(tables[rules.CLASSIC], pos, bad[0])
    said(b, narrate_text.lesson(me, bad[0], value, best, mask))
    said(b, "Puzzle 2 failed.")
    said(b, "Puzzles solved: 1 of %d." % n)
    said(b, "Tap any cell for another try; hold one 1.5 s for the menu.")
    # Power-cycled: the score read back from its file on the flash.
    b.chip.power_cycle()
    b.wait(is_self_test, 3000, "the self-test again")
    menu(b)
    assert _score_screen(b) == "Your score: no games yet; puzzles solved: 1 of %d." % n
    b.tap(3)  # keep it
    said(b, "Choose a game: cell 3 classic (3 in a row wins), cell 5 tactic-toe (old marks vanish),"
         " cell 1 puzzles (win in N moves), cell 7 score (see or reset it).")
    # Puzzle 2 again (the easiest unsolved), solved, but the power cut before
    # the first erase or program of the save that would remember it.
    b.tap(1)
    pos, plies = _pose(b, book, 2)
    b.chip.cut_power(1)
    _solve(b, tables, pos)
    cut = b.wait(lambda line: line.startswith("power ") and line.endswith(" cut"), 3000, "the cut")
    assert cut
    b.chip.cut_power(0)
    b.wait(is_self_test, 3000, "the power back on")
    menu(b)
    assert _score_screen(b) == "Your score: no games yet; puzzles solved: 1 of %d." % n
    # Back on the menu and the same puzzle solved, the save let through.
    b.tap(3)
    b.tap(1)
    pos, plies = _pose(b, book, 2)
    _solve(b, tables, pos)
    said(b, "Puzzle 2 solved!")
    said(b, "Puzzles solved: 2 of %d." % n)
    b.chip.power_cycle()
    b.wait(is_self_test, 3000, "the self-test again")
    menu(b)
    assert _score_screen(b) == "Your score: no games yet; puzzles solved: 2 of %d." % n
    assert not [line for line in b.lines if "unreadable" in line or line.startswith("fault")]


def test_played_on_after_a_blunder_the_loss_is_scored_and_kept(board, tables, book):
    """The trainer catches O's blunder; any other key plays on (it is no
    move); the board wins, and the narration says the score kept for
    classic against the perfect board; power-cycled, the score screen says
    the same loss."""
    b = board
    t = tables[rules.CLASSIC]
    menu(b, 3, 2, 8, 4)  # classic, you are O, perfect, trainer
    pos = rules.Position(rules.CLASSIC)
    pos.push(board_reply(b, rules.CLASSIC, "X"))
    said(b, "Your move (O): tap a free cell.")
    cell = [c for c in pos.legal_moves() if ai.verdict(t, pos, c)][0]
    b.tap(cell)
    pos.push(cell)
    said(b, "Tap cell %d twice to undo it, or any other cell to play on." % cell)
    other = [c for c in pos.legal_moves()][0]
    start = len(b.lines)
    b.tap(other)  # plays on: not a move of O's
    pos.push(board_reply(b, rules.CLASSIC, "X"))
    assert not [line for line in b.lines[start:] if line.startswith("serial classic: O")]
    while not pos.is_over():
        move = pos.legal_moves()[0]  # lost already: no move of O's is caught again
        b.tap(move)
        b.serial("classic: O %d" % move, 1000)
        pos.push(move)
        if not pos.is_over():
            pos.push(board_reply(b, rules.CLASSIC, "X"))
    assert pos.winner() == rules.X
    b.serial("classic: X wins", 2000)
    said(b, "Score, classic against the perfect board: you won 0, drew 0, lost 1.")
    said(b, "Tap any cell to play again; hold one 1.5 s for the menu.")
    assert len([line for line in b.lines if line.startswith("serial > Tap cell %d twice" % cell)]) == 1
    b.chip.power_cycle()
    b.wait(is_self_test, 3000, "the self-test again")
    menu(b)
    assert _score_screen(b) == (
        "Your score: classic against the perfect board: won 0, drew 0, lost 1; puzzles solved: 0 of %d." % len(book))


def test_a_puzzle_save_cut_before_each_of_its_flash_writes(board, tables, book, tmp_path):
    """The first puzzle solved with the power cut before the 1st, 2nd, ...
    flash erase or program from the winning move on, until a save gets
    through: after each cut the board powers on with the old score (none
    solved), never an unreadable one; then with the puzzle solved, and no
    .tmp left on the flash."""
    from host_tools.drive import picofs

    b = board
    n = len(book)
    cuts = []  # (erase|program, address, bytes) of each operation a cut came before
    chained = b.chip.on_event

    def on_event(words):
        if words[0] == "cut":
            cuts.append(words[2:])
        chained(words)

    b.chip.on_event = on_event
    k = 0
    while True:
        k += 1
        assert k < 20, "no save got through"
        menu(b, 1)
        pos, plies = _pose(b, book, 1)
        b.chip.cut_power(k)
        _solve(b, tables, pos)
        line = b.wait(lambda got: got == "serial > Puzzle 1 solved!" or got.startswith("power ") and
                      got.endswith(" cut"), 5000, "the puzzle solved, or the power cut")
        if line.startswith("serial"):
            break
        assert len(cuts) == k
        b.wait(is_self_test, 3000, "the power back on")
        menu(b)
        assert _score_screen(b).endswith("puzzles solved: 0 of %d." % n), k
        b.tap(3)  # keep it: back to the first screen
    b.chip.cut_power(0)
    said(b, "Puzzles solved: 1 of %d." % n)
    assert k > 2 and [c[0] for c in cuts] and {c[0] for c in cuts} <= {"erase", "program"}, cuts
    b.chip.power_cycle()
    b.wait(is_self_test, 3000, "the self-test again")
    menu(b)
    assert _score_screen(b).endswith("puzzles solved: 1 of %d." % n)
    assert not [line for line in b.lines if "unreadable" in line or line.startswith("fault")]
    b.close()
    files = picofs.read_image(open(str(tmp_path / "flash.lfs"), "rb").read())
    assert score.PATH in files and score.PATH + ".tmp" not in files
