// The bought boards' wiring: which chip hangs on which pins and bus, and
// the bus plumbing between rp2040js and the chip models in chips/.
//
// Pins from the boards' own files: adafruit/circuitpython
// ports/raspberrypi/boards/adafruit_macropad_rp2040/ (pins.c, board.c) and
// pimoroni/pimoroni-pico libraries/pico_rgb_keypad/, and for the Keybow
// 2040 adafruit/circuitpython ports/raspberrypi/boards/pimoroni_keybow2040/
// pins.c with adafruit/Adafruit_CircuitPython_IS31FL3731 keybow2040.py (see
// docs/simulator.md).
//
// Keys are numbered as the board's own: MacroPad keys 0-11 row-major from
// the top-left (key k on GPIO k+1, to ground), key 12 the encoder's push
// switch (GPIO 0); keypad keys 0-15 row-major, read through the TCA9555
// (port 0 = keys 0-7, port 1 = keys 8-15); Keybow keys 0-15 its SW0-SW15
// (SW k on GPIO 21 - k, to ground), numbered from the bottom left up each
// column with the USB connector at the top (Pimoroni's keybow2040 library).

import { SH1106 } from './chips/sh1106.mjs';
import { APA102 } from './chips/apa102.mjs';
import { TCA9555 } from './chips/tca9555.mjs';
import { Encoder } from './chips/encoder.mjs';
import { IS31FL3731 } from './chips/is31fl3731.mjs';

const FUNC_SPI = 1;
const FUNC_I2C = 3;
const FUNC_SIO = 5;
const QUIET_SPI_NS = 1e6; // no SPI byte this long after a change: report the chip's new state
const MAX_WAIT_NS = 20e6; // a state changing without a pause is reported this often

export const BOARDS = {
  macropad: {
    keys: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0],
    neopixel: 19, // 12 WS2812 in key order
    buzzer: 16, // PWM into the amplifier...
    amplifier: 14, // ...whose shutdown pin is high for on
    encoder: { a: 17, b: 18 },
    sh1106: { spi: 1, sck: 26, mosi: 27, cs: 22, dc: 24, reset: 23, colstart: 2 },
  },
  'pico-rgb-keypad': {
    keys: [], // none on GPIO: 16 through the expander
    expanderKeys: 16,
    tca9555: { i2c: 0, sda: 4, scl: 5, address: 0x20 },
    pullups: [4, 5], // the base's resistors on SDA and SCL (CircuitPython's busio.I2C checks for them)
    apa102: { spi: 0, sck: 18, mosi: 19, cs: 17, count: 16 },
  },
  keybow2040: {
    keys: [21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6], // SW0-SW15
    // Resistors on SDA and SCL: busio.I2C refuses a bus without them
    // (CIRCUITPY_REQUIRE_I2C_PULLUPS, on in the Keybow's build), and the
    // board's CircuitPython makes board.I2C() on these pins, which Pimoroni's
    // library uses; the schematic itself was not read.
    pullups: [4, 5],
    is31fl3731: {
      i2c: 0, sda: 4, scl: 5, address: 0x74,
      // The LED under key k: its red, green and blue LED numbers on the
      // chip (PWM register 0x24 + n), from keybow2040.py's pixel_addr table
      // at entry 4 * (3 - k % 4) + (k >> 2), as Pimoroni's library asks for
      // key k's pixel (x = k % 4, y = k >> 2).
      leds: [
        [123, 91, 107], [122, 90, 106], [121, 89, 105], [120, 88, 104],
        [139, 26, 75], [138, 25, 74], [137, 41, 73], [136, 40, 72],
        [115, 83, 99], [114, 82, 98], [113, 81, 97], [112, 80, 96],
        [131, 18, 67], [130, 17, 66], [129, 33, 65], [128, 32, 64],
      ],
    },
  },
};

// The chips a board carries: they keep their state across the RP2040's own
// resets (a watchdog reset) and start afresh at power-on.
export function makeChips(board) {
  const b = BOARDS[board];
  if (!b) return {};
  return {
    sh1106: b.sh1106 ? new SH1106({ colstart: b.sh1106.colstart }) : null,
    apa102: b.apa102 ? new APA102(b.apa102.count) : null,
    tca9555: b.tca9555 ? new TCA9555({ address: b.tca9555.address }) : null,
    encoder: b.encoder ? new Encoder() : null,
    is31fl3731: b.is31fl3731 ? new IS31FL3731({ address: b.is31fl3731.address }) : null,
  };
}

// A pin's driven level: true/false, or null when nothing drives it.
function driven(mcu, p) {
  const pin = mcu.gpio[p];
  return pin.outputEnable ? pin.outputValue : null;
}

// An SPI device on `spi`'s SCK and MOSI pins: each byte reaches it at the end
// of its 8th clock, one byte-time after the SPI took it from its FIFO (on the
// emulated clock, so DMA and the RX FIFO keep pace as on silicon), and the
// SPI then receives `onByte`'s answer (MISO: 0 here).
function spiDevice(mcu, spec, onByte) {
  const spi = mcu.spi[spec.spi];
  let value = 0;
  const alarm = mcu.clock.createAlarm(() => {
    const muxed = mcu.gpio[spec.sck].functionSelect === FUNC_SPI && mcu.gpio[spec.mosi].functionSelect === FUNC_SPI;
    if (muxed) onByte(value);
    spi.completeTransmit(0);
  });
  spi.onTransmit = (v) => {
    value = v;
    const hz = spi.clockFrequency || 1e6;
    alarm.schedule((spi.dataBits * 1e9) / hz);
  };
}

// An I2C target on `i2c`'s SDA and SCL pins: each address and data byte is
// acknowledged (or not) and read bytes arrive 9 SCL periods later.
function i2cDevice(mcu, spec, chip) {
  const i2c = mcu.i2c[spec.i2c];
  let then = null;
  const alarm = mcu.clock.createAlarm(() => {
    const f = then;
    then = null;
    f();
  });
  const later = (f) => {
    then = f;
    const cycles = Math.max(1, i2c.sclLowPeriod + i2c.sclHighPeriod);
    alarm.schedule((9 * cycles * 1e9) / mcu.clkSys);
  };
  const muxed = () => mcu.gpio[spec.sda].functionSelect === FUNC_I2C && mcu.gpio[spec.scl].functionSelect === FUNC_I2C;
  i2c.onConnect = (address, mode) => {
    const ours = muxed() && address === chip.address;
    if (ours) chip.start(mode === 1);
    later(() => i2c.completeConnect(ours));
  };
  i2c.onWriteByte = (v) => later(() => i2c.completeWrite(chip.write(v)));
  i2c.onReadByte = () => later(() => i2c.completeRead(chip.read()));
}

// The same target when the firmware drives SDA and SCL itself (GPIO, open
// drain: a pin low or let go to the board's pull-up), as CircuitPython's
// busio.I2C does for a write of no bytes (the RP2040's I2C block can't send
// one: it bit-bangs the address, an I2C device's probe) and MicroPython's
// I2C.scan(). Decoded from the pins' levels: a start (SDA falls while SCL is
// high), 8 bits each sampled as SCL rises, the acknowledge (the target holds
// SDA low from the 8th clock's fall to the 9th's), a stop (SDA rises while
// SCL is high). Writes only: a read addressed this way is not acknowledged.
// `holds(p)`: true while the target pulls pin p low; `refresh()` makes the
// pads read it.
function i2cPins(mcu, spec, chip, refresh) {
  const st = { scl: true, sda: true, bits: -1, byte: 0, hold: false, data: false, acked: false };
  const line = (p) => {
    const pin = mcu.gpio[p];
    if (pin.outputEnable) return pin.outputValue;
    return !(p === spec.sda && st.hold); // let go: the pull-up, unless the target holds it
  };
  const hold = (v) => {
    if (st.hold !== v) {
      st.hold = v;
      refresh();
    }
  };
  const change = () => {
    if (mcu.gpio[spec.sda].functionSelect !== FUNC_SIO || mcu.gpio[spec.scl].functionSelect !== FUNC_SIO) {
      st.scl = st.sda = true;
      st.bits = -1;
      hold(false);
      return;
    }
    const scl = line(spec.scl);
    const sda = line(spec.sda);
    if (scl && st.scl && sda !== st.sda) {
      if (!sda) { // start (or a repeated one): an address follows
        st.bits = 0;
        st.byte = 0;
        st.data = false;
      } else st.bits = -1; // stop
      hold(false);
    } else if (st.bits >= 0 && scl && !st.scl && st.bits < 8) {
      st.byte = ((st.byte << 1) | (sda ? 1 : 0)) & 0xff;
      st.bits++;
    } else if (st.bits >= 0 && !scl && st.scl) {
      if (st.bits === 8) { // the 8th clock fell: acknowledge, or not
        if (!st.data) {
          st.acked = st.byte >> 1 === chip.address && (st.byte & 1) === 0;
          if (st.acked) chip.start(false);
        } else st.acked = chip.write(st.byte);
        st.bits = 9;
        hold(st.acked);
      } else if (st.bits === 9) { // the 9th clock fell: the next byte, if acknowledged
        hold(false);
        st.bits = st.acked ? 0 : -1;
        st.byte = 0;
        st.data = true;
      }
    }
    st.scl = scl;
    st.sda = sda;
  };
  mcu.gpio[spec.sda].addListener(change);
  mcu.gpio[spec.scl].addListener(change);
  return { holds: (p) => p === spec.sda && st.hold };
}

// Hook a board's chips to a freshly powered (or reset) RP2040. `report`
// is called with (kind, chip, ns on this chip's clock) when what a viewer
// sees changed (the screen) or a frame arrived (APA102 LEDs), once the bus
// has gone quiet; the time is that of the last byte. The IS31FL3731's RGB
// LEDs are reported as the APA102s are (`pixels`: [r, g, b, 31] each) when
// what they show changed.
// `refresh()` makes the pads read again what drives them (a chip holding a
// line low); `chips.holds(p)` says whether one does.
export function attach(mcu, board, chips, report, refresh = () => {}) {
  const b = BOARDS[board];
  if (!b) return;
  if (chips.sh1106) {
    const spec = b.sh1106;
    const sh = chips.sh1106;
    let shown = sh.version;
    const quiet = reporter(mcu, () => sh.version !== shown, (t) => {
      shown = sh.version;
      report('screen', sh, t);
    });
    spiDevice(mcu, spec, (v) => {
      if (driven(mcu, spec.reset) === false) return; // held in reset
      if (driven(mcu, spec.cs) !== false) return; // not selected: CS idles high
      sh.byte(v, driven(mcu, spec.dc) === true);
      quiet.poke();
    });
    mcu.gpio[spec.reset].addListener(() => {
      if (driven(mcu, spec.reset) === false) {
        sh.reset();
        quiet.poke();
      }
    });
  }
  if (chips.apa102) {
    const spec = b.apa102;
    const dots = chips.apa102;
    const quiet = reporter(mcu, () => dots.dirty, (t) => {
      dots.dirty = false;
      report('apa102', dots, t);
    });
    spiDevice(mcu, spec, (v) => {
      if (driven(mcu, spec.cs) === true) return; // the board gates the LEDs' clock with CS low
      dots.byte(v);
      quiet.poke();
    });
  }
  if (chips.tca9555) i2cDevice(mcu, b.tca9555, chips.tca9555);
  if (chips.is31fl3731) {
    const spec = b.is31fl3731;
    const chip = chips.is31fl3731;
    const view = { pixels: spec.leds.map(() => [0, 0, 0, 31]) };
    let seen = chip.version;
    const quiet = reporter(mcu, () => chip.version !== seen, (t) => {
      seen = chip.version;
      const pixels = spec.leds.map((rgb) => [...rgb.map((n) => chip.shown(n)), 31]);
      if (pixels.join() === view.pixels.join()) return;
      view.pixels = pixels;
      report('is31fl3731', view, t);
    });
    const target = { // the chip, its state reported once the bus is quiet
      get address() {
        return chip.address;
      },
      start: (read) => chip.start(read),
      read: () => chip.read(),
      write: (v) => {
        const ack = chip.write(v);
        quiet.poke();
        return ack;
      },
    };
    i2cDevice(mcu, spec, target);
    chips.holds = i2cPins(mcu, spec, target, refresh).holds;
  }
}

// Reports a chip's state once its bus has been quiet for QUIET_SPI_NS after
// a change (at most MAX_WAIT_NS late), with the time of the last change.
function reporter(mcu, changed, fire) {
  let first = -1;
  let last = 0;
  const check = () => {
    if (changed()) fire(last);
    first = -1;
  };
  const alarm = mcu.clock.createAlarm(check);
  return {
    poke() {
      if (!changed()) return;
      const t = mcu.clock.nanos;
      last = t;
      if (first < 0) first = t;
      if (t - first >= MAX_WAIT_NS) {
        alarm.cancel();
        check();
      } else alarm.schedule(QUIET_SPI_NS);
    },
  };
}

// --- The same chips behind whole transfers ----------------------------------
// The machine.SPI and machine.I2C doubles (simulator/machine.py) hand over
// a transfer at a time instead of the RP2040's bus hooks: on the MicroPython
// Unix port through the host (host_tools/sim/chips.py runs chipserver.mjs),
// on the web page directly (web/board.js). Each is gated as `attach` gates
// the emulated chip's bus: the right controller and pins, chip select low,
// reset not held. `oe` and `out` are bit masks: the GPIOs whose output is
// on, and the levels they drive.

// The expander's input pins a finger pulls low, from the board's key mask
// (bit i: the grid's cell i, bit 9 + j: the config's extra key j), through
// the config's `input.keys` and the extra keys' `key`.
export function expanderHeld(cfg, held) {
  const keys = [...cfg.input.keys, ...cfg.extra.map((e) => e.key)];
  let pins = 0;
  keys.forEach((k, i) => {
    if ((held >> i) & 1 && k !== undefined && k !== null) pins |= 1 << k;
  });
  return pins;
}

export function transfers(board, chips, cfg) {
  const b = BOARDS[board] || {};
  const level = (oe, out, p) => ((oe >> p) & 1 ? ((out >> p) & 1) === 1 : null);
  const onSpi = (spec, bus, sck, mosi) => spec && spec.spi === bus && spec.sck === sck && spec.mosi === mosi;
  let lit = null; // the IS31FL3731's LEDs as last reported
  const targets = () => [[chips.tca9555, b.tca9555], [chips.is31fl3731, b.is31fl3731]].filter(([c]) => c);
  return {
    // Bytes clocked out of SPI `bus`: the names of what changed ('screen',
    // 'leds'), for the caller to read (`glass()`, `pixels()`).
    spi(bus, sck, mosi, bytes, oe, out) {
      const changed = [];
      const sh = chips.sh1106;
      if (sh && onSpi(b.sh1106, bus, sck, mosi)) {
        const spec = b.sh1106;
        if (level(oe, out, spec.reset) !== false && level(oe, out, spec.cs) === false) {
          const before = sh.version;
          const dc = level(oe, out, spec.dc) === true;
          for (const v of bytes) sh.byte(v, dc);
          if (sh.version !== before) changed.push('screen');
        }
      }
      const dots = chips.apa102;
      if (dots && onSpi(b.apa102, bus, sck, mosi) && level(oe, out, b.apa102.cs) !== true) {
        for (const v of bytes) dots.byte(v);
        if (dots.dirty) {
          dots.dirty = false; // the frame ends with the transfer
          changed.push('leds');
        }
      }
      return changed;
    },
    // One I2C transaction: `write`'s bytes to `address`, then (a repeated
    // start) `nread` read. `held`: the board's key mask now (an expander's
    // inputs). Returns { ack, data, changed }: ack false when no target
    // on those pins has that address.
    i2c(bus, sda, scl, address, write, nread, held) {
      if (chips.tca9555) chips.tca9555.held = expanderHeld(cfg, held);
      const found = targets().find(([c, s]) => s.i2c === bus && s.sda === sda && s.scl === scl
                                    && c.address === address);
      if (!found) return { ack: false, data: [], changed: [] };
      const chip = found[0];
      if (write.length || !nread) {
        chip.start(false);
        for (const v of write) chip.write(v);
      }
      const data = [];
      if (nread) {
        chip.start(true);
        for (let i = 0; i < nread; i++) data.push(chip.read());
      }
      const changed = [];
      if (chip === chips.is31fl3731) {
        const now = this.pixels().join();
        if (now !== lit) {
          lit = now;
          changed.push('leds');
        }
      }
      return { ack: true, data, changed };
    },
    // What each LED shows: [r, g, b, brightness 0-31], the APA102 frames'
    // or the IS31FL3731's PWM registers' (at 31); [] without either.
    pixels() {
      if (chips.apa102) return chips.apa102.pixels.map((p) => [...p]);
      if (chips.is31fl3731) {
        return b.is31fl3731.leds.map((rgb) => [...rgb.map((n) => chips.is31fl3731.shown(n)), 31]);
      }
      return [];
    },
  };
}
