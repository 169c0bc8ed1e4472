"""What the Florenz bot reads of a round: the Medici to score this round and the next two and their
targets, the active Medici's route, the plan card (`Setting`, kept between decisions), and what a queue
at a target gives a family (`target_term`, `queue_part`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import DISC, PLAN_CARDS, medici_of, route


class Setting(NamedTuple):
    """What a `Worth` reads of a view besides the queues and the doormen, the same decision after
    decision while the round, the targets, the active carriage and the plan card stay (`setting_of`)."""

    #: (weight, round, target) of the Medici to score this round and the next two
    targets: list[tuple[float, int, str]]
    #: the locations the active Medici's carriage enters on its way to his target
    route: list[str]
    #: the plan card's locations (none without a card), as a set, and whether there is a card
    plan: list[str]
    plan_set: set[str]
    has_plan: bool
    #: location -> (index in `targets`, weight, round) of each target there
    targets_at: dict[str, list[tuple[int, float, int]]]
    #: the (weight, round) of each target at each location, as `queue_part` reads them
    scoring_at: dict[str, tuple[tuple[float, int], ...]]
    #: the locations whose queues the targets' terms and the heads on the route read
    scored: set[str]
    #: the plan card's term for each number of members in it (as `Worth.of_parts` works it out)
    plan_term: list[float]


@lru_cache(maxsize=4096)
def setting_of(me: str, r: int, targets: tuple[tuple[str, str], ...], carriage: str | None,
             plan: int | None) -> Setting:
    """The `Setting` of a view of round `r` for `me`: the Medici's targets (as the view's items), the
    active Medici's carriage (None: not on the board) and my plan card (None: none). Kept: to be read,
    not changed."""
    target_of = dict(targets)
    chosen: list[tuple[float, int, str]] = []
    for ahead, rnd in enumerate(range(r, min(r + 3, 10))):
        target = target_of.get(medici_of(rnd))
        if target is not None:
            chosen.append(((1.0, 0.5, 0.3)[ahead], rnd, target))
    active = medici_of(r)
    way = route(carriage, target_of[active]) if carriage is not None and active in target_of else []
    locations: list[str] = [] if plan is None else PLAN_CARDS[plan]["locations"]
    targets_at: dict[str, list[tuple[int, float, int]]] = {}
    for k, (w, rnd, t) in enumerate(chosen):
        targets_at.setdefault(t, []).append((k, w, rnd))
    scoring_at = {loc: tuple((w, rnd) for _, w, rnd in at) for loc, at in targets_at.items()}
    return Setting(chosen, way, locations, set(locations), plan is not None, targets_at, scoring_at,
                   {t for _, _, t in chosen} | set(way), [1.5 * min(n, 6) * (r / 9) for n in range(7)])


def target_term(queue: list[dict[str, Any]], me: str, weight: float, rnd: int) -> float | None:
    """What the queue at a Medici's target gives me, weighted: an offer's VP less its time by my
    place in the strength order (None: no member of mine), or the VP his carriage pays me there."""
    if "offers" in DISC[rnd]:
        order = B.strength_order(queue)
        if me not in order:
            return None
        offer = DISC[rnd]["offers"][min(order.index(me), 2)]
        return weight * (offer["vp"] - offer["time"]) * 0.8
    return weight * B.queue_vp(queue, rnd).get(me, 0)


@lru_cache(maxsize=65536)
def queue_part(queue: tuple[tuple[str, str], ...], me: str, targets: tuple[tuple[float, int], ...],
               head_of: str | None) -> tuple[int, tuple[float | None, ...], bool]:
    """What a queue, given as its (family, rank) pieces, gives me: my members there, the term of each
    target there (as (weight, round) pairs), and whether `head_of`'s carriage would pay me its head
    VP there (None: it does not pass). Kept: the same queues come up decision after decision."""
    pieces = [{"family": family, "rank": rank} for family, rank in queue]
    head = head_of is not None and B.head_scorer(pieces, head_of) == me
    return B.members(pieces, me), tuple(target_term(pieces, me, w, rnd) for w, rnd in targets), head
