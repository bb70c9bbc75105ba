# The project's everyday commands. `make run` starts everything; `make test` is what CI runs.
SHELL := /bin/bash

VENV := .venv
BIN := $(VENV)/bin
# Python 3.11 if the machine has it, else whatever python3 is (3.11 or newer is required).
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
# The venv is (re)installed when the requirements change: the stamp's name carries their hash.
REQUIREMENTS := requirements.txt requirements-dev.txt requirements-directory.txt
REQUIREMENTS_HASH := $(shell cat $(REQUIREMENTS) | sha256sum | cut -c1-16)
STAMP := $(VENV)/.installed-$(REQUIREMENTS_HASH)

PYTEST_ARGS ?=

PORT ?= 8000
WEB_CONCURRENCY ?= 3
BIND ?= 127.0.0.1:$(PORT)

.PHONY: venv directory-libraries run serve check test coverage test-fast test-slow typecheck migrations-check screenshots messages bench \
	lint format clean-venv

# make test-fast's pytest processes (pytest-xdist): one a core by default.
TEST_FAST_WORKERS ?= auto
# make test's pytest processes: every test, browser and slow ones included, in two processes (pytest-django
# gives each its own test database). Two took 7 min 20 s on PostgreSQL on an idle 2-core machine
# (26 November 2026). TEST_WORKERS=0 runs them in this process (for pdb).
TEST_WORKERS ?= 2
# Fails when a model changed and its migration was not made (`manage.py makemigrations`). With the
# tests' settings, against the database in DATABASE_URL (PostgreSQL in CI); without one, against an
# empty SQLite in memory, so that a local db.sqlite3 is neither read nor made.
MIGRATIONS_CHECK := DJANGO_SETTINGS_MODULE=tests.settings DATABASE_URL="$${DATABASE_URL:-sqlite://:memory:}" \
	$(BIN)/python manage.py makemigrations --check --dry-run \
	|| { echo "A model changed without its migration: make it with manage.py makemigrations." >&2; exit 1; }

venv: $(STAMP)
# `make venv` typed again after installing the headers tries the directory's libraries again.
ifneq ($(filter venv,$(MAKECMDGOALS)),)
	@if [ -f $(VENV)/.directory-missing ]; then $(MAKE) --no-print-directory directory-libraries; fi
endif

# The casino's directory (requirements-directory.txt) is optional: python-ldap compiles against
# libldap2-dev and libsasl2-dev, and without them everything else works.
directory-libraries:
	@if $(BIN)/python -m pip install --disable-pip-version-check -q -r requirements-directory.txt >/dev/null 2>&1; \
	then rm -f $(VENV)/.directory-missing; \
	else touch $(VENV)/.directory-missing; \
		echo "the casino's directory (LDAP) is not installed: apt-get install libldap2-dev libsasl2-dev, then make venv again; everything else works" >&2; \
	fi

$(STAMP):
	@if [ -z "$(PYTHON)" ]; then echo "No python3.11 or python3 on PATH: install Python 3.11." >&2; exit 1; fi
	@if [ ! -x $(BIN)/python ]; then \
		echo "Creating $(VENV) with $(PYTHON)"; \
		$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
			echo "Could not create $(VENV): on Debian/Ubuntu, apt-get install python3-venv (or python3.11-venv)." >&2; \
			exit 1; }; \
	fi
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	@$(MAKE) --no-print-directory directory-libraries
	@rm -f $(VENV)/.installed-*
	@touch $@

# Migrates, seeds, then honcho runs Procfile.dev (web, a worker per queue, beat, the embedded Redis).
run: venv
	$(BIN)/python scripts/run.py

# Production's web server: gunicorn. It installs nothing (production's venv has requirements.txt
# only) and runs no deployment step: migrate and collectstatic run once per version
# (docs/operations.md); configure it with the environment (docs/configuration.md).
serve:
	@if [ ! -x $(BIN)/gunicorn ]; then echo "No $(BIN)/gunicorn: install first (docs/operations.md)." >&2; exit 1; fi
	$(BIN)/gunicorn config.wsgi --config config/gunicorn.conf.py --bind $(BIND) --workers $(WEB_CONCURRENCY)

# Everything CI checks but the tests: lint and format, the import contracts, mypy, the migrations.
check: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(MIGRATIONS_CHECK)

# What CI runs (.ci/run): make check, then every test in TEST_WORKERS processes, with the 25 slowest steps.
test: check
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal --durations=25 $(PYTEST_ARGS)

# make test with the coverage of the project's code (pyproject.toml [tool.coverage]: the files not fully
# covered, then TOTAL). Not in make test itself: measuring lines and branches made CI's run 17 min 49 s
# against 13 min 19 s without, past the 15 minutes the suite must stay well under.
coverage: check
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal --cov --cov-report=term:skip-covered $(PYTEST_ARGS)

# The edit-and-test loop, about 2½ minutes on an idle 2-core machine: every test but the browser and slow ones
# (gunicorn, the faults, the make run smoke: make test-slow), in TEST_FAST_WORKERS processes, with
# Hypothesis' `fast` profile (tests/conftest.py). make test still runs everything, fully.
test-fast: venv
	$(BIN)/pytest -m "not slow and not browser" -n $(TEST_FAST_WORKERS) --dist worksteal --hypothesis-profile=fast $(PYTEST_ARGS)

# The heavier tests alone (make test runs them too): gunicorn under 50 clients, the faults, the make run smoke,
# the waits on a stopped broker.
test-slow: venv
	$(BIN)/pytest -m slow $(PYTEST_ARGS)

# mypy on the modules listed in pyproject.toml ([tool.mypy] files).
typecheck: venv
	$(BIN)/mypy

migrations-check: venv
	$(MIGRATIONS_CHECK)

# Tests save their screenshots in build/screenshots/ (ignored), never in docs/. This runs the tests
# that take them, then copies over those docs/screenshots/ already has (docs/screenshots.md shows them).
screenshots: venv
	rm -rf build/screenshots
	LOGBOOK_SCREENSHOTS=build/screenshots $(BIN)/pytest -m "browser or screenshots" $(PYTEST_ARGS)
	$(BIN)/python scripts/screenshots.py build/screenshots docs/screenshots

# Every benchmark of the performance issue (bench/README.md), then bench/results/summary.json: one row a
# goal; exits 1 while a goal is unmet. BENCH_QUICK=1: small sizes. Its tools (locust) come from
# requirements-bench.txt, installed here only. A benchmark that misses its goal does not stop the others.
bench: venv
	$(BIN)/pip install -q -r requirements-bench.txt
	rm -rf bench/results/goals
	-$(BIN)/python bench/floor.py
	-$(BIN)/python bench/scan.py
	-$(BIN)/python bench/report.py
	-$(BIN)/python bench/week.py
	$(BIN)/python bench/summary.py

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean-venv:
	rm -rf $(VENV)

# The Spanish catalogue (docs/guide.md, "Languages"): makemessages (GNU gettext's xgettext, a developer's
# tool) refreshes locale/es/LC_MESSAGES/django.po from the code, the templates and the rulebook; after
# translating it, scripts/compile_messages.py (polib, pure Python) writes the .mo committed beside it.
messages: venv
	$(BIN)/python manage.py makemessages -l es --no-obsolete --no-wrap $(MESSAGES_IGNORE)
	$(BIN)/python scripts/compile_messages.py

MESSAGES_IGNORE := --ignore 'tests/*' --ignore 'bench/*' --ignore 'build/*' --ignore 'staticfiles/*' \
	--ignore 'var/*' --ignore 'scripts/*' --ignore 'docs/*' --ignore 'static/*'
