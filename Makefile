# Every target sets itself up: the first run creates .venv from requirements.txt.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat requirements.txt requirements-nodeps.txt | cksum | cut -d' ' -f1)
STDLIB_STUBS := micropython-stdlib-stubs==1.29.0.post2
PORT_STUBS   := rp2:micropython-rp2-stubs==1.29.0.post1 esp32:micropython-esp32-stubs==1.29.0.post1
PIP    := $(PY) -m pip install --quiet --disable-pip-version-check
GAMES  := classic tactictoe
TABLES := $(GAMES:%=build/%.tbl)
SOLVER_SOURCES := firmware/rules.py firmware/table.py host_tools/solver.py host_tools/cli.py

.PHONY: all venv test table bench screens clean

all: table

$(STAMP): requirements.txt requirements-nodeps.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is needed (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(PIP) -r requirements.txt
	$(PIP) --no-deps -r requirements-nodeps.txt
	for spec in $(PORT_STUBS); do \
	  $(PIP) --no-deps --upgrade --target $(VENV)/stubs/$${spec%%:*} $${spec#*:} $(STDLIB_STUBS) || exit 1; \
	done
	rm -f $(VENV)/.installed-*
	touch $@

venv: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

table: $(TABLES)

build/%.tbl: $(STAMP) $(SOLVER_SOURCES)
	@mkdir -p build
	$(PY) -m host_tools solve --game $* -o $@

screens: $(STAMP)
	$(PY) -m host_tools screens -o docs/screens

bench: $(STAMP) $(TABLES)
	$(PY) benchmarks/run.py

clean:
	rm -rf build .pytest_cache
