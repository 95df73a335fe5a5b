"""The firmware's table reader, under CPython and the MicroPython Unix port."""

import io
import random
import struct
import zlib

import pytest
from hypothesis import given, settings, strategies as st

from tactictoe import crc32
from tactictoe import rules
from tactictoe import rules_extra
from tactictoe import table
from tactictoe import table_extra
from tactictoe.rules import CLASSIC, TACTICTOE, Position


def _reheader(data, **fields):
    """Table bytes with header fields replaced (CRC kept unless given)."""
    magic, version, game, reserved, count, crc = struct.unpack(">4sBBHII", data[:16])
    f = dict(magic=magic, version=version, game=game, reserved=reserved, count=count, crc=crc)
    f.update(fields)
    head = struct.pack(">4sBBHII", f["magic"], f["version"], f["game"], f["reserved"], f["count"], f["crc"])
    return head + data[16:]


def _flip(data, bit):
    b = bytearray(data)
    b[bit // 8] ^= 1 << (bit % 8)
    return bytes(b)


def corruptions(data):
    """name -> (bad bytes, error class, words its message must hold)."""
    count = (len(data) - 16) // 4
    return {
        "empty file": (b"", table.TableError, "truncated: 0 bytes"),
        "cut header": (data[:10], table.TableError, "truncated: 10 bytes"),
        "cut records": (data[:-8], table.TableError, "truncated: header says"),
        "cut mid-record": (data[:-3], table.TableError, "truncated: header says"),
        "flipped bit": (_flip(data, 8 * 16 + 8 * 4 * (count // 2) + 5), table.TableError, "CRC"),
        "flipped crc bit": (_flip(data, 8 * 12), table.TableError, "CRC"),
        "wrong magic": (b"TTTX" + data[4:], table.TableError, "not a table"),
        "png file": (b"\x89PNG\r\n\x1a\n" + data[8:], table.TableError, "not a table"),
        "wrong version": (_reheader(data, version=2), table.TableError, "version 2"),
        "reserved set": (_reheader(data, reserved=1), table.TableError, "reserved"),
        "unknown game": (_reheader(data, game=7), table.TableError, "unknown game"),
        "count too small": (_reheader(data, count=count - 1), table.TableError,
                            "table has %d records, a classic table has %d" % (count - 1, count)),
        "trailing bytes": (data + b"\0\0\0\0", table.TableError, "count mismatch"),
        "count too large": (_reheader(data, count=count + 1), table.TableError, "table has %d records" % (count + 1)),
    }


@pytest.fixture(scope="module")
def classic_bytes(solutions):
    return solutions[CLASSIC].table_bytes()


def test_every_corruption_has_its_own_message(classic_bytes):
    messages = set()
    for name, (bad, cls, words) in corruptions(classic_bytes).items():
        with pytest.raises(cls) as info:
            table.Table(io.BytesIO(bad))
        assert words in str(info.value), name
        messages.add(str(info.value))
    assert len(messages) == len(corruptions(classic_bytes))


def _resealed(game, records):
    """A table of ``records`` (u32s) with a header whose count and CRC fit:
    wrong in ways only its records show."""
    body = b"".join(struct.pack(">I", r) for r in records)
    return table_extra.pack_header(game, len(records), zlib.crc32(body)) + body


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_crc_valid_but_wrong_tables_are_refused_at_open(solutions, game):
    recs = [int(r) for r in solutions[game].records]
    other = TACTICTOE if game == CLASSIC else CLASSIC
    shuffled = list(recs)
    random.Random(7).shuffle(shuffled)
    cases = {
        "reversed": (_resealed(game, recs[::-1]), "table records out of order in records 0-127"),
        "shuffled": (_resealed(game, shuffled), "table records out of order"),
        "no records": (_resealed(game, []), "table has 0 records, a %s table has %d" % (rules.GAMES[game], len(recs))),
        "one dropped": (_resealed(game, recs[:5] + recs[6:]), "table has %d records" % (len(recs) - 1)),
        "one doubled": (_resealed(game, recs[:5] + recs[4:]), "table has %d records" % (len(recs) + 1)),
        "other game's number": (_resealed(other, recs), "a %s table has" % rules.GAMES[other]),
        # Two records swapped inside one bucket: the bucket's first and last.
        "swapped in a bucket": (_resealed(game, [recs[127]] + recs[1:127] + [recs[0]] + recs[128:]),
                                "table records out of order in records 0-127"),
        # Values no table of the game holds, in a bucket's first or last
        # record: a win in 0 plies, and a loss one ply longer than the longest.
        "win in 0 plies": (_resealed(game, recs[:128] + [recs[128] & ~0x7F | 0x40] + recs[129:]),
                           "table record 128 has value 40, no %s value" % rules.GAMES[game]),
        "too long a loss": (_resealed(game, recs[:255] + [recs[255] & ~0x7F | (5, 17)[game] + 1] + recs[256:]),
                            "table record 255 has value %02x, no %s value" % ((5, 17)[game] + 1, rules.GAMES[game])),
    }
    for name, (data, words) in cases.items():
        with pytest.raises(table.TableError) as info:
            table.Table(io.BytesIO(data))
        assert words in str(info.value), (name, str(info.value))
    # The same records, resealed as they were: accepted. The longest win and
    # loss are the game's longest, as the reader's range says.
    assert table.Table(io.BytesIO(_resealed(game, recs))).count == len(recs)
    assert max(r & 0x3F for r in recs) == (5, 17)[game]


def test_wrong_game_is_named(table_files):
    with pytest.raises(table.TableError, match="table is for classic, expected tactictoe"):
        table.Table(table_files[CLASSIC], TACTICTOE)


def test_missing_file_is_an_oserror(tmp_path):
    with pytest.raises(OSError):
        table.Table(str(tmp_path / "nope.tbl"))


def test_corrupt_tables_under_micropython(classic_bytes, tmp_path, micropython):
    """Each corruption gets the same class and message on MicroPython."""
    for i, (name, (bad, cls, words)) in enumerate(corruptions(classic_bytes).items()):
        path = tmp_path / ("bad%d.tbl" % i)
        path.write_bytes(bad)
        with pytest.raises(cls) as info:
            table.Table(str(path))
        r = micropython("open_table.py", path)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "ERR %s: %s" % (cls.__name__, info.value), name
    good = tmp_path / "good.tbl"
    good.write_bytes(classic_bytes)
    assert micropython("open_table.py", good).stdout.strip() == "OK 0 627"
    assert micropython("open_table.py", good, TACTICTOE).stdout.strip() == \
        "ERR TableError: table is for classic, expected tactictoe"


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_reader_agrees_with_solver_on_every_record(solutions, table_files, game):
    sol = solutions[game]
    with table.Table(table_files[game], game) as t:
        assert t.count == len(sol.records)
        for i, rec in enumerate(sol.records.tolist()):
            assert table_extra.record(t, i) == (rec >> 7, rec & 0x7F)
            assert t.lookup(rec >> 7) == rec & 0x7F
        assert t.lookup(-1) == -1 and t.lookup(1 << 25) == -1


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_reader_agrees_with_solver_on_every_reachable_position(solutions, table_files, game):
    sol = solutions[game]
    codes = sol.sides.codes
    with table.Table(table_files[game], game) as t:
        for i in range(sol.positions):
            if sol.terminal[i]:
                continue
            pos = Position(game, codes[sol.x[i]], codes[sol.o[i]], int(sol.turn[i]))
            assert t.value(pos) == sol.value[i]


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_micropython_reader_agrees_with_solver_on_every_record(solutions, table_files, game, micropython):
    sol = solutions[game]
    r = micropython("lookup_images.py", table_files[game], 1234)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(sol.records)
    for line in lines:
        xs, os_, turn, value = map(int, line.split())
        assert sol.value_of(Position(game, xs, os_, turn)) == value, line


@pytest.mark.parametrize("game", [CLASSIC, TACTICTOE])
def test_lookup_finds_only_what_is_there(solutions, table_files, game):
    """Keys next to every record's: the same position with the other player
    to move (adjacent in the file when both are stored), and the positions
    either side; a key is found exactly when it is a record's."""
    values = {int(r) >> 7: int(r) & 0x7F for r in solutions[game].records}
    with table.Table(table_files[game], game) as t:
        for key in values:
            for near in (key ^ 1, key - 2, key + 2):
                assert t.lookup(near) == values.get(near, -1), hex(near)


def test_tables_opened_by_path_keep_one_file_open(solutions, table_files):
    """A board's open file holds a cache: of the tables opened by path,
    only the one used last keeps its file open; the others open theirs
    again for a lookup."""
    a = table.Table(table_files[CLASSIC], CLASSIC)
    b = table.Table(table_files[TACTICTOE], TACTICTOE)
    assert a._f is None and b._f is not None
    for t, game in ((a, CLASSIC), (b, TACTICTOE), (a, CLASSIC)):
        rec = int(solutions[game].records[-1])
        assert t.lookup(rec >> 7) == rec & 0x7F
        assert t._f is not None and (b if t is a else a)._f is None
    assert table_extra.record(a, 0) == (int(solutions[CLASSIC].records[0]) >> 7,
                                        int(solutions[CLASSIC].records[0]) & 0x7F)
    a.close()
    b.close()
    with pytest.raises(ValueError, match="closed"):
        table_extra.record(a, 0)


def test_lookup_skips_a_match_that_straddles_records():
    """A lookup searches a bucket's bytes for the position's three: a match
    that is not at a record's start, or has the other player to move, is
    not the record."""
    recs = [0x00010203, 0x01020380, 0x02030405, 0x03040506]  # sorted u32s
    # ...and as many more after them as a classic table holds.
    t = table.Table(io.BytesIO(_resealed(CLASSIC, recs + [0x10000000 + (i << 8) for i in range(627 - len(recs))])))
    assert t.lookup(0x010203 << 1 | 1) == 0  # found at byte 4, not byte 1
    assert t.lookup(0x010203 << 1) == -1  # stored only with O to move
    assert t.lookup(0x030102 << 1) == -1  # only bytes 3-5: across two records
    assert [t.lookup(r >> 7) for r in recs] == [r & 0x7F for r in recs]


def test_missing_position_is_reported(solutions):
    recs = [int(r) for r in solutions[CLASSIC].records]
    keys = set(r >> 7 for r in recs)
    # A record's key moved up by one position (still in order, count and
    # CRC right): its own position has no record now.
    i = next(i for i in range(len(recs) - 1) if (recs[i] >> 8) + 1 < recs[i + 1] >> 8
             and (recs[i] >> 7) + 2 not in keys)
    gone = recs[i]
    recs[i] += 1 << 8
    t = table.Table(io.BytesIO(_resealed(CLASSIC, recs)))
    pos = rules_extra.from_code(CLASSIC, gone >> 8, (gone >> 7) & 1)
    with pytest.raises(table.TableError, match="no record for position"):
        t.value(pos)


def test_software_crc_matches_zlib(table_files, micropython):
    for path in table_files.values():
        with open(path, "rb") as f:
            data = f.read()
        assert crc32.crc32(data) == zlib.crc32(data)
    r = micropython("crc_soft.py", *table_files.values())
    assert r.returncode == 0, r.stderr
    for line, path in zip(r.stdout.split("\n"), table_files.values()):
        with open(path, "rb") as f:
            want = "%08x" % zlib.crc32(f.read())
        assert line.split() == [want, want]


@given(st.binary(max_size=64))
@settings(max_examples=200)
def test_software_crc_property(data):
    assert crc32.crc32(data) == zlib.crc32(data)


@given(st.data())
@settings(max_examples=300)
def test_any_damage_to_a_table_is_refused(classic_bytes, data):
    """Change, drop or add bytes anywhere in a valid table: the reader refuses
    it with a TableError (never another exception, never accepts it)."""
    b = bytearray(classic_bytes)
    kind = data.draw(st.sampled_from(["change", "cut", "extend"]))
    if kind == "change":
        i = data.draw(st.integers(0, len(b) - 1))
        b[i] ^= data.draw(st.integers(1, 255))
    elif kind == "cut":
        del b[data.draw(st.integers(0, len(b) - 1)):]
    else:
        b += data.draw(st.binary(min_size=1, max_size=8))
    with pytest.raises(table.TableError):
        table.Table(io.BytesIO(bytes(b)))


def test_reader_with_the_software_crc(classic_bytes, monkeypatch):
    monkeypatch.setattr(table, "crc32", crc32.crc32)
    assert table.Table(io.BytesIO(classic_bytes)).count == 627
    with pytest.raises(table.TableError):
        table.Table(io.BytesIO(_flip(classic_bytes, 8 * 200)))


