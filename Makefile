# Everything installs itself: `make demo` and `make test` work on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# what pbem runs with (and pip, setuptools), each version with its files' hashes: what a host installs
LOCK   := requirements.lock
# what pbem's tests and its docs site add to it, hashed the same way (`make lock` renews both)
DEVLOCK := requirements-dev.lock

.PHONY: install lock docs docs-serve test test-quick demo demo-florenz bench contract clean mail-servers browser fonts spamassassin catalogs

install: $(STAMP) fonts

# The developer's venv: made anew whenever a lock (or pyproject.toml) changes, so it holds the locked
# packages of both locks and nothing else; pbem itself is installed editable from the checkout, built
# with the locked setuptools. (A host installs requirements.lock alone: docs/gm-guide.md.)
$(STAMP): $(LOCK) $(DEVLOCK) pyproject.toml setup.py
	$(PYTHON) -m venv --clear $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK) -r $(DEVLOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation --no-index -e .
	$(PY) -m pip check
	touch $(STAMP)

# Renew both locks: the newest versions pyproject.toml and requirements-build.in allow, for Python
# 3.11, resolved by pip-tools (pinned here) against PyPI alone, with the hash of every file of each
# version. requirements.lock: pbem's dependencies, pip and setuptools. requirements-dev.lock: what the
# extras test and docs add, resolved within requirements.lock's versions and holding only the packages
# that lock does not. Then `make test`, and commit both.
PIP_TOOLS := pip-tools==7.6.2
LOCK_VENV := .venv-lock
LOCK_ENV  := env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL PIP_CONFIG_FILE=/dev/null
COMPILE    = $(LOCK_ENV) $(LOCK_VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
		--no-emit-index-url --no-emit-find-links --index-url https://pypi.org/simple
lock:
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install --quiet '$(PIP_TOOLS)'
	$(COMPILE) --upgrade --output-file $(LOCK) pyproject.toml requirements-build.in
	$(COMPILE) --upgrade --extra test --extra docs --constraint $(LOCK) --output-file $(LOCK_VENV)/dev-full.lock pyproject.toml
	{ echo "# What pbem's tests and docs site add to requirements.lock, written by make lock: install both,"; \
	  echo "# pip install --require-hashes -r requirements.lock -r requirements-dev.lock"; \
	  awk 'NR == FNR { if (match($$0, /^[a-z0-9][^ =]*==/)) runs[substr($$0, 1, RLENGTH)] = 1; next } \
	     /^[a-z0-9]/ { match($$0, /^[a-z0-9][^ =]*==/); keep = !(substr($$0, 1, RLENGTH) in runs) } \
	     /^#/ && !started { print; next } { started = 1 } keep' $(LOCK) $(LOCK_VENV)/dev-full.lock; } > $(DEVLOCK)

# The docs site (docs/, mkdocs.yml) into site/, with every warning an error; the command reference is
# made from pbem's click commands, the settings from schemas/config.schema.json, as the site is built.
docs: install
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

docs-serve: install
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve

# Python writes each module's bytecode once (as a host's pip install does) even where the environment
# says not to (PYTHONDONTWRITEBYTECODE): else every `pbem` a test or benchmark starts compiles pbem anew.
KEEP_BYTECODE := env -u PYTHONDONTWRITEBYTECODE

# The whole suite in 3 processes, each taking tests from the others' queues when its own runs out (the
# files of the longest tests go first: tests/conftest.py's LONGEST_FIRST). Three, not one a core: the
# tests wait on git, the mail servers, spamd and the processes they start, and a third process fills
# that time (on 2 cores, when it was measured: 9 min 12 s with 2, 7 min 47 s with 3, the same with 4).
test: install mail-servers browser spamassassin
	$(KEEP_BYTECODE) $(PY) -m pytest -q -n 3 --dist worksteal

# The quick subset for the edit-and-run loop, under a minute: the rules of every game, turn files and
# schemas, reading a mail (its own text, its orders), the CLI's commands and refusals, the games dir and
# its damaged files, the words and catalogs, what each command imports. It leaves to `make test` every
# whole game (by CLI and by mail), the mail servers, pictures and the phone's HTML, the archive and the
# browser, spamassassin, the docs' examples and the install. The list is the one place it is kept.
QUICK := rng registry rooms medici_rules medici_examples medici_standing medici_strozzi_rules medina_rules \
	medina_turnfile florenz_board florenz_scandal florenz_legal florenz_readings \
	florenz_order_block turnfile mail own_text cli gamesdir corrupt_files hardening_cli verify_log \
	i18n i18n_plurals i18n_refusals i18n_refusal_ids i18n_words_once command_imports order_block docs_reference \
	whist_rules games_answer reply_subjects
test-quick: install
	$(KEEP_BYTECODE) $(PY) -m pytest -q -n 2 --dist worksteal $(patsubst %,tests/test_%.py,$(QUICK))

# The mail tests run a real IMAP server (Debian's dovecot) on localhost; install it where it is missing.
mail-servers:
	@command -v dovecot >/dev/null 2>&1 || test -x /usr/sbin/dovecot || bash tests/install-dovecot.sh \
		|| echo "warning: dovecot could not be installed; the IMAP tests will be skipped"

# The spam test scores every kind of mail pbem writes with Debian's SpamAssassin (its own rules, no
# network tests, a spamd of the test's own on localhost); install it where it is missing.
spamassassin:
	@{ command -v spamassassin >/dev/null 2>&1 && { command -v spamd >/dev/null 2>&1 || test -x /usr/sbin/spamd; }; } \
		|| bash tests/install-spamassassin.sh \
		|| echo "warning: spamassassin could not be installed; the spam test will be skipped"

# The board pictures in report mails write their words in DejaVu Sans (Debian's fonts-dejavu-core);
# install it where it is missing.
fonts:
	@test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
		|| { SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; export DEBIAN_FRONTEND=noninteractive; \
		     $$SUDO apt-get update -qq >/dev/null && $$SUDO apt-get install -y -qq --no-install-recommends fonts-dejavu-core >/dev/null; } \
		|| echo "warning: fonts-dejavu-core could not be installed; the board pictures will have no text"

# The archive tests open the web site in a real browser (Debian's chromium, headless); install it where
# it is missing. Where it cannot be installed the browser tests are skipped.
browser:
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium \
		|| { SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; export DEBIAN_FRONTEND=noninteractive; \
		     $$SUDO apt-get update -qq >/dev/null && $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null; } \
		|| echo "warning: chromium could not be installed; the browser tests will be skipped"

# The players' words (pbem/i18n.py): every domain's messages extracted into its .pot, and its de and nl
# catalogs updated from it (made where missing); `make catalogs GAME=medina` does that game's domain
# alone. The domain pbem is the pipeline's Python, templates/common and templates/archive; each game's
# domain is templates/GAME and its rules' Python (the games are pbem.rules.base.KNOWN). A catalog whose
# entries stay the same is not rewritten; the entries carry no `#:` places (they would move with every
# edit of the code).
LOCALE ?= pbem/locale
GAME   ?=
catalogs: install
	$(PY) -m pbem.catalogs catalogs --locale $(LOCALE) $(if $(GAME),--game $(GAME))

demo: install
	$(PY) -m pbem.demo --dir demo-games

demo-florenz: install
	$(PY) -m pbem.demo --dir demo-games --ruleset florenz --players 3

bench: install
	$(KEEP_BYTECODE) $(PY) -m benchmarks.bench

contract: install
	../shared/tools/contract-check

clean:
	rm -rf $(VENV) $(LOCK_VENV) demo-games bench-games build site *.egg-info
