"""A host whose mail fails is heard of: against the real servers of tests/mailservers.py (dovecot for
IMAP, aiosmtpd with STARTTLS and AUTH for SMTP), each failure - a wrong password, a certificate no
ca_file vouches for, a closed port, a host name that is not known, a folder that does not exist - makes
the real `pbem advance` exit with its own code and one line on stderr naming the cause and the fix,
under `--quiet` too, and `pbem doctor` says the same words. A host failing for an hour mails the GM
once (while mail still goes out), again only after it worked and failed anew, and `pbem status` shows
the failure before the games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import Pbem
from conftest_mail import GM, ImapDrop, MailGames, SmtpOut, address, order_body, order_line, player_mail
from mailservers import Dovecot, SmtpServer, certs, dovecot, free_port, imap_user, smtp  # noqa: F401

WRONG = "PBEM_TEST_WRONG_PASSWORD"


@pytest.fixture
def served(pbem: Pbem, dovecot: Dovecot, imap_user: str, smtp: SmtpServer,
           monkeypatch: pytest.MonkeyPatch) -> MailGames:
    """A running game whose GM reads IMAP (IMAPS) and sends through SMTP (STARTTLS, AUTH)."""
    monkeypatch.setenv(WRONG, "not-the-password")
    g = MailGames(pbem, ImapDrop(dovecot, imap_user), SmtpOut(smtp))
    g.new()
    return g


def with_config(g: MailGames, **changes: dict[str, Any]) -> None:
    """pbem.yaml with some keys of its sections changed (None: taken out)."""
    value = g.config()
    for key, change in changes.items():
        value[key] = {k: v for k, v in {**value[key], **change}.items() if v is not None}
    (g.root / "pbem.yaml").write_text(yaml.safe_dump(value, sort_keys=False))


def an_order_by_mail(g: MailGames) -> None:
    """The player to move sends his order: a run has mail to read and an answer to send."""
    player = g.pbem.show("m1")["waiting_for"][0]
    g.inbox.deliver(player_mail(address(player), order_body(g.tokens[player], [order_line(g.legal_order(player))])))


def assert_fails(g: MailGames, line: str, code: int, check: str) -> None:
    """`pbem advance` and `pbem advance --quiet` exit `code` with `line` on stderr; the doctor's `check`
    fails in the same words."""
    r = g.pbem("advance", "--quiet")
    assert (r.exit_code, r.stdout, r.stderr) == (code, "", f"Error: {line}\n"), r.output
    r = g.pbem("advance")
    assert r.exit_code == code, r.output
    assert r.stderr == f"Error: {line}\n", r.output
    r = g.pbem("doctor")
    assert f"FAIL {check}: {line}" in r.stdout.splitlines(), r.stdout
    assert r.exit_code == 1


# -- the inbox ---------------------------------------------------------------------------------------

def test_a_wrong_imap_password(served: MailGames, dovecot: Dovecot, imap_user: str) -> None:
    with_config(served, inbox={"password_env": WRONG})
    an_order_by_mail(served)
    assert_fails(served, f"the IMAP server 127.0.0.1:{dovecot.port_tls} refused the password for {imap_user} "
                         f"([AUTHENTICATIONFAILED] Authentication failed.): check the password in ${WRONG} "
                         f"(inbox.password_env in pbem.yaml)", 8, "inbox")
    assert len(served.inbox.waiting()) == 1  # the mail waits for a run that can read it


def test_an_imap_certificate_no_ca_file_vouches_for(served: MailGames, dovecot: Dovecot) -> None:
    """A self-signed certificate (here: the test CA's, which the system does not trust) without ca_file."""
    with_config(served, inbox={"ca_file": None})
    assert_fails(served, f"the certificate of the IMAP server 127.0.0.1:{dovecot.port_tls} is not trusted "
                         f"(self-signed?): set inbox.ca_file in pbem.yaml to the file (PEM) of the certificate "
                         f"that signed it", 6, "inbox")


def test_an_imap_port_nothing_listens_on(served: MailGames) -> None:
    port = free_port()
    with_config(served, inbox={"port": port})
    assert_fails(served, f"the IMAP server 127.0.0.1:{port} refused the connection (nothing listens on port "
                         f"{port}): check inbox.host, inbox.port and inbox.security in pbem.yaml, and that the "
                         f"server runs", 3, "inbox")


def test_an_imap_host_that_is_not_known(served: MailGames) -> None:
    with_config(served, inbox={"host": "imap.pbem-test.invalid", "port": 993})
    r = served.pbem("advance", "--quiet")
    assert r.exit_code == 4 and r.stdout == "", r.output
    assert r.stderr.startswith("Error: the host name imap.pbem-test.invalid of the IMAP server cannot be looked up (")
    assert r.stderr.endswith("): check inbox.host in pbem.yaml, and the host's DNS\n")
    assert len(r.stderr.splitlines()) == 1


def test_an_imap_folder_that_does_not_exist(served: MailGames, dovecot: Dovecot, imap_user: str) -> None:
    with_config(served, inbox={"folder": "Orders"})
    assert_fails(served, f"the IMAP server 127.0.0.1:{dovecot.port_tls} has no folder 'Orders' for {imap_user} "
                         f"that pbem can open (Mailbox doesn't exist: Orders): check inbox.folder in pbem.yaml "
                         f"(most servers call the inbox INBOX)", 10, "inbox")
    assert dovecot.folders(imap_user) == ["INBOX"]  # nothing was made


def test_the_games_go_on_while_the_inbox_fails(served: MailGames, tmp_path: Path) -> None:
    """A turn file is applied and its report sent, though the inbox cannot be read."""
    from conftest_mail import turn_file

    with_config(served, inbox={"password_env": WRONG})
    player, turn = served.pbem.show("m1")["waiting_for"][0], served.pbem.show("m1")["turn"]
    path = tmp_path / "t.yaml"
    path.write_text(turn_file("m1", player, served.tokens[player], turn, [served.legal_order(player)]))
    assert served.pbem("submit", str(path)).exit_code == 0
    r = served.pbem("advance")
    assert r.exit_code == 8
    assert r.stdout.startswith(f"m1: applied {player} ")
    assert len(served.state()["log"]) == 1 and served.outbox.new()


# -- the outbox --------------------------------------------------------------------------------------

def test_a_wrong_smtp_password(served: MailGames, smtp: SmtpServer) -> None:
    with_config(served, outbox={"password_env": WRONG})
    an_order_by_mail(served)
    assert_fails(served, f"the SMTP server 127.0.0.1:{smtp.port} refused the password for gm-smtp (535 5.7.8 "
                         f"Authentication credentials invalid): check the password in ${WRONG} "
                         f"(outbox.password_env in pbem.yaml)", 8, "smtp")
    assert list((served.root / "mail" / "outgoing").glob("reply-*.eml"))  # the answer waits for the next run
    assert served.outbox.new() == []


def test_an_smtp_certificate_no_ca_file_vouches_for(served: MailGames, smtp: SmtpServer) -> None:
    with_config(served, outbox={"ca_file": None})
    an_order_by_mail(served)
    assert_fails(served, f"the certificate of the SMTP server 127.0.0.1:{smtp.port} is not trusted (self-signed?): "
                         f"set outbox.ca_file in pbem.yaml to the file (PEM) of the certificate that signed it",
                 6, "smtp")


def test_an_smtp_port_nothing_listens_on(served: MailGames) -> None:
    port = free_port()
    with_config(served, outbox={"port": port})
    an_order_by_mail(served)
    assert_fails(served, f"the SMTP server 127.0.0.1:{port} refused the connection (nothing listens on port "
                         f"{port}): check outbox.host, outbox.port and outbox.security in pbem.yaml, and that "
                         f"the server runs", 3, "smtp")


def test_both_fail_each_in_its_line_the_inbox_gives_the_code(served: MailGames, tmp_path: Path) -> None:
    from conftest_mail import turn_file

    imap, smtp_port = free_port(), free_port()
    with_config(served, inbox={"port": imap}, outbox={"port": smtp_port})
    player, turn = served.pbem.show("m1")["waiting_for"][0], served.pbem.show("m1")["turn"]
    path = tmp_path / "t.yaml"
    path.write_text(turn_file("m1", player, served.tokens[player], turn, [served.legal_order(player)]))
    assert served.pbem("submit", str(path)).exit_code == 0  # a report to send
    r = served.pbem("advance", "--quiet")
    assert r.exit_code == 3
    assert [line.split(" refused")[0] for line in r.stderr.splitlines()] == [
        f"Error: the IMAP server 127.0.0.1:{imap}", f"Error: the SMTP server 127.0.0.1:{smtp_port}"]


# -- a password written into pbem.yaml -------------------------------------------------------------

def test_a_password_in_pbem_yaml_is_warned_of_by_every_run(served: MailGames, dovecot: Dovecot,
                                                           imap_user: str) -> None:
    with_config(served, inbox={"password_env": None, "password": dovecot.passwords[imap_user]})
    r = served.pbem("advance", "--quiet")
    assert r.exit_code == 0
    assert r.stderr == ("Warning: pbem.yaml holds a password (inbox.password) and git keeps pbem.yaml, in every "
                        "clone, push and backup: move it to a password_file (such as .pbem-password, mode 0600, "
                        "which git ignores) or a password_command, then see with `git log -p pbem.yaml` whether a commit "
                        "holds it (if so, change the password)\n")


# -- an hour of failing runs -------------------------------------------------------------------------

def run_at(g: MailGames, monkeypatch: pytest.MonkeyPatch, when: str) -> Any:
    monkeypatch.setenv("PBEM_NOW", when)
    return g.pbem("advance", "--quiet")


def alerts(g: MailGames) -> list[Any]:
    return [m for m in g.outbox.new() if str(m["To"]) == GM]


def test_an_hour_of_failing_runs_mails_the_gm_once(served: MailGames, dovecot: Dovecot, imap_user: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with_config(served, inbox={"password_env": WRONG})
    line = (f"the IMAP server 127.0.0.1:{dovecot.port_tls} refused the password for {imap_user} "
            f"([AUTHENTICATIONFAILED] Authentication failed.): check the password in ${WRONG} "
            f"(inbox.password_env in pbem.yaml)")
    for when in ("2026-11-21T12:00:00Z", "2026-11-21T12:30:00Z", "2026-11-21T12:59:59Z"):
        r = run_at(served, monkeypatch, when)
        assert (r.exit_code, r.stderr) == (8, f"Error: {line}\n")
    assert alerts(served) == []
    r = run_at(served, monkeypatch, "2026-11-21T13:00:00Z")
    assert r.exit_code == 8
    assert r.stdout == "The host has failed since 2026-11-21T12:00:00Z: the GM is mailed about it (once).\n"
    [mail] = alerts(served)
    assert str(mail["Subject"]) == "[pbem] pbem: the host's mail fails since 2026-11-21T12:00:00Z"
    body = mail.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert body.startswith("pbem on this host has failed since 2026-11-21T12:00:00Z,\n4 runs in a row:\n\n- the IMAP")
    assert " ".join(body.split()).count(line) == 1
    assert all(len(text) <= 72 for text in body.splitlines())
    for when in ("2026-11-21T14:00:00Z", "2026-11-22T12:00:00Z"):
        assert run_at(served, monkeypatch, when).exit_code == 8
    assert alerts(served) == []  # one mail, not one a run

    status = served.pbem("status")
    assert status.stdout.splitlines()[:2] == [
        "THE HOST FAILS since 2026-11-21T12:00:00Z (6 runs in a row; the GM was mailed):",
        f"  {line}"]

    with_config(served)  # mended
    assert run_at(served, monkeypatch, "2026-11-22T12:05:00Z").exit_code == 0
    assert not served.pbem("status").stdout.startswith("THE HOST FAILS")
    with_config(served, inbox={"password_env": WRONG})  # and broken again: counted anew
    assert run_at(served, monkeypatch, "2026-11-22T13:00:00Z").exit_code == 8
    assert alerts(served) == []
    assert run_at(served, monkeypatch, "2026-11-22T14:00:00Z").exit_code == 8
    assert len(alerts(served)) == 1


def test_no_mail_to_the_gm_while_the_outbox_fails_too(served: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    with_config(served, inbox={"password_env": WRONG}, outbox={"password_env": WRONG})
    for when in ("2026-11-21T12:00:00Z", "2026-11-21T13:00:00Z", "2026-11-21T14:00:00Z"):
        assert run_at(served, monkeypatch, when).exit_code == 8
    outgoing = served.root / "mail" / "outgoing"
    assert not [p for p in outgoing.glob("*.eml") if p.name.startswith("host-failing")]  # nothing to arrive late
    record = json.loads((served.root / "mail" / "last-run.json").read_text())
    assert (record["failing_since"], record["failing_runs"], record["mailed"]) == ("2026-11-21T12:00:00Z", 3, False)
    assert [f["kind"] for f in record["failures"]] == ["password", "password"]
    assert "last-run.json" not in served.git("status", "--porcelain", "--ignored=no")


def test_tls_on_the_starttls_port(served: MailGames, dovecot: Dovecot) -> None:
    with_config(served, inbox={"port": dovecot.port_starttls, "security": "tls"})
    r = served.pbem("advance", "--quiet")
    assert r.exit_code == 7, r.output
    assert r.stderr == (f"Error: TLS with the IMAP server 127.0.0.1:{dovecot.port_starttls} failed (WRONG_VERSION_NUMBER): "
                        f"check inbox.security and inbox.port in pbem.yaml (tls: 993, starttls: 143)\n")


def test_the_help_of_advance_lists_every_exit_code(pbem: Pbem) -> None:
    """The command reference is made from the help: each code of the table, with its words."""
    from pbem.hostfail import EXIT_CODES

    r = pbem("advance", "--help")
    for kind in EXIT_CODES:
        assert f"{kind.code:>3}  {kind.name}: {kind.meaning}\n" in r.stdout
