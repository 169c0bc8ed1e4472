"""Florenz actions of phase 2 (FLORENZ-PLAN.md §6-8, §10): why each is illegal, and its effect.

Every `why_*` returns a reason fit for the player or None; every `do_*` mutates the state (plain data)
and appends events. Scandal cards (`play`) come in step 3.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import (
    BOAST_SLOT_ORDER,
    CRESTS,
    DATA,
    GUARD_OF,
    LOCATIONS,
    MEDICI,
    NEIGHBOURS,
    PATH_ID,
    PROMOTES_TO,
    SCANDAL_CARDS,
    path_between,
)
from pbem.rules.florenz.orders import crest_parts, split_position

State = dict[str, Any]
Event = dict[str, Any]
COST: dict[str, int] = DATA["action_time"]


# -- shared helpers -----------------------------------------------------------------------------------

def piece(state: State, position: str) -> dict[str, Any] | None:
    return B.piece_at(state["queues"], position)


def own_piece(state: State, family: str, position: str) -> str | None:
    """Why `position` does not name one of the family's petitioners."""
    p = piece(state, position)
    if p is None:
        return f"there is no petitioner at {position}"
    if p["family"] != family:
        return f"the petitioner at {position} is not yours"
    return None


def room(state: State, location: str, queues: dict[str, list[Any]] | None = None) -> bool:
    queues = state["queues"] if queues is None else queues
    return B.has_room(queues[location], state["open_slots"][location])


def short_of_time(state: State, family: str, cost: int) -> str | None:
    if state["time"][family] < cost:
        return f"this costs {cost} time and you have {state['time'][family]}"
    return None


def pay(state: State, family: str, cost: int) -> None:
    state["time"][family] -= cost


def enter_queue(state: State, queues: dict[str, list[Any]], location: str, p: dict[str, Any]) -> None:
    """`p` enters the queue at `location` (rank and doorman, §5)."""
    queues[location] = B.enter(queues[location], p, B.has_doorman(state["guards"], location, p["family"]))


def cups_of(tile: dict[str, Any]) -> B.Cups:
    """A boast tile's cup slots (the tile's id left out)."""
    return {slot: tile[slot] for slot in BOAST_SLOT_ORDER}


def cups_placed(state: State, family: str) -> int:
    return sum(1 for tile in state["boast"].values() for slot in ("low", "middle", "high")
               if tile[slot] is not None and tile[slot]["family"] == family)


def gifts_total(state: State, family: str) -> int:
    return sum(state["gifts_given"][family].values())


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


# -- pass and the bonuses -----------------------------------------------------------------------------

def is_last_to_pass(state: State) -> bool:
    return len(state["passed"]) == len(state["families"]) - 1


def why_pass(state: State, family: str, o: dict[str, Any]) -> str | None:
    loc = o.get("location")
    if is_last_to_pass(state):
        return None if loc is None else "you are the last to pass: your ring stays home (order `pass`)"
    if loc is None:
        return "name the location for your ring (`pass L`)"
    if loc in state["rings"].values():
        return f"location {loc} already holds a ring"
    return None


def do_pass(state: State, family: str, o: dict[str, Any], events: list[Event]) -> None:
    first = not state["passed"]
    state["passed"].append(family)
    if o.get("location") is not None:
        state["rings"][family] = o["location"]
    events.append({"type": "pass", "family": family, "ring": o.get("location")})
    if first and len(state["passed"]) != len(state["families"]):
        state["time"][family] = B.gain_time(state["time"][family], DATA["time"]["first_pass_bonus"])
        events.append({"type": "first_pass", "family": family, "time": DATA["time"]["first_pass_bonus"]})


def why_bonus(state: State, family: str, o: dict[str, Any]) -> str | None:
    return None


def do_bonus(state: State, family: str, o: dict[str, Any], events: list[Event]) -> None:
    if o["bonus"] == "time":
        state["time"][family] = B.gain_time(state["time"][family], DATA["time"]["passed_bonus_time"])
    else:
        state["vp"][family] += DATA["time"]["passed_bonus_vp"]
    events.append({"type": "bonus", "family": family, "bonus": o["bonus"]})


def why_swap(state: State, family: str, o: dict[str, Any]) -> str | None:
    ring = state["rings"].get(family)
    (l1, p1), (l2, p2) = split_position(o["position"]), split_position(o["position2"])
    if ring is None or l1 != ring or l2 != ring:
        return "you may swap only at the location of your ring"
    if (p1, p2) not in B.bonus_swaps(state["queues"][ring], family):
        return ("swap one of your petitioners with a petitioner of the same rank of another family "
                "directly before or behind it")
    return None


def do_swap(state: State, family: str, o: dict[str, Any], events: list[Event]) -> None:
    (loc, p1), (_, p2) = split_position(o["position"]), split_position(o["position2"])
    state["queues"][loc] = B.swap(state["queues"][loc], p1, p2)
    events.append({"type": "swap", "family": family, "location": loc, "positions": [p1, p2]})


# -- send, promote ------------------------------------------------------------------------------------

def why_send(state: State, family: str, o: dict[str, Any]) -> str | None:
    if state["supply"][family]["debutant"] < 1:
        return "you have no debutant on your board"
    if not room(state, o["location"]):
        return f"the queue at {o['location']} has no free slot"
    return short_of_time(state, family, COST["send"])


def do_send(state: State, family: str, o: dict[str, Any], events: list[Event]) -> None:
    pay(state, family, COST["send"])
    state["supply"][family]["debutant"] -= 1
    enter_queue(state, state["queues"], o["location"],
                {"family": family, "rank": "debutant", "colour": state["colour"][family]})
    events.append({"type": "send", "family": family, "location": o["location"]})


def why_promote(state: State, family: str, o: dict[str, Any]) -> str | None:
    why = own_piece(state, family, o["position"])
    if why:
        return why
    rank = piece(state, o["position"])["rank"]   # type: ignore[index]
    if rank not in PROMOTES_TO:
        return "a maestro cannot be promoted"
    if state["supply"][family][PROMOTES_TO[rank]] < 1:
        return f"you have no {PROMOTES_TO[rank]} on your board"
    return short_of_time(state, family, COST["promote"])


def do_promote(state: State, family: str, o: dict[str, Any], events: list[Event], cost: int = COST["promote"]) -> None:
    pay(state, family, cost)
    loc, n = split_position(o["position"])
    old = state["queues"][loc][n - 1]["rank"]
    state["supply"][family][old] += 1
    state["supply"][family][PROMOTES_TO[old]] -= 1
    state["queues"][loc] = B.promote(state["queues"][loc], n)
    events.append({"type": "promote", "family": family, "location": loc, "to": PROMOTES_TO[old]})


# -- move and hurry -----------------------------------------------------------------------------------

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
        return "hurry moves two different members (or one member twice: `hurry L.P to M to N`)"
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
            return f"there is no petitioner at {position}"
        if p["family"] != family:
            return f"the petitioner at {position} is not yours"
        movers.append(p)
    paths: list[str] = []
    for mover, (position, where) in zip(movers, steps):
        here = position.split(".")[0]
        for to in where:
            path = path_between(here, to)
            if to not in NEIGHBOURS[here] or path is None:
                return f"there is no path from {here} to {to} (members move only between orthogonal neighbours)"
            why = blocked_path(state, family, path)
            if why:
                return why
            paths.append(path)
            here = to
        start = position.split(".")[0]
        i = next(k for k, p in enumerate(queues[start]) if p is mover)
        queues[start], moved = B.leave(queues[start], i + 1)
        if not room(state, here, queues):
            return f"the queue at {here} has no free slot"
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


@lru_cache(maxsize=None)
def member_walks(loc: str, n: int) -> tuple[Walk, ...]:
    """The steps of the member at position `n` at `loc` to each neighbour, in board order, with their
    orders written once (kept: a decision writes some fifty moves and hurries)."""
    pos = f"{loc}.{n}"
    return tuple(Walk((pos, via), loc, PATH_ID[(loc, via)], f"move {pos} to {via}",
                      tuple((to, PATH_ID[(via, to)], f"hurry {pos} to {via} to {to}") for to in NEIGHBOURS[via]))
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
    # (step, position, start, where it ends, free slots there): the steps over open paths only, since
    # neither order of a pair crosses a closed path
    walks = [(step, step[0], step[0].split(".")[0], step[1], free[step[1]]) for step in steps
             if not closed or PATH_ID[(step[0].split(".")[0], step[1])] not in closed]
    out: list[tuple[Step, Step]] = []
    for i, (step_a, pa, sa, ta, free_a) in enumerate(walks):
        for step_b, pb, sb, tb, free_b in walks[i + 1:]:
            if pa == pb:
                continue
            # the second member finds the slot the first left (+1) or took (-1)
            if free_a > 0 and free_b + (tb == sa) - (tb == ta) > 0:
                out.append((step_a, step_b))
            elif free_b > 0 and free_a + (ta == sb) - (ta == tb) > 0:
                out.append((step_b, step_a))
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
        return f"a Strozzi guard stands on the path {path} (harder solo game: you may not cross it)"
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


# -- the actions on offer -----------------------------------------------------------------------------

Parsed = dict[str, Any]


def action_candidates(state: State, family: str) -> list[tuple[str, Parsed]]:
    """Every action but `play` that might be legal for the family now, in the order offered, each with
    the form `orders.parse` gives it (so it can be checked without reading its text again)."""
    out: list[tuple[str, Parsed]] = [("pass", {"verb": "pass", "location": None})]
    out += [(f"pass {loc}", {"verb": "pass", "location": loc}) for loc in LOCATIONS]
    out += [(f"send {loc}", {"verb": "send", "location": loc}) for loc in LOCATIONS]
    out += [(f"promote {loc}.{n}", {"verb": "promote", "position": f"{loc}.{n}"})
            for loc in LOCATIONS for n, p in enumerate(state["queues"][loc], 1)
            if p["family"] == family and p["rank"] in PROMOTES_TO]
    steps = member_steps(state, family)
    out += [(f"move {pos} to {to}", {"verb": "move", "position": pos, "to": to}) for pos, to in steps]
    out += [(f"hurry {pos} to {to} to {to2}", {"verb": "hurry", "position": pos, "via": to, "to": to2})
            for pos, to in steps for to2 in NEIGHBOURS[to]]
    if state["time"][family] >= COST["hurry"]:
        out += [(f"hurry {p1} to {t1} and {p2} to {t2}",
                 {"verb": "hurry", "position": p1, "to": t1, "position2": p2, "to2": t2})
                for (p1, t1), (p2, t2) in hurry_pairs(state, family)]
    out += [(f"boast {loc}", {"verb": "boast", "location": loc}) for loc in LOCATIONS]
    for medici in MEDICI:
        kind = GUARD_OF[medici]
        out.append((f"gift {medici}", {"verb": "gift", "medici": medici, "crest": None}))
        out += [(f"gift {medici} {kind} {c}", {"verb": "gift", "medici": medici, "crest": f"{kind} {c}"})
                for c in B.free_crests(state["guards"], kind)]
    return out


def action_allowed(state: State, family: str, o: Parsed) -> bool:
    """Whether an action from `action_candidates` is legal: what `WHY` finds, with moves and hurries
    decided by counting free slots instead of walking the members through copies of the queues."""
    verb = o["verb"]
    if verb == "move":
        return state["time"][family] >= COST["move"] and steps_work(state, family, [(o["position"], o["to"])])
    if verb == "hurry":
        if state["time"][family] < COST["hurry"]:
            return False
        if o.get("via"):
            return walk_works(state, family, o["position"], o["via"], o["to"])
        return steps_work(state, family, [(o["position"], o["to"]), (o["position2"], o["to2"])])
    return WHY[verb](state, family, o) is None


def legal_actions(state: State, family: str) -> list[str]:
    """The actions of `action_candidates` that are legal, in the same order: each rule of `WHY` read
    off what is gathered once per decision (time, supply, free slots, free crests), since a decision
    has hundreds of candidates, most of them moves and hurries judged by counting free slots."""
    queues = state["queues"]
    time = state["time"][family]
    supply = state["supply"][family]
    free = free_slots(state)
    out: list[str] = []
    if is_last_to_pass(state):
        out.append("pass")
    else:
        rings = set(state["rings"].values())
        out += [f"pass {loc}" for loc in LOCATIONS if loc not in rings]
    if supply["debutant"] >= 1 and time >= COST["send"]:
        out += [f"send {loc}" for loc in LOCATIONS if free[loc] > 0]
    if time >= COST["promote"]:
        out += [f"promote {loc}.{n}" for loc in LOCATIONS for n, p in enumerate(queues[loc], 1)
                if p["family"] == family and p["rank"] in PROMOTES_TO and supply[PROMOTES_TO[p["rank"]]] >= 1]
    closed = blocked_paths(state)
    walks = [walk for loc in LOCATIONS for n, p in enumerate(queues[loc], 1) if p["family"] == family
             for walk in member_walks(loc, n)]
    steps = [walk.step for walk in walks]   # as `member_steps`
    if time >= COST["move"]:
        out += [walk.move for walk in walks if free[walk.step[1]] > 0 and walk.path not in closed]
    if time >= COST["hurry"]:
        for walk in walks:
            if walk.path not in closed:
                start = walk.start
                out += [text for to, path, text in walk.hurries
                        if free[to] + (to == start) > 0 and path not in closed]
        out += [f"hurry {p1} to {t1} and {p2} to {t2}"
                for (p1, t1), (p2, t2) in hurry_pairs(state, family, steps, free)]
    held = {pos.split(".")[0] for pos, _ in steps}   # where the family has members (each has neighbours)
    if supply["cup"] >= 1 and time >= COST["boast"]:
        counts = boast_counts(state, family)
        out += [f"boast {loc}" for loc in LOCATIONS if loc in held and cup_fits(state, family, loc, counts)]
    for medici in MEDICI:
        if supply["gift"] < 1 or state["carriages"][medici] not in held \
                or time < B.gift_cost(state["gifts_given"][family][medici]):
            continue
        out += gift_orders(state, family, medici, "gift")
    return out


def gift_orders(state: State, family: str, medici: str, prefix: str) -> list[str]:
    """A gift to `medici` as orders (`<prefix> <medici> [<kind> <crest>]`): with a guard on each free
    crest of his kind while the family has a guard, else without one."""
    kind = GUARD_OF[medici]
    crests = B.free_crests(state["guards"], kind)
    guards = state["supply"][family]["guard"]
    out = [] if guards > 0 and crests else [f"{prefix} {medici}"]
    if guards >= 1:
        out += [f"{prefix} {medici} {kind} {c}" for c in crests]
    return out


# -- boast --------------------------------------------------------------------------------------------

Counts = tuple[int, int, int]   # a family's cups placed, cards in hand and gifts given


def boast_counts(state: State, family: str) -> Counts:
    """What a boast counts of the family beside its members: cups placed, cards in hand, gifts given."""
    return cups_placed(state, family), len(state["scandal"]["hand"][family]), gifts_total(state, family)


def boast_value(state: State, family: str, location: str, counts: Counts | None = None) -> int:
    """The VP a boast at `location` earns now; `counts` are `boast_counts` when the caller has them."""
    return B.boast_vp(state["boast"][location]["tile"], family, state["queues"], location,
                      *(boast_counts(state, family) if counts is None else counts))


def cup_fits(state: State, family: str, location: str, counts: Counts) -> bool:
    """Whether the family's cup may go on the tile at `location` (as `why_boast` finds, the member,
    the cup left and the time aside): no cup of the family's there yet, and a slot free for the VP
    the boast earns now (`counts` are `boast_counts`)."""
    tile = state["boast"][location]
    if any(tile[slot] is not None and tile[slot]["family"] == family for slot in BOAST_SLOT_ORDER):
        return False
    return tile[BOAST_SLOT_ORDER[0]] is None or B.cup_slot(boast_value(state, family, location, counts), tile) is not None


def why_boast(state: State, family: str, o: dict[str, Any], needs_member: bool = True,
              cost: int = COST["boast"], counts: Counts | None = None) -> str | None:
    loc = o["location"]
    tile = state["boast"][loc]
    if needs_member and B.members(state["queues"][loc], family) == 0:
        return f"you have no member at {loc}"
    if state["supply"][family]["cup"] < 1:
        return "you have no cup left"
    cups = cups_of(tile)
    if B.has_cup(cups, family):
        return f"your cup already lies on the tile at {loc}"
    # a free lowest slot takes a cup of any VP: the boast's VP are counted only when it is taken
    if cups[BOAST_SLOT_ORDER[0]] is not None and B.cup_slot(boast_value(state, family, loc, counts), cups) is None:
        return f"the tile at {loc} has no free slot for your cup"
    return short_of_time(state, family, cost)


def do_boast(state: State, family: str, o: dict[str, Any], events: list[Event], cost: int = COST["boast"]) -> None:
    loc = o["location"]
    vp = boast_value(state, family, loc)
    slot = B.cup_slot(vp, cups_of(state["boast"][loc]))
    pay(state, family, cost)
    state["supply"][family]["cup"] -= 1
    state["boast"][loc][slot] = {"family": family, "colour": state["colour"][family]}
    state["vp"][family] += vp
    events.append({"type": "boast", "family": family, "location": loc, "tile": state["boast"][loc]["tile"],
                   "vp": vp, "slot": slot})


# -- gift ---------------------------------------------------------------------------------------------

def guard_possible(state: State, family: str, medici: str) -> bool:
    return state["supply"][family]["guard"] > 0 and bool(B.free_crests(state["guards"], GUARD_OF[medici]))


def why_gift(state: State, family: str, o: dict[str, Any], at_carriage: bool = True,
             cost: int | None = None) -> str | None:
    medici = o["medici"]
    if state["supply"][family]["gift"] < 1:
        return "you have no gift left"
    if at_carriage and B.members(state["queues"][state["carriages"][medici]], family) == 0:
        return f"you have no member at {state['carriages'][medici]}, where {medici}'s carriage stands"
    if o.get("crest") is None:
        if guard_possible(state, family, medici):
            return f"name the free {GUARD_OF[medici]} crest for your guard"
    else:
        kind, where = crest_parts(o["crest"])
        if kind != GUARD_OF[medici]:
            return f"{medici}'s crests are {GUARD_OF[medici]} crests"
        if state["supply"][family]["guard"] < 1:
            return f"you have no guard left (order `{'play carissima-gift' if cost == 0 else 'gift'} {medici}`)"
        if where not in CRESTS[kind] or B.guards_on(state["guards"], kind, where):
            return f"the crest {o['crest']} is not free"
    return short_of_time(state, family, B.gift_cost(state["gifts_given"][family][medici]) if cost is None else cost)


def do_gift(state: State, family: str, o: dict[str, Any], events: list[Event], cost: int | None = None) -> None:
    medici = o["medici"]
    pay(state, family, B.gift_cost(state["gifts_given"][family][medici]) if cost is None else cost)
    state["supply"][family]["gift"] -= 1
    state["gifts_given"][family][medici] += 1
    event: Event = {"type": "gift", "family": family, "medici": medici, "crest": o.get("crest")}
    if o.get("crest"):
        kind, where = crest_parts(o["crest"])
        state["supply"][family]["guard"] -= 1
        state["guards"][kind][where].append({"family": family, "colour": state["colour"][family]})
    events.append(event)


# -- discard ------------------------------------------------------------------------------------------

def why_discard(state: State, family: str, o: dict[str, Any]) -> str | None:
    if o["card"] not in state["scandal"]["hand"][family]:
        return f"you hold no card {o['card']}"
    return None


def do_discard(state: State, family: str, o: dict[str, Any], events: list[Event]) -> None:
    state["scandal"]["hand"][family].remove(o["card"])
    state["scandal"]["discard"][SCANDAL_CARDS[o["card"]]["deck"]].append(o["card"])
    state["time"][family] = B.gain_time(state["time"][family], DATA["scandal"]["discard_time"])
    events.append({"type": "discard", "family": family, "card": o["card"]})


WHY = {"pass": why_pass, "bonus": why_bonus, "swap": why_swap, "send": why_send, "promote": why_promote,
       "move": why_move, "hurry": why_move, "boast": why_boast, "gift": why_gift, "discard": why_discard}
DO = {"pass": do_pass, "bonus": do_bonus, "swap": do_swap, "send": do_send, "promote": do_promote,
      "move": do_move, "hurry": do_move, "boast": do_boast, "gift": do_gift, "discard": do_discard}
ACTION_VERBS = ("pass", "send", "promote", "move", "hurry", "boast", "gift", "play")
BONUS_VERBS = ("bonus", "swap")
