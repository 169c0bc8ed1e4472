"""A short Medina mail with the board scores as a long one: its answer to `status` from a player who
waits, and a mail of one line with the board, each with an HTML part well under SpamAssassin's 3,200
bytes, score at most 1.0 without padding; the same mail showing its picture by an <img> would not."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import datetime, timezone
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, address
from test_mail_hardening import new_game
from test_reply_keys import latest, reply
from test_spam import MOST, Scorer, at, needs_spamassassin, scorer  # noqa: F401 (the fixture)

IMAGE_ONLY = "HTML_IMAGE_ONLY"  # SpamAssassin's rules of an <img> in HTML of at most 3,200 bytes, tags and all


def one_line_mail(pbem: Pbem, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, Any]:
    """The shortest mail with a picture pbem's compose writes: a line of text and the board; and the
    Picture (a new Medina game's board, as anna may see it)."""
    from pbem.config import Config
    from pbem.mail.compose import compose
    from pbem.mail.run import board_picture

    at(monkeypatch, datetime.now(timezone.utc).replace(microsecond=0))
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    new_game(g, "medina", ("anna", "ben", "cleo"), "g1")
    picture = board_picture(g.gd.load("g1"), "anna")
    assert picture is not None
    config = Config(root=pbem.games, gm_name="Game Master", gm_address="gm@pbem.test")
    msg = compose(config, "anna", address("anna"), "[pbem] g1 turn 1: your move", "YOUR MOVE: palace grey X\n",
                  "<pbem.g1.anna.9.t1@pbem.test>", date=datetime.now(timezone.utc), picture=picture)
    return msg.as_bytes(), picture


@needs_spamassassin
def test_the_shortest_mails_with_a_picture_score_as_a_long_one(pbem: Pbem, monkeypatch: pytest.MonkeyPatch,
                                                               scorer: Scorer) -> None:
    """Medina's answer to `status` from a player who waits (his report without an order block, its
    city left to the picture) and a mail of one line with the board score at most 1.0, as a long
    report does, with nothing added to them: the HTML does not show the picture by an <img>."""
    raw, _ = one_line_mail(pbem, monkeypatch)
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.outbox.skip()
    waiting = "cleo"
    assert waiting not in g.pbem.show("g1")["waiting_for"]
    g.inbox.deliver(reply(latest(g, waiting), waiting, "status\n"))
    r = g.advance()
    (answer_,) = [m for m in g.outbox.new() if any(p.get_content_maintype() == "image" for p in m.walk())]
    markup = answer_.get_body(("html",)).get_content()
    assert "Your latest report" in answer_.get_body(("plain",)).get_content(), r.output
    one_line = email.message_from_bytes(raw, policy=email.policy.default).get_body(("html",)).get_content()
    assert len(one_line) < len(markup) <= 3200  # both in the range of HTML_IMAGE_ONLY_*, had they an <img>
    for mail in (raw, answer_.as_bytes()):
        score = scorer.score(mail)
        assert score.points <= MOST and not any(rule.startswith(IMAGE_ONLY) for rule in score.rules), score


@needs_spamassassin
def test_a_short_html_part_showing_the_picture_would_score_as_spam(pbem: Pbem, monkeypatch: pytest.MonkeyPatch,
                                                                   scorer: Scorer) -> None:
    """Why the picture is a part of its own: the same one-line mail, its HTML showing the picture by
    its Content-ID in multipart/related (as most HTML mail does, and pbem did), scores HTML_IMAGE_ONLY_*,
    over 1.0 on its own."""
    raw, picture = one_line_mail(pbem, monkeypatch)
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    alternative = msg.get_payload()[0]
    html_part = alternative.get_payload()[1]
    head, body = re.split(r"(?<=<body )", html_part.get_content(), maxsplit=1)
    body = body.replace(">", f'><img src="cid:board@pbem.test" alt="{picture.alt}" width="340">', 1)
    html_part.set_content(head + body, subtype="html")
    html_part.add_related(picture.png, maintype="image", subtype="png", cid="<board@pbem.test>")
    msg.set_payload([alternative])
    score = scorer.score(msg.as_bytes())
    assert score.points > MOST and any(rule.startswith(IMAGE_ONLY) for rule in score.rules), score
