"""The board in a browser (``make web``, docs/web.md): the built site, in
headless Chromium driven by Playwright, runs the firmware's own files in
MicroPython's WebAssembly port and plays through the page's cells.

Chromium is Debian's (``apt-get install chromium``; .ci/run installs it);
Playwright never downloads a browser here. Without chromium these tests fail,
each with one line saying so. Every wait is on the page's state (its LEDs,
its console), never on the clock: one browser for the module, one built
site, a fresh page per test.
"""

import json
import os
import shutil
import threading

import pytest

from tactictoe import ai
from tactictoe import rules
from tactictoe import table
from host_tools import web
from conftest import HANG_S, one_line_error, run_cli

NO_CHROMIUM = "chromium is not installed: apt-get install chromium (.ci/run does), then run the tests again"
WAIT_MS = HANG_S * 1000  # a guard against a hang, not a deadline: a page starved of CPU is slow, never wrong
# How long a wait lets the board run without what it waits for: ms of the
# board's own time, as its key scans see it (board.progress: a page starved
# of CPU makes it slower, never faster), so a slow machine never fails it.
PROGRESS_MS = 60000
# Board.wait's test, polled by the page: the awaited expression (or function
# of ``arg``), or "stuck" once the board has run PROGRESS_MS without it.
_WAIT = """([src, arg, start, budget]) => {
    const f = eval("(" + src + ")");
    const v = typeof f === "function" ? f(arg) : f;
    if (v) return {v};
    return (window.board?.progress ?? 0) - start > budget ? {stuck: true} : false;
}"""


def test_web_build_only_writes_a_self_contained_site(table_files, tmp_path):
    out = tmp_path / "site"
    r = run_cli("web", "--build-only", "-o", out, "--tables", os.path.dirname(table_files[rules.CLASSIC]))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("built:    %s (" % out) and "MicroPython 1.28.0-6" in r.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    # The firmware as make flash puts it on a board (compiled: the port
    # loads .mpy v6), both tables, every MicroPython board config the page
    # offers (those of loose parts, and the bought boards: their chips
    # through the emulator's models), and the chip models the page imports.
    firmware = set()
    for name in web.boards():
        firmware |= {n for n, _ in web.flash.firmware_files(web.flash.board_config(name)[1], True)}
    assert set(manifest["flash"]) == firmware | {"lib/tactictoe/classic.tbl", "lib/tactictoe/tactictoe.tbl",
                                                 "lib/tactictoe/puzzles.bin"}
    assert {"main.py", "lib/tactictoe/app.mpy", "lib/tactictoe/touchpads.mpy", "lib/tactictoe/devices/sh1106.mpy",
            "lib/tactictoe/devices/encoder.mpy", "lib/tactictoe/config_parts.mpy", "lib/tactictoe/panel.mpy",
            "lib/tactictoe/words.mpy"} <= firmware
    for name in manifest["flash"]:
        assert (out / "flash" / name).is_file()
    assert manifest["boards"] == ["esp32-touch", "keybow", "keypad", "macropad", "pico-buttons", "pico-matrix",
                                  "pico-mx"]
    assert {"lib/tactictoe/devices/tca9555.mpy", "lib/tactictoe/devices/apa102.mpy",
            "lib/tactictoe/devices/is31fl3731.mpy"} <= firmware
    for name in ("rp2040/boards.mjs", "rp2040/chips/sh1106.mjs", "rp2040/chips/encoder.mjs",
                 "rp2040/chips/apa102.mjs", "rp2040/chips/tca9555.mjs", "rp2040/chips/is31fl3731.mjs"):
        with open(os.path.join(web.SIMULATOR, name), "rb") as f:
            assert (out / name).read_bytes() == f.read()
    assert (out / "micropython" / "micropython.wasm").is_file()
    assert manifest["build_guide"] == "hardware/README.html"
    check_guide(out / "hardware")


def check_guide(guide):
    """Each page of the build guide's copy is beside its markdown as HTML
    (markdown served as text is no page to read); its links and pictures
    reach files in the site, and their anchors headings there."""
    import html
    import re

    pages = sorted(guide.rglob("*.md"))
    assert len(pages) >= 5
    for md in pages:
        page = md.with_suffix(".html")
        text = page.read_text()
        assert text.startswith("<!doctype html>") and "<h1" in text
        assert ("<table>" in text) == ("|---|" in md.read_text())  # tables become tables
        assert "**" not in text and "](" not in text and "|---|" not in text  # no markdown left
        for ref in re.findall(r'(?:href|src)="([^"]+)"', text):
            ref = html.unescape(ref)
            if re.match(r"[a-z]+:", ref):
                continue
            file, _, anchor = ref.partition("#")
            target = (page.parent / file).resolve() if file else page
            assert not file.endswith(".md") and target.is_file(), (page, ref)
            assert guide.resolve() in target.parents or target == guide.resolve(), (page, ref)
            if anchor:
                assert 'id="%s"' % anchor in target.read_text(), (page, ref)
    readme = (guide / "README.html").read_text()
    assert "<title>Building the board</title>" in readme
    # Links that leave hardware/ name the file in the repository instead.
    assert "<code>docs/board-config.md</code> (in the project's repository)" in readme


def test_web_says_in_one_line_what_is_missing(tmp_path):
    line = one_line_error(run_cli("web", "--build-only", "-o", tmp_path / "site", "--tables", tmp_path))
    assert "classic.tbl" in line and "make table" in line


def test_web_empties_only_an_earlier_site(table_files, tmp_path):
    tables = os.path.dirname(table_files[rules.CLASSIC])
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    line = one_line_error(run_cli("web", "--build-only", "-o", mine, "--tables", tables))
    assert "other things in it" in line
    assert (mine / "notes.txt").read_text() == "keep me"
    site = tmp_path / "site"
    for _ in range(2):  # a new folder, then the site it made, rebuilt
        assert run_cli("web", "--build-only", "-o", site, "--tables", tables).returncode == 0
    assert (site / "manifest.json").is_file()


@pytest.fixture(scope="module")
def site(table_files, tmp_path_factory):
    """The built site served on localhost: its URL."""
    out = str(tmp_path_factory.mktemp("web") / "site")
    web.build(out, os.path.dirname(table_files[rules.CLASSIC]), build_guide="https://example.org/build")
    httpd = web.server(out, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d/" % httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    """Chromium, or None if it is not installed: each test then fails (not
    errors at set-up) with one line, through ``need``."""
    chromium = shutil.which("chromium")
    if chromium is None:
        yield None
        return
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium)
        yield b
        b.close()


def need(browser):
    if browser is None:
        pytest.fail(NO_CHROMIUM, pytrace=False)
    return browser


class _Later:
    """An object made when a test first uses it, so that what making it
    finds missing fails the test itself."""

    def __init__(self, make):
        self._make = make
        self._it = None

    def __getattr__(self, name):
        if self._it is None:
            self._it = self._make()
        return getattr(self._it, name)


class Board:
    """A page with the board on it, and what it said."""

    def __init__(self, page, url):
        self.page = page
        self.url = url
        self.errors = []
        self.requests = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.set_default_timeout(WAIT_MS)
        page.add_init_script("window.recordFrames = true")
        page.goto(url)
        self.wait("board.ready && board.frames > 0")

    def wait(self, expr, arg=None, what=None, progress_ms=PROGRESS_MS):
        """Until the JavaScript ``expr`` (an expression, or a function of
        ``arg``) is true on the page; returns its value. AssertionError,
        with ``what`` (else ``expr``) and the board's last console lines,
        once the board has run ``progress_ms`` of its own time without it,
        or at the HANG_S guard (a board that stopped scanning its keys)."""
        from playwright.sync_api import TimeoutError as PageTimeout

        what = what or (expr if arg is None else "%s of %r" % (expr, arg))
        start = self.page.evaluate("window.board?.progress ?? 0")
        try:
            got = self.page.wait_for_function(_WAIT, arg=[expr, arg, start, progress_ms]).json_value()
        except PageTimeout:
            self.fail(what, "nothing in %d s (the hang guard)" % HANG_S)
        if "stuck" in got:
            self.fail(what, "the board ran %g s of its own time without it" % (progress_ms / 1000))
        return got["v"]

    def fail(self, what, why):
        try:
            last = self.page.evaluate("window.board ? board.lines.slice(-20) : []")
        except Exception as e:  # the page itself is gone
            last = ["(no page: %s)" % e]
        raise AssertionError("waited for %s: %s; the board's last lines:\n%s" % (what, why, "\n".join(last)))

    def cell(self, n):
        return self.page.get_by_role("button", name="cell %d" % n, exact=True)

    def lines(self):
        """The console's last lines (the page keeps 500)."""
        return self.page.evaluate("board.lines")

    def end(self):
        """The number the console's next line will have."""
        return self.page.evaluate("board.dropped + board.lines.length")

    def wait_line(self, pattern, start=0):
        """The first console line numbered ``start`` or later that starts
        with ``pattern`` (or one of them, a tuple); returns (its number, the
        line). Lines are numbered from 0 since the page opened: a number
        never shifts, however many lines the page drops from the front."""
        patterns = [pattern] if isinstance(pattern, str) else list(pattern)
        what = "a console line from line %d on starting %s" % (start, " or ".join(map(repr, patterns)))
        return tuple(self.wait("""([ps, start]) => {
            const from = Math.max(start - board.dropped, 0);
            const i = board.lines.findIndex((l, k) => k >= from && ps.some((p) => l.startsWith(p)));
            return i >= 0 ? [i + board.dropped, board.lines[i]] : false;
        }""", [patterns, start], what))

    def wait_lit(self, cells, extra="true"):
        """Until exactly ``cells`` are lit (and ``extra``, a JS expression
        over ``leds``, holds)."""
        cells = sorted(cells)
        self.wait("""([cells, extra]) => {
            const leds = board.leds;
            const lit = leds.map((rgb, c) => rgb.some(v => v > 0) ? c : -1).filter(c => c >= 0);
            return JSON.stringify(lit) === JSON.stringify(cells) && eval(extra);
        }""", [cells, extra], "cells %s lit%s" % (cells, "" if extra == "true" else " and " + extra))

    def menu(self, *taps):
        """From the game screen: tap each option, waiting for its screen."""
        for cell in taps:
            self.tap(cell)

    def tap(self, n):
        self.cell(n).click()


GAME_SCREEN = [1, 3, 5, 7]  # classic, tactic-toe; puzzles, the score
HELP_SCREEN = [3, 4, 5]  # none, the trainer, hints and the trainer
GAME_EXTRA = "leds[3][0] > leds[3][2] && leds[5][2] > leds[5][0]"  # orange classic, blue tactic-toe
MODE_SCREEN = [0, 2, 6, 8]
LEVEL_SCREEN = [4, 6, 7, 8]
HINTS_EXTRA = "leds[3][0] === leds[3][1] && leds[3][1] === leds[3][2]"  # grey "off", white "on"


def choose(board, game, level_cell=8, hints=True, game_screen=GAME_SCREEN):
    """Through the menu from the game screen: ``game``, you as X, the level,
    hints on or off; returns when the game's first frame (every cell lit,
    X to move) shows."""
    board.wait_lit(game_screen, GAME_EXTRA)
    board.tap(3 if game == rules.CLASSIC else 5)
    board.wait_lit(MODE_SCREEN)
    board.tap(0)
    board.wait_lit(LEVEL_SCREEN)
    board.tap(level_cell)
    board.wait_lit(HELP_SCREEN, HINTS_EXTRA)
    board.tap(5 if hints else 3)


def play_as_x(board, game, tbl, first_line=0):
    """Play X's best moves (the firmware's own perfect player, on the host,
    from the same table) by clicking cells, reading O's from the console,
    until the game ends; returns the result line."""
    name = rules.GAMES[game]
    board.wait_lit(range(9))  # the game's first frame: X to move
    pos = rules.Position(game)
    at = first_line
    while True:
        move = ai.best_moves(tbl, pos)[0]
        board.tap(move)
        at, line = board.wait_line("%s: X %d" % (name, move), at)
        pos.push(move)
        at, line = board.wait_line(name + ": ", at + 1)
        if line.endswith(" wins") or line.endswith(" draw"):
            return line
        player, cell = line.split()[1:]
        assert player == "O", line
        pos.push(int(cell))
        at += 1


@pytest.fixture
def board(browser, site):
    b = _Later(lambda: Board(need(browser).new_page(), site))
    yield b
    if b._it is not None:
        b._it.page.close()


@pytest.fixture(scope="module")
def tables(table_files):
    out = {g: table.Table(path, g) for g, path in table_files.items()}
    yield out
    for t in out.values():
        t.close()


def test_the_page_boots_the_firmware_with_its_self_test(board):
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)  # the menu: the self-test is over
    frames = board.page.evaluate("board.record")
    # The self-test: each pixel alone, cells 0 to 8 in order, white...
    walk = []
    for leds in frames:
        lit = [c for c in range(9) if any(leds[c])]
        if len(lit) == 1 and (not walk or walk[-1] != lit[0]):
            walk.append(lit[0])
    # (A page starved of CPU may skip a step of 90 ms, never go back.)
    assert walk and walk == sorted(set(walk)), walk
    # ...then the whole grid red, green and blue, at the config's brightness
    # cap (0.25): what the wire carries, colour order undone.
    whole = [leds[0] for leds in frames if all(any(rgb) for rgb in leds) and len({tuple(x) for x in leds}) == 1]
    assert [c for i, c in enumerate(whole) if c not in whole[:i]][:3] == [[63, 0, 0], [0, 63, 0], [0, 0, 63]]
    page = board.page
    # What it is, and the page's parts by name
    assert "firmware running in your browser" in page.locator("header").inner_text()
    assert page.get_by_role("link", name="Build one").get_attribute("href") == "https://example.org/build"
    assert page.get_by_role("log", name="console").is_visible()
    # A first visit has no score yet, and says nothing of it (issue 32, F18:
    # "score.bin was unreadable (44)", the WebAssembly port's ENOENT)
    assert "score:" not in page.get_by_role("log", name="console").inner_text()
    assert page.locator("#board-picker option").all_inner_texts() == ["esp32-touch", "keybow", "keypad", "macropad",
                                                                      "pico-buttons", "pico-matrix", "pico-mx"]
    # A board of loose parts: the grid alone, no screen, dial or function keys
    assert not page.get_by_role("img", name="screen").is_visible()
    assert not page.get_by_role("button", name="Menu", exact=True).is_visible()
    assert board.errors == []
    # Self-contained: nothing comes from anywhere but the site.
    assert [u for u in board.requests if not u.startswith(board.url)] == []


def test_tactictoe_with_hints_is_won_by_clicking(board, tables):
    choose(board, rules.TACTICTOE, hints=True)
    # Hints: X's winning openings (the edges) pulse bright; the others do not.
    board.wait("board.leds[1][0] > board.leds[0][0] && board.leds[1][0] > board.leds[4][0]")
    assert play_as_x(board, rules.TACTICTOE, tables[rules.TACTICTOE]) == "tactictoe: X wins"
    assert board.errors == []


def test_classic_against_perfect_is_drawn(board, tables):
    choose(board, rules.CLASSIC, hints=False)
    assert play_as_x(board, rules.CLASSIC, tables[rules.CLASSIC]) == "classic: draw"
    assert board.errors == []


def test_a_long_press_returns_to_the_menu(board):
    choose(board, rules.CLASSIC, level_cell=6, hints=False)
    board.wait_lit(range(9))
    box = board.cell(4).bounding_box()
    page = board.page
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # The press is X's move at once (a move is made as its key goes down);
    # held past the long press, the game is left for the menu
    board.wait_line("classic: X 4")
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    page.mouse.up()
    assert board.errors == []


def test_a_corrupt_table_gives_the_red_x_and_the_game_still_plays(board, tables):
    # Damage the table on the board's flash, then power-cycle it.
    board.page.evaluate("""() => {
        const t = board.readFile("lib/tactictoe/tactictoe.tbl");
        t[1000] ^= 1;
        board.writeFile("lib/tactictoe/tactictoe.tbl", t);
        return board.powerCycle();
    }""")
    at, line = board.wait_line("tactictoe: table lib/tactictoe/tactictoe.tbl: ")
    assert "hints are off" in line
    red_below = GAME_EXTRA + " && leds[8][0] > 0 && leds[8][1] === 0"  # red under tactic-toe
    board.wait_lit(GAME_SCREEN + [8], red_below)
    choose(board, rules.TACTICTOE, hints=True, game_screen=GAME_SCREEN + [8])
    board.wait_lit([0, 2, 4, 6, 8], "leds.every(rgb => rgb[1] === 0 && rgb[2] === 0)")  # the red X
    assert play_as_x(board, rules.TACTICTOE, tables[rules.TACTICTOE], at + 1) == "tactictoe: X wins"
    assert board.errors == []


def test_a_wait_fails_with_what_it_waited_for_and_the_board_s_last_lines(board):
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    board.wait("board.caption.at(-1) === 'Tap a lit cell to choose; hold any cell 1.5 s to start over.'")
    start = board.page.evaluate("board.progress")
    with pytest.raises(AssertionError) as e:
        board.wait("board.lines.includes('no such line')", what="a line the board never says", progress_ms=500)
    assert str(e.value).startswith("waited for a line the board never says: the board ran 0.5 s of its own time "
                                   "without it; the board's last lines:\n")
    assert str(e.value).endswith("\n> Tap a lit cell to choose; hold any cell 1.5 s to start over.")
    assert board.page.evaluate("board.progress") - start > 500
    # Console lines by number: the next one's is past every line so far.
    assert board.end() == len(board.lines()) and board.wait_line("> Tap a lit cell")[0] < board.end()


def test_the_caption_beside_the_board_says_what_it_shows(board):
    """The firmware's narration ("> " lines on its console), the last few
    lines, in a live region beside the board; the cells carry the numbers
    it names them by."""
    page = board.page
    caption = page.get_by_role("status", name="what the board shows")

    def shown():
        return caption.locator("li").all_inner_texts()

    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    board.wait("board.caption.at(-1) === 'Tap a lit cell to choose; hold any cell 1.5 s to start over.'")
    assert shown() == board.page.evaluate("board.caption")
    assert shown()[-3:] == [("Choose a game: cell 3 classic (3 in a row wins), cell 5 tactic-toe (old marks vanish),"
     " cell 1 puzzles (win in N moves), cell 7 score (see or reset it)."),
                            "Pulsing now: cell 5, tactic-toe.",
                            "Tap a lit cell to choose; hold any cell 1.5 s to start over."]
    assert caption.get_attribute("aria-live") == "polite"
    assert [board.cell(n).inner_text() for n in range(9)] == [str(n) for n in range(9)]
    b, c = board.cell(2).bounding_box(), caption.bounding_box()
    assert c["x"] >= b["x"] + b["width"] and c["y"] < b["y"] + b["height"]  # beside the board (a wide window)
    board.tap(5)  # tactic-toe
    board.wait("board.caption.some(l => l.startsWith('Who plays? cell 0 you are X'))")
    board.tap(2)  # you are O: the board moves first
    board.wait_lit(LEVEL_SCREEN)
    board.tap(6)  # easy
    board.wait_lit(HELP_SCREEN, HINTS_EXTRA)
    board.tap(3)  # no hints
    at, line = board.wait_line("tactictoe: X ")
    board.wait("board.caption.at(-1) === 'Your move (O): tap a free cell.'")
    cell = int(line.split()[-1])
    assert shown()[-4:] == ["New game of tactic-toe: you are O against the easy board; no help.",
                            "The board (X) is thinking.", "The board (X) played on cell %d." % cell,
                            "Your move (O): tap a free cell."]
    board.tap(cell)  # taken: refused
    board.wait("board.caption.at(-1) === \"Cell %d can't be played now: tap a free cell.\"" % cell)
    assert shown()[-1] == "Cell %d can't be played now: tap a free cell." % cell and len(shown()) == 5
    assert board.errors == []


def test_the_keys_of_make_sim_press_cells_and_space_is_a_long_press(board):
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    board.page.keyboard.press("d")  # cell 5: tactic-toe
    board.wait_lit(MODE_SCREEN)
    board.page.keyboard.press("0")  # cell 0: you are X
    board.wait_lit(LEVEL_SCREEN)
    board.page.keyboard.press(" ")  # the centre, held past the long press
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    # (the centre held at power-on would be safe mode: let go first)
    board.wait("document.querySelectorAll('.cell.held').length === 0")
    # Every frame from here on is kept: the self-test's first pixel is lit for
    # 60 ms of the board's time, which a poll of the page can miss on a busy
    # machine (the menu before lights more than one cell).
    board.page.evaluate("board.record = []")
    board.page.keyboard.press("r")  # power-cycle: the self-test again
    board.wait_line("--- power-cycled ---")
    board.wait("board.frames > 0 && board.record.some(leds => leds.filter(rgb => rgb.some(v => v > 0)).length === 1)")
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    assert board.errors == []


@pytest.mark.parametrize("name", ["pico-matrix", "esp32-touch", "pico-mx"])
def test_the_board_picker_boots_that_wiring(board, name):
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    board.page.get_by_role("combobox", name="board config").select_option(name)
    board.wait_line("--- power-cycled ---")
    board.wait("board.ready && board.boardName === %r" % name)
    with open(os.path.join(web.flash.BOARDS, name + ".json"), "rb") as f:
        assert bytes(board.page.evaluate("Array.from(board.readFile('board.json'))")) == f.read()
    # The page lays the chain's pixels out as the firmware's config reads
    # them (pico-matrix's is serpentine), and the cells reach the firmware
    # through that board's keys (a matrix, touch pads).
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    board.tap(5)
    board.wait_lit(MODE_SCREEN)
    assert name in board.page.url
    assert not any(line.startswith("config:") for line in board.lines())
    assert board.errors == []


def test_the_buzzer_sounds_through_web_audio_once_turned_on(board):
    sound = board.page.get_by_role("button", name="sound: off")
    assert sound.get_attribute("aria-pressed") == "false"
    board.page.get_by_role("combobox", name="board config").select_option("pico-matrix")  # a board with a buzzer
    board.wait("board.ready && board.boardName === 'pico-matrix'")
    assert board.page.evaluate("board.audio()") == "off"  # muted until the player turns it on
    sound.click()
    board.wait("board.audio() === 'running'")
    assert board.page.get_by_role("button", name="sound: on").get_attribute("aria-pressed") == "true"
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    board.tap(5)  # a menu choice: a note
    board.wait("board.tones > 0")
    board.wait("board.tone === 0")  # and silence after it
    assert board.errors == []


def test_a_phone_touches_the_cells(browser, site):
    page = need(browser).new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        b = Board(page, site)
        box = b.cell(4).bounding_box()
        assert box["width"] >= 80  # big enough for a finger
        b.wait_lit(GAME_SCREEN, GAME_EXTRA)
        b.cell(5).tap()
        b.wait_lit(MODE_SCREEN)
        assert b.errors == []
    finally:
        page.close()


def test_the_centre_held_at_power_on_is_safe_mode(board):
    board.wait_lit(GAME_SCREEN, GAME_EXTRA)
    keys = board.page.keyboard
    keys.down("4")  # the centre, held (key 4)...
    keys.press("r")  # ...through a power-cycle
    board.wait_line("safe mode: the centre cell was held at power-on")
    board.wait_lit([4], "leds[4][0] === 0 && leds[4][1] === 0 && leds[4][2] > 0")  # a dim blue centre
    keys.up("4")
    assert board.errors == []


@pytest.mark.parametrize("asked", ["nope", "toString", "constructor", "__proto__", "hasOwnProperty"])
def test_an_unknown_board_in_the_address_falls_back_to_the_default(browser, site, asked):
    """?board= names a shipped config or falls back to the default, even a
    name every JavaScript object has (toString, constructor); the address
    then says which board it is, so a reload boots it again."""
    page = need(browser).new_page()
    try:
        b = Board(page, site + "?board=" + asked)
        assert page.evaluate("board.boardName") == web.DEFAULT_BOARD
        assert page.url.endswith("?board=" + web.DEFAULT_BOARD)
        b.wait_lit(GAME_SCREEN, GAME_EXTRA)
        page.reload()
        b.wait("board.ready && board.frames > 0 && board.boardName === %r" % web.DEFAULT_BOARD)
        assert b.errors == []
    finally:
        page.close()


def test_build_one_opens_the_guide_as_a_page(browser, table_files, tmp_path):
    """Without --build-guide the link goes to the site's copy of the guide,
    rendered: headings, tables and the wiring diagram, not markdown text."""
    out = str(tmp_path / "site")
    web.build(out, os.path.dirname(table_files[rules.CLASSIC]))
    httpd = web.server(out, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    page = need(browser).new_page()
    try:
        b = Board(page, "http://127.0.0.1:%d/" % httpd.server_address[1])
        page.get_by_role("link", name="Build one").click()
        page.get_by_role("heading", name="Building the board", level=1).wait_for()
        assert page.url.endswith("/hardware/README.html")
        page.get_by_role("link", name="pico-buttons").first.click()
        page.get_by_role("heading", level=1).filter(has_text="pico-buttons").wait_for()
        b.wait("[...document.images].some(i => i.src.endsWith('wiring.svg') && i.complete && i.naturalWidth > 0)")
        assert page.locator("table").count() >= 2
        assert b.errors == []
    finally:
        page.close()
        httpd.shutdown()
        httpd.server_close()


# --- the MacroPad: its screen, its dial and its top row of keys -------------

def _font():
    """MicroPython's 8x8 font (tests/doubles/framebuf.py), the firmware's
    screen font: glyph bytes (8 columns, bit 0 on top) -> character."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_framebuf_double", os.path.join(
        os.path.dirname(__file__), "doubles", "framebuf.py"))
    fb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fb)
    return fb, {fb._FONT[8 * i:8 * i + 8]: chr(32 + i) for i in range(95)}


FRAMEBUF, GLYPHS = _font()
LINE_ROWS = 14  # hw_machine.text: line i at y = 14 * i, 5 lines in 64 rows


def screen_lines(glass):
    """The text on the 128x64 glass (the SH1106 model's visible pixels,
    MONO_VLSB), read glyph by glyph in the firmware's font: 5 lines of 16
    cells, an unreadable cell as "?", trailing spaces dropped."""
    lines = []
    for i in range(5):
        y = LINE_ROWS * i
        text = ""
        for k in range(16):
            cols = bytes(sum(((glass[((y + r) >> 3) * 128 + x] >> ((y + r) & 7)) & 1) << r for r in range(8))
                         for x in range(8 * k, 8 * k + 8))
            text += GLYPHS.get(cols, "?")
        lines.append(text.rstrip())
    return lines


def rendered(lines):
    """The glass framebuf draws ``lines`` on, as hw_machine.text does."""
    buf = bytearray(1024)
    fb = FRAMEBUF.FrameBuffer(buf, 128, 64, FRAMEBUF.MONO_VLSB)
    for i, line in enumerate(lines):
        fb.text(line, 0, LINE_ROWS * i, 1)
    return bytes(buf)


class Pad:
    """The MacroPad on the page: what its screen shows, read from the
    page's SH1106 model (what the firmware sent it over SPI), its keys and
    its dial."""

    def __init__(self, board):
        self.b = board
        self.page = board.page

    def glass(self):
        return bytes(self.page.evaluate("Array.from(board.sh1106.visible())"))

    def lines(self):
        return screen_lines(self.glass())

    def wait_screen(self, test):
        """Until ``test(lines)`` holds for the screen; returns the lines.
        Waits on the model's version (each byte that changes the glass)."""
        while True:
            version, glass = self.page.evaluate("[board.sh1106.version, Array.from(board.sh1106.visible())]")
            lines = screen_lines(bytes(glass))
            if test(lines):
                return lines
            self.b.wait("v => board.sh1106.version !== v", version)

    def wait_line(self, i, text):
        return self.wait_screen(lambda lines: lines[i] == text)

    def key(self, name):
        return self.page.get_by_role("button", name=name, exact=True)


@pytest.fixture
def pad(board):
    board.wait("board.ready")
    board.page.get_by_role("combobox", name="board config").select_option("macropad")
    board.wait("board.ready && board.boardName === 'macropad' && board.frames > 0")
    return Pad(board)


def test_the_macropad_shows_the_menu_in_words_on_its_screen(pad):
    lines = pad.wait_screen(lambda lines: lines[0] == "Choose a game:")
    assert lines[1] in ("> Classic", "> Tactic-toe") and lines[3] == "Turn dial, press", lines
    # Nothing else on the glass: exactly the font's pixels for those words
    assert pad.glass() == rendered(lines)
    st = pad.page.evaluate("board.sh1106.state()")
    assert st["on"] and (st["segmentRemap"], st["comReverse"]) == (True, True)
    # Drawn as the board: the screen and the dial above the Menu, Hint and
    # Undo keys, and the grid's nine below them
    for name in ("screen",):
        assert pad.page.get_by_role("img", name=name).is_visible()
    boxes = [pad.key(n).bounding_box() for n in ("Menu", "Hint", "Undo")]
    cells = [pad.b.cell(c).bounding_box() for c in range(3)]
    assert [b["x"] for b in boxes] == [c["x"] for c in cells] and all(b["y"] < c["y"] for b, c in zip(boxes, cells))
    assert pad.page.get_by_role("img", name="screen").bounding_box()["y"] < boxes[0]["y"]
    # The menu's options lit on the grid's keys, through the 12-pixel chain
    pad.b.wait_lit(GAME_SCREEN, GAME_EXTRA)
    assert pad.page.evaluate("Object.keys(board.keyLeds).sort()") == ["hint", "menu", "undo"]
    assert pad.b.errors == []


def test_the_dial_turns_through_the_menu_options(pad):
    pad.wait_line(0, "Choose a game:")
    pad.b.tap(5)  # tactic-toe, on its key
    pad.wait_line(0, "Who plays?")
    lines = pad.wait_line(1, "> You are X")
    seen = [lines[1]]
    for _ in range(3):  # clockwise, one detent at a time: each option in turn
        pad.key("turn the dial clockwise").click()
        seen.append(pad.wait_screen(lambda lines: lines[1] != seen[-1])[1])
    assert seen == ["> You are X", "> You are O", "> Two players", "> Demo"]
    pad.page.keyboard.press("ArrowLeft")  # anticlockwise, from the keyboard
    pad.wait_line(1, "> Two players")
    pad.key("push the dial").click()  # choose it: two players need no level
    lines = pad.wait_screen(lambda lines: lines[0] != "Who plays?")
    assert lines[0] == "Play with help?" and lines[4] == "Menu", lines
    assert pad.b.errors == []


def test_a_classic_game_on_the_macropad_is_played_by_clicking_its_keys(pad, tables):
    pad.wait_line(0, "Choose a game:")
    # The dial to Classic (anticlockwise from tactic-toe), pushed; then the options on their keys
    if pad.lines()[1] != "> Classic":
        pad.page.keyboard.press("ArrowLeft")
        pad.wait_line(1, "> Classic")
    pad.page.keyboard.press("ArrowDown")  # the dial's push
    pad.wait_line(0, "Who plays?")
    pad.b.tap(0)  # you are X
    pad.wait_line(0, "Board's level:")
    pad.b.tap(8)  # perfect
    pad.wait_line(0, "Play with help?")
    pad.b.tap(3)  # off
    lines = pad.wait_line(0, "Classic")
    assert lines[1] == "You X vs Perfect" and lines[2] == "Your move (X)", lines
    # Undo: X's move and the board's reply undone
    pad.b.tap(4)
    lines = pad.wait_screen(lambda lines: lines[2] == "Your move (X)" and lines[4].endswith("Undo"))  # O replied
    assert lines[4] == "Menu  Hint  Undo", lines  # the soft keys' labels, over their keys
    pad.b.wait_line("classic: O ")
    pad.key("Undo").click()
    pad.b.wait_line("classic: take back 2")
    pad.wait_screen(lambda lines: lines[4] == "Menu  Hint" and lines[2] == "Your move (X)")
    pad.b.wait_lit(range(9))  # an empty board again
    assert play_as_x(pad.b, rules.CLASSIC, tables[rules.CLASSIC], pad.b.end()) == "classic: draw"
    lines = pad.wait_line(0, "Draw")
    assert lines[1] == "You X vs Perfect" and lines[2] == "You: W0 D1 L0", lines
    assert pad.glass() == rendered(lines)
    # Menu: back to the first question
    pad.key("Menu").click()
    pad.wait_line(0, "Choose a game:")
    assert pad.b.errors == []
