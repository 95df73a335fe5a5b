"""Drive the emulated Pico (``host_tools.sim.pico``) from a test, in lockstep:
the chip runs only while the test says so, by emulated time, so what a test
sees never depends on how busy the machine is.

Lines are those of ``sim --headless``: ``frame MS GRID HEX``, ``serial TEXT``,
plus ``tone MS HZ`` and ``power MS WHY``.
"""

import os

from host_tools import images
from host_tools.sim import frames as sim_frames, headless as sim_headless, pico, script as sim_script
from tactictoe import rules

from live_sim import MENU_TAPS, is_menu  # noqa: F401  (the same menu, the same frames)

STEP_MS = 50  # how far the chip runs between looks at what it said
TAP_MS = sim_script.TAP_MS


class PicoRun:
    """One emulated Pico, paused between calls.

    :param flash_file: its littlefs image (None: only what ``uf2`` holds).
    :param board: its wiring (a shipped Pico board config).
    :param uf2: the UF2 files it was flashed with.
    :param console: also give it a pseudo-terminal (for mpremote).
    :param runtime: "micropython", or "circuitpython" (``flash_file`` is
        then the CIRCUITPY drive's FAT image).
    :param hardware: the board around the chip (``pico.HARDWARE``); its
        chips' reports come as lines ``screen MS``, ``apa102 MS``, ``is31fl3731 MS``,
        ``turned MS N`` (what they show is on ``self.chip``).
    :param grid: the board's key under each of the 9 cells (``tap(cell)``
        presses it; ``press(key)`` any key); default: key = cell.

    Without an official image it needs (the boot ROM, its default runtime)
    the test skips, saying which (``conftest.skip_for``).
    """

    def __init__(self, flash_file, board="pico-buttons", uf2=None, console=False, runtime="micropython",
                 hardware=None, grid=range(9)):
        self.grid = list(grid)
        self.lines = []
        self.wires = []  # the bytes on the wire of each frame line, in order
        self.seen = 0  # lines already looked at by wait()
        self._out = sim_headless.SerialLines(self.lines.append)
        try:
            self.chip = pico.EmulatedPico(flash_file, board, console=console, uf2=uf2,
                                          on_frame=self._frame, on_output=self._out,
                                          on_event=self._event, runtime=runtime, hardware=hardware)
        except images.ImageMissing as e:
            from conftest import skip_for

            skip_for(e.image)
        self.chip.start(live=False)

    def _frame(self, ms, cells):
        self.lines.append(sim_frames.frame_line(ms, cells, self.chip.cfg))
        self.wires.append(self.chip.wire)

    def _event(self, words):
        if words[0] == "power":
            self._out.part = b""  # a line cut off by the reset ends there
        if words[0] in ("tone", "power"):
            self.lines.append("%s %d %s" % (words[0], int(words[1]) // 1000000, words[2]))
        elif words[0] in ("screen", "apa102", "is31fl3731", "turned") and words[1].isdigit():
            self.lines.append(" ".join([words[0], str(int(words[1]) // 1000000)] + words[2:3] * (words[0] == "turned")))
        elif words[0] == "fault":
            self.lines.append(" ".join(words))

    @property
    def ms(self):
        return self.chip.ms

    def run(self, ms):
        return self.chip.run(ms)

    def wait(self, match, limit_ms, what=None):
        """Run until a new line matches; AssertionError after ``limit_ms`` of
        emulated time."""
        end = self.ms + limit_ms
        while True:
            while self.seen < len(self.lines):
                line = self.lines[self.seen]
                self.seen += 1
                if match(line):
                    return line
            if self.ms >= end:
                raise AssertionError("nothing matched %s in %d emulated ms; last lines:\n%s"
                                     % (what or match, limit_ms, "\n".join(self.lines[-15:])))
            self.run(STEP_MS)

    def serial(self, text, limit_ms=10000):
        return self.wait(lambda line: line.startswith("serial ") and text in line, limit_ms, repr(text))

    def hold(self, mask):
        self.chip.hold(mask)

    def tap(self, cell, ms=TAP_MS):
        self.press(self.grid[cell], ms)

    def press(self, key, ms=TAP_MS):
        """Hold the board's ``key`` for ``ms``, then lift it for a gap."""
        self.hold(self.chip.held | 1 << key)
        self.run(ms)
        self.hold(self.chip.held & ~(1 << key))
        self.run(TAP_MS)

    def type(self, text):
        self.chip.type(text.encode())

    def frames(self):
        return [line for line in self.lines if line.startswith("frame ")]

    def close(self):
        self.chip.close()


def start_game(board, game, hints=False):
    """From power-on: wait for the menu, then the game, "you play X",
    perfect level, hints."""
    board.wait(is_menu, 5000, "the menu")
    for cell in (MENU_TAPS[game], 0, 8, 5 if hints else 3):
        board.tap(cell)


def to_the_menu(board, menu_key, limit_ms=15000):
    """Bring a module's shared board to the first menu screen: wait for it
    after power-on (a test run alone), else press ``menu_key`` (it leaves a
    game; on the first menu screen it does nothing). ``start_game`` then
    picks."""
    if any(is_menu(line) for line in board.lines):
        board.press(menu_key)
    else:
        board.wait(is_menu, limit_ms, "the menu")


def play(board, game, choose, limit_ms=20000):
    """Play a game as X: ``choose(pos)`` picks X's cell; the board's replies
    are read from its console. Returns (pos, result line)."""
    pos = rules.Position(game)
    name = rules.GAMES[game]
    while True:
        cell = choose(pos)
        board.tap(cell)
        board.serial("%s: X %d" % (name, cell), 2000)
        pos.push(cell)
        if pos.is_over():
            break
        line = board.wait(lambda line: line.startswith("serial %s: O " % name), limit_ms, "the board's move")
        pos.push(int(line.split()[-1]))
        if pos.is_over():
            break
    result = board.wait(lambda line: line.startswith("serial %s: " % name) and
                        (line.endswith("wins") or line.endswith("draw")), limit_ms, "the result")
    return pos, result


def plays_on_without_its_table(b):
    """After a tactic-toe table was found wrong, a new game: the red X before
    play, then the game, X's first move taken and the fallback AI's reply."""
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "R.R/.R./R.R", 3000, "the red X")
    b.wait(lambda line: line.startswith("frame ") and line.split()[2] == "xxx/xxx/xxx", 5000, "the game")
    b.tap(1)
    b.serial("tactictoe: X 1", 3000)
    b.wait(lambda line: line.startswith("serial tactictoe: O "), 20000, "the fallback's move")


def perfect(game, table_path):
    """A chooser that plays perfectly, with the firmware's own AI on the host."""
    from tactictoe import ai
    from tactictoe import table

    t = table.Table(table_path, game)
    rng = ai.Rng(1)
    return lambda pos: ai.choose_move(pos, ai.PERFECT, t, rng)


def flash_image(path, board="pico-buttons", tables_dir=None, extra=()):
    """Write the littlefs image ``make flash`` would leave on a Pico, plus
    ``extra`` [(name, bytes)] files; returns the path."""
    from host_tools.drive import picofs

    files = dict(picofs.board_files(board, tables_dir=tables_dir))
    files.update(dict(extra))
    with open(path, "wb") as f:
        f.write(picofs.image(sorted(files.items()), picofs.FOLDERS))
    return os.fspath(path)


def rendered(lines, step=14):
    """The picture framebuf makes of ``lines`` (MONO_VLSB, 128x64), a line
    every ``step`` rows (hw_machine's), from the MicroPython Unix port's own
    framebuf, not through any chip."""
    import subprocess

    from conftest import HANG_S, MICROPYTHON

    code = ("import framebuf\nb = bytearray(1024)\nf = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)\n"
            "for i, s in enumerate(%r):\n    f.text(s, 0, %d * i, 1)\nprint(b.hex())\n" % (tuple(lines), step))
    r = subprocess.run([MICROPYTHON, "-c", code], capture_output=True, text=True, timeout=HANG_S, check=True)
    return bytes.fromhex(r.stdout.strip())


LEVEL = 63  # full colour at the shipped configs' brightness cap (0.25)


def solid(line):
    """The one colour every cell of a frame line shows, or None."""
    colours = set(line.split()[3].split(","))
    return colours.pop() if len(colours) == 1 else None


def check_self_test(b):
    """The self-test, as decoded from the LED pin: each pixel alone, cells 0
    to 8 in white, then red, green and blue; through the config's pixel
    order and GRB byte order back to cells, and GRB on the wire itself."""
    frames = b.frames()
    walk = [f.split()[3].split(",") for f in frames[:9]]
    for cell, colours in enumerate(walk):
        assert colours == ["%02x%02x%02x" % (LEVEL, LEVEL, LEVEL) if c == cell else "000000" for c in range(9)]
    assert [solid(f) for f in frames[9:12]] == ["3f0000", "003f00", "00003f"]
    assert [b.wires[i][:3] for i in (9, 10, 11)] == [bytes([0, LEVEL, 0]), bytes([LEVEL, 0, 0]),
                                                      bytes([0, 0, LEVEL])]


def corrupt_drive(tmp_path, board, table_files):
    """A CIRCUITPY drive image for ``board`` (``make circuitpy``'s files)
    whose tactictoe.tbl has one byte flipped; its path."""
    from host_tools.drive import circuitpy, fat

    files = dict(circuitpy.drive_files(board, tables_dir=os.path.dirname(table_files[rules.CLASSIC])))
    name = circuitpy._join(circuitpy.LAYOUT["tables"], "tactictoe.tbl")
    bad = bytearray(files[name])
    bad[1000] ^= 0xFF
    files[name] = bytes(bad)
    drive = tmp_path / "circuitpy.img"
    drive.write_bytes(fat.image(sorted(files.items())))
    return drive
