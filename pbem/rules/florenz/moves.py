"""Florenz moves and hurries (FLORENZ-PLAN.md §6, §8): members walking along the paths, the escorts
they pay, and the steps and two-member hurries the legal orders offer, judged by counting free slots."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import DATA, LOCATIONS, NEIGHBOURS, PATH_ID, path_between
from pbem.rules.florenz.petitioners import COST, Event, State, enter_queue, pay, room, short_of_time
from pbem.rules.florenz.refusals import refuse


def pay_escorts(state: State, family: str, paths: list[str], events: list[Event]) -> None:
    """Every guard on every path crossed pays its owner (§8), after the move."""
    for path in paths:
        for owner in B.guards_on(state["guards"], "escort", path):
            if owner == family:
                state["time"][family] = B.gain_time(state["time"][family], DATA["escort"]["own_move_time"])
                events.append({"type": "escort_time", "family": family, "path": path})
                if state["solo"]:   # solo: "erhalte 1 SP und 1 Zeiteinheit"
                    state["vp"][family] += DATA["escort"]["solo_own_move_vp"]
                    events.append({"type": "escort_vp", "family": family, "path": path, "mover": family,
                                   "vp": DATA["escort"]["solo_own_move_vp"]})
            else:
                state["vp"][owner] += DATA["escort"]["foreign_move_vp"]
                events.append({"type": "escort_vp", "family": owner, "path": path, "mover": family,
                               "vp": DATA["escort"]["foreign_move_vp"]})


def _steps(o: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The member moves of a move or hurry: (start position, locations entered in turn)."""
    if o["verb"] == "move":
        return [(o["position"], [o["to"]])]
    if o.get("via"):
        return [(o["position"], [o["via"], o["to"]])]
    return [(o["position"], [o["to"]]), (o["position2"], [o["to2"]])]


def simulate_moves(state: State, family: str, o: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | str:
    """The queues after a move or hurry and the paths crossed, or why it is not allowed."""
    steps = _steps(o)
    if len(steps) == 2 and steps[0][0] == steps[1][0]:
        return refuse("hurry-two")
    return simulate_steps(state, family, steps)


def simulate_steps(state: State, family: str, steps: list[tuple[str, list[str]]],
                   queues: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[str]] | str:
    """The queues after members walk along paths, and the paths crossed, or why it is not allowed.
    Each step is (start position, locations entered in turn); positions refer to the queues before
    the order; only a member's last location needs a free slot (§6)."""
    queues = dict(state["queues"] if queues is None else queues)
    movers = []
    for position, _ in steps:
        p = B.piece_at(queues, position)
        if p is None:
            return refuse("no-petitioner", position=position)
        if p["family"] != family:
            return refuse("not-yours", position=position)
        movers.append(p)
    paths: list[str] = []
    for mover, (position, where) in zip(movers, steps):
        here = position.split(".")[0]
        for to in where:
            path = path_between(here, to)
            if to not in NEIGHBOURS[here] or path is None:
                return refuse("no-path", here=here, to=to)
            why = blocked_path(state, family, path)
            if why:
                return why
            paths.append(path)
            here = to
        start = position.split(".")[0]
        i = next(k for k, p in enumerate(queues[start]) if p is mover)
        queues[start], moved = B.leave(queues[start], i + 1)
        if not room(state, here, queues):
            return refuse("queue-full", location=here)
        enter_queue(state, queues, here, moved)
    return queues, paths


Step = tuple[str, str]   # (position `L.N` of a member, the neighbour it steps to)


def member_steps(state: State, family: str) -> list[Step]:
    """Every step of one of the family's members to a neighbour, legal or not, in board order."""
    return [(f"{loc}.{n}", to) for loc in LOCATIONS for n, p in enumerate(state["queues"][loc], 1)
            if p["family"] == family for to in NEIGHBOURS[loc]]


class Walk(NamedTuple):
    """A member's step to a neighbour as the legal orders write it (`member_walks`)."""

    #: (the member's position, the neighbour it steps to), as `member_steps` gives it
    step: Step
    #: where the member stands and the path it crosses
    start: str
    path: str
    #: the step as a move
    move: str
    #: the one-member hurries on from the neighbour: (where it ends, the path crossed, the order)
    hurries: tuple[tuple[str, str, str], ...]
    #: the step as a two-member hurry writes it: `L.P to M`
    half: str


@lru_cache(maxsize=None)
def member_walks(loc: str, n: int) -> tuple[Walk, ...]:
    """The steps of the member at position `n` at `loc` to each neighbour, in board order, with their
    orders written once (kept: a decision writes some fifty moves and hurries)."""
    pos = f"{loc}.{n}"
    return tuple(Walk((pos, via), loc, PATH_ID[(loc, via)], f"move {pos} to {via}",
                      tuple((to, PATH_ID[(via, to)], f"hurry {pos} to {via} to {to}") for to in NEIGHBOURS[via]),
                      f"{pos} to {via}")
                 for via in NEIGHBOURS[loc])


def steps_work(state: State, family: str, steps: list[Step]) -> bool:
    """Whether single steps of different members, one after the other, are allowed: every path open to
    the family and a free slot where each step ends, counting those who left or came before (as
    `simulate_steps` finds, by counting alone)."""
    change: dict[str, int] = {}
    for position, to in steps:
        start = position.split(".")[0]
        if blocked_path(state, family, PATH_ID[(start, to)]):
            return False
        change[start] = change.get(start, 0) - 1
        if len(state["queues"][to]) + change.get(to, 0) >= state["open_slots"][to]:
            return False
        change[to] = change.get(to, 0) + 1
    return True


def walk_works(state: State, family: str, position: str, via: str, to: str) -> bool:
    """Whether one member may step to `via` and on to `to` (a hurry of one member): both paths open to
    the family and a free slot at `to` once it has left (`via` needs none)."""
    start = position.split(".")[0]
    if blocked_path(state, family, PATH_ID[(start, via)]) or blocked_path(state, family, PATH_ID[(via, to)]):
        return False
    return len(state["queues"][to]) - (to == start) < state["open_slots"][to]


def hurry_pairs(state: State, family: str, steps: list[Step] | None = None,
                free: dict[str, int] | None = None) -> list[tuple[Step, Step]]:
    """The two-member hurries that can be carried out, each pair of steps once (R68): written in board
    order, or the other way round when only that order works (the first member leaves the queue the
    second enters). Both orders have the same outcome whenever both work, so one stands for both.
    Each pair is judged as `steps_work` judges it, by the free slots where the steps end. `steps` and
    `free` are `member_steps` and `free_slots` when the caller has them."""
    steps = member_steps(state, family) if steps is None else steps
    closed = blocked_paths(state)
    free = free_slots(state) if free is None else free
    # the steps over open paths only, since neither order of a pair crosses a closed path
    walks = [(step, step[0], step[0].split(".")[0], step[1], free[step[1]], "") for step in steps
             if not closed or PATH_ID[(step[0].split(".")[0], step[1])] not in closed]
    return [(a[0], b[0]) for a, b in step_pairs(walks)]


#: a step over an open path as `step_pairs` reads it: the step, the member's position, where it stands,
#: where it ends, the free slots there, and (for the legal orders) the step written `L.P to M`
OpenStep = tuple[Step, str, str, str, int, str]


def step_pairs(walks: list[OpenStep]) -> list[tuple[OpenStep, OpenStep]]:
    """`hurry_pairs` of steps over open paths, each pair in the order it is written."""
    out: list[tuple[OpenStep, OpenStep]] = []
    for i, a in enumerate(walks):
        _, pa, sa, ta, free_a, _ = a
        for b in walks[i + 1:]:
            _, pb, sb, tb, free_b, _ = b
            if pa == pb:
                continue
            # the second member finds the slot the first left (+1) or took (-1)
            if free_a > 0 and free_b + (tb == sa) - (tb == ta) > 0:
                out.append((a, b))
            elif free_b > 0 and free_a + (ta == sb) - (ta == tb) > 0:
                out.append((b, a))
    return out


def free_slots(state: State) -> dict[str, int]:
    """The free slots of each queue."""
    open_ = state["open_slots"]
    return {loc: open_[loc] - len(q) for loc, q in state["queues"].items()}


def blocked_paths(state: State) -> set[str]:
    """The paths `blocked_path` closes (only in the harder solo game, those with a Strozzi guard)."""
    if state["solo"] != "harder":
        return set()
    strozzi = DATA["strozzi"]["name"]
    return {path for path, guards in state["guards"]["escort"].items()
            if guards and any(g["family"] == strozzi for g in guards)}


def blocked_path(state: State, family: str, path: str) -> str | None:
    """Why a family may not walk over a path: only in the harder solo game, a Strozzi guard on it."""
    if state["solo"] != "harder":
        return None
    strozzi = DATA["strozzi"]["name"]
    if strozzi in B.guards_on(state["guards"], "escort", path):
        return refuse("guard-on-path", path=path)
    return None


def why_move(state: State, family: str, o: dict[str, Any]) -> str | None:
    result = simulate_moves(state, family, o)
    if isinstance(result, str):
        return result
    return short_of_time(state, family, COST[o["verb"]])


def do_move(state: State, family: str, o: dict[str, Any], events: list[Event]) -> None:
    result = simulate_moves(state, family, o)
    assert not isinstance(result, str)
    pay(state, family, COST[o["verb"]])
    state["queues"], paths = result
    walks = [[position.split(".")[0], *where] for position, where in _steps(o)]
    events.append({"type": o["verb"], "family": family, "paths": paths, "walks": walks})
    pay_escorts(state, family, paths, events)
