"""host_tools.sim.screen: the 128x64 screen as half-block text."""

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
