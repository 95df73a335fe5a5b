// The kit, for looking at: `view` is "assembly", "exploded" (each part
// lifted, in the order they go together: the tray, the PCB with its Pico,
// the four screws, the plate, the switches, the keycaps), "usb" (the
// assembly with a micro-USB plug in the Pico's socket) or "pcb" (the
// populated PCB alone, the front row's switches left out to show the LEDs
// in their cut-outs). Nothing here is printed.
include <kit.scad>

// what to draw (OpenSCAD's Customizer offers these)
view = "assembly";  // [assembly, exploded, usb, pcb]

// how far each part moves up in the exploded view: tray, PCB, screws,
// plate, switches, keycaps
lift = view == "exploded" ? [0, 40, 58, 72, 92, 112] : [0, 0, 0, 0, 0, 0];

module kit() {
    if (view != "pcb") {
        show("#b0bec5") translate([0, 0, lift[0]]) tray();
        for (s = screws) translate([s[0], s[1], lift[2]]) screw();
        // in the exploded view, where each screw goes: down through the board into its boss
        if (view == "exploded") for (s = screws) color("#e53935")
            translate([s[0], s[1], floor_top]) cylinder(d = 0.5, h = lift[2] - screw_length - floor_top, $fn = 8);
        show("#37474f") translate([0, 0, lift[3] + plate_bottom]) plate();
        for (k = keys) translate([k[0], k[1], lift[5]]) keycap();
    }
    translate([0, 0, lift[1]]) pcb_populated();
    for (c = [0:8]) if (view != "pcb" || c < 6) translate([keys[c][0], keys[c][1], lift[4]]) mx_switch();
    if (view == "usb") usb_plug();
}

// A micro-USB plug pushed home: its metal (6.5 mm) in the socket, its
// moulding (10.5 x 7 mm) at the socket's face, in the wall's opening.
module usb_plug() {
    translate([pico_centre[0], usb_face, usb_z]) {
        show("#cfd8dc") translate([0, -6.5 / 2, 0]) cube([6.9, 6.5, 1.85], center = true);
        show("#212121") hull() {
            translate([0, 8, 0]) cube([10.5, 16, 7], center = true);
            translate([0, 20, 0]) rotate([-90, 0, 0]) cylinder(d = 5, h = 1);
        }
        show("#212121") translate([0, 20, 0]) rotate([-90, 0, 0]) cylinder(d = 3.5, h = 25);
    }
}

kit();
