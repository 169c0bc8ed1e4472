"""Florenz, step 2 (FLORENZ-PLAN.md §21): the multi-family engine without scandal-card play.

The round example of the text (p.15, plan §17.1) first, then the examples E1, E2, E10-E15, E17 and
scenarios of §17.3, then whole random-legal-order games with invariants and YAML round trips. The
ruleset is not registered yet, so the tests instantiate `Florenz()` directly.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest
import yaml

from pbem.errors import IllegalOrder, SetupError
from pbem.rng import Rng
from pbem.rules.florenz import Florenz
from pbem.rules.florenz import flow as F
from pbem.rules.florenz.data import LOCATIONS, PATHS
from pbem.store import dump_yaml

GAME = Florenz()
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
RANKS = {"deb": "debutant", "lady": "lady", "mae": "maestro"}


def new_game(players: list[str], deck: dict[str, Any] | None = None, seed: str = "florenz") -> dict[str, Any]:
    state, _ = GAME.setup(players, {}, Rng(seed), deck)
    return state


def play(state: dict[str, Any], player: str, order: str, seed: str = "play") -> list[dict[str, Any]]:
    return GAME.apply(state, player, order, Rng(seed))


def q(*pieces: str) -> list[dict[str, Any]]:
    """A queue from `family:rank` strings, head first."""
    out = []
    for text in pieces:
        family, rank = text.split(":")
        out.append({"family": family, "rank": RANKS[rank], "colour": family})
    return out


def names(queue: list[dict[str, Any]]) -> list[str]:
    short = {v: k for k, v in RANKS.items()}
    return [f"{p['family']}:{short[p['rank']]}" for p in queue]


ROUND_DECK = {
    "start_family": "blue",
    "carriages": {"cosimo": 1, "contessina": 7, "giovanni": 4},
    "destinations": [6, 8, 9, 2, 3, 5, 4, 1, 7],
    "boast_tiles": {5: "ruler-of-the-street"},
    "time_tiles": [5, 7, 2, 9, 3, 8, 4, 6],
    "scandal": {"messere": ["messere-cup"]},
}


# -- the round example (p.15) -------------------------------------------------------------------------

def test_round_example() -> None:
    """p.15 "BEISPIEL FÜR EINE RUNDE": "Blau hat 2 SP ..., Orange hat 14 SP und Violett hat 19 SP"."""
    s = new_game(["blue", "orange", "violet"], ROUND_DECK)
    assert s["targets"] == {"cosimo": "6", "contessina": "8", "giovanni": "9"}
    assert GAME.decision(s).players == ("violet",)
    steps = [
        ("violet", "place 6", None), ("orange", "place 5", None), ("blue", "place 1", None),
        ("blue", "gift cosimo escort 4-5", (10, 12, 12)),
        ("orange", "send 6", (10, 8, 12)),
        ("violet", "send 6", (10, 8, 8)),
        ("blue", "gift cosimo escort 5-6", (7, 8, 8)),
        ("orange", "send 4", (7, 4, 8)),
        ("violet", "promote 6.3", (7, 4, 3)),
        ("blue", "move 1.1 to 2", (6, 4, 3)),
        ("orange", "boast 5", (6, 3, 3)),
        ("violet", "pass 6", (6, 3, 5)),
        ("blue", "send 3", (2, 3, 5)),
        ("orange", "pass 5", (2, 3, 5)),
        ("violet", "bonus time", (2, 3, 6)),
    ]
    for player, order, times in steps:
        if order == "pass 5":
            assert GAME.why_illegal(s, "orange", "pass 6") is not None   # Violet's ring
        if order == "bonus time":
            assert sorted(GAME.legal_orders(s, "violet")) == ["bonus time", "bonus vp", "swap 6.2 with 6.3"]
        play(s, player, order)
        if order == "send 6" and player == "violet":
            assert names(s["queues"]["6"]) == ["violet:deb", "orange:deb", "violet:deb"]
        if order == "promote 6.3":
            assert names(s["queues"]["6"]) == ["violet:lady", "violet:deb", "orange:deb"]
        if order == "boast 5":
            assert s["vp"]["orange"] == 9 and s["boast"]["5"]["middle"]["family"] == "orange"
        if times:
            assert tuple(s["time"][f] for f in ("blue", "orange", "violet")) == times, order
    assert [o for o in GAME.legal_orders(s, "blue") if o.startswith("pass")] == ["pass"]
    events = play(s, "blue", "pass")
    assert [e["location"] for e in events if e["type"] == "head_vp"] == ["5", "2", "3", "6"]
    assert s["vp"] == {"blue": 2, "orange": 14, "violet": 19}
    assert s["scandal"]["hand"]["orange"] == ["messere-cup"]
    assert next(e for e in events if e["type"] == "draw_card")["to"] == ["orange"]
    assert s["supply"]["blue"]["gift"] == 1 and s["supply"]["blue"]["guard"] == 4
    assert s["gifts_given"]["blue"]["cosimo"] == 2
    assert [g["family"] for g in s["guards"]["escort"]["4-5"]] == ["blue"]
    assert [g["family"] for g in s["guards"]["escort"]["5-6"]] == ["blue"]
    assert s["carriages"]["cosimo"] == "6"
    # clean-up and round 2: start coin to orange, rings back, sector 4 gets destination 2
    assert s["rings"] == {} and s["start_family"] == "orange"
    assert s["sectors"]["4"]["location"] == "2" and s["targets"]["cosimo"] == "2"
    assert s["round"] == 2 and GAME.decision(s).players == ("orange",)
    # round 2's time tile (the first of the stack, 5) was gained, capped at 12
    assert s["time"] == {"blue": 7, "orange": 8, "violet": 11}


# -- set-up -------------------------------------------------------------------------------------------

def test_e1_setup_order() -> None:
    """p.5: Blue (start), Green, Orange: Orange places first, then Green, then Blue."""
    s = new_game(["blue", "green", "orange"], {"start_family": "blue"})
    assert s["place_order"] == ["orange", "green", "blue"]
    s = new_game(["blue", "green", "orange"], {"start_family": "green"})
    assert s["place_order"] == ["blue", "orange", "green"]


def test_e2_disc_at_setup() -> None:
    """p.4: targets Cosimo 6, Contessina 8, Giovanni 9; sector 1 time 12, sectors 2-3 a tile."""
    s = new_game(["a", "b", "c"], {"destinations": [6, 8, 9]})
    assert s["targets"] == {"cosimo": "6", "contessina": "8", "giovanni": "9"}
    assert s["sectors"]["1"]["time"] == 12
    assert s["sectors"]["2"]["time"] in range(2, 10) and s["sectors"]["3"]["time"] in range(2, 10)
    assert len(s["location_stack"]) == 6 and len(s["time_stack"]) == 6


@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_setup_location_stack(seed: str) -> None:
    """§3 step 6: every location a destination once; rounds 7-9 go to the carriages' start locations."""
    s = new_game(["a", "b"], seed=seed)
    dest = [s["sectors"][str(k)]["location"] for k in (1, 2, 3)] + s["location_stack"]
    assert sorted(dest, key=int) == LOCATIONS
    assert set(dest[6:]) == set(s["carriages"].values())
    assert s["open_slots"]["1"] == 4   # 2 families block slots 5-7


def test_check_deck_rejections() -> None:
    players = ["a", "b", "c"]
    for bad in [{"colour": 1}, {"start_family": "z"}, {"boast_tiles": {5: "loud", 6: "loud"}},
                {"carriages": {"cosimo": 1, "contessina": 1}}, {"destinations": [1, 1]},
                {"carriages": {"cosimo": 1, "contessina": 7, "giovanni": 4}, "destinations": [1, 2]},
                {"time_tiles": [2, 2]}, {"scandal": {"messere": ["figliolo-guard"]}},
                {"boast_tiles": [5]}, {"scandal": {"messere": "messere-cup"}}, [1, 2]]:
        with pytest.raises(SetupError):
            GAME.check_deck(bad, players, {})


# -- a small board to test actions on -----------------------------------------------------------------

def board(players: Sequence[str] = ("blue", "orange", "violet"), **queues: list[str]) -> dict[str, Any]:
    """A game in round 1's action phase, the first seat on turn, with the given queues (`q1=["blue:deb"]`).
    Supplies are not adjusted to the queues given."""
    seats = list(players)
    s = new_game(seats, ROUND_DECK)
    s["phase"], s["round"], s["place_order"], s["on_turn"] = "actions", 1, [], seats[0]
    for k in range(4, 10):   # the sectors a real game would have laid by then (tests jump rounds)
        s["sectors"][str(k)] = {"location": s["location_stack"][k - 4], "time": s["time_stack"][k - 4]}
    for key, pieces in queues.items():
        s["queues"][key[1:]] = q(*pieces)
    return s


def test_send_rules() -> None:
    s = board(q6=["orange:lady", "orange:deb"])
    play(s, "blue", "send 6")
    assert names(s["queues"]["6"]) == ["orange:lady", "orange:deb", "blue:deb"]
    s = board(q6=["orange:lady", "orange:deb"])
    s["guards"]["doorman"]["6"].append({"family": "blue", "colour": "blue"})
    play(s, "blue", "send 6")
    assert names(s["queues"]["6"]) == ["orange:lady", "blue:deb", "orange:deb"]
    s = board(q6=["orange:deb"] * 5)
    assert "free slot" in GAME.why_illegal(s, "blue", "send 6")   # 3 families: 5 open slots
    s = board()
    s["supply"]["blue"]["debutant"] = 0
    assert "no debutant" in GAME.why_illegal(s, "blue", "send 6")
    s = board()
    s["time"]["blue"] = 3
    assert "costs 4" in GAME.why_illegal(s, "blue", "send 6")


def test_promote_rules() -> None:
    s = board(q6=["orange:lady", "blue:deb", "orange:deb"])
    play(s, "blue", "promote 6.2")
    assert names(s["queues"]["6"]) == ["orange:lady", "blue:lady", "orange:deb"]
    assert s["supply"]["blue"]["debutant"] == 6 and s["supply"]["blue"]["lady"] == 2   # 5 + the returned one
    assert s["time"]["blue"] == 7
    s = board(q6=["blue:lady"])
    s["supply"]["blue"]["maestro"] = 0
    assert "no maestro" in GAME.why_illegal(s, "blue", "promote 6.1")
    s = board(q6=["blue:mae"])
    assert "cannot be promoted" in GAME.why_illegal(s, "blue", "promote 6.1")
    s = board(q6=["orange:deb"])
    assert "not yours" in GAME.why_illegal(s, "blue", "promote 6.1")


def test_move_rules_and_escorts() -> None:
    s = board(q1=["blue:deb"], q2=["orange:deb"])
    assert "no path" in GAME.why_illegal(s, "blue", "move 1.1 to 5")   # the park
    assert "no path" in GAME.why_illegal(s, "blue", "move 1.1 to 3")
    s["guards"]["escort"]["1-2"] = [{"family": "blue", "colour": "blue"}, {"family": "violet", "colour": "violet"}]
    s["time"]["blue"] = 1
    play(s, "blue", "move 1.1 to 2")
    assert names(s["queues"]["2"]) == ["orange:deb", "blue:deb"] and s["queues"]["1"] == []
    assert s["time"]["blue"] == 1 and s["vp"]["violet"] == 2   # own escort +1 after paying 1; foreign +2 VP
    s = board(q1=["blue:deb"], q2=["orange:deb"] * 5)
    assert "free slot" in GAME.why_illegal(s, "blue", "move 1.1 to 2")


def test_hurry_rules() -> None:
    s = board(q1=["blue:deb"], q2=["orange:deb"] * 5)
    play(s, "blue", "hurry 1.1 to 2 to 3")   # through a full queue
    assert names(s["queues"]["3"]) == ["blue:deb"] and s["time"]["blue"] == 9
    s = board(q1=["blue:deb"], q2=["orange:deb"] * 5)
    assert "free slot" in GAME.why_illegal(s, "blue", "move 1.1 to 2")
    s["queues"]["3"] = q(*["violet:deb"] * 5)
    assert "queue at 3 has no free slot" in GAME.why_illegal(s, "blue", "hurry 1.1 to 2 to 3")
    s = board(q1=["blue:deb", "orange:deb"])
    s["guards"]["doorman"]["1"].append({"family": "blue", "colour": "blue"})
    s["queues"]["1"] = q("orange:deb", "blue:deb")
    play(s, "blue", "hurry 1.2 to 2 to 1")   # A -> B -> A with a doorman brings it forward
    assert names(s["queues"]["1"]) == ["blue:deb", "orange:deb"]
    s = board(q1=["blue:deb", "blue:lady"][::-1], q5=["violet:deb"])
    s["guards"]["escort"]["1-2"] = [{"family": "orange", "colour": "orange"}]
    s["guards"]["escort"]["4-5"] = [{"family": "violet", "colour": "violet"}]
    play(s, "blue", "hurry 1.1 to 2 and 1.2 to 4")
    assert names(s["queues"]["2"]) == ["blue:lady"] and names(s["queues"]["4"]) == ["blue:deb"]
    assert s["vp"]["orange"] == 2 and s["vp"]["violet"] == 0
    s = board(q1=["blue:deb"])
    assert "different members" in GAME.why_illegal(s, "blue", "hurry 1.1 to 2 and 1.1 to 4")


def test_boast_rules() -> None:
    """p.9 E9: VP in full even when the cup must go lower; one cup per tile; full tile refused."""
    s = board(q1=["blue:deb"], q2=["blue:deb"], q3=["blue:deb"], q4=["blue:deb"])
    s["boast"]["4"]["tile"] = "omnipresent"
    s["boast"]["4"]["middle"] = {"family": "orange", "colour": "orange"}
    play(s, "blue", "boast 4")
    assert s["vp"]["blue"] == 8 and s["boast"]["4"]["low"]["family"] == "blue"
    s["on_turn"] = "blue"
    assert "already" in GAME.why_illegal(s, "blue", "boast 4")
    s = board(q4=["violet:deb"])
    s["boast"]["4"]["tile"] = "omnipresent"
    s["boast"]["4"]["low"] = {"family": "orange", "colour": "orange"}
    s["on_turn"] = "violet"
    assert "no free slot" in GAME.why_illegal(s, "violet", "boast 4")
    s = board(q1=["blue:deb"])
    assert "no member" in GAME.why_illegal(s, "blue", "boast 4")


def test_e10_gift_cost_and_guards() -> None:
    """p.9: "Das 3. Geschenk an den gleichen Medici kostet z.B. 4 Zeiteinheiten"; a first gift to
    another Medici costs 2; the guard goes on a free crest of that Medici; none left: no guard."""
    s = board(q1=["blue:deb"], q7=["blue:deb"])
    s["gifts_given"]["blue"]["cosimo"] = 2
    play(s, "blue", "gift cosimo escort 1-2")
    assert s["time"]["blue"] == 8
    s["on_turn"] = "blue"
    assert "crest" in GAME.why_illegal(s, "blue", "gift contessina")
    assert "not free" in GAME.why_illegal(s, "blue", "gift cosimo escort 1-2")
    assert "spy" in GAME.why_illegal(s, "blue", "gift contessina escort 4-5")
    play(s, "blue", "gift contessina spy 7")
    assert s["time"]["blue"] == 6 and s["supply"]["blue"]["gift"] == 1
    s["on_turn"] = "blue"
    s["supply"]["blue"]["guard"] = 0
    play(s, "blue", "gift contessina")
    assert s["supply"]["blue"]["gift"] == 0 and s["gifts_given"]["blue"]["contessina"] == 2
    s["on_turn"] = "blue"
    assert "no gift" in GAME.why_illegal(s, "blue", "gift cosimo")
    s = board(q2=["blue:deb"])
    assert "carriage" in GAME.why_illegal(s, "blue", "gift giovanni doorman 3")


def test_pass_and_bonuses() -> None:
    s = board(q6=["blue:deb", "orange:deb"])
    play(s, "blue", "pass 6")
    assert s["time"]["blue"] == 12 and s["rings"] == {"blue": "6"}
    assert "ring" in GAME.why_illegal(s, "orange", "pass 6")
    play(s, "orange", "pass 5")
    assert s["time"]["orange"] == 12   # only the first gains 2
    assert "last" in GAME.why_illegal(s, "violet", "pass 4")
    s["time"]["violet"] = 4
    play(s, "violet", "send 6")
    play(s, "blue", "swap 6.1 with 6.2")
    assert names(s["queues"]["6"]) == ["orange:deb", "blue:deb", "violet:deb"]
    play(s, "orange", "bonus vp")
    assert s["vp"]["orange"] == 1
    assert "`bonus` is not possible" in GAME.why_illegal(s, "violet", "bonus vp")


def test_discard_keeps_the_decision() -> None:
    s = board()
    s["scandal"]["hand"]["blue"] = ["messere-cup"]
    s["time"]["blue"] = 11
    play(s, "blue", "discard messere-cup")
    assert s["time"]["blue"] == 12 and GAME.decision(s).players == ("blue",)
    assert s["scandal"]["discard"]["messere"] == ["messere-cup"]
    assert "hold no card" in GAME.why_illegal(s, "blue", "discard messere-cup")
    assert GAME.why_illegal(s, "blue", "play messere-cup 5") == "you hold no card messere-cup"


# -- the Medici and scoring ---------------------------------------------------------------------------

def end_actions(s: dict[str, Any]) -> list[dict[str, Any]]:
    """Every family passes; returns the events of the last pass (phases 3-5)."""
    events: list[dict[str, Any]] = []
    r = s["round"]
    while s["phase"] == "actions" and s["round"] == r:
        f = s["on_turn"]
        events = play(s, f, GAME.passive_order(s, f))
    return events


def test_e11_route_and_rewards() -> None:
    """p.10: Cosimo from 7 to 2 enters 4, 1, 5, 2; Blue +2, Orange +1; Orange's cup draws at 2."""
    s = board(["blue", "orange"], q1=["blue:deb"], q5=["orange:deb"], q2=["blue:deb", "orange:deb"])
    s["carriages"]["cosimo"], s["targets"]["cosimo"] = "7", "2"
    s["boast"]["2"]["middle"] = {"family": "orange", "colour": "orange"}
    s["boast"]["2"]["low"] = {"family": "blue", "colour": "blue"}
    events = end_actions(s)
    move = next(e for e in events if e["type"] == "medici_move")
    assert move["route"] == ["4", "1", "5", "2"]
    heads = [(e["family"], e["location"]) for e in events if e["type"] == "head_vp"]
    assert heads == [("blue", "1"), ("orange", "5"), ("blue", "2")]
    assert len(s["scandal"]["hand"]["orange"]) == 1 and s["scandal"]["hand"]["blue"] == []


def test_spy_and_hand_limit() -> None:
    """§8: a spy draws without a member; §9: a full hand gives 1 time instead."""
    s = board(["blue", "orange"])
    s["guards"]["spy"]["5"] = [{"family": "blue", "colour": "blue"}, {"family": "orange", "colour": "orange"}]
    s["scandal"]["hand"]["orange"] = ["messere-swap"] * 3 + ["carissima-swap"] * 2
    s["time"]["orange"] = 5
    end_actions(s)
    assert len(s["scandal"]["hand"]["blue"]) == 1 and len(s["scandal"]["hand"]["orange"]) == 5
    assert any(e for e in [s] if s["time"]["orange"] >= 6)


def test_e12_cosimo_queue() -> None:
    """p.10: round 1 at 2, Orange 1st and 3rd, Blue 2nd and 4th: Orange 11+4 = 15, Blue 7+2 = 9."""
    s = board(["blue", "orange", "violet"], q2=["orange:deb", "blue:deb", "orange:deb", "blue:deb"])
    s["carriages"]["cosimo"], s["targets"]["cosimo"] = "5", "2"
    events = end_actions(s)
    got = {e["family"]: e["vp"] for e in events if e["type"] == "queue_vp"}
    assert got == {"orange": 15, "blue": 9}


def test_e13_contessina() -> None:
    """p.11: round 2 at 5: Black maestro, Black lady, Orange debutant: Black 13+9 = 22, Orange 0."""
    s = board(["blue", "orange", "violet", "green", "black"], q5=["black:mae", "black:lady", "orange:deb"])
    s["round"], s["sectors"]["2"]["location"] = 2, "5"
    s["carriages"]["contessina"], s["targets"]["contessina"] = "1", "5"
    events = end_actions(s)
    got = {e["family"]: e["vp"] for e in events if e["type"] == "queue_vp"}
    assert got == {"black": 22, "orange": 0}


def giovanni_board(**kw: Any) -> dict[str, Any]:
    s = board(["blue", "orange", "violet"], q3=["orange:deb", "orange:deb", "blue:deb"], **kw)
    s["round"] = 3
    s["carriages"]["giovanni"], s["targets"]["giovanni"] = "2", "3"
    end_actions(s)
    return s


def test_e14_giovanni() -> None:
    """p.11: Orange pays 4 time for 20 VP, then Blue 2 time for 12 VP."""
    s = giovanni_board()
    assert s["phase"] == "giovanni" and GAME.decision(s).players == ("orange",)
    assert GAME.why_illegal(s, "blue", "accept") is not None
    t_o, v_o, v_b = s["time"]["orange"], s["vp"]["orange"], s["vp"]["blue"]
    play(s, "orange", "accept")
    assert (s["time"]["orange"], s["vp"]["orange"]) == (t_o - 4, v_o + 20)
    events = play(s, "blue", "accept")
    assert {"type": "giovanni_accept", "family": "blue", "time": 2, "vp": 12} in events
    assert s["vp"]["blue"] == v_b + 12
    assert s["round"] == 4 and s["supply"]["blue"]["gift"] == 5   # 3 + 2 after round 3


def test_e15_giovanni_cascade() -> None:
    """p.11: a family that declines is out; the next is offered place 1; one that cannot pay is skipped."""
    s = giovanni_board()
    v_b = s["vp"]["blue"]
    play(s, "orange", "decline")
    assert GAME.decision(s).players == ("blue",)
    play(s, "blue", "accept")
    assert s["vp"]["blue"] == v_b + 20 and s["round"] == 4
    s = board(["blue", "orange", "violet"], q3=["orange:deb", "orange:deb", "blue:deb"])
    s["round"] = 3
    s["carriages"]["giovanni"], s["targets"]["giovanni"] = "2", "3"
    while s["phase"] == "actions":
        f = s["on_turn"]
        s["time"][f] = 0 if f == "blue" else s["time"][f]
        play(s, f, GAME.passive_order(s, f))
    s["time"]["blue"] = 3
    play(s, "orange", "decline")   # blue cannot pay 4: skipped, the scoring ends
    assert s["round"] == 4 and s["phase"] == "actions"


def test_giovanni_ties_and_few_families() -> None:
    """§5/§12: equal numbers: the family whose frontmost member stands further forward is asked first;
    with fewer families than offers, the scoring ends when they are done; one reward per family."""
    s = board(["blue", "orange", "violet"], q3=["violet:lady", "orange:deb", "blue:deb", "blue:deb", "orange:deb"])
    s["round"] = 3
    s["carriages"]["giovanni"], s["targets"]["giovanni"] = "2", "3"
    end_actions(s)
    assert s["giovanni"]["candidates"] == ["orange", "blue", "violet"]
    play(s, "orange", "accept")
    play(s, "blue", "accept")
    assert GAME.decision(s).players == ("violet",) and "accept" in GAME.legal_orders(s, "violet")
    play(s, "violet", "decline")
    assert s["round"] == 4 and s["giovanni"] is None
    s = board(["blue", "orange"], q3=["blue:deb"])
    s["round"] = 3
    s["carriages"]["giovanni"], s["targets"]["giovanni"] = "2", "3"
    end_actions(s)
    play(s, "blue", "accept")
    assert s["round"] == 4   # no other family at 3


def test_gifts_after_round_6() -> None:
    """p.11: after round 6 each family receives 1 more gift (6 in all)."""
    s = board(["blue", "orange"])
    s["round"] = 6
    s["carriages"]["giovanni"], s["targets"]["giovanni"] = "2", "3"
    end_actions(s)
    assert s["supply"]["blue"]["gift"] == 4 and s["round"] == 7


def test_cleanup_late_rounds_and_targets() -> None:
    s = board(["blue", "orange"])
    s["round"] = 7
    s["carriages"]["cosimo"], s["targets"]["cosimo"] = "6", "1"
    s["sectors"]["8"] = {"location": "7", "time": 3}
    end_actions(s)
    assert "cosimo" not in s["targets"] and s["round"] == 8


def test_e17_final_scoring_and_tie_breaks() -> None:
    """p.12: "Für 3 Zeiteinheiten erhältst du 1 SP"; plan card < 4 members 0; ties: petitioners, gifts."""
    s = board(["blue", "orange", "violet"], q1=["blue:deb", "blue:deb"], q2=["blue:deb", "blue:deb"],
              q3=["orange:deb"])
    s["plan_cards"] = {"blue": 1, "orange": 2, "violet": 3}
    s["time"] = {"blue": 3, "orange": 12, "violet": 0}
    s["vp"] = {"blue": 0, "orange": 0, "violet": 6}
    F.final_scoring(s, [])
    assert s["vp"] == {"blue": 1 + 10, "orange": 6, "violet": 6}
    assert [(r["player"], r["rank"]) for r in GAME.result(s)] == [("blue", 1), ("orange", 2), ("violet", 3)]
    s["queues"]["3"] = []
    s["gifts_given"]["violet"]["cosimo"] = 1
    assert [(r["player"], r["rank"]) for r in GAME.result(s)] == [("blue", 1), ("violet", 2), ("orange", 3)]
    s["gifts_given"]["violet"]["cosimo"] = 0
    assert [r["rank"] for r in GAME.result(s)] == [1, 2, 2]


# -- whole games --------------------------------------------------------------------------------------

def check_invariants(s: dict[str, Any]) -> None:
    for f in s["families"]:
        sup = s["supply"][f]
        on_board = sum(1 for qu in s["queues"].values() for p in qu if p["family"] == f)
        assert on_board + sup["debutant"] + sup["lady"] + sup["maestro"] + len(s["removed"][f]) == 9
        guards = sum(1 for kind in s["guards"].values() for gs in kind.values() for g in gs if g["family"] == f)
        assert guards + sup["guard"] == 6
        cups = sum(1 for t in s["boast"].values() for k in ("low", "middle", "high") if t[k] and t[k]["family"] == f)
        assert cups + sup["cup"] == 6
        assert 0 <= s["time"][f] <= 12
        assert len(s["scandal"]["hand"][f]) <= 5
    for loc, qu in s["queues"].items():
        assert len(qu) <= s["open_slots"][loc]
        ranks = [{"maestro": 0, "lady": 1, "debutant": 2}[p["rank"]] for p in qu]
        assert ranks == sorted(ranks)
    cards = sum(len(x) for x in s["scandal"]["deck"].values()) + sum(len(x) for x in s["scandal"]["discard"].values())
    assert cards + sum(len(h) for h in s["scandal"]["hand"].values()) == 36
    assert len(set(s["rings"].values())) == len(s["rings"])
    assert sorted(s["guards"]["escort"]) == sorted(PATHS)


def random_legal(state: dict[str, Any], player: str, chooser: Rng) -> str:
    """A random legal order (passing held back a little, so games are eventful); candidates are
    drawn one at a time, as the hurry lists are long."""
    candidates = GAME.candidate_orders(state, player)
    while candidates:
        order = candidates.pop(chooser.below(len(candidates), "order"))
        if order.startswith("pass") and candidates and chooser.below(4, "pass"):
            continue
        if GAME.why_illegal(state, player, order) is None:
            return order
    pas = GAME.passive_order(state, player)   # only passes were left and held back
    assert pas is not None and GAME.why_illegal(state, player, pas) is None
    return pas


@pytest.mark.parametrize("n,seed", [(2, "g2"), (3, "g3"), (4, "g4"), (5, "g5"), (3, "h3")])
def test_random_games(n: int, seed: str) -> None:
    players = ["blue", "orange", "violet", "green", "black"][:n]
    rng = Rng(seed)
    state, _ = GAME.setup(players, {}, rng)
    chooser = Rng(seed + "-choice")
    steps = 0
    kinds: dict[str, int] = {}
    while (d := GAME.decision(state)) is not None:
        player = d.players[0]
        order = random_legal(state, player, chooser)
        if steps % 7 == 0:
            assert order in GAME.legal_orders(state, player)
        turn, vp = state["turn"], dict(state["vp"])
        GAME.apply(state, player, order, rng)
        assert state["turn"] == turn + 1
        assert all(state["vp"][f] >= vp[f] for f in players)
        check_invariants(state)
        assert yaml.load(dump_yaml(state), Loader=SafeLoader) == state
        steps += 1
        kinds[order.split()[0]] = kinds.get(order.split()[0], 0) + 1
        assert steps < 5000
    assert state["phase"] == "over" and state["round"] == 9
    assert {"send", "move", "boast", "gift", "pass"} <= set(kinds), kinds
    print(seed, kinds)
    assert sorted(r["player"] for r in GAME.result(state)) == sorted(players)
    with pytest.raises(IllegalOrder):
        GAME.apply(state, players[0], "pass", rng)


def test_determinism() -> None:
    """The same seed and the same orders give the same game."""
    def run(seed: str) -> dict[str, Any]:
        rng, chooser = Rng(seed), Rng(seed + "-choice")
        state, _ = GAME.setup(["blue", "orange"], {}, rng)
        while (d := GAME.decision(state)) is not None:
            GAME.apply(state, d.players[0], random_legal(state, d.players[0], chooser), rng)
        return state
    assert run("det") == run("det")
    assert run("det") != run("other")


def test_view_hides_secrets() -> None:
    s = new_game(["blue", "orange"])
    s["scandal"]["hand"]["orange"] = ["messere-cup", "figliolo-guard"]
    v = GAME.view(s, "blue")
    assert v["scandal"]["hand"]["orange"] == {"messere": 1, "carissima": 0, "figliolo": 1}
    assert set(v["plan_cards"]) == {"blue"}
    assert isinstance(v["scandal"]["deck"]["messere"], int)
    assert v["location_stack"] == sorted(s["location_stack"], key=int)
    gm = GAME.view(s, None)
    assert gm.pop("display") is not None and gm == copy.deepcopy(s)
