# One command to play, one to test. Both create .venv and install the project into it:
# `make play` only what playing needs (the engine and Rich), `make test` the dev tools too.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_STAMP := $(VENV)/.installed-play
DEV_STAMP := $(VENV)/.installed-dev
ARGS ?=

.PHONY: play test lint typecheck bench install dev clean golden

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $(PLAY_STAMP)

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(PLAY_STAMP) $(DEV_STAMP)

install: $(PLAY_STAMP)

dev: $(DEV_STAMP)

play: $(PLAY_STAMP)
	$(BIN)/endeavor play $(ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests

typecheck: $(DEV_STAMP)
	$(BIN)/mypy src/endeavor

test: $(DEV_STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy src/endeavor
	$(BIN)/pytest

bench: $(PLAY_STAMP)
	$(BIN)/endeavor bench $(ARGS)

golden: $(DEV_STAMP)
	ENDEAVOR_REGEN_GOLDEN=1 $(BIN)/pytest tests/test_golden.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
