"""Medici vs Strozzi as the cross-game tests meet it (tests/rooms/__init__.py says what a room is)."""

from __future__ import annotations

import random
from typing import Any

from test_pictures import fill_of, pieces, texts, token_of

from pbem.pictures import good_colour
from rooms import LONG_GAME, LONG_NAMES, NAMES

PLAYERS = ("anna", "ben")
TABLES: list[tuple[int, dict[str, Any]]] = [(2, {})]

#: order words this game says of its own act, another game's table holding them too (why)
OWN_WORDS = {"draw": "a tile drawn from the bag: reports show `ziehen` (docs/glossary/medici-strozzi.md)",
             "discard": "goods thrown overboard from a ship: `wegwerfen`, nl `wegwerpen`, `overboord`"}

EXAMPLE_ORDER = "price: 3"
ILLEGAL = "price: 999"
STANDING: list[dict[str, Any]] = [{"buy_up_to": 4}, {"load": 2}, {"load": 1, "harbour": "B"}]
AHEAD: list[Any] = ["decline", "buy", "draw"]
DECKS: list[dict[str, Any]] = [{"rounds": [["silk-3", "gold-0"]]}]
BOARD_ENGLISH = ["money"]
SOURCES = ["templates/medici-strozzi", "pbem/rules/medici_strozzi.py", "pbem/rules/medici_strozzi_bot.py",
           "pbem/rules/medici_strozzi_refusals.py"]
LISTED = "Medici vs Strozzi, 2 players (no options)"  # a fixed count, no range

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["draw", "discard", "pass", {"price": 3}, {"price": 99}, {"load": 9}, {"load": 1},
                    {"load": 5, "harbour": "Z"}, {"bid": 3}]
RANDOM_DECISIONS = 400

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [(2, {}, "width-strozzi", 1)]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(2, {}, "width-long-strozzi", 7)]

#: the pictures of whole bot games: (count, options, seed, every how many orders a picture is drawn), for
#: what they show and for what they keep from their viewer
PICTURE_TABLES: list[tuple[int, dict[str, str], str, int]] = [(2, {}, "pic-strozzi", 2)]
SECRET_TABLES: list[tuple[int, dict[str, str], str, int]] = [(2, {}, "pic-secret-strozzi", 5)]
SEAT_LEGEND = True  # its picture names each seat beside its colour and number

#: orders and standing orders as a player may write them, and as they are read: (kind, sent, read)
READINGS: list[tuple[str, Any, Any]] = [
    ("orders", "price 3", {"price": 3}), ("orders", "load 4 harbour B", {"load": 4, "harbour": "B"}),
    ("orders", "Load: 4, harbour: b", {"load": 4, "harbour": "B"}),
    ("orders", {"load": "4, harbour: B"}, {"load": 4, "harbour": "B"}),  # `load: 4, harbour: B` without braces
    ("orders", "Decline", "decline"), ("orders", {"Load": 4, "Harbour": "b"}, {"load": 4, "harbour": "B"}),
    ("orders", {"load": 4, "harbour": "c"}, {"load": 4, "harbour": "C"}),
    ("standing", {"Buy_Up_To": 3}, {"buy_up_to": 3})]


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """Some standing orders a merchant might give now."""
    pool = [{"buy_up_to": rnd.randint(0, 30)}, {"load": rnd.choice([3, 4, 5]), "harbour": rnd.choice("ABC")}]
    return rnd.sample(pool, rnd.randint(0, len(pool)))


HIDES = True  # the bag's cards: a finished game's pages show them, marked hidden at the time
PRIVATE_EVENTS = False  # every event is told to both players
MID_GAME = 12  # orders the bots play to its middle (a private event by then, where it has them)
RANDOM_START = True  # its start depends on the seed: the bag is shuffled


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold."""
    from test_medici_strozzi_games import Secrets

    from pbem.game import ruleset_of

    return Secrets(state["seed"], tokens, ruleset_of(state).view(state["engine"], None), False)


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine with its hidden parts changed (the k-th way)."""
    from test_medici_strozzi_games import perturbed

    return perturbed(state, f"archive-{k}")["engine"]



def HIDDEN_VARIANTS(state: dict[str, Any], salt: str) -> Any:  # noqa: N802 - a room's constant
    """(what, the state with it changed, the players who may not notice): the bag in another order, and
    another seed."""
    from test_pictures import bag_shuffled

    return bag_shuffled(state, salt, ["bag"])


#: its mails on a phone: the games whose every text is read as HTML (count, options, seed); the report
#: whose shape is checked (count, options, seed, orders played, the least of each HTML element); the
#: reports opened in a phone-sized browser (count, options, seed, orders played)
PHONE_TABLES: list[tuple[int, dict[str, str], str]] = [(2, {}, "phone-strozzi")]
PHONE_SHAPE: tuple[int, dict[str, str], str, int, dict[str, int]] = (2, {}, "phone-shape-strozzi", 20, {"code": 2})
PHONE_SHOTS: list[tuple[int, dict[str, str], str, int]] = [(2, {}, "phone-shot-strozzi", 26)]

# -- what its board picture must show: the view's pieces, where the view has them ----------------------

def PICTURE_CHECK(root: Any, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:  # noqa: N802 - a room's constant
    """Its board picture `root` shows the view's pieces where the view has them; how many were compared."""
    markers = {(el.get("data-harbour"), el.get("data-good")): el for el in pieces(root, "marker")}
    assert set(markers) == {(h, g) for h, goods in view["harbours"].items() for g in goods}
    for (h, g), el in markers.items():
        step = view["markers"][h][g]
        assert el.get("data-step") == str(step)
        assert el.get("data-player") == (view["medici"] if step > 0 else view["strozzi"] if step < 0 else "")
        assert texts(el) == ["%+d" % step]
    cards = pieces(root, "card")
    n = len(markers)
    for p in view["players"]:
        (fam,) = [el for el in pieces(root, "family") if el.get("data-player") == p["name"]]
        assert fam.get("data-money") == str(p["money"]) and fam.get("data-family") == p["family"]
        token_of(fam, seat[p["name"]])
        ships = [el for el in pieces(root, "ship") if el.get("data-player") == p["name"]]
        assert [(el.get("data-capacity"), el.get("data-harbour")) for el in ships] == \
            [(str(s["capacity"]), s["harbour"] or "") for s in p["ships"]]
        for s, el in zip(p["ships"], ships):
            assert fill_of(el) == seat[p["name"]]["colour"]
            assert [c.get("data-card") for c in pieces(el, "card")] == s["cargo"]
            n += len(s["cargo"])
    assert [el.get("data-card") for el in cards if el.get("data-where") == "lot"] == view["lot"]
    for el in cards:
        assert fill_of(el) == good_colour(el.get("data-card"))
    return n

# -- in German and Dutch (tests/test_i18n_games.py, tests/test_i18n_mid_game.py) ---------------------

#: English words and phrases of its glossary's English column that no German or Dutch text may show
ENGLISH = ["YOUR MOVE", "THE FAMILIES", "THE HARBOURS", "ON THE TABLE NOW", "SINCE YOUR LAST REPORT",
           "WAITING FOR", "FINAL STANDINGS", "Seed commitment", "lot", "tile", "tiles", "Tiles",
           "ship", "ships", "Harbour", "in harbour", "to harbour", "round", "Round", "money", "Money",
           "bag", "cargo", "Markers", "value", "draws", "asks", "buys", "declines", "pays",
           "loads", "throws", "overboard", "Thrown", "drawer", "against", "tie", "nobody",
           "not yet loaded", "furs", "spices", "silk", "gold", "nothing", "Draw", "Buy",
           "Load", "the game is over", "Reply", "report for", "GM view"]

#: bot games played to their end, every report rendered in German and Dutch: (players, options, seed, game id)
WHOLE_GAMES: list[tuple[tuple[str, ...], dict[str, str], str, str]] = [
    (("lorenzo", "filippo"), {}, "i18n-strozzi", "g1"),
    (LONG_NAMES[:2], {}, "i18n-strozzi-long", LONG_GAME)]

#: the events that carry the engine's reasons in English, in every shape they come in
REASONS: list[dict[str, Any]] = [
    {"type": "round_over", "round": 1, "why": "the bag is empty"},
    {"type": "round_over", "round": 2, "why": "lorenzo's ships are full"},
    {"type": "score_harbour", "round": 1, "harbour": "C", "values": {"lorenzo": 4, "filippo": 4}, "winner": None,
     "moves": {"spices": {"from": 0, "to": 1}, "silk": {"from": 0, "to": 0}}, "markers": {"lorenzo": 10, "filippo": 0}},
]

#: its boards after 12 bot moves of a table of these players: (players, English words of its glossary no
#: German or Dutch board shows, words the English board shows)
BOARD_GLOSSARY: tuple[tuple[str, ...], list[str], list[str]] = (
    ("lorenzo", "filippo"), ["Harbours", "monopoly markers", "side", "Ships", "money", "ship", "harbour", "empty",
                             "value", "drawn by", "tiles in the bag", "price", "bought by", "The lot", "No lot",
                             "round"], ["money", "value"])

#: messages that speak of a glossary term, each with the words its translation holds in each language
GLOSSARY_SPOTS: list[tuple[str, dict[str, list[str]]]] = [
    ("%(player)s declines, so the drawer must buy.", {"de": ["lehnt", "ab", "kaufen"], "nl": ["weigert", "kopen"]}),
    ("Load the lot onto one of your ships, or throw it overboard.",
     {"de": ["Warenpaket", "Schiffe", "wirf es ab"], "nl": ["pakket", "schepen", "overboord"]}),
    ("Round %(round)s scored. Money: %(money)s.", {"de": ["Runde", "Geld"], "nl": ["Ronde", "Geld"]}),
    ("Tiles left in the bag: %(n)s.", {"de": ["Plättchen", "Beutel"], "nl": ["Tegels", "buidel"]}),
    ("Markers: %(player)s +%(pay)s.", {"de": ["Markierungssteine"], "nl": ["Markeerstenen"]}),
    ("THE HARBOURS", {"de": ["HÄFEN"], "nl": ["HAVENS"]}),
]
