"""A bought board's chips for the Unix-port virtual board: the SH1106, the
encoder, the APA102s, the TCA9555 and the IS31FL3731 as the web page and
the emulated RP2040 model them (``simulator/rp2040/chips/*.mjs``), run by
Node in ``simulator/chipserver.mjs``, one request and one answer a line.

``VirtualBoard`` hands each transfer the board's ``machine.SPI`` /
``machine.I2C`` made to ``Chips``, in the order the board made them, and
waits for the answer: what the chips show depends only on what they were
sent, so a replay's frames are the same on every run.
"""

import json
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = os.path.join(ROOT, "simulator", "chipserver.mjs")


class Chips:
    """The chips of ``hardware`` (a bought board of ``board.BOUGHT``), for
    the config ``cfg`` (a validated board.json: the expander's keys). Fresh,
    as at power-on, until ``power_on()`` makes them fresh again.

    :param error: the exception raised, with one line, when Node is missing
        or stops (the caller's: ``board.SimError``).
    :param preexec_fn: run in the child before Node starts (the caller's
        ``board.die_with_parent``)."""

    def __init__(self, hardware, cfg, error=RuntimeError, preexec_fn=None):
        self.error = error
        node = shutil.which("node")
        if node is None:
            raise error("Node.js 20 or newer is needed for the %s's chips (node not found): install it"
                        " (apt-get install nodejs, or https://nodejs.org)" % cfg["name"])
        self.proc = subprocess.Popen([node, SERVER, hardware, json.dumps(cfg)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, cwd=ROOT, preexec_fn=preexec_fn)
        self.spec = self.ask(op="spec")

    def ask(self, **request):
        """One request, its answer (a dict); SimError if Node has gone."""
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = b""
        if not line:
            raise self.error("the chips' model (node %s) stopped, status %s" % (SERVER, self.proc.poll()))
        return json.loads(line)

    def power_on(self):
        """Every chip as at power-on."""
        self.ask(op="power")

    def spi(self, bus, sck, mosi, data, oe, out):
        """Bytes clocked out of SPI ``bus``: the names of what changed
        (``screen``, ``leds``)."""
        return self.ask(op="spi", bus=bus, sck=sck, mosi=mosi, oe=oe, out=out, data=data.hex())["changed"]

    def i2c(self, bus, sda, scl, address, write, nread, held):
        """One transaction: ``(data read or None without an acknowledge,
        names of what changed)``."""
        r = self.ask(op="i2c", bus=bus, sda=sda, scl=scl, address=address, write=write.hex(), read=nread,
                     held=held)
        return (bytes.fromhex(r["data"]) if r["ack"] else None), r["changed"]

    def glass(self):
        """``(the SH1106's 128x64 glass, 1024 bytes, its state)``, or
        ``(None, {})`` without a screen."""
        r = self.ask(op="glass")
        return (bytes.fromhex(r["glass"]), r["state"]) if "glass" in r else (None, {})

    def pixels(self):
        """Each LED's ``(r, g, b, brightness 0-31)`` as the chip decoded it."""
        return [tuple(p) for p in self.ask(op="pixels")["pixels"]]

    def turn(self, detents):
        """The encoder's ``(a, b)`` switch levels, edge by edge, for
        ``detents`` clicks (negative: anticlockwise); True is open."""
        return [tuple(s) for s in self.ask(op="turn", n=detents)["steps"]]

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
