"""Florenz: the readings revisited (FLORENZ-PLAN.md §16, R6, R7, R11, R12, R18, R20, R67,
R68), one scenario each (a state, an order or a Strozzi card, the outcome; each docstring quotes the
text), and the solo report as a player checks it: Strozzi's cards named by what they show, his final
line, the Medici who moves no more, the spy in the rules summary, two-member hurries listed once.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from test_florenz_engine import GAME, board, end_actions, names, play
from test_florenz_solo import ME, STROZZI, card, solo_game
from test_florenz_solo import board as solo_board
from test_florenz_solo import names as solo_names

from pbem.game import new_game, show
from pbem.report import env, event_lines, render_report
from pbem.rng import Rng
from pbem.rules.florenz import flow as F
from pbem.store import GamesDir

State = dict[str, Any]


def heads(events: list[dict[str, Any]], kind: str = "head_vp") -> list[tuple[str, str]]:
    return [(e["family"], e["location"]) for e in events if e["type"] == kind]


# -- 1. Contessina never pays a debutant, not even at the head ----------------------------------------

def test_contessina_pays_no_head_vp_to_a_debutant() -> None:
    """p.11: "Sie vergibt niemals Siegpunkte an Debütanten" (p.7: she looks down on anyone "unter"
    her): a debutant at the head of a queue on her route gets no head VP, and the VP do not pass to
    the petitioner behind (R67). Round 2, Contessina from 7 to 5 enters 4, 1, 5."""
    s = board(q4=["blue:deb", "violet:deb"], q1=["orange:lady", "blue:deb"], q5=["violet:deb"])
    s["round"], s["sectors"]["2"]["location"] = 2, "5"
    s["carriages"]["contessina"], s["targets"]["contessina"] = "7", "5"
    events = end_actions(s)
    assert heads(events) == [("orange", "1")]
    assert heads(events, "head_snubbed") == [("blue", "4"), ("violet", "5")]
    assert "blue's debutant heads the queue at 4, but Contessina never gives VP to debutants." in \
        event_lines("florenz", [e for e in events if e["type"] == "head_snubbed"])


def test_cosimo_still_pays_a_debutant_at_the_head() -> None:
    """p.10: "Sobald ein Medici einen Ort besucht, erhält die Familie am Kopf der dortigen Warteschlange
    Siegpunkte": Cosimo (round 1) pays a debutant at the head as before."""
    s = board(q4=["blue:deb", "violet:deb"], q1=["orange:lady"], q5=["violet:deb"])
    s["carriages"]["cosimo"], s["targets"]["cosimo"] = "7", "5"
    events = end_actions(s)
    assert heads(events) == [("blue", "4"), ("orange", "1"), ("violet", "5")]


# -- 2. Strozzi card 7: a debutant to a lady at A, B, C before any lady to the maestro ----------------

def test_card7_tries_every_target_for_a_lady_first() -> None:
    """Card 7: "Erhöhe 1 Debütanten ... am Zielort von Medici A zu einer Dame; ist das nicht möglich,
    versuche das Gleiche am Zielort von B, dann C. Hat Strozzi dort bereits eine Dame, oder keinen
    Debütanten, oder keine Dame auf dem Tableau, dann erhöht er stattdessen 1 Dame zum Maestro" (R11):
    his lady at A's target (6) stops the promotion there, so B's target (8) gets the lady; the lady at
    6 stays a lady."""
    s = solo_board(q6=["o:lady"], q8=["a:deb", "b:deb"])
    card(s, 7)
    assert solo_names(s["queues"]["6"]) == ["o:lady"]
    assert solo_names(s["queues"]["8"]) == ["b:lady", "a:deb"]


def test_card7_maestro_only_when_no_target_takes_a_lady() -> None:
    """"... dann erhöht er stattdessen 1 Dame zum Maestro": no target (6, 8, 9) allows a debutant to
    become a lady (a lady at 6, nobody at 8, no debutant at 9), so his lady at A's target becomes the
    maestro."""
    s = solo_board(q6=["o:lady", "o:deb"], q9=["b:lady"])
    card(s, 7)
    assert solo_names(s["queues"]["6"]) == ["o:mae", "o:deb"] and solo_names(s["queues"]["9"]) == ["b:lady"]


# -- 3. the solo variants change round 1's time too ---------------------------------------------------

def test_solo_variants_change_round_one() -> None:
    """Phase 1: "Strozzi erhält zu Beginn der Partie nur 6 Zeiteinheiten"; easier: "1 Zeiteinheit
    weniger pro Runde (aber immer noch mind. 4)", harder: "1 Zeiteinheit mehr pro Runde (aber max. 9)":
    "pro Runde" includes round 1, so 5 and 7 (R20)."""
    for variant, clock in (("easier", 5), ("normal", 6), ("harder", 7)):
        s = solo_game(variant)
        assert s["time"][STROZZI] == clock, variant
        GAME.apply(s, ME, "place 5", Rng("p"))
        assert s["round"] == 1 and s["time"] == {ME: 12, STROZZI: clock}, variant


# -- 4. Strozzi's boast: only an occupied slot sends him on -------------------------------------------

def test_strozzi_boasts_on_a_tile_that_holds_his_cup() -> None:
    """Cards 8 & 9: "Er braucht weder die Bedingung zu erfüllen noch ein Familienmitglied dort zu haben.
    Ist das angegebene Feld der Prahltafel besetzt, versucht er es an den in Pfeilrichtung folgenden
    Orten": the one-cup-per-tile rule is one of the boast conditions he is spared, so his cup on the
    middle slot at 5 does not stop his cup on the free low slot there (R12)."""
    s = solo_board()
    s["boast"]["5"]["middle"] = {"family": STROZZI, "colour": "blue"}
    s["supply"][STROZZI]["cup"] -= 1
    card(s, 8)
    assert s["boast"]["5"]["low"] == {"family": STROZZI, "colour": "orange"} and s["vp"][STROZZI] == 6
    assert s["boast"]["2"]["low"] is None


# -- 5. Strozzi's swap after passing: his single rearmost member --------------------------------------

def test_strozzi_swaps_only_his_rearmost_member() -> None:
    """"Er vertauscht dort, wo sein Ring liegt, sein am weitesten hinten stehendes Familienmitglied mit
    deinem, falls es davor steht" (R6): his rearmost member at 6 is the blue debutant, and his own
    orange one stands before it, so there is no swap (the orange debutant behind yours does not
    count): he takes the VP."""
    s = solo_board(q6=["a:deb", "o:deb", "b:deb"])
    s["passed"], s["rings"] = [STROZZI], {STROZZI: "6"}
    card(s, None)
    assert solo_names(s["queues"]["6"]) == ["a:deb", "o:deb", "b:deb"] and s["vp"][STROZZI] == 1
    s = solo_board(q6=["o:deb", "a:deb", "b:deb"])
    s["passed"], s["rings"] = [STROZZI], {STROZZI: "6"}
    card(s, None)
    assert solo_names(s["queues"]["6"]) == ["o:deb", "b:deb", "a:deb"] and s["vp"][STROZZI] == 0


def test_strozzi_ring_goes_where_his_rearmost_can_swap() -> None:
    """"... an dem er kein Familienmitglied am Kopf der Warteschlange hat und mit dir eine Position
    tauschen könnte": the same swap decides where the ring goes; at A's target (6) his rearmost member
    stands behind his own, so the ring goes to B's target (8)."""
    s = solo_board(q6=["a:deb", "o:deb", "b:deb"], q8=["a:deb", "o:deb"])
    s["time"][STROZZI] = 0
    card(s, None)
    assert s["passed"] == [STROZZI] and s["rings"][STROZZI] == "8"


# -- 6. a promotion replaces a piece in place: no doorman ---------------------------------------------

def test_promotion_is_not_entering_so_no_doorman() -> None:
    """"Erhöhen: Ersetze 1 Debütanten auf dem Spielplan durch 1 Dame" and p.7 "Sobald ein Bittsteller
    erhöht wird, müsst ihr die Reihenfolge in der Warteschlange anpassen": the lady replaces the
    debutant and the queue is sorted by rank; she does not "einrücken", so blue's doorman ("Falls eins
    deiner Familienmitglieder in eine Warteschlange einrückt") does not put her before orange's lady
    (R7)."""
    s = board(q6=["orange:lady", "violet:deb", "blue:deb"])
    s["guards"]["doorman"]["6"].append({"family": "blue", "colour": "blue"})
    play(s, "blue", "promote 6.3")
    assert names(s["queues"]["6"]) == ["orange:lady", "blue:lady", "violet:deb"]


def test_strozzi_promotion_ignores_his_doorman() -> None:
    """The same for Strozzi's card 7 ("Erhöhe 1 Debütanten ... zu einer Dame"): his doorman at 6 does
    not bring the new lady before yours."""
    s = solo_board(q6=["a:lady", "a:deb", "o:deb"])
    s["guards"]["doorman"]["6"].append({"family": STROZZI, "colour": "orange"})
    card(s, 7)
    assert solo_names(s["queues"]["6"]) == ["a:lady", "o:lady", "a:deb"]


# -- 7. a hurry may end where it began ----------------------------------------------------------------

def test_hurry_back_to_the_start_is_allowed() -> None:
    """"Eilen: Bewege 1 deiner Familienmitglieder 2-mal ... Dabei gelten alle Regeln der Aktion
    „Bewegen“": each step goes to an orthogonal neighbour and nothing forbids the second to lead back
    (R18). Leaving frees the slot at the start, the member rejoins behind its equals, and an escort on
    the path is paid for both crossings. The order is offered."""
    s = board(q1=["blue:deb", "orange:deb", "violet:deb", "orange:deb", "violet:deb"],
              q2=["orange:deb"] * 5)
    s["guards"]["escort"]["1-2"] = [{"family": "violet", "colour": "violet"}]
    assert "hurry 1.1 to 2 to 1" in GAME.legal_orders(s, "blue")
    play(s, "blue", "hurry 1.1 to 2 to 1")
    assert names(s["queues"]["1"]) == ["orange:deb", "violet:deb", "orange:deb", "violet:deb", "blue:deb"]
    assert s["vp"]["violet"] == 4 and s["time"]["blue"] == 9


# -- two-member hurries: each pair once -------------------------------------------------------------

def two_member(legal: list[str]) -> list[str]:
    return [o for o in legal if o.startswith("hurry") and " and " in o]


def test_two_member_hurry_listed_once_both_orders_accepted() -> None:
    """"2 deiner Familienmitglieder je 1-mal": the order written decides only which step comes first;
    when both orders work the outcome is the same, so the pair is offered once, and the other order
    is still accepted (turn files already written)."""
    s = board(q1=["blue:deb"], q9=["blue:lady"])
    pairs = two_member(GAME.legal_orders(s, "blue"))
    assert "hurry 1.1 to 2 and 9.1 to 6" in pairs and "hurry 9.1 to 6 and 1.1 to 2" not in pairs
    assert len(pairs) == 4 and len({frozenset(p[6:].split(" and ")) for p in pairs}) == 4
    assert GAME.why_illegal(s, "blue", "hurry 9.1 to 6 and 1.1 to 2") is None
    t = copy.deepcopy(s)
    play(s, "blue", "hurry 1.1 to 2 and 9.1 to 6")
    play(t, "blue", "hurry 9.1 to 6 and 1.1 to 2")
    assert s["queues"] == t["queues"] and s["time"] == t["time"] and s["vp"] == t["vp"]


def test_two_member_hurry_in_the_order_that_works() -> None:
    """Positions refer to the queues before the order and the steps run in the order written: a member
    may step into the full queue at 2 only after another of yours has left it, so that pair is offered
    in that order only; two members cannot both take the last free slot at 2."""
    s = board(q1=["blue:deb"], q2=["orange:deb", "orange:deb", "violet:deb", "violet:deb", "blue:deb"])
    pairs = two_member(GAME.legal_orders(s, "blue"))
    assert "hurry 2.5 to 3 and 1.1 to 2" in pairs and "hurry 1.1 to 2 and 2.5 to 3" not in pairs
    assert "no free slot" in GAME.why_illegal(s, "blue", "hurry 1.1 to 2 and 2.5 to 3")
    help_ = GAME.view(s, "blue")["display"]["hurry"]
    also = help_.index("also, in this order only (first out of the full queue, then in):")
    assert help_[also + 1:] == [f"  hurry 2.5 to {to} and 1.1 to 2" for to in ("1", "3", "5")]
    s = board(q1=["blue:deb"], q3=["blue:deb"], q2=["orange:deb"] * 4)
    pairs = two_member(GAME.legal_orders(s, "blue"))
    assert not any("to 2 and" in p and p.endswith("to 2") for p in pairs)
    help_ = GAME.view(s, "blue")["display"]["hurry"]
    assert help_[0].startswith("hurry L.P to M and K.Q to N (3 time):")
    assert help_[1:] == ["not together (no room for both):", "  1.1 to 2 with 3.1 to 2"]


# -- the solo report as a player reads it -------------------------------------------------------------

def test_strozzi_card_events_name_what_the_card_shows() -> None:
    """A solo player checks Strozzi's play against the printed card: the event names the Medici letter,
    who that is this round, and the colour (data `strozzi.cards`)."""
    s = solo_board()
    s["time"][STROZZI] = 12
    events = card(s, 4)
    drawn = next(e for e in events if e["type"] == "strozzi_card")
    assert (drawn["letter"], drawn["medici"], drawn["colour"]) == ("C", "giovanni", "blue")
    line = event_lines("florenz", [drawn])[0]
    assert line == "Strozzi draws card 4 (place: Medici C = Giovanni, blue) and spends 3 time."
    lines = event_lines("florenz", [next(e for e in card(s, 8) if e["type"] == "strozzi_card"),
                                    next(e for e in card(s, 10) if e["type"] == "strozzi_card")])
    assert lines == ["Strozzi draws card 8 (boast: 3 VP, orange) and spends 2 time.",
                     "Strozzi draws card 10 (guard: Medici B = Contessina) and spends 2 time."]


def test_strozzi_final_line_has_no_plan_card() -> None:
    s = solo_board(round_=9)
    events: list[dict[str, Any]] = []
    F.final_scoring(s, events)
    line = event_lines("florenz", [e for e in events if e["type"] == "final_score" and e["family"] == STROZZI])
    assert line == ["Final scoring, Strozzi: 3 VP for time left, no plan card."]


def test_a_medici_without_target_reads_well(tmp_path: Path) -> None:
    state, _ = new_game(GamesDir(tmp_path / "games"), "florenz", "g1", [("anna", "anna@example.org")],
                        {"solo": "normal"}, "medici-words")
    state["engine"]["targets"].pop("contessina")
    text = render_report(state, "anna", [])
    assert "no target: she moves no more this game" in text and "he rides no more" not in text


def test_rules_summary_spy_draws_on_every_visit() -> None:
    """p.9: "Wann immer ein Medici einen Ort besucht oder seine Bewegung an einem Ort beendet, an dem du
    einen Spion hast, erhältst du 1 Skandalkarte dieses Medici"."""
    text = env().get_template("florenz/rules.txt.j2").render()
    assert "whenever she stops there" not in text
    assert "a card from any Medici who rides through or stops there" in " ".join(text.split())


def test_report_lists_two_member_hurries_readably(tmp_path: Path) -> None:
    """The report no longer collapses the pairs into "(N ways), e.g.": it says which pairs work, within
    72 columns."""
    state, _ = new_game(GamesDir(tmp_path / "games"), "florenz", "g1",
                        [("anna", "a@example.org"), ("ben", "b@example.org")], {}, "hurry-words")
    eng = state["engine"]
    eng["phase"], eng["round"], eng["place_order"], eng["on_turn"] = "actions", 1, [], "anna"
    for loc, pieces in {"1": ["anna"], "5": ["anna", "ben"], "9": ["anna"]}.items():
        eng["queues"][loc] = [{"family": f, "rank": "debutant", "colour": eng["colour"][f]} for f in pieces]
    assert two_member(show(state, "anna")["legal_orders"])
    text = render_report(state, "anna", [])
    assert "ways), e.g." not in text
    assert "hurry L.P to M and K.Q to N (3 time): two of your members one step" in text
    assert all(len(line) <= 72 for line in text.splitlines())
