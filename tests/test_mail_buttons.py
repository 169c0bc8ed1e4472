"""A move in one tap: the phone part of each mail that asks for a move offers its orders as buttons, each
a `mailto:` link (RFC 6068) to the reply-key address of that mail, with the subject of a reply and the
order as its body: a tap opens a reply with the order written, a second tap sends it.

- For every game and every language (en, de, nl), through the real pipeline (`pbem advance` over a
  Maildir): every link of the mails that ask for a move is parsed as a mail client parses it
  (`urllib.parse`: address, subject, body); the mail it makes (from the player's address, to the link's
  address, with that subject and body, no In-Reply-To, no References, no quoted text) is read by pbem's
  own reading of a reply (what proves it, its orders, the game's checks) as exactly that legal order;
  and, decision after decision, one of them is sent and the game applies it.
- A link never holds a token; it proves no more than the reply it makes: from another address, for
  another seat, forged, or for a decision that has passed, it moves nothing.
- The plain part is the same with buttons or without; a mail without the player's key in its Reply-To
  (no plus-addressing) has no buttons.
- Where the orders are many (many pieces on many places), the buttons are the choices the report
  lists whole or with a few values, and one line says how to write any other.
- The board: a long HTML shows it under the move by `cid:` (multipart/related), a short one leaves it
  to a part after the text (`HTML_HOLDS_THE_BOARD` decides), each scored by SpamAssassin at 0.0 and
  shown in chromium at 360 pixels with tap targets of 44.
"""

from __future__ import annotations

import html
import html.parser
import json
import re
import urllib.parse
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from conftest import Pbem
from helpers import seed_args
from conftest_mail import (FilesOut, MaildirDrop, MailGames, address, parse, player_mail, player_of)
from rooms import EXAMPLE, GAMES, room
from pbem import bots
from pbem.config import Config, load_config
from pbem.game import check_submission
from pbem.i18n import localize
from pbem.mail.compose import HTML_HOLDS_THE_BOARD, Moves, Picture, compose, mailto
from pbem.mail.incoming import read_mail
from pbem.mail.orders import orders_in
from pbem.mail.post import MOST_BUTTONS, quick_orders
from pbem.mail.proof import KEY, NOTHING, check_orders_allowed, prove
from pbem.report import summarize_orders
from pbem.rules.base import order_text, typed_text
from pbem.store import GamesDir
from test_mail_hardening import new_game
from test_mail_phone import MIXED, RELATED, phone, picture_in, without_buttons  # noqa: F401 (a fixture)
from test_reply_keys import latest, mail_lines, reply, typed

LANGUAGES = ("en", "de", "nl")
DECISIONS = 5  # decisions of each game answered by a tap
OTHER = {"en": "Any other order: reply with it alone", "de": "Einen anderen Befehl schickst du allein",
         "nl": "Een andere order stuur je alleen"}


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))


@dataclass(frozen=True)
class Link:
    """A button: its words, and the mail its `mailto:` makes, as a mail client reads it."""

    words: str
    href: str
    address: str
    subject: str
    body: str


class _Anchors(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[list[str]] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.found.append([dict(attrs).get("href") or "", ""])
            self.inside = True

    def handle_endtag(self, tag: str) -> None:
        self.inside = self.inside and tag != "a"

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.found[-1][1] += data


def client_reads(href: str) -> tuple[str, str, str]:
    """A `mailto:` URL as a mail client reads it (RFC 6068): the address, the subject, the body, each
    percent-decoded as UTF-8 (a `+` stays a plus)."""
    url = urllib.parse.urlsplit(href)
    assert url.scheme == "mailto" and not url.fragment, href
    fields = {}
    for pair in url.query.split("&"):
        name, _, value = pair.partition("=")
        assert name not in fields, href
        fields[name.lower()] = urllib.parse.unquote(value, "utf-8", "strict")
    assert set(fields) == {"subject", "body"}, href
    return urllib.parse.unquote(url.path), fields["subject"], fields["body"]


def links_of(msg: EmailMessage) -> list[Link]:
    """The buttons of a mail's HTML part (none where it has none)."""
    part = msg.get_body(("html",))
    if part is None:
        return []
    parser = _Anchors()
    parser.feed(part.get_content())
    links = []
    for href, words in parser.found:
        if href.startswith("mailto:"):
            links.append(Link(" ".join(words.split()), href, *client_reads(href)))
    return links


def tap(link: Link, sender: str) -> bytes:
    """The mail a tap on `link` and a tap on send make: from `sender`, to the link's address, its subject
    and body; no In-Reply-To, no References (a `mailto:` cannot set them), no quoted text."""
    raw = player_mail(sender, link.body, subject=link.subject, to=link.address)
    msg = parse(raw)
    assert msg["In-Reply-To"] is None and msg["References"] is None
    return raw


def start(g: MailGames, ruleset: str, lang: str = "en") -> dict[str, str]:
    """A game `g1` of `ruleset` by mail whose players read `lang` (the host's language); their tokens."""
    if lang == "en":
        return new_game(g, ruleset, room(ruleset).PLAYERS)
    g.extra["language"] = lang
    g.write_config()
    args = ["new", ruleset, "g1", *seed_args("buttons"), "--json"]
    for p in room(ruleset).PLAYERS:
        args += ["--player", f"{p}={address(p)}"]
    r = g.pbem(*args)
    assert r.exit_code == 0, r.output
    for msg in g.outbox.new():
        g.welcome[player_of(msg)] = msg
    return {p["name"]: p["token"] for p in json.loads(r.stdout)["players"]}


def read_back(g: MailGames, config: Config, raw: bytes, player: str, turn: int) -> list[Any]:
    """The orders pbem reads in a mail, as its run does: what proves it (the key of the address it was
    sent to: the seat and the decision), its own lines as orders, the game's checks of them now."""
    gd = GamesDir(g.root)
    mail = read_mail(raw)
    proof = prove(gd, mail, config)
    assert proof.kind == KEY and proof.key is not None and (proof.key.player, proof.key.turn) == (player, turn)
    turnfile, data = orders_in(mail, proof.key)
    check_orders_allowed(proof, turnfile)
    _, entry = check_submission(gd, data, mail.sender, "mail", (proof.key.game, proof.key.player))
    return list(entry["orders"])


def bot_order(g: MailGames, ruleset: str, player: str) -> Any:
    seen = g.pbem.show("g1", player)
    return bots.choose(ruleset, seen["view"], player, seen["legal_orders"])


def last_mail_asking(g: MailGames, player: str) -> EmailMessage:
    """The latest mail with an HTML part pbem sent `player` (his report, his welcome)."""
    mails = [m for m in g.outbox.all() if player_of(m) == player and m.get_body(("html",)) is not None]
    return mails[-1]


# -- every link of every game and language is an order, and a tap moves the game ------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("ruleset", GAMES)
def test_every_button_is_an_order_pbem_reads_and_a_tap_moves_the_game(g: MailGames, ruleset: str,
                                                                      lang: str) -> None:
    tokens = start(g, ruleset, lang)
    config = load_config(g.root)
    tapped = checked = 0
    for step in range(DECISIONS):
        shown = g.pbem.show("g1")
        if shown["status"] != "active":
            break
        player, turn = shown["waiting_for"][0], shown["turn"]
        mail = last_mail_asking(g, player)
        legal = g.pbem.show("g1", player)["legal_orders"]
        written = {localize(typed_text(o), ruleset, lang): o for o in legal}
        links = links_of(mail)
        markup = mail.get_body(("html",)).get_content()
        assert [link.body for link in links] == [localize(typed_text(o), ruleset, lang) for o in quick_orders(legal)]
        if 0 < len(links) < len(legal):  # the orders without a button: one line says how to write them
            assert OTHER[lang] in re.sub(r"\s+", " ", html.unescape(markup)), markup
        for link in links:
            assert link.address == mail["Reply-To"].addresses[0].addr_spec
            assert re.fullmatch(rf"gm\+{turn}\.[a-z2-7]{{16}}@pbem\.test", link.address)
            assert link.subject == f"Re: {' '.join(str(mail['Subject']).split())}"  # (a folded header unfolded)
            assert link.words == link.body and link.body in written
            assert not any(token in link.href or token in link.body for token in tokens.values())
            assert read_back(g, config, tap(link, address(player)), player, turn) == [written[link.body]], link
            checked += 1
        if not links:  # a decision of many choices alone (a start anywhere in the city): typed
            g.inbox.deliver(reply(latest(g, player), player, typed(bot_order(g, ruleset, player))))
            g.advance()
            continue
        link = links[step % len(links)]
        before = len(g.state("g1")["log"])
        g.inbox.deliver(tap(link, address(player)))
        r = g.advance()
        order = written[link.body]
        assert mail_lines(r.output) == [f"mail from {address(player)}: g1 turn {turn}: queued {order_text(order)}"], \
            r.output
        applied = g.state("g1")["log"][before]
        assert (applied["turn"], applied["player"], applied["order"]) == (turn, player, order)
        tapped += 1
    assert tapped >= 2 and checked >= tapped
    assert g.inbox.set_aside() == []


def test_the_check_of_a_link_can_fail() -> None:
    """A link as a client reads it: `+` is a plus, %20 a space, an `&` between the fields; another
    scheme or a field twice is no button of pbem's."""
    href = mailto("gm+3.abcdefghijklmnop@pbem.test", "Re: [pbem] g1 Zug 3: dein Zug", "bieten: 4\nÄ")
    assert client_reads(href) == ("gm+3.abcdefghijklmnop@pbem.test", "Re: [pbem] g1 Zug 3: dein Zug", "bieten: 4\nÄ")
    assert "+" not in href.partition("?")[2] and " " not in href
    with pytest.raises(AssertionError):
        client_reads("https://pbem.test/?subject=a&body=b")
    with pytest.raises(AssertionError):
        client_reads("mailto:gm@pbem.test?body=a&body=b")


# -- a link proves no more than the reply it makes ---------------------------------------------------------

def first_link(g: MailGames) -> tuple[str, int, Link]:
    shown = g.pbem.show("g1")
    player = shown["waiting_for"][0]
    links = links_of(last_mail_asking(g, player))
    assert links
    return player, shown["turn"], links[0]


def assert_nothing_moved(g: MailGames, before: dict[str, Any]) -> None:
    assert g.state("g1")["log"] == before["log"] and g.queued("g1") == []


def test_a_link_from_another_address_or_forged_moves_nothing(g: MailGames) -> None:
    """A stranger, another player of the game, a key of the address changed, the link of a decision
    that has passed: each moves nothing."""
    start(g, EXAMPLE)
    player, turn, link = first_link(g)
    other = next(p for p in room(EXAMPLE).PLAYERS if p != player)
    config = load_config(g.root)
    forged = Link(link.words, link.href, re.sub(r"\.[a-z2-7]{16}@", ".aaaaaaaaaaaaaaaa@", link.address),
                  link.subject, link.body)
    for sender, what in (("mallory@strangers.test", link), (address(other), link), (address(player), forged)):
        raw = tap(what, sender)
        assert prove(GamesDir(g.root), read_mail(raw), config).kind == NOTHING
        before = g.state("g1")
        g.inbox.deliver(raw)
        r = g.advance()
        assert "queued" not in r.output, r.output  # refused, or answered as a fresh mail that names no game
        assert_nothing_moved(g, before)
    # his own tap moves the game; the same link again, once the decision has passed, does not
    g.inbox.deliver(tap(link, address(player)))
    assert "queued" in g.advance().output
    before = g.state("g1")
    g.inbox.deliver(tap(link, address(player)))
    r = g.advance()
    assert f"your reply answers turn {turn}; the game is at turn" in r.output, r.output
    assert_nothing_moved(g, before)


def test_no_mail_holds_a_token_in_a_link_and_the_plain_part_is_the_report(g: MailGames) -> None:
    tokens = start(g, EXAMPLE)
    for _ in range(3):
        player, _, link = first_link(g)
        g.inbox.deliver(tap(link, address(player)))
        g.advance()
    mails = g.outbox.all()
    assert sum(bool(links_of(m)) for m in mails) >= 4
    for m in mails:
        for link in links_of(m):
            raw = urllib.parse.unquote(link.href)
            assert not any(t in link.href or t in raw for t in tokens.values())
    for m in mails:  # the text a report mail carries is the report pbem wrote, buttons or not
        if str(m["Message-ID"]).startswith("<pbem.g1.") and ".1.t1" not in str(m["Message-ID"]):
            newest = sorted((g.root / "g1" / "reports" / player_of(m)).glob("*.txt"))
            text = m.get_body(("plain",)).get_content().replace("\r\n", "\n")
            assert any(text == r.read_text("utf-8") for r in newest)


def composed(tmp_path: Path, text: str, moves: Moves | None, reply_to: str | None,
             png: bytes = b"\x89PNG\r\n\x1a\nnot really") -> EmailMessage:
    config = Config(root=tmp_path, gm_name="Game Master", gm_address="gm@pbem.test")
    picture = Picture(png, "The board of g1 at turn 3, as anna may see it", "g1-turn-3.png",
                      "The board is the picture at the end of this mail.",
                      "The board is the picture above, under your move.")
    return compose(config, "anna", "anna@players.test", "[pbem] g1 turn 3: your move", text,
                   "<pbem.g1.anna.4.t3@pbem.test>", picture=picture, reply_to=reply_to, moves=moves)


def report_text(lines: int) -> str:
    return "\n".join(["YOUR MOVE", "  You may send: pass; draw.", "", "MEDICI g1 - turn 3 - report for anna",
                      "", "THE TABLE", "  player  money  value  free  hold",
                      *[f"  p{k:<5}       {k:2}      0     5  -" for k in range(lines)], ""])


MOVES = Moves(["pass", "draw"], ["pass", "draw"], "Tap an order: a reply with it opens, ready to send.")


def test_the_plain_part_is_the_same_and_no_key_no_buttons(tmp_path: Path) -> None:
    text = report_text(60)
    with_buttons = composed(tmp_path, text, MOVES, "gm+3.abcdefghijklmnop@pbem.test")
    without = composed(tmp_path, text, None, "gm+3.abcdefghijklmnop@pbem.test")
    no_key = composed(tmp_path, text, MOVES, None)
    assert [link.body for link in links_of(with_buttons)] == ["pass", "draw"]
    assert links_of(without) == links_of(no_key) == []
    plain = [m.get_body(("plain",)).as_bytes() for m in (with_buttons, without, no_key)]
    assert plain[0] == plain[1] == plain[2]
    def flat(markup: str) -> str:
        return " ".join(markup.split())

    assert flat(without_buttons(with_buttons.get_body(("html",)).get_content())) == \
        flat(without.get_body(("html",)).get_content()) == flat(no_key.get_body(("html",)).get_content())


def test_the_html_s_length_decides_where_the_board_is(tmp_path: Path) -> None:
    """Under the move by `cid:` where the HTML has HTML_HOLDS_THE_BOARD bytes or more, else a part after
    the text; the buttons either way."""
    shapes = {}
    for lines in range(0, 80, 2):
        msg = composed(tmp_path, report_text(lines), MOVES, "gm+3.abcdefghijklmnop@pbem.test")
        shape = [p.get_content_type() for p in msg.walk()]
        markup, _ = picture_in(msg)  # (it checks the length against HTML_HOLDS_THE_BOARD)
        shapes[lines] = shape
        assert len(links_of(msg)) == 2
    assert shapes[0] == MIXED and shapes[78] == RELATED
    assert sorted(set(map(tuple, shapes.values()))) == sorted({tuple(MIXED), tuple(RELATED)})
    assert HTML_HOLDS_THE_BOARD > 3200  # SpamAssassin's HTML_IMAGE_ONLY_* score an <img> in less


# -- the buttons a decision of many orders gets ------------------------------------------------------------

def test_many_orders_get_the_choices_listed_whole_or_with_few_values() -> None:
    legal = [*(f"send {n}" for n in range(1, 10)), "promote 6.1", "boast 6", *(f"move 6.1 to {n}" for n in (3, 5, 9)),
             "pass", *({"bid": n} for n in range(1, 41))]
    chosen = quick_orders(legal)
    assert chosen == ["promote 6.1", "boast 6", "move 6.1 to 3", "move 6.1 to 5", "move 6.1 to 9", "pass"]
    assert len(quick_orders([f"wall W{n}" for n in range(MOST_BUTTONS)])) == MOST_BUTTONS  # few: all
    assert len(quick_orders([*(f"move 1.{k} to {n}" for k in range(9) for n in (2, 4))])) == MOST_BUTTONS - 1
    assert summarize_orders(legal)[:2] == ["send X (X one of 1 2 3 4 5 6 7 8 9)", "promote 6.1"]


# -- each kind of mail with a picture, on a phone ------------------------------------------------------------

def mails_of_every_kind(g: MailGames, tmp_path: Path) -> dict[str, EmailMessage]:
    """A game by mail to its end: the welcome mail, a report, the answer to `status`, the final
    report (each of its mover where there is one), and a short mail with buttons."""
    from test_mail_hardening import answer
    from conftest_mail import fast_forward
    from conftest_mail import turn_file

    tokens = start(g, EXAMPLE)
    mover = g.pbem.show("g1")["waiting_for"][0]
    kinds = {"welcome": g.welcome[mover]}
    player, _, link = first_link(g)
    g.inbox.deliver(tap(link, address(player)))
    g.advance()
    mover = g.pbem.show("g1")["waiting_for"][0]
    kinds["report"] = last_mail_asking(g, mover)
    g.inbox.deliver(reply(latest(g, mover), mover, "status\n"))
    g.advance()
    kinds["status answer"] = last_mail_asking(g, mover)
    last, order = fast_forward(g)
    g.inbox.deliver(answer(g, last, turn_file("g1", last, tokens[last], g.pbem.show("g1")["turn"], [order])))
    g.advance()
    assert g.pbem.show("g1")["status"] == "finished"
    kinds["final report"] = last_mail_asking(g, last)
    from pbem.mail.post import board_picture

    real = board_picture(g.state("g1"), last)
    kinds["short mail"] = composed(tmp_path, report_text(0), MOVES, "gm+3.abcdefghijklmnop@pbem.test", real.png)
    return kinds


def test_each_kind_of_mail_on_a_phone(g: MailGames, phone: Any, tmp_path: Path) -> None:
    """In chromium at 360 pixels: no sideways scrolling, no word under 14 pixels, every button a tap
    target of 44 pixels inside the screen, the picture (in the HTML, or under it for a short mail) at
    least 340 wide; the buttons where the mail asks for a move, and only there."""
    from test_mail_phone import PAGE_TEXT, check_buttons_and_picture, mail_page

    kinds = mails_of_every_kind(g, tmp_path)
    shapes = {}
    for what, msg in kinds.items():
        shapes[what] = [p.get_content_type() for p in msg.walk()]
        page = mail_page(msg, tmp_path, what.replace(" ", "-"))
        assert phone.open(page.as_uri()) == [], what
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, what
        small = [(i["text"], i["size"]) for i in phone.evaluate(PAGE_TEXT) if i["size"] < 14]
        assert not small, (what, small[:5])
        check_buttons_and_picture(phone, what)
        assert bool(links_of(msg)) == (what != "final report"), what
    assert shapes["short mail"] == MIXED
    assert all(shape == RELATED for what, shape in shapes.items() if what != "short mail"), shapes


SHOT = (EXAMPLE, "phone-buttons-1", 33)  # a bid of few values: a button for each, and `pass`


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_report_with_buttons_on_a_phone_in_each_language(phone: Any, tmp_path: Path, lang: str) -> None:
    """A report in each language on a phone: its buttons in the player's words, tap targets of 44
    pixels, under the list of his choices; the board under them. With PBEM_SCREENSHOTS=DIR its top
    is kept as DIR/phone-buttons[-LANG].png (the player's guide shows it)."""
    import os
    import shutil

    import helpers
    from pbem.game import new_game as start_game, waiting_for
    from pbem.mail.post import board_picture, phone_moves
    from pbem.report import render_report, wrap72
    from test_mail_phone import PAGE_BUTTONS, check_buttons_and_picture, mail_page, phone_screenshot

    ruleset, seed, steps = SHOT
    names = room(ruleset).PLAYERS
    state, _ = start_game(GamesDir(tmp_path / "games"), ruleset, "g1", [(p, address(p)) for p in names], {}, seed)
    for _ in range(steps):
        state = helpers.bot_move(state)
    player = waiting_for(state)[0]
    text = wrap72(render_report(state, player, state["events"][-6:], lang=lang))
    moves = phone_moves(state, player, lang)
    assert moves is not None and len(moves.orders) >= 4
    config = Config(root=tmp_path, gm_name="Game Master", gm_address="gm@pbem.test")
    turn = state["engine"]["turn"]
    msg = compose(config, player, address(player), "[pbem] g1 turn 34: your move", text,
                  f"<pbem.g1.{player}.9.t{turn}@pbem.test>", picture=board_picture(state, player, lang),
                  reply_to=f"gm+{turn}.abcdefghijklmnop@pbem.test", moves=moves)
    page = mail_page(msg, tmp_path, f"buttons-{lang}")
    assert phone.open(page.as_uri()) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    check_buttons_and_picture(phone, lang)
    shown = phone.evaluate(PAGE_BUTTONS)
    assert [b["text"] for b in shown] == moves.orders and [link.body for link in links_of(msg)] == moves.orders
    keep = os.environ.get("PBEM_SCREENSHOTS")
    if keep:
        shot = tmp_path / "shot.png"
        phone_screenshot(phone, shot, 1150)
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / ("phone-buttons.png" if lang == "en" else f"phone-buttons-{lang}.png"))
