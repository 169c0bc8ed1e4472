"""Florenz's JSON Schemas: the engine state (`florenz.state`), the orders (`florenz.orders`) and the
`--deck` file (`florenz.deck`), checked against what the engine really produces and accepts.

Whole random games (2-5 families, and solo games against Strozzi in each variant) validate the state
after every order; the orders the engine offers match the order schema, and strings that are no orders
do not; mutations of real states show what the state schema rejects; example deck files are checked
against both the deck schema and `flow.check_deck`; the CLI and the pipeline store (which validate every
state they write and read) run games too.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import yaml
from helpers import Pbem, play_pipeline_game

from pbem.errors import SetupError
from pbem.rng import Rng
from pbem.rules.florenz import Florenz
from pbem.rules.florenz import flow as F
from pbem.turnfile import fits, validator
from test_florenz_engine import random_legal

GAME = Florenz()
STATE = validator("florenz.state")
ORDERS = validator("florenz.orders")
DECK = validator("florenz.deck")
COLOURS = ["blue", "orange", "violet", "green", "black"]


#: each validator's schema, for its compiled verdict (pbem.schemacheck)
NAMES = {id(STATE): "florenz.state", id(ORDERS): "florenz.orders", id(DECK): "florenz.deck"}


def errors(v: Any, value: Any) -> list[str]:
    """What the validator `v` finds wrong with `value`: none where the schema's compiled verdict says it
    fits (tests/test_schemacheck.py holds that verdict to jsonschema's), else jsonschema's errors."""
    name = NAMES.get(id(v))
    if name is not None and fits(value, name):
        return []
    return [f"{'/'.join(map(str, e.absolute_path)) or 'top'}: {e.message}" for e in v.iter_errors(value)]


def play(n: int, seed: str, each: Any = None, options: dict[str, str] | None = None,
         players: list[str] | None = None) -> tuple[dict[str, Any], dict[str, int]]:
    """A whole random game of n players; the state is validated after every order; `each(state,
    player, order, step)` is called before each order. Returns the final state and what was seen."""
    players = players or COLOURS[:n]
    rng, chooser = Rng(seed), Rng(seed + "-choice")
    state, _ = GAME.setup(players, options or {}, rng)
    assert errors(STATE, state) == []
    seen: dict[str, int] = {}
    steps = 0
    while (d := GAME.decision(state)) is not None:
        player = d.players[0]
        order = random_legal(state, player, chooser)
        if each is not None:
            each(state, player, order, steps)
        GAME.apply(state, player, order, rng)
        problems = errors(STATE, state)
        assert problems == [], (steps, order, problems)
        for key in (f"verb:{order.split()[0]}", f"phase:{state['phase']}",
                    f"pending:{state['pending']['kind'] if state['pending'] else None}",
                    f"giovanni:{state['giovanni'] is not None}", f"targets:{len(state['targets'])}",
                    f"sectors:{len(state['sectors'])}"):
            seen[key] = seen.get(key, 0) + 1
        if any(state["removed"].values()):
            seen["removed"] = 1
        if any(state["scandal"]["hand"].values()):
            seen["hand"] = 1
        steps += 1
        assert steps < 5000
    return state, seen


# -- the state schema along whole games -----------------------------------------------------------------

@pytest.mark.parametrize("n,seed", [(2, "s2"), (3, "s3"), (4, "s4"), (5, "s5"), (3, "t3")])
def test_states_of_whole_games_match_the_schema(n: int, seed: str) -> None:
    orders_checked = 0

    def check_orders(state: dict[str, Any], player: str, order: str, step: int) -> None:
        nonlocal orders_checked
        assert ORDERS.is_valid(order), order
        if step % 25 == 0:   # every candidate is a well-formed order; every legal one the schema accepts
            bad = [o for o in GAME.candidate_orders(state, player) if not ORDERS.is_valid(o)]
            assert bad == []
            legal = GAME.legal_orders(state, player)
            assert legal and all(ORDERS.is_valid(o) for o in legal)
            orders_checked += len(legal)

    state, _ = play(n, seed, check_orders)
    assert state["phase"] == "over" and state["on_turn"] is None
    assert state["targets"] == {} and set(state["sectors"]) == {str(r) for r in range(1, 10)}
    assert all(s["location"] is None for s in state["sectors"].values())
    assert state["location_stack"] == [] and state["time_stack"] == []
    assert orders_checked > 20
    # the stored form (YAML) of the final state, read back, is valid as well
    assert errors(STATE, yaml.safe_load(yaml.safe_dump(state))) == []
    # and JSON (what `pbem show --json` prints)
    assert errors(STATE, json.loads(json.dumps(state))) == []


def test_scandal_and_travel_states_match_the_schema() -> None:
    """Scandal hands, played and discarded cards, retired ranks and Giovanni's offers appear in the
    states of these random games (the travel follow-up has a test of its own below)."""
    seen: dict[str, int] = {}
    wanted = ("hand", "verb:play", "verb:discard", "removed", "phase:giovanni", "giovanni:True", "verb:accept")
    for n, seed in [(4, "c4"), (5, "c5"), (3, "c3"), (5, "c6"), (4, "c7"), (5, "c8")]:
        _, s = play(n, seed)
        for k, v in s.items():
            seen[k] = seen.get(k, 0) + v
        if all(seen.get(w) for w in wanted):
            break
    assert all(seen.get(w) for w in wanted), seen
    # not every seed plays every card; say what these did (pytest -s)
    print({k: v for k, v in sorted(seen.items())})


def test_travel_pending_matches_the_schema() -> None:
    """Figliolo's travel card leaves `pending` = {kind: travel, family, moved}; handed a card, a family
    plays it and the state in between is valid."""
    rng = Rng("travel")
    state, _ = GAME.setup(["blue", "orange"], {}, rng)
    while state["phase"] == "place":
        GAME.apply(state, state["on_turn"], GAME.passive_order(state, state["on_turn"]), rng)
    me = state["on_turn"]
    deck = state["scandal"]["deck"]["figliolo"]
    deck.remove("figliolo-travel")
    state["scandal"]["hand"][me].append("figliolo-travel")
    assert errors(STATE, state) == []
    travel = next(o for o in GAME.candidate_orders(state, me)
                  if o.startswith("play figliolo-travel") and GAME.why_illegal(state, me, o) is None)
    GAME.apply(state, me, travel, rng)
    assert state["pending"] is not None and state["pending"]["kind"] == "travel"
    assert errors(STATE, state) == []
    assert GAME.decision(state).kind == "travel"
    assert all(ORDERS.is_valid(o) for o in GAME.legal_orders(state, me))
    GAME.apply(state, me, "done", rng)
    assert state["pending"] is None and errors(STATE, state) == []


# -- mutations the state schema rejects ---------------------------------------------------------------

def _mid_game() -> dict[str, Any]:
    """A state some way into a 3-family game: pieces in queues, cups, guards, cards."""
    rng, chooser = Rng("mid"), Rng("mid-choice")
    state, _ = GAME.setup(["blue", "orange", "violet"], {}, rng)
    while state["round"] < 5 or state["phase"] != "actions":
        d = GAME.decision(state)
        GAME.apply(state, d.players[0], random_legal(state, d.players[0], chooser), rng)
    assert errors(STATE, state) == []
    return state


MID = _mid_game()


def _first_piece(s: dict[str, Any]) -> dict[str, Any]:
    return next(q[0] for q in s["queues"].values() if q)


def _set(path: str, value: Any):
    def change(s: dict[str, Any]) -> None:
        *head, last = path.split("/")
        for k in head:
            s = s[k]
        s[last] = value
    return change


MUTATIONS: dict[str, Any] = {
    "unknown top-level key": _set("bank", 3),
    "negative time": _set("time/blue", -1),
    "time 13": _set("time/orange", 13),
    "negative VP": _set("vp/blue", -2),
    "rank knight": lambda s: _first_piece(s).update(rank="knight"),
    "piece with an extra key": lambda s: _first_piece(s).update(cost=1),
    "piece without colour": lambda s: _first_piece(s).pop("colour"),
    "piece in a colour no family has": lambda s: _first_piece(s).update(colour="red"),
    "location key 10": lambda s: s["queues"].update({"10": []}),
    "location key 0 in open slots": lambda s: s["open_slots"].update({"0": 5}),
    "a queue missing": lambda s: s["queues"].pop("4"),
    "a queue of 8": lambda s: s["queues"].update({"1": [{"family": "blue", "rank": "debutant", "colour": "blue"}] * 8}),
    "open slots 8": _set("open_slots/3", 8),
    "phase travel": _set("phase", "travel"),
    "phase unknown": _set("phase", "scoring"),
    "round 10": _set("round", 10),
    "solo hard": _set("solo", "hard"),
    "Strozzi's object without solo": _set("strozzi", {"deck": []}),
    "family name with a capital": lambda s: s["time"].update({"Blue": 3}),
    "escort on the park diagonal": lambda s: s["guards"]["escort"].update({"1-5": []}),
    "guard without colour": lambda s: s["guards"]["spy"]["2"].append({"family": "blue"}),
    "cup slot with a number": lambda s: s["boast"]["1"].update(low=3),
    "unknown boast tile": lambda s: s["boast"]["1"].update(tile="famous"),
    "a fourth cup slot": lambda s: s["boast"]["1"].update(top=None),
    "carriage missing": lambda s: s["carriages"].pop("giovanni"),
    "target of an unknown Medici": lambda s: s["targets"].update(lorenzo="3"),
    "sector time 1": lambda s: s["sectors"]["5"].update(time=1),
    "sector location 10": lambda s: s["sectors"]["5"].update(location="10"),
    "sector 10": lambda s: s["sectors"].update({"10": {"location": None, "time": None}}),
    "time tile 10 in the stack": _set("time_stack", [10]),
    "location as an integer": _set("location_stack", [3]),
    "a Cosimo card in Contessina's deck": lambda s: s["scandal"]["deck"]["carissima"].append("messere-cup"),
    "unknown card in a hand": lambda s: s["scandal"]["hand"]["blue"].append("messere-joker"),
    "a hand of 6": lambda s: s["scandal"]["hand"].update(blue=["messere-cup"] * 6),
    "plan card 7": _set("plan_cards/blue", 7),
    "retired rank knight": lambda s: s["removed"]["blue"].append("knight"),
    "supply of 6 debutants": lambda s: s["supply"]["blue"].update(debutant=6),
    "supply without cups": lambda s: s["supply"]["blue"].pop("cup"),
    "gifts to an unknown Medici": lambda s: s["gifts_given"]["blue"].update(lorenzo=1),
    "giovanni's offer 3": _set("giovanni", {"location": "3", "candidates": ["blue"], "offer": 3}),
    "giovanni without candidates": _set("giovanni", {"location": "3", "offer": 0}),
    "pending travel without moved": _set("pending", {"kind": "travel", "family": "blue"}),
    "pending travel with a bad position": _set("pending", {"kind": "travel", "family": "blue", "moved": "6"}),
    "pending of an unknown kind": _set("pending", {"kind": "hurry", "family": "blue"}),
    "ring on location 0": lambda s: s["rings"].update(blue="0"),
    "turn 0": _set("turn", 0),
    "one player without solo": _set("players", ["blue"]),
    "a player twice": _set("families", ["blue", "blue", "violet"]),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_mutated_states_are_rejected(name: str) -> None:
    state = copy.deepcopy(MID)
    assert errors(STATE, state) == []
    MUTATIONS[name](state)
    assert errors(STATE, state) != [], name


def test_states_the_engine_may_reach_are_allowed() -> None:
    """Values a random game may not show but the rules allow."""
    s = copy.deepcopy(MID)
    s["time"]["blue"], s["time"]["orange"] = 0, 12
    s["targets"].pop("cosimo")
    s["sectors"]["4"] = {"location": None, "time": None}
    s["removed"]["blue"] = ["debutant", "lady", "maestro"]
    s["scandal"]["hand"]["blue"] = ["messere-cup", "carissima-gift", "figliolo-guard", "figliolo-guard", "messere-swap"]
    s["guards"]["escort"]["4-5"] = [{"family": "blue", "colour": "blue"}, {"family": "orange", "colour": "orange"}]
    s["giovanni"] = {"location": "3", "candidates": [], "offer": 2}
    s["pending"] = {"kind": "travel", "family": "blue", "moved": "6.3"}
    s["phase"] = "over"
    s["on_turn"] = None
    assert errors(STATE, s) == []


# -- the solo game (FLORENZ-PLAN §15, §20) ------------------------------------------------------------

@pytest.mark.parametrize("variant,seed", [("normal", "solo-n"), ("easier", "solo-e"), ("harder", "solo-h")])
def test_states_of_whole_solo_games_match_the_schema(variant: str, seed: str) -> None:
    """One player (`anna`) against the family `Strozzi`: every state valid, every order offered valid."""
    def check_orders(state: dict[str, Any], player: str, order: str, step: int) -> None:
        assert player == "anna" and ORDERS.is_valid(order), order
        if step % 25 == 0:
            assert all(ORDERS.is_valid(o) for o in GAME.legal_orders(state, player))

    state, seen = play(1, seed, check_orders, {"solo": variant}, ["anna"])
    assert state["phase"] == "over" and state["solo"] == variant
    assert state["families"] == ["anna", "Strozzi"] and isinstance(state["strozzi"], dict)
    print(variant, {k: v for k, v in sorted(seen.items())})


def test_the_colour_decision_matches_the_schema() -> None:
    """Strozzi's card 5 with his colours tied asks the player (`phase` colour or `pending` colour);
    random solo games are searched for it, and each such state is valid."""
    found = 0

    def look(state: dict[str, Any], player: str, order: str, step: int) -> None:
        nonlocal found
        if GAME.decision(state).kind == "colour":
            found += 1
            assert order in ("colour orange", "colour blue") or order.startswith("discard"), order
            assert errors(STATE, state) == []

    for k in range(12):
        play(1, f"colour-{k}", look, {"solo": "normal"}, ["anna"])
        if found:
            break
    assert found, "no colour decision in 12 solo games"

def _solo_state(variant: str = "normal") -> dict[str, Any]:
    """A solo state some way into the game, with Strozzi's pieces, a guard and a cup of each colour
    added where the game has none yet."""
    rng, chooser = Rng("solo-" + variant), Rng("solo-choice")
    s, _ = GAME.setup(["anna"], {"solo": variant}, rng)
    while s["round"] < 2:
        d = GAME.decision(s)
        GAME.apply(s, d.players[0], random_legal(s, d.players[0], chooser), rng)
    s["guards"]["doorman"]["9"].append({"family": "Strozzi", "colour": "blue"})
    s["guards"]["escort"]["8-9"].append({"family": "Strozzi", "colour": "orange"})
    s["boast"]["2"]["high"] = {"family": "Strozzi", "colour": "orange"}
    assert errors(STATE, s) == []
    return s


@pytest.mark.parametrize("variant", ["normal", "easier", "harder"])
def test_solo_states_the_engine_may_reach_are_allowed(variant: str) -> None:
    s = _solo_state(variant)
    assert errors(STATE, s) == []
    # Strozzi's card 5 with his colours tied: the player is asked, by `pending` (as the engine does) or
    # by a phase of its own (as FLORENZ-PLAN §20 sketches it)
    s["pending"] = {"kind": "colour", "family": "anna", "letter": "B"}
    assert errors(STATE, s) == []
    s["phase"] = "colour"
    assert errors(STATE, s) == []
    s["plan_cards"]["Strozzi"] = 5     # the harder game's secret plan card
    s["supply"]["Strozzi"].update(debutant=10, lady=6, maestro=2, guard=12, cup=12)
    s["strozzi"] = {"anything": ["goes", 1]}   # deliberately loose
    assert errors(STATE, s) == []


SOLO_MUTATIONS: dict[str, Any] = {
    "Strozzi piece in violet": lambda s: s["queues"]["9"][-1].update(colour="violet"),
    "Strozzi guard in green": lambda s: s["guards"]["doorman"]["9"][-1].update(colour="green"),
    "Strozzi cup in black": lambda s: s["boast"]["2"].update(low={"family": "Strozzi", "colour": "black"}),
    "two players in the solo game": _set("players", ["anna", "ben"]),
    "three families in the solo game": _set("families", ["anna", "ben", "Strozzi"]),
    "no Strozzi in the solo game": _set("families", ["anna", "ben"]),
    "Strozzi as a player": _set("players", ["Strozzi"]),
    "lower-case strozzi is no Strozzi": _set("families", ["anna", "strozzi"]),
    "Strozzi with 11 debutants": lambda s: s["supply"]["Strozzi"].update(debutant=11),
    "Strozzi with a gift": lambda s: s["supply"]["Strozzi"].update(gift=1),
    "Strozzi's supply per colour": lambda s: s["supply"].update(Strozzi={
        c: {"debutant": 5, "lady": 3, "maestro": 1, "guard": 6, "gift": 0, "cup": 6} for c in ("orange", "blue")}),
    "Strozzi holding a card": lambda s: s["scandal"]["hand"]["Strozzi"].append("messere-cup"),
    "Strozzi giving a gift": lambda s: s["gifts_given"]["Strozzi"].update(cosimo=1),
    "Strozzi in the colour map as violet": lambda s: s["colour"].update(Strozzi="violet"),
    "pending colour without kind": _set("pending", {"family": "anna", "letter": "B"}),
    "pending colour for Strozzi": _set("pending", {"kind": "colour", "family": "Strozzi", "letter": "B"}),
    "pending colour with letter D": _set("pending", {"kind": "colour", "family": "anna", "letter": "D"}),
    "solo hard": _set("solo", "hard"),
    "no strozzi key": lambda s: s.pop("strozzi"),
}


@pytest.mark.parametrize("name", list(SOLO_MUTATIONS))
def test_mutated_solo_states_are_rejected(name: str) -> None:
    s = _solo_state()
    s["queues"]["9"].append({"family": "Strozzi", "rank": "debutant", "colour": "blue"})
    assert errors(STATE, s) == []
    SOLO_MUTATIONS[name](s)
    assert errors(STATE, s) != [], name


def test_strozzi_in_a_multi_family_game_is_rejected() -> None:
    s = copy.deepcopy(MID)
    text = json.dumps(s).replace('"violet"', '"Strozzi"')   # family and colour alike
    s = json.loads(text)
    assert errors(STATE, s) != []


# -- the order schema ---------------------------------------------------------------------------------

GOOD_ORDERS = [
    "place 6", "send 4", "promote 6.3", "move 1.1 to 2", "hurry 2.1 to 3 to 6", "hurry 2.1 to 3 and 5.2 to 4",
    "boast 5", "gift cosimo escort 4-5", "gift contessina spy 7", "gift giovanni doorman 3", "gift cosimo",
    "pass 6", "pass", "bonus time", "bonus vp", "swap 6.2 with 6.3", "play messere-cup 5",
    "play messere-swap 6.2 with 6.4", "play messere-retire 3.2", "play messere-boast 9",
    "play carissima-gift giovanni doorman 3", "play carissima-gift cosimo", "play carissima-swap 6.1 with 5.4",
    "play carissima-promote 6.3", "play carissima-advance 6.3", "play figliolo-guard spy 7",
    "play figliolo-teleport 6.3 to 9", "play figliolo-travel 6.3 to 5 to 4", "play figliolo-travel 6.3 to 5",
    "travel 2.1 to 3", "travel 2.1 to 3 to 6 to 9", "done", "play figliolo-debutant 4",
    "discard carissima-advance", "accept", "decline", "colour blue", "colour orange",
]
BAD_ORDERS = [
    "send 10", "send 0", "send", "move 1.1 to", "move 1.1 2", "move 1 to 2", "play messere-cup",
    "play messere-joker 5", "gift lorenzo", "gift cosimo escort", "pass 0", "pass 10", "bonus gold",
    "promote 6", "hurry 2.1 to 3", "travel 2.1 to 3 to 6 to 9 to 8", "discard messere", "colour violet",
    "accept offer", "Send 4", " send 4", "send 4 ", "place 6, send 4", "play figliolo-travel 6.3",
    "swap 6.2", "done done", "", "play carissima-gift lorenzo",
]


@pytest.mark.parametrize("order", GOOD_ORDERS)
def test_orders_match_the_order_schema(order: str) -> None:
    assert ORDERS.is_valid(order), order


@pytest.mark.parametrize("order", BAD_ORDERS)
def test_non_orders_do_not_match_the_order_schema(order: str) -> None:
    assert not ORDERS.is_valid(order), order


def test_non_string_orders_do_not_match() -> None:
    for value in (6, None, True, ["send 4"], {"send": 4}):
        assert not ORDERS.is_valid(value)


# -- the deck schema ----------------------------------------------------------------------------------

FULL_DECK = {
    "start_family": "blue",
    "plan_cards": {"blue": 3, "orange": 1},
    "boast_tiles": {5: "ruler-of-the-street", 2: "omnipresent", "7": "loud"},
    "carriages": {"cosimo": 1, "contessina": 7, "giovanni": "4"},
    "destinations": [6, 8, 9, 2, 3, 5, 4, 1, 7],
    "time_tiles": [5, 7, 2, 9, 3, 8, 4, 6],
    "scandal": {"messere": ["messere-boast", "messere-cup"], "carissima": [],
                "figliolo": ["figliolo-guard"] * 3 + ["figliolo-travel"]},
}
VALID_DECKS: dict[str, Any] = {
    "empty": {},
    "full": FULL_DECK,
    "start family only": {"start_family": "orange"},
    "part of the destinations": {"destinations": ["6", "8"]},
    "two carriages": {"carriages": {"cosimo": 3}},
    "a whole scandal deck": {"scandal": {"messere": ["messere-cup", "messere-swap", "messere-retire",
                                                     "messere-boast"] * 3}},
}
INVALID_DECKS: dict[str, Any] = {
    "unknown key": {"days": [[]]},
    "not a mapping": ["blue"],
    "plan card 7": {"plan_cards": {"blue": 7}},
    "plan card as text": {"plan_cards": {"blue": "3"}},
    "unknown boast tile": {"boast_tiles": {5: "famous"}},
    "boast tile at 10": {"boast_tiles": {10: "loud"}},
    "boast tiles as a list": {"boast_tiles": ["loud"]},
    "unknown Medici": {"carriages": {"lorenzo": 1}},
    "carriage at 0": {"carriages": {"cosimo": 0}},
    "destination 10": {"destinations": [10]},
    "destination twice": {"destinations": [6, 6]},
    "ten destinations": {"destinations": [1, 2, 3, 4, 5, 6, 7, 8, 9, 1]},
    "time tile 1": {"time_tiles": [1]},
    "time tile twice": {"time_tiles": [5, 5]},
    "time tile as text": {"time_tiles": ["5"]},
    "unknown scandal deck": {"scandal": {"lorenzo": []}},
    "card of another deck": {"scandal": {"messere": ["carissima-gift"]}},
    "a card four times": {"scandal": {"carissima": ["carissima-swap"] * 4}},
    "start family with a capital": {"start_family": "Blue"},
}


@pytest.mark.parametrize("name", list(VALID_DECKS))
def test_valid_deck_files(name: str) -> None:
    deck = VALID_DECKS[name]
    assert errors(DECK, deck) == []
    F.check_deck(deck, ["blue", "orange", "violet"])   # the engine accepts it as well


@pytest.mark.parametrize("name", list(INVALID_DECKS))
def test_invalid_deck_files(name: str) -> None:
    deck = INVALID_DECKS[name]
    assert errors(DECK, deck) != []
    with pytest.raises(SetupError):   # and the engine refuses it too
        F.check_deck(deck, ["blue", "orange", "violet"])


def test_deck_files_only_the_engine_refuses() -> None:
    """What a schema cannot say, check_deck does (so both are needed)."""
    for deck in ({"start_family": "zoe"}, {"plan_cards": {"blue": 3, "orange": 3}},
                 {"boast_tiles": {1: "loud", 2: "loud"}}, {"carriages": {"cosimo": 1, "giovanni": 1}},
                 {"carriages": {"cosimo": 1, "contessina": 7, "giovanni": 4}, "destinations": [1]},
                 {"carriages": {"cosimo": 2}, "destinations": [6, 8, 9, 2, 3, 5, 4, 1, 7]}):
        assert errors(DECK, deck) == [], deck
        with pytest.raises(SetupError):
            F.check_deck(deck, ["blue", "orange", "violet"])


def test_solo_deck_keys() -> None:
    """The solo game's Strozzi deck (and Strozzi's plan card, harder game): schema and engine agree."""
    good = {"strozzi_cards": [8, 1, 10, 6], "plan_cards": {"anna": 2, "Strozzi": 5}}
    assert errors(DECK, good) == []
    F.check_deck(good, ["anna"])
    for bad in ({"strozzi_cards": [11]}, {"strozzi_cards": [8, 8]}, {"strozzi_cards": [0]},
                {"strozzi_cards": {"1": 8}}, {"strozzi_cards": ["8"]}):
        assert errors(DECK, bad) != [], bad
        with pytest.raises(SetupError):
            F.check_deck(bad, ["anna"])


def test_a_deck_file_through_the_cli(tmp_path) -> None:
    """`pbem new florenz --deck` reads YAML with integer locations (keys too); the store validates every
    state it writes and reads."""
    deck = tmp_path / "deck.yaml"
    deck.write_text(yaml.safe_dump(FULL_DECK, sort_keys=False))
    pbem = Pbem(tmp_path / "games")
    r = pbem("new", "florenz", "g1", "--player", "blue=b@x.org", "--player", "orange=o@x.org",
             "--seed", "s", "--weak-seed", "--deck", str(deck), "--json")
    assert r.exit_code == 0, r.output
    shown = pbem.show("g1")
    assert json.dumps(shown)   # a readable state
    engine = yaml.safe_load((tmp_path / "games" / "g1" / "state.yaml").read_text())["engine"]
    assert errors(STATE, engine) == []
    assert engine["carriages"] == {"cosimo": "1", "contessina": "7", "giovanni": "4"}
    assert engine["boast"]["5"]["tile"] == "ruler-of-the-street"
    bad = tmp_path / "bad.yaml"
    bad.write_text("boast_tiles: {10: loud}\n")
    r = pbem("new", "florenz", "g2", "--player", "blue=b@x.org", "--player", "orange=o@x.org", "--deck", str(bad))
    assert r.exit_code != 0 and "deck file" in r.output
    solo = tmp_path / "solo.yaml"
    solo.write_text("strozzi_cards: [6, 1]\nplan_cards: {anna: 2, Strozzi: 5}\ndestinations: [3, 5]\n")
    r = pbem("new", "florenz", "g3", "--player", "anna=a@x.org", "--option", "solo=harder", "--seed", "s",
             "--weak-seed", "--deck", str(solo))
    assert r.exit_code == 0, r.output
    engine = yaml.safe_load((tmp_path / "games" / "g3" / "state.yaml").read_text())["engine"]
    assert errors(STATE, engine) == []
    assert engine["solo"] == "harder" and engine["plan_cards"] == {"anna": 2, "Strozzi": 5}


def test_a_whole_game_through_the_pipeline(tmp_path) -> None:
    """new_game, apply_orders and the store to the end of a 3-family game: check_state (which runs this
    schema on the engine part) after every order, the file written and read back now and then."""
    chooser = Rng("pipe-choice")

    def orders_of(state: dict[str, Any], player: str, shown: dict[str, Any]) -> list[Any]:
        legal = shown["legal_orders"]
        assert all(ORDERS.is_valid(o) for o in legal)
        return [legal[chooser.below(len(legal), "order")]]

    _, state, _ = play_pipeline_game(tmp_path, "florenz", ["anna", "ben", "cleo"], {}, "pipe", orders_of)
    assert state["status"] == "finished" and state["engine"]["phase"] == "over"
    assert errors(STATE, state["engine"]) == []
