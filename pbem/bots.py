"""Bots: each picks a legal order from a player's view alone (never the hidden state).

They are deterministic (the same view gives the same order) and have a temperament drawn from a
hash of the player's name, so a table of bots does not play in lockstep.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from typing import Any, Callable

from pbem import digests
from pbem.rules.base import KNOWN, Order

BotFn = Callable[[dict[str, Any], str, list[Order]], Order]
BOTS: dict[str, BotFn] = {}


def bot(ruleset: str) -> Callable[[BotFn], BotFn]:
    def register(fn: BotFn) -> BotFn:
        BOTS[ruleset] = fn
        return fn
    return register


def bot_module(ruleset: str) -> str:
    """Where a game's bot lives: beside its rules (`pbem/rules/<game>_bot.py`, or `bot.py` in a game
    that is a package), imported when a game of it first needs a bot."""
    module = KNOWN[ruleset]
    spec = importlib.util.find_spec(module)
    return f"{module}.bot" if spec is not None and spec.submodule_search_locations else f"{module}_bot"


def choose(ruleset: str, view: dict[str, Any], player: str, legal: list[Order]) -> Order:
    """The bot's order for `player`, one of `legal`."""
    if not legal:
        raise ValueError(f"{player} has no legal order")
    if ruleset not in BOTS:
        importlib.import_module(bot_module(ruleset))
    order = BOTS[ruleset](view, player, legal)
    assert order in legal, (order, legal)
    return order


def temperament(player: str, *salt: object) -> float:
    """A number in [0, 1) fixed by the player's name (and any salt)."""
    return _temperament("|".join([player, *map(str, salt)]))


@cache
def _temperament(key: str) -> float:
    """Hashed once per player: a bot asks at every decision."""
    digest = digests.sha256(key.encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32


# -- helpers the card games' bots share -------------------------------------------------------------

@cache
def card_value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


@cache
def card_good(card: str) -> str:
    return card.rsplit("-", 1)[0]
