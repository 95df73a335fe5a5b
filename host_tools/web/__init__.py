"""The board in a browser: a static site with the firmware running in
MicroPython's WebAssembly port, and only the hardware layer replaced by the
page (docs/web.md).

``build()`` writes the site: the page (``web/``), the pinned WebAssembly
port from ``node_modules``, the very files ``make flash`` puts on a board
(the firmware modules, compiled with ``mpy-cross`` as the port loads .mpy
v6, both tables, proven right first, and the puzzles), every shipped MicroPython board
config the page plays (``offered``: the boards of loose parts and the
bought boards), the hardware doubles ``make sim`` runs (``simulator/machine.py``,
``simulator/neopixel.py``, ``simulator/simexit.py``) with the page's wires
(``web/simbus.py``, ``web/rom.py``), and the emulator's chip models, which
the page imports as they are (``simulator/rp2040/boards.mjs`` and
``chips/``: the bought boards' screen, dial, APA102s, expander and LED
driver). Nothing is fetched from
anywhere else at run time, so the folder works on any static host.
``serve()`` serves it on localhost.

Where to look:

- this file: ``build()``, ``size()``, ``server()`` and ``serve()``;
- ``picture.py``: the README's picture of the page (``web-picture``).
"""

import functools
import html
import http.server
import json
import os
import posixpath
import re

from host_tools import flash, outputs
from host_tools.oserrors import reported

__all__ = ["WebError", "build", "firmware_files", "port_version", "render_guide", "serve", "server", "size"]

ROOT = flash.ROOT
WEB = os.path.join(ROOT, "web")
SIMULATOR = os.path.join(ROOT, "simulator")
PORT_PACKAGE = "@micropython/micropython-webassembly-pyscript"
PORT_DIR = os.path.join(ROOT, "node_modules", *PORT_PACKAGE.split("/"))
PORT_FILES = ("micropython.mjs", "micropython.wasm")
# The package ships no licence file; its package.json says MIT, MicroPython's
# licence, whose text (with its third-party parts) is in licenses/.
PORT_LICENCE = os.path.join(ROOT, "licenses", "LICENSE-micropython")
OUTPUT = os.path.join(ROOT, "build", "web")
PAGE_FILES = ("index.html", "style.css", "board.js", "engine.html", "engine.js")
HW_FILES = ((SIMULATOR, "machine.py"), (SIMULATOR, "neopixel.py"), (SIMULATOR, "simexit.py"), (WEB, "simbus.py"),
            (WEB, "rom.py"))
# The emulator's board wiring and chip models, ES modules the page imports
# (site path, file): one model of each chip for the emulator and the page.
CHIPS = os.path.join(SIMULATOR, "rp2040")
CHIP_FILES = [("rp2040/boards.mjs", os.path.join(CHIPS, "boards.mjs"))] + [
    ("rp2040/chips/" + name, os.path.join(CHIPS, "chips", name))
    for name in sorted(os.listdir(os.path.join(CHIPS, "chips"))) if name.endswith(".mjs")]
DEFAULT_BOARD = "pico-buttons"
# The build guide the page links to: a copy of hardware/ in the site, its
# pages rendered to HTML beside their markdown, unless --build-guide names
# one elsewhere (the repository's, say).
GUIDE = "hardware/README.html"
GUIDE_DIR = "hardware"
# The port's .mpy version: 6 (sys.implementation._mpy & 0xFF); the page
# gets Python sources if mpy-cross writes another.
PORT_MPY_MAJOR = 6


class WebError(Exception):
    """Something the user can fix, as one line."""


def port_version():
    """The WebAssembly port's version, from its package.json in node_modules."""
    try:
        with open(os.path.join(PORT_DIR, "package.json")) as f:
            return json.load(f)["version"]
    except OSError:
        raise WebError("%s is not in node_modules: run `make node` (npm ci)" % PORT_PACKAGE)


def offered(cfg):
    """True if the page plays every part of ``cfg`` (a validated config):
    NeoPixels, APA102s on SPI or an IS31FL3731 on I2C; keys on GPIO
    (buttons, a matrix, touch pads, extra keys) or through a TCA9555 on
    I2C; a buzzer; the MacroPad's SH1106 screen and dial (the chips through
    the emulator's models, ``simulator/rp2040/chips/``)."""
    return (cfg["leds"]["kind"] in ("ws2812", "apa102", "is31fl3731")
            and cfg["input"]["kind"] in ("buttons", "matrix", "touch", "tca9555"))


def boards():
    """The shipped MicroPython configs the page offers: those of loose parts
    and the bought boards (``offered``)."""
    return [b for b in flash.micropython_boards() if offered(flash.board_config(b)[1])]


def firmware_files():
    """[(name, bytes)] of the firmware as ``make flash`` puts it on a board:
    every module any board the page offers gets (touch boards add
    ``touchpads``), compiled when the port loads mpy-cross's .mpy version."""
    major, sub = flash.mpy_cross_version()
    use_mpy = major == PORT_MPY_MAJOR
    files = {}
    for board in boards():
        cfg = flash.board_config(board)[1]
        for name, data in flash.firmware_files(cfg, use_mpy, (major, sub)):
            files[name] = data
    return sorted(files.items())


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _tree(folder, under):
    """``[(under/relative path, bytes)]`` of every file below ``folder``."""
    files = []
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        rel = os.path.relpath(top, folder).replace(os.sep, "/")
        for name in sorted(names):
            files.append(("/".join(p for p in (under, rel, name) if p != "."), _read(os.path.join(top, name))))
    return files


def _site_files(fw, tables, boards, build_guide):
    """``[(path in the site, bytes)]`` of everything but the manifest."""
    files = [(name, _read(os.path.join(WEB, name))) for name in PAGE_FILES]
    files += [("micropython/" + name, _read(os.path.join(PORT_DIR, name))) for name in PORT_FILES]
    files.append(("micropython/LICENSE", _read(PORT_LICENCE)))
    files += [("flash/" + name, data) for name, data in fw + tables]
    files += [("hw/" + name, _read(os.path.join(folder, name))) for folder, name in HW_FILES]
    files += [(name, _read(path)) for name, path in CHIP_FILES]
    files += [("boards/%s.json" % board, flash.board_config(board)[2]) for board in boards]
    if build_guide is None:
        guide = _tree(os.path.join(ROOT, GUIDE_DIR), GUIDE_DIR)
        files += guide + render_guide(guide)
    return files


def _check_out(out):
    """WebError unless ``out`` is a new or empty folder or an earlier site."""
    if os.path.isdir(out) and os.listdir(out) and not os.path.isfile(os.path.join(out, "manifest.json")):
        # Replaced only if it is an earlier build: never someone's folder.
        raise WebError("%s is a folder with other things in it: name a new or empty one, or an earlier"
                       " site of this command" % out)
    with reported(WebError, "cannot write %s" % out):
        outputs.check_folder(out)


def _remove_others(out, keep):
    """Remove what an earlier site left in ``out`` that is not in ``keep``."""
    for top, dirs, names in os.walk(out, topdown=False):
        for name in names:
            path = os.path.join(top, name)
            if os.path.relpath(path, out).replace(os.sep, "/") not in keep:
                os.remove(path)
        if top != out and not os.listdir(top):
            os.rmdir(top)


def build(out=OUTPUT, tables_dir=os.path.join(ROOT, "build"), build_guide=None):
    """Write the site into ``out`` (a new or empty folder, or an earlier
    site, which it replaces), all or nothing (``outputs``); returns its
    manifest."""
    version = port_version()
    fw = firmware_files()
    try:
        tables = [flash.table_file(g, tables_dir) for g in ("classic", "tactictoe")] + [flash.puzzle_file(tables_dir)]
    except flash.FlashError as e:
        raise WebError(str(e))
    shown = boards()
    _check_out(out)
    files = _site_files(fw, tables, shown, build_guide)
    manifest = {
        "micropython": version,
        "flash": [name for name, _ in fw + tables],
        "hw": [name for _, name in HW_FILES],
        "boards": shown,
        "default_board": DEFAULT_BOARD,
        "build_guide": GUIDE if build_guide is None else build_guide,
    }
    files.append(("manifest.json", json.dumps(manifest, indent=1).encode() + b"\n"))
    with reported(WebError, "cannot write %s" % out):
        outputs.write_tree(out, files)
        _remove_others(out, {name for name, _ in files})
    return manifest


_LINK = re.compile(r'<a href="([^"]*)">(.*?)</a>', re.S)
_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>%s</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 1rem auto; padding: 0 1rem; color: #1d2024; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccd; padding: 0.2rem 0.5rem; text-align: left; }
code, pre { font-family: ui-monospace, monospace; background: #f3f4f6; } pre { padding: 0.5rem; overflow-x: auto; }
img { max-width: 100%%; height: auto; }
</style>
</head>
<body>
%s
</body>
</html>
"""


def render_guide(files, folder=GUIDE_DIR):
    """``[(path, bytes)]``: beside each markdown page of ``files`` (the build
    guide's copy, paths in the site under ``folder``), the same page as
    HTML, which a browser shows as a page rather than as text. Links to the
    guide's other pages go to their HTML; a link that leaves the folder (the
    project's README, docs/) names the file in the project's repository
    instead, as the site has no copy of it."""
    import markdown

    pages = []
    for path, data in files:
        if not path.endswith(".md"):
            continue
        top = posixpath.dirname(path)
        body = markdown.markdown(data.decode("utf-8"), extensions=["tables", "fenced_code", "toc"],
                                 output_format="html")

        def link(m, top=top):
            href, label = html.unescape(m.group(1)), m.group(2)
            if re.match(r"[a-z][a-z0-9+.-]*:|#|/", href):  # elsewhere, or on this page
                return m.group(0)
            file, _, anchor = href.partition("#")
            target = posixpath.normpath(posixpath.join(top, file))
            if posixpath.relpath(target, folder).startswith(".."):  # hardware/ sits at the repository's top
                shown = target
                if re.sub(r"<[^>]+>", "", label) == shown:  # [docs/x.md](../docs/x.md)
                    return "<code>%s</code> (in the project's repository)" % html.escape(shown)
                return "%s (<code>%s</code> in the project's repository)" % (label, html.escape(shown))
            if file.endswith(".md"):
                file = file[:-3] + ".html"
            return '<a href="%s">%s</a>' % (html.escape(file + ("#" + anchor if anchor else "")), label)

        body = _LINK.sub(link, body)
        title = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.S)
        title = re.sub(r"<[^>]+>", "", title.group(1)) if title else posixpath.basename(path)[:-3]
        pages.append((path[:-3] + ".html", (_PAGE % (title, body)).encode("utf-8")))
    return pages


def size(out=OUTPUT):
    """Bytes of the files the page loads (the build guide's copy aside)."""
    total = 0
    for top, dirs, names in os.walk(out):
        if os.path.relpath(top, out).split(os.sep)[0] == "hardware":
            continue
        total += sum(os.path.getsize(os.path.join(top, n)) for n in names)
    return total


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                             ".py": "text/plain", ".mpy": "application/octet-stream",
                             ".tbl": "application/octet-stream", ".md": "text/plain; charset=utf-8"})

    def log_message(self, *args):
        pass  # quiet: the URL is all the terminal needs

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # a rebuilt site shows at once
        super().end_headers()


def server(folder=OUTPUT, port=8000, host="127.0.0.1"):
    """An HTTP server for ``folder`` (port 0: any free one); not started."""
    return http.server.ThreadingHTTPServer((host, port), functools.partial(_Handler, directory=folder))


def serve(httpd, ready=lambda: None, keys=None):
    """Serve till Ctrl-C, then return (a stop, not an error); ``ready()``
    once Ctrl-C is set to stop it.

    At a terminal (``keys``, default stdin, a tty) Ctrl-C is read as a key:
    the terminal's interrupt character is off while it serves, and back on
    after. Sent as SIGINT it would reach make too, which reports any
    interrupted recipe as an error (``make: *** [web] Interrupt``). Without
    a terminal, SIGINT stops it."""
    import signal
    import sys
    import termios
    import threading

    keys = sys.stdin if keys is None else keys
    try:  # a terminal this process has in the foreground (not `make web &`: changing it would stop us)
        fd = keys.fileno() if keys.isatty() and os.tcgetpgrp(keys.fileno()) == os.getpgrp() else None
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is None:
        try:
            ready()
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
        return
    saved = termios.tcgetattr(fd)
    quiet = termios.tcgetattr(fd)
    quiet[3] &= ~(termios.ICANON | termios.ECHO)  # each key at once, not echoed
    off = os.fpathconf(fd, "PC_VDISABLE")
    quiet[6][termios.VINTR] = off if isinstance(quiet[6][termios.VINTR], int) else bytes([off])
    quiet[6][termios.VMIN], quiet[6][termios.VTIME] = 1, 0
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    # Killed some other way (the window closed, kill): the terminal still
    # gets its settings back on the way out.
    stops = {s: signal.signal(s, _stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        thread.start()
        ready()
        while os.read(fd, 1) not in (b"\x03", b""):
            pass
    except (KeyboardInterrupt, OSError):  # SIGINT from elsewhere; the terminal gone
        pass
    finally:
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        except termios.error:
            pass
        for s, handler in stops.items():
            signal.signal(s, handler)
        if thread.is_alive():
            httpd.shutdown()


def _stop(signum, frame):
    raise SystemExit(128 + signum)
