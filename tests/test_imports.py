"""The host tools' import structure: every module imports on its own, and
no chain of imports (at the top or inside a function) comes back to where
it started."""

import ast
import os
import subprocess
import sys

import pytest

from conftest import HANG_S, ROOT

HOST_TOOLS = os.path.join(ROOT, "host_tools")


def _modules():
    """Every module and package of host_tools, dotted below it ("cli",
    "sim", "sim.board"...): a package by its ``__init__.py``."""
    out = []
    for folder, dirs, files in os.walk(HOST_TOOLS):
        dirs[:] = sorted(d for d in dirs if os.path.exists(os.path.join(folder, d, "__init__.py")))
        under = os.path.relpath(folder, HOST_TOOLS).replace(os.sep, ".")
        for name in files:
            if name.endswith(".py") and name != "__main__.py":
                dotted = [] if under == "." else [under]
                if name != "__init__.py":
                    dotted.append(name[:-3])
                if dotted:
                    out.append(".".join(dotted))
    return sorted(out)


MODULES = _modules()


def _path(module):
    base = os.path.join(HOST_TOOLS, *module.split("."))
    return os.path.join(base, "__init__.py") if os.path.isdir(base) else base + ".py"


def _known(dotted):
    """``dotted`` if it is a host_tools module, else the package holding it
    (``sim.board.SimError`` -> ``sim.board``), else None."""
    while dotted and dotted not in MODULES:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def imports_of(module):
    """The host_tools modules that ``module`` imports, anywhere in it."""
    with open(_path(module)) as f:
        tree = ast.parse(f.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "host_tools" and not node.level:
            under = node.module[len("host_tools."):]
            out.update(_known((under + "." if under else "") + alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            out.update(_known(a.name[len("host_tools."):]) for a in node.names if a.name.startswith("host_tools."))
    return out - {None, module}


def cycle_from(graph, start):
    """A chain of imports from ``start`` back to it, or None."""
    stack = [(start, [start])]
    seen = set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(graph[node]):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


def test_no_host_tools_module_imports_itself_round_a_circle():
    graph = {m: imports_of(m) for m in MODULES}
    assert graph["sim"] >= {"sim.terminal", "sim.headless", "sim.board"}  # the walk sees imports
    assert {"sim.pico", "drive.uf2", "web.picture", "hardware.boards"} <= set(MODULES)  # and the packages
    cycles = [" -> ".join(c) for c in (cycle_from(graph, m) for m in MODULES) if c]
    assert not cycles, "import circles: %s" % "; ".join(cycles)


def test_the_finder_sees_a_circle():
    assert cycle_from({"a": {"b"}, "b": {"c"}, "c": {"a"}}, "a") == ["a", "b", "c", "a"]
    assert cycle_from({"a": {"b"}, "b": set()}, "a") is None


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_on_its_own(module):
    r = subprocess.run([sys.executable, "-c", "import host_tools.%s" % module], cwd=ROOT,
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stderr
