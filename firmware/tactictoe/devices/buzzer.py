"""A speaker on a PWM pin whose amplifier has an enable pin (the MacroPad's:
GPIO 14, high = on), with ``machine.PWM``'s surface: ``freq()`` and
``duty_u16()``, the amplifier on only while the duty is not 0 (off, it
neither hisses nor draws current)."""


class Buzzer:
    """:param pwm: a ``machine.PWM`` on the speaker's pin.
    :param enable: the amplifier's enable pin, a ``machine.Pin`` output."""

    def __init__(self, pwm, enable):
        self.pwm = pwm
        self.enable = enable
        self.duty_u16(0)

    def freq(self, f=None):
        """The PWM's frequency, or set it to ``f`` Hz."""
        return self.pwm.freq() if f is None else self.pwm.freq(f)

    def duty_u16(self, d=None):
        """The PWM's duty, or set it (0 silences, and switches the amplifier off)."""
        if d is None:
            return self.pwm.duty_u16()
        self.pwm.duty_u16(d)
        self.enable(1 if d else 0)

    def deinit(self):
        """Silence it and free the PWM channel."""
        self.duty_u16(0)
        self.pwm.deinit()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.deinit()
