# One entry point for people and CI. `make run` and `make test` work on a fresh machine
# that has only Python 3.11: they create .venv and install the pinned dependencies first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | cksum | cut -d' ' -f1)
export DO_NOT_TRACK := 1
export PREFECT_SERVER_ANALYTICS_ENABLED := false

.PHONY: install run test e2e report demo-server lint typecheck fixtures bench clean

install: $(STAMP)

# constraints.txt pins every distribution the suite ran with (direct and transitive), so a fresh
# machine installs the same versions; regenerate it with `pip freeze --exclude-editable`.
$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".[dev]"
	@rm -f $(VENV)/.installed-*
	@touch $@

## Run the pipeline once on the embedded default: the bundled replay archive served on
## loopback, replay's own SQLite warehouse under ./data/replay, Prefect's ephemeral API under
## ./data/prefect.
run: $(STAMP)
	PREFECT_HOME=$(CURDIR)/data/prefect $(BIN)/filings run --source replay

## The whole test suite (PostgreSQL tests skip when no server is reachable, except in CI), on
## one process per core up to 4: most of its time is processes waiting on processes (Prefect
## servers, workers, the CLI). Then the tests that time what they load themselves (marker
## `alone`), in one process. Exit status 5 is pytest's "none selected" (PYTEST_ARGS naming
## tests of one kind only).
test: $(STAMP)
	@mkdir -p data/prefect-test
	PREFECT_HOME=$(CURDIR)/data/prefect-test $(BIN)/python -m pytest -n auto --maxprocesses 4 \
		-m "not alone" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	PREFECT_HOME=$(CURDIR)/data/prefect-test $(BIN)/python -m pytest -m alone $(PYTEST_ARGS) \
		|| [ $$? -eq 5 ]

## Only the end-to-end test: real Prefect server + process worker + the UI in headless Chromium
## (`apt-get install chromium`); screenshots and logs go to test-artifacts/e2e/.
e2e: $(STAMP)
	PREFECT_HOME=$(CURDIR)/data/prefect-test $(BIN)/python -m pytest tests/e2e $(PYTEST_ARGS)

## Guidance versus actual from the demo warehouse `make run` fills: prints it and writes
## data/replay/reports/guidance.png and guidance.html (`filings report` reads the live one).
report: $(STAMP)
	$(BIN)/filings report --replay

## The production route offline: a Prefect server and UI, a process worker, the deployments
## (schedules paused) and the replay archive as SEC and HKEx, until Ctrl-C.
demo-server: $(STAMP)
	PREFECT_HOME=$(CURDIR)/data/prefect $(BIN)/filings demo-server

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy domain filings flows tasks expectations storage

## Regenerate the replay archive (tasks/sources/replay_archive: HTML exhibits, PDFs, JSON) from the seeds.
fixtures: $(STAMP)
	$(BIN)/python scripts/build_fixtures.py

bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf data test-artifacts .pytest_cache .mypy_cache .ruff_cache
