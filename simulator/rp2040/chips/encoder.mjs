// A mechanical rotary encoder with detents (the MacroPad's, a PEC11-style
// part): two switches to ground, A and B, both open (pulled high) at rest.
// One detent is a full quadrature cycle, four edges. On the MacroPad
// (A = ROTA, GPIO 17; B = ROTB, GPIO 18) turning clockwise, B leads:
// AB 11 -> 10 -> 00 -> 01 -> 11; anticlockwise, A leads: 11 -> 01 -> 00 ->
// 10 -> 11. That is why Adafruit's MacroPad library negates rotaryio's
// position for IncrementalEncoder(ROTA, ROTB) (rotaryio counts "first pin
// leads" as +1), and why the board's config lists the pins as [ROTB, ROTA].
//
// `turn(n, edgeNs)` queues n detents (negative: anticlockwise), an edge
// every `edgeNs` (default 10 ms: a detent in 40 ms, a brisk turn by hand);
// the wiring calls `step()` every `edgeNs` of the emulated clock while
// `busy`, and reads `a` and `b` (true: the switch is open, the line pulled
// high).

const CW = [[true, false], [false, false], [false, true], [true, true]];
const CCW = [[false, true], [false, false], [true, false], [true, true]];

export class Encoder {
  constructor({ edgeNs = 10e6 } = {}) {
    this.defaultNs = edgeNs;
    this.edgeNs = edgeNs;
    this.a = true;
    this.b = true;
    this.queue = []; // [a, b] levels still to come
    this.detents = 0; // signed detents played so far
  }

  turn(n, edgeNs) {
    this.edgeNs = edgeNs || this.defaultNs;
    const seq = n > 0 ? CW : CCW;
    for (let i = 0; i < Math.abs(n); i++) this.queue.push(...seq.map((ab, j) => [...ab, j === 3 ? Math.sign(n) : 0]));
  }

  get busy() {
    return this.queue.length > 0;
  }

  step() {
    const [a, b, done] = this.queue.shift();
    this.a = a;
    this.b = b;
    this.detents += done;
    return !this.busy;
  }
}
