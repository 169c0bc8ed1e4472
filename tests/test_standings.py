"""Standings: the results of the games finished on a host, per ruleset and player (games, wins,
average place, an OpenSkill rating), by `pbem standings`, by mail (`standings`, `tabelle`, `stand`)
and as a page of the archive. Players are their addresses, shown by seat name: no address is ever
shown; bots are shown as bots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import Pbem
from conftest_mail import mail_host, FilesOut, MaildirDrop, MailGames, player_mail
from helpers import assert_error
from pbem import game as games
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir
from rooms import GAMES, QUICK

SEED = "standings-test-seed-"


def finished(pbem: Pbem, ruleset: str, game: str, seats: list[tuple[str, str | None]], seed: str) -> dict[str, Any]:
    """A game played to its end through the pipeline, the seats with an address (None: a bot's seat)
    sending the orders the game's bot would choose for them."""
    from pbem import bots

    gd = GamesDir(pbem.games, create=True)
    gd.ensure_repo()
    state, _ = games.new_game(gd, ruleset, game, [(n, e or "") for n, e in seats], {}, SEED + seed,
                              bots=[n for n, e in seats if e is None])
    while state["status"] != "finished":
        player = games.waiting_for(state)[0]
        shown = games.show(state, player)
        order = bots.choose(ruleset, shown["view"], player, shown["legal_orders"])
        state, _ = games.apply_orders(state, player, state["engine"]["turn"], [order])
        state, _, _ = games.play_queue(state, [])
    gd.save(game, state)
    gd.commit(game, f"{game}: a finished game\n")
    return state


def ranks(state: dict[str, Any]) -> dict[str, int]:
    return {r["player"]: r["rank"] for r in games.ruleset_of(state).result(state["engine"])}


def three_games(pbem: Pbem) -> list[dict[str, Any]]:
    return [finished(pbem, QUICK, "s1", [("anna", "anna@example.org"), ("zeno", None)], "1"),
            finished(pbem, QUICK, "s2", [("ann", "anna@example.org"), ("ben", "ben@example.org")], "2"),
            finished(pbem, QUICK, "s3", [("ben", "ben@example.org"), ("zeno", None)], "3")]


def test_standings_count_games_wins_and_places_per_address_and_show_no_address(pbem: Pbem) -> None:
    states = three_games(pbem)
    r = pbem("standings", "--json")
    assert r.exit_code == 0, r.output
    (table,) = json.loads(r.stdout)
    assert table["ruleset"] == QUICK and table["games"] == 3
    rows = {p["name"]: p for p in table["players"]}
    # anna played s1 as anna and s2 as ann: one player, shown by her latest seat name
    assert sorted(rows) == ["ann", "ben", "zeno"]
    expect: dict[str, list[int]] = {}
    for state in states:
        for p in state["players"]:
            who = "zeno" if p.get("bot") else {"anna@example.org": "ann", "ben@example.org": "ben"}[p["email"]]
            expect.setdefault(who, []).append(ranks(state)[p["name"]])
    for who, places in expect.items():
        assert rows[who]["games"] == len(places)
        assert rows[who]["wins"] == places.count(1)
        assert rows[who]["place"] == round(sum(places) / len(places), 4)
    assert rows["zeno"]["bot"] is True and rows["ben"]["bot"] is False
    assert "@" not in r.stdout
    # s1 and s3 had a bot at the table: s2 alone is rated
    assert table["rated_games"] == 1
    assert [(p["name"], p["rated_games"]) for p in table["players"]][2:] == [("zeno", 0)]
    assert rows["zeno"]["rating"] is None
    ratings = [p["rating"] for p in table["players"][:2]]
    assert ratings == sorted(ratings, reverse=True)


def test_pbem_standings_prints_a_table_per_ruleset(pbem: Pbem) -> None:
    three_games(pbem)
    finished(pbem, "medici", "m1", [("cleo", "cleo@example.org"), ("ann", "anna@example.org"), ("b1", None)], "4")
    r = pbem("standings")
    assert r.exit_code == 0, r.output
    data = json.loads(pbem("standings", "--json").stdout)
    lines = []
    for table in sorted(data, key=lambda t: t["ruleset"]):
        title = get_ruleset(table["ruleset"]).title
        count = f"{table['games']} finished games" if table["games"] > 1 else "1 finished game"
        nw = max(len("player"), *(len(p["name"] + (" (bot)" if p["bot"] else "")) for p in table["players"]))
        lines += [f"{title}: {count}", f"    # {'player'.ljust(nw)} games rated  wins avg place rating"]
        for i, p in enumerate(table["players"], start=1):
            name = p["name"] + (" (bot)" if p["bot"] else "")
            rating = "-" if p["rating"] is None else f"{p['rating']:.1f}"
            lines.append(f"  {i:>3} {name.ljust(nw)} {p['games']:>5} {p['rated_games']:>5} {p['wins']:>5} "
                         f"{p['place']:>9.2f} {rating:>6}")
        unrated = sorted({h["game"] for p in table["players"] for h in p["history"] if not h["rated"]})
        lines += [f"Not rated (a bot played): {', '.join(unrated)}", ""]
    assert r.stdout == "\n".join(lines[:-1]) + "\n"
    assert " b1 (bot) " in r.stdout and " zeno (bot) " in r.stdout
    assert "Not rated (a bot played): s1, s3\n" in r.stdout and "Not rated (a bot played): m1\n" in r.stdout
    assert all(len(line) <= 72 for line in r.stdout.splitlines())


def test_standings_of_one_ruleset_and_of_none(pbem: Pbem) -> None:
    pbem.games.mkdir()
    assert_error(pbem("standings"), f"{pbem.games} is not a pbem games dir (it holds no pbem.yaml, no game and no pbem "
                                    f".gitignore); `pbem new` or `pbem init` makes it one")
    assert pbem("init").exit_code == 0
    r = pbem("standings")
    assert r.exit_code == 0 and r.stdout == f"No finished games in {pbem.games}.\n"
    three_games(pbem)
    other = next(game for game in GAMES if game != QUICK)  # a game none of them is
    r = pbem("standings", other)
    assert r.exit_code == 0
    assert r.stdout == f"No finished {get_ruleset(other).title} games in {pbem.games}.\n"
    r = pbem("standings", QUICK)
    assert r.stdout.startswith(f"{get_ruleset(QUICK).title}: 3 finished games\n")
    assert_error(pbem("standings", "chess"), f"unknown ruleset 'chess' (known: {', '.join(GAMES)})")


def test_a_game_not_over_and_a_solo_game_do_not_count(pbem: Pbem) -> None:
    finished(pbem, QUICK, "s1", [("anna", "anna@example.org"), ("zeno", None)], "1")
    assert pbem("new", QUICK, "s2", "--player", "anna=anna@example.org", "--player", "ben=ben@example.org",
                "--seed", SEED + "x").exit_code == 0
    data = json.loads(pbem("standings", "--json").stdout)
    assert [(t["ruleset"], t["games"], [p["name"] for p in t["players"]]) for t in data] == [
        (QUICK, 1, [p["name"] for p in data[0]["players"]])]
    assert {p["name"] for p in data[0]["players"]} == {"anna", "zeno"}


def test_the_winner_of_every_game_is_rated_first(pbem: Pbem) -> None:
    """OpenSkill rates each game in the order they ended: a player who won each of his games is
    rated above one who lost each."""
    for n in range(1, 5):
        finished(pbem, QUICK, f"s{n}", [("anna", "anna@example.org"), ("ben", "ben@example.org")], str(n))
    states = [GamesDir(pbem.games).load(f"s{n}") for n in range(1, 5)]
    wins = sum(ranks(s)["anna"] == 1 for s in states)
    rows = {p["name"]: p for p in json.loads(pbem("standings", "--json").stdout)[0]["players"]}
    assert rows["anna"]["wins"] == wins
    if wins > 4 - wins:
        assert rows["anna"]["rating"] > rows["ben"]["rating"]
    elif wins < 4 - wins:
        assert rows["anna"]["rating"] < rows["ben"]["rating"]


def test_two_players_of_one_name_are_told_apart_without_their_addresses(pbem: Pbem) -> None:
    finished(pbem, QUICK, "s1", [("anna", "anna@one.test"), ("zeno", None)], "1")
    finished(pbem, QUICK, "s2", [("anna", "anna@two.test"), ("zeno", None)], "2")
    r = pbem("standings")
    names = sorted(p["name"] for p in json.loads(pbem("standings", "--json").stdout)[0]["players"])
    assert names == ["anna", "anna (2)", "zeno"]
    assert "one.test" not in r.stdout and "two.test" not in r.stdout


# -- by mail -------------------------------------------------------------------------------------------

@pytest.fixture
def g(pbem: Pbem) -> MailGames:
    return mail_host(pbem)


def plain(msg: Any) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


@pytest.mark.parametrize("word,heading", [
    ("standings", "Standings on this host, from the games played to their end:"),
    ("Tabelle", "Die Rangliste dieses Servers, aus den zu Ende gespielten Partien:"),
    ("rangliste", "Die Rangliste dieses Servers, aus den zu Ende gespielten Partien:"),
    ("stand", "De ranglijst van deze server, uit de uitgespeelde partijen:"),
    ("Ranglijst.", "De ranglijst van deze server, uit de uitgespeelde partijen:")])
def test_standings_by_mail_in_each_language_marking_the_reader_and_naming_no_address(
        g: MailGames, pbem: Pbem, word: str, heading: str) -> None:
    """A fresh mail of one word: answered in the language of the word, to the sender alone."""
    three_games(pbem)
    g.inbox.deliver(player_mail("ben@example.org", word, subject="standings?"))
    r = g.advance()
    assert "mail from ben@example.org: answered 'standings'" in r.output
    (msg,) = g.outbox.new()
    assert msg["To"].addresses[0].addr_spec == "ben@example.org"
    text = plain(msg)
    assert text.startswith(heading + "\n\n")
    assert "@" not in text and "example.org" not in text
    me = [line for line in text.splitlines() if line.startswith("* ")]
    assert len(me) == 1 and " ben " in me[0]
    assert all(len(line) <= 72 for line in text.splitlines())


def test_standings_in_reply_to_a_report_are_in_the_seats_language(g: MailGames, pbem: Pbem) -> None:
    three_games(pbem)
    g.new("m1", ["anna", "ben", "cleo"])
    assert pbem("set", "m1", "--language", "cleo=nl").exit_code == 0
    g.outbox.skip()
    welcome = g.welcome["cleo"]
    g.inbox.deliver(player_mail("cleo@players.test", "standings", subject=f"Re: {welcome['Subject']}",
                                in_reply_to=str(welcome["Message-ID"])))
    r = g.advance()
    assert "mail from cleo@players.test: m1: answered 'standings'" in r.output
    (msg,) = [m for m in g.outbox.new() if m["To"].addresses[0].addr_spec == "cleo@players.test"]
    text = plain(msg)
    assert text.startswith("De ranglijst van deze server, uit de uitgespeelde partijen:\n\n")
    assert "Medici vs Strozzi: 3 afgelopen partijen" in text
    assert not any(line.startswith("* ") for line in text.splitlines())  # cleo has played no game to its end


def test_standings_for_a_stranger_once_a_day_and_none_before_a_game_ends(g: MailGames) -> None:
    g.inbox.deliver(player_mail("who@far.test", "standings"))
    r = g.advance()
    assert "mail from who@far.test: answered 'standings'\n" in r.output
    (msg,) = g.outbox.new()
    assert "No game on this host has ended yet." in plain(msg)
    g.inbox.deliver(player_mail("who@far.test", "standings"))
    r = g.advance()
    assert "answered 'standings' (not answered: an address that plays no game here hears from pbem once a day)" \
        in r.output
    assert g.outbox.new() == []


# -- in the archive ------------------------------------------------------------------------------------

def test_the_archive_has_a_standings_page_without_addresses(pbem: Pbem, tmp_path: Path) -> None:
    three_games(pbem)
    out = tmp_path / "site"
    r = pbem("archive", "--out", str(out))
    assert r.exit_code == 0, r.output
    page = (out / "standings.html").read_text()
    assert "<h1>Standings</h1>" in page and "Medici vs Strozzi: 3 finished games" in page
    assert "zeno (bot)" in page and ">ann<" in page and ">ben<" in page
    assert "@" not in page and "example.org" not in page
    assert '<a href="standings.html">Standings</a>' in (out / "index.html").read_text()
    assert any("by the bot" in p.read_text() for p in (out / "s1").glob("turn-*.html"))  # a bot's order, marked
    # every game in the list under the table, linked, its players by place; those with a bot not rated
    assert '<li><a href="s2/index.html">s2</a>: 1. ' in page
    assert page.count("not rated: a bot played") == 2
    r = pbem("archive", "--out", str(tmp_path / "de"), "--language", "de")
    assert "<h1>Rangliste</h1>" in (tmp_path / "de" / "standings.html").read_text()
