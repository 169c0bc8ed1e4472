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

import helpers
from helpers import send_turn
from pbem import bots
from pbem.game import player_names, show, verify, waiting_for
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.rules.medici import full_deck
from pbem.store import GamesDir, dump_yaml
from pbem.turnfile import schema

RULES = get_ruleset("medici")
DATA = yaml.safe_load((Path(__file__).parent.parent / "pbem" / "rules" / "medici.yaml").read_text("utf-8"))
EDITIONS = ("riogrande", "amigo")
COUNTS = (3, 4, 5, 6)

PLAIN_NAMES = ["anna", "ben", "cleo", "dario", "eva", "fritz"]
# names a careless YAML writer would turn into booleans or null
TRICKY_NAMES = ["no", "on", "null", "true", "off", "yes"]

ENGINE_VALIDATOR = jsonschema.Draft202012Validator(schema("medici.state"))


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
    """The shared loop with its YAML round trip at every order, resumed from a copy of day 2."""
    state, _, orders = helpers.play_engine_game(RULES, players, {"edition": edition}, seed, choose, Checker,
                                                part="day", refuse_every=17)
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
    names = (TRICKY_NAMES if kind == "random" else PLAIN_NAMES)[:n]
    multi = multi_order_player(Rng(f"pipeline-player-{seed}"))

    def orders_of(state: dict[str, Any], player: str, shown: dict[str, Any]) -> list[Any]:
        if kind == "bot":
            return [bots.choose("medici", shown["view"], player, shown["legal_orders"])]
        return multi(state["engine"], player, shown["legal_orders"])
    # the state file validates after every step
    return helpers.play_pipeline_game(tmp_path, "medici", names, {"edition": edition}, seed, orders_of, game=game)


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
        send_turn(pbem, tmp_path / "t.yaml", "m1", player, tokens[player], seen["turn"], [order])
    assert pbem.show("m1")["turn"] == 13
    r = pbem("verify", "m1")
    assert r.exit_code == 0, r.output
    state = GamesDir(pbem.games).load("m1")
    assert verify(state) == []
