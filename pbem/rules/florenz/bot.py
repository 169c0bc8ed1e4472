"""The Florenz bot: weighs each order by its effect on the queues at the Medici's targets and routes."""

from __future__ import annotations

from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import DISC, PLAN_CARDS, medici_of, route
from pbem.rules.florenz.orders import parse, split_position


Queues = dict[str, list[dict[str, Any]]]


class Worth:
    """What a board position is worth to `me`: the positions at the targets of the Medici still to
    score (the active one in full, later ones less), heads on the active route, the plan card, the
    locations held. Built once per decision: a position's queues that are the view's own (an order
    changes two or three) reuse the parts worked out for the view, added up in the same order."""

    def __init__(self, view: dict[str, Any], me: str) -> None:
        self.me = me
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
        self._terms = [self._target_term(w, rnd, self.base[t]) for w, rnd, t in self.targets]
        self._heads = {loc: self._heads_here(self.base[loc]) for loc in self.route}
        self._members = {loc: B.members(q, me) for loc, q in self.base.items()}
        self._in_plan = sum(self._members[loc] for loc in self.plan)
        self._held = sum(1 for n in self._members.values() if n)

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

    def __call__(self, queues: Queues) -> float:
        base = self.base
        changed = {loc: B.members(q, self.me) for loc, q in queues.items() if q is not base[loc]}
        worth = 0.0
        for (weight, rnd, target), term in zip(self.targets, self._terms):
            if target in changed:
                term = self._target_term(weight, rnd, queues[target])
            if term is not None:
                worth += term
        for loc in self.route:
            if self._heads_here(queues[loc]) if loc in changed else self._heads[loc]:
                worth += self.head_vp
        if self.has_plan:
            n = self._in_plan + sum(changed[loc] - self._members[loc] for loc in self.plan if loc in changed)
            worth += 1.5 * min(n, 6) * (self.round / 9)
        held = self._held + sum((n > 0) - (self._members[loc] > 0) for loc, n in changed.items())
        return worth + 0.3 * held


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
    worth = Worth(view, me)
    base = worth(view["queues"])

    def after(queues: dict[str, Any]) -> float:
        return worth(queues) - base

    def score(order: str) -> float:
        o = parse(order)
        if o is None:
            return -100.0
        verb = o["verb"]
        if verb in ("place",):
            return -len(view["queues"][o["location"]]) + after({**view["queues"], o["location"]: [
                {"family": me, "rank": "debutant", "colour": ""}]})
        if verb == "pass":
            return 0.5 + (0.1 * int(o["location"]) if o.get("location") else 0)
        if verb == "bonus":
            return 1.0 if o["bonus"] == "vp" or view["time"][me] >= 12 else 1.2
        if verb == "swap":
            loc, p = split_position(o["position"])
            return 1.0 + after({**view["queues"], loc: B.swap(view["queues"][loc], p, split_position(o["position2"])[1])})
        if verb == "discard":
            return -50.0
        if verb in ("done", "travel"):
            return 0.0 if verb == "done" else -1.0
        if verb == "send":
            q = dict(view["queues"])
            A.enter_queue(view, q, o["location"], {"family": me, "rank": "debutant", "colour": ""})
            return after(q) - 4 * time_value
        if verb == "promote":
            loc, n = split_position(o["position"])
            q = {**view["queues"], loc: B.promote(view["queues"][loc], n)}
            return after(q) - 5 * time_value
        if verb in ("move", "hurry"):
            result = A.simulate_moves(view, me, o)
            return -100.0 if isinstance(result, str) else after(result[0]) - (1 if verb == "move" else 3) * time_value
        if verb == "boast":
            return A.boast_value(view, me, o["location"]) - time_value
        if verb == "gift":
            cost = B.gift_cost(view["gifts_given"][me][o["medici"]])
            return (3.0 if o.get("crest") else 1.0) + 2 * mood - cost * time_value
        return -3.0   # scandal cards: kept for time and boasting

    ranked = sorted(strings, key=lambda o: (-score(o), o))
    return ranked[0] if ranked else legal[0]
