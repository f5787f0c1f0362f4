# Two commands do all set-up on a fresh machine: `make run` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1:8000

.PHONY: run serve test bench loadtest lint format install install-dev demo worker beat clean messages catalogs

$(VENV)/bin/python:
	python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(VENV)/bin/python
	$(PIP) install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(VENV)/bin/python
	$(PIP) install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

install: $(VENV)/.runtime
install-dev: $(VENV)/.dev

## run: install, migrate, load demo data and serve on $(HOST). With REDIS_URL set a
## Celery worker with its beat (the audit anchor) runs beside the server (scripts/launch.py
## stops both on Ctrl-C, on `kill` of make and when make dies);
## otherwise tasks run eagerly.
## The local demo runs with DEBUG on (unless DEBUG is set); everything else defaults to off.
run: export DEBUG ?= true
run: install messages
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py audit_anchor
	exec $(PY) scripts/launch.py \
		$(if $(REDIS_URL),--also "$(VENV)/bin/celery -A casino worker --beat --loglevel=INFO --concurrency=2") \
		-- $(PY) manage.py runserver $(HOST)

## serve: the production stack, configured by the environment (README "Production"): migrate,
## collect the static files, then gunicorn on $(HOST) with WEB_CONCURRENCY processes of
## GUNICORN_THREADS threads; with REDIS_URL set, a Celery worker and its beat beside it
## (both stopped together by scripts/launch.py, `kill` of make included). DEBUG stays off:
## SECRET_KEY and AUDIT_KEY must be set.
WEB_CONCURRENCY ?= 4
GUNICORN_THREADS ?= 1
serve: install messages
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput >/dev/null
	$(PY) manage.py audit_anchor
	exec $(PY) scripts/launch.py \
		$(if $(REDIS_URL),--also "$(VENV)/bin/celery -A casino worker --beat --loglevel=INFO") \
		-- $(VENV)/bin/gunicorn casino.wsgi --bind $(HOST) --workers $(WEB_CONCURRENCY) \
		--threads $(GUNICORN_THREADS) --access-logfile -

## test: install what the tests need and run the whole suite, in TEST_WORKERS processes: two
## per CPU (at most 8), as a browser test spends most of its time waiting on the page, the
## live server or a worker rather than on its own CPU. An idle process takes the next test
## from a busy one (--dist worksteal), so a few long tests do not leave the others waiting.
## Bytecode is written (and the sources compiled once, first) even where
## PYTHONDONTWRITEBYTECODE is set: every worker, and every server, Celery worker and script
## the tests start, would otherwise compile each module again (a worker's collection of the
## suite took 23 s of CPU without the caches, 10 s with them, in the same conditions). The
## caches are __pycache__ folders, ignored by git; a file that does not compile is left to
## pytest to report.
TEST_WORKERS ?= $(shell python3 -c 'import os; print(min(8, 2 * (os.cpu_count() or 1)))')
test: export PYTHONDONTWRITEBYTECODE =
test: install-dev messages
	@command -v chromium >/dev/null 2>&1 || echo "No Chromium: the tablet's browser tests will be skipped (apt-get install chromium to run them)."
	$(PY) -m compileall -q $(patsubst %/__init__.py,%,$(wildcard */__init__.py)) scripts manage.py >/dev/null || true
	$(VENV)/bin/pytest -n $(TEST_WORKERS) --dist worksteal

## messages: compile the translations (gettext's msgfmt): the tablet's and the rules
## engines' (casino/locale, in LOCALE_PATHS).
messages: install
	cd tablet && DJANGO_SETTINGS_MODULE=casino.settings_test ../$(PY) ../manage.py compilemessages >/dev/null

## catalogs: collect the rules engines' message ids (every template marked with _ in
## casino/rules, the theory package left out) into the catalogs of casino/locale. Existing
## translations are kept; new ids come in untranslated (or fuzzy), to be translated before
## `make messages` (tests/core/test_catalogs.py refuses an untranslated or fuzzy entry).
ENGINE_LANGUAGES := af el hu hy is
catalogs: install
	cd casino/rules && DJANGO_SETTINGS_MODULE=casino.settings_test ../../$(PY) ../../manage.py \
		makemessages $(foreach code,$(ENGINE_LANGUAGES),-l $(code)) --no-wrap --no-location \
		--ignore 'theory/*'

## bench: the engines (High Card Flush settlements, the 7-A evaluator against treys, Paiute's
## combinations), the settle endpoint, a table's history and the audit check on PostgreSQL
## (DATABASE_URL, or the local server; throwaway databases are used), then every game's
## replays against scripts/bench_baseline.json, then a live action's CPU and statements at the
## 1st and the 75th action (scripts/bench_live.py). Each of issue 25's targets is printed with
## met / not met (README "Benchmarks").
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/postgres
bench: install-dev
	DATABASE_URL="$${DATABASE_URL:-$(BENCH_DATABASE_URL)}" $(PY) scripts/bench.py
	$(PY) scripts/bench_replay.py
	DATABASE_URL="$${DATABASE_URL:-$(BENCH_DATABASE_URL)}" $(PY) scripts/bench_live.py

## loadtest: dealer tablets playing real hands of every game against gunicorn (production
## settings, WEB_CONCURRENCY x GUNICORN_THREADS), next to a bare insert endpoint, on a
## throwaway PostgreSQL database (DATABASE_URL's server, or the local one). Options go in
## LOADTEST_ARGS, e.g. make loadtest LOADTEST_ARGS="--seconds 5 --tablets 8"; docs/loadtest.md.
loadtest: install-dev
	DATABASE_URL="$${DATABASE_URL:-$(BENCH_DATABASE_URL)}" $(PY) scripts/loadtest.py $(LOADTEST_ARGS)

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy casino/rules

format: install-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

worker: install
	$(VENV)/bin/celery -A casino worker --loglevel=INFO

## beat: the Celery beat scheduler on its own (signs an audit checkpoint every
## AUDIT_ANCHOR_INTERVAL seconds, runs the audit checks and the nightly hold flags); run
## exactly one.
beat: install
	$(VENV)/bin/celery -A casino beat --loglevel=INFO

clean:
	rm -rf $(VENV) db.sqlite3 audit-anchors.jsonl .pytest_cache .mypy_cache .ruff_cache
