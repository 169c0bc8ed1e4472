"""Florenz, the solo game against Strozzi (FLORENZ-PLAN.md §15, readings R6, R10-R14, R20-R29, R48-R51,
and the "Solo:" list of §17.3).

Scenarios in the style of the Diplomacy adjudicator cases: a state, the order given or the Strozzi card
drawn, and the expected outcome; each docstring quotes the German text of §15. Then whole solo games in
each variant, with random legal orders and with the bot, checking invariants after every order.

Notation of queues: `o:deb` an orange Strozzi debutant, `b:lady` a blue Strozzi lady, `a:mae` the
player's (anna's, violet) maestro; head first. The standard deck puts the carriages at Cosimo 1,
Contessina 7, Giovanni 4 and the targets at Cosimo 6, Contessina 8, Giovanni 9.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from pbem import bots
from pbem.errors import SetupError
from pbem.rng import Rng
from pbem.rules.florenz import Florenz
from pbem.rules.florenz import flow as F
from pbem.rules.florenz import solo as SOLO
from pbem.rules.florenz.data import LOCATIONS, PATHS
from pbem.rules.florenz.solo import STROZZI
from pbem.store import dump_yaml
from test_florenz_engine import random_legal

GAME = Florenz()
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
ME = "anna"
State = dict[str, Any]
Event = dict[str, Any]
RANKS = {"deb": "debutant", "lady": "lady", "mae": "maestro"}
SHORT = {v: k for k, v in RANKS.items()}
WHO = {"o": (STROZZI, "orange"), "b": (STROZZI, "blue"), "a": (ME, "violet")}
DECK: dict[str, Any] = {
    "carriages": {"cosimo": 1, "contessina": 7, "giovanni": 4},
    "destinations": [6, 8, 9, 2, 3, 5, 4, 1, 7],
    "time_tiles": [5, 7, 2, 9, 3, 8, 4, 6],
}
SLOTS = ("low", "middle", "high")


def q(*pieces: str) -> list[dict[str, Any]]:
    out = []
    for text in pieces:
        who, rank = text.split(":")
        family, colour = WHO[who]
        out.append({"family": family, "rank": RANKS[rank], "colour": colour})
    return out


def names(queue: list[dict[str, Any]]) -> list[str]:
    letter = {"orange": "o", "blue": "b", "violet": "a"}
    return [f"{letter[p['colour']]}:{SHORT[p['rank']]}" for p in queue]


def solo_game(variant: str = "normal", seed: str = "solo", **deck: Any) -> State:
    state, _ = GAME.setup([ME], {"solo": variant}, Rng(seed), {**DECK, **deck})
    return state


def resupply(s: State) -> None:
    """Supplies that match the pieces, guards and cups on the board."""
    for f, per in ((ME, 1), (STROZZI, 2)):
        sup = s["supply"][f]
        for rank, total in (("debutant", 5), ("lady", 3), ("maestro", 1)):
            sup[rank] = per * total - sum(1 for qu in s["queues"].values() for p in qu
                                          if p["family"] == f and p["rank"] == rank)
        sup["guard"] = per * 6 - sum(1 for k in s["guards"].values() for gs in k.values() for g in gs
                                     if g["family"] == f)
        sup["cup"] = per * 6 - sum(1 for t in s["boast"].values() for k in SLOTS if t[k] and t[k]["family"] == f)


def board(variant: str = "normal", round_: int = 1, **queues: list[str]) -> State:
    """A solo game in round `round_`'s action phase, anna on turn, no guards, the given queues
    (`q6=["o:deb"]`); targets Cosimo 6, Contessina 8, Giovanni 9 whatever the round."""
    s = solo_game(variant)
    s["phase"], s["round"], s["place_order"], s["on_turn"] = "actions", round_, [], ME
    for k in range(4, 10):
        s["sectors"][str(k)] = {"location": s["location_stack"][k - 4], "time": s["time_stack"][k - 4]}
    s["guards"] = {kind: {c: [] for c in crests} for kind, crests in s["guards"].items()}
    s["queues"] = {loc: q(*queues.get(f"q{loc}", [])) for loc in LOCATIONS}
    s["targets"] = {"cosimo": "6", "contessina": "8", "giovanni": "9"}
    resupply(s)
    return s


def guard(s: State, kind: str, crest: str, who: str = STROZZI) -> None:
    s["guards"][kind][crest].append({"family": who, "colour": "orange" if who == STROZZI else "violet"})
    resupply(s)


def card(s: State, n: int | None) -> list[Event]:
    """Strozzi carries out card `n` (`solo.play_card`), or takes a whole turn (`solo.turn`) for None."""
    events: list[Event] = []
    if n is None:
        SOLO.turn(s, Rng("turn"), events)
    else:
        SOLO.play_card(s, n, Rng("card"), events)
    return events


def play(s: State, order: str, seed: str = "play") -> list[Event]:
    return GAME.apply(s, ME, order, Rng(seed))


def guards_at(s: State, kind: str) -> dict[str, list[str]]:
    return {c: [g["family"] for g in gs] for c, gs in s["guards"][kind].items() if gs}


def his_crests(s: State) -> list[str]:
    return [f"{k} {c}" for k, cs in s["guards"].items() for c, gs in cs.items() for g in gs if g["family"] == STROZZI]


# -- set-up -------------------------------------------------------------------------------------------

def test_setup_normal() -> None:
    """Set-up: "Ist die Kutsche am Ort 1, stelle die Wache zwischen 1 und 2"; a spy at Contessina's
    target, a doorman at Giovanni's; an orange debutant at Cosimo's target and a blue one at Giovanni's
    before you; "Du erhältst die Startmünze"; slots blocked as for 2 families; "zu Beginn der Partie nur
    6 Zeiteinheiten"."""
    s = solo_game(strozzi_cards=[8, 1])
    assert s["families"] == [ME, STROZZI] and s["start_family"] == ME
    assert guards_at(s, "escort") == {"1-2": [STROZZI]}
    assert guards_at(s, "spy") == {"8": [STROZZI]} and guards_at(s, "doorman") == {"9": [STROZZI]}
    assert names(s["queues"]["6"]) == ["o:deb"] and names(s["queues"]["9"]) == ["b:deb"]
    assert sum(len(x) for x in s["queues"].values()) == 2
    assert s["supply"][STROZZI] == {"debutant": 8, "lady": 6, "maestro": 2, "guard": 9, "gift": 0, "cup": 12}
    assert set(s["open_slots"].values()) == {4}
    assert s["strozzi"]["deck"][:2] == [8, 1] and sorted(s["strozzi"]["deck"]) == list(range(1, 11))
    assert set(s["plan_cards"]) == {ME}
    assert GAME.decision(s).players == (ME,) and GAME.decision(s).kind == "place"
    assert "not empty" in GAME.why_illegal(s, ME, "place 6")
    assert "not empty" in GAME.why_illegal(s, ME, "place 9")
    play(s, "place 5")
    assert s["round"] == 1 and GAME.decision(s).players == (ME,) and GAME.decision(s).kind == "action"
    assert s["time"] == {ME: 12, STROZZI: 6}   # his clock is 6, not 6 + 12 (R20)
    play(s, "send 1")   # then Strozzi's turn: card 8, a boast for 2 time
    assert s["strozzi"]["discard"] == [8] and s["time"][STROZZI] == 4


def test_setup_escort_on_cosimos_first_arrow() -> None:
    """"auf Cosimos Wappen, auf das der 1. goldene Pfeil seines Weges zeigt" (R60): carriage at 7, the
    cycle goes 7 -> 4, so the escort stands on 4-7."""
    s = solo_game(carriages={"cosimo": 7, "contessina": 1, "giovanni": 4}, destinations=[6, 8, 9])
    assert guards_at(s, "escort") == {"4-7": [STROZZI]}


def test_setup_easier_and_harder() -> None:
    """Easier: "beginnt die Partie ohne Wachen auf dem Spielplan". Harder: "Gib Strozzi bei der
    Vorbereitung verdeckt 1 Plankarte", hidden from you until the end."""
    s = solo_game("easier")
    assert not any(gs for k in s["guards"].values() for gs in k.values())
    assert s["supply"][STROZZI]["guard"] == 12 and names(s["queues"]["6"]) == ["o:deb"]
    s = solo_game("harder", plan_cards={ME: 1, STROZZI: 5})
    assert s["plan_cards"] == {ME: 1, STROZZI: 5}
    assert GAME.view(s, ME)["plan_cards"] == {ME: 1}
    assert set(solo_game("harder")["plan_cards"]) == {ME, STROZZI}
    for players in (["anna", "bert"], ["anna", "bert", "carl"]):   # variants are for one player
        with pytest.raises(SetupError):
            GAME.setup(players, {"solo": "easier"}, Rng("x"))


# -- phase 1: his time --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,tile,gain", [
    ("normal", 2, 4), ("normal", 5, 5), ("normal", 9, 9),
    ("easier", 2, 4), ("easier", 5, 4), ("easier", 6, 5), ("easier", 9, 8),
    ("harder", 2, 4), ("harder", 3, 4), ("harder", 4, 5), ("harder", 8, 9), ("harder", 9, 9),
])
def test_time_gain_rounds_2_to_9(variant: str, tile: int, gain: int) -> None:
    """"ebenso viel Zeit wie du, aber niemals weniger als 4"; easier "1 Zeiteinheit weniger pro Runde
    (aber immer noch mind. 4)"; harder "1 Zeiteinheit mehr pro Runde (aber max. 9)"."""
    s = board(variant)
    s["time"] = {ME: 0, STROZZI: 0}
    s["sectors"]["2"]["time"] = tile
    F.start_round(s, 2, Rng("r"), [])
    assert s["time"] == {ME: tile, STROZZI: gain}
    s["time"][STROZZI] = 10
    s["sectors"]["3"]["time"] = tile
    s["passed"] = []
    F.start_round(s, 3, Rng("r"), [])
    assert s["time"][STROZZI] == 12   # capped


# -- cards 1-5: placing -------------------------------------------------------------------------------

def test_card1_cosimo_debutant_before_all_debutants() -> None:
    """Card 1 (A = Cosimo in round 1, orange): Cosimo "vor allen anderen Debütanten ein, die schon dort
    sind" (R24: behind ladies, first among debutants); "-3" from his clock first."""
    s = board(q6=["a:lady", "a:deb", "b:deb"])
    card(s, 1)
    assert names(s["queues"]["6"]) == ["a:lady", "o:deb", "a:deb", "b:deb"]
    assert s["time"][STROZZI] == 3 and s["strozzi"]["discard"] == [1]


def test_card3_contessina_lady() -> None:
    """Card 3 (B = Contessina in round 1, orange): "Beachte dabei, um welchen Medici es sich handelt":
    Contessina, 1 lady of the colour by the usual rules; short of time: "Seine Uhr geht auf „0“, aber er
    führt die Aktion aus"; doormen: "Die Regeln für Türsteher und Spione gelten unverändert auch für
    Strozzi"."""
    s = board(q8=["a:lady", "a:deb"])
    s["time"][STROZZI] = 1
    card(s, 3)
    assert names(s["queues"]["8"]) == ["a:lady", "o:lady", "a:deb"] and s["time"][STROZZI] == 0
    s = board(q8=["a:lady", "a:deb"])
    guard(s, "doorman", "8")
    card(s, 3)
    assert names(s["queues"]["8"]) == ["o:lady", "a:lady", "a:deb"]


def test_card4_giovanni_two_debutants() -> None:
    """Card 4 (C = Giovanni in round 1): "Beachte dabei, um welchen Medici es sich handelt": Giovanni,
    2 debutants, 1 orange and 1 blue, by the usual rules, orange first (R26); his doorman puts them
    before your debutants."""
    s = board(q9=["a:deb"])
    card(s, 4)
    assert names(s["queues"]["9"]) == ["a:deb", "o:deb", "b:deb"]
    s = board(q9=["a:deb"])
    guard(s, "doorman", "9")
    card(s, 4)
    assert names(s["queues"]["9"]) == ["b:deb", "o:deb", "a:deb"]


def test_cards_search_a_b_c_a() -> None:
    """"in der Reihenfolge A-B-C-A" (R25): the Medici of the location actually used decides the piece.
    Card 3 (B) with 8 full goes to C (9, Giovanni: two debutants); card 4 (C) with 9 full goes to A (6,
    Cosimo: one debutant of the card's colour, blue); card 4 with one free slot at 9 places the orange
    one there and the blue one goes on to 6 (R26)."""
    s = board(q8=["a:deb"] * 4)
    card(s, 3)
    assert names(s["queues"]["9"]) == ["o:deb", "b:deb"] and names(s["queues"]["8"]) == ["a:deb"] * 4
    s = board(q9=["a:deb"] * 4, q6=["a:deb"])
    card(s, 4)
    assert names(s["queues"]["6"]) == ["b:deb", "a:deb"]
    s = board(q9=["a:deb"] * 3)
    card(s, 4)
    assert names(s["queues"]["9"]) == ["a:deb"] * 3 + ["o:deb"] and names(s["queues"]["6"]) == ["b:deb"]


def test_giovanni_second_debutant_searches_again_after_the_box_rule() -> None:
    """Card 1, round 9 (A = B = C = Giovanni, whose target is 8; the others have none left). The text:
    "Giovanni: Er setzt 2 Debütanten (1 orange, 1 blau) nach den üblichen Regeln ein. Ist in der
    Warteschlange kein Feld frei, versucht er es an den Zielorten der anderen Medici in der Reihenfolge
    A-B-C-A. Findet er auch dort kein freies Feld, geht er vom Zielort von Medici A entgegen den Pfeilen
    rückwärts, bis er einen Ort mit einem freien Feld findet", and the box: "1. Stelle alle
    Familienmitglieder dieser Farbe zurück auf sein Tableau, sofern sie nicht auf dem Zielort eines
    Medici stehen. 2. Setze dann das Familienmitglied ein." The plan: "R64 Each debutant takes the first
    location of the search with a free slot (orange first, then blue)" (R26: "each with the full
    search").

    State: 8 (the target) is full; 9, the first location backwards from 8, is full and holds two orange
    debutants of his; 6, next backwards, is empty; all five orange debutants are on the board, the blue
    ones on his family board. Outcome: orange's search passes the full 9 and finds 6; no orange debutant
    is on his family board, so the box rule sends the two at 9 home (8 is a target: its three stay) and
    orange enters at 6. Blue then searches on its own, from the target: 8 is still full, and 9 now has
    two free slots, so blue enters at 9, not beside orange at 6."""
    s = board(round_=9, q8=["o:deb", "o:deb", "o:deb", "a:deb"], q9=["a:deb", "o:deb", "o:deb", "a:deb"])
    s["targets"] = {"giovanni": "8"}
    assert SOLO.on_board(s, "orange", "debutant") == 0 and SOLO.on_board(s, "blue", "debutant") == 5
    events = card(s, 1)
    assert [e for e in events if e["type"] != "strozzi_card"] == [
        {"type": "strozzi_recall", "colour": "orange", "pieces": 2},
        {"type": "strozzi_place", "location": "6", "rank": "debutant", "colour": "orange"},
        {"type": "strozzi_place", "location": "9", "rank": "debutant", "colour": "blue"},
    ]
    assert names(s["queues"]["6"]) == ["o:deb"]
    assert names(s["queues"]["9"]) == ["a:deb", "a:deb", "b:deb"]
    assert names(s["queues"]["8"]) == ["o:deb", "o:deb", "o:deb", "a:deb"]
    assert SOLO.on_board(s, "orange", "debutant") == 1 and SOLO.on_board(s, "blue", "debutant") == 4


def test_cards_backward_search_from_a() -> None:
    """"geht er vom Zielort von Medici A entgegen den Pfeilen rückwärts, bis er einen Ort mit einem
    freien Feld findet" (placing what A calls for). Round 1: 6, 8, 9 full, then 3 (before 6) full: 2,
    a Cosimo debutant first among debutants. Round 2 (A = Contessina, target 8): 8, 9, 6 full; backwards
    from 8 the cycle gives 9 and 6 (full), then 3, which takes a lady, as Contessina calls for."""
    full = ["a:deb"] * 4
    s = board(q6=full, q8=full, q9=full, q3=full, q2=["a:deb"])
    card(s, 2)
    assert names(s["queues"]["2"]) == ["b:deb", "a:deb"]
    s = board(round_=2, q6=full, q8=full, q9=full, q3=["a:deb"], q7=["a:deb"])
    card(s, 1)
    assert names(s["queues"]["3"]) == ["o:lady", "a:deb"] and names(s["queues"]["7"]) == ["a:deb"]


def test_place_out_of_supply_box_rule() -> None:
    """Kasten unten links: "1. Stelle alle Familienmitglieder dieser Farbe zurück auf sein Tableau,
    sofern sie nicht auf dem Zielort eines Medici stehen. 2. Setze dann das Familienmitglied ein" (R10:
    every rank of that colour). "Kann kein Familienmitglied vom Spielplan entfernt werden, tut Strozzi
    nichts.\""""
    s = board(q9=["o:deb", "o:deb"], q1=["o:lady", "o:deb", "b:deb"], q2=["o:deb", "o:deb"])
    assert SOLO.on_board(s, "orange", "debutant") == 0
    card(s, 1)
    assert names(s["queues"]["1"]) == ["b:deb"] and s["queues"]["2"] == []
    assert names(s["queues"]["9"]) == ["o:deb", "o:deb"] and names(s["queues"]["6"]) == ["o:deb"]
    assert SOLO.on_board(s, "orange", "debutant") == 2 and SOLO.on_board(s, "orange", "lady") == 3
    s = board(q9=["o:deb"] * 3, q8=["o:deb", "o:deb"])
    events = card(s, 1)
    assert s["queues"]["6"] == [] and s["time"][STROZZI] == 3
    assert any(e["type"] == "strozzi_nothing" for e in events)


def test_card5_fewer_colour_and_the_tie() -> None:
    """Card 5: "der Farbe, von der er weniger auf dem Spielplan hat (deine Wahl bei Gleichstand)" (B =
    Contessina: a lady at 8; R27: on a tie a `colour` decision for the player during Strozzi's turn,
    `colour green` refused; the player's turn follows)."""
    for pieces, lady in ((["o:deb", "b:deb", "b:deb"], "o:lady"), (["o:deb", "o:lady", "b:deb"], "b:lady")):
        s = board(q1=pieces)
        card(s, 5)
        assert names(s["queues"]["8"]) == [lady]
    s = board(q1=["o:deb"], q2=["b:deb"])
    s["strozzi"]["deck"] = [5, 1, 2]
    play(s, "send 3")
    d = GAME.decision(s)
    assert d.players == (ME,) and d.kind == "colour"
    assert sorted(GAME.legal_orders(s, ME)) == ["colour blue", "colour orange"]
    assert GAME.why_illegal(s, ME, "colour green") == "Strozzi's colours are orange and blue"
    assert GAME.why_illegal(s, ME, "send 4") is not None
    play(s, "colour blue")
    assert names(s["queues"]["8"]) == ["b:lady"] and s["pending"] is None
    assert GAME.decision(s).kind == "action" and s["on_turn"] == ME
    assert yaml.load(dump_yaml(s), Loader=SafeLoader) == s


# -- card 6: "Zeit zum Feiern!" ------------------------------------------------------------------------

@pytest.mark.parametrize("variant,round_,clock,left,vp", [
    ("normal", 1, 5, 0, 0), ("normal", 3, 7, 3, 0), ("normal", 6, 2, 2, 0),
    ("harder", 1, 5, 2, 10), ("harder", 9, 7, 5, 8),
])
def test_card6_party(variant: str, round_: int, clock: int, left: int, vp: int) -> None:
    """"Strozzi gibt seine verbliebenen Zeiteinheiten komplett aus und passt dann sofort"; Giovanni
    active: "Er gibt alle verbliebenen Zeiteinheiten bis auf 3 aus und passt"; harder: "2 SP pro
    ausgegebener Zeiteinheit" and "Falls Strozzi als 1. passt, erhält er nach dem Passen einmalig 2
    Zeiteinheiten"."""
    s = board(variant, round_)
    s["time"][STROZZI], s["strozzi"]["drawn"] = clock, 2
    card(s, 6)
    assert (s["time"][STROZZI], s["vp"][STROZZI], s["passed"]) == (left, vp, [STROZZI])


def test_card6_as_first_card_is_replaced() -> None:
    """"Falls dies die 1. Karte ist, die Strozzi in dieser Runde zieht: Ignoriere die Karte, ziehe 1 neue
    und mische diese Karte zurück in den Stapel" (R49: it may come again and then counts)."""
    s = board()
    s["strozzi"]["deck"] = [6, 3, 8, 9]
    events = card(s, None)
    assert names(s["queues"]["8"]) == ["o:lady"] and s["strozzi"]["discard"] == [3]
    assert sorted(s["strozzi"]["deck"]) == [6, 8, 9] and s["passed"] == []
    assert {"type": "strozzi_card", "card": 6, "ignored": True} in events
    s["strozzi"]["deck"] = [6, 8]
    card(s, None)
    assert s["passed"] == [STROZZI] and s["time"][STROZZI] == 0


# -- card 7: "Eine Freundin" ---------------------------------------------------------------------------

def test_card7_debutant_to_lady() -> None:
    """"Erhöhe 1 Debütanten beliebiger Farbe am Zielort von Medici A zu einer Dame" (his rearmost)."""
    s = board(q6=["o:deb", "a:deb", "b:deb"])
    card(s, 7)
    assert names(s["queues"]["6"]) == ["b:lady", "o:deb", "a:deb"] and s["time"][STROZZI] == 3
    assert s["supply"][STROZZI]["lady"] == 5 and s["supply"][STROZZI]["debutant"] == 9


def test_card7_lady_there_becomes_maestro() -> None:
    """"Hat Strozzi dort bereits eine Dame ... dann erhöht er stattdessen 1 Dame zum Maestro.\""""
    s = board(q6=["o:lady", "o:deb"])
    card(s, 7)
    assert names(s["queues"]["6"]) == ["o:mae", "o:deb"]


def test_card7_no_lady_in_supply_and_no_debutant_go_on() -> None:
    """"oder keinen Debütanten, oder keine Dame auf dem Tableau": nothing at A's target (6) works (a
    blue debutant, but every blue lady in play, no lady there), nor at B's (8, nobody): C's target 9."""
    s = board(q6=["b:deb"], q2=["b:lady", "b:lady", "b:lady"], q9=["a:deb", "o:deb"])
    card(s, 7)
    assert names(s["queues"]["6"]) == ["b:deb"] and names(s["queues"]["9"]) == ["o:lady", "a:deb"]


def test_card7_maestro_by_the_box_rule() -> None:
    """"Beachte die Regeln im Kasten unten links": his orange maestro away from the targets comes
    back with every orange piece there; the lady at A's target becomes the maestro."""
    s = board(q6=["o:lady", "a:deb"], q1=["o:mae", "b:mae", "o:deb", "b:deb"], q9=["o:lady", "o:deb"])
    card(s, 7)
    assert names(s["queues"]["6"]) == ["o:mae", "a:deb"]
    assert names(s["queues"]["1"]) == ["b:mae", "b:deb"] and names(s["queues"]["9"]) == ["o:lady", "o:deb"]


def test_card7_boasts_when_nothing_fits() -> None:
    """"Hat Strozzi an keinem der Zielorte ein passendes Familienmitglied, prahlt er stattdessen" (data
    promote_fallback: 3 VP, orange, as cards 8/9: round 1 x2 on the low slot after A's carriage)."""
    s = board(q1=["o:deb"])
    card(s, 7)
    assert s["boast"]["5"]["low"] == {"family": STROZZI, "colour": "orange"} and s["vp"][STROZZI] == 6


# -- cards 8 and 9: boasting ---------------------------------------------------------------------------

@pytest.mark.parametrize("variant,round_,slot,vp", [
    ("normal", 1, "low", 6), ("normal", 4, "middle", 9), ("normal", 7, "high", 12),
    ("easier", 2, "low", 3), ("easier", 5, "middle", 6), ("easier", 8, "high", 9),
])
def test_cards_8_9_boast_by_third(variant: str, round_: int, slot: str, vp: int) -> None:
    """"an dem Ort, der in Pfeilrichtung hinter dem Standort von Medici A liegt" (R13); rounds 1-3 x2
    "0-6", 4-6 x3 "7-12", 7-9 x4 "13+"; easier "1-mal/2-mal/3-mal"; no condition and no member."""
    s = board(variant, round_)
    s["time"][STROZZI] = 6
    a = SOLO.letters(s)["A"]
    loc = {"1": "5", "7": "4", "4": "1"}[s["carriages"][a]]
    card(s, 8)
    assert s["boast"][loc][slot] == {"family": STROZZI, "colour": "orange"} and s["vp"][STROZZI] == vp
    assert s["time"][STROZZI] == 4 and s["supply"][STROZZI]["cup"] == 11
    card(s, 9)
    after = {"5": "2", "4": "1", "1": "5"}[loc]   # his cup lies at loc: the next tile on the cycle
    assert s["boast"][after][slot] == {"family": STROZZI, "colour": "blue"} and s["vp"][STROZZI] == 2 * vp


def test_cards_8_9_onward_search_and_cup_colour() -> None:
    """"Ist das angegebene Feld der Prahltafel besetzt, versucht er es an den in Pfeilrichtung folgenden
    Orten"; only "besetzt" sends him on, so a tile with his cup on another slot is "passend" (R12);
    no orange cup left: a blue one (R50)."""
    s = board()
    s["boast"]["5"]["low"] = {"family": ME, "colour": "violet"}
    s["boast"]["2"]["high"] = {"family": STROZZI, "colour": "blue"}
    for loc in ("4", "7", "8", "9", "6", "1"):
        s["boast"][loc]["middle"] = {"family": STROZZI, "colour": "orange"}
    resupply(s)
    card(s, 8)
    assert s["boast"]["2"]["low"] == {"family": STROZZI, "colour": "blue"} and s["vp"][STROZZI] == 6
    s = board()
    for loc in LOCATIONS:
        s["boast"][loc]["low"] = {"family": ME, "colour": "violet"}
    events = card(s, 9)
    assert s["vp"][STROZZI] == 0 and any(e["type"] == "strozzi_nothing" for e in events)


# -- card 10: a guard ---------------------------------------------------------------------------------

@pytest.mark.parametrize("round_,taken,cosimo,placed", [
    (1, [], "6", "spy 8"),                               # B = Contessina: the spy at her target
    (1, ["spy 8 S"], "6", "spy 9"),                      # taken (R29: his own too): 9 comes before 8
    (1, ["spy 8 a"], "6", "spy 9"),
    (2, [], "6", "doorman 9"),                           # B = Giovanni: the doorman at his target
    (2, ["doorman 9 a"], "6", "doorman 6"),
    (3, [], "6", "escort 3-6"),                          # B = Cosimo: the path into 6
    (3, ["escort 3-6 a"], "6", "escort 2-3"),            # then the path into 3
    (3, [], "5", "escort 1-4"),                          # into 5 is the park diagonal: no crest (R28)
    (9, [], "6", None),                                  # round 9: 2 VP
    (1, [f"spy {x} a" for x in LOCATIONS], "6", None),   # no suitable crest: 2 VP
    (1, ["none left"], "6", None),                       # no guard in his supply: 2 VP (R50)
])
def test_card10_guard(round_: int, taken: list[str], cosimo: str, placed: str | None) -> None:
    """"Strozzi stellt 1 Wache auf das Wappen von Medici B an dessen Zielort (oder im Fall von Cosimo
    direkt vor dem Zielort). Ist dieses Wappen besetzt, geht er rückwärts (entgegen der Pfeilrichtung),
    bis er ein passendes Wappen findet. Gibt es kein passendes Wappen, oder seid ihr in Runde 9, erhält
    Strozzi stattdessen 2 SP.\""""
    s = board(round_=round_)
    s["targets"]["cosimo"] = cosimo
    for t in taken:
        if t == "none left":
            s["supply"][STROZZI]["guard"] = 0
        else:
            kind, crest, who = t.split()
            guard(s, kind, crest, STROZZI if who == "S" else ME)
    before = his_crests(s)
    card(s, 10)
    assert [c for c in his_crests(s) if c not in before] == ([placed] if placed else [])
    assert s["vp"][STROZZI] == (0 if placed else 2) and s["time"][STROZZI] == 4


# -- passing ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("round_,clock,member,passes", [
    (1, 0, False, True), (1, 1, True, False),                     # "Falls er 0 Zeiteinheiten ..."
    (3, 3, True, True), (6, 1, True, True), (3, 3, False, False), (3, 4, True, False), (2, 3, True, False),
])
def test_when_he_passes(round_: int, clock: int, member: bool, passes: bool) -> None:
    """"Falls er 0 Zeiteinheiten und nicht gepasst hat" he passes without drawing; "passt Strozzi,
    sobald er weniger als 4 Zeiteinheiten übrig und ein Familienmitglied an Giovanni's Ort hat" (R21:
    Giovanni's target, rounds 3, 6, 9)."""
    s = board(round_=round_, q9=["b:deb"] if member else [])
    s["time"][STROZZI] = clock
    s["strozzi"]["deck"] = [8, 9, 10]
    card(s, None)
    assert (s["passed"] == [STROZZI]) is passes and (s["strozzi"]["deck"] == [8, 9, 10]) is passes


@pytest.mark.parametrize("queues,anna_ring,ring", [
    ({"q6": ["a:deb", "o:deb"]}, None, "6"),                                          # A, a swap, not his head
    ({"q6": ["o:lady", "a:deb", "b:deb"], "q8": ["a:deb", "b:deb"]}, None, "8"),      # his head at 6
    ({"q6": ["o:lady", "a:deb", "b:deb"]}, None, "6"),                                # only a swap
    ({"q6": ["o:deb", "a:deb"], "q9": ["b:deb"]}, None, None),                        # no swap: keeps the ring
    ({"q6": ["a:deb", "o:deb"], "q8": ["a:deb", "o:deb"]}, "6", "8"),                 # your ring at 6
])
def test_ring_rule(queues: dict[str, list[str]], anna_ring: str | None, ring: str | None) -> None:
    """"den 1. Zielort eines Medici (in der Reihenfolge A, B, C), an dem er kein Familienmitglied am Kopf
    der Warteschlange hat und mit dir eine Position tauschen könnte. Gibt es keinen solchen Ort, geht er
    an den 1., an dem ein Positionstausch möglich ist. Geht auch das nicht, behält er den Ring.\""""
    s = board(**queues)
    if anna_ring:
        s["rings"][ME] = anna_ring
    s["time"][STROZZI] = 0
    card(s, None)
    assert s["passed"] == [STROZZI] and s["rings"].get(STROZZI) == ring
    assert s["time"][STROZZI] == 0   # no 2 time for passing first (R23)


def test_after_passing_the_swap() -> None:
    """"Er vertauscht dort, wo sein Ring liegt, sein am weitesten hinten stehendes Familienmitglied mit
    deinem, falls es davor steht" (R6)."""
    s = board(q6=["a:deb", "o:deb", "a:deb", "b:deb"])
    s["passed"], s["rings"] = [STROZZI], {STROZZI: "6"}
    card(s, None)
    assert names(s["queues"]["6"]) == ["a:deb", "o:deb", "b:deb", "a:deb"] and s["vp"][STROZZI] == 0


@pytest.mark.parametrize("round_,vp", [(1, 1), (3, 1), (4, 2), (6, 2), (7, 3), (9, 3)])
def test_after_passing_vp_by_round(round_: int, vp: int) -> None:
    """Otherwise "1/2/3 SP in Runde 1-3 / 4-6 / 7-9" (same-rank only: a lady is not swapped with your
    debutant)."""
    s = board(round_=round_, q6=["a:deb", "o:lady"][::-1])
    s["passed"], s["rings"] = [STROZZI], {STROZZI: "6"}
    card(s, None)
    assert s["vp"][STROZZI] == vp and names(s["queues"]["6"]) == ["o:lady", "a:deb"]


def test_your_swap_bonus_with_his_piece() -> None:
    """"Your swap bonus may swap with Strozzi's pieces" (§15): you passed at 6, he guards (card 10)."""
    s = board(q6=["a:deb", "o:deb"])
    s["strozzi"]["deck"] = [10, 8]
    play(s, "pass 6")
    assert s["rings"] == {ME: "6"} and guards_at(s, "spy") == {"8": [STROZZI]}
    assert "swap 6.1 with 6.2" in GAME.legal_orders(s, ME)
    play(s, "swap 6.1 with 6.2")
    assert names(s["queues"]["6"]) == ["o:deb", "a:deb"]


def test_strozzi_last_to_pass_ends_the_phase() -> None:
    """"Falls du aber in Zugreihenfolge die letzte Familie bist, die passt, endet die Runde stattdessen":
    you passed first (+2), he passes last, no ring, phase 3 follows; meanwhile you take your bonuses."""
    s = board(q5=["a:deb"])
    s["time"][STROZZI] = 2
    s["strozzi"]["deck"] = [8, 9, 10]
    play(s, "pass 5")
    assert s["time"][ME] == 12 and s["strozzi"]["discard"] == [8]
    assert GAME.decision(s).kind == "bonus" and "bonus time" in GAME.legal_orders(s, ME)
    events = play(s, "bonus vp")
    assert {"type": "strozzi_pass", "ring": None, "last": True} in events
    assert any(e["type"] == "medici_move" for e in events) and s["round"] == 2


def test_harder_no_bonus_after_passing_first() -> None:
    """Harder: "Falls du zuerst passt, erhältst du keinen Bonus, sobald du wieder am Zug wärst.\""""
    s = board("harder", q5=["a:deb"])
    s["time"][STROZZI] = 6
    s["strozzi"]["deck"] = [8, 9, 10]
    events = play(s, "pass 5")
    round1 = events[:next(i for i, e in enumerate(events) if e["type"] == "medici_move")]
    assert [e["card"] for e in round1 if e["type"] == "strozzi_card"] == [8, 9, 10]
    assert s["round"] == 2 and not any(e["type"] == "bonus" for e in events)
    assert {"type": "strozzi_pass", "ring": None, "last": True} in events
    assert not any(e["type"] == "strozzi_time" for e in events)   # not first: no +2


def test_harder_two_time_when_he_passes_first() -> None:
    """Harder: "Falls Strozzi als 1. passt, erhält er nach dem Passen einmalig 2 Zeiteinheiten"; you are
    then the last to pass (plain `pass`)."""
    s = board("harder")
    s["time"][STROZZI] = 0
    card(s, None)
    assert s["time"][STROZZI] == 2 and s["passed"] == [STROZZI]
    assert [o for o in GAME.legal_orders(s, ME) if o.startswith("pass")] == ["pass"]


# -- escorts ------------------------------------------------------------------------------------------

def test_escorts_in_the_solo_game() -> None:
    """"erhalte 1 SP und 1 Zeiteinheit" for your own escort; his escort gives him 2 SP when you cross."""
    s = board(q1=["a:deb"])
    guard(s, "escort", "1-2", ME)
    guard(s, "escort", "2-3")
    s["time"][ME] = 10
    play(s, "hurry 1.1 to 2 to 3")
    assert s["time"][ME] == 10 - 3 + 1 and s["vp"] == {ME: 1, STROZZI: 2}
    assert names(s["queues"]["3"]) == ["a:deb"]


def test_harder_no_move_over_his_guard() -> None:
    """Harder: "Du kannst dich nicht über Straßen bewegen, auf denen eine Wache von Strozzi steht.\""""
    s = board("harder", q1=["a:deb"])
    guard(s, "escort", "1-2")
    msg = "a Strozzi guard stands on the path 1-2 (harder solo game: you may not cross it)"
    assert GAME.why_illegal(s, ME, "move 1.1 to 2") == msg
    assert GAME.why_illegal(s, ME, "hurry 1.1 to 4 to 5") is None
    assert GAME.why_illegal(s, ME, "hurry 1.1 to 2 to 3") == msg
    s["scandal"]["hand"][ME] = ["figliolo-travel", "figliolo-teleport"]
    assert GAME.why_illegal(s, ME, "play figliolo-travel 1.1 to 2") == msg
    assert GAME.why_illegal(s, ME, "play figliolo-teleport 1.1 to 2") is None   # ignores paths
    s = board("normal", q1=["a:deb"])
    guard(s, "escort", "1-2")
    assert GAME.why_illegal(s, ME, "move 1.1 to 2") is None


# -- phases 3-5 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant,time_gained", [("normal", 2), ("easier", 1)])
def test_his_scandal_cards_become_time(variant: str, time_gained: int) -> None:
    """"Müsste er eine Skandalkarte erhalten, wirf die Karte ab und gib ihm stattdessen 1 Zeiteinheit"
    (boast reward and spy alike, R14); easier: "keine Zeit anstelle einer Skandalkarte" for boasting,
    the card still drawn and discarded. Cosimo's route 1 -> 5 -> 2 -> 3 -> 6: his top cup at 5 with his
    member there, his spy at 2."""
    s = board(variant, q5=["o:deb"])
    s["boast"]["5"]["high"] = {"family": STROZZI, "colour": "blue"}
    s["boast"]["5"]["middle"] = {"family": ME, "colour": "violet"}
    guard(s, "spy", "2")
    s["time"][STROZZI] = 0
    top = s["scandal"]["deck"]["messere"][:3]
    events: list[Event] = []
    F.move_medici(s, Rng("m"), events)
    assert s["scandal"]["discard"]["messere"] == top[:2] and s["scandal"]["deck"]["messere"][0] == top[2]
    assert [e["card"] for e in events if e["type"] == "strozzi_card_discarded"] == top[:2]
    assert s["time"][STROZZI] == time_gained and s["vp"][STROZZI] == 1   # head at 5


@pytest.mark.parametrize("variant,clock,vp,left", [
    ("normal", 6, 20, 2), ("normal", 2, 20, 0), ("easier", 2, 10, 0), ("easier", 4, 20, 0),
    ("normal", 0, 0, 0), ("easier", 0, 0, 0),
])
def test_giovanni_pays_what_he_has(variant: str, clock: int, vp: int, left: int) -> None:
    """"gibt er die nötige Zeit aus; falls er nicht genug Zeiteinheiten hat, gibt er sie komplett aus und
    erhält die Siegpunkte. Hat er gar keine Zeit, kann er bei Giovanni keine Siegpunkte erhalten";
    easier: "nur die Hälfte der Siegpunkte" when short. Then you are offered place 2 (place 1 if he
    got nothing)."""
    s = board(variant, 3, q9=["b:deb", "a:deb"])
    s["time"][STROZZI] = clock
    F.score_queue(s, Rng("g"), [])
    assert s["vp"][STROZZI] == vp and s["time"][STROZZI] == left
    assert GAME.decision(s).players == (ME,) and s["giovanni"]["offer"] == (1 if clock else 0)
    play(s, "accept")
    assert s["vp"][ME] == (12 if clock else 20)


def test_clean_up_keeps_top_three() -> None:
    """"Lege die obersten 3 Strozzi-Karten vom Stapel beiseite, mische die übrigen mit dem Abwurfstapel
    zusammen und lege die 3 Karten wieder verdeckt auf den Stapel.\""""
    s = board()
    s["strozzi"] = {"deck": [4, 9, 2, 7, 1], "discard": [3, 5, 6, 8, 10], "drawn": 3}
    SOLO.clean_up(s, Rng("c"), [])
    assert s["strozzi"]["deck"][:3] == [4, 9, 2] and sorted(s["strozzi"]["deck"]) == list(range(1, 11))
    assert s["strozzi"]["discard"] == [] and s["strozzi"]["drawn"] == 0
    s["strozzi"] = {"deck": [4, 9], "discard": [1, 2, 3, 5, 6, 7, 8, 10], "drawn": 1}
    SOLO.clean_up(s, Rng("c"), [])
    assert s["strozzi"]["deck"][:2] == [4, 9] and len(s["strozzi"]["deck"]) == 10


def test_empty_deck_reshuffles_discards() -> None:
    """R48: his deck runs out during a round: the discards form a new deck."""
    s = board()
    s["strozzi"] = {"deck": [], "discard": [8], "drawn": 2}
    card(s, None)
    assert s["strozzi"]["discard"] == [8] and s["strozzi"]["deck"] == [] and s["vp"][STROZZI] == 6


@pytest.mark.parametrize("mine,his,ranks", [(30, 30, {ME: 2, STROZZI: 1}), (31, 30, {ME: 1, STROZZI: 2}),
                                            (10, 30, {ME: 2, STROZZI: 1})])
def test_result(mine: int, his: int, ranks: dict[str, int]) -> None:
    """"Um zu gewinnen, musst du mehr Siegpunkte haben als Strozzi" (R51: a tie is Strozzi's win)."""
    s = board(q1=["a:deb", "a:deb"])
    s["vp"] = {ME: mine, STROZZI: his}
    assert {r["player"]: r["rank"] for r in GAME.result(s)} == ranks
    assert {r["player"]: r["score"] for r in GAME.result(s)} == {ME: mine, STROZZI: his}


def test_harder_plan_card_scores_for_him() -> None:
    """Harder: Strozzi scores his plan card like everyone, counting both colours."""
    s = board("harder")
    s["plan_cards"][STROZZI] = 1
    from pbem.rules.florenz.data import PLAN_CARDS
    locs = PLAN_CARDS[1]["locations"]
    s["queues"][str(locs[0])] = q("o:deb", "b:deb")
    s["queues"][str(locs[1])] = q("b:lady", "o:deb")
    s["time"] = {ME: 0, STROZZI: 0}
    F.final_scoring(s, [])
    assert s["vp"][STROZZI] == PLAN_CARDS[1]["vp"][4] and s["phase"] == "over"
    assert GAME.view(s, ME)["plan_cards"][STROZZI] == 1


# -- whole games --------------------------------------------------------------------------------------

def check_solo(s: State, before: dict[str, int]) -> None:
    sup = s["supply"][ME]
    assert sum(1 for qu in s["queues"].values() for p in qu if p["family"] == ME) \
        + sup["debutant"] + sup["lady"] + sup["maestro"] + len(s["removed"][ME]) == 9
    for f, n in ((ME, 6), (STROZZI, 12)):
        assert sum(1 for k in s["guards"].values() for gs in k.values() for g in gs
                   if g["family"] == f) + s["supply"][f]["guard"] == n
        assert sum(1 for t in s["boast"].values() for k in SLOTS if t[k] and t[k]["family"] == f) \
            + s["supply"][f]["cup"] == n
    for rank, n in (("debutant", 10), ("lady", 6), ("maestro", 2)):
        assert sum(1 for qu in s["queues"].values() for p in qu
                   if p["family"] == STROZZI and p["rank"] == rank) + s["supply"][STROZZI][rank] == n
        for c in ("orange", "blue"):
            assert 0 <= SOLO.on_board(s, c, rank)
    assert s["removed"][STROZZI] == [] and s["scandal"]["hand"][STROZZI] == [] and s["supply"][STROZZI]["gift"] == 0
    assert len(s["scandal"]["hand"][ME]) <= 5 and len(set(s["rings"].values())) == len(s["rings"])
    for f in (ME, STROZZI):
        assert 0 <= s["time"][f] <= 12 and s["vp"][f] >= before[f]
    for loc, qu in s["queues"].items():
        assert len(qu) <= s["open_slots"][loc]
        ranks = [{"maestro": 0, "lady": 1, "debutant": 2}[p["rank"]] for p in qu]
        assert ranks == sorted(ranks)
    sc = s["scandal"]
    assert sum(len(x) for part in (sc["deck"], sc["discard"], sc["hand"]) for x in part.values()) == 36
    st = s["strozzi"]
    assert sorted(st["deck"] + st["discard"]) == list(range(1, 11))
    assert sorted(s["guards"]["escort"]) == sorted(PATHS)
    assert yaml.load(dump_yaml(s), Loader=SafeLoader) == s
    v = GAME.view(s, ME)
    assert v["strozzi"]["deck"] == len(st["deck"])
    if s["phase"] != "over":   # §19: his deck order and (harder) plan card never move your view
        assert STROZZI not in v["plan_cards"]
        other = copy.deepcopy(s)
        other["strozzi"]["deck"].reverse()
        if STROZZI in other["plan_cards"]:
            other["plan_cards"][STROZZI] = 7 - other["plan_cards"][STROZZI]
        assert GAME.view(other, ME) == v


def run_game(variant: str, seed: str, chooser: str) -> tuple[State, dict[str, int]]:
    rng = Rng(seed)
    state, _ = GAME.setup([ME], {"solo": variant}, rng)
    pick = Rng(seed + "-choice")
    seen: dict[str, int] = {}
    steps = 0
    while (d := GAME.decision(state)) is not None:
        assert d.players == (ME,)
        if chooser == "bot":
            order = bots.choose("florenz", GAME.view(state, ME), ME, GAME.legal_orders(state, ME))
        else:
            order = random_legal(state, ME, pick)
        before = dict(state["vp"])
        for e in GAME.apply(state, ME, order, rng):
            seen[e["type"]] = seen.get(e["type"], 0) + 1
        check_solo(state, before)
        steps += 1
        assert steps < 3000
    return state, seen


@pytest.mark.parametrize("variant", ["normal", "easier", "harder"])
@pytest.mark.parametrize("seed,chooser", [("s1", "random"), ("s2", "random"), ("s3", "bot"), ("s4", "bot")])
def test_whole_solo_games(variant: str, seed: str, chooser: str) -> None:
    state, seen = run_game(variant, f"{variant}-{seed}", chooser)
    assert state["phase"] == "over" and state["round"] == 9
    assert seen["strozzi_pass"] == 9 and seen["strozzi_card"] > 9 and seen["strozzi_reshuffle"] == 8
    rows = GAME.result(state)
    assert {r["player"]: r["score"] for r in rows} == state["vp"] and sorted(r["rank"] for r in rows) == [1, 2]
    assert (STROZZI in GAME.view(state, ME)["plan_cards"]) is (variant == "harder")
