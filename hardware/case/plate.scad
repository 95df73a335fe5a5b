// The switches' plate, flat on the bed (instead of the FR-4 plate from the
// fab). Print 1 (PLA or PETG, 0.2 mm layers, 100% infill: the switches'
// clips hold it).
include <kit.scad>

plate();
