# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Optional extras to install: CI adds Ray (`make test EXTRAS=test,ray`); the stamp names them,
# so a change of extras (or of pyproject.toml) installs again.
EXTRAS ?= test
comma := ,
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)-$(subst $(comma),-,$(EXTRAS))

.PHONY: install run test lint bench reports

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[$(EXTRAS)]'
	touch $@

install: $(STAMP)

# The default batch into runs/<time>/ (runs/latest points at it), then its report in
# runs/latest-report, which holds the previous batch's report: --force replaces it.
run: install
	$(BIN)/sanssim run
	$(BIN)/sanssim report runs/latest --out runs/latest-report --force

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

# The canonical reports under reports/, from the experiments in experiments/canonical.toml
# (about 360,000 heuristic games: 15-20 minutes on 2 cores), experiments/seikatsu.toml
# (120,000 heuristic Seikatsu games: about 380 CPU-seconds, 3-4 minutes on 2 idle cores)
# and experiments/splendor.toml (240,000 heuristic Splendor games: about 17 minutes on 2
# cores). An interrupted run resumes. Reports are regenerated in place, so --force lets
# each replace the committed one.
CANON := runs/canonical
SEIKATSU := runs/seikatsu
SPLENDOR := runs/splendor
reports: install
	$(BIN)/sanssim run --config experiments/canonical.toml --out $(CANON)
	$(BIN)/sanssim report $(CANON)/base-p2 $(CANON)/base-p3 $(CANON)/base-p4 \
		--out reports/missions --force
	$(BIN)/sanssim report $(CANON)/base-* $(CANON)/expansion-* $(CANON)/reshuffle-* $(CANON)/both-* \
		--out reports/variants --force
	$(BIN)/sanssim report $(CANON)/base-* $(CANON)/tiles-* --out reports/tiles --force
	$(BIN)/sanssim run --config experiments/seikatsu.toml --out $(SEIKATSU)
	$(BIN)/sanssim report $(SEIKATSU) --out reports/seikatsu --force
	$(BIN)/sanssim run --config experiments/splendor.toml --out $(SPLENDOR)
	$(BIN)/sanssim report $(SPLENDOR) --out reports/splendor --force
