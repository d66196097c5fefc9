# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: install run test lint bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

install: $(STAMP)

run: install
	$(BIN)/sanssim play --players 4 --seed 1

lint: install
	$(BIN)/ruff check sanssim tests scripts
	$(BIN)/ruff format --check sanssim tests scripts

test: lint
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python scripts/bench.py
