// IS31FL3731: 144-LED matrix driver on I2C (ISSI IS31FL3731 datasheet,
// "Register Definition" and "I2C Interface"). The Keybow 2040 wires 48 of
// its LEDs as 16 RGB LEDs (boards.mjs has which LED is which colour).
//
// Address 0b11101xx: AD to GND 0x74, SCL 0x75, SDA 0x76, VCC 0x77.
// A write's first byte is the register address; each further byte goes to
// the next register (the address increments after each byte, on reads
// too). Register 0xFD, the Command Register, is there on every page: the
// byte written to it selects the page the other addresses reach: 0x00-0x07
// the eight frames, 0x0B the function registers.
//
// A frame (0x00-0x07): 0x00-0x11 LED control (one on/off bit per LED, LED n
// at register n >> 3, bit n & 7), 0x12-0x23 blink control (the same bits),
// 0x24-0xB3 PWM (LED n's duty at 0x24 + n, 0-255).
// The function page (0x0B): 0x00 configuration (D4:D3 mode: 00 picture,
// 01 auto frame play, 1x audio frame play; D2:D0 the start frame), 0x01
// picture display (D2:D0 the frame shown in picture mode), 0x02/0x03 auto
// play, 0x05 display option (D3 blink enable, D2:D0 blink period), 0x06
// audio sync, 0x07 frame state (read only), 0x08/0x09 breath, 0x0A shutdown
// (D0: 0 software shutdown, 1 normal operation), 0x0B AGC, 0x0C audio ADC
// rate. Every register resets to 0: after power-on the chip is shut down
// and every LED off.
//
// What a viewer sees (`shown(n)`): LED n's PWM duty in the frame on show,
// if its control bit is on and the chip is not shut down; 0 otherwise. Not
// modelled: the auto-play and audio modes' animation (they show their
// start frame), the blink and breath timing (a blinking LED shows steady),
// and the current settings' effect on brightness.

export const COMMAND = 0xfd;
export const FUNCTION_PAGE = 0x0b;
const FRAME_SIZE = 0xb4; // 0x00-0xB3
const FUNCTION_SIZE = 0x0d; // 0x00-0x0C
const PWM = 0x24;
const SHUTDOWN = 0x0a;
const FRAME_STATE = 0x07;

export class IS31FL3731 {
  constructor({ address = 0x74 } = {}) {
    this.address = address;
    this.reset();
  }

  reset() {
    this.frames = Array.from({ length: 8 }, () => new Uint8Array(FRAME_SIZE));
    this.func = new Uint8Array(FUNCTION_SIZE);
    this.page = 0; // the Command Register
    this.pointer = 0;
    this.first = false; // the next byte written is the register address
    this.version = 0; // counts writes that changed a register
  }

  // The registers of the page the Command Register selects (null: none,
  // such as pages 0x08-0x0A: bytes there are acknowledged and dropped).
  registers() {
    if (this.page < 8) return this.frames[this.page];
    return this.page === FUNCTION_PAGE ? this.func : null;
  }

  // I2C: a start addressed to the chip (write: a register address follows).
  start(read) {
    this.first = !read;
  }

  write(value) {
    if (this.first) {
      this.first = false;
      this.pointer = value;
      return true;
    }
    if (this.pointer === COMMAND) {
      if (this.page !== value) {
        this.page = value;
        this.version++;
      }
    } else {
      const regs = this.registers();
      const readOnly = this.page === FUNCTION_PAGE && this.pointer === FRAME_STATE;
      if (regs && this.pointer < regs.length && !readOnly && regs[this.pointer] !== value) {
        regs[this.pointer] = value;
        this.version++;
      }
    }
    this.pointer = (this.pointer + 1) & 0xff;
    return true;
  }

  read() {
    let v = 0;
    if (this.pointer === COMMAND) v = this.page;
    else {
      const regs = this.registers();
      if (regs && this.pointer < regs.length) v = regs[this.pointer];
      if (this.page === FUNCTION_PAGE && this.pointer === FRAME_STATE) v = this.showing();
    }
    this.pointer = (this.pointer + 1) & 0xff;
    return v;
  }

  // The frame on show: the picture display register's in picture mode, the
  // start frame in the play modes.
  showing() {
    const mode = (this.func[0] >> 3) & 3;
    return mode === 0 ? this.func[1] & 7 : this.func[0] & 7;
  }

  on() {
    return (this.func[SHUTDOWN] & 1) === 1;
  }

  // LED n's duty as a viewer sees it (0-255).
  shown(n) {
    if (!this.on()) return 0;
    const frame = this.frames[this.showing()];
    return (frame[n >> 3] >> (n & 7)) & 1 ? frame[PWM + n] : 0;
  }
}
