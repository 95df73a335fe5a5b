// The emulated Pico: MicroPython's rp2 port, or CircuitPython (the UF2 a
// maker flashes), in rp2040js, with the board's wiring around it.
//
//   node pico.mjs --uf2 FILE [--uf2 FILE...] --bootrom FILE --wiring board.json
//                 [--flash-file FILE] [--runtime micropython|circuitpython]
//                 [--board pico|macropad|pico-rgb-keypad|keybow2040]
//
// Talks to host_tools/sim/pico.py over stdin/stdout, one command or event a line
// (see docs/simulator.md, "The emulated RP2040"). Time is the emulated
// clock's: it moves only while this process runs the core, by the cycles the
// instructions take at 125 MHz, so a busy host makes a run slower, never
// different.
//
// What is modelled beyond rp2040js:
// * flash writes: rp2040js ignores the QSPI commands that program flash, so
//   the boot ROM's flash_range_erase and flash_range_program are patched to
//   a breakpoint that does the erase or program here;
// * pull-ups and pull-downs: rp2040js has none, so each wired input reads
//   what its pad's pulls (or a pressed key) make it;
// * resets: a watchdog reset (machine.reset()) starts a fresh chip with the
//   same flash;
// * the wiring: keys (buttons to ground or a 3x3 matrix), the NeoPixel chain
//   (decoded from the data pin's edges) and the buzzer (its PWM frequency);
// * with --board macropad, pico-rgb-keypad or keybow2040, a bought board's
//   wiring (boards.mjs) and its chips (chips/): the MacroPad's SH1106 screen
//   and encoder, the keypad's TCA9555 key expander and APA102 LEDs, the
//   Keybow's IS31FL3731 LED driver. --wiring then only names the config;
//   the pins are the board's.
//
// With --runtime circuitpython: the flash file is the CIRCUITPY drive (FAT12
// at 0x100000); the QSPI chip-select pad starts as the datasheet says, so
// CircuitPython's BOOTSEL sensing reads "not held" (rp2040js resets it with
// input disabled); and the NeoPixel bytes are read where the PIO state
// machine driving the data pin takes them, its TX FIFO, since rp2040js runs
// PIO without advancing the clock (the pulses on the pin have no width).

import { readFileSync, existsSync, openSync, writeSync, fsyncSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RP2040, USBCDC, GPIOPinState, ConsoleLogger, LogLevel } from 'rp2040js';
import { BOARDS, makeChips, attach } from './boards.mjs';

const CYCLE_NS = 8; // 125 MHz
const FLASH_BASE = 0x10000000;
const LATCH_NS = 50000; // WS2812: data low this long latches the frame
const QUIET_NS = 25e6; // no buzzer edge this long: silence
const BKPT_ERASE = 0xe0;
const BKPT_PROGRAM = 0xe1;
// A USB host opens a new serial port well after the device enumerates
// (driver, udev, the program's open): a client's bytes reach a freshly reset
// board only after this long, by when MicroPython runs main.py with Ctrl-C
// armed. Without it, a Ctrl-C queued during a reset lands in the ~15 ms
// between enumeration and main.py, goes to stdin, and is never seen.
const HOST_OPEN_NS = 200e6;

// --- arguments -------------------------------------------------------------

const args = { uf2: [] };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  const value = process.argv[i + 1];
  if (key === 'uf2') args.uf2.push(value);
  else args[key.replace(/-/g, '_')] = value;
}
const boardName = args.board || 'pico';
if (boardName !== 'pico' && !BOARDS[boardName]) throw new Error('no board ' + boardName + ' (pico, ' + Object.keys(BOARDS).join(', ') + ')');
const bought = BOARDS[boardName] || null; // a bought board: its own pins
const wiring = bought ? null : JSON.parse(readFileSync(args.wiring, 'utf8'));
const circuitpython = args.runtime === 'circuitpython';
// The filesystem's place in flash: the rp2 port's littlefs (RPI_PICO), or
// CircuitPython's CIRCUITPY drive.
const FS_OFFSET = circuitpython ? 0x100000 : 0xa0000;
const FS_SIZE = circuitpython ? 0x100000 : 352 * 4096;

function say(line) {
  process.stdout.write(line + '\n');
}

// rp2040js reports what it doesn't model (e.g. reads of core 1's FIFO, which
// MicroPython probes) on the console: pass it on as notes, never as stray
// text on the terminal the front-end draws on.
for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
  console[level] = (...parts) => say('note ' + parts.join(' ').replace(/\n/g, ' '));
}
process.on('uncaughtException', (e) => {
  say('crash ' + String((e && e.message) || e).replace(/\n/g, ' '));
  try {
    saveFlash();
  } catch (ignored) {
    // the crash came first: say that
  }
  process.exit(1);
});

// --- flash image -----------------------------------------------------------

// What the flash holds: every UF2 given, then the persisted filesystem.
const flash = new Uint8Array(2 * 1024 * 1024).fill(0xff);
for (const path of args.uf2) {
  const data = readFileSync(path);
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const v = new DataView(data.buffer, data.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) {
      throw new Error(path + ': not a UF2 file (block at ' + off + ')');
    }
    const addr = v.getUint32(12, true) - FLASH_BASE;
    const size = v.getUint32(16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), addr);
  }
}
// The filesystem's part of the flash lives in a host file, written through
// as the chip erases and programs, like the flash chip itself: a killed
// emulator (a pulled cable) leaves it as the chip left it.
let flashFd = null;
if (args.flash_file) {
  if (existsSync(args.flash_file)) {
    const fs = readFileSync(args.flash_file);
    if (fs.length !== FS_SIZE) throw new Error(args.flash_file + ': not a ' + FS_SIZE + '-byte filesystem');
    flash.set(fs, FS_OFFSET);
    flashFd = openSync(args.flash_file, 'r+');
  } else {
    flashFd = openSync(args.flash_file, 'w+');
    writeSync(flashFd, flash, FS_OFFSET, FS_SIZE, 0);
  }
}

function flashWritten(addr, count) {
  if (flashFd === null) return;
  const start = Math.max(addr, FS_OFFSET);
  const end = Math.min(addr + count, FS_OFFSET + FS_SIZE);
  if (end > start) writeSync(flashFd, flash, start, end - start, start - FS_OFFSET);
}

function saveFlash() {
  if (flashFd !== null) fsyncSync(flashFd);
}

// --- the boot ROM, with flash writes that work ----------------------------

const bootromBytes = readFileSync(args.bootrom);
const bootrom = new Uint32Array(bootromBytes.buffer, bootromBytes.byteOffset, bootromBytes.length / 4).slice();

function romFunction(code) {
  // The ROM's function table: u16 pairs (code, address), pointed to by the
  // u16 at 0x14, ending in a zero code.
  const half = (a) => (bootrom[a >> 2] >>> ((a & 2) * 8)) & 0xffff;
  for (let p = half(0x14); half(p); p += 4) {
    if (half(p) === code) return half(p + 2) & ~1;
  }
  throw new Error('boot ROM has no function ' + code.toString(16));
}

function patchHalf(addr, value) {
  const word = addr >> 2;
  const shift = (addr & 2) * 8;
  bootrom[word] = (bootrom[word] & ~(0xffff << shift)) | (value << shift);
}

for (const [name, bkpt] of [['RE', BKPT_ERASE], ['RP', BKPT_PROGRAM]]) {
  const addr = romFunction(name.charCodeAt(0) | (name.charCodeAt(1) << 8));
  patchHalf(addr, 0xbe00 | bkpt); // bkpt #n
  patchHalf(addr + 2, 0x4770); // bx lr
}

// --- the wired world ------------------------------------------------------

let held = 0; // the cells a finger is on
// A press script's taps and waits ('tap CELL MS', 'idle MS'), played in
// order on the emulated clock: each step lasts its time from when the one
// before it ended; a tap is followed by GAP_MS with its cell up. 'done N'
// says the script's command N (from 1 since the process started) is done.
const GAP_MS = 100;
const script = []; // [cell or -1, ms, start ns or null, ends a command]
let scriptDone = 0;
let tapped = 0; // the cell mask the script's current step holds
let mcu = null; // the running chip
let cdc = null;
let toBoard = []; // console bytes waiting for the USB host
let pendingRead = null; // the device's read of the OUT endpoint, waiting for data
let hostOpenAt = Infinity; // emulated ns (this chip's clock) from which the host sends
// The keys: bit k of `held` is key k (on a Pico, cell k through the config).
const input = bought ? { kind: 'buttons', pins: bought.keys }
  : { ...wiring.input, pins: (wiring.input.pins || []).map(pinNumber) };
let chips = {}; // a bought board's chips (boards.mjs)
const rows = input.kind === 'matrix' ? input.rows.map(pinNumber) : [];
const cols = input.kind === 'matrix' ? input.cols.map(pinNumber) : [];

function level(g, p) {
  // What a pad reads: the level it drives when its output is on (so an
  // output reads back its own level, and a matrix row driven low pulls a
  // pressed key's column low), else what a pressed key or its pull makes it
  // (rp2040js models neither pulls nor a pad reading its own output).
  const pin = g[p];
  if (pin.outputEnable) return pin.outputValue;
  if (chips.encoder && (p === bought.encoder.a || p === bought.encoder.b)) {
    // a closed switch joins the line to ground
    if (!(p === bought.encoder.a ? chips.encoder.a : chips.encoder.b)) return false;
  } else if (input.kind === 'buttons') {
    const cell = input.pins.indexOf(p);
    if (cell >= 0 && ((held | tapped) >> cell) & 1) return false;
  } else if (cols.includes(p)) {
    const c = cols.indexOf(p);
    for (let r = 0; r < 3; r++) {
      if (((held | tapped) >> (3 * r + c)) & 1 && g[rows[r]].outputEnable && !g[rows[r]].outputValue) return false;
    }
  } else if (rows.includes(p)) {
    const r = rows.indexOf(p);
    for (let c = 0; c < 3; c++) {
      if (((held | tapped) >> (3 * r + c)) & 1 && g[cols[c]].outputEnable && !g[cols[c]].outputValue) return false;
    }
  }
  if (chips.holds && chips.holds(p)) return false; // a chip pulls the line low (an I2C acknowledge)
  if (bought && bought.pullups && bought.pullups.includes(p)) return true; // a resistor on the board
  return pin.pullupEnabled && !pin.pulldownEnabled; // a floating pin reads low
}

// Move the script on to the emulated time now(); the ns at which it next
// changes (Infinity: nothing to play).
function playScript() {
  while (script.length) {
    const step = script[0];
    if (step[2] === null) {
      step[2] = now();
      tapped = step[0] >= 0 ? 1 << step[0] : 0;
      updateInputs();
    }
    const end = step[2] + step[1] * 1e6;
    if (now() < end) return end;
    script.shift();
    tapped = 0;
    updateInputs();
    if (step[3]) say('done ' + ++scriptDone);
  }
  return Infinity;
}

function updateInputs() {
  if (!mcu) return;
  if (chips.tca9555) chips.tca9555.held = held | tapped;
  const g = mcu.gpio;
  for (let p = 0; p < 30; p++) {
    const v = level(g, p);
    if (g[p].rawInputValue !== v) g[p].setInputValue(v);
  }
}

// The NeoPixel chain: bits from the data line's high times, a frame when the
// line stays low for the latch time.
const leds = { pin: bought ? (bought.neopixel ?? null) : pinNumber(wiring.leds.pin), rise: -1, fall: -1, bits: [], t: { h0: [], h1: [], l: [] },
               alarm: null, fifo: [] };

function pinNumber(p) {
  // A CircuitPython config names pins ("GP16"); MicroPython's number them.
  return typeof p === 'string' ? parseInt(p.replace(/^GP/, ''), 10) : p;
}

function ledEdge(value) {
  const t = mcu.clock.nanos;
  if (value === GPIOPinState.High) {
    if (leds.fall >= 0 && leds.bits.length) leds.t.l.push(t - leds.fall);
    leds.rise = t;
    leds.alarm.cancel();
  } else if (value === GPIOPinState.Low && leds.rise >= 0) {
    const high = t - leds.rise;
    const one = high > 590; // midway between the datasheet's 0 (<=380 ns) and 1 (>=580 ns... 800 ns)
    leds.bits.push(one ? 1 : 0);
    (one ? leds.t.h1 : leds.t.h0).push(high);
    leds.fall = t;
    leds.rise = -1;
    leds.alarm.schedule(LATCH_NS);
  }
}

function fifoByte(sm, value) {
  // One byte to the strip: the state machine shifts out 8 bits a pull, from
  // the top of the word when it shifts left (a byte write fills every lane).
  const shiftRight = (sm.shiftCtrl >> 19) & 1;
  leds.fifo.push(shiftRight ? value & 0xff : (value >>> 24) & 0xff);
}

function drivesLeds(sm) {
  // The state machine whose side-set, set or out pins start at the LED pin.
  const c = sm.pinCtrl;
  return [c & 0x1f, (c >> 5) & 0x1f, (c >> 10) & 0x1f].includes(leds.pin);
}

function latch() {
  const bits = leds.bits;
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) {
    let b = 0;
    for (let j = 0; j < 8; j++) b = (b << 1) | bits[i + j];
    bytes.push(b);
  }
  const span = (a) => (a.length ? Math.round(Math.min(...a)) + '-' + Math.round(Math.max(...a)) : '-');
  const hex = Buffer.from(bytes).toString('hex');
  say('frame ' + Math.round(now()) + ' ' + (hex || '-') + ' ' + (bits.length % 8) +
      ' h0=' + span(leds.t.h0) + ' h1=' + span(leds.t.h1) + ' low=' + span(leds.t.l) +
      (leds.fifo.length ? ' fifo=' + Buffer.from(leds.fifo).toString('hex') : ''));
  leds.fifo = [];
  leds.bits = [];
  leds.t = { h0: [], h1: [], l: [] };
  leds.fall = -1;
}

// The buzzer: its frequency from the time between rising edges.
const buzzer = { pin: bought ? (bought.buzzer ?? null) : pinNumber(wiring.buzzer), lastRise: -1, freq: 0, alarm: null };

function buzzerEdge(value) {
  const t = mcu.clock.nanos;
  // The MacroPad's speaker sounds only while its amplifier is enabled.
  if (bought && bought.amplifier !== undefined && !mcu.gpio[bought.amplifier].outputValue) return;
  if (value === GPIOPinState.High) {
    if (buzzer.lastRise >= 0) {
      const freq = Math.round(1e9 / (t - buzzer.lastRise));
      if (Math.abs(freq - buzzer.freq) > Math.max(2, buzzer.freq / 100)) {
        buzzer.freq = freq;
        say('tone ' + Math.round(clockBase + t) + ' ' + freq);
      }
    }
    buzzer.lastRise = t;
  }
  buzzer.alarm.schedule(QUIET_NS);
}

function quiet() {
  buzzer.lastRise = -1;
  if (buzzer.freq) {
    buzzer.freq = 0;
    say('tone ' + Math.round(now()) + ' 0');
  }
}

// --- a bought board's chips -----------------------------------------------

// What the chips show, one line each (docs/simulator.md):
//   screen NS on=1 contrast=255 invert=0 allon=0 remap=1 comrev=1 start=0 offset=0 mux=63 HEX
//     the SH1106's glass, 128x64, HEX = 1024 bytes: byte (y >> 3) * 128 + x, bit y & 7
//   apa102 NS HEX   per LED 4 bytes: red, green, blue, brightness (0-31)
//   is31fl3731 NS HEX   the same, per RGB LED (brightness 31: the chip's PWM
//     duty is the colour)
function report(kind, chip, t) {
  say(kind === 'screen' ? screenLine(chip, t) : pixelsLine(kind, chip, t));
}

function screenLine(sh, t) {
  const st = sh.state();
  const b = (v) => (v ? 1 : 0);
  return 'screen ' + Math.round(clockBase + t) + ' on=' + b(st.on) + ' contrast=' + st.contrast +
    ' invert=' + b(st.inverted) + ' allon=' + b(st.allOn) + ' remap=' + b(st.segmentRemap) +
    ' comrev=' + b(st.comReverse) + ' start=' + st.startLine + ' offset=' + st.offset +
    ' mux=' + st.multiplex + ' ' + Buffer.from(sh.visible()).toString('hex');
}

function pixelsLine(kind, dots, t) {
  return kind + ' ' + Math.round(clockBase + t) + ' ' + Buffer.from(dots.pixels.flat()).toString('hex');
}

// The encoder: one quadrature edge every edgeNs of the emulated clock while
// detents are queued ('turn N'); 'turned NS DETENTS' when they are played.
let encoderAlarm = null;

function encoderEdge() {
  const enc = chips.encoder;
  if (!enc || !enc.busy) return;
  const done = enc.step();
  updateInputs();
  if (done) say('turned ' + Math.round(now()) + ' ' + enc.detents);
  else encoderAlarm.schedule(enc.edgeNs);
}

// --- power -----------------------------------------------------------------

let resetPending = null;
let clockBase = 0; // emulated ns before this chip's power-on
const now = () => clockBase + mcu.clock.nanos;

function powerOn(reason) {
  // Each power-on is a new chip whose timer starts at 0; the reported
  // times run on.
  if (mcu) clockBase += mcu.clock.nanos;
  const old = mcu;
  if (reason === 'power' || reason === 'cut') chips = makeChips(boardName); // the board's chips share its supply
  mcu = new RP2040();
  mcu.logger = new ConsoleLogger(LogLevel.Error, true);
  mcu.loadBootrom(bootrom);
  mcu.flash.set(flash); // reset() erased it
  mcu.core.PC = FLASH_BASE;
  mcu.onBreak = onBreak;
  if (circuitpython) {
    mcu.qspi[1].padValue = 0x5a; // QSPI_SS's reset value: input enabled, pull-up
    mcu.qspi[1].setInputValue(true);
  }
  pioMachines = [];
  pioActive = false;
  pioDirty = true;
  pioSince = 0;
  for (const pio of mcu.pio) {
    pio.run = () => {}; // runUntil clocks it (see stepPio)
    // Any write to a PIO block (enabling a machine, its FIFO) may give it work.
    const writeReg = pio.writeUint32.bind(pio);
    pio.writeUint32 = (offset, value) => {
      pioActive = pioDirty = true;
      writeReg(offset, value);
    };
    for (const sm of pio.machines) {
      sm.due = 0;
      pioMachines.push(sm);
      const write = sm.writeFIFO.bind(sm);
      sm.writeFIFO = (value) => {
        if (drivesLeds(sm) && !sm.txFIFO.full) fifoByte(sm, value);
        pioActive = pioDirty = true;
        write(value);
      };
    }
  }
  const watchdog = mcu.peripherals[0x40058];
  watchdog.onWatchdogTrigger = () => {
    resetPending = 'watchdog';
  };
  if (reason === 'watchdog') {
    // What survives a watchdog reset: why it happened (machine.reset_cause()
    // says WDT_RESET) and the scratch registers.
    watchdog.reason = 2; // REASON.FORCE
    watchdog.scratchData.set(old.peripherals[0x40058].scratchData);
  }
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onSerialData = (buf) => say('out ' + Buffer.from(buf).toString('hex'));
  hostOpenAt = Infinity;
  cdc.onDeviceConnected = () => {
    say('usb ' + Math.round(now()));
    hostOpenAt = mcu.clock.nanos + HOST_OPEN_NS;
  };
  // rp2040js answers the device's every read of the OUT endpoint at once,
  // with nothing when there is nothing: the device re-arms, and the CPU never
  // sleeps. A USB host NAKs instead, until it has data; so do we.
  const read = mcu.usbCtrl.onEndpointRead;
  pendingRead = null;
  mcu.usbCtrl.onEndpointRead = (ep, size) => {
    if (ep === cdc.outEndpoint && cdc.txFIFO.empty) pendingRead = () => read(ep, size);
    else read(ep, size);
  };
  for (const [p, fn] of [[leds.pin, ledEdge], [buzzer.pin, buzzerEdge]]) {
    if (p !== null && p !== undefined) mcu.gpio[p].addListener(fn);
  }
  leds.alarm = mcu.clock.createAlarm(latch);
  leds.bits = [];
  leds.fifo = [];
  leds.rise = leds.fall = -1;
  buzzer.alarm = mcu.clock.createAlarm(quiet);
  buzzer.lastRise = -1;
  // A pin's change of drive or pull can change what some pad reads (the
  // LED and buzzer pins only ever drive).
  for (let p = 0; p < 30; p++) if (p !== leds.pin && p !== buzzer.pin) mcu.gpio[p].addListener(updateInputs);
  attach(mcu, boardName, chips, report, updateInputs);
  encoderAlarm = mcu.clock.createAlarm(encoderEdge);
  if (chips.encoder && chips.encoder.busy) encoderAlarm.schedule(chips.encoder.edgeNs);
  updateInputs();
  say('power ' + Math.round(now()) + ' ' + reason);
}

// `cut N`: the power fails just before the Nth flash erase or program
// from now (that one not done), as a cable pulled mid-write: the chip
// powers on again with the flash as it was. 0: no cut armed.
let cutAt = 0;
let flashOps = 0;

function onBreak(code) {
  const r = mcu.core.registers;
  const flashArr = mcu.flash;
  if ((code === BKPT_ERASE || code === BKPT_PROGRAM) && cutAt && ++flashOps === cutAt) {
    cutAt = 0;
    say('cut ' + Math.round(now()) + ' ' + (code === BKPT_ERASE ? 'erase' : 'program') + ' ' +
        (r[0] >>> 0).toString(16) + ' ' + (r[code === BKPT_ERASE ? 1 : 2] >>> 0));
    resetPending = 'cut';
    return;
  }
  if (code === BKPT_ERASE) {
    // flash_range_erase(addr, count, block_size, block_cmd)
    const addr = r[0] >>> 0;
    const count = r[1] >>> 0;
    flashArr.fill(0xff, addr, addr + count);
    flash.fill(0xff, addr, addr + count);
    flashWritten(addr, count);
  } else if (code === BKPT_PROGRAM) {
    // flash_range_program(addr, data, count): NOR flash only clears bits
    const addr = r[0] >>> 0;
    const src = r[1] >>> 0;
    const count = r[2] >>> 0;
    for (let i = 0; i < count; i++) {
      const b = flashArr[addr + i] & mcu.readUint8(src + i);
      flashArr[addr + i] = b;
      flash[addr + i] = b;
    }
    flashWritten(addr, count);
  } else {
    say('fault ' + Math.round(now()) + ' breakpoint ' + code + ' at ' + (mcu.core.PC >>> 0).toString(16));
    resetPending = 'fault';
  }
}

// --- running ---------------------------------------------------------------

function feedConsole() {
  // What the USB host sends, as fast as the device takes it.
  if (!toBoard.length || !cdc || !cdc.initialized || mcu.clock.nanos < hostOpenAt) return;
  const room = cdc.txFIFO.size - cdc.txFIFO.itemCount;
  const n = Math.min(room, toBoard.length);
  for (let i = 0; i < n; i++) cdc.sendSerialByte(toBoard[i]);
  toBoard = toBoard.slice(n);
  if (n && pendingRead) {
    const answer = pendingRead;
    pendingRead = null;
    answer();
  }
}

// PIO on the emulated clock. rp2040js runs it from wall-clock timers, a
// thousand instructions at a time, so its pulses have no width and, in
// lockstep, it never runs inside a `run`. Here each enabled state machine
// executes an instruction every (1 + delay) x its clock divider's system
// cycles, as the RP2040's does.
let pioMachines = [];
let pioActive = false; // some machine may have work: runUntil clocks them
let pioDirty = true; // a PIO register was written: which machines wait must be looked at again
let pioSince = 0; // CPU cycles since the machines were last stepped
let pioLeft = 0; // CPU cycles from then until the next machine is due (Infinity: none)

function pioIdle(sm) {
  // stalled on an empty TX FIFO: nothing happens until the CPU or DMA writes
  return sm.waiting && (sm.waitType === 3 || sm.waitType === 5) && sm.txFIFO.empty;
}

// Bring every machine's due time (CPU cycles from now) up to date after a
// register write: a machine that was waiting starts now, the others keep
// their pace; then look for the next one due.
function pioFlush() {
  for (const sm of pioMachines) {
    if (!sm.enabled || pioIdle(sm)) sm.due = 0;
    else if (sm.wasIdle) sm.due = 0;
    else sm.due -= pioSince;
    sm.wasIdle = !sm.enabled || pioIdle(sm);
  }
  pioSince = 0;
  pioDirty = false;
  pioNext();
}

function pioNext() {
  let due = Infinity;
  for (const sm of pioMachines) if (!sm.wasIdle && sm.due < due) due = sm.due;
  pioLeft = due === Infinity ? Infinity : Math.max(1, Math.ceil(due)) - pioSince;
}

// Move the clock on by `cycles`, each machine executing an instruction
// every (1 + delay) x its clock divider's system cycles, at its own cycle.
function pioAdvance(cycles) {
  const clock = mcu.clock;
  while (cycles > 0) {
    const d = Math.min(cycles, pioLeft);
    clock.tick(d * CYCLE_NS);
    cycles -= d;
    pioSince += d;
    pioLeft -= d;
    if (pioLeft <= 0) stepPio();
  }
}

function stepPio() {
  const touched = new Set();
  for (const sm of pioMachines) {
    if (sm.wasIdle) continue;
    sm.due -= pioSince;
    while (sm.due <= 0 && sm.enabled) {
      const before = sm.cycles;
      sm.step();
      const div = (sm.clockDivInt || 65536) + sm.clockDivFrac / 256;
      sm.due += (1 + Math.max(0, sm.cycles - before)) * div;
      touched.add(sm.pio);
      if (pioIdle(sm)) break;
    }
    if (!sm.enabled || pioIdle(sm)) {
      sm.due = 0;
      sm.wasIdle = true;
    }
  }
  pioSince = 0;
  for (const pio of touched) pio.checkChangedPins();
  pioNext();
}

// Run the core until the emulated clock reaches `end` ns (or a reset).
function runUntil(end) {
  const clock = mcu.clock;
  const core = mcu.core;
  const until = end - clockBase;
  let n = 0;
  while (clock.nanos < until) {
    if (pioActive) {
      // one CPU instruction at a time, or asleep until the next alarm or
      // PIO step (either may wake the core); each PIO step at its own cycle
      let cycles;
      if (pioDirty) pioFlush();
      if (pioLeft === Infinity) {
        pioActive = false; // every machine waits for the CPU (or DMA)
        continue;
      }
      if (core.waiting) {
        const alarm = clock.nanosToNextAlarm;
        cycles = Math.max(1, Math.min(pioLeft, Math.ceil((until - clock.nanos) / CYCLE_NS),
                                      alarm > 0 ? Math.ceil(alarm / CYCLE_NS) : Infinity));
      } else cycles = core.executeInstruction();
      pioAdvance(cycles);
    } else if (core.waiting) {
      const next = clock.nanosToNextAlarm;
      clock.tick(next > 0 ? Math.min(next, until - clock.nanos) : until - clock.nanos);
    } else {
      clock.tick(core.executeInstruction() * CYCLE_NS);
    }
    if (resetPending) {
      const why = resetPending;
      resetPending = null;
      saveFlash();
      powerOn(why);
      return;
    }
    if ((++n & 4095) === 0) feedConsole();
  }
  feedConsole();
}

let mode = 'paused'; // 'paused', or 'live' (paced to real time)
let liveStart = null; // [wall ms, emulated ns] when live began
let sliceWall = 0;
const speed = { wall: 0, emu: 0, reported: 0 };

function liveSlice() {
  if (mode !== 'live') return;
  const wallNow = performance.now();
  const target = liveStart[1] + (wallNow - liveStart[0]) * 1e6;
  const before = now();
  const t0 = performance.now();
  // At most 20 ms of work at a time, so commands are read promptly.
  runUntilBudget(target, t0 + 20);
  const emu = now() - before;
  speed.wall += performance.now() - t0 + sliceWall;
  speed.emu += emu;
  if (now() < target - 200e6) {
    // behind real time by more than 0.2 s: stop trying to catch up
    liveStart = [performance.now(), now()];
  }
  if (wallNow - speed.reported > 1000) {
    // the pace, and the emulated clock (ms): a heartbeat a host can count progress in
    say('speed ' + (speed.emu / 1e6 / Math.max(1, wallNow - (speed.reported || wallNow - 1000))).toFixed(3) +
        ' ' + Math.round(now() / 1e6));
    speed.reported = wallNow;
    speed.emu = 0;
  }
  sliceWall = 0;
  setImmediate(liveSlice);
}

function runUntilBudget(until, wallDeadline) {
  while (now() < until && performance.now() < wallDeadline) {
    runUntil(Math.min(until, now() + 1e6, playScript()));
  }
}

// --- commands --------------------------------------------------------------

const queue = [];
let busy = false;

function command(line) {
  const [cmd, arg, arg2] = line.trim().split(/\s+/, 3);
  switch (cmd) {
    case 'serial':
      toBoard = toBoard.concat(Array.from(Buffer.from(arg || '', 'hex')));
      feedConsole();
      break;
    case 'keys':
      held = parseInt(arg, 10);
      updateInputs();
      break;
    case 'turn': {
      // N detents of the encoder, clockwise (negative: anticlockwise)
      if (!chips.encoder) {
        say('error this board has no encoder');
        break;
      }
      const idle = !chips.encoder.busy;
      chips.encoder.turn(parseInt(arg, 10), arg2 === undefined ? undefined : parseFloat(arg2) * 1e6);
      if (idle && chips.encoder.busy) encoderAlarm.schedule(chips.encoder.edgeNs);
      break;
    }
    case 'screen':
      // the screen as it is now (a 'screen' line), or 'screen none'
      say(chips.sh1106 ? screenLine(chips.sh1106, mcu.clock.nanos) : 'screen none');
      break;
    case 'tap': {
      const [, cell, ms] = line.trim().split(/\s+/).map(Number);
      script.push([cell, ms, null, false], [-1, GAP_MS, null, true]);
      break;
    }
    case 'idle':
      script.push([-1, Number(arg), null, true]);
      break;
    case 'run': {
      // lockstep: run `arg` emulated ms, then say where the clock is
      const t0 = performance.now();
      const from = now();
      const end = from + parseFloat(arg) * 1e6;
      while (now() < end) runUntil(Math.min(end, playScript()));
      playScript();
      say('at ' + Math.round(now()) + ' ' + ((now() - from) / 1e6 / Math.max(0.001, performance.now() - t0)).toFixed(3));
      break;
    }
    case 'live':
      if (mode !== 'live') {
        mode = 'live';
        liveStart = [performance.now(), now()];
        speed.reported = performance.now();
        setImmediate(liveSlice);
      }
      break;
    case 'pause':
      mode = 'paused';
      break;
    case 'power':
      saveFlash();
      powerOn('power');
      if (mode === 'live') liveStart = [performance.now(), now()];
      break;
    case 'cut':
      cutAt = Number(arg);
      flashOps = 0;
      break;
    case 'save':
      saveFlash();
      say('saved');
      break;
    case 'quit':
      saveFlash();
      process.exit(0);
      break;
    default:
      say('error unknown command ' + JSON.stringify(line));
  }
}

powerOn('power');
say('ready');

const rl = createInterface({ input: process.stdin });
rl.on('line', command);
rl.on('close', () => {
  saveFlash();
  process.exit(0);
});
process.on('SIGTERM', () => {
  saveFlash();
  process.exit(0);
});
