# Every target sets itself up: the first run creates .venv from requirements.txt.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)
GAMES  := classic tactictoe
TABLES := $(GAMES:%=build/%.tbl)
SOLVER_SOURCES := firmware/rules.py firmware/table.py host_tools/solver.py host_tools/cli.py

.PHONY: all venv test table bench clean

all: table

$(STAMP): requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is needed (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $@

venv: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

table: $(TABLES)

build/%.tbl: $(STAMP) $(SOLVER_SOURCES)
	@mkdir -p build
	$(PY) -m host_tools solve --game $* -o $@

bench: $(STAMP) $(TABLES)
	$(PY) benchmarks/run.py

clean:
	rm -rf build .pytest_cache
