"""host_tools.sim.screen: the 128x64 screen as half-block text, and as braille."""

import pytest
from hypothesis import given, strategies as st

from host_tools.sim import screen as sim_screen


def test_one_pixel_in_each_corner():
    fb = bytearray(1024)
    fb[0] = 0x01  # (0, 0)
    fb[127] = 0x02  # (127, 1)
    fb[7 * 128] = 0x80  # (0, 63)
    fb[7 * 128 + 127] = 0xC0  # (127, 62) and (127, 63)
    lines = sim_screen.render(bytes(fb))
    assert len(lines) == 32 and {len(line) for line in lines} == {128}
    assert lines[0] == "\u2580" + " " * 126 + "\u2584"
    assert lines[31] == "\u2584" + " " * 126 + "\u2588"
    assert set("".join(lines[1:31])) == {" "}


@given(st.binary(min_size=1024, max_size=1024))
def test_each_character_is_its_two_pixels(fb):
    lines = sim_screen.render(fb)
    for y in range(64):
        for x in range(128):
            ch = lines[y // 2][x]
            bit = 1 if y % 2 == 0 else 2
            lit = (fb[(y // 8) * 128 + x] >> (y % 8)) & 1
            assert bool(sim_screen.BLOCKS.index(ch) & bit) == bool(lit)


def test_a_wrong_size_is_refused_in_one_line():
    with pytest.raises(ValueError, match="a 128x64 screen is 1024 bytes, not 5"):
        sim_screen.render(b"12345")


# Unicode's braille dots, numbered 1-8 (bit n-1 of the code point after
# U+2800): 1, 2, 3, 7 down a cell's left column, 4, 5, 6, 8 down its right.
DOT_AT = {1: (0, 0), 2: (0, 1), 3: (0, 2), 7: (0, 3), 4: (1, 0), 5: (1, 1), 6: (1, 2), 8: (1, 3)}


def lit_dots(ch):
    """The (dx, dy) of the raised dots of a braille character (a space: none)."""
    if ch == " ":
        return set()
    code = ord(ch) - 0x2800
    assert 0 < code < 0x100, repr(ch)
    return {DOT_AT[n] for n in DOT_AT if code >> (n - 1) & 1}


def test_braille_one_pixel_in_each_corner():
    fb = bytearray(1024)
    fb[0] = 0x01  # (0, 0): dot 1
    fb[127] = 0x08  # (127, 3): dot 8 of the last cell
    fb[7 * 128] = 0x80  # (0, 63): dot 7 of the first cell of the last line
    lines = sim_screen.braille(bytes(fb))
    assert len(lines) == 16 and {len(line) for line in lines} == {64}
    assert lines[0] == "\u2801" + " " * 62 + "\u2880"
    assert lines[15] == "\u2840" + " " * 63
    assert set("".join(lines[1:15])) == {" "}


@given(st.binary(min_size=1024, max_size=1024))
def test_each_braille_character_is_its_eight_pixels(fb):
    lines = sim_screen.braille(fb)
    for y in range(64):
        for x in range(128):
            lit = (fb[(y // 8) * 128 + x] >> (y % 8)) & 1
            assert ((x % 2, y % 4) in lit_dots(lines[y // 4][x // 2])) == bool(lit)


def test_braille_refuses_a_wrong_size_in_one_line():
    with pytest.raises(ValueError, match="a 128x64 screen is 1024 bytes, not 5"):
        sim_screen.braille(b"12345")
