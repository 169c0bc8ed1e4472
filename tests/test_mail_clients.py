"""Games by mail as real mail clients send the players' orders, through a Maildir inbox, `.eml` files out
and `pbem advance` run as the GM runs it: each order goes back in the shape of one client or another,
answering the player's latest report. Gmail (HTML only, the report in a blockquote, `&nbsp;` after the
colon), Apple Mail (plain and HTML, the report quoted below), Outlook (top-posted above an unquoted copy
of the report under a "From:" header), a phone (capitalised, autocorrected quotes, a full stop), an
attached turn file, and the plain bottom-quoted reply. Every mail must be queued and acknowledged, none
refused; the game must take exactly the orders sent; every mail pbem sent must fit 72 columns.
"""

from __future__ import annotations

import html
import random
from typing import Any, Callable

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, address, player_mail, quote, turn_file
from rooms import GAMES, room
from pbem import bots
from pbem.report import BEGIN, END
from pbem.rules.base import order_text
from test_mail_hardening import new_game

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

NBSP = "\u00a0"
DECISIONS = 36  # per game: every client several times over, in each kind of decision of the game's start


class Reply:
    """What a client needs to answer a report: the report mail, the token, the order and its turn."""

    def __init__(self, report: Any, player: str, token: str, order: Any, turn: int, game: str) -> None:
        self.report, self.player, self.token, self.order, self.turn, self.game = report, player, token, order, turn, game
        self.text = report.get_body(("plain",)).get_content().replace("\r\n", "\n")
        self.line = order_text(order)  # as the player writes it: `bid: 7`, `{load: 4, harbour: B}`

    def send(self, body: str | None, **kw: Any) -> bytes:
        refs = str(self.report.get("References", "")).split() + [str(self.report["Message-ID"])]
        return player_mail(address(self.player), body, in_reply_to=str(self.report["Message-ID"]), references=refs,
                           subject=f"Re: {self.report['Subject']}", **kw)


def plain_bottom(r: Reply) -> bytes:
    body = f"Here we go.\n\n{BEGIN}\ntoken: {r.token}\n{r.line}\n{END}\n\n-- \nAnna\n\n" \
           f"On Sat, 21 Nov 2026 at 12:00, Game Master <gm@pbem.test> wrote:\n{quote(r.text)}\n"
    return r.send(body)


def gmail_html(r: Reply) -> bytes:
    rows = "".join(f"<div>{html.escape(line).replace(' ', '&nbsp;', 1)}</div>"
                   for line in (BEGIN, f"token: {r.token}", r.line, END))
    markup = (f'<div dir="ltr"><div>Moving now</div>{rows}<div><br></div></div><br><div class="gmail_quote">'
              f'<div dir="ltr" class="gmail_attr">On Sat, Nov 21, 2026 at 12:00 PM Game Master &lt;gm@pbem.test&gt; '
              f'wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">'
              f"<pre>{html.escape(r.text)}</pre></blockquote></div>")
    return r.send(None, html=markup)


def apple_mail(r: Reply) -> bytes:
    plain = f"{BEGIN}\ntoken: {r.token}\n{r.line}\n{END}\n\n> On 21 Nov 2026, at 12:00, Game Master " \
            f"<gm@pbem.test> wrote:\n> \n{quote(r.text)}\n"
    markup = (f"<html><body><div>{BEGIN}</div><div>token: {r.token}</div><div>{html.escape(r.line)}</div>"
              f"<div>{END}</div><blockquote type=\"cite\"><pre>{html.escape(r.text)}</pre></blockquote></body></html>")
    return r.send(plain, html=markup)


def outlook_top(r: Reply) -> bytes:
    body = f"{BEGIN}\ntoken: {r.token}\n{r.line}\n{END}\n\n________________________________\n" \
           f"From: Game Master <gm@pbem.test>\nSent: Saturday, November 21, 2026 12:00 PM\n" \
           f"To: {r.player}\nSubject: {r.report['Subject']}\n\n{r.text}\n"
    return r.send(body)


def phone(r: Reply) -> bytes:
    line = r.line[:1].upper() + r.line[1:]
    body = f"{BEGIN}\nToken:{NBSP}\u201c{r.token}\u201d\n{line}.\n{END}\n\nSent from my phone\n"
    return r.send(body)


def attached(r: Reply) -> bytes:
    return r.send("My orders are attached.\n", attachments=[("turn.yaml", turn_file(r.game, r.player, r.token, r.turn,
                                                                                     [r.order]))])


CLIENTS: list[Callable[[Reply], bytes]] = [plain_bottom, gmail_html, apple_mail, outlook_top, phone, attached]


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


@pytest.mark.parametrize("ruleset", GAMES)
def test_a_game_by_mail_from_every_client(g: MailGames, ruleset: str) -> None:
    tokens = new_game(g, ruleset, room(ruleset).PLAYERS)
    rnd = random.Random(f"clients-{ruleset}")
    sent: list[tuple[str, Any]] = []
    used = set()
    for n in range(DECISIONS):
        shown = g.pbem.show("g1")
        if shown["status"] != "active":
            break
        player = shown["waiting_for"][0]
        seen = g.pbem.show("g1", player)
        order = bots.choose(ruleset, seen["view"], player, seen["legal_orders"])
        client = CLIENTS[n % len(CLIENTS)] if n < len(CLIENTS) else rnd.choice(CLIENTS)
        used.add(client.__name__)
        g.inbox.deliver(client(Reply(g.last_report(player), player, tokens[player], order, seen["turn"], "g1")))
        r = g.advance()
        queued = [line for line in r.output.splitlines() if line.startswith("g1: mail ")]  # each names its game first
        assert queued == [f"g1: mail from {address(player)}: g1 turn {seen['turn']}: queued {order_text(order)}"], \
            (client.__name__, r.output)
        sent.append((player, order))
    assert used == {c.__name__ for c in CLIENTS}
    log = g.state("g1")["log"]
    assert [(e["player"], e["order"]) for e in log if e.get("by") is None][:len(sent)] == sent
    mails = g.outbox.all()
    assert sum(str(m["Message-ID"]).startswith("<pbem.reply.") for m in mails) == len(sent)  # one ack a mail
    wide = [(str(m["Subject"]), line) for m in mails
            for line in m.get_body(("plain",)).get_content().replace("\r\n", "\n").splitlines() if len(line) > 72]
    assert wide == []
