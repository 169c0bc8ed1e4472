#!/usr/bin/env bash
# Installs Debian's SpamAssassin for the spam test (tests/test_spam.py scores every kind of mail pbem
# writes with the rules the package ships, no network tests; it starts its own spamd on localhost, so
# the system service is not used). sa-update is not needed: the package ships its rules.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# spamd and spamc are packages of their own since SpamAssassin 4 (Debian 12); before, spamassassin had spamd
$SUDO apt-get install -y -qq --no-install-recommends spamassassin spamd spamc >/dev/null 2>&1 \
    || $SUDO apt-get install -y -qq --no-install-recommends spamassassin spamc >/dev/null
# the package may start a system spamd; the test does not need it
$SUDO systemctl stop spamd >/dev/null 2>&1 || $SUDO service spamd stop >/dev/null 2>&1 || true
# the rules must load: a configuration that does not lint scores nothing
spamassassin --lint
command -v spamassassin
