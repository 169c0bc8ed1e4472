"""Florenz boasts and gifts (FLORENZ-PLAN.md §7, §10): the cups on the boast tiles and the VP a boast
earns, the gifts to the Medici and the guards they bring onto the crests."""

from __future__ import annotations

from typing import Any

from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import BOAST_SLOT_ORDER, CRESTS, GUARD_OF
from pbem.rules.florenz.orders import crest_parts
from pbem.rules.florenz.petitioners import COST, Event, State, pay, short_of_time
from pbem.rules.florenz.refusals import refuse


def cups_of(tile: dict[str, Any]) -> B.Cups:
    """A boast tile's cup slots (the tile's id left out)."""
    return {slot: tile[slot] for slot in BOAST_SLOT_ORDER}


def has_cup_on(tile: dict[str, Any], family: str) -> bool:
    """Whether the family's cup lies on a boast tile (`B.has_cup` of its slots)."""
    for slot in BOAST_SLOT_ORDER:
        cup = tile[slot]
        if cup is not None and cup["family"] == family:
            return True
    return False


def cups_placed(state: State, family: str) -> int:
    """The family's cups on the boast tiles."""
    n = 0
    for tile in state["boast"].values():
        for slot in BOAST_SLOT_ORDER:
            cup = tile[slot]
            if cup is not None and cup["family"] == family:
                n += 1
    return n


def gifts_total(state: State, family: str) -> int:
    return sum(state["gifts_given"][family].values())


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
    cups = [tile[slot] for slot in BOAST_SLOT_ORDER]
    free = False
    for cup in cups:
        if cup is None:
            free = True
        elif cup["family"] == family:
            return False
    if not free:   # no slot for any VP: the boast's VP need not be counted
        return False
    return cups[0] is None or B.cup_slot(boast_value(state, family, location, counts), tile) is not None


def why_boast(state: State, family: str, o: dict[str, Any], needs_member: bool = True,
              cost: int = COST["boast"], counts: Counts | None = None) -> str | None:
    loc = o["location"]
    tile = state["boast"][loc]
    if needs_member and B.members(state["queues"][loc], family) == 0:
        return refuse("no-member", location=loc)
    if state["supply"][family]["cup"] < 1:
        return refuse("no-cup")
    cups = cups_of(tile)
    if B.has_cup(cups, family):
        return refuse("cup-there", location=loc)
    # a free lowest slot takes a cup of any VP: the boast's VP are counted only when it is taken
    if cups[BOAST_SLOT_ORDER[0]] is not None and B.cup_slot(boast_value(state, family, loc, counts), cups) is None:
        return refuse("tile-full", location=loc)
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
        return refuse("no-gift")
    if at_carriage and B.members(state["queues"][state["carriages"][medici]], family) == 0:
        return refuse("no-member-at-carriage", location=state["carriages"][medici], player=medici)
    if o.get("crest") is None:
        if guard_possible(state, family, medici):
            return refuse("name-crest", colour=GUARD_OF[medici])
    else:
        kind, where = crest_parts(o["crest"])
        if kind != GUARD_OF[medici]:
            return refuse("crests-of", player=medici, colour=GUARD_OF[medici])
        if state["supply"][family]["guard"] < 1:
            return refuse("no-guard-order", wanted=f"{'play carissima-gift' if cost == 0 else 'gift'} {medici}")
        if where not in CRESTS[kind] or B.guards_on(state["guards"], kind, where):
            return refuse("crest-not-free", crest=o["crest"])
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
