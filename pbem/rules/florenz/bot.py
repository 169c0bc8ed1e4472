"""The Florenz bot: weighs each order by its effect on the queues at the Medici's targets and routes."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

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

#: a piece of a queue as the bot walks it: its position in the view's queue (0: a newcomer), its
#: (family, rank) and the rank's place in the rank order
Piece = tuple[int, tuple[str, str], int]

#: what a move or hurry does to each queue it changes (`walk_plan`): a text naming the change, the
#: location, my members leaving or entering in turn, and how many more of mine stand there after
Plan = tuple[tuple[str, str, Walkers, int], ...]


class Setting(NamedTuple):
    """What a `Worth` reads of a view besides the queues and the doormen, the same decision after
    decision while the round, the targets, the active carriage and the plan card stay (`_setting`)."""

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
def _setting(me: str, r: int, targets: tuple[tuple[str, str], ...], carriage: str | None,
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


class Worth:
    """What a board position is worth to `me`: the positions at the targets of the Medici still to
    score (the active one in full, later ones less), heads on the active route, the plan card, the
    locations held. Built once per decision: a position's queues that are the view's own (an order
    changes two or three) reuse the parts worked out for the view, added up in the same order; the
    part of a queue members left or entered is worked out once for all the moves and hurries that
    change it alike (one member leaving from a position, or one of a rank entering, alike whoever it
    is), and what it reads of the view besides the queues is kept between decisions (`Setting`)."""

    def __init__(self, view: dict[str, Any], me: str) -> None:
        self.me = me
        self.view = view
        self.base: Queues = view["queues"]
        self.round = r = view["round"] or 1
        active = medici_of(r)
        setting = _setting(me, r, tuple(view["targets"].items()), view["carriages"].get(active),
                           view["plan_cards"].get(me))
        #: (weight, round, target) of the Medici to score this round and the next two
        self.targets: list[tuple[float, int, str]] = setting.targets
        self.active = active
        self.head_vp = DISC[r]["head_vp"]
        self.route = setting.route
        self.plan: list[str] = setting.plan
        self.has_plan = setting.has_plan
        #: each target with its term for the view's queue there (`target_term`, as `queue_part` keeps it)
        terms: list[float | None] = [None] * len(self.targets)
        #: the view's queues as their (family, rank) pieces (`_queue_key`), those at the targets at once
        self._queue_keys: dict[str, tuple[tuple[str, str], ...]] = {}
        for loc, at in setting.targets_at.items():
            key = self._queue_keys[loc] = tuple([(p["family"], p["rank"]) for p in self.base[loc]])
            now = queue_part(key, me, setting.scoring_at[loc], None)[1]
            for (k, _, _), term in zip(at, now):
                terms[k] = term
        self._target_terms = [(t, term) for (_, _, t), term in zip(self.targets, terms)]
        self._heads = {loc: B.head_scorer(self.base[loc], active) == me for loc in self.route}
        #: how many locations of the route the view's queues give me the head of
        self._heads_count = sum(self._heads.values())
        self._members = {loc: [p["family"] for p in q].count(me) for loc, q in self.base.items()}   # B.members
        self._in_plan = sum([self._members[loc] for loc in self.plan])
        self._held = len([1 for n in self._members.values() if n])
        self._plan_set = setting.plan_set   # the plan card's four different locations
        self._targets_at = setting.targets_at
        self._scoring_at = setting.scoring_at
        self._scored = setting.scored
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
        self._queue_pieces: dict[str, list[Piece]] = {}
        #: `_count_delta` by (location, members more), `_scored_with` by its arguments
        self._count_deltas: dict[tuple[str, int], Delta] = {}
        #: `_single_delta` by (location, the position left or the rank entering)
        self._single_deltas: dict[tuple[str, "int | str"], Delta] = {}
        self._scored_by: dict[tuple[tuple[tuple[int, float | None], ...], int], float] = {}
        self._plan_term = setting.plan_term

    def _heads_here(self, queue: list[dict[str, Any]]) -> bool:
        return B.head_scorer(queue, self.active) == self.me

    def part(self, loc: str, queue: list[dict[str, Any]]) -> Part:
        """What the queue `queue` at `loc` gives the worth."""
        at = self._targets_at.get(loc)
        if at is None:
            return B.members(queue, self.me), {}, loc in self._heads and self._heads_here(queue)
        n, terms, head = queue_part(tuple([(p["family"], p["rank"]) for p in queue]), self.me,
                                    self._scoring_at[loc], self.active if loc in self._heads else None)
        return n, {k: term for (k, _, _), term in zip(at, terms)}, head

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
            in_plan, held, terms, heads = self._in_plan, self._held, (), 0
            parts = self._walk_parts
            for key, loc, how, net in plan:
                delta = parts.get(key)
                if delta is None:
                    delta = parts[key] = self._walk_delta(loc, how, net)
                plan_more, held_more, changed, heads_more = delta
                in_plan += plan_more
                held += held_more
                if changed:
                    terms += changed
                heads += heads_more
            worth = self._walk_worth[whole] = self._worth_with(in_plan, held, terms, heads)
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

    def _walk_delta(self, loc: str, how: Walkers, net: int) -> Delta:
        """What the queue at `loc`, after my members at the positions given leave or enter it in turn
        (`net` more of them in all), changes (`_delta`)."""
        if loc not in self._scored:   # only my members there count, and every member walking is mine
            return self._count_delta(loc, net)
        if len(how) == 1:   # one member leaves from its position, or one enters by its rank
            what, _, start, n = how[0]
            alike = (loc, n) if what == "leave" else (loc, self.base[start][n - 1]["rank"])
            delta = self._single_deltas.get(alike)
            if delta is None:
                delta = self._single_deltas[alike] = self._single_delta(loc, what, alike[1])
            return delta
        queue = self._pieces(loc)
        for what, _, start, n in how:
            if what == "leave":   # a member leaves the queue it stands in
                queue = [piece for piece in queue if piece[0] != n]
            else:
                queue = self._entered(queue, loc, self.base[start][n - 1]["rank"])
        return self._delta(loc, queue)

    def _single_delta(self, loc: str, what: str, which: "int | str") -> Delta:
        """`_delta` of the queue at `loc` after one member of mine leaves it from position `which` or
        one of rank `which` enters it, worked out on the view's queue as its (family, rank) pieces.
        Where only the route reads the queue, only who stands at its head counts."""
        queue = self.base[loc]
        stays: dict[str, Any] | None   # the piece at the head after
        if what == "leave":
            i = int(which) - 1
            if loc in self._targets_at:
                key = self._queue_key(loc)
                return self._target_delta(loc, key[:i] + key[i + 1:])
            net = -1
            if i > 0:   # the head stays
                stays = queue[0]
            else:   # the next one is the head, if any
                stays = queue[1] if len(queue) > 1 else None
        else:
            rank = str(which)
            r = RANK_ORDER[rank]
            if self._doorman(loc):   # as `B.enter` puts the newcomer
                at = len([1 for p in queue if RANK_ORDER[p["rank"]] < r])
            else:
                at = len([1 for p in queue if RANK_ORDER[p["rank"]] <= r])
            if loc in self._targets_at:
                key = self._queue_key(loc)
                return self._target_delta(loc, (*key[:at], (self.me, rank), *key[at:]))
            net = 1
            stays = {"family": self.me, "rank": rank} if at == 0 else queue[0]
        was = self._members[loc]
        n = was + net
        mine = stays is not None and stays["family"] == self.me and not (
            self.active == "contessina" and stays["rank"] == "debutant")   # as `B.head_scorer`
        return (net if loc in self._plan_set else 0), (n > 0) - (was > 0), (), mine - self._heads[loc]

    def _queue_key(self, loc: str) -> tuple[tuple[str, str], ...]:
        """The view's queue at `loc` as its (family, rank) pieces, as `queue_part` reads a queue."""
        key = self._queue_keys.get(loc)
        if key is None:
            key = self._queue_keys[loc] = tuple([(p["family"], p["rank"]) for p in self.base[loc]])
        return key

    def _target_delta(self, loc: str, queue: tuple[tuple[str, str], ...]) -> Delta:
        """`_delta` of the queue at a target's location, given as its (family, rank) pieces."""
        was = self._members[loc]
        n, now, head = queue_part(queue, self.me, self._scoring_at[loc], self.active if loc in self._heads else None)
        terms: tuple[tuple[int, float | None], ...] = ()
        for (k, _, _), term in zip(self._targets_at[loc], now):
            if term != self._terms[k]:
                terms += ((k, term),)
        heads = head - self._heads[loc] if loc in self._heads else 0
        return (n - was if loc in self._plan_set else 0), (n > 0) - (was > 0), terms, heads

    def _count_delta(self, loc: str, net: int) -> Delta:
        """`_delta` of a queue neither the targets nor the route read, with `net` more members of mine."""
        delta = self._count_deltas.get((loc, net))
        if delta is None:
            was = self._members[loc]
            delta = self._count_deltas[loc, net] = (net if loc in self._plan_set else 0), \
                (was + net > 0) - (was > 0), (), 0
        return delta

    def _pieces(self, loc: str) -> list[Piece]:
        """The view's queue at `loc` as `Piece`s (not to be changed)."""
        pieces = self._queue_pieces.get(loc)
        if pieces is None:
            pieces = self._queue_pieces[loc] = [(i, (p["family"], p["rank"]), RANK_ORDER[p["rank"]])
                                                for i, p in enumerate(self.base[loc], 1)]
        return pieces

    def _entered(self, queue: list[Piece], loc: str, rank: str) -> list[Piece]:
        """`queue` at `loc` after a newcomer of mine of `rank` enters it where `B.enter` puts it."""
        r = RANK_ORDER[rank]
        if self._doorman(loc):
            at = len([1 for piece in queue if piece[2] < r])
        else:
            at = len([1 for piece in queue if piece[2] <= r])
        return [*queue[:at], (0, (self.me, rank), r), *queue[at:]]

    def _delta(self, loc: str, queue: list[Piece]) -> Delta:
        """What a changed queue at `loc`, which the targets or the route read, changes: my members in
        the plan card's locations, the locations I hold, the targets' terms (those that differ) and the
        heads I hold on the route."""
        if loc in self._targets_at:
            return self._target_delta(loc, tuple([piece[1] for piece in queue]))
        # on the route only: the head is all that counts
        was = self._members[loc]
        n = was + len(queue) - len(self.base[loc])   # every member walking is mine
        head = bool(queue) and queue[0][1][0] == self.me and not (
            self.active == "contessina" and queue[0][1][1] == "debutant")   # as `B.head_scorer`
        return (n - was if loc in self._plan_set else 0), (n > 0) - (was > 0), (), head - self._heads[loc]

    def _worth_with(self, in_plan: int, held: int, terms: tuple[tuple[int, float | None], ...], heads: int) -> float:
        """The worth with `in_plan` of my members in the plan card's locations, `held` locations held,
        the targets' terms changed as given and `heads` more heads held on the route (`of_parts`, added
        up alike)."""
        if terms or heads:
            worth = self._scored_by.get((terms, heads))
            if worth is None:
                worth = self._scored_by[terms, heads] = self._scored_with(terms, heads)
        else:
            worth = self._scored_worth
        if self.has_plan:
            worth += self._plan_term[min(in_plan, 6)]
        return worth + 0.3 * held

    def sent(self, loc: str) -> float:
        """The worth after a debutant of mine enters the queue at `loc`."""
        if loc not in self._scored:
            delta = self._count_delta(loc, 1)
        else:   # as a walk's member of that rank entering
            delta = self._single_deltas.get((loc, "debutant"))
            if delta is None:
                delta = self._single_deltas[loc, "debutant"] = self._single_delta(loc, "enter", "debutant")
        plan_more, held_more, terms, heads = delta
        return self._worth_with(self._in_plan + plan_more, self._held + held_more, terms, heads)

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
    position's location and number), how many more members stand there after), and a text naming all
    the changes. A member hurrying over `via`
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
                  tuple((what, position, *split_position(position)) for what, position in how),
                  sum(1 if what == "enter" else -1 for what, _ in how))
                 for loc, how in done.items())
    return "; ".join(key for key, _, _, _ in plan), plan


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
