"""Florenz actions of phase 2 (FLORENZ-PLAN.md §6-8, §10): why each is illegal, and its effect.

Every `why_*` returns a reason fit for the player or None; every `do_*` mutates the state (plain data)
and appends events. Scandal cards (`play`) come in step 3. Here: pass and the bonuses, send and promote,
discard, the actions on offer, and the tables by verb; what every action reads of a family's petitioners
and time is in `petitioners`, moves and hurries in `moves`, boasts and gifts in `boasts_and_gifts`, and
their names are found here too.
"""

from __future__ import annotations

from typing import Any

from pbem.rules.florenz import board as B
from pbem.rules.florenz.boasts_and_gifts import (
    Counts,
    boast_counts,
    boast_value,
    cup_fits,
    cups_of,
    cups_placed,
    do_boast,
    do_gift,
    gifts_total,
    guard_possible,
    has_cup_on,
    why_boast,
    why_gift,
)
from pbem.rules.florenz.data import DATA, GUARD_OF, LOCATIONS, MEDICI, NEIGHBOURS, PATH_ID, PROMOTES_TO, SCANDAL_CARDS
from pbem.rules.florenz.moves import (
    OpenStep,
    Step,
    Walk,
    blocked_path,
    blocked_paths,
    do_move,
    free_slots,
    hurry_pairs,
    member_steps,
    member_walks,
    pay_escorts,
    simulate_moves,
    simulate_steps,
    step_pairs,
    steps_work,
    walk_works,
    why_move,
)
from pbem.rules.florenz.orders import split_position
from pbem.rules.florenz.petitioners import (
    COST,
    Event,
    State,
    enter_queue,
    own_piece,
    pay,
    piece,
    room,
    short_of_time,
)
from pbem.rules.florenz.refusals import refuse


# -- pass and the bonuses -----------------------------------------------------------------------------

def is_last_to_pass(state: State) -> bool:
    return len(state["passed"]) == len(state["families"]) - 1


def why_pass(state: State, family: str, o: dict[str, Any]) -> str | None:
    loc = o.get("location")
    if is_last_to_pass(state):
        return None if loc is None else refuse("last-to-pass")
    if loc is None:
        return refuse("name-ring-location")
    if loc in state["rings"].values():
        return refuse("ring-there", location=loc)
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
        return refuse("swap-at-ring")
    if (p1, p2) not in B.bonus_swaps(state["queues"][ring], family):
        return refuse("swap-how")
    return None


def do_swap(state: State, family: str, o: dict[str, Any], events: list[Event]) -> None:
    (loc, p1), (_, p2) = split_position(o["position"]), split_position(o["position2"])
    state["queues"][loc] = B.swap(state["queues"][loc], p1, p2)
    events.append({"type": "swap", "family": family, "location": loc, "positions": [p1, p2]})


# -- send, promote ------------------------------------------------------------------------------------

def why_send(state: State, family: str, o: dict[str, Any]) -> str | None:
    if state["supply"][family]["debutant"] < 1:
        return refuse("no-debutant")
    if not room(state, o["location"]):
        return refuse("queue-full", location=o["location"])
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
        return refuse("maestro-not-promoted")
    if state["supply"][family][PROMOTES_TO[rank]] < 1:
        return refuse("no-rank", rank=PROMOTES_TO[rank])
    return short_of_time(state, family, COST["promote"])


def do_promote(state: State, family: str, o: dict[str, Any], events: list[Event], cost: int = COST["promote"]) -> None:
    pay(state, family, cost)
    loc, n = split_position(o["position"])
    old = state["queues"][loc][n - 1]["rank"]
    state["supply"][family][old] += 1
    state["supply"][family][PROMOTES_TO[old]] -= 1
    state["queues"][loc] = B.promote(state["queues"][loc], n)
    events.append({"type": "promote", "family": family, "location": loc, "to": PROMOTES_TO[old]})


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


#: the orders naming one location, written once (the same strings decision after decision)
PASS_TO: dict[str, str] = {loc: f"pass {loc}" for loc in LOCATIONS}
SEND_TO: dict[str, str] = {loc: f"send {loc}" for loc in LOCATIONS}
BOAST_AT: dict[str, str] = {loc: f"boast {loc}" for loc in LOCATIONS}


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
        out += [PASS_TO[loc] for loc in LOCATIONS if loc not in rings]
    if supply["debutant"] >= 1 and time >= COST["send"]:
        out += [SEND_TO[loc] for loc in LOCATIONS if free[loc] > 0]
    if time >= COST["promote"]:
        out += [f"promote {loc}.{n}" for loc in LOCATIONS for n, p in enumerate(queues[loc], 1)
                if p["family"] == family and p["rank"] in PROMOTES_TO and supply[PROMOTES_TO[p["rank"]]] >= 1]
    closed = blocked_paths(state)
    walks = [walk for loc in LOCATIONS for n, p in enumerate(queues[loc], 1) if p["family"] == family
             for walk in member_walks(loc, n)]
    if time >= COST["move"]:
        out += [walk.move for walk in walks if free[walk.step[1]] > 0 and walk.path not in closed]
    if time >= COST["hurry"]:
        for walk in walks:
            if walk.path not in closed:
                start = walk.start
                out += [text for to, path, text in walk.hurries
                        if free[to] + (to == start) > 0 and path not in closed]
        open_steps = [(walk.step, walk.step[0], walk.start, walk.step[1], free[walk.step[1]], walk.half)
                      for walk in walks if walk.path not in closed]   # as `hurry_pairs` reads them
        out += [f"hurry {a[5]} and {b[5]}" for a, b in step_pairs(open_steps)]
    held = {walk.start for walk in walks}   # where the family has members (each has neighbours)
    if supply["cup"] >= 1 and time >= COST["boast"]:
        counts = boast_counts(state, family)
        out += [BOAST_AT[loc] for loc in LOCATIONS if loc in held and cup_fits(state, family, loc, counts)]
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


# -- discard ------------------------------------------------------------------------------------------

def why_discard(state: State, family: str, o: dict[str, Any]) -> str | None:
    if o["card"] not in state["scandal"]["hand"][family]:
        return refuse("no-card", card=o["card"])
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


#: the names phase 2 offers its callers: those defined here, and those of `petitioners`, `moves` and
#: `boasts_and_gifts` (and the board's paths), found here as they always were
__all__ = ["ACTION_VERBS", "BOAST_AT", "BONUS_VERBS", "COST", "DO", "NEIGHBOURS", "PASS_TO", "PATH_ID",
           "SEND_TO", "WHY", "action_allowed", "action_candidates", "blocked_path", "blocked_paths",
           "boast_counts", "boast_value", "Counts", "cup_fits", "cups_of", "cups_placed", "do_boast",
           "do_bonus", "do_discard", "do_gift", "do_move", "do_pass", "do_promote", "do_send", "do_swap",
           "enter_queue", "Event", "free_slots", "gift_orders", "gifts_total", "guard_possible", "has_cup_on",
           "hurry_pairs", "is_last_to_pass", "legal_actions", "member_steps", "member_walks", "OpenStep",
           "own_piece", "Parsed", "pay", "pay_escorts", "piece", "room", "short_of_time", "simulate_moves",
           "simulate_steps", "State", "Step", "step_pairs", "steps_work", "Walk", "walk_works", "why_boast",
           "why_bonus", "why_discard", "why_gift", "why_move", "why_pass", "why_promote", "why_send",
           "why_swap"]
