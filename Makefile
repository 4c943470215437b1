# One command to play, one to test. Both create .venv and install the project into it.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck bench install clean golden

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

play: $(STAMP)
	$(BIN)/endeavor play

lint: $(STAMP)
	$(BIN)/ruff check src tests

typecheck: $(STAMP)
	$(BIN)/mypy src/endeavor

test: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy src/endeavor
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/endeavor bench

golden: $(STAMP)
	ENDEAVOR_REGEN_GOLDEN=1 $(BIN)/pytest tests/test_golden.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
