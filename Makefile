# Two commands for a fresh clone: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000


.PHONY: run dev test test-sqlite setup setup-dev chromium axe wrk lint format bench clean

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
	$(TABLE_ENV) $(BIN)/python -m ofcboard.serve --port $(PORT)

# The same with Django's development server: reloads on changes, debug pages.
dev: setup
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py welcome --port $(PORT)
	$(BIN)/python manage.py runserver 0.0.0.0:$(PORT)

# The browser tests drive Debian's Chromium, never a browser download; a Chinese font
# makes the Chinese pages' screenshots (test-results/languages/) readable.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; \
	fi
	@if ! fc-list :lang=zh 2>/dev/null | grep -q .; then \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq fonts-wqy-zenhei || true; \
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

lint: setup-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: setup-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The whole suite on SQLite (the default), then everything that touches the
# database again on PostgreSQL, which .ci/postgres installs and starts if needed.
# The test of several app nodes shares a Redis cache, which .ci/redis does the same for.
# The SQLite pass runs three workers on two cores: the browser and server tests spend
# much of their time waiting on another process, which a third worker fills. The
# PostgreSQL pass skips what never reads a database (the engine, the pure modules, the
# catalogues) and what runs on a database of its own (the benchmarks' SQLite files, the
# server front, which answers the same whatever is behind it); it is bound by CPU, so
# two workers.
NO_DATABASE := tests/ofc tests/test_button.py tests/test_chart.py tests/test_date_formats.py \
	tests/test_names.py tests/test_paying.py tests/test_pure_modules.py tests/test_seat_draw.py \
	tests/test_settlement.py tests/test_terms.py tests/test_translation_calls.py \
	tests/test_translations.py tests/test_whole_sentences.py tests/test_benchmarks.py \
	tests/test_server_front.py

test: setup-dev chromium axe lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	OFCBOARD_TEST_CACHE_URL=$$(.ci/redis) $(BIN)/pytest -n 3 -p no:cacheprovider
	DATABASE_URL=$$(.ci/postgres) OFCBOARD_TEST_CACHE_URL=$$(.ci/redis) \
		$(BIN)/pytest -n 2 -p no:cacheprovider -m "not e2e" $(NO_DATABASE:%=--ignore=%)

test-sqlite: setup-dev chromium axe
	$(BIN)/pytest -n 3 -p no:cacheprovider

# bench/server.py on PostgreSQL too: DATABASE_URL=$$(.ci/postgres) .venv/bin/python bench/server.py
bench: setup-dev wrk
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/poll.py
	$(BIN)/python bench/pages.py
	$(BIN)/python bench/server.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache node_modules
