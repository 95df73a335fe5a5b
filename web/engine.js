// One power-on of the board, in a frame of its own (engine.html): a fresh
// MicroPython WebAssembly interpreter with the board's flash in its
// filesystem. board.js (the page) creates the frame, calls boot() and, to
// power off, calls powerOff() and removes the frame: every timer the
// interpreter set goes with it.
import { loadMicroPython } from "./micropython/micropython.mjs";

let mp = null;
let rom = null;
let out = { say: () => {} };
// The interpreter starts loading as soon as the frame does, while the page
// is still fetching the flash's files.
const loading = loadMicroPython({ stdout: (l) => out.say(l), stderr: (l) => out.say(l), linebuffer: true });

// opts: {flash: [[name, bytes]], hw: [[name, bytes]], boardJson: text,
//        say(line), held() -> mask, leds(hex), tone(hz), encoder(pin) -> level,
//        spi(bus, sck, mosi, hex, oe, out), i2c(bus, sda, scl, addr, hex, n, held) -> hex or "-"}
// Returns the wiring as the firmware's config reads it (an object).
window.boot = async function boot(opts) {
  out = opts;
  mp = await loading;
  mp.FS.mkdir("/flash");
  mp.FS.mkdir("/hw");
  for (const [name, data] of opts.flash) writeInto(name, data);
  for (const [name, data] of opts.hw) mp.FS.writeFile("/hw/" + name, data);
  mp.FS.chdir("/flash"); // the board's root folder, where main.py looks
  mp.registerJsModule("webbus", {
    held: opts.held, leds: opts.leds, tone: opts.tone, encoder: opts.encoder, spi: opts.spi, i2c: opts.i2c,
  });
  // A board's sys.path ends in /lib, where the firmware's package is: here
  // the flash is /flash, not the root.
  mp.runPython("import sys\nsys.path.append('/flash/lib')\nsys.path.append('/hw')");
  rom = mp.pyimport("rom");
  const wiring = JSON.parse(rom.wire(opts.boardJson));
  opts.interpreterReady?.();
  rom.power_on(); // main.run(): returns once the firmware's loop runs as tasks
  return wiring;
};

// Stop the firmware; returns the flash as it is now ([[name, bytes]]).
window.powerOff = function powerOff() {
  if (!mp) return null;
  try {
    rom?.power_off();
  } catch (e) {
    console.warn(e);
  }
  const files = [];
  const walk = (folder) => {
    for (const name of mp.FS.readdir("/flash/" + folder)) {
      if (name === "." || name === "..") continue;
      const path = folder + name;
      if (mp.FS.isDir(mp.FS.stat("/flash/" + path).mode)) walk(path + "/");
      else files.push([path, mp.FS.readFile("/flash/" + path)]);
    }
  };
  walk("");
  mp = rom = null;
  return files;
};

// Write a flash file, making its folders (lib/tactictoe/...) as needed.
function writeInto(name, data) {
  let folder = "/flash";
  for (const part of name.split("/").slice(0, -1)) {
    folder += "/" + part;
    if (!mp.FS.analyzePath(folder).exists) mp.FS.mkdir(folder);
  }
  mp.FS.writeFile("/flash/" + name, data);
}

// A file written to the flash while the board runs (as mpremote cp does);
// false if there is no interpreter (yet).
window.writeFile = function writeFile(name, data) {
  if (!mp) return false;
  writeInto(name, data);
  return true;
};

// A file from the flash as it is now, or null.
window.readFile = function readFile(name) {
  try {
    return mp ? mp.FS.readFile("/flash/" + name) : null;
  } catch {
    return null;
  }
};
