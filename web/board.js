// The board in a browser: the firmware's own files in MicroPython's
// WebAssembly port, with this page as the board's pins, LEDs and buzzer
// (docs/web.md). The page knows nothing of the game: it boots main.py, reads
// the LED chain's bytes and holds the keys a finger is on. On a bought board
// it also turns the dial, and hands what the firmware sends over SPI and I2C
// to the emulator's own chip models (rp2040/boards.mjs and rp2040/chips/:
// the very files make sim runs in Node): the MacroPad's screen, the keypad's
// APA102s and TCA9555 (I2C reads answered from the keys held), the Keybow's
// IS31FL3731. The LEDs shown are what those chips decoded.

import { BOARDS, makeChips, transfers } from "./rp2040/boards.mjs";

const TAP_MS = 100; // a tap holds its cell this long, as the key scans see it (the firmware debounces 25 ms)
const GAP_MS = 40; // a tap on a key still held from the last one waits this long let go, on the scans' clock
const LONG_EXTRA_MS = 300; // Space holds the centre this much past the long-press time
const CENTRE = 4;
const DIGITS = "012345678"; // key n is cell n, as the console and the docs number them
const LETTERS = "qweasdzxc"; // or the letters, in the same 3x3 on a keyboard
const CONSOLE_LINES = 500;
const NARRATION = "> "; // the firmware's narration lines start so (narrate.py)
const CAPTION_LINES = 5; // the caption shows the last few
const FKEYS = { m: "menu", h: "hint", u: "undo" }; // keys of the keyboard for the function keys
const FKEY_ROLES = Object.values(FKEYS);
const DETENT_DEG = 18; // the MacroPad's dial: 20 detents a turn
const SCREEN_ON = [232, 240, 255]; // a lit pixel of the white OLED
// Where a 4x4 board's key k (LED k is under it) sits, counted across each
// row from the top left: the keypad's row by row, the Keybow's with its USB
// connector at the top (SW0 at the bottom left, up each column), as make
// sim draws them.
const PLACE = {
  "pico-rgb-keypad": (k) => k,
  keybow2040: (k) => 4 * (3 - (k % 4)) + (k >> 2),
};
// The maker's name printed on the board
const SILK = {
  macropad: "Adafruit MacroPad RP2040",
  "pico-rgb-keypad": "Pimoroni Pico RGB Keypad Base",
  keybow2040: "Pimoroni Keybow 2040",
};

const cells = [...document.querySelectorAll("#grid .cell")];
const consoleEl = document.getElementById("console");
const captionEl = document.getElementById("caption");
const statusEl = document.getElementById("status");
const picker = document.getElementById("board-picker");
const soundButton = document.getElementById("sound");
const boardEl = document.getElementById("board");
const screenEl = document.getElementById("screen");
const roleEls = Object.fromEntries([...document.querySelectorAll("[data-role]")].map((el) => [el.dataset.role, el]));
const spareEls = [...document.querySelectorAll(".spare .cell")];

// What tests and curious people can look at (window.board).
const board = {
  ready: false, // the firmware's loop is running
  frames: 0, // LED frames latched since power-on
  lines: [], // the console, line by line: the last CONSOLE_LINES of it
  dropped: 0, // lines dropped from the front of lines: line n of the page's console is lines[n - dropped]
  progress: 0, // ms the board has run since the page opened, as its key scans see it (below)
  caption: [], // the caption: the narration's last lines, without "> "
  leds: Array.from({ length: 9 }, () => [0, 0, 0]), // each cell's pixel (r, g, b), 0-255
  keyLeds: {}, // role of an extra key -> its pixel (r, g, b), on boards with extra keys
  hardware: null, // the bought board the config is for (boards.mjs: "macropad"), or null
  sh1106: null, // the screen's controller (chips/sh1106.mjs) this power-on, on a board with a screen
  bus: null, // the chips behind machine.SPI / I2C this power-on (boards.mjs transfers), on a bought board
  pixels: [], // each LED's [r, g, b, brightness 0-31] as the APA102s or the IS31FL3731 decoded it
  encoder: null, // the dial (chips/encoder.mjs), on a board with one
  turn: (n) => turn(n),
  flash: new Map(), // the board's flash while it is off: name -> bytes (writeFile changes it)
  boards: {}, // shipped config name -> board.json bytes
  boardName: null,
  record: window.recordFrames ? [] : null, // every frame's leds, when a test asks first
  timings: {}, // ms since navigation, at the first power-on: "files" fetched, "frame" loaded, "interpreter", "firstFrame"
  tone: 0, // what the buzzer plays now (Hz; 0 is silence)
  tones: 0, // notes the buzzer has started
  audio: () => audio?.state ?? "off", // the Web Audio context's state: sound on is "running"
  powerCycle: () => powerCycle(),
  writeFile: (name, data) => writeFile(name, data),
  readFile: (name) => (frame?.contentWindow.readFile?.(name) ?? board.flash.get(name) ?? null),
  pick: (name) => pick(name),
};
window.board = board;

let wiring = null; // the board's wiring, as the firmware's config reads it
let hw = {}; // name -> bytes of the hardware doubles (hw/)
let generation = 0; // bumps at each power-on: an old interpreter's calls are ignored

// --- the console ---------------------------------------------------------

function say(line) {
  board.lines.push(line);
  const over = board.lines.length - CONSOLE_LINES;
  if (over > 0) {
    board.lines.splice(0, over);
    board.dropped += over;
  }
  const atEnd = consoleEl.scrollTop + consoleEl.clientHeight >= consoleEl.scrollHeight - 4;
  consoleEl.append(line + "\n");
  while (consoleEl.childNodes.length > CONSOLE_LINES) consoleEl.firstChild.remove();
  if (atEnd) consoleEl.scrollTop = consoleEl.scrollHeight;
  if (line.startsWith(NARRATION)) caption(line.slice(NARRATION.length).trim());
}

// The caption beside the board: what the narration said last, newest at
// the bottom (a polite live region: a screen reader reads each new line).
function caption(text) {
  board.caption.push(text);
  if (board.caption.length > CAPTION_LINES) board.caption.shift();
  const li = document.createElement("li");
  li.textContent = text;
  captionEl.append(li);
  while (captionEl.children.length > CAPTION_LINES) captionEl.firstElementChild.remove();
}

// --- fingers: the cells held -----------------------------------------------

// Keys by their bit in held()'s mask: 0-8 the cells, 9 + j the config's
// extra key j (the MacroPad's Menu, Hint and Undo keys and the dial's
// push switch), set for each board as it boots.
const keyEls = new Map(cells.map((el, cell) => [cell, el]));

// bit -> {down, hold, seen, last, up, next}. A press counts from the first
// time the firmware's key scan sees it, not from the click: a tap stays
// held until the scans have seen it held for ``hold`` ms of their own time
// (and while ``down``), so a page starved of CPU, scanning late, still
// debounces it as a tap rather than losing it. Let go, the key stays let go
// until the scans have seen that for GAP_MS (from ``up``), past the
// debounce: a press meanwhile waits as ``next``. A quick double tap is two
// taps to the firmware, never one long one.
const fingers = new Map();

// Hold key ``bit`` for ``holdMs`` at least, and while ``down`` until release().
function press(bit, holdMs = TAP_MS, down = true) {
  if (bit === undefined) return; // a key this board lacks
  const f = { down, hold: holdMs, seen: undefined, last: undefined, next: null };
  let prev = fingers.get(bit);
  if (prev === undefined) fingers.set(bit, f);
  else {
    while (prev.next) prev = prev.next;
    prev.next = f;
  }
  keyEls.get(bit)?.classList.add("held");
}

function release(bit) {
  let f = fingers.get(bit);
  while (f?.next) f = f.next;
  if (f) f.down = false;
}

let lastScan = null; // when the last key scan read the keys
let scanned = null; // what this scan read: every read of one scan gets the same mask

// The firmware's key scan (every scan_ms) reads each key's pin, and each
// read asks here for the mask of keys a finger is on. A scan's reads are
// one synchronous run of the interpreter, so the mask is worked out at its
// first read and kept until the page's event loop turns (a microtask): a
// key never changes halfway through a scan. Each pause between scans adds
// to board.progress, at most scan_ms: a page starved of CPU, scanning
// late, makes progress slower than the board's own clock, never faster.
function held() {
  if (scanned === null) {
    scanned = scan();
    queueMicrotask(() => (scanned = null));
  }
  return scanned;
}

function scan() {
  const now = performance.now();
  let mask = 0;
  if (lastScan !== null) board.progress += Math.min(now - lastScan, wiring?.timing.scan_ms ?? 5);
  lastScan = now;
  for (const [bit, f] of fingers) {
    if (f.seen === undefined) f.seen = f.last = now;
    if (f.down || f.last - f.seen < f.hold) {
      mask |= 1 << bit;
      f.last = now;
    } else {
      f.up ??= now; // let go: the scans see it so for GAP_MS, before a next press
      if (now - f.up >= GAP_MS) {
        if (f.next) fingers.set(bit, f.next);
        else fingers.delete(bit);
      }
      if (!f.next) keyEls.get(bit)?.classList.remove("held");
    }
  }
  return mask;
}

// The bit of a key element: its cell, or its extra key's (data-bit, set at boot).
function bitOf(el) {
  if (!el.dataset.role) return cells.indexOf(el);
  return el.dataset.bit === undefined ? undefined : Number(el.dataset.bit);
}

for (const el of [...cells, ...Object.values(roleEls)]) {
  el.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    el.setPointerCapture?.(e.pointerId);
    press(bitOf(el));
  });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
    el.addEventListener(type, () => release(bitOf(el)));
  }
  el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is a long press
  el.addEventListener("click", (e) => {
    if (e.detail === 0) press(bitOf(el), TAP_MS, false); // Enter or Space on a focused key (no pointer): a tap
  });
}

const keysDown = new Map(); // key -> cell it holds
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.target instanceof HTMLSelectElement) return;
  const key = e.key.toLowerCase();
  let cell = DIGITS.indexOf(e.key) >= 0 && e.key.length === 1 ? DIGITS.indexOf(e.key) : LETTERS.indexOf(key);
  if (key.length !== 1) cell = -1;
  if (cell >= 0) {
    e.preventDefault();
    if (!e.repeat) {
      keysDown.set(key, cell);
      press(cell);
    }
  } else if (key === " " && !(e.target instanceof HTMLButtonElement)) {
    e.preventDefault();
    if (!e.repeat && wiring) press(CENTRE, wiring.timing.long_press_ms + LONG_EXTRA_MS, false);
  } else if (key === "r" && !e.repeat) {
    e.preventDefault();
    powerCycle();
  } else if (wiring?.encoder && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    e.preventDefault();
    turn(e.key === "ArrowRight" ? 1 : -1); // held down, the key repeats: a detent each
  } else if (roleEls.select.dataset.bit !== undefined && (e.key === "ArrowDown" || (e.key === "Enter" && !(e.target instanceof HTMLButtonElement)))) {
    e.preventDefault();
    if (!e.repeat) {
      keysDown.set(key, bitOf(roleEls.select));
      press(bitOf(roleEls.select));
    }
  } else if (FKEYS[key] && roleEls[FKEYS[key]].dataset.bit !== undefined) {
    e.preventDefault();
    if (!e.repeat) {
      keysDown.set(key, bitOf(roleEls[FKEYS[key]]));
      press(bitOf(roleEls[FKEYS[key]]));
    }
  }
});
document.addEventListener("keyup", (e) => {
  const key = e.key.toLowerCase();
  if (keysDown.has(key)) {
    release(keysDown.get(key));
    keysDown.delete(key);
  }
});

// --- the LEDs --------------------------------------------------------------

// A pixel's value is PWM duty: light in proportion to it. The screen's
// sRGB values are not: encode the light as sRGB does, so a pixel at 64 of
// 255 looks a quarter as bright as one at 255, as on the board.
function toScreen(v) {
  const l = v / 255;
  const s = l <= 0.0031308 ? 12.92 * l : 1.055 * Math.pow(l, 1 / 2.4) - 0.055;
  return Math.round(255 * s);
}

function fromHex(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return bytes;
}

function light(el, rgb) {
  el.style.setProperty("--led", `rgb(${rgb.map(toScreen).join(" ")})`);
  el.style.setProperty("--glow", (Math.max(...rgb) / 255).toFixed(3));
  el.dataset.rgb = rgb.join(",");
}

function showLeds(hex) {
  const bytes = fromHex(hex);
  const pick = [..."RGB"].map((ch) => wiring.leds.colour_order.indexOf(ch));
  lightAll((p) => pick.map((k) => bytes[3 * p + k]));
}

// LEDs a chip decoded (APA102 frames, IS31FL3731 registers): each at its
// 5-bit brightness.
function chipLeds() {
  const px = (board.pixels = board.bus.pixels());
  lightAll((p) => (px[p] ? px[p].slice(0, 3).map((v) => Math.floor((v * px[p][3]) / 31)) : [0, 0, 0]));
}

// Each cell and extra key lit as pixel(p) says its LED p shows.
function lightAll(pixel) {
  if (!wiring) return;
  const order = wiring.leds.order;
  const leds = (board.leds = []);
  for (let cell = 0; cell < 9; cell++) {
    leds[cell] = pixel(order[cell]);
    light(cells[cell], leds[cell]);
  }
  // The extra keys' pixels (the MacroPad's top row), by role
  board.keyLeds = {};
  for (const e of wiring.extra) {
    if (e.led === null || e.led === undefined || !roleEls[e.role]) continue;
    board.keyLeds[e.role] = pixel(e.led);
    light(roleEls[e.role], board.keyLeds[e.role]);
  }
  // The keys the game leaves unused (the 4x4 boards' bottom row), by their LED
  for (const el of spareEls) if (el.dataset.led !== undefined) light(el, pixel(Number(el.dataset.led)));
  board.record?.push(board.leds);
  board.frames++;
  if (board.frames === 1) {
    board.timings.firstFrame = Math.round(performance.now());
    statusEl.textContent = "";
  }
}

// --- the buses: the chips' models fed what machine.SPI / I2C sent ----------

let drawPending = false;
let drawn = -1; // the model's version last drawn

function busSpi(bus, sck, mosi, hex, oe, out) {
  if (!board.bus) return;
  const changed = board.bus.spi(bus, sck, mosi, fromHex(hex), oe, out);
  if (changed.includes("leds")) chipLeds();
  const sh = board.sh1106;
  if (sh && !drawPending && sh.version !== drawn) {
    drawPending = true;
    requestAnimationFrame(drawScreen);
  }
}

// One I2C transaction: the bytes read as hex, or "-" when nothing acknowledged.
function busI2c(bus, sda, scl, address, hex, nread, keys) {
  if (!board.bus) return "-";
  const r = board.bus.i2c(bus, sda, scl, address, fromHex(hex), nread, keys);
  if (r.changed.includes("leds")) chipLeds();
  return r.ack ? r.data.map((v) => v.toString(16).padStart(2, "0")).join("") : "-";
}

// The glass: the model's visible pixels, dark while the panel is off, as
// bright as its contrast.
function drawScreen() {
  drawPending = false;
  const sh = board.sh1106;
  const ctx = screenEl.getContext("2d");
  const img = ctx.createImageData(128, 64);
  if (sh) {
    drawn = sh.version;
    const { on, contrast, inverted, allOn } = sh.state();
    const px = sh.visible();
    const k = 0.45 + (0.55 * contrast) / 255;
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < 128; x++) {
        let lit = allOn || (((px[(y >> 3) * 128 + x] >> (y & 7)) & 1) === 1);
        if (inverted && !allOn) lit = !lit;
        const i = 4 * (y * 128 + x);
        for (let c = 0; c < 3; c++) img.data[i + c] = on && lit ? Math.round(SCREEN_ON[c] * k) : 0;
        img.data[i + 3] = 255;
      }
    }
  }
  ctx.putImageData(img, 0, 0);
}

// --- the dial: the emulator's encoder model, one edge per key scan --------

// The firmware polls the dial's two switches at each key scan: the model
// moves on one quadrature edge once both have been read at the present one,
// so no edge is lost however late the scans come.
let readA = false;
let readB = false;

function encoderLevel(pin) {
  const enc = board.encoder;
  if (!enc) return 1;
  const part = BOARDS[board.hardware].encoder; // the part's A and B switches: GPIOs
  if (enc.busy && readA && readB) {
    enc.step();
    readA = readB = false;
  }
  if (pin === part.a) readA = true;
  if (pin === part.b) readB = true;
  if (pin !== part.a && pin !== part.b) return 1; // nothing there: the pull-up
  return (pin === part.a ? enc.a : enc.b) ? 1 : 0;
}

function turn(n) {
  if (!board.encoder || !n) return;
  board.encoder.turn(n);
  const knob = document.getElementById("knob");
  const deg = (Number(knob.dataset.deg || 0) + n * DETENT_DEG) % 360;
  knob.dataset.deg = deg;
  knob.style.setProperty("--turn", deg + "deg");
}

// Drag round the knob to turn it; the wheel over it turns it too.
(() => {
  const knob = document.getElementById("knob");
  let last = null;
  let acc = 0;
  const angle = (e) => {
    const r = knob.getBoundingClientRect();
    return (Math.atan2(e.clientY - (r.top + r.height / 2), e.clientX - (r.left + r.width / 2)) * 180) / Math.PI;
  };
  knob.addEventListener("pointerdown", (e) => {
    if (e.target !== knob) return; // the cap in the middle is the push switch
    e.preventDefault();
    knob.setPointerCapture?.(e.pointerId);
    last = angle(e);
    acc = 0;
  });
  knob.addEventListener("pointermove", (e) => {
    if (last === null) return;
    const a = angle(e);
    acc += ((a - last + 540) % 360) - 180;
    last = a;
    while (Math.abs(acc) >= DETENT_DEG) {
      const n = Math.sign(acc);
      turn(n);
      acc -= n * DETENT_DEG;
    }
  });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) knob.addEventListener(type, () => (last = null));
  knob.addEventListener("wheel", (e) => {
    e.preventDefault();
    turn(e.deltaY > 0 ? 1 : -1);
  }, { passive: false });
  document.getElementById("dial-left").addEventListener("click", () => turn(-1));
  document.getElementById("dial-right").addEventListener("click", () => turn(1));
})();

// --- the board's shape, from its wiring ------------------------------------

// The MacroPad (a screen, extra keys, a dial), a 4x4 board (its keys where
// they are, the unused ones too) or the grid alone, from a config (as
// shipped, or as the firmware's config reads it).
function layOut(cfg) {
  const pad = Boolean(cfg.screen);
  const fkeys = (cfg.extra ?? []).some((e) => FKEY_ROLES.includes(e.role)); // the keypad's, the Keybow's too
  const place = PLACE[cfg.board];
  boardEl.classList.toggle("pad", pad || fkeys);
  boardEl.classList.toggle("four", Boolean(place));
  for (const el of document.querySelectorAll(".pad-only")) el.hidden = !pad;
  for (const el of document.querySelectorAll(".fkeys-only")) el.hidden = !fkeys;
  for (const el of document.querySelectorAll(".four-only")) el.hidden = !place;
  document.querySelector(".fkeys").hidden = !fkeys;
  const silk = document.getElementById("silk");
  silk.textContent = SILK[cfg.board] ?? "";
  silk.hidden = !SILK[cfg.board];
  // On a 4x4 board each key in its row and column, the LED under it its own
  const at = (el, led) => (el.style.gridArea = place && led !== undefined && led !== null
    ? `${(place(led) >> 2) + 1} / ${(place(led) % 4) + 1}` : "");
  const used = new Set();
  cells.forEach((el, cell) => {
    at(el, cfg.leds.order[cell]);
    used.add(cfg.leds.order[cell]);
  });
  for (const e of cfg.extra ?? []) {
    if (roleEls[e.role]) at(roleEls[e.role], e.led);
    used.add(e.led);
  }
  const spare = place ? [...Array(16).keys()].filter((led) => !used.has(led)) : [];
  document.querySelector(".spare").hidden = spare.length === 0;
  spareEls.forEach((el, i) => {
    el.hidden = i >= spare.length;
    if (i < spare.length) el.dataset.led = spare[i];
    else delete el.dataset.led;
    at(el, spare[i]);
    light(el, [0, 0, 0]);
  });
  for (const el of Object.values(roleEls)) {
    delete el.dataset.bit;
    light(el, [0, 0, 0]);
  }
  (cfg.extra ?? []).forEach((e, j) => {
    if (roleEls[e.role]) roleEls[e.role].dataset.bit = 9 + j;
  });
  keyEls.clear();
  cells.forEach((el, cell) => keyEls.set(cell, el));
  for (const el of Object.values(roleEls)) if (el.dataset.bit !== undefined) keyEls.set(Number(el.dataset.bit), el);
}

// --- the buzzer (Web Audio, off until the player turns it on) --------------

let audio = null;
let osc = null;
let gain = null;
let lastTone = 0;

function tone(hz) {
  lastTone = hz;
  board.tone = hz;
  if (hz > 0) board.tones++;
  if (!audio) return;
  if (hz > 0) {
    osc.frequency.setValueAtTime(hz, audio.currentTime);
    gain.gain.setTargetAtTime(0.04, audio.currentTime, 0.003);
  } else {
    gain.gain.setTargetAtTime(0, audio.currentTime, 0.003);
  }
}

soundButton.addEventListener("click", () => {
  const on = soundButton.getAttribute("aria-pressed") !== "true";
  if (on) {
    audio = new AudioContext();
    osc = audio.createOscillator();
    gain = audio.createGain();
    osc.type = "square"; // a piezo's
    gain.gain.value = 0;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    tone(lastTone);
  } else if (audio) {
    audio.close();
    audio = osc = gain = null;
  }
  soundButton.setAttribute("aria-pressed", String(on));
  soundButton.textContent = on ? "sound: on" : "sound: off";
});

// --- power ------------------------------------------------------------------

async function fetchBytes(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

let frame = null; // the iframe the running interpreter lives in (engine.html)

function powerOff() {
  generation++;
  if (!frame) return;
  const files = frame.contentWindow.powerOff?.();
  if (files) {
    // The flash keeps what the firmware wrote (or removed), as a board's does.
    board.flash = new Map(files);
  }
  frame.remove();
  frame = null;
  board.ready = false;
  board.sh1106 = board.encoder = board.bus = null;
  tone(0);
}

// A new frame for an interpreter: it starts loading MicroPython at once.
function newFrame() {
  const f = document.createElement("iframe");
  f.src = "engine.html";
  f.hidden = true;
  f.title = "the board's interpreter";
  const loaded = new Promise((resolve) => f.addEventListener("load", resolve, { once: true }));
  document.body.append(f);
  return { f, loaded };
}

async function powerOn(made = newFrame()) {
  const mine = ++generation;
  const live = (f) => (...args) => (mine === generation ? f(...args) : undefined);
  board.frames = 0;
  // The board's chips, fresh at power-on: the parts the config says it has
  // (those of boards.mjs: a board of loose parts has none)
  const cfg = JSON.parse(new TextDecoder().decode(board.boards[board.boardName]));
  board.hardware = Object.hasOwn(BOARDS, cfg.board ?? "") ? cfg.board : null;
  const chips = board.hardware ? makeChips(board.hardware) : {};
  board.sh1106 = chips.sh1106 ?? null;
  board.encoder = chips.encoder ?? null;
  board.bus = board.hardware ? transfers(board.hardware, chips, cfg) : null;
  board.pixels = [];
  readA = readB = false;
  layOut(cfg);
  drawScreen();
  const { f, loaded } = made;
  frame = f;
  await loaded;
  board.timings.frame ??= Math.round(performance.now());
  if (mine !== generation) return; // powered off again meanwhile
  try {
    wiring = await f.contentWindow.boot({
      flash: [...board.flash],
      hw: Object.entries(hw),
      boardJson: new TextDecoder().decode(board.boards[board.boardName]),
      say: live(say),
      held: () => (mine === generation ? held() : 0),
      leds: live(showLeds),
      tone: live(tone),
      encoder: (pin) => (mine === generation ? encoderLevel(pin) : 1),
      spi: live(busSpi),
      i2c: (...args) => (mine === generation ? busI2c(...args) : "-"),
      interpreterReady: () => (board.timings.interpreter ??= Math.round(performance.now())),
    });
    if (mine === generation) {
      layOut(wiring);
      board.ready = true;
    }
  } catch (e) {
    if (mine !== generation) return;
    say(String(e.message || e));
    statusEl.textContent = "the firmware stopped: see the console";
    console.error(e);
  }
}

// Write a file to the board's flash: into the running interpreter's
// filesystem, or the flash it boots next.
function writeFile(name, data) {
  if (!frame?.contentWindow.writeFile?.(name, data)) board.flash.set(name, data);
}

async function powerCycle() {
  powerOff();
  say("--- power-cycled ---");
  await powerOn();
}

async function pick(name) {
  if (!Object.hasOwn(board.boards, name)) throw new Error("no board " + name);
  board.boardName = name;
  writeFile("board.json", board.boards[name]);
  picker.value = name;
  const url = new URL(location.href);
  url.searchParams.set("board", name);
  history.replaceState(null, "", url);
  if (frame) await powerCycle();
}

picker.addEventListener("change", () => pick(picker.value));
document.getElementById("power").addEventListener("click", () => powerCycle());

// --- start ------------------------------------------------------------------

async function start() {
  const first = newFrame(); // MicroPython loads while the files come
  const manifest = await (await fetch("manifest.json")).json();
  document.getElementById("mp-version").textContent = `MicroPython ${manifest.micropython}`;
  document.getElementById("build-guide").href = manifest.build_guide;
  const [flash, hwFiles, boards] = await Promise.all([
    Promise.all(manifest.flash.map((n) => fetchBytes("flash/" + n))),
    Promise.all(manifest.hw.map((n) => fetchBytes("hw/" + n))),
    Promise.all(manifest.boards.map((n) => fetchBytes(`boards/${n}.json`))),
  ]);
  board.timings.files ??= Math.round(performance.now());
  manifest.flash.forEach((n, i) => board.flash.set(n, flash[i]));
  manifest.hw.forEach((n, i) => (hw[n] = hwFiles[i]));
  manifest.boards.forEach((n, i) => {
    board.boards[n] = boards[i];
    picker.add(new Option(n, n));
  });
  const asked = new URL(location.href).searchParams.get("board");
  // Only a shipped config's own name: "toString" or "constructor" is in
  // every object, and must fall back like any other unknown name.
  await pick(Object.hasOwn(board.boards, asked ?? "") ? asked : manifest.default_board);
  await powerOn(first);
}

start().catch((e) => {
  statusEl.textContent = "could not start: " + (e.message || e);
  console.error(e);
});
