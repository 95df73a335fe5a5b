"""The score the board keeps: won, drawn and lost for each game and level,
the two-player games' results, and the puzzles solved, in one 348-byte
record with a CRC-32 (docs/firmware.md, "The score on the flash").

Where it lives: on MicroPython, a file on the board's flash (``score.bin``
beside main.py), written to ``score.bin.tmp`` and renamed over the old one,
so a power cut mid-write keeps the old score. CircuitPython's code can't
write its CIRCUITPY drive (the host owns it, unless boot.py remounts it,
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
_VERSION = const(1)
# The record, little-endian (docs/firmware.md):
_SAVES = const(6)  # u16: saves so far (wraps)
_GAMES = const(8)  # u16 [game][level][result]: 2 x 3 x 3
_TWO = const(44)  # u16 [game][X wins, O wins, draws]: 2 x 3
_SOLVED = const(56)  # 256 bits: puzzle i is bit i & 7 of byte i >> 3
_FAILS = const(88)  # u8 per puzzle: its failures, saturating at 255
_CRC = const(344)  # u32: CRC-32 of bytes 0-343
SIZE = const(348)


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


class Score:
    """The score, in RAM between ``load()`` and ``save()``.

    :param str path: the score file (MicroPython; CircuitPython too when
        boot.py has made the drive writable); None keeps it in RAM only.
    :param log: called with each line to show on the console.
    """

    def __init__(self, path="score.bin", log=print):
        self.path = path
        self._tmp = path + ".tmp" if path else ""  # (path None: a score in RAM only)
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

    def record(self, game, level, result):
        """One game against the board: ``result`` WON, DRAWN or LOST."""
        self._bump(_GAMES + 2 * ((game * 3 + level) * 3 + result))

    def record_two(self, game, winner):
        """One two-player game: ``winner`` rules.X, rules.O, or -1 (draw)."""
        self._bump(_TWO + 2 * (game * 3 + (2 if winner < 0 else winner)))

    def games(self, game, level):
        """``(won, drawn, lost)`` against the board at ``level``."""
        at = _GAMES + 6 * (game * 3 + level)
        return self._get(at), self._get(at + 2), self._get(at + 4)

    def two(self, game):
        """``(x_wins, o_wins, draws)`` of the two-player games."""
        at = _TWO + 6 * game
        return self._get(at), self._get(at + 2), self._get(at + 4)

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

    def _check(self):
        """Why the buffer is not a score record, or None."""
        b = self._buf
        if b[0:4] != _MAGIC:
            return "not a score record"
        if b[4] != _VERSION or b[5]:
            return "version %d.%d, not %d.0" % (b[4], b[5], _VERSION)
        c = crc32(self._body) & 0xFFFFFFFF
        if c != b[_CRC] | b[_CRC + 1] << 8 | b[_CRC + 2] << 16 | b[_CRC + 3] << 24:
            return "CRC-32 mismatch"
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
            where = "microcontroller.nvm" if self._nvm is not None else self.path
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
                if n != SIZE or f.read(1):
                    return "not %d bytes" % SIZE
        except OSError as e:
            import errno

            if e.args and e.args[0] == errno.ENOENT:
                return ""  # no score yet
            from . import oserrors  # (loaded only to say one, or for the WebAssembly port's numbers)

            return "" if oserrors.missing(e, path) else oserrors.words(e)
        return self._check()

    def _load_file(self):
        why = self._read(self.path)
        if why == "":
            # No score file. A save cut between removing it and renaming
            # the new one (FAT's rename) leaves a whole .tmp: finish it.
            if self._read(self._tmp) is None:
                try:
                    os.rename(self._tmp, self.path)
                except OSError:
                    pass
                return None
            self._blank()
            why = None
        self._remove(self._tmp)  # a save cut before its rename
        return why

    def _remove(self, path):
        try:
            os.remove(path)
        except OSError:
            pass

    def _save_file(self):
        try:
            with open(self._tmp, "wb") as f:
                n = f.write(self._buf)
        except OSError as e:
            self._remove(self._tmp)
            return e
        if n != SIZE:
            self._remove(self._tmp)
            return "the flash is full"
        try:
            os.rename(self._tmp, self.path)  # littlefs and POSIX replace the old file in one step
        except OSError as e:
            import errno

            if e.args[0] != errno.EEXIST:
                self._remove(self._tmp)
                return e
            try:  # a filesystem that won't rename over a file
                os.remove(self.path)
                os.rename(self._tmp, self.path)
            except OSError as e2:
                return e2  # the .tmp stays: it may be the only copy, and load() takes it
        return None

    # --- CircuitPython's nvm --------------------------------------------------

    def _load_nvm(self, nvm):
        bad = None
        found = False
        self._free = 0
        for k in range(len(nvm) // SIZE):
            slot = nvm[k * SIZE:(k + 1) * SIZE]
            if min(slot) == 0xFF:
                continue  # erased
            self._free = k + 1
            self._buf[:] = slot
            why = self._check()
            if why is None:
                found = True
                good = slot  # the newest whole record: slots are written in order
            else:
                bad = why  # a save cut mid-write, or flash gone bad
        if found:
            self._buf[:] = good
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
