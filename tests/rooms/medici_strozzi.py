"""Medici vs Strozzi as the cross-game tests meet it (tests/rooms/__init__.py says what a room is)."""

from __future__ import annotations

import random
from typing import Any

PLAYERS = ("anna", "ben")
TABLES: list[tuple[int, dict[str, Any]]] = [(2, {})]

EXAMPLE_ORDER = "price: 3"
ILLEGAL = "price: 999"
STANDING: list[dict[str, Any]] = [{"buy_up_to": 4}, {"load": 2}, {"load": 1, "harbour": "B"}]
AHEAD: list[Any] = ["decline", "buy", "draw"]
DECKS: list[dict[str, Any]] = [{"rounds": [["silk-3", "gold-0"]]}]
BOARD_ENGLISH = ["money"]
SOURCES = ["templates/medici-strozzi", "pbem/rules/medici_strozzi.py", "pbem/rules/medici_strozzi_bot.py",
           "pbem/rules/medici_strozzi_refusals.py"]
LISTED = "Medici vs Strozzi, 2 players (no options)"  # a fixed count, no range

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["draw", "discard", "pass", {"price": 3}, {"price": 99}, {"load": 9}, {"load": 1},
                    {"load": 5, "harbour": "Z"}, {"bid": 3}]
RANDOM_DECISIONS = 400

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [(2, {}, "width-strozzi", 1)]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(2, {}, "width-long-strozzi", 7)]


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """Some standing orders a merchant might give now."""
    pool = [{"buy_up_to": rnd.randint(0, 30)}, {"load": rnd.choice([3, 4, 5]), "harbour": rnd.choice("ABC")}]
    return rnd.sample(pool, rnd.randint(0, len(pool)))


HIDES = True  # the bag's cards: a finished game's pages show them, marked hidden at the time
PRIVATE_EVENTS = False  # every event is told to both players


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold."""
    from test_medici_strozzi_games import Secrets

    from pbem.game import ruleset_of

    return Secrets(state["seed"], tokens, ruleset_of(state).view(state["engine"], None), False)


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine with its hidden parts changed (the k-th way)."""
    from test_medici_strozzi_games import perturbed

    return perturbed(state, f"archive-{k}")["engine"]
