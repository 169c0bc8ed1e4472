"""The Medici bot: bids by what a lot is worth to it (hold value, tracks, bonus fields)."""

from __future__ import annotations

from typing import Any

from pbem.bots import bot, card_good, card_value, temperament
from pbem.rules.base import Order


def medici_worth(view: dict[str, Any], me: str, lot: list[str]) -> float:
    """What a lot is worth to `me` in money: its share of the hold-value ranking, the steps it adds on
    the goods tracks (majorities and bonus fields, paid again on each day still to come)."""
    mine: dict[str, Any] = {}
    holds: list[tuple[dict[str, Any], list[str]]] = []  # each player and the goods in his hold, read once
    for p in view["players"]:
        if p["name"] == me:
            mine = p
        holds.append((p, list(map(card_good, p["hold"]))))
    scorings_left = 3 - view["day"] + 1
    worth = 1.4 * sum(map(card_value, lot))
    lot_goods = [good for good in map(card_good, lot) if good in view["goods"]]
    if lot_goods:
        counted: dict[str, int] = {}
        bonus = view["bonus_fields"]  # keyed by the step as text
        for good in lot_goods:
            counted[good] = counted.get(good, 0) + 1
            step = rival = 0  # mine and the best placed rival's in this good (no track stands below 0)
            for p, held in holds:
                at = p["tracks"][good] + held.count(good)
                if p is mine:
                    step = min(7, at + counted[good])
                elif at > rival:
                    rival = at
            rival = min(7, rival)
            worth += 2.0
            if step > rival >= step - 1:
                worth += 6.0 * min(scorings_left, 2) / 2  # taking or breaking the lead in this good
            worth += 0.6 * bonus.get(str(step), 0) * scorings_left
    room_after = mine["free"] - len(lot)
    if room_after == 0 and mine["free"] > 1:
        worth *= 0.85  # filling up early ends my day
    return worth


def _bid_range(legal: list[Order]) -> tuple[int, int] | None:
    """The lowest and the highest legal bid (they come in rising order); None when he may only pass."""
    bids = (o["bid"] for o in legal if isinstance(o, dict))
    lowest = next(bids, None)
    if lowest is None:
        return None
    return lowest, next(o["bid"] for o in reversed(legal) if isinstance(o, dict))


@bot("medici")
def medici_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    lot = view["lot"]
    if legal[0] in ("draw", "auction"):  # the auctioneer's choice (a bidder's orders start with pass)
        if "draw" not in legal:
            return "auction"
        value = sum(map(card_value, lot))
        # a timid auctioneer sells small lots; a bold one gambles on more cards
        threshold = 5 + 6 * temperament(me)
        return "draw" if value < threshold and len(lot) < 3 else "auction"
    bids = _bid_range(legal)
    if bids is None:
        return "pass"
    lowest, highest = bids
    worth = medici_worth(view, me, lot)
    last = view["to_bid"] == [me]
    if last:
        # the last bidder needs only to beat the high bid by one
        return {"bid": lowest} if lowest <= worth else "pass"
    aim = int(worth * (0.55 + 0.3 * temperament(me)))
    if view["day"] == 3:
        aim = int(aim * 1.1)
    target = min(aim, highest)
    return {"bid": target} if target >= lowest else "pass"


# -- Medici vs Strozzi ---------------------------------------------------------------------------------
