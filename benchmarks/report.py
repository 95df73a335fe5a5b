"""`make bench`'s tables, into docs/performance.md.

Each benchmark script (``BENCHES``: ``benchmarks/NAME.py``) runs its
``main()`` inside ``record(__file__)``, which keeps the markdown table rows
it prints (the lines starting with ``|``) and, once it has run to the end,
writes them to ``build/bench/NAME.md`` under a line saying when, on what
machine, at what commit and by what command they were measured.

``python benchmarks/report.py``, the last step of ``make bench``, puts each
file into the doc between its markers, replacing what was there::

    <!-- bench: NAME -->
    (build/bench/NAME.md)
    <!-- /bench -->

A benchmark that needs an official firmware image (``host_tools/images.py``)
that is missing and can't be fetched says so in one line and writes
``build/bench/NAME.skipped`` instead (``need_images``): its region keeps the
table measured earlier, with that table's date and commit.

A marker is a line of its own. A missing file, or a region the doc lacks or
has twice or leaves open, or one no script fills, is an error of one line, and the doc is left as it was; otherwise the
doc is written whole (a temporary file, then renamed). A new row a script
prints appears in its region on the next run, with nothing to change here.
"""

import argparse
import contextlib
import datetime
import io
import os
import platform
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "bench")
DOC = os.path.join(ROOT, "docs", "performance.md")
# The benchmark scripts, in make bench's order (the Makefile's bench target
# runs each; tests/test_docs.py checks the two lists and the doc agree).
BENCHES = ("run", "review", "soak", "latency", "saves", "pico", "circuitpy_pico", "boards", "web", "hardware")
REGION = re.compile(r"^<!-- bench: ([a-z0-9_]+) -->\n(.*?)^<!-- /bench -->$", re.M | re.S)
HEADER = re.compile(r"^Measured .*? at `([^`]+)`")


# --- the scripts' side: build/bench/NAME.md ------------------------------------------


def machine():
    """``2 cores, AMD EPYC 7B13`` from /proc/cpuinfo (where there is one)."""
    model, cores = "", 0
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "processor":
                    cores += 1
                elif key in ("model name", "Model", "Hardware") and not model:
                    model = value.strip()
    except OSError:
        pass
    return "%d cores, %s" % (cores or os.cpu_count() or 0, model or platform.processor() or platform.machine())


def code_version():
    """``git describe --always --dirty`` of the code measured. A change to
    docs/ alone (this script's own output, between two runs) is not a
    change of the code, so it does not make it dirty."""
    try:
        v = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True,
                           cwd=ROOT, check=True).stdout.strip()
        if v.endswith("-dirty"):
            changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                                     text=True, cwd=ROOT, check=True).stdout.splitlines()
            if all(line[3:].startswith("docs/") for line in changed):
                v = v[:-len("-dirty")]
        return v
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


def header(script, argv):
    """The line above a table: when, where, what code, which command."""
    command = " ".join(["python", os.path.relpath(os.path.abspath(script), ROOT)] + list(argv))
    # The load says how far to trust its wall-clock rows: other work on the
    # machine slows them (emulated-time and heap rows do not move).
    load = "%.1f" % os.getloadavg()[0] if hasattr(os, "getloadavg") else "unknown"
    return "Measured %s on %s (load average %s as it ended), at `%s`, by `%s`:" % (
        datetime.date.today().isoformat(), machine(), load, code_version(), command)


def write(name, head, rows, out=OUT):
    """``out/NAME.md``: ``head``, a blank line, ``rows``; written to a
    temporary name, then renamed."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, name + ".md")
    with open(path + ".tmp", "w") as f:
        f.write(head + "\n\n" + "".join(row + "\n" for row in rows))
    os.replace(path + ".tmp", path)
    return path


def skipped(script, why, out=OUT):
    """One line saying why ``script`` measured nothing, and ``out/NAME.skipped``
    in place of its table (``report`` keeps the doc's earlier one)."""
    name = os.path.splitext(os.path.basename(script))[0]
    with contextlib.suppress(FileNotFoundError):
        os.remove(os.path.join(out, name + ".md"))
    print("%s: skipped (the doc keeps its earlier table): %s" % (name, why), flush=True)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + ".skipped"), "w") as f:
        f.write("%s\n" % why)


def need_images(script, keys, out=OUT):
    """Whether the official images ``keys`` are here (fetched if need be);
    ``skipped`` if not."""
    from host_tools import images

    name = os.path.splitext(os.path.basename(script))[0]
    with contextlib.suppress(FileNotFoundError):
        os.remove(os.path.join(out, name + ".skipped"))
    try:
        for key in keys:
            images.get(key)
    except images.ImageError as e:
        skipped(script, e, out)
        return False
    return True


class _Tee(io.TextIOBase):
    """Passes everything on to ``out`` and keeps the lines that are table
    rows."""

    def __init__(self, out):
        self.out = out
        self.rows = []
        self._line = ""

    def write(self, s):
        self.out.write(s)
        self._line += s
        *lines, self._line = self._line.split("\n")
        self.rows += [line for line in lines if line.startswith("|")]
        return len(s)

    def flush(self):
        self.out.flush()

    def fileno(self):
        return self.out.fileno()


@contextlib.contextmanager
def record(script, argv=None, out=OUT):
    """Around a benchmark's ``main()``: the table rows it prints go to
    ``out/NAME.md`` too (``NAME`` from ``script``, its ``__file__``), once it
    has run to the end. The file of an earlier run goes at the start, so a
    run that fails leaves none to be taken for its own."""
    name = os.path.splitext(os.path.basename(script))[0]
    with contextlib.suppress(FileNotFoundError):
        os.remove(os.path.join(out, name + ".md"))
    head = header(script, sys.argv[1:] if argv is None else argv)  # (the code as it starts)
    tee = _Tee(sys.stdout)
    sys.stdout = tee
    try:
        yield
    finally:
        sys.stdout = tee.out
    if not tee.rows:
        raise SystemExit("%s printed no table rows: nothing to write to %s" % (script, out))
    write(name, head, tee.rows, out)


# --- the doc's side -----------------------------------------------------------------


class ReportError(Exception):
    pass


def regions(text):
    """The names of the doc's marked regions, in order."""
    return [m.group(1) for m in REGION.finditer(text)]


def fill(text, tables):
    """``text`` with each marked region's body replaced by ``tables[name]``;
    ReportError if a region is unknown or twice in the doc, or a table has no
    region."""
    names = regions(text)
    if len(re.findall(r"^<!-- bench:", text, re.M)) != len(names) or \
            len(re.findall(r"^<!-- /bench -->", text, re.M)) != len(names):
        raise ReportError("a <!-- bench: NAME --> marker without its <!-- /bench --> (or the other way)")
    for name in names:
        if name not in tables:
            raise ReportError("the doc's region %r is no benchmark's (benchmarks/report.py's BENCHES)" % name)
        if names.count(name) > 1:
            raise ReportError("the doc has the region %r twice" % name)
    for name in tables:
        if name not in names:
            raise ReportError("the doc has no region <!-- bench: %s --> for build/bench/%s.md" % (name, name))
    # (a blank line before the closing marker ends the table for every markdown reader;
    # a skipped benchmark's table is None: its region stays as it is)
    return REGION.sub(lambda m: m.group(0) if tables[m.group(1)] is None else
                      "<!-- bench: %s -->\n%s\n\n<!-- /bench -->" % (m.group(1), tables[m.group(1)].rstrip("\n")),
                      text)


def load(out=OUT, names=BENCHES):
    """``{name: text}`` of every benchmark's file (None for one skipped for
    want of an image); ReportError naming the first one missing."""
    tables = {}
    for name in names:
        path = os.path.join(out, name + ".md")
        if not os.path.exists(path) and os.path.exists(os.path.join(out, name + ".skipped")):
            tables[name] = None
            continue
        try:
            with open(path) as f:
                tables[name] = f.read()
        except FileNotFoundError:
            raise ReportError("%s is missing: run `python benchmarks/%s.py` (or `make bench`)"
                              % (os.path.relpath(path, ROOT), name)) from None
    return tables


def report(doc=DOC, out=OUT, names=BENCHES):
    """Fill ``doc`` from ``out``'s files, atomically. Returns the commits the
    tables were measured at, ``{name: version}``."""
    tables = load(out, names)
    with open(doc) as f:
        text = f.read()
    new = fill(text, tables)
    if new != text:
        with open(doc + ".tmp", "w") as f:
            f.write(new)
        os.replace(doc + ".tmp", doc)
    return {name: (HEADER.match(t) or [None, "?"])[1] for name, t in tables.items() if t is not None}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--doc", default=DOC, help="the doc to fill (default docs/performance.md)")
    ap.add_argument("--dir", default=OUT, help="the benchmarks' files (default build/bench)")
    args = ap.parse_args(argv)
    try:
        versions = report(args.doc, args.dir)
    except ReportError as e:
        raise SystemExit("benchmarks/report.py: %s" % e) from None
    if len(set(versions.values())) > 1:
        print("benchmarks/report.py: warning: the tables were measured at different commits: "
              + ", ".join("%s %s" % kv for kv in versions.items()), file=sys.stderr)
    kept = [name for name in BENCHES if name not in versions]
    print("%s: filled %s%s" % (os.path.relpath(args.doc, ROOT), ", ".join(versions),
                               "; kept the earlier %s (skipped: no images)" % ", ".join(kept) if kept else ""))


if __name__ == "__main__":
    main()
