"""The score the board keeps: won, drawn and lost for each game and level,
the two-player games' results, the puzzles solved, your accuracy in each
game and the matched level's setting, in one 380-byte record with a CRC-32
(docs/firmware.md, "The score on the flash"; an older firmware's 348-byte
record, version 1, is taken over at load).

Where it lives: on MicroPython, a file on the board's flash,
``data/tactictoe/score.bin``, written to ``score.bin.tmp`` beside it and
renamed over the old one, so a power cut mid-write keeps the old score. Not
at the root: on littlefs each save appends to its folder's log, and every
path the board opens at power-on is looked up through the root's, so a
score at the root made each power-on after a save slower
(docs/performance.md, "Power-on after many saves"). A score an older
firmware kept at the root (``score.bin``) is moved at the first load.
CircuitPython's code can't write its CIRCUITPY drive (the host owns it, unless boot.py remounts it,
when the file is used), so there the record lives in ``microcontroller.nvm``:
each save goes into the next erased slot, so most saves only program erased
flash and a cut one leaves the slot before it whole; when no slot is left
the whole nvm is erased and rewritten, and a power cut inside that one
write loses the score.

A missing score is an empty one; an unreadable one is an empty one too, said
once on the console, and replaced at the next save. Nothing here raises.
"""

import os

from micropython import const

try:
    from binascii import crc32
except ImportError:  # binascii.crc32 is optional in MicroPython builds
    from .crc32 import crc32

# Results for "you" against the board.
WON = const(0)
DRAWN = const(1)
LOST = const(2)

_MAGIC = b"TTSC"
_VERSION = const(2)
# The record, little-endian (docs/firmware.md):
_SAVES = const(6)  # u16: saves so far (wraps)
_GAMES = const(8)  # u16 [game][level][result]: 2 x 3 x 3 (levels 0-2)
_TWO = const(44)  # u16 [game][X wins, O wins, draws]: 2 x 3
_SOLVED = const(56)  # 256 bits: puzzle i is bit i & 7 of byte i >> 3
_FAILS = const(88)  # u8 per puzzle: its failures, saturating at 255
_MATCHED = const(344)  # u16 [game][result]: 2 x 3, against level 3 (version 2 on)
_MOVES = const(356)  # u32 [game]: your moves the review judged
_POINTS = const(364)  # u32 [game]: their points, 2 a best move, 1 a slower one
_RECENT = const(372)  # u8 [game]: your recent accuracy + 1 (0: none yet)
_SETTING = const(374)  # u8 [game]: the matched level's setting + 1 (0: none yet)
_CRC = const(376)  # u32: CRC-32 of bytes 0-375
SIZE = const(380)
OLD_SIZE = const(348)  # version 1: bytes 0-343 as now, its CRC-32 at 344
LEVELS = const(4)  # the levels counted: ai.EASY, MEDIUM, PERFECT and level 3

# Where the board keeps it, from the flash's root: in a folder whose parent
# is not the root either, since littlefs moves a folder's log to fresh
# blocks after 100 compactions and writes its new place into the parent's
# log (for the score's folder, every few hundred saves); and where an older
# firmware kept it.
FOLDER = "data/tactictoe"
PATH = FOLDER + "/score.bin"
OLD_PATH = "score.bin"



def _missing(e, path):
    """True if the OSError ``e`` (from ``path``) says there is no such file,
    on every port (``oserrors.missing``: the WebAssembly port's numbers)."""
    import errno

    if e.args and e.args[0] == errno.ENOENT:
        return True
    from . import oserrors  # (loaded only when a file fails)

    return oserrors.missing(e, path)


def _words(e):
    from .oserrors import words  # (loaded only to say one)

    return words(e)


def _nvm():
    """CircuitPython's ``microcontroller.nvm`` when the code can't write
    its drive, else None (MicroPython, or a drive boot.py made writable)."""
    try:
        import microcontroller
        import storage
    except ImportError:
        return None
    nvm = getattr(microcontroller, "nvm", None)
    try:
        if nvm is None or len(nvm) < SIZE or not storage.getmount("/").readonly:
            return None
    except (AttributeError, OSError, ValueError):
        pass  # no way to ask: nvm it is
    return nvm


def on_flash(folder="", log=print):
    """The board's score: ``PATH`` on the flash whose root is ``folder``
    ("" on a board), taking over one at ``OLD_PATH``."""
    root = folder + "/" if folder else ""
    return Score(root + PATH, log, root + OLD_PATH)


def _make_folders(path):
    """Make the folders ``path`` is in that are missing: True if any was."""
    made = False
    parts = path.split("/")
    for k in range(1, len(parts)):
        try:
            os.mkdir("/".join(parts[:k]))
            made = True
        except OSError:
            pass  # there already ("" of an absolute path, too)
    return made


class Score:
    """The score, in RAM between ``load()`` and ``save()``.

    :param str path: the score file (MicroPython; CircuitPython too when
        boot.py has made the drive writable), its folder made at the first
        save if need be; None keeps it in RAM only.
    :param log: called with each line to show on the console.
    :param str old: where an older firmware kept the score: when ``path``
        has none, ``load()`` moves that one there.
    """

    def __init__(self, path=PATH, log=print, old=None):
        self.path = path
        self._tmp = path + ".tmp" if path else ""  # (path None: a score in RAM only)
        self._old = old
        self._leftover = None  # an old file the next save removes (see _move)
        self._where = path  # the file a load found unreadable
        self._log = log
        self._buf = bytearray(SIZE)  # the record itself: the counters live in it
        self._body = memoryview(self._buf)[:_CRC]
        self._nvm = None
        self._picked = False
        self._free = -1  # nvm: the first slot of the erased run at its end (-1: not looked yet)
        self.puzzles = 256  # the puzzles file's count: solved_count() counts no bit past it
        self._blank()

    def _blank(self):
        b = self._buf
        for i in range(SIZE):
            b[i] = 0
        b[0:4] = _MAGIC
        b[4] = _VERSION

    def _pick(self):
        if not self._picked:
            self._nvm = _nvm()
            self._picked = True
        return self._nvm

    # --- the counts ---------------------------------------------------------

    def _get(self, at):
        return self._buf[at] | self._buf[at + 1] << 8

    def _bump(self, at):
        v = self._get(at)
        if v < 0xFFFF:
            v += 1
            self._buf[at] = v & 0xFF
            self._buf[at + 1] = v >> 8

    def _at(self, game, level):
        # Where a level's three results start (level 3 came in version 2: after the rest).
        if level == 3:
            return _MATCHED + 6 * game
        return _GAMES + 6 * (game * 3 + level)

    def record(self, game, level, result):
        """One game against the board: ``result`` WON, DRAWN or LOST."""
        self._bump(self._at(game, level) + 2 * result)

    def record_two(self, game, winner):
        """One two-player game: ``winner`` rules.X, rules.O, or -1 (draw)."""
        self._bump(_TWO + 2 * (game * 3 + (2 if winner < 0 else winner)))

    def games(self, game, level):
        """``(won, drawn, lost)`` against the board at ``level``."""
        at = self._at(game, level)
        return self._get(at), self._get(at + 2), self._get(at + 4)

    def two(self, game):
        """``(x_wins, o_wins, draws)`` of the two-player games."""
        at = _TWO + 6 * game
        return self._get(at), self._get(at + 2), self._get(at + 4)

    def _get32(self, at):
        b = self._buf
        return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24

    def _put32(self, at, v):
        for k in range(4):
            self._buf[at + k] = v >> 8 * k & 0xFF

    def review(self, game, moves, points):
        """Add a game's review of your moves: ``moves`` judged, ``points``
        (2 for each best move, 1 for each that kept the outcome slower)."""
        m = self._get32(_MOVES + 4 * game) + moves
        p = self._get32(_POINTS + 4 * game) + points
        if m > 0xFFFFFFFF:  # (never, at a move a second: halved, the ratio kept)
            m, p = m >> 1, p >> 1
        self._put32(_MOVES + 4 * game, m)
        self._put32(_POINTS + 4 * game, p)

    def reviewed(self, game):
        """``(moves, points)`` of your reviewed moves in ``game``, all told."""
        return self._get32(_MOVES + 4 * game), self._get32(_POINTS + 4 * game)

    def accuracy(self, game):
        """Your accuracy in ``game`` over every reviewed move, in percent
        (``100 * points / (2 * moves)``, rounded down), or -1 if none."""
        m, p = self.reviewed(game)
        return p * 50 // m if m else -1

    def recent(self, game):
        """Your recent accuracy in ``game`` (0-100), or -1 before any."""
        return self._buf[_RECENT + game] - 1

    def set_recent(self, game, value):
        self._buf[_RECENT + game] = max(0, min(100, value)) + 1

    def setting(self, game):
        """The matched level's setting for ``game`` (0-254), or -1 before any."""
        return self._buf[_SETTING + game] - 1

    def set_setting(self, game, value):
        self._buf[_SETTING + game] = max(0, min(254, value)) + 1

    def saves(self):
        """How many times it was saved (wrapping at 65536): a change says the score changed."""
        return self._get(_SAVES)

    def solve(self, i):
        self._buf[_SOLVED + (i >> 3)] |= 1 << (i & 7)

    def fail(self, i):
        """Puzzle ``i`` tried and failed (a solved one stays solved)."""
        if self._buf[_FAILS + i] < 0xFF:
            self._buf[_FAILS + i] += 1

    def solved(self, i):
        return bool(self._buf[_SOLVED + (i >> 3)] & 1 << (i & 7))

    def failures(self, i):
        return self._buf[_FAILS + i]

    def solved_count(self):
        """How many of the file's puzzles (the first ``self.puzzles``) are
        solved: a bit past them (a longer file's, once) is not counted."""
        n = 0
        left = self.puzzles
        for k in range(_SOLVED, _FAILS):
            if left <= 0:
                break
            b = self._buf[k]
            if left < 8:
                b &= (1 << left) - 1
            left -= 8
            while b:
                b &= b - 1
                n += 1
        return n

    def reset(self):
        """Everything back to zero, in RAM (``save()`` writes it)."""
        b = self._buf
        for i in range(_GAMES, SIZE):
            b[i] = 0

    # --- the record ---------------------------------------------------------

    def _check(self, size=SIZE):
        """Why the buffer's first ``size`` bytes are not a score record
        (``OLD_SIZE``: a version 1 record), or None; a version 1 record is
        made a version 2 one, its new counts 0."""
        b = self._buf
        if b[0:4] != _MAGIC:
            return "not a score record"
        version = _VERSION if size == SIZE else 1
        if b[4] != version or b[5]:
            return "version %d.%d, not %d.0" % (b[4], b[5], version)
        at = size - 4
        c = crc32(self._body[:at]) & 0xFFFFFFFF
        if c != b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24:
            return "CRC-32 mismatch"
        if size != SIZE:  # version 1: taken over
            for i in range(OLD_SIZE - 4, SIZE):
                b[i] = 0
            b[4] = _VERSION
        return None

    def load(self):
        """Read the saved score (an empty one when there is none). Never raises."""
        if self.path is None:
            return
        try:
            nvm = self._pick()
            why = self._load_file() if nvm is None else self._load_nvm(nvm)
        except Exception as e:  # noqa: BLE001 (a score must never stop the game)
            why = "%s: %s" % (type(e).__name__, e)
        if why:
            self._blank()
            where = "microcontroller.nvm" if self._nvm is not None else self._where
            self._log("score: %s was unreadable (%s); starting a new score" % (where, why))

    def save(self):
        """Write the score; False (and one line) when the flash can't take it."""
        b = self._buf
        v = self._get(_SAVES) + 1
        b[_SAVES] = v & 0xFF
        b[_SAVES + 1] = (v >> 8) & 0xFF
        c = crc32(self._body) & 0xFFFFFFFF
        for k in range(4):
            b[_CRC + k] = (c >> (8 * k)) & 0xFF
        if self.path is None:
            return False  # in RAM only: nothing to write, nothing to say
        try:
            nvm = self._pick()
            error = self._save_file() if nvm is None else self._save_nvm(nvm)
        except Exception as e:  # noqa: BLE001
            error = e
        if error is None:
            return True
        where = "microcontroller.nvm" if self._nvm is not None else self.path
        if isinstance(error, OSError):
            from .oserrors import words  # (loaded only to say one)

            error = words(error)
        self._log("score: %s not saved (%s); the score is kept until power-off" % (where, error))
        return False

    # --- a file ---------------------------------------------------------------

    def _read(self, path):
        """Read ``path`` into the buffer: None, "" (no file), or why it is bad."""
        try:
            with open(path, "rb") as f:
                n = f.readinto(self._buf)
                if n not in (SIZE, OLD_SIZE) or f.read(1):
                    return "not %d bytes" % SIZE
        except OSError as e:
            return "" if _missing(e, path) else _words(e)
        return self._check(n)

    def _load_file(self):
        self._where = self.path
        why = self._read(self.path)
        if why == "":
            # No score file. A save cut between removing it and renaming
            # the new one (FAT's rename) leaves a whole .tmp: finish it.
            if self._read(self._tmp) is None:
                try:
                    os.rename(self._tmp, self.path)
                except OSError:
                    pass
                if self._old:  # (or a move cut short: see _move)
                    self._remove(self._old)
                    self._remove(self._old + ".tmp")
                return None
            self._blank()
            self._remove(self._tmp)  # a save cut before its rename
            return self._move() if self._old else None
        self._remove(self._tmp)  # a save cut before its rename
        return why

    def _move(self):
        """Take over the score an older firmware kept at ``old``: saved
        here, the old file removed between writing the .tmp and renaming it
        (a cut before leaves the old file, moved again at the next load;
        after, the whole .tmp here, which the next load takes). An
        unreadable old file is an empty score, and the next save removes it."""
        old = self._old
        why = self._read(old)
        if why == "":  # none; or its save was cut between removing it and the rename (FAT)
            old += ".tmp"
            why = self._read(old)
            if why is not None:  # none either, or a save cut short
                self._remove(old)
                self._blank()
                return None
        self._leftover = old
        if why:
            self._where = old
            return why
        error = self._save_file()
        if error is not None:
            self._log("score: %s not moved to %s (%s); kept where it is" % (old, self.path, error))
        return None

    def _remove(self, path):
        try:
            os.remove(path)
        except OSError:
            pass

    def _save_file(self):
        error = self._write_tmp()
        if error is not None and _make_folders(self._tmp):  # a flash that has never had them
            error = self._write_tmp()
        if error is not None:
            return error
        moved = self._leftover
        if moved:  # a score taken over: once it is gone, the .tmp is the only copy
            try:
                os.remove(moved)
            except OSError as e:
                if not _missing(e, moved):
                    self._remove(self._tmp)  # the old file stays, to be moved again
                    return e
            self._leftover = None
        try:
            os.rename(self._tmp, self.path)  # littlefs and POSIX replace the old file in one step
        except OSError as e:
            import errno

            if e.args[0] != errno.EEXIST:
                if not moved:
                    self._remove(self._tmp)
                return e
            try:  # a filesystem that won't rename over a file
                os.remove(self.path)
                os.rename(self._tmp, self.path)
            except OSError as e2:
                return e2  # the .tmp stays: it may be the only copy, and load() takes it
        return None

    def _write_tmp(self):
        try:
            with open(self._tmp, "wb") as f:
                n = f.write(self._buf)
        except OSError as e:
            self._remove(self._tmp)
            return e
        if n != SIZE:
            self._remove(self._tmp)
            return "the flash is full"
        return None

    # --- CircuitPython's nvm --------------------------------------------------

    def _load_nvm(self, nvm):
        why = self._scan(nvm, SIZE)
        if why is None or not self._free:
            return why
        free = self._free
        if self._scan(nvm, OLD_SIZE) is None:
            # An older firmware's version 1 slots: taken over, and the next
            # save rewrites the nvm whole in this version's slots.
            self._free = len(nvm) // SIZE
            return None
        self._free = free
        return why

    def _scan(self, nvm, size):
        # The newest whole record in the nvm's slots of ``size`` bytes: None
        # and the record in the buffer, else why (None for an empty nvm too).
        bad = None
        found = False
        self._free = 0
        for k in range(len(nvm) // size):
            slot = nvm[k * size:(k + 1) * size]
            if min(slot) == 0xFF:
                continue  # erased
            self._free = k + 1
            self._buf[:size] = slot
            why = self._check(size)
            if why is None:
                found = True
                good = slot  # the newest whole record: slots are written in order
            else:
                bad = why  # a save cut mid-write, or flash gone bad
        if found:
            self._buf[:size] = good
            self._check(size)  # (a version 1 record made a version 2 one)
            return None
        self._blank()
        return bad

    def _save_nvm(self, nvm):
        if self._free < 0:  # saved before any load: find the erased slots
            self._free = len(nvm) // SIZE
            while self._free and min(nvm[(self._free - 1) * SIZE:self._free * SIZE]) == 0xFF:
                self._free -= 1
        if self._free < len(nvm) // SIZE:
            # Onto erased flash: CircuitPython only programs it, no erase.
            at = self._free * SIZE
            nvm[at:at + SIZE] = self._buf
            self._free += 1
        else:
            # Full: erase and rewrite the whole nvm with this record first
            # (a power cut inside this write loses the score).
            whole = bytearray(b"\xff") * len(nvm)
            whole[0:SIZE] = self._buf
            nvm[0:len(whole)] = whole
            self._free = 1
        return None
