"""``python -m host_tools``: the host tools, one subcommand each: solve and
inspect tables, mine puzzles and the fallback's book from them, run the virtual board (sim), build and
serve it in a browser (web), put the game on a board (flash, uf2, circuitpy), and draw the docs'
pictures (screens, hardware, sim-picture, web-picture); fetch the official firmware images (firmware).

Errors a user can cause (a bad path, a corrupt table, an illegal move) print
one line to stderr and exit with status 1; usage errors exit with 2.
"""

import argparse
import os
import stat
import sys

from host_tools import makevars, outputs
from host_tools.oserrors import reported
from tactictoe import ai
from tactictoe import rules
from tactictoe import table
from tactictoe.tableverify import describe, moves


class UserError(Exception):
    """A mistake in the user's input, reported as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        through_make = makevars.usage_error(message)  # names CHIP=, not --chip, for make's user
        if through_make:
            self.exit(2, "error: %s\n" % through_make)
        self.exit(2, "%s: error: %s (see --help)\n" % (self.prog, message))


def _games(text):
    """``--games``: game names, separated by spaces or commas, each once."""
    games = text.replace(",", " ").split()
    for game in games:
        if game not in rules.GAMES:
            raise argparse.ArgumentTypeError("no game %r (games: %s)" % (game, ", ".join(rules.GAMES)))
    twice = sorted({g for g in games if games.count(g) > 1})
    if twice:
        raise argparse.ArgumentTypeError("%s named twice: name each game once" % ", ".join(twice))
    return games


def _parse_moves(text):
    tokens = [t.strip() for t in text.split(",")] if text.strip() else []
    for t in tokens:
        if not (t.isascii() and t.isdigit()):
            raise UserError("--moves %r: expected cells 0-8 separated by commas, e.g. 1,4,0" % text)
    return [int(t) for t in tokens]


def _play(game, moves):
    pos = rules.Position(game)
    for i, cell in enumerate(moves, 1):
        try:
            pos.push(cell)
        except rules.IllegalMove as e:
            raise UserError("--moves: move %d (cell %s) is illegal: %s" % (i, cell, e))
    return pos


def _kind(mode):
    """What a file that is not a regular one is, for a one-line refusal."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return name
    return "a special file"


def _open_table(path):
    """The table at ``path``, open; UserError for anything else. A FIFO or a
    device is refused before it is opened: reading one could wait forever."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise UserError("cannot open table %s: %s" % (path, e.strerror))
    if not stat.S_ISREG(mode):
        raise UserError("cannot open table %s: it is %s, not a file" % (path, _kind(mode)))
    try:
        with reported(UserError, "cannot open table %s" % path):
            return table.Table(path)
    except table.TableError as e:
        raise UserError("%s: %s" % (path, e))


def _check_output(out):
    """UserError unless ``out`` names a regular file (or a new one) that
    can be written: never a device, FIFO, socket or folder."""
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise UserError("cannot write %s: folder %s does not exist" % (out, parent))
    with reported(UserError, "cannot write %s" % out):
        outputs.check_file(out)


def _check_folder(out):
    """UserError unless ``out`` is a folder or nothing yet."""
    with reported(UserError, "cannot write %s" % out):
        outputs.check_folder(out)


def _port(text):
    """``--port``: a TCP port number, 0 (any free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("%r is not a port: give 1-65535 (or 0: any free one)" % text)
    return port


def cmd_solve(args):
    from host_tools import solver

    game = rules.GAMES.index(args.game)
    out = args.output
    _check_output(out)
    sol = solver.solve(game)
    with reported(UserError, "cannot write %s" % out):
        size = solver.write_table(sol, out)
    start = sol.value_of(rules.Position(game))
    print("game:        %s" % args.game)
    print("positions:   %d reachable (%d non-terminal)" % (sol.positions, sol.nonterminal))
    print("records:     %d canonical non-terminal positions" % len(sol.records))
    print("bytes:       %d" % size)
    print("empty board: X to move, %s" % describe(start, "O"))
    print("written:     %s" % out)
    return 0


def _check_tables(folder):
    """Open both tables in ``folder`` as inspect does, with its messages;
    a table for the other game is refused, and so is one that is wrong
    (proven as ``uf2``, ``flash`` and ``inspect --verify`` prove it)."""
    from host_tools import verify

    for game in rules.GAMES:
        path = os.path.join(folder, game + ".tbl")
        with _open_table(path) as t:
            if rules.GAMES[t.game] != game:
                raise UserError("%s: table is for %s, expected %s" % (path, rules.GAMES[t.game], game))
        with reported(UserError, "cannot open table %s" % path), open(path, "rb") as f:
            data = f.read()
        wrong = verify.first_wrong(data)
        if wrong:
            raise UserError("%s: %s" % (path, wrong))


def cmd_fallback_book(args):
    from host_tools import fallback_book

    out = args.module
    _check_output(out)
    try:  # the module first: the search takes a while
        with reported(UserError, "cannot rewrite %s" % out):
            fallback_book.read(out)
    except fallback_book.BookError as e:
        raise UserError("%s: %s" % (out, e))
    _check_tables(args.tables)
    try:
        books = fallback_book.make_files(args.tables)
    except table.TableError as e:
        raise UserError("%s: %s" % (args.tables, e))
    try:
        with reported(UserError, "cannot rewrite %s" % out):
            fallback_book.write(out, books)
    except fallback_book.BookError as e:
        raise UserError("%s: %s" % (out, e))
    for game in (rules.CLASSIC, rules.TACTICTOE):
        print("%-10s %d positions, %d bytes" % (rules.GAMES[game] + ":", len(books[game]),
                                                len(fallback_book.pack(books[game]))))
    print("rewritten: %s" % out)
    return 0


def cmd_puzzles(args):
    from host_tools import puzzles

    out = args.output
    _check_output(out)
    _check_tables(args.tables)
    try:
        found = puzzles.mine_files(args.tables)
    except table.TableError as e:
        raise UserError("%s: %s" % (args.tables, e))
    with reported(UserError, "cannot write %s" % out):
        size = puzzles.write(out, found)
    for game in (rules.CLASSIC, rules.TACTICTOE):
        mine = [p for p in found if p.game == game]
        lengths = sorted({p.plies + 1 >> 1 for p in mine})  # in moves, the winner's (docs/table-format.md)
        print("%-10s %d puzzles: %s" % (rules.GAMES[game] + ":", len(mine), ", ".join(
            "%d in %s" % (sum(p.plies + 1 >> 1 == n for p in mine), moves(n)) for n in lengths)))
    print("bytes:     %d" % size)
    print("written:   %s" % out)
    return 0


def _board_lines(pos):
    vanish = [pos.vanishing(p) for p in (rules.X, rules.O)]
    rows = []
    for r in range(3):
        cells = []
        for c in range(3 * r, 3 * r + 3):
            p = pos.piece_at(c)
            if p is None:
                cells.append(str(c))
            else:
                mark = rules.PLAYERS[p]
                cells.append(mark.lower() if vanish[p] == c else mark)
        rows.append(" ".join(cells))
    return rows


def _value_json(v):
    o = ai.outcome(v)
    return {"outcome": ("loss", "draw", "win")[o + 1], "plies": v & 0x3F, "value7": v}


def cmd_inspect(args):
    if args.verify:
        return _verify(args.table)
    moves = _parse_moves(args.moves)
    t = _open_table(args.table)
    with t:
        game = t.game
        pos = _play(game, moves)
        mover = rules.PLAYERS[pos.turn]
        winner = pos.winner()
        try:
            if pos.is_over():
                own, hints = None, []
            else:
                own, hints = t.value(pos), ai.move_values(t, pos)
        except table.TableError as e:
            raise UserError("%s: %s" % (args.table, e))
    if args.json:
        import json

        doc = {
            "table": args.table,
            "header": {"magic": table.MAGIC.decode(), "version": table.VERSION,
                       "game": rules.GAMES[game], "records": t.count,
                       "bytes": t.size, "crc32": "%08x" % t.crc},
            "moves": moves,
            "board": [None if pos.piece_at(c) is None else rules.PLAYERS[pos.piece_at(c)] for c in range(9)],
            "to_move": mover,
            "over": pos.is_over(),
            "winner": None if winner is None else rules.PLAYERS[winner],
            "value": None if own is None else _value_json(own),
            "legal_moves": [dict(cell=c, **_value_json(v)) for c, v in hints],
        }
        print(json.dumps(doc, indent=2))
        return 0
    print("table:    %s" % args.table)
    print("header:   %s version %d, %s, %d records, %d bytes, crc32 %08x (ok)"
          % (table.MAGIC.decode(), table.VERSION, rules.GAMES[game], t.count, t.size, t.crc))
    print("moves:    %s" % (",".join(map(str, moves)) or "(none: the empty board)"))
    lines = _board_lines(pos)
    print("board:    %s" % lines[0])
    for line in lines[1:]:
        print("          %s" % line)
    if game == rules.TACTICTOE:
        print("          (digits: empty cells; lower case: the mark its owner loses next move)")
    if pos.is_over():
        result = "draw" if winner is None else "%s won" % rules.PLAYERS[winner]
        print("result:   game over, %s" % result)
        return 0
    other = rules.PLAYERS[pos.turn ^ 1]
    print("to move:  %s, %s" % (mover, describe(own, other)))
    print("moves for %s:" % mover)
    for cell, v in hints:
        print("  %d: %s" % (cell, describe(v, other)))
    return 0


def _verify(path):
    from host_tools import verify

    t = _open_table(path)  # the board's own checks first, with their messages
    t.close()
    with reported(UserError, "cannot open table %s" % path), open(path, "rb") as f:
        data = f.read()
    wrong = verify.first_wrong(data)
    if wrong:
        raise UserError("%s: %s" % (path, wrong))
    print("%s: verified: %d %s records, each a canonical position play can reach, each value the best of its"
          " moves', and every position reachable from the empty board recorded" % (path, t.count, rules.GAMES[t.game]))
    return 0


def cmd_screens(args):
    from host_tools import screens

    with reported(UserError, "cannot write %s" % args.output):
        names = screens.write(args.output)
    print("wrote %d pictures to %s" % (len(names), args.output))
    return 0


def cmd_hardware(args):
    from host_tools import hardware

    try:
        with reported(UserError, "cannot write %s" % args.output):
            if args.board:
                files = hardware.write_board(args.board, args.output)
            else:
                files = hardware.write_all(args.output, models=not args.no_models)
    except hardware.HardwareError as e:
        raise UserError(str(e))
    print("wrote %d files to %s" % (len(files), args.output))
    return 0


def cmd_pcb(args):
    from host_tools.hardware import pcb
    from host_tools.hardware.boards import HardwareError

    try:
        with reported(UserError, "cannot write %s" % args.output):
            files = pcb.write(args.output, [args.board] if args.board else pcb.BOARDS)
    except HardwareError as e:
        raise UserError(str(e))
    print("wrote %d files to %s" % (len(files), args.output))
    return 0


def cmd_sim(args):
    from host_tools import images, sim
    from host_tools.sim.board import SimError

    try:
        return sim.main(args)
    except (SimError, images.ImageError) as e:
        raise UserError(str(e))


def cmd_sim_picture(args):
    from host_tools.sim import picture as sim_picture

    _check_output(args.output)
    picture = sim_picture.picture()
    with reported(UserError, "cannot write %s" % args.output):
        outputs.write_file(args.output, picture)
    print("wrote %s" % args.output)
    return 0


def cmd_web(args):
    from host_tools import flash, web

    try:
        manifest = web.build(args.output, args.tables, args.build_guide)
    except (web.WebError, flash.FlashError) as e:
        raise UserError(str(e))
    print("built:    %s (%d KB: MicroPython %s WebAssembly, %d firmware files and tables, %d board configs)"
          % (args.output, web.size(args.output) // 1000, manifest["micropython"], len(manifest["flash"]),
             len(manifest["boards"])))
    if args.build_only:
        return 0
    try:
        httpd = web.server(args.output, args.port)
    except OSError as e:
        raise UserError("cannot serve on port %d: %s (pick another, e.g. %s)"
                        % (args.port, e.strerror, makevars.name("--port", 8080)))
    try:
        # Till Ctrl-C: how a person stops it, so not an error (for make either).
        web.serve(httpd, lambda: print("serving:  http://localhost:%d/  (Ctrl-C stops)" % httpd.server_address[1],
                                       flush=True))
    except KeyboardInterrupt:  # before it started serving
        pass
    finally:
        httpd.server_close()
    print("stopped:  the server (Ctrl-C)")
    return 0


def cmd_web_picture(args):
    from host_tools import flash, web
    from host_tools.web import picture as web_picture

    _check_output(args.output)
    try:
        png = web_picture.take()
    except (web_picture.PictureError, web.WebError, flash.FlashError) as e:
        raise UserError(str(e))
    with reported(UserError, "cannot write %s" % args.output):
        outputs.write_file(args.output, png)
    print("written:  %s" % args.output)
    return 0


def cmd_flash(args):
    from host_tools import flash

    games = args.games
    if args.table:  # that table and nothing else
        games = [args.table]
    try:
        flash.flash(args.port, board=None if args.table else args.board, games=games, firmware=not args.table,
                    tables_dir=args.tables, reset=not args.no_reset)
    except flash.FlashError as e:
        raise UserError(str(e))
    return 0


def _folders(names):
    """What a board's filesystem holds, a short line a folder: the game's
    package as a count of modules and its other files (the tables), the
    rest of /lib by file or by folder (CircuitPython's libraries), the root."""
    from host_tools import flash

    package = [n[len(flash.ON_BOARD) + 1:] for n in names if n.startswith(flash.ON_BOARD + "/")]
    kinds = sorted({os.path.splitext(n)[1] for n in package if n.endswith((".py", ".mpy"))})
    modules = [n for n in package if os.path.splitext(n)[1] in kinds]
    counted = ["%d firmware modules (%s)" % (len(modules), ", ".join(kinds))] if modules else []
    lines = ["/%s: %s" % (flash.ON_BOARD, ", ".join(counted + [n for n in package if n not in modules]))]
    lib = {}  # /lib's own files and folders, in order, each with its count of files
    for n in names:
        if n.startswith("lib/") and not n.startswith(flash.ON_BOARD + "/"):
            parts = n.split("/")
            key = parts[1] + ("/" if len(parts) > 2 else "")
            lib[key] = lib.get(key, 0) + 1
    if lib:
        lines.append("/lib: %s" % ", ".join(k + (" (%d files)" % c if k.endswith("/") else "") for k, c in lib.items()))
    lines.append("/: %s" % ", ".join(n for n in names if "/" not in n))
    return lines


def uf2_board(board, runtime):
    """The config ``make uf2`` installs: ``board`` (default pico-buttons, or
    circuitpython-pico), or for CircuitPython a shipped MicroPython
    config's CircuitPython twin (macropad: circuitpython-macropad)."""
    from host_tools import flash

    if runtime != "circuitpython":
        return board or "pico-buttons"
    if not board:
        return "circuitpython-pico"
    twin = "circuitpython-" + board
    if "/" not in board and not board.endswith(".json") and os.path.exists(os.path.join(flash.BOARDS, twin + ".json")):
        return twin
    return board


def cmd_uf2(args):
    from host_tools import flash, images
    from host_tools.drive import fat, picofs, uf2

    games = args.games
    if not games:  # the UF2 is the board's whole filesystem: no table would be anywhere on it
        raise UserError("%s names no game: a UF2 replaces every file on the board, so it needs a table (give"
                        " %s, or leave it out for both)" % (makevars.name("--games", "''"),
                                                            makevars.name("--games", "classic")))
    _check_output(args.output)
    cp = args.runtime == "circuitpython"
    board = uf2_board(args.board, args.runtime)
    try:
        bought = flash.board_config(board)[1]["board"]
        files, size = uf2.write(args.output, board=board, games=games, tables_dir=args.tables, runtime=args.runtime)
    except (flash.FlashError, images.ImageError) as e:
        raise UserError(str(e))
    total = sum(len(d) for _, d in files)
    print("board:    %s" % board)
    if cp:
        print("holds:    %s" % images.IMAGES[uf2.CIRCUITPYTHON_BUILDS[bought]].title)
        print("          and at %#x a %d KiB CIRCUITPY drive (FAT12): %d files, %d bytes"
              % (uf2.FLASH_BASE + fat.FS_OFFSET, fat.FS_SIZE // 1024, len(files), total))
    else:
        print("holds:    %s" % images.IMAGES[uf2.MICROPYTHON].title)
        print("          and at %#x a %d KiB littlefs filesystem: %d files, %d bytes"
              % (uf2.FS_ADDRESS, picofs.FS_SIZE // 1024, len(files), total))
    for line in _folders([name for name, _ in files]):
        print("          %s" % line)
    print("size:     %d bytes (%d blocks)" % (size, size // uf2.BLOCK))
    print("written:  %s" % args.output)
    bootloader = {"macropad": "hold the encoder's knob down (BOOT) while pressing RESET",
                  "keybow2040": "hold the BOOT button on the Keybow's top edge while plugging it in"}
    print("install:  %s, then copy the file onto the RPI-RP2 drive;"
          % bootloader.get(bought, "hold BOOTSEL while plugging the Pico in"))
    print("          it replaces %s and every file on the board" % ("the firmware" if cp else "MicroPython"))
    return 0


def cmd_firmware(args):
    from host_tools import images

    try:
        if args.sha256:
            for key, name, digest in images.sha256s():
                print("%-24s %s  %s" % (key, digest, name))
            print("record:   each as sha256= of its entry in host_tools/images.py's IMAGES")
            return 0
        images.hand_dir()  # (a FIRMWARE_DIR that is no folder stops everything)
        failed = []  # every image is tried: one that can't be had doesn't stop the others
        for key, image in images.IMAGES.items():
            try:
                print("have:     %s (%s)" % (os.path.basename(images.get(key)), image.title), flush=True)
            except images.ImageError as e:
                failed.append(str(e))
                print("lacking:  %s (%s)" % (image.file, image.title), flush=True)
    except images.ImageError as e:
        raise UserError(str(e))
    if failed:
        more = len(failed) - 1
        raise UserError(failed[0] + ("" if not more else " (and %d more image%s, listed above)"
                                     % (more, "s" if more > 1 else "")))
    print("folder:   %s" % images.folder())
    return 0


def cmd_circuitpy(args):
    from host_tools import flash
    from host_tools.drive import circuitpy

    games = args.games
    try:
        circuitpy.check_dest(args.dest)
        files = circuitpy.drive_files(args.board, games=games, tables_dir=args.tables)
        circuitpy.stage(args.dest, files)
    except flash.FlashError as e:
        raise UserError(str(e))
    print("board:    %s" % args.board)
    print("staged:   %d files, %d bytes, into %s:" % (len(files), sum(len(d) for _, d in files), args.dest))
    for name, data in files:
        print("          %-28s %6d bytes" % (name, len(data)))
    print("note:     modules go compiled (CircuitPython 10's .mpy), but code.py and main (async/await)")
    print("next:     eject CIRCUITPY before unplugging the board (till then the copy may not be all on it);")
    print("          the board restarts into the game by itself")
    return 0


def build_parser():
    p = _Parser(prog="python -m host_tools", description="The tic-tac-toe / tactic-toe board's host tools:"
                " solve and inspect tables, play on a virtual board (sim) or in a browser (web), put the game"
                " on a board (flash, uf2, circuitpy), and draw the docs' pictures.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    s = sub.add_parser("solve", help="solve a game exactly and write its table")
    s.add_argument("--game", required=True, choices=rules.GAMES)
    s.add_argument("-o", "--output", required=True, metavar="PATH", help="table file to write")
    s.set_defaults(func=cmd_solve)
    pz = sub.add_parser("puzzles", help="mine puzzles (the side to move wins in N) from both tables and write"
                        " puzzles.bin")
    pz.add_argument("--tables", default=os.path.join("build"), metavar="FOLDER",
                    help="where the tables are (default build)")
    pz.add_argument("-o", "--output", required=True, metavar="PATH", help="puzzles file to write")
    pz.set_defaults(func=cmd_puzzles)
    fb = sub.add_parser("fallback-book", help="make the no-table fallback's book (the positions its search gets"
                        " wrong or is slow in) from both tables and the search, in fallback.py")
    fb.add_argument("--tables", default=os.path.join("build"), metavar="FOLDER",
                    help="where the tables are (default build)")
    fb.add_argument("--module", default=os.path.join("firmware", "tactictoe", "fallback.py"), metavar="PATH",
                    help="the fallback.py whose BOOKS it rewrites (default firmware/tactictoe/fallback.py)")
    fb.set_defaults(func=cmd_fallback_book)
    i = sub.add_parser("inspect", help="show a table's header and a position's values")
    i.add_argument("table", metavar="PATH")
    i.add_argument("--moves", default="", metavar="1,4,0", help="moves from the empty board (cells 0-8)")
    i.add_argument("--json", action="store_true", help="machine-readable output")
    i.add_argument("--verify", action="store_true",
                   help="prove the table right: every record canonical, reachable and consistent with its moves")
    i.set_defaults(func=cmd_inspect)
    sc = sub.add_parser("screens", help="draw the board's screens as SVG pictures (for the README)")
    sc.add_argument("-o", "--output", required=True, metavar="FOLDER")
    sc.set_defaults(func=cmd_screens)
    hw = sub.add_parser("hardware", help="write the build docs (pin tables, wiring diagrams, parts, layout, the"
                        " bought boards' pages and key maps, the printed case's STLs and pictures)")
    hw.add_argument("-o", "--output", required=True, metavar="FOLDER")
    hw.add_argument("--board", metavar="NAME|PATH",
                    help="only this board config (default: every shipped board, the bought boards, the layout and"
                    " the printed case)")
    hw.add_argument("--no-models", action="store_true",
                    help="of the printed case, only case/dimensions.scad: no STLs or pictures (they need OpenSCAD)")
    hw.set_defaults(func=cmd_hardware)
    pc = sub.add_parser("pcb", help="write the kit's PCB and plate: KiCad files and schematic, gerbers and drills"
                        " (zipped), BOM, placement and pictures (needs KiCad 6's pcbnew)")
    pc.add_argument("-o", "--output", required=True, metavar="FOLDER")
    pc.add_argument("--board", metavar="NAME|PATH", help="only this board config (default: %s)" % "pico-mx")
    pc.set_defaults(func=cmd_pcb)
    sm = sub.add_parser("sim", help="run the virtual board (the firmware in MicroPython) in this terminal")
    sm.add_argument("--board", default="pico-buttons", metavar="NAME|PATH",
                    help="the virtual board's wiring: a shipped board or a board.json (default pico-buttons)")
    sm.add_argument("--chip", choices=("unix", "rp2040"), default=None,
                    help="unix: the firmware in MicroPython's Unix port (fast, the default, the bought boards'"
                         " chips included); rp2040: the real MicroPython rp2 port in an emulated RP2040 (needs"
                         " Node.js 20 and the official images)")
    sm.add_argument("--flash", metavar="FOLDER|FILE",
                    help="its flash: a folder (default build/sim/BOARD), or with --chip rp2040 a littlefs"
                         " image file (default build/sim/rp2040-BOARD.lfs)")
    sm.add_argument("--seed", type=int, help="seed its random numbers (the AI's choices)")
    sm.add_argument("--no-update", action="store_true",
                    help="boot the flash as it is (default: refresh the firmware files from firmware/)")
    sm.add_argument("--tables", metavar="FOLDER",
                    help="where a new flash gets its tables from (default build)")
    sm.add_argument("--headless", action="store_true",
                    help="no terminal: press commands on stdin, frames and console lines on stdout")
    sm.add_argument("--replay", metavar="SCRIPT",
                    help="play a press script on a virtual clock and print the frames (repeatable)")
    sm.add_argument("--then", type=int, default=2000, metavar="MS",
                    help="with --replay: keep running this long after the last press (default 2000)")
    sm.set_defaults(func=cmd_sim)
    sp = sub.add_parser("sim-picture", help="capture make sim in tmux as an SVG picture (for the README)")
    sp.add_argument("-o", "--output", required=True, metavar="PATH")
    sp.set_defaults(func=cmd_sim_picture)
    w = sub.add_parser("web", help="build the board in a browser (the firmware in MicroPython WebAssembly)"
                                   " and serve it")
    w.add_argument("-o", "--output", default=os.path.join("build", "web"), metavar="FOLDER",
                   help="where the static site goes (default build/web): a new or empty folder, or an earlier site")
    w.add_argument("--tables", default=os.path.join("build"), metavar="FOLDER",
                   help="where the tables are (default build)")
    w.add_argument("--build-guide", metavar="URL",
                   help="where the page's 'build one' link goes (default: a copy of hardware/ in the site)")
    w.add_argument("--build-only", action="store_true", help="build the site, do not serve it")
    w.add_argument("--port", type=_port, default=8000, help="serve on localhost at this port (default 8000; 0: any)")
    w.set_defaults(func=cmd_web)
    wp = sub.add_parser("web-picture", help="the page of `web` mid-game in headless Chromium,"
                                            " as a PNG (for the README)")
    wp.add_argument("-o", "--output", required=True, metavar="PATH")
    wp.set_defaults(func=cmd_web_picture)
    fl = sub.add_parser("flash", help="flash firmware, board config and tables onto a board with mpremote")
    fl.add_argument("--port", default="", help="the board's serial port, or the simulator's console")
    fl.add_argument("--board", metavar="NAME|PATH", help="board config to install as board.json")
    fl.add_argument("--games", default="classic tactictoe", type=_games, help="tables to copy (default: both)")
    fl.add_argument("--table", choices=rules.GAMES, help="copy only this game's table")
    fl.add_argument("--tables", default=os.path.join("build"), metavar="FOLDER",
                    help="where the tables are (default build)")
    fl.add_argument("--no-reset", action="store_true", help="leave the board in its REPL afterwards")
    fl.set_defaults(func=cmd_flash)
    u = sub.add_parser("uf2", help="write one UF2 for a Pico: MicroPython (or CircuitPython), firmware, board.json"
                                   " and tables")
    u.add_argument("--board", metavar="NAME|PATH",
                   help="board config to install as board.json (a Pico one; default pico-buttons, or"
                        " circuitpython-pico with --runtime circuitpython)")
    u.add_argument("--runtime", choices=("micropython", "circuitpython"), default="micropython",
                   help="the Python the UF2 installs (default micropython)")
    u.add_argument("--games", default="classic tactictoe", type=_games, help="tables to include (default: both)")
    u.add_argument("--tables", default=os.path.join("build"), metavar="FOLDER",
                   help="where the tables are (default build)")
    u.add_argument("-o", "--output", required=True, metavar="PATH", help="UF2 file to write")
    u.set_defaults(func=cmd_uf2)
    fw = sub.add_parser("firmware", help="download the official images make uf2 and the emulated RP2040 need"
                        " (MicroPython's, CircuitPython's, the boot ROM) into the cache, or check FIRMWARE_DIR's")
    fw.add_argument("--sha256", action="store_true", help="print the sha256 of each image present, to record")
    fw.set_defaults(func=cmd_firmware)
    c = sub.add_parser("circuitpy", help="stage what a CircuitPython board's CIRCUITPY drive needs into a folder")
    c.add_argument("--dest", required=True, metavar="FOLDER", help="the CIRCUITPY drive, mounted (or any folder)")
    c.add_argument("--board", default="circuitpython-pico", metavar="NAME|PATH",
                   help="board config to install as board.json (a CircuitPython one; default circuitpython-pico)")
    c.add_argument("--games", default="classic tactictoe", type=_games, help="tables to include (default: both)")
    c.add_argument("--tables", default=os.path.join("build"), metavar="FOLDER",
                   help="where the tables are (default build)")
    c.set_defaults(func=cmd_circuitpy)
    return p


def main(argv=None):
    """``python -m host_tools ARGV``; the Makefile puts ``--via-make`` first,
    so that errors name its variables (host_tools/makevars.py)."""
    argv = sys.argv[1:] if argv is None else argv
    wrong = argv[:1] == [makevars.VIA_MAKE] and makevars.miscased(os.environ.get("MAKEFLAGS", ""))
    if wrong:  # (board=macropad: make itself would say nothing)
        print("error: %s" % wrong, file=sys.stderr)
        return 2
    args = build_parser().parse_args(makevars.start(argv))
    try:
        status = args.func(args)
        sys.stdout.flush()
        return status
    except UserError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the exit-time flush can't fail again
        return 1
