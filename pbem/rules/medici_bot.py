"""The Medici bot: bids by what a lot is worth to it (hold value, tracks, bonus fields)."""

from __future__ import annotations

from functools import cache
from typing import Any

from pbem.bots import bot, card_good, card_value, temperament
from pbem.rules.base import Order


def medici_worth(view: dict[str, Any], me: str, lot: list[str]) -> float:
    """What a lot is worth to `me` in money: its share of the hold-value ranking, the steps it adds on
    the goods tracks (majorities and bonus fields, paid again on each day still to come)."""
    scorings_left = 3 - view["day"] + 1
    worth = 1.4 * sum(map(card_value, lot))
    goods = view["goods"]
    lot_goods = [good for good in map(card_good, lot) if good in goods]
    mine: dict[str, Any] = {}
    rivals: list[tuple[dict[str, int], list[str] | tuple[()]]] = []  # each rival's tracks and hold goods, read once
    for p in view["players"]:
        if p["name"] == me:
            mine = p
        elif lot_goods:
            hold = p["hold"]
            rivals.append((p["tracks"], list(map(card_good, hold)) if hold else ()))
    if lot_goods:
        bonus = view["bonus_fields"]  # keyed by the step as text
        lead = 6.0 * min(scorings_left, 2) / 2  # taking or breaking the lead in a good
        my_tracks, my_goods = mine["tracks"], list(map(card_good, mine["hold"]))
        counted: dict[str, int] = {}
        best: dict[str, int] = {}  # the best placed rival's step in each good (no track stands below 0)
        for good in lot_goods:
            counted[good] = more = counted.get(good, 0) + 1
            step = min(7, my_tracks[good] + my_goods.count(good) + more)
            rival = best.get(good)
            if rival is None:
                rival = 0
                for tracks, held in rivals:
                    at = tracks[good] + held.count(good)
                    if at > rival:
                        rival = at
                rival = best[good] = min(7, rival)
            worth += 2.0
            if step > rival >= step - 1:
                worth += lead
            worth += 0.6 * bonus.get(str(step), 0) * scorings_left
    free = mine["free"]
    if free - len(lot) == 0 and free > 1:
        worth *= 0.85  # filling up early ends my day
    return worth


def _bid_range(legal: list[Order]) -> tuple[int, int] | None:
    """The lowest and the highest legal bid (they come in rising order); None when he may only pass."""
    if legal[0] == "pass" and len(legal) > 1 and isinstance(legal[1], dict) and isinstance(legal[-1], dict):
        return legal[1]["bid"], legal[-1]["bid"]  # the engine's list: pass, then the bids
    bids = (o["bid"] for o in legal if isinstance(o, dict))
    lowest = next(bids, None)
    if lowest is None:
        return None
    return lowest, next(o["bid"] for o in reversed(legal) if isinstance(o, dict))


#: a bot's temperament, looked up once per player (it is asked at every decision)
_mood = cache(temperament)


@bot("medici")
def medici_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    lot = view["lot"]
    if legal[0] in ("draw", "auction"):  # the auctioneer's choice (a bidder's orders start with pass)
        if "draw" not in legal:
            return "auction"
        value = sum(map(card_value, lot))
        # a timid auctioneer sells small lots; a bold one gambles on more cards
        threshold = 5 + 6 * _mood(me)
        return "draw" if value < threshold and len(lot) < 3 else "auction"
    bids = _bid_range(legal)
    if bids is None:
        return "pass"
    lowest, highest = bids
    worth = medici_worth(view, me, lot)
    to_bid = view["to_bid"]
    if len(to_bid) == 1 and to_bid[0] == me:
        # the last bidder needs only to beat the high bid by one
        return {"bid": lowest} if lowest <= worth else "pass"
    aim = int(worth * (0.55 + 0.3 * _mood(me)))
    if view["day"] == 3:
        aim = int(aim * 1.1)
    target = min(aim, highest)
    return {"bid": target} if target >= lowest else "pass"


# -- Medici vs Strozzi ---------------------------------------------------------------------------------
