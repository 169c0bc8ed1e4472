"""A challenge by mail in the player's own words, and refused in them: the options named as his language
names them (`ausgabe amigo`, `uitgave amigo`), and what the game's set-up refuses (the size of the table,
an option or its value, the deadline) written in his language, as every other refusal of a lobby command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import Pbem
from conftest_mail import MailGames, mail_host, send, to
from pbem import lobby
from pbem.rules.base import get_ruleset
from rooms import GAMES, QUICK

#: a game without options, and as many addresses to invite as its smallest table holds beside the challenger
NO_OPTIONS = next(game for game in GAMES if not get_ruleset(game).options)
AT_ITS_TABLE = ", ".join(f"p{n}@x.test" for n in range(1, get_ruleset(NO_OPTIONS).min_players))


@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    """A host where anna (German) and ben (Dutch) play m0, so that both may challenge."""
    games = mail_host(pbem)
    games.new("m0")
    r = games.pbem("set", "m0", "--language", "anna=de", "--language", "ben=nl")
    assert r.exit_code == 0, r.output
    games.outbox.skip()
    return games


def text(msg: object) -> str:
    return " ".join(msg.get_body(("plain",)).get_content().split())  # type: ignore[attr-defined]


@pytest.mark.parametrize("player, body, option", [
    ("anna", "neu medici mit dan@x.test, eve@x.test ausgabe amigo", "amigo"),
    ("anna", "neu medici mit dan@x.test, eve@x.test Edition=riogrande", "riogrande"),
    ("ben", "nieuw medici met dan@x.test, eve@x.test uitgave amigo", "amigo"),
    ("ben", "nieuw medici met dan@x.test, eve@x.test editie: amigo", "amigo"),
])
def test_an_option_is_read_in_the_players_words(g: MailGames, player: str, body: str, option: str) -> None:
    lines, sent = send(g, f"{player}@players.test", body)
    assert lines == [f"mail from {player}@players.test: medici-1: challenged dan@x.test, eve@x.test"]
    assert lobby.load(g.gd, "medici-1")["options"] == {"edition": option}


@pytest.mark.parametrize("player, body, hours", [
    ("anna", "neu medici mit dan@x.test, eve@x.test frist 2 Tage", 48),
    ("anna", "neu medici mit dan@x.test, eve@x.test Frist: 36 Stunden", 36),
    ("anna", "neu medici mit dan@x.test, eve@x.test frist 1 Woche", 168),
    ("ben", "nieuw medici met dan@x.test, eve@x.test termijn 3 dagen", 72),
    ("ben", "nieuw medici met dan@x.test, eve@x.test bedenktijd 48 uur", 48),
    ("anna", "new medici with dan@x.test, eve@x.test deadline 2 days", 48),
    ("anna", "new medici with dan@x.test, eve@x.test deadline 90 minutes", 1.5),
])
def test_a_deadline_is_read_in_the_players_words(g: MailGames, player: str, body: str, hours: float) -> None:
    lines, sent = send(g, f"{player}@players.test", body)
    assert lines == [f"mail from {player}@players.test: medici-1: challenged dan@x.test, eve@x.test"]
    assert lobby.load(g.gd, "medici-1")["deadline"]["hours"] == hours


@pytest.mark.parametrize("player, body, english, words", [
    ("anna", "neu medici mit dan@x.test", "Medici needs 3 to 6 players, not 2",
     "Medici braucht 3 bis 6 Spieler, nicht 2"),
    ("ben", "nieuw medici met dan@x.test", "Medici needs 3 to 6 players, not 2",
     "Medici heeft 3 tot 6 spelers nodig, niet 2"),
    ("anna", f"neu {QUICK} mit dan@x.test, eve@x.test", f"{get_ruleset(QUICK).title} needs 2 players, not 3",
     f"{get_ruleset(QUICK).title} braucht 2 Spieler, nicht 3"),
    ("anna", "neu medici mit dan@x.test, eve@x.test farbe rot", "medici has no option 'farbe' (options: edition)",
     "medici hat keine Option 'farbe' (Optionen: edition)"),
    ("ben", f"nieuw {NO_OPTIONS} met {AT_ITS_TABLE} kleur rood",
     f"{NO_OPTIONS} has no option 'kleur' (options: none)", f"{NO_OPTIONS} heeft geen optie 'kleur' (opties: geen)"),
    ("anna", "neu medici mit dan@x.test, eve@x.test ausgabe alt",
     "option edition='alt' is not allowed for medici (choose one of: riogrande, amigo)",
     "die Option edition='alt' gibt es bei medici nicht (wähle eine von: riogrande, amigo)"),
    ("anna", "neu medici mit dan@x.test, eve@x.test frist bald",
     "deadline 'bald' is not a duration such as 48h, 2d, 90m or 1w",
     "die Frist 'bald' ist keine Dauer wie 48 Stunden, 2 Tage, 90 Minuten oder 1 Woche"),
    ("ben", "nieuw medici met dan@x.test, eve@x.test termijn 9999d", "deadline '9999d' is longer than a year",
     "de termijn '9999d' is langer dan een jaar"),
])
def test_what_the_set_up_refuses_is_written_in_the_players_language(g: MailGames, player: str, body: str,
                                                                     english: str, words: str) -> None:
    lines, sent = send(g, f"{player}@players.test", body)
    assert len(lines) == 1 and lines[0].endswith(f": {english}"), lines
    assert [to(m) for m in sent] == [f"{player}@players.test"]
    assert words in text(sent[0])
    assert lobby.entries(g.gd) == []


# -- the players' guides say these commands: each is read as written ---------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"
GUIDES = {"en": "players.md", "de": "players.de.md", "nl": "players.nl.md"}


def lobby_table(page: str) -> list[tuple[list[str], list[str]]]:
    """The guide's table of mails to the GM's address: each row's commands and what its second column
    quotes (the options a challenge may add)."""
    lines = (DOCS / page).read_text("utf-8").splitlines()
    row = next(i for i, line in enumerate(lines) if re.match(r"^\| `(new|neu|nieuw) medici", line))
    start = max(i for i in range(row) if lines[i].startswith("|---"))
    rows = []
    for line in lines[start + 1:]:
        if not line.startswith("|"):
            break
        first, second = line.strip("|").split(" | ")[:2]
        rows.append((re.findall(r"`([^`]+)`", first), re.findall(r"`([^`]+)`", second)))
    return rows


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_every_command_of_the_players_guide_is_read_as_written(lang: str) -> None:
    from pbem.deadlines import parse_duration
    from pbem.mail.lobby import parse
    from pbem.mail.observers import COMMAND

    rows = lobby_table(GUIDES[lang])
    assert len(rows) >= 8
    for commands, quoted in rows:
        for said in commands:
            command = parse([said])
            assert command is not None or COMMAND.match(said), f"{GUIDES[lang]}: {said!r} is not read"
            if command is not None and command.verb == "new" and command.invitees:
                for option in quoted:
                    more = parse([f"{said} {option}"])
                    assert more is not None, option
                    hours = parse_duration(more.deadline) if more.deadline is not None else None
                    read = (more.options, hours, more.language_option)
                    assert read in (({"edition": "amigo"}, None, None), ({}, 48, None),
                                    *(({}, None, language) for language in GUIDES)), \
                        f"{GUIDES[lang]}: {option!r} is read as {read}"
