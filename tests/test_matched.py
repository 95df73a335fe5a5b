"""The matched level (ai.MATCHED, matched.py): seeded simulations against
scripted players who err at different rates, its moves explained by its
setting, and the level through the App: the menu, the score, a reload."""

import io

import pytest

from tactictoe import ai, app, matched, rules, score, table
from tactictoe.match import YOU_O, YOU_X, Match, ring

WARM_UP = 40  # games before results are counted
COUNTED = 60  # games counted after it


@pytest.fixture(scope="module")
def tables(solved_bytes):
    """Both tables in memory."""
    return {g: table.Table(io.BytesIO(b), g) for g, b in solved_bytes.items()}


def simulate(tables, game, err, games, seed=1, sides=None, start=None):
    """Play ``games`` games of ``game`` (Match: tactic-toe's repetition
    draw) between a scripted player, who plays ``err`` percent of its moves
    at random (else a perfect move), and the matched level, which adapts
    after each as on the board (``matched.record`` into a score in RAM).
    The player is X in even games and O in odd ones (``sides``: always
    that side). ``start`` is the player's recent accuracy (-1: none).
    Returns ``[(result, setting played at), ...]``, result ``score.WON``
    (the player won), ``DRAWN`` or ``LOST``."""
    t = tables[game]
    s = score.Score(None, log=None)
    if start is not None:
        s.set_recent(game, start)
    you_rng, board_rng = ai.Rng(seed), ai.Rng(seed * 7919 + 1)
    ring_ = ring()
    out = []
    for i in range(games):
        you = i & 1 if sides is None else sides
        m = Match(game, YOU_X if you == rules.X else YOU_O, ring_)
        slip = matched.setting(s, game)
        while m.result is None:
            pos = m.pos
            if m.ai_turn():
                cell = matched.slip(pos, board_rng, slip)
                if cell < 0:
                    cell = ai.choose_move(pos, ai.PERFECT, t, board_rng)
            elif you_rng.bits16() % 100 < err:
                cell = you_rng.choice(pos.legal_moves())
            else:
                cell = you_rng.choice(ai.best_moves(t, pos))
            m.play(cell)
        result = score.DRAWN if m.result < 0 else score.WON if m.result == you else score.LOST
        matched.record(s, game, slip, result)
        out.append((result, slip))
    return out


def tally(results):
    """``(won, drawn, lost)`` of the player in ``results``."""
    return tuple(sum(1 for r, _ in results if r == k) for k in (score.WON, score.DRAWN, score.LOST))


# --- the simulations ----------------------------------------------------------
#
# The tolerance: from the 30th game on, a step is 4, so over the counted
# games W - L = (setting at their start - setting after them) / 4 exactly,
# unless the setting was held at 0 or 100. |W - L| <= 10 over 60 games is the
# setting ending within 40 points (of 100) of where it began: close games,
# not a drift towards a wall or a pushover. (Seeds 1-8 of each case below gave
# at most 8; a draw moves nothing, so draws are not counted against it.)

TOLERANCE = 10


def _drift_matches(results):
    # W - L against the setting's drift, where no result met 0 or 100.
    s = results[WARM_UP][1]
    net = 0
    for result, slip in results[WARM_UP:]:
        assert slip == s
        s = matched.adapt(s, result, WARM_UP)
        if s in (0, matched.MOST):
            return True  # held at an end: the identity no longer holds
        net += (result == score.WON) - (result == score.LOST)
    assert net * matched.step(WARM_UP) == results[WARM_UP][1] - s
    return True


@pytest.mark.parametrize("game", [rules.CLASSIC, rules.TACTICTOE])
@pytest.mark.parametrize("err", [10, 30, 60])
def test_players_who_err_meet_even_results_after_a_warm_up(tables, game, err):
    for seed in (1, 2, 3, 4):
        results = simulate(tables, game, err, WARM_UP + COUNTED, seed)
        w, d, lost = tally(results[WARM_UP:])
        assert abs(w - lost) <= TOLERANCE, (seed, w, d, lost)
        assert _drift_matches(results)
        assert all(0 <= slip <= matched.MOST for _, slip in results)


def test_a_player_who_never_errs_never_loses_at_classic_and_meets_a_perfect_board(tables):
    for seed in (1, 2, 3):
        results = simulate(tables, rules.CLASSIC, 0, WARM_UP + COUNTED, seed)
        w, d, lost = tally(results[WARM_UP:])
        assert lost == 0 and d >= COUNTED * 9 // 10, (seed, w, d, lost)
        assert results[-1][1] <= 4  # the board plays (almost) perfectly by then: it holds the draw


def test_a_player_who_never_errs_at_tactic_toe(tables):
    # As X the game is won (X wins in 7): the board can at best play
    # perfectly, and does. As O it is lost: the board slips enough to
    # lose about as often as it wins. Both sides in turn: near even.
    for seed in (1, 2):
        results = simulate(tables, rules.TACTICTOE, 0, WARM_UP + COUNTED, seed, sides=rules.X)
        assert tally(results[WARM_UP:]) == (COUNTED, 0, 0)
        assert {slip for _, slip in results[WARM_UP:]} == {0}
        for sides in (rules.O, None):
            w, d, lost = tally(simulate(tables, rules.TACTICTOE, 0, WARM_UP + COUNTED, seed, sides)[WARM_UP:])
            assert abs(w - lost) <= TOLERANCE, (seed, sides, w, d, lost)


def test_the_first_setting_comes_from_the_recent_accuracy_else_the_start():
    s = score.Score(None, log=None)
    assert matched.setting(s, rules.TACTICTOE) == matched.START
    for accuracy, want in ((100, 0), (95, 10), (84, 32), (50, 100), (0, 100)):
        s.set_recent(rules.TACTICTOE, accuracy)
        assert matched.setting(s, rules.TACTICTOE) == want
    assert matched.setting(s, rules.CLASSIC) == matched.START  # per game
    s.set_setting(rules.TACTICTOE, 7)  # once it has one, that one
    assert matched.setting(s, rules.TACTICTOE) == 7
    assert [matched.step(n) for n in (0, 9, 10, 29, 30, 1000)] == [12, 12, 6, 6, 4, 4]


def test_a_warm_start_from_the_accuracy_is_close_at_once(tables):
    # A player who errs 30% of the time reviews at about 84% (2 points a
    # best move, 1 a slower one that keeps the outcome): started there, the
    # level needs no warm-up to keep the first games close.
    w, d, lost = tally(simulate(tables, rules.TACTICTOE, 30, 30, 5, start=84))
    assert abs(w - lost) <= TOLERANCE, (w, d, lost)


def test_a_slip_is_decided_by_one_draw_then_a_legal_move_at_random():
    pos = rules.Position(rules.TACTICTOE)
    for c in (1, 0, 5):
        pos.push(c)
    slipped = 0
    for seed in range(1, 200):
        assert matched.slip(pos, ai.Rng(seed), 0) == -1  # 0: never
        rng, again = ai.Rng(seed), ai.Rng(seed)
        cell = matched.slip(pos, rng, 100)  # 100: always
        again.bits16()  # (the draw that decided it)
        assert cell == again.choice(pos.legal_moves())
        rng, again = ai.Rng(seed), ai.Rng(seed)
        cell = matched.slip(pos, rng, 30)
        if again.bits16() % 100 < 30:
            assert cell == again.choice(pos.legal_moves())
            slipped += 1
        else:
            assert cell == -1 and rng.bits16() == again.bits16()  # one draw, no more
    assert 40 <= slipped <= 80  # about 30% of 199


# --- through the App -----------------------------------------------------------


def _replay(log, said, tables, seed, settings):
    """Check every board move of the games in ``log`` (the console's
    "tactictoe: X 4" lines; the board played O) against a generator seeded
    as the board's: each is the slip its draw decided (a legal move at
    random, and the narration says "a slip") or one of ai.best_moves, the
    very one the board's generator picks. ``settings``: each game's."""
    rng = ai.Rng(seed)
    t = tables[rules.TACTICTOE]
    games = iter(settings)
    pos = None
    slips = []
    for line in log:
        if not line.startswith("tactictoe: "):
            continue
        what = line.split()[1:]
        if len(what) == 2 and what[1].isdigit():
            if pos is None:
                pos, setting = rules.Position(rules.TACTICTOE), next(games)
            cell = int(what[1])
            if what[0] == "O":
                slip = rng.bits16() % 100 < setting
                want = rng.choice(pos.legal_moves() if slip else ai.best_moves(t, pos))
                assert cell == want, (line, slip)
                if slip:
                    slips.append(cell)
            pos.push(cell)
        else:  # "X wins", "O wins", "draw": the game is over
            pos = None
    told = [line.split(")", 2)[1] for line in said if "(a slip" in line]  # (".", or ": the board wins!")
    assert told == [" played on cell %d (a slip: a move at random" % c for c in slips]
    return slips


def test_the_menu_names_the_level_its_games_count_its_setting_persists(tables, tmp_path):
    from test_teacher import Pico

    path = str(tmp_path / "score.bin")
    s = score.Score(path)
    s.load()
    b = Pico(tables, s, seed=11)
    b.menu(5, 0)  # tactic-toe, you are X: the level
    assert ("Board's level: cell 6 easy (sees 1-move wins), cell 7 medium (blocks your wins), cell 8 perfect "
            "(never loses), cell 4 matched (keeps it close).") in b.said
    assert b.app.menu_options()[-1][:2] == (4, ai.MATCHED)
    b.menu(4, 3)  # matched, no help
    settings = [matched.START]
    results = []
    player = ai.Rng(5)
    while len(results) < 3:
        a = b.app
        if a.state == app.OVER:
            m = a.match
            result = score.DRAWN if m.result < 0 else score.WON if m.result == rules.X else score.LOST
            results.append(result)
            settings.append(matched.adapt(settings[-1], result, len(results) - 1))
            b.run(app.OVER_GUARD_MS)
            b.press(4)  # again
            continue
        b.press(player.choice(a.match.pos.legal_moves()))
        b.wait_human()
    news = [line for line in b.said if line.startswith("New game")]
    assert news == ["New game of tactic-toe: you are X against the matched board (slips %d%% of its moves); "
                    "no help." % v for v in settings]
    slips = _replay(b.log, b.said, tables, 11, settings)
    assert slips  # (at 40%, 28%... some moves were slips, some not)
    want = tuple(results.count(k) for k in (score.WON, score.DRAWN, score.LOST))
    assert b.app.score.games(rules.TACTICTOE, ai.MATCHED) == want
    assert "Score, tactic-toe against the matched board: you won %d, drew %d, lost %d." % want in b.said
    # Saved with the result: a power cycle keeps the results and the setting
    again = score.Score(path)
    again.load()
    assert again.games(rules.TACTICTOE, ai.MATCHED) == want
    assert again.setting(rules.TACTICTOE) == settings[-1] and again.games(rules.TACTICTOE, ai.PERFECT) == (0, 0, 0)
    b2 = Pico(tables, again)
    b2.menu(5, 0, 4, 3)  # tactic-toe, you are X, matched, no help
    assert b2.said[-2] == ("New game of tactic-toe: you are X against the matched board (slips %d%% of its moves); "
                           "no help." % settings[-1])


def test_the_screen_and_the_dial_say_the_setting(tables):
    from test_panel import Board

    b = Board(tables)
    b.app.score.set_setting(rules.CLASSIC, 28)
    b.press(3)  # classic
    b.press(0)  # you are X: the level, at perfect
    b.turn(1)  # the dial's next option: matched, in the centre
    assert b.said[-1] == "Pulsing now: cell 4, matched (it slips 28% of its moves now)."
    assert b.hw.lines == ("Board's level:", "> Matched", "Keeps it close", "Slips 28% now", "Menu")
    b.press(4)
    b.press(3)
    assert b.hw.lines[:2] == ("Classic", "You X vs Matched")


def test_without_a_table_its_other_moves_come_from_the_fallback(tables):
    from test_teacher import Pico

    b = Pico({rules.CLASSIC: None, rules.TACTICTOE: tables[rules.TACTICTOE]}, seed=4)
    b.app.score.set_setting(rules.CLASSIC, 0)  # never a slip: every board move is the fallback's
    b.menu(3, 2, 4, 3)  # classic, you are O (the board opens), matched, no help
    assert "classic: no table; playing with the fallback AI, hints off" in b.log
    b.run(2100)  # the red X, then the game
    player = ai.Rng(2)
    while b.app.state == app.PLAY:
        b.wait_human()
        if b.app.state == app.PLAY:
            b.press(player.choice(b.app.match.pos.legal_moves()))
    assert b.app.state == app.OVER, b.said[-6:]
    assert b.app.match.result in (rules.X, -1)  # the fallback is exact in classic: it never loses
    assert not [line for line in b.said if "(a slip" in line]
    assert sum(b.app.score.games(rules.CLASSIC, ai.MATCHED)) == 1


def test_the_demo_plays_both_sides_at_the_setting_and_counts_nothing(tables):
    from test_teacher import Pico

    b = Pico(tables)
    b.app.score.set_setting(rules.TACTICTOE, 50)
    b.menu(5, 8, 4)  # tactic-toe, the demo, matched
    b.run(3000)
    assert "New game of tactic-toe: the board plays itself (matched; slips 50% of its moves)." in b.said
    assert any(line.startswith("X played on cell") and line.endswith("(a slip: a move at random).") for line in b.said)
    assert b.app.score.games(rules.TACTICTOE, ai.MATCHED) == (0, 0, 0) and b.app.score.setting(rules.TACTICTOE) == 50
