"""The bought boards' parts for ``hw_machine.Hardware``: APA102 LEDs, LEDs
on an IS31FL3731 driver, keys through a TCA9555 expander, a rotary encoder,
an SH1106 screen, a speaker with an amplifier to switch on. Made from the
config here, and each driver imported here, so that only a board that has
one of them loads this code.
"""

import machine


def start(hw, cfg):
    """Make the parts of ``cfg`` a board of loose parts lacks, as attributes
    of ``hw``: ``_np``, ``_input``, ``_encoder``, ``screen``, ``_pwm``."""
    pin = machine.Pin

    # LEDs: APA102s on SPI
    leds = cfg["leds"]
    if leds["kind"] == "apa102":
        from .apa102 import APA102

        spi = machine.SPI(leds["spi"], baudrate=4000000, sck=pin(leds["sck"]), mosi=pin(leds["mosi"]), miso=None)
        hw._np = APA102(spi, leds["count"], cs=None if leds["cs"] is None else pin(leds["cs"], pin.OUT, value=1))
    elif leds["kind"] == "is31fl3731":  # the Keybow 2040's RGB LEDs, on I2C
        from .is31fl3731 import IS31FL3731

        i2c = machine.I2C(leds["i2c"], sda=pin(leds["sda"]), scl=pin(leds["scl"]), freq=400000)
        try:
            hw._np = IS31FL3731(i2c, address=leds["address"])
        except OSError:  # no acknowledge: a wrong address, or no chip
            raise ValueError("no IS31FL3731 answers at I2C address 0x%02x (leds.address)" % leds["address"])

    # Keys: a TCA9555's, the grid's then the extra keys'
    inp = cfg["input"]
    if inp["kind"] == "tca9555":
        from .tca9555 import TCA9555

        i2c = machine.I2C(inp["i2c"], sda=pin(inp["sda"]), scl=pin(inp["scl"]), freq=400000)
        hw._input = TCA9555(i2c, bytes(inp["keys"] + [e["key"] for e in cfg["extra"]]), address=inp["address"])
        try:
            hw._input.read()
        except OSError:  # no acknowledge: a wrong address, or no keypad
            raise ValueError("no TCA9555 answers at I2C address 0x%02x (input.address)" % inp["address"])

    # Rotary encoder: polled from scan()
    if cfg["encoder"] is not None:
        from .encoder import Encoder

        a, b = cfg["encoder"]["pins"]
        hw._encoder = Encoder(pin(a, pin.IN, pin.PULL_UP), pin(b, pin.IN, pin.PULL_UP))

    # Screen: an SH1106 on SPI
    screen = cfg["screen"]
    if screen is not None:
        from .sh1106 import SH1106

        spi = machine.SPI(screen["spi"], baudrate=10000000, sck=pin(screen["sck"]), mosi=pin(screen["mosi"]),
                          miso=None)
        hw.screen = SH1106(spi, pin(screen["dc"], pin.OUT, value=0),
                           None if screen["reset"] is None else pin(screen["reset"], pin.OUT, value=1),
                           None if screen["cs"] is None else pin(screen["cs"], pin.OUT, value=1))

    # Buzzer: a speaker whose amplifier is on only while a tone plays
    if cfg["buzzer"] is not None and cfg["buzzer_enable"] is not None:
        from .buzzer import Buzzer

        hw._pwm = Buzzer(machine.PWM(pin(cfg["buzzer"]), freq=1000, duty_u16=0),
                         pin(cfg["buzzer_enable"], pin.OUT, value=0))
