"""Test double for CircuitPython's ``neopixel_write``: the only piece of the
real Adafruit NeoPixel stack that is replaced. Keeps the bytes last sent."""

last = None
writes = 0
pins = []


def neopixel_write(pin, buf):
    global last, writes
    last = bytes(buf)
    writes += 1
    if pin not in pins:
        pins.append(pin)
