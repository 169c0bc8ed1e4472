"""Medina as the cross-game tests meet it (tests/rooms/__init__.py says what a room is)."""

from __future__ import annotations

import random
from typing import Any

PLAYERS = ("anna", "ben", "cleo")
TABLES: list[tuple[int, dict[str, Any]]] = [(3, {}), (4, {})]

EXAMPLE_ORDER = "palace orange C7"
ILLEGAL = "wall N99"
STANDING: list[dict[str, Any]] = []  # Medina takes orders ahead, but no standing orders
AHEAD: list[Any] = ["stable A1"]
BOARD_ENGLISH = ["the start of the market street", "current player", "Palaces", "points", "claimed", "stables",
                 "merchants", "walls", "roofs", "the owner", "a merchant"]
SOURCES = ["templates/medina", "pbem/rules/medina"]
LISTED = "Medina, 3-4 players (no options)"

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["pass", "start A1", "start D4", "palace grey A1", "palace black C3", "stable A1", "merchant B2",
                    "wall N1", "wall N5", "wall Q9", "roof grey C3", "palace grey Z9"]
RANDOM_DECISIONS = 120

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "width-medina-3", 3), (4, {}, "width-medina-4", 4)]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "width-long-medina", 11)]


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """None: Medina has no standing orders."""
    return []


HIDES = False  # Medina hides nothing but the seed
PRIVATE_EVENTS = False


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold: its seed and the tokens alone."""
    import helpers

    class MedinaSecrets(helpers.Secrets):
        def runs(self) -> list[list[str]]:
            return []

    return MedinaSecrets(state["seed"], tokens, False)


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine as it is: nothing in it is hidden."""
    return state["engine"]
