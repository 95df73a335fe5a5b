"""Pictures of the board's screens for the README, drawn by the firmware itself.

Each picture is the frame the real ``app.App`` draws at a chosen moment (fed
key events directly, no hardware), saved as a small SVG: the docs can't drift
from what the board shows. ``python -m host_tools screens -o docs/screens``;
a test fails when the committed pictures are stale.
"""

import io

from host_tools import outputs
from tactictoe import ai
from tactictoe import app
from tactictoe import config
from tactictoe import rules
from tactictoe import table
from tactictoe.keys import PRESS, TAP

CELL = 56
GAP = 10
PAD = 14


def as_seen(rgb):
    # An LED at a low drive level looks brighter than the same value on a
    # screen: show it as the eye sees it (gamma 2.2 on its brightness,
    # keeping its hue).
    top = max(rgb)
    k = (top / 255) ** (1 / 2.2) * 255 / top
    return tuple(min(255, round(v * k)) for v in rgb)


def svg(canvas, title):
    """A 3x3 grid of lit cells as SVG text."""
    size = 3 * CELL + 2 * GAP + 2 * PAD
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (size, size + 22, size, size + 22),
           '<title>%s</title>' % title,
           '<rect width="100%" height="100%" rx="12" fill="#15171a"/>']
    for c in range(9):
        rgb = canvas.buf[3 * c:3 * c + 3]
        x = PAD + (c % 3) * (CELL + GAP)
        y = PAD + (c // 3) * (CELL + GAP)
        fill = "#%02x%02x%02x" % as_seen(rgb) if any(rgb) else "#1d2024"
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="9" fill="%s" stroke="#2c3036" stroke-width="2"/>'
                   % (x, y, CELL, CELL, fill))
    out.append('<text x="%d" y="%d" fill="#c8ccd2" font-family="sans-serif" font-size="13"'
               ' text-anchor="middle">%s</text>'
               % (size // 2, size + 12, title))
    out.append("</svg>")
    return "\n".join(out) + "\n"


class Driver:
    """An App fed events directly, with its own clock, drawn every 10 ms
    as the board's LED task draws it (the self-test waits for its frames)."""

    def __init__(self, tables, problems=None, seed=1):
        self.cfg = config.validate(config.DEFAULT)
        self.app = app.App(self.cfg, tables, problems or {}, ai.Rng(seed), log=lambda line: None,
                           puzzles=_puzzles(tables))
        self.now = 0
        self.app.start(0)

    def run(self, ms, event=0):
        end = self.now + ms
        while self.now < end:
            self.now += 10
            self.app.update(self.now, event)
            self.app.frame(self.now)
            event = 0

    def tap(self, cell):
        # A quick tap: its PRESS (a move, in a game) and its TAP (a menu's
        # choice) in one step
        self.app.update(self.now + 10, PRESS | cell)
        self.run(10, TAP | cell)
        self.run(100)

    def menu(self, *cells):
        self.run(app.SELFTEST_MS + 20)
        for c in cells:
            self.tap(c)

    def frame(self, at=None):
        return self.app.frame(self.now if at is None else at)


def _tables():
    from host_tools import puzzles, solver

    tables = {g: table.Table(io.BytesIO(solver.solve(g).table_bytes()), g) for g in (rules.CLASSIC, rules.TACTICTOE)}
    _mined["blob"] = puzzles.pack(puzzles.mine(tables))
    return tables


_mined = {}  # "blob": the puzzles file mined from _tables() (without one the menu offers no puzzles)


def _puzzles(tables):
    """The puzzles a board holds beside the tables, or None."""
    from tactictoe import puzzles

    return puzzles.Puzzles(io.BytesIO(_mined["blob"])) if "blob" in _mined else None


def _peak(d, period=900):
    # the moment a pulsing option is brightest
    return d.app.t0 + (d.now - d.app.t0) // period * period + period // 2


def screens():
    """[(file name, title, canvas bytes)] of every screen in the README."""
    tables = _tables()
    shots = []

    def shot(name, title, canvas):
        shots.append((name, title, bytes(canvas.buf)))

    d = Driver(tables)
    d.run(4 * app.WALK_MS + 40)
    shot("selftest", "power-on self-test: pixel walk", d.frame())
    d = Driver(tables)
    d.menu()
    shot("menu-game", "1. game; puzzles (top), score", d.frame(_peak(d)))
    d.tap(5)
    shot("menu-mode", "2. you X | you O | two | demo", d.frame(_peak(d)))
    d.tap(0)
    shot("menu-level", "3. level: easy medium perfect, matched", d.frame(_peak(d)))
    d.tap(8)
    shot("menu-hints", "4. help: none | trainer | hints", d.frame(_peak(d)))
    d.tap(5)
    # (a winning move's fast pulse at its peak, a drawing one's slow breath on its way down)
    shot("play-hints", "hints: pulsing wins, breathing draws", d.frame(d.app.t0 + 2000 * 8 + 1250))

    d = Driver(tables)
    d.menu(5, 6, 3)  # tactic-toe, two players, hints off
    for c in (0, 4, 2, 6, 5, 7):
        d.tap(c)
    shot("play-vanishing", "X to move: its oldest mark blinks", d.frame(d.app.t0 + 700 * 40 + 500))
    d.run(10, PRESS | 4)
    d.run(10, TAP | 4)  # an occupied cell, let go: refused (held, it would be the menu's long press)
    shot("refused", "occupied cell: refused", d.frame(d.app.refused_until - 10))
    d.run(500)
    d.tap(8)
    shot("win", "win: the line flashes", d.frame(d.app.t0 + 10))

    d = Driver(tables)
    d.menu(5, 6, 3)  # tactic-toe, two players: a position repeated three times
    cycle = (8, 7, 0, 2, 1, 5, 3, 6)
    for c in (0, 2, 1, 5, 3, 6) + cycle + cycle:
        d.tap(c)
    shot("draw", "draw: the board breathes", d.frame(d.app.t0 + 700))

    d = Driver(tables)
    d.menu(5, 2, 8, 3)  # you play O: the board opens
    shot("thinking", "the board is thinking", d.frame(d.now))

    d = Driver({rules.CLASSIC: tables[rules.CLASSIC], rules.TACTICTOE: None},
               {rules.TACTICTOE: "table tactictoe.tbl not found"})
    d.menu()
    shot("menu-no-table", "no tactic-toe table: fallback AI", d.frame(_peak(d)))
    d.menu(5, 0, 8, 3)
    shot("error", "table error pattern", d.frame(d.app.t0 + 10))

    d = Driver(tables)
    d.menu(3, 2, 8, 4)  # classic, you are O, perfect, the trainer: the board opens
    d.run(d.app.think_ms + 20)
    pos = d.app.match.pos
    d.tap([c for c in pos.legal_moves() if ai.verdict(tables[rules.CLASSIC], pos, c)][0])  # a blunder
    shot("trainer", "trainer: the better move glows", d.frame(d.app.t0 + 800 * 10 + 300))

    d = Driver(tables)
    d.app.notices.append((app.CORNERS, d.cfg["colours"]["notice"]))
    d.run(app.SELFTEST_MS + 20)
    shot("config-notice", "bad board.json: default config", d.frame(d.app.t0 + 10))
    return shots


def write(folder):
    """Write every screen to ``folder``, all or none (``outputs``); returns
    the file names."""
    from tactictoe.frames import Canvas

    files = []
    for name, title, buf in screens():
        cv = Canvas()
        cv.buf[:] = buf
        files.append((name + ".svg", svg(cv, title)))
    return outputs.write_tree(folder, files)
