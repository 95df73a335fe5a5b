"""``benchmarks/web.py``'s byte counts: what the page's load fetched, by the
site's folder, and those files gzipped; a folder of the site the load never
asked for (the build guide's hardware/) counts in neither."""

import gzip
import os
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import web  # noqa: E402


def test_only_what_the_load_fetched_is_counted(tmp_path):
    site = tmp_path / "site"
    for name, data in {"index.html": b"<html>" * 50, "flash/main.py": b"import x\n" * 30,
                       "micropython/micropython.wasm": bytes(range(256)) * 8,
                       "hardware/guide.html": b"never fetched " * 4000}.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_bytes(data)
    url = "http://127.0.0.1:8000/"
    fetched = [(url, 300), (url + "flash/main.py", 270), (url + "micropython/micropython.wasm", 2048),
               (url + "favicon.ico", 30)]  # (a 404: its body counts with the page, no file gzipped)
    files, gzipped = web._by_folder(str(site), url, fetched)
    assert files == {"": 330, "flash": 270, "micropython": 2048}
    assert gzipped == sum(len(gzip.compress((site / n).read_bytes(), 9))
                          for n in ("index.html", "flash/main.py", "micropython/micropython.wasm"))
