// The bought boards' chips for the virtual board on the MicroPython Unix
// port (make sim): the models of rp2040/chips/ behind boards.mjs's
// `transfers`, the very code the web page runs. host_tools/sim/chips.py
// starts it as
//
//     node chipserver.mjs BOARD CONFIG_JSON
//
// (BOARD a key of boards.mjs's BOARDS) and sends one request a line, JSON;
// each gets one answer line, JSON, in order:
//
//   {"op": "power"}                       fresh chips, as at power-on -> {}
//   {"op": "spec"}                        the board's BOARDS entry
//   {"op": "spi", "bus", "sck", "mosi", "oe", "out", "data": hex}
//                                         -> {"changed": [names]}
//   {"op": "i2c", "bus", "sda", "scl", "address", "write": hex, "read": n, "held": mask}
//                                         -> {"ack": bool, "data": hex, "changed": [names]}
//   {"op": "glass"}                       -> {"glass": hex, "state": {...}} (the SH1106's), or {}
//   {"op": "pixels"}                      -> {"pixels": [[r, g, b, brightness], ...]}
//   {"op": "turn", "n": detents}          -> {"steps": [[a, b], ...]}: the encoder's switch
//                                            levels, edge by edge (true: open)

import { createInterface } from 'node:readline';
import { BOARDS, makeChips, transfers } from './rp2040/boards.mjs';

const [board, cfgText] = process.argv.slice(2);
const cfg = JSON.parse(cfgText);
let chips;
let bus;

function power() {
  chips = makeChips(board);
  bus = transfers(board, chips, cfg);
}

const hex = (bytes) => Buffer.from(bytes).toString('hex');
const unhex = (text) => [...Buffer.from(text || '', 'hex')];

function answer(req) {
  switch (req.op) {
    case 'power':
      power();
      return {};
    case 'spec':
      return BOARDS[board] || {};
    case 'spi':
      return { changed: bus.spi(req.bus, req.sck, req.mosi, unhex(req.data), req.oe, req.out) };
    case 'i2c': {
      const r = bus.i2c(req.bus, req.sda, req.scl, req.address, unhex(req.write), req.read, req.held);
      return { ack: r.ack, data: hex(r.data), changed: r.changed };
    }
    case 'glass':
      return chips.sh1106 ? { glass: hex(chips.sh1106.visible()), state: chips.sh1106.state() } : {};
    case 'pixels':
      return { pixels: bus.pixels() };
    case 'turn': {
      const enc = chips.encoder;
      if (!enc) return { steps: [] };
      enc.turn(req.n);
      const steps = [];
      while (enc.busy) {
        enc.step();
        steps.push([enc.a, enc.b]);
      }
      return { steps };
    }
    default:
      return { error: `unknown op ${req.op}` };
  }
}

power();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim()) process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + '\n');
});
