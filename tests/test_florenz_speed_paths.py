"""Florenz's fast paths give what the slow ones give: the bot's view is part of the full view and the bot
chooses alike from both, the legal orders are the contract's, two-member hurries are those the walk
allows, the bot's worth of a move, hurry, send or promotion is the worth of the queues the walk, the
newcomer or the promotion leaves, the bot picks what its rules read plainly pick, a boast is refused
only when its VP find no free cup slot, and a bonus decision's candidates are all legal. Behaviour
only: nothing here is timed."""

from __future__ import annotations

import copy
import random
from typing import Any, Iterator

import pytest

from pbem import bots
from pbem.rng import Rng
from pbem.rules.base import Ruleset
from pbem.rules.florenz import Florenz
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz import scandal as S
from pbem.rules.florenz.bot import Worth, target_term
from pbem.rules.florenz.data import LOCATIONS, PLAN_CARDS, SCANDAL_CARDS, medici_of, route
from pbem.rules.florenz.orders import parse, split_position

GAME = Florenz()
GAMES = [(4, {}, "speed-4"), (2, {}, "speed-2"), (3, {}, "speed-3"), (5, {}, "speed-5"),
         (1, {"solo": "harder"}, "speed-h"), (1, {"solo": "easier"}, "speed-e"), (1, {"solo": "normal"}, "speed-n")]


def positions(players: int, options: dict[str, str], seed: str, by_bot: bool) -> Iterator[tuple[dict[str, Any], str]]:
    """Every decision of a whole game, played by the bots or by random legal orders: (state, who decides)."""
    rng = Rng(seed)
    pick = random.Random(seed)
    state, _ = GAME.setup([f"p{i}" for i in range(players)], GAME.check_options(options), rng)
    while (d := GAME.decision(state)) is not None:
        p = d.players[0]
        yield state, p
        legal = GAME.legal_orders(state, p)
        order = bots.choose("florenz", GAME.view(state, p), p, legal) if by_bot else pick.choice(legal)
        GAME.apply(state, p, order, rng)


def slow_hurry_pairs(state: dict[str, Any], family: str) -> list[tuple[A.Step, A.Step]]:
    """The two-member hurries as the rules read: each pair of steps tried in board order, then the
    other way round."""
    steps = A.member_steps(state, family)
    out = []
    for i, a in enumerate(steps):
        for b in steps[i + 1:]:
            if a[0] == b[0]:
                continue
            if A.steps_work(state, family, [a, b]):
                out.append((a, b))
            elif A.steps_work(state, family, [b, a]):
                out.append((b, a))
    return out


@pytest.mark.parametrize("players,options,seed", GAMES)
@pytest.mark.parametrize("by_bot", [True, False])
def test_fast_paths_match_slow_paths(players: int, options: dict[str, str], seed: str, by_bot: bool) -> None:
    for n, (state, p) in enumerate(positions(players, options, seed, by_bot)):
        legal = GAME.legal_orders(state, p)
        assert legal == Ruleset.legal_orders(GAME, state, p), (n, p)
        assert A.hurry_pairs(state, p) == slow_hurry_pairs(state, p), (n, p)
        view, bot_view = GAME.view(state, p), GAME.bot_view(state, p)
        assert all(key in view and view[key] == value for key, value in bot_view.items()), n
        assert bots.choose("florenz", bot_view, p, legal) == bots.choose("florenz", view, p, legal), n
        worth = Worth(bot_view, p)
        for order in legal:
            if order.split()[0] in ("move", "hurry"):
                o = parse(order)
                assert o is not None
                walked = A.simulate_moves(view, p, o)
                assert not isinstance(walked, str), order
                changed = {loc: q for loc, q in walked[0].items() if q is not view["queues"][loc]}
                assert worth.walk(order) == worth(changed), (n, order)
            elif order.startswith("send "):
                loc = order.split()[1]
                queues = dict(view["queues"])
                A.enter_queue(view, queues, loc, {"family": p, "rank": "debutant", "colour": ""})
                assert worth.sent(loc) == worth({loc: queues[loc]}), (n, order)
            elif order.startswith("promote "):
                loc, at = split_position(order.split()[1])
                assert worth.promoted(loc, at) == worth({loc: B.promote(view["queues"][loc], at)}), (n, order)


def test_bot_view_copies_the_state() -> None:
    """The bot's view is a copy: changing it leaves the state alone, and the state changing later leaves
    it alone."""
    state, _ = GAME.setup(["anna", "ben", "cara"], GAME.check_options({}), Rng("copy"))
    before = GAME.bot_view(state, "anna")
    view = GAME.bot_view(state, "anna")
    view["queues"]["1"].append({"family": "anna", "rank": "debutant", "colour": "blue"})
    view["guards"]["spy"]["1"].append({"family": "anna", "colour": "blue"})
    assert GAME.bot_view(state, "anna") == before
    first = GAME.decision(state).players[0]   # type: ignore[union-attr]
    GAME.apply(state, first, "place 1", Rng("p"))
    assert before["queues"]["1"] == []


def containers(value: Any, seen: set[int]) -> set[int]:
    """The ids of every dict and list within `value` (plain data), itself included."""
    if type(value) is dict or type(value) is list:
        seen.add(id(value))
        for item in value.values() if type(value) is dict else value:
            containers(item, seen)
    return seen


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_bot_view_shares_nothing_with_the_state(players: int, options: dict[str, str], seed: str) -> None:
    """The bot's view, its parts copied by their shape, holds no dict or list of the state, at any
    decision of a random game."""
    for state, p in positions(players, options, f"{seed}-share", False):
        assert containers(GAME.bot_view(state, p), set()).isdisjoint(containers(state, set()))


def plain_choice(view: dict[str, Any], me: str, legal: list[str]) -> str:
    """The bot's rules read plainly: every order scored on the queues it leaves (a walk as
    `A.simulate_moves` walks it), the best first, the first in text order among equals."""
    mood = bots.temperament(me, "florenz")
    time_value = 0.9 + 0.4 * mood
    if "accept" in legal:
        return "accept"
    if "decline" in legal:
        return next((o for o in legal if o.startswith("discard ")), "decline")
    worth = Worth(view, me)
    base = worth({})
    queues = view["queues"]

    def score(order: str) -> float:
        o = parse(order)
        assert o is not None
        verb = o["verb"]
        if verb in ("move", "hurry"):
            walked = A.simulate_moves(view, me, o)
            assert not isinstance(walked, str), order
            changed = {loc: q for loc, q in walked[0].items() if q is not queues[loc]}
            return worth(changed) - base - (1 if verb == "move" else 3) * time_value
        if verb == "send":
            after = dict(queues)
            A.enter_queue(view, after, o["location"], {"family": me, "rank": "debutant", "colour": ""})
            return worth({o["location"]: after[o["location"]]}) - base - 4 * time_value
        if verb == "place":
            return -len(queues[o["location"]]) + (worth({o["location"]: [
                {"family": me, "rank": "debutant", "colour": ""}]}) - base)
        if verb == "promote":
            loc, n = split_position(o["position"])
            return worth({loc: B.promote(queues[loc], n)}) - base - 5 * time_value
        if verb == "swap":
            (loc, p), (_, q) = split_position(o["position"]), split_position(o["position2"])
            return 1.0 + (worth({loc: B.swap(queues[loc], p, q)}) - base)
        if verb == "boast":
            return A.boast_value(view, me, o["location"]) - time_value
        if verb == "gift":
            cost = B.gift_cost(view["gifts_given"][me][o["medici"]])
            return (3.0 if o.get("crest") else 1.0) + 2 * mood - cost * time_value
        if verb == "bonus":
            return 1.0 if o["bonus"] == "vp" or view["time"][me] >= 12 else 1.2
        if verb == "pass":
            return 0.5 + (0.1 * int(o["location"]) if o.get("location") else 0)
        return {"discard": -50.0, "done": 0.0, "travel": -1.0}.get(verb, -3.0)

    return min(legal, key=lambda o: (-score(o), o))


@pytest.mark.parametrize("players,options,seed", GAMES)
@pytest.mark.parametrize("by_bot", [True, False])
def test_bot_chooses_as_its_rules_read_plainly(players: int, options: dict[str, str], seed: str, by_bot: bool) -> None:
    """The bot (orders weighed by kind, walks by what they change at each queue, queue parts kept
    between decisions) picks what the plain reading of its rules picks."""
    for n, (state, p) in enumerate(positions(players, options, f"{seed}-plain", by_bot)):
        legal = GAME.legal_orders(state, p)
        chosen = bots.choose("florenz", GAME.bot_view(state, p), p, legal)
        assert chosen == plain_choice(GAME.view(state, p), p, legal), (n, p)


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_boast_judged_by_its_slots(players: int, options: dict[str, str], seed: str) -> None:
    """`why_boast` counts a boast's VP only when the lowest cup slot is taken: it refuses exactly the
    boasts whose VP find no free slot, as the rules read."""
    for state, p in positions(players, options, f"{seed}-boast", False):
        counts = A.boast_counts(state, p)
        for loc in LOCATIONS:
            cups = A.cups_of(state["boast"][loc])
            plain = (B.has_cup(cups, p) or B.cup_slot(A.boast_value(state, p, loc, counts), cups) is None
                     or state["supply"][p]["cup"] < 1 or state["time"][p] < A.COST["boast"])
            assert (A.why_boast(state, p, {"location": loc}, needs_member=False, counts=counts) is None) != plain


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_bonus_candidates_are_legal(players: int, options: dict[str, str], seed: str) -> None:
    """A bonus decision offers its candidates as they are: `why_illegal` allows each of them."""
    for state, p in positions(players, options, f"{seed}-bonus", False):
        if GAME.decision(state).kind == "bonus":   # type: ignore[union-attr]
            candidates = GAME.candidate_orders(state, p)
            assert GAME.legal_orders(state, p) == candidates
            assert all(GAME.why_illegal(state, p, o) is None for o in candidates)


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_plays_as_their_rules_read(players: int, options: dict[str, str], seed: str) -> None:
    """With every scandal card in hand, the plays `legal_plays` offers (each card judged by its own
    rule on facts gathered once) are the candidates `why_play` allows, in the same order."""
    for state, p in positions(players, options, f"{seed}-plays", False):
        if GAME.decision(state).kind != "action":   # type: ignore[union-attr]
            continue
        held = copy.deepcopy(state)
        held["scandal"]["hand"][p] = list(SCANDAL_CARDS)
        plain = [o for o in S.candidates(held, p) if S.why_play(held, p, o) is None]
        assert S.legal_plays(held, p) == plain
        assert held["scandal"]["hand"][p] == list(SCANDAL_CARDS)   # each card put back where it was


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_cup_fits_as_why_boast(players: int, options: dict[str, str], seed: str) -> None:
    """`cup_fits` refuses a boast exactly when `why_boast` does for its cup and slot (the member, the
    cup left and the time aside)."""
    for state, p in positions(players, options, f"{seed}-cups", False):
        counts = A.boast_counts(state, p)
        enough = dict(state, supply={**state["supply"], p: {**state["supply"][p], "cup": 1}},
                      time={**state["time"], p: 99})
        for loc in LOCATIONS:
            plain = A.why_boast(enough, p, {"location": loc}, needs_member=False, counts=counts) is None
            assert A.cup_fits(state, p, loc, counts) == plain, loc


def plain_setting(view: dict[str, Any], me: str) -> tuple[list[tuple[float, int, str]], list[str], list[str]]:
    """The bot's targets (weight, round, location), the active carriage's route and the plan card's
    locations, read plainly from the view."""
    r = view["round"] or 1
    targets = [((1.0, 0.5, 0.3)[ahead], rnd, view["targets"][medici_of(rnd)])
               for ahead, rnd in enumerate(range(r, min(r + 3, 10))) if medici_of(rnd) in view["targets"]]
    active = medici_of(r)
    way = route(view["carriages"][active], view["targets"][active]) \
        if active in view["carriages"] and active in view["targets"] else []
    plan = view["plan_cards"].get(me)
    return targets, way, [] if plan is None else PLAN_CARDS[plan]["locations"]


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_worth_reads_the_view_plainly(players: int, options: dict[str, str], seed: str) -> None:
    """A `Worth` (its setting kept between decisions, the targets' terms kept by queue) has the targets,
    route and plan the view gives, and each queue's part is what the rules read plainly: my members,
    each target's term there, and whether the active carriage pays me its head VP there."""
    for state, p in positions(players, options, f"{seed}-worth", True):
        view = GAME.bot_view(state, p)
        worth = Worth(view, p)
        targets, way, plan = plain_setting(view, p)
        assert (worth.targets, worth.route, worth.plan) == (targets, way, plan)
        for loc, queue in view["queues"].items():
            terms = {k: target_term(queue, p, w, rnd) for k, (w, rnd, t) in enumerate(targets) if t == loc}
            head = loc in way and B.head_scorer(queue, worth.active) == p
            assert worth.part(loc, queue) == (B.members(queue, p), terms, head), loc


def test_member_walks_are_the_member_steps() -> None:
    """`member_walks` gives each member's steps as `member_steps` does, in board order, each written as
    the move and the one-member hurries over it that the order grammar reads back."""
    for state, p in positions(4, {}, "speed-walks", False):
        queues = state["queues"]
        walks = [walk for loc in LOCATIONS for n, piece in enumerate(queues[loc], 1) if piece["family"] == p
                 for walk in A.member_walks(loc, n)]
        assert [walk.step for walk in walks] == A.member_steps(state, p)
        for walk in walks:
            (pos, via), start = walk.step, walk.start
            assert parse(walk.move) == {"verb": "move", "position": pos, "to": via}
            assert walk.path == A.PATH_ID[(start, via)] and start == pos.split(".")[0]
            assert [(to, path, parse(text)) for to, path, text in walk.hurries] == [
                (to, A.PATH_ID[(via, to)], {"verb": "hurry", "position": pos, "via": via, "to": to})
                for to in A.NEIGHBOURS[via]]
