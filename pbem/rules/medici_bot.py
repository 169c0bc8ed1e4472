"""The Medici bot: bids by what a lot is worth to it (hold value, tracks, bonus fields)."""

from __future__ import annotations

from functools import cache
from operator import countOf
from typing import Any

from pbem.bots import bot, card_good, card_value, temperament
from pbem.rules.base import Order

#: each step of a goods track as the view's bonus fields name it
_STEP_TEXT = {step: str(step) for step in range(8)}


def _lot_base(view: dict[str, Any], lot: list[str]) -> tuple[float, list[str]]:
    """The lot's hold value as the worth counts it (1.4 a point), and its goods that have a track."""
    goods = view["goods"]
    return 1.4 * sum(map(card_value, lot)), [good for good in map(card_good, lot) if good in goods]


def medici_worth(view: dict[str, Any], me: str, lot: list[str]) -> float:
    """What a lot is worth to `me` in money: its share of the hold-value ranking, the steps it adds on
    the goods tracks (majorities and bonus fields, paid again on each day still to come)."""
    return _worth(view, me, lot, *_lot_base(view, lot))


def _worth(view: dict[str, Any], me: str, lot: list[str], worth: float, lot_goods: list[str]) -> float:
    """`medici_worth`, from the lot's hold value and goods (`_lot_base`): the worth goes on from `worth`."""
    players = view["players"]
    for mine in players:
        if mine["name"] == me:
            break
    if lot_goods:
        scorings_left = 3 - view["day"] + 1
        bonus = view["bonus_fields"]  # keyed by the step as text
        lead = 6.0 * min(scorings_left, 2) / 2  # taking or breaking the lead in a good
        my_tracks, my_goods = mine["tracks"], list(map(card_good, mine["hold"]))
        counted: dict[str, int] = {}
        for good in lot_goods:
            counted[good] = more = counted.get(good, 0) + 1
            step = my_tracks[good] + my_goods.count(good) + more
            if step > 7:
                step = 7
            worth += 2.0
            # the lead is taken or broken when the best placed rival (counting his hold) stands one
            # below: a rival's hold is read only when it could lift him that far
            below, best = step - 1, 0  # no track stands below 0
            for p in players:
                if p is not mine:
                    at = p["tracks"][good]
                    if at >= step:
                        break
                    hold = p["hold"]
                    if hold and at + len(hold) >= below:
                        at += countOf(map(card_good, hold), good)
                        if at >= step:
                            break
                    if at > best:
                        best = at
            else:
                if best == below:
                    worth += lead
            pay = bonus.get(_STEP_TEXT[step], 0)  # steps run 1-7 here: tracks start at 0
            if pay:  # adding 0.0 would leave the worth as it is
                worth += 0.6 * pay * scorings_left
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


def _aim(worth: float, me: str, day: int) -> int:
    """What a bidder before the last offers for a lot of that worth, at most."""
    aim = int(worth * (0.55 + 0.3 * _mood(me)))
    return int(aim * 1.1) if day == 3 else aim


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
    base, lot_goods = _lot_base(view, lot)
    # the worth is at least the hold value and 2 a good, less the filling-up cut: its other parts only
    # add (and a float sum never shrinks by adding). When that floor already decides the bid, the
    # tracks need not be read.
    floor = base
    for _ in lot_goods:
        floor += 2.0
    floor *= 0.85
    to_bid, day = view["to_bid"], view["day"]
    if len(to_bid) == 1 and to_bid[0] == me:
        # the last bidder needs only to beat the high bid by one
        if lowest <= floor or lowest <= _worth(view, me, lot, base, lot_goods):
            return {"bid": lowest}
        return "pass"
    if _aim(floor, me, day) >= highest:
        return {"bid": highest}
    target = min(_aim(_worth(view, me, lot, base, lot_goods), me, day), highest)
    return {"bid": target} if target >= lowest else "pass"


# -- Medici vs Strozzi ---------------------------------------------------------------------------------
