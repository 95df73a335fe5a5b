"""The matched level (``ai.MATCHED``): its slips and its setting, the
share of its moves, in percent, that it slips (a legal move at random,
``slip``); it plays the others perfectly. Set from how you play, so that
games stay close:

- the first game of a game starts from your recent accuracy (the review's,
  ``score.recent``): ``2 * (100 - accuracy)``, at most 100; with none yet,
  from ``START``;
- after each game against it, your win takes a step off the setting, your
  loss adds one, a draw leaves it; a step is 12 for the first 10 games of
  that game, 6 up to the 30th, then 4 (``step``);
- kept per game in the score (``score.setting``), saved with the result.

Loaded only when the matched level plays (docs/firmware.md, "The matched
level").
"""

from micropython import const

from . import ai
from . import score as score_mod

START = const(40)  # the setting with neither a setting nor an accuracy yet
MOST = const(100)  # every move a slip


def slip(pos, rng, s):
    """The matched level's slip in ``pos`` at setting ``s``, or -1 if this
    move is not one: one 16-bit draw from ``rng`` decides (a slip when it
    is below ``s`` modulo 100), then a slip is ``rng.choice`` of the legal
    moves. Not a slip: the perfect player's move (``ai.choose_move``)."""
    if rng.bits16() % 100 < s:
        return rng.choice(pos.legal_moves())
    return -1


def setting(score, game):
    """The setting the next game of ``game`` is played with."""
    s = score.setting(game)
    if s >= 0:
        return min(s, MOST)
    accuracy = score.recent(game)
    if accuracy < 0:
        return START
    return min(MOST, 2 * (100 - accuracy))


def step(played):
    """How far one result moves the setting, ``played`` games against the
    level into the game (its results in the score)."""
    return 12 if played < 10 else 6 if played < 30 else 4


def adapt(s, result, played):
    """The setting after a game played at ``s`` that ended in ``result``
    (``score.WON``: you won, ``DRAWN``, ``LOST``), the ``played``-th (from 0)."""
    if result == score_mod.WON:
        return max(0, s - step(played))
    if result == score_mod.LOST:
        return min(MOST, s + step(played))
    return s


def record(score, game, s, result):
    """Count a game of ``game`` played at ``s`` in ``score`` and keep the
    setting it leads to (in RAM: ``score.save()`` writes both at once);
    returns that setting."""
    won, drawn, lost = score.games(game, ai.MATCHED)
    s = adapt(s, result, won + drawn + lost)
    score.record(game, ai.MATCHED, result)
    score.set_setting(game, s)
    return s
