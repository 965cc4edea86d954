# meeplelab: `make report` regenerates reports/, `make test` runs the test suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# pytest-xdist worker processes (auto: one per core); `make test TEST_WORKERS=0` runs in one.
# Before the workers start, tests/conftest.py fills numba's cache once (strategies/warmup.py);
# --dist loadgroup keeps the tests marked with one xdist_group in one worker.
TEST_WORKERS ?= auto

.PHONY: install test test-fast report report-quick bench playthroughs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadgroup

# `make report SCHEDULER=tcp://host:8786`: on a Dask cluster, the same numbers
report: $(STAMP)
	$(BIN)/meeplelab report $(if $(SCHEDULER),--scheduler $(SCHEDULER))

report-quick: $(STAMP)
	$(BIN)/meeplelab report --quick --output-dir build/report-quick

# rewrite tests/playthroughs/ after an intended change of the rules (then review the diff)
playthroughs: $(STAMP)
	MEEPLELAB_REGENERATE_PLAYTHROUGHS=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_playthroughs.py

# every game that declares a benchmark (sim/<game>/game.py), then the Dask backend against local
bench: $(STAMP)
	$(BIN)/meeplelab bench
	$(BIN)/meeplelab bench --dask 2

clean:
	rm -rf build .pytest_cache .hypothesis
	find . -name __pycache__ -prune -exec rm -rf {} +
