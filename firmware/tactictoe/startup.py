"""Power-on: everything the board does once, before the loop starts.

Read ``board.json`` (or fall back to the default config, and say so), open
the hardware layer for this runtime, check for safe mode and open the tables.
``main`` unloads this module afterwards: its code is not needed again, and
RAM is the board's scarcest resource.
"""

import sys

from .main import unload  # (in main: the loop unloads tablewalk long after this module is gone)

CENTRE = 4


def platform():
    """"circuitpython" (where its ``supervisor`` module exists), else
    sys.platform ("rp2", "esp32", "linux", ...)."""
    if sys.implementation.name == "circuitpython":
        return "circuitpython"
    try:
        import supervisor  # noqa: F401  (CircuitPython's; also its test double)
    except ImportError:
        return sys.platform
    return "circuitpython"


def runtime(cfg):
    """The hardware layer to use: the running firmware's on a board; under
    CPython (simulator, tests) the one the config names."""
    if platform() == "circuitpython":
        return "circuitpython"
    if sys.implementation.name == "micropython":
        return "micropython"
    return cfg["runtime"] or "micropython"


def open_hardware(cfg):
    """The hardware layer for this runtime, opened with the config ``cfg``."""
    if runtime(cfg) == "circuitpython":
        from . import hw_circuitpython as layer
    else:
        from . import hw_machine as layer
    return layer.Hardware(cfg)


def load_tables(folder=""):
    """``(tables, problems)``: an open Table or None per game, and a message
    for each game whose table can't be used."""
    from . import rules
    from . import table

    tables = {}  # type: dict
    problems = {}  # type: dict
    for game in (rules.CLASSIC, rules.TACTICTOE):
        path = table.path(folder, rules.GAMES[game])
        try:
            tables[game] = table.Table(path, game)
        except OSError:
            tables[game] = None
            problems[game] = "table %s not found" % path
        except table.TableError as e:
            tables[game] = None
            problems[game] = "table %s: %s" % (path, e)
    unload("tablecheck")  # the checks are done: let their RAM go
    return tables, problems


# The score's own temporary file: a save cut between FAT's remove and its
# rename leaves the only copy of the score in it, which ``Score.load``
# takes (or removes, when it is not whole). Never removed here.
_SCORE_TMP = "score.bin.tmp"


def remove_stale(folder=""):
    """Remove the ``NAME.tmp`` files a flash cut short left (it writes each
    file to a temporary name, then renames it): they only take up flash.
    The score's (``_SCORE_TMP``) is left to ``score.Score.load``."""
    import os

    from .table import TABLES

    root = folder + "/" if folder else ""
    for where in ("", TABLES + "/"):
        try:
            names = os.listdir(root + where or ".")
        except OSError:  # no package folder: nothing staged there
            continue
        try:
            for name in names:
                if name.endswith(".tmp") and not (where == "" and name == _SCORE_TMP):
                    os.remove(root + where + name)
                    print("removed %s%s, left by an interrupted flash" % (where, name))
        except OSError as e:  # a read-only drive (CircuitPython's, while USB has it)
            from .oserrors import words

            print("could not remove a stale .tmp file (%s)" % words(e))


def centre_held(hw, samples=5):
    """True if the centre cell is held at power-on: the layer saw it while
    starting up, or it reads held on each of a few scans."""
    if getattr(hw, "held_at_boot", 0) >> CENTRE & 1:
        return True
    for _ in range(samples):
        if not hw.scan() >> CENTRE & 1:
            return False
    return True


def power_on(folder=""):
    """Config, hardware, safe-mode check and tables. Returns
    ``(hw, cfg, tables, problems, config_problem)`` for ``loop.build``, or
    None in safe mode (after lighting the centre and saying so)."""
    from . import config

    cfg, problem = config.load((folder + "/" if folder else "") + "board.json", platform())
    is_default = problem is not None  # load() fell back to the default
    # The validation code is not needed again: let its RAM go. The config
    # it made lies scattered through the RAM the module filled: a copy made
    # now packs it together, and that RAM becomes one free block instead of
    # many small ones (the game's modules need large blocks to load).
    del config
    unload("config")
    unload("config_parts")  # (loaded only for the bought boards' keys)
    import gc

    gc.collect()
    cfg = _copy(cfg)
    if problem is None and cfg["runtime"] and runtime(cfg) != cfg["runtime"]:
        problem = "board.json is for %s but this is %s: check the pins" % (cfg["runtime"], runtime(cfg))
    try:
        hw = open_hardware(cfg)
    except Exception as e:  # a pin this board doesn't have, a bad touch pin...
        # The default, built only now: validating it costs 15 ms of every
        # power-on on a Pico, and only this rare path needs it. With a
        # problem, load() has already fallen back to it.
        default = cfg
        if not is_default:
            from . import config

            default = config.validate(config.default_for(platform()))
            del config
            unload("config")
            unload("config_parts")
        if cfg == default:
            print("the default %s config does not fit this board either (%r): write a board.json"
                  " for it (docs/board-config.md)" % (default["name"], e))
            raise
        problem = "board.json: the hardware would not start with it (%r); using the default %s config" % (
            e, default["name"])
        cfg = default
        hw = open_hardware(cfg)
    if centre_held(hw):
        safe_mode(hw)
        return None
    remove_stale(folder)
    tables, problems = load_tables(folder)
    return hw, cfg, tables, problems, problem


def _copy(v):
    """A copy of a config: dicts, lists and tuples copied all the way down."""
    if isinstance(v, dict):
        return {k: _copy(v[k]) for k in v}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_copy(x) for x in v)
    return v


def safe_mode(hw):
    """Light a dim blue centre, say why on the console, and leave the REPL free."""
    from .frames import Canvas

    canvas = Canvas()
    canvas.set(CENTRE, (0, 0, 255), 64)  # a dim blue centre: safe mode
    hw.show(canvas)
    print("safe mode: the centre cell was held at power-on, so the game did not start."
          " The REPL is free for mpremote; reset to play.")
