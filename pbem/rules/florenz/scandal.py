"""Florenz scandal cards (FLORENZ-PLAN.md §9): the twelve cards of the three Medici, played as an
action, and the follow-up decision of Figliolo's travel card.

`play CARD ARGS`: each card has its own argument shape (`ARGS` below). Playing a card pays (or gains)
the time printed on it, takes the card out of the hand before its effect (it does not count for the
scandalmonger's boast), carries out the effect and puts the card on its deck's discard pile.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Iterator

from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz.data import (
    CRESTS,
    GUARD_OF,
    LOCATIONS,
    MEDICI,
    NEIGHBOURS,
    PATH_ID,
    SCANDAL_CARDS,
)
from pbem.rules.florenz.orders import crest_parts, split_position
from pbem.rules.florenz.refusals import refuse

State = dict[str, Any]
Event = dict[str, Any]

_POS = r"([1-9]\.[1-9][0-9]?)"
_LOC = r"([1-9])"
_STEPS = r"((?: to [1-9]){1,3})"
_CREST = r"(escort [1-9]-[1-9]|spy [1-9]|doorman [1-9])"
_MEDICI = "(" + "|".join(MEDICI) + ")"

#: each card's argument shape: (regular expression, field names, how the player writes it)
ARGS: dict[str, tuple[re.Pattern[str], tuple[str, ...], str]] = {
    "messere-cup": (re.compile(rf"^{_LOC}$"), ("location",), "L"),
    "messere-swap": (re.compile(rf"^{_POS} with {_POS}$"), ("position", "position2"), "L.P with L.Q"),
    "messere-retire": (re.compile(rf"^{_POS}$"), ("position",), "L.P"),
    "messere-boast": (re.compile(rf"^{_LOC}$"), ("location",), "L"),
    "carissima-gift": (re.compile(rf"^{_MEDICI}(?: {_CREST})?$"), ("medici", "crest"), "MEDICI CREST"),
    "carissima-swap": (re.compile(rf"^{_POS} with {_POS}$"), ("position", "position2"), "L.P with M.Q"),
    "carissima-promote": (re.compile(rf"^{_POS}$"), ("position",), "L.P"),
    "carissima-advance": (re.compile(rf"^{_POS}$"), ("position",), "L.P"),
    "figliolo-guard": (re.compile(rf"^{_CREST}$"), ("crest",), "CREST"),
    "figliolo-teleport": (re.compile(rf"^{_POS} to {_LOC}$"), ("position", "to"), "L.P to M"),
    "figliolo-travel": (re.compile(rf"^{_POS}{_STEPS}$"), ("position", "steps"), "L.P to A [to B [to C]]"),
    "figliolo-debutant": (re.compile(rf"^{_LOC}$"), ("location",), "L"),
}
TRAVEL = re.compile(rf"^travel {_POS}{_STEPS}$")


def parse_play(order: str) -> dict[str, Any] | str:
    """`play CARD ARGS` as `{"card", ...fields}`, or why it cannot be read."""
    text = " ".join(order.split())[len("play "):]
    card, _, rest = text.partition(" ")
    if card not in SCANDAL_CARDS:
        return refuse("no-scandal-card", card=repr(card), cards=", ".join(SCANDAL_CARDS))
    pattern, fields, shape = ARGS[card]
    m = pattern.match(rest)
    if m is None:
        return refuse("write-play", card=card, shape=shape)
    out: dict[str, Any] = {"card": card}
    out.update(zip(fields, m.groups()))
    if "steps" in out:
        out["steps"] = out["steps"].split(" to ")[1:]
    return out


def card_time(state: State, family: str, card: dict[str, Any]) -> int:
    """What playing the card does to the clock: negative costs, positive gains."""
    spec = SCANDAL_CARDS[card["card"]]["time"]
    if spec == "gift":
        return -B.gift_cost(state["gifts_given"][family][card["medici"]])
    return int(spec)


@contextmanager
def card_out(state: State, family: str, card: str) -> Iterator[None]:
    """The hand without the played card while its effect is judged (then restored)."""
    hand = state["scandal"]["hand"][family]
    i = hand.index(card)
    hand.pop(i)
    try:
        yield
    finally:
        hand.insert(i, card)


# -- the effects: why not, and what happens -----------------------------------------------------------

def _own(state: State, family: str, position: str) -> str | None:
    return A.own_piece(state, family, position)


def _why_effect(state: State, family: str, c: dict[str, Any]) -> str | None:
    card = c["card"]
    q = state["queues"]
    if card == "messere-cup":
        tile = state["boast"][c["location"]]
        if not B.has_cup(A.cups_of(tile), family):
            return refuse("no-cup-on-tile", location=c["location"])
        return None
    if card == "messere-swap":
        (l1, _), (l2, _) = split_position(c["position"]), split_position(c["position2"])
        a, b = B.piece_at(q, c["position"]), B.piece_at(q, c["position2"])
        if l1 != l2:
            return refuse("same-queue")
        if a is None or b is None:
            return refuse("no-petitioner", position=c["position"] if a is None else c["position2"])
        if a["rank"] != b["rank"]:
            return refuse("rank-order", rank=a["rank"], other=b["rank"])
        if B.same_piece(a, b):
            return refuse("alike")
        return None
    if card == "messere-retire":
        return _own(state, family, c["position"])
    if card == "messere-boast":
        return A.why_boast(state, family, {"location": c["location"]}, needs_member=False, cost=0)
    if card == "carissima-gift":
        return A.why_gift(state, family, c, at_carriage=False, cost=0)
    if card == "carissima-swap":
        why = _own(state, family, c["position"])
        if why:
            return why
        (l1, _), (l2, _) = split_position(c["position"]), split_position(c["position2"])
        if l2 not in NEIGHBOURS[l1]:
            return refuse("not-neighbour", there=l2, here=l1)
        mine, other = B.piece_at(q, c["position"]), B.piece_at(q, c["position2"])
        if other is None:
            return refuse("no-petitioner", position=c["position2"])
        if B.RANK_ORDER[other["rank"]] <= B.RANK_ORDER[mine["rank"]]:   # type: ignore[index]
            return refuse("lower-rank", position=c["position2"])
        return None
    if card == "carissima-promote":
        why = _own(state, family, c["position"])
        if why:
            return why
        if B.piece_at(q, c["position"])["rank"] != "debutant":   # type: ignore[index]
            return refuse("debutant-to-lady")
        if state["supply"][family]["lady"] < 1:
            return refuse("no-lady")
        return None
    if card == "carissima-advance":
        why = _own(state, family, c["position"])
        if why:
            return why
        loc, n = split_position(c["position"])
        if B.first_of_rank(q[loc], n) == n:
            return refuse("first-of-rank", position=c["position"])
        return None
    if card == "figliolo-guard":
        kind, where = crest_parts(c["crest"])
        if where not in CRESTS[kind]:
            return refuse("no-crest", crest=c["crest"])
        if state["supply"][family]["guard"] < 1:
            return refuse("no-guard")
        if family in B.guards_on(state["guards"], kind, where):
            return refuse("guard-there", crest=c["crest"])
        return None
    if card == "figliolo-teleport":
        why = _own(state, family, c["position"])
        if why:
            return why
        if c["position"].split(".")[0] == c["to"]:
            return refuse("petitioner-there", location=c["to"])
        if not A.room(state, c["to"]):
            return refuse("queue-full", location=c["to"])
        return None
    if card == "figliolo-travel":
        result = A.simulate_steps(state, family, [(c["position"], c["steps"])])
        return result if isinstance(result, str) else None
    if card == "figliolo-debutant":
        loc = c["location"]
        if state["supply"][family]["debutant"] < 1:
            return refuse("no-debutant")
        if not any(p["family"] == family and p["rank"] != "debutant" for p in q[loc]):
            return refuse("no-lady-or-maestro", location=loc)
        if not A.room(state, loc):
            return refuse("queue-full", location=loc)
        return None
    raise AssertionError(card)


def why_play(state: State, family: str, order: str) -> str | None:
    c = parse_play(order)
    if isinstance(c, str):
        return c
    if c["card"] not in state["scandal"]["hand"][family]:
        return refuse("no-card", card=c["card"])
    with card_out(state, family, c["card"]):
        why = _why_effect(state, family, c)
    if why:
        return why
    cost = -card_time(state, family, c)
    if cost > state["time"][family]:
        return refuse("card-costs", cost=cost, time=state["time"][family])
    return None


def do_play(state: State, family: str, order: str, events: list[Event]) -> None:
    c = parse_play(order)
    assert isinstance(c, dict)
    card = c["card"]
    delta = card_time(state, family, c)
    sc = state["scandal"]
    sc["hand"][family].remove(card)
    sc["discard"][SCANDAL_CARDS[card]["deck"]].append(card)
    state["time"][family] = B.gain_time(state["time"][family], delta)
    event: Event = {"type": "play", "family": family, "card": card,
                    "order": " ".join(order.split())[len("play "):], "time": delta}
    events.append(event)
    q = state["queues"]
    if card == "messere-cup":
        tile = state["boast"][c["location"]]
        slot = next(s for s in ("low", "middle", "high") if tile[s] and tile[s]["family"] == family)
        tile[slot] = None
        state["supply"][family]["cup"] += 1
    elif card == "messere-swap":
        (loc, p1), (_, p2) = split_position(c["position"]), split_position(c["position2"])
        q[loc] = B.swap(q[loc], p1, p2)
    elif card == "messere-retire":
        loc, n = split_position(c["position"])
        q[loc], gone = B.leave(q[loc], n)
        state["removed"][family].append(gone["rank"])
    elif card == "messere-boast":
        A.do_boast(state, family, {"location": c["location"]}, events, cost=0)
    elif card == "carissima-gift":
        A.do_gift(state, family, c, events, cost=0)
    elif card == "carissima-swap":
        (l1, p1), (l2, p2) = split_position(c["position"]), split_position(c["position2"])
        q[l1], mine = B.leave(q[l1], p1)
        q[l2], other = B.leave(q[l2], p2)
        A.enter_queue(state, q, l1, other)
        A.enter_queue(state, q, l2, mine)
    elif card == "carissima-promote":
        A.do_promote(state, family, {"position": c["position"]}, events, cost=0)
    elif card == "carissima-advance":
        loc, n = split_position(c["position"])
        q[loc] = B.advance(q[loc], n)
    elif card == "figliolo-guard":
        kind, where = crest_parts(c["crest"])
        state["supply"][family]["guard"] -= 1
        state["guards"][kind][where].append({"family": family, "colour": state["colour"][family]})
    elif card == "figliolo-teleport":
        loc, n = split_position(c["position"])
        q[loc], moved = B.leave(q[loc], n)
        A.enter_queue(state, q, c["to"], moved)
    elif card == "figliolo-travel":
        moved = _travel(state, family, c["position"], c["steps"], events)
        state["pending"] = {"kind": "travel", "family": family, "moved": moved}
    elif card == "figliolo-debutant":
        state["supply"][family]["debutant"] -= 1
        A.enter_queue(state, q, c["location"], {"family": family, "rank": "debutant",
                                                 "colour": state["colour"][family]})


def _travel(state: State, family: str, position: str, steps: list[str], events: list[Event]) -> str:
    """Walk one member; returns the position where it now stands."""
    mover = B.piece_at(state["queues"], position)
    assert mover is not None
    result = A.simulate_steps(state, family, [(position, steps)])
    assert not isinstance(result, str)
    state["queues"], paths = result
    events.append({"type": "travel", "family": family, "paths": paths,
                   "walks": [[position.split(".")[0], *steps]]})
    A.pay_escorts(state, family, paths, events)
    dest = steps[-1]
    # a newcomer stands last of its rank, or first of it with a doorman of its family (§5)
    ranks = [B.RANK_ORDER[p["rank"]] for p in state["queues"][dest]]
    r = B.RANK_ORDER[mover["rank"]]
    if B.has_doorman(state["guards"], dest, family):
        return f"{dest}.{1 + sum(1 for x in ranks if x < r)}"
    return f"{dest}.{sum(1 for x in ranks if x <= r)}"


# -- the follow-up of Figliolo's travel card ----------------------------------------------------------

def parse_travel(order: str) -> tuple[str, list[str]] | None:
    m = TRAVEL.match(" ".join(order.split()))
    if m is None:
        return None
    return m.group(1), m.group(2).split(" to ")[1:]


def why_travel(state: State, family: str, order: str) -> str | None:
    if " ".join(order.split()) == "done":
        return None
    parsed = parse_travel(order)
    if parsed is None:
        return refuse("write-travel")
    position, steps = parsed
    if position == state["pending"]["moved"]:
        return refuse("travelled", position=position)
    result = A.simulate_steps(state, family, [(position, steps)])
    return result if isinstance(result, str) else None


def do_travel(state: State, family: str, order: str, events: list[Event]) -> None:
    parsed = parse_travel(order)
    if parsed is not None:
        _travel(state, family, parsed[0], parsed[1], events)
    else:
        events.append({"type": "travel_done", "family": family})
    state["pending"] = None


# -- candidates ---------------------------------------------------------------------------------------

def _walks(start: str, most: int) -> list[list[str]]:
    """Every walk of 1..most steps along paths from `start`."""
    out: list[list[str]] = []
    frontier: list[list[str]] = [[]]
    for _ in range(most):
        frontier = [w + [n] for w in frontier for n in NEIGHBOURS[w[-1] if w else start]]
        out += frontier
    return out


def candidates(state: State, family: str) -> list[str]:
    """Every `play` order shape worth checking for the cards in the family's hand."""
    mine = own_positions(state, family)
    return [text for card in sorted(set(state["scandal"]["hand"][family]))
            for text, _ in _card_candidates(state, card, mine)]


Played = dict[str, Any]   # a `play` order as `parse_play` reads it


def own_positions(state: State, family: str) -> list[tuple[str, int]]:
    """The family's petitioners as (location, position), in board order."""
    q = state["queues"]
    return [(loc, i + 1) for loc in LOCATIONS for i, p in enumerate(q[loc]) if p["family"] == family]


def _card_candidates(state: State, card: str, mine: list[tuple[str, int]]) -> list[tuple[str, Played]]:
    """The `play` orders of one card worth checking, each with the form `parse_play` gives it (so it can
    be checked without reading its text again)."""
    q = state["queues"]
    if card in ("messere-cup", "messere-boast", "figliolo-debutant"):
        return [(f"play {card} {loc}", {"card": card, "location": loc}) for loc in LOCATIONS]
    if card == "messere-swap":
        return [(f"play {card} {loc}.{a} with {loc}.{b}",
                 {"card": card, "position": f"{loc}.{a}", "position2": f"{loc}.{b}"})
                for loc in LOCATIONS for a in range(1, len(q[loc]) + 1) for b in range(a + 1, len(q[loc]) + 1)]
    if card in ("messere-retire", "carissima-promote", "carissima-advance"):
        return [(f"play {card} {loc}.{n}", {"card": card, "position": f"{loc}.{n}"}) for loc, n in mine]
    if card == "carissima-gift":
        out: list[tuple[str, Played]] = []
        for medici in MEDICI:
            kind = GUARD_OF[medici]
            out.append((f"play {card} {medici}", {"card": card, "medici": medici, "crest": None}))
            out += [(f"play {card} {medici} {kind} {c}", {"card": card, "medici": medici, "crest": f"{kind} {c}"})
                    for c in B.free_crests(state["guards"], kind)]
        return out
    if card == "carissima-swap":
        return [(f"play {card} {loc}.{n} with {to}.{m}",
                 {"card": card, "position": f"{loc}.{n}", "position2": f"{to}.{m}"})
                for loc, n in mine for to in NEIGHBOURS[loc] for m in range(1, len(q[to]) + 1)]
    if card == "figliolo-guard":
        return [(f"play {card} {kind} {c}", {"card": card, "crest": f"{kind} {c}"})
                for kind in CRESTS for c in CRESTS[kind]]
    if card == "figliolo-teleport":
        return [(f"play {card} {loc}.{n} to {to}", {"card": card, "position": f"{loc}.{n}", "to": to})
                for loc, n in mine for to in LOCATIONS if to != loc]
    if card == "figliolo-travel":
        return [(f"play {card} {loc}.{n} to " + " to ".join(w),
                 {"card": card, "position": f"{loc}.{n}", "steps": list(w)})
                for loc, n in mine for w in _walks(loc, 3)]
    return []


def legal_plays(state: State, family: str) -> list[str]:
    """The `candidates` that `why_play` allows, in the same order: the cards with many candidates judged
    by their rules on facts gathered once (a travel by the free slot where it ends, as `A.legal_actions`
    judges a hurry), the others by `_why_effect` on their parsed forms."""
    out: list[str] = []
    hand = state["scandal"]["hand"][family]
    time = state["time"][family]
    mine = own_positions(state, family)
    for card in sorted(set(hand)):
        spec = SCANDAL_CARDS[card]["time"]
        if spec != "gift" and -int(spec) > time:
            continue   # its cost (as `card_time`) does not depend on how it is played
        i = hand.index(card)
        hand.pop(i)   # as `card_out`: the card is out of the hand while its effect is judged
        try:
            fast = _allowed(state, family, card, mine)
            if fast is not None:
                out += fast
            else:
                out += [text for text, c in _card_candidates(state, card, mine)
                        if _why_effect(state, family, c) is None and -card_time(state, family, c) <= time]
        finally:
            hand.insert(i, card)
    return out


def _allowed(state: State, family: str, card: str, mine: list[tuple[str, int]]) -> list[str] | None:
    """The allowed plays of a card with many candidates, as `_why_effect` judges them, in the order of
    `_card_candidates`; None for the other cards."""
    q = state["queues"]
    rank = B.RANK_ORDER
    if card == "messere-swap":   # two of the same rank, not alike
        return [f"play {card} {loc}.{a + 1} with {loc}.{b + 1}" for loc in LOCATIONS for a, pa in enumerate(q[loc])
                for b in range(a + 1, len(q[loc]))
                if pa["rank"] == q[loc][b]["rank"] and not B.same_piece(pa, q[loc][b])]
    if card == "carissima-swap":   # with a petitioner of a lower rank
        return [f"play {card} {loc}.{n} with {to}.{m + 1}" for loc, n in mine for to in NEIGHBOURS[loc]
                for m, other in enumerate(q[to]) if rank[other["rank"]] > rank[q[loc][n - 1]["rank"]]]
    if card == "messere-boast":   # as a boast, without a member there and without its time
        if state["supply"][family]["cup"] < 1 or state["time"][family] < 0:
            return []
        counts = A.boast_counts(state, family)
        return [f"play {card} {loc}" for loc in LOCATIONS if A.cup_fits(state, family, loc, counts)]
    if card == "messere-cup":   # a cup of the family's on the tile
        return [f"play {card} {loc}" for loc in LOCATIONS if A.has_cup_on(state["boast"][loc], family)]
    if card == "messere-retire":   # any member of the family (its time is a gain, checked by the caller)
        return [f"play {card} {loc}.{n}" for loc, n in mine]
    if card == "carissima-promote":   # a debutant of the family, with a lady left
        if state["supply"][family]["lady"] < 1:
            return []
        return [f"play {card} {loc}.{n}" for loc, n in mine if q[loc][n - 1]["rank"] == "debutant"]
    if card == "carissima-advance":   # a member of the family not yet first of its rank
        return [f"play {card} {loc}.{n}" for loc, n in mine if B.first_of_rank(q[loc], n) != n]
    if card == "figliolo-debutant":   # beside a lady or maestro of the family, in a queue with a free slot
        if state["supply"][family]["debutant"] < 1:
            return []
        open_ = state["open_slots"]
        return [f"play {card} {loc}" for loc in LOCATIONS
                if any(p["family"] == family and p["rank"] != "debutant" for p in q[loc]) and len(q[loc]) < open_[loc]]
    if card == "carissima-gift":   # as a gift, wherever the carriage stands: its time is the gift's
        supply, time = state["supply"][family], state["time"][family]
        out = []
        for medici in MEDICI:
            if supply["gift"] < 1 or time < 0 or B.gift_cost(state["gifts_given"][family][medici]) > time:
                continue
            out += A.gift_orders(state, family, medici, f"play {card}")
        return out
    if card == "figliolo-guard":   # a guard left, and none of the family's on the crest yet
        if state["supply"][family]["guard"] < 1:
            return []
        guards = state["guards"]   # most crests hold no guard: those need no look at who stands there
        return [f"play {card} {kind} {c}" for kind in CRESTS for c in CRESTS[kind]
                if not guards.get(kind, {}).get(c) or family not in B.guards_on(guards, kind, c)]
    if card == "figliolo-teleport":   # to a queue with a free slot
        free = A.free_slots(state)
        return [f"play {card} {loc}.{n} to {to}" for loc, n in mine for to in LOCATIONS if to != loc and free[to] > 0]
    if card == "figliolo-travel":   # over open paths to a queue with a free slot once the member has left
        free = A.free_slots(state)
        closed = A.blocked_paths(state)
        return [f"play {card} {loc}.{n}{text}" for loc, n in mine for text, dest, paths in _travels(loc)
                if free[dest] + (dest == loc) > 0 and closed.isdisjoint(paths)]
    return None


@lru_cache(maxsize=None)
def _travels(start: str) -> list[tuple[str, str, frozenset[str]]]:
    """The walks of 1-3 steps from `start`, each as its text (` to A to B`), where it ends and the
    paths it crosses."""
    out = []
    for w in _walks(start, 3):
        walk = [start, *w]
        out.append(("".join(f" to {loc}" for loc in w), w[-1], frozenset(PATH_ID[ab] for ab in zip(walk, walk[1:]))))
    return out


def travel_candidates(state: State, family: str) -> list[str]:
    q = state["queues"]
    mine = [(loc, i + 1) for loc in LOCATIONS for i, p in enumerate(q[loc]) if p["family"] == family]
    return ["done"] + [f"travel {loc}.{n} to " + " to ".join(w) for loc, n in mine for w in _walks(loc, 3)]
