"""Whole games of Medici vs Strozzi, played by the bots and by a seeded random legal-order player, with
the invariants checked after every single order: the 26 tiles conserved, lots and ships within the
rules, each of a player's ships in a harbour of its own, markers on their tracks, money accounted for
by the events (and each round's scoring recomputed from the ships), the decision sensible, the state a
YAML round trip away from itself (and the game continuing identically from the reloaded copy). Then
games through the pipeline library (schema-checked, replayed by `verify`), the secrets of the bag and
the seed in every view and report, and determinism."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import jsonschema
import pytest
import yaml

import helpers
from helpers import Chooser
from pbem import bots
from pbem.advance import write_reports
from pbem.game import apply_orders, new_game, player_names, replay, show, verify, waiting_for
from pbem.report import render_report
from pbem.rng import Rng, commitment
from pbem.rules.base import board_data, get_ruleset
from pbem.rules.medici_strozzi import all_tiles
from pbem.store import GamesDir, dump_yaml
from pbem.turnfile import schema

RULES = get_ruleset("medici-strozzi")
DATA = board_data("medici-strozzi")
TILES = Counter(all_tiles())
END = DATA["track_length"]

PLAIN = ["anna", "ben"]
# names a careless YAML writer would turn into booleans or null
TRICKY = [["no", "null"], ["true", "off"], ["yes", "on"]]

ENGINE_VALIDATOR = jsonschema.Draft202012Validator(schema("medici-strozzi.state"))


def value(tile: str) -> int:
    return int(tile.rsplit("-", 1)[1])


def good(tile: str) -> str:
    return tile.rsplit("-", 1)[0]


# -- players ------------------------------------------------------------------------------------------

def bot_player(state: dict[str, Any], player: str, legal: list[Any]) -> Any:
    return bots.choose("medici-strozzi", RULES.view(state, player), player, legal)


def random_player(prng: Rng, uniform: bool) -> Chooser:
    """A player choosing among the legal orders with the seeded stream, never Python's `random`.
    `uniform`: every legal order alike (so prices are mostly high and money goes deep into loans);
    otherwise draw half the time when he may, and ask a price up to 30."""
    def choose(state: dict[str, Any], player: str, legal: list[Any]) -> Any:
        assert legal
        if not uniform and state["phase"] == "draw":
            if legal[0] == "draw" and prng.below(2, "draw-or-price") == 0:
                return "draw"
            prices = [o for o in legal if isinstance(o, dict)]
            return prices[prng.below(31, "price")]
        return legal[prng.below(len(legal), "any")]
    return choose


# -- invariants ---------------------------------------------------------------------------------------

def money_moves(events: list[dict[str, Any]]) -> Counter:
    """Each player's money change according to the events: prices out, payouts in."""
    delta: Counter = Counter()
    for e in events:
        if e["type"] == "sold":
            delta[e["player"]] -= e["price"]
        elif e["type"] == "score_harbour":
            if e["winner"] is not None:
                delta[e["winner"]] += DATA["harbour_win"]
            for p, pay in e["markers"].items():
                delta[p] += pay
    return delta


def expected_scoring(players: list[str], ships: dict[str, list[dict[str, Any]]],
                     markers: dict[str, dict[str, int]]) -> dict[str, dict[str, Any]]:
    """Each harbour's scoring worked out from the ships as they lay at the end of the round."""
    first, second = players
    out = {}
    for harbour, goods in DATA["harbours"].items():
        cargo = {p: next((s["cargo"] for s in ships[p] if s["harbour"] == harbour), []) for p in players}
        values = {p: sum(value(t) for t in cargo[p]) for p in players}
        winner = None if values[first] == values[second] else max(players, key=lambda p: values[p])
        moves, pay = {}, {p: 0 for p in players}
        for g in goods:
            pull = {p: sum(2 if value(t) == 0 else 1 for t in cargo[p] if good(t) == g) for p in players}
            to = max(-END, min(END, markers[harbour][g] + pull[first] - pull[second]))
            moves[g] = {"from": markers[harbour][g], "to": to}
            if to:
                pay[first if to > 0 else second] += DATA["marker_payout"] + DATA["track_bonus"].get(abs(to), 0)
        out[harbour] = {"values": values, "winner": winner, "moves": moves, "markers": pay}
    return out


class Checker:
    """Follows one engine game and checks everything after every step."""

    def __init__(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self.players = list(state["players"])
        self.expected_money = {p: DATA["start_money"] for p in self.players}
        self.turn = 1
        self.rounds_ended: list[int] = []
        self.prev: dict[str, Any] | None = None
        self.legal: list[Any] = []  # the legal orders of the player asked now
        self.check(state, events)

    def check(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        players = self.players
        first, second = players
        assert state["players"] == players
        # all 26 tiles, wherever they lie
        assert Counter(RULES.tiles_in_game(state)) == TILES
        assert len(RULES.tiles_in_game(state)) == 26
        # money: moved only by prices and payouts
        for p, d in money_moves(events).items():
            self.expected_money[p] += d
        assert state["money"] == self.expected_money
        # the lot, the ships, the harbours
        assert len(state["lot"]) <= DATA["max_lot"]
        for p in players:
            assert [s["capacity"] for s in state["ships"][p]] == DATA["ships"]
            harbours = [s["harbour"] for s in state["ships"][p] if s["harbour"] is not None]
            assert len(harbours) == len(set(harbours)), f"{p} has two ships in one harbour"
            assert set(harbours) <= set(DATA["harbours"])
            for s in state["ships"][p]:
                assert len(s["cargo"]) <= s["capacity"]
                assert bool(s["cargo"]) == (s["harbour"] is not None), "a harbour is assigned on the first load"
        # the markers: on their tracks; they move only when a round is scored, as the ships say
        for h, goods in DATA["harbours"].items():
            assert list(state["markers"][h]) == list(goods)
            assert all(-END <= m <= END for m in state["markers"][h].values())
        scored = [e for e in events if e["type"] == "score_harbour"]
        if self.prev is not None:
            if scored:
                self.check_scoring(state, events, scored)
            else:
                assert state["markers"] == self.prev["markers"]
                # within a round ships only fill up and keep their harbour
                for p in players:
                    for old, new in zip(self.prev["ships"][p], state["ships"][p]):
                        assert new["cargo"][:len(old["cargo"])] == old["cargo"]
                        assert old["harbour"] in (None, new["harbour"])
        assert 1 <= state["round"] <= DATA["rounds"]
        assert state["turn"] == self.turn
        for e in events:
            if e["type"] == "round_end":
                self.rounds_ended.append(e["round"])
            if e["type"] == "round_start":
                assert e["drawer"] == (first if e["round"] == 1 else second)
            if e["type"] == "sold":
                assert e["price"] >= 0
        if self.turn % 10 == 1 or scored:  # the schema is slow
            assert ENGINE_VALIDATOR.is_valid(state), list(ENGINE_VALIDATOR.iter_errors(state))[:3]
        self.prev = copy.deepcopy(state)
        decision = RULES.decision(state)
        if decision is None:
            assert state["phase"] == "over"
            return
        assert len(decision.players) == 1
        who = decision.players[0]
        legal = RULES.legal_orders(state, who)
        assert state["lot"], "a decision always faces a lot"
        if state["phase"] == "draw":
            assert who == state["drawer"] and state["price"] is None and state["buyer"] is None
            room = max(s["capacity"] - len(s["cargo"]) for s in state["ships"][who])
            assert len(state["lot"]) <= room  # never more than fit on one of his ships
            limit = min(DATA["max_lot"], room, len(state["lot"]) + len(state["bag"]))
            assert ("draw" in legal) == (len(state["lot"]) < limit)
        elif state["phase"] == "answer":
            assert who != state["drawer"] and state["price"] is not None
        else:
            assert state["phase"] == "load" and who == state["buyer"]
        assert legal
        self.legal = legal
        if self.turn % 10 == 1:
            assert RULES.legal_orders(state, next(p for p in players if p != who)) == []

    def check_scoring(self, state: dict[str, Any], events: list[dict[str, Any]],
                      scored: list[dict[str, Any]]) -> None:
        """The round just ended: score it again from the ships as they lay (with the lot just loaded)."""
        assert self.prev is not None
        ships = copy.deepcopy(self.prev["ships"])
        for e in events:
            if e["type"] == "load":
                s = next(s for s in ships[e["player"]] if s["capacity"] == e["ship"])
                s["harbour"] = e["harbour"]
                s["cargo"] += e["lot"]
        over = [e for e in events if e["type"] == "round_over"]
        assert len(over) == 1
        full = [p for p in self.players if all(len(s["cargo"]) == s["capacity"] for s in ships[p])]
        bag_empty = not self.prev["bag"]  # the lot just sold held the last tile
        assert full or bag_empty
        assert over[0]["why"] == (f"{full[0]}'s ships are full" if full else "the bag is empty")
        expected = expected_scoring(self.players, ships, self.prev["markers"])
        assert [e["harbour"] for e in scored] == list(DATA["harbours"])
        for e in scored:
            assert {k: e[k] for k in ("values", "winner", "moves", "markers")} == expected[e["harbour"]]
            for g, m in e["moves"].items():
                assert state["markers"][e["harbour"]][g] == m["to"]  # and never reset for the next round
        if state["phase"] != "over":  # the next round: empty ships, all tiles in the bag
            assert all(s == {"capacity": s["capacity"], "harbour": None, "cargo": []}
                       for p in self.players for s in state["ships"][p])
            assert state["discarded"] == [] and len(state["bag"]) + len(state["lot"]) == 26

    def after_order(self, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
        self.turn += 1
        self.check(state, events)

    def at_end(self, state: dict[str, Any], all_events: list[dict[str, Any]]) -> None:
        assert RULES.decision(state) is None
        assert state["round"] == 3
        assert self.rounds_ended == [1, 2, 3]
        first, second = self.players
        assert [(e["round"], e["drawer"]) for e in all_events if e["type"] == "round_start"] == [
            (1, first), (2, second), (3, second)]
        result = RULES.result(state)
        assert sorted(r["player"] for r in result) == sorted(self.players)
        assert all(r["score"] == state["money"][r["player"]] for r in result)
        scores = [r["score"] for r in result]
        assert scores == sorted(scores, reverse=True)
        for r in result:  # shared ranks: 1 + the number of players strictly richer
            assert r["rank"] == 1 + sum(1 for s in scores if s > r["score"])
        ends = [e for e in all_events if e["type"] == "game_end"]
        assert len(ends) == 1 and ends[0]["standings"] == result
        assert all_events[-1]["type"] == "game_end"


def play_engine_game(players: list[str], seed: str, choose: Chooser) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """The shared loop with its YAML round trip at every order (the legal orders the checker found,
    checked on the reloaded copy every 10 orders), resumed from a copy of round 2."""
    return helpers.play_engine_game(RULES, players, {}, seed, choose, Checker, part="round",
                                    legal_orders=lambda checker, state, player: checker.legal,
                                    reloaded_legal_every=10, refuse_every=13)


GAME_CASES = ([pytest.param("bot", i, id=f"bot-{i}") for i in range(5)]
              + [pytest.param("random", i, id=f"random-{i}") for i in range(5)]
              + [pytest.param("uniform", i, id=f"uniform-{i}") for i in range(2)])


@pytest.mark.parametrize("kind, i", GAME_CASES)
def test_whole_engine_game_keeps_every_invariant(kind: str, i: int) -> None:
    if kind == "bot":
        players = PLAIN if i % 2 == 0 else ["cosimo", "filippo"]
        choose: Chooser = bot_player
    else:
        players = TRICKY[i % 3] if i % 2 else PLAIN
        choose = random_player(Rng(f"random-player-{kind}-{i}"), uniform=(kind == "uniform"))
    state, events, orders = play_engine_game(list(players), f"strozzi-{kind}-{i}", choose)
    # at least 5 tiles a round (12 fill a player's ships only when someone loads), 3 orders a lot
    assert orders >= 3 * 3
    if kind == "uniform":  # prices up to 300 leave somebody in debt at some point
        assert any(e["type"] == "sold" and e["money"] < 0 for e in events)


def test_the_games_cover_the_rules() -> None:
    """The games above are not all alike: between them they end rounds both ways, discard, draw three,
    price at 0, decline and buy, and take markers to both ends of their tracks."""
    seen: Counter = Counter()
    for kind, i in (("bot", 0), ("bot", 1), ("random", 0), ("random", 2), ("uniform", 0)):
        players = PLAIN
        choose = bot_player if kind == "bot" else random_player(Rng(f"cover-{kind}-{i}"), kind == "uniform")
        rng = Rng(f"cover-{kind}-{i}")
        state, events = RULES.setup(players, {}, rng)
        while (d := RULES.decision(state)) is not None:
            p = d.players[0]
            events += RULES.apply(state, p, choose(state, p, RULES.legal_orders(state, p)), rng)
        for e in events:
            seen[e["type"]] += 1
            if e["type"] == "round_over":
                seen["full" if "full" in e["why"] else "empty"] += 1
            if e["type"] == "price" and len(e["lot"]) == 3:
                seen["lot of 3"] += 1
            if e["type"] == "price" and e["price"] == 0:
                seen["price 0"] += 1
            if e["type"] == "score_harbour":
                seen["tie"] += e["winner"] is None
                for m in e["moves"].values():
                    seen["end +"] += m["to"] == END
                    seen["end -"] += m["to"] == -END
    for key in ("discard", "buy", "decline", "full", "empty", "lot of 3", "price 0", "tie", "end +", "end -"):
        assert seen[key] > 0, key


def test_tricky_player_names_survive_yaml() -> None:
    """A player called 'no' or 'null' must stay a string key through the state file."""
    state, _ = RULES.setup(["no", "null"], {}, Rng("tricky"))
    back = yaml.safe_load(dump_yaml(state))
    assert back == state
    assert list(back["money"]) == ["no", "null"] and list(back["ships"]) == ["no", "null"]


# -- through the pipeline library ---------------------------------------------------------------------

def multi_order_player(prng: Rng) -> Callable[[dict[str, Any], str, list[Any]], list[Any]]:
    """Picks like the random player, but a drawer who may draw sometimes sends two orders at once
    (`draw` then a price), exercising lists of orders."""
    pick = random_player(prng, uniform=False)

    def orders(engine: dict[str, Any], player: str, legal: list[Any]) -> list[Any]:
        if engine["phase"] == "draw" and "draw" in legal and prng.below(3, "two-orders") == 0:
            return ["draw", {"price": prng.below(20, "price")}]
        return [pick(engine, player, legal)]
    return orders


PIPELINE_CASES = [("bot", PLAIN), ("random", ["no", "null"])]


def play_pipeline_game(tmp_path: Path, kind: str, names: list[str], seed: str, game: str = "g1"):
    multi = multi_order_player(Rng(f"pipeline-player-{seed}"))

    def orders_of(state: dict[str, Any], player: str, shown: dict[str, Any]) -> list[Any]:
        if kind == "bot":
            return [bots.choose("medici-strozzi", shown["view"], player, shown["legal_orders"])]
        return multi(state["engine"], player, shown["legal_orders"])
    # the schema check of the whole file is slow: every 10 steps
    return helpers.play_pipeline_game(tmp_path, "medici-strozzi", names, {}, seed, orders_of, game=game,
                                      check_every=10)


@pytest.mark.parametrize("kind, names", PIPELINE_CASES, ids=[k for k, _ in PIPELINE_CASES])
def test_whole_game_through_the_pipeline_library_verifies(tmp_path: Path, kind: str, names: list[str]) -> None:
    seed = f"pipeline-strozzi-{kind}"
    gd, state, _ = play_pipeline_game(tmp_path, kind, names, seed)
    assert state["status"] == "finished"
    assert waiting_for(state) == []
    assert verify(state) == []
    assert verify(gd.load("g1")) == []
    text = (tmp_path / "games" / "g1" / "state.yaml").read_text("utf-8")
    assert "&id" not in text and "*id" not in text  # plain data: no shared objects, no YAML aliases
    engine = state["engine"]
    assert engine["round"] == 3 and engine["phase"] == "over"
    shown = show(state)
    assert shown["seed"] == seed and shown["seed_sha256"] == commitment(seed)
    standings = shown["result"]["standings"]
    assert standings == [{"player": r["player"], "score": r["score"], "rank": r["rank"]}
                         for r in RULES.result(engine)]
    assert {r["player"] for r in standings} == set(player_names(state))
    assert all(r["score"] == engine["money"][r["player"]] for r in standings)
    # the turns of the log follow each other without gaps
    assert [e["turn"] for e in state["log"]] == list(range(1, engine["turn"]))


def test_verify_notices_a_changed_tile(tmp_path: Path) -> None:
    """A stored game whose engine state was edited no longer matches its replay."""
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, "medici-strozzi", "g1", [(p, f"{p}@example.org") for p in PLAIN], {}, "tamper")
    while not any(s["cargo"] for s in state["engine"]["ships"]["anna"]):
        player = waiting_for(state)[0]
        seen = show(state, player)
        order = bots.choose("medici-strozzi", seen["view"], player, seen["legal_orders"])
        state, _ = apply_orders(state, player, seen["turn"], [order])
    assert verify(state) == []
    forged = copy.deepcopy(state)
    ship = next(s for s in forged["engine"]["ships"]["anna"] if s["cargo"])
    ship["cargo"][0] = "gold-5" if ship["cargo"][0] != "gold-5" else "silk-0"
    problems = verify(forged)
    assert len(problems) == 1 and problems[0].startswith("engine differs from the replay at .ships.anna[")


# -- secrets --------------------------------------------------------------------------------------------

def runs_of(bag: list[str], length: int = 4) -> list[list[str]]:
    """Stretches of the hidden bag, top first. Four tiles: a shorter run could match a public list by
    chance (the 4s and the gold come in pairs)."""
    return [bag[i:i + length] for i in range(0, len(bag) - length + 1, length)]


class Secrets(helpers.Secrets):
    """The hidden facts of a game at one moment: the bag (from the GM's view), the seed, the tokens."""

    hidden = "the bag"
    hidden_keys = {"bag", "fixed_rounds", "deck"}

    def __init__(self, seed: str, tokens: dict[str, str], gm_view: dict[str, Any], finished: bool) -> None:
        super().__init__(seed, tokens, finished)
        self.bag = list(gm_view["bag"])

    def runs(self) -> list[list[str]]:
        return runs_of(self.bag)


def perturbed(state: dict[str, Any], salt: str) -> dict[str, Any]:
    """The same game with everything hidden changed: the bag shuffled (the fixed rounds of the deck file
    too) and, while the game runs, another seed."""
    other = dict(state, engine=copy.deepcopy(state["engine"]))
    engine = other["engine"]
    bag = list(engine["bag"])
    Rng(f"perturb-{salt}").shuffle(bag, "hidden")
    if bag == engine["bag"] and len(bag) > 1:
        bag = bag[1:] + bag[:1]
    engine["bag"] = bag
    engine["fixed_rounds"] = [list(reversed(r)) for r in engine["fixed_rounds"]]
    if other["status"] == "active":
        other["seed"] = other["seed"] + "-something-else"
    return other


def check_views_ignore_hidden(state: dict[str, Any], events: list[dict[str, Any]], salt: str) -> None:
    """No player's view or report may change when only hidden things change."""
    helpers.check_views_ignore_hidden(state, perturbed(state, salt), events, "the bag or the seed")


@pytest.mark.parametrize("kind", ["bot", "random"])
def test_views_and_reports_keep_the_bag_and_the_seed_secret(tmp_path: Path, kind: str) -> None:
    """new_game, apply_orders and write_reports (what `pbem new` and `pbem advance` call, without git),
    and show/render_report as `pbem show --as` prints them: no player sees the order of the bag, nor the
    seed before the end; the first report carries the commitment, the last the seed."""
    seed = f"Hush-strozzi-{kind}-5e4d"
    gd = GamesDir(tmp_path / "games")
    players = PLAIN
    deck = {"rounds": [["gold-5", "silk-4", "furs-0", "indigo-2"], [], ["spices-3"]]}
    state, tokens = new_game(gd, "medici-strozzi", "g1", [(p, f"{p}@example.org") for p in players], {},
                             seed, RULES.check_deck(deck, players, {}))
    state["reports"] = {p: "all" for p in players}  # a report for every change: each is checked
    paths = write_reports(gd, state)
    assert len(paths) == 2
    first = {p.parent.name: p.read_text("utf-8") for p in paths}
    for p in players:
        assert commitment(seed) in first[p] and seed not in first[p]
    gm_first = show(state)
    assert gm_first["view"]["fixed_rounds"] == [[], ["spices-3"]]  # the GM's own view shows the rest
    prng = Rng(f"chooser-{kind}")
    last: dict[str, str] = {}
    step = 0
    while True:
        finished = state["status"] == "finished"
        gm = show(state)
        secrets = Secrets(seed, tokens, gm["view"], finished)
        if not finished:  # not even the GM's JSON has the seed before the end
            assert "seed" not in gm and seed not in json.dumps(gm)
        secrets.check_reports(paths, last)
        for p in players:
            shown = show(state, p)
            secrets.check_view(shown, p, f"the view of {p} at turn {shown['turn']}")
            if step % 4 == 0 or finished:  # rendering is slow; the reports above are rendered every step
                secrets.check_text(render_report(state, p, []), p, f"show --as {p} at turn {shown['turn']}")
        if step % 8 == 0 or finished:
            check_views_ignore_hidden(state, state["events"][-12:], f"{kind}-{step}")
        if finished:
            break
        player = gm["waiting_for"][0]
        seen = show(state, player)
        if kind == "bot":
            order = bots.choose("medici-strozzi", seen["view"], player, seen["legal_orders"])
        else:
            order = random_player(prng, uniform=False)(state["engine"], player, seen["legal_orders"])
        state, _ = apply_orders(state, player, seen["turn"], [order])
        paths = write_reports(gd, state)
        assert {p.parent.name for p in paths} == set(players)  # every order is news for both
        step += 1
        assert step < 2000
    assert sorted(last) == sorted(players)
    for p in players:
        assert "The seed was: " + seed in last[p]
        assert "FINAL STANDINGS" in last[p]


def test_the_checks_would_notice_a_leak(tmp_path: Path) -> None:
    """The checks above are not vacuous: the GM's view, or a text quoting the bag, fails them, and the
    perturbation does change what is hidden (the GM, who sees it, sees the change)."""
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, "medici-strozzi", "g1", [(p, f"{p}@example.org") for p in PLAIN], {}, "leak")
    gm = show(state)
    secrets = Secrets("leak", {"anna": "tok-a", "ben": "tok-b"}, gm["view"], finished=False)
    with pytest.raises(AssertionError):
        secrets.check_view(gm, "anna", "the GM view")
    leaky = dict(gm, view={k: v for k, v in gm["view"].items() if k not in ("bag", "fixed_rounds")})
    secrets.check_view(leaky, "anna", "the GM view without the bag")
    leaky["view"]["next"] = gm["view"]["bag"][4:8]
    with pytest.raises(AssertionError):
        secrets.check_view(leaky, "anna", "a view listing the bag")
    for text in ("seed: leak", "token tok-b", "next: " + ", ".join(gm["view"]["bag"][:4])):
        with pytest.raises(AssertionError):
            secrets.check_text(text, "anna", "a leaky text")
    secrets.check_text("token tok-a", "anna", "his own token")
    other = perturbed(state, "leak")
    assert other["engine"]["bag"] != state["engine"]["bag"]
    assert sorted(other["engine"]["bag"]) == sorted(state["engine"]["bag"])
    assert other["seed"] != state["seed"]
    assert show(other) != show(state)
    assert render_report(other, None, []) != render_report(state, None, [])


# -- determinism ----------------------------------------------------------------------------------------

def play_with(seed: str, choose: Chooser) -> tuple[dict[str, Any], list[dict[str, Any]], list[tuple[str, Any]]]:
    rng = Rng(seed)
    state, events = RULES.setup(PLAIN, {}, rng)
    orders = []
    while (d := RULES.decision(state)) is not None:
        p = d.players[0]
        order = choose(state, p, RULES.legal_orders(state, p))
        orders.append((p, order))
        events += RULES.apply(state, p, order, rng)
    return state, events, orders


def test_same_seed_and_orders_give_the_identical_game() -> None:
    """Everything that happens follows from the seed and the orders."""
    state, events, orders = play_with("determinism", random_player(Rng("det-player"), uniform=False))
    rng = Rng("determinism")
    again, more = RULES.setup(PLAIN, {}, rng)
    for p, order in orders:
        more += RULES.apply(again, p, order, rng)
    assert again == state and more == events
    assert dump_yaml(again) == dump_yaml(state)
    # the bot is deterministic too: the same seed gives the same game
    a = play_with("bots", bot_player)
    b = play_with("bots", bot_player)
    assert a == b


def test_another_seed_gives_another_bag() -> None:
    bags = {tuple(RULES.setup(PLAIN, {}, Rng(f"seed-{i}"))[0]["bag"]) for i in range(20)}
    assert len(bags) == 20
    firsts = Counter(RULES.setup(PLAIN, {}, Rng(f"seed-{i}"))[0]["lot"][0] for i in range(200))
    assert len(firsts) >= 15  # every kind of tile comes first now and then


def test_replay_rebuilds_the_stored_game(tmp_path: Path) -> None:
    """The pipeline's replay from seed, deck and order log gives back the engine, the events and the
    stream position of a game played through apply_orders."""
    gd = GamesDir(tmp_path / "games")
    deck = {"rounds": [["silk-0", "silk-1"], ["gold-5"]]}
    state, _ = new_game(gd, "medici-strozzi", "g1", [(p, f"{p}@example.org") for p in PLAIN], {}, "replay-seed",
                        RULES.check_deck(deck, PLAIN, {}))
    assert state["engine"]["lot"] == ["silk-0"]
    while state["status"] == "active":
        player = waiting_for(state)[0]
        seen = show(state, player)
        order = bots.choose("medici-strozzi", seen["view"], player, seen["legal_orders"])
        state, _ = apply_orders(state, player, seen["turn"], [order])
    rebuilt = replay(state)
    assert rebuilt["engine"] == state["engine"]
    assert rebuilt["events"] == state["events"]
    assert rebuilt["rng_counter"] == state["rng_counter"]
    starts = [i for i, e in enumerate(state["events"]) if e["type"] == "round_start"]
    assert state["events"][starts[1] + 1]["tile"] == "gold-5"


def test_the_bench_plays_each_bot_against_random_play_and_against_itself() -> None:
    """The bench's figures are whole games: Medici vs Strozzi's bot beats random play, and against
    itself wins as often in either seat as the games allow."""
    from benchmarks.bench_bots import against_itself, against_random

    wins, place = against_random("medici-strozzi", 2, 4)
    assert wins >= 3 and 1.0 <= place <= 1.25
    seats, score = against_itself("medici-strozzi", 2, 4)
    assert sum(seats) >= 4 and score > 0
