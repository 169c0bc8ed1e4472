"""Florenz (and its solo game) as the cross-game tests meet it (tests/rooms/__init__.py says what a room is)."""

from __future__ import annotations

import copy
import random
from typing import Any

from test_florenz_schemas import VALID_DECKS

PLAYERS = ("anna", "ben", "cleo")
TABLES: list[tuple[int, dict[str, Any]]] = [(3, {}), (1, {"solo": "harder"})]

EXAMPLE_ORDER = "send 4"
ILLEGAL = "promote 5.1"
STANDING: list[dict[str, Any]] = [{"giovanni": "accept"}, {"bonus": "vp"}]
AHEAD: list[Any] = ["accept", "bonus vp"]
DECKS: list[dict[str, Any]] = copy.deepcopy(list(VALID_DECKS.values()))
BOARD_ENGLISH = ["round", "setting up", "The disc", "sectors in sight", "to", "reached", "time", "time gained",
                 "The families", "scandal card", "scandal cards", "plan card", "VP", "spy", "doorman", "carriage",
                 "target", "cups"]
SOURCES = ["templates/florenz", "pbem/rules/florenz"]
LISTED = "Florenz, 1-5 players (solo: normal|easier|harder)"


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """Some standing orders a family might give now."""
    pool = [{"giovanni": rnd.choice(["accept", "decline"])}, {"bonus": rnd.choice(["time", "vp"])}]
    return rnd.sample(pool, rnd.randint(0, len(pool)))


HIDES = True  # the plan cards and the scandal deck
PRIVATE_EVENTS = True  # a plan card dealt or a scandal card drawn is told to its family alone


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold."""
    from test_florenz_secrets import Secrets

    return Secrets(state["seed"], tokens, state["engine"], False)


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine with its hidden parts changed (the k-th way; the seed stays)."""
    from test_florenz_secrets import variants

    others = [other for what, other, _ in variants(state, f"archive-{k}") if what != "the seed"]
    return others[k % len(others)]["engine"] if others else state["engine"]
