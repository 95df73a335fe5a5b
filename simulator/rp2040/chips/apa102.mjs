// APA102 ("DotStar") chain on SPI (APA102C datasheet, "Data transmission
// method"): a start frame of 32 zero bits, then 32 bits per LED, 0b111 and
// a 5-bit global brightness, then blue, green and red, 8 bits each; then an
// end frame of extra clocks that pushes the last LEDs' data through the
// chain. The first LED keeps the first LED frame after a start frame and
// passes the rest on, so LED i shows the i-th one.
//
// The wiring hands it each byte as it leaves the SPI (after its 8th
// clock). A frame ends (`flush()`) when the data stops for a while; then
// `pixels` holds what each LED shows: [r, g, b, brightness 0-31].

export class APA102 {
  constructor(count) {
    this.count = count;
    this.pixels = Array.from({ length: count }, () => [0, 0, 0, 0]);
    this.word = []; // the bytes of the 32-bit word being clocked in
    this.zeros = 0; // zero bytes in a row
    this.index = -1; // the LED the next LED frame reaches (-1: no start frame yet)
    this.dirty = false; // an LED frame arrived since the last flush
    this.version = 0;
  }

  byte(value) {
    // 32 zero bits in a row, on any byte boundary, is a start frame
    this.zeros = value === 0 ? this.zeros + 1 : 0;
    if (this.zeros >= 4) {
      this.index = 0;
      this.word = [];
      return;
    }
    if (this.index < 0) return;
    if (!this.word.length && value === 0) return; // still inside a longer start frame
    this.word.push(value);
    if (this.word.length < 4) return;
    const [head, b, g, r] = this.word;
    this.word = [];
    if ((head & 0xe0) !== 0xe0) return; // not an LED frame: nobody latches it
    if (this.index < this.count) {
      const px = [r, g, b, head & 0x1f];
      if (px.join() !== this.pixels[this.index].join()) {
        this.pixels[this.index] = px;
        this.version++;
      }
      this.dirty = true;
    }
    this.index++; // past the chain's end: the end frame's clocks, or extra LEDs' data
  }
}
