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

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["pass", "done", "decline", "pass 3", "promote 1.1", "promote 6.3", "send 4", "move 1.1 to 2",
                    "move 6.1 to 9", "hurry 1.1 to 2", "boast 3", "gift Cosimo", "play x", "play 1", "discard 9",
                    "swap 1.1 2.1", "travel 1.1 to 2", "colour red", "bonus vp", "junk"]
RANDOM_DECISIONS = 150

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [
    *[(n, {}, f"width-florenz-{n}", 2 if n < 5 else 3) for n in (2, 3, 4, 5)],
    (1, {"solo": "normal"}, "width-solo-normal", 1), (1, {"solo": "harder"}, "width-solo-harder", 1)]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(4, {}, "width-long-florenz", 11),
                                                           (1, {"solo": "normal"}, "width-long-solo", 5)]


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
