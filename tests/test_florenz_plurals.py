"""Florenz counts time in units as German and Dutch do (`1 Zeiteinheit`, `4 Zeiteinheiten`, `2
tijdseenheden`), Giovanni's offer reads as a price, and a number stays with its unit."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from pbem.i18n import translator
from pbem.report import event_lines, wrap72

LOCALE = Path(__file__).resolve().parent.parent / "pbem" / "locale"


def catalog(lang: str, domain: str) -> Any:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


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


def test_a_number_stays_with_its_unit_when_a_line_is_broken() -> None:
    line = "  Belohnungen, die stärkste Familie zuerst: 6 Zeiteinheiten für 32 SP, 4 Zeiteinheiten für 21 SP"
    for broken in wrap72(line, 4).split("\n"):
        assert not re.search(r"\d$", broken) and not re.match(r"\s*(SP|Zeiteinheit)", broken), broken


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


@pytest.mark.parametrize("lang,one,three", [("de", "1 Zeiteinheit, du hast", "3 Zeiteinheiten, du hast"),
                                            ("nl", "1 tijdseenheid, maar", "3 tijdseenheden, maar"),
                                            ("en", "1 time unit and", "3 time units and")])
@pytest.mark.parametrize("msg", ["offer-costs", "costs-time", "card-costs"])
def test_a_refused_cost_counts_its_time_units(msg: str, lang: str, one: str, three: str) -> None:
    """A cost refused for want of time names it as one unit or as several, each language's way."""
    from pbem.report import refusal_words
    from pbem.rules.florenz.refusals import refuse

    assert one in refusal_words(refuse(msg, cost=1, time=0), lang, "florenz")
    assert three in refusal_words(refuse(msg, cost=3, time=2), lang, "florenz")


def test_a_singular_twin_must_leave_out_one_value() -> None:
    from pbem.i18n import N_
    from pbem.refusals import rules_refusals

    with pytest.raises(ValueError, match="must leave out exactly one of its values"):
        rules_refusals({"x-costs": N_("x costs %(cost)s of %(time)s"), "x-costs-one": N_("x costs 1 of 1")})
