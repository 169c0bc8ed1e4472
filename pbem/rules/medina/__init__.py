"""Medina, as played by the BrettspielWelt "DM 2003" rules: palaces, stables, the market street and
the city wall on a 16 x 11 board; each player places two pieces a turn and claims one palace of each
colour with a roof.

Squares are named by column and row (`C7`: column C, row 7; row 1 is the north edge). Wall segments
are named by side and position (`N5`: the north wall above column E; `W3`: the west wall beside row 3).
Orders are one placement each: `start E5`, `palace grey C7`, `stable D7`, `merchant E5`, `wall N5`,
`roof orange E4`.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import IllegalOrder, SetupError
from pbem.rng import Rng
from pbem.rules.base import Decision, Event, Order, Ruleset, State, register
from pbem.rules.medina.board import (ALL_SQUARES, ALL_WALLS, AROUND, AT_TOWER, COLOURS, COLS, DATA, decision_of, LETTERS,
                                     on_edge, row_major, ORTHO, PALACE_KEY, parse_order, ROWS, SIDE_LENGTH, SQUARE_INDEX,
                                     START_ORDERS, WALL_NEIGHBOURS, WALL_SQUARE, WALLS_AT)
from pbem.rules.medina.city import City, CityKeeper
from pbem.rules.medina.refusals import refuse
from pbem.rules.medina.scores import Scoring
from pbem.rules.medina.view import Views


@register
class Medina(CityKeeper, Scoring, Views, Ruleset):
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
        return decision_of(state["current"], "start" if phase == "start" else "build")

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
        return self._legal(state, player, self._city(state), False)

    def _can_place(self, state: State, player: str, city: City) -> bool:
        """Whether `player` has any legal order (looking no further than the first kind of piece that has)."""
        return bool(self._legal(state, player, city, True))

    def _legal(self, state: State, player: str, city: City, first: bool) -> list[Order]:
        """The legal orders, kind of piece after kind in the order of `candidate_orders`; with `first`, those
        of the first kind that has any."""
        phase = state["phase"]
        if phase == "over" or player != state["current"]:  # not his decision (see `decision`)
            return []
        if phase == "start":
            return list(START_ORDERS)
        supply = state["supply"][player]
        claimed = state["roofed"][player]
        # the duty to roof needs a roof in hand: asked at every placement, so looked at here first
        duty = self._roof_duty(state, player) if supply["roof"] > 0 and not state["roofed_this_turn"] else None
        made = city.orders  # each kind's orders, when made already (an empty list is made again: cheap)
        out: list[Order] = []
        if duty != "roof":
            hand = supply["palace"]
            for colour in COLOURS:
                if hand[colour] and (duty is None or colour not in claimed):
                    out += made.get(PALACE_KEY[colour]) or self._palace_orders(state, colour, city)
                    if first and out:
                        return out
        if duty is None:
            if supply["stable"]:
                out += made.get("stable") or self._stable_orders(state, city)
            if supply["merchant"] and not (first and out):
                out += made.get("merchant") or self._merchant_orders(state, city)
            if supply["wall"] and not (first and out):
                out += made.get("wall") or self._wall_orders(state, city)
        if supply["roof"] and not (first and out):
            out += [order for colour, order in self._roof_orders(state, city) if colour not in claimed]
        return out

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

    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        return self._why(state, player, order, self._city(state))

    def _why(self, state: State, player: str, order: Order, city: City) -> str | None:
        if state["phase"] == "over":  # `decision`, asked without making one
            return refuse("game-over")
        if player != state["current"]:
            return refuse("not-your-turn", player=state["current"])
        parsed = parse_order(order)
        if parsed is None:
            return refuse("not-a-placement", order=repr(order))
        kind, colour, where = parsed
        if state["phase"] == "start":
            if kind != "start":
                return refuse("start-first")
            if where not in SQUARE_INDEX:  # the order's pattern leaves only the row to be checked
                return refuse("not-a-square", square=where, last=f"{LETTERS[-1]}{ROWS}")
            if on_edge(where):
                return refuse("start-on-edge", square=where)
            return None
        if kind == "start":
            return refuse("start-placed")
        supply = state["supply"][player]
        if kind != "wall" and where not in SQUARE_INDEX:
            return refuse("not-a-square", square=where, last=f"{LETTERS[-1]}{ROWS}")
        duty = self._roof_duty(state, player) if kind != "roof" and supply["roof"] > 0 else None  # none without a roof
        if duty == "roof":
            return refuse("roof-due")
        if duty == "claim" and not (kind == "palace" and colour not in state["roofed"][player]):
            return refuse("claim-due")
        if kind == "wall":
            return self._why_wall(state, where, supply)
        if kind == "roof":
            return self._why_roof(state, player, colour, where, supply)
        if where in state["board"]:
            return refuse("taken", square=where, kind=state["board"][where]["kind"])
        if kind == "palace":
            return self._why_palace(state, colour, where, supply, city)
        if kind == "stable":
            if not supply["stable"]:
                return refuse("no-stables")
            touching = {city.owner_of[n] for n in ORTHO[where] if n in city.owner_of}
            if not touching:
                return refuse("stable-alone", square=where)
            if len(touching) > 1 or any(city.owner_of.get(n) not in (None, *touching) for n in AROUND[where]):
                return refuse("stable-joins", square=where)
            return None
        if not supply["merchant"]:
            return refuse("no-merchants")
        if city.street_next:
            if where not in city.street_next:
                ends = state["streets"][-1]
                choices = ", ".join(sorted(city.street_next, key=row_major))
                return refuse("street-ends", end=ends[0], other=ends[-1], square=where, squares=choices) \
                    if len(ends) > 1 else refuse("street-end", ends=ends[0], square=where, squares=choices)
            return None
        if any(n in city.merchants for n in ORTHO[where]):
            return refuse("street-anew", square=where)
        return None

    def _why_palace(self, state: State, colour: str | None, where: str, supply: dict[str, Any], city: City) -> str | None:
        assert colour is not None
        if not supply["palace"][colour]:
            return refuse("no-palace-pieces", colour=colour)
        open_id = city.open_palace[colour]
        if open_id is not None:
            if where in city.growth[open_id]:
                return None
            first = self.palace(state, open_id)["parts"][0]
            return refuse("palace-open", colour=colour, first=first,
                          squares=", ".join(sorted(city.growth[open_id], key=row_major)))
        if where in city.near_palace:
            return refuse("palace-touches", square=where)
        return None

    def _why_wall(self, state: State, where: str, supply: dict[str, Any]) -> str | None:
        if where not in ALL_WALLS:
            return refuse("not-a-wall", square=where, segments=f"N1-N{COLS}, S1-S{COLS}, W1-W{ROWS}, E1-E{ROWS}")
        if not supply["wall"]:
            return refuse("no-walls")
        if where in state["walls"]:
            return refuse("wall-stands", square=where)
        side = where[0]
        if where not in AT_TOWER and state["walls"].keys().isdisjoint(WALL_NEIGHBOURS[where]):
            return refuse("wall-alone", square=where)
        if [w[0] for w in state["walls"]].count(side) + 1 >= SIDE_LENGTH[side]:
            return refuse("wall-closes", square=where, side=side)
        return None

    def _why_roof(self, state: State, player: str, colour: str | None, where: str, supply: dict[str, Any]) -> str | None:
        if not supply["roof"]:
            return refuse("no-roofs")
        piece = state["board"].get(where)
        if not piece or piece["kind"] != "palace":
            return refuse("no-palace", square=where)
        palace = self.palace(state, piece["palace"])
        if colour != palace["colour"]:
            return refuse("palace-colour", square=where, colour=palace["colour"], wanted=colour)
        if palace["owner"] is not None:
            return refuse("palace-roofed", colour=palace["colour"], square=where, owner=palace["owner"])
        if colour in state["roofed"][player]:
            return refuse("colour-owned", colour=colour)
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
        # a wall changes nothing pieces go back for (what is in hand, claimed, or where a palace fits), and
        # the placement before it sent back all it could: looking again would find nothing
        went_back = kind != "wall" and self._return_pieces(state, events, city)
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
        hands = [supply[p]["palace"] for p in players]
        to_come: list[str] = []  # colours with pieces to place
        for colour in COLOURS:
            for hand in hands:
                if hand[colour]:
                    to_come.append(colour)
                    break
        went_back = False
        if to_come and (not city.clear or all(map(roofed.__getitem__, players))):  # else every colour fits, none is claimed by all
            claimed_by_all = set(COLOURS).intersection(*[roofed[p] for p in players])
            if claimed_by_all or not city.clear:  # else again every colour fits, none is claimed by all
                for colour in to_come.copy():
                    claimed = colour in claimed_by_all
                    if claimed or not self._palace_fits(colour, city):
                        counts = {p: hand[colour] for p, hand in zip(players, hands)}
                        for p, hand in zip(players, hands):
                            returned[p][colour] = returned[p].get(colour, 0) + counts[p]
                            hand[colour] = 0
                        events.append({"type": "return", "colour": colour, "counts": counts,
                                       "why": "every player has claimed one" if claimed else "no piece fits any more"})
                        to_come.remove(colour)
                        went_back = True
        live: set[str] | None = None  # the colours a roof may go onto: pieces to come, or an unclaimed palace
        for p in players:
            roofs = supply[p]["roof"]
            # none too many: no roof, or no more roofs and claims than colours to come (`live` has those and more)
            if not roofs or roofs + len(roofed[p]) <= len(to_come):
                continue
            if live is None:
                live = set(to_come)
                if len(live) < len(COLOURS):
                    palaces = state["palaces"]
                    live.update([palaces[pid]["colour"] for pid in city.growth])  # the unclaimed ones (see `City`)
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

