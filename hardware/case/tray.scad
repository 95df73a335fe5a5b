// The tray, on the printer's bed as it stands: floor down, no supports.
// Print 1 (PLA or PETG, 0.2 mm layers, 3 walls, 15% infill).
include <kit.scad>

translate([0, 0, -floor_bottom]) tray();
