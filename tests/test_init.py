"""`pbem init` against the real servers of tests/mailservers.py: Dovecot for IMAP (over TLS, and with
XOAUTH2, which Dovecot 2.3 checks against the account's password as if it were the token), aiosmtpd
for SMTP (STARTTLS or TLS, AUTH), its mail delivered into the Dovecot account as a provider would (to
gm+anything@ too, or not). The whole setup by options and by answers typed in a terminal, what it
writes (pbem.yaml, the 0600 password file, its line in .gitignore, one commit) and the test mail read
back; then pbem doctor, advance and watch's login work with what it wrote. Each wrong setup gives its
line and writes nothing."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

import mailservers
from conftest import Pbem
from helpers import assert_error, assert_usage_error, git
from mailservers import HOST, Certs, Dovecot, SmtpServer, certs, free_port  # noqa: F401

GM = "gm@pbem.test"


@pytest.fixture(scope="module")
def dovecot(certs: Certs) -> Iterator[Dovecot]:
    """Dovecot with XOAUTH2 besides PLAIN and LOGIN."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    server = Dovecot(certs, folder)
    conf = mailservers.CONF
    mailservers.CONF = conf.replace("auth_mechanisms = plain login", "auth_mechanisms = plain login xoauth2")
    try:
        server.start()
    finally:
        mailservers.CONF = conf
    try:
        yield server
    finally:
        server.stop()


class RelaySmtp(SmtpServer):
    """An SMTP server that delivers what it takes for the GM into his IMAP account; `plus`: mail to
    gm+anything@ too. It takes XOAUTH2 as well, with the account's password as the token."""

    def __init__(self, certs: Certs, dovecot: Dovecot, account: str, security: str = "starttls",
                 plus: bool = True) -> None:
        super().__init__(certs, security, user=account, password=dovecot.passwords[account])
        self.dovecot, self.account, self.plus = dovecot, account, plus
        self.tokens: list[tuple[str, bool]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        said = await super().handle_DATA(server, session, envelope)
        pattern = r"gm(\+[^@]*)?@pbem\.test" if self.plus else r"gm@pbem\.test"
        if any(re.fullmatch(pattern, r) for r in envelope.rcpt_tos):
            self.dovecot.append(self.account, bytes(envelope.content))
        return said

    async def auth_XOAUTH2(self, server: Any, args: list[str]) -> Any:
        import base64

        from aiosmtpd.smtp import AuthResult

        blob = base64.b64decode(args[1]) if len(args) > 1 else await server.challenge_auth("")
        m = re.fullmatch(rb"user=([^\x01]*)\x01auth=Bearer ([^\x01]*)\x01\x01", blob)
        ok = bool(m) and m.group(1).decode() == self.user and m.group(2).decode() == self.password
        self.tokens.append((m.group(1).decode() if m else "", ok))
        if not ok:
            await server.challenge_auth(json.dumps({"status": "401"}))  # as Gmail answers a bad token
            return AuthResult(success=False, handled=False)
        return AuthResult(success=True, auth_data={"login": self.user, "mechanism": "XOAUTH2"})


@pytest.fixture
def account(dovecot: Dovecot) -> str:
    return dovecot.new_account()


@pytest.fixture
def relay(certs: Certs, dovecot: Dovecot, account: str) -> Iterator[RelaySmtp]:
    server = RelaySmtp(certs, dovecot, account).start()
    try:
        yield server
    finally:
        server.stop()


def own_server(dovecot: Dovecot, smtp: SmtpServer, account: str, certs: Certs, *extra: str) -> list[str]:
    """The options of `pbem init` for the test servers, as a GM with a server of his own gives them."""
    return ["--address", GM, "--name", "Gina Master", "--provider", "own", "--imap-host", HOST,
            "--imap-port", str(dovecot.port_tls), "--smtp-host", HOST, "--smtp-port", str(smtp.port),
            "--user", account, "--ca-file", str(certs.ca_file), "--wait", "10", *extra]


def arrived_after(line: str) -> str:
    """A line with its seconds made 0.0 (how long the mail took varies)."""
    return re.sub(r"after \d+\.\ds", "after 0.0s", line)


def tracked_clean(root: Path) -> None:
    assert git(root, "status", "--porcelain") == ""


# -- by options ---------------------------------------------------------------------------------------

def test_init_by_options_tries_both_servers_reads_the_test_mail_back_and_writes_pbem_yaml(
        pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp, account: str, certs: Certs) -> None:
    password = dovecot.passwords[account]
    dovecot.append(account, b"From: someone@example.org\r\nSubject: old\r\n\r\nalready here\r\n")
    r = pbem("init", *own_server(dovecot, relay, account, certs, "--password-file", "-"), input=password + "\n")
    assert r.exit_code == 0, r.output
    root = pbem.games.resolve()
    lines = [arrived_after(line) for line in r.stdout.splitlines()]
    to = re.search(r"Test mail to (gm\+init\.[0-9a-f]{8}@pbem\.test): sent", r.stdout).group(1)  # type: ignore[union-attr]
    assert lines == [
        f"IMAP {HOST}:{dovecot.port_tls}: connected, password accepted, 1 mail in INBOX",
        f"SMTP {HOST}:{relay.port}: connected, password accepted",
        f"Test mail to {to}: sent",
        f"Test mail to {to}: read back from INBOX after 0.0s: plus-addressing works",
        f"Wrote {root}/pbem.yaml; the password is in {root}/.pbem-password (mode 0600, git ignores it).",
        "Next: `pbem doctor` checks the whole games dir; `pbem new` or `pbem open` starts a game.",
    ]
    assert r.stderr == ""
    # what it wrote
    value = yaml.safe_load((root / "pbem.yaml").read_text())
    assert value["gm"] == {"name": "Gina Master", "address": GM}
    assert value["reply_address"] == "plus"
    assert value["inbox"] == {"type": "imap", "host": HOST, "port": dovecot.port_tls, "security": "tls",
                              "user": account, "password_file": ".pbem-password", "folder": "INBOX",
                              "ca_file": str(certs.ca_file)}
    assert value["outbox"] == {"type": "smtp", "host": HOST, "port": relay.port, "security": "starttls",
                               "user": account, "password_file": ".pbem-password", "ca_file": str(certs.ca_file)}
    assert password not in (root / "pbem.yaml").read_text()
    secret = root / ".pbem-password"
    assert secret.read_text() == password + "\n"
    assert secret.stat().st_mode & 0o777 == 0o600
    assert "/.pbem-password" in (root / ".gitignore").read_text().splitlines()
    tracked_clean(root)
    assert git(root, "log", "--format=%s") == "pbem.yaml: the GM's settings\npbem games repository\n"
    assert password not in git(root, "log", "-p", "--all")  # no commit ever held it
    # the test mail is in the inbox, from the GM to his plus address
    [old, test] = dovecot.folder_messages(account)
    message = mailservers.parse(test)
    assert (message["From"], message["To"]) == (f"Gina Master <{GM}>", to)
    assert re.fullmatch(r"<pbem-init\.[0-9a-f]{12}@pbem\.test>", message["Message-ID"])
    # what it wrote works: doctor logs in to both, a run reads the inbox (and sets the test mail aside)
    d = pbem("doctor")
    assert f"ok   inbox: IMAP {HOST}:{dovecot.port_tls} opens, folder INBOX has 2 mails " \
           f"(IDLE: pbem watch hears of mail at once)" in d.stdout.splitlines()
    assert f"ok   smtp: {HOST}:{relay.port} (starttls) accepts the login of {account}; no mail sent" in d.stdout
    a = pbem("advance")
    assert a.exit_code == 0, a.output
    assert f"mail from {GM}: set aside: it comes from the GM's own address" in a.stdout
    tracked_clean(root)


def test_init_without_plus_addressing_sends_to_the_gm_himself(pbem: Pbem, certs: Certs, dovecot: Dovecot,
                                                             account: str) -> None:
    """The mailbox takes no mail for gm+anything@: the first test mail never comes, the second (to gm@)
    does, and pbem.yaml says reply_address: none."""
    smtp = RelaySmtp(certs, dovecot, account, "tls", plus=False).start()
    try:
        r = pbem("init", *own_server(dovecot, smtp, account, certs, "--smtp-security", "tls", "--wait", "2",
                                     "--password-file", "-"), input=dovecot.passwords[account] + "\n")
    finally:
        smtp.stop()
    assert r.exit_code == 0, r.output
    lines = [arrived_after(line) for line in r.stdout.splitlines()]
    to = re.search(r"Test mail to (gm\+init\.[0-9a-f]{8}@pbem\.test): sent", r.stdout).group(1)  # type: ignore[union-attr]
    assert lines[1:6] == [
        f"SMTP {HOST}:{smtp.port}: connected, password accepted",
        f"Test mail to {to}: sent",
        f"Test mail to {to}: not in INBOX after 2s: no plus-addressing here, it seems; now to {GM} itself",
        f"Test mail to {GM}: sent",
        f"Test mail to {GM}: read back from INBOX after 0.0s",
    ]
    assert lines[6] == ("Note: mail to gm+anything@ does not reach this inbox: replies carry their key in the "
                        "Message-ID alone (reply_address: none).")
    value = yaml.safe_load((pbem.games / "pbem.yaml").read_text())
    assert value["reply_address"] == "none"
    assert value["outbox"]["security"] == "tls" and value["outbox"]["port"] == smtp.port


def test_init_with_a_password_command_writes_no_password_file(pbem: Pbem, tmp_path: Path, dovecot: Dovecot,
                                                             relay: RelaySmtp, account: str, certs: Certs) -> None:
    keyring = tmp_path / "keyring"
    keyring.write_text(dovecot.passwords[account] + "\n")
    command = f"cat {keyring}"
    r = pbem("init", *own_server(dovecot, relay, account, certs, "--password-command", command))
    assert r.exit_code == 0, r.output
    root = pbem.games.resolve()
    assert r.stdout.splitlines()[-2] == f"Wrote {root}/pbem.yaml; the password comes from the command {command}."
    value = yaml.safe_load((root / "pbem.yaml").read_text())
    assert value["inbox"]["password_command"] == command == value["outbox"]["password_command"]
    assert "password_file" not in value["inbox"]
    assert not (root / ".pbem-password").exists()
    assert "/.pbem-password" not in (root / ".gitignore").read_text()
    tracked_clean(root)


def test_init_with_a_password_file_of_the_gms_own(pbem: Pbem, tmp_path: Path, dovecot: Dovecot, relay: RelaySmtp,
                                                account: str, certs: Certs) -> None:
    """A file outside the games dir is named as it is; one every user may read is refused first."""
    secret = tmp_path / "secrets" / "mail"
    secret.parent.mkdir()
    secret.write_text(dovecot.passwords[account] + "\n")
    secret.chmod(0o644)
    args = own_server(dovecot, relay, account, certs, "--password-file", str(secret))
    assert_error(pbem("init", *args), f"--password-file: {secret} is mode 0644: every user of the machine can "
                                      f"read the password; chmod 600 {secret}")
    assert not pbem.games.exists()
    secret.chmod(0o600)
    r = pbem("init", *args)
    assert r.exit_code == 0, r.output
    root = pbem.games.resolve()
    assert r.stdout.splitlines()[-2] == f"Wrote {root}/pbem.yaml; the password is read from {secret}."
    assert yaml.safe_load((root / "pbem.yaml").read_text())["inbox"]["password_file"] == str(secret)
    assert not (root / ".pbem-password").exists()


# -- XOAUTH2 ------------------------------------------------------------------------------------------

def test_init_for_a_provider_of_oauth2_alone_logs_in_with_the_token(pbem: Pbem, tmp_path: Path, dovecot: Dovecot,
                                                                  relay: RelaySmtp, account: str,
                                                                  certs: Certs) -> None:
    """Outlook.com takes OAuth2 alone: the token comes from the command, and IMAP and SMTP log in with
    XOAUTH2; then doctor (IMAP and SMTP, the test mail through the outbox pbem sends with) and a run
    read and send with it."""
    token = tmp_path / "token"
    token.write_text(dovecot.passwords[account] + "\n")
    r = pbem("init", "--address", GM, "--provider", "outlook", "--imap-host", HOST, "--imap-port",
             str(dovecot.port_tls), "--smtp-host", HOST, "--smtp-port", str(relay.port), "--user", account,
             "--ca-file", str(certs.ca_file), "--password-command", f"cat {token}", "--wait", "10")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[:2] == [f"IMAP {HOST}:{dovecot.port_tls}: connected, token accepted, 0 mails in INBOX",
                         f"SMTP {HOST}:{relay.port}: connected, token accepted"]
    assert lines[-2] == f"Wrote {pbem.games.resolve()}/pbem.yaml; the token comes from the command cat {token}."
    value = yaml.safe_load((pbem.games / "pbem.yaml").read_text())
    assert value["inbox"]["auth"] == value["outbox"]["auth"] == "xoauth2"
    assert relay.tokens == [(account, True), (account, True)]  # the login, then the test mail's
    assert "method=XOAUTH2" in dovecot.log
    d = pbem("doctor", "--send", "--wait", "10")
    assert d.exit_code == 0, d.output
    assert f"ok   smtp: {HOST}:{relay.port} (starttls) accepts the login of {account}; no mail sent" in d.stdout
    assert relay.tokens[-2:] == [(account, True), (account, True)]
    assert pbem("advance").exit_code == 0


def test_a_refused_token_is_said_with_what_the_provider_wants(pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp,
                                                             account: str, certs: Certs) -> None:
    r = pbem("init", "--address", GM, "--provider", "outlook", "--imap-host", HOST, "--imap-port",
             str(dovecot.port_tls), "--smtp-host", HOST, "--smtp-port", str(relay.port), "--user", account,
             "--ca-file", str(certs.ca_file), "--password-command", "echo expired-token")
    assert r.exit_code == 1
    assert r.stdout == (f"IMAP {HOST}:{dovecot.port_tls}: connected, token refused for {account}: "
                        f"[AUTHENTICATIONFAILED] Authentication failed. (Microsoft takes OAuth2 alone: give a "
                        f"--password-command that prints an access token (for example from oama or "
                        f"mutt_oauth2.py).)\n")
    assert r.stderr == ("Error: nothing is written: mend what the line above says and run pbem init again "
                        "(--no-test writes pbem.yaml untried)\n")
    assert not pbem.games.exists()


def test_smtp_xoauth2_refused(pbem: Pbem, tmp_path: Path, dovecot: Dovecot, relay: RelaySmtp, account: str,
                              certs: Certs) -> None:
    """IMAP takes the token, the SMTP server does not: its 535 is said, after its JSON challenge."""
    relay.password = "another-token"
    token = tmp_path / "token"
    token.write_text(dovecot.passwords[account])
    r = pbem("init", "--address", GM, "--provider", "outlook", "--imap-host", HOST, "--imap-port",
             str(dovecot.port_tls), "--smtp-host", HOST, "--smtp-port", str(relay.port), "--user", account,
             "--ca-file", str(certs.ca_file), "--password-command", f"cat {token}")
    assert r.exit_code == 1
    assert r.stdout.splitlines()[1].startswith(f"SMTP {HOST}:{relay.port}: connected, token refused for {account}: "
                                               f"535 5.7.8 Authentication credentials invalid (Microsoft")
    assert relay.tokens == [(account, False)]


# -- what fails is said, and nothing is written ---------------------------------------------------------

def test_a_wrong_password(pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp, account: str, certs: Certs) -> None:
    r = pbem("init", *own_server(dovecot, relay, account, certs, "--password-file", "-"), input="wrong\n")
    assert r.exit_code == 1
    assert r.stdout == (f"IMAP {HOST}:{dovecot.port_tls}: connected, password refused for {account}: "
                        f"[AUTHENTICATIONFAILED] Authentication failed.\n")
    assert r.stderr.startswith("Error: nothing is written")
    assert not pbem.games.exists()


def test_a_certificate_not_trusted(pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp, account: str,
                                   certs: Certs) -> None:
    args = own_server(dovecot, relay, account, certs, "--password-file", "-")
    del args[args.index("--ca-file"):args.index("--ca-file") + 2]
    r = pbem("init", *args, input=dovecot.passwords[account] + "\n")
    assert r.exit_code == 1
    assert r.stdout == (f"IMAP {HOST}:{dovecot.port_tls}: connected, but its certificate is not trusted (unable to "
                        f"get local issuer certificate); give the certificate of the CA that signed it (a "
                        f"self-signed server: its own) with --ca-file\n")
    assert not pbem.games.exists()


def test_a_closed_port(pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp, account: str, certs: Certs) -> None:
    port = free_port()
    args = own_server(dovecot, relay, account, certs, "--password-file", "-")
    args[args.index("--imap-port") + 1] = str(port)
    r = pbem("init", *args, input="x\n")
    assert r.exit_code == 1
    assert r.stdout == (f"IMAP {HOST}:{port}: nothing answers on that port (connection refused: is the port right, "
                        f"the server running?)\n")


def test_tls_to_a_starttls_port(pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp, account: str, certs: Certs) -> None:
    args = own_server(dovecot, relay, account, certs, "--password-file", "-")
    args[args.index("--imap-port") + 1] = str(dovecot.port_starttls)
    r = pbem("init", *args, input="x\n")
    assert r.exit_code == 1
    assert re.fullmatch(rf"IMAP {HOST}:{dovecot.port_starttls}: TLS failed \([A-Z_]+\): does port "
                        rf"{dovecot.port_starttls} take security tls\? IMAP usually has tls on 993, starttls on "
                        rf"143\n", r.stdout), r.stdout


def test_starttls_imap_and_a_test_mail_that_never_comes(pbem: Pbem, certs: Certs, dovecot: Dovecot,
                                                        account: str) -> None:
    """STARTTLS on IMAP logs in; an SMTP server that delivers nowhere: both test mails are missed."""
    smtp = SmtpServer(certs, "starttls", user=account, password=dovecot.passwords[account]).start()
    try:
        args = own_server(dovecot, smtp, account, certs, "--imap-security", "starttls", "--imap-port",
                          str(dovecot.port_starttls), "--wait", "1", "--password-file", "-")
        r = pbem("init", *args, input=dovecot.passwords[account] + "\n")
    finally:
        smtp.stop()
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines[0] == f"IMAP {HOST}:{dovecot.port_starttls}: connected, password accepted, 0 mails in INBOX"
    assert lines[-1] == f"Test mail to {GM}: not in INBOX after 1s"
    assert not pbem.games.exists()


def test_no_test_writes_it_untried(pbem: Pbem) -> None:
    r = pbem("init", "--address", GM, "--provider", "fastmail", "--password-file", "-", "--no-test",
             input="app-password-1\n")
    assert r.exit_code == 0, r.output
    value = yaml.safe_load((pbem.games / "pbem.yaml").read_text())
    assert value["inbox"] == {"type": "imap", "host": "imap.fastmail.com", "port": 993, "security": "tls",
                              "user": GM, "password_file": ".pbem-password", "folder": "INBOX"}
    assert value["outbox"] == {"type": "smtp", "host": "smtp.fastmail.com", "port": 465, "security": "tls",
                               "user": GM, "password_file": ".pbem-password"}
    assert (pbem.games / ".pbem-password").read_text() == "app-password-1\n"


@pytest.mark.parametrize(("args", "message"), [
    (["--address", "nobody", "--provider", "fastmail", "--password-command", "true"],
     "'nobody' is not a mail address (name@example.org)"),
    (["--address", "gm @pbem.test"], "'gm @pbem.test' is not a mail address (name@example.org)"),
    (["--provider", "fastmail", "--password-command", "true"],
     "--provider fastmail needs --address, the GM's mail address"),
    (["--address", GM, "--provider", "fastmail"],
     "give the password with --password-file FILE ('-': read it from standard input) or --password-command COMMAND"),
    (["--address", GM, "--provider", "own", "--password-command", "true"],
     "--provider own needs --imap-host: pbem does not know your server's name"),
    (["--address", GM, "--provider", "own", "--imap-host", "mail.pbem.test", "--password-command", "true"],
     "--provider own needs --smtp-host: pbem does not know your server's name"),
    (["--address", GM, "--provider", "own", "--imap-host", "mail_server!", "--smtp-host", "x",
      "--password-command", "true"], "the IMAP host 'mail_server!' is not a host name (such as mail.example.org)"),
    (["--address", GM, "--provider", "outlook", "--password-file", "/etc/hostname"],
     "Outlook.com, Hotmail, Live (Microsoft) takes OAuth2 alone: give --password-command, a command that prints "
     "an access token"),
    (["--address", GM, "--provider", "own", "--imap-host", "mail.pbem.test", "--smtp-host", "mail.pbem.test",
      "--imap-security", "none", "--password-command", "true"],
     "IMAP security 'none' would send the password in clear text to 'mail.pbem.test'; it is allowed only for "
     "localhost"),
    (["--address", GM, "--provider", "own", "--imap-host", "h", "--smtp-host", "h", "--ca-file", "/no/such.pem",
      "--password-command", "true"], "the CA file '/no/such.pem' does not exist"),
    (["--address", GM, "--imap-host", "mail.pbem.test"],
     "--imap-host needs --provider (one of the known ones, or own for your own server)"),
    (["--address", GM, "--provider", "fastmail", "--password-file", "/no/such/file"],
     "--password-file: /no/such/file does not exist"),
    (["--address", GM, "--provider", "fastmail", "--password-file", "-"],
     "--password-file -: standard input gave no password"),
])
def test_bad_input_is_refused_and_changes_nothing(pbem: Pbem, args: list[str], message: str) -> None:
    assert_error(pbem("init", *args, input=""), message)
    assert not pbem.games.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--provider", "hotmale"], "Invalid value for '--provider': 'hotmale' is not one of 'gmail', 'outlook', "
                                "'microsoft365', 'fastmail', 'mailbox.org', 'posteo', 'gmx', 'web.de', 'icloud', "
                                "'proton', 'own', 'local'."),
    (["--imap-port", "70000"], "Invalid value for '--imap-port': 70000 is not in the range 1<=x<=65535."),
    (["--smtp-port", "0"], "Invalid value for '--smtp-port': 0 is not in the range 1<=x<=65535."),
    (["--imap-security", "ssl"], "Invalid value for '--imap-security': 'ssl' is not one of 'tls', 'starttls', "
                                 "'none'."),
    (["--password-file", "x", "--password-command", "y"], "give --password-file or --password-command, not both"),
])
def test_unreadable_options_are_usage_errors(pbem: Pbem, args: list[str], message: str) -> None:
    assert_usage_error(pbem("init", "--address", GM, *args), message)
    assert not pbem.games.exists()


def test_a_games_dir_that_has_pbem_yaml_is_refused_before_any_question(pbem: Pbem) -> None:
    assert pbem("init", "--address", GM).exit_code == 0
    before = (pbem.games / "pbem.yaml").read_bytes()
    r = pbem("init", "--interactive", input="")
    assert_error(r, f"{pbem.games.resolve()}/pbem.yaml already exists; edit it, or remove it first")
    assert (pbem.games / "pbem.yaml").read_bytes() == before


# -- asked in a terminal ------------------------------------------------------------------------------

def test_init_asks_in_a_terminal(pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp, account: str,
                                 certs: Certs) -> None:
    """Every answer typed (a wrong address first, asked again), the defaults the provider gives taken
    by an empty line."""
    answers = ["nobody", GM, "", "own", HOST, "tls", str(dovecot.port_tls), "", "starttls", str(relay.port),
               account, dovecot.passwords[account]]
    r = pbem("init", "--interactive", "--ca-file", str(certs.ca_file), "--wait", "10", input="\n".join(answers) + "\n")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "Error: 'nobody' is not a mail address (name@example.org)\n" in out
    assert "  fastmail      Fastmail\n" in out and "  local         no mail server yet" in out
    assert "Provider (gmail, outlook, microsoft365, fastmail, mailbox.org, posteo, gmx, web.de, icloud, proton, " \
           "own, local) [own]: " in out
    assert f"IMAP {HOST}:{dovecot.port_tls}: connected, password accepted, 0 mails in INBOX\n" in out
    assert dovecot.passwords[account] not in out  # typed, not shown
    value = yaml.safe_load((pbem.games / "pbem.yaml").read_text())
    assert value["gm"] == {"name": "Game Master", "address": GM}
    assert (value["inbox"]["port"], value["outbox"]["host"], value["outbox"]["port"]) == \
        (dovecot.port_tls, HOST, relay.port)
    assert (pbem.games / ".pbem-password").read_text() == dovecot.passwords[account] + "\n"
    tracked_clean(pbem.games)


def test_a_refused_password_is_asked_again(pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp, account: str,
                                           certs: Certs) -> None:
    keep = ["", "", "", "", "", "", ""]  # every server setting as it was
    answers = [GM, "Gina", "own", HOST, "tls", str(dovecot.port_tls), HOST, "starttls", str(relay.port), account,
               "wrong", "y", *keep, dovecot.passwords[account]]
    r = pbem("init", "--interactive", "--ca-file", str(certs.ca_file), "--wait", "10", input="\n".join(answers) + "\n")
    assert r.exit_code == 0, r.output
    assert f"IMAP {HOST}:{dovecot.port_tls}: connected, password refused for {account}: [AUTHENTICATIONFAILED] " \
           f"Authentication failed.\nChange the settings and try again? [Y/n]: " in r.stdout
    assert (pbem.games / ".pbem-password").read_text() == dovecot.passwords[account] + "\n"


def test_giving_up_writes_nothing(pbem: Pbem, dovecot: Dovecot, relay: RelaySmtp, account: str,
                                  certs: Certs) -> None:
    answers = [GM, "", "own", HOST, "tls", str(dovecot.port_tls), HOST, "starttls", str(relay.port), account,
               "wrong", "n"]
    r = pbem("init", "--interactive", "--ca-file", str(certs.ca_file), input="\n".join(answers) + "\n")
    assert r.exit_code == 1
    assert r.stderr == "Error: nothing is written\n"
    assert not pbem.games.exists()


def test_local_asks_no_server(pbem: Pbem) -> None:
    r = pbem("init", "--interactive", input=f"{GM}\nGina\nlocal\n")
    assert r.exit_code == 0, r.output
    assert r.stdout.endswith(f"Wrote {pbem.games.resolve()}/pbem.yaml. Edit it to say where mail comes in and how "
                             f"it goes out.\n")
    value = yaml.safe_load((pbem.games / "pbem.yaml").read_text())
    assert value["inbox"] == {"type": "maildir", "path": "mail/inbox"} and value["gm"]["name"] == "Gina"


def test_init_in_a_real_terminal(tmp_path: Path, dovecot: Dovecot, relay: RelaySmtp, account: str,
                                 certs: Certs) -> None:
    """`pbem init` started in a terminal (a pty) asks without being told to, and the password typed is
    not echoed."""
    pbem_command = shutil.which("pbem", path=str(Path(sys.executable).parent))
    assert pbem_command
    games = tmp_path / "games"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its terminal
        os.execv(pbem_command, [pbem_command, "init", "--games-dir", str(games), "--ca-file", str(certs.ca_file),
                                "--wait", "10"])
    answers = iter([GM, "", "own", HOST, "tls", str(dovecot.port_tls), HOST, "starttls", str(relay.port), account,
                    dovecot.passwords[account]])
    seen = b""
    asked = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break  # the child is gone
            if not chunk:
                break
            seen += chunk
        if seen.rstrip().endswith((b":", b"]:")) and seen.count(b": ") > asked and seen.endswith(b": "):
            asked = seen.count(b": ")
            answer = next(answers, None)
            if answer is not None:
                os.write(fd, answer.encode() + b"\n")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    text = seen.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "Your mail address" in text and f"IMAP {HOST}:{dovecot.port_tls}: connected, password accepted" in text
    assert dovecot.passwords[account] not in text
    assert (games / ".pbem-password").read_text() == dovecot.passwords[account] + "\n"


# -- the secret, where pbem.yaml says it is ----------------------------------------------------------------

def write_config(root: Path, **inbox: Any) -> None:
    root.mkdir(parents=True, exist_ok=True)
    section = {"type": "imap", "host": HOST, "port": 1, "user": "gm", **inbox}
    (root / "pbem.yaml").write_text(yaml.safe_dump({"gm": {"address": GM}, "inbox": section}))


@pytest.mark.parametrize(("inbox", "line"), [
    ({"password_command": "echo the keyring is locked >&2; exit 3"},
     "FAIL inbox: there is no password for the IMAP server 127.0.0.1:1: inbox.password_command failed (exit "
     "status 3): the keyring is locked"),
    ({"password_command": "true"}, "FAIL inbox: there is no password for the IMAP server 127.0.0.1:1: "
                                   "inbox.password_command printed nothing"),
    ({"password_file": "no-such-file"}, "FAIL inbox: there is no password for the IMAP server 127.0.0.1:1: "
                                        "inbox.password_file: {root}/no-such-file does not exist"),
])
def test_a_secret_that_cannot_be_had_is_said(pbem: Pbem, inbox: dict[str, str], line: str) -> None:
    write_config(pbem.games, **inbox)
    r = pbem("doctor")
    assert r.exit_code == 1
    assert line.format(root=pbem.games.resolve()) in r.stdout.splitlines(), r.stdout


def test_two_sources_of_the_secret_are_refused(pbem: Pbem) -> None:
    write_config(pbem.games, password_file=".pbem-password", password_command="pass show mail")
    r = pbem("advance")
    assert_error(r, f"{pbem.games.resolve()}/pbem.yaml: inbox gives password_file and password_command: give one "
                    f"of them")


def test_a_password_command_runs_once_a_run_in_the_games_dir(pbem: Pbem, dovecot: Dovecot, account: str,
                                                            certs: Certs) -> None:
    """The command runs in the games dir, once for the run's IMAP login and its doctor's look (kept a
    minute), and its first line is the password."""
    (pbem.games).mkdir()
    (pbem.games / "pw").write_text(dovecot.passwords[account] + "\nsecond line\n")
    write_config(pbem.games, port=dovecot.port_tls, user=account, ca_file=str(certs.ca_file),
                 password_command="echo run >> runs.log; cat pw")
    r = pbem("doctor")
    assert f"ok   inbox: IMAP {HOST}:{dovecot.port_tls} opens, folder INBOX has 0 mails (IDLE: pbem watch hears of " \
           f"mail at once)" in r.stdout.splitlines(), r.stdout
    assert (pbem.games / "runs.log").read_text() == "run\n"
