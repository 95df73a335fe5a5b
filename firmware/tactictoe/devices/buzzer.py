"""A piezo or a speaker on a PWM pin, with an optional amplifier-enable
pin (the MacroPad's speaker amplifier: GPIO 14, high = on)."""


class Buzzer:
    """:param pwm: a ``machine.PWM`` on the buzzer's pin.
    :param enable: a ``machine.Pin`` output driven high while a tone plays,
        or None."""

    def __init__(self, pwm, enable=None):
        self.pwm = pwm
        self.enable = enable
        pwm.duty_u16(0)
        if enable is not None:
            enable(0)

    def tone(self, freq):
        """Play ``freq`` Hz; 0 silences it."""
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(32768)
        else:
            self.pwm.duty_u16(0)
        if self.enable is not None:
            self.enable(1 if freq else 0)

    def deinit(self):
        """Silence it and free the PWM channel."""
        self.tone(0)
        self.pwm.deinit()
