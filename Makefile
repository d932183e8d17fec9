# Two commands on a fresh clone: `make site` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup site test lint clean

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

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache
