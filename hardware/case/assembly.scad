// The whole board, for looking at: `view` is "assembly", "exploded" or
// "section" (a slice through the middle column at x = 0: a tile's post on
// its switch, the pixel under the tile's top). Nothing here is printed.
include <kit.scad>

// what to draw (OpenSCAD's Customizer offers these)
view = "assembly";  // [assembly, exploded, section]

// how far each part moves up in the exploded view
lift = view == "exploded" ? [0, 35, 75, 110] : [0, 0, 0, 0];

module board() {
    translate([0, 0, lift[1]]) { pcb(); pico(); }
    show("#cfd8dc") translate([0, 0, lift[0]]) base();
    for (s = screws) show("#9e9e9e") translate([s[0], s[1], lift[0] - (view == "exploded" ? 25 : 0)]) screw();
    show("#424242") translate([0, 0, lift[2]]) grid();
    for (p = pixels) show("#fffde7") translate([p[0], p[1], lift[3]]) tile();
}

board();
