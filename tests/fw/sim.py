"""Drive the real firmware with simulated time and fingers.

Runs under MicroPython and CPython alike, with only the hardware modules
(``machine``, ``neopixel``) replaced by the doubles in tests/doubles. A
``Board`` is one powered-up board: its flash is a folder holding
``board.json`` and the tables.
"""

from tactictoe import ai
from tactictoe import app as appmod
from tactictoe import config
from tactictoe import main

try:  # the doubles of MicroPython's machine hold the simulated fingers...
    import machine as fingers
except ImportError:  # ...or, for the CircuitPython layer, fingers.py does
    import fingers
try:  # where the bytes for the strip end up
    import neopixel_write as strip  # CircuitPython: the Adafruit library calls it
except ImportError:
    import neopixel as strip

# Logical palette classes, as (char, colour); matched by hue.
_PALETTE_KEYS = (("X", "x"), ("O", "o"), ("D", "draw"), ("E", "error"), ("N", "notice"), ("M", "menu"))


def is31fl3731():
    """The doubles' IS31FL3731 (tests/doubles/is31regs.py)."""
    try:
        from is31regs import CHIP
    except ImportError:  # the CircuitPython doubles' path: their busio brings it
        from busio import is31regs

        CHIP = is31regs.CHIP
    return CHIP


def chain(cfg):
    """The last bytes the LEDs took, 3 a pixel in the chain's colour order:
    the NeoPixels', an APA102 frame's colours (4 bytes a LED after a
    4-byte start frame, on SPI, whose transfers the doubles keep), or what
    an IS31FL3731's registers show; None before any."""
    leds = cfg["leds"]
    if leds["kind"] == "is31fl3731":  # the registers the doubles' chip took
        return is31fl3731().colours()
    if leds["kind"] != "apa102":
        return strip.last
    try:
        from machine_more import spi_writes  # MicroPython's doubles: (bus, bytes, levels)
        i = 1
    except ImportError:
        from busio import spi_writes  # CircuitPython's: (bytes, levels)
        i = 0
    if not spi_writes:
        return None
    frame = spi_writes[-1][i]
    return bytes(frame[4 * n + 5 + k] for n in range(leds["count"]) for k in range(3))


class Board:
    def __init__(self, folder, seed=1, rises=False):
        self.folder = folder
        cfg, _ = config.load(folder + "/board.json")
        self.cfg = cfg
        if cfg["leds"]["kind"] == "is31fl3731":  # a new board: its chip powers up cleared
            is31fl3731().reset()
        fingers.wire(cfg["input"], rises)
        self.lines = []
        self.runner = main.boot(folder, ai.Rng(seed), self.lines.append)
        self.timing = self.runner.timing if self.runner else None
        self.now = 0
        self.app = self.runner.app if self.runner else None
        self._palette = [(ch, cfg["colours"][name]) for ch, name in _PALETTE_KEYS]
        self._palette += [("G", (0, 255, 0)), ("B", (0, 0, 255))]
        # The hints' colours (H: X's, J: O's): each mark's lightened 3/8 of the way to white.
        self._palette += [(ch, tuple(v + (255 - v) * 3 // 8 for v in cfg["colours"][name]))
                          for ch, name in (("H", "x"), ("J", "o"))]

    # --- time and fingers ------------------------------------------------------

    def run(self, ms):
        """Let ``ms`` milliseconds pass, stepping the loop as main does."""
        scan = self.timing["scan_ms"]
        frame = self.timing["frame_ms"]
        end = self.now + ms
        r = self.runner
        while self.now < end:
            self.now += scan
            r.tick(self.now)  # the keys, then the game step at once, as the loop does
            if self.now % frame < scan:
                r.draw(self.now)

    def press(self, cell, ms=100, after=80):
        fingers.held |= 1 << cell
        self.run(ms)
        fingers.held &= ~(1 << cell)
        self.run(after)

    def hold(self, cell, ms):
        self.press(cell, ms)

    def wait_human(self, limit=20000):
        """Run until it is a person's turn (or the game is over)."""
        t = 0
        while t < limit:
            m = self.app.match
            if self.app.state != appmod.PLAY or not m.ai_turn():
                return
            self.run(50)
            t += 50
        raise AssertionError("the board never finished its move")

    # --- what the LEDs show ----------------------------------------------------

    def leds(self):
        """The last frame sent to the strip, as (r, g, b) per cell, undoing
        the pixel order, colour order and brightness cap."""
        buf = chain(self.cfg)
        leds = self.cfg["leds"]
        scale = int(leds["brightness"] * 256)
        out = []
        for cell in range(9):
            p = 3 * leds["order"][cell]
            rgb = [0, 0, 0]
            for k in range(3):
                rgb["RGB".index(leds["colour_order"][k])] = (buf[p + k] * 256 + scale - 1) // scale
            out.append(tuple(rgb))
        return out

    def picture(self):
        """The frame as 9 characters: X/O (X's and O's colour), H/J (X's
        and O's hints: their colours lightened), D draw
        glow, W white, E error (and red), G green, B blue, N notice, M menu,
        . dark; lower case when dim (below half brightness); ? for anything
        else."""
        chars = []
        for rgb in self.leds():
            chars.append(self._classify(rgb))
        return "".join(chars)

    def _classify(self, rgb):
        top = max(rgb)
        if top == 0:
            return "."
        if max(rgb) - min(rgb) <= 2 + top // 16:
            return "W" if top >= 115 else "w"
        for ch, colour in self._palette:
            ref = max(colour)
            if all(abs(rgb[i] - colour[i] * top // ref) <= 2 + top // 20 for i in range(3)):
                return ch if top * 2 >= ref else ch.lower()
        return "?"

    def level(self, cell):
        """How bright a cell is, 0-256 of its colour's full drive."""
        rgb = self.leds()[cell]
        for _, colour in self._palette:
            ref = max(colour)
            if ref and all(abs(rgb[i] - colour[i] * max(rgb) // ref) <= 2 for i in range(3)):
                return max(rgb) * 256 // ref
        return max(rgb) * 256 // 255

    def show(self):
        p = self.picture()
        return "%s %s %s" % (p[0:3], p[3:6], p[6:9])
