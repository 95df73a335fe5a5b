// The MX kit's (pico-mx) printed parts, as modules, in kit coordinates:
// origin at the middle key's centre on the PCB's top face, x right, y to
// the back (away from the player), z up. tray.scad and plate.scad place one
// part each on the printer's bed; assembly.scad draws the kit. The numbers
// come from dimensions.scad, which `make hardware` writes from
// host_tools/hardware/mx.py: change them there.
include <dimensions.scad>

$fn = 40;
eps = 0.01;

// A box (x0, y0, x1, y1) as a 2D rectangle.
module rect(b) {
    translate([b[0], b[1]]) square([b[2] - b[0], b[3] - b[1]]);
}

// The same, its corners rounded to radius r.
module rounded(b, r) {
    offset(r = r) offset(delta = -r) rect(b);
}

// A box (x0, y0, x1, y1) grown by d each side.
function grow(b, d) = [b[0] - d, b[1] - d, b[2] + d, b[3] + d];

// ---- the tray: floor, walls, bosses, ledges ----------------------------

// Printed upright, floor down: the ledges' undersides slope at 45 degrees,
// the USB opening's top is a short bridge, nothing needs supports.
module tray() {
    difference() {
        union() {
            difference() {
                // the outside: floor and walls, up to the plate's top
                translate([0, 0, floor_bottom]) linear_extrude(plate_top - floor_bottom)
                    rounded(outer, case_corner);
                // the room for the board and what hangs under it
                translate([0, 0, floor_top]) linear_extrude(plate_bottom - floor_top + eps) rect(inner);
                // the room for the plate: its ledge is the step at plate_bottom
                translate([0, 0, plate_bottom]) linear_extrude(plate_top) rect(plate_inner);
            }
            pcb_ledge();
            // the bosses under the screws: the board sits on them
            for (s = screws) translate([s[0], s[1], floor_top - eps])
                cylinder(d = boss, h = pcb_bottom - floor_top + eps);
        }
        // the screws' pilot holes, closed at the bottom
        for (s = screws) translate([s[0], s[1], pilot_bottom]) cylinder(d = pilot, h = pilot_depth + 1);
        usb_cut();
        // under BOOTSEL: press it with a pen refill
        translate([bootsel_at[0], bootsel_at[1], floor_bottom - 1]) cylinder(d = bootsel_hole, h = case_wall + 2);
    }
}

// The ledge round the inside of the walls under the board's edge, its top
// the board's underside, its underside a 45 degree slope into the wall;
// cut away beside and behind the Pico, whose sockets come near the edge.
module pcb_ledge() {
    t = 1;  // its square edge, before the slope
    inside = grow(inner, -pcb_ledge);
    difference() {
        translate([0, 0, pcb_bottom - t - pcb_ledge]) linear_extrude(t + pcb_ledge) rect(grow(inner, eps));
        hull() {
            translate([0, 0, pcb_bottom - t - pcb_ledge - eps]) linear_extrude(eps) rect(inner);
            translate([0, 0, pcb_bottom - t]) linear_extrude(eps) rect(inside);
        }
        translate([0, 0, pcb_bottom - t - eps]) linear_extrude(t + 1) rect(inside);
        translate([pico_centre[0] - pico[0] / 2 - 1, pico_centre[1] - pico[1] / 2 - 1, pcb_bottom - 10])
            cube([100, 100, 20]);
    }
}

// The USB plug's way in, in the back wall, centred on the Pico's socket:
// the opening (usb_opening, run down through the floor's edge rather than
// leave a sliver under it, and from 0.5 mm under the socket, so a plug's
// moulding meets no floor), and round it a pocket from the outside whose
// face is usb_skin from the inside, fit + usb_skin from the socket's face.
module usb_cut() {
    x = pico_centre[0];
    translate([x - usb_opening[0] / 2, usb_face - 0.5, floor_bottom - 1])
        cube([usb_opening[0], 10, usb_z + usb_opening[1] / 2 - floor_bottom + 1]);
    translate([x - usb_recess[0] / 2, recess_face, floor_bottom - 1])
        cube([usb_recess[0], 10, usb_z + usb_recess[1] / 2 - floor_bottom + 1]);
}

// ---- the plate --------------------------------------------------------------

// The switches' plate, on the bed: the outline, the nine 14 mm cut-outs.
module plate(thickness = plate_thickness) {
    linear_extrude(thickness) difference() {
        rect(plate_outline);
        for (k = keys) translate(k) square(plate_cutout, center = true);
    }
}

// ---- what is bought: drawn for the pictures only ----------------------------

// A part in colour `c`, as CGAL's mesh (cleaner in a picture than a preview).
module show(c) {
    color(c) render() children();
}

// A box from (x0, y0, z0) to (x1, y1, z1).
module block(x0, y0, z0, x1, y1, z1) {
    translate([x0, y0, z0]) cube([x1 - x0, y1 - y0, z1 - z0]);
}

// The bare PCB: outline, the switches' and screws' holes, the LEDs' cut-outs.
module board() {
    show("#1b5e20") difference() {
        translate([0, 0, pcb_bottom]) linear_extrude(board_thickness) rect([pcb_x[0], pcb_y[0], pcb_x[1], pcb_y[1]]);
        for (k = keys) translate([k[0], k[1], -5]) {
            cylinder(d = mx_peg, h = 10);
            for (p = [mx_pin1, mx_pin2]) translate(p) cylinder(d = socket_hole, h = 10);
            for (p = mx_side_pegs) translate(p) cylinder(d = mx_side_peg, h = 10);
        }
        for (l = leds) translate([l[0], l[1], 0]) cube([led_cutout[0], led_cutout[1], 10], center = true);
        for (s = screws) translate([s[0], s[1], -5]) cylinder(d = screw_hole, h = 10);
        for (i = [0:19], sx = [-1, 1]) translate(pico_pin(i, sx)) cylinder(d = 1, h = 10, center = true);
    }
}

// The Pico's pin i (0 at the front) of the row on side sx.
function pico_pin(i, sx) = [pico_centre[0] + sx * pico_row_spacing / 2,
                            pico_centre[1] + (i - 9.5) * pico_pitch, pcb_bottom];

// A Kailh hot-swap socket under a key at (0, 0): the body, its two cups
// under the switch's pins, its two solder pads.
module hotswap() {
    b = socket_body;
    z = pcb_bottom - socket_height;
    show("#263238") block(b[0][0], b[0][1], z, b[1][0], b[1][1], pcb_bottom);
    for (p = [mx_pin1, mx_pin2]) show("#37474f") translate([p[0], p[1], z - 0.15]) cylinder(d = socket_hole + 0.6, h = 0.2);
    for (p = [socket_pad1, socket_pad2]) show("#cfd8dc")
        translate([p[0], p[1], pcb_bottom - 0.6]) cube([socket_pad[0], socket_pad[1] * 0.6, 1.2], center = true);
}

// An SK6812MINI-E under a key's window: its body up in the board's cut-out,
// its lens at the top face, its four legs on the underside's pads.
module led() {
    z0 = pcb_bottom - 0.25;
    show("#eceff1") translate([0, 0, z0 + led_height / 2 - eps]) cube([led_body[0], led_body[1], led_height - 0.02], center = true);
    show("#fff176") translate([0, 0, z0 + led_height - 0.05]) cylinder(d = 2.2, h = 0.06);
    for (sx = [-1, 1], sy = [-1, 1]) {
        show("#cfd8dc") translate([sx * (led_body[0] / 2 + 0.35), sy * led_pad_at[1], pcb_bottom - 0.15])
            cube([0.9, 0.5, 0.3], center = true);
        show("#b0bec5") translate([sx * led_pad_at[0], sy * led_pad_at[1], pcb_bottom - 0.03])
            cube([led_pad[0], led_pad[1], 0.06], center = true);
    }
}

// An 0402 part (a capacitor, c, or a resistor) at (x, y) under the board,
// turned a degrees.
module chip0402(x, y, a = 0, c = "#a1887f") {
    translate([x, y, pcb_bottom]) rotate(a) {
        show(c) translate([0, 0, -0.175]) cube([0.6, 0.5, 0.35], center = true);
        for (sx = [-1, 1]) show("#cfd8dc") translate([sx * 0.4, 0, -0.175]) cube([0.2, 0.5, 0.35], center = true);
    }
}

// The underside's small parts: a 100 nF capacitor beside each LED, the
// level shifter (SOT-23-5) near the Pico's pin 21 (the front end of the left
// socket row) with its capacitor and resistor. Placed here for the
// picture: the PCB's own files have the real places.
module smd_parts() {
    for (l = leds) chip0402(l[0] - 4.2, l[1], 90);
    x = pico_centre[0] - pico_row_spacing / 2 - 4.5;
    y = pico_centre[1] - pico[1] / 2 + 2.5;
    translate([x, y, pcb_bottom]) {
        show("#212121") translate([0, 0, -0.55]) cube([1.6, 2.9, 1.1], center = true);
        for (dy = [-0.95, 0, 0.95]) show("#cfd8dc") translate([-1.2, dy, -0.15]) cube([0.9, 0.4, 0.3], center = true);
        for (dy = [-0.95, 0.95]) show("#cfd8dc") translate([1.2, dy, -0.15]) cube([0.9, 0.4, 0.3], center = true);
    }
    chip0402(x, y + 3, 0);
    chip0402(x, y - 3, 0, "#212121");
}

// The Pico, parts down, on its two 20-pin sockets under the board: the
// sockets, its headers' plastic, its board, the RP2040, the USB socket at
// the board's back edge, BOOTSEL.
module pico_on_sockets() {
    x = pico_centre[0];
    y = pico_centre[1];
    for (sx = [-1, 1]) {
        show("#212121") translate([x + sx * pico_row_spacing / 2, y, pcb_bottom - socket_row_height / 2])
            cube([2.54, 20 * pico_pitch, socket_row_height], center = true);
        show("#424242") translate([x + sx * pico_row_spacing / 2, y, pico_back + pico_spacer / 2])
            cube([2.54, 20 * pico_pitch, pico_spacer], center = true);
    }
    show("#2e7d32") translate([x, y, pico_face + pico_thickness / 2]) cube([pico[0], pico[1], pico_thickness], center = true);
    for (i = [0:19], sx = [-1, 1]) show("#ffca28")
        translate([pico_pin(i, sx)[0], pico_pin(i, sx)[1], pico_face - 0.4]) cylinder(d = 1.6, h = 0.4);
    show("#212121") translate([x, y - 2, pico_face - 0.45]) cube([7, 7, 0.9], center = true);
    show("#37474f") translate([x + 5, y + 9, pico_face - 0.5]) cube([5, 6, 1], center = true);
    show("#b0bec5") translate([x, usb_face - 2.75, usb_z]) cube([pico_usb[0], 5.5, pico_usb[1]], center = true);
    show("#fafafa") translate([bootsel_at[0], bootsel_at[1], pico_face - 0.75]) cube([3.4, 4.3, 1.5], center = true);
}

// The populated PCB: the board, the sockets, LEDs and small parts under it,
// the Pico on its sockets.
module pcb_populated() {
    board();
    for (k = keys) translate(k) hotswap();
    for (l = leds) translate(l) led();
    smd_parts();
    pico_on_sockets();
}

// Where an MX switch's parts are, above the plate's top: its top housing's
// top, and the stem's top (design values, for the pictures).
switch_top = 6.6;
stem_top = 11.6;

// An MX switch at a key at (0, 0), clipped into the plate: the 14 mm bottom
// housing down to the board, the 15.6 mm flange and top housing above the
// plate, the cross stem, its pins down into the hot-swap socket.
module mx_switch() {
    show("#455a64") translate([0, 0, (plate_top - switch_below_plate) + eps])
        linear_extrude(switch_below_plate - eps) square(plate_cutout - 0.2, center = true);
    show("#607d8b") hull() {
        translate([0, 0, plate_top]) linear_extrude(0.8) square(switch_body, center = true);
        translate([0, 0, plate_top + switch_top - 0.1]) linear_extrude(0.1) square([10.5, 10], center = true);
    }
    // the LED window, towards the player
    show("#e0f7fa") translate([mx_led_window[0], mx_led_window[1] - 0.5, plate_top + 0.6]) cube([5, 2.2, 1.2], center = true);
    show("#c62828") translate([0, 0, plate_top + switch_top - 0.5]) {
        linear_extrude(stem_top - switch_top + 0.5) {
            square([4.1, 1.3], center = true);
            square([1.3, 4.1], center = true);
        }
    }
    show("#ffb300") for (p = [mx_pin1, mx_pin2]) translate([p[0], p[1], pcb_bottom - 1.6]) cylinder(d = 1.5, h = 1.6 + eps);
    show("#455a64") translate([0, 0, pcb_bottom - 1.2]) cylinder(d = mx_peg - 0.1, h = 1.2 + eps);
}

// A 1u keycap on the stem of a switch at (0, 0): 18 mm square at its foot,
// narrower at its top, which is dished a little.
module keycap() {
    z = plate_top + switch_top + 0.6;
    show("#fff3e0") difference() {
        hull() {
            translate([0, 0, z]) linear_extrude(0.1) offset(r = 1) square(keycap - 2, center = true);
            translate([0, 0, z + 7.9]) linear_extrude(0.1) offset(r = 2) square([12.7 - 4, 14 - 4], center = true);
        }
        translate([0, 0, z + 8 + 30 - 0.6]) sphere(r = 30, $fn = 96);
    }
}

// An M3 x screw_length pan-head screw, its head on the board's top face.
module screw() {
    show("#9e9e9e") {
        cylinder(d = screw_head[0], h = screw_head[1]);
        translate([0, 0, -screw_length]) cylinder(d = screw, h = screw_length + eps);
    }
}
