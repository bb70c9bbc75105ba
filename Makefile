# The project's everyday commands. `make run` starts everything; `make test` is what CI runs.
SHELL := /bin/bash

VENV := .venv
BIN := $(VENV)/bin
# Python 3.11 if the machine has it, else whatever python3 is (3.11 or newer is required).
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
# The venv is (re)installed when the requirements change: the stamp's name carries their hash.
REQUIREMENTS := requirements.txt requirements-dev.txt
REQUIREMENTS_HASH := $(shell cat $(REQUIREMENTS) | sha256sum | cut -c1-16)
STAMP := $(VENV)/.installed-$(REQUIREMENTS_HASH)

PYTEST_ARGS ?=

PORT ?= 8000
WEB_CONCURRENCY ?= 3
BIND ?= 127.0.0.1:$(PORT)

.PHONY: venv run serve test test-slow bench bench-table-page bench-scan bench-report lint format clean-venv

venv: $(STAMP)

$(STAMP):
	@if [ -z "$(PYTHON)" ]; then echo "No python3.11 or python3 on PATH: install Python 3.11." >&2; exit 1; fi
	@if [ ! -x $(BIN)/python ]; then \
		echo "Creating $(VENV) with $(PYTHON)"; \
		$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
			echo "Could not create $(VENV): on Debian/Ubuntu, apt-get install python3-venv (or python3.11-venv)." >&2; \
			exit 1; }; \
	fi
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	@rm -f $(VENV)/.installed-*
	@touch $@

# Migrates, seeds, then honcho runs Procfile.dev (web, a worker per queue, beat, the embedded Redis).
run: venv
	$(BIN)/python scripts/run.py

# Production's web server: gunicorn. It installs nothing (production's venv has requirements.txt
# only) and runs no deployment step: migrate and collectstatic run once per version (README,
# "Production"); configure it with the environment.
serve:
	@if [ ! -x $(BIN)/gunicorn ]; then echo "No $(BIN)/gunicorn: install first (README, Production)." >&2; exit 1; fi
	$(BIN)/gunicorn config.wsgi --config config/gunicorn.conf.py --bind $(BIND) --workers $(WEB_CONCURRENCY)

test: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/pytest $(PYTEST_ARGS)

# The heavier tests alone (make test runs them too): gunicorn under 50 clients, the faults, the make run smoke.
test-slow: venv
	$(BIN)/pytest -m slow $(PYTEST_ARGS)

bench: venv
	$(BIN)/python bench/run.py
	$(BIN)/python bench/table_page.py
	$(BIN)/python bench/scan.py
	$(BIN)/python bench/report.py

bench-table-page: venv
	$(BIN)/python bench/table_page.py

bench-scan: venv
	$(BIN)/python bench/scan.py

bench-report: venv
	$(BIN)/python bench/report.py

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean-venv:
	rm -rf $(VENV)
