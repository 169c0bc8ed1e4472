"""The Florenz bot: weighs each order by its effect on the queues at the Medici's targets and routes
(`worth`: what a position is worth to a family; `targets`: what the bot reads of the round)."""

from __future__ import annotations

from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz.orders import parse, split_position
from pbem.rules.florenz.targets import Setting, queue_part, setting_of, target_term
from pbem.rules.florenz.worth import DELTAS, Delta, Part, Piece, Plan, Queues, Walkers, Worth, walk_plan


#: how the bot weighs an order (the first item of its `weighing`)
FIXED, WALK, SEND, PROMOTE, GIFT, BOAST, BONUS, SWAP, PLACE = range(9)


@bot("florenz")
def florenz_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """Weighs each order by what it does to its queues at the Medici's targets and routes, boasts for
    the VP on the tile, keeps time for Giovanni, and passes when nothing pays for its time. The best
    order wins, the first in text order among equals."""
    mood = temperament(me, "florenz")
    time_value = 0.9 + 0.4 * mood
    strings = [o for o in legal if isinstance(o, str)]
    if "accept" in strings:
        return "accept"
    if "decline" in strings:   # cannot pay yet: discard for time first, if that helps
        discards = [o for o in strings if o.startswith("discard ")]
        return discards[0] if discards else "decline"
    if not strings:
        return legal[0]
    queues = view["queues"]
    worth: Worth | None = None   # made at the first order that changes the queues
    base = 0.0
    best, top = "", 0.0
    weighed = WEIGHING.get
    for order in strings:
        how = weighed(order) or weighing(order)
        kind = how[0]
        if kind == WALK:   # the most of an action's orders, then the scandal cards (FIXED)
            if worth is None:
                worth = Worth(view, me)
                base = worth({})
            score = worth.walked(how[1], how[2]) - base - how[3] * time_value
        elif kind == FIXED:
            score = how[1]
        else:
            if worth is None and kind not in (BOAST, GIFT, BONUS):
                worth = Worth(view, me)
                base = worth({})
            if kind == SEND:
                score = worth.sent(how[1]) - base - 4 * time_value   # type: ignore[union-attr]
            elif kind == GIFT:
                cost = B.gift_cost(view["gifts_given"][me][how[1]])
                score = how[2] + 2 * mood - cost * time_value
            elif kind == PROMOTE:
                score = worth.promoted(how[1], how[2]) - base - 5 * time_value   # type: ignore[union-attr]
            elif kind == BOAST:
                score = A.boast_value(view, me, how[1]) - time_value
            elif kind == BONUS:
                score = 1.0 if how[1] == "vp" or view["time"][me] >= 12 else 1.2
            elif kind == SWAP:
                score = 1.0 + (worth({how[1]: B.swap(queues[how[1]], how[2], how[3])}) - base)   # type: ignore[misc]
            else:   # PLACE
                score = -len(queues[how[1]]) + (worth({how[1]: [   # type: ignore[misc]
                    {"family": me, "rank": "debutant", "colour": ""}]}) - base)
        if not best or score > top or (score == top and order < best):
            best, top = order, score
    return best


#: each order's `weighing`, kept: the bot weighs the same few thousand orders game after game
WEIGHING: dict[str, tuple[Any, ...]] = {}


def weighing(order: str) -> tuple[Any, ...]:
    """How the bot weighs an order: (FIXED, its score), (WALK, its `walk_plan`, its time in units of
    a move), or the kind and what the kind reads of the order (a location, a position...)."""
    o = parse(order)
    verb = None if o is None else o["verb"]
    how: tuple[Any, ...]
    if o is None:
        how = (FIXED, -100.0)
    elif verb in ("move", "hurry"):
        how = (WALK, *walk_plan(order), 1 if verb == "move" else 3)
    elif verb == "play":
        how = (FIXED, -3.0)   # scandal cards: kept for time and boasting
    elif verb == "place":
        how = (PLACE, o["location"])
    elif verb == "pass":
        how = (FIXED, 0.5 + (0.1 * int(o["location"]) if o.get("location") else 0))
    elif verb == "bonus":
        how = (BONUS, o["bonus"])
    elif verb == "swap":
        loc, p = split_position(o["position"])
        how = (SWAP, loc, p, split_position(o["position2"])[1])
    elif verb == "discard":
        how = (FIXED, -50.0)
    elif verb in ("done", "travel"):
        how = (FIXED, 0.0 if verb == "done" else -1.0)
    elif verb == "send":
        how = (SEND, o["location"])
    elif verb == "promote":
        how = (PROMOTE, *split_position(o["position"]))
    elif verb == "boast":
        how = (BOAST, o["location"])
    elif verb == "gift":
        how = (GIFT, o["medici"], 3.0 if o.get("crest") else 1.0)
    else:
        how = (FIXED, -3.0)   # any other order
    if len(WEIGHING) >= 65536:
        WEIGHING.clear()
    WEIGHING[order] = how
    return how


#: the bot's names: those defined here, and those of `worth` and `targets`, found here as they always were
__all__ = ["BOAST", "BONUS", "DELTAS", "FIXED", "GIFT", "PLACE", "PROMOTE", "SEND", "SWAP", "WALK", "WEIGHING",
           "Delta", "Part", "Piece", "Plan", "Queues", "Setting", "Walkers", "Worth", "florenz_bot", "queue_part",
           "setting_of", "target_term", "walk_plan", "weighing"]
