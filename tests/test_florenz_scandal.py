"""Florenz scandal cards (FLORENZ-PLAN.md §9, §16 R15-R45, §17.3), as adjudicator test cases.

Each case is a small board (state), the orders given, and the exact outcome: queues, supplies, time,
VP, guards, hands and discard piles; then the orders the rules refuse, with the exact reason
`why_illegal` gives. Then the draws of phase 3 (§9, §11), and whole games that play every card kind.

The board (§2): 1 2 3 / 4 5 6 / 7 8 9, paths between orthogonal neighbours, 1-5 is the park.
`board(...)` (from test_florenz_engine) gives 3 families blue, orange, violet in round 1's actions,
blue on turn, 12 time each, 5 open slots per queue, carriages Cosimo 1, Contessina 7, Giovanni 4.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import yaml
from test_florenz_engine import GAME, board, check_invariants, names, play, random_legal

from pbem.errors import IllegalOrder
from pbem.rng import Rng
from pbem.rules.florenz import board as B
from pbem.rules.florenz import flow as F
from pbem.rules.florenz.data import SCANDAL_CARDS
from pbem.store import dump_yaml

State = dict[str, Any]
Event = dict[str, Any]
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def guard(family: str) -> dict[str, str]:
    return {"family": family, "colour": family}


def cup(family: str) -> dict[str, str]:
    return {"family": family, "colour": family}


def with_hand(s: State, family: str, *cards: str) -> State:
    s["scandal"]["hand"][family] = list(cards)
    return s


def play_card(s: State, family: str, order: str, time_delta: int) -> list[Event]:
    """Plays `order` (it must be legal) and checks what every card does: the card leaves the hand,
    lands on its deck's discard pile, the event says what it cost."""
    card = order.split()[1]
    deck = SCANDAL_CARDS[card]["deck"]
    hand = list(s["scandal"]["hand"][family])
    discard = list(s["scandal"]["discard"][deck])
    assert GAME.why_illegal(s, family, order) is None
    events = play(s, family, order)
    hand.remove(card)
    assert s["scandal"]["hand"][family] == hand
    assert s["scandal"]["discard"][deck] == discard + [card]
    ev = next(e for e in events if e["type"] == "play")
    assert (ev["family"], ev["card"], ev["time"]) == (family, card, time_delta)
    return events


def refused(s: State, family: str, order: str, reason: str) -> None:
    """The order is refused with exactly `reason`, and neither judging nor trying it changes the state."""
    before = copy.deepcopy(s)
    assert GAME.why_illegal(s, family, order) == reason
    assert s == before
    with pytest.raises(IllegalOrder):
        play(s, family, order)
    assert s == before


# -- Messere (Cosimo's deck) --------------------------------------------------------------------------

def test_messere_cup() -> None:
    """"Lege 1 deiner Prahlbecher von einer Prahltafel zurück auf dein Familientableau. Du behältst die
    Siegpunkte für diese Prahltafel. Du darfst diese Errungenschaft später erneut beanspruchen." (-2)"""
    s = with_hand(board(q4=["blue:deb"], q2=["blue:deb"]), "blue", "messere-cup")
    s["boast"]["4"].update(tile="omnipresent", low=cup("blue"), middle=cup("orange"))
    s["supply"]["blue"]["cup"], s["vp"]["blue"] = 5, 2
    play_card(s, "blue", "play messere-cup 4", -2)
    assert s["boast"]["4"]["low"] is None and s["boast"]["4"]["middle"] == cup("orange")
    assert s["supply"]["blue"]["cup"] == 6 and s["vp"]["blue"] == 2 and s["time"]["blue"] == 10
    assert s["on_turn"] == "orange"
    s["on_turn"] = "blue"   # boast there again: 2 locations x 2 VP, the freed slot takes the cup
    play(s, "blue", "boast 4")
    assert s["boast"]["4"]["low"] == cup("blue") and s["vp"]["blue"] == 6 and s["time"]["blue"] == 9


def test_messere_cup_refused() -> None:
    s = with_hand(board(q4=["blue:deb"]), "blue", "messere-cup")
    s["boast"]["4"]["middle"] = cup("orange")
    refused(s, "blue", "play messere-cup 4", "you have no cup on the tile at 4")
    refused(s, "blue", "play messere-cup 4.1", "write `play messere-cup L`")
    s["boast"]["4"]["low"] = cup("blue")
    s["time"]["blue"] = 1
    refused(s, "blue", "play messere-cup 4", "this card costs 2 time units and you have 1")


def test_messere_swap() -> None:
    """"Tausche die Positionen von 2 beliebigen Bittstellern der gleichen Warteschlange. Die
    Rangfolge gilt weiterhin!" (-2): any two of the same rank, not neighbours, any families."""
    s = with_hand(board(q6=["orange:lady", "blue:deb", "violet:deb", "orange:deb"]), "blue",
                  "messere-swap", "messere-swap")
    play_card(s, "blue", "play messere-swap 6.2 with 6.4", -2)
    assert names(s["queues"]["6"]) == ["orange:lady", "orange:deb", "violet:deb", "blue:deb"]
    s["on_turn"] = "blue"
    play_card(s, "blue", "play messere-swap 6.3 with 6.2", -2)   # two foreign petitioners
    assert names(s["queues"]["6"]) == ["orange:lady", "violet:deb", "orange:deb", "blue:deb"]
    assert s["time"]["blue"] == 8 and s["scandal"]["discard"]["messere"] == ["messere-swap"] * 2


def test_messere_swap_refused() -> None:
    s = with_hand(board(q6=["orange:lady", "blue:deb", "violet:deb", "violet:deb"], q5=["blue:deb"]),
                  "blue", "messere-swap")
    refused(s, "blue", "play messere-swap 6.1 with 6.2", "a lady and a debutant cannot swap: the rank order holds")
    refused(s, "blue", "play messere-swap 6.2 with 5.1", "the two petitioners must stand in the same queue")
    refused(s, "blue", "play messere-swap 6.2 with 6.5", "there is no petitioner at 6.5")
    refused(s, "blue", "play messere-swap 6.3 with 6.4", "the two petitioners are alike: swapping them changes nothing")
    refused(s, "blue", "play messere-swap 6.2", "write `play messere-swap L.P with L.Q`")


def test_messere_retire() -> None:
    """"Entferne 1 deiner Familienmitglieder endgültig vom Spielplan. Du erhältst dafür 3
    Zeiteinheiten. Du kannst das Familienmitglied in dieser Partie nicht wieder einsetzen." (+3)"""
    s = with_hand(board(q2=["blue:deb"], q3=["blue:lady", "orange:deb"], q5=["blue:deb"], q6=["blue:deb"]),
                  "blue", "messere-retire")
    s["plan_cards"]["blue"] = 2   # locations 2, 3, 5, 6: 4 members score 10
    assert B.plan_vp(2, "blue", s["queues"]) == 10
    s["time"]["blue"] = 11
    supply = dict(s["supply"]["blue"])
    play_card(s, "blue", "play messere-retire 3.1", 3)
    assert s["time"]["blue"] == 12   # 11 + 3, capped
    assert names(s["queues"]["3"]) == ["orange:deb"] and s["removed"]["blue"] == ["lady"]
    assert s["supply"]["blue"] == supply   # gone for good, not back on the board
    s["time"]["blue"], s["vp"]["blue"] = 0, 0
    F.final_scoring(s, [])   # not counted at the end: 3 members on the plan card score 0
    assert s["vp"]["blue"] == 0 and F.petitioners(s, "blue") == 3


def test_messere_retire_refused() -> None:
    s = with_hand(board(q3=["orange:lady", "blue:deb"]), "blue", "messere-retire")
    refused(s, "blue", "play messere-retire 3.1", "the petitioner at 3.1 is not yours")
    refused(s, "blue", "play messere-retire 4.1", "there is no petitioner at 4.1")
    s["time"]["blue"] = 0
    assert GAME.why_illegal(s, "blue", "play messere-retire 3.2") is None   # it gains time


def test_messere_boast() -> None:
    """"Nutze 1 beliebige Prahltafel irgendwo auf dem Spielplan. Dort benötigst du kein
    Familienmitglied, ansonsten gelten die normalen Regeln." (-1, the boast's own cost included)"""
    s = with_hand(board(q1=["blue:deb"], q2=["blue:deb"]), "blue", "messere-boast")
    s["boast"]["9"]["tile"] = "omnipresent"
    assert GAME.why_illegal(s, "blue", "boast 9") == "you have no member at 9"
    events = play_card(s, "blue", "play messere-boast 9", -1)
    assert s["time"]["blue"] == 11 and s["vp"]["blue"] == 4
    assert s["boast"]["9"]["low"] == cup("blue") and s["supply"]["blue"]["cup"] == 5
    assert {"type": "boast", "family": "blue", "location": "9", "tile": "omnipresent", "vp": 4,
            "slot": "low"} in events


def test_messere_boast_scandalmonger() -> None:
    """§9: "The played card leaves the hand before the effect (it does not count for Skandalnudel)"."""
    s = with_hand(board(), "blue", "figliolo-guard", "messere-boast", "carissima-swap")
    s["boast"]["8"]["tile"] = "scandalmonger"
    play_card(s, "blue", "play messere-boast 8", -1)
    assert s["vp"]["blue"] == 6 and s["boast"]["8"]["low"] == cup("blue")   # 2 cards x 3, not 3 x 3
    assert s["scandal"]["hand"]["blue"] == ["figliolo-guard", "carissima-swap"]


def test_messere_boast_refused() -> None:
    s = with_hand(board(q1=["blue:deb"]), "blue", "messere-boast")
    s["boast"]["9"].update(tile="omnipresent", low=cup("orange"))
    refused(s, "blue", "play messere-boast 9", "the tile at 9 has no free slot for your cup")
    s["boast"]["9"]["low"] = cup("blue")
    refused(s, "blue", "play messere-boast 9", "your cup already lies on the tile at 9")
    s["supply"]["blue"]["cup"] = 0
    refused(s, "blue", "play messere-boast 8", "you have no cup left")
    s["supply"]["blue"]["cup"], s["time"]["blue"] = 5, 0
    refused(s, "blue", "play messere-boast 8", "this card costs 1 time unit and you have 0")


# -- Carissima (Contessina's deck) --------------------------------------------------------------------

def test_carissima_gift() -> None:
    """"Gib einem beliebigen Medici irgendwo auf dem Spielplan 1 Geschenk. Das kostet die übliche Zeit
    (-2 und -1/Geschenk). Du brauchst nicht am Ort der betreffenden Kutsche zu sein." (§16 R38)"""
    s = with_hand(board(q1=["blue:deb"]), "blue", "carissima-gift", "carissima-gift", "carissima-gift")
    assert GAME.why_illegal(s, "blue", "gift giovanni doorman 3") == \
        "you have no member at 4, where giovanni's carriage stands"
    for k, (order, cost) in enumerate([("giovanni doorman 3", 2), ("giovanni doorman 5", 3),
                                       ("giovanni doorman 7", 4)]):
        s["on_turn"] = "blue"
        play_card(s, "blue", f"play carissima-gift {order}", -cost)
        assert s["gifts_given"]["blue"]["giovanni"] == k + 1 and s["supply"]["blue"]["gift"] == 2 - k
    assert s["time"]["blue"] == 12 - 2 - 3 - 4 and s["supply"]["blue"]["guard"] == 3
    assert [loc for loc, gs in s["guards"]["doorman"].items() if gs == [guard("blue")]] == ["3", "5", "7"]


def test_carissima_gift_refused() -> None:
    s = with_hand(board(), "blue", "carissima-gift")
    s["guards"]["doorman"]["3"] = [guard("orange")]
    refused(s, "blue", "play carissima-gift giovanni", "name the free doorman crest for your guard")
    refused(s, "blue", "play carissima-gift giovanni spy 3", "giovanni's crests are doorman crests")
    refused(s, "blue", "play carissima-gift giovanni doorman 3", "the crest doorman 3 is not free")
    s["gifts_given"]["blue"]["giovanni"], s["time"]["blue"] = 2, 3
    refused(s, "blue", "play carissima-gift giovanni doorman 4", "this card costs 4 time units and you have 3")
    s["supply"]["blue"]["gift"] = 0
    refused(s, "blue", "play carissima-gift cosimo escort 1-2", "you have no gift left")
    s["supply"]["blue"].update(gift=1, guard=0)   # R16: no guard left, the gift goes without one
    refused(s, "blue", "play carissima-gift cosimo escort 1-2", "you have no guard left (order `play carissima-gift cosimo`)")
    play_card(s, "blue", "play carissima-gift cosimo", -2)
    assert s["gifts_given"]["blue"]["cosimo"] == 1 and s["supply"]["blue"]["gift"] == 0


def test_carissima_swap() -> None:
    """"Tausche die Position von 1 deiner Familienmitglieder mit einem beliebigen Bittsteller
    niedrigeren Ranges an einem rechtwinklig benachbarten Ort. Beide reihen sich wie üblich in ihre
    Warteschlangen ein." (-3; no free slot needed, no escorts, doormen apply: §16 R19)"""
    s = with_hand(board(q5=["blue:lady", "orange:deb", "orange:deb"],
                        q6=["orange:lady", "violet:deb", "orange:deb", "orange:deb", "orange:deb"]),
                  "blue", "carissima-swap")
    s["guards"]["doorman"]["5"] = [guard("violet")]
    s["guards"]["escort"]["5-6"] = [guard("orange")]
    play_card(s, "blue", "play carissima-swap 5.1 with 6.2", -3)
    assert names(s["queues"]["5"]) == ["violet:deb", "orange:deb", "orange:deb"]   # violet's doorman
    assert names(s["queues"]["6"]) == ["orange:lady", "blue:lady", "orange:deb", "orange:deb", "orange:deb"]
    assert s["time"]["blue"] == 9 and s["vp"]["orange"] == 0
    s = with_hand(board(q2=["blue:mae"], q3=["blue:deb"]), "blue", "carissima-swap")
    play_card(s, "blue", "play carissima-swap 2.1 with 3.1", -3)   # "beliebigen": yours too
    assert names(s["queues"]["2"]) == ["blue:deb"] and names(s["queues"]["3"]) == ["blue:mae"]


def test_carissima_swap_refused() -> None:
    s = with_hand(board(q1=["blue:lady"], q5=["orange:deb"], q2=["orange:lady", "violet:deb"],
                        q4=["orange:mae"]), "blue", "carissima-swap")
    refused(s, "blue", "play carissima-swap 1.1 with 5.1", "5 is not an orthogonal neighbour of 1")
    refused(s, "blue", "play carissima-swap 1.1 with 2.1", "the petitioner at 2.1 must be of a lower rank than yours")
    refused(s, "blue", "play carissima-swap 1.1 with 4.1", "the petitioner at 4.1 must be of a lower rank than yours")
    refused(s, "blue", "play carissima-swap 1.1 with 2.3", "there is no petitioner at 2.3")
    refused(s, "blue", "play carissima-swap 2.2 with 1.1", "the petitioner at 2.2 is not yours")
    s["time"]["blue"] = 2
    refused(s, "blue", "play carissima-swap 1.1 with 2.2", "this card costs 3 time units and you have 2")


def test_carissima_promote() -> None:
    """"Erhöhe 1 Debütanten zur Dame." (-3; the new lady enters behind the ladies, §16 R7)"""
    s = with_hand(board(q6=["orange:lady", "blue:deb", "orange:deb", "blue:deb"]), "blue", "carissima-promote")
    play_card(s, "blue", "play carissima-promote 6.4", -3)
    assert names(s["queues"]["6"]) == ["orange:lady", "blue:lady", "blue:deb", "orange:deb"]
    assert s["time"]["blue"] == 9
    assert (s["supply"]["blue"]["debutant"], s["supply"]["blue"]["lady"]) == (6, 2)


def test_carissima_promote_refused() -> None:
    s = with_hand(board(q6=["blue:lady", "orange:deb", "blue:deb"]), "blue", "carissima-promote")
    refused(s, "blue", "play carissima-promote 6.1", "this card promotes a debutant to a lady")
    refused(s, "blue", "play carissima-promote 6.2", "the petitioner at 6.2 is not yours")
    s["time"]["blue"] = 2
    refused(s, "blue", "play carissima-promote 6.3", "this card costs 3 time units and you have 2")
    s["supply"]["blue"]["lady"] = 0
    refused(s, "blue", "play carissima-promote 6.3", "you have no lady on your board")


def test_carissima_advance() -> None:
    """"Rücke 1 deiner Familienmitglieder in seiner Warteschlange so weit nach vorne, wie es sein Rang
    erlaubt." (-2; to the front of its rank, §16 R42)"""
    s = with_hand(board(q6=["orange:lady", "violet:deb", "orange:deb", "blue:deb"]), "blue", "carissima-advance")
    play_card(s, "blue", "play carissima-advance 6.4", -2)
    assert names(s["queues"]["6"]) == ["orange:lady", "blue:deb", "violet:deb", "orange:deb"]
    assert s["time"]["blue"] == 10


def test_carissima_advance_refused() -> None:
    s = with_hand(board(q6=["blue:lady", "orange:deb", "blue:deb"]), "blue", "carissima-advance")
    refused(s, "blue", "play carissima-advance 6.1", "the petitioner at 6.1 already stands first of its rank")
    refused(s, "blue", "play carissima-advance 6.2", "the petitioner at 6.2 is not yours")
    s["time"]["blue"] = 1
    refused(s, "blue", "play carissima-advance 6.3", "this card costs 2 time units and you have 1")


# -- Figliolo (Giovanni's deck) -----------------------------------------------------------------------

def test_figliolo_guard() -> None:
    """"Setze 1 Wache irgendwo auf dem Spielplan ein, selbst wenn dort schon eine fremde Wache ist.
    Wähle ein beliebiges Wappen (Spion, Türsteher, Eskorte). Vorhandene Wachen bleiben dort und behalten
    ihre Funktion." (-2): both guards on a path pay."""
    s = with_hand(board(q1=["violet:deb"]), "blue", "figliolo-guard")
    s["guards"]["escort"]["1-2"] = [guard("orange")]
    play_card(s, "blue", "play figliolo-guard escort 1-2", -2)
    assert s["guards"]["escort"]["1-2"] == [guard("orange"), guard("blue")]
    assert s["supply"]["blue"]["guard"] == 5 and s["time"]["blue"] == 10
    s["on_turn"] = "violet"
    play(s, "violet", "move 1.1 to 2")
    assert s["vp"] == {"blue": 2, "orange": 2, "violet": 0}


def test_figliolo_guard_refused() -> None:
    s = with_hand(board(), "blue", "figliolo-guard")
    s["guards"]["spy"]["5"] = [guard("orange"), guard("blue")]
    refused(s, "blue", "play figliolo-guard spy 5", "your guard already stands on spy 5")
    refused(s, "blue", "play figliolo-guard escort 1-5", "there is no crest escort 1-5")
    refused(s, "blue", "play figliolo-guard escort 2-1", "there is no crest escort 2-1")
    s["time"]["blue"] = 1
    refused(s, "blue", "play figliolo-guard doorman 5", "this card costs 2 time units and you have 1")
    s["supply"]["blue"]["guard"] = 0
    refused(s, "blue", "play figliolo-guard doorman 5", "you have no guard left")


def test_figliolo_teleport() -> None:
    """"Bewege 1 deiner Familienmitglieder auf dem Spielplan an einen beliebigen Ort. Ignoriere dabei
    Eskorten." (-2; a doorman still applies on entering)"""
    s = with_hand(board(q1=["orange:deb", "blue:deb"], q9=["orange:deb"]), "blue", "figliolo-teleport")
    for path in s["guards"]["escort"]:
        s["guards"]["escort"][path] = [guard("orange")]
    s["guards"]["doorman"]["9"] = [guard("blue")]
    play_card(s, "blue", "play figliolo-teleport 1.2 to 9", -2)
    assert names(s["queues"]["1"]) == ["orange:deb"] and names(s["queues"]["9"]) == ["blue:deb", "orange:deb"]
    assert s["vp"]["orange"] == 0 and s["time"]["blue"] == 10


def test_figliolo_teleport_refused() -> None:
    s = with_hand(board(q1=["orange:deb", "blue:deb"], q9=["orange:deb"] * 5), "blue", "figliolo-teleport")
    refused(s, "blue", "play figliolo-teleport 1.2 to 9", "the queue at 9 has no free slot")
    refused(s, "blue", "play figliolo-teleport 1.2 to 1", "the petitioner already stands at 1")
    refused(s, "blue", "play figliolo-teleport 1.1 to 5", "the petitioner at 1.1 is not yours")
    s["time"]["blue"] = 1
    refused(s, "blue", "play figliolo-teleport 1.2 to 5", "this card costs 2 time units and you have 1")


def travel_board() -> State:
    s = with_hand(board(q1=["blue:deb"], q5=["blue:lady"], q2=["orange:deb"] * 5), "blue", "figliolo-travel")
    s["guards"]["escort"]["1-2"] = [guard("orange")]
    s["guards"]["escort"]["2-3"] = [guard("blue")]
    s["guards"]["escort"]["7-8"] = [guard("violet")]
    return s


def test_figliolo_travel_two_members() -> None:
    """"Bewege 1-2 deiner Familienmitglieder um je 1-3 Orte. Berücksichtige dabei Eskorten." (-3;
    steps as hurry: only the last location needs a free slot; the second member in a follow-up)"""
    s = travel_board()
    play_card(s, "blue", "play figliolo-travel 1.1 to 2 to 3", -3)   # through the full queue at 2
    assert names(s["queues"]["3"]) == ["blue:deb"] and s["queues"]["1"] == []
    assert s["time"]["blue"] == 10 and s["vp"]["orange"] == 2   # -3, then +1 for its own escort
    d = GAME.decision(s)
    assert (d.players, d.kind) == (("blue",), "travel") and s["pending"]["moved"] == "3.1"
    refused(s, "blue", "travel 3.1 to 6",
            "the member at 3.1 has travelled already: the second member must be another one")
    refused(s, "blue", "pass 4", "`pass` is not possible now: you must decide travel")
    refused(s, "orange", "pass 4", "it is not your turn: blue must decide (travel)")
    refused(s, "blue", "travel 5.1 to 1", "there is no path from 5 to 1 (members move only between orthogonal neighbours)")
    assert "travel 5.1 to 4 to 7 to 8" in GAME.legal_orders(s, "blue")
    events = play(s, "blue", "travel 5.1 to 4 to 7 to 8")
    assert next(e for e in events if e["type"] == "travel")["paths"] == ["4-5", "4-7", "7-8"]
    assert names(s["queues"]["8"]) == ["blue:lady"] and s["queues"]["5"] == []
    assert s["vp"]["violet"] == 2 and s["time"]["blue"] == 10 and s["pending"] is None
    assert GAME.decision(s) == type(d)(("orange",), "action")


def test_figliolo_travel_done() -> None:
    s = travel_board()
    play_card(s, "blue", "play figliolo-travel 5.1 to 4", -3)
    assert names(s["queues"]["4"]) == ["blue:lady"] and GAME.decision(s).kind == "travel"
    assert GAME.passive_order(s, "blue") == "done"
    with_hand(s, "blue", "messere-cup")
    play(s, "blue", "discard messere-cup")   # no action: the follow-up stays with blue
    assert GAME.decision(s).kind == "travel" and s["time"]["blue"] == 10
    events = play(s, "blue", "done")
    assert {"type": "travel_done", "family": "blue"} in events
    assert s["pending"] is None and s["on_turn"] == "orange" and s["time"]["blue"] == 10


def test_figliolo_travel_refused() -> None:
    s = travel_board()
    refused(s, "blue", "play figliolo-travel 1.1 to 2 to 3 to 6 to 9",
            "write `play figliolo-travel L.P to A [to B [to C]]`")
    refused(s, "blue", "play figliolo-travel 1.1 to 5",
            "there is no path from 1 to 5 (members move only between orthogonal neighbours)")
    refused(s, "blue", "play figliolo-travel 1.1 to 2", "the queue at 2 has no free slot")
    refused(s, "blue", "play figliolo-travel 2.1 to 3", "the petitioner at 2.1 is not yours")
    s["time"]["blue"] = 2
    refused(s, "blue", "play figliolo-travel 1.1 to 4", "this card costs 3 time units and you have 2")
    refused(s, "blue", "travel 1.1 to 4", "`travel` is not possible now: you must decide action")


def test_figliolo_debutant() -> None:
    """"Setze 1 Debütanten an einem beliebigen Ort ein, an dem du bereits eine Dame oder den Maestro
    hast." (-2; a free slot needed, §16 R44)"""
    s = with_hand(board(q3=["blue:lady", "orange:deb"], q7=["blue:mae"]), "blue",
                  "figliolo-debutant", "figliolo-debutant")
    play_card(s, "blue", "play figliolo-debutant 3", -2)
    s["on_turn"] = "blue"
    play_card(s, "blue", "play figliolo-debutant 7", -2)
    assert names(s["queues"]["3"]) == ["blue:lady", "orange:deb", "blue:deb"]
    assert names(s["queues"]["7"]) == ["blue:mae", "blue:deb"]
    assert s["supply"]["blue"]["debutant"] == 3 and s["time"]["blue"] == 8


def test_figliolo_debutant_refused() -> None:
    s = with_hand(board(q2=["blue:deb"], q4=["orange:lady"], q3=["blue:lady"] + ["orange:deb"] * 4),
                  "blue", "figliolo-debutant")
    refused(s, "blue", "play figliolo-debutant 2", "you have no lady or maestro at 2")
    refused(s, "blue", "play figliolo-debutant 4", "you have no lady or maestro at 4")
    refused(s, "blue", "play figliolo-debutant 3", "the queue at 3 has no free slot")
    s["supply"]["blue"]["debutant"] = 0
    refused(s, "blue", "play figliolo-debutant 2", "you have no debutant on your board")


# -- playing in general -------------------------------------------------------------------------------

def test_play_general_refusals() -> None:
    """§6/§9: the card must be in the hand; playing is an action (not a bonus after passing)."""
    s = with_hand(board(q4=["blue:deb"]), "blue", "messere-swap")
    refused(s, "blue", "play messere-cup 4", "you hold no card messere-cup")
    refused(s, "blue", "play messere-fun 4", "there is no scandal card 'messere-fun' (cards: "
            + ", ".join(SCANDAL_CARDS) + ")")
    s["passed"], s["rings"] = ["blue"], {"blue": "6"}
    refused(s, "blue", "play messere-swap 4.1 with 4.2", "`play` is not possible now: you must decide bonus")


# -- draws (§9, §11) ----------------------------------------------------------------------------------

def draw(s: State, family: str) -> list[Event]:
    events: list[Event] = []
    F.draw_card(s, family, "cosimo", Rng("draw"), events, "spy 5")
    return events


def test_hand_limit() -> None:
    """R15: "Für jede Karte die du darüber hinaus erhalten würdest, erhältst du stattdessen 1
    Zeiteinheit": the card stays on the deck."""
    s = with_hand(board(), "blue", *["carissima-swap"] * 5)
    deck = list(s["scandal"]["deck"]["messere"])
    s["time"]["blue"] = 5
    assert draw(s, "blue") == [{"type": "hand_full", "family": "blue", "deck": "messere"}]
    assert s["time"]["blue"] == 6 and len(s["scandal"]["hand"]["blue"]) == 5
    assert s["scandal"]["deck"]["messere"] == deck


def test_reshuffle_and_empty_deck() -> None:
    """"Falls einem Medici die Skandalkarten ausgehen, mische seine abgeworfenen Karten zu einem neuen
    Stapel."; R45: deck and discards both empty: nothing."""
    s = board()
    s["scandal"]["deck"]["messere"], s["scandal"]["discard"]["messere"] = [], ["messere-cup", "messere-swap"]
    events = draw(s, "blue")
    assert events[0] == {"type": "reshuffle", "deck": "messere"}
    assert s["scandal"]["discard"]["messere"] == []
    assert sorted(s["scandal"]["hand"]["blue"] + s["scandal"]["deck"]["messere"]) == ["messere-cup", "messere-swap"]
    assert len(s["scandal"]["hand"]["blue"]) == 1
    s = board()
    s["scandal"]["deck"]["messere"] = []
    time = dict(s["time"])
    assert draw(s, "blue") == [{"type": "deck_empty", "deck": "messere", "family": "blue"}]
    assert s["scandal"]["hand"]["blue"] == [] and s["time"] == time


def test_rewards_of_the_medici_move() -> None:
    """§11: Cosimo from 1 to 6 enters 5, 2, 3, 6: head VP, then the boast reward, then the spies in
    the order placed. At 5 blue has the highest cup, a member and a spy: 2 cards; orange's spy draws
    without a member. At 2 the highest cup's family (orange) has no member: nobody draws, not the lower
    cup's blue. At 3 violet's cup draws."""
    s = board(q5=["blue:deb"], q2=["blue:deb", "violet:deb"], q3=["violet:deb"])
    s["boast"]["5"].update(low=cup("violet"), high=cup("blue"))
    s["boast"]["2"].update(low=cup("blue"), middle=cup("orange"))
    s["boast"]["3"]["middle"] = cup("violet")
    s["guards"]["spy"]["5"] = [guard("blue"), guard("orange")]
    s["scandal"]["deck"]["messere"] = ["messere-cup", "messere-swap", "messere-boast", "messere-retire"]
    events: list[Event] = []
    F.move_medici(s, Rng("move"), events)
    draws = [(e["family"], e["why"]) for e in events if e["type"] == "draw"]
    assert draws == [("blue", "boast 5"), ("blue", "spy 5"), ("orange", "spy 5"), ("violet", "boast 3")]
    assert s["scandal"]["hand"] == {"blue": ["messere-cup", "messere-swap"], "orange": ["messere-boast"],
                                    "violet": ["messere-retire"]}
    assert s["scandal"]["deck"]["messere"] == [] and s["vp"] == {"blue": 2, "orange": 0, "violet": 1}
    for e in events:   # a card's id only in the event addressed to the one who drew it
        ids = [c for c in SCANDAL_CARDS if c in json.dumps(e)]
        if ids:
            assert e["type"] == "draw_card" and e["to"] == [e["family"]] and ids == [e["card"]]
    assert sum(1 for e in events if e["type"] == "draw_card") == 4


def test_boast_and_spy_draw_two() -> None:
    """§8: "With the boast reward a family can draw 2 cards at one location"; the hand limit counts
    after the first."""
    s = with_hand(board(q5=["blue:deb"]), "blue", *["carissima-swap"] * 4)
    s["boast"]["5"]["high"] = cup("blue")
    s["guards"]["spy"]["5"] = [guard("blue")]
    s["guards"]["spy"]["2"] = [guard("orange")]
    s["time"]["blue"] = 3
    events: list[Event] = []
    F.move_medici(s, Rng("move"), events)
    at5 = [e["type"] for e in events if e.get("family") == "blue" and e["type"] in ("draw", "hand_full")]
    assert at5 == ["draw", "hand_full"]
    assert len(s["scandal"]["hand"]["blue"]) == 5 and s["time"]["blue"] == 4
    s = with_hand(board(q5=["blue:deb"]), "blue")
    s["boast"]["5"]["high"] = cup("blue")
    s["guards"]["spy"]["5"] = [guard("blue")]
    F.move_medici(s, Rng("move"), [])
    assert len(s["scandal"]["hand"]["blue"]) == 2 and s["scandal"]["hand"]["orange"] == []


# -- whole games --------------------------------------------------------------------------------------

def prefer_cards(state: State, player: str, chooser: Rng) -> str:
    """A legal `play` or `travel` order when there is one, else a random legal order."""
    cards = [o for o in GAME.candidate_orders(state, player) if o.startswith(("play ", "travel "))]
    while cards:
        order = cards.pop(chooser.below(len(cards), "card"))
        if GAME.why_illegal(state, player, order) is None:
            return order
    return random_legal(state, player, chooser)


SEEDS = [(3, "s3"), (4, "s4"), (5, "s5"), (3, "t3"), (4, "t4"), (5, "t5")]


def run_game(n: int, seed: str) -> dict[str, int]:
    players = ["blue", "orange", "violet", "green", "black"][:n]
    rng, chooser = Rng(seed), Rng(seed + "-c")
    state, _ = GAME.setup(players, {}, rng)
    played: dict[str, int] = {}
    steps = 0
    while (d := GAME.decision(state)) is not None:
        player = d.players[0]
        order = prefer_cards(state, player, chooser)
        hand = list(state["scandal"]["hand"][player])
        GAME.apply(state, player, order, rng)
        check_invariants(state)
        assert yaml.load(dump_yaml(state), Loader=SafeLoader) == state
        if order.startswith("play "):
            card = order.split()[1]
            hand.remove(card)
            assert state["scandal"]["hand"][player] == hand
            played[card] = played.get(card, 0) + 1
            if card == "figliolo-travel":   # the follow-up decision for the same family
                assert GAME.decision(state) == type(d)((player,), "travel")
        elif order.startswith("travel "):
            played["travel"] = played.get("travel", 0) + 1
        steps += 1
        assert steps < 5000
    assert state["phase"] == "over"
    return played


def test_random_games_play_every_card() -> None:
    """§17.4 with scandal cards: every kind is played across the seeds; invariants and YAML hold."""
    total: dict[str, int] = {}
    for n, seed in SEEDS:
        for card, k in run_game(n, seed).items():
            total[card] = total.get(card, 0) + k
    assert set(SCANDAL_CARDS) | {"travel"} == set(total), total
