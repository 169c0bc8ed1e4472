"""What a board position is worth to a family, as the Florenz bot weighs it (`Worth`): the queues at
the targets of the Medici still to score, the heads on the active route, the plan card, the locations
held; and what a move or hurry does to each queue it changes (`walk_plan`)."""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import Any

from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import DISC, RANK_ORDER, medici_of
from pbem.rules.florenz.orders import parse, split_position
from pbem.rules.florenz.targets import queue_part, setting_of


Queues = dict[str, list[dict[str, Any]]]

#: a piece's (family, rank), as the worth reads a queue
FAMILY_RANK = itemgetter("family", "rank")


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


#: what a walk changes at a queue the targets or the route read (`Worth._walk_delta`), kept between
#: decisions: by what the worth reads of that queue (whose view, the location, its pieces, my doorman
#: there, whether the plan card names it, the targets there, the active Medici if his route enters
#: it), then by the walkers (the positions leaving, the ranks entering, in turn)
DELTAS: dict[tuple[Any, ...], dict[tuple["int | str", ...], Delta]] = {}

#: the walkers of a debutant sent in (`Worth.sent`): one of that rank entering
SENT = ("debutant",)


class Worth:
    """What a board position is worth to `me`: the positions at the targets of the Medici still to
    score (the active one in full, later ones less), heads on the active route, the plan card, the
    locations held. Built once per decision: a position's queues that are the view's own (an order
    changes two or three) reuse the parts worked out for the view, added up in the same order; the
    part of a queue members left or entered is worked out once for all the moves and hurries that
    change it alike (one member leaving from a position, or one of a rank entering, alike whoever it
    is) and kept between decisions for as long as that queue stays (`DELTAS`), and what it reads of
    the view besides the queues is kept between decisions too (`Setting`)."""

    def __init__(self, view: dict[str, Any], me: str) -> None:
        self.me = me
        self.view = view
        self.base: Queues = view["queues"]
        self.round = r = view["round"] or 1
        active = medici_of(r)
        setting = setting_of(me, r, tuple(view["targets"].items()), view["carriages"].get(active),
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
            key = self._queue_keys[loc] = tuple(map(FAMILY_RANK, self.base[loc]))
            now = queue_part(key, me, setting.scoring_at[loc], None)[1]
            for (k, _, _), term in zip(at, now):
                terms[k] = term
        self._target_terms = [(t, term) for (_, _, t), term in zip(self.targets, terms)]
        self._heads = {loc: B.head_scorer(self.base[loc], active) == me for loc in self.route}
        #: how many locations of the route the view's queues give me the head of
        self._heads_count = sum(self._heads.values())
        self._members = {loc: B.members(q, me) for loc, q in self.base.items()}
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
        #: `_count_delta` by (location, members more)
        self._count_deltas: dict[tuple[str, int], Delta] = {}
        #: the `DELTAS` of each queue the targets or the route read, as this decision sees it
        self._kept_at: dict[str, dict[tuple["int | str", ...], Delta]] = {}
        #: `_scored_with` by its arguments
        self._scored_by: dict[tuple[tuple[tuple[int, float | None], ...], int], float] = {}
        self._plan_term = setting.plan_term

    def _heads_here(self, queue: list[dict[str, Any]]) -> bool:
        return B.head_scorer(queue, self.active) == self.me

    def part(self, loc: str, queue: list[dict[str, Any]]) -> Part:
        """What the queue `queue` at `loc` gives the worth."""
        at = self._targets_at.get(loc)
        if at is None:
            return B.members(queue, self.me), {}, loc in self._heads and self._heads_here(queue)
        n, terms, head = queue_part(tuple(map(FAMILY_RANK, queue)), self.me,
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
        (`net` more of them in all), changes (`_delta`). At a queue the targets or the route read it is
        kept between decisions (`DELTAS`), by what the walk does there: the positions leaving, the
        ranks entering."""
        if loc not in self._scored:   # only my members there count, and every member walking is mine
            return self._count_delta(loc, net)
        base = self.base
        if len(how) == 1:
            what, _, start, n = how[0]
            walkers: tuple["int | str", ...] = (n,) if what == "leave" else (base[start][n - 1]["rank"],)
        else:
            walkers = tuple([n if what == "leave" else base[start][n - 1]["rank"] for what, _, start, n in how])
        kept = self._kept_at.get(loc)
        if kept is None:
            kept = self._kept(loc)
        delta = kept.get(walkers)
        if delta is None:
            delta = kept[walkers] = self._walked_delta(loc, how)
        return delta

    def _kept(self, loc: str) -> dict[tuple["int | str", ...], Delta]:
        """The deltas kept for the queue at `loc` as this decision sees it (`DELTAS`), by walkers."""
        kept = self._kept_at.get(loc)
        if kept is None:
            seen = (self.me, loc, self._queue_key(loc), self._doorman(loc), loc in self._plan_set,
                    tuple(self._targets_at.get(loc, ())), self.active if loc in self._heads else None)
            kept = DELTAS.get(seen)
            if kept is None:
                if len(DELTAS) >= 16384:
                    DELTAS.clear()
                kept = DELTAS[seen] = {}
            self._kept_at[loc] = kept
        return kept

    def _walked_delta(self, loc: str, how: Walkers) -> Delta:
        """`_walk_delta` worked out: one member leaving or entering by `_single_delta`, more by walking
        the queue's pieces."""
        if len(how) == 1:   # one member leaves from its position, or one enters by its rank
            what, _, start, n = how[0]
            return self._single_delta(loc, what, n if what == "leave" else self.base[start][n - 1]["rank"])
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
            key = self._queue_keys[loc] = tuple(map(FAMILY_RANK, self.base[loc]))
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
            kept = self._kept(loc)
            delta = kept.get(SENT)
            if delta is None:
                delta = kept[SENT] = self._single_delta(loc, "enter", "debutant")
        plan_more, held_more, terms, heads = delta
        return self._worth_with(self._in_plan + plan_more, self._held + held_more, terms, heads)

    def promoted(self, loc: str, n: int) -> float:
        """The worth after my member at position `n` at `loc` is promoted (`B.promote`): where the
        targets or the route read the queue, worked out once for the queue as this decision sees it."""
        if loc not in self._scored:   # my members there stay as many
            delta = self._count_delta(loc, 0)
        else:
            kept = self._kept_at.get(loc)
            if kept is None:
                kept = self._kept(loc)
            delta = kept.get(("promote", n))
            if delta is None:
                queue = B.promote(self.base[loc], n)
                delta = kept["promote", n] = self._delta(loc, [(0, (p["family"], p["rank"]), RANK_ORDER[p["rank"]])
                                                               for p in queue])
        plan_more, held_more, terms, heads = delta
        return self._worth_with(self._in_plan + plan_more, self._held + held_more, terms, heads)

    def _doorman(self, loc: str) -> bool:
        """Whether a guard of mine stands as doorman at `loc`."""
        if loc not in self._doormen:
            self._doormen[loc] = B.has_doorman(self.view["guards"], loc, self.me)
        return self._doormen[loc]


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
