"""The review of each game (issue 33): every judgement against the solver's
own values (not the table's: an independent computation), in random games
of both games with take-backs; the counts and the accuracy; the words on
the console and the screen; the grid after the result; the running
accuracy in the score, saved and read back."""

import re

import pytest
from hypothesis import given, settings, strategies as st

from tactictoe import ai, app, config, frames, keys, match, review, rules, score, table
from test_panel import Board, FakeHw, macropad_cfg

KINDS = (review.BEST, review.SLOWER, review.THREW_DRAW, review.THREW_WIN)


@pytest.fixture(scope="module")
def tables(table_files):
    return {g: table.Table(path, g) for g, path in table_files.items()}


def _goodness(sol, i, cell):
    """The mover's value of ``cell`` in state ``i`` as one number, from the
    solver's arrays: a win in d plies 1000 - d, a draw 0, a loss in d plies
    d - 1000 (a move into a line wins in 1, into a full board draws)."""
    j = int(sol.children[i, cell])
    if sol.terminal[j]:
        x, o = int(sol.sides.codes[sol.x[j]]), int(sol.sides.codes[sol.o[j]])
        return 999 if rules.Position(sol.game, x, o).winner() is not None else 0
    v = int(sol.value[j])  # the opponent's, one ply later
    if v & 0x40:
        return (v & 0x3F) + 1 - 1000
    return 1000 - (v + 1) if v else 0


def expected(sol, pos, cell):
    """The judgement the review must give, computed from the solver alone."""
    i = sol.state(pos)
    values = {c: _goodness(sol, i, c) for c in range(9) if int(sol.children[i, c]) >= 0}
    best, mine = max(values.values()), values[cell]
    if mine == best:
        return review.BEST
    if (mine > 0) == (best > 0) and (mine < 0) == (best < 0):
        return review.SLOWER
    return review.THREW_WIN if best > 0 else review.THREW_DRAW


def counts_of(history):
    """``{(player, kind): n}`` of ``[(mover, cell, kind), ...]``."""
    out = {}
    for mover, _, kind in history:
        out[mover, kind] = out.get((mover, kind), 0) + 1
    return out


def check(r, history):
    """The review ``r`` holds exactly ``history``'s judgements."""
    c = counts_of(history)
    for player in (rules.X, rules.O):
        n = sum(c.get((player, k), 0) for k in KINDS)
        points = 2 * c.get((player, review.BEST), 0) + c.get((player, review.SLOWER), 0)
        assert [r.count(player, k) for k in KINDS] == [c.get((player, k), 0) for k in KINDS]
        assert (r.count(player), r.points(player)) == (n, points)
        assert r.accuracy(player) == (100 * points // (2 * n) if n else -1)
    for ply, (mover, cell, kind) in enumerate(history, 1):
        assert r.notes[ply % len(r.notes)] == kind | cell << 3 | mover << 7
    assert r.notes[(len(history) + 1) % len(r.notes)] == 0  # a taken-back ply's note is gone


# --- every judgement, in random games with take-backs ---------------------------------


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from([rules.CLASSIC, rules.TACTICTOE]), steps=st.lists(st.integers(0, 2 ** 16), max_size=60))
def test_each_judgement_is_the_solver_s_and_take_backs_drop_theirs(solutions, tables, game, steps):
    """Random moves and take-backs through match.Match with a Review: each
    move judged by review.judge (the table) as the solver's values say,
    the counts, points and accuracy exact after every step."""
    sol, tb = solutions[game], tables[game]
    r = review.Review(len(match.ring()))
    r.clear(True)
    m = match.Match(game, match.TWO, None, None, r)
    history = []
    for step in steps:
        if m.result is None and (step % 5 or not m.back):
            cell = m.pos.legal_moves()[step % len(m.pos.legal_moves())]
            kind = review.judge(tb, m.pos, cell)
            assert kind == expected(sol, m.pos, cell), (m.pos.sides, m.pos.turn, cell)
            history.append((m.pos.turn, cell, kind))
            m.play(cell, kind)
        else:  # a take-back of 1 to 3 plies (a finished game goes on again)
            n = min(m.back, 1 + step // 5 % 3)
            m.undo(n)
            del history[len(history) - n:]
        check(r, history)


def test_a_long_game_keeps_exact_counts_and_lists_what_the_notes_hold():
    """Past the notes' length (the ring's), the counts stay exact and the
    moves that threw a value away are those of the last len(notes) plies."""
    r = review.Review(10)
    r.clear(True)
    kinds = [KINDS[p * 7 % 4] for p in range(1, 26)]  # 25 plies, every kind
    for p, kind in enumerate(kinds, 1):
        r.add(p, (p - 1) & 1, p % 9, kind)
    r.end(25)
    for player in (rules.X, rules.O):
        assert [r.count(player, k) for k in KINDS] == [
            sum(1 for p, k2 in enumerate(kinds, 1) if (p - 1) & 1 == player and k2 == k) for k in KINDS]
    listed = [p for p in range(16, 26) if kinds[p - 1] >= review.THREW_DRAW]
    assert r.listed == len(listed) and [r.thrown(k)[0] for k in range(r.listed)] == listed
    assert r.thrown(r.listed) == (r.listed, 0)


class Finished:
    """What the words read of a game against the board that ended: you are X."""

    mode = match.YOU_X
    roles = b""

    def __init__(self, r):
        self.review = r


def test_a_long_game_s_words_name_six_moves_of_a_kind_and_fit_the_screen():
    """320 plies judged, every third ply of each player a win thrown away:
    the console names the first six the notes hold, then says how many
    more; the screen's line lists the cells it has room for."""
    from tactictoe import narrate_text, words

    r = review.Review(len(match.ring()))
    r.clear(True)
    for p in range(1, 331):  # 10 plies more than the notes hold: the counts keep them
        r.add(p, (p - 1) & 1, p % 9, review.THREW_WIN if p % 3 == 0 else review.BEST)
    r.end(330)
    a = Finished(r)
    x = narrate_text.review_text(a, rules.X)
    thrown = [p for p in range(1, 331) if p % 3 == 0 and (p - 1) & 1 == rules.X]
    kept = [p for p in thrown if p > 10]
    named = "; ".join("move %d, cell %d" % ((p + 1) // 2, p % 9) for p in kept[:6])
    assert x == ("Review: you (X) 165 moves: %d best, %d threw a win away (%s; %d more); accuracy %d%%."
                 % (165 - len(thrown), len(thrown), named, len(thrown) - 6, 100 * (165 - len(thrown)) // 165))
    lines = words.Words(a)._review(1)
    assert lines[0] == "You (X): %d%%" % (100 * (165 - len(thrown)) // 165)
    assert lines[3].startswith("Threw %d: %d %d" % (len(thrown), kept[0] % 9, kept[1] % 9))


# --- through the game flow: the words, the grid, the score ---------------------------


def _fast(cfg):
    cfg["timing"]["think_ms"] = 20  # (the board's pause before it moves: the test's time)
    return cfg


class Pico(Board):
    """A nine-key board (the default config), the board quick to reply."""

    def __init__(self, tables, score_=None, seed=3, hw=None, cfg=None, puzzles_=None):
        self.cfg = _fast(cfg or config.validate(config.DEFAULT))
        self.hw = hw or FakeHw(self.cfg.get("screen") is not None)
        self.log, self.said = [], []
        from tactictoe import loop

        self.runner = loop.build(self.hw, self.cfg, dict(tables), {}, None, ai.Rng(seed), self._log, score=score_,
                                 puzzles=puzzles_)
        self.app = self.runner.app
        self.now = 0
        self.run(app.SELFTEST_MS + 20)

    def menu(self, *cells):
        for c in cells:
            self.press(c)


def _played(b, game):
    """The final game's moves from the console (its moves and take-backs):
    ``[(mover, cell), ...]``."""
    name = rules.GAMES[game]
    moves = []
    for line in b.log:
        mv = re.fullmatch(r"%s: ([XO]) (\d)" % name, line)
        if mv:
            moves.append((rules.PLAYERS.index(mv[1]), int(mv[2])))
        back = re.fullmatch(r"%s: take back (\d+)" % name, line)
        if back:
            del moves[len(moves) - int(back[1]):]
        if line.startswith("%s: " % name) and ("wins" in line or line.endswith("draw")):
            last = moves
            moves = []
    return last


def _judged(sol, game, moves):
    pos = rules.Position(game)
    out = []
    for mover, cell in moves:
        assert pos.turn == mover
        out.append((mover, cell, expected(sol, pos, cell)))
        pos.push(cell)
        pos.clear_stack()
    return out


def play_game(b, rng, undo_every=4):
    """Random moves of the person (a take-back now and then) until the end."""
    a = b.app
    n = 0
    while a.state == app.PLAY:
        b.wait_human()
        if a.state != app.PLAY:
            break
        n += 1
        if n % undo_every == 0 and a.undo_plies():
            cell = a.match.newest()
            b.press(cell, 40, 40)
            b.press(cell, 40, 40)
            continue
        moves = a.match.pos.legal_moves()
        b.press(moves[rng.draw(st.integers(0, len(moves) - 1))])
    assert a.state == app.OVER


def review_line(name, history, player):
    """The console's review line, written out from ``history`` as the docs say it."""
    mine = [(ply, cell, kind) for ply, (mover, cell, kind) in enumerate(history, 1) if mover == player]
    c = counts_of(history)
    n = len(mine)
    parts = ["%d best" % c.get((player, review.BEST), 0)]
    if c.get((player, review.SLOWER)):
        parts.append("%d slower" % c[player, review.SLOWER])
    for kind, what in ((review.THREW_WIN, "win"), (review.THREW_DRAW, "draw")):
        where = ["move %d, cell %d" % ((ply + 1) // 2, cell) for ply, cell, k in mine if k == kind]
        if where:
            named = where[:6] + (["%d more" % (len(where) - 6)] if len(where) > 6 else [])
            parts.append("%d threw a %s away (%s)" % (len(where), what, "; ".join(named)))
    if not any(k >= review.THREW_DRAW for _, _, k in mine):
        parts.append("none thrown away")
    points = sum(2 if k == review.BEST else k == review.SLOWER for _, _, k in mine)
    return "Review: %s %d move%s: %s; accuracy %d%%." % (name, n, "" if n == 1 else "s", ", ".join(parts),
                                                        100 * points // (2 * n))


@settings(max_examples=4, deadline=None)
@given(data=st.data(), game=st.sampled_from([rules.CLASSIC, rules.TACTICTOE]), mode=st.sampled_from([0, 2]))
def test_a_game_against_the_easy_board_is_reviewed_in_words_and_kept(solutions, tables, tmp_path_factory, data,
                                                                      game, mode):
    """You (X or O) against the easy board, with take-backs: the review
    says both players' moves as the solver judges the game's final moves;
    the score keeps yours and the recent accuracy, saved and read back."""
    path = str(tmp_path_factory.mktemp("score") / "score.bin")
    s = score.Score(path)
    s.load()
    b = Pico(tables, s, seed=data.draw(st.integers(1, 9999)))
    b.menu(3 if game == rules.CLASSIC else 5, mode, 6, 3)  # the game, you X / O, easy, no help
    play_game(b, data)
    history = _judged(solutions[game], game, _played(b, game))
    check(b.app.review, history)
    you = rules.X if mode == 0 else rules.O
    assert b.said[-3:-1] == [review_line("you (%s)" % "XO"[you], history, you),
                             review_line("the board (%s)" % "XO"[you ^ 1], history, you ^ 1)]
    mine = [k for mover, _, k in history if mover == you]
    points = sum(2 if k == review.BEST else k == review.SLOWER for k in mine)
    again = score.Score(path)  # what the flash holds: saved with the game's result
    again.load()
    assert again.reviewed(game) == (len(mine), points) and sum(again.games(game, ai.EASY)) == 1
    assert again.recent(game) == 50 * points // len(mine) == again.accuracy(game)


def test_the_recent_accuracy_is_an_exponential_average(tables, tmp_path):
    """Two games: the first sets the recent accuracy, the second moves it a
    quarter of the way ((3 * old + new) // 4); the whole-game accuracy
    counts every move."""
    path = str(tmp_path / "score.bin")
    s = score.Score(path)
    s.load()
    b = Pico(tables, s)
    b.menu(3, 0, 8, 3)  # classic, you are X, perfect, no help
    a = b.app
    firsts = []
    for blunder in (False, True):
        while a.state == app.PLAY:
            b.wait_human()
            if a.state == app.PLAY:
                pos = a.match.pos
                tb = a.tables[rules.CLASSIC]
                bad = [c for c in pos.legal_moves() if ai.verdict(tb, pos, c)]
                b.press(bad[0] if blunder and bad else ai.best_moves(tb, pos)[0])
        firsts.append(a.review.accuracy(rules.X))
        b.run(app.OVER_GUARD_MS)
        b.press(4)  # again
    assert firsts[0] == 100 and firsts[1] < 100
    again = score.Score(path)
    again.load()
    assert again.recent(rules.CLASSIC) == (3 * 100 + firsts[1]) // 4
    moves, points = again.reviewed(rules.CLASSIC)
    assert again.accuracy(rules.CLASSIC) == 50 * points // moves


def test_two_players_are_reviewed_but_not_kept_and_a_missing_table_says_so(tables, tmp_path):
    path = str(tmp_path / "score.bin")
    s = score.Score(path)
    s.load()
    b = Pico(tables, s)
    b.menu(3, 6, 3)  # classic, two players, no help: X wins on the top row (O throws the draw away)
    for c in (0, 3, 1, 4, 2):
        b.press(c)
    assert b.said[-3] == "Review: X 3 moves: 3 best, none thrown away; accuracy 100%."
    assert b.said[-2] == ("Review: O 2 moves: 0 best, 1 slower, 1 threw a draw away (move 1, cell 3);"
                          " accuracy 25%.")
    assert s.reviewed(rules.CLASSIC) == (0, 0) and s.recent(rules.CLASSIC) == -1  # yours only, against the board
    no_table = dict(tables)
    no_table[rules.CLASSIC] = None
    b = Pico(no_table, s)
    b.menu(3, 6, 3)
    b.run(2100)  # the red X: no classic table
    assert b.app.state == app.PLAY
    for c in (0, 3, 1, 4, 2):
        b.press(c)
    assert b.said[-2] == "No review of this game: it needs the classic table."
    assert not b.app.review.on and b.app.review.listed == 0


def test_the_screen_pages_the_review_after_the_result(tables):
    """A MacroPad: the result's page, then a page for each player, 2 s each."""
    b = Pico(tables, cfg=macropad_cfg())
    b.menu(3, 6, 3)  # classic, two players, no help
    for c in (0, 3, 1, 4, 2):
        b.press(c)
    a = b.app
    assert b.hw.lines[0] == "X wins!"
    b.run(a.t0 + 2000 - b.now + 20)
    assert b.hw.lines == ("X: 100%", "Best 3 of 3", "Slower 0", "None thrown away", "Menu")
    b.run(2000)
    assert b.hw.lines == ("O: 25%", "Best 0 of 2", "Slower 1", "Threw 1: 3", "Menu")
    b.run(2000)
    assert b.hw.lines[0] == "X wins!"
    assert all(len(line) <= 16 for line in b.hw.lines)


def _marks(a):
    return {c: a.match.pos.piece_at(c) for c in range(9) if a.match.pos.piece_at(c) is not None}


def test_the_grid_flashes_each_move_thrown_away_in_its_player_s_colour(tables):
    """A nine-key board: after the winning line's own animation, the move
    O threw away (cell 3) flashes in O's colour over the dimmed marks, then
    the result shows again; round and round."""
    b = Pico(tables)
    b.menu(3, 6, 3)
    for c in (0, 3, 1, 4, 2):
        b.press(c)
    a = b.app
    t0 = a.t0
    colour = {rules.X: a.colours["x"], rules.O: a.colours["o"]}
    marks = _marks(a)
    assert b.said[-2].endswith("(move 1, cell 3); accuracy 25%.")
    seen = {}
    for t in range(0, app.REVIEW_AT_MS + 2 * app.REVIEW_MOVE_MS, 50):
        a.frame(t0 + t)
        cv = a.canvas.buf
        rgb = {c: tuple(cv[3 * c:3 * c + 3]) for c in range(9)}
        slot = (t - app.REVIEW_AT_MS) // app.REVIEW_MOVE_MS if t >= app.REVIEW_AT_MS else -1
        if slot == 0:  # O's move on cell 3: O's colour, on and off
            seen.setdefault(rgb[3], t)
            for c, p in marks.items():
                if c != 3:
                    assert rgb[c] == tuple(v * 40 >> 8 for v in colour[p]), (t, c)
            assert rgb[3] in (colour[rules.O], (0, 0, 0))
        else:  # the result as ever: the line (0, 1, 2) blinks, then glows; the rest dim
            level = frames.blink(t, 300) if t < 2400 else frames.pulse(t, 1200, 96)
            for c, p in marks.items():
                assert rgb[c] == tuple(v * (level if c < 3 else 48) >> 8 for v in colour[p]), (t, c)
    assert set(seen) == {colour[rules.O], (0, 0, 0)}


def test_a_game_without_a_move_thrown_away_ends_as_ever(tables):
    """Perfect against perfect (you play the best moves): a draw, every
    move best; the words say none was thrown away and the grid breathes the
    draw as it always has."""
    b = Pico(tables)
    b.menu(3, 0, 8, 3)
    a = b.app
    while a.state == app.PLAY:
        b.wait_human()
        if a.state == app.PLAY:
            b.press(ai.best_moves(a.tables[rules.CLASSIC], a.match.pos)[0])
    assert a.match.result == -1 and a.review.listed == 0
    assert b.said[-3] == "Review: you (X) 5 moves: 5 best, none thrown away; accuracy 100%."
    t0 = a.t0
    for t in range(0, 6000, 70):
        a.frame(t0 + t)
        level = frames.pulse(t, 1400, 30)
        for c, p in _marks(a).items():
            assert tuple(a.canvas.buf[3 * c:3 * c + 3]) == tuple(
                v * level >> 8 for v in a.colours["x" if p == rules.X else "o"]), (t, c)


def test_the_captions_show_the_end_s_review(tables):
    """The end's narration (the result, the score, the two reviews, what
    next) fits the captions: the terminal simulator's (host_tools.sim.terminal,
    fed as the console prints it) and the web page's (web/board.js keeps its
    last CAPTION_LINES lines)."""
    import os

    from host_tools.sim import terminal

    b = Pico(tables)
    b.menu(3, 6, 3)
    for c in (0, 3, 1, 4, 2):
        b.press(c)
    end = b.said[b.said.index("X played on cell 2: X wins!"):]
    assert [line.split(":")[0] for line in end] == [
        "X played on cell 2", "Score, classic for two", "Review", "Review",
        "Tap any cell to play again; hold one 1.5 s for the menu."]
    console = terminal.ConsoleLines(clock=lambda: 0.0)
    console(b"".join(b"> " + line.encode() + b"\r\n" for line in end))
    assert console.said == end
    rows = console.caption(44, terminal.CAPTION_ROWS - 1)
    assert any(row.startswith("Review: X 3 moves:") for row in rows)
    assert any(row.startswith("Review: O 2 moves:") for row in rows)
    with open(os.path.join(os.path.dirname(__file__), "..", "web", "board.js")) as f:
        kept = int(re.search(r"const CAPTION_LINES = (\d+);", f.read())[1])
    assert kept >= len(end)


def test_a_puzzle_is_not_reviewed(tables, table_files, tmp_path):
    """A puzzle's moves are judged already (a wrong one ends it): no review,
    said or kept."""
    import os

    from tactictoe import puzzles

    s = score.Score(str(tmp_path / "score.bin"))
    s.load()
    b = Pico(tables, s, puzzles_=puzzles.Puzzles(os.path.join(os.path.dirname(table_files[0]), "puzzles.bin")))
    b.press(1)  # the easiest puzzle
    start = len(b.said)
    a = b.app
    while a.state == app.PLAY:
        b.wait_human()
        if a.state == app.PLAY:
            b.press(ai.best_moves(a.tables[a.game], a.match.pos)[0])
    assert a.solved and not a.review.on and a.review.listed == 0
    assert not [line for line in b.said[start:] if "review" in line.lower()]
    assert s.reviewed(rules.CLASSIC) == s.reviewed(rules.TACTICTOE) == (0, 0)


def test_a_person_s_move_is_lit_before_the_review_reads_the_table(tables, monkeypatch):
    """The review judges a person's move after the frame that lights it
    (App.save, called by the loop after the frame; or the next update):
    the table is not read between the press and its light."""
    b = Pico(tables, score.Score(None, lambda line: None))
    b.menu(5, 0, 8, 3)  # tactic-toe, you are X, perfect, no help
    a = b.app
    b.wait_human()
    calls = []
    real = review.judge
    monkeypatch.setattr(review, "judge", lambda *args: calls.append(args[2]) or real(*args))
    cell = a.match.pos.legal_moves()[0]
    a.update(b.now, keys.PRESS | cell)
    assert a.match.pos.piece_at(cell) == rules.X and calls == []  # played, not judged yet
    lit = a.frame(b.now).buf[3 * cell:3 * cell + 3]
    assert tuple(lit) == tuple(a.colours["x"]) and calls == []  # lit in X's colour, still not judged
    a.save()
    assert calls == [cell] and a.review.count(rules.X) == 1  # (a corner: X's win is on an edge)
    a.save()
    a.update(b.now)
    assert calls == [cell]  # judged once


def test_the_macropad_s_glass_pages_the_review(table_files, tmp_path, glyphs):
    """The MacroPad in the simulator (its SH1106 modelled): a two-player
    classic game, X 0 1 2 against O 3 4; the review's pages read off the
    glass as the chip decoded it, after the result's."""
    import os

    from test_bought_sim import replay, screens
    from test_words import read_glass

    script = "wait 1700\ntap 3\ntap 6\ntap 3\nwait 300\n" + "".join("tap %d\nwait 300\n" % c for c in (0, 3, 1, 4, 2))
    out = replay(tmp_path, os.path.dirname(table_files[rules.CLASSIC]), "macropad", script, "--then", "4500")
    pages = []
    for glass in screens(out):
        text = read_glass(glass, glyphs)[:4]
        if not pages or pages[-1] != text:
            pages.append(text)
    end = [p for p in pages if p[0] in ("X wins!", "X: 100%", "O: 25%")]
    assert end[:3] == [end[0], ["X: 100%", "Best 3 of 3", "Slower 0", "None thrown away"],
                       ["O: 25%", "Best 0 of 2", "Slower 1", "Threw 1: 3"]], pages[-4:]
    assert end[0][0] == "X wins!"


@pytest.fixture(scope="module")
def glyphs():
    from test_words import font

    return font()


def test_a_judgement_that_fails_ends_the_review_not_the_game(tables, monkeypatch):
    """Anything a person's judgement raises after the frame (here a
    MemoryError, as a fragmented heap would) is one console line: the game
    plays on through the real loop, with no review."""
    b = Pico(tables)
    b.menu(3, 0, 8, 3)  # classic, you are X, perfect, no help

    def broken(*args):
        raise MemoryError("memory allocation failed")

    monkeypatch.setattr(review, "judge", broken)
    b.wait_human()
    b.press(4)  # through loop.Runner: the frame, then save() and its settle()
    assert not b.app.review.on and any(line.startswith("review: MemoryError") for line in b.log), b.log[-3:]
    b.wait_human()
    assert b.app.state == app.PLAY and b.app.match.plies == 2  # the board replied: the game goes on


def test_a_table_found_wrong_mid_game_leaves_no_review_on_the_grid(tables, table_files):
    """Moves judged before the table was found wrong are not flashed: the
    words say there is no review, and the grid shows the result only."""
    own = {g: table.Table(path, g) for g, path in table_files.items()}  # (table_wrong closes it)
    b = Pico(own)
    b.menu(3, 6, 3)  # classic, two players, no help
    for c in (0, 3):  # X 0, O 3: O throws its draw away (judged before the table goes)
        b.press(c)
    b.app.table_wrong(rules.CLASSIC, "CRC-32 mismatch")
    for c in (1, 4, 2):
        b.press(c)
    a = b.app
    assert a.state == app.OVER and a.match.result == rules.X
    assert not a.review.on and a.review.listed == 0
    assert any("No review of this game" in line for line in b.said), b.said[-5:]


def test_the_macropad_s_undo_key_takes_back_a_move_the_review_still_owes(tables):
    """A driver that calls update() but not save(): the Undo key's take-back
    comes after the owed judgement, which it then drops."""
    from test_panel import UNDO_K

    b = Pico(tables, cfg=macropad_cfg())
    b.menu(3, 6, 3)  # classic, two players, no help
    a = b.app
    a._move(b.now, 0)  # X 0, judged later (no save())
    a.update(b.now, keys.TAP | UNDO_K)
    assert a.match.plies == 0 and a.review.count(rules.X) == 0 and not a.review.owed[0]
