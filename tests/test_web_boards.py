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
