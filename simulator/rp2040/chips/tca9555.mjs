// TCA9555: 16-bit I2C I/O expander (TI TCA9555 datasheet, SCPS200: 8.6
// "Register Maps"). Eight registers in pairs: 0/1 input port 0/1 (read
// only), 2/3 output port (reset 0xFF), 4/5 polarity inversion (reset 0),
// 6/7 configuration (reset 0xFF: all inputs). A write's first byte is the
// command byte (the register pointer); each further byte written or read
// goes to the other register of the pair, toggling back and forth (8.6.1:
// "after sending data to one register, the next data byte is sent to the
// other register in the pair"). A read starts at the register the last
// command byte named.
//
// The pins: a pin configured as an input reads what pulls it (the board's
// key to ground when held, else high); one configured as an output reads
// back the level it drives. The input port is that level, XOR polarity.

export class TCA9555 {
  constructor({ address = 0x20 } = {}) {
    this.address = address;
    this.held = 0; // pins a key pulls low (bit n = port n >> 3, pin n & 7)
    this.reset();
  }

  reset() {
    this.output = [0xff, 0xff];
    this.polarity = [0, 0];
    this.config = [0xff, 0xff];
    this.pointer = 0;
    this.first = false; // the next byte written is the command byte
    this.reads = 0; // input port reads, for tests
  }

  levels(port) {
    const keys = ~(this.held >> (8 * port)) & 0xff; // held: low
    return (keys & this.config[port]) | (this.output[port] & ~this.config[port]);
  }

  register(n) {
    const port = n & 1;
    switch (n >> 1) {
      case 0:
        this.reads++;
        return (this.levels(port) ^ this.polarity[port]) & 0xff;
      case 1:
        return this.output[port];
      case 2:
        return this.polarity[port];
      default:
        return this.config[port];
    }
  }

  // I2C: a start addressed to the chip (write: a command byte follows).
  start(read) {
    this.first = !read;
  }

  write(value) {
    if (this.first) {
      this.first = false;
      this.pointer = value & 7;
      return true;
    }
    const port = this.pointer & 1;
    switch (this.pointer >> 1) {
      case 1:
        this.output[port] = value;
        break;
      case 2:
        this.polarity[port] = value;
        break;
      case 3:
        this.config[port] = value;
        break;
      default: // the input ports are read only: the byte is acknowledged and ignored
    }
    this.pointer ^= 1;
    return true;
  }

  read() {
    const v = this.register(this.pointer);
    this.pointer ^= 1;
    return v;
  }
}
