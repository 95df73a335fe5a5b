"""The wiring diagram of a board (``hardware/<board>/wiring.svg``): the
board's pins, the level shifter, the pixels in chain order with the parts
at the first pixel, the power rails and the inputs laid out like the cells."""

from host_tools.hardware import boards, parts, svg

# Diagram geometry (px).
W = 1060
BOARD_X, BOARD_W = 20, 230
STUB = 40
ROW_H = 26
TOP = 64
GRID_X = 700
CELL = 104  # pitch of the cells in the diagram: the gaps hold C1 and the data links
BOX = 62  # a pixel's square


def _cell_xy(cell, top):
    """Centre of a cell of a grid whose top-left is (GRID_X, top)."""
    return GRID_X + (cell % 3) * CELL + CELL / 2, top + (cell // 3) * CELL + CELL / 2


def wiring_svg(cfg):
    """The wiring diagram of a config as SVG text; of a board whose PCB
    comes assembled (``parts.ASSEMBLED``), what its copper joins."""
    info = boards.board_info(cfg)
    kit, sh = parts.assembled(cfg), parts.shifter(cfg)
    bulk_ref, bulk_value = parts.bulk(cfg)
    (v5, v5_pin), (gnd, gnd_pin) = boards.power(cfg)
    rows = [(role, cells, boards.pin_label(cfg, pin), boards.header(cfg, pin))
            for role, cells, pin in boards.sorted_signals(cfg)]
    rows.append(("gnd", [], gnd, "pin %d" % gnd_pin if gnd_pin else ""))
    rows.append(("5v", [], v5, "pin %d" % v5_pin if v5_pin else ""))
    board_h = 56 + ROW_H * len(rows)
    grid_top = TOP + 20
    # The rails run under the board and the pixels; the inputs go below them.
    railg = max(TOP + board_h, grid_top + 3 * CELL) + 40
    rail5 = railg + 30
    inputs_top = rail5 + 70
    height = inputs_top + 3 * CELL + 50
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (W, height, W, height),
           "<title>%s wiring</title>" % svg.esc(cfg["name"]),
           "<defs>%s</defs>" % svg.ARROW,
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           svg.text(20, 30, "%s: %s" % (cfg["name"], info["title"] if info else "your board"), 20, weight="bold"),
           svg.text(20, 50, ("what the PCB connects, all of it placed and soldered by the fab; generated from the"
                     " board config by make hardware") if kit else ("generated from the board config by make"
                                                                   " hardware; the same label on two ends means"
                                                                   " one wire"), 12, fill=svg.MUTED)]
    # The board and its pins.
    out.append(svg.rect(BOARD_X, TOP, BOARD_W, board_h, fill=info["colour"] if info else "#444", stroke="none", rx=8))
    out.append(svg.text(BOARD_X + 14, TOP + 26, info["title"] if info else "your board", 15, fill="#ffffff",
                        weight="bold"))
    out.append(svg.text(BOARD_X + 14, TOP + 44, "pins used, %s" % ("in header order" if cfg["board"] == "pico"
                                                                   else "by GPIO"), 11, fill="#d0d7de"))
    stub_y = {}
    x1 = BOARD_X + BOARD_W
    for i, (role, cells, label, where) in enumerate(rows):
        y = TOP + 70 + i * ROW_H
        stub_y[role] = y
        out.append(svg.text(x1 - 10, y + 4, ("%s  \u00b7  %s" % (label, where)) if where else label, 12,
                            anchor="end", fill="#ffffff"))
        colour = svg.RED if role == "5v" else svg.DATA if role == "leds" else svg.INK
        out.append(svg.line(x1, y, x1 + STUB, y, stroke=colour))
        out.append(svg.dot(x1 + STUB, y, fill=colour))
        tag = {"button": "button %d", "pad": "pad %d", "row": "row %d", "col": "column %d",
               "buzzer": "buzzer"}.get(role)
        if tag:
            n = cells[0] // 3 if role == "row" else cells[0] if cells else 0
            out.append(svg.text(x1 + STUB + 8, y + 4, tag % n if "%" in tag else tag, 12, fill=svg.MUTED))
    # Power rails, fed from the board's GND and 5 V (GND comes first down
    # the header and turns down last, so the two wires don't cross).
    rail_x, rail_end = x1 + STUB, GRID_X + 3 * CELL
    out.append(svg.path("M%g %g H%g V%g H%g" % (rail_x, stub_y["gnd"], rail_x + 30, railg, rail_end)))
    out.append(svg.path("M%g %g H%g V%g H%g" % (rail_x, stub_y["5v"], rail_x + 16, rail5, rail_end), stroke=svg.RED))
    out.append(svg.text(rail_end + 6, railg + 4, "GND", 12))
    out.append(svg.text(rail_end + 6, rail5 + 4, "5 V", 12, fill=svg.RED))
    # The level shifter: 2 in, 3 out, 1 (enable, active low) and 7 to GND,
    # 14 to 5 V, 100 nF across 14 and 7; a pull-down holds its input low
    # until the firmware drives the pin.
    yd = stub_y["leds"]
    sx, sw, sh_h = 440, 120, 58
    sy = yd - 20
    out.append(svg.line(x1 + STUB, yd, sx, yd, stroke=svg.DATA))
    out.append(svg.rect(sx, sy, sw, sh_h, fill="#f3f4f6"))
    out.append(svg.text(sx + sw / 2, sy - 8, sh["name"], 13, anchor="middle", weight="bold"))
    out.append(svg.text(sx + 6, yd + 4, str(sh["in"]), 11, fill=svg.MUTED))
    out.append(svg.text(sx + 6, sy + sh_h - 6, str(sh["oe"]), 11, fill=svg.MUTED))
    out.append(svg.text(sx + sw - 6, yd + 4, str(sh["out"]), 11, anchor="end", fill=svg.MUTED))
    out.append(svg.text(sx + 40, sy + sh_h - 6, str(sh["vcc"]), 11, anchor="middle", fill=svg.MUTED))
    out.append(svg.text(sx + 90, sy + sh_h - 6, str(sh["gnd"]), 11, anchor="middle", fill=svg.MUTED))
    out.append(svg.path("M%g %g H%g V%g" % (sx, sy + sh_h - 10, sx - 14, railg), width=1.5))
    out.append(svg.dot(sx - 14, railg))
    out.append(svg.line(sx + 40, sy + sh_h, sx + 40, rail5, stroke=svg.RED, width=1.5))
    out.append(svg.dot(sx + 40, rail5, fill=svg.RED))
    out.append(svg.line(sx + 90, sy + sh_h, sx + 90, railg, width=1.5))
    out.append(svg.dot(sx + 90, railg))
    yc = sy + sh_h + 20  # 100 nF between the VCC and GND wires
    out.append(svg.line(sx + 40, yc, sx + 61, yc, width=1.5))
    out.append(svg.line(sx + 61, yc - 7, sx + 61, yc + 7, width=2))
    out.append(svg.line(sx + 67, yc - 7, sx + 67, yc + 7, width=2))
    out.append(svg.line(sx + 67, yc, sx + 90, yc, width=1.5))
    out.append(svg.dot(sx + 40, yc, fill=svg.RED))
    out.append(svg.dot(sx + 90, yc))
    out.append(svg.text(sx + 64, yc + 20, "100 nF", 10, anchor="middle", fill=svg.MUTED))
    px = sx - 50  # the pull-down
    out.append(svg.dot(px, yd, fill=svg.DATA))
    out.append(svg.line(px, yd, px, yd + 12, width=1.5))
    out.append(svg.rect(px - 6, yd + 12, 12, 30, fill="#fff8e1", width=1.5, rx=2))
    out.append(svg.line(px, yd + 42, px, railg, width=1.5))
    out.append(svg.dot(px, railg))
    out.append(svg.text(px - 10, yd + 32, parts.PULL_DOWN, 11, anchor="end"))
    if sh["unused"]:
        out.append(svg.text(sx + sw / 2, sy - 24, "unused pins %s to GND" % sh["unused"], 10, anchor="middle",
                            fill=svg.MUTED))
    # The resistor at the first pixel, and the data into it.
    cells = boards.chain(cfg)
    cx, cy = _cell_xy(cells[0], grid_top)
    lane = GRID_X - 24
    rx = lane - 70
    out.append(svg.line(sx + sw, yd, rx, yd, stroke=svg.DATA))
    out.append(svg.rect(rx, yd - 8, 50, 16, fill="#fff8e1", width=1.5, rx=2))
    out.append(svg.text(rx + 25, yd - 14, parts.RESISTOR, 12, anchor="middle"))
    out.append(svg.text(rx + 25, yd + 22, "at the first pixel", 10, anchor="middle", fill=svg.MUTED))
    if cells[0] % 3 == 0:  # straight in from the left
        d = "M%g %g H%g V%g H%g" % (rx + 50, yd, lane, cy, cx - BOX / 2 - 2)
        din = (lane - 6, cy - 8)
    else:  # along the gap above its row, then down into it
        gap = cy - CELL / 2
        d = "M%g %g H%g V%g H%g V%g" % (rx + 50, yd, lane, gap, cx - 14, cy - BOX / 2 - 2)
        din = (lane - 6, gap - 6)
    out.append(svg.path(d, stroke=svg.DATA, extra=' marker-end="url(#arrow)"'))
    out.append(svg.text(din[0], din[1], "DIN", 11, anchor="end", fill=svg.DATA))
    # The pixels, the chain and its direction.
    out.append(svg.text(GRID_X, grid_top - 26, "pixels (front view), data in chain order", 12, fill=svg.MUTED))
    for p, cell in enumerate(cells):
        x, y = _cell_xy(cell, grid_top)
        out.append(svg.rect(x - BOX / 2, y - BOX / 2, BOX, BOX, fill="#fafafa"))
        out.append(svg.text(x, y - 4, "cell %d" % cell, 12, anchor="middle", weight="bold"))
        out.append(svg.text(x, y + 14, "pixel %d" % p, 11, anchor="middle", fill=svg.MUTED))
    for p in range(8):
        out.append(_chain_arrow(cells[p], cells[p + 1], grid_top, p % 4))
    bottom = grid_top + 3 * CELL - (CELL - BOX) / 2
    for x, y, colour in ((GRID_X + 3 * CELL - 40, railg, svg.INK), (GRID_X + 3 * CELL - 30, rail5, svg.RED)):
        out.append(svg.line(x, bottom + 8, x, y, stroke=colour, width=1.5))
        out.append(svg.dot(x, y, fill=colour))
    out.append(svg.text(GRID_X + 3 * CELL - 46, bottom + 22, "5 V and GND to every pixel", 11, anchor="end",
                        fill=svg.MUTED))
    out.append(_bulk_capacitor(cells[0], grid_top, bulk_ref))
    if kit:
        out.append(svg.text(GRID_X + 3 * CELL - 46, bottom + 66, "and a 100 nF at each pixel", 11, anchor="end"))
    for i, words in enumerate(("%s (%s): %s the first pixel's pads," % (bulk_ref, bulk_value, "by" if kit else "on"),
                               "+ to its 5 V, - to its GND")):
        out.append(svg.text(GRID_X + 3 * CELL - 46, bottom + 38 + 14 * i, words, 11, anchor="end"))
    # The inputs, laid out like the cells.
    out += _inputs(cfg, inputs_top, kit)
    if cfg["buzzer"] is not None:
        bx, by = BOARD_X + 40, inputs_top + 20
        out.append(svg.text(bx - 20, by - 24, "buzzer", 12, fill=svg.MUTED))
        out.append(svg.text(bx - 20, by + 4, boards.pin_label(cfg, cfg["buzzer"]), 12, weight="bold"))
        out.append(svg.line(bx + 50, by, bx + 70, by, width=1.5))
        out.append('<circle cx="%g" cy="%g" r="14" fill="#eee" stroke="%s" stroke-width="2"/>' % (bx + 84, by, svg.INK))
        out.append(svg.text(bx + 84, by + 4, "+", 12, anchor="middle"))
        out.append(svg.line(bx + 98, by, bx + 114, by, width=1.5))
        out.append(svg.ground(bx + 114, by))
        out.append(svg.text(bx - 20, by + 40, "passive piezo", 11, fill=svg.MUTED))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _bulk_capacitor(cell, top, ref="C1"):
    """C1 on the pixel's 5V and GND pads: in the gap left of the pixel and
    above its middle, where no data link runs (links between neighbours
    cross the gap at the middle, the others run above and below the rows)."""
    x, y = _cell_xy(cell, top)
    edge = x - BOX / 2
    kx, plus, minus = edge - 13, y - 25, y - 11
    out = ['<g id="bulk-capacitor">',
           svg.path("M%g %g H%g V%g" % (edge, plus, kx, plus + 4), stroke=svg.RED, width=1.5),
           svg.line(kx - 7, plus + 4, kx + 7, plus + 4, stroke=svg.RED, width=2),
           svg.path("M%g %g Q%g %g %g %g" % (kx - 7, minus - 2, kx, minus - 7, kx + 7, minus - 2), width=2),
           svg.path("M%g %g V%g H%g" % (kx, minus - 4.5, minus, edge), width=1.5),
           svg.text(kx + 7, plus - 3, "+", 10, anchor="middle", fill=svg.RED),
           svg.text(kx - (10 if len(ref) < 3 else 8), y - 15, ref, 11, anchor="end", weight="bold"),
           "</g>"]
    return "".join(out)


def _chain_arrow(a, b, top, lane=0):
    """The data link from cell a's DOUT to cell b's DIN: straight between
    neighbours, else along the gaps between rows (and round the right of the
    grid), never through another cell; ``lane`` (0-3) keeps links that
    share a gap apart."""
    ax, ay = _cell_xy(a, top)
    bx, by = _cell_xy(b, top)
    h = BOX / 2
    arrow = ' marker-end="url(#arrow)"'
    if ay == by and abs(ax - bx) == CELL:
        s = 1 if bx > ax else -1
        return svg.line(ax + s * h, ay, bx - s * (h + 2), by, stroke=svg.DATA, extra=arrow)
    if ax == bx and abs(ay - by) == CELL:
        s = 1 if by > ay else -1
        return svg.line(ax, ay + s * h, bx, by - s * (h + 2), stroke=svg.DATA, extra=arrow)
    down = 1 if by >= ay else -1
    if by == ay:  # same row, not neighbours: over the top
        down = -1
    o = (lane - 1.5) * 5
    gap_a = ay + down * CELL / 2 + o
    gap_b = by - (1 if by > ay else -1) * CELL / 2 + o if by != ay else gap_a
    d = "M%g %g V%g" % (ax + 12 + o, ay + down * h, gap_a)
    if gap_b != gap_a:  # two rows apart: round the right of the grid
        d += " H%g V%g" % (GRID_X + 3 * CELL + 12 + o, gap_b)
    into = by - h - 2 if gap_b < by else by + h + 2
    d += " H%g V%g" % (bx + 12 + o, into)
    return svg.path(d, stroke=svg.DATA, extra=arrow)


def _inputs(cfg, top, kit=None):
    inp = cfg["input"]
    kind = inp["kind"]
    title = {"buttons": "%s (front view): each joins its pin to GND" % (kit["inputs"] if kit else "buttons"),
             "matrix": "button matrix (front view): each button joins its row to its column",
             "touch": "touch pads (front view): one wire each, nothing else on it"}[kind]
    out = [svg.text(GRID_X - (150 if kind == "matrix" else 0), top - 14, title, 12, fill=svg.MUTED)]
    for cell in range(9):
        x, y = _cell_xy(cell, top)
        if kind == "touch":
            pin = inp["pins"][cell]
            s = BOX + 6
            out.append(svg.rect(x - s / 2, y - s / 2, s, s, fill=svg.COPPER, stroke="#8d5524", rx=6))
            out.append(svg.text(x, y - 4, "cell %d" % cell, 12, anchor="middle", fill="#ffffff", weight="bold"))
            label = (boards.pin_label(cfg, pin) + " " + boards.touch_channel(cfg, pin)).strip()
            out.append(svg.text(x, y + 14, label, 11, anchor="middle", fill="#ffffff"))
        elif kind == "buttons":
            pin = inp["pins"][cell]
            out.append(svg.rect(x - BOX / 2, y - BOX / 2, BOX, BOX, fill="#fafafa", stroke="#cfd4da", width=1))
            out.append(svg.text(x, y - 16, "%d: %s" % (cell, boards.pin_label(cfg, pin)), 12, anchor="middle",
                                weight="bold"))
            out.append(svg.switch(x - 18, y + 8, 1.0))
            out.append(svg.ground(x + 18, y + 8))
        else:
            out.append(svg.rect(x - BOX / 2, y - BOX / 2, BOX, BOX, fill="#fafafa", stroke="#cfd4da", width=1))
            out.append(svg.text(x - 24, y - 14, str(cell), 12, weight="bold"))
            # from the row wire (left of the cell) to the column wire (right)
            out.append(svg.switch(x - 24, y + 12, 0.9))
            out.append(svg.line(x - 24, y + 12, x - 24, y + BOX / 2 + 10, width=1.5))
            out.append(svg.line(x + 8, y + 12, x + 8 + 6, y + 12, width=1.5))
    if kind == "matrix":
        for r in range(3):
            _, y = _cell_xy(3 * r, top)
            yl = y + BOX / 2 + 10
            out.append(svg.line(GRID_X - 10, yl, GRID_X + 3 * CELL, yl, width=2))
            for c in range(3):
                x, _ = _cell_xy(3 * r + c, top)
                out.append(svg.dot(x - 24, yl))
            out.append(svg.text(GRID_X - 14, yl + 4, "row %d: %s" % (r, boards.pin_label(cfg, inp["rows"][r])), 12,
                                anchor="end", weight="bold"))
        for c in range(3):
            x, _ = _cell_xy(c, top)
            xl = x + 14
            out.append(svg.line(xl, top - 4, xl, top + 3 * CELL, width=2, stroke="#455a64"))
            for r in range(3):
                _, y = _cell_xy(3 * r + c, top)
                out.append(svg.dot(xl, y + 12, fill="#455a64"))
            out.append(svg.text(xl, top + 3 * CELL + 16, "col %d: %s" % (c, boards.pin_label(cfg, inp["cols"][c])), 12,
                                anchor="middle", weight="bold"))
    return out


