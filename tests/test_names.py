"""A player's name is plain wherever pbem writes one: lower-case letters, digits, '-' and '_',
starting with a letter, at most 24 characters. A name with markup, a control character (ESC), a bidi
override (U+202E), an invisible character (U+200B), one too long or an empty one is refused with a
clear message and changes nothing: on the command line (`pbem new --player/--bot`, `pbem replace`,
`pbem start` of a lobby file holding such a name), by mail (`join GAME as NAME`, in the player's
language), in the state file's schema; and the names pbem makes itself (an invitee's seat from his
address, bots' seats) are plain too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import Pbem
from conftest_mail import FilesOut, MaildirDrop, MailGames, send, to
from helpers import assert_error, assert_usage_error, player_args, snapshot
from pbem import lobby, names
from pbem.errors import StoreError
from pbem.store import GamesDir, check_state_file
from pbem.tablebots import bot_names
from rooms import EXAMPLE

RULE = "must be lower-case letters, digits, '-' or '_', starting with a letter, at most 24 characters"
BAD = {
    "markup": "<b>x</b>",
    "escape": "ann\x1b[31ma",
    "bidi override": "ann\u202ea",
    "zero width space": "ann\u200ba",
    "60 characters": "a" * 60,
    "empty": "",
}
SHOWN = {"markup": "'<b>x</b>'", "escape": "'ann\\x1b[31ma'", "bidi override": "'ann\\u202ea'",
         "zero width space": "'ann\\u200ba'", "60 characters": "'" + "a" * 40 + "...'", "empty": "''"}


def test_the_one_rule_is_the_state_schemas() -> None:
    schema = json.loads((Path(names.__file__).parent.parent / "schemas" / "state.schema.json").read_text())
    seat = schema["properties"]["players"]["items"]["properties"]
    assert seat["name"]["pattern"] == seat["person"]["pattern"] == names.PATTERN
    assert names.check_name("anna") == "anna"
    assert names.check_name(" Anna ", fold=True) == "anna"
    assert names.is_name("a" * 24) and not names.is_name("a" * 25)


@pytest.mark.parametrize("kind", BAD)
def test_pbem_new_refuses_such_a_player_or_bot_name(pbem: Pbem, kind: str) -> None:
    bad = BAD[kind]
    assert_usage_error(pbem("new", EXAMPLE, "m1", "--player", f"{bad}=x@example.org", *player_args("ben", "cleo")),
                       f"Invalid value for '--player': player name {SHOWN[kind]} {RULE}")
    assert_usage_error(pbem("new", EXAMPLE, "m1", *player_args("ben", "cleo"), "--bot", bad),
                       f"Invalid value for '--bot': bot name {SHOWN[kind]} {RULE}")
    assert not pbem.games.exists()


@pytest.mark.parametrize("kind", BAD)
def test_pbem_replace_refuses_such_a_name(pbem: Pbem, kind: str) -> None:
    assert pbem("new", EXAMPLE, "m1", *player_args("anna", "ben", "cleo"), "--seed", "names-test-seed-0001").exit_code == 0
    before = snapshot(pbem.games)
    assert_usage_error(pbem("replace", "m1", "anna", f"{BAD[kind]}=new@example.org"),
                       f"Invalid value for 'NEW=EMAIL': player name {SHOWN[kind]} {RULE}")
    assert snapshot(pbem.games) == before


@pytest.mark.parametrize("kind", ["markup", "escape", "bidi override"])
def test_pbem_start_refuses_a_lobby_file_that_holds_such_a_name(pbem: Pbem, kind: str) -> None:
    """A lobby file edited by hand (or broken) cannot seat a name the rule refuses."""
    assert pbem("init").exit_code == 0
    assert pbem("open", EXAMPLE, "g1", "--seats", "3").exit_code == 0
    gd = GamesDir(pbem.games)
    entry = lobby.load(gd, "g1")
    entry["seated"] = [{"name": n, "email": f"p{i}@example.org", "joined": "2026-01-01T00:00:00Z"}
                       for i, n in enumerate(["anna", BAD[kind], "cleo"])]
    lobby.save(gd, entry)
    before = snapshot(pbem.games)
    assert_error(pbem("start", "g1"), f"player name {SHOWN[kind]} {RULE}")
    assert snapshot(pbem.games) == before
    assert not gd.exists("g1")


@pytest.mark.parametrize("kind", BAD)
def test_the_state_schema_refuses_such_a_name(pbem: Pbem, kind: str) -> None:
    assert pbem("new", EXAMPLE, "m1", *player_args("anna", "ben", "cleo"), "--seed", "names-test-seed-0001").exit_code == 0
    body = yaml.safe_load((pbem.games / "m1" / "state.yaml").read_text())
    body.pop("checksum")  # (the file's own, over the rest)
    check_state_file(body, "m1")
    for key in ("name", "person"):
        broken = json.loads(json.dumps(body))
        broken["players"][0][key] = BAD[kind]
        with pytest.raises(StoreError) as refused:
            check_state_file(broken, "m1")
        assert str(refused.value) == (f"m1: the state file is not valid: players.0.{key}: {SHOWN[kind].replace('...', '')[:-1] + BAD[kind][40:]}' "
                                      f"does not match '{names.PATTERN}'")


# -- by mail --------------------------------------------------------------------------------------------

@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    games = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    games.write_config()
    (pbem.games / "mail").mkdir()
    r = pbem("open", EXAMPLE, "g1", "--seats", "3")
    assert r.exit_code == 0, r.output
    return games


def plain(msg: Any) -> str:
    return " ".join(msg.get_body(("plain",)).get_content().split())


WORDS = {"en": ("join", "as", "cannot be a player's name: lower-case letters, digits, '-' or '_', starting with "
                              "a letter, at most 24 characters"),
         "de": ("mitspielen", "als", "kann kein Spielername sein: Kleinbuchstaben, Ziffern, '-' oder '_', am "
                                     "Anfang ein Buchstabe, höchstens 24 Zeichen"),
         "nl": ("meedoen", "als", "kan geen spelersnaam zijn: kleine letters, cijfers, '-' of '_', beginnend met "
                                  "een letter, hoogstens 24 tekens")}


@pytest.mark.parametrize("lang", WORDS)
@pytest.mark.parametrize("kind", ["markup", "escape", "bidi override", "60 characters"])
def test_join_as_such_a_name_is_refused_by_mail_in_the_players_language(g: MailGames, kind: str, lang: str) -> None:
    verb, word, refusal = WORDS[lang]
    before = lobby.load(g.gd, "g1")
    lines, sent = send(g, "ben@x.test", f"{verb} g1 {word} {BAD[kind]}")
    assert len(lines) == 1 and lines[0].startswith("mail from ben@x.test: refused 'join': "), lines
    assert lines[0].endswith(f"{SHOWN[kind]} cannot be a player's name: lower-case letters, digits, '-' or '_', "
                             f"starting with a letter, at most 24 characters")
    assert [to(m) for m in sent] == ["ben@x.test"]
    text = plain(sent[0])
    assert f"{SHOWN[kind]} {refusal}" in text
    assert not any(c in text for c in "\x1b\u202e\u200b")  # an invisible character is shown escaped
    html = sent[0].get_body(("html",))
    if html is not None:  # markup is text there: escaped
        assert "<b>x</b>" not in html.get_content()
    assert lobby.load(g.gd, "g1") == before


def test_a_zero_width_space_in_a_mail_is_read_as_nothing_so_the_name_written_is_plain(g: MailGames) -> None:
    """Mail clients put zero-width characters into what a player types; the mail is read without them."""
    lines, _ = send(g, "ben@x.test", f"join g1 as {BAD['zero width space']}")
    assert lines == ["mail from ben@x.test: g1: joined as anna"]
    assert [s["name"] for s in lobby.load(g.gd, "g1")["seated"]] == ["anna"]


def test_an_empty_name_after_as_is_no_command(g: MailGames) -> None:
    lines, _ = send(g, "ben@x.test", "join g1 as")
    assert lines == ["mail from ben@x.test: refused 'unknown': 'join g1 as' is not a command pbem knows; write "
                     "'join GAME' or 'join GAME as NAME'"]


# -- the names pbem makes -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", BAD)
def test_an_invitees_seat_name_made_from_his_address_is_plain(kind: str) -> None:
    made = lobby.seat_name(f"{BAD[kind]}@example.org", ["player"])
    assert names.is_name(made), made


def test_bot_seats_are_plain_names() -> None:
    assert all(names.is_name(n) for n in bot_names(30, ["bot", "bot3"]))
