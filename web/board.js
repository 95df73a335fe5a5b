// The board in a browser: the firmware's own files in MicroPython's
// WebAssembly port, with this page as the board's pins, LEDs and buzzer
// (docs/web.md). The page knows nothing of the game: it boots main.py, reads
// the LED chain's bytes and holds the cells a finger is on.

const TAP_MS = 100; // a tap holds its cell this long, as the key scans see it (the firmware debounces 25 ms)
const LONG_EXTRA_MS = 300; // Space holds the centre this much past the long-press time
const CENTRE = 4;
const NUMPAD = "789456123"; // cell 0 is the top left, as on a number pad
const LETTERS = "qweasdzxc";
const CONSOLE_LINES = 500;

const cells = [...document.querySelectorAll(".cell")];
const consoleEl = document.getElementById("console");
const statusEl = document.getElementById("status");
const picker = document.getElementById("board-picker");
const soundButton = document.getElementById("sound");

// What tests and curious people can look at (window.board).
const board = {
  ready: false, // the firmware's loop is running
  frames: 0, // LED frames latched since power-on
  lines: [], // the console, line by line
  leds: Array.from({ length: 9 }, () => [0, 0, 0]), // each cell's pixel (r, g, b), 0-255
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
  if (board.lines.length > CONSOLE_LINES) board.lines.splice(0, board.lines.length - CONSOLE_LINES);
  const atEnd = consoleEl.scrollTop + consoleEl.clientHeight >= consoleEl.scrollHeight - 4;
  consoleEl.append(line + "\n");
  while (consoleEl.childNodes.length > CONSOLE_LINES) consoleEl.firstChild.remove();
  if (atEnd) consoleEl.scrollTop = consoleEl.scrollHeight;
}

// --- fingers: the cells held -----------------------------------------------

// cell -> {down, hold, seen, last}. A press counts from the first time the
// firmware's key scan sees it, not from the click: a tap stays held until
// the scans have seen it held for ``hold`` ms of their own time (and while
// ``down``), so a page starved of CPU, scanning late, still debounces it as
// a tap rather than losing it.
const fingers = new Map();

// Hold ``cell`` for ``holdMs`` at least, and while ``down`` until release().
function press(cell, holdMs = TAP_MS, down = true) {
  fingers.set(cell, { down, hold: holdMs, seen: undefined, last: undefined });
  cells[cell].classList.add("held");
}

function release(cell) {
  const f = fingers.get(cell);
  if (f) f.down = false;
}

// The firmware's scan (every 5 ms): the mask of cells a finger is on.
function held() {
  const now = performance.now();
  let mask = 0;
  for (const [cell, f] of fingers) {
    if (f.seen === undefined) f.seen = f.last = now;
    if (f.down || f.last - f.seen < f.hold) {
      mask |= 1 << cell;
      f.last = now;
    } else {
      fingers.delete(cell);
      cells[cell].classList.remove("held");
    }
  }
  return mask;
}

cells.forEach((el, cell) => {
  el.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    el.setPointerCapture?.(e.pointerId);
    press(cell);
  });
  for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
    el.addEventListener(type, () => release(cell));
  }
  el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is a long press
  el.addEventListener("click", (e) => {
    if (e.detail === 0) press(cell, TAP_MS, false); // Enter or Space on a focused cell (no pointer): a tap
  });
});

const keysDown = new Map(); // key -> cell it holds
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.target instanceof HTMLSelectElement) return;
  const key = e.key.toLowerCase();
  let cell = NUMPAD.indexOf(e.key) >= 0 && e.key.length === 1 ? NUMPAD.indexOf(e.key) : LETTERS.indexOf(key);
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

function showLeds(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  const order = wiring.leds.order;
  const pick = [..."RGB"].map((ch) => wiring.leds.colour_order.indexOf(ch));
  const leds = (board.leds = []);
  for (let cell = 0; cell < 9; cell++) {
    const p = 3 * order[cell];
    const rgb = pick.map((k) => bytes[p + k]);
    leds[cell] = rgb;
    const el = cells[cell];
    el.style.setProperty("--led", `rgb(${rgb.map(toScreen).join(" ")})`);
    el.style.setProperty("--glow", (Math.max(...rgb) / 255).toFixed(3));
    el.dataset.rgb = rgb.join(",");
  }
  board.record?.push(board.leds);
  board.frames++;
  if (board.frames === 1) {
    board.timings.firstFrame = Math.round(performance.now());
    statusEl.textContent = "";
  }
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
      interpreterReady: () => (board.timings.interpreter ??= Math.round(performance.now())),
    });
    if (mine === generation) board.ready = true;
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
