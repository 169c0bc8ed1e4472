"""Goofspiel's bot: bids a card near the prize's worth, from its own view alone."""

from __future__ import annotations

from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order


@bot("goofspiel")
def choose(view: dict[str, Any], player: str, legal: list[Order]) -> Order:
    """The card of the hand closest to the prize scaled to the hand's range, leaning by temperament."""
    cards = sorted(o["bid"] for o in legal if isinstance(o, dict))
    lean = temperament(player, "goofspiel") - 0.5
    want = view["prize"] * max(cards) / max(view["rounds"], 1) + lean * 2
    card = min(cards, key=lambda c: (abs(c - want), c))
    return {"bid": card}
