"""Report mails carry a picture of the board: multipart/alternative of the text report (unchanged: every
reader and pbem's own order parsing take it) and multipart/related of an HTML part (the same text's
words as HTML, for a phone, with the buttons of the move) and the board drawn for a phone, which the
HTML shows under the move by `cid:`. (A short HTML leaves the picture to an inline part after the text:
see tests/test_mail_buttons.py.) Sent through a real SMTP server (aiosmtpd), parsed back by the stdlib
email parser. A player's reply to such a mail, quoted as text or as HTML, gives exactly the orders it
gave before.
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import (GM, PLAYERS, FilesOut, MaildirDrop, MailGames, SmtpOut, address, order_body,
                           order_html, order_line, parse, player_mail, player_of, quote)
from mailservers import SmtpServer, certs, smtp  # noqa: F401
from pbem import pictures
from pbem.mail.incoming import read_mail
from pbem.mail.orders import find_orders
from pbem.mail.phone import phone_board_svg
from pbem.pictures import board_png
from pbem.report import BEGIN, END
from test_mail_phone import RELATED, html_words, picture_in, without_buttons, words_of
from test_pictures import decode_png


def plain_of(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def structure(msg: EmailMessage) -> list[str]:
    return [part.get_content_type() for part in msg.walk()]


def picture_of(msg: EmailMessage) -> tuple[str, bytes]:
    """The HTML part of a report mail and its picture, the one image: shown by the HTML by `cid:`, or
    (a short HTML) an inline part after the text that the HTML does not reference; it says what it
    shows."""
    html, image = picture_in(msg)
    assert image.get_content_type() == "image/png" and image.get_content_disposition() == "inline"
    assert image["Content-Transfer-Encoding"] == "base64"
    assert re.fullmatch(r"[\w-]+-turn-\d+\.png", image.get_filename())
    assert str(image["Content-Description"]).startswith("The board of ")
    return html, image.get_content()


def start(g: MailGames, game: str = "m1") -> dict[str, EmailMessage]:
    """A new Medici game by mail; each player's welcome mail (its token read from the text part)."""
    g.new(game)
    return dict(g.welcome)


def check_report_mail(msg: EmailMessage, state: dict[str, Any], player: str, report: str) -> int:
    """A report mail: its parts, the text unchanged, the picture the one `player` may see. Its size."""
    assert structure(msg) == RELATED
    plain = plain_of(msg)
    assert report in plain
    html, png = picture_of(msg)
    # the HTML part shows the plain part's words and no other (but for the buttons of the move), its
    # order block the very lines
    assert html_words(without_buttons(html)) == words_of(plain)
    assert (BEGIN in plain) == (f"{BEGIN}\n" in html and f"\n{END}</pre>" in html)
    width, height, _ = decode_png(png)
    assert width == 720 and 600 < height < 3200  # the board for a phone, drawn at twice its size
    assert png == board_png(phone_board_svg(state, player))  # his own view, and the same bytes again
    return len(msg.as_bytes())


def test_welcome_and_report_mails_through_smtp_carry_the_board(pbem: Pbem, smtp: SmtpServer,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_TEST_SMTP_PW", smtp.password)
    g = MailGames(pbem, MaildirDrop(pbem.games), SmtpOut(smtp, "PBEM_TEST_SMTP_PW"))
    welcome = start(g)
    assert sorted(welcome) == sorted(PLAYERS)
    state = g.state()
    for p, msg in welcome.items():
        (report,) = (pbem.games / "m1" / "reports" / p).glob("*.txt")
        size = check_report_mail(msg, state, p, report.read_text("utf-8"))
        assert size < 200_000, size
    # the mover answers with a quoted reply: the report that follows is pictured too
    mover, turn = g.mover()
    order = g.legal_order(mover)
    g.inbox.deliver(player_mail(address(mover), order_body(g.tokens[mover], [order_line(order)],
                                                           quoted=plain_of(welcome[mover])),
                                **answering(welcome[mover])))
    r = g.advance()
    assert f"m1 turn {turn}: queued {order_line(order)}" in r.output, r.output
    state = g.state()
    sent = g.outbox.new()
    reports = [m for m in sent if not str(m["Message-ID"]).startswith("<pbem.reply.")]
    acks = [m for m in sent if str(m["Message-ID"]).startswith("<pbem.reply.")]
    assert reports and acks
    for m in acks:  # an answer to a mail is text alone
        assert structure(m) == ["text/plain"]
    for m in reports:
        p = player_of(m)
        newest = sorted((pbem.games / "m1" / "reports" / p).glob("*.txt"))[-1]
        assert plain_of(m) == newest.read_text("utf-8")  # exactly the text report
        check_report_mail(m, state, p, newest.read_text("utf-8"))


def answering(report: EmailMessage) -> dict[str, Any]:
    """The headers of a reply to `report`."""
    return {"subject": f"Re: {report['Subject']}", "in_reply_to": str(report["Message-ID"])}


def mover_order(g: MailGames) -> tuple[str, int, Any]:
    mover, turn = g.mover()
    return mover, turn, g.legal_order(mover)


def html_reply_quoting_the_html(token: str, orders: list[str], report_mail: EmailMessage) -> bytes:
    """An HTML reply (with a plain alternative) that quotes the report's whole HTML part, picture and all,
    in a blockquote, and sends the picture back as an inline part, as Apple Mail does."""
    html, png = picture_of(report_mail)
    body = re.split(r"<body[^>]*>", html, maxsplit=1)[1].split("</body>", 1)[0]
    rows = "".join(f"<div>{line}</div>" for line in [BEGIN, f"token: {token}", *orders, END])
    markup = (f"<html><body><div>Here you are.</div>{rows}<div>On Sat, 21 Nov 2026, Game Master wrote:</div>"
              f"<blockquote type=\"cite\">{body}</blockquote></body></html>")
    text = "\n".join(["Here you are.", "", BEGIN, f"token: {token}", *orders, END, "",
                      "On Sat, 21 Nov 2026, Game Master wrote:", quote(plain_of(report_mail)), ""])
    msg = parse(player_mail("x@players.test", text, html=markup, **answering(report_mail)))
    msg.add_attachment(png, maintype="image", subtype="png", disposition="inline", filename="m1-turn-1.png")
    return msg.as_bytes()


@pytest.mark.parametrize("form", ["quoted text", "html quoting the text", "html quoting the html",
                                  "html only quoting the html"])
def test_a_reply_to_a_pictured_report_gives_the_same_orders(pbem: Pbem, form: str) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    welcome = start(g)
    mover, turn, order = mover_order(g)
    report = welcome[mover]
    token, orders = g.tokens[mover], [order_line(order)]
    plain_reply = player_mail(address(mover), order_body(token, orders, quoted=plain_of(report)), **answering(report))
    if form == "quoted text":
        raw = plain_reply
    elif form == "html quoting the text":
        raw = player_mail(address(mover), html=order_html(token, orders, quoted=plain_of(report)), **answering(report))
    else:
        raw = html_reply_quoting_the_html(token, orders, report).replace(b"x@players.test", address(mover).encode())
        if form == "html only quoting the html":  # the plain alternative dropped: the HTML is all there is
            msg = parse(raw)
            alternative, picture = msg.get_payload()
            msg.set_payload([alternative.get_payload()[1], picture])
            raw = msg.as_bytes()
    expected = find_orders(read_mail(plain_reply))
    assert find_orders(read_mail(raw)) == expected
    g.inbox.deliver(raw)
    r = g.advance()
    assert f"m1 turn {turn}: queued {order_line(order)}" in r.output, r.output
    assert f"m1 turn {turn}: {mover} " in r.output or r.output.count("queued") == 1


def test_refusals_stay_text_and_a_picture_never_costs_a_report(pbem: Pbem,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    start(g)
    mover, turn, _ = mover_order(g)
    g.inbox.deliver(player_mail(address(mover), order_body(g.tokens[mover], ["bid: 999"]),
                                **answering(g.welcome[mover])))
    g.advance()
    refused = g.outbox.new()
    assert len(refused) == 1 and "bid" in plain_of(refused[0])  # the refusal, an answer: text alone
    assert structure(refused[0]) == ["text/plain"]

    def broken(svg: str) -> bytes:
        raise RuntimeError("no renderer here")

    monkeypatch.setattr(pictures, "board_png", broken)
    r, _ = order_and_text_reports(pbem, g, mover, g.last_report(mover))
    assert "Warning: no board picture in m1's mail to" in r.stderr


def test_the_same_report_mail_is_the_same_bytes(tmp_path: Path) -> None:
    """Boundaries come from the Message-ID, the PNG from the state: a mail composed twice is the same
    bytes."""
    from pbem.config import Config
    from pbem.mail.compose import Picture, compose

    cfg = Config(root=tmp_path, gm_name="Game Master", gm_address=GM)
    pic = Picture(b"\x89PNG\r\n\x1a\nnot really", "The board of m1 at turn 1, as anna may see it", "m1-turn-1.png")
    one = compose(cfg, "anna", "anna@players.test", "s", "Report\n", "<pbem.m1.anna.1.t1@pbem.test>", picture=pic)
    two = compose(cfg, "anna", "anna@players.test", "s", "Report\n", "<pbem.m1.anna.1.t1@pbem.test>", picture=pic)
    assert one.as_bytes() == two.as_bytes()
    back = parse(one.as_bytes())
    assert plain_of(back) == "Report\n"
    assert picture_of(back)[1] == pic.png


def test_a_gm_may_send_reports_as_text_alone(pbem: Pbem) -> None:
    """`pictures: false` in pbem.yaml: every mail is the text report alone, a tenth of the size; the
    game plays the same."""
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games), pictures=False)
    start(g)
    assert g.welcome and all(structure(m) == ["text/plain"] for m in g.welcome.values())
    mover, turn, _ = mover_order(g)
    _, reports = order_and_text_reports(pbem, g, mover, g.welcome[mover])
    assert all(len(m.as_bytes()) < 8000 for m in reports)


def order_and_text_reports(pbem: Pbem, g: MailGames, mover: str, answered: EmailMessage) -> tuple[Any, list[EmailMessage]]:
    """`mover` answers `answered` with a legal order; the run's report mails are its text alone, each
    the newest report of its player, complete."""
    order = g.legal_order(mover)
    g.inbox.deliver(player_mail(address(mover), order_body(g.tokens[mover], [order_line(order)]),
                                **answering(answered)))
    r = g.advance()
    assert f"queued {order_line(order)}" in r.output, r.output
    reports = [m for m in g.outbox.new() if not str(m["Message-ID"]).startswith("<pbem.reply.")]
    assert reports
    for m in reports:
        assert structure(m) == ["text/plain"]
        newest = sorted((pbem.games / "m1" / "reports" / player_of(m)).glob("*.txt"))[-1]
        assert plain_of(m) == newest.read_text("utf-8")
    return r, reports


def test_pictures_takes_true_or_false() -> None:
    from pbem.config import check_config_text
    from pbem.errors import PbemError

    assert check_config_text("pictures: no\n", "pbem.yaml") == {"pictures": False}
    with pytest.raises(PbemError) as err:
        check_config_text("pictures: yes please\n", "pbem.yaml")
    assert str(err.value) == "pbem.yaml is not valid:\n  - line 1, pictures: must be true or false, not 'yes please'"
