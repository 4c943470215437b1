# One command to serve the browser app, one to play in the terminal, one to test. All
# create .venv and install the project into it: `make serve` the web extra (FastAPI,
# Uvicorn, SQLAlchemy...), `make play` only what playing needs (the engine and Rich),
# `make test` the dev tools too.
# .venv is an editable install and always pure Python, so an edit of src/ takes effect
# at once. `make test` also builds the engine compiled with mypyc (a wheel from the same
# source, into .venv-mypyc, with the test tools and the rl extra (numpy, Gymnasium,
# PettingZoo: the RL adapters' tests) but no mypy) and runs the suite on both
# builds. `make play` stays pure Python: playing starts in seconds instead of after
# minutes of compiling, and bots on a time budget simply search less; `make
# play-compiled` (and `make compiled`, `make bench-compiled`) use the compiled engine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
CVENV := .venv-mypyc
CBIN := $(CVENV)/bin
PLAY_STAMP := $(VENV)/.installed-play
WEB_STAMP := $(VENV)/.installed-web
DEV_STAMP := $(VENV)/.installed-dev
COMPILED_STAMP := $(CVENV)/.installed-compiled
BUILD_FILES := pyproject.toml setup.py build_backend/endeavor_build.py
# the engine's sources, and the engine workers' package (src/endeavor/web/compute: the
# server sends its bots and reviews to the compiled build only when that build has the
# same engine sources as the server)
ENGINE_SRC := $(shell find src/endeavor -name '*.py' -not -path 'src/endeavor/web/*') \
	$(wildcard src/endeavor/web/compute/*.py)
# the compiled build that `make serve` starts in the background: its log and, while it
# runs, its process id (the server reads both to say where its build stands)
COMPILED_LOG := $(CVENV).log
COMPILED_PID := $(CVENV).pid
ARGS ?=
# the web tests' PostgreSQL URL, written once by web-services for both web goals
PG_URL_FILE := .venv/.test-pg-url
# the database of `make serve` (ARGS="--db URL" overrides it)
SERVE_DB ?= sqlite:///endeavor.db
# the browser app's checker (TypeScript, from package-lock.json), installed again when the
# lock changes
NPM_STAMP := node_modules/.installed

.PHONY: serve compiled-background loadtest play play-compiled test test-pure test-web test-web-api \
	test-web-browser test-web-compiled web-services test-js test-compiled compiled lint typecheck bench \
	bench-compiled install dev clean golden services perf-gate docs

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(PLAY_STAMP): $(BUILD_FILES) | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $(PLAY_STAMP)

$(WEB_STAMP): $(BUILD_FILES) | $(BIN)/python
	$(BIN)/pip install -q -e '.[web]'
	touch $(PLAY_STAMP) $(WEB_STAMP)

$(DEV_STAMP): $(BUILD_FILES) | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(PLAY_STAMP) $(WEB_STAMP) $(DEV_STAMP)

$(CBIN)/python:
	$(PY) -m venv $(CVENV)
	$(CBIN)/pip install -q --upgrade pip

# the compiled engine, rebuilt when a source file changes (from scratch: setuptools'
# build/ could otherwise keep a module that is no longer compiled; without its stamp
# meanwhile, so a server leaves it alone until it is whole again); ENDEAVOR_MYPYC=1
# makes the build fail instead of falling back to pure Python
$(COMPILED_STAMP): $(BUILD_FILES) $(ENGINE_SRC) | $(CBIN)/python
	rm -rf build $(COMPILED_STAMP)
	$(CBIN)/pip uninstall -q -y endeavor 2>/dev/null || true
	ENDEAVOR_MYPYC=1 $(CBIN)/pip install -q '.[test,rl]'
	touch $(COMPILED_STAMP)

install: $(PLAY_STAMP)

dev: $(DEV_STAMP)

compiled: $(COMPILED_STAMP)

# the browser app on http://127.0.0.1:8000 (this machine only), games in ./endeavor.db.
# It starts at once on the pure-Python build of .venv; the compiled engine is built
# meanwhile in the background (compiled-background), and the server's search bots and
# post-game reviews move to it by themselves once it is there (docs/web.md, "The
# compiled engine"). ARGS="--engine-python pure" keeps them on pure Python.
serve: $(WEB_STAMP)
	@$(MAKE) --no-print-directory compiled-background
	$(BIN)/endeavor serve --db $(SERVE_DB) $(ARGS)

# `make compiled` in the background, at a lower priority, logged to $(COMPILED_LOG) (its
# last line: "exit status N"), unless it is up to date or already running; its failure
# (no C compiler, no network) is only said in the log: the server stays on pure Python
compiled-background:
	@if [ -f $(COMPILED_PID) ] && kill -0 "$$(cat $(COMPILED_PID))" 2>/dev/null; then \
		echo "the compiled engine is being built in the background (log: $(COMPILED_LOG))"; \
	elif ! $(MAKE) --no-print-directory -q compiled 2>/dev/null; then \
		echo "building the compiled engine in the background (log: $(COMPILED_LOG)); bots and"; \
		echo "reviews run on pure Python until it is built, then on it, without a restart"; \
		( echo "make compiled, started $$(date -u '+%Y-%m-%d %H:%M:%S UTC')"; \
		  nice -n 10 $(MAKE) --no-print-directory compiled; status=$$?; \
		  rm -f $(COMPILED_PID); echo "exit status $$status" ) \
			> $(COMPILED_LOG) 2>&1 < /dev/null & \
		echo $$! > $(COMPILED_PID); \
	fi

# the web app's load test, a tool of this checkout (tools/loadtest): it starts its own
# server unless ARGS has --url, e.g. make loadtest ARGS="--games 200 --think 0"
loadtest: $(WEB_STAMP)
	$(BIN)/python -m tools.loadtest $(ARGS)

play: $(PLAY_STAMP)
	$(BIN)/endeavor play $(ARGS)

play-compiled: $(COMPILED_STAMP)
	$(CBIN)/endeavor play $(ARGS)

# ruff, then the import-linter contracts of pyproject.toml (of the source in src/: the
# engine in layers, never importing an adapter, each rule module importing only the api)
lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests
	PYTHONPATH=src $(BIN)/lint-imports --no-cache

typecheck: $(DEV_STAMP)
	$(BIN)/mypy src/endeavor

# the documentation site (docs/, Sphinx with MyST; docs/conf.py) into site/, warnings as
# errors: the pages, the Python API reference from the docstrings and the HTTP API
# reference from the web app's OpenAPI schema (tools/http_api_md.py, run by the build).
# -E reads every page each time: a page that warned once must warn again, not be skipped
# as unchanged.
docs: $(DEV_STAMP)
	$(BIN)/sphinx-build -E -W --keep-going -q -b html docs site

# four lanes at once (the web tests wait on servers and pages more than they compute,
# so four fit two cores): the suite on the pure-Python build (a fifth of the seeded
# random-play sweeps, which the compiled lane plays whole); the compiled build, its suite
# and then the performance gate (PERF_GATE_AFTER: never beside the build); the browser's
# tests; the other web tests (tests/web: adapters, not the engine, so once, on the pure
# build), and once the compiled build is there the few of the server's engine workers on
# it (test-web-compiled). ruff and the import contracts (lint), mypy, the documentation
# site (docs) and the browser modules' checker and unit tests (test-js, seconds) take
# whichever lane is free first. -O prints each step when it ends.
test:
	@echo "make test: building and testing the compiled engine beside ruff, the import"
	@echo "contracts, mypy, the documentation site, the pure-Python suite, the web app's and"
	@echo "the browser modules' (tsc, node --test), then the performance gate and the web"
	@echo "tests of the compiled engine; each step prints its output when it ends"
	$(MAKE) --no-print-directory -j4 -O test-pure test-compiled test-web-browser test-web-api \
		lint typecheck docs test-js test-web-compiled perf-gate PERF_GATE_AFTER=test-compiled

test-pure: $(DEV_STAMP)
	@if find src -name '*.so' -o -name '*.pyd' | grep .; then \
		echo "compiled modules in src/ would shadow the sources; delete them"; exit 1; fi
	@echo "== pytest, pure Python (editable install in $(VENV)), tests/web apart, one in five"
	@echo "   chunks of the seeded sweeps (the compiled lane plays them whole: tests/sweep.py)"
	ENDEAVOR_SWEEP=sample ENDEAVOR_EXPECT_BUILD=pure $(BIN)/pytest --ignore=tests/web

# the web app's tests, on the pure build, with PostgreSQL and Chromium (tools/
# ci_services.sh installs and starts them when missing; quick otherwise). They read the
# database URL from ENDEAVOR_TEST_PG: when it is not set, the script's. Without CI, a
# failure of the script only skips the PostgreSQL tests (they say why); under CI it fails.
web-services: $(DEV_STAMP)
	@pg="$${ENDEAVOR_TEST_PG:-}"; \
	if [ -z "$$pg" ]; then \
		pg=$$(tools/ci_services.sh) || { \
			if [ -n "$${CI:-}" ]; then exit 1; fi; \
			echo "tools/ci_services.sh failed: the PostgreSQL tests will be skipped"; \
			pg=; }; \
	fi; \
	printf '%s' "$$pg" > $(PG_URL_FILE)

# in two goals that make test runs side by side (the browser's tests wait on pages more
# than they compute): the HTTP, store and sender tests, then the browser's
test-web-api: web-services
	@pg=$$(cat $(PG_URL_FILE)); \
	echo "== pytest tests/web (the browser's apart), pure Python, PostgreSQL: $${pg:-none}"; \
	ENDEAVOR_TEST_PG="$$pg" ENDEAVOR_EXPECT_BUILD=pure $(BIN)/pytest tests/web \
		--ignore=tests/web/browser -m "not compiled_engine"

test-web-browser: web-services
	@echo "== pytest tests/web/browser, pure Python, Chromium"
	ENDEAVOR_EXPECT_BUILD=pure $(BIN)/pytest tests/web/browser -m "not compiled_engine"

# the web tests of the compiled engine behind the server (marked compiled_engine): the
# server on the pure build of $(VENV), its bots' and reviews' engine workers on the
# compiled build of $(CVENV), so they wait for that build (elsewhere they skip without it)
test-web-compiled: web-services $(COMPILED_STAMP)
	@pg=$$(cat $(PG_URL_FILE)); \
	echo "== pytest tests/web -m compiled_engine: the server pure, its engine workers compiled"; \
	ENDEAVOR_TEST_PG="$$pg" ENDEAVOR_TEST_ENGINE_PYTHON="$(CURDIR)/$(CBIN)/python" \
		ENDEAVOR_EXPECT_BUILD=pure $(BIN)/pytest tests/web -m compiled_engine

test-web: test-web-api test-web-browser test-web-compiled

# the browser app's modules (src/endeavor/web/static, served as they are: no build):
# TypeScript's checker reads them with their JSDoc types (tsconfig.json), then Node's
# test runner runs the unit tests of their pure parts (tests/js)
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NPM_STAMP)

test-js: $(NPM_STAMP)
	@echo "== the browser app's modules: tsc (JSDoc types, no output) and node --test tests/js"
	npx --no-install tsc --noEmit -p tsconfig.json
	node --test --test-reporter=dot tests/js/

test-compiled: $(COMPILED_STAMP)
	@echo "== pytest, compiled with mypyc (wheel installed in $(CVENV)), tests/web left out"
	ENDEAVOR_SWEEP=all ENDEAVOR_EXPECT_BUILD=mypyc $(CBIN)/pytest --ignore=tests/web

# the performance gate (tools/perf_gate.py, docs/performance.md): CPU instructions per
# decision under callgrind, of the public loop and of apply_code, without and with
# Exploits, on both builds, against tools/perf_baseline.json; fails above +5 %. After an
# accepted change of speed: `make perf-gate ARGS=--update` and commit the baseline.
PERF_GATE_AFTER ?=
perf-gate: $(DEV_STAMP) $(COMPILED_STAMP) $(PERF_GATE_AFTER)
	@echo "== the performance gate (callgrind), pure Python and compiled"
	$(BIN)/python tools/perf_gate.py --pure-python $(BIN)/python \
		--mypyc-python $(CBIN)/python $(ARGS)

# start (installing when missing) PostgreSQL and Chromium; prints the test database URL
services:
	@tools/ci_services.sh

bench: $(PLAY_STAMP)
	$(BIN)/endeavor bench $(ARGS)

bench-compiled: $(COMPILED_STAMP)
	$(CBIN)/endeavor bench $(ARGS)

golden: $(DEV_STAMP)
	ENDEAVOR_REGEN_GOLDEN=1 $(BIN)/pytest tests/test_golden.py

clean:
	rm -rf $(VENV) $(CVENV) $(COMPILED_LOG) $(COMPILED_PID) build dist site src/*.egg-info .pytest_cache .mypy_cache .ruff_cache \
		node_modules
