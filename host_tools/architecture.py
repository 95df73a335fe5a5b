"""The firmware's shape: which module of ``firmware/tactictoe/`` imports which,
read from the sources, and docs/architecture.svg drawn from it.

Every ``import`` and ``from ... import`` counts, at any depth: the firmware
imports many of its parts inside a function, so that a board loads them only
when it needs them (``late`` below). Relative imports are resolved as the
runtime resolves them: ``from . import x`` names the submodule ``x`` when
``x.py`` or ``x/`` exists, else a name in the package itself; a package is its
``__init__.py``. Only the package's own modules are kept (``micropython``,
``machine``, ``gc``... are not in the graph).

A module is named as the host imports it (``tactictoe.run.loop``); a *room* is
a sub-package (``run``), or a module at the top (``main``, ``check``), or the
package's own ``__init__`` (``tactictoe``, which holds ``unload``).

``python -m host_tools.architecture`` (``make architecture``) writes
docs/architecture.svg: the rooms as boxes, each listing its modules, and an
arrow from room to room for the imports between them, in layers by
dependency (a room above the rooms it imports). The same sources give the same
bytes; nothing is downloaded and no graphviz is needed.
"""

import argparse
import ast
import os
import re
import sys
from collections import namedtuple
from itertools import permutations

from host_tools import outputs
from host_tools.hardware import svg
from host_tools.oserrors import reported

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "firmware", "tactictoe")
PICTURE = os.path.join(ROOT, "docs", "architecture.svg")


class ArchitectureError(Exception):
    """A source that can't be read or parsed, or a picture that can't be written."""


# --- the import graph --------------------------------------------------------------

Import = namedtuple("Import", "module target line late")
Import.__doc__ = """One import of the package's own: ``module`` imports ``target`` (both
dotted, as ``tactictoe.run.loop``) at ``line``; ``late`` when it is inside a
function (it runs when the function is called, not when the module loads)."""


def modules(root=PACKAGE):
    """``{dotted name: path}`` of every module of the package at ``root``
    (its folder's name is the package's), sub-packages (folders with an
    ``__init__.py``) included, a package by its ``__init__.py``."""
    package = os.path.basename(os.path.normpath(root))
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if os.path.isfile(os.path.join(folder, d, "__init__.py")))
        under = os.path.relpath(folder, root)
        parts = [package] + ([] if under == os.curdir else under.split(os.sep))
        for name in sorted(files):
            if name.endswith(".py"):
                found[".".join(parts + ([] if name == "__init__.py" else [name[:-3]]))] = os.path.join(folder, name)
    return found


def _parse(path):
    try:
        with open(path, encoding="utf-8") as f:
            return ast.parse(f.read(), path)
    except (OSError, UnicodeDecodeError, SyntaxError) as e:
        raise ArchitectureError("cannot read %s: %s" % (path, e)) from None


def _import_nodes(tree):
    """``(node, late)`` for every import statement in ``tree``, in the order
    of the source; ``late``: inside a function or a lambda."""
    found = []
    stack = [(tree, False)]
    while stack:
        node, late = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append((node, late))
        inner = late or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return sorted(found, key=lambda item: (item[0].lineno, item[0].col_offset))


def _known(dotted, mods):
    """``dotted`` if it is a module of the package, else the module that holds
    the name (``tactictoe.table.TableError`` -> ``tactictoe.table``), else None
    (not the package's)."""
    while dotted and dotted not in mods:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def _targets(node, module, mods, package):
    """The package's modules one import statement of ``module`` names."""
    if isinstance(node, ast.Import):
        return [_known(alias.name, mods) for alias in node.names if alias.name.split(".")[0] == package]
    if node.level:
        here = module.split(".") if mods[module].endswith("__init__.py") else module.split(".")[:-1]
        if node.level - 1 >= len(here):
            return []  # beyond the package's top: not the package's
        base = ".".join(here[:len(here) - (node.level - 1)] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
        if base.split(".")[0] != package:
            return []
    # ``from base import x``: the submodule base.x if there is one, else the
    # name x of base itself.
    return [_known(base + "." + alias.name, mods) if base + "." + alias.name in mods else _known(base, mods)
            for alias in node.names]


def imports(root=PACKAGE):
    """Every import of the package's own modules in the package at ``root``:
    a list of ``Import``, by module, then line."""
    mods = modules(root)
    package = os.path.basename(os.path.normpath(root))
    found = []
    for module in sorted(mods):
        for node, late in _import_nodes(_parse(mods[module])):
            for target in _targets(node, module, mods, package):
                if target is not None:
                    found.append(Import(module, target, node.lineno, late))
    return found


def graph(root=PACKAGE):
    """``{module: sorted list of the modules it imports}``, every module of
    the package at ``root`` a key (one that imports none of the package's
    maps to ``[]``)."""
    out = {module: set() for module in modules(root)}
    for imp in imports(root):
        out[imp.module].add(imp.target)
    return {module: sorted(targets) for module, targets in sorted(out.items())}


def _components(nodes, edges):
    """The strongly connected components of the graph (Tarjan's, without
    recursion), each a sorted list, in sorted order."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    found.append(sorted(component))
    return sorted(found)


def cycles(g):
    """The import circles of graph ``g`` (``{module: modules it imports}``):
    each strongly connected component of more than one module, or a module
    that imports itself, as a sorted list; [] when there is none."""
    return [c for c in _components(g, g) if len(c) > 1 or c[0] in g.get(c[0], ())]


def circle(g, component):
    """One shortest round of imports inside ``component`` (one of
    ``cycles(g)``), from its first module back to it: ``[a, b, ..., a]``."""
    start = component[0]
    inside = set(component)
    came = {start: None}
    queue = [start]
    for node in queue:
        for nxt in g.get(node, ()):
            if nxt == start:
                path = [node]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return path[::-1] + [start]
            if nxt in inside and nxt not in came:
                came[nxt] = node
                queue.append(nxt)
    return None


def room_of(module):
    """The room of ``module``: its sub-package (``tactictoe.run.loop`` ->
    ``run``), a top module's own name (``tactictoe.main`` -> ``main``), or the
    package's name for its ``__init__`` (``tactictoe``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def members(g):
    """``{room: sorted list of its modules}``."""
    out = {}
    for module in sorted(g):
        out.setdefault(room_of(module), []).append(module)
    return out


def rooms(g):
    """``g`` folded to rooms: ``{room: sorted list of the other rooms its
    modules import}``, every room a key."""
    out = {room: set() for room in members(g)}
    for module, targets in g.items():
        for target in targets:
            if room_of(target) != room_of(module):
                out[room_of(module)].add(room_of(target))
    return {room: sorted(targets) for room, targets in sorted(out.items())}


# --- the package's own rules (tests/test_architecture.py) ---------------------------

# A module named for where it was cut off rather than for what it holds
# ("rules_extra", "table_more", "app2"...).
HEAP_NAME = re.compile(r"(?:^|_)(?:extras?|more|misc|rest|others?|aux|helpers?|utils?|common|stuff|part\d*|split"
                       r"|new|old|tmp|\d+)$")


def heap_names(root=PACKAGE):
    """The modules (and sub-packages) of the package at ``root`` whose name
    says where it was cut off, not what it holds (``HEAP_NAME``), sorted."""
    return sorted(m for m in modules(root) if any(HEAP_NAME.search(part) for part in m.split(".")[1:]))


def absolute_imports(root=PACKAGE):
    """``[(path, line, text)]`` for each import of the package's own modules
    by its own name inside the package at ``root`` (``import tactictoe.x``,
    ``from tactictoe import x``, ``__import__("tactictoe.x")``): the package
    imports itself relatively, so that it runs wherever it is installed. A
    name in a docstring or any other string is no import."""
    package = os.path.basename(os.path.normpath(root))
    found = []
    for module, path in sorted(modules(root).items()):
        tree = _parse(path)
        with open(path, encoding="utf-8") as f:
            source = f.read()
        for node in ast.walk(tree):
            named = []
            if isinstance(node, ast.Import):
                named = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                named = [node.module or ""]
            elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)
                  and (isinstance(node.func, ast.Name) and node.func.id == "__import__"
                       or isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")):
                named = [node.args[0].value]
            if any(name.split(".")[0] == package for name in named):
                found.append((os.path.relpath(path, os.path.dirname(os.path.normpath(root))), node.lineno,
                              ast.get_source_segment(source, node)))
    return sorted(found)


# --- the picture's layout --------------------------------------------------------------

# What each room is for, under its name in the picture (a room not named here
# gets none).
CAPTIONS = {
    "main": "power-on: main.run()",
    "check": "a maker's checks at the REPL",
    "tactictoe": "the package: unload()",
    "run": "power-on, then the loop",
    "flow": "the game flow (App)",
    "words": "narration and the screen",
    "teach": "review, puzzles, score",
    "players": "choose_move and its levels",
    "table": "the solved table",
    "board": "config and hardware layer",
    "devices": "one driver per chip",
    "games": "rules, encoding, symmetries",
    "files": "CRC-32, file errors in words",
}

# Colours of the rooms that import others: each room's arrows are its own.
COLOURS = ("#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#ad1457", "#6d4c41", "#558b2f",
           "#283593", "#9e9d24", "#37474f")
MONO = 'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace"'

MARGIN = 24
HEADER = 64  # the title and its line
LAYER_GAP = 84  # between one layer's boxes and the next's: where the arrows bend
PAD = 12  # inside a box
TITLE_SIZE, CAPTION_SIZE, MODULE_SIZE = 15, 11, 12
LINE = 16  # a line of module names
MODULES_WIDE = 34  # characters of module names a line, at most
BOX_MIN = 150
SPACE = {(True, True): 40, (True, False): 16, (False, True): 16, (False, False): 9}  # between neighbours, by box-ness


def _wrap(names, wide=MODULES_WIDE):
    lines, line = [], ""
    for name in names:
        if line and len(line) + 2 + len(name) > wide:
            lines.append(line)
            line = name
        else:
            line = line + "  " + name if line else name
    return lines + ([line] if line else [])


def _holds_code(path):
    """True unless the file holds no statement but a docstring."""
    body = _parse(path).body
    return bool(body[1:] if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                else body)


class Box:
    """A room's box: its title, caption and module lines, and its size."""

    def __init__(self, room, mods, top_module, files):
        self.room = room
        if top_module:  # a module at the package's top, or its __init__
            path = files[mods[0]]
            self.title = os.path.basename(path)
            self.lines = []
        else:
            self.title = room + "/"
            leaves = [m.rpartition(".")[2] if m.count(".") > 1 else "__init__" for m in mods]
            self.lines = _wrap([leaf for leaf, m in zip(leaves, mods) if leaf != "__init__" or _holds_code(files[m])])
        self.caption = CAPTIONS.get(room, "")
        width = max(len(self.title) * TITLE_SIZE * 0.62, len(self.caption) * CAPTION_SIZE * 0.56,
                    max([len(line) for line in self.lines] or [0]) * MODULE_SIZE * 0.6)
        self.w = max(BOX_MIN, round(width) + 2 * PAD)
        self.h = PAD + TITLE_SIZE + (CAPTION_SIZE + 6 if self.caption else 0) + LINE * len(self.lines) + PAD + 2


def _order_component(component, weight):
    """The order, top first, of the rooms of one circle of rooms that puts the
    least weight of imports upwards (exactly, for up to 7 rooms; else
    greedily); ties go to the first order in sorted order."""
    def upward(order):
        at = {room: i for i, room in enumerate(order)}
        return sum(w for (a, b), w in weight.items() if a in at and b in at and at[a] > at[b])

    if len(component) <= 7:
        return min(permutations(component), key=lambda order: (upward(order), order))
    order, left = [], sorted(component)
    while left:  # each time, on top, the room that imports the others the most and is imported the least
        pick = min(left, key=lambda r: (sum(weight.get((o, r), 0) - weight.get((r, o), 0) for o in left), r))
        order.append(pick)
        left.remove(pick)
    return tuple(order)


def _isotonic(values, weights):
    """Pool adjacent violators: the non-decreasing sequence nearest ``values``
    (least squares, weighted)."""
    blocks = []
    for v, w in zip(values, weights):
        blocks.append([v * w, w, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, w2, n = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += w2
            blocks[-1][2] += n
    out = []
    for total, w, n in blocks:
        out += [total / w] * n
    return out


class Layout:
    """Rooms in layers, top first, each room above the rooms it imports,
    but where two or more rooms import each other: there the order that sends
    the fewest imports up (an eager one counts twice a late one's); arrows
    that pass a layer go through it beside its boxes."""

    def __init__(self, found, files):
        g = {}
        for imp in found:
            g.setdefault(imp.module, set()).add(imp.target)
        mods = members({m: () for m in files})
        # A room of one module at the top (main, check) or of the package's
        # own __init__ is titled with its file; a sub-package with its name.
        self.boxes = {room: Box(room, ms, len(ms) == 1 and (ms[0].count(".") == 0 or ms[0].count(".") == 1
                                                           and not files[ms[0]].endswith("__init__.py")), files)
                      for room, ms in mods.items()}
        # The imports between rooms: {(from room, to room): [Import]}
        self.between = {}
        for imp in found:
            a, b = room_of(imp.module), room_of(imp.target)
            if a != b:
                self.between.setdefault((a, b), []).append(imp)
        weight = {edge: sum(1 if imp.late else 2 for imp in set(imps)) for edge, imps in self.between.items()}
        out = {room: sorted(b for (a, b) in self.between if a == room) for room in self.boxes}
        # Circles of rooms: each ordered, and its imports against the order turned round.
        self.up = set()
        for component in _components(self.boxes, out):
            if len(component) > 1:
                at = {room: i for i, room in enumerate(_order_component(component, weight))}
                self.up |= {(a, b) for (a, b) in self.between if a in at and b in at and at[a] > at[b]}
        down = {room: sorted(b if (room, b) not in self.up else room for b in out[room]) for room in self.boxes}
        for (a, b) in self.up:  # drawn as b above a: b -> a in the layering
            down[b] = sorted(set(down[b]) | {a})
        for room in down:
            down[room] = sorted(set(down[room]) - {room})
        height = {}

        def tall(room):
            if room not in height:
                height[room] = 1 + max([tall(b) for b in down[room]] or [-1])
            return height[room]

        for room in sorted(self.boxes):
            tall(room)
        top = max(height.values())
        self.layer = {room: top - h for room, h in height.items()}
        self.layers = [[] for _ in range(top + 1)]
        # Chains: each arrow as a run of nodes down the layers, a dummy node
        # for each layer it passes.
        self.chains = {}
        for (a, b) in sorted(self.between):
            upper, lower = (b, a) if (a, b) in self.up else (a, b)
            chain = [upper]
            for layer in range(self.layer[upper] + 1, self.layer[lower]):
                dummy = ("|", a, b, layer)
                self.layer[dummy] = layer
                chain.append(dummy)
            chain.append(lower)
            self.chains[(a, b)] = chain
        for node in sorted(self.layer, key=self._key):
            self.layers[self.layer[node]].append(node)
        self.above, self.below = {n: [] for n in self.layer}, {n: [] for n in self.layer}
        for chain in self.chains.values():
            for u, v in zip(chain, chain[1:]):
                self.below[u].append(v)
                self.above[v].append(u)
        self._order()
        self._place()

    @staticmethod
    def _key(node):
        return (1, node) if isinstance(node, tuple) else (0, node, ())

    def width(self, node):
        return self.boxes[node].w if node in self.boxes else 0

    def _crossings(self, layers):
        total = 0
        for upper, lower in zip(layers, layers[1:]):
            at = {n: i for i, n in enumerate(lower)}
            edges = sorted((i, at[v]) for i, u in enumerate(upper) for v in self.below[u])
            for k, (i, j) in enumerate(edges):
                for i2, j2 in edges[k + 1:]:
                    total += i2 > i and j2 < j
        return total

    def _order(self):
        """Order each layer to cross few arrows: barycentre sweeps, down and
        up, the order with the fewest crossings kept."""
        layers = [list(layer) for layer in self.layers]
        best, best_count = [list(layer) for layer in layers], self._crossings(layers)
        for sweep in range(24):
            downwards = sweep % 2 == 0
            rows = range(1, len(layers)) if downwards else range(len(layers) - 2, -1, -1)
            for r in rows:
                ref = {n: i for i, n in enumerate(layers[r - 1 if downwards else r + 1])}
                near = self.above if downwards else self.below

                def centre(node, i):
                    linked = [ref[n] for n in near[node]]
                    return (sum(linked) / len(linked) if linked else i, self._key(node))

                layers[r] = [n for i, n in sorted(enumerate(layers[r]), key=lambda item: centre(item[1], item[0]))]
            count = self._crossings(layers)
            if count < best_count:
                best, best_count = [list(layer) for layer in layers], count
        self.layers = best

    def _place(self):
        """x of each node (its centre): each near the mean of the nodes it is
        linked to, in its layer's order, neighbours kept apart."""
        x = {}
        for layer in self.layers:
            at = 0
            for node in layer:
                x[node] = at + self.width(node) / 2
                at += self.width(node) + SPACE[(node in self.boxes, True)]
        for sweep in range(40):
            for layer in (self.layers if sweep % 2 == 0 else self.layers[::-1]):
                offsets, at = [], 0
                for i, node in enumerate(layer):
                    if i:
                        prev = layer[i - 1]
                        at += (self.width(prev) + self.width(node)) / 2 + SPACE[
                            (prev in self.boxes, node in self.boxes)]
                    offsets.append(at)
                wanted, weights = [], []
                for node, offset in zip(layer, offsets):
                    linked = [x[n] for n in self.above[node] + self.below[node]]
                    wanted.append((sum(linked) / len(linked) if linked else x[node]) - offset)
                    weights.append(2 if node in self.boxes else 1)
                for node, y, offset in zip(layer, _isotonic(wanted, weights), offsets):
                    x[node] = y + offset
        left = min(x[n] - self.width(n) / 2 for n in x)
        self.x = {n: round(x[n] - left + MARGIN, 1) for n in x}
        self.right = max(self.x[n] + self.width(n) / 2 for n in x) + MARGIN
        # y: each layer as tall as its tallest box, boxes hung from its top
        self.top, self.bottom = [], []
        at = MARGIN + HEADER
        for layer in self.layers:
            self.top.append(at)
            at += max([self.boxes[n].h for n in layer if n in self.boxes] or [0])
            self.bottom.append(at)
            at += LAYER_GAP

    def ports(self):
        """``{(arrow, end): x}``: where each arrow leaves its upper box's
        bottom (end 0) and enters its lower box's top (end 1), spread along
        the edge in the order of where they go."""
        at = {}
        for room in sorted(self.boxes):
            for end in (0, 1):
                here = []
                for edge, chain in sorted(self.chains.items()):
                    if chain[-1 if end else 0] == room:
                        near, far = (chain[-2], chain[0]) if end else (chain[1], chain[-1])
                        here.append(((self.x[near], self.x[far], edge), edge))
                here.sort()
                w = self.boxes[room].w - 2 * PAD
                for i, (_, edge) in enumerate(here):
                    at[(edge, end)] = round(self.x[room] - w / 2 + w * (i + 1) / (len(here) + 1), 1)
        return at


def _colours(layout):
    """A colour for each room that imports another, in the picture's order
    (top to bottom, left to right)."""
    sources = {a for (a, b) in layout.between}
    ordered = [n for layer in layout.layers for n in layer if n in sources]
    return {room: COLOURS[i % len(COLOURS)] for i, room in enumerate(ordered)}


def _marker(name, colour):
    return ('<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8"'
            ' markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/>'
            '</marker>' % (name, colour))


def _f(v):
    return ("%.1f" % v).rstrip("0").rstrip(".")


def draw(root=PACKAGE):
    """docs/architecture.svg's text for the package at ``root``."""
    files = modules(root)
    found = imports(root)
    layout = Layout(found, files)
    colours = _colours(layout)
    ports = layout.ports()
    boxes = layout.boxes
    width = max(layout.right, 760)
    legend_y = layout.bottom[-1] + 34
    height = legend_y + 70
    package = os.path.basename(os.path.normpath(root))
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">'
           % (_f(width), _f(height), _f(width), _f(height)),
           "<title>firmware/%s: the rooms and their imports</title>" % svg.esc(package),
           "<defs>%s</defs>" % "".join(_marker("to-%s" % room, colour) for room, colour in sorted(colours.items())),
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           svg.text(MARGIN, MARGIN + 18, "firmware/%s/: the rooms and their imports" % package, 19, weight="bold"),
           svg.text(MARGIN, MARGIN + 40, "each box a room (a sub-package, or a module at the top) and its modules;"
                    " an arrow A \u2192 B: a module of A imports one of B", 12, fill=svg.MUTED)]
    # The arrows first, the boxes over their ends.
    for (a, b), chain in sorted(layout.chains.items()):
        up = (a, b) in layout.up
        imps = layout.between[(a, b)]
        late = all(imp.late for imp in imps)
        points = [(ports[((a, b), 0)], boxes[chain[0]].h + layout.top[layout.layer[chain[0]]])]
        d = ["M%s %s" % (_f(points[0][0]), _f(points[0][1]))]
        level = layout.layer[chain[0]]
        if points[0][1] < layout.bottom[level]:
            d.append("V%s" % _f(layout.bottom[level]))
        x0 = points[0][0]
        for node in chain[1:]:
            level = layout.layer[node]
            x1 = ports[((a, b), 1)] if node is chain[-1] else layout.x[node]
            y0, y1 = layout.bottom[level - 1], layout.top[level]
            mid = (y0 + y1) / 2
            d.append("C%s %s %s %s %s %s" % (_f(x0), _f(mid), _f(x1), _f(mid), _f(x1), _f(y1)))
            if node is not chain[-1]:
                d.append("V%s" % _f(layout.bottom[level]))
            x0 = x1
        said = ", ".join("%s \u2192 %s%s" % (imp.module.partition(".")[2] or imp.module,
                                              imp.target.partition(".")[2] or imp.target,
                                              " (late)" if imp.late else "")
                         for imp in sorted(set(i._replace(line=0) for i in imps)))
        colour = colours[a]
        out.append('<path d="%s" fill="none" stroke="%s" stroke-width="1.6"%s %s="url(#to-%s)">'
                   '<title>%s \u2192 %s: %s%s</title></path>'
                   % (" ".join(d), colour, ' stroke-dasharray="6 4"' if late else "",
                      "marker-start" if up else "marker-end", a, a, b, svg.esc(said),
                      " (up: %s and %s import each other)" % (a, b) if up else ""))
    for room, box in sorted(boxes.items()):
        x = layout.x[room] - box.w / 2
        y = layout.top[layout.layer[room]]
        out.append(svg.rect(x, y, box.w, box.h, fill="#f6f7f9", stroke=colours.get(room, svg.INK), width=2, rx=6))
        at = y + PAD + TITLE_SIZE - 2
        out.append(svg.text(x + PAD, at, box.title, TITLE_SIZE, weight="bold"))
        if box.caption:
            at += CAPTION_SIZE + 6
            out.append(svg.text(x + PAD, at, box.caption, CAPTION_SIZE, fill=svg.MUTED))
        for line in box.lines:
            at += LINE
            out.append('<text x="%s" y="%s" %s font-size="%d" fill="%s" xml:space="preserve">%s</text>'
                       % (_f(x + PAD), _f(at), MONO, MODULE_SIZE, svg.INK, svg.esc(line)))
    # The legend.
    y = legend_y
    out.append(svg.line(MARGIN, y - 4, MARGIN + 40, y - 4, stroke=svg.INK, width=1.6))
    out.append(svg.text(MARGIN + 50, y, "imported as the module loads", 12))
    out.append(svg.line(MARGIN + 250, y - 4, MARGIN + 290, y - 4, stroke=svg.INK, width=1.6,
                        extra=' stroke-dasharray="6 4"'))
    out.append(svg.text(MARGIN + 300, y, "imported only inside a function: loaded late, when needed", 12))
    out.append(svg.text(MARGIN, y + 22, "an arrow up into a box's bottom: an import against the layers, between"
                        " rooms that import each other; opened on its own, an arrow's tooltip names its imports", 12))
    out.append(svg.text(MARGIN, y + 44, "drawn from the sources by host_tools/architecture.py: make architecture"
                        " redraws it", 12, fill=svg.MUTED))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write(path=PICTURE, root=PACKAGE):
    """Write the picture to ``path`` (a temporary name, then renamed)."""
    text = draw(root)
    with reported(ArchitectureError, "cannot write %s" % path):
        outputs.write_file(path, text)
    return text


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.architecture",
                                description="Draw the firmware's rooms and the imports between them"
                                " (docs/architecture.svg), from the sources.")
    p.add_argument("-o", "--output", default=os.path.relpath(PICTURE), metavar="PATH",
                   help="the SVG to write (default docs/architecture.svg)")
    args = p.parse_args(argv)
    try:
        g = graph()
        write(args.output)
    except ArchitectureError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    folded = rooms(g)
    print("wrote %s: %d rooms, %d modules, %d imports between rooms"
          % (args.output, len(folded), len(g), sum(len(v) for v in folded.values())))
    for component in _components(folded, folded):
        if len(component) > 1:
            print("rooms that import each other: %s" % ", ".join(component))
    for component in cycles(g):
        print("import circle: %s" % " -> ".join(circle(g, component)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
