"""Hundreds of replies made at random (tests/reply_generator.py: clients' shapes, languages, orders and
what surrounds them) read through pbem's real intake: the own text found is what the player wrote, the
order applied is exactly the one he typed, and no line of a quote or signature is ever taken as an
order. Some go all the way through `pbem advance` over a Maildir, in a real game."""

from __future__ import annotations

import collections
import email
import email.policy
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, address
from pbem import bots
from benchmarks.bench import spoken
from pbem.errors import TurnFileError
from pbem.mail.incoming import parts, read_mail
from pbem.mail.orders import orders_in
from pbem.mail.html import html_to_text
from pbem.mail.own_text import own_text, typed
from pbem.mail.seats import Proven
from pbem.turnfile import check_orders
from reply_generator import LISTED, MAIN, Reply, generate
from test_mail_hardening import new_game

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

SEED = "reply-generator-seed-0001"
MAILS = 600


def own_lines(raw: bytes) -> list[str]:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    _, plain, markup = parts(msg)  # type: ignore[arg-type]
    text = plain if plain is not None else html_to_text(markup or "")
    return [line for line in map(typed, own_text(text).split("\n")) if line]


def test_the_generator_makes_every_shape_in_every_language_from_its_seed() -> None:
    replies = generate(SEED, MAILS)
    assert [r.plain or r.markup for r in replies] == [r.plain or r.markup for r in generate(SEED, MAILS)]
    assert {r.language for r in replies} >= {*MAIN, *LISTED}
    assert len({r.shape for r in replies}) >= 20
    assert {r.tail for r in replies} >= {"none", "signature", "name", "closing", "phone", "banner"}


def test_the_own_text_of_every_generated_reply_is_what_the_player_wrote() -> None:
    wrong = [(r.shape, r.language, r.tail, own_lines(r.mail()), r.own) for r in generate(SEED, MAILS)
             if own_lines(r.mail()) != [typed(line) for line in r.own]]
    assert wrong == []


def _canonical(order: Any) -> Any:
    orders = [order]
    check_orders(orders, "medici.orders")
    return orders[0]


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


def test_each_generated_reply_gives_exactly_its_order_through_the_intake(g: MailGames) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"))
    player, turn = g.mover("g1")
    report = g.last_report(player)
    text = report.get_body(("plain",)).get_content()
    proven = Proven(g.state("g1"), player, turn)
    applied: collections.Counter[str] = collections.Counter()
    sent: collections.Counter[str] = collections.Counter()
    misread = []
    for reply in generate(SEED, MAILS, report=text, subject=str(report["Subject"])):
        sent[reply.language] += 1
        mail = read_mail(reply.mail(report, sender=address(player)))
        try:
            turnfile, data = orders_in(mail, proven)
        except TurnFileError as exc:
            misread.append((reply.shape, reply.language, reply.line, reply.extras, str(exc)))
            continue
        orders = [_canonical(o) for o in turnfile.get("orders", [])]
        # never an order he did not write: exactly his one order, whatever else the mail holds
        assert orders == [_canonical(reply.order)], (reply.shape, reply.language, reply.plain or reply.markup)
        passed = getattr(data, "passed", [])
        assert all(line in reply.extras for line in passed), (passed, reply.extras)
        applied[reply.language] += 1
    for lang in MAIN:
        assert applied[lang] >= 0.98 * sent[lang], (lang, misread)
    for lang in LISTED:
        assert applied[lang] >= 0.90 * sent[lang], (lang, misread)
    assert misread == []


def test_a_game_by_generated_replies_through_pbem_advance(g: MailGames) -> None:
    tokens = new_game(g, "medici", ("anna", "ben", "cleo"))
    assert tokens
    sent = []
    for n in range(30):
        shown = g.pbem.show("g1")
        if shown["status"] != "active":
            break
        player = shown["waiting_for"][0]
        seen = g.pbem.show("g1", player)
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        report = g.last_report(player)
        reply: Reply = generate(f"{SEED}-{n}", 1, report=report.get_body(("plain",)).get_content(),
                                subject=str(report["Subject"]), orders=[(spoken(order), order)])[0]
        g.inbox.deliver(reply.mail(report, sender=address(player)))
        r = g.advance()
        queued = [line for line in r.output.splitlines() if "mail from " in line]
        assert len(queued) == 1 and ": queued " in queued[0], (reply.shape, reply.language, r.output)
        sent.append((player, order))
    log = g.state("g1")["log"]
    assert [(e["player"], e["order"]) for e in log if e.get("by") is None][:len(sent)] == sent
    assert len(sent) == 30


def test_each_fixture_reply_gives_exactly_its_order_through_the_intake(g: MailGames) -> None:
    """Every reply of tests/fixtures/replies that names its order (X-Expected-Order) gives that order and
    nothing else, as the order alone on a line would; a name under it is passed over and said so."""
    import json
    from pathlib import Path

    from reply_generator import PLAYER

    new_game(g, "medici", ("anna", "ben", "cleo"))
    player, turn = g.mover("g1")
    proven = Proven(g.state("g1"), player, turn)
    checked = 0
    for path in sorted((Path(__file__).parent / "fixtures" / "replies").glob("*.eml")):
        raw = path.read_bytes()
        expected = email.message_from_bytes(raw, policy=email.policy.default)["X-Expected-Order"]
        if expected is None:
            continue
        line = json.loads(str(expected))
        alone = read_mail(Reply("alone", "", "en", "", None, [], "").mail())  # a mail is read once: a new one each
        alone.message.set_content(line)
        want = [_canonical(o) for o in orders_in(alone, proven)[0]["orders"]]
        turnfile, data = orders_in(read_mail(raw.replace(PLAYER[1].encode(), address(player).encode())), proven)
        assert [_canonical(o) for o in turnfile["orders"]] == want, path.name
        if path.stem == "signature-bare-name":
            assert data.passed == ["Bob"]  # type: ignore[attr-defined]
        checked += 1
    assert checked >= 150
