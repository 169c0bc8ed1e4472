"""Florenz's data file, checked on import, and the tables derived from it.

Everything numeric comes from `pbem/rules/florenz.yaml`; a GM may correct its `assumed` values, so
`check` guards the shapes the engine relies on and names the bad key. Locations are the strings "1".."9"
here, as in the state (the data file's integer keys are converted once, below).
"""

from __future__ import annotations

import itertools
from typing import Any

from pbem.errors import PbemError
from pbem.rules.base import board_data

DATA: dict[str, Any] = board_data("florenz")

BOAST_COUNTS = frozenset({
    "ladies_and_maestro_on_board", "cups_placed", "scandal_cards_in_hand", "queue_heads", "members_in_row",
    "members_in_column", "locations_with_two_members", "gifts_given", "locations_with_a_member"})
STROZZI_ACTIONS = frozenset({"place", "party", "promote", "boast", "guard"})
GUARD_KINDS = ("escort", "spy", "doorman")


class DataError(PbemError):
    """`florenz.yaml` does not have the shape the engine needs."""


def _fail(key: str, problem: str) -> DataError:
    return DataError(f"florenz.yaml, {key}: {problem}")


def _grid_neighbours(rows: list[list[int]]) -> set[frozenset[int]]:
    """Every pair of orthogonal neighbours of the grid the rows describe."""
    pairs: set[frozenset[int]] = set()
    for r, row in enumerate(rows):
        for c, loc in enumerate(row):
            if c + 1 < len(row):
                pairs.add(frozenset((loc, row[c + 1])))
            if r + 1 < len(rows):
                pairs.add(frozenset((loc, rows[r + 1][c])))
    return pairs


def check(data: dict[str, Any]) -> None:
    """Raise `DataError` naming the first key whose value the engine cannot use."""
    locs = data["locations"]
    if sorted(locs) != list(range(1, 10)):
        raise _fail("locations", f"must be 1..9, not {locs}")
    if sorted(data["location_tiles"]) != sorted(locs):
        raise _fail("location_tiles", "must be one tile per location")
    rows, cols = data["rows"], data["columns"]
    if len(rows) != 3 or any(len(r) != 3 for r in rows) or sorted(x for r in rows for x in r) != sorted(locs):
        raise _fail("rows", "must be three rows of three that hold every location once")
    if cols != [[rows[r][c] for r in range(3)] for c in range(3)]:
        raise _fail("columns", f"must be the columns of the rows {rows}")
    grid = _grid_neighbours(rows)
    paths = [frozenset(p) for p in data["paths"]]
    for p in data["paths"]:
        if len(p) != 2 or p[0] >= p[1]:
            raise _fail("paths", f"{p} must name two locations, the smaller first")
        if frozenset(p) not in grid:
            raise _fail("paths", f"{p[0]}-{p[1]} does not join orthogonal neighbours")
    if len(set(paths)) != len(paths) or set(paths) != grid:
        raise _fail("paths", f"must be the {len(grid)} orthogonal neighbour pairs, each once")
    park = data["park_diagonal"]
    if len(park) != 2 or frozenset(park) in grid or park[0] == park[1]:
        raise _fail("park_diagonal", f"{park} must join two diagonal neighbours")
    cycle = data["carriage_cycle"]
    if sorted(cycle) != sorted(locs):
        raise _fail("carriage_cycle", f"must hold every location once, not {cycle}")
    diagonal_arrows = 0
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        if frozenset((a, b)) == frozenset(park):
            diagonal_arrows += 1
        elif frozenset((a, b)) not in grid:
            raise _fail("carriage_cycle", f"the arrow {a} -> {b} is neither a path nor the park diagonal")
    if diagonal_arrows != 1:
        raise _fail("carriage_cycle", "the park diagonal must be exactly one of its arrows")

    queue = data["queue"]
    if queue["head"] != 1 or queue["slots"] < 1:
        raise _fail("queue", "the head must be slot 1 of at least one slot")
    if sorted(queue["slot_numbers"]) != sorted(locs):
        raise _fail("queue.slot_numbers", "must list every location")
    for loc, numbers in queue["slot_numbers"].items():
        for slot, n in numbers.items():
            if not 1 < slot <= queue["slots"] or not isinstance(n, int):
                raise _fail(f"queue.slot_numbers.{loc}", f"slot {slot} must be 2..{queue['slots']} with a number")
    fewest = data["families"]["min"]
    blocked = sum(1 for numbers in queue["slot_numbers"].values() for n in numbers.values() if n > fewest)
    if blocked > data["blocking_tiles"]:
        raise _fail("queue.slot_numbers", f"{fewest} families would need {blocked} of {data['blocking_tiles']} blocking tiles")
    if len(data["colours"]) != data["families"]["max"]:
        raise _fail("colours", f"must name {data['families']['max']} colours")

    if data["ranks"] != ["maestro", "lady", "debutant"] or data["promotions"] != {"debutant": "lady", "lady": "maestro"}:
        raise _fail("ranks", "must be maestro, lady, debutant with promotions debutant -> lady -> maestro")

    rounds = data["rounds"]
    medici = data["medici"]
    if list(medici) != ["cosimo", "contessina", "giovanni"]:
        raise _fail("medici", "must be cosimo, contessina, giovanni")
    if sorted(r for m in medici.values() for r in m["rounds"]) != list(range(1, rounds + 1)):
        raise _fail("medici", f"their rounds must cover 1..{rounds} once")
    if {m["guard"] for m in medici.values()} != set(GUARD_KINDS):
        raise _fail("medici", "each must have one guard kind: escort, spy, doorman")
    disc = data["disc"]
    if sorted(disc) != list(range(1, rounds + 1)):
        raise _fail("disc", f"must have sectors 1..{rounds}")
    tiles_used = 0
    for r, sector in disc.items():
        key = f"disc.{r}"
        if r not in medici.get(sector["medici"], {}).get("rounds", []):
            raise _fail(key, f"{sector['medici']} does not move in round {r}")
        if r == 1:
            if sector["time"] != data["family"]["start_time"]:
                raise _fail(key, "round 1's time is printed on the disc and must be the start time")
        elif sector["time"] != "tile":
            raise _fail(key, "rounds 2.. take their time from a tile: time must be 'tile'")
        else:
            tiles_used += 1
        if sector["medici"] == "giovanni":
            offers = sector.get("offers")
            if not offers or any(set(o) != {"time", "vp"} for o in offers):
                raise _fail(f"{key}.offers", "Giovanni needs offers, each {time, vp}")
        else:
            vp = sector.get("queue_vp")
            if not vp or len(vp) != queue["slots"] or any(a < b for a, b in itertools.pairwise(vp)):
                raise _fail(f"{key}.queue_vp", f"must give {queue['slots']} values, never rising")
    if tiles_used != len(data["time_tiles"]):
        raise _fail("time_tiles", f"must be one tile for each of the {tiles_used} rounds that use one")
    tmin, tmax = data["time"]["min"], data["time"]["max"]
    if any(not tmin <= t <= tmax for t in data["time_tiles"]):
        raise _fail("time_tiles", f"must lie in {tmin}..{tmax}")
    fam = data["family"]
    if sum(s["gifts"] for s in disc.values()) != fam["gifts"] - fam["gifts_at_start"]:
        raise _fail("disc", "the gifts handed out must be the gifts set aside at the start")
    if len(data["disc_new_tiles_after_rounds"]) + data["visible_sectors"] != rounds:
        raise _fail("disc_new_tiles_after_rounds", "with the visible sectors it must cover every round")

    slots = data["boast_slots"]
    order = data["boast_slot_order"]
    if sorted(order) != sorted(slots) or slots[order[0]]["min"] != 0 or slots[order[-1]]["max"] is not None:
        raise _fail("boast_slots", "the slots in boast_slot_order must start at 0 and end open")
    for low, high in itertools.pairwise(order):
        if slots[low]["max"] + 1 != slots[high]["min"]:
            raise _fail("boast_slots", f"{low} and {high} must meet")
    if len(data["boast_tiles"]) != len(locs):
        raise _fail("boast_tiles", "must be one tile per location")
    for tid, tile in data["boast_tiles"].items():
        if tile["count"] not in BOAST_COUNTS or not isinstance(tile["vp_each"], int):
            raise _fail(f"boast_tiles.{tid}", f"count {tile['count']!r} is not one the engine knows")

    decks = data["scandal"]["decks"]
    if {d["medici"]: name for name, d in decks.items()} != {m: v["scandal_deck"] for m, v in medici.items()}:
        raise _fail("scandal.decks", "must be one deck per Medici, as medici.*.scandal_deck names them")
    for name, deck in decks.items():
        if len(deck["cards"]) != 4 or any(not c.startswith(f"{name}-") for c in deck["cards"]):
            raise _fail(f"scandal.decks.{name}", f"must hold 4 kinds, each id starting with {name}-")

    plans = data["plan_cards"]
    if sorted(plans) != list(range(1, 7)):
        raise _fail("plan_cards", "must be cards 1..6")
    for n, card in plans.items():
        where = card["locations"]
        if len(where) != 4 or len(set(where)) != 4 or not set(where) <= set(locs):
            raise _fail(f"plan_cards.{n}", f"must mark 4 different locations, not {where}")
        vp = card["vp"]
        if min(vp) != data["plan_min_members"] or any(v > data["plan_max_vp"] for v in vp.values()):
            raise _fail(f"plan_cards.{n}.vp", f"must start at {data['plan_min_members']} members and give at most {data['plan_max_vp']}")

    cards = data["strozzi"]["cards"]
    if sorted(cards) != list(range(1, 11)) or any(c["action"] not in STROZZI_ACTIONS for c in cards.values()):
        raise _fail("strozzi.cards", "must be cards 1..10, each with a known action")


check(DATA)


def _loc(n: int) -> str:
    return str(n)


# -- the board ----------------------------------------------------------------------------------------

LOCATIONS: list[str] = [_loc(n) for n in DATA["locations"]]
ROWS: list[list[str]] = [[_loc(n) for n in row] for row in DATA["rows"]]
COLUMNS: list[list[str]] = [[_loc(n) for n in col] for col in DATA["columns"]]
ROW_OF: dict[str, list[str]] = {loc: row for row in ROWS for loc in row}
COLUMN_OF: dict[str, list[str]] = {loc: col for col in COLUMNS for loc in col}

PATHS: list[str] = [f"{a}-{b}" for a, b in DATA["paths"]]
PATH_ID: dict[tuple[str, str], str] = {}
for _a, _b in DATA["paths"]:
    PATH_ID[(_loc(_a), _loc(_b))] = PATH_ID[(_loc(_b), _loc(_a))] = f"{_a}-{_b}"
NEIGHBOURS: dict[str, list[str]] = {
    loc: sorted((b for (a, b) in PATH_ID if a == loc), key=int) for loc in LOCATIONS}
PARK: tuple[str, str] = (_loc(DATA["park_diagonal"][0]), _loc(DATA["park_diagonal"][1]))

CYCLE: list[str] = [_loc(n) for n in DATA["carriage_cycle"]]
NEXT: dict[str, str] = {a: b for a, b in zip(CYCLE, CYCLE[1:] + CYCLE[:1])}
PREV: dict[str, str] = {b: a for a, b in NEXT.items()}


def path_between(a: str, b: str) -> str | None:
    """The path joining two locations ("4-5"), or None (the park diagonal, or not neighbours)."""
    return PATH_ID.get((a, b))


def route(start: str, target: str) -> list[str]:
    """The locations a carriage enters from `start` to `target` along the cycle; the start is not
    entered. Empty when the carriage is already there."""
    out: list[str] = []
    here = start
    while here != target:
        here = NEXT[here]
        out.append(here)
    return out


def path_into(target: str) -> str | None:
    """The path of the arrow that enters `target`; None when that arrow is the park diagonal."""
    return path_between(PREV[target], target)


def path_out(location: str) -> str | None:
    """The path of the arrow that leaves `location`; None when that arrow is the park diagonal."""
    return path_between(location, NEXT[location])


# -- pieces, time, the disc ---------------------------------------------------------------------------

RANKS: list[str] = DATA["ranks"]                      # front to back
RANK_ORDER: dict[str, int] = {rank: i for i, rank in enumerate(RANKS)}
PROMOTES_TO: dict[str, str] = DATA["promotions"]
SLOTS: int = DATA["queue"]["slots"]
ROUNDS: int = DATA["rounds"]
TIME_MIN: int = DATA["time"]["min"]
TIME_MAX: int = DATA["time"]["max"]
TIME_TILES: list[int] = DATA["time_tiles"]
COLOURS: list[str] = DATA["colours"]

MEDICI: list[str] = list(DATA["medici"])
GUARD_OF: dict[str, str] = {m: v["guard"] for m, v in DATA["medici"].items()}
MEDICI_OF_GUARD: dict[str, str] = {g: m for m, g in GUARD_OF.items()}
#: every crest of each guard kind: escorts stand on paths, spies and doormen at locations
CRESTS: dict[str, list[str]] = {"escort": PATHS, "spy": LOCATIONS, "doorman": LOCATIONS}
DISC: dict[int, dict[str, Any]] = DATA["disc"]


def medici_of(round_: int) -> str:
    """The Medici who moves in a round (the Medici of its sector)."""
    return DISC[round_]["medici"]


def letters(round_: int) -> dict[str, str]:
    """The solo game's Medici A, B, C: those of this round's sector and the next two, the last round
    standing in for rounds beyond it."""
    return {letter: medici_of(min(round_ + i, ROUNDS)) for i, letter in enumerate("ABC")}


# -- cards and tiles ----------------------------------------------------------------------------------

BOAST_TILES: dict[str, dict[str, Any]] = DATA["boast_tiles"]
BOAST_SLOTS: dict[str, dict[str, Any]] = DATA["boast_slots"]
BOAST_SLOT_ORDER: list[str] = DATA["boast_slot_order"]   # bottom to top
SCANDAL_CARDS: dict[str, dict[str, Any]] = {
    card: {**spec, "deck": deck} for deck, d in DATA["scandal"]["decks"].items() for card, spec in d["cards"].items()}
DECK_OF: dict[str, str] = {d["medici"]: deck for deck, d in DATA["scandal"]["decks"].items()}
PLAN_CARDS: dict[int, dict[str, Any]] = {
    n: {"locations": [_loc(x) for x in card["locations"]], "vp": card["vp"]} for n, card in DATA["plan_cards"].items()}
PLAN_MIN_MEMBERS: int = DATA["plan_min_members"]
PLAN_MAX_VP: int = DATA["plan_max_vp"]
