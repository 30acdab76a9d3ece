# Each target bootstraps .venv on first use, so a fresh clone needs nothing but Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
INSTALLED_TEST := $(VENV)/.installed-test
INSTALLED_NOTEBOOKS := $(VENV)/.installed-notebooks

.PHONY: run test bench notebooks clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# `make run` needs only the package; the test extras (dask, notebook kernel) come with `make test`.
$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(INSTALLED)

$(INSTALLED_TEST): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(INSTALLED) $(INSTALLED_TEST)

run: $(INSTALLED)
	$(BIN)/cardsim tournament --config experiments/default.toml

# The browser test (tests/test_browser.py) drives Debian's chromium with its chromedriver: installed here
# when missing (as root, or with sudo). If that fails the browser test fails and says why; the rest runs.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo -n)
browser: | $(BIN)/python
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  echo "make test: installing Debian's chromium and chromium-driver for the browser test"; \
	  ( $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q chromium chromium-driver ) \
	    > $(VENV)/browser-install.log 2>&1 \
	  || echo "make test: could not install them (see $(VENV)/browser-install.log); the browser test will fail"; \
	fi

# The tests, a worker per core (pytest-xdist), then lint and format of the code that runs
# (package, experiments, benchmarks, tests) and types of the package
# (configured in pyproject.toml).
# The fast engines and the built-in strategies are compiled once, into numba's cache on disk, before
# the test workers start: each would otherwise compile them for itself. Tests share out one at a time
# but for a group kept on one worker (--dist loadgroup): the README's commands, whose fixture would
# otherwise run them all once a worker. (Whole files a worker, --dist loadscope, measured no faster.)
test: $(INSTALLED_TEST) browser
	$(BIN)/python -m sim.warm
	$(BIN)/python -m pytest -n auto --dist loadgroup
	$(BIN)/ruff check sim strategies experiments benchmarks tests
	$(BIN)/ruff format --check sim strategies experiments benchmarks tests
	$(BIN)/mypy

# The cluster's fault tests (tests/cluster/test_faults.py, about 2 minutes, as root): four machines as
# network namespaces, a worker's and the client's link cut, the scheduler restarted, a slow worker.
# `make test` runs the machines' own tests (isolation, nothing left behind) and skips these.
.PHONY: test-cluster
test-cluster: $(INSTALLED_TEST)
	$(BIN)/python -m sim.warm
	$(BIN)/python -m pytest -p no:xdist -m faults tests/cluster

bench: $(INSTALLED)
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.deadwood
	$(BIN)/python -m benchmarks.limit
	$(BIN)/python -m benchmarks.tournaments
	$(BIN)/python -m benchmarks.vecenv

# The value networks the games ship (strategies/<game>/value.npz, which mc:leaves= and search:leaves= read;
# docs/training.md), each of positions of heuristic play labelled by mc: Straights' about 20 minutes on a
# quiet 2-core machine, Gemstones' about 25 (labelled to the game's end, mc:horizon=0), Euchre's and Gin
# Rummy's about 30 each on one core (their leaves play level with mc, not ahead of it: they ship as what
# the next try starts from).
INSTALLED_TRAIN := $(VENV)/.installed-train
$(INSTALLED_TRAIN): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[train]'
	touch $(INSTALLED) $(INSTALLED_TRAIN)

.PHONY: weights weights-straights weights-straights-policy weights-gemstones weights-gemstones-policy \
  weights-euchre weights-ginrummy
weights: weights-straights weights-straights-policy weights-gemstones weights-gemstones-policy \
  weights-euchre weights-ginrummy

weights-straights: $(INSTALLED_TRAIN)
	$(BIN)/cardsim train --jobs -1 --game straights --learn value --labels mc --explore 0.15 --positions 3000000 \
	  --updates 20000 --batch 1024 --hidden 384,384 --evaluate-every 1000 --out results/value-straights
	cp results/value-straights/value.npz strategies/straights/value.npz

# A policy imitating mc, then two rounds of expert iteration: each a policy imitating mc rolling the
# previous one out to the shipped value's leaves (what `learned` plays with it). 24 minutes on this
# 2-core machine: 1.5 for the first, about 11 for each round (docs/training.md: today's JAX makes
# another P2 than the shipped one, which another JAX made).
LEAVES_STRAIGHTS = leaves=strategies/straights/value.npz,leaf_turns=2
weights-straights-policy: $(INSTALLED_TRAIN)
	$(BIN)/cardsim train --jobs -1 --game straights --teacher mc --positions 400000 --out results/policy-straights-imitation
	$(BIN)/cardsim train --jobs -1 --game straights --positions 400000 --out results/policy-straights-round1 --teacher \
	  "mc:rollout=(policy:path=results/policy-straights-imitation/policy.npz),$(LEAVES_STRAIGHTS)"
	$(BIN)/cardsim train --jobs -1 --game straights --positions 400000 --out results/policy-straights --teacher \
	  "mc:rollout=(policy:path=results/policy-straights-round1/policy.npz),$(LEAVES_STRAIGHTS)"
	cp results/policy-straights/policy.npz strategies/straights/policy.npz

weights-gemstones: $(INSTALLED_TRAIN)
	$(BIN)/cardsim train --jobs -1 --game gemstones --learn value --labels mc:horizon=0 --explore 0.15 --positions 1000000 \
	  --updates 10000 --batch 1024 --hidden 256,256 --evaluate-every 500 --out results/value-gemstones
	cp results/value-gemstones/value.npz strategies/gemstones/value.npz

weights-euchre: $(INSTALLED_TRAIN)
	$(BIN)/cardsim train --jobs -1 --game euchre --learn value --labels mc:samples=64 --explore 0.15 --positions 2000000 \
	  --updates 10000 --batch 1024 --out results/value-euchre
	cp results/value-euchre/value.npz strategies/euchre/value.npz

weights-ginrummy: $(INSTALLED_TRAIN)
	$(BIN)/cardsim train --jobs -1 --game ginrummy --learn value --labels mc:samples=32 --explore 0.15 --positions 1000000 \
	  --updates 10000 --batch 1024 --out results/value-ginrummy
	cp results/value-ginrummy/value.npz strategies/ginrummy/value.npz

# A policy imitating search (about 55 minutes on one core beside other runs: 54 of positions).
weights-gemstones-policy: $(INSTALLED_TRAIN)
	$(BIN)/cardsim train --jobs -1 --game gemstones --teacher search --positions 400000 --out results/policy-gemstones
	cp results/policy-gemstones/policy.npz strategies/gemstones/policy.npz

$(INSTALLED_NOTEBOOKS): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[notebooks]'
	touch $(INSTALLED) $(INSTALLED_NOTEBOOKS)

# JupyterLab (the `notebooks` extra) on notebooks/, reading the newest runs under results/; Ctrl-C stops it.
notebooks: $(INSTALLED_NOTEBOOKS)
	$(BIN)/jupyter lab notebooks/

clean:
	rm -rf $(VENV) build *.egg-info
