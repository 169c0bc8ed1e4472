"""The Medici's scandal decks: the top card taken, the discards reshuffled when a deck runs out (§9,
R45). Both the families' draws (pbem.rules.florenz.flow) and Strozzi's (pbem.rules.florenz.solo) take
their cards here."""

from __future__ import annotations

from typing import Any

from pbem.rng import Rng
from pbem.rules.florenz.data import DECK_OF

State = dict[str, Any]
Event = dict[str, Any]


def take_card(state: State, medici: str, rng: Rng, events: list[Event], family: str) -> str | None:
    """The top card of a Medici's deck (its discards reshuffled when it is empty), or None when both
    are empty (R45)."""
    name = DECK_OF[medici]
    sc = state["scandal"]
    if not sc["deck"][name] and sc["discard"][name]:
        sc["deck"][name], sc["discard"][name] = sc["discard"][name], []
        rng.shuffle(sc["deck"][name], f"scandal-{name}")
        events.append({"type": "reshuffle", "deck": name})
    if not sc["deck"][name]:
        events.append({"type": "deck_empty", "deck": name, "family": family})
        return None
    return sc["deck"][name].pop(0)
