"""Whist's bot: it leads its longest suit from the top, wins a trick as cheaply as it can, and throws
its lowest card when it cannot."""

from __future__ import annotations

from typing import Any

from pbem.bots import bot

from . import rank, suit, trick_taker


@bot("whist")
def choose(view: dict[str, Any], player: str, legal: list[Any]) -> Any:
    """One of `legal`, from `player`'s view alone."""
    cards = [o["play"] for o in legal]
    trump, trick = view["trump"], view["trick"]
    if not trick:
        length = {s: sum(1 for c in view["hand"] if suit(c) == s) for s in {suit(c) for c in cards}}
        best = max(cards, key=lambda c: (suit(c) != trump, length[suit(c)], rank(c), c))
        return {"play": best}
    winning = [c for c in cards if trick_taker([*trick, [player, c]], trump) == player]
    if winning:
        return {"play": min(winning, key=lambda c: (suit(c) == trump, rank(c), c))}
    return {"play": min(cards, key=lambda c: (suit(c) == trump, rank(c), c))}
