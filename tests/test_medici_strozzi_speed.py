"""Medici vs Strozzi's fast paths give what the slow ones give (the checks of the Medici family's engines,
tests/test_medici_speed.py, over this game's tables), and its bot's worth of a lot, its load and its
reading of the range of prices are what the plain reckoning gives; whole seeded games play out exactly
as they did before the engine was made faster. Behaviour only: nothing here is timed."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.bots import card_good, card_value
from pbem.rules.base import Order
from pbem.rules.medici_strozzi_bot import _best_load, _price_range, _worths
from test_medici_speed import (decisions_are_made_once, fast_paths_match_slow_paths, legal_orders_are_fresh_each_time,
                               lot_may_grow_as_far_as_max_lot, positions, ranges_are_the_plain_ones, transcript)

GAMES = [("medici-strozzi", 2, {}, "speed-s1"), ("medici-strozzi", 2, {}, "speed-s2")]


@pytest.mark.parametrize("ruleset,players,options,seed", GAMES)
@pytest.mark.parametrize("by_bot", [True, False])
def test_fast_paths_match_slow_paths(ruleset: str, players: int, options: dict[str, str], seed: str,
                                     by_bot: bool) -> None:
    fast_paths_match_slow_paths(ruleset, players, options, seed, by_bot)


def test_legal_orders_are_fresh_each_time() -> None:
    legal_orders_are_fresh_each_time(GAMES[::3])


def plain_strozzi_worth(view: dict[str, Any], me: str, lot: list[str]) -> float:
    """A lot's worth to one family, reckoned alone (as the bot first did)."""
    if not lot:
        return 0.0
    worth = 2.0 * sum(card_value(t) for t in lot)
    sign = 1 if me == view["medici"] else -1
    for tile in lot:
        pull = 2 if card_value(tile) == 0 else 1
        for harbour, goods in view["harbours"].items():
            if card_good(tile) in goods:
                pos = view["markers"][harbour][card_good(tile)] * sign
                if pos <= 0 < pos + pull or 0 <= pos < 3:
                    worth += 4.0 * pull
    return worth / 2


def plain_best_load(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """The Strozzi bot's load, the best by `max` (the first of the best)."""
    loads = [o for o in legal if isinstance(o, dict)]
    if not loads:
        return "discard"
    mine = next(p for p in view["players"] if p["name"] == me)
    lot = view["lot"]
    fit = {h: sum(1 for g in {card_good(t) for t in lot} if g in goods) for h, goods in view["harbours"].items()}
    ships = {s["capacity"]: s for s in mine["ships"]}

    def score(o: dict[str, Any]) -> tuple[float, int]:
        s = ships[o["load"]]
        cramped = abs(s["capacity"] - len(s["cargo"]) - len(lot) - 1) * 0.5
        return (fit[s["harbour"] or o.get("harbour")] * 3 + s["value"] / 5 - cramped, -o["load"])
    return max(loads, key=score)


@pytest.mark.parametrize("seed", ["speed-s1", "speed-s2", "speed-s3"])
def test_strozzi_bot_reckons_as_the_plain_one(seed: str) -> None:
    """Both families' worth of a lot, reckoned together, is what each reckoned alone gives; the load is
    the one `max` picks."""
    for by_bot in (True, False):
        for n, (r, state, p, legal, _) in enumerate(positions("medici-strozzi", 2, {}, seed, by_bot)):
            view = r.bot_view(state, p)
            medici, strozzi = state["players"]
            for lot in (view["lot"], view["lot"][:1], []):
                assert _worths(view, lot) == (plain_strozzi_worth(view, medici, lot),
                                              plain_strozzi_worth(view, strozzi, lot)), n
            if state["phase"] == "load":
                assert _best_load(view, p, legal) == plain_best_load(view, p, legal), n


def test_lot_may_grow_as_far_as_max_lot() -> None:
    lot_may_grow_as_far_as_max_lot(GAMES)


def test_price_ranges_are_the_plain_ones() -> None:
    ranges_are_the_plain_ones("price", "draw", _price_range, GAMES, "draw")


@pytest.mark.parametrize("ruleset,players,options,seed", GAMES[::2])
def test_decisions_are_made_once(ruleset: str, players: int, options: dict[str, str], seed: str) -> None:
    decisions_are_made_once(ruleset, players, options, seed)


# sha256 of whole games' transcripts, taken before the engine and its bot were made faster: play must not
# change
TRANSCRIPTS = [
    (("medici-strozzi", 2, {}, "speed-s1"), True,
     "4c3d3cabc86b60674a119ba31b0a576f08013fd53b6c96b1e21a8be7b6af8784"),
    (("medici-strozzi", 2, {}, "speed-s1"), False,
     "9d3ca46e42a70bf1a88b73f5bdd34ee19638465625eb2bae8751942e2293a7c1"),
]


@pytest.mark.parametrize("game,by_bot,digest", TRANSCRIPTS)
def test_games_play_as_before(game: tuple[str, int, dict[str, str], str], by_bot: bool, digest: str) -> None:
    assert transcript(*game, by_bot) == digest
