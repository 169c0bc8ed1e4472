"""The mail side against real servers on localhost (aiosmtpd for SMTP, dovecot for IMAP, both started
and stopped here, TLS with a trustme CA) and against Maildir and mbox files on disk: orders by mail,
acknowledgements and refusals, mail set aside, runs that die half way, and a whole game of Medici
played by mail that ends exactly as the same game played by turn files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import Pbem
from helpers import seed_args
from conftest_mail import (NEVER_AGAIN, unkeyed, GM, GM_NAME, PLAYERS, SEED, FilesOut, ImapDrop, MaildirDrop, MailGames, MboxDrop,
                           SmtpOut, address, order_body, order_html, order_line, parse, player_mail, player_of,
                           turn_file)
from mailservers import Dovecot, SmtpServer, certs, dovecot, free_port, imap_user, smtp, smtp_tls  # noqa: F401
from pbem import advance as batch
from pbem import bots
from pbem.mail import run as mailrun
from pbem.errors import StoreError
from pbem.mail.incoming import LOOP_HEADER
from pbem.report import BEGIN, END
from pbem.store.seen import digest
from pbem.store import CommitBatch, GamesDir

IMAP_PW = "PBEM_TEST_IMAP_PASSWORD"
SMTP_PW = "PBEM_TEST_SMTP_PASSWORD"


class Crash(BaseException):
    """The process dying (not an error pbem handles): nothing after it runs."""


# -- fixtures ----------------------------------------------------------------------------------------

@pytest.fixture
def served(pbem: Pbem, dovecot: Dovecot, imap_user: str, smtp: SmtpServer,
           monkeypatch: pytest.MonkeyPatch) -> MailGames:
    """A games dir whose GM reads an IMAP account (IMAPS) and sends through SMTP (STARTTLS, AUTH), the
    passwords from the environment."""
    monkeypatch.setenv(IMAP_PW, dovecot.passwords[imap_user])
    monkeypatch.setenv(SMTP_PW, smtp.password)
    return MailGames(pbem, ImapDrop(dovecot, imap_user, password_env=IMAP_PW), SmtpOut(smtp, SMTP_PW))


@pytest.fixture
def ondisk(pbem: Pbem) -> MailGames:
    """A games dir with the default mail setup: a Maildir inbox and .eml files out."""
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


def replies(mails: list[Any]) -> list[Any]:
    return [m for m in mails if str(m["Message-ID"]).startswith("<pbem.reply.")]


def reports(mails: list[Any]) -> list[Any]:
    return [m for m in mails if not str(m["Message-ID"]).startswith("<pbem.reply.")]


def text(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def orders_mail(g: MailGames, player: str, orders: list[str], token: str | None = None, reply_to: Any = None,
                sender: str | None = None, **kw: Any) -> bytes:
    """A player's reply to his latest report (or `reply_to`), the order lines between the markers."""
    report = reply_to if reply_to is not None else g.last_report(player)
    refs = str(report.get("References", "")).split() + [str(report["Message-ID"])]
    body = order_body(token if token is not None else g.tokens[player], orders, quoted=text(report)[:600])
    kw.setdefault("subject", f"Re: {report['Subject']}")
    return player_mail(sender or address(player), body, in_reply_to=str(report["Message-ID"]), references=refs, **kw)


def log_orders(state: dict[str, Any]) -> list[tuple[int, str, Any]]:
    return [(e["turn"], e["player"], e["order"]) for e in state["log"]]


# -- SMTP ---------------------------------------------------------------------------------------------

def test_welcome_mails_through_smtp_with_starttls_and_auth(served: MailGames, smtp: SmtpServer) -> None:
    tokens = served.new()
    got = served.outbox.received
    assert sorted(r.rcpt_tos[0] for r in got) == sorted(address(p) for p in PLAYERS)
    for r in got:
        assert r.tls and r.login == smtp.user and r.mechanism == "PLAIN"
        assert r.mail_from == GM
    assert [a[2] for a in smtp.auth_attempts] == [True]  # one connection for all three mails
    for player in PLAYERS:
        msg = served.welcome[player]
        assert msg["From"].addresses[0].display_name == GM_NAME
        assert msg["From"].addresses[0].addr_spec == GM
        assert unkeyed(msg["Message-ID"]) == f"<pbem.m1.{player}.1.t1@pbem.test>"
        assert msg["In-Reply-To"] is None
        assert msg["Subject"].startswith("[pbem] m1 ")
        assert msg["Auto-Submitted"] == "auto-generated"
        body = text(msg)
        assert f"Welcome to Medici game m1, {player}!" in body
        assert f"Your secret token is:   {tokens[player]}" in body
        assert "in short. Three days" in body  # the rules summary
        assert f"MEDICI m1 - turn 1 - report for {player}" in body  # the first report
        for other in PLAYERS:
            if other != player:
                assert tokens[other] not in body
    mover = served.mover()[0]
    assert BEGIN in text(served.welcome[mover]) and "YOUR MOVE" in text(served.welcome[mover])


def test_the_welcome_subject_tells_the_starting_player_it_is_his_move(ondisk: MailGames) -> None:
    ondisk.new()
    mover, turn = ondisk.mover()
    for player in PLAYERS:
        subject = ondisk.welcome[player]["Subject"]
        assert f"turn {turn}" in subject
        assert ("your move" in subject) == (player == mover)


def test_smtp_implicit_tls_with_auth_login(pbem: Pbem, smtp_tls: SmtpServer) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(smtp_tls))
    g.new()
    assert len(g.outbox.received) == 3
    assert all(r.tls and r.mechanism == "LOGIN" and r.login == smtp_tls.user for r in g.outbox.received)


def test_smtp_without_tls_on_localhost(pbem: Pbem, certs: Any) -> None:
    """`security: none` is allowed for a server on this machine (a local relay), without a login."""
    plain = SmtpServer(certs, "none", user=None).start()
    try:
        g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(plain))
        g.new()
        assert len(plain.messages) == 0 and len(g.outbox.received) == 3
        assert not any(r.tls or r.login for r in g.outbox.received)
    finally:
        plain.stop()


def _one_order_mail(g: MailGames) -> str:
    player, _ = g.mover()
    g.inbox.deliver(orders_mail(g, player, [order_line(g.legal_order(player))]))
    return player


def test_smtp_wrong_password_keeps_the_mail_for_the_next_run(pbem: Pbem, smtp: SmtpServer,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SMTP_PW, smtp.password)
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(smtp, SMTP_PW))
    g.new()
    player = _one_order_mail(g)
    monkeypatch.setenv(SMTP_PW, "wrong")
    r = g.advance(ok=False)
    assert r.exit_code == 8 and re.search(rf"^Error: the SMTP server 127\.0\.0\.1:{smtp.port} refused the password "
                                          r"for gm-smtp \(535", r.stderr, re.M), r.output
    assert smtp.auth_attempts[-1][2] is False
    assert g.outbox.new() == []
    waiting = sorted(p.name for p in (pbem.games / "mail" / "outgoing").glob("*.eml"))
    assert len(waiting) == 2 and all(n.startswith(("reply-", "m1.")) for n in waiting)  # the ack, the next mover's report
    assert len(g.state()["log"]) == 1  # the game went on all the same
    monkeypatch.setenv(SMTP_PW, smtp.password)
    r = g.advance()
    assert "2 mails sent through 127.0.0.1." in r.output
    sent = g.outbox.new()
    assert len(replies(sent)) == 1 and player_of(replies(sent)[0]) == player
    assert not list((pbem.games / "mail" / "outgoing").glob("*.eml"))
    assert len(list((pbem.games / "mail" / "sent").glob("*.eml"))) == 3 + 2  # the welcome mails too


def test_smtp_server_certificate_must_be_trusted(pbem: Pbem, smtp: SmtpServer) -> None:
    """Without the test CA (no ca_file) the server's certificate is refused and nothing is sent."""
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(smtp))
    g.new()
    g.outbox.overrides["ca_file"] = None
    g.write_config()
    _one_order_mail(g)
    r = g.advance(ok=False)
    assert r.exit_code == 6 and "the certificate of the SMTP server" in r.stderr
    assert smtp.messages == [] and smtp.auth_attempts == [("PLAIN", smtp.user, True)]  # only the welcome run


def test_smtp_password_env_missing(pbem: Pbem, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SMTP_PW, smtp.password)
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(smtp, SMTP_PW))
    g.new()
    monkeypatch.delenv(SMTP_PW)
    _one_order_mail(g)
    r = g.advance(ok=False)
    assert r.stderr == (f"Error: there is no password for the SMTP server 127.0.0.1:{smtp.port}: outbox.password_env "
                        f"names '{SMTP_PW}', which is not set in the environment\n")
    assert r.exit_code == 9


def test_new_while_the_smtp_server_is_down(pbem: Pbem, certs: Any) -> None:
    down = SmtpServer(certs, "starttls")
    down.port = free_port()  # nothing listens there
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(down))
    g.write_config()
    r = pbem("new", "medici", "m1", *seed_args(SEED), "--json",
             *[a for p in PLAYERS for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    assert "Warning: a welcome mail was not sent" in r.stderr
    assert len(json.loads(r.stdout)["players"]) == 3


def test_welcome_mails_wait_for_the_next_run_when_the_server_was_down(pbem: Pbem, certs: Any) -> None:
    """Whatever `pbem new` says, the welcome mails are kept and the next run sends them."""
    down = SmtpServer(certs, "starttls")
    down.port = free_port()
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(down))
    g.write_config()
    pbem("new", "medici", "m1", *seed_args(SEED), *[a for p in PLAYERS for a in ("--player", f"{p}={address(p)}")])
    assert GamesDir(pbem.games).exists("m1")
    assert len(list((pbem.games / "mail" / "outgoing").glob("m1.*.eml"))) == 3
    up = SmtpServer(certs, "starttls").start()
    try:
        g.outbox = SmtpOut(up)
        g.write_config()
        r = g.advance()
        assert "3 mails sent through 127.0.0.1." in r.output
        assert sorted(m.rcpt_tos[0] for m in up.messages) == sorted(address(p) for p in PLAYERS)
        assert all("Your secret token is:" in text(m.message) for m in up.messages)
    finally:
        up.stop()


def test_non_ascii_names_and_subjects_survive_smtp(pbem: Pbem, smtp: SmtpServer) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(smtp), subject_prefix="[Spiel ü]")
    g.extra["gm"] = {"name": "Spielleiter Jürgen Ø", "address": GM}
    g.new()
    welcome = g.welcome["anna"]
    assert welcome["Subject"].startswith("[Spiel ü] m1 ")
    assert welcome["From"].addresses[0].display_name == "Spielleiter Jürgen Ø"
    player, _ = g.mover()
    g.inbox.deliver(orders_mail(g, player, [order_line(g.legal_order(player))],
                                sender_name="Zoë Ångström-Ñúñez", subject="Re: Züge für Runde 1 – 日本"))
    g.advance()
    ack = replies(g.outbox.new())[0]
    assert ack["To"].addresses[0].display_name == "Zoë Ångström-Ñúñez"
    assert ack["To"].addresses[0].addr_spec == address(player)
    assert ack["Subject"] == "Re: Züge für Runde 1 – 日本"
    raw = next(r.raw for r in g.outbox.received if r.message["Message-ID"] == ack["Message-ID"])
    raw.decode("ascii")  # 7-bit on the wire


# -- IMAP ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("security", ["tls", "starttls"])
def test_orders_from_an_imap_inbox(pbem: Pbem, dovecot: Dovecot, imap_user: str, security: str) -> None:
    g = MailGames(pbem, ImapDrop(dovecot, imap_user, security), FilesOut(pbem.games))
    g.new()
    player = _one_order_mail(g)
    assert len(g.inbox.waiting()) == 1
    r = g.advance()
    assert re.search(rf"^m1: mail from {address(player)}: m1 turn 1: queued ", r.output, re.M), r.output
    assert len(g.state()["log"]) == 1
    assert g.inbox.waiting() == []
    assert len(g.inbox.read()) == 1 and g.inbox.set_aside() == []
    assert "pbem-read" in dovecot.folders(imap_user)


def test_imap_without_tls_on_localhost(pbem: Pbem, dovecot: Dovecot, imap_user: str) -> None:
    """`security: none` is allowed for a server on this machine (dovecot takes localhost as secure)."""
    g = MailGames(pbem, ImapDrop(dovecot, imap_user, "none", port=dovecot.port_starttls), FilesOut(pbem.games))
    g.new()
    player = _one_order_mail(g)
    r = g.advance()
    assert f"mail from {address(player)}: m1 turn 1: queued" in r.output
    assert g.inbox.waiting() == [] and len(g.inbox.read()) == 1


def test_imap_wrong_password_the_games_advance_all_the_same(pbem: Pbem, dovecot: Dovecot, imap_user: str,
                                                            tmp_path: Path) -> None:
    g = MailGames(pbem, ImapDrop(dovecot, imap_user, password="wrong"), FilesOut(pbem.games))
    tokens = g.new()
    _one_order_mail(g)
    player, turn = g.mover()
    tf = tmp_path / "t.yaml"
    tf.write_text(turn_file("m1", player, tokens[player], turn, [g.legal_order(player)]))
    assert pbem("submit", str(tf)).exit_code == 0
    r = g.advance(ok=False)
    assert r.exit_code == 8 and re.search(rf"^Error: the IMAP server 127\.0\.0\.1:{dovecot.port_tls} refused the "
                                          r"password .*AUTHENTICATIONFAILED", r.stderr, re.M), r.output
    assert len(g.state()["log"]) == 1  # the turn file was applied
    assert len(g.inbox.waiting()) == 1  # the mail waits for a run that can read it


def test_imap_password_env_missing(pbem: Pbem, dovecot: Dovecot, imap_user: str,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(IMAP_PW, raising=False)
    g = MailGames(pbem, ImapDrop(dovecot, imap_user, password_env=IMAP_PW), FilesOut(pbem.games))
    g.new()
    r = g.advance(ok=False)
    assert r.stderr == (f"Error: there is no password for the IMAP server 127.0.0.1:{dovecot.port_tls}: "
                        f"inbox.password_env names '{IMAP_PW}', which is not set in the environment\n")
    assert r.exit_code == 9


def test_imap_server_certificate_must_be_trusted(pbem: Pbem, dovecot: Dovecot, imap_user: str) -> None:
    g = MailGames(pbem, ImapDrop(dovecot, imap_user, ca_file=None), FilesOut(pbem.games))
    g.new()
    _one_order_mail(g)
    r = g.advance(ok=False)
    assert r.exit_code == 6 and "the certificate of the IMAP server" in r.stderr
    assert len(g.inbox.waiting()) == 1 and len(g.state()["log"]) == 0


def test_imap_set_aside_folder_of_the_gms_choice(pbem: Pbem, dovecot: Dovecot, imap_user: str) -> None:
    g = MailGames(pbem, ImapDrop(dovecot, imap_user, set_aside_folder="Junk Pbem"), FilesOut(pbem.games))
    g.new()
    g.inbox.deliver(player_mail("mailer-daemon@players.test", "Delivery failed\n", subject="Undeliverable"))
    g.advance()
    assert g.inbox.waiting() == [] and len(g.inbox.set_aside()) == 1
    assert "Junk Pbem" in dovecot.folders(imap_user)


# -- refusals (through the real servers) -----------------------------------------------------------------

NO_SEAT = ("could not be used: this address plays no game here.\n\n"
           "pbem reads your orders only from the address you were invited with\n"
           "(or joined with): a mail from another address proves nothing, even\n"
           "with your token. Write from that address, or ask the GM to change\n"
           "your seat's address to this one with 'pbem replace'.\n")


def assert_learns_nothing(reply: Any, tokens: dict[str, str]) -> None:
    body = text(reply)
    assert "pbem takes orders only from a player's registered address, with that player's token." \
        in " ".join(body.split()) or NO_SEAT in body
    for secret in ["m1", "turn", "anna", "cleo", "ben@", "Medici", *tokens.values()]:
        assert secret not in body, secret


def assert_unchanged(g: MailGames, before: dict[str, Any]) -> None:
    after = g.state()
    assert after["engine"] == before["engine"] and after["log"] == before["log"]
    assert g.queued() == []


def test_a_stranger_gets_a_reply_that_says_nothing_about_the_game(served: MailGames) -> None:
    tokens = served.new()
    before = served.state()
    player, _ = served.mover()
    raw = orders_mail(served, player, ["pass"], token="guessed-token", sender="mallory@evil.test")
    served.inbox.deliver(re.sub(rb"Subject: Re: \[pbem\] m1 welcome to Medici[^\r\n]*", b"Subject: hello", raw))
    r = served.advance()
    assert "mail from mallory@evil.test: refused (not a player's address with his token)" in r.output
    sent = served.outbox.new()
    assert len(sent) == 1 and sent[0]["To"].addresses[0].addr_spec == "mallory@evil.test"
    assert sent[0]["Subject"] == "Re: hello"
    assert_learns_nothing(sent[0], tokens)
    assert_unchanged(served, before)


@pytest.mark.parametrize("case", ["wrong-token", "wrong-sender", "other-players-token", "unknown-game"])
def test_refused_as_a_stranger(served: MailGames, case: str) -> None:
    """A wrong token from the right address, and a player's token used for another player, get the
    stranger's reply, the same words for each case; the right token from an address that holds no seat
    is told that this address plays no game here, and where to write from. None says anything of the
    game."""
    tokens = served.new()
    before = served.state()
    player, _ = served.mover()
    other = next(p for p in PLAYERS if p != player)
    sender, token = address(player), tokens[player]
    if case == "wrong-token":
        token = tokens[player][::-1]
    elif case == "wrong-sender":
        sender = "anna.private@elsewhere.test"
    elif case == "other-players-token":
        token = tokens[other]
    raw = orders_mail(served, player, [order_line(served.legal_order(player))], token=token, sender=sender,
                      subject="orders", message_id="<fixed@players.test>")
    if case == "unknown-game":
        raw = raw.replace(b"<pbem.m1.", b"<pbem.m9.")
    served.inbox.deliver(raw)
    r = served.advance()
    assert f"mail from {sender}: refused (not a player's address with his token)" in r.output
    sent = served.outbox.new()
    assert len(sent) == 1 and sent[0]["To"].addresses[0].addr_spec == sender
    assert_learns_nothing(sent[0], tokens)
    if case == "wrong-sender":  # only an address that plays no game here is told how never to hear again
        assert text(sent[0]) == 'Your mail of Sat, 21 Nov 2026 12:30:00 +0000 ("orders")\n' + NO_SEAT + NEVER_AGAIN
    else:
        assert text(sent[0]) == (
            'Your mail of Sat, 21 Nov 2026 12:30:00 +0000 ("orders")\ncould not be used.\n\n'
            "pbem takes orders only from a player's registered address, with that\n"
            "player's token. If you play in a game here, send your orders from the\n"
            "address you registered and copy the token from your welcome mail.\n")
    assert_unchanged(served, before)


@pytest.mark.parametrize("orders, message", [
    (["bid: 5"], "order 'bid: 5': "),
    (["bid: lots"], "the order block is not valid:\n    - order line 2 ('bid: lots'), bid: "),
    (["attack: rome"], "the order block is not valid:\n    - order line 2 ('attack: rome'): "),
    (["draw", "bid: 5"], "order 2 ('bid: 5'): "),
], ids=["illegal-now", "not-a-number", "unknown-order", "second-illegal"])
def test_bad_orders_get_a_reply_saying_what_was_wrong(served: MailGames, orders: list[str], message: str) -> None:
    served.new()
    before = served.state()
    player, _ = served.mover()
    served.inbox.deliver(orders_mail(served, player, orders))
    r = served.advance()
    assert f"mail from {address(player)}: refused: " in r.output
    sent = served.outbox.new()
    assert len(sent) == 1 and player_of(sent[0]) == player
    body = text(sent[0])
    assert "could not be used, and nothing in the game changed:" in " ".join(body.split())
    assert message in body, body
    assert "How to send orders: reply to your latest report" in body  # and how to fix it
    example = order_line(served.pbem.show("m1", player)["legal_orders"][0])  # his own first legal order
    assert f"{BEGIN}\ntoken: YOUR-TOKEN\n{example}\n{END}" in body
    assert_unchanged(served, before)


def test_a_stale_turn_is_refused(served: MailGames) -> None:
    served.new()
    player, _ = served.mover()
    welcome = served.welcome[player]
    served.inbox.deliver(orders_mail(served, player, [order_line(served.legal_order(player))]))
    served.advance()
    served.outbox.skip()
    before = served.state()
    assert before["engine"]["turn"] == 2
    # the same player answers his welcome mail (turn 1) once more
    served.inbox.deliver(orders_mail(served, player, ["auction"], reply_to=welcome))
    r = served.advance()
    stale = "your orders answer turn 1, but game 'm1' is at turn 2: they are stale"  # the token's turn file says 1
    assert f"refused: {stale}" in r.output
    sent = served.outbox.new()
    assert len(sent) == 1
    assert stale in " ".join(text(sent[0]).split())
    assert_unchanged(served, before)


def test_orders_out_of_turn_are_refused(served: MailGames) -> None:
    served.new()
    mover, _ = served.mover()
    other = next(p for p in PLAYERS if p != mover)
    before = served.state()
    served.inbox.deliver(orders_mail(served, other, ["pass"]))
    served.advance()
    sent = served.outbox.new()
    assert len(sent) == 1 and player_of(sent[0]) == other
    assert f"turn 1 of game 'm1' is not yours: the game waits for {mover}" in text(sent[0])
    assert_unchanged(served, before)


def test_a_mail_without_orders_is_refused(served: MailGames) -> None:
    served.new()
    before = served.state()
    player, _ = served.mover()
    report = served.last_report(player)
    served.inbox.deliver(player_mail(address(player), "When do we play again?\n\n-- \nAnna\n",
                                     subject=f"Re: {report['Subject']}", in_reply_to=str(report["Message-ID"])))
    served.advance()
    sent = served.outbox.new()
    assert len(sent) == 1
    # his reply carries his reply key, so his own line is read as an order, and refused as one
    answer = text(sent[0])
    assert ("your reply is not valid:\n    - order line 1 ('When do we play again?'): is not a Medici order;\n"
            "      send one of: draw, auction, pass, bid: N\n") in answer
    assert "What you may send now, as a reply to this mail, alone on a line:\n  - draw\n  - auction\n" in answer
    assert_unchanged(served, before)


def test_an_oversized_mail_is_set_aside_unread(served: MailGames) -> None:
    served.extra["max_mail_bytes"] = 4096
    served.new()
    before = served.state()
    player, _ = served.mover()
    raw = orders_mail(served, player, [order_line(served.legal_order(player))],
                      attachments=[("photo.png", b"\x89PNG" + bytes(range(256)) * 20)])
    assert len(raw) > 4096
    served.inbox.deliver(raw)
    r = served.advance()
    assert re.search(r"^mail \d+: set aside: \d+ bytes, over the limit of 4096$", r.output, re.M), r.output
    assert served.outbox.new() == []
    assert served.inbox.waiting() == [] and len(served.inbox.set_aside()) == 1
    assert_unchanged(served, before)


def test_mail_not_for_pbem_is_set_aside_without_a_reply(served: MailGames) -> None:
    tokens = served.new()
    before = served.state()
    player, _ = served.mover()
    good = order_line(served.legal_order(player))

    def orders(**kw: Any) -> bytes:  # each would be valid orders, but for what it is
        return orders_mail(served, player, [good], **kw)

    report = served.last_report(player)
    own = report.as_bytes()  # pbem's own report coming back (a loop)
    dsn = (b"From: MAILER-DAEMON@mx.players.test\r\nTo: gm@pbem.test\r\nMessage-ID: <dsn1@mx>\r\n"
           b"Subject: Undelivered Mail Returned to Sender\r\nReturn-Path: <>\r\n"
           b"Content-Type: multipart/report; report-type=delivery-status; boundary=XX\r\n\r\n"
           b"--XX\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n--XX\r\n"
           b"Content-Type: message/rfc822\r\n\r\n" + own + b"\r\n--XX--\r\n")
    cases = {
        "bounce": dsn,
        "auto-reply": orders(headers={"Auto-Submitted": "auto-replied"}),
        "out-of-office": orders(subject="Out of office: back on Monday"),
        "gm": orders(sender=GM),
        "loop": own,
        "loop-forwarded": orders(headers={LOOP_HEADER: GM}),
    }
    for raw in cases.values():
        served.inbox.deliver(raw)
    r = served.advance()
    # (each line names its game first where the mail names one: not compared here)
    lines = [re.sub(r"^[a-z0-9][a-z0-9_-]*: (?=mail )", "", line) for line in r.output.splitlines() if "set aside" in line]
    assert lines == [
        "mail from mailer-daemon@mx.players.test: set aside: it comes from mailer-daemon@, a bounce or a robot",
        f"mail from {address(player)}: set aside: it is automatic (Auto-Submitted: auto-replied)",
        f"mail from {address(player)}: set aside: it is an out-of-office reply",
        f"mail from {GM}: set aside: it comes from the GM's own address",
        f"mail from {GM}: set aside: it comes from the GM's own address",
        f"mail from {address(player)}: set aside: it is pbem's own mail coming back (a mail loop)",
    ], r.output
    assert served.outbox.new() == []  # no reply to any of them
    assert served.inbox.waiting() == [] and len(served.inbox.set_aside()) == len(cases)
    assert served.inbox.read() == []
    assert_unchanged(served, before)
    assert tokens


def test_a_mail_loop_from_one_sender_is_cut(ondisk: MailGames) -> None:
    """More than 10 mails from one address in one run, none in a thread: the rest is set aside without
    a reply; of the 10 read, five are refused (a robot that plays no game here is answered once: once a
    day), and the next five are set aside as an auto-responder's (five refusals in a row that day)."""
    ondisk.new()
    for i in range(12):
        ondisk.inbox.deliver(player_mail("robot@elsewhere.test", f"ping {i}\n", subject=f"ping {i}"))
    r = ondisk.advance()
    assert r.output.count("refused (not a player's address with his token)") == 0
    assert r.output.count("refused: the mail holds no orders") == 5
    assert r.output.count("(not answered: an address that plays no game here hears from pbem once a day)") == 4
    assert r.output.count("set aside: 5 mails from robot@elsewhere.test were refused today, one after another") == 5
    assert r.output.count("set aside: more than 10 mails from robot@elsewhere.test in one run in one thread "
                          "(a loop?)") == 2
    assert len(replies(ondisk.outbox.new())) == 1
    assert len(ondisk.inbox.set_aside()) == 7 and len(ondisk.inbox.read()) == 5


# -- accepted mail in every form ----------------------------------------------------------------------------

FORMS = ["markers", "markers-html", "attachment-yaml", "attachment-txt", "body-turn-file", "markers-turn-file"]


@pytest.mark.parametrize("form", FORMS)
def test_orders_in_every_form_are_acknowledged(ondisk: MailGames, form: str) -> None:
    tokens = ondisk.new()
    player, turn = ondisk.mover()
    order = ondisk.legal_order(player)
    report = ondisk.last_report(player)
    tf = turn_file("m1", player, tokens[player], turn, [order])
    thread = {"in_reply_to": str(report["Message-ID"]), "subject": f"Re: {report['Subject']}"}
    raw = {
        "markers": lambda: orders_mail(ondisk, player, [order_line(order)]),
        "markers-html": lambda: player_mail(address(player), html=order_html(tokens[player], [order_line(order)],
                                                                           quoted=text(report)), **thread),
        "attachment-yaml": lambda: player_mail(address(player), "Attached.\n", attachments=[("turn.yaml", tf)]),
        "attachment-txt": lambda: player_mail(address(player), "Attached.\n", attachments=[("turn.txt", tf)]),
        "body-turn-file": lambda: player_mail(address(player), tf + "\n-- \nsent from my phone\n"),
        "markers-turn-file": lambda: player_mail(address(player), f"Here:\n{BEGIN}\n{tf}{END}\nbye\n", **thread),
    }[form]()
    ondisk.inbox.deliver(raw)
    r = ondisk.advance()
    assert f"mail from {address(player)}: m1 turn {turn}: queued {order_line(order)}" in r.output
    state = ondisk.state()
    assert log_orders(state) == [(turn, player, order)]
    sent = ondisk.outbox.new()
    acks = replies(sent)
    assert len(acks) == 1 and player_of(acks[0]) == player
    assert text(acks[0]) == (f"Your orders for game m1, turn {turn}, were received:\n\n  - {order_line(order)}\n\n"
                             f"They are applied in this run.\nYou get a report in this game's thread when the game needs you.\n")
    sender_mid = parse(raw)["Message-ID"]
    # in the player's thread: its root (the welcome mail, also his latest report here), then his mail
    assert acks[0]["In-Reply-To"] == sender_mid
    assert [unkeyed(r) for r in str(acks[0]["References"]).split()] == [f"<pbem.m1.{player}.1.t1@pbem.test>",
                                                                         sender_mid]
    # the player to move now hears of it; the others' news waits for a mail that matters to them
    assert {player_of(m) for m in reports(sent)} == set(ondisk.pbem.show("m1")["waiting_for"])


def test_several_orders_in_one_mail(ondisk: MailGames) -> None:
    ondisk.new()
    player, turn = ondisk.mover()
    ondisk.inbox.deliver(orders_mail(ondisk, player, ["draw", "- auction"]))
    r = ondisk.advance()
    assert f"m1 turn {turn}: queued draw, auction" in r.output
    assert log_orders(ondisk.state()) == [(turn, player, "draw"), (turn + 1, player, "auction")]
    acks = replies(ondisk.outbox.new())
    assert len(acks) == 1 and "  - draw\n  - auction\n\nThey are applied in this run.\n" in text(acks[0])


def test_a_later_mail_replaces_an_earlier_one_for_the_same_turn(pbem: Pbem) -> None:
    g = MailGames(pbem, MboxDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    player, turn = g.mover()
    first = orders_mail(g, player, ["auction"])
    second = orders_mail(g, player, ["draw"])  # second thoughts, before the run
    g.inbox.deliver(first)
    g.inbox.deliver(second)
    g.advance()
    assert log_orders(g.state()) == [(turn, player, "draw")]
    acks = {a["In-Reply-To"]: text(a) for a in replies(g.outbox.new())}
    assert "They are applied in this run.\n" in acks[parse(first)["Message-ID"]]
    assert ("They are applied in this run and replace the orders you sent before for\nthis turn.\n"
            in acks[parse(second)["Message-ID"]])


def test_a_maildir_is_read_in_the_order_the_mail_arrived(ondisk: MailGames) -> None:
    ondisk.new()
    player, turn = ondisk.mover()
    new = ondisk.root / "mail" / "inbox" / "new"
    new.mkdir(parents=True, exist_ok=True)
    for name in ("cur", "tmp"):
        (new.parent / name).mkdir(exist_ok=True)
    # as an MDA names them, one after the other in the same second: time.M<microseconds>P<pid>Q<n>.host
    (new / "1795300000.M99999P4242Q1.mx").write_bytes(orders_mail(ondisk, player, ["auction"]))
    (new / "1795300000.M100000P4242Q2.mx").write_bytes(orders_mail(ondisk, player, ["draw"]))
    ondisk.advance()
    assert log_orders(ondisk.state()) == [(turn, player, "draw")]


def test_an_mbox_inbox(pbem: Pbem) -> None:
    g = MailGames(pbem, MboxDrop(pbem.games), FilesOut(pbem.games))
    g.new()
    player = _one_order_mail(g)
    g.inbox.deliver(player_mail("postmaster@players.test", "bounce\n"))
    assert len(g.inbox.waiting()) == 2
    r = g.advance()
    assert f"mail from {address(player)}: m1 turn 1: queued" in r.output
    assert len(g.state()["log"]) == 1
    assert g.inbox.waiting() == []
    assert len(g.inbox.read()) == 1 and len(g.inbox.set_aside()) == 1
    assert len(replies(g.outbox.new())) == 1


def test_an_mbox_inbox_elsewhere_is_read_in_place(pbem: Pbem, tmp_path: Path) -> None:
    spool = tmp_path / "spool" / "gm"
    g = MailGames(pbem, MboxDrop(pbem.games, str(spool)), FilesOut(pbem.games))
    g.new()
    _one_order_mail(g)
    assert spool.stat().st_size > 0
    g.advance()
    assert spool.stat().st_size == 0 and len(g.state()["log"]) == 1


# -- runs that die half way --------------------------------------------------------------------------------

def _inbox(kind: str, pbem: Pbem, request: pytest.FixtureRequest) -> Any:
    if kind == "maildir":
        return MaildirDrop(pbem.games)
    if kind == "mbox":
        return MboxDrop(pbem.games)
    server: Dovecot = request.getfixturevalue("dovecot")
    return ImapDrop(server, request.getfixturevalue("imap_user"))


@pytest.mark.parametrize("kind", ["maildir", "mbox", "imap"])
def test_a_run_that_dies_after_reading_the_inbox(pbem: Pbem, kind: str, request: pytest.FixtureRequest,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    g = MailGames(pbem, _inbox(kind, pbem, request), FilesOut(pbem.games))
    g.new()
    player, turn = g.mover()
    order = g.legal_order(player)
    g.inbox.deliver(orders_mail(g, player, [order_line(order)]))
    head = g.git("rev-parse", "HEAD")

    def dies(*args: Any, **kwargs: Any) -> Any:
        raise Crash("killed")
    with monkeypatch.context() as m, pytest.raises(Crash):
        m.setattr(batch, "advance_all", dies)
        g.advance(ok=False)
    assert len(g.inbox.waiting()) == 1  # the mail is still there
    assert g.git("rev-parse", "HEAD") == head  # nothing committed
    assert g.state()["log"] == []
    assert g.outbox.new() == []  # nothing sent

    r = g.advance()
    state = g.state()
    assert log_orders(state) == [(turn, player, order)]  # applied once
    assert g.inbox.waiting() == []
    assert len(replies(g.outbox.new())) == 1  # one acknowledgement
    r = g.advance()  # and nothing more happens
    assert g.state() == state and g.outbox.new() == []


def test_after_a_run_that_died_everything_is_committed(ondisk: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    ondisk.new()
    player, _ = ondisk.mover()
    ondisk.inbox.deliver(orders_mail(ondisk, player, [order_line(ondisk.legal_order(player))]))

    def dies(*args: Any, **kwargs: Any) -> Any:
        raise Crash("killed")
    with monkeypatch.context() as m, pytest.raises(Crash):
        m.setattr(batch, "advance_all", dies)
        ondisk.advance(ok=False)
    ondisk.advance()
    assert ondisk.inbox.waiting() == []
    assert ondisk.git("status", "--porcelain", "--untracked-files=all", "--", "m1") == ""


def _crash_in_the_commit(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int, Any]:
    g.new()
    player, turn = g.mover()
    order = g.legal_order(player)
    g.inbox.deliver(orders_mail(g, player, [order_line(order)]))
    real = GamesDir.commit

    def dies(self: Any, *args: Any) -> bool:
        raise Crash("killed in git commit")
    with monkeypatch.context() as m, pytest.raises(Crash):
        m.setattr(GamesDir, "commit", dies)
        m.setattr(CommitBatch, "commit", dies)  # the run's commits of games git had clean
        g.advance(ok=False)
    assert GamesDir.commit is real
    assert len(g.inbox.waiting()) == 1  # not committed: the mail stays
    assert g.outbox.new() == []
    return player, turn, order


def test_a_run_that_dies_in_the_commit(ondisk: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    player, turn, order = _crash_in_the_commit(ondisk, monkeypatch)
    ondisk.advance()
    assert log_orders(ondisk.state()) == [(turn, player, order)]  # applied once
    assert ondisk.inbox.waiting() == []
    assert len(replies(ondisk.outbox.new())) == 1
    ondisk.advance()
    assert log_orders(ondisk.state()) == [(turn, player, order)]


def test_after_a_run_that_died_in_the_commit_the_turn_is_committed(ondisk: MailGames,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _crash_in_the_commit(ondisk, monkeypatch)
    ondisk.advance()
    assert ondisk.inbox.waiting() == []
    assert ondisk.git("status", "--porcelain", "--", "m1") == ""
    assert "turn 1" in ondisk.git("log", "-1", "--format=%s", "--", "m1/public.yaml")


def test_a_failed_commit_leaves_the_mail_in_the_inbox(ondisk: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    ondisk.new()
    player, _ = ondisk.mover()
    ondisk.inbox.deliver(orders_mail(ondisk, player, [order_line(ondisk.legal_order(player))]))

    def refused(self: Any, *args: Any) -> bool:
        raise StoreError("m1: git commit failed: fatal: Unable to create '.git/index.lock': File exists.")
    with monkeypatch.context() as m:
        m.setattr(GamesDir, "commit", refused)
        m.setattr(CommitBatch, "commit", refused)
        r = ondisk.advance(ok=False)
    assert r.exit_code == 1 and "m1: SKIPPED" in r.output
    assert len(ondisk.inbox.waiting()) == 1


def test_a_run_that_dies_between_two_mails(ondisk: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    ondisk.new()
    player, turn = ondisk.mover()
    order = ondisk.legal_order(player)
    ondisk.inbox.deliver(orders_mail(ondisk, player, [order_line(order)], message_id="<a1@players.test>"))
    stranger = player_mail("x@elsewhere.test", "hello\n", message_id="<a2@players.test>")
    ondisk.inbox.deliver(stranger)
    real = mailrun.handle
    calls: list[str] = []

    def handle(gd: GamesDir, postman: Any, mail: Any, *sender: Any) -> str:
        calls.append(mail.message_id)
        if len(calls) == 2:
            raise Crash("killed while reading mail")
        return real(gd, postman, mail, *sender)
    with monkeypatch.context() as m, pytest.raises(Crash):
        m.setattr(mailrun, "handle", handle)
        ondisk.advance(ok=False)
    assert len(ondisk.inbox.waiting()) == 2
    ondisk.advance()
    assert log_orders(ondisk.state()) == [(turn, player, order)]
    assert ondisk.inbox.waiting() == []
    sent = replies(ondisk.outbox.new())
    assert sorted(m["To"].addresses[0].addr_spec for m in sent) == sorted([address(player), "x@elsewhere.test"])


def test_a_run_that_dies_after_the_commit(ondisk: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    ondisk.new()
    player, turn = ondisk.mover()
    order = ondisk.legal_order(player)
    ondisk.inbox.deliver(orders_mail(ondisk, player, [order_line(order)]))

    def dies(intake: Any, *keep: Any) -> None:
        raise Crash("killed before the inbox was tidied")
    with monkeypatch.context() as m, pytest.raises(Crash):
        m.setattr(mailrun, "finish_intake", dies)
        ondisk.advance(ok=False)
    assert ondisk.git("status", "--porcelain", "--", "m1") == ""  # all committed
    assert len(ondisk.inbox.waiting()) == 1
    r = ondisk.advance()
    assert "read before; taken out of the inbox" in r.output
    assert log_orders(ondisk.state()) == [(turn, player, order)]
    assert ondisk.inbox.waiting() == [] and len(ondisk.inbox.read()) == 1
    assert len(replies(ondisk.outbox.new())) == 1


def test_a_second_delivery_changes_nothing(served: MailGames) -> None:
    served.new()
    player, turn = served.mover()
    raw = orders_mail(served, player, [order_line(served.legal_order(player))])
    served.inbox.deliver(raw)
    served.advance()
    served.outbox.skip()
    state, head = served.state(), served.git("rev-parse", "HEAD")
    seen = (served.root / "mail" / "seen.log").read_text()
    assert digest(str(parse(raw)["Message-ID"])) in seen.split()
    served.inbox.deliver(raw)  # the same mail again
    r = served.advance()
    assert f"mail {parse(raw)['Message-ID']}: read before; taken out of the inbox" in r.output
    assert served.state() == state and served.git("rev-parse", "HEAD") == head
    assert (served.root / "mail" / "seen.log").read_text() == seen
    assert served.outbox.new() == []
    assert served.inbox.waiting() == [] and served.inbox.set_aside() == []


# -- mail that must not stop the run ---------------------------------------------------------------------

POISON = {
    "unknown-charset": b"From: anna@players.test\r\nTo: gm@pbem.test\r\nSubject: orders\r\n"
                       b"Message-ID: <charset@players.test>\r\nContent-Type: text/plain; charset=x-klingon\r\n\r\n"
                       b"pass\r\n",
    "broken-message-id": b"From: anna@players.test\r\nTo: gm@pbem.test\r\nSubject: orders\r\nMessage-ID: <\r\n\r\n"
                         b"pass\r\n",
    "crlf-in-subject": b"From: eve@elsewhere.test\r\nTo: gm@pbem.test\r\nMessage-ID: <crlf1@elsewhere.test>\r\n"
                       b"Subject: =?utf-8?q?hi=0D=0ABcc:_victim@elsewhere.test?=\r\n\r\nhello\r\n",
    "crlf-in-name": b"From: =?utf-8?q?Eve=0D=0ABcc:_victim@elsewhere.test?= <eve@elsewhere.test>\r\n"
                    b"To: gm@pbem.test\r\nMessage-ID: <crlf2@elsewhere.test>\r\nSubject: hi\r\n\r\nhello\r\n",
}


@pytest.mark.parametrize("case", list(POISON))
def test_a_malformed_mail_does_not_stop_the_run(ondisk: MailGames, case: str) -> None:
    ondisk.new()
    player, turn = ondisk.mover()
    order = ondisk.legal_order(player)
    ondisk.inbox.deliver(POISON[case])
    ondisk.inbox.deliver(orders_mail(ondisk, player, [order_line(order)]))
    r = ondisk.advance(ok=False)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert log_orders(ondisk.state()) == [(turn, player, order)]
    assert ondisk.inbox.waiting() == []
    for msg in ondisk.outbox.all():  # whatever pbem answered, it went to the sender alone
        assert msg["Bcc"] is None
        assert "victim@elsewhere.test" not in [a.addr_spec for a in msg["To"].addresses]


def test_a_second_delivery_of_a_mail_whose_message_id_has_a_comment(ondisk: MailGames) -> None:
    ondisk.new()
    player, _ = ondisk.mover()
    raw = orders_mail(ondisk, player, [order_line(ondisk.legal_order(player))],
                      message_id="<with.comment@players.test> (sent from my phone)")
    ondisk.inbox.deliver(raw)
    ondisk.advance()
    ondisk.outbox.skip()
    state = ondisk.state()
    ondisk.inbox.deliver(raw)
    r = ondisk.advance()
    assert "read before" in r.output
    assert ondisk.outbox.new() == [] and ondisk.state() == state


# -- a whole game by mail -------------------------------------------------------------------------------------

def test_a_whole_game_by_mail_ends_as_the_same_game_by_turn_files(pbem: Pbem, dovecot: Dovecot, imap_user: str,
                                                                  smtp: SmtpServer, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Three bots play Medici by mail: each reads the reports the SMTP server received for him, decides
    from `pbem show --as` (his view), and answers the report with his order between the markers and his
    token; the mail goes into the GM's IMAP inbox. Then the same orders as turn files, in a games dir of
    their own: the same game, to the last card and coin."""
    monkeypatch.setenv(IMAP_PW, dovecot.passwords[imap_user])
    g = MailGames(pbem, ImapDrop(dovecot, imap_user, "starttls", password_env=IMAP_PW), SmtpOut(smtp))
    tokens = g.new()
    inbox: dict[str, list[Any]] = {p: [g.welcome[p]] for p in PLAYERS}  # what each player received
    played: list[tuple[str, int, Any]] = []
    acks = 0
    for move in range(400):
        latest = {p: [m for m in inbox[p] if not str(m["Message-ID"]).startswith("<pbem.reply.")][-1]
                  for p in PLAYERS}
        if all(m["Subject"] == "[pbem] m1 the game is over" for m in latest.values()):
            break
        # only the player to move hears of it (the others' news waits for a mail that matters to them)
        player = pbem.show("m1")["waiting_for"][0]
        report = latest[player]
        seen = pbem.show("m1", player)
        if move:  # the subject names the game, the turn and whose move it is
            assert report["Subject"] == f"[pbem] m1 turn {seen['turn']}: your move"
        else:
            assert "\nYOUR MOVE\n" in text(report)
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        played.append((player, seen["turn"], order))
        refs = str(report.get("References", "")).split() + [str(report["Message-ID"])]
        quoted = text(report)
        if move % 4 == 3:
            raw = player_mail(address(player), html=order_html(tokens[player], [order_line(order)], quoted),
                              subject=f"Re: {report['Subject']}", in_reply_to=str(report["Message-ID"]),
                              references=refs)
        else:
            raw = player_mail(address(player), order_body(tokens[player], [order_line(order)], quoted,
                                                          signature=player.title()),
                              subject=f"Re: {report['Subject']}", in_reply_to=str(report["Message-ID"]),
                              references=refs)
        g.inbox.deliver(raw)
        r = g.advance()
        assert f"mail from {address(player)}: m1 turn {seen['turn']}: queued {order_line(order)}" in r.output, r.output
        for msg in g.outbox.new():
            assert msg.get_content_type() in ("text/plain", "multipart/alternative", "multipart/mixed")
            inbox[player_of(msg)].append(msg)
            if str(msg["Message-ID"]).startswith("<pbem.reply."):
                acks += 1
                assert msg["In-Reply-To"] == parse(raw)["Message-ID"]
                assert f"were received:\n\n  - {order_line(order)}\n" in text(msg)
    else:
        pytest.fail("the game did not end")
    assert acks == len(played)
    assert g.inbox.waiting() == [] and len(g.inbox.read()) == len(played) and g.inbox.set_aside() == []

    # one thread per game and player: every report answers the previous one and names the first
    for player in PLAYERS:
        thread = [m for m in inbox[player] if not str(m["Message-ID"]).startswith("<pbem.reply.")]
        root = f"<pbem.m1.{player}.1.t1@pbem.test>"
        assert unkeyed(thread[0]["Message-ID"]) == root
        for n, (prev, msg) in enumerate(zip(thread, thread[1:]), start=2):
            assert re.fullmatch(rf"<pbem\.m1\.{player}\.{n}\.t\d+@pbem\.test>", unkeyed(msg["Message-ID"]))
            assert msg["In-Reply-To"] == prev["Message-ID"]
            assert [unkeyed(r) for r in str(msg["References"]).split()] == \
                list(dict.fromkeys([root, unkeyed(prev["Message-ID"])]))
        final = text(thread[-1])
        assert "FINAL STANDINGS" in final and f"The seed was: {SEED}" in final

    # the same game by turn files
    files = Pbem(tmp_path / "by-turn-files")
    r = files("new", "medici", "m1", *seed_args(SEED), "--json",
              *[a for p in PLAYERS for a in ("--player", f"{p}={address(p)}")])
    assert r.exit_code == 0, r.output
    files_tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    # a player's orders that follow each other go in one turn file, applied one after another
    batches: list[tuple[str, int, list[Any]]] = []
    for player, turn, order in played:
        if batches and batches[-1][0] == player and batches[-1][1] + len(batches[-1][2]) == turn:
            batches[-1][2].append(order)
        else:
            batches.append((player, turn, [order]))
    assert len(batches) < len(played)
    for player, turn, orders in batches:
        tf = tmp_path / "turn.yaml"
        tf.write_text(turn_file("m1", player, files_tokens[player], turn, orders))
        r = files("submit", str(tf))
        assert r.exit_code == 0, r.output
        r = files("advance")
        assert r.exit_code == 0, r.output
    by_mail = GamesDir(pbem.games).load("m1")
    by_files = GamesDir(files.games).load("m1")
    assert by_mail["status"] == by_files["status"] == "finished"
    for key in ("engine", "events", "log", "rng_counter", "seed", "options", "reported"):
        assert by_mail[key] == by_files[key], key
    assert pbem.show("m1")["result"] == files.show("m1")["result"]
    assert pbem("verify", "m1").exit_code == 0
