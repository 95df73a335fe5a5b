"""TCA9555 smoke test: the Pimoroni RGB Keypad's 16 keys read through the
expander, with machine.I2C, no driver. Prints "keys PPPP" (input ports 0
and 1, hex; a held key reads 0) each time they change, for 2 s.

Wiring (Pico RGB Keypad Base, PIM551): I2C0 SDA 4, SCL 5, address 0x20;
port 0 = keys 0-7, port 1 = keys 8-15, active low.
Run: copy as main.py onto the board (tests/test_chips.py does it in the
emulated RP2040), or mpremote run tests/mpy/tca9555_keys.py."""

from machine import I2C, Pin
import time

i2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400_000)
i2c.writeto_mem(0x20, 6, b"\xff\xff")  # configuration: every pin an input
print("config", i2c.readfrom_mem(0x20, 6, 2).hex())
last = None
start = time.ticks_ms()
while time.ticks_diff(time.ticks_ms(), start) < 2000:
    ports = i2c.readfrom_mem(0x20, 0, 2)  # input port 0, then 1 (the pair toggles)
    if ports != last:
        print("keys", ports.hex())
        last = ports
    time.sleep_ms(5)
print("end")
