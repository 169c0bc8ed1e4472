"""Whole games of Medici, played by the bots and by a random legal-order player, with the invariants
checked after every single order: cards conserved, money accounted for by the events, holds, lots and
tracks within the rules, the decision sensible, the state a YAML round trip away from itself (and the
game continuing identically from the reloaded copy). Then a few games through the pipeline library,
schema-checked after every step, replayed by `verify`."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from pbem import bots
from pbem.errors import IllegalOrder
from pbem.game import apply_orders, new_game, player_names, show, verify, waiting_for
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.rules.medici import full_deck
from pbem.store import GamesDir, check_state, dump_yaml
from pbem.turnfile import schema

RULES = get_ruleset("medici")
DATA = yaml.safe_load((Path(__file__).parent.parent / "pbem" / "rules" / "medici.yaml").read_text("utf-8"))
EDITIONS = ("riogrande", "amigo")
COUNTS = (3, 4, 5, 6)

PLAIN_NAMES = ["anna", "ben", "cleo", "dario", "eva", "fritz"]
# names a careless YAML writer would turn into booleans or null
TRICKY_NAMES = ["no", "on", "null", "true", "off", "yes"]

ENGINE_VALIDATOR = jsonschema.Draft202012Validator(schema("medici.state"))
# the C loader when there is one (as the store uses); both are safe loaders
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    return yaml.load(text, Loader=SafeLoader)


# -- players ------------------------------------------------------------------------------------------

def bot_player(state: dict[str, Any], player: str, legal: list[Any]) -> Any:
    return bots.choose("medici", RULES.view(state, player), player, legal)


def random_player(prng: Rng, uniform: bool):
    """A player choosing among the legal orders with the seeded stream, never Python's `random`.
    `uniform`: every legal order alike; otherwise pass half the time and bid uniformly otherwise."""
    def choose(state: dict[str, Any], player: str, legal: list[Any]) -> Any:
        assert legal
        if not uniform and legal[0] == "pass" and len(legal) > 1:
            if prng.below(2, "pass-or-bid") == 0:
                return "pass"
            return legal[1 + prng.below(len(legal) - 1, "bid")]
        return legal[prng.below(len(legal), "any")]
    return choose


# -- invariants ---------------------------------------------------------------------------------------

def money_moves(events: list[dict[str, Any]]) -> Counter:
    """Each player's money change according to the events: payouts in, prices out."""
    delta: Counter = Counter()
    for e in events:
        if e["type"] == "sold":
            delta[e["player"]] -= e["price"]
        elif e["type"] == "score_value":
            for row in e["ranking"]:
                delta[row["player"]] += row["payout"]
        elif e["type"] == "score_track":
            for row in e["ranking"]:
                delta[row["player"]] += row["payout"]
            for row in e["bonus"]:
                delta[row["player"]] += row["payout"]
    return delta


class Checker:
    """Follows one engine game and checks everything after every step."""

    def __init__(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self.edition = state["edition"]
        self.players = list(state["players"])
        self.deck = Counter(full_deck(self.edition))
        start = DATA["start_money"][len(self.players)]
        self.expected_money = {p: start for p in self.players}
        self.prev_tracks = {p: {g: 0 for g in state["tracks"][p]} for p in self.players}
        self.turn = 1
        self.days_ended: list[int] = []
        self.check(state, events)

    def check(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        players = self.players
        assert state["players"] == players
        # all 36 cards, wherever they lie
        assert Counter(RULES.cards_in_game(state)) == self.deck
        mine = state["deck"] + state["set_aside"] + state["discarded"] + state["lot"]
        mine += [c for p in players for c in state["hold"][p]]
        assert Counter(mine) == self.deck and len(mine) == 36
        # money: never negative, and moved only by payouts and prices
        for p, d in money_moves(events).items():
            self.expected_money[p] += d
        assert state["money"] == self.expected_money
        assert all(m >= 0 for m in state["money"].values())
        # holds, lot, tracks
        for p in players:
            assert len(state["hold"][p]) <= DATA["hold_size"]
            for good, step in state["tracks"][p].items():
                assert 0 <= step <= DATA["track_top"]
                assert step >= self.prev_tracks[p][good], f"{p}'s {good} marker went down"
        self.prev_tracks = copy.deepcopy(state["tracks"])
        assert len(state["lot"]) <= DATA["max_lot"]
        assert 1 <= state["day"] <= 3
        assert state["turn"] == self.turn
        for e in events:
            if e["type"] == "day_end":
                self.days_ended.append(e["day"])
            if e["type"] == "sold":
                assert e["price"] >= 1
        if self.turn % 8 == 1 or any(e["type"] == "day_end" for e in events):  # the schema is slow
            assert ENGINE_VALIDATOR.is_valid(state), list(ENGINE_VALIDATOR.iter_errors(state))[:3]
        decision = RULES.decision(state)
        if decision is None:
            assert state["phase"] == "over"
            return
        assert state["phase"] in ("draw", "bid")
        assert len(decision.players) == 1 and decision.players[0] in players
        who = decision.players[0]
        free = {p: DATA["hold_size"] - len(state["hold"][p]) for p in players}
        # a full player neither auctions nor bids; nobody is asked to bid for a lot he cannot hold
        assert free[who] >= 1
        assert 1 <= len(state["lot"]) <= max(free.values())
        if state["phase"] == "draw":
            assert who == state["auctioneer"]
        else:
            assert free[who] >= len(state["lot"])
            assert state["to_bid"][0] == who
        assert RULES.legal_orders(state, who)

    def after_order(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self.turn += 1
        self.check(state, events)

    def at_end(self, state: dict[str, Any], all_events: list[dict[str, Any]]) -> None:
        assert RULES.decision(state) is None
        assert state["day"] == 3
        assert self.days_ended == [1, 2, 3]
        assert [e["day"] for e in all_events if e["type"] == "day_start"] == [1, 2, 3]
        result = RULES.result(state)
        assert sorted(r["player"] for r in result) == sorted(self.players)
        assert all(r["score"] == state["money"][r["player"]] for r in result)
        scores = [r["score"] for r in result]
        assert scores == sorted(scores, reverse=True)
        for r in result:  # shared ranks: 1 + the number of players strictly richer
            assert r["rank"] == 1 + sum(1 for s in scores if s > r["score"])
        assert result[0]["rank"] == 1
        ends = [e for e in all_events if e["type"] == "game_end"]
        assert len(ends) == 1 and ends[0]["standings"] == result
        assert all_events[-1]["type"] == "game_end"


def play_engine_game(players: list[str], edition: str, seed: str, choose) -> tuple[dict[str, Any], int]:
    rng = Rng(seed)
    state, events = RULES.setup(players, {"edition": edition}, rng)
    all_events = list(events)
    checker = Checker(state, events)
    assert yaml.safe_load(dump_yaml(state)) == state  # the pure-Python loader reads it back too
    orders = 0
    snapshot: tuple[dict[str, Any], int] | None = None  # a reloaded copy from the start of day 2
    later: list[tuple[str, Any]] = []  # and the orders given since
    while (decision := RULES.decision(state)) is not None:
        player = decision.players[0]
        if snapshot is None and state["day"] == 2:
            snapshot = (safe_load(dump_yaml(state)), rng.counter)
        legal = RULES.legal_orders(state, player)
        order = choose(state, player, legal)
        assert order in legal

        # the state is plain data: a YAML round trip gives it back unchanged ...
        text = dump_yaml(state)
        reloaded = safe_load(text)
        assert reloaded == state
        assert RULES.legal_orders(reloaded, player) == legal
        # ... and so does the same order applied to the reloaded copy with a stream resumed at the counter
        resumed = Rng(seed, rng.counter)

        if orders % 17 == 0:  # an order from someone else is refused and changes nothing
            other = next(p for p in players if p != player)
            before = copy.deepcopy(state)
            with pytest.raises(IllegalOrder):
                RULES.apply(state, other, order, Rng(seed, rng.counter))
            assert state == before

        events = RULES.apply(state, player, order, rng)
        again = RULES.apply(reloaded, player, order, resumed)
        assert again == events
        assert reloaded == state
        assert resumed.counter == rng.counter
        all_events += events
        if snapshot is not None:
            later.append((player, order))
        orders += 1
        checker.after_order(state, events)
        assert orders < 2000, "the game does not end"
    checker.at_end(state, all_events)
    # continuing the whole game from the copy reloaded at the start of day 2 ends in the same place
    assert snapshot is not None
    copy_state, counter = snapshot
    resumed = Rng(seed, counter)
    for player, order in later:
        RULES.apply(copy_state, player, order, resumed)
    assert copy_state == state and resumed.counter == rng.counter
    # and the finished state round-trips too
    assert safe_load(dump_yaml(state)) == state
    assert yaml.safe_load(dump_yaml(state)) == state  # the pure-Python loader agrees
    return state, orders


GAME_CASES = [pytest.param(n, edition, kind, i, id=f"{n}p-{edition}-{kind}-{i}")
              for n in COUNTS for edition in EDITIONS for kind in ("bot", "random") for i in range(3)]


@pytest.mark.parametrize("n, edition, kind, i", GAME_CASES)
def test_whole_engine_game_keeps_every_invariant(n: int, edition: str, kind: str, i: int) -> None:
    if kind == "bot":
        players = PLAIN_NAMES[:n]
        choose = bot_player
    else:
        players = (TRICKY_NAMES if i != 1 else PLAIN_NAMES)[:n]
        choose = random_player(Rng(f"random-player-{n}-{edition}-{i}"), uniform=(i == 2))
    state, orders = play_engine_game(players, edition, f"games-{n}-{edition}-{kind}-{i}", choose)
    # a game of three days needs at least one order per lot, and the holds take 5 cards each
    assert orders >= 3


def test_tricky_player_names_survive_yaml() -> None:
    """A player called 'no' or 'null' must stay a string key through the state file."""
    state, _ = RULES.setup(TRICKY_NAMES, {"edition": "riogrande"}, Rng("tricky"))
    text = dump_yaml(state)
    back = yaml.safe_load(text)
    assert back == state
    assert list(back["money"]) == TRICKY_NAMES


# -- through the pipeline library ---------------------------------------------------------------------

def multi_order_player(prng: Rng):
    """Picks like the random player, but an auctioneer who may draw twice sometimes sends two orders at
    once (`draw` then `auction`), exercising lists of orders."""
    pick = random_player(prng, uniform=False)

    def orders(engine: dict[str, Any], player: str, legal: list[Any]) -> list[Any]:
        if engine["phase"] == "draw" and "draw" in legal and len(engine["lot"]) + 1 < RULES.max_lot(engine):
            if prng.below(3, "two-orders") == 0:
                return ["draw", "auction"]
        return [pick(engine, player, legal)]
    return orders


# the schema check of the whole state file after every step grows with the game: a few games only
PIPELINE_CASES = [(3, "riogrande", "bot"), (4, "amigo", "random"), (6, "amigo", "bot")]


def play_pipeline_game(tmp_path: Path, n: int, edition: str, kind: str, seed: str, game: str = "g1"):
    gd = GamesDir(tmp_path / "games")
    names = (TRICKY_NAMES if kind == "random" else PLAIN_NAMES)[:n]
    people = [(p, f"{p}@example.org") for p in names]
    state, tokens = new_game(gd, "medici", game, people, {"edition": edition}, seed)
    check_state(state, game)
    gd.save(game, state)
    prng = Rng(f"pipeline-player-{seed}")
    multi = multi_order_player(prng)
    steps = 0
    while state["status"] == "active":
        who = waiting_for(state)
        assert len(who) == 1
        player = who[0]
        shown = show(state, player)
        legal = shown["legal_orders"]
        assert legal
        if kind == "bot":
            orders = [bots.choose("medici", shown["view"], player, legal)]
        else:
            orders = multi(state["engine"], player, legal)
        turn = state["engine"]["turn"]
        new, events = apply_orders(state, player, turn, orders)
        assert new["engine"]["turn"] == turn + len(orders)
        assert len(new["log"]) == len(state["log"]) + len(orders)
        assert new["events"] == state["events"] + events
        assert all(e["turn"] >= turn for e in events)
        check_state(new, game)  # the state file validates after every step
        if steps % 10 == 0 or new["status"] != "active":  # and is written and read back now and then
            gd.save(game, new)
            assert gd.load(game) == new
        state = new
        steps += 1
        assert steps < 2000
    return gd, state, tokens


@pytest.mark.parametrize("n, edition, kind", PIPELINE_CASES, ids=[f"{n}p-{e}-{k}" for n, e, k in PIPELINE_CASES])
def test_whole_game_through_the_pipeline_library_verifies(tmp_path: Path, n: int, edition: str, kind: str) -> None:
    seed = f"pipeline-{n}-{edition}-{kind}"
    gd, state, _ = play_pipeline_game(tmp_path, n, edition, kind, seed)
    assert state["status"] == "finished"
    assert waiting_for(state) == []
    assert verify(state) == []
    assert verify(gd.load("g1")) == []
    text = (tmp_path / "games" / "g1" / "state.yaml").read_text("utf-8")
    assert "&id" not in text and "*id" not in text  # plain data: no shared objects, no YAML aliases
    engine = state["engine"]
    assert engine["day"] == 3 and engine["phase"] == "over"
    shown = show(state)
    assert shown["seed"] == seed
    standings = shown["result"]["standings"]
    assert [r["score"] for r in standings] == sorted((r["score"] for r in standings), reverse=True)
    assert {r["player"] for r in standings} == set(player_names(state))
    for r in standings:
        assert r["rank"] == 1 + sum(1 for q in standings if q["score"] > r["score"])
    # the turns of the log follow each other without gaps
    assert [e["turn"] for e in state["log"]] == list(range(1, engine["turn"]))


def test_pbem_verify_via_cli(tmp_path: Path, pbem) -> None:
    """A finished game passes `pbem verify` (exit 0); after tampering with its log it fails (exit 1)."""
    gd, state, _ = play_pipeline_game(tmp_path, 3, "amigo", "bot", "cli-verify")
    r = pbem("verify", "g1")
    assert r.exit_code == 0, r.output
    assert "verified" in r.output
    # tamper: the first bid in the log becomes a different amount or a pass
    tampered = copy.deepcopy(state)
    entry = next(e for e in tampered["log"] if isinstance(e["order"], dict))
    entry["order"] = "pass"
    assert verify(tampered)
    gd.save("g1", tampered)
    r = pbem("verify", "g1")
    assert r.exit_code == 1, r.output
    assert "does not match" in r.output


def test_pbem_verify_via_cli_mid_game(tmp_path: Path, pbem) -> None:
    """A game still running verifies too: the replay of its log so far is the stored game."""
    tokens = pbem.new("m1", ("anna", "ben", "cleo", "dario"), "--option", "edition=amigo")
    for _ in range(12):
        gm = pbem.show("m1")
        player = gm["waiting_for"][0]
        seen = pbem.show("m1", player)
        order = bots.choose("medici", seen["view"], player, seen["legal_orders"])
        turnfile = tmp_path / "t.yaml"
        turnfile.write_text(dump_yaml({"game": "m1", "player": player, "token": tokens[player],
                                       "turn": seen["turn"], "orders": [order]}))
        r = pbem("submit", str(turnfile))
        assert r.exit_code == 0, r.output
        r = pbem("advance")
        assert r.exit_code == 0, r.output
    assert pbem.show("m1")["turn"] == 13
    r = pbem("verify", "m1")
    assert r.exit_code == 0, r.output
    state = GamesDir(pbem.games).load("m1")
    assert verify(state) == []
