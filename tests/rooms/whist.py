"""Whist's room: the data the cross-game tests need of it (tests/rooms/__init__.py says what each is)."""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

from helpers import Secrets

from pbem.rng import Rng

PLAYERS = ("anna", "ben", "cleo", "dora")
TABLES = [(3, {}), (4, {}), (3, {"hand": "7"}), (4, {"hand": "3"})]

EXAMPLE_ORDER = "play: QH"


def ILLEGAL(view: dict[str, Any]) -> str:  # noqa: N802 - a room's constant
    """The card turned up for trump: in nobody's hand, so the rules refuse it to whoever leads."""
    return f"play: {view['trump_card']}"

STANDING: list[dict[str, Any]] = []
#: any card: the rules take it if it is in his hand and follows suit when his turn comes
AHEAD = [{"play": rank + suit} for suit in "CDHS" for rank in ("7", "8", "9", "10", "J", "Q", "K", "A")]
DECKS = [
    {"deals": [["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "AH", "KH", "QH", "JH", "10H", "9H", "8H", "7D"]]},
    {"deals": [["7C", "8C", "9C"], [], ["AD"]]},
]
BOARD_ENGLISH = ["Trump", "On the table", "Last trick", "Your hand", "tricks", "points"]
SOURCES = ["tests/whist/__init__.py", "tests/whist/bot.py", "tests/whist/refusals.py",
           *(f"tests/whist/templates/{name}" for name in ("board-phone.svg.j2", "board.svg.j2", "events.j2",
                                                          "parts.svg.j2", "report.txt.j2", "rules.txt.j2"))]
LISTED = "Whist, 3-4 players (hand: 5|7|3)"
WRONG = [{"play": "QX"}, {"play": 7}, {"deal": "QH"}, "pass", {"play": "AS"}, {"play": "7C"}, {"play": "10D"}]
RANDOM_DECISIONS = 40
ALL_TABLES = [(3, {}, "Whist-all-3-5", 1), (4, {}, "Whist-all-4-5", 2), (3, {"hand": "7"}, "Whist-all-3-7", 3),
              (4, {"hand": "7"}, "Whist-all-4-7", 3), (3, {"hand": "3"}, "Whist-all-3-3", 1),
              (4, {"hand": "3"}, "Whist-all-4-3", 1)]
LONG_TABLES = [(4, {"hand": "3"}, "Whist-long-4-3", 1)]
READINGS = [("orders", "play qh", {"play": "QH"}), ("orders", "Play: 10s", {"play": "10S"}),
            ("orders", {"spielen": "ad"}, {"play": "AD"}), ("orders", "speel 7c", {"play": "7C"})]
PICTURE_TABLES = [(3, {}, "Whist-picture-3", 2), (4, {"hand": "3"}, "Whist-picture-4", 1)]
SECRET_TABLES = [(3, {}, "Whist-secret-3", 2), (4, {"hand": "3"}, "Whist-secret-4", 1)]
SEAT_LEGEND = True
PHONE_TABLES = [(3, {"hand": "3"}, "Whist-phone-3")]
PHONE_SHAPE = (4, {}, "Whist-phone-shape", 6, {"h2": 4, "code": 1})
PHONE_SHOTS = [(4, {"hand": "7"}, "Whist-phone-shot", 9)]
MID_GAME = 20
HIDES = True
RANDOM_START = True
PRIVATE_EVENTS = True


def STANDING_CHOICES(pick: random.Random) -> list[dict[str, Any]]:
    """Whist takes no standing orders."""
    return []


def PICTURE_CHECK(root: ET.Element, view: dict[str, Any], seat: dict[str, Any]) -> int:
    """The trump card, the trick, the last trick, the viewer's hand and each seat's counts, as the view has
    them; how many were compared."""
    drawn: dict[str, list[str]] = {}
    for el in root.iter():
        if el.get("class") == "card":
            drawn.setdefault(el.get("data-where", ""), []).append(el.get("data-card", ""))
    assert drawn.get("trump") == [view["trump_card"]]
    assert drawn.get("table", []) == [c for _p, c in view["trick"]]
    assert drawn.get("last", []) == ([c for _p, c in view["last_trick"]["cards"]] if view["last_trick"] else [])
    assert drawn.get("hand", []) == view.get("hand", [])
    compared = sum(len(v) for v in drawn.values())
    for el in root.iter():
        if el.get("class") == "score":
            p = el.get("data-player", "")
            assert p in seat
            assert (el.get("data-held"), el.get("data-tricks"), el.get("data-points")) == \
                (str(view["held"][p]), str(view["tricks"][p]), str(view["points"][p]))
            compared += 3
    return compared


def _hidden_moved(engine: dict[str, Any], salt: str, keep: set[str]) -> dict[str, Any]:
    """`engine` with the cards under the turned one, and the hands of all but `keep`, dealt anew among
    themselves (each hand keeps its size)."""
    other = copy.deepcopy(engine)
    blind = [p for p in engine["players"] if p not in keep]
    pool = list(engine["stock"]) + [c for p in blind for c in engine["hands"][p]]
    moved = list(pool)
    Rng(f"whist-hidden-{salt}").shuffle(moved, "hidden")
    if moved == pool and len(pool) > 1:
        moved = moved[1:] + moved[:1]
    other["stock"] = moved[:len(engine["stock"])]
    at = len(engine["stock"])
    for p in blind:
        other["hands"][p] = moved[at:at + len(engine["hands"][p])]
        at += len(engine["hands"][p])
    return other


def HIDDEN_VARIANTS(state: dict[str, Any], salt: str) -> Iterator[tuple[str, dict[str, Any], set[str]]]:
    """The deck under the turned card dealt anew (nobody notices), the hands of all but one player with it
    (he alone does not notice), and another seed."""
    engine = state["engine"]
    everyone = set(engine["players"])
    yield "the deck", dict(state, engine=_hidden_moved(engine, salt, everyone)), everyone
    for p in engine["players"]:
        yield f"the hands but {p}'s", dict(state, engine=_hidden_moved(engine, f"{salt}-{p}", {p})), {p}
    yield "the seed", dict(state, seed=state["seed"] + "-something-else"), everyone


def PERTURBED(state: dict[str, Any], k: int) -> dict[str, Any]:
    """The state's engine with the hands and the deck under the turned card dealt anew (the k-th way):
    what every player sees stays the same."""
    return _hidden_moved(state["engine"], str(k), set())


class WhistSecrets(Secrets):
    """The hands and the cards under the turned one: no text for the whole table shows them, as the view
    lists them or as a report writes them (one space between cards)."""

    hidden = "hidden hands or deck"

    def __init__(self, state: dict[str, Any], tokens: dict[str, str]) -> None:
        super().__init__(state["seed"], tokens, state["status"] == "finished")
        engine = state["engine"]
        self.sequences = [list(engine["stock"])] + [list(h) for h in engine["hands"].values()]

    def runs(self) -> list[list[str]]:
        return [run for run in self.sequences if len(run) >= 2]

    def check_text(self, text: str, player: str, what: str) -> None:
        super().check_text(text, player, what)
        for run in self.runs():
            assert " ".join(run) not in text, f"{what}: {self.hidden} {run} show"


def SECRETS(state: dict[str, Any], tokens: dict[str, str]) -> Secrets:
    """What no text for the whole table may hold of `state`."""
    return WhistSecrets(state, tokens)
