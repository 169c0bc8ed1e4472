"""What the rules ask about a position of Medina, worked out once per position and kept up to date by
each placement (`City`), how `Medina` keeps it, and the sites of each kind of piece as orders."""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from typing import Any, Iterable

from pbem.rules.base import Order, State
from pbem.rules.medina.board import (ALL_SQUARES, AROUND, AROUND_SELF, AT_TOWER, COLOURS, in_board_order,
                                     MERCHANT_ORDER, ORTHO, PALACE_KEY, PALACE_ORDER, SIDE_LENGTH,
                                     STABLE_ORDER, WALL_INDEX, WALL_NEIGHBOURS, WALL_ORDER, WALL_SQUARE)

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
    #: the same as lists, made when first asked for and kept until a clear square is taken
    clear_lists: dict[str, list[Order]] = field(default_factory=dict)
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


class CityKeeper:
    """`Medina`'s part that makes the city of a position, brings it up to date after a placement, and reads
    the sites of each kind of piece off it as orders."""

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
            touching = {owner_of[n] for n in ORTHO[where] if n in owner_of}  # the palaces beside it
            if kind == "merchant":
                for growth in city.growth.values():
                    growth.discard(where)
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
                palaces_around = city.palaces_around
                for n in around:
                    if (near := palaces_around.get(n)) is None:
                        palaces_around[n] = {pid}
                    else:
                        near.add(pid)
                taken = AROUND_SELF[where]
                for other, growth in city.growth.items():
                    if other != pid:
                        growth.difference_update(taken)
                    else:
                        growth.discard(where)
                if kind == "palace":
                    city.growth.setdefault(pid, set()).update(self._room_to_grow(state, city, pid, [where]))
                self._unclear(city, taken)
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
                city.clear_lists.clear()

    # -- the sites of each kind of piece, as orders (kept in the city until a placement changes them) ---------

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
                made = city.clear_lists.get(colour)
                if made is None:
                    if colour not in city.clear_palaces:
                        city.clear_palaces[colour] = dict.fromkeys(map(PALACE_ORDER[colour].__getitem__, city.clear))
                    made = city.clear_lists[colour] = list(city.clear_palaces[colour])
                city.orders[key] = made
        return city.orders[key]

    def _stable_orders(self, state: State, city: City) -> list[Order]:
        """Where a stable may go: beside exactly one palace, touching no other even diagonally."""
        if "stable" not in city.orders:
            sites, around = city.beside_palace.difference(state["board"]), city.palaces_around
            beside_one = in_board_order([s for s in sites if len(around[s]) == 1])  # fewer to put in order
            city.orders["stable"] = list(map(STABLE_ORDER.__getitem__, beside_one))
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
            joins.difference_update(walls)  # a few: put in the order of `ALL_WALLS`
            city.orders["wall"] = [WALL_ORDER[w] for w in sorted(joins, key=WALL_INDEX.__getitem__)
                                   if built[w[0]] + 1 < SIDE_LENGTH[w[0]]]  # one more leaves a gate open
        return city.orders["wall"]

    def _city(self, state: State) -> City:
        """The city of a position: the one kept from the last look when the position is the same."""
        global _last_city
        stamp, known = _stamp(state), _last_city
        if known is not None and known[0][0] is state and known[0] == stamp:
            return known[1]
        city = self.city(state)
        _last_city = (stamp, city)
        return city

