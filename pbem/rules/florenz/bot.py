"""The Florenz bot: weighs each order by its effect on the queues at the Medici's targets and routes."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import DISC, PLAN_CARDS, medici_of, route
from pbem.rules.florenz.orders import parse, split_position


Queues = dict[str, list[dict[str, Any]]]


#: what a queue gives the worth: my members there, the target terms there (by the target's index in
#: `Worth.targets`), and whether the active Medici's carriage would pay me its head VP there
Part = tuple[int, dict[int, "float | None"], bool]


class Worth:
    """What a board position is worth to `me`: the positions at the targets of the Medici still to
    score (the active one in full, later ones less), heads on the active route, the plan card, the
    locations held. Built once per decision: a position's queues that are the view's own (an order
    changes two or three) reuse the parts worked out for the view, added up in the same order; the
    part of a queue members left or entered is worked out once for all the moves and hurries that
    change it alike."""

    def __init__(self, view: dict[str, Any], me: str) -> None:
        self.me = me
        self.view = view
        self.base: Queues = view["queues"]
        self.round = r = view["round"] or 1
        #: (weight, round, target) of the Medici to score this round and the next two
        self.targets: list[tuple[float, int, str]] = []
        for ahead, rnd in enumerate(range(r, min(r + 3, 10))):
            target = view["targets"].get(medici_of(rnd))
            if target is not None:
                self.targets.append(((1.0, 0.5, 0.3)[ahead], rnd, target))
        self.active = active = medici_of(r)
        self.head_vp = DISC[r]["head_vp"]
        self.route = route(view["carriages"][active], view["targets"][active]) \
            if active in view["carriages"] and active in view["targets"] else []
        plan = view["plan_cards"].get(me)
        self.plan: list[str] = [] if plan is None else PLAN_CARDS[plan]["locations"]
        self.has_plan = plan is not None
        #: each target with its term for the view's queue there
        self._target_terms = [(t, self._target_term(w, rnd, self.base[t])) for w, rnd, t in self.targets]
        self._heads = {loc: self._heads_here(self.base[loc]) for loc in self.route}
        self._members = {loc: B.members(q, me) for loc, q in self.base.items()}
        self._in_plan = sum(self._members[loc] for loc in self.plan)
        self._held = sum(1 for n in self._members.values() if n)
        self._plan_set = set(self.plan)   # the plan card's four different locations
        self._targets_at: dict[str, list[tuple[int, float, int]]] = {}   # location -> (index, weight, round)
        for k, (w, rnd, t) in enumerate(self.targets):
            self._targets_at.setdefault(t, []).append((k, w, rnd))
        #: the locations whose queues the targets' terms and the heads on the route read, and the sum
        #: of those terms and head VP for the view's queues (most orders change none of them)
        self._scored = {t for _, _, t in self.targets} | set(self.route)
        self._scored_worth = self._scored_sum({})
        #: what is worked out once per decision: the parts of queues members walked from or to (by
        #: `walk_plan`'s names), the worth after each walk, my doormen
        self._walk_parts: dict[str, Part] = {}
        self._walk_worth: dict[str, float] = {}
        self._doormen: dict[str, bool] = {}

    def _target_term(self, weight: float, rnd: int, queue: list[dict[str, Any]]) -> float | None:
        if "offers" in DISC[rnd]:
            order = B.strength_order(queue)
            if self.me not in order:
                return None
            offer = DISC[rnd]["offers"][min(order.index(self.me), 2)]
            return weight * (offer["vp"] - offer["time"]) * 0.8
        return weight * B.queue_vp(queue, rnd).get(self.me, 0)

    def _heads_here(self, queue: list[dict[str, Any]]) -> bool:
        return B.head_scorer(queue, self.active) == self.me

    def part(self, loc: str, queue: list[dict[str, Any]]) -> Part:
        """What the queue `queue` at `loc` gives the worth."""
        terms = {k: self._target_term(w, rnd, queue) for k, w, rnd in self._targets_at.get(loc, ())}
        return B.members(queue, self.me), terms, loc in self._heads and self._heads_here(queue)

    def __call__(self, changes: Queues) -> float:
        """The worth of the view's position with the queues in `changes` (only those an order changed)
        in place of the view's."""
        return self.of_parts({loc: self.part(loc, q) for loc, q in changes.items()})

    def of_parts(self, parts: dict[str, Part]) -> float:
        """The worth of the view's position with the queues whose parts are given changed."""
        worth = self._scored_worth if self._scored.isdisjoint(parts) else self._scored_sum(parts)
        in_plan, held = self._in_plan, self._held
        for loc, (n, _, _) in parts.items():
            if loc in self._plan_set:
                in_plan += n - self._members[loc]
            held += (n > 0) - (self._members[loc] > 0)
        if self.has_plan:
            worth += 1.5 * min(in_plan, 6) * (self.round / 9)
        return worth + 0.3 * held

    def _scored_sum(self, parts: dict[str, Part]) -> float:
        """The targets' terms and the head VP on the route, added up in this order."""
        worth = 0.0
        for k, (target, term) in enumerate(self._target_terms):
            part = parts.get(target)
            if part is not None:
                term = part[1][k]
            if term is not None:
                worth += term
        for loc in self.route:
            part = parts.get(loc)
            if self._heads[loc] if part is None else part[2]:
                worth += self.head_vp
        return worth

    def walk(self, order: str) -> float:
        """The worth after a legal move or hurry. A queue it changes is the view's with members gone and
        come in turn, and many orders change a queue alike (hurries over different ways to the same
        place change the queues alike): the part of each queue, and the worth, are worked out once."""
        whole, plan = walk_plan(order)
        if whole not in self._walk_worth:
            parts: dict[str, Part] = {}
            for key, loc, how in plan:
                if key not in self._walk_parts:
                    self._walk_parts[key] = self._walk_part(loc, how)
                parts[loc] = self._walk_parts[key]
            self._walk_worth[whole] = self.of_parts(parts)
        return self._walk_worth[whole]

    def _walk_part(self, loc: str, how: tuple[tuple[str, str], ...]) -> Part:
        """The part of the queue at `loc` after my members at the positions given leave or enter it."""
        if loc in self._scored:
            return self.part(loc, self._walked(loc, how))
        # only my members there count, and every member walking is mine
        return self._members[loc] + sum(1 if what == "enter" else -1 for what, _ in how), {}, False

    def sent(self, loc: str) -> float:
        """The worth after a debutant of mine enters the queue at `loc`."""
        if loc in self._scored:
            debutant = {"family": self.me, "rank": "debutant", "colour": ""}
            queue = B.enter(self.base[loc], debutant, self._doorman(loc))
            return self.of_parts({loc: self.part(loc, queue)})
        return self.of_parts({loc: (self._members[loc] + 1, {}, False)})

    def _walked(self, loc: str, how: tuple[tuple[str, str], ...]) -> list[dict[str, Any]]:
        """The queue at `loc` after the members at the positions given leave it or enter it, in turn,
        as `A.simulate_steps` walks them (a member found by identity, a newcomer a copy)."""
        queue = self.base[loc]
        for what, position in how:
            start, n = split_position(position)
            mover = self.base[start][n - 1]
            if what == "leave":
                i = n - 1 if queue is self.base[loc] else next(k for k, p in enumerate(queue) if p is mover)
                queue = queue[:i] + queue[i + 1:]   # as `B.leave`
            else:
                queue = B.enter(queue, mover, self._doorman(loc))
        return queue

    def _doorman(self, loc: str) -> bool:
        """Whether a guard of mine stands as doorman at `loc`."""
        if loc not in self._doormen:
            self._doormen[loc] = B.has_doorman(self.view["guards"], loc, self.me)
        return self._doormen[loc]


@lru_cache(maxsize=16384)
def walk_plan(order: str) -> tuple[str, tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]]:
    """What a move or hurry does to each queue it changes: (a text naming the change, the location,
    each member that leaves it or enters it in turn, as ("leave" or "enter", its position)), and a
    text naming all the changes. A member hurrying over `via` needs no slot there: it enters only where
    its walk ends."""
    o = parse(order)
    assert o is not None
    if o["verb"] == "move" or o.get("via"):
        steps = [(o["position"], o["to"])]
    else:
        steps = [(o["position"], o["to"]), (o["position2"], o["to2"])]
    done: dict[str, list[tuple[str, str]]] = {}
    for position, dest in steps:
        done.setdefault(position.split(".")[0], []).append(("leave", position))
        done.setdefault(dest, []).append(("enter", position))
    plan = tuple((" ".join([loc, *(f"{what} {position}" for what, position in how)]), loc, tuple(how))
                 for loc, how in done.items())
    return "; ".join(key for key, _, _ in plan), plan


@bot("florenz")
def florenz_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """Weighs each order by what it does to its queues at the Medici's targets and routes, boasts for
    the VP on the tile, keeps time for Giovanni, and passes when nothing pays for its time."""
    mood = temperament(me, "florenz")
    time_value = 0.9 + 0.4 * mood
    strings = [o for o in legal if isinstance(o, str)]
    if "accept" in strings:
        return "accept"
    if "decline" in strings:   # cannot pay yet: discard for time first, if that helps
        discards = [o for o in strings if o.startswith("discard ")]
        return discards[0] if discards else "decline"
    queues = view["queues"]
    worth: Worth | None = None   # made at the first order that changes the queues
    base = 0.0

    def made() -> Worth:
        nonlocal worth, base
        if worth is None:
            worth = Worth(view, me)
            base = worth({})
        return worth

    def after(changes: Queues) -> float:
        return made()(changes) - base

    def score(order: str) -> float:
        o = fields(order)
        if o is None:
            return -100.0
        verb = o["verb"]
        if verb in ("move", "hurry"):   # the most of an action's orders, then the scandal cards
            return made().walk(order) - base - (1 if verb == "move" else 3) * time_value
        if verb == "play":
            return -3.0   # scandal cards: kept for time and boasting
        if verb in ("place",):
            return -len(queues[o["location"]]) + after({o["location"]: [
                {"family": me, "rank": "debutant", "colour": ""}]})
        if verb == "pass":
            return 0.5 + (0.1 * int(o["location"]) if o.get("location") else 0)
        if verb == "bonus":
            return 1.0 if o["bonus"] == "vp" or view["time"][me] >= 12 else 1.2
        if verb == "swap":
            loc, p = split_position(o["position"])
            return 1.0 + after({loc: B.swap(queues[loc], p, split_position(o["position2"])[1])})
        if verb == "discard":
            return -50.0
        if verb in ("done", "travel"):
            return 0.0 if verb == "done" else -1.0
        if verb == "send":
            return made().sent(o["location"]) - base - 4 * time_value
        if verb == "promote":
            loc, n = split_position(o["position"])
            return after({loc: B.promote(queues[loc], n)}) - 5 * time_value
        if verb == "boast":
            return A.boast_value(view, me, o["location"]) - time_value
        if verb == "gift":
            cost = B.gift_cost(view["gifts_given"][me][o["medici"]])
            return (3.0 if o.get("crest") else 1.0) + 2 * mood - cost * time_value
        return -3.0   # any other order

    return min(strings, key=lambda o: (-score(o), o)) if strings else legal[0]


@lru_cache(maxsize=16384)
def fields(order: str) -> dict[str, Any] | None:
    """`parse`, kept: the bot scores the same few hundred orders game after game (read only)."""
    return parse(order)
