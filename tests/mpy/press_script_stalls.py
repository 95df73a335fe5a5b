"""The virtual board's press script (simulator/simbus.py) against the
firmware's own debouncer (tactictoe/keys.py), on a clock that stalls
anywhere: between two key scans, and between two reads of one scan (after
the scan took its time). Each trial taps six random cells through the
script, scans the nine pins as a Pico's buttons do, and counts a trial
whose taps the debouncer did not send, in order, without a long press in
between (one frozen for 1.5 s with a finger down is a long press, on a
board too: those are counted apart).

argv: SIMULATOR_DIR TRIALS MODE: "scans" the script reads the scans' clock,
as the ROM runs it (simtime); "reads" the rule before it, each read's own
time, uncapped (to show the trials can fail). Prints "lost N long M of
TRIALS"."""

import sys

sys.path.append(sys.argv[1])
import random  # noqa: E402

import simbus  # noqa: E402
from tactictoe.keys import Keys, LONG, TAP, CELL  # noqa: E402

SCAN_MS = 5
TRIALS = int(sys.argv[2])
SCANS = sys.argv[3] == "scans"
if not SCANS:
    simbus.SCAN_GAP_MS = 1 << 29


class Out:
    def write(self, data):
        pass


simbus._out = Out()  # its "Q" (a command done) goes nowhere


def stall():
    """A pause before a read or a scan: mostly none, now and then a long one."""
    r = random.getrandbits(8)
    if r < 240:
        return 0
    return random.getrandbits(9) % 400  # under 1.5 s, the long press, with a tap on top


def trial():
    simbus._script.clear()
    simbus._tapped = simbus._reads = simbus._done = 0
    simbus._last_scan = 0
    simbus.clock_read = None
    cells = [random.getrandbits(4) % 9 for _ in range(6)]
    for c in cells:  # as the host's "P" does
        simbus._script.append([c, 100, None, 0])
        simbus._script.append([-1, simbus.GAP_MS, None, 0])
    keys = Keys()
    got = []
    t = 0
    quiet = 0  # scans after the script ended, for the debouncer to settle
    while quiet < 20:
        now = t  # the scan's time (the firmware reads its clock, then the pins)
        if SCANS:
            simbus.clock_read = now
        raw = 0
        for pin in range(9):
            t += stall()
            if simbus._script:  # (as held() does)
                simbus.script(t, 1)
            raw |= (simbus._tapped >> pin & 1) << pin
        keys.update(now, raw)
        e = keys.get()
        while e:
            got.append(e)
            e = keys.get()
        t += SCAN_MS + stall()
        if not simbus._script:
            quiet += 1
    if any(e & LONG for e in got):
        return "long"
    return "ok" if [e & CELL for e in got if e & TAP] == cells else "lost"


random.seed(1)
count = {"ok": 0, "lost": 0, "long": 0}
for _ in range(TRIALS):
    count[trial()] += 1
print("lost %d long %d of %d" % (count["lost"], count["long"], TRIALS))
