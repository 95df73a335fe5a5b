"""The README's picture of the board in a browser: ``make web``'s page in
headless Chromium (Debian's, driven by Playwright), mid-game, as a PNG.

``python -m host_tools web-picture -o docs/web.png`` (``make web-picture``)
builds the site into a scratch folder, opens it on a fake clock (Playwright's:
the page's timers, ``performance.now()`` and so the firmware's ``ticks_ms``
all follow it), plays a tactic-toe game for two with hints by clicking
cells, and takes the picture at a set time. The same steps at the same fake
times give the same frames, so the same picture on every run with the same
Chromium.

The PNG carries, in a ``tEXt`` chunk (``STAMP``), the sha256 of what made it
(``inputs``: the site's files but the build guide, which the page never
loads, and these steps), so a test can tell a stale picture in a second,
without Chromium: the picture is stale when the site ``make web`` builds now
would give another digest.
"""

import hashlib
import os
import shutil
import tempfile
import threading

from host_tools import pngtext, web

VIEWPORT = {"width": 480, "height": 900}
STEP_MS = 20  # the fake clock moves in steps of one LED frame
# (cell, fake ms to run after it): tactic-toe, two players, hints on, then
# the moves of the README's inspect example: O to move, one move wins.
PRESSES = [(5, 300), (6, 300), (5, 400), (1, 300), (4, 300), (0, 300), (3, 300), (5, 300), (2, 300), (7, 300)]
# Then the picture when O's winning move's hint pulses brightest.
HINT_CELL = 1
PULSE_MS = 2000  # longer than a hint's pulse
BOOT_MS = 2500  # the self-test, then the menu


STAMP = b"tactictoe-inputs"  # the tEXt chunk's keyword


def inputs(site):
    """The sha256 (hex) of what the picture is made of: every file of the
    built ``site`` but the build guide (``hardware/``), and the steps."""
    h = hashlib.sha256(repr((VIEWPORT, STEP_MS, PRESSES, HINT_CELL, PULSE_MS, BOOT_MS)).encode())
    for root, dirs, files in os.walk(site):
        dirs[:] = sorted(d for d in dirs if root != site or d != "hardware")
        for name in sorted(files):
            path = os.path.join(root, name)
            h.update(os.path.relpath(path, site).replace(os.sep, "/").encode() + b"\0")
            with open(path, "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def stamp(png, digest):
    """``png`` with a tEXt chunk ``STAMP``: ``digest``, after its header."""
    return pngtext.add(png, STAMP, digest)


def stamped(png):
    """The digest ``stamp`` put in ``png``, or None."""
    return pngtext.read(png, STAMP)


class PictureError(Exception):
    """Something the user can fix, as one line."""


def take(tables_dir=os.path.join(web.ROOT, "build")):
    """The PNG of the page mid-game (bytes)."""
    chromium = shutil.which("chromium")
    if chromium is None:
        raise PictureError("chromium is not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        web.build(site, tables_dir)
        digest = inputs(site)
        httpd = web.server(site, 0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium)
                try:
                    ctx = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
                    ctx.clock.install(time=0)
                    ctx.clock.pause_at(1000)  # time stands still until we move it
                    page = ctx.new_page()
                    page.goto("http://127.0.0.1:%d/?board=pico-buttons" % httpd.server_address[1])
                    page.wait_for_function("window.board && board.ready", polling=50, timeout=60000)

                    def run(ms):
                        for _ in range(ms // STEP_MS):
                            page.clock.fast_forward(STEP_MS)

                    run(BOOT_MS)
                    for cell, ms in PRESSES:
                        page.get_by_role("button", name="cell %d" % cell, exact=True).click()
                        run(ms)
                    # Watch the hint pulse for a while, then run on to its peak.
                    blue = "board.leds[%d][2]" % HINT_CELL
                    peak = 0
                    for _ in range(PULSE_MS // STEP_MS):
                        page.clock.fast_forward(STEP_MS)
                        peak = max(peak, page.evaluate(blue))
                    for _ in range(PULSE_MS // STEP_MS):
                        if page.evaluate(blue) == peak:
                            break
                        page.clock.fast_forward(STEP_MS)
                    page.locator("#console").evaluate("el => el.scrollTop = el.scrollHeight")
                    png = page.screenshot(full_page=True)
                finally:
                    browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()
    return stamp(png, digest)
