"""Whom a mail is written to, and in which language: a seat in a game (his seat's language), a seat or
an invitation in a game not begun (the seat's, else the invitation's, which is the challenge's), a
stranger (the language his own words are in, where they tell, else the host's). One person reads one
language in every mail about one game until he chooses another (`language de`)."""

from __future__ import annotations

import re
from typing import Any

from pbem.i18n import LANGUAGES, language_of
from pbem.store import GamesDir


def words_language(lines: list[str]) -> str | None:
    """The language a mail's first line is written in, where its words tell: a command word (`spiele`,
    `hulp`), a lobby word (`mitspielen`, `nieuw`), an answer to an invitation (`gerne`, `graag`).
    English words and words every language shares (`status`, `ja`) tell none."""
    from pbem.mail.commands import COMMAND_WORDS, LANGUAGE_WORDS
    from pbem.mail.lobby_words import NO_WORDS, VERBS, YES_WORDS

    if not lines:
        return None
    words = re.findall(r"[\w']+", lines[0].casefold())
    for word in words:
        for lang, known in COMMAND_WORDS.items():
            if word in known:
                return lang
        for spelt in VERBS.values():
            if spelt.get(word) in LANGUAGES:
                return spelt[word]
        found = {**YES_WORDS, **NO_WORDS}.get(word)
        if found in LANGUAGES:
            return found
    if words and words[0] in LANGUAGE_WORDS[1:]:  # `sprache de`, `taal nl`
        return "de" if words[0] == "sprache" else "nl"
    return None


def lobby_seats(gd: GamesDir, address: str) -> list[dict[str, Any]]:
    """The games not begun yet where `address` holds a seat: each with its title, seats taken and
    seats in all (a `games` answer lists them beside his games)."""
    from pbem import lobby
    from pbem.rules.base import get_ruleset

    address = address.lower()
    return [{"game": e["game"], "title": get_ruleset(e["ruleset"]).title, "seated": len(e["seated"]),
             "seats": e["seats"]}
            for e in lobby.entries(gd) if any(s["email"] == address for s in e["seated"])]


def entry_language(entry: dict[str, Any], address: str) -> str | None:
    """The language `address` reads in a game not begun: his seat's, else his invitation's, else the
    challenge's (None: the entry sets none)."""
    address = address.lower()
    for s in entry.get("seated", []):
        if s["email"] == address and s.get("language"):
            return str(s["language"])
    for i in entry.get("invited", []):
        if i["email"] == address and i.get("language"):
            return str(i["language"])
    if any(p["email"] == address for p in entry.get("seated", []) + entry.get("invited", [])):
        return entry.get("language")
    return None


def reader_language(gd: GamesDir, config: Any, address: str, said: str | None = None) -> str:
    """The language a mail to `address` is written in: his first seat's in a game here, else his seat's
    or invitation's in a game not begun, else the language of his own words (`said`), else the host's."""
    from pbem import lobby
    from pbem.mail.commands import first_seat

    seat = first_seat(gd, address.lower())
    if seat is not None:
        return language_of(seat[0], seat[1], config)
    for entry in lobby.entries(gd):
        found = entry_language(entry, address)
        if found:
            return found
    return said if said in LANGUAGES else config.language
