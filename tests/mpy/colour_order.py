"""For each byte order a pixel chip may have: what the self-test's red, green
and blue steps look like on it, with the default config (colour_order GRB).
Prints "CHIP: seen, seen, seen" per chip order; run with tests/doubles and
firmware on the path."""

from tactictoe import config
from tactictoe import frames
from tactictoe import hw_machine
import machine
import neopixel

NAMES = {"R": "red", "G": "green", "B": "blue"}
cfg = config.validate(config.DEFAULT)
machine.wire(cfg["input"])
hw = hw_machine.Hardware(cfg)
for chip in ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR"):
    seen = []
    for colour in ((255, 0, 0), (0, 255, 0), (0, 0, 255)):
        canvas = frames.Canvas()
        canvas.fill(0x1FF, colour)
        hw.show(canvas)
        first = neopixel.last[:3]  # the chip takes byte i as its colour chip[i]
        lit = [chip[i] for i in range(3) if first[i]]
        seen.append(NAMES[lit[0]] if len(lit) == 1 else "?")
    print("%s: %s" % (chip, ", ".join(seen)))
