"""A decision of several players at once, each choosing in secret (a bid, a card to play): the
bookkeeping every such game shares, written once.

The choices of the round wait in the state (`state[key]`, player -> choice) until the last is in. The
decision waits for the players who have not chosen (`Decision.together`: it keeps its turn until then);
a player who chose is refused a second choice (`chosen-already`); his choice is told to him alone (an
event `to` him) and the others see nothing of it, not even a card missing from his hand
(`still_held`). When the last choice is in, the game opens them (`opened`) and settles the round.
The report's YOUR MOVE of such a decision is the skeleton's (templates/common/report.txt.j2), in
pbem's catalog: a game writes only what the choice is about (its block `decision`).
"""

from __future__ import annotations

from typing import Any

from pbem.errors import Refusal
from pbem.refusals import refuse_rules
from pbem.rules.contract import Decision, Event, State


class SecretChoices:
    """The secret choices of a round of `players` (a state's key lists them), kept in `state[key]`."""

    def __init__(self, key: str, kind: str, players: str = "players") -> None:
        self.key, self.kind, self.players = key, kind, players

    def decision(self, state: State) -> Decision:
        """The decision of those who have not chosen yet, all at once."""
        chosen = state[self.key]
        return Decision(tuple(p for p in state[self.players] if p not in chosen), self.kind, together=True)

    def refused(self, state: State, player: str) -> Refusal | None:
        """Why `player` may not choose now: he chose already, or he is not of this decision; None: he may."""
        waiting = self.decision(state).players
        if player in waiting:
            return None
        if player in state[self.key]:
            return refuse_rules("chosen-already", players=", ".join(waiting))
        return refuse_rules("not-your-decision", players=", ".join(waiting))

    def choose(self, state: State, player: str, choice: Any, told: Event) -> list[Event]:
        """Note `player`'s choice. While others are still to choose, the event `told` is told to him
        alone (and returned); once all are in, nothing is told (the game opens the choices)."""
        state[self.key][player] = choice
        return [] if self.all_in(state) else [dict(told, to=[player])]

    def all_in(self, state: State) -> bool:
        """Whether every player has chosen."""
        return len(state[self.key]) == len(state[self.players])

    def opened(self, state: State) -> dict[str, Any]:
        """The choices, in the players' seating order, taken out of the state for the next round."""
        chosen = state[self.key]
        state[self.key] = {}
        return {p: chosen[p] for p in state[self.players]}

    def mine(self, state: State, viewer: str | None) -> Any:
        """`viewer`'s own choice this round (None: he has not chosen, or he is the GM)."""
        return state[self.key].get(viewer) if viewer else None

    def seen(self, state: State, viewer: str | None) -> dict[str, Any] | None:
        """Every choice made so far, for the GM alone (None: anyone else)."""
        return dict(state[self.key]) if viewer is None else None

    def still_held(self, state: State, owner: str, viewer: str | None, hand: list[Any]) -> list[Any]:
        """`owner`'s `hand` as `viewer` sees it: a card he chose and that is still face down counts as in
        his hand to the others (else the card missing from it would tell them his choice); he and the
        GM see it spent."""
        if owner in state[self.key] and viewer is not None and viewer != owner:
            return sorted([*hand, state[self.key][owner]])
        return list(hand)
