"""Ratings count only games that different people played against each other: a game with a bot at
the table, or with two seats of one address (one person playing his own other seats), moves no
rating. Such a game is still in its players' history, listed as not rated with its reason, in
`pbem standings`, its JSON and the archive's standings page.

The games are started by `pbem new` and played to their end, each human seat sending the order the
game's bot would choose for it: all but the last order through the pipeline's own functions (to be
quick), the last one by a turn file and `pbem advance`, so that the run ends the game and records
whether it is rated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import Pbem
from helpers import load_game
from pbem import bots
from pbem import game as games
from pbem.store import GamesDir, dump_yaml
from rooms import EXAMPLE

SEED = "standings-rated-seed-"


def played(pbem: Pbem, tmp_path: Path, game: str, seats: list[tuple[str, str | None]], seed: str,
           replace: tuple[str, str] | None = None) -> dict[str, Any]:
    """A game started by `pbem new` (a seat without an address: `--bot NAME`) and played to its end;
    the finished state as `pbem advance` saved it. `replace`: (SEAT, NEW=EMAIL), `pbem replace` before
    the last order."""
    args = [a for name, email in seats for a in (["--player", f"{name}={email}"] if email else ["--bot", name])]
    r = pbem("new", EXAMPLE, game, *args, "--seed", SEED + seed, "--json")
    assert r.exit_code == 0, r.output
    tokens = {p["name"]: p["token"] for p in json.loads(r.stdout)["players"] if p.get("token")}
    gd = GamesDir(pbem.games)
    state = gd.load(game)
    for _ in range(2000):
        player = games.waiting_for(state)[0]
        shown = games.show(state, player)
        order = bots.choose(EXAMPLE, shown["view"], player, shown["legal_orders"])
        after, _ = games.apply_orders(state, player, state["engine"]["turn"], [order])
        after, _, _ = games.play_queue(after, [])  # the bots' seats answer their decisions
        if after["status"] == "finished":  # the last order: by turn file, the run ends the game
            gd.save(game, state)
            gd.commit(game, f"{game}: played up to its last order\n")
            if replace is not None:
                r = pbem("replace", game, *replace, "--json")
                assert r.exit_code == 0, r.output
                tokens[replace[0]] = json.loads(r.stdout)["token"]
            path = tmp_path / f"{game}-last.yaml"
            path.write_text(dump_yaml({"game": game, "player": player, "token": tokens[player],
                                       "turn": state["engine"]["turn"], "orders": [order]}))
            assert pbem("submit", str(path)).exit_code == 0
            r = pbem("advance")
            assert r.exit_code == 0, r.output
            final = load_game(pbem.games, game)
            assert final["status"] == "finished"
            return final
        state = after
    raise AssertionError(f"{game} does not end")


def standings_json(pbem: Pbem) -> dict[str, Any]:
    r = pbem("standings", "--json")
    assert r.exit_code == 0, r.output
    (table,) = json.loads(r.stdout)
    return table


def rows(pbem: Pbem) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in standings_json(pbem)["players"]}


def test_a_game_against_a_bot_moves_no_rating_and_is_listed_as_not_rated(pbem: Pbem, tmp_path: Path) -> None:
    rated = played(pbem, tmp_path, "r1", [("anna", "anna@one.test"), ("ben", "ben@two.test"), ("cleo", "cleo@three.test")], "1")
    assert rated["unrated"] == []
    before = rows(pbem)
    state = played(pbem, tmp_path, "r2", [("anna", "anna@one.test"), ("ben", "ben@two.test"), ("b1", None)], "2")
    assert state["unrated"] == ["bots"]
    table = standings_json(pbem)
    assert (table["games"], table["rated_games"]) == (2, 1)
    after = {p["name"]: p for p in table["players"]}
    for who in ("anna", "ben", "cleo"):
        assert after[who]["rating"] == before[who]["rating"]  # the game against the bot moved nothing
        assert after[who]["rated_games"] == 1
    assert after["anna"]["games"] == 2 and after["cleo"]["games"] == 1
    place = {r["player"]: r["rank"] for r in games.ruleset_of(state).result(state["engine"])}
    assert after["anna"]["history"] == [
        {"game": "r1", "place": before["anna"]["history"][0]["place"], "rated": True, "unrated": []},
        {"game": "r2", "place": place["anna"], "rated": False, "unrated": ["bots"]}]
    assert after["b1"] == {"name": "b1", "bot": True, "games": 1, "rated_games": 0, "wins": int(place["b1"] == 1),
                           "place": place["b1"], "rating": None,
                           "history": [{"game": "r2", "place": place["b1"], "rated": False, "unrated": ["bots"]}]}
    assert [p["name"] for p in table["players"]][-1] == "b1"  # no rating: after every rated player
    r = pbem("standings")
    assert "Not rated (a bot played): r2\n" in r.stdout
    b1 = next(line for line in r.stdout.splitlines() if " b1 (bot) " in line)
    assert b1.split()[3:6] == ["1", "0", str(int(place["b1"] == 1))] and b1.endswith(" -")
    assert "@" not in r.stdout and "one.test" not in r.stdout


def test_a_game_of_two_seats_of_one_address_moves_no_rating(pbem: Pbem, tmp_path: Path) -> None:
    """One person with a second seat of his own address (another case, another +tag) farms no rating."""
    played(pbem, tmp_path, "r1", [("anna", "anna@one.test"), ("ben", "ben@two.test"), ("cleo", "cleo@three.test")], "1")
    before = rows(pbem)
    state = played(pbem, tmp_path, "r2", [("anna", "anna@one.test"), ("ben", "ben@two.test"),
                                          ("anna2", "Anna+second@ONE.test")], "2")
    assert state["unrated"] == ["shared-address"]
    table = standings_json(pbem)
    assert (table["games"], table["rated_games"]) == (2, 1)
    after = {p["name"]: p for p in table["players"]}
    assert after["ben"]["rating"] == before["ben"]["rating"] and after["cleo"] == before["cleo"]
    assert after["ben"]["history"][-1] == {"game": "r2", "place": after["ben"]["history"][-1]["place"],
                                           "rated": False, "unrated": ["shared-address"]}
    # her two seats are one player (the address says who plays), shown by the seat name she took last,
    # with both seats of the game in her history
    assert "anna" not in after
    assert [(p["game"], p["rated"]) for p in after["anna2"]["history"]] == [("r1", True), ("r2", False), ("r2", False)]
    assert after["anna2"]["rating"] == before["anna"]["rating"] and after["anna2"]["rated_games"] == 1
    r = pbem("standings")
    assert "Not rated (two seats share an address): r2\n" in r.stdout
    assert "one.test" not in r.stdout and "@" not in r.stdout


def test_the_record_of_the_end_decides_not_the_addresses_left_in_the_state(pbem: Pbem, tmp_path: Path) -> None:
    """Addresses may leave a finished game's state; what its end recorded still says it is not rated."""
    played(pbem, tmp_path, "r1", [("anna", "anna@one.test"), ("ben", "ben@two.test"), ("cleo", "anna@one.test")], "1")
    gd = GamesDir(pbem.games)
    state = gd.load("r1")
    for p in state["players"]:
        p["email"] = ""
    gd.save("r1", state)
    table = standings_json(pbem)
    assert table["rated_games"] == 0
    assert {p["name"] for p in table["players"]} == {"anna", "ben", "cleo"}  # a seat without an address: his own
    assert all(p["rating"] is None and p["history"][0]["unrated"] == ["shared-address"] for p in table["players"])


def test_the_archive_tells_two_players_of_one_name_apart_and_lists_each_game_rated_or_not(
        pbem: Pbem, tmp_path: Path) -> None:
    """Two different people both called anna are two rows, `anna` (who played first) and `anna (2)`,
    and the list of games under the table says which of them played which game; no address shows."""
    played(pbem, tmp_path, "r1", [("anna", "anna@one.test"), ("ben", "ben@two.test"), ("cleo", "cleo@three.test")], "1")
    played(pbem, tmp_path, "r2", [("anna", "anna@four.test"), ("ben", "ben@two.test"), ("cleo", "cleo@three.test")], "2")
    played(pbem, tmp_path, "r3", [("anna", "anna@one.test"), ("ben", "ben@two.test"), ("b1", None)], "3")
    table = standings_json(pbem)
    by_name = {p["name"]: [h["game"] for h in p["history"]] for p in table["players"]}
    assert by_name["anna"] == ["r1", "r3"] and by_name["anna (2)"] == ["r2"]
    out = tmp_path / "site"
    r = pbem("archive", "--out", str(out))
    assert r.exit_code == 0, r.output
    page = (out / "standings.html").read_text()
    assert ">anna<" in page and ">anna (2)<" in page
    for game in ("r1", "r2", "r3"):
        item = next(line for line in page.splitlines() if line.startswith(f'<li><a href="{game}/index.html">{game}</a>: '))
        assert ("anna (2)" in item) == (game == "r2")
        assert ("not rated: a bot played" in item) == (game == "r3")
    assert "@" not in page and "one.test" not in page and "four.test" not in page
    de = tmp_path / "de"
    assert pbem("archive", "--out", str(de), "--language", "de").exit_code == 0
    assert "nicht gewertet: ein Bot hat mitgespielt" in (de / "standings.html").read_text()


def test_standings_by_mail_say_which_games_moved_no_rating(pbem: Pbem, tmp_path: Path) -> None:
    from conftest_mail import FilesOut, MaildirDrop, MailGames, player_mail

    played(pbem, tmp_path, "r1", [("anna", "anna@one.test"), ("ben", "ben@two.test"), ("b1", None)], "1")
    g = MailGames(pbem, MaildirDrop(pbem.games), FilesOut(pbem.games))
    g.write_config()
    g.outbox.skip()
    g.inbox.deliver(player_mail("Anna+chess@one.test", "tabelle", subject="?"))
    assert g.advance().exit_code == 0
    (msg,) = g.outbox.new()
    text = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert "Nicht gewertet (ein Bot hat mitgespielt): r1\n" in text
    assert "Eine Partie mit einem Bot am Tisch oder mit zwei Plätzen derselben Adresse ändert keine Wertung" in \
        " ".join(text.split())
    mine = [line for line in text.splitlines() if line.startswith("* ")]
    assert len(mine) == 1 and " anna " in mine[0] and mine[0].endswith(" -")  # her mailbox, her row: no rating yet
    assert all(len(line) <= 72 for line in text.splitlines())


def test_a_seat_handed_over_counts_by_the_address_that_played_it_at_the_end(pbem: Pbem, tmp_path: Path) -> None:
    """cleo's seat handed to anna's own other address before the last order: two seats of one address."""
    state = played(pbem, tmp_path, "r1", [("anna", "anna@one.test"), ("ben", "ben@two.test"),
                                          ("cleo", "cleo@three.test")], "1", replace=("cleo", "ann=ANNA@one.test"))
    assert state["unrated"] == ["shared-address"]
    assert standings_json(pbem)["rated_games"] == 0
