"""Goofspiel, a game of simultaneous secret bids, hosted by pbem from outside its package (the tests
register it through `PBEM_RULESETS=goofspiel=goofspiel`; its templates, schemas and catalogs live
beside this module).

Each player holds the cards 1 to N (option `cards`: 13, 8 or 5). Each round a prize card is turned
from a shuffled deck of the same N cards; every player bids one card of his hand in secret, and the
bids are opened when the last is in. The highest bid alone wins the prize (its value in points); when
the highest bid is tied, nobody wins it and the prize is set aside. Bid cards are spent. After N
rounds the most points win. A round is one decision of every player: it keeps its turn until the last
bid is in, and a bid is its bidder's alone until then.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import SetupError
from pbem.rng import Rng
from pbem.rules.base import Decision, Event, Order, Ruleset, State, register, standings
from pbem.rules.simultaneous import SecretChoices

from goofspiel.refusals import refuse

CARDS = ("13", "8", "5")
BIDS = SecretChoices("bids", "bid")  # a round's bids, secret until the last is in


@register
class Goofspiel(Ruleset):
    name = "goofspiel"
    title = "Goofspiel"
    min_players = 2
    max_players = 4
    example_order = "bid: 7"
    options = {"cards": CARDS}
    files = Path(__file__).parent

    def check_deck(self, deck: Any, players: list[str], options: dict[str, str]) -> dict[str, Any]:
        n = int(options.get("cards", CARDS[0]))
        if not isinstance(deck, dict) or set(deck) != {"prizes"} or not isinstance(deck["prizes"], list):
            raise SetupError("the deck file must hold one key, 'prizes': a list of prize cards, top first")
        prizes = deck["prizes"]
        for card in prizes:
            if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= n:
                raise SetupError(f"the deck file's prize {card!r} is not a card from 1 to {n}")
        if len(set(prizes)) != len(prizes):
            raise SetupError("the deck file names a prize card twice")
        return {"prizes": list(prizes)}

    def setup(self, players: list[str], options: dict[str, str], rng: Rng,
              deck: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
        n = int(options.get("cards", CARDS[0]))
        fixed = list((deck or {}).get("prizes", []))
        rest = [c for c in range(1, n + 1) if c not in fixed]
        rng.shuffle(rest, "prizes")
        prizes = fixed + rest
        state: State = {"turn": 1, "players": list(players), "cards": n,
                        "hands": {p: list(range(1, n + 1)) for p in players},
                        "prize": prizes[0], "prizes": prizes[1:], "bids": {}, "round": 1,
                        "won": {p: [] for p in players}, "set_aside": []}
        return state, [{"type": "prize", "round": 1, "card": prizes[0]}]

    def decision(self, state: State) -> Decision | None:
        if state["prize"] is None:
            return None
        return BIDS.decision(state)

    def candidate_orders(self, state: State, player: str) -> list[Order]:
        d = self.decision(state)
        if d is None or player not in d.players:
            return []
        return [{"bid": c} for c in state["hands"][player]]

    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        if self.decision(state) is None:
            return refuse("game-over")
        refused = BIDS.refused(state, player)
        if refused is not None:
            return refused
        if not isinstance(order, dict) or set(order) != {"bid"} or not isinstance(order["bid"], int) \
                or isinstance(order["bid"], bool):
            return refuse("bid-only", order=repr(order if isinstance(order, str) else str(order)))
        hand = state["hands"][player]
        if order["bid"] not in hand:
            return refuse("no-such-card", card=order["bid"], cards=" ".join(map(str, hand)))
        return None

    def _apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        assert isinstance(order, dict)
        card = order["bid"]
        state["hands"][player].remove(card)
        told = BIDS.choose(state, player, card, {"type": "bid_sent", "player": player, "card": card})
        return told if not BIDS.all_in(state) else self._settle(state)

    def _settle(self, state: State) -> list[Event]:
        """Open the bids: the highest alone takes the prize; then the next prize, or the end."""
        bids = BIDS.opened(state)
        top = max(bids.values())
        best = [p for p, c in bids.items() if c == top]
        winner = best[0] if len(best) == 1 else None
        prize = state["prize"]
        (state["won"][winner] if winner else state["set_aside"]).append(prize)
        events: list[Event] = [{"type": "round", "round": state["round"], "prize": prize, "bids": bids,
                                "winner": winner}]
        state["turn"] += 1
        if state["prizes"]:
            state["prize"] = state["prizes"].pop(0)
            state["round"] += 1
            events.append({"type": "prize", "round": state["round"], "card": state["prize"]})
        else:
            state["prize"] = None
            events.append({"type": "game_end", "standings": self.result(state)})
        return events

    def score(self, state: State, player: str) -> int:
        return sum(state["won"][player])

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        d = self.decision(state)
        view: dict[str, Any] = {
            "you": player or None, "round": state["round"], "rounds": state["cards"], "prize": state["prize"],
            "prizes_left": len(state["prizes"]), "set_aside": list(state["set_aside"]),
            "waiting_for": list(d.players) if d else [],
            "players": [{"name": p, "hand": BIDS.still_held(state, p, player, state["hands"][p]),
                         "won": list(state["won"][p]), "score": self.score(state, p), "bid_in": p in state["bids"]}
                        for p in state["players"]],
        }
        if player:
            view["your_bid"] = BIDS.mine(state, player)
        if player is None:  # the GM sees the bids made so far and the prize deck
            view["bids"] = BIDS.seen(state, player)
            view["deck"] = list(state["prizes"])
        return view

    def result(self, state: State) -> list[dict[str, Any]]:
        return standings(state["players"], {p: self.score(state, p) for p in state["players"]})

    def passive_order(self, state: State, player: str) -> Order | None:
        """A late bidder bids his lowest card."""
        hand = state["hands"][player]
        return {"bid": min(hand)} if hand and player in (self.decision(state) or Decision((), "")).players else None
