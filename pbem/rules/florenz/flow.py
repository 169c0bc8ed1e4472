"""Florenz flow: set-up, the five phases of a round, the Medici move, queue scoring with Giovanni's
offers, clean-up, final scoring and the result (FLORENZ-PLAN.md §3-5, §11-14). Multi-family game
without scandal-card play (step 2); the solo game comes in step 5.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import SetupError
from pbem.rng import Rng
from pbem.rules.base import stack, standings
from pbem.rules.florenz import actions as A
from pbem.rules.florenz import board as B
from pbem.rules.florenz import solo as SOLO
from pbem.rules.florenz.decks import take_card
from pbem.rules.florenz.solo import STROZZI
from pbem.rules.florenz.data import (
    BOAST_TILES,
    COLOURS,
    DATA,
    DECK_OF,
    DISC,
    LOCATIONS,
    MEDICI,
    PATHS,
    PLAN_CARDS,
    ROUNDS,
    SCANDAL_CARDS,
    TIME_TILES,
    medici_of,
    route,
)
from pbem.rules.florenz.refusals import refuse

State = dict[str, Any]
Event = dict[str, Any]
DECK_KEYS = ("start_family", "plan_cards", "boast_tiles", "carriages", "destinations", "time_tiles", "scandal",
             "strozzi_cards")


# -- the deck file ------------------------------------------------------------------------------------

def check_deck(deck: Any, players: list[str]) -> dict[str, Any]:
    """A `--deck` file (§17.0), checked and normalised (locations as strings)."""
    if deck is None:
        return {}
    if not isinstance(deck, dict):
        raise SetupError("the deck file must be a mapping with keys " + ", ".join(DECK_KEYS))
    for key in deck:
        if key not in DECK_KEYS:
            raise SetupError(f"the deck file has an unknown key {key!r} (keys: {', '.join(DECK_KEYS)})")
    shapes = {"plan_cards": dict, "boast_tiles": dict, "carriages": dict, "destinations": list,
              "time_tiles": list, "scandal": dict}
    for key, shape in shapes.items():
        if key in deck and not isinstance(deck[key], shape):
            raise SetupError(f"{key} in the deck file must be a {'mapping' if shape is dict else 'list'}")
    if any(not isinstance(cards, list) for cards in deck.get("scandal", {}).values()):
        raise SetupError("each scandal deck in the deck file is a list of card ids, top first")
    out: dict[str, Any] = {}
    if "start_family" in deck:
        if deck["start_family"] not in players:
            raise SetupError(f"start_family {deck['start_family']!r} is not a player")
        out["start_family"] = deck["start_family"]
    if "plan_cards" in deck:
        cards = deck["plan_cards"]
        if not isinstance(cards, dict) or any(p not in players and p != STROZZI for p in cards) \
                or any(c not in PLAN_CARDS for c in cards.values()) or len(set(cards.values())) != len(cards):
            raise SetupError("plan_cards maps players to different plan cards 1-6")
        out["plan_cards"] = dict(cards)
    if "boast_tiles" in deck:
        tiles = {str(k): v for k, v in deck["boast_tiles"].items()}
        if any(k not in LOCATIONS for k in tiles) or any(v not in BOAST_TILES for v in tiles.values()) \
                or len(set(tiles.values())) != len(tiles):
            raise SetupError("boast_tiles maps locations 1-9 to different boast tiles")
        out["boast_tiles"] = tiles
    if "carriages" in deck:
        car = {m: str(v) for m, v in deck["carriages"].items()}
        if any(m not in MEDICI for m in car) or any(v not in LOCATIONS for v in car.values()) \
                or len(set(car.values())) != len(car):
            raise SetupError("carriages maps Medici to different locations 1-9")
        out["carriages"] = car
    if "destinations" in deck:
        dest = [str(d) for d in deck["destinations"]]
        if len(dest) > 9 or any(d not in LOCATIONS for d in dest) or len(set(dest)) != len(dest):
            raise SetupError("destinations is a list of different locations 1-9 (rounds 1-9)")
        starts = set(out.get("carriages", {}).values())
        if len(dest) > 6 and starts and not set(dest[6:]) <= starts:
            raise SetupError("the destinations of rounds 7-9 must be the carriages' start locations")
        if starts & set(dest[:6]):
            raise SetupError("a carriage's start location cannot be a destination of rounds 1-6")
        out["destinations"] = dest
    if "time_tiles" in deck:
        tiles = list(deck["time_tiles"])
        rest = list(TIME_TILES)
        for t in tiles:
            if t not in rest:
                raise SetupError(f"time tile {t!r} is not among the tiles still left")
            rest.remove(t)
        out["time_tiles"] = tiles
    if "strozzi_cards" in deck:
        cards = deck["strozzi_cards"]
        if not isinstance(cards, list) or any(c not in SOLO.CARDS for c in cards) or len(set(cards)) != len(cards):
            raise SetupError("strozzi_cards is a list of different Strozzi cards 1-10, top first")
        out["strozzi_cards"] = list(cards)
    if "scandal" in deck:
        out["scandal"] = {}
        for name, cards in deck["scandal"].items():
            if name not in DATA["scandal"]["decks"]:
                raise SetupError(f"no scandal deck {name!r}")
            for c in cards:
                if c not in SCANDAL_CARDS or SCANDAL_CARDS[c]["deck"] != name:
                    raise SetupError(f"{c!r} is not a card of the {name} deck")
                if cards.count(c) > DATA["scandal"]["copies"]:
                    raise SetupError(f"{c!r} is listed more often than its copies")
            out["scandal"][name] = list(cards)
    return out


# -- set-up -------------------------------------------------------------------------------------------

def setup(players: list[str], rng: Rng, deck: dict[str, Any], solo: str | None = None) -> tuple[State, list[Event]]:
    """A new game (§3), up to the first placement a player makes; `solo` (normal, easier, harder) for
    one player against Strozzi (§15)."""
    fam = DATA["family"]
    families = list(players) + ([STROZZI] if solo else [])
    n = len(families)
    # plan cards
    fixed_plans = deck.get("plan_cards", {})
    spare = [c for c in PLAN_CARDS if c not in fixed_plans.values()]
    rng.shuffle(spare, "plan-cards")
    planned = list(players) + ([STROZZI] if solo and DATA["solo_variants"][solo].get("plan_card") else [])
    plans = {p: fixed_plans[p] if p in fixed_plans else spare.pop(0) for p in planned}
    # boast tiles
    fixed_tiles = deck.get("boast_tiles", {})
    tiles = [t for t in BOAST_TILES if t not in fixed_tiles.values()]
    rng.shuffle(tiles, "boast-tiles")
    boast = {loc: {"tile": fixed_tiles[loc] if loc in fixed_tiles else tiles.pop(0),
                   "low": None, "middle": None, "high": None} for loc in LOCATIONS}
    # carriages and location stack
    dest = deck.get("destinations", [])
    car_fixed = deck.get("carriages", {})
    starts = list(car_fixed.values())
    if len(dest) > 6:
        starts += [d for d in dest[6:] if d not in starts]
    pool = [loc for loc in LOCATIONS if loc not in starts and loc not in dest[:6]]
    rng.shuffle(pool, "carriage-tiles")
    while len(starts) < 3:
        starts.append(pool.pop(0))
    free_starts = [s for s in starts if s not in car_fixed.values()]
    rng.shuffle(free_starts, "carriages")
    carriages = {m: car_fixed[m] if m in car_fixed else free_starts.pop(0) for m in MEDICI}
    six = stack(dest[:6], [loc for loc in LOCATIONS if loc not in starts], rng, "location-stack")
    last = stack(dest[6:], starts, rng, "carriage-tiles-order")
    location_stack = six + last
    time_stack = stack(deck.get("time_tiles", []), TIME_TILES, rng, "time-stack")
    sectors: dict[str, Any] = {}
    for s in (1, 2, 3):
        sectors[str(s)] = {"location": location_stack.pop(0),
                           "time": DISC[1]["time"] if s == 1 else time_stack.pop(0)}
    targets = {medici_of(s): sectors[str(s)]["location"] for s in (1, 2, 3)}
    # scandal decks
    fixed_sc = deck.get("scandal", {})
    decks = {}
    for name, spec in DATA["scandal"]["decks"].items():
        every = [c for c in spec["cards"] for _ in range(DATA["scandal"]["copies"])]
        decks[name] = stack(fixed_sc.get(name, []), every, rng, f"scandal-{name}")
    if solo:
        start = players[0]
    else:
        start = deck["start_family"] if "start_family" in deck else rng.choice(list(players), "start-family")
    i = players.index(start)
    colour = {p: COLOURS[k] for k, p in enumerate(players)}
    if solo:
        colour = {players[0]: DATA["solo_colour"], STROZZI: SOLO.COLOURS[0]}
    state: State = {
        "players": list(players),
        "families": families,
        "colour": colour,
        "solo": solo,
        "round": 0,
        "phase": "place",
        "start_family": start,
        "on_turn": families[(i - 1) % n],
        "place_order": [families[(i - k) % n] for k in range(1, n + 1)],
        "passed": [],
        "rings": {},
        "time": {p: fam["start_time"] for p in families},
        "vp": {p: fam["start_victory_points"] for p in families},
        "supply": {p: {"debutant": fam["debutants"], "lady": fam["ladies"], "maestro": fam["maestros"],
                       "guard": fam["guards"], "gift": fam["gifts_at_start"], "cup": fam["boast_cups"]}
                   for p in families},
        "removed": {p: [] for p in families},
        "queues": {loc: [] for loc in LOCATIONS},
        "open_slots": B.open_slots(n),
        "boast": boast,
        "guards": {"escort": {p: [] for p in PATHS}, "spy": {loc: [] for loc in LOCATIONS},
                   "doorman": {loc: [] for loc in LOCATIONS}},
        "carriages": carriages,
        "targets": targets,
        "sectors": sectors,
        "location_stack": location_stack,
        "time_stack": time_stack,
        "gifts_given": {p: {m: 0 for m in MEDICI} for p in families},
        "scandal": {"deck": decks, "discard": {d: [] for d in decks}, "hand": {p: [] for p in families}},
        "plan_cards": plans,
        "giovanni": None,
        "pending": None,
        "strozzi": None,
        "turn": 1,
    }
    events: list[Event] = [{"type": "setup", "start_family": start, "carriages": dict(carriages),
                            "targets": dict(targets)}]
    events += [{"type": "plan_card", "family": p, "card": plans[p], "to": [p]} for p in players]
    if solo:
        SOLO.setup_strozzi(state, rng, deck.get("strozzi_cards", []), events)
    return state, events


# -- placements and rounds ----------------------------------------------------------------------------

def why_place(state: State, location: str) -> str | None:
    if state["queues"][location]:
        return refuse("queue-not-empty", location=location)
    return None


def do_place(state: State, family: str, location: str, rng: Rng, events: list[Event]) -> None:
    state["supply"][family]["debutant"] -= 1
    state["queues"][location] = [{"family": family, "rank": "debutant", "colour": state["colour"][family]}]
    state["place_order"].pop(0)
    events.append({"type": "place", "family": family, "location": location})
    if state["place_order"]:
        state["on_turn"] = state["place_order"][0]
    else:
        start_round(state, 1, rng, events)


def start_round(state: State, round_: int, rng: Rng, events: list[Event]) -> None:
    """Phase 1 (gain time) and the opening of phase 2."""
    state["round"] = round_
    sector = state["sectors"][str(round_)]
    gain = sector["time"]
    for f in state["families"]:
        if f == STROZZI:
            if round_ > 1:   # his clock starts at 6 instead of gaining round 1's time (R20)
                state["time"][f] = B.gain_time(state["time"][f], SOLO.time_gain(state, gain))
        else:
            state["time"][f] = B.gain_time(state["time"][f], gain)
    if round_ > 1:
        sector["time"] = None   # the tile is spent
    events.append({"type": "round", "round": round_, "medici": medici_of(round_), "time": gain})
    state["phase"] = "actions"
    state["passed"] = []
    state["on_turn"] = state["start_family"]
    settle(state, rng, events)


def next_seat(state: State, family: str) -> str:
    fams = state["families"]
    return fams[(fams.index(family) + 1) % len(fams)]


def after_turn(state: State, rng: Rng, events: list[Event]) -> None:
    """After an action or a bonus: the next family, or phases 3-5 when all have passed."""
    state["on_turn"] = next_seat(state, state["on_turn"])
    settle(state, rng, events)


def settle(state: State, rng: Rng, events: list[Event]) -> None:
    """Carry the action phase on until a player must decide: Strozzi's turns, turns a passed player
    has no bonus for (harder solo game), and phases 3-5 once everyone has passed."""
    while True:
        if len(state["passed"]) == len(state["families"]):
            move_medici(state, rng, events)
            score_queue(state, rng, events)
            return
        family = state["on_turn"]
        if family == STROZZI:
            SOLO.turn(state, rng, events)
            if state["pending"]:
                return
        elif not (family in state["passed"] and no_bonus(state, family)):
            return
        state["on_turn"] = next_seat(state, family)


def no_bonus(state: State, family: str) -> bool:
    """The harder solo game: a player who passed first gets no bonus after passing."""
    return bool(state["solo"]) and DATA["solo_variants"][state["solo"]].get(
        "your_passed_bonus_after_first_pass") is False and state["passed"][0] == family


# -- phase 3: the Medici move -------------------------------------------------------------------------

def draw_card(state: State, family: str, medici: str, rng: Rng, events: list[Event], why: str) -> None:
    """`family` draws a card of `medici`'s deck: hand limit, reshuffle, empty deck (§9)."""
    if family == STROZZI:
        SOLO.card_instead(state, why, rng, events)
        return
    name = DECK_OF[medici]
    sc = state["scandal"]
    if len(sc["hand"][family]) >= DATA["scandal"]["hand_limit"]:
        state["time"][family] = B.gain_time(state["time"][family], DATA["scandal"]["over_limit_time"])
        events.append({"type": "hand_full", "family": family, "deck": name})
        return
    card = take_card(state, medici, rng, events, family)
    if card is None:
        return
    sc["hand"][family].append(card)
    events.append({"type": "draw", "family": family, "deck": name, "why": why})
    events.append({"type": "draw_card", "family": family, "card": card, "to": [family]})


def move_medici(state: State, rng: Rng, events: list[Event]) -> None:
    """Phase 3 (§11): the active Medici rides to his target; rewards at each location entered."""
    r = state["round"]
    medici = medici_of(r)
    target = state["targets"][medici]
    head_vp = DISC[r]["head_vp"]
    path = route(state["carriages"][medici], target)
    events.append({"type": "medici_move", "medici": medici, "route": path})
    for loc in path:
        queue = state["queues"][loc]
        top = B.head_scorer(queue, medici)
        if top is not None:
            state["vp"][top] += head_vp
            events.append({"type": "head_vp", "family": top, "location": loc, "vp": head_vp})
        elif queue:
            events.append({"type": "head_snubbed", "family": B.head(queue), "location": loc, "medici": medici})
        cup = B.highest_cup(A.cups_of(state["boast"][loc]))
        if cup is not None and B.members(queue, cup) > 0:
            draw_card(state, cup, medici, rng, events, f"boast {loc}")
        for spy in B.guards_on(state["guards"], "spy", loc):
            draw_card(state, spy, medici, rng, events, f"spy {loc}")
    state["carriages"][medici] = target
    state["sectors"][str(r)]["location"] = None


# -- phase 4: scoring the queue -----------------------------------------------------------------------

def score_queue(state: State, rng: Rng, events: list[Event]) -> None:
    r = state["round"]
    medici = medici_of(r)
    target = state["targets"][medici]
    queue = state["queues"][target]
    if "offers" in DISC[r]:
        state["phase"] = "giovanni"
        state["giovanni"] = {"location": target, "candidates": B.strength_order(queue), "offer": 0}
        next_giovanni(state, rng, events)
        return
    for family, vp in B.queue_vp(queue, r).items():
        state["vp"][family] += vp
        events.append({"type": "queue_vp", "family": family, "location": target, "vp": vp})
    clean_up(state, rng, events)


def can_pay(state: State, family: str, cost: int) -> bool:
    return state["time"][family] + len(state["scandal"]["hand"][family]) >= cost


def giovanni_offer(state: State) -> dict[str, int]:
    return DISC[state["round"]]["offers"][state["giovanni"]["offer"]]


def next_giovanni(state: State, rng: Rng, events: list[Event]) -> None:
    """Ask the next family that can pay, or end the scoring (§12)."""
    g = state["giovanni"]
    offers = DISC[state["round"]]["offers"]
    while g["candidates"] and g["offer"] < len(offers):
        family = g["candidates"][0]
        if family == STROZZI:
            if SOLO.giovanni(state, offers[g["offer"]], g["offer"] + 1, events):
                g["offer"] += 1
            g["candidates"].pop(0)
            continue
        if can_pay(state, family, offers[g["offer"]]["time"]):
            state["on_turn"] = family
            return
        events.append({"type": "giovanni_skip", "family": family, "offer": g["offer"] + 1})
        g["candidates"].pop(0)
    state["giovanni"] = None
    clean_up(state, rng, events)


def why_giovanni(state: State, family: str, verb: str) -> str | None:
    if verb == "accept":
        cost = giovanni_offer(state)["time"]
        if state["time"][family] < cost:
            return refuse("offer-costs", cost=cost, time=state["time"][family])
    return None


def do_giovanni(state: State, family: str, verb: str, rng: Rng, events: list[Event]) -> None:
    g = state["giovanni"]
    offer = giovanni_offer(state)
    g["candidates"].pop(0)
    if verb == "accept":
        state["time"][family] -= offer["time"]
        state["vp"][family] += offer["vp"]
        g["offer"] += 1
        events.append({"type": "giovanni_accept", "family": family, "time": offer["time"], "vp": offer["vp"]})
    else:
        events.append({"type": "giovanni_decline", "family": family})
    next_giovanni(state, rng, events)


# -- phase 5: clean-up, and the end -------------------------------------------------------------------

def clean_up(state: State, rng: Rng, events: list[Event]) -> None:
    """Phase 5 (§13) after rounds 1-8, then the next round; after round 9 the final scoring."""
    r = state["round"]
    medici = medici_of(r)
    if r == ROUNDS:
        state["targets"].pop(medici, None)
        final_scoring(state, events)
        return
    state["start_family"] = next_seat(state, state["start_family"])
    state["rings"] = {}
    gifts = DISC[r]["gifts"]
    if gifts:
        for f in state["players"]:
            state["supply"][f]["gift"] += gifts
    if r in DATA["disc_new_tiles_after_rounds"]:
        loc = state["location_stack"].pop(0)
        state["sectors"][str(r + 3)] = {"location": loc, "time": state["time_stack"].pop(0)}
        state["targets"][medici] = loc
    else:
        state["targets"].pop(medici, None)
    if state["solo"]:
        SOLO.clean_up(state, rng, events)
    events.append({"type": "clean_up", "round": r, "start_family": state["start_family"], "gifts": gifts})
    start_round(state, r + 1, rng, events)


def petitioners(state: State, family: str) -> int:
    return sum(B.members(q, family) for q in state["queues"].values())


def final_scoring(state: State, events: list[Event]) -> None:
    """§14: cards into time, time VP, plan cards; the game ends."""
    for f in state["families"]:
        hand = state["scandal"]["hand"][f]
        while hand and state["time"][f] < DATA["time"]["max"]:
            card = hand.pop(0)
            state["scandal"]["discard"][SCANDAL_CARDS[card]["deck"]].append(card)
            state["time"][f] += DATA["scandal"]["discard_time"]
            events.append({"type": "discard", "family": f, "card": card})
        tvp = B.time_vp(state["time"][f])
        plan = state["plan_cards"].get(f)
        pvp = 0 if plan is None else B.plan_vp(plan, f, state["queues"])
        state["vp"][f] += tvp + pvp
        events.append({"type": "final_score", "family": f, "time_vp": tvp, "plan_card": plan, "plan_vp": pvp})
    state["phase"] = "over"
    state["on_turn"] = None
    events.append({"type": "game_end", "standings": result(state)})


def result(state: State) -> list[dict[str, Any]]:
    """Standings by VP, then petitioners on the board, then gifts given; full ties share a rank. Solo:
    the player ranks first only with more VP than Strozzi (R51)."""
    if state["solo"]:
        me = state["players"][0]
        win = state["vp"][me] > state["vp"][STROZZI]
        rows = [{"player": me, "score": state["vp"][me], "rank": 1 if win else 2},
                {"player": STROZZI, "score": state["vp"][STROZZI], "rank": 2 if win else 1}]
        return sorted(rows, key=lambda row: row["rank"])
    return standings(state["families"], state["vp"],
                     {f: (petitioners(state, f), sum(state["gifts_given"][f].values())) for f in state["families"]})


