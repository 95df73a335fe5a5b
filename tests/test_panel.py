"""The game flow on boards with function keys, an encoder and a screen
(firmware/tactictoe/panel.py, words.py): the keys and the encoder drive the
menu and the game, the take-back restores the exact position, the screen's
lines fit, and a board with the grid alone runs what it ran before. CPython,
through loop.build and Runner as the board's loop drives them, with a fake
hardware layer (the facade's calls: scan, turns, show, text, tone)."""

import os
import subprocess
import sys

import pytest
from hypothesis import event, given, settings, strategies as st

from tactictoe import ai, app, config, keys, loop, match, panel, rules, table, words
from tactictoe.keys import LONG, PRESS, TAP, TURN
from conftest import FIRMWARE, HANG_S, MPY_SCRIPTS

MENU_K, HINT_K, UNDO_K, SELECT_K = 9, 10, 11, 12  # the MacroPad's extra keys, as its config lists them


def macropad_cfg(screen=True, encoder=True):
    cfg = config.validate(config.DEFAULT)
    cfg["extra"] = [{"role": "menu", "led": 0}, {"role": "hint", "led": 1}, {"role": "undo", "led": 2}]
    if encoder:
        cfg["extra"].append({"role": "select", "led": None})
    cfg["encoder"] = {"pins": [18, 17]} if encoder else None
    cfg["screen"] = {"kind": "sh1106"} if screen else None
    return cfg


class FakeHw:
    """The hardware facade's calls, with keys held and detents turned by the test."""

    def __init__(self, screen=True):
        self.held = 0
        self.detents = 0
        self.screen = "sh1106" if screen else None
        self.canvas = None
        self.lines = None
        self.texts = 0

    def scan(self):
        return self.held

    def turns(self):
        n, self.detents = self.detents, 0
        return n

    def show(self, canvas):
        self.canvas = bytes(canvas.buf)

    def text(self, lines):
        self.lines = lines
        self.texts += 1

    def tone(self, freq):
        pass


class Board:
    """A board built by loop.build, stepped as loop.run does on a simulated clock."""

    def __init__(self, tables, cfg=None, hw=None, seed=1, config_problem=None, puzzles=None):
        self.cfg = cfg or macropad_cfg()
        self.hw = hw or FakeHw(self.cfg.get("screen") is not None)
        self.log = []  # the console's lines, but the narration's
        self.said = []  # the narration's ("> ..."), without the "> "
        tables = dict(tables)  # (the app drops a table it finds wrong: not the fixture's)
        self.runner = loop.build(self.hw, self.cfg, tables, {}, config_problem, ai.Rng(seed), self._log,
                                 puzzles=puzzles)
        self.app = self.runner.app
        self.now = 0
        self.run(app.SELFTEST_MS + 20)

    def _log(self, line):
        if line.startswith("> "):
            self.said.append(line[2:])
        else:
            self.log.append(line)

    def run(self, ms):
        end = self.now + ms
        r = self.runner
        while self.now < end:
            self.now += 5
            r.tick(self.now)  # the keys, then the game step at once, as the loop does
            if self.now % 20 < 5:
                r.draw(self.now)

    def press(self, key, ms=80, after=60):
        self.hw.held |= 1 << key
        self.run(ms)
        self.hw.held &= ~(1 << key)
        self.run(after)

    def turn(self, detents):
        self.hw.detents += detents
        self.run(30)

    def wait_human(self):
        for _ in range(400):
            m = self.app.match
            if self.app.state != app.PLAY or not m.ai_turn():
                return
            self.run(50)
        raise AssertionError("the board never moved")

    def cell(self, c):
        return self.hw.canvas[3 * c:3 * c + 3]

    def start(self, game_cell=5, mode_cell=0, level_cell=8, hints_cell=3):
        """Through the menu by its cells (None: a screen the mode skips)."""
        for c in (game_cell, mode_cell, level_cell, hints_cell):
            if c is not None:
                self.press(c)
        assert self.app.state == app.PLAY


@pytest.fixture(scope="module")
def tables(table_files):
    return {g: table.Table(path, g) for g, path in table_files.items()}


def position(m):
    return list(m.pos.sides), m.pos.turn


# --- which flow a board gets ----------------------------------------------------


def test_a_grid_only_board_gets_todays_app_and_keys(tables):
    b = Board(tables, config.validate(config.DEFAULT), FakeHw(screen=False))
    assert type(b.app) is app.App and type(b.runner.keys) is keys.Keys
    assert len(b.hw.canvas) == 27 and b.hw.texts == 0


def test_a_hardware_layer_without_turns_or_screen_still_runs(tables):
    class Old:  # today's facade: scan, show, tone
        def scan(self):
            return 0

        def show(self, canvas):
            self.buf = bytes(canvas.buf)

        def tone(self, freq):
            pass

    b = Board(tables, macropad_cfg(), Old())
    assert b.app.state == app.MENU and len(b.hw.buf) == 3 * 13
    assert not [line for line in b.log if line.startswith("error")]


def test_a_board_with_extra_keys_gets_the_panel(tables):
    b = Board(tables)
    assert isinstance(b.app, panel.PanelApp) and isinstance(b.runner.keys, panel.PanelKeys)
    assert len(b.hw.canvas) == 3 * 13


# --- keys ---------------------------------------------------------------------


def test_sixteen_keys_tap_and_long_press():
    k = panel.PanelKeys(debounce_ms=10, long_ms=500)
    got = []
    for t, mask in ((0, 1 << 15), (100, 0), (200, 1 << 9), (900, 0)):
        for s in range(t, t + 100, 5):
            k.update(s, mask)
    for s in range(1000, 1100, 5):
        k.update(s, 0)
    e = k.get()
    while e:
        got.append(e)
        e = k.get()
    assert got == [PRESS | 15, TAP | 15, PRESS | 9, LONG | 9]


def test_turns_become_events_and_the_board_s_turn_keeps_the_extra_keys():
    k = panel.PanelKeys(debounce_ms=10)
    k.turn(2)
    k.turn(-1)
    assert [k.get(), k.get(), k.get(), k.get()] == [TURN | 1, TURN | 1, TURN, 0]
    for t, mask in ((0, 1 << 4 | 1 << 10), (50, 0)):
        for s in range(t, t + 50, 5):
            k.update(s, mask)
    k.ignore_taps()  # the board thinks: the grid's press and tap go, the hint key's stay
    assert [k.get(), k.get(), k.get()] == [PRESS | 10, TAP | 10, 0]


# --- take-back ------------------------------------------------------------------


# Mostly moves (a move's index among the legal ones), some take-backs of up
# to 40 plies: long games, take-backs of every depth the match allows.
ops = st.lists(st.one_of(st.tuples(st.just("play"), st.integers(0, 8)),
                         st.tuples(st.just("play"), st.integers(0, 8)),
                         st.tuples(st.just("play"), st.integers(0, 8)),
                         st.tuples(st.just("undo"), st.integers(1, 40))), max_size=400)


@settings(max_examples=60)
@given(game=st.sampled_from([rules.CLASSIC, rules.TACTICTOE]), ops=ops)
def test_take_back_gives_the_game_played_without_the_moves_taken_back(game, ops):
    """A match with take-backs is, at every step, the match that played only
    the moves that stayed: the position (tactic-toe's removed marks back in
    place, in their order), the ply count, the result, and so the
    repetition draws still to come."""
    m = match.Match(game, match.TWO, match.ring())
    kept = []
    most = 0
    for op, n in ops:
        if m.result is not None:
            break
        if op == "play":
            # Moves that don't win, while there are: long games, where
            # positions repeat (draws by repetition, past the 64-ply window too).
            moves = [c for c in m.pos.legal_moves() if not wins(m.pos, c)] or m.pos.legal_moves()
            m.play(moves[n % len(moves)])
            kept.append(moves[n % len(moves)])
            assert 1 <= m.back <= match.UNDO_PLIES and m.back <= m.plies
        elif n <= m.back:
            m.undo(n)
            del kept[len(kept) - n:]
            assert_same(m, kept)
        most = max(most, m.plies)
    assert_same(m, kept)
    event("longest: %s plies" % ("over 64" if most > 64 else "up to 64"))
    event("result: %s" % m.result)


@settings(max_examples=25)
@given(seed=st.integers(0, 0xFFFF))
def test_take_back_in_long_tactic_toe_games(seed):
    """The same, in games of hundreds of plies: take-backs across the
    64-ply window the repetition count keeps, down to the deepest allowed."""
    rng = ai.Rng(seed)
    m = match.Match(rules.TACTICTOE, match.TWO, match.ring())
    kept = []
    while m.result is None and m.plies < 200:
        if m.back and rng.bits16() % 12 == 0:
            most = min(m.back, 16)  # (deeper take-backs this often would never let the game get far)
            n = most if rng.bits16() % 2 else 1 + rng.bits16() % most
            m.undo(n)
            del kept[len(kept) - n:]
            if rng.bits16() % 4 == 0:
                assert_same(m, kept)
        moves = [c for c in m.pos.legal_moves() if not wins(m.pos, c)] or m.pos.legal_moves()
        kept.append(rng.choice(moves))
        m.play(kept[-1])
    assert_same(m, kept)
    event("plies: %s" % ("over 64" if m.plies > 64 else "up to 64"))


def assert_same(m, kept):
    ref = match.Match(m.game, match.TWO)
    for cell in kept:
        ref.play(cell)
    assert (position(m), m.plies, m.result, m.line) == (position(ref), ref.plies, ref.result, ref.line)


def wins(pos, cell):
    pos.push(cell)
    won = pos.winner() is not None
    pos.pop()
    return won


@given(moves=st.lists(st.integers(0, 8), max_size=40))
def test_push_then_take_back_is_the_position_before(moves):
    m = match.Match(rules.TACTICTOE, match.TWO, match.ring())
    for n in moves:
        if m.result is not None:
            break
        before = position(m), m.plies
        legal = m.pos.legal_moves()
        m.play(legal[n % len(legal)])
        if m.result is None:
            m.undo(1)
            assert (position(m), m.plies) == before
            m.play(legal[n % len(legal)])


def test_take_back_against_the_board_restores_a_removed_mark(tables):
    """X (you) places a 4th mark, its oldest leaves, the board replies; the
    take-back key brings back the position before X's move."""
    for seed in range(1, 30):  # a seed whose easy board lets X place a 4th mark
        b = Board(tables, seed=seed)
        b.start(level_cell=6)  # tactic-toe, you are X, easy
        while b.app.state == app.PLAY:
            b.wait_human()
            m = b.app.match
            if b.app.state != app.PLAY:
                break
            vanishing = m.pos.vanishing(rules.X)
            before = position(m)
            b.press(m.pos.legal_moves()[0])
            b.wait_human()
            if vanishing is not None and b.app.state == app.PLAY:
                assert m.pos.piece_at(vanishing) != rules.X  # it left as X placed the 4th
                b.press(UNDO_K)
                assert position(m) == before  # X's oldest mark back, the board's reply gone
                assert m.pos.piece_at(vanishing) == rules.X and m.pos.vanishing(rules.X) == vanishing
                assert b.log[-1] == "tactictoe: take back 2"
                return
    raise AssertionError("no game reached X's 4th mark")


def test_take_back_while_the_board_thinks_takes_back_your_move(tables):
    b = Board(tables)
    b.start()
    before = position(b.app.match)
    b.press(1)
    assert b.app.busy()  # the board thinks (think_ms): the take-back key still works
    b.press(UNDO_K)
    assert position(b.app.match) == before and not b.app.busy()


def test_nothing_to_take_back_at_the_start_in_the_demo_or_after_the_end(tables):
    b = Board(tables)
    b.start(mode_cell=2)  # you are O: the board opens
    b.wait_human()
    assert b.app.undo_plies() == 0
    opened = position(b.app.match)
    b.press(UNDO_K)
    assert position(b.app.match) == opened and b.app.refused == UNDO_K
    b.press(MENU_K)
    b.start(mode_cell=8, hints_cell=None)  # the demo
    assert b.app.undo_plies() == 0
    b.press(MENU_K)
    b.start(game_cell=3, mode_cell=6, level_cell=None)  # classic, two players: X wins on the top row
    for c in (0, 3, 1, 4):
        b.press(c)
        assert b.app.undo_plies() == 1
    b.press(2)
    assert b.app.state == app.OVER and b.app.undo_plies() == 0
    b.press(UNDO_K)
    assert b.app.state == app.OVER and b.app.match.result == rules.X


def test_two_players_take_back_one_move_at_a_time(tables):
    b = Board(tables)
    b.start(mode_cell=6, level_cell=None)
    b.press(4)
    b.press(0)
    b.press(UNDO_K)
    assert b.app.match.plies == 1 and b.app.match.pos.turn == rules.O
    b.press(UNDO_K)
    assert b.app.match.plies == 0 and b.app.undo_plies() == 0


# --- extra keys, encoder, menu ----------------------------------------------------


def test_the_encoder_picks_and_select_confirms(tables):
    b = Board(tables)
    a = b.app
    assert a.screen == app.PICK_GAME and a.game == rules.TACTICTOE
    b.turn(-1)  # tactic-toe -> classic (the dial goes classic, tactic-toe, puzzles, score, round)
    assert a.menu_options()[a.picked()][1] == rules.CLASSIC and a.game == rules.TACTICTOE  # not chosen yet
    b.run(450)  # the pulse of the picked option, on cell 3 (classic) now
    seen = set()
    for _ in range(10):
        b.run(100)
        seen.add(max(b.cell(3)))
    assert len(seen) > 3  # pulsing
    b.press(SELECT_K)
    assert a.game == rules.CLASSIC and a.screen == app.PICK_MODE
    b.turn(-1)  # you are X -> (round) demo
    assert a.menu_options()[a.picked()][1] == match.DEMO
    b.turn(-1)
    b.press(SELECT_K)
    assert a.mode == match.TWO and a.screen == 3  # two players skip the level


def test_the_menu_key_goes_back_one_screen_and_leaves_a_game_at_once(tables):
    b = Board(tables)
    a = b.app
    b.press(MENU_K)  # on the first screen: nothing
    assert a.state == app.MENU and a.screen == app.PICK_GAME
    b.press(3)
    b.press(6)  # classic, two players
    assert a.screen == 3
    b.press(MENU_K)  # back over the level screen two players skip
    assert a.screen == app.PICK_MODE
    b.press(MENU_K)
    assert a.screen == app.PICK_GAME
    b.start()
    b.press(MENU_K)
    assert a.state == app.MENU and a.match is None and a.screen == app.PICK_GAME


def test_the_hint_key_shows_and_hides_this_move_s_hints(tables):
    b = Board(tables)
    b.start(mode_cell=6, level_cell=None)  # two players, hints off
    a = b.app
    assert a.hint_outcomes() is None and a.hints_possible()
    b.press(HINT_K)
    assert a.hint_outcomes() is not None
    b.press(HINT_K)
    assert a.hint_outcomes() is None
    b.press(HINT_K)
    b.press(4)  # a move: the next one's hints are the menu's setting again
    assert a.hint_outcomes() is None and not a.hints
    b.press(MENU_K)
    b.start(mode_cell=6, level_cell=None, hints_cell=5)  # hints on: the key hides them for this move
    assert a.hint_outcomes() is not None
    b.press(HINT_K)
    assert a.hint_outcomes() is None


def test_the_extra_keys_light_by_role(tables):
    b = Board(tables)
    white = app.WHITE[0] * 40 >> 8
    assert b.cell(9) == bytes((white,) * 3)  # the menu key: dim white, always
    assert not any(b.cell(10)) and not any(b.cell(11))  # no hint or take-back in the menu
    b.start()  # you are X, perfect, hints off
    b.run(40)
    assert any(b.cell(10)) and not any(b.cell(11))  # hints can be shown; nothing to take back
    assert b.cell(9) == bytes((white,) * 3)
    b.press(4)
    b.run(40)
    assert not any(b.cell(10)) and any(b.cell(11))  # the board thinks: no hints, your move can go back
    b.wait_human()
    b.run(40)
    assert any(b.cell(10)) and any(b.cell(11))
    b.press(MENU_K)
    b.run(40)
    assert b.app.state == app.MENU and not any(b.cell(10)) and not any(b.cell(11))


def test_a_held_menu_key_goes_back_to_the_first_screen_and_other_held_keys_do_nothing(tables):
    b = Board(tables)
    b.press(5)
    b.press(HINT_K, ms=1700)
    b.press(UNDO_K, ms=1700)
    assert b.app.screen == app.PICK_MODE
    b.press(MENU_K, ms=1700)
    assert b.app.state == app.MENU and b.app.screen == app.PICK_GAME


# --- the screen -----------------------------------------------------------------


def test_the_screen_speaks_a_game_through(tables, shipped):
    b = Board(tables, puzzles=shipped)
    a = b.app
    assert b.hw.lines == ("Choose a game:", "> Tactic-toe", "Old marks vanish", "Turn dial, press", "")
    b.turn(1)
    assert b.hw.lines[1:3] == ("> Puzzles", "Win in N moves")
    b.turn(1)
    assert b.hw.lines[1:3] == ("> Score", "See or reset it")
    b.turn(1)
    assert b.hw.lines[1] == "> Classic"
    b.press(3)
    assert b.hw.lines[:2] == ("Who plays?", "> You are X") and b.hw.lines[4] == "Menu"
    b.press(0)
    b.press(6)  # easy
    b.press(3)  # hints off
    assert b.hw.lines == ("Classic", "You X vs Easy", "Your move (X)", "You: W0 D0 L0", "Menu  Hint")
    b.press(HINT_K)
    assert b.hw.lines == ("Your move (X)", "Fast: X wins", "Slow: draw", "Faint: X loses", "Menu  Hide")
    b.press(4)
    assert b.hw.lines[2] == "Board thinking"
    while a.state == app.PLAY:
        b.wait_human()
        if a.state == app.PLAY:
            b.press(a.match.pos.legal_moves()[0])
    assert b.hw.lines[0] in ("You win!", "Board wins", "Draw")
    score = a.score.games(rules.CLASSIC, ai.EASY)
    assert b.hw.lines[1:] == ("You X vs Easy", "You: W%d D%d L%d" % score, "Press: again", "Menu")
    assert sum(score) == 1


def test_the_console_narrates_the_dial_the_keys_and_the_score(tables, shipped):
    """The narration ("> " lines) on a board with a dial and function keys:
    the dial's pick alone when only it changed, the Menu key, the hint key,
    take back, a refused key, the result and the score."""
    b = Board(tables, puzzles=shipped)
    a = b.app
    assert b.said[-3:] == ["Choose a game: cell 3 classic (3 in a row wins), cell 5 tactic-toe (old marks vanish),"
                           " cell 1 puzzles (win in N moves), cell 7 score (see or reset it).",
                           "Pulsing now: cell 5, tactic-toe.",
                           "Turn the dial and press it, or tap a lit cell, to choose;"
                           " hold any cell 1.5 s to start over."]
    n = len(b.said)
    b.turn(-1)
    b.run(40)
    assert b.said[n:] == ["Pulsing now: cell 3, classic."]  # the pick alone: the rest is the same
    b.press(SELECT_K)
    assert b.said[-1] == ("Turn the dial and press it, or tap a lit cell, to choose; the Menu key goes back;"
                          " hold any cell 1.5 s to start over.")
    b.press(0)
    b.press(6)  # easy
    b.press(3)  # hints off
    assert b.said[-2:] == ["New game of classic: you are X against the easy board; no help.",
                           "Your move (X): tap a free cell."]
    b.press(UNDO_K)
    assert b.said[-1] == "Nothing to undo."
    b.press(HINT_K)
    assert b.said[-1] == "Hints: a fast bright pulse wins, a slow dim breath draws, a faint steady glow loses."
    b.press(HINT_K)
    assert b.said[-1] == "Hints hidden."
    b.press(4)
    b.wait_human()
    o = [c for c in range(9) if a.match.pos.piece_at(c) == rules.O][0]
    assert b.said[-4:] == ["You (X) played on cell 4.", "The board (O) is thinking.",
                           "The board (O) played on cell %d." % o, "Your move (X): tap a free cell."]
    b.press(UNDO_K)
    assert b.said[-2:] == ["Undid 2 moves.", "Your move (X): tap a free cell."]
    while a.state == app.PLAY:
        b.wait_human()
        if a.state == app.PLAY:
            b.press(a.match.pos.legal_moves()[0])
    score = a.score.games(rules.CLASSIC, ai.EASY)
    result = {0: "you win", 1: "a draw", 2: "the board wins"}[score.index(1)]
    assert b.said[-5].endswith(": %s!" % result)
    assert b.said[-4] == "Score, classic against the easy board: you won %d, drew %d, lost %d." % score
    assert b.said[-3].startswith("Review: you (X) ") and b.said[-2].startswith("Review: the board (O) ")
    assert b.said[-1] == "Press the dial or tap a cell to play again; hold one 1.5 s for the menu."


def test_the_console_narrates_which_mark_vanishes_in_tactic_toe(tables):
    b = Board(tables)
    for cell in (5, 6, 3):  # tactic-toe, two players, no hints
        b.press(cell)
    assert b.said[-2:] == ["New game of tactic-toe: two players, X starts; no help.", "X to move: tap a free cell."]
    for cell in (0, 3, 2, 4, 7, 8):
        b.press(cell)
    assert b.said[-3:] == ["O played on cell 8.", "X to move: tap a free cell.",
                           "X's mark on cell 0 (blinking) vanishes when X plays."]
    b.press(6)
    assert b.said[-3:] == ["X played on cell 6 and the mark on cell 0 vanished.", "O to move: tap a free cell.",
                           "O's mark on cell 3 (blinking) vanishes when O plays."]


def test_a_narration_that_fails_never_stops_the_game(tables):
    b = Board(tables)

    def broken():
        raise ValueError("boom")

    b.runner.narrator.update = broken
    b.press(5)  # tactic-toe: the press still works
    assert b.app.state == app.MENU and b.app.screen == app.PICK_MODE
    assert [line for line in b.log if line.startswith("error")] == [
        "error narrating: ValueError('boom'); the board plays on without its narration"]
    said = len(b.said)
    b.press(0)
    assert b.app.screen == 2 and len(b.said) == said  # no more words, and no more errors:
    assert len([line for line in b.log if line.startswith("error")]) == 1


def test_a_refused_extra_key_shows_solid_red_for_at_least_400_ms(tables):
    b = Board(tables)
    for cell in (3, 0, 6, 3):  # classic, you are X, easy, no hints: nothing to take back yet
        b.press(cell)
    red = b.app.colours["error"]
    b.hw.held = 1 << UNDO_K
    run = best = 0
    for t in range(100):  # the key's LED as the hardware took it, every 10 ms of the board's clock
        if t == 10:
            b.hw.held = 0  # the tap, refused at its release
        b.run(10)
        run = run + 10 if b.cell(UNDO_K) == bytes(red) else 0
        best = max(best, run)
    assert b.said[-1] == "Nothing to undo."
    assert 400 <= best <= 480, best


def test_the_same_lines_object_while_nothing_changes(tables):
    b = Board(tables)
    first = b.app.text(b.now)
    b.run(500)
    assert b.app.text(b.now) is first and b.hw.lines is first
    b.turn(1)
    assert b.app.text(b.now) is not first


def test_a_screen_without_function_keys_has_no_soft_key_line(tables):
    cfg = macropad_cfg()
    cfg["extra"] = []
    cfg["encoder"] = None
    b = Board(tables, cfg)
    assert b.hw.lines == ("Choose a game:", "> Tactic-toe", "Old marks vanish", "Tap a lit cell")


def test_a_missing_table_is_said_in_words(tables):
    b = Board({rules.CLASSIC: tables[rules.CLASSIC], rules.TACTICTOE: None})
    assert b.hw.lines[3] == "No table: weaker"
    b.press(5)
    b.press(0)
    b.run(20)
    assert b.hw.lines[1:4] == ("> Perfect", "Never loses", "No table: weaker")
    b.press(8)
    assert b.hw.lines[1:4] == ("> No help", "Just play", "Turn dial, press")
    b.turn(2)
    assert b.hw.lines[1:4] == ("> Hints on", "Best moves glow", "No table: none")
    b.press(SELECT_K)  # a notice before the game, in words too
    assert b.app.state == app.NOTICE and b.hw.lines[:2] == ("Tactic-toe table", "missing or bad:")


def test_a_bad_board_json_is_said_in_words(tables):
    b = Board(tables, config_problem="board.json: leds.pin: missing")
    assert b.app.state == app.NOTICE
    assert b.hw.lines == ("board.json bad:", "default wiring", "(details: USB", "serial console)", "")


def test_a_grid_only_board_never_loads_the_panel():
    code = ("import sys\n"
            "from tactictoe import config, loop\n"
            "class Hw:\n"
            "    def scan(self): return 0\n"
            "    def show(self, canvas): pass\n"
            "    def tone(self, f): pass\n"
            "r = loop.build(Hw(), config.validate(config.DEFAULT), {0: None, 1: None}, {}, None, log=lambda s: None)\n"
            "r.scan(5); r.step(5); r.draw(5)\n"
            "print(sorted(m for m in sys.modules if m.startswith('tactictoe.')))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_S,
                       env=dict(os.environ, PYTHONPATH=FIRMWARE))
    assert r.returncode == 0, r.stderr
    assert "tactictoe.app" in r.stdout and "panel" not in r.stdout and "words" not in r.stdout


events = st.one_of(
    st.tuples(st.just("press"), st.integers(0, 12), st.sampled_from([60, 60, 60, 1700])),
    st.tuples(st.just("turn"), st.integers(-3, 3), st.just(0)),
    st.tuples(st.just("wait"), st.integers(0, 3000), st.just(0)))


@settings(max_examples=40)
@given(seq=st.lists(events, max_size=60), seed=st.integers(0, 0xFFFF))
def test_every_screen_fits_and_nothing_breaks(tables, seq, seed):
    b = Board(tables, seed=seed)
    for kind, n, hold in seq:
        if kind == "press":
            b.press(n, ms=hold)
        elif kind == "turn":
            b.turn(n)
        else:
            b.run(n)
        lines = b.app.text(b.now)
        assert isinstance(lines, tuple) and len(lines) <= words.LINES
        assert all(isinstance(line, str) and len(line) <= words.WIDTH for line in lines), lines
        assert b.app.text(b.now) is lines
        assert not [line for line in b.log if line.startswith("error")], b.log


def test_the_same_flow_and_screens_under_micropython_allocating_nothing_per_frame(micropython, table_files):
    """tests/mpy/panel_flow.py, under the Unix port and CPython: the same
    screens and console lines; on MicroPython, LED frames and screen lines
    that allocate nothing while nothing changes (gc.disable, gc.mem_alloc)."""
    args = (table_files[rules.CLASSIC], table_files[rules.TACTICTOE])
    r = micropython("panel_flow.py", *args)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    allocs = [line for line in out if line.startswith("alloc ")]
    assert allocs == ["alloc menu 0", "alloc thinking 0", "alloc hints 0", "alloc your move 0"]
    here = subprocess.run([sys.executable, os.path.join(MPY_SCRIPTS, "panel_flow.py")] + list(args),
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=FIRMWARE), timeout=HANG_S)
    assert here.returncode == 0, here.stderr
    assert [line for line in out if line not in allocs] == here.stdout.splitlines()
    assert "Classic|You X vs Medium|Board thinking|You: W0 D0 L0|Menu        Undo" in out
    assert "log classic: take back 2" in out and out[-1] == "done"


@given(st.lists(st.integers(1, 600), min_size=1, max_size=40), st.integers(0, 2000))
@settings(max_examples=60, deadline=None)
def test_the_self_test_draws_every_step_in_order_however_late_its_frames(gaps, first):
    """Power-on's pixel walk and red, green, blue: frames late or far apart
    (a board slow to start) still draw each of its 12 steps, in order, and
    the menu comes only after blue."""
    cfg = config.validate(config.DEFAULT)
    a = app.App(cfg, {}, {}, ai.Rng(1), log=lambda line: None)
    a.start(0)
    drawn, now, i = [], 0, 0
    next_frame = first
    while a.state != app.MENU and now < 60000:
        now += 5  # the game step, every scan
        a.update(now)
        if now >= next_frame and a.state != app.MENU:
            buf = bytes(a.frame(now).buf[:27])
            lit = [c for c in range(9) if any(buf[3 * c:3 * c + 3])]
            step = lit[0] if len(lit) == 1 else 9 + [buf[0], buf[1], buf[2]].index(max(buf[:3]))
            if not drawn or drawn[-1] != step:
                drawn.append(step)
            next_frame = now + gaps[i % len(gaps)]
            i += 1
    assert a.state == app.MENU
    assert drawn == list(range(12))


def test_the_self_test_ends_by_ten_seconds_however_slow_its_frames():
    cfg = config.validate(config.DEFAULT)
    a = app.App(cfg, {}, {}, ai.Rng(1), log=lambda line: None)
    a.start(0)
    now = 0
    while a.state != app.MENU:
        now += 5
        if now % 3000 == 0:  # a frame every 3 s (frame_ms 3000)
            a.frame(now)
        a.update(now)
    assert now == 10000  # (by then its frames had drawn only the first four pixels)
