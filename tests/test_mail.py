"""Unit tests of the mail side: what pbem takes to be a player's own text, HTML to text, the orders
found in every form of mail, the mail it sets aside, composing mail with non-ASCII headers, threads,
and the GM's configuration (pbem.yaml, `pbem init`). No server here: see test_mail_servers.py."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from conftest_mail import GM, address, order_body, order_html, player_mail, quote
from pbem.config import CONFIG_FILE, Config, load_config, starter_config
from pbem.errors import PbemError, TurnFileError
from pbem.mail.compose import compose
from pbem.mail.ids import THREAD_ID, thread_id
from pbem.mail.incoming import LOOP_HEADER, not_for_pbem, read_mail
from pbem.mail.orders import find_orders, orders_in
from pbem.mail.html import html_to_text
from pbem.mail.own_text import own_text
from pbem.mail.boxes import Postman
from pbem.report import BEGIN, END
from pbem.turnfile import Source, load_yaml, schema_errors

THREAD = "<pbem.m1.anna.3.t7@pbem.test>"


def mail(raw: bytes):
    return read_mail(raw)


def config(tmp_path: Path, **kw: Any) -> Config:
    cfg = Config(root=tmp_path, gm_name="Game Master", gm_address=GM, max_mail_bytes=4096)
    for k, v in kw.items():
        setattr(cfg, k, v)
    return cfg


# -- own_text ----------------------------------------------------------------------------------------

def test_own_text_drops_quoted_lines_and_keeps_interleaved_answers() -> None:
    body = "> What do you bid?\nbid: 7\n>> older\n  > indented quote\nthanks\n"
    assert own_text(body) == "bid: 7\nthanks\n"


@pytest.mark.parametrize("header", [
    "On Sat, 21 Nov 2026 at 12:00, Game Master <gm@pbem.test> wrote:",
    "On 21.11.26 12:00, Game Master wrote:",
    "Am 21.11.2026 um 12:00 schrieb Game Master <gm@pbem.test>:",
    "Am Sa., 21. Nov. 2026 um 12:00 Uhr schrieb Game Master <gm@pbem.test>:",
    "Op 21 nov. 2026 om 12:00 schreef Game Master <gm@pbem.test>:",
    "Op za 21 nov. 2026 12:00 schreef Game Master:",
    "-----Original Message-----",
    "-----Ursprüngliche Nachricht-----",
    "From: Game Master <gm@pbem.test>",
    "Von: Game Master <gm@pbem.test>",
], ids=["en", "en-short", "de", "de-gmail", "nl", "nl-short", "outlook-en", "outlook-de", "from", "von"])
def test_own_text_stops_at_a_reply_header(header: str) -> None:
    body = f"token: abc\nbid: 7\n\n{header}\nMEDICI m1 - turn 7\nbid: 99\n> quoted\n"
    assert own_text(body) == "token: abc\nbid: 7\n"


@pytest.mark.parametrize("sig", ["-- ", "--"], ids=["dash-dash-space", "dash-dash"])
def test_own_text_stops_at_a_signature(sig: str) -> None:
    body = f"pass\n{sig}\nAnna\nbid: 99\n"
    assert own_text(body) == "pass"


def test_own_text_handles_crlf_and_trailing_blanks() -> None:
    assert own_text("bid: 7   \r\n> q\r\n-- \r\nAnna\r\n") == "bid: 7"


def test_own_text_keeps_the_marker_lines_and_dashed_words() -> None:
    body = f"{BEGIN}\ntoken: a-b\n--x\nbid: 7\n{END}\n"
    assert own_text(body) == body.rstrip("\n") + "\n"


def test_own_text_stops_at_a_wrapped_reply_header() -> None:
    body = ("game: m1\nplayer: anna\ntoken: abc\nturn: 7\norders:\n  - bid: 7\n\n"
            "On Sat, Nov 21, 2026 at 12:00 PM Game Master <\ngm@pbem.test> wrote:\n> MEDICI m1\n")
    assert own_text(body).strip() == "game: m1\nplayer: anna\ntoken: abc\nturn: 7\norders:\n  - bid: 7"


# -- html_to_text ---------------------------------------------------------------------------------------

def test_html_to_text_drops_blockquotes_even_nested() -> None:
    assert html_to_text("<div>mine</div><blockquote>a<blockquote>b</blockquote>c<p>d</p></blockquote>e") \
        .split() == ["mine", "e"]


def test_html_to_text_breaks_lines_at_br_and_blocks() -> None:
    text = html_to_text("<p>token: abc<br>bid: 7<br/>pass</p><div>draw</div><ul><li>one</li><li>two</li></ul>")
    assert [line for line in text.split("\n") if line] == ["token: abc", "bid: 7", "pass", "draw", "one", "two"]


def test_html_to_text_decodes_entities() -> None:
    text = html_to_text("<div>a &lt;b&gt; &amp; c&nbsp;d &#8212; &eacute; &#x41;&quot;</div>")
    assert text.strip() == 'a <b> & c d \u2014 \xe9 A"'


def test_html_to_text_skips_head_style_and_script() -> None:
    text = html_to_text("<html><head><title>T</title><style>p {color: red}</style></head>"
                        "<body>one<script>alert(1)</script><br>two</body></html>")
    assert text.split() == ["one", "two"]


def test_html_to_text_keeps_the_markers_for_own_text() -> None:
    text = own_text(html_to_text(order_html("TOK", ["bid: 7"], quoted=f"{BEGIN}\nbid: 99\n{END}")))
    assert [line.strip() for line in text.split("\n") if line.strip()] == ["Hi!", BEGIN, "token: TOK", "bid: 7", END]


# -- find_orders --------------------------------------------------------------------------------------

TURN_FILE = "game: m1\nplayer: anna\ntoken: abc\nturn: 7\norders:\n  - bid: 7\n"
EXPECTED = {"game": "m1", "player": "anna", "token": "abc", "turn": 7, "orders": [{"bid": 7}]}


@pytest.mark.parametrize("name", ["orders.yaml", "orders.yml", "ORDERS.TXT", "turn.txt"])
def test_find_orders_in_an_attached_turn_file(name: str) -> None:
    raw = player_mail(address("anna"), "My orders are attached.\n-- \nAnna\n", attachments=[(name, TURN_FILE)])
    assert find_orders(mail(raw)) == EXPECTED


def test_find_orders_attachment_with_crlf_and_no_body() -> None:
    raw = player_mail(address("anna"), attachments=[("orders.yaml", TURN_FILE.replace("\n", "\r\n"))])
    assert find_orders(mail(raw)) == EXPECTED


def test_find_orders_ignores_attachments_of_other_kinds() -> None:
    body = order_body("abc", ["bid: 7"])
    raw = player_mail(address("anna"), body, in_reply_to=THREAD,
                      attachments=[("photo.png", b"\x89PNG\r\n\x1a\n\x00\x00"), ("card.vcf", "BEGIN:VCARD\n")])
    assert find_orders(mail(raw)) == EXPECTED


def test_find_orders_in_the_body_as_a_turn_file() -> None:
    body = TURN_FILE + "\n-- \nAnna\n\nOn Sat, 21 Nov 2026 at 12:00, Game Master wrote:\n> MEDICI\n> orders:\n"
    assert find_orders(mail(player_mail(address("anna"), body))) == EXPECTED


def test_find_orders_turn_file_between_the_markers() -> None:
    """The report's ready turn file, filled in and kept between the markers."""
    body = f"Hello GM,\n\n{BEGIN}\n{TURN_FILE}{END}\n\nCheers\n"
    assert find_orders(mail(player_mail(address("anna"), body))) == EXPECTED


def test_find_orders_order_lines_between_the_markers_take_the_rest_from_the_thread() -> None:
    body = order_body("abc", ["- bid: 7"], quoted=f"MEDICI m1\n{BEGIN}\ntoken: YOUR-TOKEN\nbid: 99\n{END}")
    assert find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD))) == EXPECTED


def test_find_orders_several_order_lines_comments_and_blanks() -> None:
    body = f"{BEGIN}\n# my plan\ntoken: abc\n\ndraw\n  - draw\nauction\n{END}\n"
    found = find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))
    assert found == {"token": "abc", "game": "m1", "player": "anna", "turn": 7, "orders": ["draw", "draw", "auction"]}


def test_find_orders_thread_from_references_when_in_reply_to_is_foreign() -> None:
    """A client that answers the acknowledgement still carries the report in References."""
    body = f"{BEGIN}\ntoken: abc\npass\n{END}\n"
    raw = player_mail(address("anna"), body, in_reply_to="<something@else.example>",
                      references=["<pbem.m1.anna.1.t1@pbem.test>", "<pbem.m1.anna.5.t12@pbem.test>",
                                  "<something@else.example>"])
    found = find_orders(mail(raw))
    assert (found["game"], found["player"], found["turn"]) == ("m1", "anna", 12)


def test_find_orders_explicit_envelope_lines_win_over_the_thread() -> None:
    body = f"{BEGIN}\ntoken: abc\nturn: 9\npass\n{END}\n"
    found = find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))
    assert found["turn"] == 9 and found["orders"] == ["pass"]


def test_find_orders_without_a_thread_asks_for_the_game() -> None:
    """Order lines in a fresh mail: game, player and turn are missing; the mail must say them."""
    body = f"{BEGIN}\ntoken: abc\npass\n{END}\n"
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(player_mail(address("anna"), body)))
    assert str(err.value) == ("the mail does not say which game its orders are for: reply to your latest "
                              "report, or write the lines game:, player:, turn: above your orders")
    body = f"{BEGIN}\ngame: m1\nplayer: anna\ntoken: abc\npass\n{END}\n"
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(player_mail(address("anna"), body)))
    assert str(err.value).endswith("or write the lines turn: above your orders")
    body = f"{BEGIN}\ngame: m1\nplayer: anna\nturn: 3\ntoken: abc\npass\n{END}\n"
    assert find_orders(mail(player_mail(address("anna"), body))) == \
        {"game": "m1", "player": "anna", "turn": 3, "token": "abc", "orders": ["pass"]}


def test_find_orders_order_lines_name_no_line_of_a_file_the_player_never_wrote() -> None:
    """Order lines without a token line or without an order: said in words, not as a turn file check."""
    for body, message in [
        (f"{BEGIN}\npass\n{END}\n", f"there is no token line between the lines {BEGIN!r} and {END!r}: write "
                                     f"'token: ' and your token there, above your orders"),
        (f"{BEGIN}\ntoken: abc\n# nothing yet\n{END}\n", f"there is no order between the lines {BEGIN!r} and "
                                                      f"{END!r}: write your orders there, one a line, below "
                                                      f"your token"),
    ]:
        with pytest.raises(TurnFileError) as err:
            find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))
        assert str(err.value) == message


@pytest.mark.parametrize("ref", ["<pbem.remind.m1.anna.t7.1@pbem.test>", "<pbem.reply.m1.anna.t7.0123abcd@pbem.test>",
                                 THREAD])
def test_find_orders_thread_from_any_mail_pbem_sent(ref: str) -> None:
    """A reply to a reminder, an acknowledgement or a refusal, with only In-Reply-To, finds the game."""
    body = f"{BEGIN}\ntoken: abc\nbid: 7\n{END}\n"
    raw = player_mail(address("anna"), body, in_reply_to=ref, references=[])
    assert find_orders(mail(raw)) == EXPECTED


def test_find_orders_in_reply_to_comes_before_references() -> None:
    body = f"{BEGIN}\ntoken: abc\nbid: 7\n{END}\n"
    raw = player_mail(address("anna"), body, in_reply_to="<pbem.remind.m1.anna.t7.1@pbem.test>",
                      references=["<pbem.m1.anna.1.t1@pbem.test>", "<pbem.m1.anna.2.t3@pbem.test>"])
    assert find_orders(mail(raw)) == EXPECTED


def test_find_orders_in_an_html_only_mail() -> None:
    html = order_html("abc", ["bid: 7"], quoted=f"MEDICI m1\n{BEGIN}\nbid: 99\n{END}")
    raw = player_mail(address("ben"), html=html, in_reply_to=THREAD)
    assert email.message_from_bytes(raw).get_content_type() == "text/html"
    assert find_orders(mail(raw)) == EXPECTED


def test_find_orders_prefers_the_plain_text_of_an_alternative() -> None:
    raw = player_mail(address("anna"), order_body("abc", ["bid: 7"]),
                      html=order_html("abc", ["bid: 8"]), in_reply_to=THREAD)
    assert find_orders(mail(raw))["orders"] == [{"bid": 7}]


def test_find_orders_ignores_quoted_markers() -> None:
    body = "bid: 7\n\n" + quote(f"{BEGIN}\ntoken: abc\nbid: 99\n{END}") + "\n"
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))
    assert str(err.value) == (f"the mail holds no orders: put them between the lines {BEGIN!r} and {END!r} "
                              f"of your report, or attach a turn file")


def test_find_orders_no_orders() -> None:
    with pytest.raises(TurnFileError, match="^the mail holds no orders: put them between the lines"):
        find_orders(mail(player_mail(address("anna"), "When is it my turn?\n", in_reply_to=THREAD)))


def test_find_orders_begin_without_end() -> None:
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(player_mail(address("anna"), f"{BEGIN}\ntoken: abc\npass\n", in_reply_to=THREAD)))
    assert str(err.value) == f"the mail has the line {BEGIN!r} but not the line {END!r} after it"


def test_find_orders_attachment_not_a_turn_file() -> None:
    raw = player_mail(address("anna"), "see attachment", attachments=[("orders.txt", "just some notes\n")])
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(raw))
    assert str(err.value) == "the attachment 'orders.txt' is not a turn file (game:, player:, token:, turn:, orders:)"


def test_find_orders_attachment_not_utf8() -> None:
    raw = player_mail(address("anna"), "see attachment", attachments=[("orders.yaml", b"token: \xff\xfe\n")])
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(raw))
    assert str(err.value) == "the attachment 'orders.yaml' is not UTF-8 text"


def test_find_orders_mail_without_text() -> None:
    msg = email.message.EmailMessage()
    msg["From"] = address("anna")
    msg["Message-ID"] = "<img@players.test>"
    msg.set_content(b"\x89PNG\r\n", maintype="image", subtype="png")
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(msg.as_bytes()))
    assert str(err.value) == "the mail has no text in which to find orders"


def test_find_orders_bad_order_line_names_it() -> None:
    body = f"{BEGIN}\ntoken: abc\nbid: [7\n{END}\n"
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))
    # one line of the mail: no line number within it
    assert str(err.value) == "order line 2 ('bid: [7'): not valid YAML (did not find expected ',' or ']')"


def test_find_orders_control_character_in_an_order_line() -> None:
    body = f"{BEGIN}\ntoken: abc\nbid: 7\x1b[0m\n{END}\n"
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))
    assert str(err.value) == ("order line 2 ('bid: 7\\x1b[0m'): a control character (U+001B) that YAML does "
                              "not allow; delete it")


def test_find_orders_hostile_yaml_in_the_body_is_refused() -> None:
    body = "game: &g m1\nplayer: *g\ntoken: abc\nturn: 7\norders:\n  - pass\n"
    with pytest.raises(TurnFileError, match="anchors"):
        find_orders(mail(player_mail(address("anna"), body)))


def test_find_orders_order_lines_in_any_case() -> None:
    """A phone capitalises the first letter of a line: the envelope keys are read in any case, game and
    player in lower case; the orders are left as sent (their game's schema puts them in its case)."""
    body = f"{BEGIN}\nGame: M1\nPlayer: Anna\nTurn: 3\nToken: AbC\nBid: 7\n- Pass\n{END}\n"
    assert find_orders(mail(player_mail(address("anna"), body))) == \
        {"game": "m1", "player": "anna", "turn": 3, "token": "AbC", "orders": [{"Bid": 7}, "Pass"]}


NBSP, NARROW, ZWSP = "\u00a0", "\u202f", "\u200b"


@pytest.mark.parametrize("lines, orders", [
    # a no-break space where the player typed a space (HTML mail, phones), in the markers too
    ([f"token:{NBSP}abc", f"bid:{NBSP}7"], [{"bid": 7}]),
    ([f"token: abc{ZWSP}", f"{ZWSP}draw", ZWSP], ["draw"]),
    ([f"token:{NARROW}abc", f"bid: 7{NBSP}"], [{"bid": 7}]),
    # typographic quotes an autocorrect made of plain ones
    (["token: \u201cabc\u201d", "draw"], ["draw"]),
    (["token: \u2018abc\u2019", "- \u201cpass\u201d"], ["pass"]),
    # an order ended as a sentence
    (["token: abc", "draw.", "bid: 7!", "pass ."], ["draw", {"bid": 7}, "pass"]),
])
def test_find_orders_reads_order_lines_as_typed(lines: list[str], orders: list[Any]) -> None:
    begin, end = BEGIN.replace(" ", NBSP), END.replace("orders", f"{ZWSP}orders")
    body = "\n".join([begin, *lines, end, ""])
    assert find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD))) == \
        {"token": "abc", "game": "m1", "player": "anna", "turn": 7, "orders": orders}


def test_find_orders_a_turn_file_in_the_text_as_typed() -> None:
    """Pasted into an HTML mail: indented with no-break spaces, the token in typographic quotes."""
    body = (f"game: m1\nplayer: anna\ntoken: \u201cabc\u201d\nturn: 7\norders:\n{NBSP}{NBSP}- bid:{NBSP}7\n"
            f"{NBSP}{NBSP}- pass{ZWSP}\n")
    assert find_orders(mail(player_mail(address("anna"), body))) == \
        {"game": "m1", "player": "anna", "token": "abc", "turn": 7, "orders": [{"bid": 7}, "pass"]}


def test_find_orders_a_line_of_punctuation_alone_stays_as_sent() -> None:
    """Left for the game's schema to refuse, naming the line."""
    body = f"{BEGIN}\ntoken: abc\n.\n{END}\n"
    assert find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))["orders"] == ["."]


def test_find_orders_turn_next_standing_and_reports_lines() -> None:
    body = f"{BEGIN}\ntoken: abc\nTurn: Next\ndraw\nstanding: max_bid: 9\nStanding: [pass: day]\nreports: all\n{END}\n"
    assert find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD))) == \
        {"token": "abc", "turn": "next", "reports": "all", "game": "m1", "player": "anna", "orders": ["draw"],
         "standing": [{"max_bid": 9}, {"pass": "day"}]}


def test_find_orders_standing_orders_or_reports_alone_answer_no_turn() -> None:
    body = f"{BEGIN}\ntoken: abc\nstanding: draw_until: 2\n{END}\n"
    assert find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD))) == \
        {"token": "abc", "game": "m1", "player": "anna", "standing": [{"draw_until": 2}]}
    body = f"{BEGIN}\ntoken: abc\nstanding: []\nreports: moves\n{END}\n"
    assert find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD))) == \
        {"token": "abc", "reports": "moves", "game": "m1", "player": "anna", "standing": []}
    body = f"{BEGIN}\ngame: m1\nplayer: anna\ntoken: abc\nreports: all\n{END}\n"  # no thread, no turn needed
    assert find_orders(mail(player_mail(address("anna"), body))) == \
        {"game": "m1", "player": "anna", "token": "abc", "reports": "all"}


def test_orders_in_gives_the_bytes_to_submit_with_the_players_own_names_for_its_lines() -> None:
    body = f"{BEGIN}\n# mine\ntoken: abc\n\nturn: next\nbid: x\nstanding: pass: day\n{END}\n"
    value, source = orders_in(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))
    assert isinstance(source, Source) and source.what == "the order block"
    assert source.names == {("token",): (2, "order line 2 (the token line)"), ("turn",): (3, "order line 3 ('turn: next')"),
                            ("orders", 0): (4, "order line 4 ('bid: x')"),
                            ("standing", 0): (5, "order line 5 ('standing: pass: day')")}
    assert load_yaml(source)[0] == value


def test_orders_in_a_turn_file_in_the_text_keeps_the_lines_of_the_mail() -> None:
    body = f"Hi,\n> quoted\n\n{BEGIN}\n{TURN_FILE}{END}\n"
    value, source = orders_in(mail(player_mail(address("anna"), body)))
    assert value == EXPECTED and source.what == "the turn file in the mail" and source.names is None
    lines = source.decode().split("\n")
    assert lines[:4] == ["", "", "", ""] and lines[4:10] == TURN_FILE.splitlines()  # line 5 of the mail is line 5
    raw = player_mail(address("anna"), "see attachment", attachments=[("turn.yaml", "# mine\n" + TURN_FILE)])
    value, source = orders_in(mail(raw))
    assert value == EXPECTED and source == ("# mine\n" + TURN_FILE).encode() and source.what == "the attachment 'turn.yaml'"


def test_find_orders_a_turn_file_in_any_case() -> None:
    body = f"{BEGIN}\nGame: M1\nPlayer: anna\nToken: abc\nTurn: 7\nOrders:\n  - Bid: 7\n{END}\n"
    assert find_orders(mail(player_mail(address("anna"), body))) == \
        {"game": "m1", "player": "anna", "token": "abc", "turn": 7, "orders": [{"Bid": 7}]}
    body = "game: m1\nplayer: anna\ntoken: abc\nStanding:\n  - max_bid: 9\n"  # a turn file of standing orders
    assert find_orders(mail(player_mail(address("anna"), body))) == \
        {"game": "m1", "player": "anna", "token": "abc", "standing": [{"max_bid": 9}]}


def test_find_orders_prose_that_starts_with_orders_is_no_turn_file() -> None:
    raw = player_mail(address("anna"), "Orders: see the attachment.\n", attachments=[("turn.yaml", TURN_FILE)])
    assert find_orders(mail(raw)) == EXPECTED


@pytest.mark.parametrize("lines, message", [
    (["standing:", "  - max_bid: 9"], "order line 2 ('standing:'): give one standing order a line, after 'standing: ' "
                                      "on the same line, or write 'standing: []' to clear them"),
    (["standing: # later"], "order line 2 ('standing: # later'): give one standing order a line, after "
                            "'standing: ' on the same line, or write 'standing: []' to clear them"),
    (["standing: max_bid: [9"], "order line 2 ('standing: max_bid: [9'): not valid YAML (did not find expected ',' "
                                "or ']')"),
    (["game: m1", "pass", "Game: m2"], "order line 4 ('Game: m2'): a second 'game:' line (the first is order line "
                                       "2); keep one"),
    (["token: abc", "pass"], "order line 2 (the token line): a second 'token:' line (the first is order line 1); "
                             "keep one"),
    (["{Bid: 1, bid: 2}"], "order line 2 ('{Bid: 1, bid: 2}'): the key 'bid' appears twice ('Bid' and 'bid' are the "
                           "same key)"),
    (["-\t-\tpass"], "order line 2 ('-\\tpass'): a tab character; indent with spaces"),
    (["turn: next"], f"there is no order between the lines {BEGIN!r} and {END!r}: write your orders there, one a "
                     f"line, below your token"),
], ids=["bare-standing", "standing-comment", "standing-yaml", "game-twice", "token-twice", "key-twice", "tab",
        "turn-alone"])
def test_find_orders_an_order_block_that_could_misfire(lines: list[str], message: str) -> None:
    body = "\n".join([BEGIN, "token: abc", *lines, END]) + "\n"
    with pytest.raises(TurnFileError) as err:
        find_orders(mail(player_mail(address("anna"), body, in_reply_to=THREAD)))
    assert str(err.value) == message


def test_own_text_may_keep_the_places_of_quoted_lines() -> None:
    body = "> What do you bid?\nbid: 7\n>> older\nthanks\n-- \nAnna\n"
    assert own_text(body, keep_places=True) == "\nbid: 7\n\nthanks"


# -- not_for_pbem ---------------------------------------------------------------------------------------

def raw_with(headers: dict[str, str] | None = None, sender: str = address("anna"), subject: str = "Re: orders",
             body: str = "pass\n") -> bytes:
    return player_mail(sender, body, subject=subject, headers=headers)


@pytest.mark.parametrize("raw, reason", [
    (b"Subject: x\r\nMessage-ID: <n@x>\r\n\r\npass\r\n", "it has no sender address"),
    (raw_with(sender=GM), "it comes from the GM's own address"),
    (raw_with(sender="GM@PBEM.TEST"), "it comes from the GM's own address"),
    (raw_with({LOOP_HEADER: GM}), "it is pbem's own mail coming back (a mail loop)"),
    (raw_with(sender="MAILER-DAEMON@mx.players.test"), "it comes from mailer-daemon@, a bounce or a robot"),
    (raw_with(sender="postmaster@players.test"), "it comes from postmaster@, a bounce or a robot"),
    (raw_with(sender="no-reply@players.test"), "it comes from no-reply@, a bounce or a robot"),
    (raw_with({"Return-Path": "<>"}), "it has an empty Return-Path (a bounce)"),
    (raw_with({"Auto-Submitted": "auto-replied"}), "it is automatic (Auto-Submitted: auto-replied)"),
    (raw_with({"Auto-Submitted": "Auto-Generated"}), "it is automatic (Auto-Submitted: auto-generated)"),
    (raw_with({"Precedence": "bulk"}), "it is bulk or list mail (Precedence)"),
    (raw_with({"Precedence": "auto_reply"}), "it is bulk or list mail (Precedence)"),
    (raw_with({"X-Autoreply": "yes"}), "it is automatic or list mail (X-Autoreply)"),
    (raw_with({"X-Autorespond": "yes"}), "it is automatic or list mail (X-Autorespond)"),
    (raw_with({"List-Id": "<games.players.test>"}), "it is automatic or list mail (List-Id)"),
    (raw_with({"List-Unsubscribe": "<mailto:u@players.test>"}), "it is automatic or list mail (List-Unsubscribe)"),
    (raw_with(subject="Out of Office: Re: [pbem] m1 turn 7"), "it is an out-of-office reply"),
    (raw_with(subject="Automatic reply: [pbem] m1"), "it is an out-of-office reply"),
    (raw_with(subject="Autoreply: away"), "it is an out-of-office reply"),
    (raw_with(subject="Abwesenheitsnotiz: Re: [pbem] m1"), "it is an out-of-office reply"),
], ids=["no-sender", "gm", "gm-upper-case", "loop", "mailer-daemon", "postmaster", "no-reply", "return-path",
        "auto-replied", "auto-generated", "precedence-bulk", "precedence-auto-reply", "x-autoreply",
        "x-autorespond", "list-id", "list-unsubscribe", "out-of-office", "automatic-reply", "autoreply",
        "abwesenheit"])
def test_not_for_pbem(tmp_path: Path, raw: bytes, reason: str) -> None:
    assert not_for_pbem(read_mail(raw), config(tmp_path)) == reason


def test_not_for_pbem_delivery_report(tmp_path: Path) -> None:
    raw = (b"From: MAILER-DAEMON@mx.example\r\nTo: gm@pbem.test\r\nMessage-ID: <dsn@mx>\r\n"
           b"Subject: Undelivered Mail Returned to Sender\r\n"
           b"Content-Type: multipart/report; report-type=delivery-status; boundary=XX\r\n\r\n"
           b"--XX\r\nContent-Type: text/plain\r\n\r\nsorry\r\n--XX--\r\n")
    assert not_for_pbem(read_mail(raw), config(tmp_path)) == "it comes from mailer-daemon@, a bounce or a robot"
    raw = raw.replace(b"MAILER-DAEMON@mx.example", b"mailer@mx.example")
    assert not_for_pbem(read_mail(raw), config(tmp_path)) == "it is a delivery report (a bounce)"


def test_not_for_pbem_too_large(tmp_path: Path) -> None:
    raw = raw_with(body="x" * 5000 + "\n")
    assert not_for_pbem(read_mail(raw), config(tmp_path)) == \
        f"it is {len(raw)} bytes, more than the limit of 4096"


@pytest.mark.parametrize("headers", [{}, {"Auto-Submitted": "no"}, {"Precedence": "normal"}])
def test_a_players_mail_is_for_pbem(tmp_path: Path, headers: dict[str, str]) -> None:
    assert not_for_pbem(read_mail(raw_with(headers, subject="Re: [pbem] m1 turn 7: your move")), config(tmp_path)) is None


def test_pbems_own_mail_coming_back_is_set_aside(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    out = compose(cfg, "Anna", address("anna"), "[pbem] m1 turn 3: your move", "report\n", "<pbem.m1.anna.2.t3@pbem.test>")
    # even when a forwarder rewrote the sender
    out.replace_header("From", address("ben"))
    assert not_for_pbem(read_mail(out.as_bytes()), cfg) == "it is pbem's own mail coming back (a mail loop)"
    del out[LOOP_HEADER]
    assert not_for_pbem(read_mail(out.as_bytes()), cfg) == "it is automatic (Auto-Submitted: auto-generated)"


# -- read_mail -----------------------------------------------------------------------------------------

def test_read_mail_fields() -> None:
    raw = player_mail("Anna.Schmidt@Players.TEST", "pass\n", sender_name="Anna Schmidt", subject="Re: x",
                      in_reply_to=THREAD, references=["<pbem.m1.anna.1.t1@pbem.test>", THREAD],
                      message_id="<abc@players.test>")
    m = read_mail(raw)
    assert (m.message_id, m.sender, m.sender_name, m.subject) == ("<abc@players.test>", "anna.schmidt@players.test",
                                                                  "Anna Schmidt", "Re: x")
    assert m.in_reply_to == [THREAD, "<pbem.m1.anna.1.t1@pbem.test>", THREAD]
    assert m.size == len(raw)


def test_read_mail_without_message_id_is_named_by_its_content() -> None:
    raw = b"From: anna@players.test\r\nSubject: x\r\n\r\npass\r\n"
    first, second = read_mail(raw), read_mail(raw)
    assert first.message_id == second.message_id
    assert re.fullmatch(r"<sha256\.[0-9a-f]{32}@pbem\.invalid>", first.message_id)
    assert read_mail(raw + b"more\r\n").message_id != first.message_id


def test_read_mail_decodes_a_non_ascii_sender_name_and_subject() -> None:
    raw = player_mail(address("anna"), "pass\n", sender_name="Zoë Ångström", subject="Re: Züge – turn 3")
    m = read_mail(raw)
    assert (m.sender_name, m.subject) == ("Zoë Ångström", "Re: Züge – turn 3")


# -- compose and threads --------------------------------------------------------------------------------

def test_thread_id_names_game_player_and_turn(tmp_path: Path) -> None:
    mid = thread_id(config(tmp_path), "m-1_x", "anna_2", 12, 34)
    assert mid == "<pbem.m-1_x.anna_2.12.t34@pbem.test>"
    assert THREAD_ID.match(mid).groups() == ("m-1_x", "anna_2", "12", "34")
    assert THREAD_ID.match("<pbem.reply.abc@pbem.test>") is None


NAME = "Jürgen Müller-Ødegård 日本"
SUBJECT = "[pbem] m1 Zug 3: du bist dran – äöü ß € 日本語, and a long subject that must be folded over lines"


def roundtrip(msg: email.message.EmailMessage) -> email.message.EmailMessage:
    raw = msg.as_bytes(policy=email.policy.SMTP)
    raw.decode("ascii")  # headers encoded: the mail is 7-bit on the wire
    assert all(len(line) <= 998 for line in raw.split(b"\r\n"))
    return email.message_from_bytes(raw, policy=email.policy.default)


def test_compose_non_ascii_name_and_subject_round_trip(tmp_path: Path) -> None:
    cfg = config(tmp_path, gm_name="Spielleiter Ärger")
    when = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)
    msg = compose(cfg, NAME, "juergen@players.test", SUBJECT, "Report\n", "<pbem.m1.anna.2.t3@pbem.test>",
                  in_reply_to="<pbem.m1.anna.1.t1@pbem.test>", references=["<pbem.m1.anna.1.t1@pbem.test>"], date=when)
    back = roundtrip(msg)
    assert back["Subject"] == SUBJECT
    assert back["To"].addresses[0].display_name == NAME
    assert back["To"].addresses[0].addr_spec == "juergen@players.test"
    assert back["From"].addresses[0].display_name == "Spielleiter Ärger"
    assert back["From"].addresses[0].addr_spec == GM
    assert back["Message-ID"] == "<pbem.m1.anna.2.t3@pbem.test>"
    assert back["In-Reply-To"] == "<pbem.m1.anna.1.t1@pbem.test>"
    assert back["References"] == "<pbem.m1.anna.1.t1@pbem.test>"
    assert back["Auto-Submitted"] == "auto-generated"
    assert back[LOOP_HEADER] == GM
    assert email.utils.parsedate_to_datetime(back["Date"]) == when
    assert back.get_content_type() == "text/plain"
    assert back.get_content().replace("\r\n", "\n") == "Report\n"


@pytest.mark.parametrize("name", ['Doe, John', 'Anna "the Bold" Berg', "O'Brien (GM)", "a@b", ""])
def test_compose_special_display_names_round_trip(tmp_path: Path, name: str) -> None:
    msg = compose(config(tmp_path), name, "x@players.test", "s", "b\n", "<a@b>")
    to = roundtrip(msg)["To"].addresses
    assert len(to) == 1 and to[0].display_name == name and to[0].addr_spec == "x@players.test"


def test_compose_a_long_non_ascii_body_round_trips(tmp_path: Path) -> None:
    # lines of 57 characters, of which quoted-printable makes more than 76
    body = ("Grüße aus Zürich – " * 3 + "\n") * 20 + "€ 5\n"
    back = roundtrip(compose(config(tmp_path), NAME, "x@players.test", SUBJECT, body, "<a@b>"))
    assert back.get_content().replace("\r\n", "\n") == body


def test_compose_breaks_a_line_wider_than_72_columns(tmp_path: Path) -> None:
    body = "  Grüße aus Zürich – " + "Grüße aus Zürich – " * 19 + "\n€ 5\n"
    back = roundtrip(compose(config(tmp_path), NAME, "x@players.test", SUBJECT, body, "<a@b>"))
    lines = back.get_content().replace("\r\n", "\n").splitlines()
    assert max(len(line) for line in lines) <= 72
    assert lines[0].startswith("  Grüße") and all(line.startswith("    ") for line in lines[1:-1])  # hanging
    assert " ".join(lines[:-1]).split() == body.split()[:-2] and lines[-1] == "€ 5"


def test_postman_writes_non_ascii_headers_as_ascii_files(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    path = Postman(cfg).post("m1.anna.0001", compose(cfg, NAME, "x@players.test", SUBJECT, "Report\n" * 3, "<a@b>"))
    back = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert (back["Subject"], back["To"].addresses[0].display_name) == (SUBJECT, NAME)
    with pytest.raises(ValueError, match="unsafe outgoing mail name"):
        Postman(cfg).post("../escape", compose(cfg, "a", "x@players.test", "s", "b\n", "<a@b>"))


def test_postman_posts_a_short_non_ascii_body(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    path = Postman(cfg).post("reply-x", compose(cfg, "Zoë", "x@players.test", "Re: Züge", "Grüße, Zoë!\n", "<a@b>"))
    back = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    assert back.get_content().replace("\r\n", "\n") == "Grüße, Zoë!\n"


# -- the configuration -------------------------------------------------------------------------------

def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / CONFIG_FILE
    path.write_text(text, "utf-8")
    return path


def problems(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(PbemError) as err:
        load_config(tmp_path)
    message = str(err.value)
    head = f"{path} is not valid:\n"
    assert message.startswith(head), message
    return message[len(head):]


def test_config_defaults_without_a_file(tmp_path: Path) -> None:
    cfg = load_config(tmp_path)
    assert (cfg.gm_name, cfg.gm_address, cfg.subject_prefix, cfg.max_mail_bytes) == \
        ("pbem", "pbem@localhost", "[pbem]", 262144)
    assert cfg.inbox == {"type": "maildir", "path": "mail/inbox"}
    assert cfg.outbox == {"type": "files", "path": "mail/outbox"}
    assert cfg.domain == "localhost"


def test_config_an_empty_file_is_the_defaults(tmp_path: Path) -> None:
    write(tmp_path, "# nothing yet\n")
    assert load_config(tmp_path).inbox == {"type": "maildir", "path": "mail/inbox"}


def test_config_full(tmp_path: Path) -> None:
    write(tmp_path, "gm:\n  name: Spielleiter Ärger\n  address: gm@pbem.test\nsubject_prefix: '[Medici]'\n"
                    "max_mail_bytes: 100000\ninbox:\n  type: mbox\n  path: /var/mail/gm\n"
                    "outbox:\n  type: smtp\n  host: smtp.pbem.test\n  port: 465\n  security: tls\n"
                    "  user: gm\n  password_env: PBEM_SMTP_PASSWORD\n  ca_file: ca.pem\n")
    cfg = load_config(tmp_path)
    assert (cfg.gm_name, cfg.gm_address, cfg.subject_prefix, cfg.max_mail_bytes, cfg.domain) == \
        ("Spielleiter Ärger", "gm@pbem.test", "[Medici]", 100000, "pbem.test")
    assert cfg.inbox == {"type": "mbox", "path": "/var/mail/gm"}
    assert cfg.outbox["security"] == "tls" and cfg.outbox["port"] == 465


@pytest.mark.parametrize("text, expected", [
    ("gm:\n  name: x\n", "  - line 2, gm: lacks 'address'"),
    ("gm:\n  address: nobody\n", "  - line 2, gm.address: 'nobody' is not of the allowed form"),
    ("gm:\n  address: gm@pbem.test\n  phone: 123\n", "  - line 3, gm: has unknown field 'phone'"),
    ("max_mail_bytes: 10\n", "  - line 1, max_mail_bytes: must be at least 1024, not 10"),
    ("max_mail_bytes: 99999999\n", "  - line 1, max_mail_bytes: must be at most 10485760, not 99999999"),
    ("subject_prefix: " + "x" * 41 + "\n", "  - line 1, subject_prefix: may be at most 40 characters long"),
    ("colour: red\n", "  - line 1, the top level: has unknown field 'colour'"),
    ("- a\n", "  - line 1, the top level: must be a mapping (key: value), not a list"),
    ("outbox:\n  type: smtp\n", "  - line 2, outbox: lacks 'host'"),
    ("inbox:\n  type: maildir\n  host: h\n", "  - line 3, inbox: has unknown field 'host'"),
    ("outbox:\n  type: files\n  host: h\n", "  - line 3, outbox: has unknown field 'host'"),
    ("gm:\n  address: nobody\nmax_mail_bytes: 10\n",
     "  - line 2, gm.address: 'nobody' is not of the allowed form\n"
     "  - line 3, max_mail_bytes: must be at least 1024, not 10"),
], ids=["gm-without-address", "gm-address", "gm-unknown", "max-small", "max-large", "prefix-long", "unknown-key",
        "not-a-mapping", "smtp-without-host", "maildir-with-host", "files-with-host", "two-problems"])
def test_config_schema_errors(tmp_path: Path, text: str, expected: str) -> None:
    assert problems(tmp_path, text) == expected


def test_config_not_yaml(tmp_path: Path) -> None:
    path = write(tmp_path, "gm: [\n")
    with pytest.raises(PbemError, match=re.escape(f"the configuration {str(path)!r}") + r", line \d+: not valid YAML"):
        load_config(tmp_path)


# The errors inside one kind of inbox or outbox: the schema is a oneOf, and the message must name the
# field that is wrong in the kind the GM chose (its `type:`), not the fields the other kind lacks.


@pytest.mark.parametrize("text, field, words", [
    ("inbox:\n  type: imap\n  host: h\n  user: u\n  security: ssl\n", "inbox.security", ["'ssl'", "'tls'", "'starttls'"]),
    ("inbox:\n  type: imap\n  host: h\n", "inbox", ["lacks 'user'"]),
    ("inbox:\n  type: imap\n  host: h\n  user: u\n  password_env: 1BAD\n", "inbox.password_env", ["'1BAD'"]),
    ("outbox:\n  type: smtp\n  host: h\n  security: ssl\n", "outbox.security", ["'ssl'", "'starttls'"]),
    ("outbox:\n  type: smtp\n  host: h\n  port: 70000\n", "outbox.port", ["at most 65535", "70000"]),
], ids=["imap-security", "imap-without-user", "imap-password-env", "smtp-security", "smtp-port"])
def test_config_schema_errors_inside_a_chosen_kind(tmp_path: Path, text: str, field: str, words: list[str]) -> None:
    message = problems(tmp_path, text)
    assert len(message.splitlines()) == 1
    assert re.match(rf"  - line \d+, {re.escape(field)}: ", message), message
    assert "unknown field" not in message
    for word in words:
        assert word in message


def test_config_unknown_inbox_type(tmp_path: Path) -> None:
    message = problems(tmp_path, "inbox:\n  type: pop3\n")
    assert "inbox.type" in message and "'pop3'" in message and "lacks" not in message


def test_config_security_none_refused_for_a_remote_host(tmp_path: Path) -> None:
    path = write(tmp_path, "outbox:\n  type: smtp\n  host: smtp.example.org\n  security: none\n")
    with pytest.raises(PbemError) as err:
        load_config(tmp_path)
    assert str(err.value) == (f"{path}: outbox.security 'none' would send passwords in clear text to "
                              f"'smtp.example.org'; it is allowed only for localhost")
    write(tmp_path, "inbox:\n  type: imap\n  host: 10.1.2.3\n  user: gm\n  security: none\n")
    with pytest.raises(PbemError) as err:
        load_config(tmp_path)
    assert str(err.value) == (f"{path}: inbox.security 'none' would send passwords in clear text to "
                              f"'10.1.2.3'; it is allowed only for localhost")


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "::1"])
def test_config_security_none_allowed_on_localhost(tmp_path: Path, host: str) -> None:
    write(tmp_path, f"inbox:\n  type: imap\n  host: '{host}'\n  user: gm\n  security: none\n"
                    f"outbox:\n  type: smtp\n  host: '{host}'\n  security: none\n")
    cfg = load_config(tmp_path)
    assert cfg.inbox["host"] == cfg.outbox["host"] == host


def test_password_from_the_file_or_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = config(tmp_path)
    assert cfg.password({"password": "p1"}, "inbox") == "p1"
    assert cfg.password({}, "inbox") is None
    monkeypatch.setenv("PBEM_TEST_PW", "from-env")
    assert cfg.password({"password_env": "PBEM_TEST_PW", "password": "ignored"}, "outbox") == "from-env"


def test_password_env_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_TEST_NO_SUCH_PASSWORD", raising=False)
    with pytest.raises(PbemError) as err:
        config(tmp_path).password({"password_env": "PBEM_TEST_NO_SUCH_PASSWORD"}, "inbox")
    assert str(err.value) == ("pbem.yaml: inbox.password_env names 'PBEM_TEST_NO_SUCH_PASSWORD', which is not "
                              "set in the environment")


# -- pbem init ----------------------------------------------------------------------------------------

def test_init_writes_a_valid_commented_config(pbem: Any) -> None:
    r = pbem("init", "--name", "Jürgen Spielleiter", "--address", "gm@pbem.test")
    assert r.exit_code == 0, r.output
    path = pbem.games / CONFIG_FILE
    assert r.output == f"Wrote {path}. Edit it to say where mail comes in and how it goes out.\n"
    text = path.read_text("utf-8")
    value, lines = load_yaml(text.encode("utf-8"), "pbem.yaml")
    assert schema_errors(value, "config", lines) == []
    cfg = load_config(pbem.games)
    assert (cfg.gm_name, cfg.gm_address) == ("Jürgen Spielleiter", "gm@pbem.test")
    assert cfg.inbox == {"type": "maildir", "path": "mail/inbox"}
    assert cfg.outbox == {"type": "files", "path": "mail/outbox"}
    assert "password_env" in text and text.count("#") > 10  # commented, with the alternatives
    log = __import__("subprocess").run(["git", "log", "--format=%s", "--", CONFIG_FILE], cwd=pbem.games,
                                       capture_output=True, text=True).stdout
    assert log == "pbem.yaml: the GM's settings\n"


def test_init_the_commented_alternatives_are_valid_too(tmp_path: Path) -> None:
    """Uncommenting the IMAP inbox and the SMTP outbox of the starting file gives a valid file."""
    text = starter_config("Game Master", "gm@pbem.test")
    out, skip = [], False
    for line in text.splitlines():
        if line in ("inbox:", "outbox:") or (skip and line.startswith("  ")):
            skip = True  # drop the active default section
            continue
        skip = False
        m = re.match(r"^# ((inbox|outbox):|  \S.*)$", line)
        out.append(m.group(1) if m else line)
    value, lines = load_yaml("\n".join(out).encode("utf-8"), "pbem.yaml")
    assert schema_errors(value, "config", lines) == []
    assert value["inbox"]["type"] == "imap" and value["inbox"]["security"] == "tls"
    assert value["outbox"]["type"] == "smtp" and value["outbox"]["security"] == "starttls"
    assert value["outbox"]["password_env"] == "PBEM_SMTP_PASSWORD"


def test_init_defaults_and_refuses_to_overwrite(pbem: Any) -> None:
    assert pbem("init").exit_code == 0
    cfg = load_config(pbem.games)
    assert (cfg.gm_name, cfg.gm_address) == ("Game Master", "gm@example.org")
    r = pbem("init")
    assert r.exit_code == 1
    assert r.stderr == f"Error: {pbem.games / CONFIG_FILE} already exists; edit it, or remove it first\n"


@pytest.mark.parametrize("name", ["Anna: the GM", "#1 GM", "[GM] Anna", "yes", "123", "GM # night shift"])
def test_init_any_gm_name(pbem: Any, name: str) -> None:
    r = pbem("init", "--name", name, "--address", "gm@pbem.test")
    assert r.exit_code == 0, r.output
    assert load_config(pbem.games).gm_name == name


def test_a_failed_init_leaves_no_file(pbem: Any) -> None:
    r = pbem("init", "--address", "nobody")
    assert r.exit_code == 1
    assert r.stderr == "Error: 'nobody' is not a mail address (name@example.org)\n"
    assert not (pbem.games / CONFIG_FILE).exists()
