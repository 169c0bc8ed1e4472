"""The Medici vs Strozzi bot: prices and buys by what a lot is worth toward a harbour."""

from __future__ import annotations

from functools import cache
from typing import Any

from pbem.bots import bot, card_good, card_value, temperament
from pbem.rules.base import Order


def _worths(view: dict[str, Any], lot: list[str]) -> tuple[float, float]:
    """A lot's worth to the Medici and to the Strozzi: its value toward a harbour win and the markers its
    tiles pull (reckoned together: the bot weighs a lot for both families at every price and answer)."""
    if not lot:
        return 0.0, 0.0
    medici = strozzi = 2.0 * sum(map(card_value, lot))
    harbours, markers = view["harbours"].items(), view["markers"]
    for tile in lot:
        good = card_good(tile)
        pull = 2 if card_value(tile) == 0 else 1
        gain = 4.0 * pull
        for harbour, goods in harbours:
            if good in goods:
                pos = markers[harbour][good]  # toward the Medici; the Strozzi see it the other way
                if pos <= 0 < pos + pull or 0 <= pos < 3:
                    medici += gain
                pos = -pos
                if pos <= 0 < pos + pull or 0 <= pos < 3:
                    strozzi += gain
    return medici / 2, strozzi / 2


def _best_load(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    loads = [o for o in legal if isinstance(o, dict)]
    if not loads:
        return "discard"
    for mine in view["players"]:
        if mine["name"] == me:
            break
    lot = view["lot"]
    lot_goods = set(map(card_good, lot))
    # how many goods of the lot each harbour trades; each ship's harbour, value and room after loading
    fit = {h: len(lot_goods.intersection(goods)) for h, goods in view["harbours"].items()}
    ships = {s["capacity"]: (s["harbour"], s["value"] / 5, abs(s["capacity"] - len(s["cargo"]) - len(lot) - 1) * 0.5)
             for s in mine["ships"]}
    best: Order = loads[0]
    best_score: tuple[float, int] | None = None
    for o in loads:  # the first of the best, as max() picks
        harbour, value, cramped = ships[o["load"]]
        score = (fit[harbour or o.get("harbour")] * 3 + value - cramped, -o["load"])
        if best_score is None or score > best_score:
            best, best_score = o, score
    return best


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


@bot("medici-strozzi")
def strozzi_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    mood = _mood(me)
    phase = view["phase"]
    if phase == "draw":
        if view["lot_value"] < 3 + 3 * mood and len(view["lot"]) < 3 and legal[0] == "draw":  # draw comes first
            return "draw"
        lowest, highest = _price_range(legal)
        medici, strozzi = _worths(view, view["lot"])
        mine, theirs = (medici, strozzi) if me == view["medici"] else (strozzi, medici)
        # if the rival declines, the drawer pays his own price: never ask much more than the lot is
        # worth to oneself
        ask = int(min(theirs * (0.9 + 0.3 * mood), mine * 1.2 + 2))
        return {"price": max(lowest, min(ask, highest))}
    if phase == "answer":
        # declining hands the lot to the rival: what it is worth to him counts too
        medici, strozzi = _worths(view, view["lot"])
        worth = ((medici if me == view["medici"] else strozzi)
                 + 0.5 * (medici if view["drawer"] == view["medici"] else strozzi))
        return "buy" if worth >= view["price"] else "decline"
    return _best_load(view, me, legal)


# -- Medina ---------------------------------------------------------------------------------------------
