"""Every bought board on the page of ``make web`` (docs/web.md): the keypad
and the Keybow as well as the MacroPad, each booting to its menu as its
chips decoded it (the APA102 frames on SPI, the IS31FL3731's registers on
I2C, the MacroPad's screen from the SH1106), and a press read through the
chips (the keypad's TCA9555 answering I2C reads with the keys held)
lighting what they decoded. Headless Chromium, as tests/test_web.py: every
wait is on the page's state, never on the clock.
"""

import pytest

from test_web import WAIT_MS, Board, browser, need, site  # noqa: F401  (the module's fixtures)

# The first menu as the cells show it: X's colour on cell 3, O's on 5, cell 4 dark.
MENU = ("board.leds.length === 9 && board.leds[3][0] > board.leds[3][2] && board.leds[5][2] > board.leds[5][0]"
        " && board.leds[4].every(v => v === 0)")


@pytest.fixture
def page(browser, site):  # noqa: F811
    p = need(browser).new_page()
    boards = []

    def open_board(name):
        b = Board(p, site + "?board=" + name)
        boards.append(b)
        return b

    yield open_board
    p.close()
    for b in boards:
        assert b.errors == []


@pytest.mark.parametrize("name, chip", [("keypad", "apa102"), ("keybow", "is31fl3731"), ("macropad", None)])
def test_each_bought_board_boots_to_its_menu_as_its_chips_decoded_it(page, name, chip):
    b = page(name)
    assert b.page.evaluate("board.hardware") == {"keypad": "pico-rgb-keypad", "keybow": "keybow2040",
                                                 "macropad": "macropad"}[name]
    b.wait(MENU)
    if chip:  # the LEDs are the chip's: 16 of them, decoded from what it was sent
        pixels = b.page.evaluate("board.pixels")
        assert len(pixels) == 16 and {p[3] for p in pixels} == {31}
        assert b.page.evaluate("board.sh1106") is None
        # the function keys are on the page, and the dial and screen are not
        assert b.page.locator(".fkeys").is_visible() and not b.page.locator("#screen").is_visible()
    else:
        assert b.page.locator("#screen").is_visible()
        b.wait("board.sh1106 && board.sh1106.state().on")


@pytest.mark.parametrize("name", ["keypad", "keybow"])
def test_a_press_is_read_through_the_chips_and_lights_what_they_decoded(page, name):
    b = page(name)
    b.wait(MENU)
    b.tap(3)  # classic: on the keypad read through the TCA9555 over I2C
    # "Who plays?": cells 0, 2, 6 and 8 lit, decoded from the chip
    b.wait_lit([0, 2, 6, 8])
    b.wait_line("> Who plays?")
    pixels = b.page.evaluate("board.pixels")
    lit = [i for i, p in enumerate(pixels) if any(p[:3])]
    assert lit, pixels
    # the menu key goes back, lighting the first menu again
    b.page.get_by_role("button", name="Menu", exact=True).click()
    b.wait(MENU)


@pytest.mark.parametrize("name, silk", [("keypad", "Pimoroni Pico RGB Keypad Base"),
                                        ("keybow", "Pimoroni Keybow 2040")])
def test_the_4x4_boards_are_drawn_as_they_are(page, name, silk):
    """Four rows of four keys: the grid at the top left, Menu, Hint and Take
    back down the right (the keypad's keys 3, 7, 11, the Keybow's SW15-13),
    and the bottom row, which the game leaves unused: there, dark, inert."""
    b = page(name)
    b.wait(MENU)
    p = b.page
    boxes = [b.cell(c).bounding_box() for c in range(9)]
    fkeys = [p.get_by_role("button", name=n, exact=True).bounding_box() for n in ("Menu", "Hint", "Undo")]
    unused = p.locator(".cell.unused")
    assert unused.count() == 4
    spare = [unused.nth(i).bounding_box() for i in range(4)]
    xs = sorted({round(box["x"]) for box in boxes + fkeys})
    ys = sorted({round(box["y"]) for box in boxes + fkeys + spare})
    assert len(xs) == 4 and len(ys) == 4
    assert [(xs.index(round(c["x"])), ys.index(round(c["y"]))) for c in boxes] == [(c % 3, c // 3) for c in range(9)]
    assert [(xs.index(round(f["x"])), ys.index(round(f["y"]))) for f in fkeys] == [(3, 0), (3, 1), (3, 2)]
    assert sorted((xs.index(round(s["x"])), ys.index(round(s["y"]))) for s in spare) == [(i, 3) for i in range(4)]
    # the unused keys are no buttons of the game, and their LEDs, as the chips decoded them, stay dark
    assert p.get_by_role("button").filter(has=unused).count() == 0
    assert p.evaluate("[...document.querySelectorAll('.cell.unused')].map(el => el.dataset.rgb)") == ["0,0,0"] * 4
    # the function keys carry their keyboard letters, as the cells their numbers
    assert [p.locator(".fkey[data-role=%s] .num" % r).inner_text() for r in ("menu", "hint", "undo")] == ["m", "h", "u"]
    assert p.locator("#silk").inner_text() == silk
    # and back to the grid alone: nothing of the 4x4 stays
    p.get_by_role("combobox", name="board config").select_option("pico-buttons")
    b.wait("board.ready && board.boardName === 'pico-buttons' && board.frames > 0")
    assert not unused.first.is_visible() and not p.locator("#silk").is_visible()
    row = [b.cell(c).bounding_box() for c in range(3)]
    assert len({round(c["y"]) for c in row}) == 1 and row[0]["x"] < row[1]["x"] < row[2]["x"]


def test_the_mx_kit_maps_its_keys_and_its_chain_entering_at_cell_8(page):
    """?board=pico-mx: its keys on their own pins (cell 0 on GP26) and its
    chain entering at cell 8, undone as the firmware's config reads it: the
    self-test walks cells 0 to 8 in reading order (pixels 8 down to 0), and
    a mark on cell 8 lights cell 8 alone, not its mirror, cell 0."""
    b = page("pico-mx")
    b.wait(MENU)
    walk = []
    for leds in b.page.evaluate("board.record"):
        lit = [c for c in range(9) if any(leds[c])]
        if len(lit) == 1 and (not walk or walk[-1] != lit[0]):
            walk.append(lit[0])
    assert walk and walk == sorted(set(walk)) and walk[0] == 0, walk  # (a starved page may skip a step)
    b.tap(3)  # classic
    b.wait_line("> Who plays?")
    b.tap(6)  # two players
    b.wait_line("> Play with help?")
    start = b.wait_line("> Pulsing now: cell 3")[0]
    b.tap(3)  # no help
    b.wait_line("> X to move", start)
    b.tap(8)
    b.wait_line("classic: X 8")
    # X's orange on cell 8; the free cells (cell 0 among them) glow dim in O's colour, O to move
    b.wait("board.leds[8][0] > 40 && board.leds[8][2] === 0 && board.leds[0][0] === 0 && board.leds[0][2] < 20")
    b.tap(0)
    b.wait_line("classic: O 0")
    b.wait("board.leds[0][2] > 40 && board.leds[0][0] === 0 && board.leds[8][0] > 40")  # O's blue on cell 0
