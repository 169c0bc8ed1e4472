"""Medici (Reiner Knizia), both editions: three days of once-around auctions for lots of goods.

The auctioneer reveals a card, then draws more or opens the auction; everyone bids once, the
auctioneer last. Holds take five cards. When all but one hold is full, the last player fills his
for free; then the day is scored by hold value, goods tracks and bonus fields.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from pbem.i18n import N_
from pbem.rng import Rng
from pbem.rules.base import (Decision, Event, OnePlayer, Order, Ruleset, StandingMove, State, board_data,
                             check_stacks, order_text, register, stack, standings)
from pbem.rules.medici_ranking import places, shared_places
from pbem.rules.medici_refusals import refuse

DATA = board_data("medici")
HOLD: int = DATA["hold_size"]
MAX_LOT: int = DATA["max_lot"]
TRACK_TOP: int = DATA["track_top"]
TRACK_PAYOUTS: tuple[int, ...] = tuple(DATA["track_payouts"])
NEUTRAL: str = DATA["neutral_card"]
#: each edition's bonus fields as a view shows them (keyed by the step, as text)
SHOWN_BONUS = {name: {str(k): v for k, v in edition["bonus_fields"].items()}
               for name, edition in DATA["editions"].items()}

DRAW, AUCTION, PASS, BID = "draw", "auction", "pass", "bid"
PHASE_DRAW, PHASE_BID, PHASE_OVER = "draw", "bid", "over"


@cache
def card_good(card: str) -> str:
    return card.rsplit("-", 1)[0]


@cache
def card_value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


_TO_DRAW, _TO_BID = OnePlayer("draw"), OnePlayer("bid")


def cards_value(cards: list[str]) -> int:
    """The value of a hold or a lot: the sum of its cards."""
    return sum(map(card_value, cards))


def full_deck(edition: str) -> list[str]:
    """The 36 cards of an edition, in a fixed order."""
    return list(_full_deck(edition))


@cache
def _full_deck(edition: str) -> tuple[str, ...]:
    """The deck of an edition, made once: every day starts from it."""
    goods = DATA["editions"][edition]["goods"]
    return tuple([f"{g}-{v}" for g in goods for v in DATA["card_values"]] + [NEUTRAL])


@register
class Medici(Ruleset):
    name = "medici"
    title = "Medici"
    example_order = "bid: 7"
    min_players = 3
    max_players = 6
    options = {"edition": ("riogrande", "amigo")}
    option_words = {("edition", "riogrande"): N_("the Rio Grande edition (2006)"),
                    ("edition", "amigo"): N_("the Amigo edition (1995)")}

    # -- set-up ---------------------------------------------------------------------------------

    def check_deck(self, deck: Any, players: list[str], options: dict[str, str]) -> dict[str, Any]:
        edition = options["edition"]
        in_play = DATA["cards_per_player"] * len(players)
        goods = ", ".join(DATA["editions"][edition]["goods"])
        days = check_stacks(deck, "days", "day", "card", "dyes-5", Counter(full_deck(edition)),
                            f"a card of the {edition} edition (goods: {goods}, values 0-5, and {NEUTRAL})",
                            (in_play, f"only {in_play} are in play with {len(players)} players"), DATA["days"])
        return {"days": days}

    def setup(self, players: list[str], options: dict[str, str], rng: Rng,
              deck: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
        self.check_players(players)
        options = self.check_options(options)
        goods = DATA["editions"][options["edition"]]["goods"]
        state: State = {
            "edition": options["edition"],
            "players": list(players),
            "money": {p: DATA["start_money"][len(players)] for p in players},
            "hold": {p: [] for p in players},
            "tracks": {p: {g: 0 for g in goods} for p in players},
            "day": 0,
            "turn": 1,
            "phase": PHASE_DRAW,
            "start_player": None,
            "auctioneer": None,
            "lot": [],
            "to_bid": [],
            "bids": [],
            "deck": [],
            "set_aside": [],
            "discarded": [],
            "fixed_days": [list(day) for day in (deck or {}).get("days", [])],
        }
        events: list[Event] = []
        self._start_day(state, rng, events)
        return state, events

    # -- the flow of a day (chance and forced steps) ----------------------------------------------

    def _start_day(self, state: State, rng: Rng, events: list[Event]) -> None:
        state["day"] += 1
        day = state["day"]
        for p in state["players"]:
            state["hold"][p] = []
        fixed = state["fixed_days"].pop(0) if state["fixed_days"] else []
        bag = stack(fixed, full_deck(state["edition"]), rng, f"day-{day}-shuffle")
        in_play = DATA["cards_per_player"] * len(state["players"])
        state["deck"], state["set_aside"] = bag[:in_play], bag[in_play:]
        state["discarded"] = []
        if day == 1:
            start = rng.choice(state["players"], "start-player")
            why = "drawn at random"
        else:
            least = min(state["money"].values())
            poorest = [p for p in state["players"] if state["money"][p] == least]
            start = poorest[0] if len(poorest) == 1 else rng.choice(poorest, f"day-{day}-start-player")
            why = "the poorest" if len(poorest) == 1 else f"drawn among the poorest ({', '.join(poorest)})"
        state["start_player"] = start
        events.append({"type": "day_start", "day": day, "start_player": start, "why": why,
                       "cards": in_play})
        self._start_turn(state, start, rng, events)

    def _open(self, state: State) -> list[str]:
        """Players still in the day: their hold is not full."""
        return [p for p in state["players"] if len(state["hold"][p]) < HOLD]

    def _first_open(self, state: State, player: str) -> str:
        """`player` if his hold is not full, else the first such player clockwise from his left."""
        seats, hold = state["players"], state["hold"]
        i = seats.index(player)
        for p in seats[i:] + seats[:i]:
            if len(hold[p]) < HOLD:
                return p
        raise ValueError("every hold is full")

    def max_lot(self, state: State) -> int:
        """How large the lot may grow: 3 cards, the cards left, the largest free hold space."""
        free = HOLD - min(map(len, state["hold"].values()))  # the emptiest hold; 0 when all are full
        return min(MAX_LOT, len(state["lot"]) + len(state["deck"]), free)

    def _lot_may_grow(self, state: State) -> bool:
        """Whether the lot is smaller than `max_lot`: the limits that cost least are looked at first."""
        size = len(state["lot"])
        if size >= MAX_LOT or not state["deck"]:
            return False
        return size < HOLD - min(map(len, state["hold"].values()))

    def _start_turn(self, state: State, player: str, rng: Rng, events: list[Event]) -> None:
        """`player` or the next open player clockwise becomes auctioneer and reveals a card."""
        if not state["deck"]:
            events.append({"type": "deck_empty", "day": state["day"]})
            self._end_day(state, rng, events)
            return
        state["auctioneer"] = self._first_open(state, player)
        state["phase"] = PHASE_DRAW
        state["bids"] = []
        state["to_bid"] = []
        self._reveal(state, rng, events)

    def _reveal(self, state: State, rng: Rng, events: list[Event]) -> None:
        card = state["deck"].pop(0)
        lot = state["lot"]
        lot.append(card)
        events.append({"type": "reveal", "player": state["auctioneer"], "card": card, "lot": list(lot)})
        if not self._lot_may_grow(state):
            events.append({"type": "auction_opens", "player": state["auctioneer"], "lot": list(lot),
                           "forced": True})
            self._open_auction(state, rng, events)

    def _open_auction(self, state: State, rng: Rng, events: list[Event]) -> None:
        state["phase"] = PHASE_BID
        seats, hold = state["players"], state["hold"]
        i = seats.index(state["auctioneer"]) + 1
        # clockwise from the auctioneer's left, the auctioneer last
        state["to_bid"] = [p for p in seats[i:] + seats[:i] if len(hold[p]) < HOLD]
        self._skip_unable_bidders(state, rng, events)

    def high_bid(self, state: State) -> dict[str, Any] | None:
        """The last bid that was not a pass (each bid beats those before it)."""
        for b in reversed(state["bids"]):
            if b["amount"] is not None:
                return b
        return None

    def _lowest_bid(self, state: State) -> int:
        """The least a bid may be now: one more than the high bid (the last bid that was not a pass)."""
        for b in reversed(state["bids"]):
            if b["amount"] is not None:
                return b["amount"] + 1
        return 1

    def _cannot_bid(self, state: State, player: str) -> str | None:
        free = HOLD - len(state["hold"][player])
        if free < len(state["lot"]):
            return f"only {free} free space{'s' if free != 1 else ''} in the hold"
        high = self.high_bid(state)
        floor = high["amount"] + 1 if high else 1
        if state["money"][player] < floor:
            return f"only {state['money'][player]} money, the lowest bid is {floor}"
        return None

    def _skip_unable_bidders(self, state: State, rng: Rng, events: list[Event]) -> None:
        to_bid = state["to_bid"]
        if to_bid:
            # a forced pass leaves the lot and the lowest bid as they are: check the rest against them
            size, lowest = len(state["lot"]), self._lowest_bid(state)
            hold, money = state["hold"], state["money"]
            while to_bid:
                player = to_bid[0]
                if HOLD - len(hold[player]) >= size and money[player] >= lowest:
                    return
                reason = self._cannot_bid(state, player)
                to_bid.pop(0)
                state["bids"].append({"player": player, "amount": None})
                events.append({"type": "pass", "player": player, "forced": reason})
        self._settle_lot(state, rng, events)

    def _settle_lot(self, state: State, rng: Rng, events: list[Event]) -> None:
        lot, state["lot"] = state["lot"], []
        high = self.high_bid(state)
        if high:
            buyer, price = high["player"], high["amount"]
            state["money"][buyer] -= price
            state["hold"][buyer].extend(lot)
            events.append({"type": "sold", "player": buyer, "price": price, "lot": lot,
                           "auctioneer": state["auctioneer"]})
        else:
            state["discarded"].extend(lot)
            events.append({"type": "unsold", "lot": lot, "auctioneer": state["auctioneer"]})
        state["bids"] = []
        open_players = self._open(state)
        if len(open_players) <= 1:
            if open_players:
                self._free_fill(state, open_players[0], events)
            self._end_day(state, rng, events)
        elif not state["deck"]:
            events.append({"type": "deck_empty", "day": state["day"]})
            self._end_day(state, rng, events)
        else:
            seats = state["players"]
            self._start_turn(state, seats[(seats.index(state["auctioneer"]) + 1) % len(seats)], rng, events)

    def _free_fill(self, state: State, player: str, events: list[Event]) -> None:
        need = HOLD - len(state["hold"][player])
        cards, state["deck"] = state["deck"][:need], state["deck"][need:]
        state["hold"][player].extend(cards)
        events.append({"type": "free_fill", "player": player, "cards": cards})

    def _end_day(self, state: State, rng: Rng, events: list[Event]) -> None:
        state["set_aside"].extend(state["deck"])
        state["deck"] = []
        state["phase"] = PHASE_OVER
        state["auctioneer"] = None
        state["to_bid"] = []
        self.score_day(state, events)
        if state["day"] < DATA["days"]:
            self._start_day(state, rng, events)
        else:
            events.append({"type": "game_end", "standings": self.result(state)})

    # -- scoring --------------------------------------------------------------------------------

    def score_day(self, state: State, events: list[Event]) -> None:
        """The three scorings of a day, in order: hold value, goods tracks, bonus fields."""
        players, money, tracks = state["players"], state["money"], state["tracks"]
        edition = DATA["editions"][state["edition"]]
        bonus_fields = edition["bonus_fields"]
        day = state["day"]
        values = {p: cards_value(state["hold"][p]) for p in players}
        ranking = shared_places(values, tuple(edition["payouts"][len(players)]))
        for row in ranking:
            money[row["player"]] += row["payout"]
        events.append({"type": "score_value", "day": day, "ranking": ranking})
        # each player's tracks and the goods of his hold, read once for all the goods
        held = [(p, tracks[p], list(map(card_good, state["hold"][p]))) for p in players]
        for good in edition["goods"]:
            moves, steps, bonus = {}, {}, []
            for p, track, goods in held:
                before = track[good]
                after = before + goods.count(good) if goods else before
                if after > TRACK_TOP:
                    after = TRACK_TOP
                track[good] = steps[p] = after
                moves[p] = after - before
                pay = bonus_fields.get(after)
                if pay:
                    bonus.append({"player": p, "step": after, "payout": pay})
            ranking = [{"player": players[seat], "score": score, "place": place, "payout": payout}
                       for seat, score, place, payout in places(tuple(steps.values()), TRACK_PAYOUTS, True)]
            for row in ranking + bonus:
                money[row["player"]] += row["payout"]
            events.append({"type": "score_track", "day": day, "good": good, "moves": moves,
                           "steps": steps, "ranking": ranking, "bonus": bonus})
        events.append({"type": "day_end", "day": day, "money": dict(money)})

    # -- decisions and orders -------------------------------------------------------------------

    def decision(self, state: State) -> Decision | None:
        phase = state["phase"]
        if phase == PHASE_DRAW:
            return _TO_DRAW[state["auctioneer"]]
        if phase == PHASE_BID:
            return _TO_BID[state["to_bid"][0]]
        return None

    def candidate_orders(self, state: State, player: str) -> list[Order]:
        if state["phase"] == PHASE_DRAW:
            return [DRAW, AUCTION]
        if state["phase"] == PHASE_BID:
            return [PASS] + [{BID: n} for n in range(1, state["money"].get(player, 0) + 1)]
        return []

    def legal_orders(self, state: State, player: str) -> list[Order]:
        """The candidates `why_illegal` lets through, in their order, made directly: the auctioneer may
        draw while the lot may grow; a bidder may pass or bid from the lowest bid up to his money."""
        phase = state["phase"]
        if phase == PHASE_DRAW:
            if player != state["auctioneer"]:
                return []
            return [DRAW, AUCTION] if self._lot_may_grow(state) else [AUCTION]
        if phase == PHASE_BID:
            if player != state["to_bid"][0]:
                return []
            orders: list[Order] = [PASS]
            orders += [{BID: n} for n in range(self._lowest_bid(state), state["money"][player] + 1)]
            return orders
        return []

    def passive_order(self, state: State, player: str) -> Order | None:
        return AUCTION if state["phase"] == PHASE_DRAW else PASS

    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        phase = state["phase"]
        if phase not in (PHASE_DRAW, PHASE_BID):
            return refuse("game-over")
        to_act = state["auctioneer"] if phase == PHASE_DRAW else state["to_bid"][0]
        if player != to_act:
            return refuse("not-your-decision", players=to_act)
        if phase == PHASE_DRAW:
            if order == DRAW:
                if self._lot_may_grow(state):
                    return None
                limit = self.max_lot(state)
                return refuse("lot-limit", n=limit)
            if order == AUCTION:
                return None
            return refuse("auctioneer-draws", order=repr(order_text(order)))
        if order == PASS:
            return None
        if isinstance(order, dict) and len(order) == 1 and isinstance(order.get(BID), int):
            amount = order[BID]
            high = self.high_bid(state)
            if high and amount <= high["amount"]:
                return refuse("bid-not-higher", amount=amount, high=high["amount"], player=high["player"])
            if amount < 1:
                return refuse("lowest-bid")
            if amount > state["money"][player]:
                return refuse("bid-over-money", amount=amount, money=state["money"][player])
            return None
        return refuse("lot-up-for-auction", order=repr(order_text(order)))

    def _apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        events: list[Event] = []
        state["turn"] += 1
        if isinstance(order, dict) or order not in (DRAW, AUCTION):  # a bid or a pass
            state["to_bid"].pop(0)
            amount = order[BID] if isinstance(order, dict) else None
            state["bids"].append({"player": player, "amount": amount})
            events.append({"type": "bid", "player": player, "amount": amount} if amount
                          else {"type": "pass", "player": player, "forced": None})
            self._skip_unable_bidders(state, rng, events)
        elif order == DRAW:
            events.append({"type": "draw", "player": player})
            self._reveal(state, rng, events)
        else:
            events.append({"type": "auction_opens", "player": player, "lot": list(state["lot"]),
                           "forced": False})
            self._open_auction(state, rng, events)
        return events

    # -- standing orders ------------------------------------------------------------------------

    standing_help = {
        "max_bid: N": "for the lot up for auction now (or the next one): bid the lowest legal amount "
                      "when it is at most N, else pass; it ends with that auction",
        "draw_until: N": "as auctioneer, draw until the lot holds N cards (1-3) or no more may be "
                         "drawn, then put it up for auction; it lasts until replaced",
        "pass: day": "pass every bid for the rest of the day",
    }

    mail_events = frozenset({"day_end", "game_end"})

    def mail_moment(self, state: State, player: str, events: list[Event],
                    standing: list[dict[str, Any]]) -> bool:
        """Scorings, and a lot put up for auction that he may still bid on (he may want to send a
        max_bid for it) unless his standing orders already answer it."""
        if super().mail_moment(state, player, events, standing):
            return True
        if state["phase"] != PHASE_BID or player not in state["to_bid"]:
            return False
        if not any(e["type"] == "auction_opens" for e in events):
            return False
        lot = self._lot_id(state)
        answered = any(e.get("lot") == lot or "pass" in e for e in standing)
        return not answered

    def _lot_id(self, state: State) -> str | None:
        """The auction now running, named by its day and the cards left (fixed while bidding, smaller
        for every later lot of the day)."""
        return f"{state['day']}.{len(state['deck'])}" if state["phase"] == PHASE_BID else None

    def check_standing(self, state: State, player: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for entry in self.one_of_each(entries):
            if "pass" in entry:
                out.append({"pass": "day", "day": state["day"]})
            else:
                out.append(dict(entry))
        return self.refresh_standing(state, player, out)

    def standing_shown(self, entry: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in entry.items() if k not in ("lot", "day")}

    def refresh_standing(self, state: State, player: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        lot = self._lot_id(state)
        out = []
        for entry in entries:
            if "max_bid" in entry:
                if "lot" not in entry and lot and player in state["to_bid"]:
                    entry = dict(entry, lot=lot)  # the auction he may bid in now is the one it is for
                elif "lot" in entry and entry["lot"] != lot:
                    continue  # that auction is over
            elif "pass" in entry and entry["day"] != state["day"]:
                continue
            out.append(entry)
        return out

    def standing_move(self, state: State, player: str, entries: list[dict[str, Any]]) -> StandingMove:
        entries = self.refresh_standing(state, player, entries)
        decision = self.decision(state)
        if decision is None or player not in decision.players:
            return StandingMove(None, entries, [])
        by_kind = {next(iter(e)): e for e in entries}
        order: Order | None = None
        if decision.kind == "draw" and "draw_until" in by_kind:
            want = by_kind["draw_until"]["draw_until"]
            order = DRAW if len(state["lot"]) < want and self.why_illegal(state, player, DRAW) is None else AUCTION
        elif decision.kind == "bid" and "max_bid" in by_kind and by_kind["max_bid"].get("lot") == self._lot_id(state):
            high = self.high_bid(state)
            lowest = high["amount"] + 1 if high else 1
            limit = by_kind["max_bid"]["max_bid"]
            order = {BID: lowest} if lowest <= limit and lowest <= state["money"][player] else PASS
        elif decision.kind == "bid" and "pass" in by_kind:
            order = PASS
        return StandingMove(order, entries, [])

    # -- what players see -----------------------------------------------------------------------

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        edition = DATA["editions"][state["edition"]]
        decision = self.decision(state)
        high = self.high_bid(state)
        v: dict[str, Any] = {
            "edition": state["edition"],
            "edition_title": edition["title"],
            "goods": list(edition["goods"]),
            "bonus_fields": dict(SHOWN_BONUS[state["edition"]]),
            "day": state["day"],
            "turn": state["turn"],
            "phase": state["phase"],
            "start_player": state["start_player"],
            "auctioneer": state["auctioneer"],
            "lot": list(state["lot"]),
            "lot_value": cards_value(state["lot"]),
            "max_lot": self.max_lot(state) if state["phase"] == PHASE_DRAW else len(state["lot"]),
            "bids": [dict(b) for b in state["bids"]],
            "high_bid": dict(high) if high else None,
            "to_bid": list(state["to_bid"]),
            "cards_left": len(state["deck"]),
            "discarded": list(state["discarded"]),
            "players": self._players_seen(state),
            "waiting_for": list(decision.players) if decision else [],
            "you": player,
        }
        if player is None:  # the GM also sees what lies face down
            v["deck"] = list(state["deck"])
            v["set_aside"] = list(state["set_aside"])
            v["fixed_days"] = [list(d) for d in state["fixed_days"]]
        return v

    def bot_view(self, state: State, player: str) -> dict[str, Any]:
        """What the bot reads of the view. The auctioneer weighs the lot alone; a bidder weighs it
        against who bids after him, the day, the edition's goods and bonus fields and every player's
        hold and tracks. No titles, bid log or sums."""
        if state["phase"] != PHASE_BID:
            return {"phase": state["phase"], "lot": list(state["lot"]), "you": player}
        return {
            "goods": list(DATA["editions"][state["edition"]]["goods"]),
            "bonus_fields": dict(SHOWN_BONUS[state["edition"]]),
            "day": state["day"],
            "phase": state["phase"],
            "lot": list(state["lot"]),
            "to_bid": list(state["to_bid"]),
            "players": self._players_seen(state),
            "you": player,
        }

    def _players_seen(self, state: State) -> list[dict[str, Any]]:
        """Each player as every view shows him: money, hold (and its value and free spaces), tracks."""
        money, holds, tracks = state["money"], state["hold"], state["tracks"]
        seen = []
        for p in state["players"]:
            hold = holds[p]
            seen.append({"name": p, "money": money[p], "hold": hold.copy(), "hold_value": sum(map(card_value, hold)),
                         "free": HOLD - len(hold), "tracks": tracks[p].copy()})
        return seen

    def result(self, state: State) -> list[dict[str, Any]]:
        return standings(state["players"], state["money"])

    def cards_in_game(self, state: State) -> list[str]:
        """Every card wherever it lies (for the conservation invariant)."""
        held = [c for p in state["players"] for c in state["hold"][p]]
        return state["deck"] + state["set_aside"] + state["discarded"] + state["lot"] + held

