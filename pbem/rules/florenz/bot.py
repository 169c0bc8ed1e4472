"""The Florenz bot: weighs each order by its effect on the queues at the Medici's targets and routes."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import DISC, PLAN_CARDS, RANK_ORDER, medici_of, route
from pbem.rules.florenz.orders import parse, split_position


Queues = dict[str, list[dict[str, Any]]]


#: what a queue gives the worth: my members there, the target terms there (by the target's index in
#: `Worth.targets`), and whether the active Medici's carriage would pay me its head VP there
Part = tuple[int, dict[int, "float | None"], bool]

#: what a walk changes at a queue: my members in the plan card's locations, the locations I hold, the
#: targets' terms ((index, term) pairs, those that differ) and the heads I hold on the route
Delta = tuple[int, int, tuple[tuple[int, "float | None"], ...], int]

#: my members leaving or entering a queue in turn: ("leave" or "enter", position, its location and number)
Walkers = tuple[tuple[str, str, str, int], ...]

#: what a move or hurry does to each queue it changes (`walk_plan`)
Plan = tuple[tuple[str, str, Walkers], ...]


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
        #: how many locations of the route the view's queues give me the head of
        self._heads_count = sum(self._heads.values())
        self._members = {loc: [p["family"] for p in q].count(me) for loc, q in self.base.items()}   # B.members
        self._in_plan = sum(self._members[loc] for loc in self.plan)
        self._held = sum(1 for n in self._members.values() if n)
        self._plan_set = set(self.plan)   # the plan card's four different locations
        self._targets_at: dict[str, list[tuple[int, float, int]]] = {}   # location -> (index, weight, round)
        for k, (w, rnd, t) in enumerate(self.targets):
            self._targets_at.setdefault(t, []).append((k, w, rnd))
        #: the (weight, round) of each target at each location, as `queue_part` reads them
        self._scoring_at = {loc: tuple((w, rnd) for _, w, rnd in at) for loc, at in self._targets_at.items()}
        #: the locations whose queues the targets' terms and the heads on the route read, and the sum
        #: of those terms and head VP for the view's queues (most orders change none of them)
        self._scored = {t for _, _, t in self.targets} | set(self.route)
        self._scored_worth = self._scored_sum({})
        #: the targets' terms for the view's queues, by index, and their sum (as `_scored_sum` adds them)
        self._terms = [term for _, term in self._target_terms]
        self._terms_sum = 0.0
        for term in self._terms:
            if term is not None:
                self._terms_sum += term
        #: what is worked out once per decision: the parts of queues members walked from or to (by
        #: `walk_plan`'s names), the worth after each walk, my doormen
        self._walk_parts: dict[str, Delta] = {}
        self._walk_worth: dict[str, float] = {}
        self._doormen: dict[str, bool] = {}
        self._queue_pieces: dict[str, list[tuple[int, str, str]]] = {}
        #: the plan card's term for each number of members in it (as `of_parts` works it out)
        self._plan_term = [1.5 * min(n, 6) * (self.round / 9) for n in range(7)]

    def _target_term(self, weight: float, rnd: int, queue: list[dict[str, Any]]) -> float | None:
        return target_term(queue, self.me, weight, rnd)

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
        """The targets' terms and the head VP on the route, added up in this order (the head VP, all
        alike, as often as I hold a head on the route)."""
        worth = 0.0
        for k, (target, term) in enumerate(self._target_terms):
            part = parts.get(target)
            if part is not None:
                term = part[1][k]
            if term is not None:
                worth += term
        heads = self._heads_count
        for loc, part in parts.items():
            if loc in self._heads:
                heads += part[2] - self._heads[loc]
        for _ in range(heads):
            worth += self.head_vp
        return worth

    def walk(self, order: str) -> float:
        """The worth after a legal move or hurry."""
        return self.walked(*walk_plan(order))

    def walked(self, whole: str, plan: Plan) -> float:
        """The worth after a move or hurry, from its `walk_plan`. A queue it changes is the view's with
        members gone and come in turn, and many orders change a queue alike (hurries over different
        ways to the same place change the queues alike): what each changed queue changes of my members
        in the plan card's locations, of the locations I hold, of the targets' terms and of the heads I
        hold on the route is worked out once, and so is the worth."""
        worth = self._walk_worth.get(whole)
        if worth is None:
            deltas = []
            for key, loc, how in plan:
                delta = self._walk_parts.get(key)
                if delta is None:
                    delta = self._walk_parts[key] = self._walk_delta(loc, how)
                deltas.append(delta)
            worth = self._walk_worth[whole] = self._worth_of(deltas)
        return worth

    def _scored_with(self, changed: tuple[tuple[int, float | None], ...], heads: int) -> float:
        """`_scored_sum` with the targets' terms changed as given ((index, term) pairs) and `heads`
        more heads held on the route."""
        worth = 0.0
        if changed:
            terms = list(self._terms)
            for k, term in changed:
                terms[k] = term
            for term in terms:
                if term is not None:
                    worth += term
        else:
            worth = self._terms_sum
        for _ in range(self._heads_count + heads):
            worth += self.head_vp
        return worth

    def _walk_delta(self, loc: str, how: Walkers) -> Delta:
        """What the queue at `loc`, after my members at the positions given leave or enter it in turn,
        changes (`_delta`)."""
        if loc not in self._scored:   # only my members there count, and every member walking is mine
            return self._delta(loc, self._members[loc] + sum(1 if what == "enter" else -1 for what, *_ in how))
        queue = list(self._pieces(loc))
        for what, _, start, n in how:
            if what == "leave":   # a member leaves the queue it stands in
                del queue[next(k for k, (i, _, _) in enumerate(queue) if i == n)]
            else:
                self._enter(queue, loc, self.base[start][n - 1]["rank"])
        return self._delta(loc, queue)

    def _pieces(self, loc: str) -> list[tuple[int, str, str]]:
        """The view's queue at `loc` as (position, family, rank) of each piece (not to be changed)."""
        pieces = self._queue_pieces.get(loc)
        if pieces is None:
            pieces = self._queue_pieces[loc] = [(i, p["family"], p["rank"]) for i, p in enumerate(self.base[loc], 1)]
        return pieces

    def _enter(self, queue: list[tuple[int, str, str]], loc: str, rank: str) -> None:
        """A newcomer of mine of `rank` enters `queue` at `loc` where `B.enter` puts it."""
        r = RANK_ORDER[rank]
        if self._doorman(loc):
            at = sum(1 for _, _, other in queue if RANK_ORDER[other] < r)
        else:
            at = sum(1 for _, _, other in queue if RANK_ORDER[other] <= r)
        queue.insert(at, (0, self.me, rank))

    def _delta(self, loc: str, queue: "list[tuple[int, str, str]] | int") -> Delta:
        """What a changed queue at `loc` changes: my members in the plan card's locations, the
        locations I hold, the targets' terms (those that differ) and the heads I hold on the route.
        The queue comes as its pieces where the targets or the route read it, else as my members."""
        was = self._members[loc]
        terms: tuple[tuple[int, float | None], ...] = ()
        heads = 0
        if isinstance(queue, int):
            n = queue
        elif loc not in self._targets_at:   # on the route only: the head is all that counts
            n = was + len(queue) - len(self.base[loc])   # every member walking is mine
            head = bool(queue) and queue[0][1] == self.me and not (
                self.active == "contessina" and queue[0][2] == "debutant")   # as `B.head_scorer`
            heads = head - self._heads[loc]
        else:
            n, now, head = queue_part(tuple((family, rank) for _, family, rank in queue), self.me,
                                      self._scoring_at[loc], self.active if loc in self._heads else None)
            for (k, _, _), term in zip(self._targets_at[loc], now):
                if term != self._terms[k]:
                    terms += ((k, term),)
            if loc in self._heads:
                heads = head - self._heads[loc]
        return (n - was if loc in self._plan_set else 0), (n > 0) - (was > 0), terms, heads

    def _worth_of(self, deltas: "list[Delta] | tuple[Delta, ...]") -> float:
        """The worth of the view's position with its queues changed as given (`of_parts`, added up
        alike)."""
        in_plan, held, terms, heads = self._in_plan, self._held, (), 0
        for delta in deltas:
            in_plan += delta[0]
            held += delta[1]
            terms += delta[2]
            heads += delta[3]
        worth = self._scored_worth if not terms and not heads else self._scored_with(terms, heads)
        if self.has_plan:
            worth += self._plan_term[min(in_plan, 6)]
        return worth + 0.3 * held

    def sent(self, loc: str) -> float:
        """The worth after a debutant of mine enters the queue at `loc`."""
        if loc not in self._scored:
            return self._worth_of((self._delta(loc, self._members[loc] + 1),))
        queue = list(self._pieces(loc))
        self._enter(queue, loc, "debutant")
        return self._worth_of((self._delta(loc, queue),))

    def _doorman(self, loc: str) -> bool:
        """Whether a guard of mine stands as doorman at `loc`."""
        if loc not in self._doormen:
            self._doormen[loc] = B.has_doorman(self.view["guards"], loc, self.me)
        return self._doormen[loc]


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


@lru_cache(maxsize=16384)
def walk_plan(order: str) -> tuple[str, Plan]:
    """What a move or hurry does to each queue it changes: (a text naming the change, the location,
    each member that leaves it or enters it in turn, as ("leave" or "enter", its position, the
    position's location and number)), and a text naming all the changes. A member hurrying over `via`
    needs no slot there: it enters only where its walk ends."""
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
    plan = tuple((" ".join([loc, *(f"{what} {position}" for what, position in how)]), loc,
                  tuple((what, position, *split_position(position)) for what, position in how))
                 for loc, how in done.items())
    return "; ".join(key for key, _, _ in plan), plan


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
    for order in strings:
        how = WEIGHING.get(order) or weighing(order)
        kind = how[0]
        if kind == FIXED:
            score = how[1]
        else:
            if worth is None and kind not in (BOAST, GIFT, BONUS):
                worth = Worth(view, me)
                base = worth({})
            if kind == WALK:   # the most of an action's orders, then the scandal cards (FIXED)
                score = worth.walked(how[1], how[2]) - base - how[3] * time_value   # type: ignore[union-attr]
            elif kind == SEND:
                score = worth.sent(how[1]) - base - 4 * time_value   # type: ignore[union-attr]
            elif kind == GIFT:
                cost = B.gift_cost(view["gifts_given"][me][how[1]])
                score = how[2] + 2 * mood - cost * time_value
            elif kind == PROMOTE:
                score = worth({how[1]: B.promote(queues[how[1]], how[2])}) - base - 5 * time_value   # type: ignore[misc]
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
