# Everything installs itself: `make demo` and `make test` work on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: install test demo bench contract clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: install
	$(PY) -m pytest -q -n 2

demo: install
	$(PY) -m pbem.demo --dir demo-games

bench: install
	$(PY) -m pbem.bench

contract: install
	../shared/tools/contract-check

clean:
	rm -rf $(VENV) demo-games bench-games build *.egg-info
