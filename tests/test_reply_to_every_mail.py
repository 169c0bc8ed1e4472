"""Every kind of mail pbem sends a player in a game (welcome, report, acknowledgement, each refusal, the
reminder, each command's answer) is answered by his next order alone on a line above the quote, as
real clients quote it: `> ` lines under an attribution, an Outlook header block over an unquoted copy,
and Gmail's HTML blockquote. The order is applied; the quoted mail (which may show orders, marker lines
and examples) is never read for it. A keyed reply with no order of his own is told to write his order
alone on a line, and what he may send now."""

from __future__ import annotations

import html
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

import pytest

from conftest import Pbem
from conftest_mail import GM, FilesOut, MaildirDrop, MailGames, address, player_mail, quote
from pbem import bots
from benchmarks.bench import spoken
from pbem.report import BEGIN, END
from pbem.rules.base import order_text
from test_mail_hardening import new_game
from test_reply_keys import answers, latest, mail_lines, plain, reply

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def g(pbem: Pbem, monkeypatch: pytest.MonkeyPatch) -> MailGames:
    monkeypatch.setenv("PBEM_NOW", T0.isoformat())
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


def quoted_plain(answered: Any, player: str, line: str) -> bytes:
    body = f"{line}\n\nOn Sat, 21 Nov 2026 at 12:00, Game Master <{GM}> wrote:\n{quote(plain(answered))}\n"
    return reply(answered, player, body)


def outlook_copy(answered: Any, player: str, line: str) -> bytes:
    body = (f"{line}\n\n________________________________\nFrom: Game Master <{GM}>\n"
            f"Sent: Saturday, November 21, 2026 12:00 PM\nTo: {player}\nSubject: {answered['Subject']}\n\n"
            f"{plain(answered)}\n")
    return reply(answered, player, body)


def gmail_html(answered: Any, player: str, line: str) -> bytes:
    markup = (f'<div dir="ltr">{html.escape(line)}</div><br><div class="gmail_quote"><div dir="ltr" '
              f'class="gmail_attr">On Sat, Nov 21, 2026 at 12:00\u202fPM Game Master &lt;{GM}&gt; wrote:<br></div>'
              f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex"><pre>'
              f"{html.escape(plain(answered))}</pre></blockquote></div>")
    return reply(answered, player, None, html=markup)


FORMS: list[Callable[[Any, str, str], bytes]] = [quoted_plain, outlook_copy, gmail_html]


def next_order(g: MailGames, game: str = "g1") -> tuple[str, Any]:
    shown = g.pbem.show(game)
    player = shown["waiting_for"][0]
    seen = g.pbem.show(game, player)
    return player, bots.choose("medici", seen["view"], player, seen["legal_orders"])


def answer_with_the_order(g: MailGames, answered: Any, form: Callable[[Any, str, str], bytes], kind: str) -> None:
    """The mover replies to `answered` with his next order alone on a line: it is queued and applied."""
    player, order = next_order(g)
    log = len(g.state("g1")["log"])
    g.inbox.deliver(form(answered, player, spoken(order)))
    r = g.advance()
    assert [line for line in mail_lines(r.output) if ": queued " in line], (kind, form.__name__, r.output)
    assert g.state("g1")["log"][log]["order"] == order, (kind, form.__name__)


def mover_mail(g: MailGames) -> tuple[str, Any]:
    player, _ = next_order(g)
    return player, latest(g, player)


@pytest.mark.parametrize("form", FORMS, ids=[f.__name__ for f in FORMS])
def test_every_mail_of_a_game_is_answered_by_the_order_alone(g: MailGames, form: Callable[[Any, str, str], bytes],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"), "g1", "--deadline", "48h")
    player, _ = next_order(g)
    welcome = g.welcome[player]
    answer_with_the_order(g, welcome, form, "welcome")

    player, report = mover_mail(g)  # the report of the decision now (or the ack, when he moves again)
    answer_with_the_order(g, report, form, "report")

    player, _ = next_order(g)
    g.outbox.skip()
    # each command's answer, then the refusals, each answered with the order
    for word in ("help", "status", "games", "standing"):
        g.inbox.deliver(reply(latest(g, player), player, f"{word}\n"))
        g.advance()
        (answer,) = answers(g)
        answer_with_the_order(g, answer, form, word)
        player, _ = next_order(g)
        g.outbox.skip()

    # a refusal of a line that is no order: it lists what he may send now
    g.inbox.deliver(reply(latest(g, player), player, "When is the next auction?\n"))
    g.advance()
    (refused,) = answers(g)
    assert "What you may send now" in plain(refused)
    answer_with_the_order(g, refused, form, "reply-refused")

    # a refusal that quotes the marker-line example (his marker lines had no end), answered with the order
    player, _ = next_order(g)
    g.outbox.skip()
    g.inbox.deliver(reply(latest(g, player), player, f"{BEGIN}\ndraw\n"))
    g.advance()
    (refused,) = answers(g)
    assert f"{BEGIN}\ntoken: YOUR-TOKEN" in plain(refused)
    answer_with_the_order(g, refused, form, "mail-error")

    # the acknowledgement, where the same player moves again (the auctioneer who drew may draw again)
    for _ in range(12):
        player, _ = next_order(g)
        g.outbox.skip()
        answer_with_the_order(g, latest(g, player), form, "report")
        acks = [m for m in answers(g) if "were received" in plain(m)]
        if next_order(g)[0] == player and acks:
            answer_with_the_order(g, acks[-1], form, "ack")
            break
    else:
        raise AssertionError("no player moved twice in a row")

    # undo's answer
    player, _ = next_order(g)
    g.outbox.skip()
    g.inbox.deliver(quoted_plain(latest(g, player), player, "undo"))
    g.advance()
    (answer,) = answers(g)
    player, _ = next_order(g)
    answer_with_the_order(g, answer if answer["To"].addresses[0].addr_spec == address(player)
                          else latest(g, player), form, "undo")

    # the reminder before the deadline
    player, _ = next_order(g)
    monkeypatch.setenv("PBEM_NOW", (T0 + timedelta(hours=200)).isoformat())
    g.outbox.skip()
    g.advance()
    reminders = [m for m in g.outbox.new() if "remind" in str(m["Message-ID"]) and
                 m["To"].addresses[0].addr_spec == address(player)]
    assert reminders
    answer_with_the_order(g, reminders[-1], form, "reminder")


def test_a_reply_to_the_marker_line_refusal_with_draw_on_the_first_line_is_applied(g: MailGames) -> None:
    """A refusal that quotes the marker-line example, answered with the order alone on the first line,
    from his address under his own key, is applied: the quote is looked at only when his own text gives
    no order, even when the example in it looks filled in with his token."""
    tokens = new_game(g, "medici", ("anna", "ben", "cleo"))
    mover, order = next_order(g)
    g.outbox.skip()
    g.inbox.deliver(reply(latest(g, mover), mover, f"{BEGIN}\n{spoken(order)}\n"))
    g.advance()
    (refusal,) = answers(g)
    assert f"{BEGIN}\ntoken: YOUR-TOKEN\n" in plain(refusal) and END in plain(refusal)
    filled = plain(refusal).replace("YOUR-TOKEN", tokens[mover])
    body = f"{spoken(order)}\n\nOn Sat, 21 Nov 2026 at 12:00, Game Master <{GM}> wrote:\n{quote(filled)}\n"
    log = len(g.state("g1")["log"])
    g.inbox.deliver(reply(refusal, mover, body))
    r = g.advance()
    assert [line for line in mail_lines(r.output) if ": queued " in line], r.output
    assert g.state("g1")["log"][log]["order"] == order


@pytest.mark.parametrize("body", ["", "Hi,\n", "On Sat, GM wrote:\n> draw\n"], ids=["nothing", "greeting", "in-quote"])
def test_a_keyed_reply_without_an_order_of_its_own_is_told_the_order_alone_and_what_he_may_send(
        g: MailGames, body: str) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"))
    player, _ = next_order(g)
    report = latest(g, player)
    g.outbox.skip()
    text = body if "wrote" not in body else f"On Sat, 21 Nov 2026 at 12:00, Game Master <{GM}> wrote:\n" \
        + quote(plain(report).replace("#  - draw", "  - draw")) + "\n"
    g.inbox.deliver(reply(report, player, text))
    g.advance()
    (refused,) = answers(g)
    told = plain(refused)
    assert "What you may send now, as a reply to this mail, alone on a line:\n  - draw\n" in told
    assert "alone" in told and "YOUR-TOKEN" not in told and BEGIN not in told
    assert g.queued("g1") == []


def test_the_acknowledgement_names_the_lines_passed_over_in_his_language(g: MailGames) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"))
    player, order = next_order(g)
    g.outbox.skip()
    g.inbox.deliver(quoted_plain(latest(g, player), player, f"{spoken(order)}\nBob"))
    r = g.advance()
    assert [line for line in mail_lines(r.output) if ": queued " in line], r.output
    (ack,) = answers(g)
    assert ("I passed over the lines below your orders, as they are no orders:\n\n  'Bob'\n\n"
            "If one of them was an order, reply undo and send your orders again.\n") in plain(ack)


@pytest.mark.parametrize("line, meant", [("bdi 7", "bid"), ("drwa", "draw"), ("auctoin", "auction")])
def test_a_near_miss_of_an_order_word_is_refused_with_the_word_meant(g: MailGames, line: str, meant: str) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"))
    player, _ = next_order(g)
    g.outbox.skip()
    g.inbox.deliver(quoted_plain(latest(g, player), player, f"{line}\nBob"))
    r = g.advance()
    word = line.split()[0]
    assert mail_lines(r.output) == [f"mail from {address(player)}: refused: order line 1 ('{line}'): the word '{word}' is "
                                    f"not an order word; did you mean '{meant}'?"]
    assert g.queued("g1") == []


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_the_new_sentences_are_in_german_and_dutch(lang: str) -> None:
    from pbem.i18n import translator
    from pbem.refusals import at, refuse
    from pbem.report import refusal_text

    words = translator(lang)
    for text in ("I passed over the lines below your orders, as they are no orders:",
                 "If one of them was an order, reply undo and send your orders again."):
        assert words.gettext(text) not in ("", text)
    for n in (1, 2):
        more = words.ngettext("and %(n)s more line", "and %(n)s more lines", n)
        assert more not in ("", "and %(n)s more line", "and %(n)s more lines")
        assert more != words.ngettext("and %(n)s more line", "and %(n)s more lines", 3 - n)  # one, and more
    near_miss = refuse("not-an-order-word", word="'bdi'", meant="'bid'")
    told = refusal_text(at(refuse("order-line", n=1, order="'bdi 7'"), near_miss), lang, "medici")
    assert told == {"de": "Befehlszeile 1 ('bdi 7'): das Wort 'bdi' ist kein Befehlswort; meintest du 'bieten'?",
                    "nl": "orderregel 1 ('bdi 7'): het woord 'bdi' is geen orderwoord; bedoelde je 'bieden'?"}[lang]


@pytest.mark.parametrize("top, below, queued", [
    ("Hi,", "draw", "draw"),  # a greeting above the quote, the order below it
    ("draw", "auction", "draw"),  # his order above: a line under the quote never adds to it
], ids=["greeting-above", "order-above"])
def test_lines_below_a_top_posted_quote_count_only_when_none_above_give_an_order(
        g: MailGames, top: str, below: str, queued: str) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"))
    player, _ = next_order(g)
    report = latest(g, player)
    body = f"{top}\n\nOn Sat, 21 Nov 2026 at 12:00, Game Master <{GM}> wrote:\n{quote(plain(report))}\n\n{below}\n"
    g.inbox.deliver(reply(report, player, body))
    r = g.advance()
    assert [line.split(": queued ")[1] for line in mail_lines(r.output) if ": queued " in line] == [queued], r.output


@pytest.mark.parametrize("name", ["Drew", "-Walt", "Bob"])
def test_a_name_under_the_order_is_passed_over_even_when_it_is_near_an_order_word(g: MailGames, name: str) -> None:
    new_game(g, "medici", ("anna", "ben", "cleo"))
    player, order = next_order(g)
    g.outbox.skip()
    g.inbox.deliver(quoted_plain(latest(g, player), player, f"{spoken(order)}\n{name}"))
    r = g.advance()
    assert [line.split(": queued ")[1] for line in mail_lines(r.output) if ": queued " in line] == [order_text(order)]
    (ack,) = answers(g)
    assert f"  '{name}'\n" in plain(ack)
