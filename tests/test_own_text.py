"""A player's own text in real shapes of reply: each mail in tests/fixtures/replies (Gmail, Apple Mail
and iOS, Outlook, Thunderbird, Samsung, Proton, Fastmail, Yahoo, mutt; English, German, Dutch; top-
and bottom-posted, interleaved, forwarded; plain or HTML only) holds in its X-Expected-Own-Text header
(JSON) what the player wrote himself. Read as pbem reads a mail: the plain part if there is one, else
the HTML part. docs/OWN-TEXT.md tells how the corpus was measured."""

from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path

import pytest

from pbem.mail.incoming import parts
from pbem.mail.html import html_to_text
from pbem.mail.own_text import own_text, typed

CORPUS = Path(__file__).parent / "fixtures" / "replies"
FIXTURES = sorted(CORPUS.glob("*.eml"))


def text_and_expected(path: Path) -> tuple[str, str]:
    """The text pbem reads in a fixture (plain, else HTML as text), and the own text expected in it."""
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    _, plain, markup = parts(msg)  # type: ignore[arg-type]
    text = plain if plain is not None else html_to_text(markup or "")
    return text, json.loads(str(msg["X-Expected-Own-Text"]))


def lines(text: str) -> list[str]:
    """The lines that count: as typed (no wide or invisible spaces), no blank lines."""
    return [line for line in map(typed, text.split("\n")) if line]


def test_the_corpus_is_big_enough() -> None:
    assert len(FIXTURES) >= 40


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_own_text_of_a_real_reply(path: Path) -> None:
    text, expected = text_and_expected(path)
    assert lines(own_text(text)) == lines(expected)
    assert lines(own_text(text, keep_places=True)) == lines(expected)


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_keep_places_keeps_every_own_line_at_its_number(path: Path) -> None:
    text, _ = text_and_expected(path)
    original = text.replace("\r\n", "\n").split("\n")
    kept = own_text(text, keep_places=True).split("\n")
    assert len(kept) <= len(original)
    for number, line in enumerate(kept):
        assert line == "" or line == original[number].rstrip(), number + 1
    assert [line for line in kept if line.strip()] == [line for line in own_text(text).split("\n") if line.strip()]


@pytest.mark.parametrize("body, own", [
    ("On Wed, Nov 25, 2026 at 6:00 PM pbem <gm@example.org>\nwrote:\n\n> report\n> draw\n\nBid 7.\n> more\nhelp\n",
     ["", "", "", "", "", "", "Bid 7.", "", "help", ""]),
    ("draw\n\nOn Wed, Nov 25, 2026 at 6:00 PM pbem <gm@example.org> wrote:\n> report\nbroken off a quoted line\n",
     ["draw", ""]),
], ids=["bottom-posted-and-interleaved", "top-posted"])
def test_keep_places_below_a_reply_header(body: str, own: list[str]) -> None:
    assert own_text(body, keep_places=True).split("\n") == own


@pytest.mark.parametrize("body", [
    "As I wrote:\nbid 7", "From: Anna\nbid 7", "Van: de kapitein\nbid 7", "Sent: bid 7\nbid 7", "--x\nbid 7",
    "next: bid 9\nbid 7",
], ids=["wrote-without-quote", "from-without-address", "van-without-address", "sent", "dashes", "next"])
def test_own_words_that_look_like_a_header_are_kept(body: str) -> None:
    assert own_text(body) == body


@pytest.mark.parametrize("html, own", [
    ("<div>On Wed, Nov 25, 2026, at 18:00, pbem wrote:</div><blockquote><pre>report\ndraw</pre></blockquote>"
     "<div>Bid 7.</div>", ["Bid 7."]),
    ("<div>draw</div><div>pbem &lt;gm@example.org&gt; wrote:</div><blockquote>report</blockquote>", ["draw"]),
    ('<p class="MsoNormal"><span>move 1.1\r\nto 2<o:p></o:p></span></p>\r\n<p>&nbsp;</p>', ["move 1.1 to 2"]),
    ('<div>help</div><div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>De :</b> pbem</div>'
     "<div>report<br>draw</div>", ["help"]),
], ids=["attribution-above-a-blockquote", "short-attribution", "wrapped-source-line", "outlook-reply-block"])
def test_html_to_text_leaves_only_the_own_text(html: str, own: list[str]) -> None:
    assert lines(own_text(html_to_text(html))) == own


def test_each_line_is_one_letter_of_its_kind() -> None:
    from pbem.mail.own_text import line_kinds

    body = ("CAUTION: This email originated from outside of the organization.\n\nSent from my iPhone\n\ndraw\nBob\n"
            "\u1427\n-- \nAnna\n\nOn Nov 25, 2026,\nat 18:00,\npbem <gm@example.org> wrote:\n> report\n\n"
            "-----Original-Nachricht-----\nGesendet: Mittwoch, 25. November 2026 um 18:00 Uhr\nVon: pbem <\n"
            "gm@example.org>\nBetreff: report\n")
    assert line_kinds(body) == "xbpbttxdtbaaaqbshhhhb"


@pytest.mark.parametrize("line, kind", [
    ("Sent from my desk, it is easier than my phone.", "t"), ("Sent using the mobile mail app", "p"),
    ("Envoyé depuis mon iPhone", "p"), ("Enviado do iPhone", "p"), ("Sendt fra min iPad", "p"),
    ("Get Outlook for Android<https://aka.ms/AAb9ysg>", "p"), ("*-------- Original Message --------*", "s"),
    ("-------- Original message --------From: pbem <gm@example.org> Date: 25/11/2026", "s"),
    ("Forwarded message:", "s"), ("-" * 40, "s"), ("On your remote host you can run:", "t"), ("--x", "t"),
])
def test_a_line_alone_is_read_as_its_kind(line: str, kind: str) -> None:
    from pbem.mail.own_text import line_kinds

    assert line_kinds(line) == kind


def test_a_body_read_at_once_reads_as_its_lines_one_by_one() -> None:
    """Typed characters mended over a whole body give each line as mending it alone gives it (no
    character is mended into or out of a line's end), and the quote marks of a quoted report come off
    each line as they come off it alone: over bodies of every mix of blanks, quote marks, invisible and
    wide characters and line ends."""
    import random
    import re

    from pbem.mail.orders import QUOTE_MARKS
    from pbem.mail.own_text import _seen, as_typed

    signs = ["\n", "\r", "\r\n", " ", "\t", ">", "a", "\u200b", "\u00a0", "\u201c", "\x0b", "\x0c", "\u2028", "\x85",
             "\u3000", "\ufeff", "\u2060"]
    pick = random.Random(7)
    for _ in range(20000):
        body = "".join(pick.choice(signs) for _ in range(pick.randint(0, 16))).replace("\r\n", "\n")
        assert [line.strip() for line in as_typed(body).split("\n")] == [_seen(line) for line in body.split("\n")]
        assert QUOTE_MARKS.sub("", body) == "\n".join(re.sub(r"^(\s*>)+ ?", "", line) for line in body.split("\n"))
