# The bytes the MacroPad's SH1106 gets for some lines of text, with the D/C
# level of each transfer, from hw_machine over the machine doubles: run on
# MicroPython (the real framebuf and its font) and on CPython (the framebuf
# double), the two must print the same.
# Usage: screen_bytes.py BOARD_JSON LINE...
import json
import sys

import machine
import machine_more
from tactictoe import config
from tactictoe import hw_machine

with open(sys.argv[1]) as f:
    cfg = config.validate(json.load(f))
machine.wire(cfg["input"])
hw = hw_machine.Hardware(cfg)
del machine_more.spi_writes[:]
hw.text(tuple(sys.argv[2:]))
dc = cfg["screen"]["dc"]
for bus, data, levels in machine_more.spi_writes:
    print(bus, levels[dc], "".join("%02x" % b for b in data))
