"""Whist for 3 or 4 players, each for himself, on a short deck of 32 cards (7 to ace in four suits).

Each player deals once, in turn. A deal gives every player a hand of 5 cards (option `hand`: 5, 7 or
3), one at a time round the table from the dealer's left; the next card of the deck is turned up, and
its suit is trump for the deal. The player left of the dealer leads the first trick; each player in
turn plays a card (`play: QH`), following the led suit if he can. The highest trump, else the highest
card of the led suit, takes the trick, and its taker leads the next. A trick is a point. After the last
deal the most points win; among equal points, the more deals won outright (most tricks of a deal,
alone), then the more tricks in the last deal; players equal in all of these share the place.

The hands and the deck under the turned card are secret: each player sees his own hand alone, and
which cards he may play depends on it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pbem.i18n import N_
from pbem.rng import Rng
from pbem.rules.base import (Decision, Event, OnePlayer, Order, Ruleset, State, check_stacks, register, stack,
                             standings)
from pbem.rules.contract import GAME_END

from .refusals import refuse

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
DECK = [r + s for s in SUITS for r in RANKS]
LEAD, FOLLOW = OnePlayer("lead"), OnePlayer("follow")


def suit(card: str) -> str:
    """The suit of a card: `H` of `QH`."""
    return card[-1]


def rank(card: str) -> int:
    """How high a card is within its suit (7 lowest, ace highest)."""
    return RANKS.index(card[:-1])


def sorted_hand(cards: list[str], trump: str) -> list[str]:
    """A hand as a player holds it: trumps first, then suit by suit, each from its highest card."""
    return sorted(cards, key=lambda c: (suit(c) != trump, SUITS.index(suit(c)), -rank(c)))


def trick_taker(trick: list[list[str]], trump: str) -> str:
    """Who takes a full trick (pairs of player and card, the lead first): the highest trump, else the
    highest card of the led suit."""
    led = suit(trick[0][1])
    best = max(trick, key=lambda pc: (suit(pc[1]) == trump, suit(pc[1]) == led, rank(pc[1])))
    return best[0]


@register
class Whist(Ruleset):
    name = "whist"
    title = "Whist"
    min_players = 3
    max_players = 4
    example_order = "play: QH"
    options = {"hand": ("5", "7", "3")}
    option_words = {("hand", "5"): N_("hands of 5 cards"), ("hand", "7"): N_("hands of 7 cards"),
                    ("hand", "3"): N_("hands of 3 cards")}
    files = Path(__file__).parent
    mail_events = frozenset({GAME_END, "deal_end"})

    def check_deck(self, deck: Any, players: list[str], options: dict[str, str]) -> dict[str, Any]:
        fixed = check_stacks(deck, "deals", "deal", "card", "QH", Counter(DECK),
                             "a card of the deck (7 to A of C, D, H or S: 7C ... AS)",
                             most=(len(DECK), f"the deck has {len(DECK)} cards"), stacks=len(players))
        return {"deals": fixed}

    def setup(self, players: list[str], options: dict[str, str], rng: Rng,
              deck: dict[str, Any] | None = None) -> tuple[State, list[Event]]:
        n = len(players)
        state: State = {
            "turn": 1, "players": list(players), "hand_size": int(options["hand"]), "deals": n, "deal": 0,
            "dealer": n - 1, "trump_card": "", "hands": {p: [] for p in players}, "stock": [],
            "trick": [], "to_act": players[0], "tricks": {p: 0 for p in players},
            "points": {p: 0 for p in players}, "deals_won": {p: 0 for p in players}, "last_trick": None,
            "fixed": (deck or {}).get("deals", []), "over": False,
        }
        return state, self._deal(state, rng)

    def _deal(self, state: State, rng: Rng) -> list[Event]:
        """The next deal: the dealer moves one seat on, deals the hands and turns up trump."""
        players = state["players"]
        n, d = len(players), state["deal"]
        state["deal"] = d + 1
        state["dealer"] = (state["dealer"] + 1) % n
        fixed = state["fixed"][d] if d < len(state["fixed"]) else []
        cards = stack(fixed, DECK, rng, f"deal {d + 1}")
        first = (state["dealer"] + 1) % n
        size = state["hand_size"]
        hands: dict[str, list[str]] = {p: [] for p in players}
        for k in range(n * size):
            hands[players[(first + k) % n]].append(cards[k])
        state["trump_card"] = cards[n * size]
        trump = suit(state["trump_card"])
        state["hands"] = {p: sorted_hand(hands[p], trump) for p in players}
        state["stock"] = cards[n * size + 1:]
        state["trick"], state["to_act"] = [], players[first]
        state["tricks"] = {p: 0 for p in players}
        events: list[Event] = [{"type": "deal", "deal": d + 1, "dealer": players[state["dealer"]],
                                "trump": state["trump_card"]}]
        events += [{"type": "hand", "to": [p], "player": p, "cards": list(state["hands"][p])} for p in players]
        return events

    def decision(self, state: State) -> Decision | None:
        if state["over"]:
            return None
        return (FOLLOW if state["trick"] else LEAD)[state["to_act"]]

    def candidate_orders(self, state: State, player: str) -> list[Order]:
        if state["over"] or player != state["to_act"]:
            return []
        return [{"play": c} for c in state["hands"][player]]

    def why_illegal(self, state: State, player: str, order: Order) -> str | None:
        if state["over"]:
            return refuse("game-over")
        if player != state["to_act"]:
            return refuse("not-your-decision", players=state["to_act"])
        card = order.get("play") if isinstance(order, dict) and len(order) == 1 else None
        if not isinstance(card, str) or card not in DECK:
            return refuse("not-a-card", example=self.example_order)
        hand = state["hands"][player]
        if card not in hand:
            return refuse("not-held", card=card, hand=" ".join(hand))
        if state["trick"]:
            led = suit(state["trick"][0][1])
            followers = [c for c in hand if suit(c) == led]
            if suit(card) != led and followers:
                return refuse("must-follow", card=card, cards=" ".join(followers))
        return None

    def _apply(self, state: State, player: str, order: Order, rng: Rng) -> list[Event]:
        assert isinstance(order, dict)
        card = order["play"]
        players = state["players"]
        state["hands"][player].remove(card)
        events: list[Event] = [{"type": "play", "player": player, "card": card, "lead": not state["trick"]}]
        state["trick"].append([player, card])
        state["turn"] += 1
        if len(state["trick"]) < len(players):
            state["to_act"] = players[(players.index(player) + 1) % len(players)]
            return events
        taker = trick_taker(state["trick"], suit(state["trump_card"]))
        state["tricks"][taker] += 1
        state["points"][taker] += 1
        events.append({"type": "trick", "taker": taker, "cards": [c for _p, c in state["trick"]]})
        state["last_trick"] = {"taker": taker, "cards": [list(pc) for pc in state["trick"]]}
        state["trick"], state["to_act"] = [], taker
        if state["hands"][taker]:
            return events
        most = max(state["tricks"].values())
        best = [p for p in players if state["tricks"][p] == most]
        if len(best) == 1:
            state["deals_won"][best[0]] += 1
        events.append({"type": "deal_end", "deal": state["deal"], "tricks": dict(state["tricks"]),
                       "winner": best[0] if len(best) == 1 else ""})
        if state["deal"] < state["deals"]:
            return events + self._deal(state, rng)
        state["over"] = True
        return events + [{"type": GAME_END, "standings": self.result(state)}]

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        seen = {k: state[k] for k in ("players", "hand_size", "deals", "deal", "trump_card", "trick", "to_act",
                                      "tricks", "points", "deals_won", "last_trick", "over")}
        seen["dealer"] = state["players"][state["dealer"]]
        seen["trump"] = suit(state["trump_card"])
        seen["held"] = {p: len(h) for p, h in state["hands"].items()}
        seen["led"] = suit(state["trick"][0][1]) if state["trick"] else ""
        if player is None:
            seen["hands"] = {p: list(h) for p, h in state["hands"].items()}
            seen["stock"] = list(state["stock"])
        elif player:
            seen["hand"] = list(state["hands"][player])
        return seen

    def result(self, state: State) -> list[dict[str, Any]]:
        players = state["players"]
        return standings(players, state["points"], {p: (state["deals_won"][p], state["tricks"][p]) for p in players})
