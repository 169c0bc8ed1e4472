"""Medici standing orders and premoves, clause by clause: a game, the standing orders or
orders sent ahead, and what the pipeline plays for the players until a decision needs one of them.

The clauses, from the issue:
- `max_bid: N`: for the lot now up for auction (or, when none is, the next one put up): when his bid
  comes, he bids the lowest legal amount if it is at most N, otherwise passes. It ends with that auction.
- `draw_until: N` (1-3): as auctioneer he draws until the lot holds N cards or no more may be drawn,
  then puts it up for auction. It lasts until replaced.
- `pass: day`: he passes every bid for the rest of the current day.
- `turn: next`: these orders answer his next decision, whenever it comes; applied then if legal,
  dropped (and he is told) if not; a later turn file replaces them.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from helpers import of_type
from pbem.errors import IllegalOrder
from pbem.game import NEXT, new_game, play_queue, replay, set_standing, verify, waiting_for
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir, check_state

R = get_ruleset("medici")
PLAYERS = [("anna", "anna@example.org"), ("ben", "ben@example.org"), ("cleo", "cleo@example.org")]
# day 1, top of the bag first: the first lots are known
DAY1 = ["dyes-5", "gold-10", "spices-0", "furs-3", "grain-2", "linen-4", "dyes-1", "furs-1"]


def game(tmp_path: Path, days: list[list[str]] | None = None) -> dict[str, Any]:
    state, _ = new_game(GamesDir(tmp_path), "medici", "m1", PLAYERS, {}, "standing-orders-seed",
                        R.check_deck({"days": days or [DAY1]}, [n for n, _ in PLAYERS], {"edition": "riogrande"}))
    return state


def standing(player: str, *entries: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return f"standing-{player}", {"player": player, "turn": None, "standing": list(entries)}


def ahead(player: str, *orders: Any) -> tuple[str, dict[str, Any]]:
    return f"ahead-{player}", {"player": player, "turn": NEXT, "orders": list(orders)}


def dated(state: dict[str, Any], *orders: Any) -> tuple[str, dict[str, Any]]:
    player = waiting_for(state)[0]
    return f"turn-{state['engine']['turn']}", {"player": player, "turn": state["engine"]["turn"], "orders": list(orders)}


def run(state: dict[str, Any], *queue: tuple[str, dict[str, Any]]) -> tuple[dict[str, Any], Any, list[str]]:
    new, results, auto = play_queue(state, list(queue))
    check_state(new, "m1")
    assert verify(new) == []  # standing orders and premoves are logged: the game replays
    return new, {r.key: r for r in results}, auto


def seats(state: dict[str, Any]) -> list[str]:
    """The auctioneer first, then the others in bidding order."""
    first = waiting_for(state)[0]
    names = [n for n, _ in PLAYERS]
    i = names.index(first)
    return names[i:] + names[:i]


def test_draw_until_draws_then_opens_the_auction(tmp_path: Path) -> None:
    """draw_until: N: as auctioneer he draws until the lot holds N cards, then puts it up."""
    state = game(tmp_path)
    a, b, c = seats(state)
    state, results, auto = run(state, standing(a, {"draw_until": 3}))
    assert auto == [f"{a} draw (by standing order)", f"{a} draw (by standing order)"]
    assert state["engine"]["lot"] == DAY1[:3] and state["engine"]["phase"] == "bid"
    assert of_type(state["events"], "auction_opens")[-1]["forced"] is True  # three cards: no more may be drawn
    assert waiting_for(state) == [b]
    assert state["standing"] == {a: [{"draw_until": 3}]}  # it lasts until replaced
    assert [e["by"] for e in state["log"]] == ["standing", "standing"]


def test_draw_until_one_opens_at_once(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, auto = run(state, standing(a, {"draw_until": 1}))
    assert auto == [f"{a} auction (by standing order)"]
    assert state["engine"]["lot"] == DAY1[:1]


def test_max_bid_bids_the_lowest_legal_amount(tmp_path: Path) -> None:
    """max_bid: N: when his bid comes, the lowest legal amount if it is at most N."""
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, auto = run(state, dated(state, "auction"), standing(b, {"max_bid": 9}), standing(c, {"max_bid": 9}))
    assert auto == [f"{b} bid: 1 (by standing order)", f"{c} bid: 2 (by standing order)"]
    assert waiting_for(state) == [a]
    # it was for that auction: spent once the auction is over
    state, _, auto = run(state, dated(state, "pass"))
    assert of_type(state["events"], "sold")[-1] == {"type": "sold", "player": c, "price": 2, "lot": DAY1[:1],
                                                     "auctioneer": a, "turn": 4}
    assert "standing" not in state


def test_max_bid_passes_above_its_limit(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, auto = run(state, dated(state, "auction"), dated_for(b, 2), standing(c, {"max_bid": 2}))
    assert auto == [f"{c} pass (by standing order)"]


def dated_for(player: str, amount: int) -> tuple[str, dict[str, Any]]:
    return f"bid-{player}", {"player": player, "turn": 2, "orders": [{"bid": amount}]}


def test_max_bid_given_between_auctions_waits_for_the_next_lot(tmp_path: Path) -> None:
    """...or, when none is up for auction, the next one put up."""
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, auto = run(state, standing(b, {"max_bid": 4}))
    assert auto == [] and state["standing"] == {b: [{"max_bid": 4}]}  # not bound yet: no auction runs
    state, _, auto = run(state, dated(state, "draw"), )
    assert auto == []
    state, _, auto = run(state, dated(state, "auction"))
    assert auto == [f"{b} bid: 1 (by standing order)"]


def test_max_bid_given_after_his_bid_is_for_the_next_auction(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, _ = run(state, dated(state, "auction"), dated_for(b, 1))
    state, _, auto = run(state, standing(b, {"max_bid": 3}))
    assert auto == [] and state["standing"] == {b: [{"max_bid": 3}]}  # still unbound: he has bid in this one


def test_pass_day_passes_every_bid_of_the_day(tmp_path: Path) -> None:
    """pass: day: he passes every bid for the rest of the current day."""
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, auto = run(state, standing(c, {"pass": "day"}), dated(state, "auction"), dated_for(b, 1))
    assert auto == [f"{c} pass (by standing order)"]
    assert state["standing"] == {c: [{"pass": "day", "day": 1}]}
    assert waiting_for(state) == [a]


def test_pass_day_ends_with_the_day(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, _ = run(state, standing(c, {"pass": "day"}))
    engine = state["engine"]
    engine["day"] = 2  # as if the day had ended
    from pbem.game import _refresh_standing
    _refresh_standing(R, state)
    assert "standing" not in state


def test_pass_day_does_not_answer_the_auctioneers_draw(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, auto = run(state, standing(a, {"pass": "day"}))
    assert auto == [] and waiting_for(state) == [a]


def test_max_bid_wins_over_pass_day_for_its_lot(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, auto = run(state, dated(state, "auction"), standing(b, {"pass": "day"}, {"max_bid": 5}))
    assert auto[0] == f"{b} bid: 1 (by standing order)"


def test_an_empty_list_clears_standing_orders(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, _, _ = run(state, standing(b, {"pass": "day"}))
    assert state["standing"] == {b: [{"pass": "day", "day": 1}]}
    state, _, _ = run(state, standing(b))
    assert "standing" not in state


def test_the_same_kind_twice_is_refused(tmp_path: Path) -> None:
    state = game(tmp_path)
    with pytest.raises(IllegalOrder) as info:
        set_standing(state, "anna", [{"max_bid": 3}, {"max_bid": 5}])
    assert str(info.value) == "standing orders: the standing order 'max_bid' is given 2 times; keep one"


def test_standing_orders_of_all_players_play_a_whole_day(tmp_path: Path) -> None:
    """Everyone with standing orders: the pipeline plays until a decision needs someone."""
    state = game(tmp_path)
    queue = [standing(n, {"draw_until": 2}, {"pass": "day"}) for n, _ in PLAYERS]
    state, _, auto = run(state, *queue)
    assert state["engine"]["day"] == 2 and len(auto) > 10  # every lot went unsold; day 2 began
    assert {n for n, _ in PLAYERS} == {e["player"] for e in state["log"]}
    assert all(e["by"] == "standing" for e in state["log"])
    assert replay(state)["engine"] == state["engine"]


# -- premoves ---------------------------------------------------------------------------------------

def test_a_premove_waits_for_his_decision(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, results, auto = run(state, ahead(c, {"bid": 3}))
    assert results["ahead-" + c].outcome == "held" and auto == []
    state, results, auto = run(state, ahead(c, {"bid": 3}), dated(state, "auction"), dated_for(b, 1))
    assert results["ahead-" + c].outcome == "applied"
    assert auto == [f"{c} bid: 3 (sent ahead)"]
    assert state["log"][-1]["by"] == "premove"


def test_a_premove_that_is_illegal_when_its_time_comes_is_dropped(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, results, auto = run(state, ahead(c, {"bid": 3}), dated(state, "auction"), dated_for(b, 5))
    assert results["ahead-" + c].outcome == "dropped"
    assert results["ahead-" + c].message == "order 'bid: 3': bid 3 is not higher than the high bid of 5 by " + b
    assert waiting_for(state) == [c] and auto == []


def test_a_later_turn_file_replaces_a_premove(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, results, auto = run(state, ahead(a, "draw"), dated(state, "auction"))
    assert results["ahead-" + a].outcome == "replaced"
    assert state["engine"]["phase"] == "bid"


def test_a_premove_of_the_player_to_move_applies_at_once(tmp_path: Path) -> None:
    state = game(tmp_path)
    a, b, c = seats(state)
    state, results, auto = run(state, ahead(a, "draw", "auction"))
    assert results["ahead-" + a].outcome == "applied"
    assert state["engine"]["lot"] == DAY1[:2] and state["engine"]["phase"] == "bid"
