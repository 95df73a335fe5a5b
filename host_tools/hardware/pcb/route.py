"""A small deterministic maze router for a two-layer board (the PCB's
traces; ``kicad.py`` calls it under KiCad's Python).

The board is a grid of nodes ``PITCH`` apart on two layers (0 top, 1
bottom). Traces run between neighbouring nodes (no diagonals) and change
layer through a via at a node. Each node of each layer keeps, for each kind
of copper that may go there (a thin trace, a power trace, a via), who may
use it: nobody yet (0), only one net (its number: it is that net's pad or
trace, or near it), or no one (-1, too near two nets, an edge or a hole).
The grid's pitch leaves the clearance between traces on neighbouring nodes,
so a node's owner is all the router has to keep. Nets are routed one after
another in a fixed order, each pad joined to the net's tree by an A* search
from the whole tree, so the same input always gives the same traces.

Plain Python (no KiCad, no numpy): pads and holes come in as dicts, traces
and vias go out as coordinates in mm.
"""

import heapq
import math

FREE, BLOCKED = 0, -1
KINDS = ("thin", "power", "via")


def pad_distance(pad, x, y):
    """Distance in mm from ``(x, y)`` to the copper of ``pad`` (negative
    inside): ``shape`` "circle", "rect" or "oval", centre ``x``/``y``, size
    ``w`` by ``h`` (already turned by the pad's rotation, a multiple of 90)."""
    dx, dy = abs(x - pad["x"]), abs(y - pad["y"])
    hw, hh = pad["w"] / 2, pad["h"] / 2
    if pad["shape"] == "rect":
        ox, oy = dx - hw, dy - hh
        if ox <= 0 and oy <= 0:
            return max(ox, oy)
        return math.hypot(max(ox, 0), max(oy, 0))
    # circle or oval (a stadium): distance to its middle segment, less the radius
    r = min(hw, hh)
    sx, sy = hw - r, hh - r
    return math.hypot(max(dx - sx, 0), max(dy - sy, 0)) - r


class Router:
    """The grid over the board ``(x0, y0)`` to ``(x1, y1)`` mm (y down, as
    KiCad's), ``pitch`` apart, anchored so that ``anchor`` is a node."""

    def __init__(self, box, pitch, clearance, half, anchor=(0.0, 0.0), edge=0.5, via_cost=10, bend_cost=3):
        x0, y0, x1, y1 = box
        self.pitch, self.clearance, self.half, self.edge = pitch, clearance, half, edge
        self.via_cost, self.bend_cost = via_cost, bend_cost
        self.ox = anchor[0] - math.floor((anchor[0] - x0) / pitch) * pitch
        self.oy = anchor[1] - math.floor((anchor[1] - y0) / pitch) * pitch
        self.nx = int((x1 - self.ox) / pitch) + 1
        self.ny = int((y1 - self.oy) / pitch) + 1
        self.box = box
        n = self.nx * self.ny
        self.owner = {kind: [[FREE] * n, [FREE] * n] for kind in KINDS}
        self.used = [[FREE] * n, [FREE] * n]  # the net whose copper is on the node
        for j in range(self.ny):
            for i in range(self.nx):
                x, y = self.at(i, j)
                inside = min(x - x0, x1 - x, y - y0, y1 - y)
                for kind in KINDS:
                    if inside < edge + self.half[kind]:
                        for layer in (0, 1):
                            self.owner[kind][layer][j * self.nx + i] = BLOCKED
        self.terminals = {}  # pad index -> [(layer, node)]
        self.pads = []

    def at(self, i, j):
        """A node's ``(x, y)`` in mm."""
        return (self.ox + i * self.pitch, self.oy + j * self.pitch)

    def _near(self, x0, y0, x1, y1):
        """The nodes ``(i, j)`` inside the box, in order."""
        i0 = max(0, math.ceil((x0 - self.ox) / self.pitch))
        i1 = min(self.nx - 1, math.floor((x1 - self.ox) / self.pitch))
        j0 = max(0, math.ceil((y0 - self.oy) / self.pitch))
        j1 = min(self.ny - 1, math.floor((y1 - self.oy) / self.pitch))
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                yield i, j

    def _claim(self, kind, layer, node, net):
        own = self.owner[kind][layer]
        if own[node] == FREE:
            own[node] = net
        elif own[node] != net:
            own[node] = BLOCKED

    def add_pad(self, pad):
        """A pad: dict with ``net`` (a number > 0; an unconnected pad gets one
        of its own), ``layers`` (0, 1 or both), and its shape (pad_distance)."""
        index = len(self.pads)
        self.pads.append(pad)
        reach = self.clearance + max(self.half.values()) + 0.01
        terminals = []
        for i, j in self._near(pad["x"] - pad["w"] / 2 - reach, pad["y"] - pad["h"] / 2 - reach,
                               pad["x"] + pad["w"] / 2 + reach, pad["y"] + pad["h"] / 2 + reach):
            d = pad_distance(pad, *self.at(i, j))
            node = j * self.nx + i
            for layer in pad["layers"]:
                for kind in KINDS:
                    if d < self.clearance + self.half[kind] + 0.005:
                        self._claim(kind, layer, node, pad["net"])
                if len(pad["layers"]) == 1 and d < self.half["via"] + 0.1:
                    # no via in or on a pad that is soldered (it would drain the solder)
                    self.owner["via"][0][node] = self.owner["via"][1][node] = BLOCKED
                if d <= -0.05:
                    terminals.append((layer, node))
        self.terminals[index] = terminals
        return index

    def add_keepout(self, x, y, radius):
        """No copper within ``radius`` mm of ``(x, y)`` (a screw's hole and head)."""
        for i, j in self._near(x - radius - 1, y - radius - 1, x + radius + 1, y + radius + 1):
            nx, ny = self.at(i, j)
            for kind in KINDS:
                if math.hypot(nx - x, ny - y) < radius + self.half[kind]:
                    for layer in (0, 1):
                        self.owner[kind][layer][j * self.nx + i] = BLOCKED

    def add_keepout_rect(self, x0, y0, x1, y1, margin):
        """No copper within ``margin`` mm of the box ``(x0, y0)``-``(x1, y1)``
        (a cut-out in the board)."""
        box = {"x": (x0 + x1) / 2, "y": (y0 + y1) / 2, "w": x1 - x0, "h": y1 - y0, "shape": "rect"}
        for i, j in self._near(x0 - margin - 1, y0 - margin - 1, x1 + margin + 1, y1 + margin + 1):
            d = pad_distance(box, *self.at(i, j))
            for kind in KINDS:
                if d < margin + self.half[kind]:
                    for layer in (0, 1):
                        self.owner[kind][layer][j * self.nx + i] = BLOCKED

    def _ok(self, kind, layer, node, net):
        own = self.owner[kind][layer][node]
        return (own == FREE or own == net) and self.used[layer][node] in (FREE, net)

    def _neighbours(self, node):
        i, j = node % self.nx, node // self.nx
        if i > 0:
            yield node - 1
        if i < self.nx - 1:
            yield node + 1
        if j > 0:
            yield node - self.nx
        if j < self.ny - 1:
            yield node + self.nx

    def _search(self, sources, targets, net, kind, goal):
        """The cheapest path ``[(layer, node)]`` from any source to any
        target: a step costs 1, a turn ``bend_cost`` more, a via ``via_cost``."""
        gx0, gy0, gx1, gy1 = goal
        nx, p = self.nx, self.pitch
        ox, oy = self.ox, self.oy

        def h(node):
            x, y = ox + (node % nx) * p, oy + (node // nx) * p
            return (max(gx0 - x, 0, x - gx1) + max(gy0 - y, 0, y - gy1)) / p

        best = {}
        came = {}
        heap = []
        for layer, node in sorted(sources):
            state = (layer, node, 0)  # 0: no direction yet
            best[state] = 0
            came[state] = None
            heapq.heappush(heap, (h(node), 0, state))
        while heap:
            f, g, state = heapq.heappop(heap)
            if g > best.get(state, math.inf):
                continue
            layer, node, heading = state
            if (layer, node) in targets:
                path = []
                while state is not None:
                    if not path or path[-1] != state[:2]:
                        path.append(state[:2])
                    state = came[state]
                return path[::-1]
            steps = []
            for nb in self._neighbours(node):
                if self._ok(kind, layer, nb, net):
                    d = nb - node
                    steps.append(((layer, nb, d), 1 if heading in (0, d) else 1 + self.bend_cost))
            other = 1 - layer
            if self._ok("via", 0, node, net) and self._ok("via", 1, node, net) and self._ok(kind, other, node, net):
                steps.append(((other, node, 0), self.via_cost))
            for nxt, cost in steps:
                ng = g + cost
                if ng < best.get(nxt, math.inf):
                    best[nxt] = ng
                    came[nxt] = state
                    heapq.heappush(heap, (ng + h(nxt[1]), ng, nxt))
        return None

    def _occupy(self, path, net, kind):
        """Mark a routed path's nodes, and the nodes too near its copper (on
        both layers round a via)."""
        reach = {k: self.clearance + self.half[kind] + self.half[k] for k in KINDS}
        via_reach = {k: self.clearance + self.half["via"] + self.half[k] for k in KINDS}
        for n, (layer, node) in enumerate(path):
            via = n > 0 and path[n - 1][1] == node and path[n - 1][0] != layer
            layers = (0, 1) if via else (layer,)
            near = via_reach if via else reach
            x, y = self.at(node % self.nx, node // self.nx)
            r = max(near.values())
            around = [(j * self.nx + i, math.hypot(self.at(i, j)[0] - x, self.at(i, j)[1] - y))
                      for i, j in self._near(x - r, y - r, x + r, y + r)]
            for lay in layers:
                self.used[lay][node] = net
                for k in KINDS:
                    self._claim(k, lay, node, net)
                    for other, d in around:
                        if other != node and d < near[k] + 0.005:
                            self._claim(k, lay, other, net)

    def route(self, net, pads, kind):
        """Join the pads (indices from add_pad) of one net; the paths, or
        None when a pad can't be reached (the ones routed stay)."""
        tree = set(self.terminals[pads[0]])
        done = [pads[0]]
        paths = []
        todo = list(pads[1:])
        failed = []
        while todo:
            # the pad nearest the tree (by its centre) next; ties by the order given
            def gap(index):
                pad = self.pads[index]
                return min(abs(self.pads[d]["x"] - pad["x"]) + abs(self.pads[d]["y"] - pad["y"]) for d in done)
            todo.sort(key=gap)
            index = todo.pop(0)
            pad = self.pads[index]
            targets = set(self.terminals[index])
            if tree & targets:
                path = [sorted(tree & targets)[0]]
            else:
                goal = (pad["x"] - pad["w"] / 2, pad["y"] - pad["h"] / 2, pad["x"] + pad["w"] / 2,
                        pad["y"] + pad["h"] / 2)
                path = self._search(tree, targets, net, kind, goal)
            if path is None:
                failed.append(index)
                continue
            self._occupy(path, net, kind)
            paths.append(path)
            tree.update(path)
            tree.update(targets)
            done.append(index)
        return paths, failed

    def segments(self, paths):
        """Tracks ``[(layer, (x0, y0), (x1, y1))]`` and vias ``[(x, y)]`` of
        routed paths: straight runs, split where another path starts or ends."""
        joints = set()
        for path in paths:
            joints.add(path[0][1])
            joints.add(path[-1][1])
        tracks, vias = [], []
        for path in paths:
            run = [path[0]]
            for prev, state in zip(path, path[1:]):
                if state[0] != prev[0]:  # a via
                    self._flush(run, tracks)
                    vias.append(self.at(state[1] % self.nx, state[1] // self.nx))
                    run = [state]
                    continue
                if len(run) >= 2 and (run[-1][1] - run[-2][1]) != (state[1] - prev[1]):
                    self._flush(run, tracks)
                    run = [prev]
                elif len(run) >= 2 and prev[1] in joints:
                    self._flush(run, tracks)
                    run = [prev]
                run.append(state)
            self._flush(run, tracks)
        return tracks, vias

    def _flush(self, run, tracks):
        if len(run) >= 2:
            a, b = run[0][1], run[-1][1]
            tracks.append((run[0][0], self.at(a % self.nx, a // self.nx), self.at(b % self.nx, b // self.nx)))
