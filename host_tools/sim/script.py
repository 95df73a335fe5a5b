"""Press scripts: the commands (``tap 4``, ``wait 500``...) that
``--replay`` plays on a virtual clock and ``--headless`` reads on stdin."""

from host_tools.sim.board import SimError

TAP_MS = 100  # how long a tap holds the cell (the firmware debounces 25 ms)


def held_ms(name, values):
    """How long a ``tap`` or ``hold`` keeps its cell down."""
    return TAP_MS if name == "tap" else values[1]


COMMANDS = ("tap CELL", "hold CELL MS", "press CELL", "release CELL", "wait MS")


def parse_command(line, where, live=False):
    """``(name, args)`` for one line of a press script, None for a blank or
    comment line; SimError naming ``where`` for anything else."""
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    name, args = words[0], words[1:]
    known = {"tap": 1, "hold": 2, "press": 1, "release": 1, "wait": 1}
    if live:
        known.update(reset=0, quit=0)
    if name not in known:
        raise SimError("%s: unknown command %r (commands: %s%s)" % (
            where, name, ", ".join(COMMANDS), ", reset, quit" if live else ""))
    if len(args) != known[name] or not all(a.isdigit() for a in args):
        raise SimError("%s: %s takes %s" % (where, name, [c for c in COMMANDS + ("reset", "quit")
                                                         if c.split()[0] == name][0]))
    values = [int(a) for a in args]
    if name in ("tap", "hold", "press", "release") and values[0] > 8:
        raise SimError("%s: cell %d: cells are 0-8, row by row from the top left" % (where, values[0]))
    return name, values


def timeline(lines, source="script"):
    """The ``[(ms, mask)]`` changes of the held cells a press script makes,
    from power-on (time 0), and the time it ends."""
    t = mask = 0
    out = []
    for n, line in enumerate(lines, 1):
        cmd = parse_command(line, "%s line %d" % (source, n))
        if cmd is None:
            continue
        name, v = cmd
        if name == "wait":
            t += v[0]
        elif name == "press":
            mask |= 1 << v[0]
            out.append((t, mask))
        elif name == "release":
            mask &= ~(1 << v[0])
            out.append((t, mask))
        else:  # tap, hold: press, wait, release, and a pause before the next
            held = held_ms(name, v)
            out.append((t, mask | 1 << v[0]))
            out.append((t + held, mask))
            t += held + TAP_MS
    return out, t
