"""Florenz reports: the templates in templates/florenz/ and the display data of pbem/rules/florenz/view.py.

Whole games with random legal orders (2-5 families) render a report for every player and the GM after
every order: every event has its own sentence (never the fallback), the board shows every petitioner
with its `L.N`, no line is wider than 72 columns; a player's report shows none of another's secrets;
the end reveals the plan cards; the CLI prints reports and the GM view.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import Table

from pbem.game import apply_orders, new_game, show, waiting_for
from pbem.report import event_lines, render_report
from pbem.rng import Rng
from pbem.rules.florenz.view import RANK_SHORT, display
from pbem.store import GamesDir

NAMES = ["anna", "ben", "cleo", "dora", "emil"]
WIDTH = 72

#: every event type the engine emits (grep '"type":' pbem/rules/florenz/*.py), with a sample of its fields
SAMPLES: dict[str, dict[str, Any]] = {
    "setup": {"start_family": "ben", "carriages": {"cosimo": "1", "contessina": "7", "giovanni": "4"},
              "targets": {"cosimo": "6", "contessina": "8", "giovanni": "9"}},
    "plan_card": {"family": "anna", "card": 3, "to": ["anna"]},
    "place": {"family": "anna", "location": "6"},
    "round": {"round": 2, "medici": "contessina", "time": 5},
    "pass": {"family": "anna", "ring": "6"},
    "first_pass": {"family": "anna", "time": 2},
    "bonus": {"family": "anna", "bonus": "vp"},
    "swap": {"family": "anna", "location": "6", "positions": [2, 3]},
    "send": {"family": "anna", "location": "4"},
    "promote": {"family": "anna", "location": "6", "to": "lady"},
    "move": {"family": "anna", "paths": ["4-5"], "walks": [["4", "5"]]},
    "hurry": {"family": "anna", "paths": ["2-3", "3-6"], "walks": [["2", "3", "6"]]},
    "escort_time": {"family": "anna", "path": "4-5"},
    "escort_vp": {"family": "ben", "path": "4-5", "mover": "anna", "vp": 2},
    "boast": {"family": "anna", "location": "5", "tile": "loud", "vp": 9, "slot": "middle"},
    "gift": {"family": "anna", "medici": "cosimo", "crest": "escort 4-5"},
    "discard": {"family": "anna", "card": "messere-cup"},
    "play": {"family": "anna", "card": "messere-swap", "order": "messere-swap 6.2 with 6.4", "time": -2},
    "travel": {"family": "anna", "paths": ["2-3", "3-6"], "walks": [["2", "3", "6"]]},
    "travel_done": {"family": "anna"},
    "medici_move": {"medici": "cosimo", "route": ["5", "2", "3", "6"]},
    "head_vp": {"family": "anna", "location": "5", "vp": 1},
    "head_snubbed": {"family": "anna", "location": "5", "medici": "contessina"},
    "draw": {"family": "anna", "deck": "messere", "why": "spy 5"},
    "draw_card": {"family": "anna", "card": "messere-cup", "to": ["anna"]},
    "hand_full": {"family": "anna", "deck": "messere"},
    "reshuffle": {"deck": "messere"},
    "deck_empty": {"deck": "messere", "family": "anna"},
    "queue_vp": {"family": "anna", "location": "6", "vp": 15},
    "giovanni_skip": {"family": "anna", "offer": 1},
    "giovanni_accept": {"family": "anna", "time": 4, "vp": 20},
    "giovanni_decline": {"family": "anna"},
    "clean_up": {"round": 3, "start_family": "ben", "gifts": 2},
    "final_score": {"family": "anna", "time_vp": 4, "plan_card": 3, "plan_vp": 20},
    "game_end": {"standings": [{"player": "anna", "score": 80, "rank": 1}, {"player": "ben", "score": 70, "rank": 2}]},
    "strozzi_guard": {"crest": "escort 4-5"},
    "strozzi_place": {"location": "6", "rank": "debutant", "colour": "orange"},
    "strozzi_recall": {"colour": "blue", "pieces": 2},
    "strozzi_nothing": {"card": "place", "why": "no queue has a free slot"},
    "strozzi_promote": {"location": "6", "to": "lady", "colour": "blue"},
    "strozzi_boast": {"location": "2", "slot": "low", "vp": 6, "colour": "orange"},
    "strozzi_vp": {"vp": 1, "why": "passed"},
    "strozzi_pass": {"ring": "6", "last": False},
    "strozzi_time": {"time": 2, "why": "first to pass"},
    "strozzi_card": {"card": 3, "action": "place", "time": 3, "letter": "B", "medici": "contessina",
                     "colour": "orange"},
    "strozzi_party": {"spent": 4},
    "strozzi_colour": {"colour": "blue", "family": "anna"},
    "strozzi_swap": {"location": "6", "positions": [2, 3]},
    "strozzi_card_discarded": {"card": "messere-cup", "time": 1, "why": "spy 5"},
    "strozzi_reshuffle": {"cards": 10},
}
#: the types every whole game shows (the others depend on luck: empty decks, full hands, ...)
EVERY_GAME = {"setup", "plan_card", "place", "round", "pass", "medici_move", "clean_up", "final_score", "game_end"}


def fallback(e: dict[str, Any]) -> str:
    """How the events macro begins a line for a type it does not know."""
    return f"[{e['type'].replace('_', ' ')}]"


def line_of(e: dict[str, Any]) -> str:
    return event_lines("florenz", [e])[0]


# -- playing games ------------------------------------------------------------------------------------

def choose(r: random.Random, legal: list[str]) -> str:
    """A random legal order, biased towards doing something (cards, actions) over passing."""
    plays = [o for o in legal if o.startswith("play")]
    active = [o for o in legal if not o.startswith(("pass", "discard"))]
    if plays and r.random() < 0.4:
        return r.choice(plays)
    if active and r.random() < 0.8:
        return r.choice(active)
    return r.choice(legal)


def new(tmp_path: Path, n: int, seed: str, game: str = "g1") -> dict[str, Any]:
    gd = GamesDir(tmp_path / "games")
    state, _ = new_game(gd, "florenz", game, [(p, f"{p}@example.org") for p in NAMES[:n]], {}, seed)
    return state


def check_report(text: str, state: dict[str, Any], player: str | None) -> None:
    """Widths, the board's petitioners, no fallback line, and the decision part."""
    for line in text.splitlines():
        assert len(line) <= WIDTH, f"{len(line)} columns: {line!r}"
    view = state["engine"]
    for loc, queue in view["queues"].items():
        for n, p in enumerate(queue, 1):
            pattern = rf"^  \|.*[ *]{loc}\.{n} {re.escape(p['family'][:9])}\S* +{RANK_SHORT[p['rank']]}\b"
            assert re.search(pattern, text, re.MULTILINE), f"{loc}.{n} {p} not on the board:\n{text}"
    assert "[" + "setup]" not in text
    if state["status"] == "finished":
        assert "FINAL STANDINGS" in text and f"The seed was: {state['seed']}" in text
    elif player is not None and player in waiting_for(state):  # the move first, the seed's hash last
        assert text.startswith("YOUR MOVE: ") and "----- pbem orders begin -----" in text
        assert text.rstrip().endswith(state["seed_sha256"])
    elif player is not None:
        assert text.startswith(f"Nothing for you to do: waiting for {', '.join(waiting_for(state))}")
        assert text.rstrip().endswith(state["seed_sha256"])
    else:
        assert text.startswith("WAITING FOR ")


def play_game(tmp_path: Path, n: int, seed: str, every: int = 1) -> tuple[dict[str, Any], set[str]]:
    """A whole game; every `every` orders each player's report (with the events since his last one) and
    the GM's are rendered and checked. Returns the final state and the event types seen."""
    state = new(tmp_path, n, seed)
    r = random.Random(seed)
    seen_at = {p: 0 for p in NAMES[:n]} | {None: 0}
    types: set[str] = set()
    steps = 0
    while True:
        if steps % every == 0 or state["status"] != "active":
            for p in list(NAMES[:n]) + [None]:
                events = state["events"][seen_at[p]:]
                text = render_report(state, p, events)
                check_report(text, state, p)
                for e in events:
                    if p is None or not isinstance(e.get("to"), list) or p in e["to"]:
                        types.add(e["type"])
                        assert not line_of(e).startswith(fallback(e)), e
                seen_at[p] = len(state["events"])
        if state["status"] != "active":
            break
        p = waiting_for(state)[0]
        legal = show(state, p)["legal_orders"]
        state, _ = apply_orders(state, p, state["engine"]["turn"], [choose(r, legal)])
        steps += 1
        assert steps < 2000
    return state, types


# -- the tests ----------------------------------------------------------------------------------------

def test_every_event_type_has_a_sentence() -> None:
    for kind, fields in SAMPLES.items():
        e = {"type": kind, "turn": 5, **fields}
        line = line_of(e)
        assert line and not line.startswith(fallback(e)), (kind, line)
        assert "None" not in line and "{" not in line and "[" not in line, (kind, line)
        assert len(line) < 200


def test_sentences_say_what_happened() -> None:
    assert line_of({"type": "pass", "family": "anna", "ring": None}) == "anna passes last: the action phase ends."
    assert line_of({"type": "pass", "family": "anna", "ring": "6"}) == "anna passes and puts the ring on 6."
    assert line_of({"type": "gift", "family": "ben", "medici": "giovanni", "crest": None}) == \
        "ben gives Giovanni a gift (no guard placed)."
    assert line_of({"type": "gift", "family": "ben", "medici": "contessina", "crest": "spy 7"}) == \
        "ben gives Contessina a gift and places a spy at 7."
    assert line_of({"type": "draw", "family": "ben", "deck": "figliolo", "why": "boast 3"}) == \
        "ben draws a card from Giovanni's figliolo deck (highest cup at 3)."
    assert line_of({"type": "play", "family": "ben", "card": "messere-retire", "order": "messere-retire 3.2",
                    "time": 3}) == "ben plays messere-retire 3.2 (+3 time)."
    assert line_of({"type": "boast", "family": "ben", "location": "2", "tile": "loud", "vp": 15,
                    "slot": "high"}) == "ben boasts at 2 (loud): 15 VP, cup on the 13+ slot."


def test_the_fallback_prints_type_and_fields() -> None:
    e = {"type": "strozzi_dance", "turn": 9, "family": "Strozzi", "location": "6", "colour": "orange",
         "pieces": ["debutant", "lady"], "to": ["anna"]}
    assert line_of(e) == "[strozzi dance] family: Strozzi; location: 6; colour: orange; pieces: debutant, lady"


@pytest.mark.parametrize("n,seed", [(1, "rep-1"), (2, "rep-2"), (3, "rep-3"), (4, "rep-4"), (5, "rep-5")])
def test_whole_games(tmp_path: Path, n: int, seed: str) -> None:
    _, types = play_game(tmp_path, n, seed, every=1 if n < 4 else 3)
    assert EVERY_GAME <= types
    assert types <= set(SAMPLES), types - set(SAMPLES)


def test_event_types_along_several_games(tmp_path: Path) -> None:
    """Along several games nearly every type turns up, each with its sentence (play_game checks)."""
    seen: set[str] = set()
    for k, (n, seed) in enumerate([(2, "a"), (3, "b"), (4, "c"), (5, "d"), (5, "h")]):
        _, types = play_game(tmp_path / str(k), n, seed, every=25)
        seen |= types
    rare = {"deck_empty", "reshuffle", "hand_full", "giovanni_accept", "travel_done", "giovanni_decline"}
    solo = {kind for kind in SAMPLES if kind.startswith("strozzi_")}
    assert set(SAMPLES) - rare - solo <= seen, set(SAMPLES) - rare - solo - seen


def test_a_report_shows_no_other_familys_secrets(tmp_path: Path) -> None:
    state = new(tmp_path, 3, "secrets")
    eng = state["engine"]
    eng["scandal"]["hand"] = {"anna": ["messere-cup"], "ben": ["figliolo-guard", "carissima-advance"],
                              "cleo": ["messere-boast"]}
    for cards in eng["scandal"]["deck"].values():
        for c in ["messere-cup", "figliolo-guard", "carissima-advance", "messere-boast"]:
            if c in cards:
                cards.remove(c)
    eng["plan_cards"] = {"anna": 1, "ben": 5, "cleo": 3}
    for e in state["events"]:
        if e["type"] == "plan_card":
            e["card"] = eng["plan_cards"][e["family"]]
    text = render_report(state, "anna", state["events"])
    assert "messere-cup" in text and "card 1, locations 1, 2, 4, 5" in text
    for secret in ("figliolo-guard", "carissima-advance", "messere-boast", "card 5", "card 3",
                   "number 5", "number 3"):
        assert secret not in text, secret
    # others' hands as counts per deck: ben holds one carissima and one figliolo card
    assert re.search(r"^  ben +\d+ +\d+ \|.*\| +0 +1 +1$", text, re.MULTILINE), text
    # and other secrets that differ change nothing in anna's report
    other = copy.deepcopy(state)
    other["engine"]["scandal"]["hand"]["ben"] = ["figliolo-teleport", "carissima-swap"]
    other["engine"]["plan_cards"].update(ben=6, cleo=2)
    for e in other["events"]:
        if e["type"] == "plan_card":
            e["card"] = other["engine"]["plan_cards"][e["family"]]
    for deck in other["engine"]["scandal"]["deck"].values():
        deck.reverse()
    other["engine"]["location_stack"].reverse()
    other["engine"]["time_stack"].reverse()
    assert render_report(other, "anna", other["events"]) == text
    # the GM sees them all
    gm = render_report(state, None, state["events"])
    assert "figliolo-guard" in gm and "ben: card 5" in gm and "GM only" in gm


def test_the_end_reveals_every_plan_card(tmp_path: Path) -> None:
    state, _ = play_game(tmp_path, 3, "end", every=1000)
    text = render_report(state, "anna", state["events"][-12:])
    for f, card in state["engine"]["plan_cards"].items():
        assert re.search(rf"^  {f} +card {card} \(locations ", text, re.MULTILINE), text
    assert "PLAN CARDS" in text and "Final scoring, ben:" in text


def test_display_is_plain_json(tmp_path: Path) -> None:
    state = new(tmp_path, 4, "json")
    for p in [None, "anna"]:
        shown = show(state, p)
        assert json.loads(json.dumps(shown["view"]["display"])) == shown["view"]["display"]
        assert display(copy.deepcopy(shown["view"]), p) == shown["view"]["display"]


def test_the_cli_prints_reports(pbem: Any, tmp_path: Path) -> None:
    table = Table(pbem, tmp_path, "fz", ruleset="florenz")
    table.create(("anna", "ben", "cleo"), "cli-seed")
    r = random.Random(1)
    for _ in range(6):
        who = table.waiting()
        legal = table.show(who)["legal_orders"]
        table.play(who, [choose(r, legal)])
    who = table.waiting()
    out = pbem("show", "fz", "--as", who)
    assert out.exit_code == 0, out.output
    assert "THE BOARD" in out.stdout and "YOUR MOVE: " in out.stdout and "YOUR PLAN CARD" in out.stdout
    assert all(len(line) <= WIDTH for line in out.stdout.splitlines())
    gm = pbem("show", "fz")
    assert gm.exit_code == 0, gm.output
    assert "GM view" in gm.stdout and "GM only - location stack, top first" in gm.stdout
    assert "YOUR MOVE" not in gm.stdout


def test_strozzis_colour_question_is_the_players_move() -> None:
    """Card 5 with Strozzi's colours tied: the player's report asks for the colour, not an action."""
    from pbem import bots
    from pbem.rules.florenz import Florenz

    game, rng = Florenz(), Rng("c0")
    state, _ = game.setup(["anna"], {"solo": "normal"}, rng)
    while (d := game.decision(state)) is not None and d.kind != "colour":
        p = d.players[0]
        game.apply(state, p, bots.choose("florenz", game.view(state, p), p, game.legal_orders(state, p)), rng)
    assert d is not None and d.players == ("anna",)
    asked = game.view(state, "anna")["display"]["decision"]
    assert (asked["kind"], asked["family"], asked["title"]) == ("colour", "anna", "Strozzi's colour")
    assert "`colour orange` or `colour blue`" in asked["text"]
