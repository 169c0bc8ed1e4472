"""Florenz, step 1 (FLORENZ-PLAN.md §21): the data file and the board functions, DATC style.

Each rule test's docstring quotes the clause it checks from the German rule text
`shared/rules/seeds/004_2e9059bda4d9ca67.txt` (page numbers are the rulebook's) or the Florenz section of
`shared/rules/NOTES.md`; the E-numbers are the examples of FLORENZ-PLAN.md §17.2.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pbem.rules.florenz import board as B
from pbem.rules.florenz import data as D


def q(*pieces: str) -> list[dict[str, Any]]:
    """A queue from `family:rank` strings, head first (`blue:deb`, `orange:lady`, `violet:mae`)."""
    ranks = {"deb": "debutant", "lady": "lady", "mae": "maestro"}
    out = []
    for text in pieces:
        family, rank = text.split(":")
        out.append({"family": family, "rank": ranks[rank], "colour": family})
    return out


def names(queue: list[dict[str, Any]]) -> list[str]:
    short = {"debutant": "deb", "lady": "lady", "maestro": "mae"}
    return [f"{p['family']}:{short[p['rank']]}" for p in queue]


# -- the data: structure -----------------------------------------------------------------------------

def test_data_structure() -> None:
    assert D.LOCATIONS == [str(n) for n in range(1, 10)]
    assert len(D.PATHS) == 12
    assert len(D.DISC) == D.ROUNDS == 9
    assert len(D.SCANDAL_CARDS) == 12
    assert {c["deck"] for c in D.SCANDAL_CARDS.values()} == {"messere", "carissima", "figliolo"}
    assert len(D.PLAN_CARDS) == 6 and all(len(c["locations"]) == 4 for c in D.PLAN_CARDS.values())
    assert len(D.DATA["strozzi"]["cards"]) == 10
    assert len(D.BOAST_TILES) == 9
    assert D.RANKS == ["maestro", "lady", "debutant"]
    assert D.CRESTS["escort"] == D.PATHS and D.CRESTS["spy"] == D.CRESTS["doorman"] == D.LOCATIONS


def test_check_accepts_the_data_file() -> None:
    D.check(copy.deepcopy(D.DATA))


@pytest.mark.parametrize("key, breaks", [
    ("carriage_cycle", lambda d: d.update(carriage_cycle=[1, 5, 2, 3, 6, 9, 8, 4, 7])),
    ("carriage_cycle", lambda d: d.update(carriage_cycle=[1, 5, 2, 3, 6, 9, 8, 7, 7])),
    ("paths", lambda d: d["paths"].append([1, 5])),
    ("paths", lambda d: d["paths"].pop()),
    ("columns", lambda d: d.update(columns=[[1, 2, 3], [4, 5, 6], [7, 8, 9]])),
    ("disc.3", lambda d: d["disc"][3].update(medici="cosimo")),
    ("disc.1.queue_vp", lambda d: d["disc"][1].update(queue_vp=[11, 7, 4])),
    ("time_tiles", lambda d: d["time_tiles"].pop()),
    ("scandal.decks.messere", lambda d: d["scandal"]["decks"]["messere"]["cards"].pop("messere-cup")),
    ("plan_cards.2", lambda d: d["plan_cards"][2].update(locations=[1, 1, 2, 3])),
    ("boast_tiles.loud", lambda d: d["boast_tiles"]["loud"].update(count="cups")),
    ("strozzi.cards", lambda d: d["strozzi"]["cards"].pop(10)),
    ("disc", lambda d: d["disc"][6].update(gifts=2)),
])
def test_check_names_the_bad_key(key: str, breaks: Any) -> None:
    bad = copy.deepcopy(D.DATA)
    breaks(bad)
    with pytest.raises(D.DataError, match=rf"florenz.yaml, {key}:"):
        D.check(bad)


# -- the data: every value NOTES calls known --------------------------------------------------------

def test_known_cosimo_round_1() -> None:
    """NOTES: "round 1 Cosimo head of queue 1 VP, queue positions 11/7/4/2..."."""
    assert D.medici_of(1) == "cosimo"
    assert D.DISC[1]["head_vp"] == 1
    assert D.DISC[1]["queue_vp"][:4] == [11, 7, 4, 2]
    assert D.DISC[1]["time"] == 12


def test_known_contessina_round_2() -> None:
    """NOTES: "round 2 Contessina 13/9..."."""
    assert D.medici_of(2) == "contessina"
    assert D.DISC[2]["queue_vp"][:2] == [13, 9]


def test_known_giovanni_round_3() -> None:
    """NOTES: "round 3 Giovanni 1st place 4 time -> 20 VP, 2nd 2 time -> 12 VP"."""
    assert D.medici_of(3) == "giovanni"
    assert D.DISC[3]["offers"][:2] == [{"time": 4, "vp": 20}, {"time": 2, "vp": 12}]


def test_known_gifts() -> None:
    """NOTES: "Gifts: 2 more in round 3, 1 more in round 6"."""
    assert {r: s["gifts"] for r, s in D.DISC.items() if s["gifts"]} == {3: 2, 6: 1}
    assert D.DATA["family"]["gifts_at_start"] == 3 and D.DATA["family"]["gifts"] == 6


def test_known_time_tiles() -> None:
    """NOTES: "Time tiles: eight, valued 2..9 (round 1 is the printed 12)"."""
    assert sorted(D.TIME_TILES) == list(range(2, 10))


def test_known_medici_rounds() -> None:
    """NOTES: "Cosimo moves in rounds 1, 4, 7; Contessina 2, 5, 8; Giovanni 3, 6, 9"."""
    assert [D.medici_of(r) for r in range(1, 10)] == ["cosimo", "contessina", "giovanni"] * 3


def test_known_carriage_cycle() -> None:
    """NOTES: "one cycle: 1 -> 5 -> 2 -> 3 -> 6 -> 9 -> 8 -> 7 -> 4 -> 1"."""
    order = ["1"]
    while len(order) < 10:
        order.append(D.NEXT[order[-1]])
    assert order == ["1", "5", "2", "3", "6", "9", "8", "7", "4", "1"]
    assert all(D.PREV[D.NEXT[loc]] == loc for loc in D.LOCATIONS)


def test_known_rows_and_columns() -> None:
    """NOTES: "rows {1,2,3}, {4,5,6}, {7,8,9}; columns {1,4,7}, {2,5,8}, {3,6,9}"."""
    assert [set(r) for r in D.ROWS] == [{"1", "2", "3"}, {"4", "5", "6"}, {"7", "8", "9"}]
    assert [set(c) for c in D.COLUMNS] == [{"1", "4", "7"}, {"2", "5", "8"}, {"3", "6", "9"}]
    assert D.ROW_OF["5"] == ["4", "5", "6"] and D.COLUMN_OF["5"] == ["2", "5", "8"]


def test_known_neighbours_orthogonal_only() -> None:
    """NOTES: "Family members move between orthogonal neighbours; the diagonal through the park is for the
    Medici only." Text p.8: "Der einzige Weg, den Bittsteller nicht benutzen können, ist der diagonale Weg
    durch den Park – er ist den Medici vorbehalten." """
    assert D.NEIGHBOURS == {"1": ["2", "4"], "2": ["1", "3", "5"], "3": ["2", "6"], "4": ["1", "5", "7"],
                            "5": ["2", "4", "6", "8"], "6": ["3", "5", "9"], "7": ["4", "8"], "8": ["5", "7", "9"],
                            "9": ["6", "8"]}
    assert D.PARK == ("1", "5")
    assert "5" not in D.NEIGHBOURS["1"] and D.path_between("1", "5") is None
    assert D.NEXT["1"] == "5"   # the Medici take the park
    assert D.path_between("5", "4") == D.path_between("4", "5") == "4-5"


def test_paths_under_the_arrows() -> None:
    """Text p.12 (solo set-up 5): "Ist die Kutsche am Ort 1, stelle die Wache zwischen 1 und 2": the first
    arrow from 1 is the park diagonal, which carries no crest."""
    assert D.path_out("1") is None and D.path_into("5") is None
    assert D.path_out("5") == "2-5" and D.path_into("6") == "3-6" and D.path_into("1") == "1-4"


def test_letters_a_b_c() -> None:
    """Text p.12: "In der 8. Runde ist Giovanni Medici B und Medici C, in der 9. Runde ist er sogar A, B
    und C." """
    assert D.letters(1) == {"A": "cosimo", "B": "contessina", "C": "giovanni"}
    assert D.letters(8) == {"A": "contessina", "B": "giovanni", "C": "giovanni"}
    assert D.letters(9) == {"A": "giovanni", "B": "giovanni", "C": "giovanni"}


def test_e18_disc_check() -> None:
    """E18, text p.15: "Für Cosimos Wertung ist der 2. Platz 3 SP mehr wert als der 3. Platz." """
    vp = D.DISC[1]["queue_vp"]
    assert vp[1] - vp[2] == 3


# -- routes (E11, E19) --------------------------------------------------------------------------------

def test_e11_route() -> None:
    """E11, text p.10: "Cosimo ist am Ort 7 und fährt zum Ort 2 ... Sein Weg führt über die Orte 4, 1 und
    5, bis er Ort 2 erreicht und dort anhält." """
    assert D.route("7", "2") == ["4", "1", "5", "2"]


def test_e19_round_example_route() -> None:
    """E19, text p.15: Cosimo from his carriage at 1 to his target 6, over the park: 5, 2, 3, 6."""
    assert D.route("1", "6") == ["5", "2", "3", "6"]


def test_route_never_enters_the_start() -> None:
    """Text p.10: "Der Ausgangsort und Orte mit leerer Warteschlange werden nicht gewertet." """
    for a in D.LOCATIONS:
        for b in D.LOCATIONS:
            r = D.route(a, b)
            assert a not in r and (r[-1] == b if a != b else r == [])
    assert len(D.route("5", "1")) == 8


# -- queues: priority, rank (E3-E5) -------------------------------------------------------------------

def test_first_petitioner_takes_the_head() -> None:
    """Text p.7: "Der 1. Bittsteller an einem Ort nimmt den Kopf der Warteschlange ein." """
    assert names(B.enter([], q("blue:deb")[0])) == ["blue:deb"]
    assert B.head(q("blue:deb")) == "blue" and B.head([]) is None


def test_e3_arrival() -> None:
    """E3, text p.7: "Weitere Bittsteller stellen sich hinten an die Warteschlange an." "Ein violetter
    Debütant kommt an. Blau und Orange haben bereits Debütanten in der Warteschlange, also stellt sich
    Violett hinten an." """
    assert names(B.enter(q("blue:deb", "orange:deb"), q("violet:deb")[0])) == ["blue:deb", "orange:deb", "violet:deb"]


def test_e4_leaving() -> None:
    """E4, text p.7: "Entstehen Lücken in der Schlange, rücken die übrigen automatisch auf, ohne die
    Reihenfolge zu ändern." "Der blaue Debütant geht. Orange und Violett rücken auf (Orange steht jetzt am
    Kopf der Schlange)." """
    before = q("blue:deb", "orange:deb", "violet:deb")
    after, gone = B.leave(before, 1)
    assert names(after) == ["orange:deb", "violet:deb"] and gone["family"] == "blue"
    assert B.head(after) == "orange"
    assert len(before) == 3   # pure: the argument is untouched


def test_e5_maestro() -> None:
    """E5, text p.7: "Wann immer jemand in eine Warteschlange kommt, machen ggf. niedrigere Ränge Platz, um
    ihn vorzulassen, aber der „Neue“ stellt sich hinter alle Gleichrangigen, die bereits warten." "Der
    blaue Maestro ... reiht sich hinter dem violetten Maestro, aber vor allen anderen Bittstellern ein." """
    queue = q("violet:mae", "orange:lady", "green:lady", "blue:deb", "orange:deb")
    assert names(B.enter(queue, q("blue:mae")[0])) == [
        "violet:mae", "blue:mae", "orange:lady", "green:lady", "blue:deb", "orange:deb"]


def test_rank_order_front_to_back() -> None:
    """Text p.7: "Vorne Maestros, dann die Damen, dann die Debütanten." """
    queue: list[dict[str, Any]] = []
    for piece in q("blue:deb", "orange:lady", "violet:deb", "green:mae", "black:lady"):
        queue = B.enter(queue, piece)
    assert names(queue) == ["green:mae", "orange:lady", "black:lady", "blue:deb", "violet:deb"]


# -- doormen ------------------------------------------------------------------------------------------

def test_doorman_before_equals() -> None:
    """Text p.9: "Falls eins deiner Familienmitglieder in eine Warteschlange einrückt, an der dein
    Türsteher ist, reiht es sich in der Schlange vor allen anderen Bittstellern des gleichen Ranges ein." """
    queue = q("violet:lady", "blue:deb", "orange:deb")
    assert names(B.enter(queue, q("green:deb")[0], doorman=True)) == [
        "violet:lady", "green:deb", "blue:deb", "orange:deb"]


def test_doorman_still_behind_higher_ranks() -> None:
    """Text p.7: "Vorne Maestros, dann die Damen, dann die Debütanten": a doorman never beats rank."""
    queue = q("violet:mae", "violet:lady", "blue:lady")
    assert names(B.enter(queue, q("green:lady")[0], doorman=True)) == [
        "violet:mae", "green:lady", "violet:lady", "blue:lady"]


def test_has_doorman() -> None:
    """Text p.9: "Seine Wappen sind neben den Warteschlangen": a doorman belongs to one queue."""
    guards = {"escort": {}, "spy": {}, "doorman": {"3": [{"family": "blue", "colour": "blue"}]}}
    assert B.has_doorman(guards, "3", "blue")
    assert not B.has_doorman(guards, "3", "orange") and not B.has_doorman(guards, "4", "blue")


# -- promotion (E8, R7) -------------------------------------------------------------------------------

def test_e8_promotion() -> None:
    """E8, text p.7: "Orange erhöht einen Debütanten zur Dame; sie stellt sich sofort an den Kopf der
    Warteschlange. Blau verliert die Kontrolle über den Ort." """
    queue = q("blue:deb", "orange:deb")
    assert B.controller(queue) == "blue"
    after = B.promote(queue, 2)
    assert names(after) == ["orange:lady", "blue:deb"]
    assert B.controller(after) == "orange"


def test_promoted_lady_behind_waiting_ladies() -> None:
    """Text p.7: "der „Neue“ stellt sich hinter alle Gleichrangigen, die bereits warten"; the promoted piece
    enters anew (FLORENZ-PLAN R7)."""
    queue = q("blue:lady", "violet:deb", "orange:deb")
    assert names(B.promote(queue, 3)) == ["blue:lady", "orange:lady", "violet:deb"]


def test_promoted_lady_is_resorted_not_entered() -> None:
    """Text p.8: "Ersetze 1 Debütanten auf dem Spielplan durch 1 Dame"; the replaced piece does not
    "einrücken", so it is sorted by rank behind the waiting ladies, doorman or not (R7)."""
    queue = q("blue:lady", "violet:deb", "orange:deb")
    assert names(B.promote(queue, 3)) == ["blue:lady", "orange:lady", "violet:deb"]


def test_round_example_promotes_the_new_debutant() -> None:
    """Text p.15: "Violett erhöht also den neuen Debütanten für 5 Zeiteinheiten zur Dame, die sich sofort an
    den Kopf der Warteschlange bewegt" (R57: the rear one, `promote 6.3`)."""
    queue = q("violet:deb", "orange:deb", "violet:deb")
    assert names(B.promote(queue, 3)) == ["violet:lady", "violet:deb", "orange:deb"]


def test_lady_to_maestro_and_no_further() -> None:
    """Text p.8: "Ersetze 1 Debütanten auf dem Spielplan durch 1 Dame oder 1 Dame durch den Maestro."
    "Du kannst einen Debütanten mit 1 Aktion nicht direkt zum Maestro machen." """
    queue = q("green:mae", "blue:lady", "orange:lady")
    assert names(B.promote(queue, 3)) == ["green:mae", "orange:mae", "blue:lady"]
    assert names(B.promote(q("blue:deb"), 1)) == ["blue:lady"]   # one step only
    with pytest.raises(ValueError):
        B.promote(queue, 1)


def test_promotion_keeps_colour() -> None:
    """Strozzi's pieces carry their colour (text p.12: "alle Familienmitglieder ... in Orange und Blau")."""
    queue = [{"family": "Strozzi", "rank": "debutant", "colour": "blue"}]
    assert B.promote(queue, 1) == [{"family": "Strozzi", "rank": "lady", "colour": "blue"}]


# -- swaps and advance --------------------------------------------------------------------------------

def test_bonus_swap_same_rank_neighbours_only() -> None:
    """Text p.8: "Vertausche dort, wo dein Ring liegt, die Positionen von 1 deiner Familienmitglieder mit
    einem Bittsteller, der direkt davor oder dahinter steht. Beachte dabei wie üblich die Rangfolge." The
    round example's step 12: Violet may swap 6.2 with 6.3; her lady has no same-rank neighbour."""
    queue = q("violet:lady", "violet:deb", "orange:deb")
    assert B.bonus_swaps(queue, "violet") == [(2, 3)]
    assert B.bonus_swaps(queue, "orange") == [(3, 2)]
    assert names(B.swap(queue, 2, 3)) == ["violet:lady", "orange:deb", "violet:deb"]


def test_bonus_swap_not_with_own_piece() -> None:
    """R5: swapping two of your own pieces changes nothing and is no bonus."""
    assert B.bonus_swaps(q("blue:deb", "blue:deb"), "blue") == []


def test_swap_keeps_rank_order() -> None:
    """Messere's card, text p.16: "Tausche die Positionen von 2 beliebigen Bittstellern der gleichen
    Warteschlange. Die Rangfolge gilt weiterhin!" """
    queue = q("blue:lady", "orange:deb", "violet:deb", "green:deb")
    assert names(B.swap(queue, 2, 4)) == ["blue:lady", "green:deb", "violet:deb", "orange:deb"]
    with pytest.raises(ValueError):
        B.swap(queue, 1, 2)


def test_advance_to_front_of_rank() -> None:
    """Carissima's card, text p.16: "Rücke 1 deiner Familienmitglieder in seiner Warteschlange so weit nach
    vorne, wie es sein Rang erlaubt." Not when it already stands first of its rank (R42)."""
    queue = q("green:lady", "blue:deb", "orange:deb", "violet:deb")
    assert names(B.advance(queue, 4)) == ["green:lady", "violet:deb", "blue:deb", "orange:deb"]
    assert B.first_of_rank(queue, 3) == 2
    with pytest.raises(ValueError):
        B.advance(queue, 2)


# -- positions ----------------------------------------------------------------------------------------

def test_piece_at_position() -> None:
    """FLORENZ-PLAN §6: "`L.P` names the petitioner at position P of the queue at location L, e.g. `6.3`"."""
    queues = {"6": q("violet:lady", "violet:deb", "orange:deb"), "1": []}
    assert B.piece_at(queues, "6.3") == {"family": "orange", "rank": "debutant", "colour": "orange"}
    assert B.piece_at(queues, "6.4") is None and B.piece_at(queues, "1.1") is None
    assert B.piece_at(queues, "6") is None and B.piece_at(queues, "10.1") is None
    assert B.parse_position("6.3") == ("6", 3) and B.parse_position("0.1") is None


def test_same_piece() -> None:
    a, b, c = q("blue:deb", "blue:deb", "blue:lady")
    assert B.same_piece(a, b) and not B.same_piece(a, c)


# -- capacity -----------------------------------------------------------------------------------------

def test_blocked_slots_by_families() -> None:
    """Text p.4/5: "Nur bei 3 oder weniger Familien": slots whose printed number exceeds the number of
    families are blocked (numbers assumed in the data: slot 5 prints 3, slots 6-7 print 4)."""
    assert B.blocked_slots("1", 2) == [5, 6, 7]
    assert B.blocked_slots("1", 3) == [6, 7]
    assert B.blocked_slots("1", 4) == [] and B.blocked_slots("9", 5) == []
    assert B.open_slots(2) == {loc: 4 for loc in D.LOCATIONS}
    assert B.open_slots(3)["5"] == 5 and B.open_slots(5)["5"] == 7
    assert sum(len(B.blocked_slots(loc, 2)) for loc in D.LOCATIONS) == D.DATA["blocking_tiles"]


def test_room_in_queue() -> None:
    """Text p.8: "Am Zielort muss mind. 1 Feld in der Warteschlange frei sein"."""
    assert B.has_room(q("a:deb", "b:deb", "c:deb", "d:deb"), 5)
    assert not B.has_room(q("a:deb", "b:deb", "c:deb", "d:deb"), 4)


# -- control and strength (E6, E7) --------------------------------------------------------------------

def test_e6_control_by_count() -> None:
    """E6, text p.7: "Wer am meisten Familienmitglieder an einem Ort hat, kontrolliert ihn. Dafür sind
    zunächst alle Bittsteller gleich." "Blau hat mehr Familienmitglieder in der Warteschlange und
    kontrolliert daher den Ort." """
    queue = q("orange:lady", "blue:deb", "blue:deb")
    assert B.controller(queue) == "blue"
    assert B.strength_order(queue) == ["blue", "orange"]


def test_e7_control_tie() -> None:
    """E7, text p.7: "Nur bei Gleichstand entscheidet, wer von ihnen weiter vorne in der Warteschlange
    steht." "Orange und Blau sind gleich stark vertreten. Blau steht aber weiter vorne und kontrolliert
    deshalb den Ort." """
    assert B.controller(q("blue:deb", "orange:deb")) == "blue"
    assert B.strength_order(q("green:lady", "blue:deb", "orange:deb", "green:deb", "orange:deb", "blue:deb")) == [
        "green", "blue", "orange"]
    assert B.controller([]) is None and B.strength_order([]) == []


def test_strozzi_colours_are_one_family() -> None:
    """FLORENZ-PLAN §5: "Strozzi's orange and blue pieces are one family" for control."""
    queue = [{"family": "anna", "rank": "lady", "colour": "violet"},
             {"family": "Strozzi", "rank": "debutant", "colour": "orange"},
             {"family": "Strozzi", "rank": "debutant", "colour": "blue"}]
    assert B.controller(queue) == "Strozzi"


# -- guards -------------------------------------------------------------------------------------------

def test_free_crests_and_sharing() -> None:
    """Text p.9: a gift's guard goes "auf ein beliebiges freies Wappen dieses Medici"; Figliolo's card p.16:
    "selbst wenn dort schon eine fremde Wache ist"."""
    guards = {"escort": {"4-5": [{"family": "blue", "colour": "blue"}]}, "spy": {}, "doorman": {}}
    assert "4-5" not in B.free_crests(guards, "escort") and len(B.free_crests(guards, "escort")) == 11
    assert "4-5" in B.crests_without(guards, "escort", "orange")
    assert "4-5" not in B.crests_without(guards, "escort", "blue")
    assert B.guards_on(guards, "escort", "4-5") == ["blue"] and B.guards_on(guards, "spy", "7") == []
    assert D.GUARD_OF == {"cosimo": "escort", "contessina": "spy", "giovanni": "doorman"}


# -- time and gifts -----------------------------------------------------------------------------------

def test_time_capped() -> None:
    """Text p.6: "Gewinnst du Zeit über 12 hinaus, geht sie verloren"; never below 0."""
    assert B.gain_time(10, 5) == 12 and B.gain_time(3, -3) == 0 and B.gain_time(5, 2) == 7


def test_gift_cost() -> None:
    """Text p.9: "Einen bestimmten Medici zum 1. Mal zu beschenken, kostet 2 Zeiteinheiten. Der Aufwand
    steigt um 1 Zeiteinheit pro Geschenk, das du diesem Medici bereits gegeben hast." "Das 3. Geschenk an
    den gleichen Medici kostet z.B. 4 Zeiteinheiten." """
    assert [B.gift_cost(n) for n in range(3)] == [2, 3, 4]


def test_e17_time_left() -> None:
    """E17, text p.12: "Beispiel: Für 3 Zeiteinheiten erhältst du 1 SP." """
    assert B.time_vp(3) == 1 and B.time_vp(12) == 6 and B.time_vp(1) == 0


# -- boasting (E9, E16) -------------------------------------------------------------------------------

def test_e9_boast_slots() -> None:
    """E9, text p.9: "Orange hat Familienmitglieder an 5 Orten, erhält also 10 SP und legt den Becher auf das
    Feld „7-12“. Blau prahlt ebenfalls hier und erhält 8 SP. Weil das Feld „7-12“ bereits belegt ist, legt
    sie ihren Becher auf „0-6“." """
    queues = {"1": q("orange:deb", "blue:deb"), "2": q("orange:deb", "blue:deb"), "3": q("orange:deb"),
              "4": q("orange:deb", "blue:deb"), "5": q("orange:deb", "blue:deb"), "6": [], "7": [], "8": [],
              "9": []}
    cups: dict[str, Any] = {"low": None, "middle": None, "high": None}
    vp = B.boast_vp("omnipresent", "orange", queues, "5")
    assert vp == 10 and B.cup_slot(vp, cups) == "middle"
    cups["middle"] = {"family": "orange", "colour": "orange"}
    vp = B.boast_vp("omnipresent", "blue", queues, "5")
    assert vp == 8 and B.cup_slot(vp, cups) == "low"


def test_boast_no_free_slot() -> None:
    """Text p.8: "Gibt es kein passendes freies Feld, kannst du nicht prahlen. Du darfst auch für 0 SP
    prahlen – vorausgesetzt, das unterste Feld der Prahltafel ist noch frei." """
    taken = {"family": "blue", "colour": "blue"}
    assert B.cup_slot(0, {"low": None, "middle": None, "high": None}) == "low"
    assert B.cup_slot(0, {"low": taken, "middle": None, "high": None}) is None
    assert B.cup_slot(13, {"low": None, "middle": taken, "high": taken}) == "low"
    assert B.cup_slot(20, {"low": None, "middle": None, "high": None}) == "high"
    assert [B.slot_for(v) for v in (6, 7, 12, 13)] == ["low", "middle", "middle", "high"]


def test_one_cup_per_tile_and_highest_cup() -> None:
    """Text p.8: "Du kannst auf jede Prahltafel nur 1 deiner Prahlbecher legen"; p.10: "Alle mit
    Prahlbechern unterhalb des obersten gehen in jedem Fall leer aus." """
    cups = {"low": {"family": "blue", "colour": "blue"}, "middle": {"family": "orange", "colour": "orange"},
            "high": None}
    assert B.has_cup(cups, "blue") and not B.has_cup(cups, "violet")
    assert B.highest_cup(cups) == "orange"
    assert B.highest_cup({"low": None, "middle": None, "high": None}) is None


def test_e16_row_and_column() -> None:
    """E16, text p.14: "Ist diese Prahltafel am Ort 7, 8 oder 9, zählen alle deine Familienmitglieder an den
    Orten 7, 8 und 9." "Ist diese Prahltafel am Ort 1, 4 oder 7, zählen alle deine Familienmitglieder an den
    Orten 1, 4 und 7." """
    queues = {loc: q("blue:deb") for loc in D.LOCATIONS}
    queues["7"] = q("blue:deb", "blue:lady")
    assert B.boast_count("members_in_row", "blue", queues, "8") == 4
    assert B.boast_vp("ruler-of-the-street", "blue", queues, "8") == 12
    assert B.boast_count("members_in_column", "blue", queues, "4") == 4
    assert B.boast_vp("rising", "blue", queues, "4") == 12


def test_round_example_ruler_of_the_street() -> None:
    """Text p.15: "„Herrscher der Straße“ am Ort 5 gibt ihm 3 SP für jeden eigenen Bittsteller in dieser
    Reihe – das sind 3, also erhält er 9 SP." (Orange at 4, 5 and 6.)"""
    queues = {loc: [] for loc in D.LOCATIONS}
    queues.update({"4": q("orange:deb"), "5": q("orange:deb"), "6": q("violet:lady", "violet:deb", "orange:deb"),
                   "1": q("blue:deb")})
    vp = B.boast_vp("ruler-of-the-street", "orange", queues, "5")
    assert vp == 9 and B.cup_slot(vp, {"low": None, "middle": None, "high": None}) == "middle"


def test_boast_counts() -> None:
    """Text p.14, "DIE PRAHLTAFELN": Großer Einfluss 5 SP "für jede deiner Damen und deinen Maestro, soweit
    sie auf dem Spielplan sind"; Unüberhörbar 3 SP "für jeden Prahlbecher, den du eingesetzt hast (dieser
    hier zählt mit)"; Skandalnudel 3 SP per card; Spitze Ellenbogen 3 SP "für jede Warteschlange, in der du
    den Kopf besetzt hast"; Stark vertreten 4 SP "für jeden Ort, an dem du mind. 2 Familienmitglieder
    hast"; Spendabel 3 SP "für jedes Geschenk, das du verteilt hast"."""
    queues = {loc: [] for loc in D.LOCATIONS}
    queues.update({"1": q("blue:mae", "blue:deb"), "2": q("orange:deb", "blue:lady"), "3": q("blue:deb")})
    assert B.boast_vp("great-influence", "blue", queues, "1") == 10
    assert B.boast_vp("loud", "blue", queues, "1", cups_placed=2) == 9
    assert B.boast_vp("scandalmonger", "blue", queues, "1", cards_in_hand=4) == 12
    assert B.boast_vp("sharp-elbows", "blue", queues, "1") == 6
    assert B.boast_vp("well-represented", "blue", queues, "1") == 4
    assert B.boast_vp("generous", "blue", queues, "1", gifts_given=3) == 9
    assert B.boast_vp("omnipresent", "blue", queues, "1") == 6
    with pytest.raises(ValueError):
        B.boast_count("nothing", "blue", queues, "1")


# -- scoring ------------------------------------------------------------------------------------------

def test_e12_cosimo_queue() -> None:
    """E12, text p.10: round 1 at 2, Orange 1st and 3rd, Blue 2nd and 4th: Orange "11+4 = 15", Blue
    "7+2 = 9"."""
    assert B.queue_vp(q("orange:deb", "blue:deb", "orange:deb", "blue:deb"), 1) == {"orange": 15, "blue": 9}


def test_e13_contessina_queue() -> None:
    """E13, text p.11: "Schwarz belegt das 1. und 2. Feld mit einem Maestro und einer Dame. Orange hat auf
    dem 3. Feld einen Debütanten, aber den würdigt Contessina keines Blickes. Schwarz erhält 13+9 = 22"."""
    assert B.queue_vp(q("black:mae", "black:lady", "orange:deb"), 2) == {"black": 22, "orange": 0}


def test_plan_card_scoring() -> None:
    """Text p.12: "Hast du dort weniger als 4 Familienmitglieder, erhältst du 0 SP." The table at most 35;
    the members may be distributed however (assumed table 10..35 for 4..9)."""
    queues = {loc: [] for loc in D.LOCATIONS}
    queues.update({"1": q("blue:deb", "blue:lady", "blue:mae"), "9": q("blue:deb")})
    assert D.PLAN_CARDS[1]["locations"] == ["1", "2", "4", "5"]
    assert B.plan_vp(1, "blue", queues) == 0            # 3 at its locations
    queues["5"] = q("blue:deb")
    assert B.plan_vp(1, "blue", queues) == D.PLAN_CARDS[1]["vp"][4]
    queues["2"] = [{"family": "blue", "rank": "debutant", "colour": "blue"}] * 7
    assert B.plan_vp(1, "blue", queues) == 35            # 11 members: the table's top, at most 35
