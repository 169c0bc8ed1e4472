"""The solo game of Florenz: one player against Strozzi, a family the engine runs from ten cards
(FLORENZ-PLAN.md §15; readings R6, R10-R14, R20-R29, R48-R51, R63-R66).

Strozzi is one family (`STROZZI`) with pieces of two colours; his board holds the totals of both
colours, and what he has of one colour is derived from the pieces of that colour in play. His deck and
discard pile live in `state["strozzi"]`. Every step he takes is an event whose type starts with
`strozzi_`; the cards he draws are public (face up), the order of his deck is not.
"""

from __future__ import annotations

from typing import Any

from pbem.rng import Rng
from pbem.rules.base import stack
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz.decks import take_card
from pbem.rules.florenz.data import (
    CYCLE,
    DATA,
    DECK_OF,
    GUARD_OF,
    LOCATIONS,
    NEXT,
    PREV,
    PROMOTES_TO,
    medici_of,
    path_into,
    path_out,
)
from pbem.rules.florenz.refusals import refuse

State = dict[str, Any]
Event = dict[str, Any]
SOLO: dict[str, Any] = DATA["strozzi"]
STROZZI: str = SOLO["name"]
COLOURS: list[str] = SOLO["colours"]
CARDS: dict[int, dict[str, Any]] = {int(k): v for k, v in SOLO["cards"].items()}
PER_COLOUR = {"debutant": DATA["family"]["debutants"], "lady": DATA["family"]["ladies"],
              "maestro": DATA["family"]["maestros"]}


def variant(state: State) -> dict[str, Any]:
    return DATA["solo_variants"][state["solo"]]


def player(state: State) -> str:
    return state["players"][0]


# -- set-up -------------------------------------------------------------------------------------------

def setup_strozzi(state: State, rng: Rng, fixed_cards: list[int], events: list[Event]) -> None:
    """Strozzi's board, deck, start guards and first debutants (§15 set-up); you start and place next."""
    fam = DATA["family"]
    state["supply"][STROZZI] = {"debutant": 2 * fam["debutants"], "lady": 2 * fam["ladies"],
                                "maestro": 2 * fam["maestros"], "guard": 2 * fam["guards"], "gift": 0,
                                "cup": 2 * fam["boast_cups"]}
    state["time"][STROZZI] = time_gain(state, SOLO["start_time"])   # the variants' "pro Runde" includes round 1 (R20)
    deck = stack(fixed_cards, sorted(CARDS), rng, "strozzi-cards")
    state["strozzi"] = {"deck": deck, "discard": [], "drawn": 0}
    if variant(state).get("start_guards", True):
        cosimo = state["carriages"]["cosimo"]
        escort = path_out(cosimo) or "-".join(str(n) for n in SOLO["start_guards"][0]["from_location_1"])
        for kind, where in (("escort", escort), ("spy", state["targets"]["contessina"]),
                            ("doorman", state["targets"]["giovanni"])):
            _put_guard(state, kind, where)
            events.append({"type": "strozzi_guard", "crest": f"{kind} {where}"})
    for colour, medici in (("orange", "cosimo"), ("blue", "giovanni")):
        loc = state["targets"][medici]
        _enter(state, loc, "debutant", colour)
        events.append({"type": "strozzi_place", "location": loc, "rank": "debutant", "colour": colour})
    state["place_order"] = [player(state)]
    state["on_turn"] = player(state)
    state["start_family"] = player(state)


def _put_guard(state: State, kind: str, where: str) -> None:
    state["supply"][STROZZI]["guard"] -= 1
    state["guards"][kind][where].append({"family": STROZZI, "colour": COLOURS[0]})


# -- his pieces ---------------------------------------------------------------------------------------

def in_play(state: State, colour: str, rank: str | None = None) -> int:
    return sum(1 for q in state["queues"].values() for p in q
               if p["family"] == STROZZI and p["colour"] == colour and (rank is None or p["rank"] == rank))


def on_board(state: State, colour: str, rank: str) -> int:
    """His pieces of one colour and rank still on his family board."""
    return PER_COLOUR[rank] - in_play(state, colour, rank)


def _enter(state: State, loc: str, rank: str, colour: str, first_of_rank: bool = False) -> None:
    piece = {"family": STROZZI, "rank": rank, "colour": colour}
    doorman = first_of_rank or B.has_doorman(state["guards"], loc, STROZZI)
    state["queues"][loc] = B.enter(state["queues"][loc], piece, doorman)
    state["supply"][STROZZI][rank] -= 1


def _recall(state: State, colour: str, events: list[Event]) -> bool:
    """The box rule (R10): every piece of that colour not at a Medici's target goes back to his board.
    Whether anything came back."""
    targets = set(state["targets"].values())
    back = 0
    for loc in LOCATIONS:
        if loc in targets:
            continue
        keep = [p for p in state["queues"][loc] if not (p["family"] == STROZZI and p["colour"] == colour)]
        gone = [p for p in state["queues"][loc] if p["family"] == STROZZI and p["colour"] == colour]
        for p in gone:
            state["supply"][STROZZI][p["rank"]] += 1
        back += len(gone)
        state["queues"][loc] = keep
    events.append({"type": "strozzi_recall", "colour": colour, "pieces": back})
    return back > 0


def _available(state: State, rank: str, colour: str, events: list[Event]) -> bool:
    """Whether a piece of that rank and colour is on his board, after the box rule if needed."""
    if on_board(state, colour, rank) > 0:
        return True
    _recall(state, colour, events)
    return on_board(state, colour, rank) > 0


# -- Medici A, B, C -----------------------------------------------------------------------------------

def letters(state: State) -> dict[str, str]:
    r = state["round"]
    return {"A": medici_of(r), "B": medici_of(min(r + 1, 9)), "C": medici_of(min(r + 2, 9))}


def target(state: State, letter: str) -> str | None:
    return state["targets"].get(letters(state)[letter])


def targets_abc(state: State, start: str = "A") -> list[tuple[str, str]]:
    """(letter, location) from `start` in the order A-B-C-A, each location once."""
    order = "ABC"
    i = order.index(start)
    out: list[tuple[str, str]] = []
    for letter in (order[i:] + order[:i]):
        loc = target(state, letter)
        if loc is not None and loc not in [x for _, x in out]:
            out.append((letter, loc))
    return out


# -- cards 1-5: placing ------------------------------------------------------------------------------

def _place_search(state: State, letter: str) -> tuple[str, str] | None:
    """(medici whose rule applies, location) for a placement: the card's target, the others A-B-C-A,
    then backwards along the arrows from A's target (placing what A calls for)."""
    for lt, loc in targets_abc(state, letter):
        if A.room(state, loc):
            return letters(state)[lt], loc
    a = target(state, "A")
    if a is None:
        return None
    loc = PREV[a]
    while loc != a:
        if A.room(state, loc):
            return letters(state)["A"], loc
        loc = PREV[loc]
    return None


def fewer_colour(state: State) -> str | None:
    """The colour of which he has fewer pieces in play; None on a tie (the player chooses)."""
    counts = {c: in_play(state, c) for c in COLOURS}
    if counts[COLOURS[0]] == counts[COLOURS[1]]:
        return None
    return min(COLOURS, key=lambda c: counts[c])


def place(state: State, letter: str, colour: str, events: list[Event]) -> None:
    found = _place_search(state, letter)
    if found is None:
        events.append({"type": "strozzi_nothing", "card": "place", "why": "no queue has a free slot"})
        return
    medici, loc = found
    if medici == "giovanni":
        for c in COLOURS:
            # each debutant searches on its own, from the card's target, on the board as it stands after
            # the one before (whose box rule may have freed a slot the search reaches first) (R26, R64)
            again = _place_search(state, letter)
            spot = again[1] if again is not None else None
            if spot is None or not _available(state, "debutant", c, events):
                continue
            _enter(state, spot, "debutant", c)
            events.append({"type": "strozzi_place", "location": spot, "rank": "debutant", "colour": c})
        return
    rank = "debutant" if medici == "cosimo" else "lady"
    if not _available(state, rank, colour, events):
        events.append({"type": "strozzi_nothing", "card": "place", "why": f"no {colour} {rank} can come back"})
        return
    _enter(state, loc, rank, colour, first_of_rank=medici == "cosimo")
    events.append({"type": "strozzi_place", "location": loc, "rank": rank, "colour": colour})


# -- card 7: a friend ---------------------------------------------------------------------------------

def _rearmost(queue: list[dict[str, Any]], rank: str, colours: list[str]) -> int | None:
    for i in range(len(queue) - 1, -1, -1):
        p = queue[i]
        if p["family"] == STROZZI and p["rank"] == rank and p["colour"] in colours:
            return i + 1
    return None


def _promote_at(state: State, loc: str, n: int, events: list[Event]) -> None:
    q = state["queues"][loc]
    old = q[n - 1]
    state["supply"][STROZZI][old["rank"]] += 1
    state["supply"][STROZZI][PROMOTES_TO[old["rank"]]] -= 1
    state["queues"][loc] = B.promote(q, n)
    events.append({"type": "strozzi_promote", "location": loc, "to": PROMOTES_TO[old["rank"]],
                   "colour": old["colour"]})


def friend(state: State, events: list[Event]) -> None:
    """Card 7 (R11): a debutant to a lady at the target of A, else B, else C; only when that fails at
    all three, a lady to the maestro at the first of them where it works; else he boasts."""
    if not (_debutant_to_lady(state, events) or _lady_to_maestro(state, events)):
        fb = SOLO["promote_fallback"]
        boast(state, fb["vp"], fb["colour"], events)


def _debutant_to_lady(state: State, events: list[Event]) -> bool:
    """His rearmost debutant at the first target (A, B, C) where he has no lady and a lady of that
    debutant's colour waits on his board becomes a lady. Whether it happened."""
    with_lady = [c for c in COLOURS if on_board(state, c, "lady") > 0]
    for _, loc in targets_abc(state):
        q = state["queues"][loc]
        if any(p["family"] == STROZZI and p["rank"] == "lady" for p in q):
            continue
        n = _rearmost(q, "debutant", with_lady)
        if n is not None:
            _promote_at(state, loc, n, events)
            return True
    return False


def _lady_to_maestro(state: State, events: list[Event]) -> bool:
    """His rearmost lady at the first target (A, B, C) where a maestro of her colour is on his board,
    after the box rule if needed, becomes the maestro. Whether it happened."""
    for _, loc in targets_abc(state):
        n = _rearmost(state["queues"][loc], "lady", COLOURS)
        if n is not None and _available(state, "maestro", state["queues"][loc][n - 1]["colour"], events):
            n = _rearmost(state["queues"][loc], "lady", COLOURS)   # the recall never touches a target
            assert n is not None
            _promote_at(state, loc, n, events)
            return True
    return False


# -- cards 8 and 9: boasting --------------------------------------------------------------------------

def _cups_left(state: State, colour: str) -> int:
    placed = sum(1 for t in state["boast"].values() for s in ("low", "middle", "high")
                 if t[s] is not None and t[s]["family"] == STROZZI and t[s]["colour"] == colour)
    return DATA["family"]["boast_cups"] - placed


def boast(state: State, vp: int, colour: str, events: list[Event]) -> None:
    r = state["round"]
    factor = variant(state).get("boast_factor", SOLO["boast_factor"])[r]
    slot = SOLO["boast_slot"][r]
    colours = [colour] + [c for c in COLOURS if c != colour]
    cup = next((c for c in colours if _cups_left(state, c) > 0), None)
    carriage = state["carriages"][letters(state)["A"]]
    loc = NEXT[carriage]
    for _ in CYCLE:
        tile = state["boast"][loc]
        if cup is not None and tile[slot] is None:   # only "besetzt" sends him on (R12)
            tile[slot] = {"family": STROZZI, "colour": cup}
            state["supply"][STROZZI]["cup"] -= 1
            state["vp"][STROZZI] += vp * factor
            events.append({"type": "strozzi_boast", "location": loc, "slot": slot, "vp": vp * factor,
                           "colour": cup})
            return
        loc = NEXT[loc]
    events.append({"type": "strozzi_nothing", "card": "boast", "why": "no cup or no suitable boast tile"})


# -- card 10: a guard ---------------------------------------------------------------------------------

def guard(state: State, events: list[Event]) -> None:
    medici = letters(state)["B"]
    kind = GUARD_OF[medici]
    where = state["targets"].get(medici)
    found = None
    if state["round"] < 9 and where is not None and state["supply"][STROZZI]["guard"] > 0:
        loc = where
        for _ in CYCLE:
            crest = path_into(loc) if kind == "escort" else loc
            if crest is not None and not B.guards_on(state["guards"], kind, crest):
                found = crest
                break
            loc = PREV[loc]
    if found is None:
        gain_vp(state, SOLO["guard_card_vp"], "guard", events)
        return
    _put_guard(state, kind, found)
    events.append({"type": "strozzi_guard", "crest": f"{kind} {found}"})


def gain_vp(state: State, vp: int, why: str, events: list[Event]) -> None:
    state["vp"][STROZZI] += vp
    events.append({"type": "strozzi_vp", "vp": vp, "why": why})


# -- passing ------------------------------------------------------------------------------------------

def swap_at(state: State, loc: str) -> int | None:
    """The position of his rearmost member at `loc` when a petitioner of yours of the same rank stands
    directly in front of it (R6: his single rearmost member, not the rearmost that could swap), or
    None."""
    q = state["queues"][loc]
    i = next((k for k in range(len(q) - 1, -1, -1) if q[k]["family"] == STROZZI), None)
    if i is None or i == 0:
        return None
    if q[i - 1]["family"] == player(state) and q[i - 1]["rank"] == q[i]["rank"]:
        return i + 1
    return None


def strozzi_pass(state: State, events: list[Event]) -> None:
    if player(state) in state["passed"]:
        state["passed"].append(STROZZI)
        events.append({"type": "strozzi_pass", "ring": None, "last": True})
        return
    free = [(lt, loc) for lt, loc in targets_abc(state) if loc not in state["rings"].values()]
    ring = next((loc for _, loc in free if swap_at(state, loc) is not None
                 and B.head(state["queues"][loc]) != STROZZI), None)
    if ring is None:
        ring = next((loc for _, loc in free if swap_at(state, loc) is not None), None)
    state["passed"].append(STROZZI)
    if ring is not None:
        state["rings"][STROZZI] = ring
    events.append({"type": "strozzi_pass", "ring": ring, "last": False})
    bonus = variant(state).get("strozzi_first_pass_time")
    if bonus and len(state["passed"]) == 1:
        state["time"][STROZZI] = B.gain_time(state["time"][STROZZI], bonus)
        events.append({"type": "strozzi_time", "time": bonus, "why": "first to pass"})


# -- his turn -----------------------------------------------------------------------------------------

def draw(state: State, rng: Rng) -> int:
    s = state["strozzi"]
    if not s["deck"]:
        s["deck"], s["discard"] = s["discard"], []
        rng.shuffle(s["deck"], "strozzi-cards")
    s["drawn"] += 1
    return s["deck"].pop(0)


def turn(state: State, rng: Rng, events: list[Event]) -> None:
    """One turn of Strozzi (§15 phase 2). May leave a `colour` decision pending for the player."""
    r = state["round"]
    if STROZZI in state["passed"]:
        ring = state["rings"].get(STROZZI)
        n = swap_at(state, ring) if ring else None
        if n is not None:
            state["queues"][ring] = B.swap(state["queues"][ring], n, n - 1)
            events.append({"type": "strozzi_swap", "location": ring, "positions": [n - 1, n]})
        else:
            gain_vp(state, SOLO["passed_vp"][r], "passed", events)
        return
    clock = state["time"][STROZZI]
    giovanni_target = state["targets"].get("giovanni")
    if clock == 0 or (letters(state)["A"] == "giovanni" and clock < SOLO["giovanni_pass_below"]
                      and giovanni_target is not None
                      and B.members(state["queues"][giovanni_target], STROZZI) > 0):
        strozzi_pass(state, events)
        return
    card = draw(state, rng)
    if CARDS[card]["action"] == "party" and state["strozzi"]["drawn"] == 1:
        replacement = draw(state, rng)
        state["strozzi"]["deck"].append(card)
        rng.shuffle(state["strozzi"]["deck"], "strozzi-cards")
        events.append({"type": "strozzi_card", "card": card, "ignored": True})
        card = replacement
    play_card(state, card, rng, events)


def card_face(state: State, spec: dict[str, Any]) -> dict[str, Any]:
    """What a card shows, for its event: the Medici letter it names (and who that is this round), its
    colour, its VP; so a player can check Strozzi's play against the printed card."""
    face: dict[str, Any] = {}
    if "medici" in spec:
        face["letter"] = spec["medici"]
        face["medici"] = letters(state)[spec["medici"]]
    for key in ("colour", "vp"):
        if key in spec:
            face[key] = spec[key]
    return face


def play_card(state: State, card: int, rng: Rng, events: list[Event]) -> None:
    spec = CARDS[card]
    before = state["time"][STROZZI]
    state["time"][STROZZI] = max(0, before - spec["time"])
    events.append({"type": "strozzi_card", "card": card, "action": spec["action"],
                   "time": before - state["time"][STROZZI], **card_face(state, spec)})
    state["strozzi"]["discard"].append(card)
    action = spec["action"]
    if action == "place":
        colour = spec["colour"]
        if colour == "fewer":
            colour = fewer_colour(state)
            if colour is None:
                state["pending"] = {"kind": "colour", "family": player(state), "letter": spec["medici"]}
                return
        place(state, spec["medici"], colour, events)
    elif action == "party":
        keep = SOLO["party_keep_on_giovanni"] if letters(state)["A"] == "giovanni" else 0
        spent = max(0, state["time"][STROZZI] - keep)
        state["time"][STROZZI] -= spent
        events.append({"type": "strozzi_party", "spent": spent})
        per = variant(state).get("party_vp_per_time")
        if per and spent:
            gain_vp(state, per * spent, "party", events)
        strozzi_pass(state, events)
    elif action == "promote":
        friend(state, events)
    elif action == "boast":
        boast(state, spec["vp"], spec["colour"], events)
    elif action == "guard":
        guard(state, events)


def why_colour(state: State, colour: str) -> str | None:
    if colour not in COLOURS:
        return refuse("strozzi-colours", first=COLOURS[0], second=COLOURS[1])
    return None


def do_colour(state: State, colour: str, events: list[Event]) -> None:
    letter = state["pending"]["letter"]
    state["pending"] = None
    events.append({"type": "strozzi_colour", "colour": colour, "family": player(state)})
    place(state, letter, colour, events)


# -- phases 1, 3, 4, 5 --------------------------------------------------------------------------------

def time_gain(state: State, tile: int) -> int:
    """What he gains in a round whose tile gives `tile` (his 6 in round 1): at least 4, and the
    variants' one less (still at least 4) or one more (at most 9)."""
    v = variant(state)
    gain = max(SOLO["min_time_gain"], tile + v.get("time_gain_delta", 0))
    return min(v["time_gain_max"], gain) if "time_gain_max" in v else gain


def card_instead(state: State, why: str, rng: Rng, events: list[Event]) -> None:
    """He would draw a scandal card: it is drawn and discarded, and he gains 1 time (R14)."""
    card = reveal_card(state, letters(state)["A"], rng, events)
    if card is None:
        return
    if why.startswith("boast") and variant(state).get("boast_reward_time") is False:
        events.append({"type": "strozzi_card_discarded", "card": card, "time": 0, "why": why})
        return
    state["time"][STROZZI] = B.gain_time(state["time"][STROZZI], SOLO["scandal_card_time"])
    events.append({"type": "strozzi_card_discarded", "card": card, "time": SOLO["scandal_card_time"], "why": why})


def reveal_card(state: State, medici: str, rng: Rng, events: list[Event]) -> str | None:
    """Strozzi's scandal card: drawn and discarded face up (R14)."""
    card = take_card(state, medici, rng, events, STROZZI)
    if card is not None:
        state["scandal"]["discard"][DECK_OF[medici]].append(card)
    return card


def giovanni(state: State, offer: dict[str, int], number: int, events: list[Event]) -> bool:
    """Strozzi's answer to an offer: he always accepts when he has time (§15 phase 4). Whether he took it."""
    clock = state["time"][STROZZI]
    if clock == 0:
        events.append({"type": "giovanni_skip", "family": STROZZI, "offer": number})
        return False
    paid = min(clock, offer["time"])
    vp = offer["vp"]
    if paid < offer["time"] and variant(state).get("giovanni_short_vp") == "half":
        vp //= 2
    state["time"][STROZZI] -= paid
    state["vp"][STROZZI] += vp
    events.append({"type": "giovanni_accept", "family": STROZZI, "time": paid, "vp": vp})
    return True


def clean_up(state: State, rng: Rng, events: list[Event]) -> None:
    """Phase 5: the top 3 cards set aside, the rest shuffled with the discards, the 3 back on top."""
    s = state["strozzi"]
    keep = SOLO["reshuffle_keep_top"]
    top, rest = s["deck"][:keep], s["deck"][keep:] + s["discard"]
    rng.shuffle(rest, "strozzi-cards")
    s["deck"], s["discard"], s["drawn"] = top + rest, [], 0
    events.append({"type": "strozzi_reshuffle", "cards": len(s["deck"])})
