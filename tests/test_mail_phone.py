"""The report mail on a phone: the HTML part of a report or welcome mail is written for a screen 360 CSS
pixels wide, from the plain part's own text (pbem.mail.phone), with a board drawn for the phone.

- The HTML shows exactly the words of the text report, no other (a secret of another player cannot get
  in, and nothing of the report is left out), for reports of whole games of every ruleset, welcome
  mails, final reports and refusals: headings as headings, tables as tables, the orders the player may
  send as code in a list, the order block as the very lines of the text. A mail adds the buttons of
  the move under its choices (tests/test_mail_buttons.py), and the picture under the move.
- The board for a phone shows what the view says (the checks of the archive's boards, piece by piece),
  keeps the same secrets, and no word in it is smaller than 9 pixels when the picture is 340 wide.
- In Debian's chromium at 360 pixels (the archive's browser test drives it): no sideways scrolling,
  no text under 14 pixels, every button a tap target of 44 pixels, the picture at least 340 wide; in
  dark mode every word keeps a contrast of
  4.5 or more with what lies behind it. With PBEM_SCREENSHOTS=DIR a screenshot of each ruleset's report
  is kept as DIR/phone-<ruleset>.png (the README shows them).
"""

from __future__ import annotations

import html
import html.parser
import os
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest

import helpers
from rooms import GAMES, each, need, room, room_file
from pbem.config import Config
from pbem.game import new_game, waiting_for
from pbem.i18n import DEFAULT_LANGUAGE
from pbem.mail.compose import HTML_HOLDS_THE_BOARD, compose
from pbem.mail.phone import BOARDS, PHONE, blocks, phone_board_svg, phone_html
from pbem.mail.post import board_picture, welcome_text
from pbem.pictures import board_png
from pbem.report import BEGIN, END, render_error, render_report, wrap72
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir
from test_pictures import SVG, check_legend, decode_png, hidden_variants, names_for

SHOWN = 340  # the width a phone shows the picture at (360 less the page's margins)
SMALLEST = 9  # pixels: the smallest word of the picture at that width

NOTE = "The board is the picture at the end of this mail."  # in the board's place
ABOVE = "The board is the picture above, under your move."  # there, where the HTML shows it under the move

#: the parts of a mail with a picture: a long HTML shows it (multipart/related), a short one leaves it
#: to a part after the text
RELATED = ["multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png"]
MIXED = ["multipart/mixed", "multipart/alternative", "text/plain", "text/html", "image/png"]


def picture_in(msg: Any) -> tuple[str, Any]:
    """The HTML part of a mail with a picture and the picture's part: in a mail of the related shape,
    the one <img> of the HTML shows it by its Content-ID, under the move; in the mixed one, the HTML
    shows no picture and the picture is the mail's last part."""
    markup = msg.get_body(("html",)).get_content().replace("\r\n", "\n")
    images = [p for p in msg.walk() if p.get_content_maintype() == "image"]
    assert len(images) == 1
    image = images[0]
    shape = [p.get_content_type() for p in msg.walk()]
    if shape == RELATED:
        related = msg.get_payload()[1]
        assert related.get_payload()[1] is image and related.get_payload()[0].get_content_type() == "text/html"
        cid = str(image["Content-ID"]).strip("<>")
        assert re.findall(r'<img\s[^>]*src="([^"]+)"', markup) == [f"cid:{cid}"]
        assert len(markup.encode()) >= HTML_HOLDS_THE_BOARD
    else:
        assert shape == MIXED and msg.get_payload()[-1] is image
        assert "<img" not in markup and "cid:" not in markup
        assert len(markup.encode()) < HTML_HOLDS_THE_BOARD
    return markup, image


BUTTONS = re.compile(r'<div class="pbem-buttons".*?</a>\s*</div>(?:\s*<p[^>]*>.*?</p>)?\s*</div>', re.S)


def without_buttons(markup: str) -> str:
    """The HTML without the buttons of the move (the line above them, they, the line under them)."""
    return BUTTONS.sub("", markup)


def notes(markup: str, note: str = NOTE) -> int:
    """How often the HTML says where the board is (its lines may break at any of the note's spaces)."""
    return re.sub(r"\s+", " ", markup).count(f">{html.escape(note, quote=False)}</p>")


def words_of(text: str) -> set[str]:
    """The words of a text (names, numbers, cards: runs of letters and digits), whatever marks of
    layout stand around them (`|[1]`, `pass;`, `` `pass` ``)."""
    return set(re.findall(r"\w+", text))


class _Text(html.parser.HTMLParser):
    """The text of HTML, every tag a break between words (a table's cells are words of their own)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.skip += tag in ("head", "style", "script")
        self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in ("head", "style", "script")
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_words(markup: str) -> set[str]:
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return words_of("".join(parser.parts))


def bot_states(tmp_path: Path, ruleset: str, names: list[str], options: dict[str, str], seed: str,
               every: int) -> Iterator[dict[str, Any]]:
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, ruleset, "p1", [(p, f"{p}@example.org") for p in names], options, seed)
    steps = 0
    while True:
        if steps % every == 0 or state["status"] != "active":
            yield state
        if state["status"] != "active":
            return
        state = helpers.bot_move(state)
        steps += 1


def texts_of_game(tmp_path: Path, ruleset: str, n: int, options: dict[str, str], seed: str,
                  every: int = 13, language: str | None = None) -> Iterator[tuple[str, str]]:
    """(what, text) of every kind of text a game's mails carry: welcome mails, reports every `every`
    orders (with the events since the last), refusals, the final report; in the players' `language`."""
    names = names_for(ruleset, n)
    gd = GamesDir(tmp_path / "games")
    state, tokens = new_game(gd, ruleset, "p1", [(p, f"{p}@example.org") for p in names], options, seed)
    lang = language or DEFAULT_LANGUAGE
    seen = 0
    steps = 0
    while True:
        if steps % every == 0 or state["status"] != "active":
            for p in names:
                text = render_report(state, p, state["events"][seen:], lang=lang)
                yield (f"{seed} turn {state['engine']['turn']} {p}",
                       wrap72(welcome_text(state, p, tokens[p], text, lang=lang) if steps == 0 else text))
            if state["status"] == "active":
                p = waiting_for(state)[0]
                yield (f"{seed} refusal {p}", wrap72(render_error(
                    state, p, state["engine"]["turn"], ["frob 7"], "order 'frob 7' is not one of this game's",
                    lang=lang)))
            seen = len(state["events"])
        if state["status"] != "active":
            return
        state = helpers.bot_move(state)
        steps += 1


# -- the HTML is the text's own words, structured -----------------------------------------------------

@pytest.mark.parametrize("ruleset,n,options,seed", each("PHONE_TABLES"))
def test_the_html_shows_the_words_of_the_text_and_no_other(tmp_path: Path, ruleset: str, n: int,
                                                          options: dict[str, str], seed: str) -> None:
    checked = 0
    for what, text in texts_of_game(tmp_path, ruleset, n, options, seed):
        markup = phone_html(text, NOTE)
        shown, written = html_words(markup), words_of(text)
        # the board drawn in text (boxes, a city's grid) is the picture's on a phone: only its
        # words may be missing from the HTML, and the note's in its place are the only others
        drawn = [b for b in blocks(text) if b.kind in BOARDS]
        board = words_of(str([b.items for b in drawn]))
        assert shown - words_of(NOTE) <= written and written - shown <= board, \
            f"{what}: only in the HTML {sorted(shown - written)[:10]}, only in the text {sorted(written - shown)[:10]}"
        assert notes(markup) == (1 if drawn else 0), what
        assert "<img" not in markup, what  # the picture is a part of the mail of its own
        assert markup.count("<pre") == text.count(BEGIN + "\n"), what  # the order block, and nothing else
        checked += 1
    assert checked > 6


@pytest.mark.parametrize("language", ["de", "nl"])
@pytest.mark.parametrize("ruleset", GAMES)
def test_a_report_in_another_language_is_html_alike(tmp_path: Path, ruleset: str, language: str) -> None:
    """Its headings, tables and orders are found as in English: the orders by the order block's."""
    checked = 0
    for what, text in texts_of_game(tmp_path, ruleset, len(room(ruleset).PLAYERS), {}, f"phone-{language}-{ruleset}", 17,
                                    language):
        markup = phone_html(text)
        shown, written = html_words(markup), words_of(text)
        board = words_of(str([b.items for b in blocks(text) if b.kind in BOARDS]))  # the picture's on a phone
        assert shown <= written and written - shown <= board, what
        if "refusal" not in what and BEGIN in text:
            found = kinds(markup)
            assert found["h1"] == 1 and found["h2"] >= 3 and found["pre"] == 1 and found["code"] >= 1, (what, found)
            checked += 1
    assert checked > 3


def test_the_check_of_words_can_fail() -> None:
    """A word the text does not have, or a word left out, is seen."""
    text = "THE TABLE\n  player  money\n  anna       57\n"
    markup = phone_html(text)
    assert html_words(markup) == words_of(text) == {"THE", "TABLE", "player", "money", "anna", "57"}
    assert words_of("|[8]ruler-of-the-street|[9] `pass`;") == {"8", "ruler", "of", "the", "street", "9", "pass"}
    assert html_words(markup.replace("57", "58")) != words_of(text)
    assert html_words(markup.replace("anna", "")) != words_of(text)


def report_of(ruleset: str, n: int, options: dict[str, str], seed: str, steps: int,
              tmp_path: Path) -> tuple[dict[str, Any], str, str]:
    """A game `steps` orders in, the player it waits for and his report of the last orders."""
    names = names_for(ruleset, n)
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, ruleset, "p1", [(p, f"{p}@example.org") for p in names], options, seed)
    for _ in range(steps):
        state = helpers.bot_move(state)
    player = waiting_for(state)[0]
    seen = max(0, len(state["events"]) - 12)
    return state, player, wrap72(render_report(state, player, state["events"][seen:]))


def order_block(markup: str) -> str:
    """The text of the HTML's <pre> as a browser shows it (a line's end right after the tag is not
    part of it)."""
    pre = re.search(r"<pre[^>]*>(.*?)</pre>", markup, re.S).group(1)
    return html.unescape(pre.removeprefix("\n"))


def kinds(markup: str) -> Counter[str]:
    return Counter(re.findall(r"<(h1|h2|table|th|ul|li|code|pre|img)\b", markup))


def test_headings_tables_and_orders_are_html() -> None:
    text = "\n".join([
        "MEDICI g1 - turn 4 - report for anna", "Seed commitment (sha256):", "  abc", "",
        "SINCE YOUR LAST REPORT", "  [   3] ben bids 10.", "  [   4] cleo passes.", "",
        "THE TABLE", "  player  money  value  free  hold", "* anna       30      0     5  -",
        "  ben        20      7     4  dyes-5, grain-2", "",
        "YOUR MOVE", "  You may send: pass; bid: N (N from 11 to 30).", "", BEGIN, "token: YOUR-TOKEN",
        "orders:", "#  - pass", "#  - bid: N", END, ""])
    markup = phone_html(text)
    assert kinds(markup) == Counter({"h1": 1, "h2": 3, "table": 1, "th": 5, "ul": 1, "li": 2, "code": 2,
                                     "pre": 1}), kinds(markup)
    assert re.search(r"<code[^>]*>bid:\sN</code>\s\(N\sfrom\s11\sto\s30\)", markup)
    # in another language, the orders are known by the order block's
    german = text.replace("You may send:", "Du darfst senden:").replace("THE TABLE", "DER TISCH")
    assert kinds(phone_html(german)) == kinds(markup)
    # one order alone, in another language, is one all the same
    dutch = text.replace("You may send: pass; bid: N (N from 11 to 30).", "Je kunt sturen: prijs: N (N van 0 tot 30).")
    dutch = dutch.replace("#  - pass\n#  - bid: N", "#  - prijs: N")
    assert re.search(r"<code[^>]*>prijs:\sN</code>\s\(N\svan\s0\stot\s30\)", phone_html(dutch))
    assert re.search(r"<td[^>]*>\s*dyes-5,\sgrain-2</td>", markup)
    pre = order_block(markup)
    assert pre == "\n".join([BEGIN, "token: YOUR-TOKEN", "orders:", "#  - pass", "#  - bid: N", END])
    assert re.search(r"<b>3</b>\s&#160;ben\sbids\s10\.</p>", markup)


@pytest.mark.parametrize("label", ["You may send:", "Du kannst senden:", "Je kunt sturen:"])
def test_one_order_is_a_line_to_copy_in_any_language(label: str) -> None:
    """The only order a player may send is code he can copy, in a list as two would be, whether the
    report lists it on the label's line or under it."""
    for lines in ([f"  {label} pass."], [f"  {label}", "    pass"]):
        text = "\n".join(["MEDICI g1 - turn 4 - report for anna", "", "YOUR MOVE", *lines, "", BEGIN,
                          "token: YOUR-TOKEN", "orders:", "#  - pass", END, ""])
        markup = phone_html(text)
        assert kinds(markup) == Counter({"h1": 1, "h2": 1, "ul": 1, "li": 1, "code": 1, "pre": 1}), (lines, markup)
        assert re.search(r'<li[^>]*><code[^>]*>pass</code></li>', markup), markup


def test_a_labelled_line_that_is_no_order_stays_a_line() -> None:
    """A line `word: words` whose words are not an order of the block is text, not code."""
    text = "\n".join(["MEDICI g1 - turn 4 - report for anna", "", "THE TABLE", "  Letzter Zug: ben passt.", "",
                      BEGIN, "token: YOUR-TOKEN", "orders:", "#  - pass", END, ""])
    assert kinds(phone_html(text))["code"] == 0


def test_a_choices_line_near_the_margin_keeps_the_sentence_below_it_apart() -> None:
    """A line of orders that ends so near the margin that the next line's first word would not fit
    is still the orders alone: the sentence below it stays a sentence."""
    choices = "  Mögliche Befehle: bieten: N (N eines von 4 6 8 9 10 11 12 13)."
    reply = "  Antworte auf diese Mail nur mit deinem Gebot, etwa 'bieten: 4'."
    assert len(choices) + 1 + len("Antworte") > 70  # as the wrapping could have broken it there
    text = "\n".join(["DEIN ZUG", choices, reply, "", BEGIN, "token: YOUR-TOKEN", "orders:", "#  - bieten: N", END, ""])
    found = [b for b in blocks(text) if b.kind in ("choices", "line")]
    assert [(b.kind, b.items if b.kind == "choices" else b.text) for b in found] == [
        ("choices", [("bieten: N (N eines von 4 6 8 9 10 11 12 13)", True)]),
        ("line", "Antworte auf diese Mail nur mit deinem Gebot, etwa 'bieten: 4'.")]
    assert kinds(phone_html(text))["code"] == 1


def report_mail(tmp_path: Path, ruleset: str, state: dict[str, Any], player: str, text: str) -> Any:
    """The report mail pbem composes for `player` (his move's buttons to his reply-key address)."""
    from pbem.mail.post import phone_moves

    picture = board_picture(state, player)
    assert picture is not None
    config = Config(root=tmp_path, gm_name="Game Master", gm_address="gm@pbem.test")
    turn = state["engine"]["turn"]
    return compose(config, player, f"{player}@example.org", "[pbem] p1 your move", text,
                   f"<pbem.p1.{player}.7.t{turn}@pbem.test>", picture=picture,
                   reply_to=f"gm+{turn}.abcdefghijklmnop@pbem.test", moves=phone_moves(state, player))


@pytest.mark.parametrize("ruleset", GAMES)
def test_the_mail_shows_the_board_once_by_its_picture(tmp_path: Path, ruleset: str) -> None:
    """A report mail carries the board once, as its picture, which says what it shows: a report's HTML
    is long, and shows it under the move (after its choices and buttons, before the next heading); the
    HTML draws no board in text (a board drawn in text stays in the plain part); where the text draws
    its board, a line says where the picture is."""
    n, options, seed, steps, _ = need(ruleset, "PHONE_SHAPE")
    state, player, text = report_of(ruleset, n, options, seed, steps, tmp_path)
    msg = report_mail(tmp_path, ruleset, state, player, text)
    picture = board_picture(state, player)
    assert [p.get_content_type() for p in msg.walk()] == RELATED
    markup, image = picture_in(msg)
    assert image.get_content_disposition() == "inline" and image.get_filename() == picture.filename
    assert str(image["Content-Description"]) == picture.alt == \
        f"The board of p1 at turn {state['engine']['turn']}, as {player} may see it"
    assert f'alt="{picture.alt}"' in re.sub(r"\s+", " ", markup)
    plain = msg.get_body(("plain",)).get_content()
    drawn = [b for b in blocks(plain) if b.kind in BOARDS]
    assert kinds(markup)["table"] == sum(b.kind == "table" for b in blocks(plain))  # no city as a table
    assert "display:inline-block;vertical-align:top" not in markup  # no boxes
    assert (picture.note, picture.above) == (NOTE, ABOVE)
    assert notes(markup, ABOVE) == (1 if drawn else 0) and notes(markup, NOTE) == 0
    # under the move: after its choices (and their buttons), before the heading that follows them
    flat = re.sub(r"\s+", " ", markup)
    img, choices = flat.index("<img"), flat.index("<ul")
    assert choices < img and "<h2" in flat[img:] and "<h2" not in flat[choices:img]
    assert flat.rfind('href="mailto:', 0, img) > choices or "mailto:" not in flat


@pytest.mark.parametrize("ruleset", GAMES)
def test_each_games_report_has_its_tables_and_orders(tmp_path: Path, ruleset: str) -> None:
    """Each game's tables, grids and boxes as its room's PHONE_SHAPE and PHONE_TEXT_CHECK say; its
    orders as code, the order block as its text's lines. A board drawn in text is shown by the picture
    alone, once."""
    n, options, seed, steps, expect = need(ruleset, "PHONE_SHAPE")
    state, player, text = report_of(ruleset, n, options, seed, steps, tmp_path)
    markup = phone_html(text)
    found = kinds(markup)
    for tag, least in expect.items():
        assert found[tag] >= least, (tag, found)
    assert found["h1"] == 1 and found["h2"] >= 4 and found["pre"] == 1 and found["img"] == 0
    assert order_block(markup) == text[text.index(BEGIN):text.index(END) + len(END)]
    if hasattr(room(ruleset), "PHONE_TEXT_CHECK"):  # what the game's own text becomes on a phone
        room(ruleset).PHONE_TEXT_CHECK(text)


# -- the board for a phone ------------------------------------------------------------------------------

def parse_phone(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("version") == "1.1"
    height = int(root.get("viewBox").split()[3])
    assert root.get("viewBox") == f"0 0 {PHONE} {height}"
    assert (root.get("width"), root.get("height")) == (str(2 * PHONE), str(2 * height))  # drawn twice as large
    for el in root.iter():
        assert el.tag.split("}")[1] not in ("image", "use", "script", "foreignObject", "a"), el.tag
        assert not any("href" in k for k in el.attrib), el.attrib
    return root


def smallest_word(svg: str) -> float:
    """The smallest word of a picture in pixels, when it is shown `SHOWN` pixels wide."""
    root = ET.fromstring(svg)
    sizes = []

    def walk(el: ET.Element, size: float) -> None:
        size = float(el.get("font-size", size))
        if el.tag == f"{SVG}text" and "".join(el.itertext()).strip():
            sizes.append(size)
        for child in el:
            walk(child, size)
    walk(root, 16.0)  # SVG's initial font size
    return min(sizes) * SHOWN / float(root.get("viewBox").split()[2])


def test_the_measure_of_the_smallest_word_can_fail() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 100" font-size="14"><text>a</text>'
           '<g font-size="10"><text>b</text></g></svg>')
    assert smallest_word(svg) == pytest.approx(10 * 340 / 720)  # the archive's boards: 4.7 pixels


@pytest.mark.parametrize("ruleset,n,options,seed", each("PHONE_TABLES"))
def test_every_phone_board_shows_the_view_in_words_of_9_pixels(tmp_path: Path, ruleset: str, n: int,
                                                               options: dict[str, str], seed: str) -> None:
    names = names_for(ruleset, n)
    compared = drawn = 0
    least = 99.0
    for state in bot_states(tmp_path, ruleset, names, options, seed, every=9):
        for viewer in [*names, None]:
            svg = phone_board_svg(state, viewer)
            root = parse_phone(svg)
            seat = check_legend(root, state, viewer)
            view = get_ruleset(ruleset).view(state["engine"], viewer or "")
            compared += need(ruleset, "PICTURE_CHECK")(root, view, seat)
            least = min(least, smallest_word(svg))
            drawn += 1
    assert least >= SMALLEST, least
    assert drawn >= 10 and compared > 100


@pytest.mark.parametrize("ruleset,n,options,seed,every", each("SECRET_TABLES"))
def test_no_phone_board_moves_when_what_its_viewer_may_not_see_changes(tmp_path: Path, ruleset: str, n: int,
                                                                      options: dict[str, str], seed: str,
                                                                      every: int) -> None:
    """The tables of its room's SECRET_TABLES, read every 11 orders."""
    seed = f"phone-{seed}"
    names = names_for(ruleset, n)
    tried = 0
    for k, state in enumerate(bot_states(tmp_path, ruleset, names, options, seed, every=11)):
        drawn = {p: phone_board_svg(state, p) for p in [*names, None]}
        for what, other, blind in hidden_variants(state, f"{seed}-{k}"):
            tried += 1
            assert phone_board_svg(other, None) == drawn[None], f"the public picture depends on {what}"
            for p in sorted(blind):
                assert phone_board_svg(other, p) == drawn[p], f"{p}'s picture depends on {what}"
    assert tried > 10


@pytest.mark.parametrize("ruleset,n,options,seed,every", each("PICTURE_TABLES"))
def test_a_phone_board_is_drawn_by_pillow_as_resvg_draws_it(tmp_path: Path, ruleset: str, n: int,
                                                            options: dict[str, str], seed: str, every: int) -> None:
    """Pillow draws the phone's boards (twice their viewBox) as resvg does; the PNG decodes at twice
    the board's size."""
    from PIL import ImageChops, ImageStat

    from pbem import raster
    from pbem.pictures import FONT_FILES
    from test_raster import resvg_image

    if not all(f.is_file() for f in FONT_FILES):
        pytest.skip("DejaVu Sans is not installed (make install adds fonts-dejavu-core)")
    state, player, _ = report_of(ruleset, n, options, f"phone-raster-{ruleset}", 25, tmp_path)
    svg = phone_board_svg(state, player)
    drawn = raster.draw(svg, (FONT_FILES[0], FONT_FILES[1]))
    diff = ImageChops.difference(drawn, resvg_image(svg)).convert("L")
    mean, far = ImageStat.Stat(diff).mean[0], sum(diff.histogram()[97:]) / (drawn.size[0] * drawn.size[1])
    assert mean < 4 and far < 0.005, (mean, far)
    width, height, _ = decode_png(board_png(svg))
    assert (width, height) == (2 * PHONE, 2 * int(ET.fromstring(svg).get("viewBox").split()[3]))


def test_a_game_without_a_phone_board_gets_the_archives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem import report
    from pbem.pictures import board_svg

    state, player, _ = report_of("medici", 3, {}, "phone-fallback", 3, tmp_path)
    real = report._load
    monkeypatch.setattr(report, "_load", lambda name: None if name.endswith("board-phone.svg.j2") else real(name))
    assert phone_board_svg(state, player) == board_svg(state, player)


# -- in a browser, 360 pixels wide ---------------------------------------------------------------------

def phone_games() -> dict[str, tuple[str, int, dict[str, str], str, int]]:
    """The reports opened on a phone, by a key (the game's name for its first): (game, count, options,
    seed, orders played), from each room's PHONE_SHOTS."""
    out: dict[str, Any] = {}
    for game in GAMES:
        shots = getattr(room(game), "PHONE_SHOTS", None) if room_file(game).exists() else None
        if shots is None:
            out[game] = None  # the test skips it, naming the room and the attribute
        for i, (n, options, seed, steps) in enumerate(shots or []):
            out[game if i == 0 else f"{game}-{n}"] = (game, n, options, seed, steps)
    return out


PHONE_GAMES = phone_games()

CONTRAST = 4.5
# every text node's element: its font size, its colour and the colours behind it (innermost last)
PAGE_TEXT = """(() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    const backs = [];
    for (let e = el; e; e = e.parentElement) backs.unshift(getComputedStyle(e).backgroundColor);
    const style = getComputedStyle(el);
    out.push({tag: el.tagName, text: node.textContent.trim().slice(0, 40), size: parseFloat(style.fontSize),
              color: style.color, backs: backs});
  }
  return out;
})()"""


def rgba(css: str) -> tuple[float, float, float, float]:
    numbers = [float(x) for x in re.findall(r"[\d.]+", css)]
    return (numbers[0], numbers[1], numbers[2], numbers[3] if len(numbers) > 3 else 1.0)


def over(top: tuple[float, float, float, float], below: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b, a = top
    return (r * a + below[0] * (1 - a), g * a + below[1] * (1 - a), b * a + below[2] * (1 - a))


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: tuple[float, float, float], bg: tuple[float, float, float]) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def contrast_of(item: dict[str, Any], canvas: tuple[float, float, float]) -> float:
    """The contrast of a text with what lies behind it: its element's and its ancestors' backgrounds
    laid over the page's canvas."""
    back = canvas
    for css in item["backs"]:
        back = over(rgba(css), back)
    return contrast(over(rgba(item["color"]), back), back)


def test_the_contrast_check_can_fail() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    grey_on_black = {"color": "rgb(90, 90, 90)", "backs": ["rgb(18, 18, 18)", "rgba(0, 0, 0, 0)"]}
    assert contrast_of(grey_on_black, (255, 255, 255)) < CONTRAST
    tinted = {"color": "rgb(255, 255, 255)", "backs": ["rgb(18, 18, 18)", "rgba(128, 128, 128, 0.14)"]}
    assert contrast_of(tinted, (18, 18, 18)) > 12


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from test_browser import CHROMIUM, Browser

    if CHROMIUM is None:
        pytest.skip("chromium is not installed (make test installs it)")
    b = Browser(tmp_path_factory.mktemp("chromium-phone"))
    b.call("Emulation.setDeviceMetricsOverride", session=True, width=360, height=780, deviceScaleFactor=2,
           mobile=True)
    yield b
    b.close()


def report_mail_page(folder: Path, key: str) -> tuple[Path, str, str, str]:
    """A mid-game report mail as pbem composes it (with the buttons of the move), as a phone's client
    shows it (`mail_page`). The page, the text, the SVG and the note that stands in the HTML in place
    of a board drawn in text."""
    if PHONE_GAMES[key] is None:
        pytest.skip(f"tests/rooms/{room_file(key).name} has no PHONE_SHOTS")
    ruleset, n, options, seed, steps = PHONE_GAMES[key]
    state, player, text = report_of(ruleset, n, options, seed, steps, folder)
    msg = report_mail(folder, ruleset, state, player, text)
    page = mail_page(msg, folder, key)
    return page, text, phone_board_svg(state, player), board_picture(state, player).above


def mail_page(msg: Any, folder: Path, name: str) -> Path:
    """A mail's HTML part as a page, as a phone's client shows it: the picture its HTML shows by
    `cid:` in its place, or (a short HTML) under the HTML at the screen's width (as Apple Mail shows an
    inline part after the text; Gmail shows it as an attachment there)."""
    part = msg.get_body(("html",))
    assert part["Content-Transfer-Encoding"] == "7bit"  # ASCII: no quoted-printable
    markup, image = picture_in(msg)
    (folder / "board.png").write_bytes(image.get_content())
    if "cid:" in markup:
        markup = re.sub(r'src="cid:[^"]+"', 'src="board.png"', markup)
    else:
        markup = markup.replace("</body>", '<img src="board.png" style="display:block;width:100%;height:auto" '
                                'alt=""></body>')
    page = folder / f"{name}.html"
    page.write_text(markup, "utf-8")
    return page


#: each button of the page: its size, its words' size and what it links to
PAGE_BUTTONS = """[...document.querySelectorAll('a[href^="mailto:"]')].map(a => {
  const r = a.getBoundingClientRect();
  return {text: a.innerText, href: a.getAttribute('href'), width: r.width, height: r.height, right: r.right,
          size: parseFloat(getComputedStyle(a).fontSize)};
})"""
#: the picture as shown: its width on the screen and its own
PAGE_PICTURE = """[...document.images].map(i => ({shown: i.getBoundingClientRect().width, natural: i.naturalWidth,
                                                top: i.getBoundingClientRect().top}))"""


def check_buttons_and_picture(phone: Any, what: str) -> None:
    """Every button a tap target of 44 pixels and more inside the screen, its words 16 pixels; the
    picture loaded and shown at least 340 pixels wide."""
    for b in phone.evaluate(PAGE_BUTTONS):
        assert b["height"] >= 44 and b["width"] >= 44 and b["right"] <= 360 and b["size"] >= 16, (what, b)
    (picture,) = phone.evaluate(PAGE_PICTURE)
    assert picture["natural"] == 2 * PHONE and picture["shown"] >= 340, (what, picture)


@pytest.mark.parametrize("key", list(PHONE_GAMES))
def test_a_report_on_a_phone(phone: Any, tmp_path: Path, key: str) -> None:
    page, text, svg, note = report_mail_page(tmp_path, key)
    for dark in (False, True):
        phone.call("Emulation.setEmulatedMedia", session=True,
                   features=[{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}])
        assert phone.open(page.as_uri()) == []
        mode = "dark" if dark else "light"
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, mode  # no sideways scrolling
        assert phone.evaluate("document.body.scrollWidth") <= 360, mode
        items = phone.evaluate(PAGE_TEXT)
        assert len(items) > 30
        small = [(i["tag"], i["text"], i["size"]) for i in items if i["size"] < 14]
        assert not small, f"{mode}: text under 14 pixels: {small[:5]}"
        canvas = (18.0, 18.0, 18.0) if dark else (255.0, 255.0, 255.0)
        poor = [(i["text"], round(contrast_of(i, canvas), 2)) for i in items if contrast_of(i, canvas) < CONTRAST]
        assert not poor, f"{mode}: poor contrast: {poor[:5]}"
        check_buttons_and_picture(phone, f"{key} {mode}")
        if dark:  # the page follows the reader's choice of dark: its own colours are the dark ones
            assert phone.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 18)"
        else:
            keep = os.environ.get("PBEM_SCREENSHOTS")
            if keep and key in GAMES:  # one of each ruleset
                shot = tmp_path / "shot.png"
                phone_screenshot(phone, shot, 6000)
                Path(keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, Path(keep) / f"phone-{key}.png")
    assert smallest_word(svg) >= SMALLEST
    # what the page shows is the text's own words, but for a board drawn in text: the picture shows it
    shown, written = words_of(phone.evaluate("document.body.innerText")), words_of(text)
    drawn = [b for b in blocks(text) if b.kind in BOARDS]
    buttons = html_words("".join(BUTTONS.findall(page.read_text("utf-8"))))
    assert shown - words_of(note) - buttons <= written and written - shown <= words_of(str([b.items for b in drawn]))
    assert notes(page.read_text("utf-8"), note) == (1 if drawn else 0)


def phone_screenshot(phone: Any, path: Path, most: int = 2000) -> None:
    """The top of the page, 360 pixels wide (`most` high), at one pixel to the CSS pixel."""
    import base64
    import io

    from PIL import Image

    size = phone.call("Page.getLayoutMetrics", session=True)["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": 360, "height": min(most, int(size["height"])), "scale": 0.5}
    data = phone.call("Page.captureScreenshot", session=True, format="png", clip=clip, captureBeyondViewport=True)
    with Image.open(io.BytesIO(base64.b64decode(data["data"]))) as shot:  # 256 colours: half the bytes
        shot.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            path, optimize=True)


def test_the_page_check_can_fail(phone: Any, tmp_path: Path) -> None:
    """A page with a wide block and small print is seen as such."""
    page = tmp_path / "bad.html"
    page.write_text('<html><body style="margin: 0"><pre style="font-size: 12px">' + "x" * 90 + "</pre></body></html>")
    assert phone.open(page.as_uri()) == []
    assert phone.evaluate("document.documentElement.scrollWidth") > 360
    assert [i["size"] for i in phone.evaluate(PAGE_TEXT)] == [12]
