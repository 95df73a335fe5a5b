"""The virtual board in a terminal: its LEDs as a grid of true-colour cells,
keys for fingers, and what it prints on its serial console.

``python -m host_tools sim`` runs this when stdin and stdout are a terminal
(``--headless`` is for scripts). Terminals report key presses, never
releases: a key taps its cell, and a key held down (the terminal repeating
it) keeps the cell held, which makes a long press.

A bought board (the MacroPad, the Pico RGB Keypad, the Keybow 2040), on
the Unix port or in the emulated RP2040, is drawn as itself (``Pad``): all
its keys with the LEDs under them as its chips decoded them, the function
keys and the encoder on keys of their own, and the MacroPad's screen beside
them, from the SH1106's glass (``screen.py``): full size when the terminal
has room (the glass in half blocks, a pixel a column), compact in 80x24
(the glass in braille, small keys).
"""

import codecs
import collections
import functools
import math
import os
import re
import selectors
import signal
import sys
import termios
import textwrap
import time
import tty
from contextlib import ExitStack, contextmanager

from host_tools.screens import as_seen
from host_tools.sim import screen as oled
from host_tools.sim.board import OFF, SimError
from host_tools.sim.script import TAP_MS

MIN_COLS, MIN_ROWS = 80, 24
FRAME_S = 1 / 30  # redraw at most this often
TAP_S = TAP_MS / 1000
REPEAT_S = 0.15  # a repeat holds its cell this long: longer than terminals take between repeats
LONG_EXTRA_S = 0.3  # Space holds the centre this much past the long-press time
ESC_WAIT_S = 0.05  # an Esc followed by nothing for this long is the Esc key, not an arrow key's start

DIGITS = "012345678"  # cell n is key n, as the console and the docs number them
LETTERS = "qweasdzxc"  # or the letters, in the same 3x3 on a keyboard
CELL_OF_KEY = {k: c for c in range(9) for k in (DIGITS[c], LETTERS[c], LETTERS[c].upper())}
ESC = "esc"
QUIT_KEYS = {ESC, "\x03"}
RESET_KEYS = {"r", "R"}
LONG_KEYS = {" ", "\r", "\n"}
CENTRE = 4

# The bought boards' extra keys on the keyboard: the top row of a numeric
# keypad (/ * -) or a letter, and the encoder on [ ] and Enter.
ROLE_KEYS = {"menu": ("/", "m"), "hint": ("*", "h"), "undo": ("-", "u"), "select": ("\r", "\n")}
ROLE_LABELS = {"menu": "/ m Menu", "hint": "* h Hint", "undo": "- u Undo"}
ROLE_SHORT = {"menu": ("Menu", "/ m"), "hint": ("Hint", "* h"), "undo": ("Undo", "- u")}  # on 4x2 keys
TURN_KEYS = {"[": -1, "]": 1}
PAD_LEGEND = ("grid: keys 0-8 or q-c   / m: Menu   * h: Hint   - u: Undo",
              "encoder: [ turn left  ] turn right  Enter: push   Space: long press  r: power-cycle  Esc: quit")
PAD_LEGEND_KEYS = (PAD_LEGEND[0], "Space: long press   r: power-cycle   Esc: quit")  # no encoder
PAD_LEGEND_COMPACT = "grid: 0-8 or q-c   Space: long press   r: power-cycle   Esc: quit"
# The encoder's lines under the keys: full size, and compact
DIAL = ("encoder: turned %+d",)
DIAL_COMPACT = ("dial: [ ] turn", "Enter: push", "turned %+d")


def cell_label(cell):
    """What a cell says on it: its number, which is its key, and its letter."""
    return "%s or %s" % (DIGITS[cell], LETTERS[cell])


# The screen, in character cells: the 3x3 grid on the left, the console's
# last lines to its right, the legend and the console's address below.
CELL_W, CELL_H = 10, 5  # about square in a terminal font
GAP_W, GAP_H = 2, 1
GRID_TOP, GRID_LEFT = 2, 2
GRID_BOTTOM = GRID_TOP + 3 * CELL_H + 2 * GAP_H
PANEL_LEFT = GRID_LEFT + 3 * CELL_W + 2 * GAP_W + 4
CAPTION_ROWS = 9  # right of the grid: the caption (its heading, 8 lines), then the console
CONSOLE_TOP = GRID_TOP + CAPTION_ROWS
CAPTION = "what the board shows"
CAPTION_BG = (0x26, 0x2B, 0x33)
LEGEND = "tap: 0-8 (or q-c) a cell  long press: hold or Space  r: power-cycle  Esc: quit"
REPL_NOTICE = " game stopped: the REPL has the board. r (or a reset) plays again "
# Under the address while the game runs: `mpremote repl` shows nothing until
# Ctrl-C stops the game, as on a board.
REPL_HINT = " in mpremote repl the game runs on: Ctrl-C stops it for the >>> prompt "
BUZZER_W = 18


class View:
    """One drawing of a bought board: where its parts go, in character
    cells ``(row, column)``, and the least terminal it needs (``cols``,
    ``rows``). ``Pad.view`` makes one for the room a terminal has."""

    def __init__(self, cols, rows, keys, cell, gap, short=False, glass=None, dial=None, panels=None,
                 legend=(), address=None, notice=None, hint=True):
        self.cols, self.rows = cols, rows  # the least terminal it fits
        self.keys = keys  # the top left key's top left
        self.cell_w, self.cell_h = cell
        self.gap_w, self.gap_h = gap
        self.short = short  # the keys' labels in two short lines
        self.glass = glass  # (row, column, draw, heading or None): the screen
        self.dial = dial  # (row, column, width, lines): the encoder's lines, the last with its turns
        self.panels = panels  # ((row, column, width, rows) of the caption, of the console)
        self.legend = legend  # ((row, text), ...)
        self.address = address  # its row
        self.notice = notice  # its row; the REPL hint's too while ``hint``
        self.hint = hint

    def key_at(self, at, columns):
        """The top left of the key drawn ``at`` places into its rows."""
        return (self.keys[0] + at // columns * (self.cell_h + self.gap_h),
                self.keys[1] + at % columns * (self.cell_w + self.gap_w))


class Pad:
    """A bought board's keys, as the emulated chip numbers them
    (``pico.HARDWARE``): where each is drawn, which LED is under it, and
    which terminal keys press it; and how the board is drawn in a terminal
    (``view``): full size when there is room, else compact, down to
    ``MIN_COLS`` x ``MIN_ROWS``.

    :param cfg: the board's config (its grid and extra keys).
    :param hardware: "macropad" (12 keys in 4 rows of 3, key k on GPIO
        k+1, key 12 the encoder's switch on GPIO 0), "pico-rgb-keypad"
        (16 keys in 4 rows of 4, through the expander) or "keybow2040" (16
        keys in 4 rows of 4, SW k on GPIO 21 - k, drawn with the USB
        connector at the top: SW0 at the bottom left, up each column)."""

    def __init__(self, cfg, hardware):
        self.columns = 3 if hardware == "macropad" else 4
        self.count = 12 if hardware == "macropad" else 16
        self.has_screen = hardware == "macropad"
        self.encoder = hardware == "macropad"
        if hardware == "macropad":
            def key_of(pin):
                return pin - 1 if pin else 12
            self.grid = [key_of(p) for p in cfg["input"]["pins"]]
            extra = [(e["role"], key_of(e["pin"])) for e in cfg["extra"]]
        elif hardware == "keybow2040":
            def key_of(pin):
                return int(pin[2:]) if isinstance(pin, str) else 21 - pin  # "SW3" or GPIO 18
            self.grid = [key_of(p) for p in cfg["input"]["pins"]]
            extra = [(e["role"], key_of(e["pin"])) for e in cfg["extra"]]
        else:
            self.grid = list(cfg["input"]["keys"])
            extra = [(e["role"], e["key"]) for e in cfg["extra"]]
        # where key k is drawn, counted across each row from the top left
        self.place = [4 * (3 - k % 4) + k // 4 for k in range(16)] if hardware == "keybow2040" \
            else list(range(self.count))
        self.labels = {}  # full size: one line
        self.short = {}  # compact: at most two lines of 4 characters
        self.keymap = {}
        for cell, key in enumerate(self.grid):
            self.labels[key] = cell_label(cell)
            self.short[key] = ("%s %s" % (DIGITS[cell], LETTERS[cell]),)
            for ch in (DIGITS[cell], LETTERS[cell], LETTERS[cell].upper()):
                self.keymap[ch] = key
        for role, key in extra:
            self.labels[key] = ROLE_LABELS.get(role, "")
            self.short[key] = ROLE_SHORT.get(role, ())
            for ch in ROLE_KEYS.get(role, ()):
                self.keymap[ch] = key
        self.centre = self.grid[CENTRE]
        self.full = self._full()
        self.compact = self._compact_with_screen() if self.has_screen else self._compact()
        self.min_cols, self.min_rows = self.compact.cols, self.compact.rows

    def view(self, cols, rows):
        """The drawing for a terminal of ``cols`` x ``rows``: full size if
        it fits, else compact."""
        full = self.full
        return full if cols >= full.cols and rows >= full.rows else self.compact

    def _beside(self, cell, gap, top=GRID_TOP, left=GRID_LEFT):
        """A drawing with the keys at the top left, the caption and the
        console right of them, and the legend, the address and the REPL's
        line below (the full size of each board without a screen)."""
        rows = -(-self.count // self.columns)
        keys_bottom = top + rows * (cell[1] + gap[1]) - gap[1]
        panel = left + self.columns * (cell[0] + gap[0]) - gap[0] + 4
        legend = PAD_LEGEND if self.encoder else PAD_LEGEND_KEYS
        height = keys_bottom - top
        caption = min(CAPTION_ROWS, height - 3)  # the console: 2 lines at least
        return View(MIN_COLS, keys_bottom + len(legend) + 3, (top, left), cell, gap,
                    panels=((top, panel, None, caption), (top + caption, panel, None, height - caption)),
                    legend=[(keys_bottom + 1 + r, line) for r, line in enumerate(legend)],
                    address=keys_bottom + 1 + len(legend), notice=keys_bottom + 2 + len(legend))

    def _full(self):
        if not self.has_screen:
            return self._beside((CELL_W, CELL_H), (GAP_W, GAP_H))
        # the MacroPad: the screen right of the keys (a pixel a column), the console below them
        rows = -(-self.count // self.columns)
        keys_bottom = GRID_TOP + rows * (CELL_H + GAP_H) - GAP_H
        panel = GRID_LEFT + self.columns * (CELL_W + GAP_W) - GAP_W + 4
        bottom = max(keys_bottom + 8, GRID_TOP + 1 + oled.HEIGHT // 2)
        width = panel - GRID_LEFT - 2
        height = bottom - keys_bottom - 2
        caption = min(CAPTION_ROWS, height - 3)
        top = keys_bottom + 2
        return View(panel + oled.WIDTH + 2, bottom + 5, (GRID_TOP, GRID_LEFT), (CELL_W, CELL_H), (GAP_W, GAP_H),
                    glass=(GRID_TOP + 1, panel, oled.render, "screen (SH1106, 128x64)"),
                    dial=(keys_bottom + 1, GRID_LEFT, width, DIAL),
                    panels=((top, GRID_LEFT, width, caption), (top + caption, GRID_LEFT, width, height - caption)),
                    legend=[(bottom + 1 + r, line) for r, line in enumerate(PAD_LEGEND)],
                    address=bottom + 3, notice=bottom + 4)

    def _compact(self):
        """The 4x4 boards in 80x24 (what every board needs): keys of 3 rows, not 5."""
        view = self._beside((CELL_W, 3), (GAP_W, 1))
        view.rows = max(view.rows, MIN_ROWS)
        return view

    def _compact_with_screen(self):
        """The MacroPad in 80x24: small square keys, left of the screen in
        braille (64x16), the caption and the console side by side under
        it, one line of legend; the REPL's notice over the legend."""
        cell, gap, top, left = (4, 2), (1, 1), 1, 1
        rows = -(-self.count // self.columns)
        keys_right = left + self.columns * (cell[0] + gap[0]) - gap[0]
        keys_bottom = top + rows * (cell[1] + gap[1]) - gap[1]
        glass_left = MIN_COLS - oled.WIDTH // 2
        under = top + oled.HEIGHT // 4
        caption_w = 46
        return View(MIN_COLS, MIN_ROWS, (top, left), cell, gap, short=True,
                    glass=(top, glass_left, oled.braille, None),
                    dial=(keys_bottom + 2, left, keys_right - left, DIAL_COMPACT),
                    panels=((under, left, caption_w, MIN_ROWS - 2 - under),
                            (under, left + caption_w + 2, None, MIN_ROWS - 2 - under)),
                    legend=[(MIN_ROWS - 2, PAD_LEGEND_COMPACT)], address=MIN_ROWS - 1, notice=MIN_ROWS - 2,
                    hint=False)


# What the board prints as it enters the raw REPL, as a soft reset starts,
# and as its friendly REPL starts (MicroPython's pyexec.c and main.c).
RAW_BANNER = "raw REPL; CTRL-B to exit"
SOFT_REBOOT = "MPY: soft reboot"
FRIENDLY_BANNER = "MicroPython v"
RAW_LINE_KEPT = 200  # of a raw-REPL line with no end yet: enough to see the banners in

UNLIT = (0x1D, 0x20, 0x24)  # an unlit cell, as the README pictures draw it
FAINT = (0x5C, 0x62, 0x6B)
RESET = "\x1b[0m"
BOLD, DIM = "\x1b[1m", "\x1b[2m"
ENTER = "\x1b[?1049h\x1b[?25l\x1b[?7l"  # alternate screen, no cursor, no line wrap
LEAVE = RESET + "\x1b[?7h\x1b[?25h\x1b[?1049l"

# Escape sequences: CSI (arrows, function keys, colours), SS3 (arrows in
# application mode), and Esc + a character (Alt+key).
_SEQUENCE = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|O[ -~]|[^\x1b\[O])", re.S)
_SEQUENCE_START = re.compile(rb"\x1b(\[[0-?]*[ -/]*|O)?")
# CSI sequences, OSC ones (CircuitPython sets the terminal's title with
# ESC ] 0; ... ESC \) and any other ESC + one character.
_TEXT_ESCAPES = re.compile(r"\x1b(\][^\x07\x1b]*(?:\x07|\x1b\\)|\[[0-?]*[ -/]*[@-~]|.)", re.S)


def _bg(rgb):
    return "\x1b[48;2;%d;%d;%dm" % rgb


def _fg(rgb):
    return "\x1b[38;2;%d;%d;%dm" % rgb


class KeyReader:
    """Bytes from the terminal as keys: one character each, or ``ESC`` for
    the Esc key. Escape sequences (arrows, function keys, Alt+key) are
    dropped; an Esc waits ``ESC_WAIT_S`` for the rest of one."""

    def __init__(self):
        self.pending = b""  # the start of an escape sequence, or a lone Esc
        self.since = 0.0

    def feed(self, data, now):
        """The keys in ``data`` (after what was pending)."""
        keys = []
        buf, i = self.pending + data, 0
        while i < len(buf):
            if buf[i] != 0x1B:
                keys.append(chr(buf[i]))
                i += 1
                continue
            seq = _SEQUENCE.match(buf, i)
            if seq:
                i = seq.end()
            elif _SEQUENCE_START.fullmatch(buf, i):
                break  # wait for the rest
            else:  # Esc, then another Esc
                keys.append(ESC)
                i += 1
        self.pending = buf[i:]
        self.since = now
        return keys

    def deadline(self):
        return self.since + ESC_WAIT_S if self.pending else math.inf

    def expire(self, now):
        """Keys that a pause completes: a lone Esc. The start of a sequence
        cut short is dropped."""
        if not self.pending or now < self.deadline():
            return []
        lone, self.pending = self.pending == b"\x1b", b""
        return [ESC] if lone else []


class Fingers:
    """The cells held down, each until a time. A press holds its cell for a
    tap; each repeat the terminal sends while the key stays down holds it a
    little longer."""

    def __init__(self):
        self.until = {}

    def tap(self, cell, now):
        self.hold(cell, now + (REPEAT_S if cell in self.until else TAP_S))

    def hold(self, cell, until):
        self.until[cell] = max(self.until.get(cell, 0.0), until)

    def lift(self, now):
        self.until = {c: t for c, t in self.until.items() if t > now}

    def mask(self):
        return sum(1 << c for c in self.until)

    def deadline(self):
        return min(self.until.values(), default=math.inf)


def _printable(line):
    out = []
    for ch in line.replace("\t", " "):
        if ch == "\b":
            del out[-1:]
        elif ch.isprintable():
            out.append(ch)
    return "".join(out)


NARRATION = "> "  # the firmware's narration lines start so (narrate.py)
CAPTION_KEPT = 5
# A narration line this long after the one before starts the next screen's
# caption (a screen's lines come together, in one step of the game).
SCREEN_GAP_S = 0.25
# The narration's one-line updates of a screen (firmware/tactictoe/narrate_text.py):
# the menu's pick, hints shown or hidden, a refusal, a double tap's first tap.
# Each kind, by how it starts: the caption shows the newest in place of the last.
UPDATES = (re.compile(r"Pulsing now: "), re.compile(r"Hints[ :]"), re.compile(r"Cell \d (is not|can't)|Nothing to undo"
           r"|No hints now|That key does nothing|No puzzles here"), re.compile(r"Tap cell \d again "))


class ConsoleLines:
    """The last lines the board printed on its console, as plain text; its
    narration's (``"> ..."``) apart, for the caption.

    While a tool such as ``mpremote`` has the raw REPL (to copy files or run
    code), its traffic is protocol bytes, not text: one line stands for it
    instead, counting the pieces of code run, until the board leaves the
    raw REPL (its friendly banner, or a reset into anything else)."""

    def __init__(self, keep=100, clock=time.monotonic):
        self.lines = collections.deque(maxlen=keep)
        self.said = []  # the current screen's narration lines, without "> " (``_say``)
        self._clock = clock
        self._said_at = -math.inf  # when the last one came
        self.partial = ""  # the line being printed (a prompt, say)
        self._decode = codecs.getincrementaldecoder("utf-8")("replace").decode
        self.raw = False  # in the raw REPL: a tool has the board
        self.runs = 0  # pieces of code run in it
        self._raw_line = ""  # its text since the last newline
        self._end_mark = False  # its text so far ended with Ctrl-D (a run's end, before its ">")
        self._reset = False  # the board reset meanwhile: the raw REPL again (soft reset), or not

    def __call__(self, data):
        text = self._decode(data)
        while text:
            text = self._raw(text) if self.raw else self._text(text)

    def _text(self, text):
        """Text for the panel; returns what comes after the raw REPL's banner."""
        text = _TEXT_ESCAPES.sub("", text)
        *done, self.partial = (self.partial + text).split("\n")
        for i, line in enumerate(done):
            line = _printable(line)
            if RAW_BANNER in line:
                self.raw, self.runs, self._raw_line, self._end_mark = True, 0, "", False
                rest, self.partial = "\n".join(done[i + 1:] + [self.partial]), ""
                return rest
            if line.rstrip() == ">>>" and self.lines and self.lines[-1].rstrip() == ">>>":
                continue  # one bare prompt is enough (mpremote sends two Ctrl-Cs)
            if line.startswith(NARRATION):  # the caption's, not the panel's
                self._say(line[len(NARRATION):].strip())
                continue
            self.lines.append(line)
        return ""

    def _say(self, line):
        """A narration line for the caption, which shows the screen's: lines
        that come together (one step of the game) after a pause start a new
        screen, but an update (the pick, hints, a refusal: narrate_text.UPDATES)
        joins the screen it changes, in place of the update of its kind."""
        now = self._clock()
        kind = next((k for k in UPDATES if k.match(line)), None)
        self._said_at, before = now, self._said_at
        if kind is not None:
            for i, said in enumerate(self.said):
                if kind.match(said):
                    self.said[i] = line
                    return
        elif now - before > SCREEN_GAP_S:
            self.said = []
        self.said = (self.said + [line])[-CAPTION_KEPT:]

    def _raw(self, text):
        """The raw REPL's traffic: counted, not shown. Returns the text after
        it ends."""
        # Each piece of code ends with two Ctrl-Ds (after its output and its
        # error) and the prompt: one "\x04>" a run, whatever it printed.
        self.runs += (("\x04" if self._end_mark else "") + text).count("\x04>")
        self._end_mark = text.endswith("\x04")
        *done, self._raw_line = (self._raw_line + text).split("\n")
        self._raw_line = self._raw_line[-RAW_LINE_KEPT:]  # runs' answers need no newline: don't pile them up
        for i, line in enumerate(done):
            line = _printable(line)
            if RAW_BANNER in line:
                self._reset = False  # a soft reset, back into the raw REPL
            elif line.startswith(FRIENDLY_BANNER) or (self._reset and line and SOFT_REBOOT not in line):
                rest = "\n".join(done[i:] + [self._raw_line])
                self._leave()
                return rest
        return ""

    def _raw_summary(self, done=False):
        """The panel's one line for mpremote's turn at the raw REPL: how many
        pieces of code it has sent the board to run (a copy is many)."""
        runs = "%d command%s" % (self.runs, "" if self.runs == 1 else "s")
        if not done and not self._reset:  # (a reset ends its turn, whatever comes next)
            return "[mpremote is using the board: %s so far]" % runs
        return "[mpremote is done: it ran %s%s]" % (runs, " and reset the board" if self._reset else "")

    def _leave(self):
        self.lines.append(self._raw_summary(done=True))
        self.raw = self._reset = False
        self._raw_line = ""

    def board_reset(self):
        """The board reset: in the raw REPL, the text that follows says
        whether it is back in it (a soft reset) or not (main.py runs)."""
        if self.raw:
            self._reset = True
            self._raw_line = ""
            self._end_mark = False

    def note(self, text):
        """A line of our own, after what the board printed so far."""
        if self.raw:
            self._leave()
        if self.partial:
            self(b"\n")
        self.lines.append(text)

    def at_repl(self):
        """Whether the REPL has the board: it waits at the friendly REPL's
        prompt (``>>>``), or a tool has the raw REPL. The game has stopped
        and only a reset brings it back."""
        if self.raw:
            return not self._reset
        return self.partial.startswith(">>>")

    def caption(self, width, rows):
        """The current screen's narration lines, wrapped to ``width``, in at
        most ``rows``: when they don't all fit, each keeps its first row at
        least, the shortest are shown whole, and the rows left go to the
        oldest (the screen's question), then the newest; a line cut short
        ends with "…"."""
        wrapped = [textwrap.wrap(line, width) or [""] for line in self.said][-rows:] if rows > 0 else []
        n = len(wrapped)
        give = [1] * n
        left = rows - n
        first = [0] + list(range(n - 1, 0, -1)) if n else []  # the question, then the newest
        for i in sorted(first, key=lambda i: len(wrapped[i])):  # (stable: ties in that order)
            if len(wrapped[i]) - 1 <= left:
                left -= len(wrapped[i]) - 1
                give[i] = len(wrapped[i])
        for i in first:
            more = min(left, len(wrapped[i]) - give[i])
            give[i] += more
            left -= more
        out = []
        for rows_of, n in zip(wrapped, give):
            part = rows_of[:n]
            if n < len(rows_of):
                part[-1] = part[-1][:width - 1].rstrip() + "…"
            out += part
        return out

    def last(self, width, rows):
        """The last ``rows`` lines, wrapped to ``width``."""
        tail = self._raw_summary() if self.raw else _printable(self.partial)
        lines = list(self.lines) + ([tail] if tail else [])
        out = []
        for line in reversed(lines):
            out[:0] = textwrap.wrap(line, width) or [""]
            if len(out) >= rows:
                break
        return out[-rows:]


class Screen:
    """What the terminal shows, as pieces of text at (row, column); writes
    only the pieces that changed."""

    def __init__(self, out):
        self.out = out
        self.shown = {}

    def clear(self):
        self.shown = {}
        self.out.write(RESET + "\x1b[2J")

    def show(self, pieces):
        changed = ["\x1b[%d;%dH%s" % (row + 1, col + 1, text)
                   for (row, col), text in pieces.items() if self.shown.get((row, col)) != text]
        self.shown = pieces
        if changed:
            self.out.write("".join(changed))
            self.out.flush()


def luminance(rgb):
    """The relative luminance of an sRGB colour (WCAG 2), 0 to 1."""
    c = [v / 255 for v in rgb]
    c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def _ink(bg):
    """Black or white, whichever contrasts more with ``bg`` (at least 4.58:1)."""
    y = luminance(bg)
    return (0, 0, 0) if (y + 0.05) / 0.05 > 1.05 / (y + 0.05) else (255, 255, 255)


def _cell_rows(rgb, label, held, width=CELL_W, height=CELL_H):
    """The rows of text that draw one cell, ``width`` x ``height``: its
    colour as the eye sees the LED, and its keys on every cell (``label``,
    a line or a tuple of lines, in the middle): faint when it is dark, in
    black or white (whichever reads against its colour) when it is lit,
    and bold while a finger is on it."""
    lit = any(rgb)
    bg = as_seen(rgb) if lit else UNLIT
    ink = _fg(_ink(bg) if held or lit else FAINT)
    if held:
        ink = BOLD + ink
    lines = (label,) if isinstance(label, str) else tuple(label)
    first = (height - len(lines)) // 2
    rows = []
    for r in range(height):
        text = lines[r - first] if 0 <= r - first < len(lines) else ""
        rows.append(_bg(bg) + (ink + text.center(width) if text else " " * width) + RESET)
    return rows


def picture(board, console, cols):
    """The pieces of the whole screen, ``cols`` wide."""
    pieces = {(0, 1): BOLD + getattr(board, "title", "virtual board") + "  " + board.cfg["name"] + RESET}
    buzzer = " buzzer %d Hz " % board.tone if board.tone else ""
    pieces[(0, cols - BUZZER_W - 1)] = "\x1b[30;43m" + buzzer + RESET + " " * (BUZZER_W - len(buzzer))
    for cell in range(9):
        top = GRID_TOP + cell // 3 * (CELL_H + GAP_H)
        left = GRID_LEFT + cell % 3 * (CELL_W + GAP_W)
        for r, text in enumerate(_cell_rows(board.frame[cell], cell_label(cell), board.held >> cell & 1)):
            pieces[(top + r, left)] = text
    _panel(pieces, console, GRID_TOP, PANEL_LEFT, cols - PANEL_LEFT - 1, GRID_BOTTOM - GRID_TOP, CAPTION_ROWS)
    pieces[(GRID_BOTTOM + 1, 1)] = LEGEND
    port = board.port
    address = "serial console: %s  (%s connect %s repl)" % (port, _mpremote(), port) if port else "no serial console"
    pieces[(GRID_BOTTOM + 2, 1)] = address[:cols - 2]
    notice = _notice(board, console, cols - 2, port)
    pieces[(GRID_BOTTOM + 3, 1)] = notice + RESET + " " * (cols - 2 - len(_TEXT_ESCAPES.sub("", notice)))
    return pieces


def _notice(board, console, width, port):
    """The line under the address: the REPL's notice while it has the
    board, else a board.json that is not for this wiring (for as long as it
    is so: its console line scrolls away), else the REPL's hint."""
    mismatch = getattr(board, "mismatch", None)
    if console.at_repl():
        return "\x1b[30;43m" + REPL_NOTICE
    if mismatch:
        return "\x1b[30;43m" + (" " + mismatch + " ")[:width]
    return DIM + REPL_HINT if port else ""


def _panel(pieces, console, top, left, width, height, caption_rows):
    """The caption (``_caption``, ``caption_rows`` rows) and under it the
    console's last lines, in ``height`` rows from ``top``."""
    _caption(pieces, console, top, left, width, caption_rows)
    _console(pieces, console, top + caption_rows, left, width, height - caption_rows)


def _caption(pieces, console, top, left, width, rows):
    """The current screen's narration, on a tinted box: its heading, then
    ``rows`` - 1 rows, read from the top."""
    pieces[(top, left)] = BOLD + CAPTION.ljust(width) + RESET
    rows -= 1
    lines = console.caption(width - 2, rows)
    for r, line in enumerate(lines + [""] * (rows - len(lines))):
        pieces[(top + 1 + r, left)] = _bg(CAPTION_BG) + " " + line.ljust(width - 1) + RESET


def _console(pieces, console, top, left, width, rows):
    """The console's last lines under a heading, ``rows`` rows in all."""
    pieces[(top, left)] = DIM + "console output".ljust(width) + RESET
    lines = console.last(width, rows - 1)
    for r, line in enumerate([""] * (rows - 1 - len(lines)) + lines):
        pieces[(top + 1 + r, left)] = line.ljust(width)


def keys_held(board):
    """The board's own keys a finger is on (``Pad``'s numbering): the
    Unix-port board holds bits of its key mask (``key_bits``)."""
    bits = getattr(board, "key_bits", None)
    if bits is None:
        return board.held
    return sum(1 << k for k, bit in enumerate(bits) if bit is not None and board.held >> bit & 1)


def pad_picture(board, pad, console, cols, rows):
    """The pieces of the whole screen for a bought board in a terminal of
    ``cols`` x ``rows``: full size or compact (``Pad.view``)."""
    view = pad.view(cols, rows)
    pieces = {(0, 1): BOLD + getattr(board, "title", "virtual board") + "  " + board.cfg["name"] + RESET}
    buzzer = " buzzer %d Hz " % board.tone if board.tone else ""
    pieces[(0, cols - BUZZER_W - 1)] = "\x1b[30;43m" + buzzer + RESET + " " * (BUZZER_W - len(buzzer))
    pixels = board.pixels
    held = keys_held(board)
    labels = pad.short if view.short else pad.labels
    for key in range(pad.count):
        top, left = view.key_at(pad.place[key], pad.columns)
        rgb = (0, 0, 0)
        if key < len(pixels):
            r, g, b, level = pixels[key]
            rgb = tuple(v * level // 31 for v in (r, g, b))
        for r, text in enumerate(_cell_rows(rgb, labels.get(key, ""), held >> key & 1, view.cell_w, view.cell_h)):
            pieces[(top + r, left)] = text
    if view.glass:
        top, left, draw, heading = view.glass
        if heading:
            pieces[(top - 1, left)] = DIM + heading + RESET
        fb = board.screen
        lines = draw(fb) if fb else [" " * len(line) for line in draw(bytes(oled.WIDTH * oled.HEIGHT // 8))]
        for r, line in enumerate(lines):
            pieces[(top + r, left)] = _fg((255, 255, 255)) + _bg((0, 0, 0)) + line + RESET
    if view.dial:
        top, left, width, lines = view.dial
        for r, line in enumerate(lines):
            text = line % board.turned if "%" in line else line
            pieces[(top + r, left)] = DIM + text.ljust(width) + RESET
    (top, left, width, height), console_at = view.panels
    _caption(pieces, console, top, left, width or cols - left - 1, height)
    top, left, width, height = console_at
    _console(pieces, console, top, left, width or cols - left - 1, height)
    for row, line in view.legend:
        pieces[(row, 1)] = line[:cols - 2]
    port = board.port
    address = "serial console: %s  (%s connect %s repl)" % (port, _mpremote(), port) if port else "no serial console"
    pieces[(view.address, 1)] = address[:cols - 2]
    if console.at_repl() or view.hint or getattr(board, "mismatch", None):  # compact: over the legend, no hint
        notice = _notice(board, console, cols - 2, port)
        if not view.hint and notice.startswith(DIM):
            notice = ""
        pieces[(view.notice, 1)] = notice + RESET + " " * (cols - 2 - len(_TEXT_ESCAPES.sub("", notice)))
    return pieces


def pad_of(board):
    """The ``Pad`` of a bought board, else None."""
    hardware = getattr(board, "hardware", "pico")
    return None if hardware == "pico" else Pad(board.cfg, hardware)


@functools.cache
def _mpremote():
    """How to type mpremote here (flash.mpremote), worked out once."""
    from host_tools.flash import mpremote

    return mpremote()


def _too_small(cols, rows, least=(MIN_COLS, MIN_ROWS)):
    return "too small: needs %dx%d, this is %dx%d" % (least + (cols, rows))


def _terminal_size(infd, out, least=(MIN_COLS, MIN_ROWS)):
    """``(columns, rows)`` of the terminal; SimError if there is none or it
    is smaller than ``least``."""
    if not (os.isatty(infd) and out.isatty()):
        raise SimError("the simulator needs a terminal (stdin and stdout); for scripts use"
                       " python -m host_tools sim --headless")
    cols, rows = os.get_terminal_size(out.fileno())
    if cols < least[0] or rows < least[1]:
        raise SimError("the simulator needs a terminal of at least %dx%d (this one is %dx%d)"
                       % (least + (cols, rows)))
    return cols, rows


class Session:
    """One run of the terminal front-end: keys in, board polled, screen redrawn."""

    def __init__(self, board, out, size, pad=None):
        self.board = board
        self.pad = pad
        self.least = (pad.min_cols, pad.min_rows) if pad else (MIN_COLS, MIN_ROWS)
        self.out = out
        self.size = size
        self.resized = False
        self.screen = Screen(out)
        self.keys = KeyReader()
        self.fingers = Fingers()
        self.console = ConsoleLines()
        self.typed = b""
        self.quit = False
        self.next_draw = 0.0
        self.resets = getattr(board, "resets", 0)

    def on_resize(self, signum, frame):
        self.resized = True  # acted on at the next redraw, outside the handler

    def read(self, fd):
        # Called from inside board.poll(): only collect the bytes, since
        # acting on a key (a power cycle) changes what that poll is iterating.
        try:
            data = os.read(fd, 1024)
        except OSError:  # the terminal hung up
            data = b""
        self.typed += data
        self.quit |= not data

    def press(self, key, now):
        if key in QUIT_KEYS:
            self.quit = True
        elif key in RESET_KEYS:
            self.board.power_cycle()
            self.console.note("--- power-cycled ---")
        elif self.pad and key in TURN_KEYS and self.pad.encoder:
            self.board.turn(TURN_KEYS[key])
        elif key in LONG_KEYS and not (self.pad and key in self.pad.keymap):
            centre = self.pad.centre if self.pad else CENTRE
            self.fingers.hold(centre, now + self.board.cfg["timing"]["long_press_ms"] / 1000 + LONG_EXTRA_S)
        elif key in (self.pad.keymap if self.pad else CELL_OF_KEY):
            cell = (self.pad.keymap if self.pad else CELL_OF_KEY)[key]
            if cell not in self.fingers.until and self._mask(1 << cell):
                # A new press: the board also holds it for a tap on its own
                # clock, so a host or board short of CPU can't lose it.
                self.board.tap(self._mask(1 << cell).bit_length() - 1, TAP_MS)
            self.fingers.tap(cell, now)

    def _mask(self, keys):
        """The board's key mask for fingers on ``keys`` (the Pad's numbering
        on a bought board): the Unix-port board's ``key_bits``."""
        bits = getattr(self.board, "key_bits", None) if self.pad else None
        if bits is None:
            return keys
        return sum(1 << bit for k, bit in enumerate(bits) if bit is not None and keys >> k & 1)

    def draw(self):
        if self.resized:
            self.resized = False
            self.size = tuple(os.get_terminal_size(self.out.fileno()))
            self.screen.clear()
        cols, rows = self.size
        if cols < self.least[0] or rows < self.least[1]:
            self.screen.show({(0, 0): _too_small(cols, rows, self.least)[:cols]})
        elif self.pad:
            self.screen.show(pad_picture(self.board, self.pad, self.console, cols, rows))
        else:
            self.screen.show(picture(self.board, self.console, cols))

    def loop(self):
        """Until a quit key (True) or the board stops (False)."""
        self.screen.clear()
        while self.board.running and not self.quit:
            deadline = min(self.next_draw, self.keys.deadline(), self.fingers.deadline())
            self.board.poll(max(0.0, deadline - time.monotonic()))
            now = time.monotonic()
            if getattr(self.board, "resets", 0) != self.resets:  # the console can't tell a hard reset
                self.resets = self.board.resets
                self.console.board_reset()
            typed, self.typed = self.typed, b""
            for key in self.keys.feed(typed, now) if typed else self.keys.expire(now):
                self.press(key, now)
            self.fingers.lift(now)
            if self._mask(self.fingers.mask()) != self.board.held:
                self.board.hold(self._mask(self.fingers.mask()))
            if now >= self.next_draw:
                self.draw()
                self.next_draw = now + FRAME_S
        return self.quit


@contextmanager
def _terminal(infd, out):
    """The terminal in raw mode on its alternate screen, restored on the way out."""
    saved = termios.tcgetattr(infd)
    try:
        tty.setraw(infd)
        out.write(ENTER)
        yield
    finally:
        try:
            out.write(LEAVE)
            out.flush()
        finally:
            termios.tcsetattr(infd, termios.TCSADRAIN, saved)


def _why_stopped(board):
    if getattr(board, "crash", None):
        return "the emulated chip stopped: %s" % board.crash
    if board.status == OFF:
        return "the virtual board powered off"
    return "the virtual board stopped (exit status %s)" % board.status


def run(board, infd=0, out=sys.stdout):
    """Show ``board`` (already started) in the terminal ``infd``/``out`` and
    play it with the keyboard. Returns 0 when the player quits, 1 when the
    board stops; raises SimError if there is no terminal or it is too small."""
    pad = pad_of(board)
    session = Session(board, out, _terminal_size(infd, out, (pad.min_cols, pad.min_rows) if pad else
                                                 (MIN_COLS, MIN_ROWS)), pad)
    with ExitStack() as undo:  # everything put back, whatever happens
        undo.callback(setattr, board, "on_output", board.on_output)
        board.on_output = session.console
        board.sel.register(infd, selectors.EVENT_READ, session.read)
        undo.callback(board.sel.unregister, infd)
        undo.callback(signal.signal, signal.SIGWINCH, signal.getsignal(signal.SIGWINCH))
        signal.signal(signal.SIGWINCH, session.on_resize)
        undo.enter_context(_terminal(infd, out))
        player_left = session.loop()
    if player_left:
        return 0
    out.write(_why_stopped(board) + "\n")
    out.flush()
    return 1
