"""A probe of the CircuitPython APIs the firmware's hardware layer meets,
one "key<TAB>value" line each: run on real CircuitPython (in the emulated
Pico, cell 0 held, nothing else wired but the buttons) and on CPython over
tests/doubles_cp, which must agree (tests/test_circuitpython_pico.py)."""

import sys
import time

import board
import digitalio
import keypad
import microcontroller
import neopixel_write
import pwmio
import storage
import supervisor


def show(key, f):
    try:
        v = f()
    except Exception as e:  # noqa: BLE001  (the error is the fact)
        print("%s\t! %s %s" % (key, type(e).__name__, e))
        return None
    print("%s\t= %s %r" % (key, type(v).__name__, v))
    return v


print("probe\tbegin")
show("implementation", lambda: sys.implementation.name)
show("board.GP16", lambda: repr(board.GP16))
for n in range(30):
    show("board.GP%d?" % n, lambda: hasattr(board, "GP%d" % n))
show("pin type", lambda: type(board.GP2).__name__)

# digitalio: the centre look before keypad starts; pins are claimed once
p = digitalio.DigitalInOut(board.GP2)
p.switch_to_input(pull=digitalio.Pull.UP)
show("GP2 held, pull-up: value", lambda: p.value)
show("GP2 again", lambda: digitalio.DigitalInOut(board.GP2))
p.deinit()
q = digitalio.DigitalInOut(board.GP3)
q.switch_to_input(pull=digitalio.Pull.UP)
show("GP3 free, pull-up: value", lambda: q.value)
q.switch_to_output(value=False)
show("GP3 output low: value", lambda: q.value)
q.deinit()

# keypad: cell 0 (GP2) is held when scanning starts
pins = [getattr(board, "GP%d" % n) for n in range(2, 11)]
keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
show("GP2 while keypad has it", lambda: digitalio.DigitalInOut(board.GP2))
ev = keypad.Event()
show("Event() key_number, pressed, released", lambda: (ev.key_number, ev.pressed, ev.released))
time.sleep(0.1)
seen = []
while keys.events.get_into(ev):
    seen.append((ev.key_number, ev.pressed))
show("events 0.1 s after start, cell 0 held", lambda: seen)
show("get_into with none", lambda: keys.events.get_into(ev))
keys.deinit()
show("GP2 after keypad's deinit", lambda: digitalio.DigitalInOut(board.GP2).deinit())

# pwmio: the buzzer's calls
pwm = pwmio.PWMOut(board.GP15, frequency=1000, duty_cycle=0, variable_frequency=True)
pwm.frequency = 440
pwm.duty_cycle = 32768
show("pwm frequency, duty_cycle", lambda: (pwm.frequency, pwm.duty_cycle))
pwm.deinit()

# neopixel_write takes a DigitalInOut set to output, and bytes
d = digitalio.DigitalInOut(board.GP16)
d.direction = digitalio.Direction.OUTPUT
show("neopixel_write", lambda: neopixel_write.neopixel_write(d, bytes(27)))
d.deinit()

# score.py: the nvm, when code can't write the drive (no boot.py here)
show("drive readonly", lambda: storage.getmount("/").readonly)
show("nvm length", lambda: len(microcontroller.nvm))
show("nvm slice", lambda: type(microcontroller.nvm[0:4]).__name__)

show("supervisor.ticks_ms type", lambda: type(supervisor.ticks_ms()).__name__)
show("ticks_ms wraps below", lambda: supervisor.ticks_ms() < 1 << 29)
print("probe\tend")
