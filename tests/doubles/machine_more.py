"""The rest of the ``machine`` double: touch pads and PWM."""

import machine


class TouchPad:
    def __init__(self, pin):
        self.cell = machine._in["pins"].index(pin.id)

    def read(self):
        down = machine.held >> self.cell & 1
        if down and machine.flaky >> self.cell & 1:  # pressed hard: reads 0, which is an error
            raise ValueError("Touch pad error")
        spread = 40 * self.cell  # pads differ with their size and wiring
        if machine._in["rises"]:  # ESP32-S2/S3: about 30000, higher when touched
            return 30000 + 20 * spread + (12000 if down else 0)
        return 500 + spread - (380 if down else 0)  # ESP32: about 600, lower when touched


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.f = freq

    def freq(self, f):
        self.f = f

    def duty_u16(self, d):
        machine.tones.append((self.f, d))
