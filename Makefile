# Two commands on a fresh clone: `make site` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup site test test-fast lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

site: setup
	$(BIN)/runsite build --out site

lint: setup
	$(BIN)/ruff check generator tests bench
	$(BIN)/ruff format --check generator tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

# The inner loop: ruff, and every test not marked slow (browsers, site builds over and over,
# fuzzing with thousands of examples), on every core. `make test` runs everything.
test-fast: setup
	$(BIN)/ruff check generator tests bench
	$(BIN)/pytest -m "not slow" -n auto -p no:cacheprovider

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
