"""Installing the game the ways a maker knows: ``mip`` from the mip
``package.json`` (as from GitHub; here from the local file, and over HTTP
from a server on this machine), and by hand from firmware/."""

import functools
import http.server
import json
import os
import threading

import pytest

from conftest import HANG_S, FIRMWARE, PACKAGE
from live_sim import ROOT, LiveSim, mpremote, play, reset, start_game
from tactictoe import ai, rules, table


def _package_files():
    """The package's files, and its devices/ package's (the bought boards' drivers)."""
    return sorted([n for n in os.listdir(PACKAGE) if n.endswith((".py", ".tbl", ".bin"))]
                  + ["devices/" + n for n in os.listdir(os.path.join(PACKAGE, "devices")) if n.endswith(".py")])


def test_the_mip_package_lists_every_file_of_the_package():
    with open(os.path.join(FIRMWARE, "package.json")) as f:
        package = json.load(f)
    assert sorted(package) == ["urls", "version"]
    want = [["tactictoe/" + n, "tactictoe/" + n] for n in _package_files()]
    assert sorted(package["urls"]) == want
    assert all(os.path.exists(os.path.join(FIRMWARE, url)) for _, url in package["urls"])


def test_the_committed_tables_are_the_solvers(solved_bytes):
    """mip and a copy by hand take the tables from firmware/tactictoe/: they
    must be what the solver writes today (`make table`, then copy them
    there, if this fails after a change to the rules or the format)."""
    for game, data in solved_bytes.items():
        with open(os.path.join(PACKAGE, rules.GAMES[game] + ".tbl"), "rb") as f:
            assert f.read() == data, "firmware/tactictoe/%s.tbl is stale: cp build/*.tbl firmware/tactictoe/" % (
                rules.GAMES[game])


@pytest.fixture
def web_server():
    """The repository over HTTP on localhost, as GitHub serves its files."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=ROOT)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    handler.log_message = lambda *a: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d" % server.server_address[1]
    server.shutdown()


def test_mip_installs_a_board_that_plays(tmp_path, web_server):
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "main.py").write_text("print('no game here yet')\n")
    (tmp_path / "none").mkdir()
    b = LiveSim(flash, "--no-update", "--tables", str(tmp_path / "none"), "--seed", "5")
    try:
        b.serial("no game here yet")
        # The package and its tables into /lib, from the local package.json.
        r = mpremote(b.port, "mip", "install", os.path.join(FIRMWARE, "package.json"), timeout=HANG_S)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "Installing: /lib/tactictoe/tactictoe.tbl" in r.stdout
        assert "Installing: /lib/tactictoe/puzzles.bin" in r.stdout
        # The two-line main.py at the root, by URL (as from github:OWNER/REPO).
        r = mpremote(b.port, "mip", "install", "--target", "/", web_server + "/firmware/main.py")
        assert r.returncode == 0, r.stdout + r.stderr
        for name in _package_files():
            with open(os.path.join(PACKAGE, name), "rb") as f:
                assert (flash / table.TABLES / name).read_bytes() == f.read(), name
        with open(os.path.join(FIRMWARE, "main.py"), "rb") as f:
            assert (flash / "main.py").read_bytes() == f.read()
        reset(b)
        # It plays, from the tables mip put there: perfect play draws.
        start_game(b, rules.CLASSIC)
        assert not any("not found" in line for line in b.lines)
        with table.Table(os.path.join(PACKAGE, "classic.tbl"), rules.CLASSIC) as t:
            pos, result = play(b, rules.CLASSIC, lambda p: ai.best_moves(t, p)[0])
        assert result == "serial classic: draw"
    finally:
        b.close()
