// SH1106: 132x64 dot-matrix OLED controller, driven over 4-wire SPI
// (Sino Wealth SH1106 datasheet V2.3: commands in section "Commands",
// 1 to 20; reset values in "Power On and Initialization").
//
// The wiring hands it each byte with the level of its A0 (D/C) pin, and
// pulls its RES pin; CS is the wiring's business (a byte sent while CS is
// high never reaches the chip). A0 low: a command byte, or the parameter
// of a double-byte command (which the datasheet also sends with A0 low);
// A0 high: display data, one vertical strip of 8 pixels (bit 0 on top) at
// the current page and column, after which the column moves on.
//
// What a viewer sees, `visible()`, is the panel: a 128x64 glass on
// segments `colstart`..`colstart + 127`, mounted (as on the Adafruit
// MacroPad) so that segment remap on (0xA1) and COM scan reversed (0xC8)
// show RAM column `colstart + x` at x and RAM row y at y. With the other
// settings the picture comes out mirrored or flipped, as on the glass.

const COLUMNS = 132;
const PAGES = 8;
const ROWS = 64;

// Double-byte commands: the first byte, then one parameter byte.
const DOUBLE = new Set([0x81, 0xa8, 0xad, 0xd3, 0xd5, 0xd9, 0xda, 0xdb]);

export class SH1106 {
  constructor({ colstart = 2, width = 128, height = 64 } = {}) {
    this.colstart = colstart;
    this.width = width;
    this.height = height;
    this.ram = new Uint8Array(COLUMNS * PAGES); // page-major: ram[page * 132 + column]
    this.version = 0; // bumped on every change a viewer could see
    this.commands = 0; // command bytes taken (parameters included)
    this.reset();
  }

  // The RES pin low (or power-on): every register to its reset value; the
  // RAM keeps what it holds (the datasheet leaves it undefined).
  reset() {
    this.column = 0;
    this.page = 0;
    this.startLine = 0; // 0x40-0x7F
    this.contrast = 0x80; // 0x81 nn
    this.segmentRemap = false; // 0xA0 / 0xA1
    this.allOn = false; // 0xA4 / 0xA5
    this.inverted = false; // 0xA6 / 0xA7
    this.multiplex = 63; // 0xA8 nn: ratio - 1
    this.dcdc = 0x8b; // 0xAD nn: 0x8B built-in DC-DC on
    this.on = false; // 0xAE / 0xAF
    this.comReverse = false; // 0xC0 / 0xC8
    this.offset = 0; // 0xD3 nn
    this.clock = 0x50; // 0xD5 nn
    this.precharge = 0x22; // 0xD9 nn
    this.comPads = 0x12; // 0xDA nn
    this.vcomDeselect = 0x35; // 0xDB nn
    this.pump = 2; // 0x30-0x33: 8.0 V
    this.pending = null; // a double-byte command waiting for its parameter
    this.rmw = null; // read-modify-write: the column to return to at 0xEE
    this.version++;
  }

  // One byte at the end of its 8th clock, with A0 (D/C) high for data.
  byte(value, dc) {
    if (dc) {
      this.pending = null;
      if (this.column < COLUMNS) {
        const i = this.page * COLUMNS + this.column;
        if (this.ram[i] !== value) {
          this.ram[i] = value;
          this.version++;
        }
      }
      // the column counter stops at the last column (no wrap to a new page)
      if (this.column < COLUMNS) this.column++;
      return;
    }
    this.commands++;
    if (this.pending !== null) {
      const cmd = this.pending;
      this.pending = null;
      this.parameter(cmd, value);
      return;
    }
    this.command(value);
  }

  command(c) {
    const before = this.snapshot();
    if (c <= 0x0f) this.column = (this.column & 0xf0) | c; // column address, low nibble
    else if (c <= 0x1f) this.column = ((c & 0x0f) << 4) | (this.column & 0x0f); // high nibble
    else if (c >= 0x30 && c <= 0x33) this.pump = c & 3;
    else if (c >= 0x40 && c <= 0x7f) this.startLine = c & 0x3f;
    else if (DOUBLE.has(c)) this.pending = c;
    else if (c === 0xa0 || c === 0xa1) this.segmentRemap = c === 0xa1;
    else if (c === 0xa4 || c === 0xa5) this.allOn = c === 0xa5;
    else if (c === 0xa6 || c === 0xa7) this.inverted = c === 0xa7;
    else if (c === 0xae || c === 0xaf) this.on = c === 0xaf;
    else if (c >= 0xb0 && c <= 0xb7) this.page = c & 7;
    else if (c >= 0xc0 && c <= 0xcf) this.comReverse = !!(c & 8);
    else if (c === 0xe0) this.rmw = this.column;
    else if (c === 0xee) {
      if (this.rmw !== null) this.column = this.rmw;
      this.rmw = null;
    }
    // 0xE3 is NOP; other bytes (0x20-0x2F, 0x80, ...) are no command of the SH1106's
    if (this.snapshot() !== before) this.version++;
  }

  parameter(cmd, v) {
    const before = this.snapshot();
    if (cmd === 0x81) this.contrast = v;
    else if (cmd === 0xa8) this.multiplex = Math.max(0, Math.min(63, v & 0x3f));
    else if (cmd === 0xad) this.dcdc = v;
    else if (cmd === 0xd3) this.offset = v & 0x3f;
    else if (cmd === 0xd5) this.clock = v;
    else if (cmd === 0xd9) this.precharge = v;
    else if (cmd === 0xda) this.comPads = v;
    else if (cmd === 0xdb) this.vcomDeselect = v;
    if (this.snapshot() !== before) this.version++;
  }

  snapshot() {
    // the settings that change what the glass shows
    return [this.startLine, this.contrast, this.segmentRemap, this.allOn, this.inverted, this.multiplex,
            this.on, this.comReverse, this.offset].join();
  }

  // The glass: 128x64 pixels as the RAM's bits reach them through the
  // scan settings (not the on/off, all-on or invert state: see `state()`),
  // in the RAM's own layout: byte (y >> 3) * 128 + x, bit y & 7.
  visible() {
    const out = new Uint8Array(this.width * (this.height >> 3));
    for (let y = 0; y < this.height; y++) {
      // the panel row y is COM pin 63 - y; which scan line drives that pin
      const pin = ROWS - 1 - y;
      const com = this.comReverse ? ROWS - 1 - pin : pin;
      const line = (com - this.offset + ROWS) % ROWS; // the offset moves the start line's COM
      if (line > this.multiplex) continue; // not scanned: dark
      const row = (this.startLine + line) % ROWS;
      for (let x = 0; x < this.width; x++) {
        const segment = COLUMNS - 1 - (x + this.colstart);
        const column = this.segmentRemap ? COLUMNS - 1 - segment : segment;
        if ((this.ram[(row >> 3) * COLUMNS + column] >> (row & 7)) & 1) {
          out[(y >> 3) * this.width + x] |= 1 << (y & 7);
        }
      }
    }
    return out;
  }

  state() {
    return { on: this.on, contrast: this.contrast, inverted: this.inverted, allOn: this.allOn,
             segmentRemap: this.segmentRemap, comReverse: this.comReverse, startLine: this.startLine,
             offset: this.offset, multiplex: this.multiplex };
  }
}
