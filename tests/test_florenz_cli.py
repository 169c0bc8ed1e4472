"""Florenz through the `pbem` command: every refusal of FLORENZ-PLAN.md §17.4 ("CLI rejections") with
its exact message and exit code, and each refused command changing nothing (the state file, every other
file and the git history stay as they were).

`pbem new`: 6 players, an unknown solo variant, a solo variant with several players, deck files that
break the rules of §17.0. Turn files: a location out of range (a schema error), a petitioner who is not
there, a move through the park or to a location that is no neighbour, a second boast on one tile, a
gift away from the carriage, a ring onto a ring, a Giovanni answer or a colour when not asked, a
discard of a card not held, an unknown card, orders of the wrong shape.

The positions are those of the round example of the text (p.15, plan §17.1), fixed by a deck file
(§17.0) and reached by legal orders: blue, orange and violet, blue starts, the carriages at 1 (Cosimo),
7 (Contessina) and 4 (Giovanni), Cosimo riding to 6 in round 1.

Exit codes: 0 success, 1 a domain error (`Error: <message>` on stderr), 2 a usage error.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import helpers
import pytest
from helpers import Pbem, assert_error, assert_usage_error, player_args, snapshot_at_head

from pbem.cli import main as pbem_main
from pbem.errors import SetupError
from pbem.rules.base import get_ruleset

pytestmark = pytest.mark.usefixtures("pictures_unexamined")

R = get_ruleset("florenz")
SEED = "florenz-cli-seed-41b7"
THREE = ("blue", "orange", "violet")
SIX = ("anna", "ben", "cleo", "dora", "emil", "fritz")
ROUND_DECK = """\
start_family: blue
carriages: {cosimo: 1, contessina: 7, giovanni: 4}
destinations: [6, 8, 9, 2, 3, 5, 4, 1, 7]
boast_tiles: {5: ruler-of-the-street}
time_tiles: [5, 7, 2, 9, 3, 8, 4, 6]
scandal: {messere: [messere-cup]}
"""
# round 1 of the example up to orange's second pass (plan §17.1, steps 1-10)
ROUND_STEPS = [("blue", "gift cosimo escort 4-5"), ("orange", "send 6"), ("violet", "send 6"),
               ("blue", "gift cosimo escort 5-6"), ("orange", "send 4"), ("violet", "promote 6.3"),
               ("blue", "move 1.1 to 2"), ("orange", "boast 5"), ("violet", "pass 6"), ("blue", "send 3")]
ORDER_HELP = ("is not a Florenz order; send one of: place L, pass L, pass, send L, promote L.P, move L.P to L, "
              "hurry L.P to L to L, hurry L.P to L and L.P to L, boast L, gift MEDICI CREST, bonus time, bonus vp, "
              "swap L.P with L.P, play CARD ..., travel L.P to L, done, accept, decline, discard CARD, colour "
              "orange|blue (L a location 1-9, L.P the petitioner at place P of queue L, e.g. 'send 4', "
              "'move 1.1 to 2', 'gift cosimo escort 4-5')")


# -- helpers -------------------------------------------------------------------------------------------

class Table(helpers.Table):
    """One Florenz game in a games dir, with its players' tokens and a folder for turn files."""

    def __init__(self, pbem: Any, folder: Path, game: str = "f1") -> None:
        super().__init__(pbem, folder, game, ruleset="florenz", name="turn-{n:04d}.yaml")

    def new_round_example(self) -> None:
        deck = self.folder / "round-deck.yaml"
        deck.write_text(ROUND_DECK)
        self.create(THREE, SEED, "--deck", str(deck))


@pytest.fixture
def table(pbem: Any, tmp_path: Path) -> Table:
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    return Table(pbem, inbox)


def refused(t: Table, player: str, turn: int, orders: list[Any], message: str) -> None:
    """Exit 1 with `message`; the state file and everything else byte-identical, no commit."""
    state = t.state_bytes()
    before = snapshot_at_head(t.games)
    assert_error(t.submit(player, turn, orders), message)
    assert t.state_bytes() == state
    assert snapshot_at_head(t.games) == before


def invalid(problems: list[tuple[int, int, str]]) -> str:
    """The message of a turn file the schema refuses: (line, index, problem) for each order."""
    return "the turn file is not valid:\n" + "\n".join(f"  - line {line}, orders[{i}]: {what}"
                                                       for line, i, what in problems)


def build(tmp_path_factory: pytest.TempPathFactory, name: str, steps: list[tuple[str, str]]) -> tuple[Path, dict[str, str]]:
    """The round example's game after the three placements and `steps`; built once per module."""
    root = tmp_path_factory.mktemp(name)
    with pytest.MonkeyPatch.context() as mp:
        helpers.fixed_clock(mp)
        inbox = root / "inbox"
        inbox.mkdir()
        t = Table(Pbem(root / "games"), inbox)
        t.new_round_example()
        for player, order in [("violet", "place 6"), ("orange", "place 5"), ("blue", "place 1"), *steps]:
            assert t.waiting() == player
            t.play(player, [order])
    return root / "games", t.tokens


@pytest.fixture(scope="module")
def placed_position(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Violet at 6, orange at 5, blue at 1; blue's first action (turn 4)."""
    return build(tmp_path_factory, "placed", [])


@pytest.fixture(scope="module")
def round_position(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Step 11 of the round example: orange to act (turn 14); orange's cup on the tile at 5, violet's
    ring on 6 (violet passed first), queues 6: violet lady, violet debutant, orange debutant."""
    return build(tmp_path_factory, "round", ROUND_STEPS)


def copy_of(position: tuple[Path, dict[str, str]], table: Table) -> Table:
    shutil.copytree(position[0], table.games)
    table.tokens = dict(position[1])
    return table


@pytest.fixture
def placed(placed_position: tuple[Path, dict[str, str]], table: Table) -> Table:
    t = copy_of(placed_position, table)
    assert (t.waiting(), t.turn()) == ("blue", 4)
    return t


@pytest.fixture
def mid_round(round_position: tuple[Path, dict[str, str]], table: Table) -> Table:
    t = copy_of(round_position, table)
    assert (t.waiting(), t.turn()) == ("orange", 14)
    return t


# -- pbem new ------------------------------------------------------------------------------------------

def new_refused(table: Table, args: list[str], message: str) -> None:
    before = snapshot_at_head(table.games)
    assert_error(table.pbem("new", "florenz", "f1", "--seed", SEED, *args), message)
    assert snapshot_at_head(table.games) == before
    assert not (table.games / "f1").exists()


def test_new_with_six_players(table: Table) -> None:
    new_refused(table, player_args(*SIX), "Florenz needs 1 to 5 players, not 6")


def test_new_with_an_unknown_solo_variant(table: Table) -> None:
    new_refused(table, [*player_args("anna"), "--option", "solo=hard"],
                "option solo='hard' is not allowed for florenz (choose one of: normal, easier, harder)")


@pytest.mark.parametrize("variant, players", [("easier", THREE), ("harder", ("anna", "ben"))])
def test_a_solo_variant_with_several_players(table: Table, variant: str, players: tuple[str, ...]) -> None:
    new_refused(table, [*player_args(*players), "--option", f"solo={variant}"],
                f"solo={variant} is for the solo game: one player against Strozzi ({len(players)} players given)")


def test_new_with_an_unknown_option(table: Table) -> None:
    new_refused(table, [*player_args(*THREE), "--option", "edition=amigo"],
                "florenz has no option 'edition' (options: solo)")
    r = table.pbem("new", "florenz", "f1", "--seed", SEED, *player_args("anna"), "--option", "solo")
    assert_usage_error(r, "Invalid value for '--option': 'solo' is not KEY=VALUE")
    assert not (table.games / "f1").exists()


CARRIAGES = "carriages: {cosimo: 1, contessina: 7, giovanni: 4}\n"
DECK_ERRORS = [
    pytest.param("boast_tiles: {5: loud, 6: loud}\n", "boast_tiles maps locations 1-9 to different boast tiles",
                 id="a-boast-tile-twice"),
    pytest.param(CARRIAGES + "destinations: [6, 8, 9, 2, 3, 7, 5, 1, 4]\n",
                 "the destinations of rounds 7-9 must be the carriages' start locations", id="rounds-7-9-elsewhere"),
    pytest.param("carriages: {cosimo: 2, contessina: 7, giovanni: 4}\ndestinations: [6, 8, 9, 2, 3, 5, 4, 1, 7]\n",
                 "the destinations of rounds 7-9 must be the carriages' start locations",
                 id="rounds-7-9-not-the-carriages"),
    pytest.param(CARRIAGES + "destinations: [1, 8, 9]\n",
                 "a carriage's start location cannot be a destination of rounds 1-6", id="a-start-in-round-1"),
    pytest.param("carriages: {cosimo: 1, contessina: 1}\n", "carriages maps Medici to different locations 1-9",
                 id="two-carriages-on-one-location"),
    pytest.param("plan_cards: {blue: 3, orange: 3}\n", "plan_cards maps players to different plan cards 1-6",
                 id="a-plan-card-twice"),
    pytest.param("plan_cards: {zed: 3}\n", "plan_cards maps players to different plan cards 1-6",
                 id="a-plan-card-for-no-player"),
    pytest.param("start_family: zed\n", "start_family 'zed' is not a player", id="an-unknown-start-family"),
]


@pytest.mark.parametrize("text, message", DECK_ERRORS)
def test_a_deck_file_that_breaks_the_rules(table: Table, tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(text)
    new_refused(table, [*player_args(*THREE), "--deck", str(path)], message)


@pytest.mark.parametrize("text, problem", [
    pytest.param("colour: blue\n", "line 1, the top level: has unknown field 'colour'", id="an-unknown-key"),
    pytest.param("boast_tiles: {1: loudness}\n",
                 "boast_tiles[1]: must be one of 'great-influence', 'loud', 'scandalmonger', 'sharp-elbows', "
                 "'ruler-of-the-street', 'rising', 'well-represented', 'generous', 'omnipresent', not 'loudness'",
                 id="an-unknown-tile"),
    pytest.param("destinations: [6, 8, 9, 2, 3, 5, 4, 1, 2]\n",
                 "line 1, destinations: [6, 8, 9, 2, 3, 5, 4, 1, 2] has non-unique elements", id="a-destination-twice"),
    pytest.param("time_tiles: [5, 5]\n", "line 1, time_tiles: [5, 5] has non-unique elements", id="a-time-tile-twice"),
    pytest.param("scandal: {messere: [figliolo-guard]}\n",
                 "line 1, scandal.messere[0]: must be one of 'messere-cup', 'messere-swap', 'messere-retire', "
                 "'messere-boast', not 'figliolo-guard'", id="a-card-of-another-deck"),
    pytest.param("- 1\n", "line 1, the top level: must be a mapping (key: value), not a list", id="a-list"),
])
def test_a_deck_file_the_schema_refuses(table: Table, tmp_path: Path, text: str, problem: str) -> None:
    """The deck file's schema (`florenz.deck`) catches unknown keys and values before the rules look."""
    path = tmp_path / "deck.yaml"
    path.write_text(text)
    new_refused(table, [*player_args(*THREE), "--deck", str(path)],
                f"the deck file {str(path)!r} is not valid:\n  - {problem}")


def test_check_deck_itself_refuses_an_unknown_key_and_a_tile_twice() -> None:
    """The same rules in the engine's own check (what a deck given to the library meets)."""
    with pytest.raises(SetupError, match=r"^the deck file has an unknown key 'colour' \(keys: start_family, "
                                         r"plan_cards, boast_tiles, carriages, destinations, time_tiles, scandal, "
                                         r"strozzi_cards\)$"):
        R.check_deck({"colour": "blue"}, list(THREE), {})
    with pytest.raises(SetupError, match="^boast_tiles maps locations 1-9 to different boast tiles$"):
        R.check_deck({"boast_tiles": {5: "loud", 6: "loud"}}, list(THREE), {})
    with pytest.raises(SetupError, match="^the destinations of rounds 7-9 must be the carriages' start locations$"):
        R.check_deck({"carriages": {"cosimo": 1, "contessina": 7, "giovanni": 4},
                      "destinations": [6, 8, 9, 2, 3, 7, 5, 1, 4]}, list(THREE), {})


def test_a_good_deck_file_fixes_the_set_up(table: Table) -> None:
    table.new_round_example()
    state = table.state()
    engine = state["engine"]
    assert engine["start_family"] == "blue"
    assert engine["carriages"] == {"cosimo": "1", "contessina": "7", "giovanni": "4"}
    assert engine["targets"] == {"cosimo": "6", "contessina": "8", "giovanni": "9"}
    assert engine["boast"]["5"]["tile"] == "ruler-of-the-street"
    assert engine["scandal"]["deck"]["messere"][0] == "messere-cup"
    assert table.show()["waiting_for"] == ["violet"]   # right of the start family places first


# -- turn files refused: blue's first action --------------------------------------------------------------

@pytest.mark.parametrize("order, message", [
    ("promote 6.9", "there is no petitioner at 6.9"),
    ("promote 6.1", "the petitioner at 6.1 is not yours"),
    ("move 1.1 to 5", "there is no path from 1 to 5 (members move only between orthogonal neighbours)"),
    ("move 1.1 to 3", "there is no path from 1 to 3 (members move only between orthogonal neighbours)"),
    ("gift contessina spy 7", "you have no member at 7, where contessina's carriage stands"),
    ("gift giovanni doorman 3", "you have no member at 4, where giovanni's carriage stands"),
    ("accept", "`accept` is not possible now: you must decide action"),
    ("decline", "`decline` is not possible now: you must decide action"),
    ("colour orange", "`colour` is not possible now: you must decide action"),
    ("bonus time", "`bonus` is not possible now: you must decide action"),
    ("done", "`done` is not possible now: you must decide action"),
    ("place 2", "`place` is not possible now: you must decide action"),
    ("discard messere-cup", "you hold no card messere-cup"),
    ("play messere-cup 5", "you hold no card messere-cup"),
    ("play figliolo-teleport 1.1 to 9", "you hold no card figliolo-teleport"),
    ("pass", "name the location for your ring (`pass L`)"),
])
def test_an_order_the_rules_refuse(placed: Table, order: str, message: str) -> None:
    refused(placed, "blue", 4, [order], f"order {order!r}: {message}")


@pytest.mark.parametrize("orders, problems", [
    (["send 10"], [(6, 0)]),
    (["play messere-foo 5"], [(6, 0)]),
    (["discard messere-foo"], [(6, 0)]),
    (["promote 6"], [(6, 0)]),
    (["move 1.1 2"], [(6, 0)]),
    (["gift lorenzo"], [(6, 0)]),
    (["colour red"], [(6, 0)]),
    (["send"], [(6, 0)]),
    ([{"send": 4}], [(6, 0)]),
    ([7], [(6, 0)]),
    (["send 4", "tower 3", "Send 4"], [(7, 1)]),  # a capital first letter (a phone's) is read as meant
], ids=["send-10", "unknown-card", "discard-unknown-card", "promote-no-position", "move-no-to", "unknown-medici",
        "colour-red", "send-nowhere", "a-mapping", "a-number", "two-wrong"])
def test_an_order_of_the_wrong_shape(placed: Table, orders: list[Any], problems: list[tuple[int, int]]) -> None:
    refused(placed, "blue", 4, orders, invalid([(line, i, ORDER_HELP) for line, i in problems]))


def test_a_file_with_a_good_and_a_bad_order_applies_nothing(placed: Table) -> None:
    refused(placed, "blue", 4, ["discard messere-cup", "send 3"],
            "order 1 ('discard messere-cup'): you hold no card messere-cup; nothing was applied")
    refused(placed, "blue", 4, ["send 3", "send 4"],
            "order 2 ('send 4'): after order 1 the decision is no longer yours (the game waits for orange); "
            "nothing was applied")


def test_orders_of_the_wrong_player_or_turn(placed: Table) -> None:
    refused(placed, "orange", 4, ["send 3"], "turn 4 of game 'f1' is not yours: the game waits for blue")
    refused(placed, "blue", 3, ["send 3"], "your orders answer turn 3, but game 'f1' is at turn 4: they are stale")
    refused(placed, "blue", 5, ["send 3"], "your orders answer turn 5, but game 'f1' is only at turn 4")
    assert_error(placed.submit("blue", 4, ["send 3"], token="not-the-token"),
                 "the token for 'blue' in game 'f1' is wrong")


def test_a_placement_on_a_queue_that_is_not_empty(table: Table) -> None:
    table.new_round_example()
    table.play("violet", ["place 6"])
    refused(table, "orange", 2, ["place 6"],
            "order 'place 6': the queue at 6 is not empty (the first debutant goes to an empty queue)")
    refused(table, "orange", 2, ["send 5"], "order 'send 5': `send` is not possible now: you must decide place")


# -- turn files refused: later in round 1 -------------------------------------------------------------------

@pytest.mark.parametrize("order, message", [
    ("boast 5", "your cup already lies on the tile at 5"),
    ("pass 6", "location 6 already holds a ring"),
    ("accept", "`accept` is not possible now: you must decide action"),
    ("colour orange", "`colour` is not possible now: you must decide action"),
    ("discard messere-cup", "you hold no card messere-cup"),
    ("promote 6.9", "there is no petitioner at 6.9"),
    ("send 4", "this costs 4 time units and you have 3"),
    ("move 5.1 to 1", "there is no path from 5 to 1 (members move only between orthogonal neighbours)"),
])
def test_an_order_the_rules_refuse_mid_round(mid_round: Table, order: str, message: str) -> None:
    refused(mid_round, "orange", 14, [order], f"order {order!r}: {message}")


def test_the_bonus_and_the_last_pass(mid_round: Table) -> None:
    mid_round.play("orange", ["pass 5"])
    # violet passed first: a bonus now, not an action
    refused(mid_round, "violet", 15, ["pass 4"], "order 'pass 4': `pass` is not possible now: you must decide bonus")
    refused(mid_round, "violet", 15, ["send 4"], "order 'send 4': `send` is not possible now: you must decide bonus")
    refused(mid_round, "violet", 15, ["swap 6.1 with 6.2"],
            "order 'swap 6.1 with 6.2': swap one of your petitioners with a petitioner of the same rank of another "
            "family directly before or behind it")
    refused(mid_round, "violet", 15, ["swap 5.1 with 5.2"], "order 'swap 5.1 with 5.2': you may swap only at the "
                                                            "location of your ring")
    assert "swap 6.2 with 6.3" in mid_round.show("violet")["legal_orders"]
    mid_round.play("violet", ["bonus time"])
    # blue is the last to pass: no ring
    refused(mid_round, "blue", 16, ["pass 2"], "order 'pass 2': you are the last to pass: your ring stays home "
                                               "(order `pass`)")
    assert [o for o in mid_round.show("blue")["legal_orders"] if o.startswith("pass")] == ["pass"]


def test_discards_of_cards_held_and_not_held(mid_round: Table) -> None:
    """After round 1 orange holds the Cosimo card its boast drew (the deck file fixed it)."""
    mid_round.play("orange", ["pass 5"])
    mid_round.play("violet", ["bonus time"])
    mid_round.play("blue", ["pass"])
    engine = mid_round.state()["engine"]
    assert engine["round"] == 2 and engine["scandal"]["hand"]["orange"] == ["messere-cup"]
    assert (mid_round.waiting(), mid_round.turn()) == ("orange", 17)
    refused(mid_round, "orange", 17, ["discard messere-swap"], "order 'discard messere-swap': you hold no card "
                                                               "messere-swap")
    refused(mid_round, "orange", 17, ["play messere-retire 5.1"], "order 'play messere-retire 5.1': you hold no "
                                                                  "card messere-retire")
    refused(mid_round, "orange", 17, ["discard messere-cup", "discard messere-cup"],
            "order 2 ('discard messere-cup'): you hold no card messere-cup; nothing was applied")
    # the other players do not hold it either
    assert engine["scandal"]["hand"]["blue"] == []
    # a discard keeps the decision: a second order in the same file is still orange's
    time = engine["time"]["orange"]
    mid_round.play("orange", ["discard messere-cup", "send 1"])
    after = mid_round.state()["engine"]
    assert after["time"]["orange"] == min(12, time + 1) - 4
    assert after["scandal"]["hand"]["orange"] == [] and after["scandal"]["discard"]["messere"] == ["messere-cup"]
    assert [e["order"] for e in mid_round.state()["log"][-2:]] == ["discard messere-cup", "send 1"]


# -- the solo game ---------------------------------------------------------------------------------------

def test_colour_when_not_asked_in_the_solo_game(table: Table) -> None:
    table.create(("anna",), SEED, "--option", "solo=normal")
    engine = table.state()["engine"]
    assert engine["families"] == ["anna", "Strozzi"] and table.waiting() == "anna"
    refused(table, "anna", 1, ["colour orange"], "order 'colour orange': `colour` is not possible now: you must "
                                                 "decide place")
    empty = next(loc for loc in map(str, range(1, 10)) if not engine["queues"][loc])
    full = next(loc for loc in map(str, range(1, 10)) if engine["queues"][loc])
    refused(table, "anna", 1, [f"place {full}"], f"order 'place {full}': the queue at {full} is not empty (the first "
                                                 f"debutant goes to an empty queue)")
    table.play("anna", [f"place {empty}"])
    turn = table.turn()
    assert table.waiting() == "anna"
    refused(table, "anna", turn, ["colour blue"], "order 'colour blue': `colour` is not possible now: you must "
                                                  "decide action")
    refused(table, "anna", turn, ["colour green"], invalid([(6, 0, ORDER_HELP)]))
    # Strozzi is no player: nobody can send orders in his name
    assert_error(table.submit("Strozzi", turn, ["pass 1"]), "game 'f1' has no player 'strozzi'")


def test_rulesets_lists_florenz(table: Table) -> None:
    r = table.pbem.runner.invoke(pbem_main, ["rulesets"])
    assert r.exit_code == 0
    line = next(x for x in r.stdout.splitlines() if x.startswith("florenz"))
    assert "Florenz, 1-5 players" in line and "solo" in line
