"""Medici's fast paths give what the slow ones give: the legal orders are the contract's, the bot's view
is part of the full view and the bot chooses alike from both, the goods tracks pay as the shared ranking
does, the bot's worth of a lot and its reading of the range of bids are what the plain reckoning gives,
each decision is made once, and whole seeded games play out exactly as they did before the engine was
made faster (the same orders, events, states and draws of chance). Behaviour only: nothing here is timed.
The checks that hold for any engine of the family are functions here that its other games' speed tests
call too."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import Any, Iterator

import pytest

from pbem import bots
from pbem.bots import card_good, card_value
from pbem.rng import Rng
from pbem.rules.base import Decision, Order, Ruleset, get_ruleset, shared_ranking
from pbem.rules.medici_ranking import paying_places, shared_places
from pbem.rules.medici_bot import _bid_range, medici_bot, medici_worth

GAMES = [("medici", 3, {"edition": "riogrande"}, "speed-3r"), ("medici", 3, {"edition": "amigo"}, "speed-3a"),
         ("medici", 4, {"edition": "amigo"}, "speed-4a"), ("medici", 5, {"edition": "riogrande"}, "speed-5r"),
         ("medici", 6, {"edition": "riogrande"}, "speed-6r"), ("medici", 6, {"edition": "amigo"}, "speed-6a")]


def positions(ruleset: str, players: int, options: dict[str, str], seed: str,
              by_bot: bool) -> Iterator[tuple[Ruleset, dict[str, Any], str, list[Any], Any]]:
    """Every decision of a whole game, played by the bots (from the full view) or by random legal
    orders: the ruleset, the state, who decides, his legal orders and the order he gives."""
    r = get_ruleset(ruleset)
    rng = Rng(seed)
    pick = random.Random(seed)
    state, _ = r.setup([f"p{i}" for i in range(players)], r.check_options(options), rng)
    while (d := r.decision(state)) is not None:
        p = d.players[0]
        legal = r.legal_orders(state, p)
        order = bots.choose(ruleset, r.view(state, p), p, legal) if by_bot else pick.choice(legal)
        yield r, state, p, legal, order
        r.apply(state, p, order, rng)


@pytest.mark.parametrize("ruleset,players,options,seed", GAMES)
@pytest.mark.parametrize("by_bot", [True, False])
def test_fast_paths_match_slow_paths(ruleset: str, players: int, options: dict[str, str], seed: str,
                                     by_bot: bool) -> None:
    fast_paths_match_slow_paths(ruleset, players, options, seed, by_bot)


def fast_paths_match_slow_paths(ruleset: str, players: int, options: dict[str, str], seed: str,
                                by_bot: bool) -> None:
    """At every decision of a whole game: the legal orders are the contract's, the bot's view is part
    of the full view and the bot chooses alike from both, and the decision is the same for a copy."""
    for n, (r, state, p, legal, order) in enumerate(positions(ruleset, players, options, seed, by_bot)):
        assert legal == Ruleset.legal_orders(r, state, p), (n, p)
        for other in state["players"]:
            if other != p:
                assert r.legal_orders(state, other) == [], (n, other)
        view, seen = r.view(state, p), r.bot_view(state, p)
        assert set(seen) <= set(view), (n, set(seen) - set(view))
        assert all(seen[k] == view[k] for k in seen), n
        mine = bots.choose(ruleset, seen, p, legal)
        assert mine == (order if by_bot else bots.choose(ruleset, view, p, legal)), (n, p)
        assert r.decision(copy.deepcopy(state)) == r.decision(state)


def test_legal_orders_are_fresh_each_time() -> None:
    legal_orders_are_fresh_each_time(GAMES[::3])


def legal_orders_are_fresh_each_time(games: list[tuple[str, int, dict[str, str], str]]) -> None:
    """Orders are kept in logs: two lists of legal orders never share an order."""
    for ruleset, players, options, seed in games:
        for _, (r, state, p, legal, _) in zip(range(40), positions(ruleset, players, options, seed, False)):
            again = r.legal_orders(state, p)
            assert again == legal
            assert not any(a is b for a, b in zip(again, legal) if isinstance(a, dict))


def test_paying_places_are_the_paying_rows_of_the_shared_ranking() -> None:
    pick = random.Random(7)
    for _ in range(3000):
        scores = {f"p{i}": pick.randint(0, 7) for i in range(pick.randint(1, 6))}
        payouts = pick.choice([[10, 5], [30, 15], [30, 20, 10, 10, 5], [0, 5], [10, 0, 3], [1]])
        assert paying_places(scores, payouts) == [r for r in shared_ranking(scores, payouts) if r["payout"]]
        assert shared_places(scores, tuple(payouts)) == shared_ranking(scores, payouts)


def plain_worth(view: dict[str, Any], me: str, lot: list[str]) -> float:
    """`medici_worth` reckoned plainly, player by player and good by good (as the bot first did)."""
    mine = next(p for p in view["players"] if p["name"] == me)
    scorings_left = 3 - view["day"] + 1
    worth = 1.4 * sum(card_value(c) for c in lot)
    counted: dict[str, int] = {}
    for good in [card_good(c) for c in lot if card_good(c) in view["goods"]]:
        counted[good] = counted.get(good, 0) + 1
        step = rival = 0
        for p in view["players"]:
            at = p["tracks"][good] + [card_good(c) for c in p["hold"]].count(good)
            if p is mine:
                step = min(7, at + counted[good])
            else:
                rival = max(rival, at)
        rival = min(7, rival)
        worth += 2.0
        if step > rival >= step - 1:
            worth += 6.0 * min(scorings_left, 2) / 2
        worth += 0.6 * view["bonus_fields"].get(str(step), 0) * scorings_left
    if mine["free"] - len(lot) == 0 and mine["free"] > 1:
        worth *= 0.85
    return worth


@pytest.mark.parametrize("ruleset,players,options,seed", GAMES)
def test_worth_is_the_plain_reckoning(ruleset: str, players: int, options: dict[str, str], seed: str) -> None:
    """The bot's worth of a lot, read in fewer steps, is the very float the plain reckoning gives, for
    every bidder and for every other player too."""
    for by_bot in (True, False):
        for n, (r, state, p, legal, _) in enumerate(positions(ruleset, players, options, seed, by_bot)):
            if state["phase"] != "bid":
                continue
            view = r.bot_view(state, p)
            for me in state["players"]:
                assert medici_worth(view, me, view["lot"]) == plain_worth(view, me, view["lot"]), (n, me)


def plain_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """The Medici bot's bid as it first read: the whole worth reckoned at every bid."""
    lowest, highest = plain_range(legal, "bid") or (0, -1)
    if highest < lowest:
        return "pass"
    worth = plain_worth(view, me, view["lot"])
    if view["to_bid"] == [me]:
        return {"bid": lowest} if lowest <= worth else "pass"
    aim = int(worth * (0.55 + 0.3 * bots.temperament(me)))
    if view["day"] == 3:
        aim = int(aim * 1.1)
    target = min(aim, highest)
    return {"bid": target} if target >= lowest else "pass"


@pytest.mark.parametrize("ruleset,players,options,seed", GAMES)
def test_bids_are_the_plain_bids(ruleset: str, players: int, options: dict[str, str], seed: str) -> None:
    """The bot skips reading the tracks when the least a lot can be worth already decides its bid: it
    bids as the plain reckoning does, at every bid and for narrower and wider ranges of bids too."""
    for by_bot in (True, False):
        for n, (r, state, p, legal, _) in enumerate(positions(ruleset, players, options, seed, by_bot)):
            if state["phase"] != "bid":
                continue
            view = r.bot_view(state, p)
            bids = legal[1:]
            ranges = [legal, ["pass"] + bids[:1], ["pass"] + bids[:4], ["pass"] + bids[len(bids) // 2:],
                      ["pass"] + [{"bid": a} for a in range(1, 80)], ["pass"] + [{"bid": a} for a in range(9, 12)]]
            for orders in ranges:
                assert medici_bot(view, p, orders) == plain_bot(view, p, orders), (n, orders[:3])
            last = dict(view, to_bid=[p])
            for orders in ranges:
                assert medici_bot(last, p, orders) == plain_bot(last, p, orders), (n, orders[:3])


def test_lot_may_grow_as_far_as_max_lot() -> None:
    lot_may_grow_as_far_as_max_lot(GAMES)


def lot_may_grow_as_far_as_max_lot(games: list[tuple[str, int, dict[str, str], str]]) -> None:
    """The quick look at whether the lot may grow gives what `max_lot` gives."""
    for ruleset, players, options, seed in games:
        for n, (r, state, p, _, _) in enumerate(positions(ruleset, players, options, seed, False)):
            if state["phase"] == "draw":
                assert r._lot_may_grow(state) == (len(state["lot"]) < r.max_lot(state)), n


def plain_range(legal: list[Order], key: str) -> tuple[int, int] | None:
    """The first and the last amount among the orders, found by reading them all."""
    amounts = [o[key] for o in legal if isinstance(o, dict)]
    return (amounts[0], amounts[-1]) if amounts else None


def test_bid_ranges_are_the_plain_ones() -> None:
    ranges_are_the_plain_ones("bid", "pass", _bid_range, GAMES, "bid")


def ranges_are_the_plain_ones(key: str, word: str, reader: Any, games: list[tuple[str, int, dict[str, str], str]],
                              phase: str) -> None:
    """The bots read the range of amounts (`bid`, `price`) at the ends of the engine's lists; any other
    list is read in full, with the same result: lists drawn at random, and those of `games` in `phase`."""
    pick = random.Random(13)
    for _ in range(3000):
        legal: list[Order] = [{key: n} for n in sorted(pick.sample(range(60), pick.randint(0, 5)))]
        for _ in range(pick.randint(0, 3)):
            legal.insert(pick.randint(0, len(legal)), pick.choice([word, "pass", "draw", "auction"]))
        if legal and (key == "bid" or plain_range(legal, key) is not None):
            assert reader(legal) == plain_range(legal, key), legal
    for ruleset, players, options, seed in games:
        for _, (r, state, p, legal, _) in zip(range(60), positions(ruleset, players, options, seed, False)):
            if state["phase"] == phase:
                assert reader(legal) == plain_range(legal, key)


@pytest.mark.parametrize("ruleset,players,options,seed", GAMES[::2])
def test_decisions_are_made_once(ruleset: str, players: int, options: dict[str, str], seed: str) -> None:
    decisions_are_made_once(ruleset, players, options, seed)


def decisions_are_made_once(ruleset: str, players: int, options: dict[str, str], seed: str) -> None:
    """Each player's decision of a kind is one object, the one a fresh `Decision` equals."""
    for _, (r, state, p, _, _) in zip(range(80), positions(ruleset, players, options, seed, False)):
        d = r.decision(state)
        assert d == Decision((p,), d.kind) and d is r.decision(copy.deepcopy(state))


# sha256 of whole games' transcripts, taken before the engines and bots were made faster: play must not
# change (independent engines are compared against these, decision by decision)
TRANSCRIPTS = [
    (("medici", 3, {"edition": "riogrande"}, "speed-3r"), True,
     "85b350ed2789f38f11ce95e6450a03f1e8642e2475023cd6c46e599ffaf4ed0e"),
    (("medici", 3, {"edition": "riogrande"}, "speed-3r"), False,
     "628ab2d632a6d02c268b3c7569e908f615ab9fdf3e1e17b4ebb6b4ac36e03088"),
    (("medici", 4, {"edition": "amigo"}, "speed-4a"), True,
     "2bce6478017b288c148e7543eb85da8b201f94e68e8ff474c64868ad9388399c"),
    (("medici", 4, {"edition": "amigo"}, "speed-4a"), False,
     "8a320c2ff7ce2c2e824d567b24f62e23d4208cef16f880367af58afa0d7a6368"),
    (("medici", 6, {"edition": "amigo"}, "speed-6a"), True,
     "95448a9816f7220f12d6ee5c2842c57f90810c638af6a9ab40cf26f16f12a934"),
    (("medici", 6, {"edition": "amigo"}, "speed-6a"), False,
     "ee06b23e390b0e963243e491cd8a4d03dc55d1ba4f99faeb2853b3bc7d6e4c1d"),
]


def transcript(ruleset: str, players: int, options: dict[str, str], seed: str, by_bot: bool) -> str:
    """The sha256 of a whole game: at every decision who decides, his legal orders, the order he gives
    (the bot's from its view, or a random one), the events, the state and the chance drawn so far."""
    r = get_ruleset(ruleset)
    rng = Rng(seed)
    pick = random.Random(seed)
    state, events = r.setup([f"p{i}" for i in range(players)], r.check_options(options), rng)
    digest = hashlib.sha256(json.dumps([events, state], sort_keys=True).encode())
    while (d := r.decision(state)) is not None:
        p = d.players[0]
        legal = r.legal_orders(state, p)
        order = bots.choose(ruleset, r.bot_view(state, p), p, legal) if by_bot else pick.choice(legal)
        events = r.apply(state, p, order, rng)
        digest.update(json.dumps([p, legal, order, events, state, rng.counter], sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.parametrize("game,by_bot,digest", TRANSCRIPTS)
def test_games_play_as_before(game: tuple[str, int, dict[str, str], str], by_bot: bool, digest: str) -> None:
    assert transcript(*game, by_bot) == digest
