"""The board as pure functions on plain data: queues, control, guards, boasting and end scoring.

A piece is `{"family": ..., "rank": ..., "colour": ...}` (colour matters only to Strozzi's two colours);
a queue is a list of pieces, head first; `queues` maps each location ("1".."9") to its queue. Positions
count from 1 (the head), as in the orders' `L.N`. Nothing here mutates its arguments: every change
returns a new queue, so an engine can test an order on the state before it applies it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from pbem.rules.florenz.data import (
    BOAST_SLOT_ORDER,
    BOAST_SLOTS,
    BOAST_TILES,
    COLUMN_OF,
    CRESTS,
    DATA,
    DISC,
    LOCATIONS,
    PLAN_CARDS,
    PLAN_MAX_VP,
    PLAN_MIN_MEMBERS,
    PROMOTES_TO,
    RANK_ORDER,
    ROW_OF,
    SLOTS,
    TIME_MAX,
    TIME_MIN,
    medici_of,
)

Piece = dict[str, Any]
Queue = list[Piece]
Queues = dict[str, Queue]
Guards = dict[str, dict[str, list[dict[str, Any]]]]   # kind -> crest -> guards on it, in the order placed
Cups = dict[str, Any]                                 # slot -> {"family", "colour"} or None

POSITION = re.compile(r"^([1-9])\.([1-9][0-9]?)\Z")


# -- naming pieces ------------------------------------------------------------------------------------

@lru_cache(maxsize=1024)
def parse_position(text: str) -> tuple[str, int] | None:
    """`6.3` -> ("6", 3); None when the text names no queue position."""
    m = POSITION.match(text)
    return (m.group(1), int(m.group(2))) if m else None


def piece_at(queues: Queues, position: str) -> Piece | None:
    """The petitioner at `L.N`, or None when the text is no position or the slot is empty."""
    parsed = parse_position(position)
    if parsed is None:
        return None
    queue = queues.get(parsed[0], [])
    return queue[parsed[1] - 1] if parsed[1] <= len(queue) else None


def same_piece(a: Piece, b: Piece) -> bool:
    """Two pieces nobody can tell apart (same family, rank and colour): swapping them changes nothing."""
    return (a["family"], a["rank"], a.get("colour")) == (b["family"], b["rank"], b.get("colour"))


# -- queues: priority, rank, doormen ------------------------------------------------------------------

def entry_index(queue: Queue, rank: str, doorman: bool = False) -> int:
    """Where a newcomer of `rank` stands (0-based): behind every higher rank, and behind its equals
    already waiting, or before them with a doorman of its family at this queue."""
    r = RANK_ORDER[rank]
    if doorman:
        return sum(1 for p in queue if RANK_ORDER[p["rank"]] < r)
    return sum(1 for p in queue if RANK_ORDER[p["rank"]] <= r)


def enter(queue: Queue, piece: Piece, doorman: bool = False) -> Queue:
    """The queue after `piece` comes in (by any means). The caller checks for a free slot."""
    i = entry_index(queue, piece["rank"], doorman)
    return queue[:i] + [dict(piece)] + queue[i:]


def leave(queue: Queue, position: int) -> tuple[Queue, Piece]:
    """The queue after the petitioner at `position` leaves (the others close up), and that piece."""
    i = position - 1
    return queue[:i] + queue[i + 1:], dict(queue[i])


def promote(queue: Queue, position: int) -> Queue:
    """The queue after the piece at `position` is replaced in place by one of the next rank and the
    queue is sorted by rank again, keeping the order within each rank (FLORENZ-PLAN R7): the piece
    does not enter the queue anew, so a doorman does not act. Needs no free slot."""
    old = queue[position - 1]
    if old["rank"] not in PROMOTES_TO:
        raise ValueError(f"a {old['rank']} cannot be promoted")
    out = list(queue)
    out[position - 1] = {**old, "rank": PROMOTES_TO[old["rank"]]}
    return sorted(out, key=lambda p: RANK_ORDER[p["rank"]])   # stable: equals keep their order


def swap(queue: Queue, p: int, q: int) -> Queue:
    """The queue with the petitioners at positions `p` and `q` exchanged; they must share a rank."""
    a, b = queue[p - 1], queue[q - 1]
    if a["rank"] != b["rank"]:
        raise ValueError(f"a {a['rank']} and a {b['rank']} cannot swap: the rank order holds")
    out = list(queue)
    out[p - 1], out[q - 1] = b, a
    return out


def first_of_rank(queue: Queue, position: int) -> int:
    """The position of the first petitioner of the rank of the one at `position`."""
    rank = queue[position - 1]["rank"]
    return 1 + next(i for i, p in enumerate(queue) if p["rank"] == rank)


def advance(queue: Queue, position: int) -> Queue:
    """The queue after the piece at `position` moves before every other petitioner of its rank."""
    front = first_of_rank(queue, position)
    if front == position:
        raise ValueError("the piece already stands first of its rank")
    rest, piece = leave(queue, position)
    return rest[:front - 1] + [piece] + rest[front - 1:]


def bonus_swaps(queue: Queue, family: str) -> list[tuple[int, int]]:
    """The swaps the bonus after passing allows here: (own position, neighbour's position), the
    neighbour directly before or behind, of the same rank, and not the family's own."""
    out: list[tuple[int, int]] = []
    for i, piece in enumerate(queue):
        if piece["family"] != family:
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(queue) and queue[j]["family"] != family and queue[j]["rank"] == piece["rank"]:
                out.append((i + 1, j + 1))
    return out


# -- capacity -----------------------------------------------------------------------------------------

def blocked_slots(location: str, families: int) -> list[int]:
    """The slots of a queue closed by blocking tiles: those whose printed number exceeds the number of
    families (the solo game counts as 2)."""
    numbers = DATA["queue"]["slot_numbers"][int(location)]
    return sorted(slot for slot, n in numbers.items() if n > families)


def open_slots(families: int) -> dict[str, int]:
    """How many petitioners each queue holds with this many families."""
    return {loc: SLOTS - len(blocked_slots(loc, families)) for loc in LOCATIONS}


def has_room(queue: Queue, open_: int) -> bool:
    return len(queue) < open_


# -- control and strength -----------------------------------------------------------------------------

def head(queue: Queue) -> str | None:
    """The family at the head of the queue."""
    return queue[0]["family"] if queue else None


def head_scorer(queue: Queue, medici: str) -> str | None:
    """The family a Medici entering this location pays the head VP: the family at the head, but never
    a debutant for Contessina ("Sie vergibt niemals Siegpunkte an Debütanten", FLORENZ-PLAN R67)."""
    if not queue or (medici == "contessina" and queue[0]["rank"] == "debutant"):
        return None
    return queue[0]["family"]


def members(queue: Queue, family: str) -> int:
    """The family's petitioners in the queue."""
    n = 0
    for p in queue:   # a plain loop: counted at every boast and worth, on queues of a few pieces
        if p["family"] == family:
            n += 1
    return n


def strength_order(queue: Queue) -> list[str]:
    """The families in a queue, strongest first: most members; on equal numbers, the one whose
    frontmost member stands further forward."""
    families: list[str] = []
    for p in queue:
        if p["family"] not in families:
            families.append(p["family"])   # in order of their frontmost member
    return sorted(families, key=lambda f: -members(queue, f))   # stable: ties keep the frontmost first


def controller(queue: Queue) -> str | None:
    """The family that controls the location, or None for an empty queue."""
    order = strength_order(queue)
    return order[0] if order else None


# -- guards and crests --------------------------------------------------------------------------------

def guards_on(guards: Guards, kind: str, crest: str) -> list[str]:
    """The families with a guard on a crest, in the order placed."""
    return [g["family"] for g in guards.get(kind, {}).get(crest, [])]


def has_doorman(guards: Guards, location: str, family: str) -> bool:
    return family in guards_on(guards, "doorman", location)


def free_crests(guards: Guards, kind: str) -> list[str]:
    """The crests of a kind with no guard at all (where a gift's guard may go)."""
    on = guards.get(kind, {})
    return [c for c in CRESTS[kind] if not on.get(c)]


def crests_without(guards: Guards, kind: str, family: str) -> list[str]:
    """The crests of a kind without a guard of `family` (Figliolo's guard card may share a crest)."""
    return [c for c in CRESTS[kind] if family not in guards_on(guards, kind, c)]


# -- time and gifts -----------------------------------------------------------------------------------

def gain_time(clock: int, amount: int) -> int:
    """The clock after gaining (or spending) time; gains beyond the maximum are lost."""
    return max(TIME_MIN, min(TIME_MAX, clock + amount))


def gift_cost(given_to_this_medici: int) -> int:
    """The time of a family's next gift to a Medici it has already given this many gifts."""
    return DATA["gift_cost"]["first"] + DATA["gift_cost"]["step"] * given_to_this_medici


# -- boasting -----------------------------------------------------------------------------------------

def slot_for(vp: int) -> str:
    """The cup slot whose range holds `vp`."""
    for slot in BOAST_SLOT_ORDER:
        low, high = BOAST_SLOTS[slot]["min"], BOAST_SLOTS[slot]["max"]
        if vp >= low and (high is None or vp <= high):
            return slot
    raise ValueError(f"no cup slot holds {vp} VP")


def cup_slot(vp: int, cups: Cups) -> str | None:
    """Where a cup for `vp` goes: the slot whose range holds it, else the next free one below; None
    when none is free (the boast is not allowed)."""
    top = BOAST_SLOT_ORDER.index(slot_for(vp))
    for slot in reversed(BOAST_SLOT_ORDER[:top + 1]):
        if cups.get(slot) is None:
            return slot
    return None


def has_cup(cups: Cups, family: str) -> bool:
    return any(c is not None and c["family"] == family for c in cups.values())


def highest_cup(cups: Cups) -> str | None:
    """The family whose cup lies highest on a tile (the one the boast reward may go to)."""
    for slot in reversed(BOAST_SLOT_ORDER):
        if cups.get(slot) is not None:
            return cups[slot]["family"]
    return None


def locations_of(queues: Queues, family: str) -> dict[str, int]:
    """The family's members per location where it has any."""
    out = {loc: members(q, family) for loc, q in queues.items()}
    return {loc: n for loc, n in out.items() if n}


def boast_count(count: str, family: str, queues: Queues, location: str, cups_placed: int = 0,
                cards_in_hand: int = 0, gifts_given: int = 0) -> int:
    """What a boast tile's `count` counts for `family`, boasting at `location`. `cups_placed` are the
    family's cups already on tiles; the cup of this boast is added ("dieser hier zählt mit")."""
    if count == "ladies_and_maestro_on_board":
        return sum(1 for q in queues.values() for p in q if p["family"] == family and p["rank"] != "debutant")
    if count == "cups_placed":
        return cups_placed + 1
    if count == "scandal_cards_in_hand":
        return cards_in_hand
    if count == "queue_heads":
        return sum(1 for q in queues.values() if head(q) == family)
    if count == "members_in_row":
        return sum(members(queues.get(loc, []), family) for loc in ROW_OF[location])
    if count == "members_in_column":
        return sum(members(queues.get(loc, []), family) for loc in COLUMN_OF[location])
    where = locations_of(queues, family)
    if count == "locations_with_two_members":
        return sum(1 for n in where.values() if n >= 2)
    if count == "gifts_given":
        return gifts_given
    if count == "locations_with_a_member":
        return len(where)
    raise ValueError(f"unknown boast count {count!r}")


def boast_vp(tile: str, family: str, queues: Queues, location: str, cups_placed: int = 0,
             cards_in_hand: int = 0, gifts_given: int = 0) -> int:
    """The VP a boast on `tile` at `location` earns `family` now."""
    spec = BOAST_TILES[tile]
    return spec["vp_each"] * boast_count(spec["count"], family, queues, location, cups_placed, cards_in_hand,
                                         gifts_given)


# -- scoring ------------------------------------------------------------------------------------------

def queue_vp(queue: Queue, round_: int) -> dict[str, int]:
    """What Cosimo or Contessina pays each family for the queue at his destination: every position
    scores the sector's value for its family; Contessina gives debutants' positions 0, without
    renumbering."""
    table = DISC[round_]["queue_vp"]
    skip_debutants = medici_of(round_) == "contessina"
    out: dict[str, int] = {}
    for i, piece in enumerate(queue):
        vp = 0 if skip_debutants and piece["rank"] == "debutant" else table[i]
        out[piece["family"]] = out.get(piece["family"], 0) + vp
    return out


def plan_vp(card: int, family: str, queues: Queues) -> int:
    """A plan card's VP: the family's members at its 4 locations, however distributed; fewer than the
    minimum score 0, more than the table's top score the top."""
    spec = PLAN_CARDS[card]
    n = sum(members(queues.get(loc, []), family) for loc in spec["locations"])
    if n < PLAN_MIN_MEMBERS:
        return 0
    return min(PLAN_MAX_VP, spec["vp"][min(n, max(spec["vp"]))])


def time_vp(clock: int) -> int:
    """VP for the time left at the end: 1 per full `final_vp_per_time` units."""
    return clock // DATA["time"]["final_vp_per_time"]
