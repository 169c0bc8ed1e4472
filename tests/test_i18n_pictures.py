"""The board pictures in the reader's language: the pictures' environment per language and game,
`board_svg(..., lang=)` and `phone_board_svg(..., lang=)`, English as it always was, and the boards'
own words translated where the catalogs have them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import helpers
from helpers import has_word
import pbem.pictures as pictures
from pbem.game import new_game
from pbem.mail.phone import phone_board_svg
from pbem.store import GamesDir
from rooms import EXAMPLE, GAMES, need, room

LANGS = ("de", "nl")


def game_state(tmp_path: Path, game: str, steps: int = 12) -> dict[str, Any]:
    """A game of `game` after a few bot moves."""
    names = room(game).PLAYERS
    state, _ = new_game(GamesDir(tmp_path / "games"), game, "g1", [(p, f"{p}@example.org") for p in names], {},
                        "i18n-pictures")
    for _step in range(steps):
        if state["status"] != "active":
            break
        state = helpers.bot_move(state)
    return state


def words(svg: str) -> str:
    """The words an SVG shows (its title apart)."""
    return " ".join(re.findall(r">([^<>]+)<", re.sub(r"<title>.*?</title>", "", svg)))


def test_one_environment_per_language_and_game_and_english_is_the_plain_one() -> None:
    assert pictures.env_for("en", "medici") is pictures.env()
    assert pictures.env_for("de", "medici") is pictures.env_for("de", "medici")
    other = next(game for game in GAMES if game != EXAMPLE)
    assert pictures.env_for("de", EXAMPLE) is not pictures.env_for("de", other)
    assert pictures.env_for("de", "medici") is not pictures.env_for("nl", "medici")


@pytest.mark.parametrize("game", GAMES)
def test_english_is_drawn_as_before(tmp_path: Path, game: str) -> None:
    state = game_state(tmp_path, game)
    viewer = state["players"][0]["name"]
    assert pictures.board_svg(state, viewer, lang="en") == pictures.board_svg(state, viewer)
    assert phone_board_svg(state, viewer, "en") == phone_board_svg(state, viewer)


def found(words_of_board: list[str], shown: str) -> list[str]:
    """The words of `words_of_board` that `shown` holds, each as a whole word."""
    return [w for w in words_of_board if has_word(shown, w)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_no_english_board_word_is_left(tmp_path: Path, game: str, lang: str) -> None:
    """The English board shows words of the game's own (its room's BOARD_ENGLISH); no German or Dutch
    board shows one."""
    board_english = need(game, "BOARD_ENGLISH")
    for steps in (0, 40):
        state = game_state(tmp_path / str(steps), game, steps)
        for viewer in (None, state["players"][0]["name"]):
            for draw in (pictures.board_svg, phone_board_svg):
                assert found(board_english, words(draw(state, viewer))), (draw.__name__, viewer, steps)
                left = found(board_english, words(draw(state, viewer, lang=lang)))
                assert not left, f"{draw.__name__} {viewer} after {steps}: {left}"


FONTS = {"normal": Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
         "bold": Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")}


def text_width(text: str, size: float, bold: bool) -> float:
    """The width of `text` in DejaVu Sans at `size`, as pbem.raster draws it."""
    from PIL import ImageFont

    return ImageFont.truetype(str(FONTS["bold" if bold else "normal"]), 100).getlength(text) * size / 100


def overflows(svg: str) -> list[str]:
    """The texts of an SVG that run out of their box (the rect beside them in their group) or out of
    the picture."""
    import xml.etree.ElementTree as ET

    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(svg)
    width = float(root.get("viewBox", "0 0 0 0").split()[2])
    out = []

    def walk(node: ET.Element, size: float) -> None:
        size = float(node.get("font-size", size))
        rects = [r for r in node if r.tag == f"{ns}rect" and r.get("class") not in ("background",)]
        for child in node:
            if child.tag == f"{ns}text" and child.text:
                s = float(child.get("font-size", size))
                w = text_width(child.text, s, child.get("font-weight") == "bold")
                x, anchor = float(child.get("x", 0)), child.get("text-anchor", "start")
                left = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
                y = float(child.get("y", 0))
                inside = [r for r in rects if float(r.get("x", 0)) <= x <= float(r.get("x", 0)) + float(r.get("width", 0))
                          and float(r.get("y", 0)) <= y <= float(r.get("y", 0)) + float(r.get("height", 0))]
                lo, hi = (float(inside[0].get("x", 0)), float(inside[0].get("x", 0)) + float(inside[0].get("width", 0))) \
                    if inside and node.tag == f"{ns}g" else (0.0, width)
                if left < lo - 1.5 or left + w > hi + 1.5:  # the advance, a little wider than the ink
                    out.append(f"{child.text!r} ({left:.0f}-{left + w:.0f} in {lo:.0f}-{hi:.0f})")
            elif child.tag == f"{ns}g" or child.tag == f"{ns}svg":
                walk(child, size)
    walk(root, float(root.get("font-size", 14)))
    return out


@pytest.mark.skipif(not FONTS["normal"].is_file(), reason="no DejaVu Sans")
@pytest.mark.parametrize("lang", ("en", *LANGS))
@pytest.mark.parametrize("game", GAMES)
def test_every_word_fits_its_box(tmp_path: Path, game: str, lang: str) -> None:
    for steps in (0, 30, 400):
        state = game_state(tmp_path / str(steps), game, steps)
        for viewer in (None, state["players"][0]["name"]):
            for draw in (pictures.board_svg, phone_board_svg):
                assert not overflows(draw(state, viewer, lang=lang)), f"{draw.__name__}, {viewer}, after {steps}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_headers_words_are_in_the_language(tmp_path: Path, game: str, lang: str) -> None:
    state = game_state(tmp_path, game)
    for viewer in (None, state["players"][0]["name"]):
        for draw in (pictures.board_svg, phone_board_svg):
            shown = words(draw(state, viewer, lang=lang))
            assert not re.search(r"\b(turn|sees it|every player)\b", shown), shown[:200]


# -- the archive in a language -------------------------------------------------------------------------

#: words of the archive's English pages that a German or Dutch page may not show (outside the games'
#: own texts: names, orders, the view's keys of "Hidden at the time", the log file's name)
ARCHIVE_ENGLISH = ["turn", "Turn", "after", "The start", "the start", "players", "Players", "next", "previous", "What happened",
                   "The board", "All games", "Final standings", "Seed commitment", "waiting for", "finished",
                   "Recorded in git", "as every player sees it", "Check it yourself", "Written by"]


@pytest.fixture(scope="module")
def archived(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    """A finished game of each ruleset, archived in English, German and Dutch."""
    from test_archive import finished_games

    from pbem.archive import write_archive

    root = tmp_path_factory.mktemp("i18n-archive")
    gd, _states = finished_games(root / "games", commit_every=25)
    sites = {}
    for lang in ("en", *LANGS):
        sites[lang] = root / f"site-{lang}"
        done, problems = write_archive(gd, None, sites[lang], lang=lang)
        assert problems == [] and len(done) == len(GAMES)
    return root, sites


def page_words(html: str) -> str:
    """What a page says: its text and its pictures' words, without the code it quotes."""
    html = re.sub(r"<code[^>]*>.*?</code>|<pre>.*?</pre>|<dl class=\"hidden\">.*?</dl>|<p class=\"commit\">.*?</p>",
                  " ", html, flags=re.S)  # and the git commit's own subject
    alts = " ".join(re.findall(r'alt="([^"]*)"', html))
    return " ".join(re.findall(r">([^<>]+)<", html)) + " " + alts


@pytest.mark.parametrize("lang", LANGS)
def test_the_archive_in_a_language_has_no_english_word_and_still_works(archived, lang: str) -> None:
    from test_archive import check_links

    _root, sites = archived
    site = sites[lang]
    assert check_links(site) > 0
    english_pages = sorted(p.relative_to(sites["en"]) for p in sites["en"].rglob("*.*"))
    assert sorted(p.relative_to(site) for p in site.rglob("*.*")) == english_pages
    for page in site.rglob("*.html"):
        html = page.read_text("utf-8")
        assert f'<html lang="{lang}">' in html
        shown = page_words(html)
        left = [w for w in ARCHIVE_ENGLISH if has_word(shown, w)]
        assert not left, f"{page.relative_to(site)}: {left}"
    for picture in site.rglob("*.svg"):
        shown = words(picture.read_text("utf-8"))
        assert not re.search(r"\b(turn|after turn|at the start|sees it)\b", shown), picture.name


def test_the_archive_in_english_is_as_it_was(archived) -> None:
    _root, sites = archived
    html = (sites["en"] / "index.html").read_text("utf-8")
    assert '<html lang="en">' in html and "All games" in html


def test_archive_language_option(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pbem.cli import main

    assert CliRunner().invoke(main, ["init", "--games-dir", str(tmp_path / "games")]).exit_code == 0
    result = CliRunner().invoke(main, ["archive", "--out", str(tmp_path / "site"), "--language", "xx",
                                       "--games-dir", str(tmp_path / "games")])
    assert result.exit_code != 0 and "xx" in result.output
