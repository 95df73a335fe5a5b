// The tactic-toe kit's printed parts, as modules, in assembly coordinates:
// origin at the grid's centre on the LED board's top face, x right, y to the
// back (row 0, away from the player), z up. base.scad, grid.scad and
// tile.scad place one part each on the printer's bed; assembly.scad draws
// the whole board. The numbers come from dimensions.scad, which `make
// hardware` writes from host_tools/hardware/layout.py: change them there.
include <dimensions.scad>

$fn = 48;
eps = 0.01;

// The case's outline seen from above, shrunk by `inset`.
module outline(inset = 0) {
    offset(r = corner - inset) square(outside - 2 * corner, center = true);
}

// A tile's or a well's outline: a square of side `side`, its corners cut
// to clear the pillars at the wall crossings (`cut` from the centre along
// a diagonal).
module cut_square(side, cut = corner_cut) {
    intersection() {
        square(side, center = true);
        rotate(45) square(2 * cut, center = true);
    }
}

// ---- the base: a tray under the board --------------------------------------

module base() {
    difference() {
        union() {
            // floor and walls, up to the board's bottom face
            translate([0, 0, floor_bottom]) linear_extrude(-board_thickness - floor_bottom)
                difference() {
                    outline();
                    translate([0, 0]) outline(case_wall);
                }
            translate([0, 0, floor_bottom]) linear_extrude(case_wall) outline();
            // the lip, up inside the grid's skirt
            translate([0, 0, -board_thickness - eps]) linear_extrude(lip_height + eps)
                difference() {
                    outline(case_wall + fit);
                    outline(case_wall + fit + min_wall);
                }
            ledge();
            // the bosses under the screws: the board sits on them; slimmer above
            // the screw head's seat, clear of the parts beside the screws
            for (s = screws) translate([s[0], s[1], floor_bottom]) {
                cylinder(d = boss, h = seat + min_wall - floor_bottom);
                cylinder(d = boss_top, h = -board_thickness - floor_bottom);
            }
        }
        for (s = screws) translate([s[0], s[1], 0]) {
            translate([0, 0, floor_bottom - 1]) cylinder(d = screw_clearance, h = -floor_bottom + 2);
            // the head's counterbore, from below up to its seat
            translate([0, 0, floor_bottom - 1]) cylinder(d = head_bore, h = seat - floor_bottom + 1);
        }
        // the USB plug's opening, in the back wall at the Pico's socket
        translate([pico_centre[0], outside / 2 - case_wall / 2, usb_z])
            cube([usb_opening[0], case_wall * 3, usb_opening[1]], center = true);
        // a hole under the Pico's BOOTSEL button
        translate([bootsel_at[0], bootsel_at[1], floor_bottom - 1]) cylinder(d = bootsel_hole, h = case_wall + 2);
    }
}

// The ledge round the inside of the base's walls: the board's edge rests on
// it (and the board's middle on the bosses). Its underside slopes at 45
// degrees from the walls (no overhang); it is cut back behind the Pico,
// whose sockets reach the board's back edge.
module ledge() {
    top = -board_thickness;
    inset = outside / 2 - pcb_size / 2 + pcb_ledge;  // its inner edge, from the outside
    slope = inset - case_wall;
    difference() {
        translate([0, 0, top - case_wall - slope]) linear_extrude(case_wall + slope) outline(case_wall - eps);
        hull() {
            translate([0, 0, top - case_wall - slope - eps]) linear_extrude(eps) outline(case_wall);
            translate([0, 0, top - case_wall]) linear_extrude(eps) outline(inset);
        }
        translate([0, 0, top - case_wall - eps]) linear_extrude(case_wall + 1) outline(inset);
        // behind the Pico, only the lip's width
        translate([pico_centre[0] - pico[0] / 2 - 1, pico_end - pcb_ledge - 1, top - case_wall - slope - 1])
            cube([pico[0] + 2, pcb_ledge + 1 + (outside / 2 - case_wall - fit - min_wall - pico_end),
                  case_wall + slope + 2]);
    }
}

// ---- the grid: walls, top frame, pillars and skirt, in one print ---------

module grid() {
    difference() {
        union() {
            // the frame over the walls
            translate([0, 0, frame_bottom]) linear_extrude(case_wall) outline();
            // the skirt, down to the base's walls
            translate([0, 0, skirt_bottom]) linear_extrude(frame_bottom - skirt_bottom + eps)
                difference() {
                    outline();
                    outline(case_wall);
                }
            // the walls between the cells, and round them
            for (i = [0:3]) {
                translate([(i - 1.5) * pitch, 0, frame_bottom / 2 + eps / 2])
                    cube([wall, grid, frame_bottom + eps], center = true);
                translate([0, (i - 1.5) * pitch, frame_bottom / 2 + eps / 2])
                    cube([grid, wall, frame_bottom + eps], center = true);
            }
            // the pillars at the screws
            for (s = screws) translate([s[0], s[1], 0]) cylinder(d = pillar, h = frame_bottom + eps);
        }
        // the openings the tiles' tops show through
        for (p = pixels) translate([p[0], p[1], frame_bottom - 1])
            linear_extrude(case_wall + 2) square(frame_opening, center = true);
        // the pilot holes for the M3 screws
        for (s = screws) translate([s[0], s[1], -1]) cylinder(d = pilot, h = pilot_depth + 1);
        // slots over the board's solder joints under the walls
        for (n = wall_notches) translate([n[0], n[1], -1]) cube([n[2] - n[0], n[3] - n[1], joint_height + 1]);
    }
}

// ---- a key tile: white, the cell's diffuser ---------------------------------

// The tile in its cell at rest, centred on its pixel at (0, 0): a box in
// the well, a 45 degree shoulder (no overhang when it is printed top down)
// up to its top, which stands through the frame, and a post down to the
// switch 10 mm in front. `inset` shrinks it, the shoulder kept parallel:
// the inside is the outside shrunk by the tile's skin.
module tile_shape(inset = 0, bottom = tile_bottom, top = tile_top) {
    drop = inset * (sqrt(2) - 1);
    hull() {
        translate([0, 0, bottom]) linear_extrude(flange_top - drop - bottom)
            offset(delta = -inset) cut_square(flange);
        translate([0, 0, cap_bottom - drop]) linear_extrude(eps)
            offset(delta = -inset) cut_square(cap);
    }
    if (inset == 0) hull() {  // the outside, its top edge chamfered
        translate([0, 0, cap_bottom]) linear_extrude(top - cap_bottom - tile_chamfer) cut_square(cap);
        translate([0, 0, top - tile_chamfer]) linear_extrude(tile_chamfer) offset(delta = -tile_chamfer)
            cut_square(cap);
    } else translate([0, 0, cap_bottom - drop]) linear_extrude(top - cap_bottom + drop)
        offset(delta = -inset) cut_square(cap);
}

module tile() {
    difference() {
        tile_shape();
        tile_shape(tile_skin, tile_bottom - 1, tile_top - tile_skin);
        // slots over the board's solder joints under the tile's edge
        for (n = tile_notches) translate([n[0], n[1], tile_bottom - 1]) cube([n[2] - n[0], n[3] - n[1], joint_height + 1]);
    }
    // the post, from under the top down to the switch's actuator
    translate([0, -button_offset, switch_height]) cylinder(d = post, h = tile_top - tile_skin - switch_height + eps);
}

// ---- what is bought: drawn for the pictures only ----------------------------

// what assembly.scad draws: "assembly", "exploded" or "section" (only a
// slice 4 mm deep behind x = 0); openscad -D view='"section"' sets it
view = "assembly";

// A part in colour `c`, as a mesh (CGAL's, cleaner in a picture); in a
// section only its slice.
module show(c) {
    if (view == "section") color(c) render() intersection() {
        children();
        translate([-2, 0, 0]) cube([4, 250, 250], center = true);
    } else color(c) render() children();
}

module pcb() {
    show("#2e7d32") difference() {
        translate([0, 0, -board_thickness]) linear_extrude(board_thickness) square(pcb_size, center = true);
        for (s = screws) translate([s[0], s[1], -5]) cylinder(d = screw_hole, h = 10);
    }
    for (p = pixels) show("#fafafa") translate([p[0], p[1], led_height / 2]) cube([pixel, pixel, led_height], center = true);
    for (p = pixels) show("#fff59d") translate([p[0], p[1], led_height]) cylinder(d = 3, h = 0.1);
    for (b = buttons) translate([b[0], b[1], 0]) {
        show("#455a64") translate([0, 0, switch_body / 2]) cube([button, button, switch_body], center = true);
        show("#212121") cylinder(d = switch_actuator, h = switch_height);
    }
}

module pico() {
    x = pico_centre[0];
    y = pico_centre[1];
    bottom = -board_thickness;
    // the two sockets, and the Pico's headers
    for (sx = [-1, 1]) show("#212121") translate([x + sx * pico_row_spacing / 2, y, bottom - socket_height / 2])
        cube([2.54, pico[1], socket_height], center = true);
    for (sx = [-1, 1]) show("#37474f") translate([x + sx * pico_row_spacing / 2, y, bottom - socket_height - pico_spacer / 2])
        cube([2.54, pico[1], pico_spacer], center = true);
    show("#1b5e20") translate([x, y, pico_face + pico_thickness / 2]) cube([pico[0], pico[1], pico_thickness], center = true);
    // its micro-USB socket and BOOTSEL button, on its underside now
    show("#b0bec5") translate([x, pico_end + pico_usb_overhang - 2.75, usb_z]) cube([pico_usb[0], 5.5, pico_usb[1]], center = true);
    show("#eeeeee") translate([bootsel_at[0], bootsel_at[1], pico_face - 0.75]) cube([3.4, 4.3, 1.5], center = true);
}

module screw() {
    // an M3 x screw_length: its head in the counterbore, seated at seat
    union() {
        translate([0, 0, seat - 3]) cylinder(d = 5.5, h = 3);
        translate([0, 0, seat]) cylinder(d = screw, h = screw_length);
    }
}
