"""The make variables behind the flags: ``make sim CHIP=rp2050`` runs
``sim --chip rp2050``, and its error has to name ``CHIP=``, which the user
typed, not ``--chip``, which they never saw.

The Makefile runs these tools as ``python -m host_tools --via-make COMMAND
...``; ``start`` takes that first argument off and remembers the command.
Then a usage error about a flag (``argument --chip: invalid choice ...``)
names the variable instead (``usage_error``), and so does any message that
builds a flag's name with ``name``. ``FLAG_VARS`` is the one table of which
variable fills which flag; tests/test_make.py checks it against the
Makefile's recipes.
"""

import re

VIA_MAKE = "--via-make"

FLAG_VARS = {
    "sim": {"--board": "BOARD", "--chip": "CHIP", "--flash": "SIM_FLASH"},
    "web": {"--port": "WEB_PORT"},
    "flash": {"--port": "PORT", "--board": "BOARD", "--games": "GAMES", "--table": "GAME"},
    "uf2": {"--runtime": "RUNTIME", "--board": "BOARD", "--games": "GAMES"},
    "circuitpy": {"--dest": "DEST", "--board": "BOARD", "--games": "GAMES"},
}

# The Makefile's other variables a person types (make passes them on, not as flags).
OTHER_VARS = ("FIRMWARE_DIR", "PYTHON")

_run = {"vars": {}, "argv": []}  # this process's: its command's variables when make started it


def start(argv):
    """``argv`` without the Makefile's ``--via-make``, remembering whether it
    was there (and so which variables fill which flags)."""
    argv = list(argv)
    via_make = argv[:1] == [VIA_MAKE]
    if via_make:
        argv = argv[1:]
    _run["vars"] = FLAG_VARS.get(argv[0], {}) if via_make and argv else {}
    _run["argv"] = argv
    return argv


def miscased(makeflags):
    """The line for a make variable typed in the wrong case on make's
    command line (``make sim board=macropad``: make's variables are case
    sensitive, and the Makefile would never see it), from ``makeflags``
    (the MAKEFLAGS make gives its commands); None if there is none."""
    known = set(OTHER_VARS)
    for table in FLAG_VARS.values():
        known.update(table.values())
    assigns = re.split(r"(?:^| )-- ", makeflags, 1)
    for var, value in re.findall(r"(?:^| )((?:[^ =\\]|\\.)+)=((?:[^ \\]|\\.)*)", assigns[-1] if len(assigns) > 1
                                 else ""):
        if var not in known and var.upper() in known:
            value = re.sub(r"\\(.)", r"\1", value)
            return "%s=%s: make's variables are case-sensitive and the Makefile has no %s=; give %s=%s" % (
                var, value, var, var.upper(), value)
    return None


def name(flag, example):
    """How the user gives ``flag`` a value such as ``example``: ``CHIP=rp2040``
    through make, ``--chip rp2040`` on the command line."""
    var = _run["vars"].get(flag)
    return "%s=%s" % (var, example) if var else "%s %s" % (flag, example)


def _value(flag):
    value = None
    argv = _run["argv"]
    for i, arg in enumerate(argv):
        if arg == flag and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith(flag + "="):
            value = arg[len(flag) + 1:]
    return value


def usage_error(message):
    """argparse's ``message`` about a flag that a make variable filled, as
    the line make's user reads (``CHIP=rp2050: not one of unix, rp2040``);
    None for any other message, or when make did not start this process."""
    m = re.match(r"argument (\S+): (.*)\Z", message, re.S)
    if not m:
        return None
    var = next((_run["vars"][f] for f in m.group(1).split("/") if f in _run["vars"]), None)
    if var is None:
        return None
    value = _value(m.group(1).split("/")[-1])
    detail = m.group(2)
    choices = re.match(r"invalid choice: .* \(choose from (.*)\)\Z", detail, re.S)
    if choices:
        detail = "not one of %s" % choices.group(1).replace("'", "")
    elif re.match(r"invalid int value: ", detail):
        detail = "not a whole number"
    return "%s=%s: %s" % (var, "" if value is None else value, detail)
