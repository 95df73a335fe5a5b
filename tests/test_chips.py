"""The bought boards' chips in the emulated RP2040 (simulator/rp2040/chips/,
wired by boards.mjs): what each chip received, decoded by its model from
the bus, checked against what was sent, never against our own calls.

- the MacroPad's own CircuitPython build boots and its C code (board.c)
  puts CircuitPython's terminal on the SH1106;
- on the official MicroPython RPI_PICO build, the smoke scripts in
  tests/mpy/ talk to each chip with machine.SPI / I2C / Pin alone: text on
  the SH1106, a frame of colours on the APA102s, held keys through the
  TCA9555 (active low), the encoder's quadrature edges, the Keybow's colours
  from the IS31FL3731's registers.

All in lockstep on the emulated clock: limits are emulated milliseconds.
"""

import os

import pytest

from conftest import MPY_SCRIPTS, constant
from host_tools.drive import fat, picofs
from host_tools.sim import screen as sim_screen
from pico_board import PicoRun, rendered


def script_board(tmp_path, script, hardware):
    """A Pico on ``hardware`` whose main.py is tests/mpy/``script``."""
    with open(os.path.join(MPY_SCRIPTS, script), "rb") as f:
        main = f.read()
    image = tmp_path / "flash.lfs"
    image.write_bytes(picofs.image([("main.py", main)]))
    return PicoRun(str(image), hardware=hardware)


@pytest.fixture
def board():
    boards = []

    def make(*args, **kw):
        b = script_board(*args, **kw) if args else PicoRun(**kw)
        boards.append(b)
        return b

    yield make
    for b in boards:
        b.close()


def lit(fb):
    return sum(bin(byte).count("1") for byte in fb)


def test_macropad_circuitpython_shows_its_terminal_on_the_sh1106(board, tmp_path):
    drive = tmp_path / "circuitpy.img"
    drive.write_bytes(fat.image([("code.py", b'print("hello")\n')]))
    b = board(flash_file=str(drive), board="circuitpython-pico", runtime="circuitpython", hardware="macropad")
    b.wait(lambda line: line.startswith("screen ") and b.chip.screen_state.get("on") == 1, 2500, "the screen on")
    # board.c's init sequence, as the SH1106 took it: segment remap, COM
    # scan reversed, full contrast, multiplex 64, start line and offset 0.
    st = b.chip.screen_state
    assert (st["remap"], st["comrev"], st["contrast"], st["mux"], st["start"], st["offset"]) == (1, 1, 255, 63, 0, 0)
    assert (st["invert"], st["allon"]) == (0, 0)
    b.run(2500)  # the terminal, then "Code done running." and the REPL prompt
    fb = b.chip.read_screen()
    assert lit(fb) > 500
    # text on several of the 8 pages, inside the glass
    pages = [lit(fb[128 * p:128 * (p + 1)]) for p in range(8)]
    assert sum(1 for n in pages if n > 20) >= 3, pages


def test_sh1106_shows_framebuf_text_sent_over_machine_spi(board, tmp_path):
    b = board(tmp_path, "sh1106_text.py", "macropad")
    b.serial("shown", 3000)
    b.wait(lambda line: line.startswith("screen "), 100, "the screen's update")
    st = b.chip.screen_state
    assert (st["on"], st["contrast"], st["remap"], st["comrev"]) == (1, 0xCF, 1, 1)
    expected = rendered(constant("sh1106_text.py", "TEXT"), step=12)
    assert b.chip.screen == expected, "\n".join(sim_screen.render(b.chip.screen))


def test_apa102_frame_decoded_to_the_colours_sent(board, tmp_path):
    b = board(tmp_path, "apa102_colours.py", "pico-rgb-keypad")
    b.serial("sent", 3000)
    b.wait(lambda line: line.startswith("apa102 "), 100, "the LEDs' frame")
    assert b.chip.pixels == [(16 * i, 255 - 16 * i, i, i + 1) for i in range(16)]


def test_tca9555_reads_the_held_keys_active_low(board, tmp_path):
    b = board(tmp_path, "tca9555_keys.py", "pico-rgb-keypad")
    b.serial("config ffff", 3000)  # the configuration registers read back as written
    b.serial("keys ffff", 100)
    masks = [1 << k for k in range(16)] + [0x8101, 0xFFFF, 0]
    for mask in masks:
        b.hold(mask)
        ports = ~mask & 0xFFFF
        b.serial("keys %02x%02x" % (ports & 0xFF, ports >> 8), 100)
    b.serial("end", 2000)


def test_encoder_edges_are_counted_by_a_polling_script(board, tmp_path):
    b = board(tmp_path, "encoder_edges.py", "macropad")
    b.serial("polling", 3000)
    b.chip.turn(3, edge_ms=3)  # a quick turn: the script polls in a tight loop
    b.wait(lambda line: line == "turned %s 3" % line.split()[1] if line.startswith("turned ") else False, 100,
           "3 detents")
    b.chip.turn(-2, edge_ms=3)
    b.wait(lambda line: line.startswith("turned ") and line.endswith(" 1"), 100, "2 back")
    b.serial("edges 20 detents 1", 2500)
    edges = [line.split()[-1] for line in b.lines if line.startswith("serial edge ")]
    assert edges == ["10", "00", "01", "11"] * 3 + ["01", "00", "10", "11"] * 2


def test_is31fl3731_registers_decoded_to_the_keybows_colours(board, tmp_path):
    b = board(tmp_path, "is31fl3731_colours.py", "keybow2040")
    # the Command Register reads back the page last selected; nothing
    # answers at the next address (AD to ground: 0x74); I2C.scan(), bit-banged
    # on the pins (as busio.I2C's probe is), finds the chip alone
    b.serial("page 1 0x75 silent scan [116]", 3000)
    b.serial("sent", 300)
    colours = [(16 * k, 255 - 16 * k, k, 31) for k in range(16)]
    assert b.chip.pixels == colours  # frame 0 as written; nothing of frame 1
    b.serial("off", 300)
    colours[5] = (0, 255 - 80, 5, 31)  # key 5's red: its on bit cleared
    assert b.chip.pixels == colours
    b.serial("frame 1", 300)
    assert b.chip.pixels == [(200, 0, 0, 31)] + [(0, 0, 0, 31)] * 15
    b.serial("end", 300)
    assert b.chip.pixels == [(0, 0, 0, 31)] * 16  # shut down: dark
    reports = [line for line in b.lines if line.startswith("is31fl3731 ")]
    assert len(reports) == 4, reports  # one a change seen, none for the writes nobody sees
