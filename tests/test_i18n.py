"""Players' languages: a seat's language and time zone (set by `pbem new`, `pbem set`, pbem.yaml's
default), what a bad one is told, and `pbem show` in a player's language."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from helpers import Pbem, assert_error, assert_usage_error, player_args, seed_args
from rooms import GAMES, need
from pbem.i18n import (LANGUAGES, canonical, check_timezone, language_of, localize, moment_text, order_words,
                       timezone_of)
from pbem.store import GamesDir


def seats(pbem: Pbem, game: str = "m1") -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in GamesDir(pbem.games).load(game)["players"]}


def new(pbem: Pbem, *extra: str) -> Any:
    return pbem("new", "medici", "m1", *seed_args("test-seed"), *player_args("anna", "ben", "cleo"), *extra)


# -- where a seat's language and time zone are set -----------------------------------------------------

def test_new_stores_each_seats_language_and_time_zone(pbem: Pbem) -> None:
    r = new(pbem, "--language", "anna=de", "--language", "ben=nl", "--timezone", "anna=Europe/Berlin")
    assert r.exit_code == 0, r.output
    players = seats(pbem)
    assert (players["anna"]["language"], players["anna"]["timezone"]) == ("de", "Europe/Berlin")
    assert players["ben"]["language"] == "nl" and "timezone" not in players["ben"]
    assert "language" not in players["cleo"] and "timezone" not in players["cleo"]  # the host's


def test_an_unknown_language_or_time_zone_is_a_usage_error_naming_the_valid_ones(pbem: Pbem) -> None:
    assert_usage_error(new(pbem, "--language", "anna=fr"),
                       "Invalid value for '--language': unknown language 'fr': pbem writes en, de, nl")
    assert_usage_error(new(pbem, "--timezone", "anna=Mars/Olympus"),
                       "Invalid value for '--timezone': unknown time zone 'Mars/Olympus': give an IANA time zone "
                       "name such as Europe/Berlin, Europe/Amsterdam, Europe/London, America/New_York, UTC")
    assert_usage_error(new(pbem, "--language", "anna"), "Invalid value for '--language': 'anna' is not PLAYER=LANGUAGE")
    assert not (pbem.games / "m1").exists()


def test_a_language_for_no_player_is_refused_and_nothing_is_made(pbem: Pbem) -> None:
    assert_error(new(pbem, "--language", "dora=de"), "--language dora=...: game 'm1' has no player 'dora'")
    assert not (pbem.games / "m1").exists()


def test_set_changes_a_seats_language_and_time_zone_and_default_gives_back_the_hosts(pbem: Pbem) -> None:
    pbem.new()
    r = pbem("set", "m1", "--language", "anna=nl", "--timezone", "anna=Europe/Amsterdam")
    assert r.exit_code == 0, r.output
    assert r.stdout == "m1: anna language nl, anna time zone Europe/Amsterdam.\n"
    assert (seats(pbem)["anna"]["language"], seats(pbem)["anna"]["timezone"]) == ("nl", "Europe/Amsterdam")
    assert pbem("set", "m1", "--language", "anna=default").exit_code == 0
    assert "language" not in seats(pbem)["anna"] and seats(pbem)["anna"]["timezone"] == "Europe/Amsterdam"
    assert_usage_error(pbem("set", "m1", "--language", "anna=xx"),
                       "Invalid value for '--language': unknown language 'xx': pbem writes en, de, nl")
    assert_error(pbem("set", "m1", "--language", "zed=de"), "--language zed=...: game 'm1' has no player 'zed'")


def test_the_hosts_default_comes_from_pbem_yaml_and_is_checked(pbem: Pbem) -> None:
    pbem.new()
    state = GamesDir(pbem.games).load("m1")
    (pbem.games / "pbem.yaml").write_text("language: de\ntimezone: Europe/Amsterdam\n")
    from pbem.config import load_config

    config = load_config(pbem.games)
    assert (language_of(state, "anna", config), timezone_of(state, "anna", config)) == ("de", "Europe/Amsterdam")
    (pbem.games / "pbem.yaml").write_text("language: fr\n")
    r = pbem("show", "m1", "--as", "anna")
    assert r.exit_code == 1 and "language" in r.stderr and "'fr'" in r.stderr, r.stderr
    (pbem.games / "pbem.yaml").write_text("timezone: Nowhere/Land\n")
    r = pbem("show", "m1", "--as", "anna")
    assert r.exit_code == 1 and "timezone: unknown time zone 'Nowhere/Land'" in r.stderr, r.stderr


def test_init_shows_the_language_and_time_zone_commented(pbem: Pbem) -> None:
    assert pbem("init").exit_code == 0
    text = (pbem.games / "pbem.yaml").read_text()
    assert "# language: de" in text and "# timezone: Europe/Amsterdam" in text


def test_show_writes_in_the_players_language_and_language_overrides(pbem: Pbem) -> None:
    pbem.new()
    mover = pbem.show()["waiting_for"][0]
    english = pbem("show", "m1", "--as", mover).stdout
    assert pbem("set", "m1", "--language", f"{mover}=de").exit_code == 0
    german = pbem("show", "m1", "--as", mover).stdout
    assert german != english
    assert "# Um einen Befehl zu behalten, lösche das # davor" in german
    assert pbem("show", "m1", "--as", mover, "--language", "en").stdout == english
    assert "# Om een order te houden, wis je de # ervoor" in pbem("show", "m1", "--as", mover, "--language", "nl").stdout
    assert_usage_error(pbem("show", "m1", "--language", "fr"),
                       "Invalid value for '--language': unknown language 'fr': pbem writes en, de, nl")


# -- dates and times ---------------------------------------------------------------------------------

WHEN = datetime(2026, 11, 26, 17, 0, tzinfo=timezone.utc)
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("lang, zone, text", [
    ("en", None, "2026-11-26T17:00:00Z"),  # as pbem always wrote it
    ("de", "Europe/Berlin", "Donnerstag, 26. November, 18:00 MEZ"),
    ("nl", "Europe/Amsterdam", "donderdag 26 november, 18:00 CET"),
    ("de", None, "Donnerstag, 26. November, 17:00 UTC"),
    ("en", "Europe/London", "Thursday, November 26, 5:00 PM GMT"),
    ("en", "Asia/Tokyo", "Friday, November 27, 2:00 AM JST"),
    ("en", "America/New_York", "Thursday, November 26, 12:00 PM EST"),
    # a zone whose abbreviation is only its offset (`+04`, `-03`, `+0545`): the offset from GMT
    ("en", "Asia/Dubai", "Thursday, November 26, 9:00 PM GMT+04:00"),
    ("de", "America/Sao_Paulo", "Donnerstag, 26. November, 14:00 GMT-03:00"),
    ("nl", "Asia/Kathmandu", "donderdag 26 november, 22:45 GMT+05:45"),
])
def test_a_moment_as_each_language_writes_it(lang: str, zone: str | None, text: str) -> None:
    assert moment_text(WHEN, lang, zone, NOW) == text


@pytest.mark.parametrize("lang, zone, text", [
    ("de", "Europe/Berlin", "Sonntag, 21. Juni, 14:00 MESZ"),
    ("nl", "Europe/Amsterdam", "zondag 21 juni, 14:00 CEST"),
    ("en", "Europe/London", "Sunday, June 21, 1:00 PM BST"),
    ("en", "America/New_York", "Sunday, June 21, 8:00 AM EDT"),
])
def test_a_summer_moment_names_the_summer_time(lang: str, zone: str, text: str) -> None:
    assert moment_text(datetime(2026, 6, 21, 12, 0, tzinfo=timezone.utc), lang, zone, NOW) == text


def test_a_moment_and_a_number_are_written_without_babel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Their forms and words are pbem's own: no Babel version can change them."""
    import sys

    from pbem.i18n import number_text

    for module in ("babel.dates", "babel.numbers"):
        monkeypatch.setitem(sys.modules, module, None)  # importing it fails
    assert moment_text(WHEN, "de", "Europe/Berlin", NOW) == "Donnerstag, 26. November, 18:00 MEZ"
    assert moment_text(WHEN, "en", "Europe/London", datetime(2025, 1, 1, tzinfo=timezone.utc)) == \
        "Thursday, November 26, 2026, 5:00 PM GMT"
    assert number_text(1234.5, "nl") == "1.234,5"


def test_the_zone_is_the_one_pbem_is_installed_with_not_the_machines(tmp_path: Path) -> None:
    """The machine's zone data says Europe/Berlin is Tokyo's time: the reader still gets Berlin's, from
    the tzdata package the lock pins."""
    import zoneinfo
    from importlib.resources import files

    from pbem.i18n import zone_info

    tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    fake = tmp_path / "zoneinfo"
    (fake / "Europe").mkdir(parents=True)
    with files("tzdata.zoneinfo").joinpath("Asia", "Tokyo").open("rb") as f:
        (fake / "Europe" / "Berlin").write_bytes(f.read())
    zoneinfo.reset_tzpath(to=[str(fake)])
    zone_info.cache_clear()
    try:
        zoneinfo.ZoneInfo.clear_cache()
        assert zoneinfo.ZoneInfo("Europe/Berlin").utcoffset(WHEN.replace(tzinfo=None)) == \
            tokyo.utcoffset(WHEN.replace(tzinfo=None))  # the machine's data is the fake
        assert moment_text(WHEN, "de", "Europe/Berlin", NOW) == "Donnerstag, 26. November, 18:00 MEZ"
    finally:
        zoneinfo.reset_tzpath()
        zoneinfo.ZoneInfo.clear_cache()
        zone_info.cache_clear()


def test_a_moment_of_another_year_names_its_year() -> None:
    assert moment_text(WHEN, "de", "Europe/Berlin", datetime(2025, 12, 1, tzinfo=timezone.utc)) == \
        "Donnerstag, 26. November 2026, 18:00 MEZ"


@pytest.mark.parametrize("hours, lang, text", [
    (48, "en", "2d"), (36, "en", "36h"), (1.5, "en", "90m"),  # as pbem always wrote it
    (48, "de", "2 Tage"), (24, "de", "1 Tag"), (36, "de", "36 Stunden"), (1, "de", "1 Stunde"), (1.5, "de", "90 Minuten"),
    (168, "nl", "7 dagen"), (24, "nl", "1 dag"), (36, "nl", "36 uur"), (1, "nl", "1 uur"), (0.5, "nl", "30 minuten"),
    (60, "de", "60 Stunden"),  # never rounded to days
])
def test_a_length_of_time_in_pbems_own_form_and_the_readers_words(hours: float, lang: str, text: str) -> None:
    from pbem.i18n import duration_text

    assert duration_text(hours, lang) == text


@pytest.mark.parametrize("value, lang, text", [
    (1234567, "en", "1234567"), (1234567, "de", "1.234.567"), (1234, "nl", "1.234"), (999, "de", "999"),
    (-4500, "nl", "-4.500"), (1234.5, "de", "1.234,5"), (2.0, "nl", "2"), (0.12345, "de", "0,123"),
])
def test_a_number_in_pbems_own_form_for_each_language(value: float, lang: str, text: str) -> None:
    from pbem.i18n import number_text

    assert number_text(value, lang) == text


def test_every_language_and_zone_name_is_checked() -> None:
    assert LANGUAGES == ("en", "de", "nl")
    assert check_timezone("Europe/Berlin") == "Europe/Berlin"
    for bad in ("../etc/passwd", "/etc/localtime", "", "Europe/Nowhere"):
        with pytest.raises(Exception, match="unknown time zone"):
            check_timezone(bad)


# -- the catalogs ------------------------------------------------------------------------------------

LOCALE = Path(__file__).resolve().parent.parent / "pbem" / "locale"
ROOT = LOCALE.parent.parent


def catalogs() -> list[Path]:
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


@pytest.mark.parametrize("po", catalogs(), ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_catalog_is_complete(po: Path) -> None:
    """Every message of every catalog present is translated, none is fuzzy, and each keeps the
    placeholders of its English (a missing `%(turn)s` would break a mail)."""
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    untranslated = [m.id for m in catalog if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert untranslated == [] and fuzzy == [], (untranslated[:5], fuzzy[:5])
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set(re.findall(r"%\(\w+\)[sd]", " ".join(ids))) - {"%(num)d", "%(num)s"}
        for s in strings:
            assert wanted <= set(re.findall(r"%\(\w+\)[sd]", s)), (m.id, s)


def extracted(domain_args: list[str], tmp: Path, *sources: str, keywords: tuple[str, ...] = ("N_", "ngettext:1,2")) -> set[Any]:
    out = tmp / "x.pot"
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "-q", "extract", "-F", "pbem/locale/babel.cfg",
                    *[a for k in keywords for a in ("-k", k)], *domain_args, "-o", str(out), *sources],
                   cwd=ROOT, check=True)
    return msgids(out)


def msgids(path: Path) -> set[Any]:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return {m.id for m in read_po(f) if m.id}


def test_extracting_the_common_domain_again_changes_nothing(tmp_path: Path) -> None:
    """pbem.pot holds exactly what pybabel extracts from pbem/ (not its rules), templates/common and
    templates/archive, with the words the games' templates say in pbem's domain (`common_()`), and no
    other word of a game's own templates or rules (those are the game's domain); no entry carries its
    places in the code (they would move with every edit)."""
    own = extracted(["--ignore-dirs", ".* ._ rules locale", "-k", "common_"], tmp_path, "pbem", "templates/common",
                    "templates/archive")
    said_in_games = extracted(["--no-default-keywords"], tmp_path, *[f"templates/{game}" for game in GAMES
                                                                         if (LOCALE.parent.parent / "templates" / game).is_dir()],
                              keywords=("common_",))
    assert "You may send:" in said_in_games  # a game says the skeleton's words in its own move
    assert own | said_in_games == msgids(LOCALE / "pbem.pot")
    from babel.messages.pofile import read_po

    with (LOCALE / "pbem.pot").open("rb") as f:
        assert [m.id for m in read_po(f) if m.locations] == []


@pytest.mark.parametrize("game", GAMES)
def test_extracting_a_games_domain_again_changes_nothing(tmp_path: Path, game: str) -> None:
    sources = need(game, "SOURCES")
    from pbem.rules.base import files_of, schema_messages

    pot = (files_of(game, "locale") or LOCALE) / f"{game}.pot"  # pbem's, or a game's own folder's
    # (and the words its schemas say of an order of no shape they know, read from the schemas)
    assert extracted([], tmp_path, *sources) | set(schema_messages(game)) == msgids(pot)


# -- order words ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_no_word_stands_for_two_canonical_words(game: str) -> None:
    """In a game, a spelling (in any case) means one canonical word, whatever the language: English
    (the canonical words themselves), German and Dutch."""
    meaning: dict[str, set[str]] = {}
    for word, langs in order_words(game).items():
        meaning.setdefault(word.casefold(), set()).add(word)
        for lang, spelt in langs.items():
            assert lang in LANGUAGES and lang != "en", (game, word, lang)
            assert spelt, (game, word, lang)
            for s in spelt:
                meaning.setdefault(s.casefold(), set()).add(word)
    clashes = {s: words for s, words in meaning.items() if len(words) > 1}
    assert clashes == {}


@pytest.mark.parametrize("game", GAMES)
def test_what_a_report_shows_reads_back_as_the_canonical_word(game: str) -> None:
    for word, langs in order_words(game).items():
        for lang in langs:
            shown = localize(word, game, lang)
            assert canonical(shown, game) == word, (game, lang, word, shown)
            assert canonical(shown.upper(), game) == word
            assert canonical({shown: 7}, game) == {word: 7}


@pytest.mark.parametrize("game", GAMES)
def test_no_command_word_is_an_order_word(game: str) -> None:
    from pbem.mail.commands import COMMAND_WORDS, COMMANDS, LANGUAGE_WORDS

    commands = set(COMMANDS) | set(LANGUAGE_WORDS) | {w for words in COMMAND_WORDS.values() for w in words}
    spellings = {w.casefold() for word, langs in order_words(game).items() for w in [word, *sum(langs.values(), [])]}
    assert commands & spellings == set()


def test_canonical_replaces_the_words_of_every_language_in_any_case() -> None:
    if not order_words("medici").get("bid", {}).get("de"):
        pytest.skip("no Medici order words yet")
    bid_de, bid_nl = order_words("medici")["bid"]["de"][0], order_words("medici")["bid"]["nl"][0]
    assert canonical(f"{bid_de.capitalize()} 7", "medici") == "bid 7"
    assert canonical({bid_nl.upper(): 7}, "medici") == {"bid": 7}
    assert canonical("bid 7", "medici") == "bid 7"  # English is canonical already
    assert canonical("bid 7", "no-such-game") == "bid 7"
    assert canonical(7, "medici") == 7


def test_orders_in_order_words_are_kept_canonical_in_the_log_and_the_queue(pbem: Pbem, tmp_path: Path) -> None:
    """A turn file in German words is queued, logged and replayed as the canonical orders."""
    if not order_words("medici").get("draw", {}).get("de"):
        pytest.skip("no Medici order words yet")
    tokens = pbem.new()
    mover = pbem.show()["waiting_for"][0]
    draw = order_words("medici")["draw"]["de"][-1]
    path = tmp_path / "turn.yaml"
    path.write_text(f"game: m1\nplayer: {mover}\ntoken: {tokens[mover]}\nturn: 1\norders:\n  - {draw.upper()}\n")
    r = pbem("submit", str(path))
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"Queued {mover}'s orders for m1, turn 1: draw."), r.stdout
    queued = next((pbem.games / "m1" / "queue").glob("*.yaml")).read_text()
    assert "- draw" in queued and draw.upper() not in queued
    assert pbem("advance").exit_code == 0
    assert GamesDir(pbem.games).load("m1")["log"][0]["order"] == "draw"
    assert pbem("verify", "m1").exit_code == 0


# -- pbem's own sentences inside a player's mail --------------------------------------------------------

def test_notices_and_refusals_are_written_in_the_players_language() -> None:
    """A notice or refusal keeps its English in the state and the console; a player reads it in his
    language: a notice's values found back (an order in his words), a refusal written from its id; a
    text pbem does not know stays English."""
    from pbem.game import SUBSTITUTE_DEFAULT
    from pbem.refusals import refuse
    from pbem.report import notice_text, refusal_text

    english = SUBSTITUTE_DEFAULT % {"player": "ben", "order": "pass"}
    assert notice_text(english, "en", "medici") == english
    passen = localize("pass", "medici", "de")
    assert notice_text(english, "de", "medici") == \
        f"ben hat die Frist verpasst; es gilt der Standardbefehl: {passen}."
    stale = refuse("stale", turn=3, game="'m1'", current=5)
    assert str(stale) == "your orders answer turn 3, but game 'm1' is at turn 5: they are stale"
    assert refusal_text(stale, "nl") == "je orders zijn voor beurt 3, maar partij 'm1' is bij beurt 5: ze zijn verouderd"
    assert refusal_text("bid 50 is more than your money (43)", "de") == "bid 50 is more than your money (43)"
