# Each target bootstraps .venv on first use, so a fresh clone needs nothing but Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
INSTALLED_TEST := $(VENV)/.installed-test

.PHONY: run test bench clean

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

test: $(INSTALLED_TEST)
	$(BIN)/python -m pytest

bench: $(INSTALLED)
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) build *.egg-info
