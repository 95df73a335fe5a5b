"""The README's picture of the simulator: a real capture of ``make sim``
in an 80x24 tmux window, mid-game, turned into SVG.

``python -m host_tools sim-picture -o docs/simulator.svg`` (``make
sim-picture``) starts the simulator in tmux on a scratch flash folder, plays
a few moves by sending keys, captures the pane with its colours
(``tmux capture-pane -e``) and draws each character cell as it was.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

COLS, ROWS = 80, 24
CW, CH = 9, 18  # pixels per character cell
FG, BG = (204, 204, 204), (18, 18, 18)
_ANSI16 = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188),
           (17, 168, 205), (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
           (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255)]


def _xterm256(n):
    if n < 16:
        return _ANSI16[n]
    if n < 232:
        n -= 16
        steps = (0, 95, 135, 175, 215, 255)
        return steps[n // 36], steps[n // 6 % 6], steps[n % 6]
    v = 8 + 10 * (n - 232)
    return v, v, v


def parse(text):
    """Rows of ``(char, fg, bg, bold)`` cells from text with SGR escapes."""
    rows = []
    fg, bg, bold, dim, rev = FG, BG, False, False, False
    for line in text.split("\n")[:ROWS]:
        row = []
        for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
            if m.group(2) is not None:
                f, b = (bg, fg) if rev else (fg, bg)
                if dim:
                    f = tuple(v // 2 for v in f)
                row.append((m.group(2), f, b, bold))
                continue
            codes = [int(c) if c else 0 for c in m.group(1).split(";")]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0:
                    fg, bg, bold, dim, rev = FG, BG, False, False, False
                elif c == 1:
                    bold = True
                elif c == 2:
                    dim = True
                elif c == 22:
                    bold = dim = False
                elif c == 7:
                    rev = True
                elif c == 27:
                    rev = False
                elif c in (38, 48) and i + 1 < len(codes):
                    if codes[i + 1] == 2 and i + 4 < len(codes):
                        colour = tuple(codes[i + 2:i + 5])
                        i += 4
                    elif codes[i + 1] == 5 and i + 2 < len(codes):
                        colour = _xterm256(codes[i + 2])
                        i += 2
                    else:
                        colour = FG if c == 38 else BG
                    if c == 38:
                        fg = colour
                    else:
                        bg = colour
                elif c == 39:
                    fg = FG
                elif c == 49:
                    bg = BG
                elif 30 <= c <= 37 or 90 <= c <= 97:
                    fg = _ANSI16[c - 30 if c < 90 else c - 82]
                elif 40 <= c <= 47 or 100 <= c <= 107:
                    bg = _ANSI16[c - 40 if c < 100 else c - 92]
                i += 1
        rows.append(row)
    return rows


def svg(text, title="make sim"):
    """An SVG picture of a terminal capture (``tmux capture-pane -e -p``)."""
    rows = parse(text)
    w, h = COLS * CW, ROWS * CH
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img">'
           % (w + 16, h + 16, w + 16, h + 16),
           "<title>%s</title>" % title,
           '<rect width="%d" height="%d" rx="6" fill="rgb%s"/>' % (w + 16, h + 16, BG),
           '<g transform="translate(8 8)" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace"'
           ' font-size="15">']
    for y, row in enumerate(rows):
        for x, (ch, fg, bg, bold) in enumerate(row):
            if bg != BG:
                out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="rgb%s"/>'
                           % (x * CW, y * CH, CW + 0.5, CH + 0.5, tuple(bg)))
        for x, (ch, fg, bg, bold) in enumerate(row):
            if ch.strip():
                esc = ch.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                out.append('<text x="%d" y="%d" fill="rgb%s"%s>%s</text>'
                           % (x * CW, y * CH + 14, tuple(fg), ' font-weight="bold"' if bold else "", esc))
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def _tmux(*args):
    return subprocess.run(["tmux"] + list(args), capture_output=True, text=True)


def capture(keys, seed=3, settle=1.5):
    """Run the simulator in an 80x24 tmux window, send ``keys`` (pairs of
    key and seconds to wait after it) and return the captured pane."""
    if not shutil.which("tmux"):
        raise SystemExit("error: tmux is needed to capture the simulator")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    name = "simpic%d" % os.getpid()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = "%s -m host_tools sim --flash %s --seed %d" % (sys.executable, tmp, seed)
        _tmux("new-session", "-d", "-s", name, "-x", str(COLS), "-y", str(ROWS), "-c", root,
              "env TERM=xterm-256color COLORTERM=truecolor " + cmd)
        try:
            time.sleep(settle)
            for key, wait in keys:
                _tmux("send-keys", "-t", name, key)
                time.sleep(wait)
            return _tmux("capture-pane", "-e", "-p", "-N", "-t", name).stdout  # -N: keep trailing (coloured) spaces
        finally:
            _tmux("kill-session", "-t", name)


# Tactic-toe, you as X, perfect, hints on; X opens on an edge (its only
# winning opening) and again, so the hints have something to say.
KEYS = [("d", 0.3), ("q", 0.3), ("c", 0.3), ("d", 2.6), ("w", 2.2), ("a", 2.2)]


def fixed_ports(text):
    """The capture with the console's pseudo-terminal (a new number on every
    run) shown as ``/dev/pts/N``, so the picture is the same from run to run."""
    return re.sub(r"/dev/(pts/\d+|ttys\d+)", "/dev/pts/N", text)


def picture():
    """The SVG of ``make sim`` after KEYS."""
    # The self-test and the menu take about 3 s after power-on.
    return svg(fixed_ports(capture(KEYS, settle=4.0)))
