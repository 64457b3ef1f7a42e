# Two commands for a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# Python keeps its compiled modules, and pytest the test modules it rewrote, in
# __pycache__ (ignored by git), even where the environment says not to: without them
# every test process compiled all 180 test modules again, 8 s of CPU each time.
export PYTHONDONTWRITEBYTECODE =


.PHONY: run dev test test-sqlite quick setup setup-dev chromium webkit front axe wrk lint format bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.app-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $@ $(VENV)/.app-installed

setup: $(VENV)/.app-installed

setup-dev: $(VENV)/.dev-installed

# Served by granian with DEBUG off (no error pages with code in them on the phones),
# over plain HTTP on the table's Wi-Fi; the secret key is kept in .secret_key. Every
# server setting is in ofcboard/serve.py, which the benchmarks start too.
TABLE_ENV := DEBUG=0 OFCBOARD_TABLE=1

run: setup
	$(TABLE_ENV) $(BIN)/python manage.py migrate --noinput -v 0
	$(TABLE_ENV) $(BIN)/python manage.py collectstatic --noinput -v 0
	$(TABLE_ENV) $(BIN)/python manage.py welcome --port $(PORT)
	$(TABLE_ENV) $(BIN)/python -m ofcboard.serve --port $(PORT) --front auto

# The same with Django's development server: reloads on changes, debug pages.
dev: setup
	DEBUG=1 $(BIN)/python manage.py migrate --noinput -v 0
	DEBUG=1 $(BIN)/python manage.py welcome --port $(PORT)
	DEBUG=1 $(BIN)/python manage.py runserver 0.0.0.0:$(PORT)

# The browser tests drive Debian's Chromium, never a browser download: its headless
# shell (Debian's chromium-headless-shell, built from the same source), which is what
# Playwright itself runs headless; the whole browser's headless mode took twice the
# CPU for the same tests (826 s against 378 s for tests/e2e), and the browsers were
# half of make test's CPU. Without the shell, tests/e2e/conftest.py takes chromium.
# A Chinese font makes the Chinese pages' screenshots (test-results/languages/) readable.
chromium:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ]; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium-headless-shell || true; \
	fi
	@if ! fc-list :lang=zh 2>/dev/null | grep -q .; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq fonts-wqy-zenhei || true; \
	fi

# WebKit, Safari's engine, for the browser tests that run in it too (half the table's
# phones are iPhones): Debian's WebKitWebDriver and its MiniBrowser, in windows under
# Xvfb, driven through Selenium (tests/e2e/webkit.py).
webkit:
	@if ! command -v WebKitWebDriver >/dev/null 2>&1 || ! command -v Xvfb >/dev/null 2>&1; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq webkit2gtk-driver xvfb; \
	fi

# The front that holds the phones' streams and reads every request before the app
# (ofcboard/front.py): nginx with its Nchan module, from Debian. `make run` uses it when
# it is there and says so; `make test` installs it, to test the site both ways.
front:
	@if ! dpkg -s libnginx-mod-nchan >/dev/null 2>&1; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nginx libnginx-mod-nchan; \
	fi

# axe-core, the accessibility checker the browser tests load into pages: the version
# pinned in package.json and package-lock.json, from npm (Debian's npm when missing).
node_modules/.installed: package.json package-lock.json
	@if ! command -v npm >/dev/null 2>&1; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq npm; \
	fi
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

axe: node_modules/.installed

# The HTTP benchmark's load generator, from Debian.
wrk:
	@if ! command -v wrk >/dev/null 2>&1; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq wrk; \
	fi

LINT := $(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy

lint: setup-dev
	$(LINT)

format: setup-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

PYTEST := $(BIN)/pytest -p no:cacheprovider

# The working loop: the engine, the table's rules, the services, the reads, the copies
# and the site's machinery and words on SQLite, in under a minute on two cores. Left
# to make test: the pages and management commands (tests/views, tests/management:
# half the loop's time), the browsers, the tests that start a server of their own and
# wait on it, the deployment's settings (test_project.py: collectstatic, a process),
# the runs of the benchmarks' scripts, the tests marked slow (the 2.6 million hands)
# and those marked database (threads, locks, migrations, query counts: without them
# the tables are made from the models, not migrated). The property tests draw a
# quarter of their examples, new ones each run (tests/examples.py).
# `make quick QUICK="not slow" QUICK_TABLES= NOT_QUICK=tests/e2e` runs nearly everything.
NOT_QUICK := tests/e2e tests/views tests/management tests/test_serve.py \
	tests/test_server_front.py tests/test_front.py tests/test_front_attacks.py \
	tests/test_many_nodes.py tests/test_deployed_site.py tests/test_faults.py \
	tests/test_session_cache.py tests/test_benchmarks.py tests/test_project.py
QUICK ?= not slow and not database
QUICK_TABLES ?= --no-migrations

quick: export OFCBOARD_HYPOTHESIS = quick
quick: setup-dev
	$(PYTEST) -n 2 --dist worksteal -q -m "$(QUICK)" $(QUICK_TABLES) $(NOT_QUICK:%=--ignore=%)

# Everything CI runs: ruff and mypy, the migrations check, the whole suite on SQLite
# (the default) and, beside it, the tests marked `database` (the database's own
# behaviour: locks, threads, constraints, migrations, query counts, faults) on
# PostgreSQL, which .ci/postgres installs and starts if needed. The test of several
# app nodes shares a Redis cache, which .ci/redis does the same for.
# The PostgreSQL pass starts first, on one worker, its output kept in
# test-results/postgres.log and printed once the rest is done; the lint, the
# migrations check and the SQLite pass run meanwhile, the SQLite pass on four
# workers (the browser and server tests spend much of their time waiting on another
# process, which the workers past the two cores fill). The workers steal tests from
# each other (xdist's --dist worksteal): handed out in the order they are found, one
# worker ran every browser test, on for minutes after the others had finished.
# The tests that time an answer against a limit (marked `timed`: a save within 2 s
# behind the front, the four phones' 3 s) run after the rest, alone, so that the limit
# measures the app and not the other workers: beside them, two browsers at once made
# the four phones miss their 3 s (issue 44).
# The slowest 25 tests of the SQLite pass are listed; the recipe fails when anything
# failed, and ends with the wall time.
SQLITE_WORKERS ?= 4
POSTGRES_WORKERS ?= 1
SQLITE_PASS = $(PYTEST) -n $(SQLITE_WORKERS) --dist worksteal -m "not timed" --durations=25
TIMED_PASS = $(PYTEST) -m timed

test: export OFCBOARD_HYPOTHESIS = ci
test: setup-dev chromium webkit front axe
	@started=$$(date +%s); mkdir -p test-results; \
	cache=$$(.ci/redis) && database=$$(.ci/postgres) || exit 1; \
	DATABASE_URL=$$database OFCBOARD_TEST_CACHE_URL=$$cache OFCBOARD_TEST_PORTS=24000 \
		$(PYTEST) -n $(POSTGRES_WORKERS) \
		-m database --ignore=tests/e2e >test-results/postgres.log 2>&1 & postgres=$$!; \
	trap 'kill $$postgres 2>/dev/null; exit 130' INT TERM; \
	echo "The PostgreSQL pass runs beside the rest (test-results/postgres.log)"; \
	$(LINT) && $(BIN)/python manage.py makemigrations --check --dry-run && \
		OFCBOARD_TEST_CACHE_URL=$$cache $(SQLITE_PASS) && \
		OFCBOARD_TEST_CACHE_URL=$$cache $(TIMED_PASS); \
	sqlite=$$?; wait $$postgres; pg=$$?; \
	echo; echo "=== The PostgreSQL pass (test-results/postgres.log) ==="; \
	cat test-results/postgres.log; \
	[ $$sqlite = 0 ] && [ $$pg = 0 ] && outcome=passed || outcome=FAILED; \
	echo "make test: $$outcome, $$(( $$(date +%s) - started )) s wall time"; \
	[ $$outcome = passed ]

test-sqlite: setup-dev chromium webkit front axe
	$(SQLITE_PASS) && $(TIMED_PASS)

# bench/server.py on PostgreSQL too: DATABASE_URL=$$(.ci/postgres) .venv/bin/python bench/server.py
bench: setup-dev wrk
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/poll.py
	$(BIN)/python bench/pages.py
	$(BIN)/python bench/renders.py
	$(BIN)/python bench/server.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache node_modules
