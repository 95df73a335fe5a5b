"""Press scripts: the commands (``tap 4``, ``wait 500``...) that
``--replay`` plays on a virtual clock and ``--headless`` reads on stdin.

A CELL is a cell, 0-8, or on a board with extra keys one of their roles
(``menu``, ``hint``, ``undo``, ``select``: the encoder's push); ``turn N``
turns a board's encoder N clicks (negative: anticlockwise)."""

from host_tools.sim.board import EDGE_MS, SimError

TAP_MS = 100  # how long a tap holds the cell (the firmware debounces 25 ms)
ROLES = ("menu", "hint", "undo", "select")


def held_ms(name, values):
    """How long a ``tap`` or ``hold`` keeps its cell down."""
    return TAP_MS if name == "tap" else values[1]


COMMANDS = ("tap CELL", "hold CELL MS", "press CELL", "release CELL", "wait MS", "turn N")


def key_bit(cfg, key, where):
    """The bit in the key mask of ``key`` (a cell, or a role that
    ``parse_command`` let through); SimError naming ``where`` if the board
    has no such key."""
    if isinstance(key, int):
        return key
    roles = [e["role"] for e in cfg["extra"]]
    if key not in roles:
        raise SimError("%s: %s has no %s key (its keys: the cells 0-8%s)" % (
            where, cfg["name"], key, "".join(", " + r for r in roles)))
    return 9 + roles.index(key)


def check_dial(cfg, where):
    """SimError naming ``where`` if the board has no dial to ``turn``."""
    if not cfg.get("encoder"):
        raise SimError("%s: turn: %s has no dial (its config has no encoder)" % (where, cfg["name"]))


def parse_command(line, where, live=False):
    """``(name, args)`` for one line of a press script, None for a blank or
    comment line; SimError naming ``where`` for anything else. A key is
    an int (a cell) or a role's name."""
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    name, args = words[0], words[1:]
    known = {"tap": 1, "hold": 2, "press": 1, "release": 1, "wait": 1, "turn": 1}
    if live:
        known.update(reset=0, quit=0)
    if name not in known:
        raise SimError("%s: unknown command %r (commands: %s%s)" % (
            where, name, ", ".join(COMMANDS), ", reset, quit" if live else ""))
    keyed = name in ("tap", "hold", "press", "release")
    numbers = args[1:] if keyed and args and args[0] in ROLES else args
    if name == "turn" and args and args[0][:1] in "+-":
        numbers = [args[0][1:]]
    if len(args) != known[name] or not all(a.isascii() and a.isdigit() for a in numbers):
        raise SimError("%s: %s takes %s" % (where, name, [c for c in COMMANDS + ("reset", "quit")
                                                         if c.split()[0] == name][0]))
    if name == "turn":
        return name, [int(args[0])]
    values = [a if a in ROLES else int(a) for a in args]
    if keyed and isinstance(values[0], int) and values[0] > 8:
        raise SimError("%s: cell %d: cells are 0-8, row by row from the top left (or a key: %s)"
                       % (where, values[0], ", ".join(ROLES)))
    return name, values


def timeline(lines, source="script", cfg=None):
    """The ``[(ms, mask)]`` changes of the held keys a press script makes,
    from power-on (time 0), and the time it ends; a turn is ``(ms, "turn",
    n)``, with room for its edges (``EDGE_MS`` each, 4 a click). ``cfg``:
    the board's config, for its extra keys' roles."""
    t = mask = 0
    out = []
    for n, line in enumerate(lines, 1):
        where = "%s line %d" % (source, n)
        cmd = parse_command(line, where)
        if cmd is None:
            continue
        name, v = cmd
        if name in ("tap", "hold", "press", "release"):
            if cfg is None and not isinstance(v[0], int):
                raise SimError("%s: %s: a key by its role needs the board's config" % (where, v[0]))
            bit = key_bit(cfg, v[0], where)
        if name == "wait":
            t += v[0]
        elif name == "turn":
            if cfg is not None:
                check_dial(cfg, where)
            out.append((t, "turn", v[0]))
            t += 4 * abs(v[0]) * EDGE_MS + TAP_MS
        elif name == "press":
            mask |= 1 << bit
            out.append((t, mask))
        elif name == "release":
            mask &= ~(1 << bit)
            out.append((t, mask))
        else:  # tap, hold: press, wait, release, and a pause before the next
            held = held_ms(name, v)
            out.append((t, mask | 1 << bit))
            out.append((t + held, mask))
            t += held + TAP_MS
    return out, t
