"""The Makefile's own edges: make help, the no-PORT answer of make
flash-table, and what make clean keeps."""

import fcntl
import importlib.metadata
import os
import pty
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import termios

import pytest

from conftest import HANG_S, ROOT, run_cli
from host_tools import makevars


def make(*args, cwd=ROOT):
    # As a person types it: not as a sub-make of `make test` (which would add
    # make[N] lines of its own).
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
    return subprocess.run(["make"] + list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=HANG_S)


def test_flash_table_without_port_names_flash_table():
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--table", "classic"], cwd=ROOT,
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 1
    assert r.stderr.startswith("error: no PORT given: e.g. make flash-table GAME=classic PORT=/dev/"), r.stderr
    r = make("flash-table", "GAME=tactictoe")
    assert r.returncode != 0
    out = r.stdout + r.stderr
    assert "make flash-table GAME=tactictoe PORT=/dev/" in out, out
    assert "make flash PORT" not in out, out
    assert not re.search(r"^make\[\d+\]", out, re.M), out
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash"], cwd=ROOT, capture_output=True, text=True,
                       timeout=HANG_S)
    assert r.returncode == 1 and "e.g. make flash PORT=/dev/" in r.stderr, r.stderr


def phony_targets():
    with open(os.path.join(ROOT, "Makefile")) as f:
        text = f.read().replace("\\\n", " ")
    return [t for line in text.splitlines() if line.startswith(".PHONY:") for t in line.split()[1:]]


def test_help_lists_every_target_once():
    r = make("help")
    assert r.returncode == 0, r.stderr
    listed = [line.split()[1] for line in r.stdout.splitlines()]
    assert all(line.startswith("  make ") and len(line.split()) > 2 for line in r.stdout.splitlines()), r.stdout
    phony = phony_targets()
    assert "help" in phony and "all" in phony
    assert sorted(listed) == sorted(set(phony)), r.stdout


def test_clean_keeps_the_simulators_flash_and_clean_sim_wipes_it(tmp_path):
    # In a copy, so the tables of this checkout stay.
    for name in ("Makefile", "requirements.txt", "requirements-nodeps.txt", "requirements-circuitpython.txt",
                 "requirements-test.txt", "package-lock.json"):
        shutil.copy(os.path.join(ROOT, name), tmp_path / name)
    build = tmp_path / "build"
    (build / "sim" / "pico-buttons").mkdir(parents=True)
    (build / "sim" / "pico-buttons" / "mine.py").write_text("print('kept')\n")
    (build / "sim" / "rp2040-pico-buttons.lfs").write_bytes(b"\xff" * 16)
    (build / "web").mkdir()
    (build / "web" / "index.html").write_text("")
    (build / "classic.tbl").write_bytes(b"TTTB")
    (tmp_path / ".pytest_cache").mkdir()
    r = make("clean", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(build)) == ["sim"]
    assert (build / "sim" / "pico-buttons" / "mine.py").read_text() == "print('kept')\n"
    assert (build / "sim" / "rp2040-pico-buttons.lfs").exists()
    assert not (tmp_path / ".pytest_cache").exists()
    assert "make clean-sim" in r.stdout
    r = make("clean-sim", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert not (build / "sim").exists()
    r = make("clean", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert not build.exists()


def test_readme_names_what_ci_installs():
    """What .ci/run has to install is a prerequisite the README lists."""
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        installed = set(re.findall(r"apt-get install -y -qq ([\w-]+)", f.read()))
    assert installed >= {"tmux", "chromium"}
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    for name in sorted(installed):
        assert "apt-get install" in readme and re.search(r"`apt-get install[^`]*\b%s\b" % name, readme), name
    assert "Python 3.11 or newer" in readme and "Node.js 20 or newer" in readme


def read_until(fd, done, limit=600):
    """What the terminal at ``fd`` (a pty's master) shows, read until
    ``done(text)`` or the program's end; ``limit`` seconds at most, a
    guard against a hang, not a measure."""
    text = ""
    while not done(text):
        ready, _, _ = select.select([fd], [], [], limit)
        assert ready, "nothing more after %ds:\n%s" % (limit, text)
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: every program on the terminal has ended
            break
        if not chunk:
            break
        text += chunk.decode(errors="replace")
    return text


def test_ctrl_c_stops_make_web_cleanly():
    """Ctrl-C typed at the terminal, as a person stops the server: it says
    so, make reports no error, and the terminal gets its settings back."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}

    def own_terminal():  # in the child, after setsid: the pty is its controlling terminal, as in a shell
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    p = subprocess.Popen(["make", "--no-print-directory", "web", "WEB_PORT=0"], cwd=ROOT, env=env, stdin=slave,
                         stdout=slave, stderr=slave, start_new_session=True, preexec_fn=own_terminal)
    os.close(slave)  # make's now: the terminal ends when make and its children do
    try:
        text = read_until(master, lambda t: "(Ctrl-C stops)" in t)
        assert "serving:  http://localhost:" in text, text
        os.write(master, b"\x03")  # the terminal's interrupt key
        text += read_until(master, lambda t: False)
        assert p.wait(timeout=HANG_S) == 0, text
        settings = termios.tcgetattr(master)  # a pty's master has its terminal's settings
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    assert text.rstrip().endswith("stopped:  the server (Ctrl-C)"), text
    for word in ("make: ***", "Error", "Interrupt", "interrupted", "Traceback"):
        assert word not in text, text
    assert settings[6][termios.VINTR] == b"\x03"
    assert settings[3] & termios.ECHO and settings[3] & termios.ICANON


def test_sigint_stops_the_web_server_with_status_0():
    """Without a terminal (a script, a service), SIGINT stops it: no error.
    (SIGINT as a shell leaves it: a background job of a script, such as
    `make test &` in one, inherits it ignored, and a server started from
    there rightly ignores it too.)"""
    p = subprocess.Popen([sys.executable, "-m", "host_tools", "web", "--port", "0"], cwd=ROOT, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        out = ""
        for line in p.stdout:
            out += line
            if line.startswith("serving:"):
                break
        assert "serving:  http://localhost:" in out, out
        os.killpg(p.pid, signal.SIGINT)
        rest, err = p.communicate(timeout=HANG_S)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert rest == "stopped:  the server (Ctrl-C)\n" and err == ""


@pytest.mark.parametrize("args, line", [
    (["sim", "CHIP=rp2050"], "error: CHIP=rp2050: not one of unix, rp2040"),
    (["uf2", "RUNTIME=cpython"], "error: RUNTIME=cpython: not one of micropython, circuitpython"),
    (["web", "WEB_PORT=eighty"], "error: WEB_PORT=eighty: 'eighty' is not a port: give 1-65535 (or 0: any free one)"),
    (["uf2", "GAMES=classic,chess"], "error: GAMES=classic,chess: no game 'chess' (games: classic, tactictoe)"),
    (["flash", "PORT=/dev/null", "GAMES=chess"], "error: GAMES=chess: no game 'chess' (games: classic, tactictoe)"),
    (["circuitpy", "DEST=.", "GAMES=go"], "error: GAMES=go: no game 'go' (games: classic, tactictoe)"),
    # make's variables are case-sensitive: a lower-case one would be ignored without a word
    (["sim", "board=macropad"], "error: board=macropad: make's variables are case-sensitive and the Makefile has"
                                " no board=; give BOARD=macropad"),
    (["uf2", "BOARD=pico-matrix", "Games=classic"], "error: Games=classic: make's variables are case-sensitive and"
                                                    " the Makefile has no Games=; give GAMES=classic"),
])
def test_a_mistyped_make_variable_is_named_as_typed(args, line):
    """Not as the flag make passed it on as (--chip), which the user never saw."""
    r = make(*args)
    assert r.returncode != 0
    lines = r.stderr.splitlines()
    assert lines[0] == line, r.stderr
    assert len(lines) == 2 and re.fullmatch(r"make: \*\*\* \[Makefile:\d+: %s\] Error 2" % args[0], lines[1]), r.stderr
    assert "--" not in r.stderr and "Traceback" not in r.stderr
    assert "solve --game" not in r.stdout  # no table solved for a game that isn't one


def test_a_busy_port_is_named_as_the_user_gave_it():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = make("web", "WEB_PORT=%d" % port)
        assert r.returncode != 0
        assert r.stderr.splitlines()[0] == ("error: cannot serve on port %d: Address already in use"
                                            " (pick another, e.g. WEB_PORT=8080)" % port), r.stderr
        r = run_cli("web", "--port", port)
        assert r.returncode == 1 and r.stdout.startswith("built:    ")
        assert r.stderr.endswith(": Address already in use (pick another, e.g. --port 8080)\n"), r.stderr
        assert r.stderr.count("\n") == 1


def test_the_makefile_and_the_table_of_make_variables_agree():
    """Each variable a recipe passes as a flag to `--via-make COMMAND` is the
    one host_tools/makevars.py names for it, and the other way round."""
    with open(os.path.join(ROOT, "Makefile")) as f:
        text = f.read()
    assert "TOOLS  := $(PY) -m host_tools --via-make\n" in text
    derived = {"UF2_BOARD": "BOARD"}  # UF2_BOARD is BOARD, or a default
    found = {}
    for command, rest in re.findall(r"^\t@\$\(TOOLS\) ([\w-]+) (.*)$", text, re.M):
        flags = found.setdefault(command, {})
        for flag, var in re.findall(r"(--[\w-]+) \"?\$\((?:or \$\()?(\w+)\)", rest):
            flags[flag] = derived.get(var, var)
    assert found == makevars.FLAG_VARS
    # and no other recipe runs a tool that takes a variable without --via-make
    assert not re.search(r"^\t.*-m host_tools (sim|web|flash|uf2|circuitpy) ", text, re.M)


def test_make_variable_names_in_messages():
    try:
        makevars.start(["--via-make", "sim", "--chip", "rp2050", "--flash=x.lfs"])
        assert makevars.name("--flash", "FILE") == "SIM_FLASH=FILE"
        assert makevars.name("--seed", 1) == "--seed 1"  # no variable fills it
        line = makevars.usage_error("argument --flash: expected one argument")
        assert line == "SIM_FLASH=x.lfs: expected one argument"
        assert makevars.usage_error("argument --seed: invalid int value: 'x'") is None
        assert makevars.usage_error("the following arguments are required: --x") is None
        assert makevars.start(["web", "--port", "1"]) == ["web", "--port", "1"]  # not through make
        assert makevars.name("--port", 8080) == "--port 8080"
        assert makevars.usage_error("argument --port: invalid int value: 'x'") is None
    finally:
        makevars.start([])


def test_a_sim_flash_that_is_not_a_pico_filesystem_is_named_as_given(tmp_path):
    from host_tools.sim import pico
    from host_tools.sim.board import SimError, wiring

    bad = tmp_path / "bad.lfs"
    bad.write_bytes(b"not littlefs" * 100)
    path, cfg = wiring("pico-buttons")
    try:
        for argv, named in ((["--via-make", "sim", "--flash", str(bad)], "SIM_FLASH=FILE"),
                            (["sim", "--flash", str(bad)], "--flash FILE")):
            makevars.start(argv)
            with pytest.raises(SimError) as e:
                pico.prepare_flash_file(str(bad), cfg, path)
            assert str(e.value).startswith("%s: " % bad) and str(e.value).endswith("or pick another (%s)" % named)
    finally:
        makevars.start([])


def _pins(name):
    with open(os.path.join(ROOT, name)) as f:
        return dict(line.split("==") for line in f.read().split("\n") if "==" in line and not line.startswith("#"))


def test_make_sim_installs_what_playing_needs_and_make_test_adds_the_rest(tmp_path):
    """A fresh clone's first make sim installs requirements.txt and not the
    tests' tools (pytest, hypothesis, mypy, playwright...); make test and
    make lint install both, requirements.txt as the constraints. Each
    file's pins hold everything its packages pull in (as installed here),
    so neither install takes an unpinned version."""
    from packaging.requirements import Requirement

    for name in ("Makefile", "requirements.txt", "requirements-nodeps.txt", "requirements-circuitpython.txt",
                 "requirements-test.txt", "pyproject.toml", "package.json", "package-lock.json"):
        shutil.copy(os.path.join(ROOT, name), tmp_path / name)
    with open(os.path.join(ROOT, "Makefile")) as f:
        sources = re.findall(r"^(?:SOLVER|PUZZLE)_SOURCES := (.*)$", f.read(), re.M)
    for path in " ".join(sources).split():  # what the tables are made from (-n: nothing is run)
        os.makedirs(tmp_path / os.path.dirname(path), exist_ok=True)
        (tmp_path / path).write_text("")
    sim = make("-n", "sim", cwd=tmp_path)  # what it would run, in a clone with no .venv yet
    assert sim.returncode == 0, sim.stderr
    assert "-m pip install --quiet --disable-pip-version-check -r requirements.txt\n" in sim.stdout
    assert "requirements-test.txt" not in sim.stdout and "stubs" not in sim.stdout
    for target in ("test", "lint"):
        r = make("-n", target, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert r.stdout.index("-r requirements.txt\n") < r.stdout.index("-c requirements.txt -r requirements-test.txt")
    play, tests = _pins("requirements.txt"), _pins("requirements-test.txt")
    assert not set(play) & set(tests)
    for pins, allowed in ((play, play), (tests, dict(play, **tests))):
        for package in pins:
            for spec in importlib.metadata.requires(package) or []:
                need = Requirement(spec)
                if need.marker is None or need.marker.evaluate({"extra": ""}):
                    assert need.name.lower().replace("_", "-") in {
                        p.lower().replace("_", "-") for p in allowed}, (package, spec)
