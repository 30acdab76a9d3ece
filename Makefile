# Each target bootstraps .venv on first use, so a fresh clone needs nothing but Python 3.11+.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
INSTALLED_TEST := $(VENV)/.installed-test
INSTALLED_NOTEBOOKS := $(VENV)/.installed-notebooks

.PHONY: run test bench notebooks clean

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

# The tests, then lint, format and types of the package code (configured in pyproject.toml).
test: $(INSTALLED_TEST)
	$(BIN)/python -m pytest
	$(BIN)/ruff check sim strategies
	$(BIN)/ruff format --check sim strategies
	$(BIN)/mypy

bench: $(INSTALLED)
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.deadwood

$(INSTALLED_NOTEBOOKS): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[notebooks]'
	touch $(INSTALLED) $(INSTALLED_NOTEBOOKS)

# JupyterLab (the `notebooks` extra) on notebooks/, reading the newest runs under results/; Ctrl-C stops it.
notebooks: $(INSTALLED_NOTEBOOKS)
	$(BIN)/jupyter lab notebooks/

clean:
	rm -rf $(VENV) build *.egg-info
