"""The Makefile's own edges: make help, the no-PORT answer of make
flash-table, and what make clean keeps."""

import fcntl
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import termios

from conftest import ROOT


def make(*args, cwd=ROOT):
    # As a person types it: not as a sub-make of `make test` (which would add
    # make[N] lines of its own).
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
    return subprocess.run(["make"] + list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_flash_table_without_port_names_flash_table():
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--table", "classic"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr.startswith("error: no PORT given: e.g. make flash-table GAME=classic PORT=/dev/"), r.stderr
    r = make("flash-table", "GAME=tactictoe")
    assert r.returncode != 0
    out = r.stdout + r.stderr
    assert "make flash-table GAME=tactictoe PORT=/dev/" in out, out
    assert "make flash PORT" not in out, out
    assert not re.search(r"^make\[\d+\]", out, re.M), out
    r = subprocess.run([sys.executable, "-m", "host_tools", "flash"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
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
    for name in ("Makefile", "requirements.txt", "requirements-nodeps.txt", "package-lock.json"):
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
        assert p.wait(timeout=120) == 0, text
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
    """Without a terminal (a script, a service), SIGINT stops it: no error."""
    p = subprocess.Popen([sys.executable, "-m", "host_tools", "web", "--port", "0"], cwd=ROOT, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out = ""
        for line in p.stdout:
            out += line
            if line.startswith("serving:"):
                break
        assert "serving:  http://localhost:" in out, out
        os.killpg(p.pid, signal.SIGINT)
        rest, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert rest == "stopped:  the server (Ctrl-C)\n" and err == ""
