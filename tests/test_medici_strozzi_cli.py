"""Medici vs Strozzi through the `pbem` command: new (two players, no options, a deck file fixing the
draw order), the show --json contract, legal orders pasted verbatim into turn files, every refusal with
its exact message and exit 1 leaving the state file byte-identical, and a whole bot game through
submit/advance that verifies.

Exit codes: 0 success, 1 a domain error (`Error: <message>` on stderr), 2 a usage error.
"""

from __future__ import annotations

import re

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

import helpers
from helpers import Pbem, as_json, assert_error, assert_usage_error, git, player_args, snapshot_at_head
from pbem import bots
from pbem.game import new_game, apply_orders
from pbem.rng import Rng, commitment
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

R = get_ruleset("medici-strozzi")
PRICES = [{"price": n} for n in range(301)]
ORDER_HELP = ("is not a Medici vs Strozzi order; send one of: draw, price: N, buy, decline, "
              "load: SHIP (with harbour: X for an empty ship), discard")




# -- helpers -------------------------------------------------------------------------------------------

TWO = player_args("anna", "ben")


class Table(helpers.Table):
    """One Medici vs Strozzi game in a games dir: anna plays the Medici, ben the Strozzi."""

    def __init__(self, pbem: Any, folder: Path, game: str = "s1") -> None:
        super().__init__(pbem, folder, game, ruleset="medici-strozzi", quiet=True)

    def new(self, *extra: str, seed: str = "strozzi-seed") -> None:
        self.create(("anna", "ben"), seed, *extra)


@pytest.fixture
def table(pbem: Any, tmp_path: Path) -> Table:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    return Table(pbem, inbox)


def deck_file(folder: Path, text: str) -> Path:
    path = folder / "deck.yaml"
    path.write_text(text)
    return path


# The draw order of round 1 for the positions below.
ROUND_1 = ["silk-0", "silk-1", "gold-5", "furs-2", "furs-3", "indigo-1", "spices-4"]


def to_the_load_position(t: Table) -> None:
    """anna (the Medici) buys silk-0, silk-1 and loads them onto ship 3 in harbour A; then she draws
    gold-5 and furs-2, prices them at 0, ben declines: at turn 8 anna must load a lot of two, her ship
    3 having room for one more."""
    path = deck_file(t.folder, "rounds:\n  - [" + ", ".join(ROUND_1) + "]\n")
    t.new("--deck", str(path))
    t.play("anna", ["draw", {"price": 0}])
    t.play("ben", ["decline"])
    t.play("anna", [{"load": 3, "harbour": "A"}])
    t.play("anna", ["draw", {"price": 0}])
    t.play("ben", ["decline"])


@pytest.fixture(scope="module")
def load_position(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The load position, built once per module: its games dir and tokens."""
    root = tmp_path_factory.mktemp("load-position")
    with pytest.MonkeyPatch.context() as mp:
        helpers.fixed_clock(mp)
        games = root / "games"
        pbem = Pbem(games)
        inbox = root / "inbox"
        inbox.mkdir()
        t = Table(pbem, inbox)
        to_the_load_position(t)
    return games, t.tokens


@pytest.fixture
def loading(load_position: tuple[Path, dict[str, str]], table: Table) -> Table:
    """A copy of the load position in this test's games dir."""
    shutil.copytree(load_position[0], table.games)
    table.tokens = dict(load_position[1])
    return table


# -- pbem new ------------------------------------------------------------------------------------------

def test_new_game_of_two(table: Table) -> None:
    r = table.pbem("new", "medici-strozzi", "s1", *TWO, "--seed", "s", "--weak-seed")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"New Medici vs Strozzi game 's1' in {table.games.resolve() / 's1'}"
    assert lines[1] == f"Seed commitment: sha256 {commitment('s')}"
    assert lines[-1] == "Waiting for anna (turn 1)."
    assert len(lines) == 6 and r.stderr == ""
    gm = table.pbem.show("s1")
    assert (gm["ruleset"], gm["options"], gm["turn"], gm["status"], gm["waiting_for"]) == (
        "medici-strozzi", {}, 1, "active", ["anna"])
    assert (gm["view"]["medici"], gm["view"]["strozzi"]) == ("anna", "ben")  # in the order of --player
    assert git(table.games, "log", "-1", "--format=%s") == "s1: new medici-strozzi game for anna, ben\n"
    for p in ("anna", "ben"):
        assert [f.name for f in (table.games / "s1" / "reports" / p).iterdir()] == ["0001-turn-0001.txt"]
    assert git(table.games, "status", "--porcelain") == ""


def test_new_json(table: Table) -> None:
    r = table.pbem("new", "medici-strozzi", "s1", *TWO, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert set(out) == {"game", "ruleset", "players"}
    assert (out["game"], out["ruleset"]) == ("s1", "medici-strozzi")
    assert [(p["name"], p["email"]) for p in out["players"]] == [("anna", "anna@example.org"),
                                                                 ("ben", "ben@example.org")]


@pytest.mark.parametrize("names", [("anna",), ("anna", "ben", "cleo")])
def test_new_needs_exactly_two_players(table: Table, names: tuple[str, ...]) -> None:
    """DE: 'aber dieses Spiel ist für 2 Spieler!'"""
    before = snapshot_at_head(table.games)
    assert_error(table.pbem("new", "medici-strozzi", "s1", *player_args(*names)),
                 f"Medici vs Strozzi needs 2 players, not {len(names)}")
    assert snapshot_at_head(table.games) == before
    assert not (table.games / "s1").exists()


@pytest.mark.parametrize("option, message", [
    ("edition=amigo", "medici-strozzi has no option 'edition' (options: none)"),
    ("rounds=2", "medici-strozzi has no option 'rounds' (options: none)"),
])
def test_new_takes_no_options(table: Table, option: str, message: str) -> None:
    assert_error(table.pbem("new", "medici-strozzi", "s1", *TWO, "--option", option), message)
    assert not table.games.exists()


def test_new_refuses_a_malformed_option_as_a_usage_error(table: Table) -> None:
    r = table.pbem("new", "medici-strozzi", "s1", *TWO, "--option", "edition")
    assert_usage_error(r, "Invalid value for '--option': 'edition' is not KEY=VALUE")
    assert not table.games.exists()


def test_new_with_a_deck_fixes_the_draw_order(table: Table) -> None:
    path = deck_file(table.folder, "rounds:\n  - [gold-5, silk-4]\n  - [furs-0]\n")
    table.new("--deck", str(path))
    gm = table.pbem.show("s1")
    assert gm["view"]["lot"] == ["gold-5"]  # the first reveal is the file's first tile
    assert gm["view"]["bag"][0] == "silk-4"
    assert gm["view"]["fixed_rounds"] == [["furs-0"]]
    report = (table.games / "s1" / "reports" / "anna" / "0001-turn-0001.txt").read_text()
    assert "anna draws gold-5; 25 left in the bag." in report
    state = table.state()
    assert state["deck"] == {"rounds": [["gold-5", "silk-4"], ["furs-0"]]}
    table.play("anna", ["draw"])
    assert table.pbem.show("s1")["view"]["lot"] == ["gold-5", "silk-4"]
    assert table.pbem("verify", "s1").exit_code == 0


@pytest.mark.parametrize("text, message", [
    ("rounds:\n  - [silk-5]\n",
     "round 1 of the deck file: 'silk-5' is not a tile (goods: indigo, furs, spices, silk, values 0-4, and gold-5)"),
    ("rounds:\n  - [gold-5]\n  - [gold-5, indigo-9]\n",
     "round 2 of the deck file: 'indigo-9' is not a tile (goods: indigo, furs, spices, silk, values 0-4, and gold-5)"),
    ("rounds:\n  - [gold-5, gold-5, gold-5]\n", "round 1 of the deck file lists 'gold-5' 3 times; the game has 2"),
    ("rounds:\n  - [silk-1, silk-1]\n", "round 1 of the deck file lists 'silk-1' 2 times; the game has 1"),
    ("days: [[silk-1]]\n", "the deck file '{path}' is not valid:\n"
                           "  - line 1, the top level: has unknown field 'days'\n"
                           "  - line 1, the top level: lacks 'rounds'"),
    ("rounds: []\n", "the deck file '{path}' is not valid:\n  - line 1, rounds: must hold at least 1 item"),
    ("rounds: [[a-1], [], [], []]\n", "the deck file '{path}' is not valid:\n  - line 1, rounds: may hold at most 3 "
                                      "items, not 4"),
    ("rounds: [[Silk-1]]\n", "the deck file '{path}' is not valid:\n  - line 1, rounds[0][0]: 'Silk-1' is not of "
                             "the allowed form"),
    ("rounds:\n  - [silk-1, 3]\n", "the deck file '{path}' is not valid:\n  - line 2, rounds[0][1]: must be text, "
                                   "not 3"),
    ("rounds: [silk-1\n", "the deck file '{path}', line 2: not valid YAML (did not find expected ',' or ']')"),
])
def test_new_rejects_a_bad_deck_file(table: Table, text: str, message: str) -> None:
    path = deck_file(table.folder, text)
    before = snapshot_at_head(table.games)
    assert_error(table.pbem("new", "medici-strozzi", "s1", *TWO, "--deck", path), message.format(path=path))
    assert snapshot_at_head(table.games) == before


# -- pbem show --json ------------------------------------------------------------------------------------

PLAYER_VIEW_KEYS = {"round", "turn", "phase", "medici", "strozzi", "goods", "harbours", "track_length",
                    "track_bonus", "markers", "drawer", "lot", "lot_value", "max_lot", "price", "buyer",
                    "bag_left", "discarded", "players", "waiting_for", "you"}


def test_show_json_contract(table: Table) -> None:
    table.new()
    gm = table.pbem.show("s1")
    assert set(gm) == {"game", "ruleset", "options", "turn", "status", "waiting_for", "waiting_since",
                       "seed_sha256", "view"}
    assert set(gm["view"]) == PLAYER_VIEW_KEYS | {"bag", "fixed_rounds"}
    assert len(gm["view"]["bag"]) == 25 and gm["view"]["you"] is None
    assert gm["seed_sha256"] == commitment("strozzi-seed")
    anna = table.pbem.show("s1", "anna")
    assert set(anna) == set(gm) | {"legal_orders", "standing"}
    assert set(anna["view"]) == PLAYER_VIEW_KEYS
    assert anna["view"]["you"] == "anna" and anna["waiting_for"] == ["anna"]
    assert anna["legal_orders"] == ["draw"] + PRICES
    assert anna["view"]["track_bonus"] == {"3": 10, "4": 20}
    assert [(p["name"], p["family"], p["money"]) for p in anna["view"]["players"]] == [
        ("anna", "Medici", 300), ("ben", "Strozzi", 300)]
    assert anna["view"]["players"][0]["ships"] == [
        {"capacity": c, "harbour": None, "cargo": [], "value": 0} for c in (3, 4, 5)]
    ben = table.pbem.show("s1", "ben")
    assert ben["legal_orders"] == []
    assert {k: v for k, v in ben["view"].items() if k != "you"} == {k: v for k, v in anna["view"].items()
                                                                   if k != "you"}
    for shown in (gm, anna, ben):
        assert "seed" not in shown and "result" not in shown
        assert "strozzi-seed" not in json.dumps(shown)


def test_show_as_renders_a_report(table: Table) -> None:
    table.new()
    r = table.pbem("show", "s1", "--as", "anna")
    assert r.exit_code == 0
    assert r.stdout.startswith("YOUR MOVE\n  Draw another tile, or name the price of the lot.\n")
    assert "\n\nMEDICI VS STROZZI s1 - turn 1 - report for anna\n" \
           "anna (Medici) against ben (Strozzi), round 1 of 3\n" in r.stdout
    assert "You may send: draw; price: N (N from 0 to 300)." in r.stdout
    assert "----- pbem orders begin -----" in r.stdout
    assert "GM only" not in r.stdout
    assert "GM only - the bag, top first: " in table.pbem("show", "s1").stdout


# -- turn files: what the game offers is accepted -----------------------------------------------------------

def test_legal_orders_pasted_verbatim_are_accepted(loading: Table) -> None:
    seen = loading.pbem.show("s1", "anna")
    assert seen["turn"] == 8 and seen["view"]["phase"] == "load"
    assert seen["view"]["lot"] == ["gold-5", "furs-2"]
    legal = seen["legal_orders"]
    assert legal == [{"load": 4, "harbour": "B"}, {"load": 4, "harbour": "C"},
                     {"load": 5, "harbour": "B"}, {"load": 5, "harbour": "C"}, "discard"]
    for order in legal:  # each is accepted (a later file replaces the queued one)
        r = loading.submit("anna", 8, [order])
        assert r.exit_code == 0, r.output
    r = loading.submit("anna", 8, [legal[3]])
    assert r.stdout == ("Queued anna's orders for s1, turn 8: {load: 5, harbour: C} "
                        "(it replaces the orders queued before).\n")
    r = loading.pbem("advance")
    assert r.exit_code == 0, r.output
    assert "s1: applied anna {load: 5, harbour: C}\n" in r.stdout
    gm = loading.pbem.show("s1")
    ships = gm["view"]["players"][0]["ships"]
    assert [(s["capacity"], s["harbour"], s["cargo"]) for s in ships] == [
        (3, "A", ["silk-0", "silk-1"]), (4, None, []), (5, "C", ["gold-5", "furs-2"])]
    # anna bought, so anna draws next: furs-3 is drawn for her
    assert gm["waiting_for"] == ["anna"] and gm["view"]["lot"] == ["furs-3"] and gm["turn"] == 9


def test_the_turn_file_of_the_report_is_accepted(loading: Table) -> None:
    """The block between the markers of a report, with the token filled in and one order kept (its `#`
    deleted: every alternative is commented out, so the block sent back unchanged orders nothing)."""
    text = loading.pbem("show", "s1", "--as", "anna").stdout
    assert "  You may send: load 4 harbour B; load 4 harbour C; load 5 harbour B;\n" \
           "    load 5 harbour C; discard.\n" in text  # as he types them
    block = text.split("----- pbem orders begin -----\n")[1].split("----- pbem orders end -----")[0]
    lines = block.splitlines()
    assert lines[:6] == ["game: s1", "player: anna", "token: YOUR-TOKEN", "turn: 8", "orders:",
                         "# To keep one order, delete the # in front of it:"]
    assert lines[6:] == ["#  - load 4 harbour B", "#  - load 4 harbour C", "#  - load 5 harbour B",
                         "#  - load 5 harbour C", "#  - discard"]
    path = loading.folder / "unchanged.yaml"
    path.write_text("\n".join(lines).replace("YOUR-TOKEN", loading.tokens["anna"]) + "\n")
    r = loading.pbem("submit", path)
    assert r.exit_code == 1 and "orders" in r.stderr, r.output  # no order at all: refused
    kept = "\n".join(lines[:6] + [line.removeprefix("#") if line == "#  - load 4 harbour C" else line
                                   for line in lines[6:]]).replace("YOUR-TOKEN", loading.tokens["anna"])
    path = loading.folder / "from-report.yaml"
    path.write_text(kept + "\n")
    r = loading.pbem("submit", path)
    assert r.exit_code == 0, r.output
    assert r.stdout == "Queued anna's orders for s1, turn 8: {load: 4, harbour: C}.\n"


def test_the_answer_and_the_price_from_the_legal_orders(table: Table) -> None:
    table.new()
    legal = table.pbem.show("s1", "anna")["legal_orders"]
    table.play("anna", [legal[0], legal[1 + 17]])  # draw, then price: 17
    seen = table.pbem.show("s1", "ben")
    assert seen["legal_orders"] == ["buy", "decline"]
    assert seen["view"]["price"] == 17 and len(seen["view"]["lot"]) == 2
    table.play("ben", [seen["legal_orders"][0]])
    gm = table.pbem.show("s1")
    assert gm["view"]["players"][1]["money"] == 283 and gm["waiting_for"] == ["ben"]
    assert gm["view"]["phase"] == "load" and gm["view"]["buyer"] == "ben"


# -- turn files: refusals ----------------------------------------------------------------------------------

def assert_refused(t: Table, result: Any, message: str, before: dict[str, Any], state: bytes) -> None:
    assert_error(result, message)
    assert t.state_bytes() == state  # the state file is byte-identical
    assert snapshot_at_head(t.games) == before  # and so is everything else: nothing queued, nothing committed


@pytest.mark.parametrize("orders, message", [
    ([{"load": 3}], "order 'load: 3': ship 3 has room for 1 more, not the 2 tiles of the lot"),
    ([{"load": 3, "harbour": "A"}], "order '{load: 3, harbour: A}': ship 3 has room for 1 more, not the 2 tiles "
                                    "of the lot"),
    ([{"load": 4, "harbour": "A"}], "order '{load: 4, harbour: A}': your ship 3 already lies in harbour A; each "
                                    "ship needs a harbour of its own"),
    ([{"load": 4, "harbour": "D"}], "order '{load: 4, harbour: D}': there is no harbour 'D' (harbours: A, B, C)"),
    ([{"load": 4}], "order 'load: 4': ship 4 is empty: name its harbour (A, B, C)"),
    ([{"load": 6, "harbour": "B"}], "order '{load: 6, harbour: B}': you have no ship 6: your ships hold 3, 4, 5"),
    (["buy"], "order 'buy': load the lot with 'load: SHIP' (and 'harbour: X' for an empty ship) or 'discard', "
              "not 'buy'"),
    (["discard", "draw", "draw", "draw"], "order 4 ('draw'): the lot may not grow beyond 3 tiles; nothing was applied"),
    ([{"load": 5, "harbour": "B"}, {"price": 3}, "buy"],
     "order 3 ('buy'): after order 2 the decision is no longer yours (the game waits for ben); nothing was applied"),
    (["pass"], f"the turn file is not valid:\n  - line 6, orders[0]: {ORDER_HELP}"),
    (["load"], f"the turn file is not valid:\n  - line 6, orders[0]: {ORDER_HELP}"),
])
def test_refused_at_the_load(loading: Table, orders: list[Any], message: str) -> None:
    before, state = snapshot_at_head(loading.games), loading.state_bytes()
    assert_refused(loading, loading.submit("anna", 8, orders), message, before, state)


@pytest.mark.parametrize("turn, orders, message", [
    pytest.param(8, [{"load": 0, "harbour": "B"}],
                 "the turn file is not valid:\n  - line 6, orders[0].load: must be at least 1, not 0",
                 id="load-0"),
    pytest.param(8, [{"load": "four", "harbour": "B"}],
                 "the turn file is not valid:\n  - line 6, orders[0].load: must be a whole number, not 'four'",
                 id="load-four"),
    pytest.param(8, [{"load": 4, "harbour": ""}],
                 "the turn file is not valid:\n  - line 7, orders[0].harbour: must not be empty",
                 id="harbour-empty"),
    pytest.param(8, [{"load": 4, "harbour": "B", "tiles": 2}],
                 "the turn file is not valid:\n  - line 8, orders[0]: has unknown field 'tiles'",
                 id="load-extra-field"),
    pytest.param(8, [{"price": -1}],
                 "the turn file is not valid:\n  - line 6, orders[0].price: must be at least 0, not -1",
                 id="price-negative"),
    pytest.param(8, [{"price": "ten"}],
                 "the turn file is not valid:\n  - line 6, orders[0].price: must be a whole number, not 'ten'",
                 id="price-ten"),
])
def test_schema_errors_name_the_field_at_fault(loading: Table, turn: int, orders: list[Any], message: str) -> None:
    """An order of the right shape with a bad value is refused with what is wrong in it, not with the
    key of another kind of order it lacks."""
    before, state = snapshot_at_head(loading.games), loading.state_bytes()
    assert_refused(loading, loading.submit("anna", turn, orders), message, before, state)


@pytest.mark.parametrize("orders", [[{"load": 0, "harbour": "B"}], [{"load": "four", "harbour": "B"}],
                                    [{"load": 4, "harbour": ""}], [{"price": -1}], [{"price": "ten"}],
                                    [{"load": 4, "harbour": 2}], [{"price": 3.5}]],
                         ids=["load-0", "load-four", "harbour-empty", "price-negative", "price-ten", "harbour-2",
                              "price-3.5"])
def test_schema_errors_are_refused_and_change_nothing(loading: Table, orders: list[Any]) -> None:
    """Whatever the words (see above), a malformed order is refused by the schema: exit 1, nothing
    queued, the state file byte-identical."""
    before, state = snapshot_at_head(loading.games), loading.state_bytes()
    r = loading.submit("anna", 8, orders)
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit)
    assert re.match(r"Error: the turn file is not valid:\n  - line [67], orders\[0\]", r.stderr)
    assert r.stdout == ""
    assert loading.state_bytes() == state and snapshot_at_head(loading.games) == before


def test_refused_stale_and_foreign_turns(loading: Table) -> None:
    before, state = snapshot_at_head(loading.games), loading.state_bytes()
    assert_refused(loading, loading.submit("anna", 4, [{"load": 4, "harbour": "B"}]),
                   "your orders answer turn 4, but game 's1' is at turn 8: they are stale", before, state)
    assert_refused(loading, loading.submit("anna", 9, ["discard"]),
                   "your orders answer turn 9, but game 's1' is only at turn 8", before, state)
    assert_refused(loading, loading.submit("ben", 8, ["discard"]),
                   "turn 8 of game 's1' is not yours: the game waits for anna", before, state)


def test_a_queued_order_that_became_stale_is_refused_by_advance(loading: Table) -> None:
    assert loading.submit("anna", 8, ["discard"]).exit_code == 0
    queued = next((loading.games / "s1" / "queue").iterdir())
    kept = queued.read_bytes()
    assert loading.pbem("advance").exit_code == 0
    # orders for turn 8 that were not applied (received at another moment) come back to the queue; the
    # same file back after a crash is recognised as applied and dropped (tests/test_crash.py)
    entry = yaml.safe_load(kept)
    entry["received"] = "2026-11-21T11:59:00Z"
    queued.write_text(yaml.safe_dump(entry))
    state = loading.state()
    r = loading.pbem("advance")
    assert r.exit_code == 0, r.output
    assert "s1: refused anna (turn 8): your orders answer turn 8, but game 's1' is at turn 9: they are stale\n" \
        in r.stdout
    assert loading.state()["engine"] == state["engine"]
    refusals = list((loading.games / "s1" / "reports" / "anna").glob("*-refused-turn-0008.txt"))
    assert len(refusals) == 1
    text = refusals[0].read_text()
    assert "your orders answer turn 8, but game 's1' is at turn 9: they are stale" in text
    assert "were refused, and nothing in the game changed" in text
    assert not list((loading.games / "s1" / "reports" / "ben").glob("*refused*"))


@pytest.mark.parametrize("orders, message", [
    ([{"price": 301}], "order 'price: 301': the price must be 0 to 300, not 301"),
    ([{"price": 1000000}], "order 'price: 1000000': the price must be 0 to 300, not 1000000"),
    ([{"price": 5, "harbour": "A"}], "the turn file is not valid:\n  - line 7, orders[0]: has unknown field "
                                     "'harbour'"),
    (["buy"], "order 'buy': you drew the lot: send 'draw' or 'price: N', not 'buy'"),
    (["draw", "draw", "draw"], "order 3 ('draw'): the lot may not grow beyond 3 tiles; nothing was applied"),
    ([{"price": 5}, "buy"], "order 2 ('buy'): after order 1 the decision is no longer yours (the game waits for "
                            "ben); nothing was applied"),
    (["drw"], f"the turn file is not valid:\n  - line 6, orders[0]: {ORDER_HELP}"),
])
def test_refused_at_the_draw(table: Table, orders: list[Any], message: str) -> None:
    table.new()
    before, state = snapshot_at_head(table.games), table.state_bytes()
    assert_refused(table, table.submit("anna", 1, orders), message, before, state)


def test_a_player_cannot_answer_his_own_price(table: Table) -> None:
    table.new()
    table.play("anna", [{"price": 5}])
    before, state = snapshot_at_head(table.games), table.state_bytes()
    for order in ("buy", "decline"):
        assert_refused(table, table.submit("anna", 2, [order]),
                       "turn 2 of game 's1' is not yours: the game waits for ben", before, state)
    assert_refused(table, table.submit("ben", 2, [{"price": 4}]),
                   "order 'price: 4': send 'buy' or 'decline', not 'price: 4'", before, state)


def test_reports_tell_the_drawer_he_must_load_after_a_decline(table: Table) -> None:
    """After ben declines, anna's report says what happened and asks her to load."""
    table.new()
    assert table.submit("anna", 1, [{"price": 0}]).exit_code == 0
    assert table.pbem("advance").exit_code == 0
    r = table.submit("ben", 2, ["decline"])
    assert r.exit_code == 0
    r = table.pbem("advance")
    assert "s1: applied ben decline" in r.stdout
    reports = sorted(f.name for f in (table.games / "s1" / "reports" / "anna").iterdir())
    assert reports == ["0001-turn-0001.txt", "0002-turn-0003.txt"]  # no mail while ben answered
    text = (table.games / "s1" / "reports" / "anna" / reports[-1]).read_text()
    assert "ben declines, so the drawer must buy." in text
    assert "anna pays 0 for" in text and "YOUR MOVE" in text
    assert "Load the lot onto one of your ships, or throw it overboard." in text


# -- the report's summary of the legal orders ---------------------------------------------------------------

def test_the_report_does_not_offer_a_full_ship(table: Table) -> None:
    """anna's ships lie in A (1 tile), B (4 of 4, full) and C (1 tile); she must load one tile. The legal
    loads are ships 3 and 5; the report must not say that 4 is one of them."""
    gd = GamesDir(table.games)
    deck = {"rounds": [["silk-0", "furs-1", "furs-2", "furs-3", "furs-4", "spices-1", "gold-5", "silk-4"]]}
    state, _ = new_game(gd, "medici-strozzi", "s1", [(p, f"{p}@example.org") for p in ("anna", "ben")], {},
                        "summary", R.check_deck(deck, ["anna", "ben"], {}))
    for orders in ([{"price": 0}], ["decline"], [{"load": 3, "harbour": "A"}],
                   ["draw", "draw", {"price": 0}], ["decline"], [{"load": 4, "harbour": "B"}],
                   [{"price": 0}], ["decline"], [{"load": 4}],
                   [{"price": 0}], ["decline"], [{"load": 5, "harbour": "C"}],
                   [{"price": 0}], ["decline"]):
        player = state["engine"]["drawer"] if orders != ["decline"] else "ben"
        state, _ = apply_orders(state, player, state["engine"]["turn"], orders)
    gd.save("s1", state)
    seen = table.pbem.show("s1", "anna")
    assert seen["legal_orders"] == [{"load": 3}, {"load": 5}, "discard"]
    text = table.pbem("show", "s1", "--as", "anna").stdout
    line = next(line for line in text.splitlines() if "You may send:" in line)
    assert "N from 3 to 5" not in line, line


# -- a whole game -----------------------------------------------------------------------------------------

def test_a_whole_bot_game_through_the_cli(table: Table) -> None:
    """Bots play a whole game with show --as, submit and advance. The test follows the game in a mirror
    engine (advanced by the same orders), so the orders a player gives one after another, before the
    other player is asked, travel in one turn file, as a player may send them; the mirror is checked
    against what `show` prints before every file."""
    table.new(seed="whole-game-seed")
    state = table.state()
    engine = copy.deepcopy(state["engine"])
    rng = Rng(state["seed"], state["rng_counter"])
    files = orders_given = 0
    while (decision := R.decision(engine)) is not None:
        player = decision.players[0]
        seen = table.pbem.show("s1", player)
        assert seen["view"] == as_json(R.view(engine, player))  # the mirror is the stored game
        assert seen["waiting_for"] == [player] and seen["status"] == "active"
        if files % 8 == 0:  # what the players read hides the bag (four tiles in a row) and the seed
            runs = [", ".join(engine["bag"][i:i + 4]) for i in range(0, len(engine["bag"]) - 3, 4)]
            for p in ("anna", "ben"):
                for args in (("--as", p), ("--as", p, "--json")):
                    out = table.pbem("show", "s1", *args).stdout
                    assert "whole-game-seed" not in out and '"bag"' not in out
                    assert not [run for run in runs if run in out or run.replace(", ", '",\n      "') in out]
        orders: list[Any] = []
        while True:
            order = bots.choose("medici-strozzi", R.view(engine, player), player, R.legal_orders(engine, player))
            if not orders:
                assert order in seen["legal_orders"]  # what the game offered, verbatim
            orders.append(order)
            R.apply(engine, player, order, rng)
            d = R.decision(engine)
            if d is None or d.players != (player,):
                break
        r = table.submit(player, seen["turn"], orders)
        assert r.exit_code == 0, r.output
        r = table.pbem("advance")
        assert r.exit_code == 0, r.output
        assert f"s1: applied {player} " in r.stdout
        files += 1
        orders_given += len(orders)
        assert files < 400
    gm = table.pbem.show("s1")
    assert gm["status"] == "finished" and gm["waiting_for"] == [] and gm["turn"] == engine["turn"]
    standings = gm["result"]["standings"]
    assert standings == as_json(R.result(engine))
    assert sorted(r["player"] for r in standings) == ["anna", "ben"]
    assert all(set(r) == {"player", "score", "rank"} for r in standings)
    assert standings[0]["rank"] == 1
    assert gm["seed"] == "whole-game-seed"
    assert gm["view"]["round"] == 3 and gm["view"]["phase"] == "over"
    r = table.pbem("verify", "s1")
    assert r.exit_code == 0, r.output
    assert r.stdout == f"s1: verified: {orders_given} orders replay to the identical game.\n"
    for p in ("anna", "ben"):
        seen = table.pbem.show("s1", p)
        assert seen["legal_orders"] == [] and seen["result"] == gm["result"]
        last = sorted((table.games / "s1" / "reports" / p).iterdir())[-1].read_text()
        assert "FINAL STANDINGS" in last and "The seed was: whole-game-seed" in last
    status = json.loads(table.pbem("status", "--json").stdout)
    assert status[0]["status"] == "finished" and status[0]["ruleset"] == "medici-strozzi"
    assert git(table.games, "status", "--porcelain") == ""
    # a late turn file is refused
    before, state_bytes = snapshot_at_head(table.games), table.state_bytes()
    assert_refused(table, table.submit("anna", gm["turn"], ["draw"]),
                   "game 's1' is finished; it takes no more orders", before, state_bytes)
