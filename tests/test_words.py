"""What a new user reads and sees (issue 32, "What a new user stumbled on"):
one word for each thing (a cell is a board position, a key a physical key,
Undo the one name of taking back), score lines that fit the MacroPad's
glass at any count, hints that never have a mark's colour, a new game that
says its help, the score screen per game and level, a double tap that waits
for a player who stops to look, a long press on an occupied cell that goes
to the menu without a refusal first.

CPython through loop.build as the board's loop drives it (test_panel's
``Board``), and the MacroPad on the Unix port with its SH1106's glass read
back as the chip decoded it (test_bought_sim's ``replay``).
"""

import re

import pytest
from hypothesis import example, given, settings, strategies as st

from tactictoe import ai, app, config, rules, score, words
from test_bought_sim import rendered, replay, screens
from test_panel import UNDO_K, Board, FakeHw, macropad_cfg
from tactictoe import table

# A cell named as a key ("key 4", "Key 4"), or the take-back's other names.
KEY_FOR_CELL = re.compile(r"\b[Kk]eys? \d")
OTHER_UNDO_NAMES = re.compile(r"[Tt]ake[ -]?back|[Tt]ook back|\bBack\b")


@pytest.fixture(scope="module")
def tables(table_files):
    return {g: table.Table(path, g) for g, path in table_files.items()}


def grid_board(tables):
    return Board(tables, config.validate(config.DEFAULT), FakeHw(screen=False))


# --- one word for each thing -----------------------------------------------------------------------


events = st.lists(st.tuples(st.integers(0, 11), st.sampled_from([80, 80, 80, 1700]), st.integers(0, 3000)),
                  max_size=40)


@settings(max_examples=25, deadline=None)
@given(seq=events, panel=st.booleans())
def test_the_narration_names_cells_as_cells_and_undo_as_undo(tables, seq, panel):
    """Whatever is pressed, no narrated line calls a cell a key, or the
    take-back anything but undo; every "cell N" names a cell 0-8."""
    b = Board(tables) if panel else grid_board(tables)
    for key, ms, after in seq:
        if key >= 9 and not panel:
            key -= 9
        b.press(key, ms, after)
    for line in b.said:
        assert not KEY_FOR_CELL.search(line), line
        assert not OTHER_UNDO_NAMES.search(line), line
        assert all(int(n) < 9 for n in re.findall(r"\bcells? (\d+)", line, re.I)), line


def test_the_menu_and_a_game_say_cell_and_one_phrasing_of_who_goes_first(tables, shipped):
    b = Board(tables, config.validate(config.DEFAULT), FakeHw(screen=False), puzzles=shipped)
    assert b.said[-3:] == [
        "Choose a game: cell 3 classic (3 in a row wins), cell 5 tactic-toe (old marks vanish),"
        " cell 1 puzzles (win in N moves), cell 7 score (see or reset it).",
        "Pulsing now: cell 5, tactic-toe.", "Tap a lit cell to choose; hold any cell 1.5 s to start over."]
    b.press(3)
    assert b.said[-3] == ("Who plays? cell 0 you are X (you go first), cell 2 you are O (board goes first),"
                          " cell 6 two players (take turns), cell 8 demo (board vs board).")
    b.press(0)
    b.press(8)
    b.press(3)
    b.press(4)
    b.wait_human()
    assert "You (X) played on cell 4." in b.said and "The board (O) is thinking." in b.said
    assert re.fullmatch(r"The board \(O\) played on cell \d\.", b.said[-2]), b.said[-2]
    assert b.said[-1] == "Your move (X): tap a free cell."


def test_the_screen_labels_the_menu_key_menu_and_the_undo_key_undo(tables):
    b = Board(tables)
    b.press(3)  # classic
    assert b.hw.lines[:2] == ("Who plays?", "> You are X") and b.hw.lines[4] == "Menu"
    for c in (0, 6, 3):  # you are X, easy, no help
        b.press(c)
    b.press(4)
    b.wait_human()
    assert b.hw.lines[4].split() == ["Menu", "Hint", "Undo"]
    b.press(UNDO_K)
    assert "Undid 2 moves." in b.said


# --- score lines that fit the glass ----------------------------------------------------------------


def parse_counts(line, labels):
    """The three counts a score line shows, each as (its text, the value
    range it stands for)."""
    m = re.fullmatch(r"(?:You: )?%s(\d+[kM]?) ?%s(\d+[kM]?) ?%s(\d+[kM]?)" % tuple(labels), line)
    assert m, "not a score line: %r" % line
    out = []
    for text in m.groups():
        unit = {"k": 1000, "M": 1000000}.get(text[-1], 1)
        n = int(text.rstrip("kM")) * unit
        out.append((n, n + unit - 1))
    return out


def shows_counts(line, labels, values):
    return all(lo <= v <= hi for (lo, hi), v in zip(parse_counts(line, labels), values))


@given(values=st.tuples(*[st.integers(0, 0xFFFF)] * 3), two=st.booleans())
@example(values=(100, 10, 12), two=False)  # the issue's "You: W100 D10 L1"
@example(values=(0xFFFF, 0xFFFF, 0xFFFF), two=True)
def test_a_score_line_fits_and_shows_every_count(values, two):
    line = words.counts("", "XOD", values) if two else words.counts("You: ", "WDL", values)
    assert len(line) <= words.WIDTH, line
    assert shows_counts(line, "XOD" if two else "WDL", values), line
    if len("You: W%d D%d L%d" % values) <= words.WIDTH and not two:
        assert line == "You: W%d D%d L%d" % values  # exact while it fits


def font():
    """Each printable character's 8x8 glyph, as the Unix port's framebuf
    draws it (the firmware's font): {pixels: char}."""
    chars = [chr(c) for c in range(32, 127)]
    glyphs = {}
    for start in range(0, len(chars), 80):
        chunk = chars[start:start + 80]
        lines = ["".join(chunk[i:i + 16]) for i in range(0, len(chunk), 16)]
        glass = rendered(lines)
        for row, text in enumerate(lines):
            for col, ch in enumerate(text):
                glyphs.setdefault(glyph(glass, row, col), ch)
    return glyphs


def glyph(glass, row, col):
    # The 8x8 pixels of text line ``row`` (14 rows apart), character ``col``, MONO_VLSB.
    return tuple(glass[(y // 8) * 128 + x] >> (y % 8) & 1 for y in range(14 * row, 14 * row + 8)
                 for x in range(8 * col, 8 * col + 8))


def read_glass(glass, glyphs):
    """The glass's five lines of text, as its pixels show them ("?" for a
    cell that is no character)."""
    return [("".join(glyphs.get(glyph(glass, row, col), "?") for col in range(16))).rstrip() for row in range(5)]


@pytest.fixture(scope="module")
def glyphs():
    return font()


def test_the_glass_reader_reads_what_framebuf_writes(glyphs):
    lines = ["Classic", "You X vs Perfect", "Your move (X)", "You: W0 D0 L0", "Menu  Hint  Undo"]
    assert read_glass(rendered(lines), glyphs) == lines


@settings(max_examples=3, deadline=None)  # (a boot each: the layout's every count is the test above's)
@given(values=st.tuples(*[st.integers(0, 0xFFFF)] * 3))
@example(values=(100, 10, 12))  # the issue's: "You: W100 D10 L1" on the glass
@example(values=(0xFFFF, 0xFFFF, 0xFFFF))
def test_the_macropad_s_glass_shows_every_count_of_the_score(values, tmp_path_factory, tables_dir, glyphs):
    """The score kept for classic against the perfect board, in the flash's
    score.bin; the play screen's score line read off the SH1106's glass as
    the chip decoded it."""
    tmp_path = tmp_path_factory.mktemp("glass")
    flash = tmp_path / "flash-macropad"
    flash.mkdir()
    s = score.Score(str(flash / "score.bin"))
    for result, n in enumerate(values):
        for _ in range(n):
            s.record(rules.CLASSIC, ai.PERFECT, result)
    s.save()
    out = replay(tmp_path, tables_dir, "macropad", "wait 1700\ntap 3\ntap 0\ntap 8\ntap 3\nwait 300\n")
    seen = read_glass(screens(out)[-1], glyphs)
    assert seen[:3] == ["Classic", "You X vs Perfect", "Your move (X)"], seen
    assert shows_counts(seen[3], "WDL", values), seen


@pytest.fixture(scope="module")
def tables_dir(table_files):
    import os

    return os.path.dirname(table_files[rules.CLASSIC])


# --- hints that never have a mark's colour ---------------------------------------------------------


def mark_shades(colour):
    return {tuple(v * level >> 8 for v in colour) for level in range(1, 257)}


@pytest.mark.parametrize("mode_cell", [0, 6])  # you are X (hints, then the trainer), two players
def test_hints_at_every_phase_never_have_a_mark_s_colour(tables, mode_cell):
    b = Board(tables)
    b.start(game_cell=3, mode_cell=mode_cell, level_cell=8 if mode_cell == 0 else None, hints_cell=5)
    b.press(1)  # classic, an edge: O's move next (the board's, or the second player's)
    b.wait_human()
    marks = set()
    for c in (rules.X, rules.O):
        marks |= mark_shades(b.app.colours["x" if c == rules.X else "o"])
    hinted = 0
    t0 = b.app.t0
    for t in range(0, 2000, 10):  # a draw hint's whole breath, four of a win's pulses: their peaks too
        b.app.frame(t0 + t)
        cv = b.app.canvas.buf
        outcomes = b.app.hint_outcomes()
        for c in range(9):
            if outcomes[c] in (1, 2):  # a draw or a win: the lit hints
                rgb = tuple(cv[3 * c:3 * c + 3])
                assert rgb not in marks, (t, c, rgb)
                hinted += 1
    assert hinted


def test_the_trainer_s_better_moves_never_have_a_mark_s_colour(tables):
    b = Board(tables)
    b.start(game_cell=3, mode_cell=2, level_cell=8, hints_cell=4)  # classic, you are O, perfect, trainer
    b.wait_human()
    pos, table = b.app.match.pos, b.app.tables[rules.CLASSIC]
    bad = [c for c in range(9) if pos.piece_at(c) is None and ai.verdict(table, pos, c) is not None]
    assert bad  # (after X's first move, O has a losing reply)
    b.press(bad[0])
    assert b.app.blunder
    marks = mark_shades(b.app.colours["x"]) | mark_shades(b.app.colours["o"])
    for t in range(0, 800, 10):  # a whole pulse of the better moves, its peak too
        cv = b.app.frame(b.app.t0 + t).buf
        for c in range(9):
            if b.app.blunder >> c & 1:
                assert tuple(cv[3 * c:3 * c + 3]) not in marks, (t, c)


# --- a new game says its help; the score per game and level ----------------------------------------


@pytest.mark.parametrize("help_cell, said", [(3, "no help"), (4, "the trainer on"), (5, "hints on")])
def test_a_new_game_says_its_help(tables, help_cell, said):
    b = grid_board(tables)
    b.start(game_cell=3, mode_cell=0, level_cell=8, hints_cell=help_cell)
    assert "New game of classic: you are X against the perfect board; %s." % said in b.said


def test_the_screen_turns_between_the_game_and_its_help(tables):
    b = Board(tables)
    b.start(game_cell=3, mode_cell=0, level_cell=6, hints_cell=4)  # the trainer
    seen = set()
    for _ in range(3):
        seen.add(b.app.text(b.now)[0])
        b.run(words._PAGE_MS)
    assert seen == {"Classic", "With the trainer"}


def test_the_score_screen_shows_each_game_and_level_the_score_keeps(tables):
    b = Board(tables)
    s = b.app.score
    s.record(rules.CLASSIC, ai.EASY, score.WON)
    s.record(rules.TACTICTOE, ai.PERFECT, score.LOST)
    s.record(rules.TACTICTOE, ai.PERFECT, score.LOST)
    s.record_two(rules.CLASSIC, -1)
    b.press(7)
    assert b.said[-4] == ("Your score: classic against the easy board: won 1, drew 0, lost 0; classic for two:"
                          " X won 0, O won 0, 1 drawn; tactic-toe against the perfect board: won 0, drew 0,"
                          " lost 2; puzzles solved: 0 of %d." % b.app.puzzle_count())
    pages = []
    for _ in range(4):
        pages.append(b.app.text(b.now)[:4])
        b.run(words._PAGE_MS)
    n = b.app.puzzle_count()
    assert sorted(pages) == sorted([("Classic", "You vs Easy", "W1 D0 L0", "> Keep it"),
                                    ("Classic", "Two players", "X0 O0 D1", "> Keep it"),
                                    ("Tactic-toe", "You vs Perfect", "W0 D0 L2", "> Keep it"),
                                    ("Puzzles solved:", "0 of %d" % n, "", "> Keep it")])


def test_an_empty_score_says_so(tables):
    b = grid_board(tables)
    b.press(7)
    assert b.said[-4] == "Your score: no games yet; puzzles solved: 0 of %d." % b.app.puzzle_count()


# --- gestures --------------------------------------------------------------------------------------


@pytest.mark.parametrize("pause", [300, 800, 1500])
def test_a_double_tap_with_a_pause_to_look_undoes(tables, pause):
    b = grid_board(tables)
    b.start(game_cell=3, mode_cell=6, level_cell=None, hints_cell=3)  # classic, two players
    b.press(4)
    b.press(4, after=pause)
    assert b.app.match.plies == 1  # armed, not a move
    b.press(4)
    assert b.app.match.plies == 0 and "Undid 1 move." in b.said


def test_a_second_tap_long_after_the_first_undoes_nothing(tables):
    b = grid_board(tables)
    b.start(game_cell=3, mode_cell=6, level_cell=None, hints_cell=3)
    b.press(4)
    b.press(4, after=app.UNDO_TAP_MS + 100)
    b.press(4)
    assert b.app.match.plies == 1  # that tap armed it again


def test_a_long_press_on_an_occupied_cell_goes_to_the_menu_without_a_refusal(tables):
    b = grid_board(tables)
    b.start(game_cell=3, mode_cell=6, level_cell=None, hints_cell=3)
    b.press(4)
    b.press(0)  # O; 4 is now an old mark, not the newest
    n = len(b.said)
    b.press(4, ms=b.app.timing["long_press_ms"] + 100)
    assert b.app.state == app.MENU
    assert not [line for line in b.said[n:] if "can't be played" in line], b.said[n:]
    assert b.app.refused < 0


def test_a_tap_on_an_occupied_cell_is_refused_when_let_go(tables):
    b = grid_board(tables)
    b.start(game_cell=3, mode_cell=6, level_cell=None, hints_cell=3)
    b.press(4)
    b.press(0)
    b.press(4)
    assert b.said[-1] == "Cell 4 can't be played now: tap a free cell." and b.app.refused == 4


# --- make sim's caption: the current screen, its question always ----------------------------------


MENU_SAID = ("Choose a game: cell 3 classic (3 in a row wins), cell 5 tactic-toe (old marks vanish),"
             " cell 1 puzzles (win in N moves), cell 7 score (see or reset it).",
             "Pulsing now: cell 5, tactic-toe.",
             "Turn the dial and press it, or tap a lit cell, to choose; hold any cell 1.5 s to start over.")


def console_at(t):
    from host_tools.sim.terminal import ConsoleLines

    console = ConsoleLines(clock=lambda: t[0])

    def say(*lines, at):
        t[0] = at
        console("".join("> %s\r\n" % line for line in lines).encode())

    return console, say


@pytest.mark.parametrize("width, rows", [(34, 4), (44, 5), (100, 8)])  # the MacroPad's, full size and 80x24
def test_the_caption_shows_the_menu_s_question_and_no_stale_lines(width, rows):
    console, say = console_at([0.0])
    say("Testing the lights.", at=0)
    say(*MENU_SAID, at=2)
    say("Pulsing now: cell 1, puzzles.", at=4)  # the dial turned: the pick changes in place
    shown = console.caption(width, rows)
    assert len(shown) <= rows and all(len(line) <= width for line in shown), shown
    assert shown[0].startswith("Choose a game: cell 3 classic")
    assert "Pulsing now: cell 1, puzzles." in shown and not any("cell 5, tactic" in line for line in shown)
    assert not any("Testing" in line for line in shown)
    say("Who plays? cell 0 you are X (you go first), cell 2 you are O (board goes first).",
        "Pulsing now: cell 0, you are X.", "Turn the dial and press it, or tap a lit cell, to choose.", at=9)
    shown = console.caption(width, rows)
    assert shown[0].startswith("Who plays?") and not any("Choose a game" in line for line in shown), shown
    say("Cell 4 is not an option here: tap a lit cell.", at=12)  # a refusal joins the screen it refuses on
    shown = console.caption(width, rows)
    assert shown[0].startswith("Who plays?") and shown[-1].startswith("Cell 4 is not"), shown


# --- the pictures: docs/web.png is what make web-picture would draw --------------------------------


def test_docs_web_png_is_what_make_web_picture_would_draw_now(tmp_path, tables_dir):
    """Cheaply, without Chromium (the picture takes a minute or more): the
    digest of what made docs/web.png (the page's files and the generator's
    steps, stamped in the PNG by make web-picture) is the digest of the site
    make web builds now."""
    import os

    from host_tools import web
    from host_tools.web import picture

    site = str(tmp_path / "site")
    web.build(site, tables_dir)
    with open(os.path.join(web.ROOT, "docs", "web.png"), "rb") as f:
        png = f.read()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert picture.stamped(png) == picture.inputs(site), "docs/web.png is stale: run `make web-picture`"


def test_a_stamp_is_read_back_and_tells_a_changed_site(tmp_path):
    from host_tools.web import picture

    png = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + bytes(13) + b"\x00" * 4 + b"\x00\x00\x00\x00IEND\xaeB`\x82"
    assert picture.stamped(png) is None and picture.stamped(picture.stamp(png, "ab12")) == "ab12"
    site = tmp_path / "site"
    (site / "hardware").mkdir(parents=True)
    (site / "index.html").write_text("a")
    before = picture.inputs(str(site))
    (site / "hardware" / "README.html").write_text("the guide: not on the page")
    assert picture.inputs(str(site)) == before
    (site / "index.html").write_text("b")
    assert picture.inputs(str(site)) != before


@pytest.mark.parametrize("name, hardware", [("keypad", "pico-rgb-keypad"), ("keybow", "keybow2040"),
                                            ("macropad", "macropad")])
def test_only_the_macropad_s_sim_lists_a_dial(name, hardware):
    """F19: make sim's drawing of a board without an encoder, full size and
    compact, names no dial (nor its keys); the MacroPad's does."""
    from host_tools.sim import terminal
    from test_sim_terminal import _pad_board

    board = _pad_board(name, hardware, [(0, 0, 0, 31)] * 16)
    pad = terminal.pad_of(board)
    for cols, rows in ((200, 50), (80, 24)):
        pieces = terminal.pad_picture(board, pad, terminal.ConsoleLines(), cols, rows)
        text = " ".join(re.sub("\x1b\\[[0-9;?]*[a-zA-Z]", "", piece) for piece in pieces.values())
        dial = re.search(r"dial|encoder|Enter: push", text)
        assert bool(dial) == (name == "macropad"), (cols, dial and dial.group())


# --- every better move on the glass (issue 33) ------------------------------------------------------


def better_shown(lines):
    """The cells a screen's "Better:" line, and the line after it if it
    goes on, name."""
    for i, line in enumerate(lines):
        if line.startswith("Better:"):
            shown = line[len("Better:"):].split()
            if i + 1 < len(lines) and lines[i + 1].startswith(" " * len("Better:")):
                shown += lines[i + 1].split()
            return sorted(int(c) for c in shown)
    return []


@pytest.fixture(scope="module")
def screens_of(tables, shipped):
    """The trainer's screen (the MacroPad's, ``soft``, or one without
    function keys) after a move on the lowest cell outside ``mask`` that
    lets the other player win in 2, the moves of ``mask`` better."""
    boards = {}

    def make(mask, soft, puzzle=False):
        if soft not in boards:
            cfg = macropad_cfg()
            if not soft:
                cfg["extra"], cfg["encoder"] = [], None
            boards[soft] = Board(tables, cfg)
            boards[soft].start(game_cell=5, mode_cell=0, level_cell=8, hints_cell=4)
            boards[soft].app.match.play(4)  # (X's move, the board's turn: what a catch leaves)
        a = boards[soft].app
        a.blunder, a.caught = mask, ([c for c in range(9) if not mask >> c & 1][0], 4, 0)
        a.state, a.puzzle, a.puzzles = (app.OVER, 0, shipped) if puzzle else (app.PLAY, -1, None)
        a.solved = False
        return words.Words(a).lines()

    return make


def test_every_mask_s_better_moves_fit_the_lines(screens_of):
    """Every mask of 1 to 8 cells, with soft keys and without: each better
    cell on the screen, every line within 16 characters, the soft keys'
    line last, and the rest of the screen kept while it fits."""
    for mask in range(1, 0x1FF):
        for soft in (True, False):
            lines = screens_of(mask, soft)
            assert better_shown(lines) == [c for c in range(9) if mask >> c & 1], (mask, lines)
            assert len(lines) <= words.LINES and all(len(line) <= words.WIDTH for line in lines), lines
            cell = [c for c in range(9) if not mask >> c & 1][0]
            assert lines[0].endswith(" on %d:" % cell) and lines[1].endswith(" wins in 2"), lines
            if soft:
                assert lines[4].split()[-1] == "Undo"  # (what the dropped "Undo: try again" said)
            if ai.bits(mask) <= 4 or not soft:
                assert "Undo: try again" in lines or "2x tap %d: undo" % cell in lines, lines
            lines = screens_of(mask, soft, puzzle=True)  # a failed puzzle's screen
            assert better_shown(lines) == [c for c in range(9) if mask >> c & 1], (mask, lines)
            assert lines[0] == "Puzzle failed" and "Tap: try again" in lines and len(lines) <= words.LINES, lines
            assert all(len(line) <= words.WIDTH for line in lines), lines


@settings(max_examples=12, deadline=None)
@given(mask=st.integers(1, 0x1FE), soft=st.booleans())
@example(mask=0b101101101, soft=True)  # the issue's six: "Better: 0 2 3 5 6 8"
@example(mask=0b111101111, soft=True)  # eight
def test_the_glass_shows_every_better_move(screens_of, glyphs, mask, soft):
    """The trainer's screen as the Unix port's framebuf draws it on a
    128x64 glass, read back: every better cell is on it."""
    seen = read_glass(rendered(screens_of(mask, soft)), glyphs)
    assert better_shown(seen) == [c for c in range(9) if mask >> c & 1], seen


def test_the_issue_s_six_better_moves_all_show(tables, glyphs):
    """Classic, you X against the easy board (its reply scripted), the
    trainer on: X 1, O 4, X 7 throws the draw away; six moves kept it, and
    the MacroPad's screen shows all six."""
    from test_repetition import Script

    b = Board(tables)
    b.start(game_cell=3, mode_cell=0, level_cell=6, hints_cell=4)
    b.app.rng = Script([4])
    b.press(1)
    b.wait_human()
    b.press(7)
    b.run(100)
    assert b.app.blunder == 0b101101101
    seen = read_glass(rendered(b.hw.lines), glyphs)
    assert seen[:4] == ["X on 7:", "O wins in 3", "Better: 0 2 3 5", "        6 8"], seen
    assert seen[4].split() == ["Menu", "Undo"]
