"""Medici vs Strozzi (Reiner Knizia, 2006): the two-player game of lots, prices and ships.

The drawer reveals one to three tiles, never more than fit on one of his ships, and names a price.
The other player buys at that price or declines, and then the drawer must buy. The buyer loads the
lot onto one ship (which goes to a harbour of its own when first loaded) or discards it, and draws
next. After three rounds the richer family wins; loans are unlimited, so money may go negative.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from pbem.rng import Rng
from pbem.errors import IllegalOrder
from pbem.refusals import refuse as standing_refused
from pbem.rules.medici_strozzi_refusals import refuse
from pbem.rules.base import (Decision, Event, OnePlayer, Order, Ruleset, StandingMove, State, board_data,
                             check_stacks, order_text, register, stack, standings)

DATA = board_data("medici-strozzi")
GOLD = f"gold-{DATA['gold_value']}"
HARBOURS: list[str] = list(DATA["harbours"])
HARBOUR_GOODS: list[tuple[str, list[str]]] = list(DATA["harbours"].items())  # each harbour and the goods it trades
END = DATA["track_length"]
SHOWN_TRACK_BONUS = {str(k): v for k, v in DATA["track_bonus"].items()}  # as a view shows it

MAX_LOT: int = DATA["max_lot"]
PRICES = range(DATA["max_price"] + 1)  # every price a drawer may name

DRAW, PRICE, BUY, DECLINE, LOAD, HARBOUR, DISCARD = "draw", "price", "buy", "decline", "load", "harbour", "discard"
PHASE_DRAW, PHASE_ANSWER, PHASE_LOAD, PHASE_OVER = "draw", "answer", "load", "over"
LOAD_KEYS = frozenset({LOAD, HARBOUR})  # what a load order may say


@cache
def tile_good(tile: str) -> str:
    return tile.rsplit("-", 1)[0]


@cache
def tile_value(tile: str) -> int:
    return int(tile.rsplit("-", 1)[1])


_TO_DRAW, _TO_ANSWER, _TO_LOAD = OnePlayer("draw"), OnePlayer("answer"), OnePlayer("load")


def tiles_value(tiles: list[str]) -> int:
    """The value of a lot or a cargo: the sum of its tiles."""
    return sum(map(tile_value, tiles))


def all_tiles() -> list[str]:
    """The 26 tiles, in a fixed order."""
    return [f"{g}-{v}" for g in DATA["goods"] for v in DATA["tile_values"]] + [GOLD] * DATA["gold_tiles"]


@register
class MediciStrozzi(Ruleset):
    name = "medici-strozzi"
    title = "Medici vs Strozzi"
    example_order = "price: 3"
    min_players = 2
    max_players = 2
    options: dict[str, tuple[str, ...]] = {}

    # -- set-up ---------------------------------------------------------------------------------

    def check_deck(self, deck: Any, players: list[str], options: dict[str, str]) -> dict[str, Any]:
        rounds = check_stacks(deck, "rounds", "round", "tile", "silk-3", Counter(all_tiles()),
                              f"a tile (goods: {', '.join(DATA['goods'])}, values 0-4, and {GOLD})",
                              stacks=DATA["rounds"])
        return {"rounds": rounds}

    def setup(self, players: list[str], options: dict[str, str], rng: Rng,
              deck: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
        self.check_players(players)
        self.check_options(options)
        state: State = {
            "players": list(players),
            "money": {p: DATA["start_money"] for p in players},
            "ships": {p: [{"capacity": c, "harbour": None, "cargo": []} for c in DATA["ships"]] for p in players},
            "markers": {h: {g: 0 for g in goods} for h, goods in DATA["harbours"].items()},
            "round": 0,
            "turn": 1,
            "phase": PHASE_DRAW,
            "drawer": None,
            "lot": [],
            "price": None,
            "buyer": None,
            "bag": [],
            "discarded": [],
            "fixed_rounds": [list(r) for r in (deck or {}).get("rounds", [])],
        }
        events: list[Event] = []
        self._start_round(state, rng, events)
        return state, events

    # -- the flow of a round ----------------------------------------------------------------------

    def _start_round(self, state: State, rng: Rng, events: list[Event]) -> None:
        state["round"] += 1
        fixed = state["fixed_rounds"].pop(0) if state["fixed_rounds"] else []
        state["bag"] = stack(fixed, all_tiles(), rng, f"round-{state['round']}-bag")
        state["discarded"] = []
        for p in state["players"]:
            for ship in state["ships"][p]:
                ship["harbour"], ship["cargo"] = None, []
        first = state["players"][0] if state["round"] == 1 else state["players"][1]
        events.append({"type": "round_start", "round": state["round"], "drawer": first})
        self._start_turn(state, first, events)

    def _start_turn(self, state: State, player: str, events: list[Event]) -> None:
        state["phase"] = PHASE_DRAW
        state["drawer"] = player
        state["lot"] = []
        state["price"] = state["buyer"] = None
        self._reveal(state, events)

    def _reveal(self, state: State, events: list[Event]) -> None:
        tile = state["bag"].pop(0)
        state["lot"].append(tile)
        events.append({"type": "reveal", "player": state["drawer"], "tile": tile, "lot": list(state["lot"]),
                       "bag_left": len(state["bag"])})

    def room(self, state: State, player: str) -> int:
        """The most tiles one of the player's ships can still take."""
        return max(s["capacity"] - len(s["cargo"]) for s in state["ships"][player])

    def max_lot(self, state: State) -> int:
        return min(MAX_LOT, len(state["lot"]) + len(state["bag"]), self.room(state, state["drawer"]))

    def _lot_may_grow(self, state: State) -> bool:
        """Whether the lot is smaller than `max_lot`: the limits that cost least are looked at first."""
        size = len(state["lot"])
        if size >= MAX_LOT or not state["bag"]:
            return False
        for ship in state["ships"][state["drawer"]]:
            if ship["capacity"] - len(ship["cargo"]) > size:
                return True
        return False

    def other(self, state: State, player: str) -> str:
        a, b = state["players"]
        return b if player == a else a

    def _full(self, state: State, player: str) -> bool:
        for ship in state["ships"][player]:
            if len(ship["cargo"]) != ship["capacity"]:
                return False
        return True

    def _after_load(self, state: State, rng: Rng, events: list[Event]) -> None:
        buyer = state["buyer"]
        for full in state["players"]:
            if self._full(state, full):
                break
        else:
            full = None
        if full is not None:
            events.append({"type": "round_over", "round": state["round"], "why": f"{full}'s ships are full"})
            self._end_round(state, rng, events)
        elif not state["bag"]:
            events.append({"type": "round_over", "round": state["round"], "why": "the bag is empty"})
            self._end_round(state, rng, events)
        else:
            self._start_turn(state, buyer, events)

    def _end_round(self, state: State, rng: Rng, events: list[Event]) -> None:
        state.update(phase=PHASE_OVER, drawer=None, lot=[], price=None, buyer=None)
        self.score_round(state, events)
        if state["round"] < DATA["rounds"]:
            self._start_round(state, rng, events)
        else:
            events.append({"type": "game_end", "standings": self.result(state)})

    # -- scoring --------------------------------------------------------------------------------

    def ship_in(self, state: State, player: str, harbour: str) -> dict[str, Any] | None:
        return next((s for s in state["ships"][player] if s["harbour"] == harbour), None)

    def score_round(self, state: State, events: list[Event]) -> None:
        """Per harbour: 20 for the richer cargo (a tie pays nothing), then the monopoly markers move
        toward the owners of the matching tiles; 10 per marker on a player's side, plus its bonus."""
        first, second = state["players"]
        for harbour in HARBOURS:
            cargo = {p: (self.ship_in(state, p, harbour) or {"cargo": []})["cargo"] for p in state["players"]}
            value = {p: tiles_value(cargo[p]) for p in state["players"]}
            winner = None
            if value[first] != value[second]:
                winner = first if value[first] > value[second] else second
                state["money"][winner] += DATA["harbour_win"]
            # how hard each player's cargo pulls each good's marker (a 0 tile counts twice)
            pull: dict[str, dict[str, int]] = {first: {}, second: {}}
            for p, tiles in cargo.items():
                for t in tiles:
                    good = tile_good(t)
                    pull[p][good] = pull[p].get(good, 0) + (2 if tile_value(t) == 0 else 1)
            moves = {}
            for good, before in state["markers"][harbour].items():
                after = max(-END, min(END, before + pull[first].get(good, 0) - pull[second].get(good, 0)))
                state["markers"][harbour][good] = after
                moves[good] = {"from": before, "to": after}
            payouts = {p: 0 for p in state["players"]}
            for pos in state["markers"][harbour].values():
                if pos:
                    owner = first if pos > 0 else second
                    payouts[owner] += DATA["marker_payout"] + DATA["track_bonus"].get(abs(pos), 0)
            for p, pay in payouts.items():
                state["money"][p] += pay
            events.append({"type": "score_harbour", "round": state["round"], "harbour": harbour,
                           "values": value, "winner": winner, "moves": moves, "markers": payouts})
        events.append({"type": "round_end", "round": state["round"], "money": dict(state["money"])})

    # -- decisions and orders -------------------------------------------------------------------

    def decision(self, state: State) -> Decision | None:
        phase = state["phase"]
        if phase == PHASE_DRAW:
            return _TO_DRAW[state["drawer"]]
        if phase == PHASE_ANSWER:
            return _TO_ANSWER[self.other(state, state["drawer"])]
        if phase == PHASE_LOAD:
            return _TO_LOAD[state["buyer"]]
        return None

    def _to_act(self, state: State) -> str | None:
        """Who decides now; None when the game is over."""
        phase = state["phase"]
        if phase == PHASE_DRAW:
            return state["drawer"]
        if phase == PHASE_ANSWER:
            return self.other(state, state["drawer"])
        return state["buyer"] if phase == PHASE_LOAD else None

    def candidate_orders(self, state: State, player: str) -> list[Order]:
        phase = state["phase"]
        if phase == PHASE_DRAW:
            return [DRAW] + [{PRICE: n} for n in range(DATA["max_price"] + 1)]
        if phase == PHASE_ANSWER:
            return [BUY, DECLINE]
        if phase == PHASE_LOAD:
            out: list[Order] = []
            for ship in state["ships"].get(player, []):
                if ship["harbour"]:
                    out.append({LOAD: ship["capacity"]})
                else:
                    out += [{LOAD: ship["capacity"], HARBOUR: h} for h in HARBOURS]
            return out + [DISCARD]
        return []

    def legal_orders(self, state: State, player: str) -> list[Order]:
        """The candidates `why_illegal` lets through, in their order, made directly."""
        if player != self._to_act(state):
            return []
        phase = state["phase"]
        if phase == PHASE_DRAW:
            orders: list[Order] = [DRAW] if self._lot_may_grow(state) else []
            orders += [{PRICE: n} for n in PRICES]
            return orders
        if phase == PHASE_ANSWER:
            return [BUY, DECLINE]
        return self._loads(state, player) + [DISCARD]

    def _loads(self, state: State, player: str) -> list[Order]:
        """Every ship the lot fits on; an empty one in each harbour where no other ship of his lies."""
        lot = len(state["lot"])
        ships = state["ships"][player]
        taken = {s["harbour"] for s in ships}
        out: list[Order] = []
        for ship in ships:
            if ship["capacity"] - len(ship["cargo"]) < lot:
                continue
            if ship["harbour"]:
                out.append({LOAD: ship["capacity"]})
            else:
                out += [{LOAD: ship["capacity"], HARBOUR: h} for h in HARBOURS if h not in taken]
        return out

    def passive_order(self, state: State, player: str) -> Order | None:
        """Ask the lot's face value; decline; throw the lot overboard."""
        phase = state["phase"]
        if phase == PHASE_DRAW:
            return {PRICE: min(DATA["max_price"], sum(tile_value(t) for t in state["lot"]))}
        return DECLINE if phase == PHASE_ANSWER else DISCARD

    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        to_act = self._to_act(state)
        if to_act is None:
            return refuse("game-over")
        if player != to_act:
            return refuse("not-your-decision", players=to_act)
        phase = state["phase"]
        if phase == PHASE_DRAW:
            if order == DRAW:
                if self._lot_may_grow(state):
                    return None
                limit = self.max_lot(state)
                return refuse("lot-limit", n=limit)
            if isinstance(order, dict) and len(order) == 1 and isinstance(order.get(PRICE), int):
                if not 0 <= order[PRICE] <= DATA["max_price"]:
                    return refuse("price-range", max=DATA["max_price"], price=order[PRICE])
                return None
            return refuse("drawer-draws", order=repr(order_text(order)))
        if phase == PHASE_ANSWER:
            return None if order in (BUY, DECLINE) else refuse("buy-or-decline", order=repr(order_text(order)))
        if order == DISCARD:
            return None
        if not (isinstance(order, dict) and LOAD in order and order.keys() <= LOAD_KEYS):
            return refuse("load-or-discard", order=repr(order_text(order)))
        ship = next((s for s in state["ships"][player] if s["capacity"] == order[LOAD]), None)
        if ship is None:
            return refuse("no-such-ship", ship=repr(order[LOAD]), ships=", ".join(str(c) for c in DATA["ships"]))
        free = ship["capacity"] - len(ship["cargo"])
        if free < len(state["lot"]):
            lot = len(state["lot"])
            return refuse("ship-too-small", ship=ship["capacity"], free=free, n=lot)
        harbour = order.get(HARBOUR)
        if ship["harbour"]:
            if harbour is not None and harbour != ship["harbour"]:
                return refuse("ship-in-harbour", ship=ship["capacity"], harbour=ship["harbour"])
            return None
        if harbour is None:
            return refuse("name-harbour", ship=ship["capacity"], harbours=", ".join(HARBOURS))
        if harbour not in HARBOURS:
            return refuse("no-such-harbour", harbour=repr(harbour), harbours=", ".join(HARBOURS))
        taken = next((s["capacity"] for s in state["ships"][player] if s["harbour"] == harbour), None)
        if taken is not None:
            return refuse("harbour-taken", ship=taken, harbour=harbour)
        return None

    # -- standing orders ------------------------------------------------------------------------

    mail_events = frozenset({"round_end", "game_end"})

    standing_help = {
        "buy_up_to: N": "when a price is named to you: buy at N or less, decline above; it lasts "
                        "until replaced",
        "load: SHIP": "when you must load a lot: onto this ship (with harbour: X for an empty ship); "
                      "used once",
    }

    def check_standing(self, state: State, player: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        entries = self.one_of_each(entries)
        for entry in entries:
            if LOAD in entry and not any(s["capacity"] == entry[LOAD] for s in state["ships"][player]):
                ships = ", ".join(str(s["capacity"]) for s in state["ships"][player])
                raise IllegalOrder(refuse("standing-no-such-ship", ship=repr(entry[LOAD]), ships=ships))
        return entries

    def standing_move(self, state: State, player: str, entries: list[dict[str, Any]]) -> StandingMove:
        decision = self.decision(state)
        if decision is None or player not in decision.players:
            return StandingMove(None, entries, [])
        by_kind = {next(iter(e)): e for e in entries}
        if decision.kind == "answer" and "buy_up_to" in by_kind:
            return StandingMove(BUY if state["price"] <= by_kind["buy_up_to"]["buy_up_to"] else DECLINE, entries, [])
        if decision.kind == "load" and LOAD in by_kind:
            order = dict(by_kind[LOAD])
            rest = [e for e in entries if LOAD not in e]  # used once
            why = self.why_illegal(state, player, order)
            if why is not None:
                return StandingMove(None, rest, [standing_refused("standing-order-why", order=order_text(order), why=why)])
            return StandingMove(order, rest, [])
        return StandingMove(None, entries, [])

    def _apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        events: list[Event] = []
        state["turn"] += 1
        if isinstance(order, dict) and PRICE in order:
            state["price"] = order[PRICE]
            state["phase"] = PHASE_ANSWER
            events.append({"type": "price", "player": player, "price": order[PRICE], "lot": list(state["lot"])})
        elif isinstance(order, dict) or order not in (DRAW, BUY, DECLINE, DISCARD):
            self._load_lot(state, player, order, rng, events)
        elif order == DRAW:
            events.append({"type": "draw", "player": player})
            self._reveal(state, events)
        elif order in (BUY, DECLINE):
            buyer = player if order == BUY else state["drawer"]
            state["buyer"] = buyer
            state["money"][buyer] -= state["price"]
            state["phase"] = PHASE_LOAD
            events.append({"type": "buy" if order == BUY else "decline", "player": player})
            events.append({"type": "sold", "player": buyer, "price": state["price"], "lot": list(state["lot"]),
                           "money": state["money"][buyer]})
        elif order == DISCARD:
            state["discarded"] += state["lot"]
            events.append({"type": "discard", "player": player, "lot": list(state["lot"])})
            self._after_load(state, rng, events)
        return events

    def _load_lot(self, state: State, player: str, order: Order, rng: Rng, events: list[Event]) -> None:
        """The buyer loads the lot onto one of his ships (sending an empty one to a harbour)."""
        ship = next(s for s in state["ships"][player] if s["capacity"] == order[LOAD])
        new_harbour = ship["harbour"] is None
        ship["harbour"] = ship["harbour"] or order[HARBOUR]
        ship["cargo"] += state["lot"]
        events.append({"type": "load", "player": player, "ship": ship["capacity"], "harbour": ship["harbour"],
                       "lot": list(state["lot"]), "new_harbour": new_harbour})
        self._after_load(state, rng, events)

    # -- what players see -----------------------------------------------------------------------

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        decision = self.decision(state)
        first, second = state["players"]
        v: dict[str, Any] = {
            "round": state["round"],
            "turn": state["turn"],
            "phase": state["phase"],
            "medici": first,
            "strozzi": second,
            "goods": list(DATA["goods"]),
            "harbours": {h: list(g) for h, g in DATA["harbours"].items()},
            "track_length": END,
            "track_bonus": dict(SHOWN_TRACK_BONUS),
            "markers": {h: dict(m) for h, m in state["markers"].items()},
            "drawer": state["drawer"],
            "lot": list(state["lot"]),
            "lot_value": tiles_value(state["lot"]),
            "max_lot": self.max_lot(state) if state["phase"] == PHASE_DRAW else len(state["lot"]),
            "price": state["price"],
            "buyer": state["buyer"],
            "bag_left": len(state["bag"]),
            "discarded": list(state["discarded"]),
            "players": self._players_seen(state),
            "waiting_for": list(decision.players) if decision else [],
            "you": player,
        }
        if player is None:
            v["bag"] = list(state["bag"])
            v["fixed_rounds"] = [list(r) for r in state["fixed_rounds"]]
        return v

    def bot_view(self, state: State, player: str) -> dict[str, Any]:
        """What the bot reads of the view: the families, the harbours and their markers, the lot, its
        drawer and price; the players and their ships only when a lot is to be loaded."""
        first, second = state["players"]
        v: dict[str, Any] = {
            "phase": state["phase"],
            "medici": first,
            "strozzi": second,
            "harbours": {h: goods.copy() for h, goods in HARBOUR_GOODS},
            "markers": {h: m.copy() for h, m in state["markers"].items()},
            "drawer": state["drawer"],
            "lot": state["lot"].copy(),
            "lot_value": sum(map(tile_value, state["lot"])),
            "price": state["price"],
            "you": player,
        }
        if state["phase"] == PHASE_LOAD:
            v["players"] = self._players_seen(state)
        return v

    def _players_seen(self, state: State) -> list[dict[str, Any]]:
        """Each player as every view shows him: his family, money and ships (harbour, cargo, value)."""
        first = state["players"][0]
        return [{
            "name": p,
            "family": "Medici" if p == first else "Strozzi",
            "money": state["money"][p],
            "ships": [{"capacity": s["capacity"], "harbour": s["harbour"], "cargo": list(s["cargo"]),
                       "value": tiles_value(s["cargo"])} for s in state["ships"][p]],
        } for p in state["players"]]

    def result(self, state: State) -> list[dict[str, Any]]:
        return standings(state["players"], state["money"])

    def tiles_in_game(self, state: State) -> list[str]:
        """Every tile wherever it lies (for the conservation invariant)."""
        shipped = [t for p in state["players"] for s in state["ships"][p] for t in s["cargo"]]
        return state["bag"] + state["lot"] + state["discarded"] + shipped

