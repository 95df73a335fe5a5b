"""The board in a browser (``make web``): what the page weighs and how soon
its first LED frame shows, in headless Chromium (Debian's, through
Playwright), over localhost.

* bytes transferred: every response's body, as the browser received it
  (the local server sends no compression; a static host that compresses
  sends fewer), split by the site's folder each came from, and the same
  files gzipped: the files the first load fetched (its requests, as the
  browser saw them), not every file of the site (the build guide's
  hardware/ folder is there for its links, and the page never loads it);
* time from navigation to: the interpreter started (MicroPython's
  WebAssembly port loaded and instantiated, in its frame) and the first LED
  frame the firmware latched (the self-test's first pixel), the median of
  ``RUNS`` fresh page loads, each in a new browser context (an empty cache);
* the firmware's own figures are in docs/performance.md's other sections.

Wall-clock figures on this machine (2 shared cores), not emulated time: a
desktop's are lower. ``python benchmarks/web.py`` prints the table (and
writes it to build/bench/web.md, benchmarks/report.py).
"""

import gzip
import os
import shutil
import statistics
import sys
import tempfile
import threading
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools import web  # noqa: E402

RUNS = 7


def _gzipped(path):
    with open(path, "rb") as f:
        return len(gzip.compress(f.read(), 9))


def measure(runs=RUNS):
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("chromium is not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        web.build(site)
        httpd = web.server(site, 0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/" % httpd.server_address[1]
        out = {"interpreter": [], "first_frame": [], "bytes": [], "requests": []}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium)
                for _ in range(runs):
                    ctx = browser.new_context()
                    page = ctx.new_page()
                    fetched = []
                    page.on("requestfinished", lambda r: fetched.append((r.url, r.sizes()["responseBodySize"])))
                    page.goto(url)
                    page.wait_for_function("window.board && board.frames > 0", timeout=60000)
                    t = page.evaluate("board.timings")
                    out["interpreter"].append(t["interpreter"])
                    out["first_frame"].append(t["firstFrame"])
                    out["bytes"].append(sum(size for _, size in fetched))
                    out["requests"].append(len(fetched))
                    out.setdefault("fetched", fetched)  # the first load's
                    ctx.close()
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()
        out["files"], out["gzipped"] = _by_folder(site, url, out["fetched"])
    return out


def _by_folder(site, url, fetched):
    """``({folder: bytes}, gzipped)`` of the files of ``site`` the load
    ``fetched`` (``[(url, body bytes)]``): the bytes each of the site's
    folders sent ("" the top level: the page, its scripts, its style), and
    those files gzipped. A request for no file of the site (a 404, another
    host) counts its body in "" and nothing gzipped."""
    files, gzipped = {}, 0
    for address, size in fetched:
        ours = address.startswith(url)
        name = urllib.parse.unquote(urllib.parse.urlsplit(address).path).lstrip("/") if ours else ""
        name = name or "index.html"
        folder = name.split("/")[0] if ours and "/" in name else ""
        files[folder] = files.get(folder, 0) + size
        local = os.path.join(site, *name.split("/"))
        if ours and os.path.isfile(local):
            gzipped += _gzipped(local)
    return dict(sorted(files.items())), gzipped


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=RUNS, help="page loads (default %(default)s)")
    m = measure(ap.parse_args(argv).runs)
    print("| figure | value |")
    print("|---|---|")
    print("| bytes transferred (first load, no compression) | %d (%.2f MB) in %d requests |"
          % (m["bytes"][0], m["bytes"][0] / 1e6, m["requests"][0]))
    for sub, size in m["files"].items():
        print("| of which %s | %d |" % (sub + "/" if sub else "the page (index.html, its scripts and style)", size))
    print("| the same files gzipped (about what a static host that compresses sends) | %d (%.2f MB) |"
          % (m["gzipped"], m["gzipped"] / 1e6))
    print("| navigation to interpreter started, median of %d (min-max) | %d ms (%d-%d) |"
          % (len(m["interpreter"]), statistics.median(m["interpreter"]), min(m["interpreter"]),
             max(m["interpreter"])))
    print("| navigation to first LED frame, median of %d (min-max) | %d ms (%d-%d) |"
          % (len(m["first_frame"]), statistics.median(m["first_frame"]), min(m["first_frame"]),
             max(m["first_frame"])))
    return m


if __name__ == "__main__":
    import report

    with report.record(__file__):
        main()
