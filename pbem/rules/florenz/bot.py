"""The Florenz bot: weighs each order by its effect on the queues at the Medici's targets and routes."""

from __future__ import annotations

from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order


def _florenz_worth(view: dict[str, Any], me: str, queues: dict[str, list[dict[str, Any]]]) -> float:
    """What a board position is worth to `me`: the positions at the targets of the Medici still to
    score (the active one in full, later ones less), heads on the active route, the plan card."""
    from pbem.rules.florenz import board as B
    from pbem.rules.florenz.data import DISC, PLAN_CARDS, medici_of, route

    r = view["round"] or 1
    worth = 0.0
    for ahead, rnd in enumerate(range(r, min(r + 3, 10))):
        target = view["targets"].get(medici_of(rnd))
        if target is None:
            continue
        weight = (1.0, 0.5, 0.3)[ahead]
        queue = queues[target]
        if "offers" in DISC[rnd]:
            order = B.strength_order(queue)
            if me in order:
                offer = DISC[rnd]["offers"][min(order.index(me), 2)]
                worth += weight * (offer["vp"] - offer["time"]) * 0.8
        else:
            worth += weight * B.queue_vp(queue, rnd).get(me, 0)
    active = medici_of(r)
    if active in view["carriages"] and active in view["targets"]:
        for loc in route(view["carriages"][active], view["targets"][active]):
            if B.head(queues[loc]) == me:
                worth += DISC[r]["head_vp"]
    plan = view["plan_cards"].get(me)
    if plan is not None:
        n = sum(B.members(queues[loc], me) for loc in PLAN_CARDS[plan]["locations"])
        worth += 1.5 * min(n, 6) * (r / 9)
    worth += 0.3 * len(B.locations_of(queues, me))
    return worth


@bot("florenz")
def florenz_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """Weighs each order by what it does to its queues at the Medici's targets and routes, boasts for
    the VP on the tile, keeps time for Giovanni, and passes when nothing pays for its time."""
    from pbem.rules.florenz import actions as A
    from pbem.rules.florenz import board as B
    from pbem.rules.florenz.orders import parse, split_position

    mood = temperament(me, "florenz")
    time_value = 0.9 + 0.4 * mood
    strings = [o for o in legal if isinstance(o, str)]
    if "accept" in strings:
        return "accept"
    if "decline" in strings:   # cannot pay yet: discard for time first, if that helps
        discards = [o for o in strings if o.startswith("discard ")]
        return discards[0] if discards else "decline"
    base = _florenz_worth(view, me, view["queues"])

    def after(queues: dict[str, Any]) -> float:
        return _florenz_worth(view, me, queues) - base

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
            q = {**view["queues"], loc: B.promote(view["queues"][loc], n, B.has_doorman(view["guards"], loc, me))}
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
