"""German and Dutch count things as their grammar does, and name cards as their rulebooks do: Florenz's
time in units (`1 Zeiteinheit`, `4 Zeiteinheiten`, `2 tijdseenheden`), every counted noun with its
plural forms, and the Amigo edition's card of 10 as the neutral 10 (seed 000: „die neutrale 10“)
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
from pbem.i18n import translator
from pbem.mail.phone import phone_board_svg
from pbem.report import event_lines, render_report, wrap72
from pbem.store import GamesDir

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


@pytest.mark.parametrize("lang,one,four", [("de", "1 Zeiteinheit", "4 Zeiteinheiten"),
                                           ("nl", "1 tijdseenheid", "4 tijdseenheden"),
                                           ("en", "1 time", "4 time")])
def test_florenz_counts_time_in_units(lang: str, one: str, four: str) -> None:
    events = [{"type": "first_pass", "turn": 5, "family": "anna", "time": n} for n in (1, 4)] + \
             [{"type": "strozzi_time", "turn": 5, "time": n, "why": "first to pass"} for n in (1, 4)] + \
             [{"type": "giovanni_accept", "turn": 5, "family": "anna", "time": n, "vp": 12} for n in (1, 4)]
    lines = event_lines("florenz", events, lang)
    for single, plural in zip(lines[::2], lines[1::2]):
        assert one in single and four in plural, (single, plural)
    if lang == "de":
        assert lines[5] == "anna nimmt Giovannis Belohnung an: 4 Zeiteinheiten für 12 SP."


def test_giovannis_offer_reads_as_a_price() -> None:
    """„zahle 2 Zeiteinheiten für 12 SP“, not „gib 12 SP für 2 Zeit“."""
    words = translator("de", "florenz")
    offer = words.ngettext("%(time)s time for %(vp)s VP", "%(time)s time for %(vp)s VP", 2) % {"time": 2, "vp": 12}
    assert words.gettext("spend %(what)s") % {"what": offer} == "zahle 2 Zeiteinheiten für 12 SP"
    one = words.ngettext("%(time)s time for %(vp)s VP", "%(time)s time for %(vp)s VP", 1) % {"time": 1, "vp": 7}
    assert one == "1 Zeiteinheit für 7 SP"


@pytest.mark.parametrize("lang,supply", [("de", "2 Ställe, 1 Händler, 1 Mauer, 1 Dach"),
                                         ("nl", "2 stallen, 1 koopman, 1 muur, 1 dak"),
                                         ("en", "2 stables, 1 merchant, 1 wall, 1 roof")])
def test_medinas_supply_is_counted(tmp_path: Path, lang: str, supply: str) -> None:
    state, _ = new_game(GamesDir(tmp_path / "games"), "medina", "n2",
                        [(p, f"{p}@example.org") for p in ("anna", "ben", "cleo")], {}, "supply")
    state["engine"]["supply"]["anna"].update(stable=2, merchant=1, wall=1, roof=1)
    text = render_report(state, "anna", [], lang=lang)
    assert supply in " ".join(text.split())


def test_a_number_stays_with_its_unit_when_a_line_is_broken() -> None:
    line = "  Belohnungen, die stärkste Familie zuerst: 6 Zeiteinheiten für 32 SP, 4 Zeiteinheiten für 21 SP"
    for broken in wrap72(line, 4).split("\n"):
        assert not re.search(r"\d$", broken) and not re.match(r"\s*(SP|Zeiteinheit)", broken), broken


def catalog(lang: str, domain: str) -> Any:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


@pytest.mark.parametrize("lang,bare", [("de", r"(%\(\w+\)s|\b\d+) Zeit\b"), ("nl", r"(%\(\w+\)s|\b\d+) tijd\b")])
def test_no_count_of_time_is_left_without_its_unit(lang: str, bare: str) -> None:
    """Florenz never counts „4 Zeit“ or „4 tijd“; a message that counts time by a number it is given has
    plural forms."""
    for m in catalog(lang, "florenz"):
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert not any(re.search(bare, s) for s in strings), (m.id, m.string)
        singular = m.id[0] if isinstance(m.id, tuple) else m.id
        if re.search(r"%\((?!cost\b)\w+\)s time\b", singular):  # a refusal's cost says its unit first
            assert isinstance(m.id, tuple), singular


# counts that are never 1: a day starts with 6 cards a player in the bag (3 players at least)
NEVER_ONE = {"Day %(day)s begins: %(cards)s cards are in the bag; %(player)s starts (%(why)s).",
             "%(title)s, in short. Three days; each day %(cards)s cards are in the bag."}


@pytest.mark.parametrize("domain", ["medici", "medici-strozzi", "medina", "florenz"])
def test_the_games_counted_nouns_have_plural_forms(domain: str) -> None:
    """A message whose number counts a noun (`%(n)s cards left`, `%(size)s pieces`) is a plural entry, or
    one of a refusal's two formats (`beyond %(n)s card` and `beyond %(n)s cards`, chosen by the rules)."""
    with (LOCALE / f"{domain}.pot").open("rb") as f:
        singular = {m.id for m in read_po(f) if isinstance(m.id, str)}
    counted = re.compile(r"%\((?!colour\b|card\b)\w+\)s (cards?|tiles?|points?|pieces?|stables?|merchants?|walls?"
                         r"|roofs?|time)\b")
    def one(message: str) -> str:  # the message with each counted noun in the singular
        return counted.sub(lambda found: found.group(0).rstrip("s"), message)

    pairs = [one(m) for m in singular]
    lacking = [m for m in singular if counted.search(m) and "%(cost)s time" not in m and pairs.count(one(m)) < 2
               and not m.startswith(tuple(NEVER_ONE))]
    assert lacking == []
