"""Encoder smoke test: the MacroPad's rotary encoder polled on GPIO 17 (A)
and 18 (B), no driver. Prints each quadrature edge's new state "AB" and,
once 2 s have passed without an edge, the edges and detents counted
(clockwise on the real MacroPad: B leads, AB 11 10 00 01 11; 4 edges a
detent).

Wiring (Adafruit MacroPad RP2040): A on GPIO 17, B on GPIO 18, switches to
ground, pulled up.
Run: copy as main.py onto the board (tests/test_chips.py does it in the
emulated RP2040), or mpremote run tests/mpy/encoder_edges.py."""

from machine import Pin
import time

a = Pin(17, Pin.IN, Pin.PULL_UP)
b = Pin(18, Pin.IN, Pin.PULL_UP)
# quarter steps by old state, new state (AB): +1 clockwise
STEP = {(3, 2): 1, (2, 0): 1, (0, 1): 1, (1, 3): 1, (3, 1): -1, (1, 0): -1, (0, 2): -1, (2, 3): -1}
state = a() << 1 | b()
print("polling")
edges = quarters = 0
last = time.ticks_ms()  # the last edge (or the start): a board short of CPU polls late, not wrongly
while time.ticks_diff(time.ticks_ms(), last) < 2000:
    new = a() << 1 | b()
    if new != state:
        last = time.ticks_ms()
        edges += 1
        quarters += STEP.get((state, new), 0)
        print("edge %d%d" % (new >> 1, new & 1))
        state = new
print("edges %d detents %d" % (edges, quarters // 4))
