# A MacroPad-like board's game flow (panel.PanelApp: function keys, encoder,
# screen) driven through loop.Runner on a synthetic clock, with a hardware
# double that prints each new screen; runs under MicroPython and CPython,
# whose outputs must match. Then, under gc.disable(), how many bytes the
# LED frames, the screen's lines and the narration's check take while
# nothing changes (the menu, the board thinking, your move with hints):
# "alloc <where> <bytes>".
# Usage: panel_flow.py CLASSIC_TBL TACTICTOE_TBL
import gc
import sys

from tactictoe import ai, config, loop, table

cfg = config.validate(config.DEFAULT)
cfg["extra"] = [{"role": "menu"}, {"role": "hint"}, {"role": "undo"}, {"role": "select"}]
cfg["encoder"] = {"pins": [18, 17]}
cfg["screen"] = {"kind": "sh1106"}


class Hw:
    screen = "sh1106"

    def __init__(self):
        self.held = 0
        self.detents = 0
        self.lines = None

    def scan(self):
        return self.held

    def turns(self):
        n = self.detents
        self.detents = 0
        return n

    def show(self, canvas):
        pass

    def text(self, lines):
        if lines is not self.lines:
            self.lines = lines
            print("|".join(lines))

    def tone(self, freq):
        pass


hw = Hw()
tables = {0: table.Table(sys.argv[1], 0), 1: table.Table(sys.argv[2], 1)}
runner = loop.build(hw, cfg, tables, {}, None, ai.Rng(5), lambda line: print("log", line))
clock = [0]


def run(ms):
    end = clock[0] + ms
    while clock[0] < end:
        clock[0] += 5
        runner.scan(clock[0])
        runner.step(clock[0])
        if clock[0] % 20 < 5:
            runner.draw(clock[0])


def press(key):
    hw.held = 1 << key
    run(80)
    hw.held = 0
    run(60)


def alloc(where, frames=50):
    if not hasattr(gc, "mem_alloc"):  # CPython
        return
    app = runner.app
    app.frame(clock[0])
    app.text(clock[0])
    runner.narrator.update()
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    narrator = runner.narrator
    narrator.update()
    for i in range(frames):
        app.frame(clock[0] + i)
        app.text(clock[0] + i)
        narrator.update()  # (the console's narration: nothing new to say)
    print("alloc", where, gc.mem_alloc() - before)
    gc.enable()


run(2000)
while runner.walk is not None:  # the tables' background check, done
    run(100)
alloc("menu")
hw.detents = -1  # tactic-toe -> classic (the dial: classic, tactic-toe, puzzles, score)
run(30)
press(12)  # select: classic
press(0)  # you are X
hw.detents = -1
run(30)
press(12)  # perfect -> medium
press(5)  # hints on
press(4)
alloc("thinking")
run(1000)
alloc("hints")
press(10)  # hide the hints
alloc("your move")
press(0)
run(1000)
press(11)  # take back
press(9)  # menu
print("done")
