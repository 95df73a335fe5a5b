// A key tile, upside down on the bed: its top face (the diffuser) down, no
// supports. Print 9 in white PLA or PETG (0.2 mm layers; 100% infill is the
// same as walls here: every wall is 1.2 mm).
include <kit.scad>

translate([0, 0, tile_top]) rotate([180, 0, 0]) tile();
