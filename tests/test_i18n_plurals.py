"""German and Dutch count things as their grammar does, and name cards as their rulebooks do: every
counted noun of a game with its plural forms, and the Amigo edition's card of 10 as the neutral 10 (seed 000: „die neutrale 10“)
wherever a German or Dutch reader meets it: reports, events, the board pictures. English reads as
before."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from pbem import pictures
from pbem.game import new_game
from pbem.mail.phone import phone_board_svg
from pbem.report import event_lines, render_report
from pbem.rules.base import files_of
from pbem.store import GamesDir
from rooms import GAMES

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "pbem" / "locale"


def medici(tmp_path: Path, edition: str) -> dict[str, Any]:
    """A Medici game whose lot holds the card of 10 (and a card of a good)."""
    state, _ = new_game(GamesDir(tmp_path / "games"), "medici", "n1",
                        [(p, f"{p}@example.org") for p in ("anna", "ben", "cleo")], {"edition": edition}, "neutral")
    state["engine"]["lot"] = ["gold-10", "dyes-5"]
    return state


@pytest.mark.parametrize("lang,neutral", [("de", "die neutrale 10"), ("nl", "de neutrale 10"), ("en", "gold-10")])
def test_the_amigo_editions_card_of_10_is_the_neutral_10(tmp_path: Path, lang: str, neutral: str) -> None:
    state = medici(tmp_path, "amigo")
    text = render_report(state, "anna", [], lang=lang)
    dyes = {"de": "Farben-5", "nl": "verfstoffen-5", "en": "dyes-5"}[lang]
    assert f"{neutral}, {dyes}" in text
    assert ("Gold" not in text and "goud" not in text) if lang != "en" else "gold-10" in text
    reveal = {"type": "reveal", "turn": 3, "player": "ben", "card": "gold-10", "lot": ["gold-10"]}
    assert event_lines("medici", [reveal], lang, state["options"])[0] == {
        "de": "ben deckt die neutrale 10 auf.", "nl": "ben trekt de neutrale 10.",
        "en": "ben reveals gold-10."}[lang]


@pytest.mark.parametrize("lang,gold", [("de", "Gold-10"), ("nl", "goud-10"), ("en", "gold-10")])
def test_the_rio_grande_editions_card_of_10_is_gold(tmp_path: Path, lang: str, gold: str) -> None:
    state = medici(tmp_path, "riogrande")
    assert f"{gold}, " in render_report(state, "anna", [], lang=lang)
    reveal = {"type": "reveal", "turn": 3, "player": "ben", "card": "gold-10", "lot": ["gold-10"]}
    assert gold in event_lines("medici", [reveal], lang, state["options"])[0]


@pytest.mark.parametrize("lang,label", [("de", "neutral"), ("nl", "neutraal"), ("en", "gold")])
def test_the_board_pictures_name_the_neutral_card(tmp_path: Path, lang: str, label: str) -> None:
    state = medici(tmp_path, "amigo")
    for svg in (pictures.board_svg(state, "anna", lang=lang), phone_board_svg(state, "anna", lang)):
        card = re.search(r'<g class="card" data-card="gold-10"[^>]*>.*?</g>', svg)
        assert card and f">{label}</text>" in card.group(0) and ">10</text>" in card.group(0)


# counts that are never 1: a day starts with 6 cards a player in the bag (3 players at least)
NEVER_ONE = {"Day %(day)s begins: %(cards)s cards are in the bag; %(player)s starts (%(why)s).",
             "%(title)s, in short. Three days; each day %(cards)s cards are in the bag."}


@pytest.mark.parametrize("domain", GAMES)
def test_the_games_counted_nouns_have_plural_forms(domain: str) -> None:
    """A message whose number counts a noun (`%(n)s cards left`, `%(size)s pieces`) is a plural entry, or
    one of a refusal's two formats (`beyond %(n)s card` and `beyond %(n)s cards`, chosen by the rules)."""
    pot = (files_of(domain, "locale") or LOCALE) / f"{domain}.pot"  # pbem's, or a game's own folder's
    with pot.open("rb") as f:
        singular = {m.id for m in read_po(f) if isinstance(m.id, str)}
    counted = re.compile(r"%\((?!colour\b|card\b)\w+\)s (cards?|tiles?|points?|pieces?|stables?|merchants?|walls?"
                         r"|roofs?|time)\b")
    def one(message: str) -> str:  # the message with each counted noun in the singular
        return counted.sub(lambda found: found.group(0).rstrip("s"), message)

    pairs = [one(m) for m in singular]
    lacking = [m for m in singular if counted.search(m) and "%(cost)s time" not in m and pairs.count(one(m)) < 2
               and not m.startswith(tuple(NEVER_ONE))]
    assert lacking == []
