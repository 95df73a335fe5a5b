# The CircuitPython layer on a bought board's config, on CPython with the
# doubles of tests/doubles_cp and the real Adafruit libraries; one probe per
# run, its findings printed as one JSON line.
# Usage: devices_cp.py BOARD_JSON PROBE
import json
import sys

import busio
import digitalio
import fingers
from tactictoe import config
from tactictoe import hw_circuitpython


class Canvas:
    def __init__(self, colours):
        self.buf = bytearray(b"".join(bytes(c) for c in colours))


with open(sys.argv[1]) as f:
    raw = json.load(f)
raw["leds"]["brightness"] = 1.0
cfg = config.validate(raw)
inp = dict(cfg["input"])
if inp["kind"] == "tca9555":
    inp["keys"] = inp["keys"] + [e["key"] for e in cfg["extra"]]
fingers.wire(inp)
hw = hw_circuitpython.Hardware(cfg)
probe = sys.argv[2]
out = {}
if probe == "scan":  # held masks from argv[3:], the scan of each
    out["scans"] = []
    for held in sys.argv[3:]:
        fingers.held = int(held)
        out["scans"].append(hw.scan())
    out["i2c"] = busio.i2c_reads[-1:] if busio.i2c_reads else []
elif probe == "show":  # colours as JSON in argv[3]
    hw.show(Canvas(json.loads(sys.argv[3])))
    out["frame"] = list(busio.spi_writes[-1][0]) if busio.spi_writes else None
    out["levels"] = busio.spi_writes[-1][1] if busio.spi_writes else None
    if cfg["leds"]["kind"] == "is31fl3731":  # what the chip's registers show, per key
        px = busio.is31regs.CHIP.colours()
        out["keys"] = [list(px[3 * k:3 * k + 3]) for k in range(16)]
    else:
        out["pixels"] = [int(p) if isinstance(p, int) else list(p) for p in hw._np]
elif probe == "screen":  # lines as JSON in argv[3]
    import board
    import displayio

    out["ours"] = board.DISPLAY.root_group is not displayio.CIRCUITPYTHON_TERMINAL  # (not the console)
    hw.text(tuple(json.loads(sys.argv[3])))
    group = board.DISPLAY.root_group
    out["labels"] = [(label.text, label.anchored_position[1]) for label in group]  # (text, top row)
    hw.deinit()
    out["after"] = board.DISPLAY.root_group is displayio.CIRCUITPYTHON_TERMINAL
elif probe == "turns":  # encoder positions from argv[3:], turns() after each
    out["turns"] = []
    for pos in sys.argv[3:]:
        fingers.position = int(pos)
        out["turns"].append(hw.turns())
elif probe == "tone":
    levels = []
    for f in (440, 0, 880):
        hw.tone(f)
        levels.append(digitalio.levels.get("GP14"))
    out["enable"] = levels
    out["tones"] = fingers.tones
elif probe == "twice":  # colours as JSON in argv[3], shown twice: the register writes of each
    import is31regs

    counts = []
    for _ in range(2):
        before = is31regs.CHIP.writes
        hw.show(Canvas(json.loads(sys.argv[3])))
        counts.append(is31regs.CHIP.writes - before)
    out["writes"] = counts
elif probe == "deinit":  # every pin given back: a second layer starts
    hw.deinit()
    hw_circuitpython.Hardware(cfg)
    out["again"] = True
out["modules"] = sorted(m for m in sys.modules if m.startswith(("tactictoe.devices", "adafruit_")))
print(json.dumps(out))
