#!/usr/bin/env bash
# Installs Debian's dovecot IMAP server for the mail tests (they start and stop their own instance on
# localhost, with their own configuration; the system service is not used).
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends dovecot-imapd >/dev/null
# the package starts a system instance on the standard ports; the tests do not need it
$SUDO systemctl stop dovecot >/dev/null 2>&1 || $SUDO service dovecot stop >/dev/null 2>&1 || true
command -v dovecot
