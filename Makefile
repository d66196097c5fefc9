# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Optional extras to install: CI adds Ray (`make test EXTRAS=test,ray`); the stamp names them,
# so a change of extras (or of pyproject.toml) installs again.
EXTRAS ?= test
comma := ,
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)-$(subst $(comma),-,$(EXTRAS))

.PHONY: install run test lint bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[$(EXTRAS)]'
	touch $@

install: $(STAMP)

# The default batch into runs/<time>/ (runs/latest points at it), then its report once
# `sanssim report` exists.
run: install
	$(BIN)/sanssim run
	if $(BIN)/sanssim report --help >/dev/null 2>&1; then $(BIN)/sanssim report runs/latest; fi

lint: install
	$(BIN)/ruff check sanssim tests scripts
	$(BIN)/ruff format --check sanssim tests scripts

test: lint
	$(BIN)/python -m pytest

# Speed figures (README): `make bench` for the full 100,000-game runs, BENCH=--quick for a taste.
# The Ray executor is measured too, so Ray is installed first.
bench:
	$(MAKE) --no-print-directory install EXTRAS=test,ray
	$(BIN)/python scripts/bench.py $(BENCH)
