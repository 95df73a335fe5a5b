"""The bought boards' parts (firmware/tactictoe/devices) behind
``hw_machine.Hardware``, on CPython with the test doubles (tests/doubles):
what each chip would receive is decoded back (SPI bytes with the D/C and CS
levels, I2C register reads answered from the keys held) and compared with
what the facade was asked to show, and the board configs' mistakes each get
one line naming the key."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from conftest import CPYTHON, DOUBLES, FIRMWARE, HANG_S

sys.path.insert(0, DOUBLES)  # before site-packages, which has Adafruit's neopixel

import framebuf  # noqa: E402  (the double, with MicroPython's font)
import machine  # noqa: E402
import machine_more  # noqa: E402
import neopixel  # noqa: E402
from tactictoe import config  # noqa: E402
from tactictoe import hw_machine  # noqa: E402


def board(name):
    with open(os.path.join(FIRMWARE, "boards", name + ".json")) as f:
        raw = json.load(f)
    raw["leds"]["brightness"] = 1.0  # exact colours
    return config.validate(raw)


def wire(cfg):
    """The doubles wired as ``cfg``'s board: held bit i = cell i, then extra key i - 9."""
    inp = dict(cfg["input"])
    if inp["kind"] == "tca9555":
        inp["keys"] = inp["keys"] + [e["key"] for e in cfg["extra"]]
    elif inp["kind"] == "buttons":
        inp["pins"] = inp["pins"] + [e["pin"] for e in cfg["extra"]]
    machine.wire(inp)
    del machine_more.spi_writes[:]
    del machine_more.i2c_reads[:]


def open_board(name):
    cfg = board(name)
    wire(cfg)
    return cfg, hw_machine.Hardware(cfg)


class Canvas:
    def __init__(self, colours):
        self.buf = bytearray(b"".join(bytes(c) for c in colours))


colour = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


# --- APA102 (the keypad's LEDs) ---------------------------------------------------


def apa102_colours(frame, n):
    """[(r, g, b)] of the ``n`` LEDs in an APA102 frame, checking its framing."""
    assert frame[:4] == b"\0\0\0\0"  # start frame
    assert set(frame[4 + 4 * n:]) == {0} and len(frame) - 4 - 4 * n >= n // 16  # end frame: zero bits
    out = []
    for i in range(n):
        head, b, g, r = frame[4 + 4 * i:8 + 4 * i]
        assert head == 0xFF  # 0xE0 | full global brightness
        out.append((r, g, b))
    return out


@settings(max_examples=30, deadline=None)
@given(colours=st.lists(colour, min_size=12, max_size=12))
def test_keypad_leds_show_each_cell_and_key_under_its_key(colours):
    cfg, hw = open_board("keypad")
    hw.show(Canvas(colours))
    bus, frame, levels = machine_more.spi_writes[-1]
    assert bus == 0 and levels[17] == 0  # SPI0, CS low while the frame goes out
    leds = apa102_colours(frame, 16)
    want = [(0, 0, 0)] * 16
    for cell, led in enumerate(cfg["leds"]["order"] + [e["led"] for e in cfg["extra"]]):
        want[led] = colours[cell]
    assert leds == want
    assert machine._out[17] == 1  # CS let go after it


def test_keypad_brightness_cap_scales_the_colours():
    cfg = board("keypad")
    cfg["leds"]["brightness"] = 0.25
    wire(cfg)
    hw = hw_machine.Hardware(cfg)
    hw.show(Canvas([(255, 128, 4)] * 12))
    assert apa102_colours(machine_more.spi_writes[-1][1], 16)[0] == (63, 32, 1)


def test_apa102_deinit_blanks_the_chain():
    cfg, hw = open_board("keypad")
    hw.show(Canvas([(9, 9, 9)] * 12))
    hw._np.deinit()
    assert apa102_colours(machine_more.spi_writes[-1][1], 16) == [(0, 0, 0)] * 16


# --- IS31FL3731 (the Keybow 2040's LEDs) -------------------------------------------

KEYBOW_GRID = [3, 7, 11, 2, 6, 10, 1, 5, 9]  # the key (and LED) under each cell
KEYBOW_EXTRA = [15, 14, 13]  # menu, hint, take back


def keybow_colours():
    """What the doubles' IS31FL3731 shows, [r, g, b] per key 0-15."""
    import is31regs

    px = is31regs.CHIP.colours()
    return [tuple(px[3 * k:3 * k + 3]) for k in range(16)]


@settings(max_examples=20, deadline=None)
@given(colours=st.lists(colour, min_size=12, max_size=12))
def test_keybow_leds_are_the_is31fl3731_registers_under_each_key(colours):
    import is31regs

    is31regs.CHIP.reset()
    cfg, hw = open_board("keybow")
    chip = is31regs.CHIP
    # set up as the datasheet asks: picture mode, frame 0 shown, on
    assert (chip.func[0], chip.func[1], chip.func[0x0A], chip.page) == (0, 0, 1, 0)
    hw.show(Canvas(colours))
    want = [(0, 0, 0)] * 16
    for cell, key in enumerate(KEYBOW_GRID + KEYBOW_EXTRA):
        want[key] = tuple(colours[cell])
    assert keybow_colours() == want


def test_keybow_sends_a_frame_only_when_it_changed():
    import is31regs

    cfg, hw = open_board("keybow")
    hw.show(Canvas([(1, 2, 3)] * 12))
    writes = is31regs.CHIP.writes
    hw.show(Canvas([(1, 2, 3)] * 12))
    assert is31regs.CHIP.writes == writes
    hw.show(Canvas([(1, 2, 4)] + [(1, 2, 3)] * 11))
    assert is31regs.CHIP.writes > writes and keybow_colours()[3] == (1, 2, 4)


def test_is31fl3731_deinit_blanks_and_shuts_down():
    import is31regs

    cfg, hw = open_board("keybow")
    hw.show(Canvas([(9, 9, 9)] * 12))
    hw._np.deinit()
    assert is31regs.CHIP.func[0x0A] == 0
    is31regs.CHIP.func[0x0A] = 1  # switched back on: every duty zero
    assert keybow_colours() == [(0, 0, 0)] * 16


def test_no_is31fl3731_is_one_line():
    raw = json.load(open(os.path.join(FIRMWARE, "boards", "keybow.json")))
    raw["leds"]["address"] = 0x75  # the chip answers at 0x74
    cfg = config.validate(raw)
    wire(cfg)
    with pytest.raises(ValueError, match=r"^no IS31FL3731 answers at I2C address 0x75 \(leds.address\)$"):
        hw_machine.Hardware(cfg)


# --- TCA9555 (the keypad's keys) ----------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(held=st.integers(0, (1 << 12) - 1))
def test_keypad_keys_read_through_the_expander(held):
    cfg, hw = open_board("keypad")
    machine.held = held
    assert hw.scan() == held  # cells 0-8, then menu, hint, take back
    bus, addr, reg, count = machine_more.i2c_reads[-1]
    assert (bus, addr, reg, count) == (0, 0x20, 0, 2)  # both input ports in one read


def test_expander_raw_keys_are_active_low_port0_then_port1():
    from tactictoe.devices.tca9555 import TCA9555

    machine.wire({"kind": "tca9555", "address": 0x20, "keys": list(range(16))})
    chip = TCA9555(machine.I2C(0, sda=machine.Pin(4), scl=machine.Pin(5)))
    for k in range(16):
        machine.held = 1 << k
        assert chip.read() == 1 << k
        assert chip.scan() == 1 << k  # keys=None: bit k is key k


def test_no_expander_is_one_line():
    cfg = board("keypad")
    wire(cfg)
    machine._in["address"] = 0x21  # the chip answers elsewhere
    with pytest.raises(ValueError, match=r"^no TCA9555 answers at I2C address 0x20 \(input.address\)$"):
        hw_machine.Hardware(cfg)


# --- the rotary encoder ---------------------------------------------------------------

# Gray code, one detent clockwise from rest (both pins high, pulled up),
# A = MacroPad GPIO 18 as the config lists it first.
CW = [(0, 1), (0, 0), (1, 0), (1, 1)]


def turn(hw, a, b, steps):
    for step in steps:
        for la, lb in (CW if step > 0 else list(reversed(CW[:3])) + [(1, 1)]):
            machine.levels[a], machine.levels[b] = la, lb
            hw.scan()


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.sampled_from([1, -1]), max_size=30))
def test_encoder_counts_detents(steps):
    cfg, hw = open_board("macropad")
    a, b = cfg["encoder"]["pins"]
    machine.levels[a] = machine.levels[b] = 1
    hw = hw_machine.Hardware(cfg)
    turn(hw, a, b, steps)
    assert hw.turns() == sum(steps)
    assert hw.turns() == 0  # since the last call


@settings(max_examples=40, deadline=None)
@given(jitter=st.lists(st.integers(0, 2), max_size=20))
def test_encoder_ignores_a_wobble_short_of_a_detent(jitter):
    cfg, hw = open_board("macropad")
    a, b = cfg["encoder"]["pins"]
    machine.levels[a] = machine.levels[b] = 1
    hw = hw_machine.Hardware(cfg)
    for k in jitter:  # forth k steps of a detent, then back
        path = CW[:k] + list(reversed(CW[:k - 1] if k else [])) + [(1, 1)]
        for la, lb in path:
            machine.levels[a], machine.levels[b] = la, lb
            hw.scan()
    assert hw.turns() == 0


def test_encoder_steps_match_rotaryio():
    """The same transitions as CircuitPython's shared-module/rotaryio
    (state = A << 1 | B): 00 -> 10 counts up."""
    from tactictoe.devices import encoder

    table = [0, -1, +1, 0, +1, 0, 0, -1, -1, 0, 0, +1, 0, +1, -1, 0]
    assert [b - 1 for b in encoder._STEP] == table


def test_no_encoder_turns_nothing():
    cfg, hw = open_board("pico-buttons")
    assert hw.turns() == 0 and hw.screen is None


def test_the_mx_kit_reads_each_key_on_its_own_pin_and_lights_cell_8_first_in_the_chain():
    """pico-mx: a key on GP19 is cell 8, and cell 8's colour is the first
    pixel on the wire (the chain enters at the front right); keys 0-2 are on
    GP26-GP28."""
    cfg, hw = open_board("pico-mx")
    for cell, pin in enumerate(cfg["input"]["pins"]):
        machine.held = 1 << cell
        assert hw.scan() == 1 << cell, (cell, pin)
    machine.held = 0
    assert hw.scan() == 0
    hw.show(Canvas([(0, 0, 0)] * 8 + [(10, 20, 30)]))
    assert neopixel.last == bytes([20, 10, 30]) + bytes(24)  # GRB, pixel 0
    colours = [(c, 2 * c, 3 * c) for c in range(1, 10)]
    hw.show(Canvas(colours))
    pixels = [(neopixel.last[3 * p + 1], neopixel.last[3 * p], neopixel.last[3 * p + 2]) for p in range(9)]
    assert pixels == [colours[c] for c in (8, 7, 6, 3, 4, 5, 2, 1, 0)]


# --- SH1106 (the MacroPad's screen) --------------------------------------------------


def sh1106_picture(writes, dc=24, cs=22):
    """The 128x64 picture the SH1106 holds after ``writes``, decoded from
    its commands (D/C low) and data (D/C high); (commands, picture)."""
    ram = [bytearray(132) for _ in range(8)]
    commands = []
    page = column = 0
    for bus, data, levels in writes:
        assert bus == 1 and levels[cs] == 0
        if levels[dc] == 0:
            for c in data:
                commands.append(c)
                if c & 0xF0 == 0xB0:
                    page = c & 7
                elif c & 0xF0 == 0x00:
                    column = column & 0xF0 | c
                elif c & 0xF0 == 0x10:
                    column = column & 0x0F | (c & 0x0F) << 4
        else:
            for d in data:
                ram[page][column] = d
                column += 1
    return commands, [bytes(ram[p][2:130]) for p in range(8)]


def rendered(lines):
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    for i, line in enumerate(lines):
        fb.text(line, 0, 14 * i, 1)
    return [bytes(buf[128 * p:128 * (p + 1)]) for p in range(8)]


text_line = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=16)


@settings(max_examples=20, deadline=None)
@given(lines=st.lists(text_line, min_size=1, max_size=5).map(tuple))
def test_macropad_screen_shows_the_lines(lines):
    cfg, hw = open_board("macropad")
    commands, picture = sh1106_picture(machine_more.spi_writes)
    assert commands[:2] == [0xAE, 0xD5] and 0xAF in commands  # init sequence, then on
    assert picture == [bytes(128)] * 8  # cleared
    hw.text(lines)
    commands, picture = sh1106_picture(machine_more.spi_writes)
    assert picture == rendered(lines)
    # page writes: page, column low nibble 2, high nibble 0 (the panel starts at RAM column 2)
    assert [commands[i:i + 3] for i in range(len(commands) - 24, len(commands), 3)] == [
        [0xB0 | p, 0x02, 0x10] for p in range(8)]


def test_screen_redraws_only_when_the_lines_change():
    cfg, hw = open_board("macropad")
    lines = ("MENU", "classic?")
    hw.text(lines)
    n = machine_more.spi_count
    hw.text(lines)
    hw.text(("MENU", "classic?"))  # equal, another tuple
    assert machine_more.spi_count == n
    hw.text(("MENU", "tactic-toe?"))
    assert machine_more.spi_count == n + 16  # 8 pages, commands then data


def test_text_without_a_screen_does_nothing():
    cfg, hw = open_board("pico-buttons")
    hw.text(("hello",))
    assert machine_more.spi_writes == []


# --- the MacroPad's keys, LEDs and speaker ------------------------------------------


@settings(max_examples=40, deadline=None)
@given(held=st.integers(0, (1 << 13) - 1))
def test_macropad_keys_are_cells_then_extra_keys(held):
    cfg, hw = open_board("macropad")
    machine.held = held
    machine.levels.update({17: 1, 18: 1})
    assert hw.scan() == held


def test_macropad_leds_light_the_grid_and_function_keys():
    cfg, hw = open_board("macropad")
    colours = [(c, 2 * c, 3 * c) for c in range(1, 14)]
    hw.show(Canvas(colours))
    sent = neopixel.last
    assert len(sent) == 36  # 12 pixels, GRB
    pixels = [(sent[3 * i + 1], sent[3 * i], sent[3 * i + 2]) for i in range(12)]
    assert pixels[3:] == colours[:9]  # the grid: keys 3-11
    assert pixels[:3] == colours[9:12]  # menu, hint, take back
    # the encoder's switch (extra key 3) has no LED: its colour goes nowhere


def test_a_nine_cell_canvas_still_shows_on_a_board_with_extra_keys():
    cfg, hw = open_board("macropad")
    hw.show(Canvas([(1, 1, 1)] * 9))
    assert neopixel.last[:9] == bytes(9) and neopixel.last[9:] == bytes([1] * 27)


def test_macropad_speaker_amplifier_is_on_only_while_a_tone_plays():
    cfg, hw = open_board("macropad")
    assert machine._out[14] == 0
    hw.tone(440)
    assert machine._out[14] == 1 and machine.tones[-1] == (440, 32768)
    hw.tone(0)
    assert machine._out[14] == 0 and machine.tones[-1] == (440, 0)
    hw.deinit()
    assert machine._out[14] == 0


def test_spi_buses_leave_miso_free():
    """MicroPython's rp2 SPI takes a default MISO pin unless told miso=None:
    on the MacroPad SPI1's default (GPIO 8 or 12) is a key."""
    cfg, hw = open_board("macropad")
    assert hw.screen.spi.pins == (26, 27, None)
    cfg, hw = open_board("keypad")
    assert hw._np.spi.pins == (18, 19, None)


# --- a Pico loads none of it ----------------------------------------------------------


@pytest.mark.parametrize("name, loaded", [
    ("pico-buttons", []), ("pico-matrix", []), ("pico-mx", []), ("esp32-touch", []),
    ("keypad", ["apa102", "parts", "tca9555"]), ("macropad", ["buzzer", "encoder", "parts", "sh1106"]),
    ("keybow", ["is31fl3731", "parts"]),
])
def test_a_board_imports_only_the_drivers_it_uses(name, loaded):
    script = ("import json, sys; import machine\n"
              "from tactictoe import config, hw_machine\n"
              "cfg = config.validate(json.load(open(sys.argv[1])))\n"
              "inp = dict(cfg['input']); inp.setdefault('keys', [])\n"
              "machine.wire(inp)\n"
              "hw_machine.Hardware(cfg)\n"
              "print(' '.join(sorted(m.split('.')[-1] for m in sys.modules if m.startswith('tactictoe.devices.'))))\n"
              "print('devices' if 'tactictoe.devices' in sys.modules else '-')")
    r = subprocess.run([sys.executable, "-c", script, os.path.join(FIRMWARE, "boards", name + ".json")],
                       capture_output=True, text=True, timeout=HANG_S,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join([DOUBLES, FIRMWARE, CPYTHON])))
    assert r.returncode == 0, r.stderr
    mods, package = r.stdout.splitlines()
    assert mods.split() == loaded
    assert package == ("devices" if loaded else "-")


# --- games on the bought boards (the tests/fw harness) --------------------------------

SCENARIOS = ["selftest", "vanishing", "two-classic", "safe-mode", "games"]


@pytest.fixture(scope="module")
def bought_flash(table_files, tmp_path_factory):
    """Flash folders of the bought boards' configs, at full brightness."""
    from conftest import put_tables

    root = tmp_path_factory.mktemp("bought")
    out = {}
    for name in ["macropad", "keypad", "keybow", "circuitpython-macropad", "circuitpython-keypad",
                 "circuitpython-keybow"]:
        with open(os.path.join(FIRMWARE, "boards", name + ".json")) as f:
            raw = json.load(f)
        raw["leds"]["brightness"] = 1.0
        d = root / name
        d.mkdir()
        (d / "board.json").write_text(json.dumps(raw))
        put_tables(d, table_files.values())
        out[name] = str(d)
    return out


@pytest.mark.parametrize("board", ["macropad", "keypad", "keybow"])
@pytest.mark.parametrize("name", SCENARIOS)
def test_games_on_the_bought_boards(bought_flash, board, name):
    """The scenarios of a Pico of loose parts, on the MacroPad's NeoPixels
    and keys and on the keypad's APA102s and expander, on MicroPython and
    CPython: the same pictures as on the Pico."""
    from conftest import run_scenario, transcript

    mp = run_scenario("micropython", bought_flash[board], name)
    assert mp.returncode == 0 and mp.stdout.rstrip().endswith("PASS"), mp.stdout[-3000:] + mp.stderr[-3000:]
    cp = run_scenario("cpython", bought_flash[board], name)
    assert cp.returncode == 0 and cp.stdout.rstrip().endswith("PASS"), cp.stdout[-3000:] + cp.stderr[-3000:]
    assert transcript(mp) == transcript(cp) and transcript(mp)


@pytest.mark.parametrize("board", ["circuitpython-macropad", "circuitpython-keypad", "circuitpython-keybow"])
@pytest.mark.parametrize("name", ["selftest", "vanishing", "safe-mode"])
def test_games_on_the_bought_boards_circuitpython_layer(bought_flash, board, name):
    from conftest import run_scenario, transcript

    path = [os.path.join(os.path.dirname(DOUBLES), "doubles_cp"), os.path.join(os.path.dirname(DOUBLES), "fw"),
            FIRMWARE, CPYTHON]
    cp = run_scenario("cpython", bought_flash[board], name, path=path)
    assert cp.returncode == 0 and cp.stdout.rstrip().endswith("PASS"), cp.stdout[-3000:] + cp.stderr[-3000:]
    mp = run_scenario("micropython", bought_flash[board.split("-", 1)[1]], name)

    def pictures(r):
        return [line for line in transcript(r) if not line.startswith(("| tones", "| config:"))]

    assert pictures(cp) == pictures(mp)


def test_the_framebuf_double_draws_as_micropython_does():
    """The same text sent to the SH1106 on the MicroPython Unix port (its
    own framebuf) and on CPython (tests/doubles/framebuf.py)."""
    from conftest import FW, MICROPYTHON

    args = [os.path.join(FW, "screen_bytes.py"), os.path.join(FIRMWARE, "boards", "macropad.json"),
            "Tactic-toe", "X to move ~!@#", "0123456789ABCDEF", "{|}[]<>?/\\\\'\"", "Menu Hint Back"]
    path = [DOUBLES, FW, FIRMWARE]
    mp = subprocess.run([MICROPYTHON] + args, capture_output=True, text=True, timeout=HANG_S,
                        env=dict(os.environ, MICROPYPATH=":".join(path + [".frozen"])))
    cp = subprocess.run([sys.executable] + args, capture_output=True, text=True, timeout=HANG_S,
                        env=dict(os.environ, PYTHONPATH=os.pathsep.join(path + [CPYTHON])))
    assert mp.returncode == 0 and cp.returncode == 0, mp.stderr + cp.stderr
    assert mp.stdout == cp.stdout and len(mp.stdout.splitlines()) == 16
