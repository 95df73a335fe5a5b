// The grid (walls, top frame, pillars and skirt), upside down on the bed:
// the frame's top face down, no supports. Print 1 in black or any opaque
// colour (PLA or PETG, 0.2 mm layers, 3 walls, 15% infill).
include <kit.scad>

translate([0, 0, frame_top]) rotate([180, 0, 0]) grid();
