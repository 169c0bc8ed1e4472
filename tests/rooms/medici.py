"""Medici (both editions) as the cross-game tests meet it (tests/rooms/__init__.py says what a room is)."""

from __future__ import annotations

import random
from typing import Any

PLAYERS = ("anna", "ben", "cleo")
TABLES: list[tuple[int, dict[str, Any]]] = [(3, {}), (4, {"edition": "amigo"})]

EXAMPLE_ORDER = "bid: 7"
ILLEGAL = "bid: 999"
STANDING: list[dict[str, Any]] = [{"max_bid": 12}, {"draw_until": 2}, {"pass": "day"}]
AHEAD: list[Any] = ["pass", {"bid": 1}, "draw"]
DECKS: list[dict[str, Any]] = [{"days": [["linen-3", "furs-0"], [], ["spices-5"]]}]
BOARD_ENGLISH = ["money"]
SOURCES = ["templates/medici", "pbem/rules/medici.py", "pbem/rules/medici_bot.py", "pbem/rules/medici_ranking.py",
           "pbem/rules/medici_refusals.py"]
LISTED = "Medici, 3-6 players (edition: riogrande|amigo)"

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["draw", "auction", "pass", {"bid": 0}, {"bid": 1}, {"bid": 7}, {"bid": 99}, {"price": 3}]
RANDOM_DECISIONS = 400

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [
    *[(n, {"edition": "riogrande"}, f"width-rg-{n}", 1 if n < 5 else 2) for n in (3, 4, 5, 6)],
    *[(n, {"edition": "amigo"}, f"width-amigo-{n}", 1 if n < 5 else 2) for n in (3, 4, 5, 6)]]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(6, {"edition": "amigo"}, "width-long-medici", 7)]


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """Some standing orders a bidder might give now."""
    pool = [{"max_bid": rnd.randint(0, 20)}, {"draw_until": rnd.randint(1, 3)}, {"pass": "day"}]
    return rnd.sample(pool, rnd.randint(0, len(pool)))


HIDES = True  # the bag's cards: a finished game's pages show them, marked hidden at the time
PRIVATE_EVENTS = False  # every event is told to the whole table


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold."""
    from test_secrets import Secrets

    from pbem.game import ruleset_of

    return Secrets(state["seed"], tokens, ruleset_of(state).view(state["engine"], None), False)


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine with its hidden parts changed (the k-th way)."""
    from test_secrets import perturbed

    return perturbed(state, f"archive-{k}")["engine"]
