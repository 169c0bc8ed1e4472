"""Medina as the cross-game tests meet it (tests/rooms/__init__.py says what a room is)."""

from __future__ import annotations

import random
from typing import Any

from test_pictures import fill_of, pieces, texts, token_of

PLAYERS = ("anna", "ben", "cleo")
TABLES: list[tuple[int, dict[str, Any]]] = [(3, {}), (4, {})]

EXAMPLE_ORDER = "palace orange C7"
ILLEGAL = "wall N99"
STANDING: list[dict[str, Any]] = []  # Medina takes orders ahead, but no standing orders
AHEAD: list[Any] = ["stable A1"]
BOARD_ENGLISH = ["the start of the market street", "current player", "Palaces", "points", "claimed", "stables",
                 "merchants", "walls", "roofs", "the owner", "a merchant"]
SOURCES = ["templates/medina", "pbem/rules/medina"]
LISTED = "Medina, 3-4 players (no options)"

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["pass", "start A1", "start D4", "palace grey A1", "palace black C3", "stable A1", "merchant B2",
                    "wall N1", "wall N5", "wall Q9", "roof grey C3", "palace grey Z9"]
RANDOM_DECISIONS = 120

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "width-medina-3", 3), (4, {}, "width-medina-4", 4)]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "width-long-medina", 11)]

#: the pictures of whole bot games: (count, options, seed, every how many orders a picture is drawn), for
#: what they show and for what they keep from their viewer
PICTURE_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "pic-medina-3", 3), (4, {}, "pic-medina-4", 4)]
SECRET_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "pic-secret-medina", 6)]
SEAT_LEGEND = True  # its picture names each seat beside its colour and number

#: orders as a player may write them, and as they are read: (kind, sent, read)
READINGS: list[tuple[str, Any, Any]] = [
    ("orders", "Palace orange g6", "palace orange G6"), ("orders", "palace Orange G6", "palace orange G6"),
    ("orders", "START e5", "start E5"), ("orders", "Wall n5", "wall N5"),
    ("orders", "palace pink g6", "palace pink g6")]  # no colour of the game: left as sent


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """None: Medina has no standing orders."""
    return []


HIDES = False  # Medina hides nothing but the seed
PRIVATE_EVENTS = False
MID_GAME = 12  # orders the bots play to its middle (a private event by then, where it has them)
RANDOM_START = False  # its city starts empty whatever the seed


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold: its seed and the tokens alone."""
    import helpers

    class MedinaSecrets(helpers.Secrets):
        def runs(self) -> list[list[str]]:
            return []

    return MedinaSecrets(state["seed"], tokens, False)


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine as it is: nothing in it is hidden."""
    return state["engine"]



def HIDDEN_VARIANTS(state: dict[str, Any], salt: str) -> Any:  # noqa: N802 - a room's constant
    """(what, the state with it changed, the players who may not notice): nothing is hidden but the seed
    (the supplies and the city are open)."""
    yield "the seed", dict(state, seed=state["seed"] + "-something-else"), {p["name"] for p in state["players"]}


#: its mails on a phone: the games whose every text is read as HTML (count, options, seed); the report
#: whose shape is checked (count, options, seed, orders played, the least of each HTML element); the
#: reports opened in a phone-sized browser (count, options, seed, orders played)
PHONE_TABLES: list[tuple[int, dict[str, str], str]] = [(4, {}, "phone-medina-4")]
PHONE_SHAPE: tuple[int, dict[str, str], str, int, dict[str, int]] = (3, {}, "phone-shape-medina", 30, {"code": 3})
PHONE_SHOTS: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "phone-shot-medina", 34)]


def PHONE_TEXT_CHECK(text: str) -> None:  # noqa: N802 - a room's constant
    """Its city is a grid for a phone: letters, walls, eleven rows; the row labels once."""
    from pbem.mail.phone import blocks

    grid = [b for b in blocks(text) if b.kind == "grid"][0].items
    assert len(grid) == 14 and {len(r) for r in grid} == {19}

# -- what its board picture must show: the view's pieces, where the view has them ----------------------

MEDINA_KIND = {"g": ("palace", "grey"), "k": ("palace", "black"), "b": ("palace", "brown"),
               "o": ("palace", "orange"), "s": ("stable", None), "m": ("merchant", None)}


def PICTURE_CHECK(root: Any, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:  # noqa: N802 - a room's constant
    """Its board picture `root` shows the view's pieces where the view has them; how many were compared."""
    grid = view["grid"]
    by_number = {str(s["n"]): s for s in seat.values()}
    cells = {el.get("data-cell"): el for el in pieces(root, "piece") + pieces(root, "square")}
    walls = {el.get("data-wall") for el in pieces(root, "wall")}
    spaces = {el.get("data-wall-space") for el in pieces(root, "wall-space")}
    towers = {el.get("data-tower") for el in pieces(root, "tower")}
    rows, cols = len(grid), len(grid[0])
    n = 0
    expect_walls = set()
    for r, row in enumerate(grid):
        for c, code in enumerate(row):
            if code.startswith("T"):
                assert code[1] in towers
                continue
            if r in (0, rows - 1) or c in (0, cols - 1):
                side = "N" if r == 0 else "S" if r == rows - 1 else "W" if c == 0 else "E"
                name = f"{side}{c if side in 'NS' else r}"
                assert (name in walls) == (code == "##") and (name in spaces) == (code == "::"), name
                expect_walls.add(name)
                continue
            square = f"{view['letters'][c - 1]}{r}"
            el = cells.pop(square)
            if code == "..":
                assert el.get("data-kind") == "empty"
                continue
            n += 1
            kind, colour = MEDINA_KIND[code[0].lower()]
            assert el.get("data-kind") == kind, (square, code)
            if kind == "merchant":
                assert el.get("data-current") == ("yes" if code == "MM" else "no")
                continue
            assert el.get("data-colour") == colour
            owner = by_number.get(code[1])
            assert el.get("data-player") == (owner["name"] if owner else "")
            bands = [b for b in el.iter() if b.get("class") == "owner"]
            assert [b.get("fill") for b in bands] == ([owner["colour"]] if owner else [])
            if owner:
                assert texts(el) == [str(owner["n"])]
    assert not cells, f"pieces off the board: {sorted(cells)}"
    assert walls | spaces == expect_walls and len(towers) == 4
    roofs = {el.get("data-cell"): el for el in pieces(root, "roof")}
    owned = [x for x in view["palaces"] if x["owner"]]
    assert set(roofs) == {x["at"] for x in owned}
    for x in owned:
        el = roofs[x["at"]]
        assert (el.get("data-player"), el.get("data-colour"), el.get("data-size")) == (x["owner"], x["colour"], str(x["size"]))
        assert fill_of(el) == seat[x["owner"]]["colour"] and texts(el) == [str(seat[x["owner"]]["n"])]
    for p in view["players"]:
        (el,) = [e for e in pieces(root, "supply") if e.get("data-player") == p["name"]]
        assert el.get("data-score") == str(p["score"])
        token_of(el, seat[p["name"]])
    return n + len(roofs)

# -- in German and Dutch (tests/test_i18n_games.py, tests/test_i18n_mid_game.py) ---------------------

#: English words of its glossary that a German or Dutch text may not show (the words both languages share
#: with English are not here)
ENGLISH = ["palace", "palaces", "stable", "stables", "merchant", "merchants", "market street", "roof",
           "roofs", "tower", "claimed", "placement", "points", "players", "grey", "brown", "black",
           "wall space", "SINCE YOUR LAST REPORT", "THE CITY", "YOUR MOVE", "WAITING FOR", "left:"]
#: glossary terms its reports use, in each language (spot checks)
TERMS = {"de": ["DIE STADT", "DIE SPIELER", "Palastteile", "Händler", "Ställe", "Mauern", "Dächer"],
         "nl": ["DE STAD", "DE SPELERS", "paleisdelen", "kooplieden", "stallen", "muren", "daken"]}

#: games played part-way by random legal orders, their reports read in German and Dutch: (count, seed,
#: orders played, options, what a report of its options says in each language)
PART_GAMES: list[tuple[int, str, int, dict[str, str] | None, dict[str, str] | None]] = [
    (3, "i18n-medina", 37, None, None), (4, "i18n-medina-4", 300, None, None)]

#: an event of each kind (and shape) its events template writes
EVENTS: list[dict[str, Any]] = [
    {"type": "start_player", "player": "anna"}, {"type": "place", "player": "anna", "order": "palace grey C7"},
    {"type": "found", "player": "anna", "colour": "brown", "at": "C7"},
    {"type": "new_street", "player": "anna", "at": "P11"},
    {"type": "tower_bonus", "tower": 2, "player": "anna", "wall": "N5", "from": "ben"},
    {"type": "tower_bonus", "tower": 2, "player": "anna", "wall": "N5", "from": None},
    {"type": "palace_bonus", "colour": "grey", "player": "anna", "at": "C7", "size": 5},
    {"type": "return", "colour": "grey", "counts": {"anna": 2, "ben": 0}, "why": "every player has claimed one"},
    {"type": "return", "colour": "black", "counts": {"anna": 1}, "why": "no piece fits any more"},
    {"type": "return_roofs", "player": "anna", "count": 1}, {"type": "return_roofs", "player": "anna", "count": 2},
    {"type": "skip", "player": "anna", "left": {"grey palace": 2, "stable": 1, "merchant": 3, "wall": 1, "roof": 2}},
    {"type": "game_end", "standings": [{"rank": 1, "player": "anna", "score": 40}]},
]

#: the words of its orders that its order words must give in German and Dutch
ORDER_WORDS = {"start", "palace", "stable", "merchant", "wall", "roof", "grey", "black", "brown", "orange",
               "N", "S", "W", "E"}
#: orders as written, which read back as written from each language's words; and the order words German
#: and Dutch spell as English (an order that begins with one may read as sent)
SPELT_ORDERS = ["palace grey C7", "stable D7", "merchant E5", "wall N5", "wall E11", "roof orange E4", "start O5"]
ALIKE = ("start",)
