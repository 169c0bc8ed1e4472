"""Every word of every board picture fits its box, in every language: each `text` of the desktop and the
phone board of each game, drawn in English, German and Dutch at several points of a game, is measured
in DejaVu Sans as pbem.raster draws it, and lies wholly inside each box (`rect`) it touches, and inside
the picture. A heading a card covers ("Das Warenp|aket") or a label wider than its card fails."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import helpers
import pbem.pictures as pictures
from pbem.game import new_game
from pbem.mail.phone import phone_board_svg
from pbem.store import GamesDir
from rooms import GAMES, room

LANGS = ("en", "de", "nl")
STEPS = (0, 6, 25)  # the start, a lot or an offer on the table, the middle of a game
NS = "{http://www.w3.org/2000/svg}"
SLACK = 0.5  # of a unit: anti-aliasing, not a cut


def states(tmp_path: Path, game: str) -> list[dict[str, Any]]:
    """A game of `game` at each of STEPS bot moves."""
    names = room(game).PLAYERS
    state, _ = new_game(GamesDir(tmp_path / "games"), game, "g1", [(p, f"{p}@example.org") for p in names], {},
                        "picture-fit")
    found, done = [], 0
    for steps in STEPS:
        while done < steps and state["status"] == "active":
            state = helpers.bot_move(state)
            done += 1
        found.append(state)
    return found


def _inherited(el: ET.Element, parents: dict[ET.Element, ET.Element], name: str, default: str) -> str:
    while el is not None:
        if el.get(name) is not None:
            return str(el.get(name))
        el = parents.get(el)  # type: ignore[assignment]
    return default


def overflows(svg: str) -> list[str]:
    """Each text of `svg` with a word in it that does not fit: outside the picture, or across the edge of
    a box it touches."""
    root = ET.fromstring(svg)
    parents = {child: parent for parent in root.iter() for child in parent}
    width, height = (float(v) for v in root.get("viewBox", "0 0 0 0").split()[2:])
    boxes = []
    for el in root.iter(f"{NS}rect"):
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        w, h = float(el.get("width", 0)), float(el.get("height", 0))
        if w < width - 1:  # the background is every text's box
            boxes.append((x, y, x + w, y + h))
    bad = []
    for el in root.iter(f"{NS}text"):
        words = " ".join((el.text or "").split())
        if not any(c.isalpha() for c in words):  # words only: a number on a badge is drawn as the design has it
            continue
        size = float(_inherited(el, parents, "font-size", "16"))
        bold = _inherited(el, parents, "font-weight", "normal") == "bold"
        anchor = _inherited(el, parents, "text-anchor", "start")
        w = pictures.text_width(words, size, bold)
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        x0 = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
        x1, top, bottom = x0 + w, y - 0.72 * size, y + 0.2 * size
        if x0 < -SLACK or x1 > width + SLACK:
            bad.append(f"{words!r} ({x0:.0f}..{x1:.0f}) leaves the picture (0..{width:.0f})")
            continue
        for bx0, by0, bx1, by1 in boxes:
            touches = x0 < bx1 and x1 > bx0 and top < by1 and bottom > by0
            inside = x0 >= bx0 - SLACK and x1 <= bx1 + SLACK and top >= by0 - 2 and bottom <= by1 + 2
            around = bx0 >= x0 - SLACK and bx1 <= x1 + SLACK and by0 >= top - 2 and by1 <= bottom + 2
            if touches and not inside and not around:
                bad.append(f"{words!r} ({x0:.0f}..{x1:.0f}, {top:.0f}..{bottom:.0f}) crosses the box "
                           f"({bx0:.0f}..{bx1:.0f}, {by0:.0f}..{by1:.0f})")
    return bad


@pytest.mark.skipif(len(pictures._fonts()) < len(pictures.FONT_FILES), reason="DejaVu Sans is not installed")
@pytest.mark.parametrize("game", GAMES)
def test_every_word_of_every_picture_fits_its_box_in_every_language(tmp_path: Path, game: str) -> None:
    bad = []
    for state in states(tmp_path, game):
        viewer = state["players"][0]["name"]
        for lang in LANGS:
            for kind, svg in (("board", pictures.board_svg(state, viewer, lang=lang)),
                              ("phone", phone_board_svg(state, viewer, lang))):
                bad += [f"{lang} {kind} turn {state['engine']['turn']}: {b}" for b in overflows(svg)]
    assert not bad, "\n".join(dict.fromkeys(bad))


def test_a_heading_a_card_covers_is_found() -> None:
    """The measure itself: a bold heading running into the card beside it fails; one that ends before
    the card, and a card's own label inside it, fit."""
    def svg(heading: str) -> str:
        return (f'<svg xmlns="{NS[1:-1]}" viewBox="0 0 360 80"><rect x="0" y="0" width="360" height="80"/>'
                f'<text x="6" y="40" font-size="13" font-weight="bold">{heading}</text>'
                '<rect x="94" y="28" width="45" height="32"/><text x="116" y="42" font-size="10" '
                'text-anchor="middle">Stoffe</text></svg>')
    assert overflows(svg("Das Paket")) == []
    (found,) = overflows(svg("Das Warenpaket"))
    assert found.startswith("'Das Warenpaket'") and "crosses the box (94..139" in found
