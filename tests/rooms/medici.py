"""Medici (both editions) as the cross-game tests meet it (tests/rooms/__init__.py says what a room is)."""

from __future__ import annotations

import random
from typing import Any

from test_pictures import fill_of, pieces, texts, token_of

from pbem.pictures import good_colour
from rooms import LONG_GAME, LONG_NAMES, NAMES

PLAYERS = ("anna", "ben", "cleo")
TABLES: list[tuple[int, dict[str, Any]]] = [(3, {}), (4, {"edition": "amigo"})]

EXAMPLE_ORDER = "bid: 7"
ILLEGAL = "bid: 999"

#: order words this game says of its own act, another game's table holding them too (why)
OWN_WORDS = {"draw": "a card turned face up from the deck: reports show `aufdecken` (docs/glossary/medici.md)"}
STANDING: list[dict[str, Any]] = [{"max_bid": 12}, {"draw_until": 2}, {"pass": "day"}]
AHEAD: list[Any] = ["pass", {"bid": 1}, "draw"]
DECKS: list[dict[str, Any]] = [{"days": [["linen-3", "furs-0"], [], ["spices-5"]]}]
BOARD_ENGLISH = ["money"]
SOURCES = ["templates/medici", "pbem/rules/medici.py", "pbem/rules/medici_bot.py", "pbem/rules/medici_ranking.py",
           "pbem/rules/medici_refusals.py"]
LISTED = "Medici, 3-6 players (edition: riogrande|amigo)"

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["draw", "auction", "pass", {"bid": 0}, {"bid": 1}, {"bid": 7}, {"bid": 99}, {"price": 3}]
RANDOM_DECISIONS = 400

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [
    *[(n, {"edition": "riogrande"}, f"width-rg-{n}", 1 if n < 5 else 2) for n in (3, 4, 5, 6)],
    *[(n, {"edition": "amigo"}, f"width-amigo-{n}", 1 if n < 5 else 2) for n in (3, 4, 5, 6)]]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(6, {"edition": "amigo"}, "width-long-medici", 7)]

#: the pictures of whole bot games: (count, options, seed, every how many orders a picture is drawn), for
#: what they show and for what they keep from their viewer
PICTURE_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {"edition": "riogrande"}, "pic-rg-3", 2),
                                                              (6, {"edition": "amigo"}, "pic-amigo-6", 5)]
SECRET_TABLES: list[tuple[int, dict[str, str], str, int]] = [(4, {}, "pic-secret-medici", 9)]
SEAT_LEGEND = True  # its picture names each seat beside its colour and number

#: orders and standing orders as a player may write them, and as they are read: (kind, sent, read)
READINGS: list[tuple[str, Any, Any]] = [
    ("orders", "bid 7", {"bid": 7}), ("orders", "Bid:7", {"bid": 7}), ("orders", "bid = 12", {"bid": 12}),
    ("orders", "BID 3", {"bid": 3}), ("standing", "max_bid 9", {"max_bid": 9}), ("standing", "Pass Day", {"pass": "day"}),
    ("orders", {"Bid": "x"}, {"bid": "x"}),  # the key all the same: the error then speaks of a bid
    ("orders", "Drew", "Drew")]  # no order in any case: left as sent


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """Some standing orders a bidder might give now."""
    pool = [{"max_bid": rnd.randint(0, 20)}, {"draw_until": rnd.randint(1, 3)}, {"pass": "day"}]
    return rnd.sample(pool, rnd.randint(0, len(pool)))


HIDES = True  # the bag's cards: a finished game's pages show them, marked hidden at the time
PRIVATE_EVENTS = False  # every event is told to the whole table
MID_GAME = 12  # orders the bots play to its middle (a private event by then, where it has them)
RANDOM_START = True  # its start depends on the seed: the deck is shuffled


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold."""
    from test_secrets import Secrets

    from pbem.game import ruleset_of

    return Secrets(state["seed"], tokens, ruleset_of(state).view(state["engine"], None), False)


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine with its hidden parts changed (the k-th way)."""
    from test_secrets import perturbed

    return perturbed(state, f"archive-{k}")["engine"]



def HIDDEN_VARIANTS(state: dict[str, Any], salt: str) -> Any:  # noqa: N802 - a room's constant
    """(what, the state with it changed, the players who may not notice): the cards still hidden in
    another order, and another seed."""
    from test_pictures import bag_shuffled

    return bag_shuffled(state, salt, ["deck", "set_aside"])


#: its mails on a phone: the games whose every text is read as HTML (count, options, seed); the report
#: whose shape is checked (count, options, seed, orders played, the least of each HTML element); the
#: reports opened in a phone-sized browser (count, options, seed, orders played)
PHONE_TABLES: list[tuple[int, dict[str, str], str]] = [(3, {}, "phone-medici-3"), (6, {"edition": "amigo"}, "phone-amigo-6")]
PHONE_SHAPE: tuple[int, dict[str, str], str, int, dict[str, int]] = (3, {}, "phone-shape-medici", 31, {"table": 2, "code": 2})
PHONE_SHOTS: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "phone-shot-medici", 44)]

# -- what its board picture must show: the view's pieces, where the view has them ----------------------

def PICTURE_CHECK(root: Any, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:  # noqa: N802 - a room's constant
    """Its board picture `root` shows the view's pieces where the view has them; how many were compared."""
    markers = {(el.get("data-player"), el.get("data-good")): el for el in pieces(root, "marker")}
    assert len(markers) == len(view["players"]) * len(view["goods"])
    cards = pieces(root, "card")
    n = 0
    for p in view["players"]:
        for g in view["goods"]:
            el = markers[(p["name"], g)]
            assert el.get("data-step") == str(p["tracks"][g]) and el.get("data-colour") == seat[p["name"]]["colour"]
            token_of(el, seat[p["name"]])
            n += 1
        hold = [el for el in cards if el.get("data-where") == "hold" and el.get("data-player") == p["name"]]
        assert [el.get("data-card") for el in hold] == p["hold"]
        assert [el.get("data-slot") for el in hold] == [str(i) for i in range(len(p["hold"]))]
        (box,) = [el for el in pieces(root, "hold") if el.get("data-player") == p["name"]]
        assert box.get("data-money") == str(p["money"]) and box.get("data-value") == str(p["hold_value"])
        token_of(box, seat[p["name"]])
        n += len(hold)
    assert [el.get("data-card") for el in cards if el.get("data-where") == "lot"] == view["lot"]
    for el in cards:
        assert fill_of(el) == good_colour(el.get("data-card"))
        assert texts(el) == list(el.get("data-card").rsplit("-", 1))
    assert len(cards) == len(view["lot"]) + sum(len(p["hold"]) for p in view["players"])
    return n + len(cards)

# -- in German and Dutch (tests/test_i18n_games.py, tests/test_i18n_mid_game.py) ---------------------

#: English words and phrases of its glossary's English column that no German or Dutch text may show (case
#: kept: `Bid` is the report's word, `bid` an order word, which is the order words' business)
ENGLISH = ["YOUR MOVE", "THE TABLE", "ON THE TABLE NOW", "SINCE YOUR LAST REPORT", "WAITING FOR",
           "FINAL STANDINGS", "Seed commitment", "auctioneer", "Auctioneer", "Bid", "bids", "lot", "hold",
           "day", "Day", "money", "Money", "bag", "card", "cards", "passes", "reveals", "draws", "buys",
           "Majority", "Bonus fields", "value", "scoring", "Nobody", "player", "players", "tracks", "step",
           "poorest", "random", "free space", "free spaces", "linen", "furs", "grain", "dyes", "spices",
           "metals", "porcelain", "cloth", "gold", "Dyes", "Spices", "Furs", "Linen", "Grain", "Metals",
           "Porcelain", "Cloth", "nothing", "the game is over", "Reply", "report for", "GM view"]

#: bot games played to their end, every report rendered in German and Dutch: (players, options, seed, game id)
WHOLE_GAMES: list[tuple[tuple[str, ...], dict[str, str], str, str]] = [
    (NAMES[:4], {"edition": "riogrande"}, "i18n-rg-4", "g1"),
    (NAMES[:3], {"edition": "amigo"}, "i18n-amigo-3", "g1"),
    (LONG_NAMES[:6], {"edition": "amigo"}, "i18n-amigo-6-long", LONG_GAME),
    (LONG_NAMES[:5], {"edition": "riogrande"}, "i18n-rg-5-long", "g1")]

#: the events that carry the engine's reasons in English, in every shape they come in
REASONS: list[dict[str, Any]] = [
    {"type": "day_start", "day": 1, "cards": 18, "start_player": "anna", "why": "drawn at random"},
    {"type": "day_start", "day": 2, "cards": 18, "start_player": "anna", "why": "the poorest"},
    {"type": "day_start", "day": 3, "cards": 18, "start_player": "ben", "why": "drawn among the poorest (anna, ben)"},
    {"type": "pass", "player": "cleo", "forced": "only 1 free space in the hold"},
    {"type": "pass", "player": "cleo", "forced": "only 2 free spaces in the hold"},
    {"type": "pass", "player": "cleo", "forced": "only 3 money, the lowest bid is 7"},
    {"type": "unsold", "lot": ["gold-10"]},
]

#: its boards after 12 bot moves of a table of these players: (players, English words of its glossary no
#: German or Dutch board shows, words the English board shows)
BOARD_GLOSSARY: tuple[tuple[str, ...], list[str], list[str]] = (
    NAMES[:4], ["Goods tracks", "Holds", "money", "value", "auctioneer", "cards left", "high bid", "No lot",
                "The lot", "day"], ["money", "value"])

#: messages that speak of a glossary term, each with the words its translation holds in each language
GLOSSARY_SPOTS: list[tuple[str, dict[str, list[str]]]] = [
    ("You are the auctioneer: draw another card, or put the lot up for auction.",
     {"de": ["Auktionator", "Warenpaket", "versteigere", "Karte"], "nl": ["veilingmeester", "pakket", "veil", "kaart"]}),
    ("Day %(day)s scoring, hold values: %(ranking)s.", {"de": ["Spielrunde", "Abrechnung", "Lager"],
                                                          "nl": ["dag", "Waardering", "lading"]}),
    ("Bonus fields: %(payouts)s.", {"de": ["Prämienfelder"], "nl": ["Bonusvelden"]}),
    ("Majority: %(payouts)s.", {"de": ["Monopolstellung"], "nl": ["Handelsmonopolie"]}),
    ("%(player)s +%(payout)s (step %(step)s)", {"de": ["Feld"], "nl": ["trap"]}),
    ("High bid: %(amount)s by %(player)s.", {"de": ["Höchstgebot"], "nl": ["Hoogste bod"]}),
    ("The bag is empty.", {"de": ["Stapel"], "nl": ["buidel"]}),
    ("tracks", {"de": ["Kontore"], "nl": ["piramides"]}),
    ("hold", {"de": ["Lager"], "nl": ["lading"]}),
    ("%(player)s passes.", {"de": ["passt"], "nl": ["past"]}),
]
