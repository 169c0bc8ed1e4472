"""Medina through the `pbem` command: new (3 or 4 players, no deck file), the show --json contract,
the city drawn in the text report, legal orders pasted verbatim into turn files, both placements of a
turn in one file, every refusal with its exact message and exit 1 leaving the state file
byte-identical, and a whole bot game through submit/advance that ends with standings and verifies.

Exit codes: 0 success, 1 a domain error (`Error: <message>` on stderr), 2 a usage error.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import helpers
from test_standing_cli import Game
from helpers import Pbem, assert_error, git, player_args, snapshot, snapshot_at_head
from pbem import bots
from pbem.cli import main as pbem_main
from pbem.rng import Rng, commitment
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir, dump_yaml

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

R = get_ruleset("medina")
SEED = "medina-cli-seed-5e1d"
THREE = ("anna", "ben", "cleo")
FOUR = ("anna", "ben", "cleo", "dora")
LETTERS = "ABCDEFGHIJKLMNOP"
PLACEMENT_HELP = ("is not a Medina placement; send one of: start SQUARE, palace COLOUR SQUARE, stable SQUARE, "
                  "merchant SQUARE, wall SIDEn, roof COLOUR SQUARE (e.g. 'palace grey C7', 'wall N5', "
                  "'roof orange E4')")


# -- helpers -------------------------------------------------------------------------------------------

class Table(helpers.Table):
    """One Medina game in a games dir, with its players' tokens and a folder for turn files."""

    def __init__(self, pbem: Any, folder: Path, game: str = "m1") -> None:
        super().__init__(pbem, folder, game, ruleset="medina", name="turn-{n:04d}.yaml", quiet=True)

    def new(self, players: tuple[str, ...] = THREE, seed: str = SEED) -> None:
        self.create(players, seed)


@pytest.fixture
def table(pbem: Any, tmp_path: Path) -> Table:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    return Table(pbem, inbox)


def seats(first: str, players: tuple[str, ...] = THREE) -> list[str]:
    """The players in the order of play, from `first`."""
    i = players.index(first)
    return [players[(i + k) % len(players)] for k in range(len(players))]


@pytest.fixture(scope="module")
def city_position(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], list[str]]:
    """A game of three after the start at H6 and one turn: the first player placed the grey palace C3
    and the black palace K8; the second player is to place. Built once per module."""
    root = tmp_path_factory.mktemp("city")
    with pytest.MonkeyPatch.context() as mp:
        helpers.fixed_clock(mp)
        runner = Pbem(root / "games")
        inbox = root / "inbox"
        inbox.mkdir()
        t = Table(runner, inbox)
        t.new()
        order = seats(t.waiting())
        t.play(order[0], ["start H6"])
        t.play(order[0], ["palace grey C3", "palace black K8"])
        assert t.waiting() == order[1]
    return root / "games", t.tokens, order


@pytest.fixture
def city(city_position: tuple[Path, dict[str, str], list[str]], table: Table) -> Table:
    """A copy of the city position in this test's games dir; `table.order` the players in turn."""
    shutil.copytree(city_position[0], table.games)
    table.tokens = dict(city_position[1])
    table.order = list(city_position[2])  # type: ignore[attr-defined]
    return table


def refused(t: Table, player: str, turn: int, orders: list[Any], message: str) -> None:
    """Exit 1 with `message`; the state file and everything else byte-identical."""
    state = t.state_bytes()
    before = snapshot_at_head(t.games)
    assert_error(t.submit(player, turn, orders), message)
    assert t.state_bytes() == state
    assert snapshot_at_head(t.games) == before


# -- a whole game ----------------------------------------------------------------------------------------

def bot_turn(state: dict[str, Any], player: str) -> list[str]:
    """The bot's placements for the rest of `player`'s turn (one or two), worked out on a copy."""
    engine = copy.deepcopy(state["engine"])
    rng = Rng("lookahead")
    orders: list[str] = []
    while R.decision(engine) is not None and engine["current"] == player and len(orders) < 2:
        order = bots.choose("medina", R.view(engine, player), player, R.legal_orders(engine, player))
        orders.append(order)
        R.apply(engine, player, order, rng)
        if engine["phase"] == "build" and orders[0].startswith("start"):
            break  # the start is a turn file of its own
        if engine["placed"] == 0:
            break
    return orders


def play_to_the_end(t: Table) -> int:
    """The bot plays the game through show, submit and advance, a turn file a turn; the number of files."""
    files = 0
    while True:
        state = t.state()
        if state["status"] == "finished":
            return files
        player = state["engine"]["current"]
        seen = t.pbem.show("m1", player)
        assert seen["waiting_for"] == [player]
        orders = bot_turn(state, player)
        assert orders[0] in seen["legal_orders"]
        r = t.submit(player, seen["turn"], orders)
        assert r.exit_code == 0, r.output
        r = t.pbem("advance")
        assert r.exit_code == 0, r.output
        files += 1
        assert files < 200


def test_a_whole_bot_game(table: Table) -> None:
    """A whole game of three: it ends with standings, the seed comes out only at the end, `pbem verify`
    replays it (exit 0), and it takes no more orders. (One test, so that only one worker plays it.)"""
    table.new()
    files = play_to_the_end(table)
    finished = table
    # the end: standings
    gm = finished.pbem.show("m1")
    assert gm["status"] == "finished" and gm["waiting_for"] == []
    assert gm["seed"] == SEED and commitment(gm["seed"]) == gm["seed_sha256"]
    standings = gm["result"]["standings"]
    assert all(set(r) == {"player", "score", "rank"} for r in standings)
    assert sorted(r["player"] for r in standings) == sorted(THREE)
    assert [r["score"] for r in standings] == sorted((r["score"] for r in standings), reverse=True)
    for r in standings:
        assert r["rank"] == 1 + sum(1 for q in standings if q["score"] > r["score"])
        assert r["score"] == next(p["score"] for p in gm["view"]["players"] if p["name"] == r["player"])
    state = finished.state()
    assert state["status"] == "finished" and state["engine"]["phase"] == "over"
    assert len(state["log"]) > files  # most turn files carried both placements
    assert state["events"][-1]["type"] == "game_end"
    assert state["events"][-1]["standings"] == [dict(r) for r in R.result(state["engine"])]
    seen = finished.pbem.show("m1", "anna")
    assert seen["legal_orders"] == [] and seen["result"] == gm["result"]
    text = finished.pbem("show", "m1", "--as", "anna").stdout
    assert "FINAL STANDINGS" in text and f"The seed was: {SEED}" in text
    assert json.loads(finished.pbem("status", "--json").stdout)[0]["status"] == "finished"
    assert git(finished.games, "log", "-1", "--format=%s").endswith("; the game is over\n")

    # the seed stays out of every report until the last one
    for p in THREE:
        reports = sorted((finished.games / "m1" / "reports" / p).iterdir())
        assert len(reports) > 10
        for path in reports[:-1]:
            assert SEED not in path.read_text(), path.name
        assert f"The seed was: {SEED}" in reports[-1].read_text()
    history = git(finished.games, "log", "-p", "--all", "--", "m1/reports")
    assert history.count(SEED) == 3  # in the history too: only the three final reports

    # pbem verify replays it, changing nothing
    before = snapshot_at_head(finished.games)
    r = finished.pbem("verify", "m1")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"m1: verified: {len(state['log'])} orders replay to the identical game.\n"
    assert snapshot_at_head(finished.games) == before

    # it takes no more orders
    refused(finished, "anna", state["engine"]["turn"], ["merchant H5"],
            "game 'm1' is finished; it takes no more orders")

    # and a tampered state file does not verify
    state["engine"]["supply"]["anna"]["wall"] += 1
    GamesDir(finished.games).save("m1", state)
    r = finished.pbem("verify", "m1")
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: m1: the replay does not match:\n  - engine differs from the replay at "
                               ".supply.anna.wall: stored ")


# -- pbem new ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [THREE, FOUR])
def test_new_game(table: Table, players: tuple[str, ...]) -> None:
    r = table.pbem("new", "medina", "m1", *player_args(*players), "--seed", SEED)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"New Medina game 'm1' in {table.games.resolve() / 'm1'}"
    assert lines[1] == f"Seed commitment: sha256 {commitment(SEED)}"
    assert len(lines) == 3 + len(players) + 1
    state = table.state()
    start = state["engine"]["current"]
    assert lines[-1] == f"Waiting for {start} (turn 1)."
    assert state["ruleset"] == "medina" and state["options"] == {} and state["deck"] is None
    assert [p["name"] for p in state["players"]] == list(players)
    # the start player is the one the seed draws
    expected, _ = R.setup(list(players), {}, Rng(SEED))
    assert state["engine"] == expected
    n = len(players)
    table_row = {3: (6, 4, 8, 10, 4), 4: (5, 3, 6, 8, 4)}[n]
    for p in players:
        s = state["engine"]["supply"][p]
        assert (s["palace"]["grey"], s["stable"], s["merchant"], s["wall"], s["roof"]) == table_row
    assert git(table.games, "log", "-1", "--format=%s") == f"m1: new medina game for {', '.join(players)}\n"
    for p in players:
        assert [f.name for f in (table.games / "m1" / "reports" / p).iterdir()] == ["0001-turn-0001.txt"]


@pytest.mark.parametrize("n", [2, 5])
def test_new_with_the_wrong_number_of_players(table: Table, n: int) -> None:
    players = ("anna", "ben", "cleo", "dora", "emil")[:n]
    before = snapshot_at_head(table.games)
    assert_error(table.pbem("new", "medina", "m1", *player_args(*players)), f"Medina needs 3 to 4 players, not {n}")
    assert snapshot_at_head(table.games) == before
    assert not (table.games / "m1").exists()


def test_new_with_a_deck_file(table: Table, tmp_path: Path) -> None:
    """Medina has no cards: a deck file is refused."""
    path = tmp_path / "deck.yaml"
    path.write_text("days:\n  - [grey-1]\n")
    before = snapshot_at_head(table.games)
    assert_error(table.pbem("new", "medina", "m1", *player_args(*THREE), "--deck", path),
                 "medina does not take a deck file")
    assert snapshot_at_head(table.games) == before


def test_new_with_an_option(table: Table) -> None:
    assert_error(table.pbem("new", "medina", "m1", *player_args(*THREE), "--option", "edition=amigo"),
                 "medina has no option 'edition' (options: none)")


def test_medina_is_listed(table: Table) -> None:
    r = table.pbem.runner.invoke(pbem_main, ["rulesets"])
    assert "medina           Medina, 3-4 players (no options)\n" in r.stdout


# -- pbem show -----------------------------------------------------------------------------------------

VIEW_KEYS = {"phase", "turn", "current", "placed_this_turn", "letters", "grid", "players", "palaces", "street_ends",
             "roof_compulsory", "waiting_for", "you"}


def test_show_json_contract(table: Table) -> None:
    table.new()
    start = table.waiting()
    gm = table.pbem.show("m1")
    assert set(gm) == {"game", "ruleset", "options", "turn", "status", "waiting_for", "waiting_since",
                       "seed_sha256", "view"}
    assert (gm["game"], gm["ruleset"], gm["options"], gm["turn"], gm["status"], gm["waiting_for"]) == (
        "m1", "medina", {}, 1, "active", [start])
    assert gm["seed_sha256"] == commitment(SEED)
    assert set(gm["view"]) == VIEW_KEYS
    assert gm["view"]["phase"] == "start" and gm["view"]["you"] is None
    assert gm["view"]["letters"] == LETTERS
    assert len(gm["view"]["grid"]) == 13 and all(len(row) == 18 for row in gm["view"]["grid"])
    assert [set(p) for p in gm["view"]["players"]] == [
        {"name", "seat", "supply", "claimed", "returned", "score", "bonus", "palaces"}] * 3
    seen = table.pbem.show("m1", start)
    assert set(seen) == set(gm) | {"legal_orders", "standing"}
    assert seen["view"]["you"] == start
    assert {k: v for k, v in seen["view"].items() if k != "you"} == {k: v for k, v in gm["view"].items() if k != "you"}
    interior = [f"start {c}{r}" for r in range(2, 11) for c in LETTERS[1:-1]]
    assert seen["legal_orders"] == interior
    other = next(p for p in THREE if p != start)
    assert table.pbem.show("m1", other)["legal_orders"] == []
    for shown in (gm, seen):
        assert "seed" not in shown and "result" not in shown and SEED not in json.dumps(shown)


def test_show_json_mid_game(city: Table) -> None:
    first, second = city.order[0], city.order[1]
    gm = city.pbem.show("m1")
    view = gm["view"]
    assert gm["turn"] == 4 and gm["waiting_for"] == [second]
    assert (view["phase"], view["current"], view["placed_this_turn"]) == ("build", second, 0)
    assert view["palaces"] == [{"colour": "grey", "at": "C3", "size": 1, "owner": None},
                               {"colour": "black", "at": "K8", "size": 1, "owner": None}]
    assert view["street_ends"] == ["H6", "H6"]
    mine = next(p for p in view["players"] if p["name"] == first)
    assert mine["supply"]["palace"] == {"grey": 5, "black": 5, "brown": 6, "orange": 6}
    legal = city.pbem.show("m1", second)["legal_orders"]
    assert "roof grey C3" in legal and "roof black K8" in legal and "merchant H5" in legal
    assert [o for o in legal if o.startswith("palace grey")] == [f"palace grey {s}" for s in ("C2", "B3", "D3", "C4")]


def city_lines(text: str) -> tuple[str, list[str]]:
    """The letter line and the 13 lines of the city (wall ring included) of a text report."""
    lines = text.splitlines()
    head = lines.index("THE CITY") + 1
    return lines[head], lines[head + 2: head + 15]


def test_show_draws_the_city(city: Table) -> None:
    second = city.order[1]
    r = city.pbem("show", "m1", "--as", second)
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("YOUR MOVE: placement 1 of 2 this turn\n")
    assert f"\n\nMEDINA m1 - turn 4 - report for {second}\n" in r.stdout
    letters, rows = city_lines(r.stdout)
    assert letters.split() == list(LETTERS)
    assert rows[0].split()[0] == "T1" and rows[0].split()[-1] == "T2"
    assert rows[12].split()[0] == "T4" and rows[12].split()[-1] == "T3"
    labels = [row[:2] for row in rows[1:12]]
    assert labels == [f"{n:2d}" for n in range(1, 12)]
    # every square lines up under its letter in a fixed-width font
    where = {ch: letters.index(ch) for ch in LETTERS}
    grid = city.pbem.show("m1")["view"]["grid"]
    for r_, row in enumerate(rows):
        for c, ch in enumerate(LETTERS):
            assert row[where[ch]:where[ch] + 2] == grid[r_][c + 1], (r_, ch, row)
    assert rows[3][where["C"]:where["C"] + 2] == "g-"
    assert rows[8][where["K"]:where["K"] + 2] == "k-"
    assert rows[6][where["H"]:where["H"] + 2] == "MM"
    # the wall ring: the west wall column left of A, the east one right of P
    for row in rows[1:12]:
        assert row[where["A"] - 3:where["A"] - 1] == "::" and row[where["P"] + 3:where["P"] + 5] == "::"
    assert "YOUR MOVE: placement 1 of 2 this turn" in r.stdout
    assert "----- pbem orders begin -----" in r.stdout


def test_every_row_line_of_the_city_has_the_same_length(city: Table) -> None:
    r = city.pbem("show", "m1", "--as", city.order[1])
    _, rows = city_lines(r.stdout)
    assert len({len(row.rstrip()) for row in rows[1:12]}) == 1, [len(row) for row in rows[1:12]]


# -- turn files that are accepted ------------------------------------------------------------------------

def test_legal_orders_pasted_verbatim_are_accepted(city: Table) -> None:
    """Every kind of legal order, copied from show --json into a turn file, is queued."""
    second = city.order[1]
    legal = city.pbem.show("m1", second)["legal_orders"]
    kinds = {o.split()[0] for o in legal}
    assert kinds == {"palace", "stable", "merchant", "wall", "roof"}
    picks = [next(o for o in legal if o.startswith(k)) for k in sorted(kinds)] + [legal[-1], legal[len(legal) // 2]]
    for order in picks:
        r = city.submit(second, 4, [order])
        assert r.exit_code == 0, (order, r.output)
        assert r.stdout.startswith(f"Queued {second}'s orders for m1, turn 4: {order}")
    r = city.pbem("advance")
    assert r.exit_code == 0, r.output
    assert f"m1: applied {second} {picks[-1]}" in r.stdout
    assert city.state()["log"][-1]["order"] == picks[-1]


def test_the_start_pasted_from_the_report(table: Table) -> None:
    """The report lists the choices in short ('start X (X one of ...)'); any one of them is a legal
    order."""
    table.new()
    start = table.waiting()
    text = table.pbem("show", "m1", "--as", start).stdout
    assert "YOUR MOVE: place the start of the market street (not on the edge)" in text
    choice = re.search(r"start X \(X one of ([A-P0-9 \n]+)\)", text)
    assert choice
    squares = choice.group(1).split()
    assert len(squares) == 14 * 9 and "B2" in squares and "A1" not in squares
    table.play(start, [f"start {squares[-1]}"])
    assert table.state()["engine"]["streets"] == [[squares[-1]]]


def test_both_placements_of_a_turn_in_one_file(city: Table) -> None:
    second, third = city.order[1], city.order[2]
    r = city.submit(second, 4, ["palace grey D3", "merchant H5"])
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Queued {second}'s orders for m1, turn 4: palace grey D3; merchant H5.\n"
    r = city.pbem("advance")
    assert r.exit_code == 0, r.output
    assert f"m1: applied {second} palace grey D3, merchant H5" in r.stdout
    state = city.state()
    assert state["engine"]["turn"] == 6 and state["engine"]["current"] == third
    assert [(e["turn"], e["player"], e["order"]) for e in state["log"][-2:]] == [
        (4, second, "palace grey D3"), (5, second, "merchant H5")]
    assert state["engine"]["palaces"][0]["parts"] == ["C3", "D3"]
    assert city.pbem.show("m1")["waiting_for"] == [third]
    # one placement now, the second in a later file
    city.play(third, ["wall N1"])
    assert city.pbem.show("m1")["waiting_for"] == [third]
    city.play(third, ["roof grey D3"])
    assert city.pbem.show("m1")["waiting_for"] == [city.order[0]]
    assert city.state()["engine"]["palaces"][0]["owner"] == third


# -- turn files that are refused -------------------------------------------------------------------------

@pytest.mark.parametrize("order, message", [
    ("palace grey K3", "the grey palace at C3 is still open: build onto it (at C2, B3, D3, C4)"),
    ("palace brown D4", "a palace at D4 would touch another palace; palaces may never touch, not even diagonally"),
    ("palace brown J9", "a palace at J9 would touch another palace; palaces may never touch, not even diagonally"),
    ("palace orange H6", "H6 is taken (by a merchant)"),
    ("stable E5", "a stable must be built onto a palace; E5 touches none"),
    ("stable D4", "a stable must be built onto a palace; D4 touches none"),
    ("merchant H8", "the market street must grow from one of its ends (H6) with no branch and no loop: H8 is not "
                    "such a square (choose from H5, G6, I6, H7)"),
    ("wall N5", "walls are built from the corner towers along the edge: N5 joins no tower and no wall"),
    ("wall N17", "N17 is not a wall segment (N1-N16, S1-S16, W1-W11, E1-E11)"),
    ("roof black C3", "the palace at C3 is grey, not black"),
    ("roof grey E5", "there is no palace at E5 to roof"),
    ("start E5", "the market street has its start already"),
    ("palace grey Q3", "Q3 is not a square of the city (A1 to P11)"),
    ("merchant A12", "A12 is not a square of the city (A1 to P11)"),
    ("stable P12", "P12 is not a square of the city (A1 to P11)"),
    ("palace grey A01", "'palace grey A01' is not a placement (e.g. 'palace grey C7', 'wall N5', 'roof orange E4')"),
])
def test_a_placement_that_breaks_a_rule(city: Table, order: str, message: str) -> None:
    refused(city, city.order[1], 4, [order], f"order {order!r}: {message}")


def test_a_stable_joining_two_palaces(city: Table) -> None:
    second = city.order[1]
    city.play(second, ["palace brown E4", "merchant H5"])
    refused(city, city.order[2], 6, ["stable D3"],
            "order 'stable D3': a stable at D3 would join two palaces; palaces may never touch, not even through "
            "stables")


def test_a_second_roof_of_a_colour(city: Table) -> None:
    second = city.order[1]
    city.play(second, ["roof grey C3", "palace grey K3"])
    city.play(city.order[2], ["merchant H5", "merchant H4"])
    city.play(city.order[0], ["merchant H3", "merchant H2"])
    refused(city, second, 10, ["roof grey K3"],
            "order 'roof grey K3': you own a grey palace already; each player roofs one palace of each colour")
    refused(city, second, 10, ["roof black C3"], "order 'roof black C3': the palace at C3 is grey, not black")


def test_the_start_off_the_edge_and_first(table: Table) -> None:
    table.new()
    start = table.waiting()
    refused(table, start, 1, ["start A1"], "order 'start A1': the market street may not start on the edge of the "
                                           "city (A1)")
    refused(table, start, 1, ["start P6"], "order 'start P6': the market street may not start on the edge of the "
                                           "city (P6)")
    refused(table, start, 1, ["palace grey C3"],
            "order 'palace grey C3': first place the start of the market street: 'start SQUARE'")
    refused(table, start, 1, ["start H6", "start H7"],
            "order 2 ('start H7'): the market street has its start already; nothing was applied")


@pytest.mark.parametrize("orders, problems", [
    (["palace grey"], ["line 6, orders[0]"]),
    (["palace pink C7"], ["line 6, orders[0]"]),
    (["merchant"], ["line 6, orders[0]"]),
    (["wall N"], ["line 6, orders[0]"]),
    (["roof C3"], ["line 6, orders[0]"]),
    (["merchant grey H5"], ["line 6, orders[0]"]),
    ([{"merchant": "H5"}], ["line 6, orders[0]"]),
    (["merchant H5", "tower N1", 7], ["line 7, orders[1]", "line 8, orders[2]"]),
])
def test_a_malformed_placement(city: Table, orders: list[Any], problems: list[str]) -> None:
    message = "the turn file is not valid:\n" + "\n".join(f"  - {p}: {PLACEMENT_HELP}" for p in problems)
    refused(city, city.order[1], 4, orders, message)


def test_a_turn_file_with_a_second_placement_that_breaks_a_rule(city: Table) -> None:
    refused(city, city.order[1], 4, ["merchant H5", "merchant H8"],
            "order 2 ('merchant H8'): the market street must grow from one of its ends (H6 or H5) with no branch and "
            "no loop: H8 is not such a square (choose from H4, G5, I5, G6, I6, H7); nothing was applied")


def test_a_turn_file_with_three_placements(city: Table) -> None:
    refused(city, city.order[1], 4, ["merchant H5", "merchant H4", "merchant H3"],
            f"order 3 ('merchant H3'): after order 2 the decision is no longer yours (the game waits for "
            f"{city.order[2]}); nothing was applied")


def test_orders_of_the_wrong_player(city: Table) -> None:
    refused(city, city.order[2], 4, ["merchant H5"],
            f"turn 4 of game 'm1' is not yours: the game waits for {city.order[1]}")


def test_a_stale_turn(city: Table) -> None:
    second = city.order[1]
    refused(city, second, 2, ["merchant H5"], "your orders answer turn 2, but game 'm1' is at turn 4: they are stale")
    refused(city, second, 5, ["merchant H5"], "your orders answer turn 5, but game 'm1' is only at turn 4")
    # orders queued for turn 4 and then overtaken by another file of the same turn are stale at advance
    assert city.submit(second, 4, ["merchant H5"]).exit_code == 0
    assert city.pbem("advance").exit_code == 0
    refused(city, second, 4, ["merchant H4"], "your orders answer turn 4, but game 'm1' is at turn 5: they are stale")


# -- orders ahead, and no standing orders ----------------------------------------------------------------

def test_medina_takes_orders_ahead_but_no_standing_orders(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path, "medina")
    before = snapshot(pbem.games)
    assert_error(g.submit("anna", standing=[{"pass": "day"}]),
                 "standing orders: Medina takes no standing orders; send your next orders ahead with "
                 "'turn: next' instead")
    assert snapshot(pbem.games) == before
    first = g.gm()["waiting_for"][0]
    legal = pbem.show("m1", first)["legal_orders"]
    assert g.submit(first, turn="next", orders=legal[:1]).exit_code == 0
    assert g.advance() == f"m1: applied {first} {legal[0]} (sent ahead)\n"


def test_standing_orders_of_the_wrong_shape_are_refused_as_none_taken(pbem: Pbem, tmp_path: Path) -> None:
    g = Game(pbem, tmp_path, "medina")
    before = snapshot(pbem.games)
    for wrong in ([1, 2], [{}]):
        assert_error(g.submit("anna", standing=wrong), "standing orders: Medina takes no standing orders; send "
                                                       "your next orders ahead with 'turn: next' instead")
    assert snapshot(pbem.games) == before
