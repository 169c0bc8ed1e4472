"""The intake through `pbem advance` over a Maildir inbox: a mail is read, its sender proven and looked up
once, the guard against loops asks what that proves, then the act and its answer.

Forged mail (a From: that nothing proves) counts against nobody's proven mail: a reply that a key or
token proves is read whatever forged mail came before it, and the caps count proven and unproven mail
apart. A machine at a player's address, answering pbem's keyed mail with the key, still gets at most two
answers. A paused game is a game he plays. A reply from an address that holds no seat is told where to
write from. A dry run says what the run does.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterator

import pytest

from conftest import Pbem
from conftest_mail import (NEVER_AGAIN, MailGames, address, order_body, order_line, player_mail, quote,
                           started_game, threaded_reply, turn_file, unkeyed)
from pbem import lobby
from pbem.config import load_config
from pbem.mail.run import MAX_REPLIES_PER_SENDER, REFUSALS_A_DAY, preview_inbox


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return started_game(pbem)


def run(g: MailGames, *mails: bytes) -> tuple[list[str], list[Any]]:
    """`mails` delivered and one run made: its lines about mail (each naming its game first) and the mails
    it wrote."""
    for raw in mails:
        g.inbox.deliver(raw)
    r = g.advance()
    return [line for line in r.output.splitlines() if "mail from " in line], g.outbox.new()


def to(msg: Any) -> str:
    return msg["To"].addresses[0].addr_spec


def text(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def legal(g: MailGames, player: str) -> str:
    from pbem.rules.base import order_text

    return order_text(g.legal_order(player))


def wrong_token_turn_file(g: MailGames, player: str, n: int) -> bytes:
    """A fresh mail in `player`'s name with a turn file whose token is wrong (anyone can write it)."""
    state = g.state()
    body = turn_file("m1", player, f"forged-token-{n:04d}", state["engine"]["turn"], [g.legal_order(player)])
    return player_mail(address(player), "my orders\n", subject=f"orders {n}", attachments=[("turn.yaml", body)])


# -- forged mail never sets aside his proven mail ----------------------------------------------------------

def test_five_forged_turn_files_in_his_name_do_not_set_aside_his_keyed_reply(g: MailGames) -> None:
    """Five forged mails from the player to move, each a turn file with a wrong token, are refused and the
    next forged one is set aside as a machine's; his own keyed reply the same day is read."""
    player = g.mover()[0]
    lines, _ = run(g, *(wrong_token_turn_file(g, player, n) for n in range(REFUSALS_A_DAY + 1)))
    assert len(lines) == REFUSALS_A_DAY + 1 and all(
        line.startswith(f"m1: mail from {address(player)}: refused (not a player's address with his token)")
        for line in lines[:-1])
    assert f"set aside: {REFUSALS_A_DAY} mails from {address(player)} were refused today" in lines[-1]
    assert "that nothing proves" in lines[-1]
    order = legal(g, player)
    lines, sent = run(g, threaded_reply(g.last_report(player), player, order))
    assert lines == [f"m1: mail from {address(player)}: m1 turn 1: queued {order}"]
    assert [to(m) for m in sent if str(m["Message-ID"]).startswith("<pbem.reply.")] == [address(player)]


def test_forged_mails_in_his_reports_thread_do_not_fill_his_cap_of_the_run(g: MailGames) -> None:
    """Eleven forged mails In-Reply-To the id of his report (ids can be guessed, the key cannot), in the
    same run as his keyed reply: the forged ones past the cap are set aside, his reply is read."""
    player = g.mover()[0]
    report = g.last_report(player)
    forged = [player_mail(address(player), f"hello {n}\n", subject=f"Re: {report['Subject']}",
                          in_reply_to=unkeyed(report["Message-ID"])) for n in range(MAX_REPLIES_PER_SENDER + 1)]
    order = legal(g, player)
    lines, _ = run(g, *forged, threaded_reply(report, player, order))
    assert len(lines) == MAX_REPLIES_PER_SENDER + 2
    assert "in one run in one thread (a loop?)" in lines[MAX_REPLIES_PER_SENDER]
    assert lines[-1] == f"m1: mail from {address(player)}: m1 turn 1: queued {order}"
    assert len(g.state()["log"]) == 1  # his order moved the game


def test_forged_accepts_do_not_set_aside_the_invitees_keyed_accept(g: MailGames) -> None:
    """Forged `accept`s in an invitee's name (no key: refused, the same text each time) do not count
    against his own accept, a reply to his invitation: he takes his seat."""
    report = g.last_report("anna")
    lines, sent = run(g, threaded_reply(report, "anna", "new medici with dan@x.test, eve@x.test"))
    invitation = next(m for m in sent if to(m) == "dan@x.test")
    forged = [player_mail("dan@x.test", "accept\n", subject="accept") for _ in range(REFUSALS_A_DAY)]
    lines, _ = run(g, *forged)
    assert len(lines) == REFUSALS_A_DAY
    assert all("mail from dan@x.test: refused 'accept'" in line for line in lines[:2])
    assert all("set aside: the same text from dan@x.test (that nothing proves)" in line for line in lines[2:])
    lines, _ = run(g, player_mail("dan@x.test", "accept\n", subject=f"Re: {invitation['Subject']}",
                                  in_reply_to=str(invitation["Message-ID"])))
    assert len(lines) == 1 and "dan@x.test accepted" in lines[0], lines
    assert "dan@x.test" in [s["email"] for s in lobby.load(g.gd, lines[0].split(":")[0])["seated"]]


# -- a machine at a player's address still gets at most two answers ----------------------------------------

def _responder(msg: Any, player: str, style: str) -> bytes:
    """What a naive auto-responder at `player`'s address sends back to one of pbem's mails: its own words
    and pbem's mail quoted, threaded under it, its reply key in In-Reply-To and References."""
    quoted = text(msg)
    refs = str(msg.get("References", "")).split() + [str(msg["Message-ID"])]
    away = "I am away until Monday and will read your mail then."
    thread = {"subject": f"Re: {msg['Subject']}", "in_reply_to": str(msg["Message-ID"]), "references": refs}
    if style == "html":
        from html import escape

        return player_mail(address(player), None, html=f"<html><body><div>{away}</div><blockquote>"
                           f"{escape(quoted).replace(chr(10), '<br>')}</blockquote></body></html>", **thread)
    body = {"quoted": f"{away}\n\nOn Sat, Game Master wrote:\n{quote(quoted)}\n",
            "below": f"On Sat, Game Master wrote:\n{quote(quoted)}\n\n{away}\n",
            "original": f"{away}\n\n-----Original Message-----\n{quoted}\n",
            "outlook": f"{away}\n\nFrom: Game Master <gm@pbem.test>\nSent: Saturday\nSubject: {msg['Subject']}\n\n"
                       f"{quoted}\n"}[style]
    return player_mail(address(player), body, **thread)


@pytest.mark.parametrize("style", ["quoted", "below", "original", "outlook", "html"])
def test_a_naive_auto_responder_that_quotes_pbems_keyed_mail_gets_at_most_two_answers(g: MailGames,
                                                                                     style: str) -> None:
    """Its replies carry the key of the mail they answer (a reply to a keyed mail does): proven, and still
    counted, so the exchange ends after two answers, round after round; a real order is then read."""
    player = g.mover()[0]
    latest = g.last_report(player)
    answered = 0
    for _ in range(6):
        lines, sent = run(g, _responder(latest, player, style))
        mine = [m for m in sent if to(m) == address(player)]
        answered += len(mine)
        latest = mine[-1] if mine else latest
    assert answered <= 2
    assert "set aside: the same text from" in lines[0] and "(proven by a key or token)" in lines[0], lines
    order = legal(g, player)
    lines, _ = run(g, threaded_reply(g.last_report(player), player, order))
    assert lines == [f"m1: mail from {address(player)}: m1 turn 1: queued {order}"]


def test_a_responder_refused_with_its_key_is_not_answered_without_it_either(g: MailGames) -> None:
    """Refusals of mail a key proves count against the address's unproven mail too: the same words in a
    fresh mail from the machine are set aside."""
    player = g.mover()[0]
    latest = g.last_report(player)
    for _ in range(2):
        _, sent = run(g, _responder(latest, player, "quoted"))
        latest = [m for m in sent if to(m) == address(player)][-1]
    lines, sent = run(g, player_mail(address(player), "I am away until Monday and will read your mail then.\n"))
    assert sent == [] and "set aside: the same text from" in lines[0] and "(that nothing proves)" in lines[0]


# -- a dry run says what the run does ------------------------------------------------------------------------

def _agree(preview: list[str], lines: list[str]) -> None:
    assert len(preview) == len(lines), (preview, lines)
    for said, done in zip(preview, lines):
        assert ("would be set aside" in said) == (" set aside" in done), (said, done)
        assert ("would be refused" in said) == (": refused" in done), (said, done)
        assert ("would queue" in said) == (": queued" in done), (said, done)


def test_the_dry_run_agrees_with_the_run_on_forged_mail_and_his_keyed_reply(g: MailGames) -> None:
    player = g.mover()[0]
    report = g.last_report(player)
    mails = [player_mail(address(player), f"hello {n}\n", subject=f"Re: {report['Subject']}",
                         in_reply_to=unkeyed(report["Message-ID"])) for n in range(MAX_REPLIES_PER_SENDER + 1)]
    mails += [wrong_token_turn_file(g, player, n) for n in range(REFUSALS_A_DAY + 1)]
    order = legal(g, player)
    mails.append(threaded_reply(report, player, order))
    for raw in mails:
        g.inbox.deliver(raw)
    preview = [line for line in preview_inbox(g.gd, load_config(g.root)) if "mail from " in line]
    lines, _ = run(g)
    _agree(preview, lines)
    assert lines[-1].endswith(f"queued {order}") and "set aside" in lines[-2]


def test_the_dry_run_agrees_with_the_run_on_a_responder(g: MailGames) -> None:
    """The guard's refusals of the week are read by the dry run too (and never written by it)."""
    player = g.mover()[0]
    latest = g.last_report(player)
    for _ in range(2):
        _, sent = run(g, _responder(latest, player, "quoted"))
        latest = [m for m in sent if to(m) == address(player)][-1]
    g.inbox.deliver(_responder(latest, player, "quoted"))
    before = (g.root / "mail" / "refused.txt").read_text()
    preview = [line for line in preview_inbox(g.gd, load_config(g.root)) if "mail from " in line]
    assert (g.root / "mail" / "refused.txt").read_text() == before
    lines, _ = run(g)
    _agree(preview, lines)
    assert "would be set aside: the same text from" in preview[0]


# -- one lookup of the sender a mail --------------------------------------------------------------------------

LOOKUPS = [("pbem.mail.addresses", "seats_of"), ("pbem.mail.seats", "games_of"), ("pbem.mail.commands", "first_seat"),
           ("pbem.mail.readers", "reader_language"), ("pbem.mail.readers", "lobby_seats"),
           ("pbem.mail.readers", "entry_language"), ("pbem.lobby", "plays_here"), ("pbem.lobby", "seated_here"),
           ("pbem.mail.lobby_keys", "address_keys")]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How often each way of looking a sender up is called while a run reads its inbox."""
    import importlib

    import pbem.mail.run as mailrun

    calls: Counter[str] = Counter()
    reading = [False]
    sender = [""]  # the address whose lookups count (another address, an invitee's, is looked up in its own right)
    for module, name in LOOKUPS:
        mod = importlib.import_module(module)
        real = getattr(mod, name)

        def counting(*args: Any, _real: Any = real, _name: str = f"{module}.{name}", **kw: Any) -> Any:
            if reading[0] and any(getattr(a, "sender", a) == sender[0] for a in args):
                calls[_name] += 1
            return _real(*args, **kw)
        monkeypatch.setattr(mod, name, counting)
    read_inbox = mailrun.read_inbox

    def reading_inbox(*args: Any, **kw: Any) -> Any:
        reading[0] = True
        try:
            return read_inbox(*args, **kw)
        finally:
            reading[0] = False
    monkeypatch.setattr(mailrun, "read_inbox", reading_inbox)
    calls.sender = sender  # type: ignore[attr-defined]
    yield calls


KINDS = ["order", "refused order", "games", "status", "back", "fresh mail", "stranger's games", "another address",
         "challenge", "accept"]


@pytest.mark.parametrize("kind", KINDS)
def test_one_mail_looks_its_sender_up_once(g: MailGames, counted: Counter[str], kind: str) -> None:
    """Whatever a mail asks, the index of addresses is asked once for it, its proof is decided once, and
    nothing asks the sender's games or language on its own (before: up to 7 lookups of the index for one
    stranger's `games`, 5 for a player's fresh mail)."""
    player = g.mover()[0]
    report = g.last_report(player)
    if kind == "accept":
        _, sent = run(g, threaded_reply(g.last_report("anna"), "anna", "new medici with dan@x.test, eve@x.test"))
        invitation = next(m for m in sent if to(m) == "dan@x.test")
        counted.clear()
        raw = player_mail("dan@x.test", "accept\n", subject=f"Re: {invitation['Subject']}",
                          in_reply_to=str(invitation["Message-ID"]))
    else:
        raw = {"order": lambda: threaded_reply(report, player, legal(g, player)),
               "refused order": lambda: threaded_reply(report, player, "bid: 99999"),
               "games": lambda: threaded_reply(report, player, "games"),
               "status": lambda: threaded_reply(report, player, "status"),
               "back": lambda: threaded_reply(report, player, "back"),
               "fresh mail": lambda: player_mail(address(player), "hello\n"),
               "stranger's games": lambda: player_mail("x@far.test", "games\n"),
               "another address": lambda: player_mail("other@home.test", order_body(g.tokens[player], ["pass"]),
                                                      subject=f"Re: {report['Subject']}",
                                                      in_reply_to=str(report["Message-ID"])),
               "challenge": lambda: threaded_reply(g.last_report("anna"), "anna",
                                                   "new medici with dan@x.test, eve@x.test"),
               }[kind]()
    from email import message_from_bytes
    from email.utils import parseaddr

    counted.sender[0] = parseaddr(message_from_bytes(raw)["From"])[1].lower()  # type: ignore[attr-defined]
    lines, sent = run(g, raw)
    assert len(lines) == 1 and sent, (lines, sent)
    assert counted == Counter({"pbem.mail.addresses.seats_of": 1, "pbem.mail.lobby_keys.address_keys": 1}), lines


# -- a paused game is his game --------------------------------------------------------------------------------

def test_a_forged_stop_from_a_player_whose_only_game_is_paused_only_asks_him(g: MailGames) -> None:
    """His paused game is his game: a `stop` nothing proves asks him to confirm, and after `resume` he
    still gets his reports."""
    from pbem.donotmail import never_mail

    player = g.mover()[0]
    assert g.pbem("pause", "m1").exit_code == 0
    g.outbox.skip()
    lines, sent = run(g, player_mail(address(player), "stop\n", subject="stop"))
    assert len(lines) == 1 and "asked" in lines[0] and "to confirm" in lines[0], lines
    assert not never_mail(load_config(g.root), address(player))
    assert g.pbem("resume", "m1").exit_code == 0
    assert address(player) in [to(m) for m in g.outbox.new()]


def test_a_player_of_a_paused_game_gets_no_stop_line(g: MailGames) -> None:
    """The closing line for strangers ('reply stop and never hear again') is not for a player whose game
    is paused."""
    player = g.mover()[0]
    assert g.pbem("pause", "m1").exit_code == 0
    g.outbox.skip()
    _, sent = run(g, player_mail(address(player), "games\n"))
    assert len(sent) == 1 and NEVER_AGAIN not in text(sent[0]) and "m1" in text(sent[0])


# -- an address that holds no seat is told where to write from ------------------------------------------------

NO_SEAT = ("could not be used: this address plays no game here.\n\n"
           "pbem reads your orders only from the address you were invited with\n"
           "(or joined with): a mail from another address proves nothing, even\n"
           "with your token. Write from that address, or ask the GM to change\n"
           "your seat's address to this one with 'pbem replace'.\n")


def _from_elsewhere(g: MailGames, player: str, body: str, **kw: Any) -> bytes:
    report = g.last_report(player)
    refs = str(report.get("References", "")).split() + [str(report["Message-ID"])]
    return player_mail("anna.home@elsewhere.test", body, subject=f"Re: {report['Subject']}",
                       in_reply_to=str(report["Message-ID"]), references=refs, **kw)


@pytest.mark.parametrize("form", ["markers and token", "his own lines", "turn file"])
def test_a_reply_from_an_address_that_holds_no_seat_is_told_where_to_write_from(g: MailGames, form: str) -> None:
    """A player replies to his report from his other address, as the help tells him (marker lines and his
    token), or with his order alone, or with a turn file: he is answered, never told which address the
    seat has, and nothing is queued; a second such mail that day is not answered, and the run says why."""
    player = g.mover()[0]
    order = legal(g, player)
    body = {"markers and token": lambda: order_body(g.tokens[player], [order], quoted=text(g.last_report(player))),
            "his own lines": lambda: f"{order}\n",
            "turn file": lambda: "my orders\n"}[form]()
    attached = [("turn.yaml", turn_file("m1", player, g.tokens[player], g.state()["engine"]["turn"],
                                        [g.legal_order(player)]))] if form == "turn file" else []
    lines, sent = run(g, _from_elsewhere(g, player, body, attachments=attached))
    assert len(lines) == 1 and lines[0].startswith("m1: mail from anna.home@elsewhere.test: refused"), lines
    assert [to(m) for m in sent] == ["anna.home@elsewhere.test"]
    said = text(sent[0])
    assert " ".join(NO_SEAT.split()) in " ".join(said.split()) and said.endswith(NEVER_AGAIN), said
    assert "players.test" not in said and g.tokens[player] not in str(sent[0])
    assert all(len(line) <= 72 for line in said.splitlines())
    assert g.queued() == []
    lines, sent = run(g, _from_elsewhere(g, player, body.replace(order, f"{order}\n"), attachments=attached))
    assert sent == [] and lines[0].endswith("(not answered: an address that plays no game here hears from pbem "
                                            "once a day)"), lines


@pytest.mark.parametrize("lang, said", [("de", "konnte nicht verwendet werden: Mit dieser Adresse spielst du hier\n"
                                                "keine Partie."),
                                        ("nl", "kon niet worden gebruikt: met dit adres speel je hier geen partij.")])
def test_the_no_seat_answer_is_in_the_host_s_language(pbem: Pbem, lang: str, said: str) -> None:
    """No seat, no words that tell a language: the host's."""
    g = started_game(pbem)
    g.extra["language"] = lang
    g.write_config()
    player = g.mover()[0]
    lines, sent = run(g, _from_elsewhere(g, player, order_body(g.tokens[player], [legal(g, player)])))
    assert len(sent) == 1 and " ".join(said.split()) in " ".join(text(sent[0]).split()), text(sent[0])
    assert "pbem replace" in text(sent[0])
    assert all(len(line) <= 72 for line in text(sent[0]).splitlines())


def test_the_no_seat_answer_is_in_the_language_of_his_words(g: MailGames) -> None:
    """His own words in German (`hilfe`) from an address that holds no seat: answered in German."""
    player = g.mover()[0]
    _, sent = run(g, _from_elsewhere(g, player, "hilfe\n"))
    assert len(sent) == 1 and "Mit dieser Adresse spielst du hier keine Partie." in " ".join(text(sent[0]).split()), \
        text(sent[0])
    assert "\n  Adresse." not in text(sent[0])  # the closing line wrapped once, at the margin


# -- a mail read once ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["order", "refused order", "fresh mail", "stranger's games"])
def test_one_mail_is_read_once_for_its_handling(g: MailGames, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """Its parts, its texts and the kinds of its body's lines are read once, however many steps of the
    run ask for them (before: a reply's parts were read ten times, its body's lines nine)."""
    import pbem.mail.incoming as incoming
    import pbem.mail.own_text as own_text

    player = g.mover()[0]
    report = g.last_report(player)
    raw = {"order": lambda: threaded_reply(report, player, legal(g, player)),
           "refused order": lambda: threaded_reply(report, player, "bid: 99999"),
           "fresh mail": lambda: player_mail(address(player), "hello\n"),
           "stranger's games": lambda: player_mail("x@far.test", "games\n")}[kind]()
    calls: Counter[str] = Counter()
    for module, name in ((incoming, "parts"), (incoming, "mail_texts"), (own_text, "_header_block")):
        def counting(*args: Any, _real: Any = getattr(module, name), _name: str = name, **kw: Any) -> Any:
            calls[_name] += 1
            return _real(*args, **kw)
        monkeypatch.setattr(module, name, counting)
    getattr(own_text.line_kinds, "cache_clear", lambda: None)()  # (no body read before counts)
    lines, sent = run(g, raw)
    assert len(lines) == 1 and sent, lines
    assert calls["parts"] == 1 and calls["mail_texts"] == 1, (calls, lines)
    run_reads = calls["_header_block"]
    calls.clear()
    own_text.line_kinds.cache_clear()
    own_text.line_kinds(incoming.parts(incoming.read_mail(raw).message)[1] or "")
    assert run_reads == calls["_header_block"] > 0, (run_reads, calls)  # the body's lines, read once


def test_a_mails_headers_read_as_the_default_policy_reads_them_parsed_once() -> None:
    """Each header of a mail read reads as the email package's default policy reads it (its text, its
    kind, its addresses, its parameters, its defects); asked again it is not parsed again; and no
    mail shares the headers another parsed."""
    import email
    import email.policy
    from email.headerregistry import HeaderRegistry
    from pathlib import Path

    from pbem.mail.incoming import read_mail

    corpus = sorted((Path(__file__).parent / "fixtures" / "replies").glob("*.eml"))
    assert len(corpus) > 100
    raws = [p.read_bytes() for p in corpus] + [
        b"From: =?utf-8?q?J=C3=B6rg?= <j@x.test>, b@x.test\nTo: <<bad\nContent-Type: text/plain; charset=\"utf-8\"\n"
        b"Subject: =?utf-8?b?w5Zs?=\n\nhi\n"]
    for raw in raws:
        mail = read_mail(raw)
        plain = email.message_from_bytes(raw, policy=email.policy.default)
        for part, same in zip(mail.message.walk(), plain.walk()):
            for name in set(part.keys()):
                ours, theirs = part.get_all(name), same.get_all(name)
                assert [str(h) for h in ours] == [str(h) for h in theirs], name
                assert [type(h).__mro__[1:] for h in ours] == [type(h).__mro__[1:] for h in theirs], name
                assert [len(h.defects) for h in ours] == [len(h.defects) for h in theirs], name
                for h, t in zip(ours, theirs):
                    assert getattr(h, "addresses", None) == getattr(t, "addresses", None), name
                    assert getattr(h, "params", None) == getattr(t, "params", None), name
            assert part.get_content_type() == same.get_content_type()
            assert part.get_filename() == same.get_filename()
    mail = read_mail(raws[-1])  # (reading it parsed its From: and its Content-Type, not yet its To:)
    parsed = [0]
    real = HeaderRegistry.__call__

    def parsing(self: HeaderRegistry, name: str, value: str) -> Any:
        parsed[0] += 1
        return real(self, name, value)

    try:
        HeaderRegistry.__call__ = parsing  # type: ignore[method-assign]
        first = [mail.message.get_content_type(), str(mail.message["To"]), str(mail.message["From"])]
        once = parsed[0]
        for _ in range(5):
            assert [mail.message.get_content_type(), str(mail.message["To"]), str(mail.message["From"])] == first
        assert parsed[0] == once == 1
        assert mail.message["From"] is mail.message["From"]
        assert read_mail(raws[-1]).message["From"] is not mail.message["From"]
    finally:
        HeaderRegistry.__call__ = real  # type: ignore[method-assign]
