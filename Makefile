# Everything installs itself: `make demo` and `make test` work on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: install test demo demo-florenz bench contract clean mail-servers

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: install mail-servers
	$(PY) -m pytest -q -n 2

# The mail tests run a real IMAP server (Debian's dovecot) on localhost; install it where it is missing.
mail-servers:
	@command -v dovecot >/dev/null 2>&1 || test -x /usr/sbin/dovecot || bash tests/install-dovecot.sh \
		|| echo "warning: dovecot could not be installed; the IMAP tests will be skipped"

demo: install
	$(PY) -m pbem.demo --dir demo-games

demo-florenz: install
	$(PY) -m pbem.demo --dir demo-games --ruleset florenz --players 3

bench: install
	$(PY) -m pbem.bench

contract: install
	../shared/tools/contract-check

clean:
	rm -rf $(VENV) demo-games bench-games build *.egg-info
