"""Bring-up checks for a board being built, run from the REPL:

    .venv/bin/mpremote connect /dev/ttyACM0 exec "from tactictoe import check; check.keys()"

``keys()`` prints the cells held each time that changes, ``touch()`` the
touch pads' raw readings, ``leds()`` lights the pixels one at a time in the
order of the chain, ``tables()`` proves the tables on the flash right, record
by record (as ``make flash`` does before it copies them). Each opens ``board.json`` and the hardware layer as the
game does. The game never imports this module, and unlike the game these
checks sleep between readings: they are for a person at the REPL.
"""

from time import sleep  # seconds; a float on every runtime

from .loop import ticks_diff, ticks_ms  # the game's clock, on any runtime


def _config():
    """The board's config, as at power-on (saying what is wrong with it)."""
    from . import config
    from . import startup

    cfg, problem = config.load("board.json", startup.platform())
    if problem:
        print("config: " + problem)
    return cfg


def _open(cfg):
    """The hardware layer for ``cfg``, as at power-on."""
    from . import startup

    if cfg["input"]["kind"] == "touch":
        print("calibrating the touch pads: keep fingers off them")
    return startup.open_hardware(cfg)


def _cells(mask):
    return " ".join(str(c) for c in range(9) if mask >> c & 1)


def _pads(hw):
    """The layer's calibrated ``touchpads.TouchPads``, or None."""
    pads = getattr(hw, "_pads", None)
    return pads if hasattr(pads, "baseline") else None


def _row(name, values, marks=None):
    return "%-9s" % name + "".join("%6d%s" % (v, marks[i] if marks else " ") for i, v in enumerate(values))


def _pad_table(cfg, pads):
    # Trip levels are the ones TouchPads.scan() compares with (its _limit).
    inp = cfg["input"]
    print("touch pads: a reading %s its trip level is a touch (input.threshold %s)"
          % ("above" if pads.rises else "below", inp["threshold"]))
    print(_row("cell", range(9)))
    print(_row("GPIO", inp["pins"]))
    print(_row("baseline", pads.baseline))
    print(_row("trip", pads._limit))


def keys(seconds=30):
    """Print the cells held each time that changes, for ``seconds`` or until
    Ctrl-C, then the cells never seen pressed. Touch boards also get each
    pad's GPIO, baseline and trip level first."""
    cfg = _config()
    hw = _open(cfg)
    pads = _pads(hw)
    if pads:
        _pad_table(cfg, pads)
    print("press each cell in turn (0 1 2 / 3 4 5 / 6 7 8 from the top left); each change of the cells held"
          " prints a line, for %s s (Ctrl-C ends sooner)" % seconds)
    held = seen = 0
    start = ticks_ms()
    try:
        while ticks_diff(ticks_ms(), start) < seconds * 1000:
            mask = hw.scan()
            if mask != held:
                held = mask
                seen |= mask
                print("held: " + (_cells(mask) or "none"))
            sleep(0.01)
    except KeyboardInterrupt:
        pass
    if seen == 0x1FF:
        print("all 9 cells seen")
    else:
        print("seen: %s; never pressed: %s" % (_cells(seen) or "none", _cells(0x1FF & ~seen)))


def touch(seconds=30):
    """Touch boards: every half second for ``seconds`` (or until Ctrl-C), the
    nine pads' raw readings, ``*`` after each one past its trip level."""
    cfg = _config()
    pads = _pads(_open(cfg)) if cfg["input"]["kind"] == "touch" else None
    if pads is None:
        print("check.touch: this board's input is %s, not MicroPython touch pads: use check.keys()"
              % cfg["input"]["kind"])
        return
    from .touchpads import _read  # a pad's reading; a read error (a touch) reads -1

    _pad_table(cfg, pads)
    start = ticks_ms()
    try:
        while ticks_diff(ticks_ms(), start) < seconds * 1000:
            values = [_read(pad) for pad in pads._pads]
            marks = ["*" if v < 0 or (v > lim if pads.rises else v < lim) else " "
                     for v, lim in zip(values, pads._limit)]
            print(_row("reading", values, marks))
            sleep(0.5)
    except KeyboardInterrupt:
        pass


def leds(seconds=1):
    """Light the chain's pixels one at a time, pixel 0 to 8 whatever
    ``leds.order`` says, dim white for ``seconds`` each, printing each
    number; then all off. Note the cell each one lights: ``leds.order`` is
    that list by cell (``order[cell] = pixel``)."""
    from . import frames

    cfg = dict(_config())
    order = cfg["leds"]["order"]
    cfg["leds"] = dict(cfg["leds"])
    cfg["leds"]["order"] = list(range(9))  # canvas cell i is chain pixel i
    hw = _open(cfg)
    canvas = frames.Canvas()
    print("lighting pixels 0 to 8 along the chain, %s s each: note the cell each one lights" % seconds)
    try:
        for p in range(9):
            canvas.clear()
            canvas.set(p, (255, 255, 255), 128)
            hw.show(canvas)
            print("pixel %d" % p)
            sleep(seconds)
    except KeyboardInterrupt:
        pass
    canvas.clear()
    hw.show(canvas)
    print("all off; board.json has leds.order %s (order[cell] = pixel)" % (order,))


def tables(folder=""):
    """Prove each table on the flash right, record by record (``tableverify``:
    canonical, reachable, each value the best of its moves'), with a progress
    line; about a minute for tactic-toe on a Pico. Returns True if both are."""
    from . import rules
    from . import table
    from . import tableverify

    ok = True
    for game in (rules.CLASSIC, rules.TACTICTOE):
        path = table.path(folder, rules.GAMES[game])
        try:
            t = table.Table(path, game)
        except OSError:
            print("%s: not found" % path)
            ok = False
            continue
        except table.TableError as e:
            print("%s: %s" % (path, e))
            ok = False
            continue

        def progress(done, count):
            print("\r%s: %d of %d records checked" % (path, done, count), end="")

        wrong = tableverify.first_wrong(t, progress)
        t.close()
        print()
        if wrong:
            print("%s: %s" % (path, wrong))
            ok = False
        else:
            print("%s: right: every record canonical, reachable, and consistent with its moves" % path)
    return ok
