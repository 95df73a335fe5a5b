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
MODULES = sorted(name[:-3] for name in os.listdir(HOST_TOOLS) if name.endswith(".py") and name != "__main__.py")


def imports_of(module):
    """The host_tools modules that ``module`` imports, anywhere in it."""
    with open(os.path.join(HOST_TOOLS, module + ".py")) as f:
        tree = ast.parse(f.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "host_tools":
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("host_tools."):
            out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names if a.name.startswith("host_tools."))
    return out & set(MODULES)


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
    assert graph["sim"] >= {"sim_terminal", "sim_headless", "sim_board"}  # the walk sees imports
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
