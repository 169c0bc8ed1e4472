"""Goofspiel as the cross-game tests meet it (tests/rooms/__init__.py says what a room is). The game lives
in tests/goofspiel/ and is registered for the tests alone (conftest.py); its rounds are decisions of
every player at once, each bid secret until the last is in."""

from __future__ import annotations

import random
from typing import Any

PLAYERS = ("anna", "ben", "cleo")
TABLES: list[tuple[int, dict[str, Any]]] = [(3, {}), (2, {"cards": "5"}), (4, {"cards": "8"})]

EXAMPLE_ORDER = "bid: 7"
ILLEGAL = "bid: 14"
STANDING: list[dict[str, Any]] = []  # Goofspiel takes no standing orders
AHEAD: list[Any] = [{"bid": 1}]
DECKS: list[dict[str, Any]] = [{"prizes": [13, 1, 7]}]
BOARD_ENGLISH = ["Prize", "No prize left", "prizes won", "in the deck"]
SOURCES = ["tests/goofspiel/templates", "tests/goofspiel/__init__.py", "tests/goofspiel/bot.py",
           "tests/goofspiel/refusals.py"]
LISTED = "Goofspiel, 2-4 players (cards: 13|8|5)"

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["pass", {"bid": 0}, {"bid": 14}, {"price": 3}, {"bid": 1}]
RANDOM_DECISIONS = 39

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [
    *[(n, {"cards": "13"}, f"width-goofspiel-{n}", n) for n in (2, 3, 4)],
    (4, {"cards": "5"}, "width-goofspiel-5", 1), (3, {"cards": "8"}, "width-goofspiel-8", 2)]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(4, {"cards": "13"}, "width-long-goofspiel", 3)]

#: the pictures of whole bot games: (count, options, seed, every how many orders a picture is drawn)
#: (each more than the 25 orders a phone's board is drawn after)
PICTURE_TABLES: list[tuple[int, dict[str, str], str, int]] = [(4, {"cards": "8"}, "pic-goofspiel-4-8", 2),
                                                              (3, {}, "pic-goofspiel-3", 3)]
#: games whose every board is drawn for a phone: (count, options, seed)
PHONE_TABLES: list[tuple[int, dict[str, str], str]] = [(4, {}, "phone-goofspiel-4"), (3, {"cards": "8"}, "phone-goofspiel-3")]
SECRET_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "pic-secret-goofspiel", 4)]
SEAT_LEGEND = True  # its picture names each seat beside its colour and number


#: orders as a player may write them, and as they are read: (kind, sent, read)
READINGS: list[tuple[str, Any, Any]] = [
    ("orders", "bid 7", {"bid": 7}), ("orders", "Bid:7", {"bid": 7}), ("orders", "bid = 12", {"bid": 12}),
    ("orders", "BID 3", {"bid": 3}), ("orders", "bieten 5", {"bid": 5}), ("orders", "bod 4", {"bid": 4}),
    ("orders", {"Bid": "x"}, {"bid": "x"}),  # the key all the same: the error then speaks of a bid
    ("orders", "Drew", "Drew")]  # no order in any case: left as sent


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """None: Goofspiel has no standing orders."""
    return []


RANDOM_START = True  # the first prize is turned from the shuffled deck
HIDES = True  # the prize deck's order, and the bids made so far: a finished game's pages show them
PRIVATE_EVENTS = True  # a bid is told to its bidder alone until the round is settled
MID_GAME = 12  # orders the bots play to its middle (a private event by then, where it has them)


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold: the seed, the tokens, the prize
    deck's order (as a report would list cards)."""
    import helpers

    deck = [str(c) for c in state["engine"]["prizes"]]

    class GoofspielSecrets(helpers.Secrets):
        hidden = "prize cards to come"

        def runs(self) -> list[list[str]]:
            return [deck] if len(deck) >= 3 else []

    return GoofspielSecrets(state["seed"], tokens, state["status"] == "finished")


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine with the prize deck in another order (the k-th rotation): what every player
    sees stays the same."""
    import copy

    engine = copy.deepcopy(state["engine"])
    deck = engine["prizes"]
    if deck:
        shift = 1 + k % len(deck)
        engine["prizes"] = deck[shift:] + deck[:shift]
    return engine


def HIDDEN_VARIANTS(state: dict[str, Any], salt: str) -> Any:  # noqa: N802 - a room's constant
    """(what, the state with it changed, the players who may not notice): the prize deck in another
    order, each bid made so far changed (none but its bidder may notice), and another seed."""
    import copy

    players = {p["name"] for p in state["players"]}
    engine = state["engine"]
    if len(engine["prizes"]) > 1:
        changed = copy.deepcopy(state)
        changed["engine"]["prizes"] = list(reversed(engine["prizes"]))
        yield "the prize deck", changed, players
    for bidder, card in engine["bids"].items():
        others = [c for c in engine["hands"][bidder] if c != card]
        if others:
            changed = copy.deepcopy(state)
            hand = changed["engine"]["hands"][bidder]
            new = others[0]
            hand.remove(new)
            hand.append(card)
            hand.sort()
            changed["engine"]["bids"][bidder] = new
            yield f"{bidder}'s bid", changed, players - {bidder}
    yield "the seed", dict(state, seed=state["seed"] + "-something-else"), players


def PICTURE_CHECK(root: Any, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:  # noqa: N802 - a room's constant
    """Its board picture `root` shows each player's points and the cards he holds as the view has them;
    how many were compared."""
    from test_pictures import pieces, texts, token_of

    n = 0
    for p in view["players"]:
        (el,) = [e for e in pieces(root, "player") if e.get("data-player") == p["name"]]
        assert el.get("data-score") == str(p["score"])
        token_of(el, seat[p["name"]])
        assert texts(el)[2:] == [str(c) for c in p["hand"]]  # (after its token and its name)
        n += 1 + len(p["hand"])
    return n
