# Two commands for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Optional extras to install: CI adds Ray (`make test EXTRAS=test,ray`); the stamp names them,
# so a change of extras (or of pyproject.toml) installs again.
EXTRAS ?= test
comma := ,
# The worked example of a plug-in game (README "Adding a game") is installed too: the tests play it.
EXAMPLE := examples/nothanks
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml $(EXAMPLE)/pyproject.toml | cksum | cut -d' ' -f1)-$(subst $(comma),-,$(EXTRAS))

.PHONY: install run test lint bench reports robustness tuning

$(STAMP): pyproject.toml $(EXAMPLE)/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[$(EXTRAS)]'
	$(BIN)/python -m pip install -q -e $(EXAMPLE)
	touch $@

install: $(STAMP)

# The default batch into runs/<time>/ (runs/latest points at it), then its report in
# runs/latest-report, which holds the previous batch's report: --force replaces it.
run: install
	$(BIN)/sanssim run
	$(BIN)/sanssim report runs/latest --out runs/latest-report --force

lint: install
	$(BIN)/ruff check sanssim tests scripts examples
	$(BIN)/ruff format --check sanssim tests scripts examples

test: lint
	$(BIN)/python -m pytest

# Speed figures (README): `make bench` for the full 100,000-game runs, BENCH=--quick for a taste.
# The Ray executor is measured too, so Ray is installed first.
bench:
	$(MAKE) --no-print-directory install EXTRAS=test,ray
	$(BIN)/python scripts/bench.py $(BENCH)

# The canonical reports under reports/, from the experiments in experiments/canonical.toml
# (about 460,000 heuristic games: 20-25 minutes on 2 cores), experiments/seikatsu.toml
# (120,000 heuristic Seikatsu games: about 380 CPU-seconds, 3-4 minutes on 2 idle cores)
# and experiments/splendor.toml (240,000 heuristic Splendor games: about 17 minutes on 2
# cores). An interrupted run resumes. Reports are regenerated in place, so --force lets
# each replace the committed one.
CANON := runs/canonical
SEIKATSU := runs/seikatsu
SPLENDOR := runs/splendor
# The canonical reports are written after the robustness appendix (`make robustness`), whose
# verdicts files they read: a finding a strong line-up changed is marked where it is stated.
VERDICTS := $(addprefix --robustness reports/,$(addsuffix /robustness.json,robustness \
	robustness-seikatsu robustness-splendor))
reports: robustness
	$(BIN)/sanssim run --config experiments/canonical.toml --out $(CANON)
	$(BIN)/sanssim report $(CANON)/base-p2 $(CANON)/base-p3 $(CANON)/base-p4 \
		--out reports/missions --force $(VERDICTS)
	$(BIN)/sanssim report $(CANON)/base-* $(CANON)/expansion-* $(CANON)/reshuffle-* $(CANON)/both-* \
		--out reports/variants --force $(VERDICTS)
	$(BIN)/sanssim report $(CANON)/base-* $(CANON)/tiles-* --out reports/tiles --force $(VERDICTS)
	$(BIN)/sanssim run --config experiments/seikatsu.toml --out $(SEIKATSU)
	$(BIN)/sanssim report $(SEIKATSU) --out reports/seikatsu --force $(VERDICTS)
	$(BIN)/sanssim run --config experiments/splendor.toml --out $(SPLENDOR)
	$(BIN)/sanssim report $(SPLENDOR) --out reports/splendor --force $(VERDICTS)
	$(MAKE) --no-print-directory tuning
	$(BIN)/python scripts/html_fits.py reports/*/report.html reports/tuning/*/report.html \
		|| [ $$? -eq 2 ]  # every report fits a 1280-pixel window (exit 2: no Chromium)

# The robustness appendix (reports/README.md, "Robustness"): each game's headline arms under
# `heuristic` and under `ismcts` (default budget) in every seat, 2,000 games per arm on the
# canonical master seeds, so the line-ups play the same deals and every conclusion's
# interaction interval is paired (Sanssouci also keeps `heuristic-tuned`). 38,000 ismcts
# games in all; from the CPU time of a 30-game-per-arm copy (0.44 s a Sanssouci ismcts game
# over 2/3/4 players, 0.25 s Splendor, 0.15 s Seikatsu) about 10,900 CPU-seconds: about
# 90 minutes on 2 idle cores. An interrupted run resumes; the reports take a minute each.
ROBUST := runs/robustness
robustness: install
	$(BIN)/sanssim run --config experiments/robustness.toml --out $(ROBUST)
	$(BIN)/sanssim run --config experiments/robustness-ismcts.toml --out $(ROBUST)-ismcts
	$(BIN)/sanssim report $(ROBUST) $(ROBUST)-ismcts --out reports/robustness --force
	$(BIN)/sanssim run --config experiments/robustness-seikatsu.toml --out $(ROBUST)-seikatsu
	$(BIN)/sanssim report $(ROBUST)-seikatsu --out reports/robustness-seikatsu --force
	$(BIN)/sanssim run --config experiments/robustness-splendor.toml --out $(ROBUST)-splendor
	$(BIN)/sanssim report $(ROBUST)-splendor --out reports/robustness-splendor --force

# The tuning demonstrations under reports/tuning/ (README "Tuning"): each tune resumes when its
# directory exists, so an interrupted `make tuning` finishes where it stopped. Each report
# covers the final re-measurement's arms (the finalists and the default on fresh deals) and
# the search (tune.json); `sanssim report DIR` on the whole directory shows every arm.
TUNED := runs/tuning
TUNE_SEED := 2026
define tune
	if [ -f $(TUNED)/$(1)/tune.json ]; then $(BIN)/sanssim tune --resume --out $(TUNED)/$(1); \
	else $(BIN)/sanssim tune $(2) --seed $(TUNE_SEED) --out $(TUNED)/$(1); fi
	$(BIN)/sanssim report $(TUNED)/$(1)/*-final* --out reports/tuning/$(1) --force
	cp $(TUNED)/$(1)/tune.json reports/tuning/$(1)/tune.json
endef
HEURISTIC_P2 := --players 2 -s 'heuristic:mission=0.5..3,path=0.5..4' --against heuristic \
	--budget 40000
SPLENDOR_SEAT := --game splendor --players 2 --param later_seat_gold=0..2 \
	--objective seat-balance --budget 30000
SPLENDOR_GEMS := --game splendor --players 2 --param later_seat_gems=0..3 \
	--objective seat-balance --budget 30000
SPLENDOR_TIES := --game splendor --players 2 --param 'later_seat_gems=0|1' \
	--param 'ties_to_later_seat=false|true' --objective seat-balance --budget 30000
SPLENDOR_FIRST := --game splendor --players 2 --param 'first_turn_gems=2|3' \
	--param 'ties_to_later_seat=false|true' --objective seat-balance --budget 30000
SPLENDOR_LIMIT := --game splendor --players 2 --param 'later_seat_limit=0|1' \
	--param 'ties_to_later_seat=false|true' --objective seat-balance --budget 30000
# The Splendor compensations the tunes found, re-measured on 20,000 fresh deals each (80,000
# heuristic games with turn logs, about 10 minutes on 2 cores; an interrupted run resumes).
SEAT_FINAL := $(TUNED)/splendor-seat-final
HEURISTIC_LHS := --players 2 --against heuristic --candidates 24 --budget 60000 \
	-s 'heuristic:option=0..1,path=0.5..4,skip=0..1.5,block=0..1,row=0..1.5,column=0..1.5,decay=0.1..0.6,joker=0..4'
HEURISTIC_NTBEA := --players 2 --against heuristic --method ntbea --budget 60000 \
	-s 'heuristic:option=0..1,path=0.5..4,skip=0..1.5,block=0..1,row=0..1.5,column=0..1.5,decay=0.1..0.6,joker=0..4'
HEURISTIC_REST := --players 2 --against heuristic --candidates 16 --budget 40000 \
	-s 'heuristic:latent=0..0.6,mission_move=0..1.5,pair=0..3,symbol=0..3,option=0.1..0.4'
HEURISTIC_NEAR := --players 2 --against heuristic --candidates 32 --budget 120000 \
	-s 'heuristic:option=0.1..0.4,mission=0.5..1.5,path=1..3,latent=0.1..0.4,block=0.1..0.4,row=0.25..0.75,column=0.4..1.2,decay=0.15..0.45,skip=0.3..0.9,mission_move=0.2..0.8,joker=1..3,pair=0.5..1.5,symbol=0.5..1.5'
# Mission tables (what a mission pays by its noble's row 1-6): the rules', floors, and tables
# that pay the same for the last two, three or four rows, each at two levels.
MISSION_TABLES := 1,2,3,4,5,6|2,2,3,4,5,6|3,3,3,4,5,6|1,2,3,4,5,5|2,3,4,5,6,6|2,3,4,5,5,6|1,3,5,5,6,6|2,4,5,5,6,6|1,3,4,5,5,5|2,4,5,6,6,6|2,3,4,5,5,5|3,4,5,6,6,6|1,3,5,5,5,5|2,4,6,6,6,6|2,3,5,5,5,5|1,3,6,6,6,6
MISSIONS := --players 2 --param 'mission_row_points=$(MISSION_TABLES)' \
	--objective zspread:mission --budget 80000
tuning: install
	$(call tune,heuristic-p2,$(HEURISTIC_P2))
	$(call tune,splendor-seat,$(SPLENDOR_SEAT))
	$(call tune,splendor-gems,$(SPLENDOR_GEMS))
	$(call tune,splendor-ties,$(SPLENDOR_TIES))
	$(call tune,splendor-first,$(SPLENDOR_FIRST))
	$(call tune,splendor-limit,$(SPLENDOR_LIMIT))
	$(BIN)/sanssim run --config experiments/splendor-seat.toml --out $(SEAT_FINAL)
	$(BIN)/sanssim report $(SEAT_FINAL) --out reports/tuning/splendor-seat-final --force
	$(call tune,missions,$(MISSIONS))
	$(BIN)/sanssim run --config experiments/missions.toml --out $(TUNED)/missions-quality
	$(BIN)/sanssim report $(TUNED)/missions-quality --out reports/tuning/missions-quality --force
	$(call tune,heuristic-lhs,$(HEURISTIC_LHS))
	$(call tune,heuristic-ntbea,$(HEURISTIC_NTBEA))
	$(call tune,heuristic-rest,$(HEURISTIC_REST))
	$(call tune,heuristic-near,$(HEURISTIC_NEAR))
	for p in 2 3 4; do $(BIN)/sanssim tournament --strategies heuristic,heuristic-tuned --players $$p \
		--games 2000 --seed 2027 --no-turn-log --force --out $(TUNED)/preset-p$$p \
		> reports/tuning/heuristic-tuned-p$$p.txt; done
