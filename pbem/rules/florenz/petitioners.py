"""What every Florenz action of phase 2 reads and changes: a family's petitioners in the queues (whose
petitioner stands at a position, room in a queue, entering one) and the time it pays."""

from __future__ import annotations

from typing import Any

from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import DATA
from pbem.rules.florenz.refusals import refuse

State = dict[str, Any]
Event = dict[str, Any]
COST: dict[str, int] = DATA["action_time"]


def piece(state: State, position: str) -> dict[str, Any] | None:
    return B.piece_at(state["queues"], position)


def own_piece(state: State, family: str, position: str) -> str | None:
    """Why `position` does not name one of the family's petitioners."""
    p = piece(state, position)
    if p is None:
        return refuse("no-petitioner", position=position)
    if p["family"] != family:
        return refuse("not-yours", position=position)
    return None


def room(state: State, location: str, queues: dict[str, list[Any]] | None = None) -> bool:
    queues = state["queues"] if queues is None else queues
    return B.has_room(queues[location], state["open_slots"][location])


def short_of_time(state: State, family: str, cost: int) -> str | None:
    if state["time"][family] < cost:
        return refuse("costs-time", cost=cost, time=state["time"][family])
    return None


def pay(state: State, family: str, cost: int) -> None:
    state["time"][family] -= cost


def enter_queue(state: State, queues: dict[str, list[Any]], location: str, p: dict[str, Any]) -> None:
    """`p` enters the queue at `location` (rank and doorman, §5)."""
    queues[location] = B.enter(queues[location], p, B.has_doorman(state["guards"], location, p["family"]))
