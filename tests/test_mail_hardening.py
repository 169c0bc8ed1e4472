"""The mail side against what outside testing found, each through real mail (a Maildir inbox, .eml files
out, `pbem advance` run as the GM runs it): no token in any message, the sender as the mail really gives
it, auto-replies in many languages, replies to any of pbem's mails, orders given twice, help texts of the
player's own game, a seat's new player addressed by his own name, and a look at the inbox that changes
nothing."""

from __future__ import annotations

import re

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import (MAIL_DATE, NEVER_AGAIN, unkeyed, GM, mail_error, FilesOut, MaildirDrop, MailGames, MboxDrop, address, order_body, order_line,
                           parse, player_mail, player_of, token_of, turn_file)
from helpers import git
from rooms import GAMES, need, room
from pbem.mail import run as mailrun
from pbem.config import Config, load_config
from pbem.mail.ids import reminder_id, reply_id, thread_id, thread_of
from pbem.mail.incoming import not_for_pbem, read_mail
from pbem.mail.seats import NEUTRAL_EXAMPLE
from pbem.mail.secrets import hide_tokens
from pbem.report import BEGIN, END

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

SEED = "hardening-seed-0001"
T0 = datetime(2026, 11, 21, 12, tzinfo=timezone.utc)  # the conftest clock
DATE = "Sat, 21 Nov 2026 12:30:00 +0000"  # the Date of every player_mail


# -- helpers ----------------------------------------------------------------------------------------------

@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    """A games dir with the default mail setup: a Maildir inbox and .eml files out."""
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


def text(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def replies(mails: list[Any]) -> list[Any]:
    return [m for m in mails if str(m["Message-ID"]).startswith("<pbem.reply.")]


def mail_lines(output: str) -> list[str]:
    """The run's lines about mail, without the game each names first (`m1: mail from ...`)."""
    lines = [re.sub(r"^[a-z0-9][a-z0-9_-]*: (?=mail )", "", line) for line in output.splitlines()]
    return [line for line in lines if line.startswith("mail ")]


def answer(g: MailGames, player: str, body: str, reply_to: Any = None, only_in_reply_to: bool = False,
           **kw: Any) -> bytes:
    """A player's mail answering his latest report (or `reply_to`), as his mail client writes it."""
    report = reply_to if reply_to is not None else g.last_report(player)
    refs = [] if only_in_reply_to else str(report.get("References", "")).split() + [str(report["Message-ID"])]
    kw.setdefault("subject", f"Re: {report['Subject']}")
    return player_mail(address(player), body, in_reply_to=str(report["Message-ID"]), references=refs, **kw)


def raw_mail(headers: list[tuple[str, str]], body: str) -> bytes:
    """A mail written header by header, as a hostile sender may write it (nothing parsed or fixed)."""
    lines = [f"{k}: {v}" for k, v in headers] + ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", ""]
    return ("\r\n".join(lines) + "\r\n" + body.replace("\n", "\r\n")).encode("utf-8")


def new_game(g: MailGames, ruleset: str, players: tuple[str, ...], game: str = "g1", *extra: str) -> dict[str, str]:
    """A game of any ruleset, its welcome mails read; returns the tokens the players read in them."""
    g.write_config()
    args = ["new", ruleset, game, "--seed", SEED, "--json", *extra]
    for p in players:
        args += ["--player", f"{p}={address(p)}"]
    r = g.pbem(*args)
    assert r.exit_code == 0, r.output
    for msg in g.outbox.new():
        g.welcome[player_of(msg)] = msg
        g.tokens[player_of(msg)] = token_of(msg)
    assert g.tokens == {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}
    return g.tokens


def at(monkeypatch: pytest.MonkeyPatch, hours: float) -> None:
    monkeypatch.setenv("PBEM_NOW", (T0 + timedelta(hours=hours)).isoformat())


def pieces(secret: str, size: int = 6) -> list[str]:
    return [secret[i:i + size] for i in range(len(secret) - size + 1)]


def assert_nowhere(secret: str, *haystacks: str) -> None:
    for piece in pieces(secret):
        for hay in haystacks:
            assert piece not in hay, (piece, hay[max(0, hay.find(piece) - 200):hay.find(piece) + 200])


def sent_text(g: MailGames, skip_welcome: bool = True) -> str:
    """Every mail pbem wrote (waiting, sent or delivered), headers and body, the welcome mails left out."""
    out = []
    for folder in ("mail/outbox", "mail/outgoing", "mail/sent"):
        for path in sorted((g.root / folder).glob("*.eml")) if (g.root / folder).is_dir() else []:
            msg = parse(path.read_bytes())
            if skip_welcome and "Your secret token is:" in text(msg):
                continue
            out.append(str(msg) + text(msg))
    return "\n".join(out)


STRANGER = ("could not be used.\n\n"
            "pbem takes orders only from a player's registered address, with that\n"
            "player's token. If you play in a game here, send your orders from the\n"
            "address you registered and copy the token from your welcome mail.\n" + NEVER_AGAIN)


# -- 1. no token in any message ----------------------------------------------------------------------------

def test_a_token_reaches_no_message_git_console_or_reply(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """Broken token lines in every form of mail: each is refused, saying which line is wrong, and no
    piece of the token is in the console, the git history (commit messages and files) or any mail.
    (More refusals in a row than a player makes in a day: the guard against auto-responders is raised.)"""
    monkeypatch.setattr(mailrun, "REFUSALS_A_DAY", 100)
    tokens = g.new()
    player, turn = g.mover()
    token = tokens[player]
    other = next(p for p in tokens if p != player)
    good = order_line(g.legal_order(player))
    numeric = "98765432101234"  # a token as a number: the schema would quote it
    html_body = (f"<html><body><div>{BEGIN}</div><div>token: &quot;{token}</div><div>{good}</div>"
                 f"<div>{END}</div></body></html>")
    cases = [
        # (the mail, the line the run prints for it)
        (answer(g, player, f"{BEGIN}\ntoken: \"{token}\n{good}\n{END}\n"),
         "refused: order line 1 (the token line): not valid YAML (found unexpected end of stream)"),
        (answer(g, player, f"{BEGIN}\n{good}\ntoken: '{token}\n{END}\n", subject=f"orders {token}"),
         "refused: order line 2 (the token line): not valid YAML (found unexpected end of stream)"),
        (answer(g, player, f"{BEGIN}\nToken = {token}\n{good}\n{END}\n"),
         "refused: order line 1 (the token line): write it as 'token: ' and then your token, as your "
         "welcome mail gives it"),
        (answer(g, player, f"{BEGIN}\ntoken:{token}\n{good}\n{END}\n"),
         "refused: order line 1 (the token line): write it as 'token: ' and then your token, as your "
         "welcome mail gives it"),
        (answer(g, player, f"{BEGIN}\n{{token: \"{token}}}\n{good}\n{END}\n"),
         "refused: order line 1 (the token line): not valid YAML (found unexpected end of stream)"),
        (answer(g, player, f"{BEGIN}\ntoken: [{token}\n{good}\n{END}\n"),
         "refused: order line 1 (the token line): not valid YAML (did not find expected ',' or ']')"),
        (answer(g, player, f"{BEGIN}\ntoken: {numeric}\n{good}\n{END}\n"),
         "refused: order line 1 (the token line): the token is not text; copy it from your welcome mail, "
         "in quotes if need be"),
        (player_mail(address(player), f"game: m1\nplayer: {player}\ntoken: \"{token}\nturn: {turn}\n"
                                      f"orders:\n  - {good}\n"),
         "refused: the turn file in the mail, line 3 (the token line): not valid YAML (found unexpected "
         "end of stream)"),
        (player_mail(address(player), "Attached.\n", attachments=[
            ("turn.yaml", f"game: m1\nplayer: {player}\ntoken: {numeric}\nturn: {turn}\norders:\n  - {good}\n")]),
         "refused: the attachment 'turn.yaml', line 3 (the token line): the token is not text; copy it from "
         "your welcome mail, in quotes if need be"),
        (player_mail(address(player), html=html_body, in_reply_to=str(g.last_report(player)["Message-ID"])),
         "refused: order line 1 (the token line): not valid YAML (found unexpected end of stream)"),
        # the token pasted on a line of its own, as if it were an order
        (answer(g, player, f"{BEGIN}\n{token}\n{good}\n{END}\n"), None),
        # a player's token from another player's address: a stranger's mail
        (player_mail(address(other), f"{BEGIN}\ntoken: \"{token}\n{good}\n{END}\n",
                     in_reply_to=str(g.last_report(player)["Message-ID"])),
         None),
    ]
    before = g.state()
    outputs = []
    for batch in (cases[:6], cases[6:]):  # two runs: more than 10 mails from one address look like a loop
        for raw, _ in batch:
            g.inbox.deliver(raw)
        outputs.append(g.advance().output)
    lines = mail_lines("".join(outputs))
    assert len(lines) == len(cases), outputs
    for line, (_, expected) in zip(lines, cases):
        if expected is not None:
            assert line == f"mail from {address(player)}: {expected}"
    # the reply carries his reply key, so no token line is needed: the pasted token is read as an order
    # line, and refused as one without being shown
    assert lines[-2] == f"mail from {address(player)}: refused: the order block is not valid:"
    assert lines[-1] == (f"mail from {address(other)}: refused: order line 1 (the token line): not valid YAML "
                         f"(found unexpected end of stream)")
    assert g.state()["log"] == before["log"] and g.queued() == []
    # a refusal says what was wrong, the subject without the token
    sent = replies(g.outbox.new())
    assert len(sent) == len(cases)
    second = next(m for m in sent if m["In-Reply-To"] == parse(cases[1][0])["Message-ID"])
    assert second["Subject"] == "Re: orders (hidden)"
    assert text(second).startswith(f'Your mail of {DATE} ("orders (hidden)")\n')
    history = git(g.root, "log", "-p", "--all")
    for secret in (token, numeric):
        assert_nowhere(secret, *outputs, history, sent_text(g))
    assert not any(line in history for line in lines)  # what a run says of the mail it read reaches no commit


def test_an_error_while_handling_a_mail_does_not_show_the_token(g: MailGames,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """An unexpected error (a bug) that quotes the mail: the run sets the mail aside and says why, the
    token cleared from the error's words."""
    tokens = g.new()
    player, _ = g.mover()
    token = tokens[player]

    def broken(gd: Any, data: bytes, **kw: Any) -> Any:
        raise ValueError(f"cannot read {data.decode()!r}")
    monkeypatch.setattr(mailrun, "submit", broken)
    g.inbox.deliver(answer(g, player, order_body(token, [order_line(g.legal_order(player))])))
    r = g.advance()
    (line,) = mail_lines(r.output)
    assert line.startswith(f"mail from {address(player)}: set aside: it could not be handled (ValueError: ")
    assert "token: (hidden)" in line
    assert_nowhere(token, r.output, git(g.root, "log", "-p", "--all"), sent_text(g))


def test_hide_tokens_hides_every_piece() -> None:
    secret = "Kw9jAbCdEfGh1234"
    assert hide_tokens(f"a {secret} b", [secret]) == "a (hidden) b"
    assert hide_tokens("x Kw9jAbCd y EfGh1234 z", [secret]) == "x (hidden) y (hidden) z"
    assert hide_tokens("Kw9jA is short", [secret]) == "Kw9jA is short"  # 5 characters: no piece
    assert hide_tokens("token abcd, abcde", ["abcd"]) == "token (hidden), abcde"  # a short one: whole words
    assert hide_tokens("nothing here", []) == "nothing here"


# -- 2. the sender is the address the mail comes from -----------------------------------------------------------

def test_a_from_header_that_names_someone_else_is_not_the_players(g: MailGames) -> None:
    tokens = g.new()
    player, _ = g.mover()
    me, token = address(player), tokens[player]
    good = order_line(g.legal_order(player))
    report = g.last_report(player)
    body = f"{BEGIN}\ntoken: {token}\n{good}\n{END}\n"

    def hostile(n: int, *froms: str) -> bytes:
        return raw_mail([*(("From", f) for f in froms), ("To", GM), ("Subject", "orders"), ("Date", DATE),
                         ("Message-ID", f"<hostile.{n}@evil.test>"), ("In-Reply-To", str(report["Message-ID"]))],
                        body)
    cases = [
        (hostile(1, f"{me} <mallory@evil.test>"),  # parseaddr reads the player's address here
         f"mail from ?: set aside: its From: header is malformed, so its sender is not clear"),
        (hostile(2, f"{me}, mallory@evil.test"),
         "mail from ?: set aside: its From: header names 2 addresses, so its sender is not clear"),
        (hostile(3, me, "mallory@evil.test"),
         "mail from ?: set aside: it has 2 From: headers, so its sender is not clear"),
        (hostile(4, f"\"{me}\" <mallory@evil.test>"),
         f"mail from mallory@evil.test: refused as a stranger's: the name in its From: header is another "
         f"address ({me!r})"),
        (hostile(5, f"=?utf-8?q?{me.replace('@', '=EF=BC=A0')}?= <mallory@evil.test>"),  # a full-width @
         f"mail from mallory@evil.test: refused as a stranger's: the name in its From: header is another "
         f"address ({me!r}) (not answered: an address that plays no game here hears from pbem once a day)"),
    ]
    for raw, _ in cases:
        g.inbox.deliver(raw)
    before = g.state()
    r = g.advance()
    assert mail_lines(r.output) == [line for _, line in cases]
    assert g.state()["log"] == before["log"] and g.queued() == []
    sent = g.outbox.new()
    assert len(sent) == 1  # the stranger's reply (one a day), to the address the mail came from, naming no one
    for msg in sent:
        assert [(a.display_name, a.addr_spec) for a in msg["To"].addresses] == [("", "mallory@evil.test")]
        assert text(msg) == f'Your mail of {DATE} ("orders")\n' + STRANGER
        assert msg["References"] == msg["In-Reply-To"] and str(msg["Message-ID"]).startswith("<pbem.reply.")
        assert thread_of(str(msg["Message-ID"])) is None
    assert len(g.inbox.set_aside()) == 3


@pytest.mark.parametrize("name", ['"{upper}"', "{upper}"], ids=["quoted", "unquoted"])
def test_a_display_name_that_is_the_same_address_is_fine(g: MailGames, name: str) -> None:
    tokens = g.new()
    player, turn = g.mover()
    good = g.legal_order(player)
    g.inbox.deliver(answer(g, player, order_body(tokens[player], [order_line(good)]),
                           sender_name=name.format(upper=address(player).upper())))
    r = g.advance()
    assert mail_lines(r.output) == [f"mail from {address(player)}: m1 turn {turn}: queued {order_line(good)}"]


# -- 3. auto-replies by their subject -----------------------------------------------------------------------

AUTO_SUBJECTS = [
    "Auto-Reply: Re: [pbem] m1", "Automatische Antwort: [pbem] m1", "Out of Office: [pbem] m1",
    "Autoreply", "AutoReply: away", "Automatic reply: [pbem] m1", "Auto Response", "Abwesenheitsnotiz: x",
    "Abwesend bis Montag", "Réponse automatique : [pbem] m1", "Reponse automatique", "Absent du bureau",
    "Respuesta automática: [pbem] m1", "Fuera de la oficina", "Risposta automatica: [pbem]", "Fuori sede",
    "Automatisch antwoord: [pbem] m1", "Afwezig", "Absence: until Monday", "Vacation", "[Auto-Reply] x",
    "OUT OF THE OFFICE", "Automatiskt svar: x", "Automatisk svar", "Automaattinen vastaus",
    "Automatyczna odpowiedź", "Automatická odpověď", "Resposta automática", "Otomatik yanıt",
    "Автоматический ответ: x", "Αυτόματη απάντηση", "自動応答: x", "自动回复: x", "자동 응답",
]


@pytest.mark.parametrize("subject", AUTO_SUBJECTS)
def test_an_auto_reply_is_known_by_its_subject(tmp_path: Path, subject: str) -> None:
    cfg = Config(root=tmp_path, gm_name="Game Master", gm_address=GM)
    assert not_for_pbem(read_mail(player_mail(address("anna"), "pass\n", subject=subject)), cfg) == \
        "it is an out-of-office reply"


@pytest.mark.parametrize("subject", ["Re: [pbem] m1 turn 3: your move", "orders", "Absolutely", "Automation",
                                     "Vacationing soon?", "Re: Auto-Reply: x", "Awesome", "Outcome"])
def test_a_players_subject_is_no_auto_reply(tmp_path: Path, subject: str) -> None:
    cfg = Config(root=tmp_path, gm_name="Game Master", gm_address=GM)
    assert not_for_pbem(read_mail(player_mail(address("anna"), "pass\n", subject=subject)), cfg) is None


def test_auto_replies_are_set_aside_without_a_reply(g: MailGames) -> None:
    """Each would be good orders, but an auto-responder quoting them sent it: set aside, unanswered."""
    tokens = g.new()
    player, _ = g.mover()
    good = order_line(g.legal_order(player))
    for subject in AUTO_SUBJECTS:
        g.inbox.deliver(answer(g, player, order_body(tokens[player], [good]), subject=subject))
    r = g.advance()
    assert mail_lines(r.output) == [f"mail from {address(player)}: set aside: it is an out-of-office reply"] \
        * len(AUTO_SUBJECTS)
    assert g.outbox.new() == [] and g.queued() == [] and g.state()["log"] == []
    assert len(g.inbox.set_aside()) == len(AUTO_SUBJECTS)


# -- 4. a reply to any of pbem's mails finds its game ------------------------------------------------------------

def test_every_mail_pbem_sends_names_game_player_and_turn(tmp_path: Path) -> None:
    cfg = Config(root=tmp_path, gm_name="Game Master", gm_address=GM)
    assert thread_of(thread_id(cfg, "m-1", "anna_2", 3, 7)) == ("m-1", "anna_2", 7)
    assert thread_of(reminder_id(cfg, "m-1", "anna_2", 7, 2)) == ("m-1", "anna_2", 7)
    assert thread_of(reply_id(cfg, "<x@y>", "m-1", "anna_2", 7)) == ("m-1", "anna_2", 7)
    assert thread_of(reply_id(cfg, "<x@y>")) is None  # an answer to a stranger names nothing
    assert thread_of("<pbem.reply.0123456789abcdef01234567@pbem.test>") is None  # as before
    assert thread_of("<pbem.remind.m1.anna.t3@pbem.test>") is None


def test_a_reply_to_a_reminder_with_only_in_reply_to(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reminders are in the player's thread, and a client that sets only In-Reply-To finds the game."""
    g.write_config()
    tokens = new_game(g, "medici", ("anna", "ben", "cleo"), "m1", "--deadline", "48h")
    player, turn = g.mover()
    at(monkeypatch, 36)
    r = g.advance()
    assert "m1: reminded " + player in r.output
    reminders = {player_of(m): m for m in g.outbox.new() if "remind" in str(m["Message-ID"])}
    assert set(reminders) == set(tokens)
    for p, msg in reminders.items():
        root = f"<pbem.m1.{p}.1.t1@pbem.test>"
        assert unkeyed(msg["Message-ID"]) == f"<pbem.remind.m1.{p}.t{turn}.1@pbem.test>"
        assert unkeyed(msg["In-Reply-To"]) == root and unkeyed(msg["References"]) == root
    order = g.legal_order(player)
    g.inbox.deliver(answer(g, player, order_body(tokens[player], [order_line(order)]), reply_to=reminders[player],
                           only_in_reply_to=True))
    raw = g.inbox.waiting()[0]
    assert parse(raw)["References"] is None
    r = g.advance()
    assert f"mail from {address(player)}: m1 turn {turn}: queued {order_line(order)}" in r.output
    assert [(e["turn"], e["player"], e["order"]) for e in g.state()["log"]] == [(turn, player, order)]


def test_a_reply_to_an_ack_or_a_refusal_with_only_in_reply_to(g: MailGames) -> None:
    """The ack names the turn after the orders it acknowledges, a refusal the turn the game is at: a
    reply to either, with only In-Reply-To, gives the player's next orders."""
    tokens = g.new()
    player, turn = g.mover()
    first = g.legal_order(player)
    g.inbox.deliver(answer(g, player, order_body(tokens[player], [order_line(first)])))
    g.advance()
    (ack,) = replies(g.outbox.new())
    assert ack["Message-ID"].startswith(f"<pbem.reply.m1.{player}.t{turn + 1}.")
    # the ack is in the player's thread: root, latest report, the mail it answers
    assert [unkeyed(r) for r in str(ack["References"]).split()] == [f"<pbem.m1.{player}.1.t1@pbem.test>",
                                                                    ack["In-Reply-To"]]
    assert g.mover() == (player, turn + 1)  # the Medici drawer draws again
    g.inbox.deliver(answer(g, player, order_body(tokens[player], ["bid: 1000"]), reply_to=ack,
                           only_in_reply_to=True))
    r = g.advance()
    assert f"mail from {address(player)}: refused: order 'bid: 1000': " in r.output
    (refusal,) = replies(g.outbox.new())
    assert refusal["Message-ID"].startswith(f"<pbem.reply.m1.{player}.t{turn + 1}.")
    second = g.legal_order(player)
    g.inbox.deliver(answer(g, player, order_body(tokens[player], [order_line(second)]), reply_to=refusal,
                           only_in_reply_to=True))
    r = g.advance()
    assert f"mail from {address(player)}: m1 turn {turn + 1}: queued {order_line(second)}" in r.output
    assert [(e["turn"], e["order"]) for e in g.state()["log"]] == [(turn, first), (turn + 1, second)]


# -- 5. orders given twice ----------------------------------------------------------------------------------

def test_orders_in_the_text_and_in_an_attachment_are_refused(g: MailGames) -> None:
    tokens = g.new()
    player, turn = g.mover()
    order = g.legal_order(player)
    tf = turn_file("m1", player, tokens[player], turn, [order])
    body = order_body(tokens[player], [order_line(order)])
    cases = [
        (answer(g, player, body, attachments=[("turn.yaml", tf)]),
         "the mail holds orders twice: in its text and in the attachment 'turn.yaml'; send them once"),
        (player_mail(address(player), "Attached.\n", attachments=[("a.yaml", tf), ("b.txt", tf)]),
         "the mail holds orders twice: in the attachments 'a.yaml' and 'b.txt'; send them once"),
        (player_mail(address(player), tf, attachments=[("turn.yml", tf)]),
         "the mail holds orders twice: in its text and in the attachment 'turn.yml'; send them once"),
        (answer(g, player, body, attachments=[("a.yaml", tf), ("b.yaml", tf)]),
         "the mail holds orders 3 times: in its text and in the attachments 'a.yaml' and 'b.yaml'; "
         "send them once"),
    ]
    for raw, _ in cases:
        g.inbox.deliver(raw)
    r = g.advance()
    assert mail_lines(r.output) == [f"mail from {address(player)}: refused: {m}" for _, m in cases]
    sent = {m["In-Reply-To"]: m for m in replies(g.outbox.new())}
    for raw, message in cases:
        msg = sent[parse(raw)["Message-ID"]]
        assert text(msg) == mail_error(str(parse(raw)["Subject"]), message, order_line(order))
    assert g.queued() == [] and g.state()["log"] == []


def test_the_token_alone_in_the_text_and_an_attachment_are_one_source(g: MailGames) -> None:
    tokens = g.new()
    player, turn = g.mover()
    order = g.legal_order(player)
    tf = turn_file("m1", player, tokens[player], turn, [order])
    g.inbox.deliver(answer(g, player, f"{BEGIN}\ntoken: {tokens[player]}\n{END}\n",
                           attachments=[("turn.yaml", tf)]))
    r = g.advance()
    assert mail_lines(r.output) == [f"mail from {address(player)}: m1 turn {turn}: queued {order_line(order)}"]


# -- 6. help in the player's own game ------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", GAMES)
def test_a_refusal_shows_an_example_of_the_players_own_game(g: MailGames, ruleset: str) -> None:
    """With tokens alone (`reply_keys: false`): a mail without orders gets an example of his game."""
    from pbem.rules.base import order_text

    g.extra["reply_keys"] = False

    example = need(ruleset, "EXAMPLE_ORDER")
    tokens = new_game(g, ruleset, room(ruleset).PLAYERS)
    mover, turn = g.mover("g1")
    waiting = next(p for p in tokens if p != mover)
    legal = g.pbem.show("g1", mover)["legal_orders"]
    # where every player decides at once, the other one is asked too: his own first legal order
    his = g.pbem.show("g1", waiting)["legal_orders"]
    mails = {
        # the mover: his own first legal order
        "mover": answer(g, mover, f"{BEGIN}\ntoken: {tokens[mover]}\n{END}\n", subject="mine"),
        # a player who waits: an order of his game
        "waiting": answer(g, waiting, "When is it my turn?\n", subject="when"),
        # a stranger who answers a player's report: where a player writes from, nothing of the game
        "stranger": player_mail("mallory@evil.test", "hello\n", subject="hi",
                                in_reply_to=str(g.last_report(mover)["Message-ID"])),
    }
    for raw in mails.values():
        g.inbox.deliver(raw)
    r = g.advance()
    sent = {m["In-Reply-To"]: m for m in replies(g.outbox.new())}
    got = {who: text(sent[parse(raw)["Message-ID"]]) for who, raw in mails.items()}
    no_orders = (f"the mail holds no orders: put them between the lines {BEGIN!r} and {END!r} of your report, "
                 f"or attach a turn file")
    no_order = (f"there is no order between the lines {BEGIN!r} and {END!r}: write your orders there, one a "
                f"line, below your token")
    assert mail_lines(r.output) == [f"mail from {address(mover)}: refused: {no_order}",
                                    f"mail from {address(waiting)}: refused: {no_orders}",
                                    "mail from mallory@evil.test: refused: this address plays no game here"]
    assert got["mover"] == mail_error("mine", no_order, order_text(legal[0]))
    assert got["waiting"] == mail_error("when", no_orders, order_text(his[0]) if his else example)
    assert got["stranger"].startswith(f'Your mail of {MAIL_DATE} ("hi")\ncould not be used: this address plays no '
                                      f'game here.\n') and got["stranger"].endswith(NEVER_AGAIN)
    assert "g1" not in got["stranger"] and example not in got["stranger"]
    assert all(len(line) <= 72 for who in got for line in got[who].splitlines())
    # the message is broken at spaces, never inside a marker line it quotes
    assert f"\n    {BEGIN!r} and {END!r} of\n" in got["waiting"]


# -- 7. a seat's new player is addressed by his own name --------------------------------------------------------

def test_a_new_player_of_a_seat_is_greeted_and_addressed_by_his_name(g: MailGames,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    g.write_config()
    new_game(g, "medici", ("anna", "ben", "cleo"), "m1", "--deadline", "48h")
    r = g.pbem("replace", "m1", "ben", "dora=dora@players.test", "--json")
    assert r.exit_code == 0, r.output
    token = json.loads(r.stdout)["token"]
    sent = g.outbox.new()
    to_dora = [m for m in sent if m["To"].addresses[0].addr_spec == "dora@players.test"]
    assert to_dora and all(m["To"].addresses[0].display_name == "dora" for m in to_dora)
    welcome = next(m for m in to_dora if "Your secret token is:" in text(m))
    assert text(welcome).startswith(
        "Welcome to Medici game m1, dora!\nYou play the seat ben.\n\n"
        f"Your secret token is:   {token}\n\n"
        "To play, reply to the latest mail of the game with your order alone\n"
        "on a line, such as you see it in your report. pbem knows the reply\n"
        "for yours by the mail it answers and the address it comes from: you\n"
        "need the token only in a turn file, or in a mail that answers none of\n"
        "pbem's. Keep it to yourself: pbem keeps only a hash of it and cannot\n"
        "tell it to you again.\nPlayers: anna, ben (played by dora), cleo.\n\n")
    assert all(m["To"].addresses[0].display_name == player_of(m) for m in sent if m not in to_dora)
    # a report and a reminder later: still dora
    mover, _ = g.mover()
    at(monkeypatch, 60)
    g.advance()
    later = [m for m in g.outbox.new() if m["To"].addresses[0].addr_spec == "dora@players.test"]
    assert [str(m["Message-ID"]).split(".t")[0] for m in later] == ["<pbem.remind.m1.ben"]
    mover, turn = g.mover()
    tf = g.root.parent / "turn.yaml"
    tf.write_text(turn_file("m1", mover, token if mover == "ben" else g.tokens[mover], turn,
                            [g.legal_order(mover)]))
    assert g.pbem("submit", str(tf)).exit_code == 0
    g.advance()
    later += [m for m in g.outbox.new() if m["To"].addresses[0].addr_spec == "dora@players.test"]
    assert [str(m["Message-ID"]).split(".t")[0] for m in later] == ["<pbem.remind.m1.ben", "<pbem.m1.ben.3"]
    assert all(m["To"].addresses[0].display_name == "dora" for m in later)


def test_the_welcome_mail_is_72_columns(g: MailGames) -> None:
    g.new()
    body = text(g.welcome["anna"])
    head = body.split("=" * 72)[0]
    assert all(len(line) <= 72 for line in head.splitlines()), head


# -- 8. a look at the inbox that changes nothing ------------------------------------------------------------------

def everything(root: Path) -> dict[str, Any]:
    """Every path under the games dir (folders too) with its bytes, and git's HEAD."""
    paths = {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))
             if ".git" not in p.relative_to(root).parts}
    return {"paths": paths, "head": git(root, "rev-parse", "HEAD")}


@pytest.mark.parametrize("drop", ["maildir", "mbox"])
def test_preview_inbox_says_what_a_run_would_do_and_changes_nothing(pbem: Pbem, drop: str) -> None:
    inbox = MaildirDrop(pbem.games) if drop == "maildir" else MboxDrop(pbem.games)
    g = MailGames(pbem, inbox, FilesOut(pbem.games))
    tokens = g.new()
    player, turn = g.mover()
    token = tokens[player]
    order = order_line(g.legal_order(player))
    first = answer(g, player, order_body(token, [order]), message_id="<first@players.test>")
    mails = [
        first,
        answer(g, player, f"{BEGIN}\ntoken: \"{token}\n{order}\n{END}\n"),
        answer(g, player, order_body(token, ["bid: 1000"])),
        player_mail("mallory@evil.test", f"{BEGIN}\ntoken: {token[::-1]}\npass\n{END}\n",
                    in_reply_to=str(g.last_report(player)["Message-ID"])),
        answer(g, player, order_body(token, [order]), subject="Automatische Antwort: bin weg"),
        raw_mail([("From", f"{address(player)} <mallory@evil.test>"), ("Subject", "x"),
                  ("Message-ID", "<from@evil.test>")], "pass\n"),
        first,  # delivered twice
    ]
    for raw in mails:
        g.inbox.deliver(raw)
    g.outbox.skip()
    before = everything(g.root)
    lines = mail_lines("\n".join(mailrun.preview_inbox(g.gd, load_config(g.root))))
    assert everything(g.root) == before
    me = address(player)
    assert lines == [
        f"mail from {me}: m1 turn {turn}: would queue {order}",
        f"mail from {me}: would be refused: order line 1 (the token line): not valid YAML (found unexpected "
        f"end of stream)",
        f"mail from {me}: would be refused: order 'bid: 1000': " + lines[2].split(": order 'bid: 1000': ")[1],
        "mail from mallory@evil.test: would be refused (not a player's address with his token)",
        f"mail from {me}: would be set aside: it is an out-of-office reply",
        "mail from ?: would be set aside: its From: header is malformed, so its sender is not clear",
        "mail <first@players.test>: read before; would be taken out of the inbox",
    ]
    assert_nowhere(token, "\n".join(lines))
    # and a run does what the preview said
    r = g.advance()
    assert mail_lines(r.output) == [line.replace("would queue", "queued").replace("would be ", "")
                                    for line in lines]
    assert len(replies(g.outbox.new())) == 4


def test_preview_inbox_of_an_inbox_not_yet_there(g: MailGames) -> None:
    g.new()
    before = everything(g.root)
    assert mailrun.preview_inbox(g.gd, load_config(g.root)) == []
    assert everything(g.root) == before


def test_preview_inbox_counts_a_replaced_order(g: MailGames) -> None:
    tokens = g.new()
    player, turn = g.mover()
    orders = [order_line(o) for o in g.pbem.show("m1", player)["legal_orders"][:2]]
    g.inbox.deliver(answer(g, player, order_body(tokens[player], [orders[0]])))
    # queued by an earlier look at a turn file: the mail would replace it
    tf = g.root.parent / "turn.yaml"
    tf.write_text(turn_file("m1", player, tokens[player], turn, [g.pbem.show("m1", player)["legal_orders"][1]]))
    assert g.pbem("submit", str(tf)).exit_code == 0
    assert mailrun.preview_inbox(g.gd, load_config(g.root)) == [
        f"m1: mail from {address(player)}: m1 turn {turn}: would queue {orders[0]} (replacing the orders queued before)"]


# -- 9. every mail at 72 columns, and orders written inside the quote --------------------------------------------

LONG_NAMES = ("a-player-with-long-name0", "b-player-with-long-name1", "c-player-with-long-name2")  # 24, the most
LONG_GAME = "a-game-id-of-forty-characters-0123456789"  # 40, the most


def test_every_mail_fits_72_columns_with_the_longest_names(g: MailGames, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only the reports: the welcome, the acknowledgement, each kind of refusal (its message quoting
    the player's lines and the marker lines) and the reminders. A long line is broken at spaces, never
    inside a marker line."""
    tokens = new_game(g, "medici", LONG_NAMES, LONG_GAME, "--deadline", "48h")
    mover, _ = g.mover(LONG_GAME)
    waiting = next(p for p in LONG_NAMES if p != mover)
    order = order_line(g.legal_order(mover, LONG_GAME))
    g.inbox.deliver(answer(g, waiting, "When is it my turn? " * 10, subject="Re: a subject " + "long " * 20))
    g.inbox.deliver(answer(g, waiting, order_body(tokens[waiting], ["bid: 7 " + "and more words " * 8])))
    g.inbox.deliver(player_mail("someone-with-a-long-address@a-long-domain-name.example", "hello " * 30))
    g.inbox.deliver(answer(g, mover, order_body(tokens[mover], [order])))
    g.advance()
    at(monkeypatch, 37)  # a quarter of the 48 hours left: the reminders
    assert g.advance().exit_code == 0
    mails = g.outbox.all()
    kinds = {str(m["Message-ID"]).split(".")[1] for m in mails}
    assert {"reply", "remind"} <= kinds and len(replies(mails)) == 4
    wide = [(str(m["Subject"]), line) for m in mails for line in text(m).splitlines() if len(line) > 72]
    assert wide == []
    refusals = "\n".join(text(m) for m in replies(mails))
    assert f"    {BEGIN!r} and {END!r}" in refusals


def test_orders_written_inside_the_quoted_report_get_their_own_answer(g: MailGames) -> None:
    """A player who fills in the order block of the report his client quotes (his token is there, which
    a report never shows) is told so; a quote of the untouched report is only a mail with no orders
    (tokens alone, `reply_keys: false`)."""
    g.extra["reply_keys"] = False
    tokens = g.new()
    player, _ = g.mover()
    order = order_line(g.legal_order(player))
    report = text(g.last_report(player))
    filled = report.replace("token: YOUR-TOKEN", f"token: {tokens[player]}") + f"\n{BEGIN}\n{order}\n{END}\n"
    edited = "\n".join(f"> {line}" for line in filled.replace(f"{BEGIN}\n{order}\n{END}\n", "").splitlines())
    edited = edited.replace(f"> {END}", f"> {order}\n> {END}", 1)
    untouched = "\n".join(f"> {line}" for line in report.splitlines())
    outlook = edited.replace("> ", "").replace(">", "")  # a copy under a header, not quoted line by line
    g.inbox.deliver(answer(g, player, f"Here you are.\n\nOn Sat, GM wrote:\n{edited}\n", subject="edited"))
    g.inbox.deliver(answer(g, player, f"Done.\n\nFrom: GM <gm@pbem.test>\nSent: Sat\n\n{outlook}\n", subject="copy"))
    g.inbox.deliver(answer(g, player, f"Thanks!\n\nOn Sat, GM wrote:\n{untouched}\n", subject="untouched"))
    r = g.advance()
    inside = (f"mail from {address(player)}: refused: your orders are inside the report your mail quotes, which "
              f"pbem does not read (lines that begin with '>', or below a line such as 'On ... wrote:' or "
              f"'From: ...'): write them between marker lines of your own, above the quote and without '>' in "
              f"front")
    assert mail_lines(r.output) == [
        inside, inside,
        f"mail from {address(player)}: refused: the mail holds no orders: put them between the lines {BEGIN!r} "
        f"and {END!r} of your report, or attach a turn file"]
    assert g.queued() == []
    assert_nowhere(tokens[player], "\n".join(text(m) for m in replies(g.outbox.new())))

