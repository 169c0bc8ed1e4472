"""Florenz (and its solo game) as the cross-game tests meet it (tests/rooms/__init__.py says what a room is)."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from test_florenz_report import SAMPLES
from test_florenz_schemas import VALID_DECKS
from test_pictures import fill_of, pieces, texts

from pbem.pictures import FAMILY_COLOURS

PLAYERS = ("anna", "ben", "cleo")
TABLES: list[tuple[int, dict[str, Any]]] = [(3, {}), (1, {"solo": "harder"})]

#: order words this game says of its own act, another game's table holding them too (why)
OWN_WORDS = {"discard": "a card laid on its discard pile: nl `afleggen` (docs/glossary/florenz.md)"}
#: messages its catalog words otherwise than another domain's (why)
OWN_MESSAGES = {"nobody": "who is still to be asked, in German's nominative (`noch zu fragen: niemand`), where "
                          "pbem says whom the game waits for (`wartet auf niemanden`)"}

EXAMPLE_ORDER = "send 4"
ILLEGAL = "promote 5.1"
STANDING: list[dict[str, Any]] = [{"giovanni": "accept"}, {"bonus": "vp"}]
AHEAD: list[Any] = ["accept", "bonus vp"]
DECKS: list[dict[str, Any]] = copy.deepcopy(list(VALID_DECKS.values()))
BOARD_ENGLISH = ["round", "setting up", "The disc", "sectors in sight", "to", "reached", "time", "time gained",
                 "The families", "scandal card", "scandal cards", "plan card", "VP", "spy", "doorman", "carriage",
                 "target", "cups"]
SOURCES = ["templates/florenz", "pbem/rules/florenz"]
LISTED = "Florenz, 1-5 players (solo: normal|easier|harder)"

#: orders its rules refuse at one time or another, and how many decisions a random game of it plays
WRONG: list[Any] = ["pass", "done", "decline", "pass 3", "promote 1.1", "promote 6.3", "send 4", "move 1.1 to 2",
                    "move 6.1 to 9", "hurry 1.1 to 2", "boast 3", "gift Cosimo", "play x", "play 1", "discard 9",
                    "swap 1.1 2.1", "travel 1.1 to 2", "colour red", "bonus vp", "junk"]
RANDOM_DECISIONS = 150

#: every player count and option for the reports' width: (count, options, seed, every how many orders a
#: report is rendered); and the tables played with the longest names
ALL_TABLES: list[tuple[int, dict[str, str], str, int]] = [
    *[(n, {}, f"width-florenz-{n}", 2 if n < 5 else 3) for n in (2, 3, 4, 5)],
    (1, {"solo": "normal"}, "width-solo-normal", 1), (1, {"solo": "harder"}, "width-solo-harder", 1)]
LONG_TABLES: list[tuple[int, dict[str, str], str, int]] = [(4, {}, "width-long-florenz", 11),
                                                           (1, {"solo": "normal"}, "width-long-solo", 5)]

#: the pictures of whole bot games: (count, options, seed, every how many orders a picture is drawn), for
#: what they show and for what they keep from their viewer
PICTURE_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "pic-florenz-3", 5), (5, {}, "pic-florenz-5", 9),
                                                              (1, {"solo": "normal"}, "pic-solo", 3)]
SECRET_TABLES: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "pic-secret-florenz", 11),
                                                             (1, {"solo": "harder"}, "pic-secret-solo", 7)]
SEAT_LEGEND = False  # its legend is of the families, with their keys (PICTURE_CHECK reads it)

#: orders and standing orders as a player may write them, and as they are read: (kind, sent, read)
READINGS: list[tuple[str, Any, Any]] = [
    ("orders", "send 4", "send 4"), ("orders", "place 3", "place 3"),  # orders that are words fit as sent
    ("orders", "Send 4", "send 4"), ("orders", "Play Figliolo-Travel 6.3 To 5 TO 4", "play figliolo-travel 6.3 to 5 to 4"),
    ("orders", "Colour Orange", "colour orange"), ("standing", {"Giovanni": "Accept"}, {"giovanni": "accept"}),
    ("standing", {"BONUS": "VP"}, {"bonus": "vp"})]


def STANDING_CHOICES(rnd: random.Random) -> list[dict[str, Any]]:  # noqa: N802 - a room's constant
    """Some standing orders a family might give now."""
    pool = [{"giovanni": rnd.choice(["accept", "decline"])}, {"bonus": rnd.choice(["time", "vp"])}]
    return rnd.sample(pool, rnd.randint(0, len(pool)))


HIDES = True  # the plan cards and the scandal deck
PRIVATE_EVENTS = True  # a plan card dealt or a scandal card drawn is told to its family alone
MID_GAME = 12  # orders the bots play to its middle (a private event by then, where it has them)
RANDOM_START = True  # its start depends on the seed: the plan cards and destinations are dealt


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Any:  # noqa: N802 - a room's constant
    """The secrets of `state` no text for the whole table may hold."""
    from test_florenz_secrets import Secrets

    return Secrets(state["seed"], tokens, state["engine"], False)


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:  # noqa: N802 - a room's constant
    """`state`'s engine with its hidden parts changed (the k-th way; the seed stays)."""
    from test_florenz_secrets import variants

    others = [other for what, other, _ in variants(state, f"archive-{k}") if what != "the seed"]
    return others[k % len(others)]["engine"] if others else state["engine"]



def HIDDEN_VARIANTS(state: dict[str, Any], salt: str) -> Any:  # noqa: N802 - a room's constant
    """(what, the state with it changed, the players who may not notice): the text reports' own list of
    Florenz's secrets."""
    from test_florenz_secrets import variants

    return variants(state, salt)


#: its mails on a phone: the games whose every text is read as HTML (count, options, seed); the report
#: whose shape is checked (count, options, seed, orders played, the least of each HTML element); the
#: reports opened in a phone-sized browser (count, options, seed, orders played)
PHONE_TABLES: list[tuple[int, dict[str, str], str]] = [(3, {}, "phone-florenz-3"), (5, {}, "phone-florenz-5"),
                                                       (1, {"solo": "harder"}, "phone-solo")]
PHONE_SHAPE: tuple[int, dict[str, str], str, int, dict[str, int]] = (3, {}, "phone-shape-florenz", 40,
                                                                     {"table": 4, "code": 3})
PHONE_SHOTS: list[tuple[int, dict[str, str], str, int]] = [(3, {}, "phone-shot-florenz", 46),
                                                           (1, {"solo": "normal"}, "phone-shot-solo", 24)]


def PHONE_TEXT_CHECK(text: str) -> None:  # noqa: N802 - a room's constant
    """Its board in text is nine boxes for a phone."""
    from pbem.mail.phone import blocks

    assert sum(len(row) for b in blocks(text) if b.kind == "boxes" for row in b.items) == 9

# -- what its board picture must show: the view's pieces, where the view has them ----------------------

def PICTURE_CHECK(root: Any, view: dict[str, Any], seat: dict[str, dict[str, Any]]) -> int:  # noqa: N802 - a room's constant
    """Its board picture `root` shows the view's pieces where the view has them; how many were compared."""
    fams = view["families"]
    key = {f: ("S" if view["solo"] and f != view["players"][0] else str(i + 1)) for i, f in enumerate(fams)}
    legend = {el.get("data-player"): el for el in pieces(root, "legend-seat")}
    assert set(legend) == set(fams)
    for f in fams:
        assert f in texts(legend[f])[-1] and texts(legend[f])[0] == key[f]
    all_pieces = pieces(root, "piece")
    n = 0
    for loc, queue in view["queues"].items():
        here = sorted((el for el in all_pieces if el.get("data-location") == loc), key=lambda el: int(el.get("data-place")))
        assert [(el.get("data-family"), el.get("data-rank"), el.get("data-colour")) for el in here] == \
            [(p["family"], p["rank"], p["colour"]) for p in queue], loc
        assert [el.get("data-place") for el in here] == [str(i + 1) for i in range(len(queue))]
        for el, p in zip(here, queue):
            assert fill_of(el) == FAMILY_COLOURS[p["colour"]]
            assert texts(el) == [key[p["family"]] + p["rank"][0].upper()]
        blocked = [el for el in pieces(root, "blocked") if el.get("data-location") == loc]
        assert len(blocked) == 7 - view["open_slots"][loc]
        n += len(queue)
        tile = view["boast"][loc]
        cups = {el.get("data-slot"): el for el in pieces(root, "cup") if el.get("data-location") == loc}
        assert {s: (el.get("data-family"), el.get("data-colour")) for s, el in cups.items()} == \
            {s: (c["family"], c["colour"]) for s, c in tile.items() if s != "tile" and c}
        (where,) = [el for el in pieces(root, "location") if el.get("data-location") == loc]
        assert where.get("data-tile") == tile["tile"]
    guards = Counter((el.get("data-kind"), el.get("data-where"), el.get("data-family"), el.get("data-colour"))
                     for el in pieces(root, "guard"))
    assert guards == Counter((kind, where, g["family"], g["colour"]) for kind, places in view["guards"].items()
                             for where, gs in places.items() for g in gs)
    for el in pieces(root, "guard"):
        assert fill_of(el) == FAMILY_COLOURS[el.get("data-colour")]
    n += sum(guards.values())
    for what, table in (("carriage", view["carriages"]), ("target", view.get("targets", {}))):
        assert {el.get("data-medici"): el.get("data-where") for el in pieces(root, what)} == \
            {m: at for m, at in table.items() if at}
    assert {el.get("data-family"): el.get("data-where") for el in pieces(root, "ring")} == dict(view.get("rings", {}))
    sectors = {el.get("data-round"): el for el in pieces(root, "sector")}
    for r, el in sectors.items():
        sector = view["sectors"].get(r)
        assert el.get("data-seen") == ("yes" if sector is not None else "no")
        if sector is not None:
            assert el.get("data-location") == (sector["location"] or "") and \
                el.get("data-time") == ("" if sector["time"] is None else str(sector["time"]))
    hands = view["scandal"]["hand"]
    for el in pieces(root, "family"):
        f = el.get("data-player")
        held = hands.get(f, [])
        assert el.get("data-cards") == str(sum(held.values()) if isinstance(held, dict) else len(held))
        assert el.get("data-vp") == str(view["vp"].get(f, 0)) and el.get("data-time") == str(view["time"].get(f, 0))
        plan = view.get("plan_cards", {}).get(f)
        assert el.get("data-plan") == (None if plan is None else str(plan))
    return n

# -- in German and Dutch (tests/test_i18n_games.py, tests/test_i18n_mid_game.py) ---------------------

#: English words of its glossary that a German or Dutch text may not show (the words both languages share
#: with English are not here: Maestro, Bonus, Spion, orange...)
ENGLISH = ["queue", "petitioner", "petitioners", "debutants", "ladies", "boast", "boasts", "scandal",
           "carriage", "escort", "escorts", "doorman", "crest", "gift", "gifts", "round", "location",
           "locations", "target", "time", "plan card", "start coin", "passes", "family", "deck", "discards",
           "travel", "THE BOARD", "THE DISC", "THE FAMILIES", "YOUR MOVE", "SINCE YOUR LAST REPORT",
           "WAITING FOR", "Strozzi's", "celebrates",
           # the board and the tables the view writes
           "cups", "blocked", "carriage", "spy", "doorman", "member", "members", "per", "now:", "offers",
           "strongest", "scored", "nobody", "ring on", "no ring", "first", "lady", "guard", "gift",
           "gifts given", "cards held", "on the map", "queue VP", "every petitioner", "taken", "VP", "time",
           "not together", "in either order", "above", "spend", "scores at"]
#: glossary terms its reports use, in each language (spot checks)
TERMS = {"de": ["DER SPIELPLAN", "Warteschlange", "Bittsteller", "Prahltafeln", "Kutsche", "SKANDALKARTEN",
                "MEDICI-SCHEIBE", "Startmünze", "Eskorten"],
         "nl": ["HET SPEELBORD", "wachtrij", "verzoekers", "Opscheptegels", "koets", "SCHANDAALKAARTEN",
                "MEDICI-SCHIJF", "startmunt", "Escortes"]}

#: what a report of the solo game says of Strozzi, in each language
SOLO_TERMS = {"de": "Strozzis orange und blaue Figuren", "nl": "de oranje en blauwe stukken van Strozzi"}
#: games played part-way by random legal orders, their reports read in German and Dutch: (count, seed,
#: orders played, options, what a report of its options says in each language)
PART_GAMES: list[tuple[int, str, int, dict[str, str] | None, dict[str, str] | None]] = [
    (3, "i18n-florenz", 60, None, None), (5, "i18n-florenz-5", 140, None, None),
    (1, "i18n-solo", 45, {"solo": "normal"}, SOLO_TERMS), (1, "i18n-solo-h", 500, {"solo": "harder"}, SOLO_TERMS)]


#: an event of each kind its events template writes (tests/test_florenz_report.py's samples)
EVENTS: list[dict[str, Any]] = [{"type": kind, **fields} for kind, fields in SAMPLES.items()]

#: the words of its orders that its order words must give in German and Dutch
ORDER_WORDS = {"place", "send", "promote", "move", "to", "and", "hurry", "boast", "gift", "play", "with",
               "pass", "bonus", "time", "vp", "swap", "accept", "decline", "discard", "colour", "orange",
               "blue", "travel", "done", "escort", "spy", "doorman"}
#: orders as written, which read back as written from each language's words; and the order words German
#: and Dutch spell as English (an order that begins with one may read as sent)
SPELT_ORDERS = ["place 6", "send 4", "promote 6.3", "move 1.1 to 2", "hurry 2.1 to 3 to 6",
                "hurry 2.1 to 3 and 5.2 to 4", "boast 5", "gift cosimo escort 4-5", "gift giovanni doorman 3",
                "gift contessina spy 7", "play messere-swap 6.2 with 6.4", "play figliolo-travel 6.3 to 5 to 4",
                "travel 2.1 to 3", "done", "pass 6", "pass", "bonus time", "bonus vp", "swap 6.2 with 6.3",
                "accept", "decline", "discard carissima-advance", "colour orange", "colour blue"]
ALIKE = ("bonus", "pass")
