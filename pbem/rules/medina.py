"""Medina, as played by the BrettspielWelt "DM 2003" rules: palaces, stables, the market street and
the city wall on a 16 x 11 board; each player places two pieces a turn and claims one palace of each
colour with a roof.

Squares are named by column and row (`C7`: column C, row 7; row 1 is the north edge). Wall segments
are named by side and position (`N5`: the north wall above column E; `W3`: the west wall beside row 3).
Orders are one placement each: `start E5`, `palace grey C7`, `stable D7`, `merchant E5`, `wall N5`,
`roof orange E4`.
"""

from __future__ import annotations

import re
from bisect import insort
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Iterator

from pbem.errors import IllegalOrder, SetupError
from pbem.rng import Rng
from pbem.rules.base import Decision, Event, Order, Ruleset, State, board_data, register, standings

DATA = board_data("medina")
COLS: int = DATA["columns"]
ROWS: int = DATA["rows"]
COLOURS: list[str] = DATA["colours"]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:COLS]
SIDE_LENGTH = {"N": COLS, "S": COLS, "W": ROWS, "E": ROWS}
SQUARE = r"[A-Z](?:[1-9]|[1-9][0-9])"
_COLOUR = "|".join(COLOURS)
ORDER = re.compile(rf"^(?:(start|stable|merchant)() ({SQUARE})|(palace|roof) ({_COLOUR}) ({SQUARE})|(wall)() ([NSEW][0-9]{{1,2}}))\Z")


def parse_order(order: Order) -> tuple[str, str | None, str] | None:
    """`palace grey C7` -> ("palace", "grey", "C7"); None when it is no placement."""
    return _parse_text(order) if isinstance(order, str) else None


@lru_cache(maxsize=4096)  # every order is read twice: checked, then carried out
def _parse_text(order: str) -> tuple[str, str | None, str] | None:
    m = ORDER.match(order)
    if not m:
        return None
    groups = [g for g in m.groups() if g is not None]
    kind, colour, where = groups
    return kind, colour or None, where


def square(col: int, row: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def coords(sq: str) -> tuple[int, int] | None:
    """(column, row), 0-based, or None when the name is not a square of the board."""
    if len(sq) < 2 or sq[0] not in LETTERS or not sq[1:].isdigit():
        return None
    col, row = LETTERS.index(sq[0]), int(sq[1:]) - 1
    return (col, row) if 0 <= row < ROWS else None


def on_edge(sq: str) -> bool:
    """Whether a square of the board lies on the edge of the city."""
    col, row = coords(sq)  # type: ignore[misc]
    return col in (0, COLS - 1) or row in (0, ROWS - 1)


ALL_SQUARES = [square(c, r) for r in range(ROWS) for c in range(COLS)]


def _near(sq: str, diagonal: bool) -> list[str]:
    c, r = coords(sq)  # type: ignore[misc]
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)] + ([(-1, -1), (-1, 1), (1, -1), (1, 1)] if diagonal else [])
    return [square(c + dc, r + dr) for dc, dr in steps if 0 <= c + dc < COLS and 0 <= r + dr < ROWS]


ORTHO = {s: _near(s, False) for s in ALL_SQUARES}
AROUND = {s: _near(s, True) for s in ALL_SQUARES}


def wall_square(wall: str) -> str:
    """The building square a wall segment stands beside."""
    side, pos = wall[0], int(wall[1:]) - 1
    return {"N": square(pos, 0), "S": square(pos, ROWS - 1), "W": square(0, pos), "E": square(COLS - 1, pos)}[side]


SIDE_WALLS = {side: [f"{side}{i}" for i in range(1, SIDE_LENGTH[side] + 1)] for side in "NSWE"}
ALL_WALLS = [w for side in "NSWE" for w in SIDE_WALLS[side]]
WALLS_AT: dict[str, list[str]] = {s: [] for s in ALL_SQUARES}
for _w in ALL_WALLS:
    WALLS_AT[wall_square(_w)].append(_w)
WALL_SQUARE = {w: wall_square(w) for w in ALL_WALLS}  # `wall_square` of each segment, worked out once
#: the segments beside a wall segment on its side of the city
WALL_NEIGHBOURS = {w: [f"{w[0]}{p}" for p in (int(w[1:]) - 1, int(w[1:]) + 1) if 1 <= p <= SIDE_LENGTH[w[0]]]
                   for w in ALL_WALLS}
AT_TOWER = {w for w in ALL_WALLS if int(w[1:]) in (1, SIDE_LENGTH[w[0]])}

# every placement as a player writes it, made once: legal orders are picked from these
START_ORDERS = [f"start {s}" for s in ALL_SQUARES if not on_edge(s)]
PALACE_ORDER = {colour: {s: f"palace {colour} {s}" for s in ALL_SQUARES} for colour in COLOURS}
STABLE_ORDER = {s: f"stable {s}" for s in ALL_SQUARES}
MERCHANT_ORDER = {s: f"merchant {s}" for s in ALL_SQUARES}
WALL_ORDER = {w: f"wall {w}" for w in ALL_WALLS}
PALACE_KEY = {colour: f"palace {colour}" for colour in COLOURS}  # the sites of a colour's palace pieces in `City.orders`
COLOUR_LETTER = {"grey": "g", "black": "k", "brown": "b", "orange": "o"}  # a palace piece on the grid
TOWER_MARK = {data["corner"]: f"T{t}" for t, data in DATA["towers"].items()}  # a corner of the grid
#: the grid of an empty city (see `Medina.grid`); where each square, and each wall segment, lies on it
EMPTY_GRID = [[TOWER_MARK["NW"], *["::"] * COLS, TOWER_MARK["NE"]],
              *[["::", *[".."] * COLS, "::"] for _ in range(ROWS)],
              [TOWER_MARK["SW"], *["::"] * COLS, TOWER_MARK["SE"]]]
SQUARE_CELL = {square(c, r): (r + 1, c + 1) for r in range(ROWS) for c in range(COLS)}
WALL_CELL = {**{f"N{i}": (0, i) for i in range(1, COLS + 1)}, **{f"S{i}": (ROWS + 1, i) for i in range(1, COLS + 1)},
             **{f"W{i}": (i, 0) for i in range(1, ROWS + 1)}, **{f"E{i}": (i, COLS + 1) for i in range(1, ROWS + 1)}}
SQUARE_INDEX = {s: i for i, s in enumerate(ALL_SQUARES)}  # a square's place in board order
POINT_KINDS = ("pieces", "merchants", "walls", "total")  # what a claimed palace's points are made of
#: each bonus tile as the scores show it, and its points: by colour, and by tower (as the state names it)
PALACE_TILE = {colour: (f"{colour} palace", points) for colour, points in DATA["palace_bonus"].items()}
TOWER_TILE = {str(tower): (f"tower {tower}", points) for tower, points in DATA["tower_bonus"].items()}


@lru_cache(maxsize=256)
def _decision(player: str, kind: str) -> Decision:
    """A player's decision of a kind, made once: it is asked for before and after every placement."""
    return Decision((player,), kind)


def in_board_order(squares: Iterable[str]) -> list[str]:
    """The squares in board order: north to south, west to east."""
    return sorted(squares, key=SQUARE_INDEX.__getitem__)


@dataclass(eq=False)
class City:
    """What the rules ask about one position, worked out once per position (see `Medina._city`)."""

    owner_of: dict[str, int] = field(default_factory=dict)          # square -> palace id (parts, stables)
    claimed: dict[str, list[int]] = field(default_factory=dict)     # player -> his palaces' ids, in order
    open_palace: dict[str, int | None] = field(default_factory=dict)  # colour -> its one open palace
    growth: dict[int, set[str]] = field(default_factory=dict)       # palace id -> squares it may grow to
    street_next: set[str] = field(default_factory=set)              # squares that continue the street
    merchants: set[str] = field(default_factory=set)
    near_palace: set[str] = field(default_factory=set)              # squares touching a palace or stable
    beside_palace: set[str] = field(default_factory=set)            # those touching one not only diagonally
    #: square -> the palaces whose parts or stables touch it, even diagonally (for squares near a palace)
    palaces_around: dict[str, set[int]] = field(default_factory=dict)
    clear: dict[str, None] = field(default_factory=dict)            # empty squares touching none, in order
    #: a palace piece of each colour onto each clear square, as orders in board order, made when first asked
    #: for and kept in step with `clear`: taking out a few is cheaper than making them anew for each position
    clear_palaces: dict[str, dict[Order, None]] = field(default_factory=dict)
    #: the sites of each kind of piece ("palace grey", "stable", "merchant", "wall") as orders, made
    #: when first asked for: the check of who moves next and the next legal list share them
    orders: dict[str, list[Order]] = field(default_factory=dict)
    #: each unclaimed palace's colour and the order that roofs it, in order, made when first asked for
    roofs: list[tuple[str, Order]] | None = None
    #: palace id -> the squares it may grow to and the palace orders onto them, as last made: a placement
    #: elsewhere leaves them as they are
    growth_orders: dict[int, tuple[frozenset[str], list[Order]]] = field(default_factory=dict)
    #: claimed palaces' points by palace id as the scores show them (with the palace's colour and first
    #: square), as far as asked for; kept until a piece of the palace touches them, a merchant or wall beside
    #: it adding a point
    points: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: the grid a view shows (see `Medina.grid`), once asked for; brought up to date by each placement, which
    #: replaces the rows it changes instead of changing them (a bot's view shares the rows)
    grid: list[list[str]] | None = None
    #: each player's line of the scores (see `Medina.scores`), once asked for by a bot's view, until a
    #: placement changes it
    score_lines: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: each player as a bot's view shows him, once asked for, until a placement changes him
    player_lines: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: every palace as the view shows it (by palace id), once asked for; kept up to date by each placement
    palace_lines: list[dict[str, Any]] | None = None
    # What a bot's view is made of (the grid's rows, the player and palace lines, the score lines) is never
    # changed once made: a placement replaces it. So a bot's view shares it and stays as it was.


#: the last position looked at: (its stamp, its city). Only `apply` changes a position, and every placement
#: moves the turn on, so a city is kept for as long as the same state object shows the same stamp.
_last_city: tuple[tuple[Any, ...], City] | None = None


def _stamp(state: State) -> tuple[Any, ...]:
    """What tells one position of a state object from the next: the state and the containers the city is
    made from (held, so that no new object can take their place unseen), their sizes and the turn."""
    board, palaces, walls, streets = state["board"], state["palaces"], state["walls"], state["streets"]
    return (state, state["turn"], board, len(board), palaces, len(palaces), walls, len(walls),
            streets, len(streets))


@register
class Medina(Ruleset):
    name = "medina"
    title = "Medina"
    example_order = "palace orange C7"
    min_players = 3
    max_players = 4
    options: dict[str, tuple[str, ...]] = {}

    def check_deck(self, deck: Any, players: list[str], options: dict[str, str]) -> dict[str, Any]:
        raise SetupError("Medina has no cards: it takes no deck file")

    def setup(self, players: list[str], options: dict[str, str], rng: Rng,
              deck: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
        self.check_players(players)
        self.check_options(options)
        if deck is not None:
            self.check_deck(deck, players, options)
        count = DATA["pieces"][len(players)]
        start = rng.choice(players, "start-player")
        state: State = {
            "players": list(players),
            "supply": {p: {"palace": {c: count["palace"] for c in COLOURS}, "stable": count["stable"],
                           "merchant": count["merchant"], "wall": count["wall"], "roof": count["roof"]}
                       for p in players},
            "board": {},          # square -> {"kind": palace|stable|merchant, ...}
            "palaces": [],        # {"id", "colour", "parts", "stables", "owner"}
            "streets": [],        # each a list of squares, in order; the last is the current street
            "walls": {},          # segment -> the tower its run starts from
            "roofed": {p: [] for p in players},
            "palace_bonus": {c: None for c in COLOURS},        # palace id
            "tower_bonus": {str(t): None for t in DATA["towers"]},  # player
            "returned": {p: {} for p in players},
            "turn": 1,
            "phase": "start",
            "current": start,
            "placed": 0,          # placements so far in the current player's turn
            "roofed_this_turn": False,
        }
        return state, [{"type": "start_player", "player": start}]

    # -- looking at the city ----------------------------------------------------------------------

    def city(self, state: State) -> City:
        """The city of a position, worked out afresh."""
        c = City()
        owner_of, board, palaces = c.owner_of, state["board"], state["palaces"]
        for p in palaces:
            pid = p["id"]
            for s in p["parts"]:
                owner_of[s] = pid
            for s in p["stables"]:
                owner_of[s] = pid
            if p["owner"] is not None:
                c.claimed.setdefault(p["owner"], []).append(pid)
        c.near_palace = near_palace = set().union(*map(AROUND.__getitem__, owner_of))
        c.beside_palace = set().union(*map(ORTHO.__getitem__, owner_of))
        for s, pid in owner_of.items():
            for n in AROUND[s]:
                c.palaces_around.setdefault(n, set()).add(pid)
        for p in palaces:
            if p["owner"] is not None:
                continue
            c.growth[p["id"]] = self._room_to_grow(state, c, p["id"], p["parts"])
        self._find_open_palaces(state, c)
        c.clear = dict.fromkeys(s for s in ALL_SQUARES if s not in near_palace and s not in board)
        c.merchants = {s for s, piece in board.items() if piece["kind"] == "merchant"}
        self._find_street_next(state, c)
        return c

    def _room_to_grow(self, state: State, city: City, pid: int, parts: list[str]) -> set[str]:
        """The empty squares beside `parts` where palace `pid` may grow: touching no other palace, not
        even diagonally."""
        board, around, alone = state["board"], city.palaces_around, {pid}
        return {s for part in parts for s in ORTHO[part] if s not in board and around.get(s, alone) <= alone}

    def _find_open_palaces(self, state: State, city: City) -> None:
        """Each colour's open palace: the first unclaimed one that can still grow."""
        city.open_palace = dict.fromkeys(COLOURS)
        for p in state["palaces"]:
            if p["owner"] is None and city.growth[p["id"]] and city.open_palace[p["colour"]] is None:
                city.open_palace[p["colour"]] = p["id"]

    @staticmethod
    def _add_points(city: City, pid: int, kind: str) -> None:
        """One more point of `kind` ("merchants", "walls") for palace `pid`, in its points if kept (replaced,
        not changed: a view may hold them)."""
        if (points := city.points.get(pid)) is not None:
            city.points[pid] = {**points, kind: points[kind] + 1, "total": points["total"] + 1}

    @staticmethod
    def _open_palaces_may_change(state: State, city: City, kind: str, where: str) -> bool:
        """Whether a piece just placed on a square (the city's room to grow brought up to date) may change
        which palace of a colour is open: when it founded a palace, or an open palace can grow no more.
        Else each stays open: only the palace a piece goes onto gains room, so none before it can grow."""
        if kind == "palace":
            pid = state["board"][where]["palace"]
            if city.open_palace[state["palaces"][pid]["colour"]] != pid:  # founded: no palace was open
                return True
        growth = city.growth
        for pid in city.open_palace.values():
            if pid is not None and not growth[pid]:
                return True
        return False

    def _find_street_next(self, state: State, city: City) -> None:
        """The empty squares beside an end of the current street that touch no other merchant."""
        city.street_next = set()
        if state["streets"]:
            board, merchants, street = state["board"], city.merchants, state["streets"][-1]
            for end in {street[0], street[-1]}:
                for s in ORTHO[end]:
                    if s not in board and len(merchants.intersection(ORTHO[s])) == 1:
                        city.street_next.add(s)

    def _city_after(self, state: State, city: City, kind: str, where: str) -> City:
        """The city after a placement of `kind` at `where` (a square, or a wall segment), brought up to
        date from `city`, the city before it, instead of worked out afresh; and kept (see `_city`)."""
        global _last_city
        board, owner_of = state["board"], city.owner_of
        if kind == "wall":
            city.orders.pop("wall", None)
            if (pid := owner_of.get(WALL_SQUARE[where])) is not None:
                self._add_points(city, pid, "walls")
        elif kind == "roof":
            palace = self.palace(state, board[where]["palace"])
            del city.growth[palace["id"]]  # a claimed palace grows no more
            city.points.pop(palace["id"], None)
            city.orders.pop(f"palace {palace['colour']}", None)
            city.roofs = None
            insort(city.claimed.setdefault(palace["owner"], []), palace["id"])
            self._find_open_palaces(state, city)
        else:  # a piece on a square: the sites of every kind of piece but walls change
            city.orders = {"wall": city.orders["wall"]} if "wall" in city.orders else {}
            if kind == "palace" and len(self.palace(state, board[where]["palace"])["parts"]) == 1:  # founded
                city.roofs = None
            city.street_next.discard(where)
            for growth in city.growth.values():
                growth.discard(where)
            touching = {owner_of[n] for n in ORTHO[where] if n in owner_of}  # the palaces beside it
            if kind == "merchant":
                for pid in touching:
                    self._add_points(city, pid, "merchants")
                city.merchants.add(where)
                self._unclear(city, (where,))
                self._find_street_next(state, city)
            else:  # a palace part or a stable: the squares around it are neither clear any more nor room
                pid = owner_of[where] = board[where]["palace"]  # for another palace to grow into
                for other in touching:  # its own palace, which grows
                    city.points.pop(other, None)
                around = AROUND[where]
                city.near_palace.update(around)
                city.beside_palace.update(ORTHO[where])
                for n in around:
                    city.palaces_around.setdefault(n, set()).add(pid)
                for other, growth in city.growth.items():
                    if other != pid:
                        growth.difference_update(around)
                if kind == "palace":
                    city.growth.setdefault(pid, set()).update(self._room_to_grow(state, city, pid, [where]))
                self._unclear(city, (where, *around))
            if self._open_palaces_may_change(state, city, kind, where):
                self._find_open_palaces(state, city)
        if city.grid is not None:
            self._redraw(state, city.grid, kind, where)
        _last_city = (_stamp(state), city)
        return city

    def _renew_lines(self, state: State, city: City, player: str, kind: str, where: str, went_back: bool,
                     tiles_moved: set[str]) -> None:
        """Bring a bot's view's parts kept in `city` (brought up to date already) in step with `player`'s
        placement: the palace line it changes made anew; the score line dropped of each player whose score
        it may change (the owners of the palaces it touches, `player` for a roof, the players in
        `tiles_moved`, who won or lost a bonus tile), and the line of each player whose pieces or score it
        changes (`player`'s pieces in hand, everyone's when pieces went back)."""
        palaces, owner_of = state["palaces"], city.owner_of
        if kind != "wall" and city.palace_lines is not None:
            pid = state["board"][where].get("palace")
            if pid is not None:  # a palace piece, a stable or a roof
                line = self._palace_line(palaces[pid])
                if pid < len(city.palace_lines):
                    city.palace_lines[pid] = line
                else:
                    city.palace_lines.append(line)
        if went_back:
            city.player_lines.clear()
        else:
            city.player_lines.pop(player, None)
        changed = set(tiles_moved)  # the players whose score it changes
        if kind == "roof":  # his new palace
            changed.add(player)
        if kind == "wall":  # the owners of the palaces whose points it may change
            touching = [owner_of[WALL_SQUARE[where]]] if WALL_SQUARE[where] in owner_of else []
        else:
            touching = [owner_of[n] for n in ORTHO[where] if n in owner_of]
        for pid in touching:
            if (owner := palaces[pid]["owner"]) is not None:
                changed.add(owner)
        for p in changed:
            city.score_lines.pop(p, None)
            city.player_lines.pop(p, None)

    @staticmethod
    def _unclear(city: City, squares: Iterable[str]) -> None:
        """Take squares out of the clear ones (and their palace orders): taken, or beside a palace now."""
        clear = city.clear
        for sq in squares:
            if sq in clear:
                del clear[sq]
                for colour, orders in city.clear_palaces.items():
                    del orders[PALACE_ORDER[colour][sq]]

    def _city(self, state: State) -> City:
        """The city of a position: the one kept from the last look when the position is the same."""
        global _last_city
        stamp, known = _stamp(state), _last_city
        if known is not None and known[0][0] is state and known[0] == stamp:
            return known[1]
        city = self.city(state)
        _last_city = (stamp, city)
        return city

    def palace(self, state: State, pid: int) -> dict[str, Any]:
        return state["palaces"][pid]

    def size(self, palace: dict[str, Any]) -> int:
        return len(palace["parts"]) + len(palace["stables"])

    def pieces_left(self, state: State, player: str) -> int:
        s = state["supply"][player]
        return sum(s["palace"].values()) + s["stable"] + s["merchant"] + s["wall"] + s["roof"]

    def roof_possible(self, state: State, player: str) -> bool:
        return state["supply"][player]["roof"] > 0 and any(
            p["owner"] is None and p["colour"] not in state["roofed"][player] for p in state["palaces"])

    def roof_compulsory(self, state: State, player: str) -> bool:
        """Only this player still has roofs: every turn of his must place one."""
        supply = state["supply"]
        if supply[player]["roof"] <= 0:
            return False
        for q in state["players"]:  # asked at every placement: a loop, not a generator
            if q != player and supply[q]["roof"] != 0:
                return False
        return True

    # -- orders -----------------------------------------------------------------------------------

    def decision(self, state: State) -> Decision | None:
        phase = state["phase"]
        if phase == "over":
            return None
        return _decision(state["current"], "start" if phase == "start" else "build")

    def candidate_orders(self, state: State, player: str) -> list[Order]:
        if state["phase"] == "start":
            return [f"start {s}" for s in ALL_SQUARES]
        free = [s for s in ALL_SQUARES if s not in state["board"]]
        supply = state["supply"].get(player)
        if not supply:
            return []
        out: list[Order] = []
        for colour in COLOURS:
            if supply["palace"][colour]:
                out += [f"palace {colour} {s}" for s in free]
        if supply["stable"]:
            out += [f"stable {s}" for s in free]
        if supply["merchant"]:
            out += [f"merchant {s}" for s in free]
        if supply["wall"]:
            out += [f"wall {w}" for w in ALL_WALLS if w not in state["walls"]]
        if supply["roof"]:
            out += [f"roof {p['colour']} {p['parts'][0]}" for p in state["palaces"] if p["owner"] is None]
        return out

    def legal_orders(self, state: State, player: str) -> list[Order]:
        """The candidates `why_illegal` lets through, in their order, picked from the city directly."""
        out: list[Order] = []
        for group in self._legal_groups(state, player, self._city(state)):
            out += group
        return out

    def _can_place(self, state: State, player: str, city: City) -> bool:
        """Whether `player` has any legal order (looking no further than the first)."""
        return any(self._legal_groups(state, player, city))

    def _legal_groups(self, state: State, player: str, city: City) -> Iterator[list[Order]]:
        """The legal orders, one group per kind of piece, in the order of `candidate_orders`."""
        if state["phase"] == "over" or player != state["current"]:  # not his decision (see `decision`)
            return
        if state["phase"] == "start":
            yield START_ORDERS
            return
        supply = state["supply"][player]
        claimed = state["roofed"][player]
        duty = self._roof_duty(state, player)
        if duty != "roof":
            for colour in COLOURS:
                if supply["palace"][colour] and (duty is None or colour not in claimed):
                    yield self._palace_orders(state, colour, city)
        if duty is None:
            if supply["stable"]:
                yield self._stable_orders(state, city)
            if supply["merchant"]:
                yield self._merchant_orders(state, city)
            if supply["wall"]:
                yield self._wall_orders(state, city)
        if supply["roof"]:
            yield [order for colour, order in self._roof_orders(state, city) if colour not in claimed]

    def _roof_duty(self, state: State, player: str) -> str | None:
        """What the only player with roofs left must place now: "roof" (nothing else), "claim" (a roof, or
        a palace of a colour he has not claimed, to roof later); None when he is free."""
        if state["roofed_this_turn"] or not self.roof_compulsory(state, player):
            return None
        if state["placed"] >= 1 or self.pieces_left(state, player) == state["supply"][player]["roof"]:
            return "roof"
        if not self.roof_possible(state, player):
            return "claim"
        return None

    def _palace_fits(self, colour: str, city: City) -> bool:
        """Whether a palace piece of `colour` fits anywhere (an open palace always has room to grow)."""
        return city.open_palace[colour] is not None or bool(city.clear)

    def _palace_orders(self, state: State, colour: str, city: City) -> list[Order]:
        """Where a palace piece of `colour` may go: onto its open palace, else where it touches none."""
        key = PALACE_KEY[colour]
        if key not in city.orders:
            open_id = city.open_palace[colour]
            if open_id is not None:
                growth, made = city.growth[open_id], city.growth_orders.get(open_id)
                if made is None or made[0] != growth:
                    made = city.growth_orders[open_id] = (
                        frozenset(growth), list(map(PALACE_ORDER[colour].__getitem__, in_board_order(growth))))
                city.orders[key] = made[1]
            else:
                if colour not in city.clear_palaces:
                    city.clear_palaces[colour] = dict.fromkeys(map(PALACE_ORDER[colour].__getitem__, city.clear))
                city.orders[key] = list(city.clear_palaces[colour])
        return city.orders[key]

    def _stable_orders(self, state: State, city: City) -> list[Order]:
        """Where a stable may go: beside exactly one palace, touching no other even diagonally."""
        if "stable" not in city.orders:
            sites, around = city.beside_palace.difference(state["board"]), city.palaces_around
            city.orders["stable"] = [STABLE_ORDER[s] for s in in_board_order(sites) if len(around[s]) == 1]
        return city.orders["stable"]

    def _merchant_orders(self, state: State, city: City) -> list[Order]:
        """Where a merchant may go: onto an end of the street, or, when it cannot grow, clear of it."""
        if "merchant" not in city.orders:
            if city.street_next:
                sites = in_board_order(city.street_next)
            else:
                blocked = {n for m in city.merchants for n in ORTHO[m]}.union(state["board"])
                sites = [s for s in ALL_SQUARES if s not in blocked]
            city.orders["merchant"] = list(map(MERCHANT_ORDER.__getitem__, sites))
        return city.orders["merchant"]

    def _roof_orders(self, state: State, city: City) -> list[tuple[str, Order]]:
        """Every unclaimed palace's colour and the order that roofs it."""
        if city.roofs is None:
            city.roofs = [(p["colour"], f"roof {p['colour']} {p['parts'][0]}") for p in state["palaces"]
                          if p["owner"] is None]
        return city.roofs

    def _wall_orders(self, state: State, city: City) -> list[Order]:
        """The wall segments that may be built now."""
        if "wall" not in city.orders:
            walls = state["walls"]
            built = dict.fromkeys(SIDE_LENGTH, 0)
            for w in walls:
                built[w[0]] += 1
            joins = AT_TOWER.union(*map(WALL_NEIGHBOURS.__getitem__, walls))  # a tower or a wall beside it
            orders: list[Order] = []
            for side, segments in SIDE_WALLS.items():  # in the order of `ALL_WALLS`
                if built[side] + 1 < SIDE_LENGTH[side]:  # one more leaves a gate open
                    orders += [WALL_ORDER[w] for w in segments if w in joins and w not in walls]
            city.orders["wall"] = orders
        return city.orders["wall"]

    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        return self._why(state, player, order, self._city(state))

    def _why(self, state: State, player: str, order: Order, city: City) -> str | None:
        decision = self.decision(state)
        if decision is None:
            return "the game is over"
        if player not in decision.players:
            return f"it is not your turn: the game waits for {', '.join(decision.players)}"
        parsed = parse_order(order)
        if parsed is None:
            return f"{order!r} is not a placement (e.g. 'palace grey C7', 'wall N5', 'roof orange E4')"
        kind, colour, where = parsed
        if state["phase"] == "start":
            if kind != "start":
                return "first place the start of the market street: 'start SQUARE'"
            if where not in SQUARE_INDEX:  # the order's pattern leaves only the row to be checked
                return f"{where} is not a square of the city (A1 to {LETTERS[-1]}{ROWS})"
            if on_edge(where):
                return f"the market street may not start on the edge of the city ({where})"
            return None
        if kind == "start":
            return "the market street has its start already"
        supply = state["supply"][player]
        if kind != "wall" and where not in SQUARE_INDEX:
            return f"{where} is not a square of the city (A1 to {LETTERS[-1]}{ROWS})"
        duty = self._roof_duty(state, player) if kind != "roof" else None
        if duty == "roof":
            return "you are the only player with roofs left: this placement must be a roof"
        if duty == "claim" and not (kind == "palace" and colour not in state["roofed"][player]):
            return ("you are the only player with roofs left and no palace to roof: found a palace of a "
                    "colour you have not claimed, then roof it")
        if kind == "wall":
            return self._why_wall(state, where, supply)
        if kind == "roof":
            return self._why_roof(state, player, colour, where, supply)
        if where in state["board"]:
            return f"{where} is taken (by a {state['board'][where]['kind']})"
        if kind == "palace":
            return self._why_palace(state, colour, where, supply, city)
        if kind == "stable":
            if not supply["stable"]:
                return "you have no stables left"
            touching = {city.owner_of[n] for n in ORTHO[where] if n in city.owner_of}
            if not touching:
                return f"a stable must be built onto a palace; {where} touches none"
            if len(touching) > 1 or any(city.owner_of.get(n) not in (None, *touching) for n in AROUND[where]):
                return f"a stable at {where} would join two palaces; palaces may never touch, not even through stables"
            return None
        if not supply["merchant"]:
            return "you have no merchants left"
        if city.street_next:
            if where not in city.street_next:
                ends = state["streets"][-1]
                return (f"the market street must grow from one of its ends ({ends[0]}"
                        f"{' or ' + ends[-1] if len(ends) > 1 else ''}) with no branch and no loop: "
                        f"{where} is not such a square (choose from {', '.join(sorted(city.street_next, key=_order))})")
            return None
        if any(n in city.merchants for n in ORTHO[where]):
            return f"the market street cannot grow, so it starts anew; the new start {where} may not touch the old street"
        return None

    def _why_palace(self, state: State, colour: str | None, where: str, supply: dict[str, Any], city: City) -> str | None:
        assert colour is not None
        if not supply["palace"][colour]:
            return f"you have no {colour} palace pieces left"
        open_id = city.open_palace[colour]
        if open_id is not None:
            if where in city.growth[open_id]:
                return None
            first = self.palace(state, open_id)["parts"][0]
            return (f"the {colour} palace at {first} is still open: build onto it "
                    f"(at {', '.join(sorted(city.growth[open_id], key=_order))})")
        if where in city.near_palace:
            return f"a palace at {where} would touch another palace; palaces may never touch, not even diagonally"
        return None

    def _why_wall(self, state: State, where: str, supply: dict[str, Any]) -> str | None:
        if where not in ALL_WALLS:
            return f"{where} is not a wall segment (N1-N{COLS}, S1-S{COLS}, W1-W{ROWS}, E1-E{ROWS})"
        if not supply["wall"]:
            return "you have no walls left"
        if where in state["walls"]:
            return f"wall {where} stands already"
        side = where[0]
        if where not in AT_TOWER and state["walls"].keys().isdisjoint(WALL_NEIGHBOURS[where]):
            return f"walls are built from the corner towers along the edge: {where} joins no tower and no wall"
        if [w[0] for w in state["walls"]].count(side) + 1 >= SIDE_LENGTH[side]:
            return f"wall {where} would join two towers; a gate must stay open on the {side} side"
        return None

    def _why_roof(self, state: State, player: str, colour: str | None, where: str, supply: dict[str, Any]) -> str | None:
        if not supply["roof"]:
            return "you have no roofs left"
        piece = state["board"].get(where)
        if not piece or piece["kind"] != "palace":
            return f"there is no palace at {where} to roof"
        palace = self.palace(state, piece["palace"])
        if colour != palace["colour"]:
            return f"the palace at {where} is {palace['colour']}, not {colour}"
        if palace["owner"] is not None:
            return f"the {palace['colour']} palace at {where} has a roof already ({palace['owner']}'s)"
        if colour in state["roofed"][player]:
            return f"you own a {colour} palace already; each player roofs one palace of each colour"
        return None

    # -- carrying out a placement --------------------------------------------------------------------

    def apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        """Apply one placement, or raise `IllegalOrder` and leave `state` untouched; the city is worked
        out once for the check and the placement."""
        city = self._city(state)
        reason = self._why(state, player, order, city)
        if reason is not None:
            raise IllegalOrder(reason)
        return self._place(state, player, order, city)

    def _apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        return self._place(state, player, order, self._city(state))

    def _place(self, state: State, player: str, order: Order, city: City) -> list[Event]:
        """Carry out a legal placement; `city` is the city before it."""
        kind, colour, where = parse_order(order)  # type: ignore[misc]
        events: list[Event] = [{"type": "place", "player": player, "order": order}]
        state["turn"] += 1
        board = state["board"]
        if kind == "start":
            board[where] = {"kind": "merchant"}
            state["streets"].append([where])
            state["phase"] = "build"
            state["placed"] = 0
            return events
        supply = state["supply"][player]
        touched: list[tuple[str, str]] = []  # (wall, owner): a claimed palace newly touching a wall
        claimed_grows = False  # a claimed palace grows, or one more is claimed: a palace tile may move
        if kind == "palace":
            supply["palace"][colour] -= 1
            pid = city.open_palace[colour]
            if pid is None:
                pid = len(state["palaces"])
                state["palaces"].append({"id": pid, "colour": colour, "parts": [], "stables": [], "owner": None})
                events.append({"type": "found", "player": player, "colour": colour, "at": where})
            self.palace(state, pid)["parts"].append(where)
            board[where] = {"kind": "palace", "palace": pid}
        elif kind == "stable":
            supply["stable"] -= 1
            pid = next(city.owner_of[n] for n in ORTHO[where] if n in city.owner_of)
            palace = self.palace(state, pid)
            palace["stables"].append(where)
            board[where] = {"kind": "stable", "palace": pid}
            if palace["owner"] is not None:
                touched = [(w, palace["owner"]) for w in WALLS_AT[where] if w in state["walls"]]
                claimed_grows = True
        elif kind == "merchant":
            supply["merchant"] -= 1
            board[where] = {"kind": "merchant"}
            street = state["streets"][-1]
            if where in city.street_next:
                if where in ORTHO[street[-1]]:
                    street.append(where)
                else:
                    street.insert(0, where)
            else:
                state["streets"].append([where])
                events.append({"type": "new_street", "player": player, "at": where})
        elif kind == "wall":
            supply["wall"] -= 1
            state["walls"][where] = self._tower_of(state, where)
            pid = city.owner_of.get(WALL_SQUARE[where])
            if pid is not None and self.palace(state, pid)["owner"] is not None:
                touched = [(where, self.palace(state, pid)["owner"])]
        else:
            supply["roof"] -= 1
            state["roofed_this_turn"] = True
            palace = self.palace(state, board[where]["palace"])
            palace["owner"] = player
            claimed_grows = True
            state["roofed"][player].append(colour)
            touched = [(w, player) for s in palace["parts"] + palace["stables"]
                       for w in WALLS_AT[s] if w in state["walls"]]
        tiles_moved: set[str] = set()  # the players who won or lost a bonus tile
        for wall, owner in touched:
            tower = state["walls"][wall]
            if (holder := state["tower_bonus"][tower]) != owner:
                events.append({"type": "tower_bonus", "tower": int(tower), "player": owner, "wall": wall,
                               "from": holder})
                tiles_moved.update((owner, holder) if holder is not None else (owner,))
            state["tower_bonus"][tower] = owner
        if claimed_grows:  # no other placement changes a claimed palace
            holders = dict(state["palace_bonus"])
            self._palace_bonus(state, events)
            for colour, pid in state["palace_bonus"].items():
                if pid != holders[colour]:
                    tiles_moved.add(self.palace(state, pid)["owner"])
                    if holders[colour] is not None:
                        tiles_moved.add(self.palace(state, holders[colour])["owner"])
        city = self._city_after(state, city, kind, where)  # returning pieces leaves it as it is
        went_back = self._return_pieces(state, events, city)
        self._renew_lines(state, city, player, kind, where, went_back, tiles_moved)
        state["placed"] += 1
        self._next(state, player, events, city)
        return events

    def _tower_of(self, state: State, wall: str) -> str:
        """The tower whose run a new wall segment joins."""
        side, pos = wall[0], int(wall[1:])
        for tower, spec in DATA["towers"].items():
            for run_side, first, step in spec["runs"]:
                if run_side != side:
                    continue
                p = first
                while p != pos and f"{side}{p}" in state["walls"]:
                    p += step
                if p == pos:
                    return str(tower)
        raise AssertionError(f"wall {wall} joins no run")

    def _palace_bonus(self, state: State, events: list[Event]) -> None:
        """The tile of a colour goes to the first claimed palace, then only to a strictly larger one."""
        claimed = [p for p in state["palaces"] if p["owner"] is not None]
        for colour in COLOURS:
            holder = best = state["palace_bonus"][colour]
            best_size = -1 if best is None else self.size(self.palace(state, best))
            for p in claimed:
                if p["colour"] == colour and self.size(p) > best_size:
                    best, best_size = p["id"], self.size(p)
            if best != holder:
                winner = self.palace(state, best)
                events.append({"type": "palace_bonus", "colour": colour, "player": winner["owner"],
                               "at": winner["parts"][0], "size": self.size(winner)})
                state["palace_bonus"][colour] = best

    def _return_pieces(self, state: State, events: list[Event], city: City) -> bool:
        """Pieces of a colour go back once every player has claimed one palace of it, or once none fits;
        roofs go back that can no longer find a palace. Whether any went back."""
        players, supply, roofed, returned = state["players"], state["supply"], state["roofed"], state["returned"]
        to_come: list[str] = []  # colours with pieces to place
        for colour in COLOURS:
            for p in players:
                if supply[p]["palace"][colour]:
                    to_come.append(colour)
                    break
        went_back = False
        if to_come and (not city.clear or all(map(roofed.__getitem__, players))):  # else every colour fits, none is claimed by all
            claimed_by_all = set(COLOURS).intersection(*[roofed[p] for p in players])
            for colour in to_come.copy():
                claimed = colour in claimed_by_all
                if claimed or not self._palace_fits(colour, city):
                    counts = {p: supply[p]["palace"][colour] for p in players}
                    for p in players:
                        returned[p][colour] = returned[p].get(colour, 0) + counts[p]
                        supply[p]["palace"][colour] = 0
                    events.append({"type": "return", "colour": colour, "counts": counts,
                                   "why": "every player has claimed one" if claimed else "no piece fits any more"})
                    to_come.remove(colour)
                    went_back = True
        live = set(to_come)  # the colours a roof may go onto: pieces to come, or an unclaimed palace
        if len(live) < len(COLOURS):
            live.update(x["colour"] for x in state["palaces"] if x["owner"] is None)
        for p in players:
            roofs = supply[p]["roof"]
            if not roofs:  # no roof: none too many
                continue
            extra = roofs - len(live.difference(roofed[p]))  # roofs less the colours he may still roof
            if extra > 0:
                supply[p]["roof"] -= extra
                returned[p]["roof"] = returned[p].get("roof", 0) + extra
                events.append({"type": "return_roofs", "player": p, "count": extra})
                went_back = True
        return went_back

    def _next(self, state: State, player: str, events: list[Event], city: City) -> None:
        """The same player again for his second placement, or the next player who can place."""
        if state["placed"] < DATA["placements_per_turn"] and self._can_place(state, player, city):
            return
        seats = state["players"]
        i = seats.index(player)
        for step in range(1, len(seats) + 1):
            nxt = seats[(i + step) % len(seats)]
            state.update(current=nxt, placed=0, roofed_this_turn=False)
            if self._can_place(state, nxt, city):
                return
            if self.pieces_left(state, nxt):
                events.append({"type": "skip", "player": nxt, "left": self.left_over(state, nxt)})
        state["phase"] = "over"
        events.append({"type": "game_end", "standings": self.result(state),
                       "left_over": {p: self.left_over(state, p) for p in seats if self.pieces_left(state, p)}})

    def left_over(self, state: State, player: str) -> dict[str, int]:
        s = state["supply"][player]
        out = {f"{c} palace": n for c, n in s["palace"].items() if n}
        out.update({k: s[k] for k in ("stable", "merchant", "wall", "roof") if s[k]})
        return out

    # -- scoring --------------------------------------------------------------------------------

    def palace_score(self, state: State, palace: dict[str, Any]) -> dict[str, int]:
        """A claimed palace's points: its pieces, the merchants and walls touching it."""
        points = self._palace_score(state, palace, self._city(state))
        return {kind: points[kind] for kind in POINT_KINDS}

    def _palace_score(self, state: State, palace: dict[str, Any], city: City) -> dict[str, Any]:
        """`palace_score` with the palace's colour and first square, as the scores show it; kept in the
        city (not to be changed by the caller)."""
        if (points := city.points.get(palace["id"])) is None:
            squares = set(palace["parts"] + palace["stables"])
            beside = set().union(*map(ORTHO.__getitem__, squares))
            built = state["walls"]
            pieces, merchants = len(squares), len(beside.intersection(city.merchants))
            walls = sum(1 for s in squares for w in WALLS_AT[s] if w in built)  # a segment stands by one square
            points = city.points[palace["id"]] = {"pieces": pieces, "merchants": merchants, "walls": walls,
                                                  "total": pieces + merchants + walls,
                                                  "colour": palace["colour"], "at": palace["parts"][0]}
        return points

    def scores(self, state: State) -> dict[str, dict[str, Any]]:
        out = {p: {"palaces": [], "bonus": [], "total": 0} for p in state["players"]}
        city = self._city(state)
        known, palaces = city.points, state["palaces"]
        for palace in palaces:
            if owner := palace["owner"]:
                s = known.get(palace["id"]) or self._palace_score(state, palace, city)
                line = out[owner]
                line["palaces"].append(s.copy())
                line["total"] += s["total"]
        for colour, pid in state["palace_bonus"].items():
            if pid is not None:
                tile, points = PALACE_TILE[colour]
                line = out[palaces[pid]["owner"]]
                line["bonus"].append({"tile": tile, "points": points})
                line["total"] += points
        for tower, owner in state["tower_bonus"].items():
            if owner is not None:
                tile, points = TOWER_TILE[tower]
                line = out[owner]
                line["bonus"].append({"tile": tile, "points": points})
                line["total"] += points
        return out

    def _score_line(self, state: State, city: City, player: str) -> dict[str, Any]:
        """One player's line of `scores`."""
        line: dict[str, Any] = {"palaces": [], "bonus": [], "total": 0}
        known, palaces = city.points, state["palaces"]
        for pid in city.claimed.get(player, ()):
            s = known.get(pid) or self._palace_score(state, palaces[pid], city)
            line["palaces"].append(s.copy())
            line["total"] += s["total"]
        for colour, pid in state["palace_bonus"].items():
            if pid is not None and palaces[pid]["owner"] == player:
                tile, points = PALACE_TILE[colour]
                line["bonus"].append({"tile": tile, "points": points})
                line["total"] += points
        for tower, owner in state["tower_bonus"].items():
            if owner == player:
                tile, points = TOWER_TILE[tower]
                line["bonus"].append({"tile": tile, "points": points})
                line["total"] += points
        return line

    def result(self, state: State) -> list[dict[str, Any]]:
        return standings(state["players"], {p: s["total"] for p, s in self.scores(state).items()})

    # -- what players see -----------------------------------------------------------------------

    def grid(self, state: State) -> list[list[str]]:
        """The city with its wall ring, two characters a square: `g-` an unclaimed grey palace piece,
        `G2` one claimed by player 2, `s-`/`S2` stables, `mm` the market street (`MM` the current one),
        `##` a wall, `..` an empty square or wall space, `T1`-`T4` the towers."""
        city = self._city(state)
        if city.grid is None:
            city.grid = self._draw_grid(state)
        return [row.copy() for row in city.grid]

    def _draw_grid(self, state: State) -> list[list[str]]:
        """The grid worked out afresh: the empty city with every wall and piece put on it."""
        current = set(state["streets"][-1]) if state["streets"] else set()
        palace_marks = [self._palace_marks(state, p) for p in state["palaces"]]  # by palace id
        rows = [row.copy() for row in EMPTY_GRID]
        for wall in state["walls"]:
            row, col = WALL_CELL[wall]
            rows[row][col] = "##"
        for sq, piece in state["board"].items():
            row, col = SQUARE_CELL[sq]
            if piece["kind"] == "merchant":
                rows[row][col] = "MM" if sq in current else "mm"
            else:
                rows[row][col] = palace_marks[piece["palace"]][piece["kind"] == "stable"]
        return rows

    def _palace_marks(self, state: State, palace: dict[str, Any]) -> tuple[str, str]:
        """How a palace's parts and its stables show on the grid."""
        letter = COLOUR_LETTER[palace["colour"]]
        if not palace["owner"]:
            return letter + "-", "s-"
        seat = str(state["players"].index(palace["owner"]) + 1)
        return letter.upper() + seat, "S" + seat

    def _redraw(self, state: State, grid: list[list[str]], kind: str, where: str) -> None:
        """Bring a kept grid up to date after a placement of `kind` at `where`: each row it changes is
        replaced by a changed copy (a bot's view may share the old one)."""
        if kind == "wall":
            row, col = WALL_CELL[where]
            grid[row] = grid[row].copy()
            grid[row][col] = "##"
            return
        marks: dict[str, str] = {}
        if kind == "merchant":
            streets = state["streets"]
            if streets[-1] == [where] and len(streets) > 1:  # a new street: the old one is current no more
                marks.update(dict.fromkeys(streets[-2], "mm"))
            marks[where] = "MM"
        else:  # a palace part, a stable or a roof: the palace's pieces as they show now
            palace = self.palace(state, state["board"][where]["palace"])
            part, stable = self._palace_marks(state, palace)
            if kind == "roof":  # the owner shows on every piece
                marks.update(dict.fromkeys(palace["parts"], part))
                marks.update(dict.fromkeys(palace["stables"], stable))
            else:  # the palace's other pieces show as they did
                marks[where] = stable if kind == "stable" else part
        copied: set[int] = set()
        for sq, mark in marks.items():
            row, col = SQUARE_CELL[sq]
            if row not in copied:
                grid[row] = grid[row].copy()
                copied.add(row)
            grid[row][col] = mark

    @staticmethod
    def _supply_view(supply: dict[str, Any]) -> dict[str, Any]:
        """A player's pieces in hand, as the view shows them (a copy)."""
        return {"palace": dict(supply["palace"]), "stable": supply["stable"], "merchant": supply["merchant"],
                "wall": supply["wall"], "roof": supply["roof"]}

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        decision = self.decision(state)
        return {
            "phase": state["phase"],
            "turn": state["turn"],
            "current": state["current"],
            "placed_this_turn": state["placed"],
            "letters": LETTERS,
            "grid": self.grid(state),
            "players": self._players_view(state),
            "palaces": self._palaces_view(state),
            "street_ends": ([state["streets"][-1][0], state["streets"][-1][-1]] if state["streets"] else []),
            "roof_compulsory": bool(decision) and self.roof_compulsory(state, state["current"]),
            "waiting_for": list(decision.players) if decision else [],
            "you": player,
        }

    def bot_view(self, state: State, player: str) -> dict[str, Any]:
        """What the bot reads of the view: the grid, the players and the palaces. Whose turn it is, the
        street's ends and the duty to roof it does not need: its legal orders tell it those. Made of the
        parts kept in the city, which no placement changes (see `City`): to be read, not changed."""
        city = self._city(state)
        if city.grid is None:
            city.grid = self._draw_grid(state)
        if city.palace_lines is None:
            city.palace_lines = self._palaces_view(state)
        return {"letters": LETTERS, "grid": list(city.grid), "players": self._player_lines(state, city),
                "palaces": list(city.palace_lines)}

    def _player_lines(self, state: State, city: City) -> list[dict[str, Any]]:
        """`_players_view` from the lines kept in the city, the missing ones made."""
        lines, scores, players = city.player_lines, city.score_lines, state["players"]
        if len(lines) < len(players):
            for seat, p in enumerate(players, 1):
                if p not in lines:
                    if (score := scores.get(p)) is None:
                        score = scores[p] = self._score_line(state, city, p)
                    lines[p] = self._player_line(state, seat, p, score)
        return [lines[p] for p in players]

    def _player_line(self, state: State, seat: int, player: str, score: dict[str, Any]) -> dict[str, Any]:
        """A player as the view shows him, with his line of the scores."""
        return {
            "name": player, "seat": seat,
            "supply": self._supply_view(state["supply"][player]),
            "claimed": list(state["roofed"][player]),
            "returned": dict(state["returned"][player]),
            "score": score["total"],
            "bonus": score["bonus"],
            "palaces": score["palaces"],
        }

    def _players_view(self, state: State) -> list[dict[str, Any]]:
        """Each player as the view shows him: his pieces, claims and score."""
        scores = self.scores(state)
        return [self._player_line(state, seat, p, scores[p]) for seat, p in enumerate(state["players"], 1)]

    def _palaces_view(self, state: State) -> list[dict[str, Any]]:
        """Every palace as the view shows it: its colour, first square, size and owner."""
        return [self._palace_line(x) for x in state["palaces"]]

    @staticmethod
    def _palace_line(palace: dict[str, Any]) -> dict[str, Any]:
        """A palace as the view shows it."""
        return {"colour": palace["colour"], "at": palace["parts"][0], "size": len(palace["parts"]) + len(palace["stables"]),
                "owner": palace["owner"]}


def _order(sq: str) -> tuple[int, int]:
    c = coords(sq)
    return (c[1], c[0]) if c else (99, 99)
