"""The Medici vs Strozzi bot: prices and buys by what a lot is worth toward a harbour."""

from __future__ import annotations

from functools import cache
from typing import Any

from pbem.bots import bot, card_good, card_value, temperament
from pbem.rules.base import Order


def _strozzi_worth(view: dict[str, Any], me: str, lot: list[str]) -> float:
    """A lot's worth to `me`: its value toward a harbour win and the markers its tiles pull."""
    if not lot:
        return 0.0
    worth = 2.0 * sum(map(card_value, lot))
    sign = 1 if me == view["medici"] else -1
    harbours, markers = view["harbours"].items(), view["markers"]
    for tile in lot:
        good = card_good(tile)
        pull = 2 if card_value(tile) == 0 else 1
        for harbour, goods in harbours:
            if good in goods:
                pos = markers[harbour][good] * sign
                if pos <= 0 < pos + pull or 0 <= pos < 3:
                    worth += 4.0 * pull
    return worth / 2


def _best_load(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    loads = [o for o in legal if isinstance(o, dict)]
    if not loads:
        return "discard"
    mine = next(p for p in view["players"] if p["name"] == me)
    lot = view["lot"]
    lot_goods = {card_good(t) for t in lot}
    # how many goods of the lot each harbour trades; each ship's harbour, value and room after loading
    fit = {h: sum(1 for g in lot_goods if g in goods) for h, goods in view["harbours"].items()}
    ships = {s["capacity"]: (s["harbour"], s["value"] / 5, abs(s["capacity"] - len(s["cargo"]) - len(lot) - 1) * 0.5)
             for s in mine["ships"]}

    def score(o: dict[str, Any]) -> tuple[float, int]:
        harbour, value, cramped = ships[o["load"]]
        return (fit[harbour or o.get("harbour")] * 3 + value - cramped, -o["load"])
    return max(loads, key=score)


def _price_range(legal: list[Order]) -> tuple[int, int]:
    """The first and the last price among the legal orders (they come in rising order)."""
    first = legal[1] if legal[0] == "draw" and len(legal) > 1 else legal[0]  # draw if he may, then the prices
    if isinstance(first, dict) and isinstance(legal[-1], dict):
        return first["price"], legal[-1]["price"]
    prices = (o["price"] for o in legal if isinstance(o, dict))
    last = (o["price"] for o in reversed(legal) if isinstance(o, dict))
    return next(prices), next(last)


#: a bot's temperament, looked up once per player (it is asked at every decision)
_mood = cache(temperament)


def _rival(view: dict[str, Any], me: str) -> str:
    return view["strozzi"] if me == view["medici"] else view["medici"]


@bot("medici-strozzi")
def strozzi_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    mood = _mood(me)
    phase = view["phase"]
    if phase == "draw":
        if view["lot_value"] < 3 + 3 * mood and len(view["lot"]) < 3 and legal[0] == "draw":  # draw comes first
            return "draw"
        lowest, highest = _price_range(legal)
        # if the rival declines, the drawer pays his own price: never ask much more than the lot is
        # worth to oneself
        ask = int(min(_strozzi_worth(view, _rival(view, me), view["lot"]) * (0.9 + 0.3 * mood),
                      _strozzi_worth(view, me, view["lot"]) * 1.2 + 2))
        return {"price": max(lowest, min(ask, highest))}
    if phase == "answer":
        # declining hands the lot to the rival: what it is worth to him counts too
        worth = _strozzi_worth(view, me, view["lot"]) + 0.5 * _strozzi_worth(view, view["drawer"], view["lot"])
        return "buy" if worth >= view["price"] else "decline"
    return _best_load(view, me, legal)


# -- Medina ---------------------------------------------------------------------------------------------
