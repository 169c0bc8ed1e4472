"""`pbem doctor` against the real servers of tests/mailservers.py: a good setup (every line ok, exit 0,
no mail sent), `--send` through SMTP to gm+doctor.<random>@ arriving in the IMAP inbox, and broken
setups, each with its exact FAIL line and exit 1: a wrong IMAP password, an SMTP server that is not
there, the GM's address a player's, no git repository, a reply-key secret others can read, a full
disk, a pbem.yaml that is not valid."""

from __future__ import annotations

import os
import re
import shutil
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from conftest import Pbem
from conftest_mail import GM, FilesOut, ImapDrop, MaildirDrop, MailGames, SmtpOut, address
from helpers import git
from mailservers import Dovecot, SmtpServer, certs, dovecot, free_port, imap_user, smtp  # noqa: F401

OK_GIT = "ok   git: a repository of its own, git status runs, commits as pbem tests <tests@localhost>"
OK_SECRET = "ok   secret: mail/reply-key.secret is mode 0600"
OK_PRIVATE = "ok   private: no running game's secrets in git; pbem's files are the GM's alone"
OK_PASSWORD = "ok   password: none written in pbem.yaml (inbox, outbox take theirs from elsewhere)"
SKIP_PLUS = "skip plus: players reply to gm+TURN.KEY@pbem.test; `pbem doctor --send` checks that such mail arrives"


@pytest.fixture
def served(pbem: Pbem, dovecot: Dovecot, imap_user: str, smtp: SmtpServer) -> MailGames:
    """A game whose GM reads an IMAP account and sends through SMTP (STARTTLS, AUTH)."""
    g = MailGames(pbem, ImapDrop(dovecot, imap_user), SmtpOut(smtp))
    g.new()
    return g


def doctor(g: MailGames, *args: str) -> tuple[int, list[str], str]:
    r = g.pbem("doctor", *args)
    return r.exit_code, r.stdout.splitlines(), r.stderr


def lines_without_disk(lines: list[str]) -> list[str]:
    disk = [line for line in lines if line.startswith(("ok   disk: ", "FAIL disk: "))]
    assert len(disk) == 1 and re.fullmatch(r"ok   disk: \d+(\.\d)? [GM]B free", disk[0]), lines
    return [line for line in lines if line not in disk]


def with_config(g: MailGames, **changes: Any) -> None:
    value = g.config()
    for key, change in changes.items():
        value[key] = {k: v for k, v in {**value[key], **change}.items() if v is not None} \
            if isinstance(change, dict) else change
    (g.root / "pbem.yaml").write_text(yaml.safe_dump(value, sort_keys=False))


def test_a_good_setup_is_all_ok(served: MailGames, dovecot: Dovecot, imap_user: str, smtp: SmtpServer) -> None:
    mails = len(served.outbox.all())
    code, lines, err = doctor(served)
    assert lines_without_disk(lines) == [
        "ok   config: pbem.yaml is valid",
        OK_PASSWORD,
        f"ok   inbox: IMAP 127.0.0.1:{dovecot.port_tls} opens, folder INBOX has 0 mails "
        f"(IDLE: pbem watch hears of mail at once)",
        f"ok   smtp: 127.0.0.1:{smtp.port} (starttls) accepts the login of gm-smtp; no mail sent",
        SKIP_PLUS,
        "ok   gm: gm@pbem.test is no player's address (1 game)",
        OK_GIT,
        OK_SECRET,
        OK_PRIVATE,
    ]
    assert (code, err) == (0, "")
    assert len(served.outbox.all()) == mails  # nothing was sent
    assert dovecot.folders(imap_user) == ["INBOX"]  # nothing was made


def test_the_default_setup_on_disk(pbem: Pbem) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    code, lines, _ = doctor(g)
    assert lines_without_disk(lines) == [
        "ok   config: pbem.yaml is valid",
        "ok   inbox: Maildir mail/inbox does not exist yet and can be made (nothing to read until mail is delivered)",
        "ok   outbox: .eml files into mail/outbox (the folder is writable; you send them)",
        SKIP_PLUS,
        "ok   gm: gm@pbem.test is no player's address (1 game)",
        OK_GIT,
        OK_SECRET,
        OK_PRIVATE,
    ]
    assert code == 0
    g.inbox.deliver(b"From: x@y\n\nhi\n")
    assert doctor(g)[1][1] == "ok   inbox: Maildir mail/inbox has 1 mail"


class Relay:
    """The test SMTP server's mail, delivered into the GM's IMAP account as a provider would (one that
    takes gm+anything@ for gm@)."""

    def __init__(self, smtp: SmtpServer, dovecot: Dovecot, user: str) -> None:
        self.smtp, self.dovecot, self.user = smtp, dovecot, user
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopping.wait(0.05):
            for mail in self.smtp.take():
                if any(re.fullmatch(r"gm(\+[^@]*)?@pbem\.test", r) for r in mail.rcpt_tos):
                    self.dovecot.append(self.user, mail.raw)

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)


@pytest.fixture
def relay(served: MailGames, smtp: SmtpServer, dovecot: Dovecot, imap_user: str) -> Iterator[Relay]:
    served.outbox.new()  # the welcome mails stay out of the inbox
    r = Relay(smtp, dovecot, imap_user)
    yield r
    r.stop()


def test_send_through_smtp_to_a_plus_address_arrives_in_the_imap_inbox(served: MailGames, relay: Relay,
                                                                       smtp: SmtpServer, dovecot: Dovecot,
                                                                       imap_user: str) -> None:
    code, lines, err = doctor(served, "--send", "--wait", "10")
    assert code == 0, (lines, err)
    send = next(line for line in lines if line.startswith(("ok   send: ", "FAIL send: ")))
    m = re.fullmatch(rf"ok   send: the test mail (<pbem-doctor\.([0-9a-f]{{12}})@pbem\.test>) went to "
                     rf"(gm\+doctor\.\2@pbem\.test) through 127\.0\.0\.1:{smtp.port}", send)
    assert m, send
    mid, to = m.group(1), m.group(3)
    plus = lines[lines.index(send) + 1]
    assert re.fullmatch(rf"ok   plus: the test mail to {re.escape(to)} arrived in IMAP folder INBOX after "
                        rf"\d+\.\ds", plus), plus
    [arrived] = dovecot.folder_messages(imap_user)
    assert f"Message-ID: {mid}".encode() in arrived and b"Auto-Submitted: auto-generated" in arrived
    # the next run sets it aside unanswered: it comes from the GM's own address
    r = served.advance()
    assert re.search(rf"^mail from {re.escape(GM)}: set aside: it comes from the GM's own address$", r.output, re.M)
    assert served.outbox.new() == []


def test_send_that_does_not_arrive_fails(served: MailGames, smtp: SmtpServer) -> None:
    """No relay: the SMTP server takes the mail and it never reaches the inbox."""
    code, lines, err = doctor(served, "--send", "--wait", "1")
    plus = next(line for line in lines if " plus: " in line)
    assert re.fullmatch(r"FAIL plus: the test mail to gm\+doctor\.[0-9a-f]{12}@pbem\.test did not arrive in the "
                        r"inbox within 1s \(does the provider take gm\+anything@ for gm@, and file it in the inbox, "
                        r"not a folder of its own\?\)", plus), plus
    assert (code, err) == (1, "Error: 1 check failed: plus\n")


def test_send_without_plus_addressing_goes_to_the_gm(served: MailGames, relay: Relay) -> None:
    with_config(served, reply_address="none")
    code, lines, _ = doctor(served, "--send", "--wait", "10")
    assert code == 0, lines
    assert any(re.fullmatch(r"ok   arrival: the test mail to gm@pbem\.test arrived in IMAP folder INBOX after "
                            r"\d+\.\ds", line) for line in lines), lines
    assert not any(" plus: " in line for line in lines)


def test_send_to_files_writes_the_mail(pbem: Pbem) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    before = {p.name for p in (g.root / "mail" / "outbox").iterdir()}
    code, lines, _ = doctor(g, "--send")
    [written] = [p for p in (g.root / "mail" / "outbox").iterdir() if p.name not in before]
    token = re.fullmatch(r"doctor-([0-9a-f]{12})\.eml", written.name).group(1)  # type: ignore[union-attr]
    assert f"ok   send: the test mail <pbem-doctor.{token}@pbem.test> to gm+doctor.{token}@pbem.test is written " \
           f"to mail/outbox/{written.name} (files: it goes nowhere by itself)" in lines
    assert "skip plus: the outbox is files: nothing arrives until you send them" in lines
    assert code == 0


# -- broken setups ------------------------------------------------------------------------------------

def test_a_wrong_imap_password(served: MailGames, dovecot: Dovecot, imap_user: str,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_DOCTOR_WRONG", "wrong")
    with_config(served, inbox={"password_env": "PBEM_DOCTOR_WRONG"})
    code, lines, err = doctor(served)
    assert lines[2] == (f"FAIL inbox: the IMAP server 127.0.0.1:{dovecot.port_tls} refused the password for "
                        f"{imap_user} ([AUTHENTICATIONFAILED] Authentication failed.): check the password in "
                        f"$PBEM_DOCTOR_WRONG (inbox.password_env in pbem.yaml)")
    assert [line.split(":")[0] for line in lines if line.startswith("FAIL")] == ["FAIL inbox"]
    assert (code, err) == (1, "Error: 1 check failed: inbox\n")


def test_an_imap_password_from_an_unset_variable(served: MailGames, dovecot: Dovecot,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_DOCTOR_NOT_SET", raising=False)
    with_config(served, inbox={"password": None, "password_env": "PBEM_DOCTOR_NOT_SET"})
    code, lines, _ = doctor(served)
    assert lines[2] == (f"FAIL inbox: there is no password for the IMAP server 127.0.0.1:{dovecot.port_tls}: "
                        f"inbox.password_env names 'PBEM_DOCTOR_NOT_SET', which is not set in the environment")
    assert code == 1


def test_a_password_written_into_pbem_yaml_is_refused(served: MailGames, dovecot: Dovecot, imap_user: str) -> None:
    """The password works, but git keeps pbem.yaml: the check fails and says where the password goes."""
    with_config(served, inbox={"password_env": None, "password": dovecot.passwords[imap_user]})
    code, lines, err = doctor(served)
    assert lines[1] == ("FAIL password: pbem.yaml holds a password (inbox.password) and git keeps pbem.yaml, in "
                        "every clone, push and backup: move it to a password_file (such as .pbem-password, mode "
                        "0600, which git ignores) or a password_command, then see with `git log -p pbem.yaml` whether a "
                        "commit holds it (if so, change the password)")
    assert lines[2].startswith(f"ok   inbox: IMAP 127.0.0.1:{dovecot.port_tls} opens")
    assert (code, err) == (1, "Error: 1 check failed: password\n")


def test_an_smtp_server_that_is_not_there(served: MailGames) -> None:
    port = free_port()
    with_config(served, outbox={"port": port})
    code, lines, err = doctor(served, "--send")
    assert lines[3] == (f"FAIL smtp: the SMTP server 127.0.0.1:{port} refused the connection (nothing listens on "
                        f"port {port}): check outbox.host, outbox.port and outbox.security in pbem.yaml, and "
                        f"that the server runs")
    assert lines[4] == "skip send: the smtp check failed"
    assert (code, err) == (1, "Error: 1 check failed: smtp\n")


def test_a_wrong_smtp_password(served: MailGames, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_DOCTOR_WRONG", "wrong")
    with_config(served, outbox={"password_env": "PBEM_DOCTOR_WRONG"})
    code, lines, _ = doctor(served)
    assert lines[3] == (f"FAIL smtp: the SMTP server 127.0.0.1:{smtp.port} refused the password for gm-smtp "
                        f"(535 5.7.8 Authentication credentials invalid): check the password in "
                        f"$PBEM_DOCTOR_WRONG (outbox.password_env in pbem.yaml)")
    assert code == 1


def test_the_gm_address_of_a_player(served: MailGames) -> None:
    with_config(served, gm={"address": address("ben")})
    code, lines, err = doctor(served)
    assert ("FAIL gm: ben@players.test, the GM's address in pbem.yaml, is the address of ben in m1: pbem sets "
            "mail from it aside, so those orders by mail never count") in lines
    assert (code, err) == (1, "Error: 1 check failed: gm\n")


def test_no_git_repository(served: MailGames) -> None:
    shutil.rmtree(served.root / ".git")
    code, lines, err = doctor(served)
    assert f"FAIL git: {served.root} is not a git repository (the next `pbem advance` makes it one)" in lines
    assert (code, err) == (1, "Error: 1 check failed: git\n")


def test_a_secret_others_can_read(served: MailGames) -> None:
    (served.root / "mail" / "reply-key.secret").chmod(0o644)
    code, lines, _ = doctor(served)
    assert ("FAIL secret: mail/reply-key.secret is mode 0644: whoever reads it can forge players' replies; "
            "chmod 600 mail/reply-key.secret") in lines
    assert code == 1


def test_a_running_games_state_file_in_git(pbem: Pbem) -> None:
    """A GM who added a running game's state file to git by hand is told: its seed is in the repository."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    git(g.root, "add", "-f", "m1/state.yaml")
    code, lines, err = doctor(g)
    assert ("FAIL private: m1/state.yaml is in git while m1 runs: whoever reads the repository learns its "
            "secrets; `git rm -r -q --cached m1/state.yaml && git commit` takes it out (the history keeps it)") in lines
    assert (code, err) == (1, "Error: 1 check failed: private\n")


def test_a_report_other_users_can_read(pbem: Pbem) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    report = next((g.root / "m1" / "reports").rglob("*.txt"))
    report.chmod(0o644)
    code, lines, err = doctor(g)
    assert (f"FAIL private: {report.relative_to(g.root)} is mode 0644: other users can read what it holds; "
            f"chmod -R go-rwx m1") in lines
    assert (code, err) == (1, "Error: 1 check failed: private\n")


def test_a_full_disk(served: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = os.statvfs(served.root)  # the disk as it is, but for 52 MB left
    monkeypatch.setattr(os, "statvfs", lambda path: os.statvfs_result(
        (*blocks[:3], 52 * 2**20 // blocks.f_frsize, 52 * 2**20 // blocks.f_frsize, *blocks[5:])))
    code, lines, _ = doctor(served)
    assert (f"FAIL disk: only 52 MB free on {served.root}; a run needs room for reports, mail and git "
            f"(at least 100 MB)") in lines
    assert code == 1


def test_a_pbem_yaml_that_is_not_valid(served: MailGames) -> None:
    (served.root / "pbem.yaml").write_text("inbox:\n  type: pigeon\n")
    code, lines, err = doctor(served)
    assert lines[0] == (f"FAIL config: {served.root}/pbem.yaml is not valid: line 2, inbox.type: must be one of "
                        f"'maildir', 'mbox', not 'pigeon'")
    assert lines[1:4] == ["skip inbox: pbem.yaml is not valid", "skip outbox: pbem.yaml is not valid",
                          "skip gm: pbem.yaml is not valid"]
    assert lines[4] == OK_GIT
    assert (code, err) == (1, "Error: 1 check failed: config\n")


def test_not_a_games_dir(pbem: Pbem, tmp_path: Path) -> None:
    r = pbem("doctor")
    assert r.exit_code == 1
    assert r.stderr.startswith(f"Error: {pbem.games} is not a pbem games dir")
