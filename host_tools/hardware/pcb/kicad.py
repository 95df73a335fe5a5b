"""The PCB in KiCad 6, run by ``__init__.py`` under the system Python (where
Debian's ``kicad`` puts ``pcbnew``); it imports nothing of the project's
but the router beside it.

``kicad.py build FOLDER`` reads the design (``pcb.design``) as JSON on
stdin and writes into FOLDER: NAME.kicad_pcb and NAME.kicad_pro, the
gerbers and drill files (in FOLDER/gerbers), the DRC report (NAME-drc.rpt)
and on stdout a JSON summary (the parts' places for the placement file).
Keys of the design (``mxboard.py``) beside the parts and rules: ``box``,
the outline; ``libraries``, footprint folders by name, which a part's
``library`` picks; a part's ``origin`` (its footprint's origin is its
place, not its pads' middle) and ``ref_at``/``ref_size``; ``cutouts``,
holes in the board (in a footprint's Edge.Cuts) the router and the pour
keep clear of; ``route_first``, the router's order of nets; ``zone_nets``,
nets the fill may finish; rules ``cutout_edge`` (the DRC's copper-to-edge
rule, the outline keeping ``edge`` by construction) and ``silk`` (the
thinnest silkscreen).
``kicad.py plate FOLDER`` does the same for a switch plate (outline and
cut-outs only). ``kicad.py check BOARD.kicad_pcb`` runs KiCad's design rule check on a
saved board and prints its report's counts and the pads' nets, as JSON.
"""

import json
import os
import re
import sys
import tempfile

try:
    import pcbnew
except ImportError:  # imported outside KiCad's Python (the tests' import check): main() says so
    pcbnew = None

if __package__:  # imported as host_tools.hardware.pcb.kicad (the tests' import check)
    from . import route as maze
else:  # run as a script: its folder, where route.py is (plain Python), is sys.path[0]
    import route as maze

ORIGIN = (100.0, 100.0)  # where the kit's (0, 0) sits on KiCad's page
HOLE_MARGIN = 0.1  # mm round a bare hole: KiCad 6's copper-to-hole clearance (0.25) is more than a pad's (0.2)


def page(x, y):
    """Kit coordinates (y to the back) to KiCad's page (y down), in mm."""
    return (ORIGIN[0] + x, ORIGIN[1] - y)


def point(x, y):
    return pcbnew.wxPoint(pcbnew.FromMM(x), pcbnew.FromMM(y))


def pico_footprint(board, part, silk):
    """The Pico in two 1x20 sockets, drawn from its datasheet: pads named by
    the Pico's pin numbers, at the places ``pcb.pico_pin_at`` gives (seen
    from above, the Pico upside down under the board)."""
    fp = pcbnew.FOOTPRINT(board)
    fp.SetFPID(pcbnew.LIB_ID("tactictoe", "RaspberryPi_Pico_Socketed"))
    fp.SetDescription("Raspberry Pi Pico upside down in two 1x20 2.54 mm female sockets, 17.78 mm apart")
    cx, cy = page(*part["at"])
    fp.SetPosition(point(cx, cy))
    for pin in range(1, 41):
        x, y = page(*part["pins"][str(pin)])
        pad = pcbnew.PAD(fp)
        pad.SetNumber(str(pin))
        pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
        pad.SetShape(pcbnew.PAD_SHAPE_RECT if pin == 1 else pcbnew.PAD_SHAPE_OVAL)
        pad.SetSize(pcbnew.wxSize(pcbnew.FromMM(1.7), pcbnew.FromMM(1.7)))
        pad.SetDrillSize(pcbnew.wxSize(pcbnew.FromMM(1.0), pcbnew.FromMM(1.0)))
        pad.SetLayerSet(pad.PTHMask())
        pad.SetPosition(point(x, y))
        pad.SetLocalCoord()
        fp.Add(pad)
    # The Pico's outline (kept off the board's edge), on the silkscreen and
    # courtyard (the bottom ones once turned over).
    w, h = 21.0 - 1.0, 51.0 - 0.5
    corners = [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)]
    for layer, grow in ((pcbnew.F_SilkS, 0.0), (pcbnew.F_CrtYd, 0.5)):
        for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
            line = pcbnew.FP_SHAPE(fp)
            line.SetShape(pcbnew.SHAPE_T_SEGMENT)
            sx = grow if x0 > cx else -grow
            sy = grow if y0 > cy else -grow
            ex = grow if x1 > cx else -grow
            ey = grow if y1 > cy else -grow
            line.SetStart(point(x0 + sx, y0 + sy))
            line.SetEnd(point(x1 + ex, y1 + ey))
            line.SetLayer(layer)
            line.SetWidth(pcbnew.FromMM(silk if layer == pcbnew.F_SilkS else 0.05))
            line.SetLocalCoord()
            fp.Add(line)
    usb = pcbnew.FP_TEXT(fp)  # which way round it goes: its USB socket at the board's edge
    usb.SetText("USB")
    usb.SetLayer(pcbnew.F_SilkS)
    usb.SetPosition(point(cx, cy + h / 2 - 2.0))  # turning it over takes this to the back
    usb.SetTextSize(pcbnew.wxSize(pcbnew.FromMM(1.5), pcbnew.FromMM(1.5)))
    usb.SetTextThickness(pcbnew.FromMM(0.2))
    usb.SetLocalCoord()
    fp.Add(usb)
    fp.Value().SetLayer(pcbnew.F_Fab)
    fp.Reference().SetPosition(point(cx, cy))
    fp.Reference().SetTextAngle(900)
    return fp


def place(board, design, nets):
    """Every part on the board; ``{ref: footprint}``."""
    out = {}
    for part in design["parts"]:
        if part["footprint"] == "RaspberryPi_Pico_Socketed":
            fp = pico_footprint(board, part, design["rules"]["silk"])
        else:
            library = design["libraries"].get(part.get("library"), design["footprints"])
            fp = pcbnew.FootprintLoad(library, part["footprint"])
            if fp is None:
                raise SystemExit("no footprint %s in %s" % (part["footprint"], library))
            fp.SetOrientationDegrees(part["rot"])
            fp.SetPosition(point(0, 0))
            cx, cy = page(*part["at"])
            if part.get("origin"):  # the footprint's origin is the part's place
                fp.SetPosition(point(cx, cy))
            else:  # the part's centre (what mxboard.py gives) is its pads' middle
                xs = [p.GetPosition().x for p in fp.Pads()]
                ys = [p.GetPosition().y for p in fp.Pads()]
                mx, my = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
                fp.SetPosition(pcbnew.wxPoint(pcbnew.FromMM(cx) - mx, pcbnew.FromMM(cy) - my))
        thicker_silk(fp, design["rules"]["silk"])
        if part.get("library"):  # as a KiCad project names it (its fp-lib-table)
            fp.SetFPID(pcbnew.LIB_ID(part["library"], part["footprint"]))
        fp.SetReference(part["ref"])
        fp.SetPath(pcbnew.KIID_PATH(part["path"]))  # its symbol's, in the schematic beside it
        fp.SetValue(part["value"])
        if part["ref"].startswith("U2"):  # inside the socket, clear of its outline
            fp.Reference().SetPosition(point(*page(*part["at"])))
            fp.Reference().SetTextAngle(900)
        board.Add(fp)  # before Flip, which asks the board for its layers
        if part["side"] == "bottom":
            # Turned over about the part's centre line along x: its pads'
            # middle stays where it is.
            pads = list(fp.Pads())
            if part["footprint"] == "RaspberryPi_Pico_Socketed":
                keep = {p.GetNumber(): p.GetPosition() for p in pads}
                fp.Flip(fp.GetPosition(), False)
                for p in fp.Pads():  # the pins are where the Pico's are, whichever side draws them
                    p.SetPosition(keep[p.GetNumber()])
                    p.SetLocalCoord()
            else:
                ys = [p.GetPosition().y for p in pads]
                fp.Flip(pcbnew.wxPoint(fp.GetPosition().x, (min(ys) + max(ys)) // 2), False)
        if "ref_at" in part:  # the reference's place, kit coordinates, and its size
            ref = fp.Reference()
            ref.SetPosition(point(*page(*part["ref_at"])))
            ref.SetTextSize(pcbnew.wxSize(pcbnew.FromMM(part["ref_size"]), pcbnew.FromMM(part["ref_size"])))
            ref.SetTextThickness(pcbnew.FromMM(design["rules"]["silk"]))
        if not part["bom"]:
            fp.SetAttributes(fp.GetAttributes() | pcbnew.FP_EXCLUDE_FROM_BOM)
        for pad in fp.Pads():
            name = part["nets"].get(pad.GetNumber())
            if name:
                pad.SetNet(nets[name])
        out[part["ref"]] = fp
    return out


def box(design):
    """The board's outline ``(x0, y0, x1, y1)`` in the kit's coordinates."""
    return tuple(design["box"])


def thicker_silk(fp, width):
    """The footprint's silkscreen lines and texts at least ``width`` mm
    thick (KiCad's library draws 0.12; a fab may print no thinner than 0.15)."""
    w = pcbnew.FromMM(width)
    for item in list(fp.GraphicalItems()) + [fp.Reference(), fp.Value()]:
        if item.GetLayer() not in (pcbnew.F_SilkS, pcbnew.B_SilkS):
            continue
        if isinstance(item, pcbnew.FP_TEXT):
            item.SetTextThickness(max(item.GetTextThickness(), w))
        elif item.GetWidth() < w:
            item.SetWidth(w)


def edge_rect(board, x0, y0, x1, y1):
    """A rectangle on Edge.Cuts, kit coordinates, drawn from its back left
    corner clockwise (seen from above)."""
    corners = [page(x0, y1), page(x1, y1), page(x1, y0), page(x0, y0)]
    for a, b in zip(corners, corners[1:] + corners[:1]):
        seg = pcbnew.PCB_SHAPE(board)
        seg.SetShape(pcbnew.SHAPE_T_SEGMENT)
        seg.SetStart(point(*a))
        seg.SetEnd(point(*b))
        seg.SetLayer(pcbnew.Edge_Cuts)
        seg.SetWidth(pcbnew.FromMM(0.1))
        board.Add(seg)


def outline(board, design):
    edge_rect(board, *box(design))


def rules(board, design):
    r = design["rules"]
    ds = board.GetDesignSettings()
    nc = ds.GetNetClasses().GetDefault()
    nc.SetClearance(pcbnew.FromMM(r["clearance"]))
    nc.SetTrackWidth(pcbnew.FromMM(r["track"]))
    nc.SetViaDiameter(pcbnew.FromMM(r["via"]))
    nc.SetViaDrill(pcbnew.FromMM(r["via_drill"]))
    power = pcbnew.NETCLASSPTR("Power")
    power.SetClearance(pcbnew.FromMM(r["clearance"]))
    power.SetTrackWidth(pcbnew.FromMM(r["power_track"]))
    power.SetViaDiameter(pcbnew.FromMM(r["via"]))
    power.SetViaDrill(pcbnew.FromMM(r["via_drill"]))
    for name in design["power"]:
        power.NetNames().add(name)
    ds.GetNetClasses().Add(power)
    # the outline's clearance is the router's and the zones' (r["edge"]); a
    # cut-out's (an LED's legs reach its edge) may be less
    ds.m_CopperEdgeClearance = pcbnew.FromMM(r["cutout_edge"])


def pad_shape(pad):
    """A pad as the router takes it (KiCad page mm)."""
    pos = pad.GetPosition()
    size = pad.GetSize()
    w, h = pcbnew.ToMM(size.x), pcbnew.ToMM(size.y)
    if round(pad.GetOrientationDegrees()) % 180 == 90:
        w, h = h, w
    shape = {pcbnew.PAD_SHAPE_RECT: "rect", pcbnew.PAD_SHAPE_CIRCLE: "circle"}.get(pad.GetShape(), "oval")
    if pad.GetShape() == pcbnew.PAD_SHAPE_ROUNDRECT:
        shape = "rect"
    layers = [layer for layer, cu in ((0, pcbnew.F_Cu), (1, pcbnew.B_Cu)) if pad.IsOnLayer(cu)]
    if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:  # a bare hole: KiCad's hole clearance is more than a pad's
        w, h = w + 2 * HOLE_MARGIN, h + 2 * HOLE_MARGIN
    return {"x": pcbnew.ToMM(pos.x), "y": pcbnew.ToMM(pos.y), "w": w, "h": h, "shape": shape, "layers": layers}


def route(board, design, footprints, nets):
    """Every net's traces and vias; the pads the router could not reach."""
    r = design["rules"]
    bx0, by0, bx1, by1 = box(design)
    x0, y0 = page(bx0, by1)
    x1, y1 = page(bx1, by0)
    anchor = footprints["U1"].FindPadByNumber("1").GetPosition()
    router = maze.Router((x0, y0, x1, y1), r["grid"], r["clearance"],
                              {"thin": r["track"] / 2, "power": r["power_track"] / 2, "via": r["via"] / 2},
                              anchor=(pcbnew.ToMM(anchor.x), pcbnew.ToMM(anchor.y)), edge=r["edge"])
    for x, y in design["screws"]:
        router.add_keepout(*page(x, y), r["screw_keepout"])
    for x, y, w, h in design["cutouts"]:
        (cx0, cy0), (cx1, cy1) = page(x - w / 2, y + h / 2), page(x + w / 2, y - h / 2)
        router.add_keepout_rect(cx0, cy0, cx1, cy1, r["edge"])
    numbers = {name: n + 1 for n, name in enumerate(sorted(nets))}
    lone = len(numbers) + 1
    by_net = {}
    for ref in sorted(footprints):
        for pad in sorted(footprints[ref].Pads(), key=lambda p: (p.GetNumber(), p.GetPosition().x,
                                                                   p.GetPosition().y)):
            shape = pad_shape(pad)
            if not shape["layers"]:
                continue
            name = pad.GetNetname()
            if name:
                shape["net"] = numbers[name]
            else:
                shape["net"] = lone
                lone += 1
            index = router.add_pad(shape)
            if name:
                by_net.setdefault(name, []).append(index)
    unrouted = []
    first = design["route_first"]
    order = first + sorted((n for n in by_net if n not in first), key=_natural)
    for name in order:
        kind = "power" if name in design["power"] else "thin"
        paths, failed = router.route(numbers[name], by_net[name], kind)
        if name not in design["zone_nets"]:  # a zone's net: the fill joins the rest (the DRC checks)
            unrouted += [(name, router.pads[i]) for i in failed]
        tracks, vias = router.segments(paths)
        width = pcbnew.FromMM(r["power_track"] if kind == "power" else r["track"])
        for layer, a, b in tracks:
            t = pcbnew.PCB_TRACK(board)
            t.SetStart(point(*a))
            t.SetEnd(point(*b))
            t.SetWidth(width)
            t.SetLayer(pcbnew.F_Cu if layer == 0 else pcbnew.B_Cu)
            t.SetNet(nets[name])
            board.Add(t)
        for x, y in vias:
            v = pcbnew.PCB_VIA(board)
            v.SetPosition(point(x, y))
            v.SetWidth(pcbnew.FromMM(r["via"]))
            v.SetDrill(pcbnew.FromMM(r["via_drill"]))
            v.SetViaType(pcbnew.VIATYPE_THROUGH)
            v.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
            v.SetNet(nets[name])
            board.Add(v)
    return unrouted


def _natural(name):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def zones(board, design, nets):
    r = design["rules"]
    x0, y0, x1, y1 = box(design)
    e = r["edge"]
    for x, y, w, h in design["cutouts"]:  # the pour keeps the outline's clearance from a cut-out
        keepout(board, (x - w / 2 - e, y - h / 2 - e, x + w / 2 + e, y + h / 2 + e))
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        z = pcbnew.ZONE(board)
        z.SetLayer(layer)
        z.SetNet(nets["GND"])
        poly = z.Outline()
        poly.NewOutline()
        for x, y in ((x0 + e, y1 - e), (x1 - e, y1 - e), (x1 - e, y0 + e), (x0 + e, y0 + e)):
            px, py = page(x, y)
            poly.Append(pcbnew.FromMM(px), pcbnew.FromMM(py))
        z.SetLocalClearance(pcbnew.FromMM(r["zone_clearance"]))
        z.SetMinThickness(pcbnew.FromMM(0.25))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        z.SetThermalReliefGap(pcbnew.FromMM(0.5))
        z.SetThermalReliefSpokeWidth(pcbnew.FromMM(0.5))
        z.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        z.SetPriority(0)
        board.Add(z)
    board.BuildConnectivity()  # the filler keeps only islands joined to a GND pad
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())


def keepout(board, rect):
    """A rule area on both copper layers that no zone pours into: ``(x0, y0,
    x1, y1)`` in the kit's coordinates."""
    z = pcbnew.ZONE(board)
    z.SetIsRuleArea(True)
    z.SetDoNotAllowCopperPour(True)
    z.SetDoNotAllowTracks(False)
    z.SetDoNotAllowVias(False)
    z.SetDoNotAllowPads(False)
    z.SetDoNotAllowFootprints(False)
    ls = pcbnew.LSET()
    ls.AddLayer(pcbnew.F_Cu)
    ls.AddLayer(pcbnew.B_Cu)
    z.SetLayerSet(ls)
    poly = z.Outline()
    poly.NewOutline()
    x0, y0, x1, y1 = rect
    for x, y in ((x0, y1), (x1, y1), (x1, y0), (x0, y0)):
        px, py = page(x, y)
        poly.Append(pcbnew.FromMM(px), pcbnew.FromMM(py))
    board.Add(z)


def drc(board, path):
    """KiCad's design rule check into ``path``; (violations, unconnected)."""
    pcbnew.WriteDRCReport(board, path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(path) as f:
        text = f.read()
    found = [int(n) for n in re.findall(r"\*\* Found (\d+) ", text)]
    return text, found


# The layers a fab needs, with their Protel extensions (what JLCPCB and
# PCBWay expect): copper, mask, silk and paste each side, and the outline.
PLOT_LAYERS = (("F_Cu", "F.Cu"), ("B_Cu", "B.Cu"), ("F_Mask", "F.Mask"), ("B_Mask", "B.Mask"),
               ("F_SilkS", "F.SilkS"), ("B_SilkS", "B.SilkS"), ("F_Paste", "F.Paste"), ("B_Paste", "B.Paste"),
               ("Edge_Cuts", "Edge.Cuts"))


def plot(board, folder):
    """Gerbers and Excellon drill files into ``folder``."""
    os.makedirs(folder, exist_ok=True)
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(folder)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(True)
    po.SetCreateGerberJobFile(False)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(False)
    po.SetSubtractMaskFromSilk(True)
    po.SetExcludeEdgeLayer(True)
    po.SetUseAuxOrigin(True)  # the kit's origin: gerber x, y are mx.py's
    po.SetPlotValue(False)
    po.SetPlotReference(True)
    po.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    po.SetScale(1)
    po.SetMirror(False)
    for attr, name in PLOT_LAYERS:
        pc.SetLayer(getattr(pcbnew, attr))
        pc.OpenPlotfile(attr.replace("_", "."), pcbnew.PLOT_FORMAT_GERBER, name)
        pc.PlotLayer()
    pc.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    # not mirrored, a full header, from the kit's origin, PTH and NPTH apart
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    drill.SetFormat(True, pcbnew.EXCELLON_WRITER.DECIMAL_FORMAT, 3, 3)
    drill.CreateDrillandMapFilesSet(folder, True, False)


def build(folder):
    design = json.load(sys.stdin)
    pcbnew.KIID.SeedGenerator(1)  # the same uuids every time
    name = design["name"]
    path = os.path.join(folder, name + ".kicad_pcb")
    board = pcbnew.NewBoard(path)
    board.SetFileName(path)
    rules(board, design)
    board.GetDesignSettings().SetAuxOrigin(point(*ORIGIN))
    outline(board, design)
    nets = {}
    for net in sorted({n for part in design["parts"] for n in part["nets"].values()}):
        nets[net] = pcbnew.NETINFO_ITEM(board, net)
        board.Add(nets[net])
    board.SynchronizeNetsAndNetClasses()
    footprints = place(board, design, nets)
    unrouted = route(board, design, footprints, nets)
    zones(board, design, nets)
    board.BuildConnectivity()
    pcbnew.SaveBoard(path, board)
    text, found = drc(board, os.path.join(folder, name + "-drc.rpt"))
    plot(board, os.path.join(folder, "gerbers"))
    parts = {ref: {"rotation": fp.GetOrientationDegrees(), "bottom": fp.IsFlipped()}
             for ref, fp in sorted(footprints.items())}
    print(json.dumps({"unrouted": [(n, p["x"], p["y"]) for n, p in unrouted], "drc": found, "parts": parts,
                      "tracks": len(board.GetTracks())}))


def plate(folder):
    """The switch plate (the design's ``box`` with its ``cutouts`` on
    Edge.Cuts, no copper, a line of text on the silkscreen): NAME.kicad_pcb
    and its gerbers into ``folder``."""
    design = json.load(sys.stdin)
    pcbnew.KIID.SeedGenerator(1)
    path = os.path.join(folder, design["name"] + ".kicad_pcb")
    board = pcbnew.NewBoard(path)
    board.SetFileName(path)
    board.GetDesignSettings().SetAuxOrigin(point(*ORIGIN))
    outline(board, design)
    for x, y, w, h in design["cutouts"]:
        edge_rect(board, x - w / 2, y - h / 2, x + w / 2, y + h / 2)
    text = pcbnew.PCB_TEXT(board)
    text.SetText(design["text"])
    text.SetLayer(pcbnew.F_SilkS)
    text.SetPosition(point(*page(*design["text_at"])))
    text.SetTextSize(pcbnew.wxSize(pcbnew.FromMM(1.5), pcbnew.FromMM(1.5)))
    text.SetTextThickness(pcbnew.FromMM(0.2))
    text.SetTextAngle(900)
    board.Add(text)
    pcbnew.SaveBoard(path, board)
    plot(board, os.path.join(folder, "gerbers"))


def kit(p):
    """A KiCad point back in the kit's coordinates (mm, y to the back)."""
    return (round(pcbnew.ToMM(p.x) - ORIGIN[0], 4), round(ORIGIN[1] - pcbnew.ToMM(p.y), 4))


def check(path, short=False):
    """Load a saved board, run the DRC on it, and print what a test needs to
    know as JSON: the DRC's counts and the footprints with their pads' nets
    and places (kit coordinates). With ``short``, a GND track is laid across
    the Pico's VBUS pin first: the DRC must find it."""
    board = pcbnew.LoadBoard(path)
    if short:
        fp = next(f for f in board.GetFootprints() if f.GetReference() == "U1")
        pad = fp.FindPadByNumber("40")
        gnd = board.FindNet("GND")
        t = pcbnew.PCB_TRACK(board)
        t.SetStart(pad.GetPosition() - pcbnew.wxPoint(pcbnew.FromMM(2), 0))
        t.SetEnd(pad.GetPosition() + pcbnew.wxPoint(pcbnew.FromMM(2), 0))
        t.SetWidth(pcbnew.FromMM(0.25))
        t.SetLayer(pcbnew.F_Cu)
        t.SetNet(gnd)
        board.Add(t)
    with tempfile.TemporaryDirectory() as tmp:
        text, found = drc(board, os.path.join(tmp, "drc.rpt"))
    footprints = []
    for fp in board.GetFootprints():
        footprints.append({
            "ref": fp.GetReference(), "value": fp.GetValue(), "at": kit(fp.GetPosition()),
            "bottom": fp.IsFlipped(), "fpid": fp.GetFPID().GetUniStringLibItemName(),
            "pads": [{"number": p.GetNumber(), "net": p.GetNetname(), "at": kit(p.GetPosition()),
                      "through": p.GetAttribute() == pcbnew.PAD_ATTRIB_PTH,
                      "copper": [n for n, cu in (("F.Cu", pcbnew.F_Cu), ("B.Cu", pcbnew.B_Cu)) if p.IsOnLayer(cu)],
                      "drill": pcbnew.ToMM(p.GetDrillSize().x),
                      "size": [pcbnew.ToMM(p.GetSize().x), pcbnew.ToMM(p.GetSize().y)]} for p in fp.Pads()]})
    edges = [(kit(d.GetStart()), kit(d.GetEnd())) for d in board.GetDrawings() if d.GetLayer() == pcbnew.Edge_Cuts]
    copper = [{"via": t.GetClass() == "PCB_VIA", "start": kit(t.GetStart()), "end": kit(t.GetEnd()),
               "width": pcbnew.ToMM(t.GetWidth()), "layer": board.GetLayerName(t.GetLayer()), "net": t.GetNetname()}
              for t in board.GetTracks()]
    print(json.dumps({"drc": found, "report": text, "footprints": footprints, "edges": edges, "copper": copper,
                      "tracks": len(board.GetTracks()), "zones": [z.GetNetname() for z in board.Zones()]}))


def main():
    if pcbnew is None:
        raise SystemExit("KiCad 6 is missing: apt-get install kicad")
    if sys.argv[1] == "build":
        build(sys.argv[2])
    elif sys.argv[1] == "plate":
        plate(sys.argv[2])
    elif sys.argv[1] == "check":
        check(sys.argv[2], short="--short" in sys.argv[3:])
    else:
        raise SystemExit("usage: kicad.py build FOLDER | plate FOLDER | check BOARD [--short]")


if __name__ == "__main__":
    main()
