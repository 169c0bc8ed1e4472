"""Medina, rule by rule (DATC style): one scenario per rule clause.

Each test's docstring quotes the clause it checks from the seed text
`shared/rules/seeds/003_8789b2b12b507c0f.txt` (German, BrettspielWelt "DM 2003" rules) or the Medina
section of `shared/rules/NOTES.md`. A scenario is a position (built from `setup` by letting players
place pieces, see `put`, or by editing the state where the clause needs a position no game reaches
quickly), an order, and the outcome the rules demand: legal, or refused with the exact message.

Board: columns A-P, rows 1-11 (row 1 the north edge). Walls N1-N16 above row 1, S1-S16 below row 11,
W1-W11 and E1-E11 beside the west and east columns; towers 1-4 clockwise from the top-left corner.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from helpers import of_type
from pbem.errors import IllegalOrder, SetupError
from pbem.game import new_game, set_standing
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.store import GamesDir

R = get_ruleset("medina")

P3 = ["anna", "ben", "cleo"]
P4 = ["anna", "ben", "cleo", "dora"]
COLOURS = ["grey", "black", "brown", "orange"]
LETTERS = "ABCDEFGHIJKLMNOP"

OPEN = "the {colour} palace at {at} is still open: build onto it (at {growth})"
TOUCH = "a palace at {sq} would touch another palace; palaces may never touch, not even diagonally"
STABLE_JOINS = "a stable at {sq} would join two palaces; palaces may never touch, not even through stables"
STABLE_ALONE = "a stable must be built onto a palace; {sq} touches none"
MUST_ROOF = "you are the only player with roofs left: this placement must be a roof"
MUST_FOUND = ("you are the only player with roofs left and no palace to roof: found a palace of a colour you "
              "have not claimed, then roof it")
NOT_A_PLACEMENT = "{order!r} is not a placement (e.g. 'palace grey C7', 'wall N5', 'roof orange E4')"


# -- helpers ----------------------------------------------------------------------------------------

def fresh(players: list[str] = P3, start: str | None = "H6", seed: str = "rules") -> tuple[dict[str, Any], Rng]:
    """A new game; with `start`, the start player has placed the start of the market street there."""
    rng = Rng(seed)
    state, _ = R.setup(list(players), {}, rng)
    if start is not None:
        R.apply(state, state["current"], f"start {start}", rng)
    return state, rng


def turn_of(state: dict[str, Any], player: str, placed: int = 0) -> None:
    """Make it `player`'s turn, at his first (or second) placement."""
    state.update(current=player, placed=placed, roofed_this_turn=False)


def put(state: dict[str, Any], rng: Rng, *orders: str, by: str = "anna") -> list[dict[str, Any]]:
    """`by` places each order as the first placement of a turn of his (the rules are checked)."""
    events: list[dict[str, Any]] = []
    for order in orders:
        turn_of(state, by)
        events += R.apply(state, by, order, rng)
    return events


def spread(state: dict[str, Any], rng: Rng, *orders: str, players: list[str] = P3) -> list[dict[str, Any]]:
    """Like `put`, the players taking turns (so nobody's supply runs dry)."""
    events: list[dict[str, Any]] = []
    for i, order in enumerate(orders):
        events += put(state, rng, order, by=players[i % len(players)])
    return events


def refused(state: dict[str, Any], order: Any, message: str, player: str | None = None) -> None:
    """`order` is illegal with exactly `message`; applying it raises and changes nothing."""
    player = player or state["current"]
    before = copy.deepcopy(state)
    assert R.why_illegal(state, player, order) == message
    with pytest.raises(IllegalOrder) as err:
        R.apply(state, player, order, Rng("unused"))
    assert str(err.value) == message
    assert state == before
    assert order not in R.legal_orders(state, player)


def allowed(state: dict[str, Any], order: str, player: str | None = None, listed: bool = True) -> None:
    """`order` is legal (and, when it is in the canonical form, among the legal orders)."""
    player = player or state["current"]
    assert R.why_illegal(state, player, order) is None
    if listed:
        assert order in R.legal_orders(state, player)


def palace_at(state: dict[str, Any], sq: str) -> dict[str, Any]:
    return state["palaces"][state["board"][sq]["palace"]]


def legal_of(state: dict[str, Any], kind: str, player: str | None = None) -> set[str]:
    player = player or state["current"]
    return {o.split()[-1] for o in R.legal_orders(state, player) if o.split()[0] == kind}


def only(state: dict[str, Any], player: str, **keep: int) -> None:
    """Leave `player` only the pieces in `keep` (e.g. stable=4); the rest counts as given back."""
    supply = state["supply"][player]
    gone = state["returned"][player]
    for colour in COLOURS:
        n = supply["palace"][colour]
        supply["palace"][colour] = 0
        gone[colour] = gone.get(colour, 0) + n
    for kind in ("stable", "merchant", "wall", "roof"):
        n = supply[kind] - keep.get(kind, 0)
        assert n >= 0
        supply[kind] = keep.get(kind, 0)
        gone[kind] = gone.get(kind, 0) + n


# -- the pieces and the start -------------------------------------------------------------------------

@pytest.mark.parametrize("players, palace, stable, merchant, wall, roof", [
    (P3, 6, 4, 8, 10, 4),
    (P4, 5, 3, 6, 8, 4),
])
def test_pieces_per_player_by_the_table(players: list[str], palace: int, stable: int, merchant: int,
                                        wall: int, roof: int) -> None:
    """'Spieler | Palastbauteile in 4 Farben | Ziegenställe | Marktgassenfiguren | Mauern | Dächer:
    3 | 6 | 4 | 8 | 10 | 4; 4 | 5 | 3 | 6 | 8 | 4'."""
    state, _ = fresh(players, start=None)
    for p in players:
        assert state["supply"][p] == {"palace": {c: palace for c in COLOURS}, "stable": stable,
                                      "merchant": merchant, "wall": wall, "roof": roof}
        assert state["returned"][p] == {} and state["roofed"][p] == []
    assert state["board"] == {} and state["palaces"] == [] and state["walls"] == {}
    assert state["palace_bonus"] == {c: None for c in COLOURS}
    assert state["tower_bonus"] == {"1": None, "2": None, "3": None, "4": None}


@pytest.mark.parametrize("n", [2, 5])
def test_three_or_four_players(n: int) -> None:
    """'Mit /join können 3-4 Spieler in das Spiel einsteigen.'"""
    with pytest.raises(SetupError) as err:
        R.setup([f"p{i}" for i in range(n)], {}, Rng("s"))
    assert str(err.value) == f"Medina needs 3 to 4 players, not {n}"


def test_no_options_and_no_deck() -> None:
    """Medina has no variants to choose and no cards to fix in a deck file."""
    with pytest.raises(SetupError) as err:
        R.setup(P3, {"edition": "amigo"}, Rng("s"))
    assert str(err.value) == "medina has no option 'edition' (options: none)"
    with pytest.raises(SetupError) as err:
        R.setup(P3, {}, Rng("s"), {"days": []})
    assert str(err.value) == "Medina has no cards: it takes no deck file"


def test_start_player_is_drawn_from_the_seed() -> None:
    """'Der Startspieler muss zunächst den Startpunkt der Marktgasse wählen.' The start player is drawn
    from the game's seed: the same seed gives the same one, and over seeds every seat gets to start."""
    starts: Counter = Counter()
    for i in range(40):
        state, events = R.setup(P4, {}, Rng(f"seed-{i}"))
        again, _ = R.setup(P4, {}, Rng(f"seed-{i}"))
        assert again == state
        assert events == [{"type": "start_player", "player": state["current"]}]
        decision = R.decision(state)
        assert decision.players == (state["current"],) and decision.kind == "start"
        assert state["phase"] == "start" and state["turn"] == 1
        starts[state["current"]] += 1
    assert set(starts) == set(P4)


def test_the_market_street_starts_off_the_edge() -> None:
    """'Er klickt dazu auf einen Bauplatz, der nicht am Rand liegt.'"""
    state, _ = fresh(start=None)
    start = state["current"]
    interior = {f"{c}{r}" for c in LETTERS[1:-1] for r in range(2, 11)}
    assert set(R.legal_orders(state, start)) == {f"start {sq}" for sq in interior}
    assert len(interior) == 14 * 9
    for sq in ("A1", "A6", "P6", "H1", "H11", "P11", "B11", "O1"):
        refused(state, f"start {sq}", f"the market street may not start on the edge of the city ({sq})")
    for sq in ("Q3", "A12"):
        refused(state, f"start {sq}", f"{sq} is not a square of the city (A1 to P11)")
    refused(state, "start B0", NOT_A_PLACEMENT.format(order="start B0"))
    for sq in ("B2", "O10", "H6"):
        allowed(state, f"start {sq}")


def test_the_start_comes_first_and_only_once() -> None:
    """'Der Startspieler muss zunächst den Startpunkt der Marktgasse wählen ... Anschliessend setzt jeder
    Spieler pro Zug zwei Bauteile ein.' The start is neutral (no merchant of the start player's) and the
    start player then takes his first turn of two placements."""
    state, rng = fresh(start=None)
    start = state["current"]
    other = next(p for p in P3 if p != start)
    for order in ("palace grey C7", "merchant E5", "wall N1", "stable D7", "roof grey C7"):
        refused(state, order, "first place the start of the market street: 'start SQUARE'")
    refused(state, "start E5", f"it is not your turn: the game waits for {start}", player=other)
    events = R.apply(state, start, "start E5", rng)
    assert events == [{"type": "place", "player": start, "order": "start E5"}]
    assert state["board"] == {"E5": {"kind": "merchant"}}
    assert state["streets"] == [["E5"]]
    assert state["supply"][start]["merchant"] == 8
    assert (state["phase"], state["current"], state["placed"], state["turn"]) == ("build", start, 0, 2)
    assert R.decision(state).kind == "build"
    refused(state, "start F5", "the market street has its start already")
    assert not any(o.startswith("start") for o in R.legal_orders(state, start))


def test_two_placements_per_turn() -> None:
    """'Anschliessend setzt jeder Spieler pro Zug zwei Bauteile ein.' Seats follow the order of the
    players; every placement is one step of the game's turn counter."""
    state, rng = fresh(start=None, seed="two")
    first = state["current"]
    R.apply(state, first, "start H6", rng)
    seat = P3.index(first)
    order = [P3[(seat + i) % 3] for i in range(3)]
    turn = state["turn"]
    walls = (f"wall N{i}" for i in range(1, 7))
    for player in order:
        for placed in (0, 1):
            assert (state["current"], state["placed"]) == (player, placed)
            order_now = next(walls)
            refused(state, order_now, f"it is not your turn: the game waits for {player}",
                    player=next(p for p in P3 if p != player))
            R.apply(state, player, order_now, rng)
            turn += 1
            assert state["turn"] == turn
    assert state["current"] == order[0] and state["placed"] == 0


def test_a_turn_passes_early_when_nothing_more_can_be_placed() -> None:
    """Each turn has two placements, but a player whose last piece is placed has no second one."""
    state, rng = fresh()
    only(state, "anna", merchant=1)
    turn_of(state, "anna")
    R.apply(state, "anna", "merchant H5", rng)
    assert (state["current"], state["placed"]) == ("ben", 0)


# -- palaces ------------------------------------------------------------------------------------------

def test_a_colour_not_yet_present_goes_on_any_free_square() -> None:
    """'Palastteile einer noch nicht vorhandene Farben dürfen an beliebigen, freien Stellen verbaut
    werden.' Corners and edges included; each colour on its own."""
    state, rng = fresh()
    turn_of(state, "anna")
    free = {s for s in (f"{c}{r}" for c in LETTERS for r in range(1, 12)) if s != "H6"}
    for colour in COLOURS:
        assert {o.split()[2] for o in R.legal_orders(state, "anna") if o.startswith(f"palace {colour} ")} == free
    events = R.apply(state, "anna", "palace grey A1", rng)
    assert events[:2] == [{"type": "place", "player": "anna", "order": "palace grey A1"},
                          {"type": "found", "player": "anna", "colour": "grey", "at": "A1"}]
    assert state["palaces"] == [{"id": 0, "colour": "grey", "parts": ["A1"], "stables": [], "owner": None}]
    assert state["board"]["A1"] == {"kind": "palace", "palace": 0}
    assert state["supply"]["anna"]["palace"]["grey"] == 5
    allowed(state, "palace black P11")
    refused(state, "palace black H6", "H6 is taken (by a merchant)")
    refused(state, "palace black A1", "A1 is taken (by a palace)")


def test_an_open_palace_must_be_built_onto() -> None:
    """'Bei schon vorhandenen Farben muß stets angebaut werden bis entweder ein Spieler ein Dach auf
    diesen Palast setzt oder er nicht mehr erweiterbar ist.' Built onto means next to a piece of it
    (not diagonally); any player may build onto any palace."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="anna")
    turn_of(state, "ben")
    grey = {o.split()[-1] for o in R.legal_orders(state, "ben") if o.startswith("palace grey")}
    assert grey == {"C2", "B3", "D3", "C4"}
    message = OPEN.format(colour="grey", at="C3", growth="C2, B3, D3, C4")
    for sq in ("K8", "D4", "C5", "A1"):
        refused(state, f"palace grey {sq}", message)
    allowed(state, "palace black K8")  # another colour is not bound by the grey palace
    events = R.apply(state, "ben", "palace grey D3", rng)
    assert of_type(events, "found") == []
    assert state["palaces"][0]["parts"] == ["C3", "D3"]
    assert state["board"]["D3"] == {"kind": "palace", "palace": 0}
    turn_of(state, "cleo")
    refused(state, "palace grey K8", OPEN.format(colour="grey", at="C3", growth="C2, D2, B3, E3, C4, D4"))


def test_a_roofed_palace_is_closed_and_a_new_one_may_be_founded() -> None:
    """'... bis entweder ein Spieler ein Dach auf diesen Palast setzt ... Dann erst darf ein Neuer
    gegründet werden.' A roofed palace grows no more: a piece beside it would be a new palace touching
    it."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "palace grey D3", by="anna")
    put(state, rng, "roof grey C3", by="ben")
    turn_of(state, "cleo")
    refused(state, "palace grey E3", TOUCH.format(sq="E3"))
    refused(state, "palace grey C4", TOUCH.format(sq="C4"))
    events = R.apply(state, "cleo", "palace grey K8", rng)
    assert of_type(events, "found") == [{"type": "found", "player": "cleo", "colour": "grey", "at": "K8"}]
    assert [p["parts"] for p in state["palaces"]] == [["C3", "D3"], ["K8"]]
    turn_of(state, "anna")
    refused(state, "palace grey C9", OPEN.format(colour="grey", at="K8", growth="K7, J8, L8, K9"))


def test_a_palace_that_can_grow_no_more_lets_a_new_one_be_founded() -> None:
    """'... oder er nicht mehr erweiterbar ist. Dann erst darf ein Neuer gegründet werden.' The grey
    palace in the corner A1 is hemmed in by the black palace at C1 and the brown one at A3 (it could
    only grow to B1 or A2, and both touch them): it stays unroofed, and a new grey palace is free."""
    state, rng = fresh()
    put(state, rng, "palace grey A1", by="anna")
    turn_of(state, "ben")
    refused(state, "palace grey K8", OPEN.format(colour="grey", at="A1", growth="B1, A2"))
    put(state, rng, "palace black C1", by="ben")
    turn_of(state, "cleo")
    refused(state, "palace grey K8", OPEN.format(colour="grey", at="A1", growth="A2"))
    put(state, rng, "palace brown A3", by="cleo")
    turn_of(state, "anna")
    assert {o.split()[-1] for o in R.legal_orders(state, "anna") if o.startswith("palace grey")} >= {"K8", "P11"}
    events = R.apply(state, "anna", "palace grey K8", rng)
    assert of_type(events, "found") == [{"type": "found", "player": "anna", "colour": "grey", "at": "K8"}]
    assert state["palaces"][0]["owner"] is None  # the old one stays, unroofed, and may still be roofed
    turn_of(state, "ben")
    allowed(state, "roof grey A1")
    # the new palace is the open one now
    refused(state, "palace grey C9", OPEN.format(colour="grey", at="K8", growth="K7, J8, L8, K9"))


@pytest.mark.parametrize("sq", ["D4", "D2", "B4", "D3", "C4"])
def test_palaces_never_touch_not_even_diagonally(sq: str) -> None:
    """'Paläste dürfen niemals verbunden werden - auch nicht diagonal ...; d.h. um einen Palast herum muß
    immer mindestens ein Feld freibleiben.' Founding a palace of another colour next to (or diagonally
    next to) the grey palace at C3 is refused; one free square between them is enough."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="anna")
    turn_of(state, "ben")
    refused(state, f"palace black {sq}", TOUCH.format(sq=sq))
    for ok in ("E3", "E5", "C5", "A1", "A5"):
        allowed(state, f"palace black {ok}")


def test_palaces_never_touch_through_stables() -> None:
    """'Paläste dürfen niemals verbunden werden - auch nicht diagonal oder durch Ziegenställe'. A stable
    belongs to its palace: a new palace may not touch it, not even diagonally."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "stable C4", by="anna")
    turn_of(state, "ben")
    for sq in ("D5", "C5", "B5", "D4"):
        refused(state, f"palace black {sq}", TOUCH.format(sq=sq))
    allowed(state, "palace black C6")
    allowed(state, "palace black E5")


def test_an_extension_may_not_touch_another_palace() -> None:
    """'Paläste dürfen niemals verbunden werden - auch nicht diagonal oder durch Ziegenställe'. The grey
    palace at C3 and the black one at E3 both have D3 next to them: neither may grow there, and the
    grey palace may not grow next to the stable of the brown palace either."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "palace black E3", by="anna")
    turn_of(state, "ben")
    refused(state, "palace grey D3", OPEN.format(colour="grey", at="C3", growth="C2, B3, C4"))
    refused(state, "palace black D3", OPEN.format(colour="black", at="E3", growth="E2, F3, E4"))
    refused(state, "palace grey D4", OPEN.format(colour="grey", at="C3", growth="C2, B3, C4"))
    # a brown palace at C7 with a stable at C6: the grey palace C3-C4 may not grow to C5 beside the stable
    put(state, rng, "palace grey C4", by="ben")
    put(state, rng, "palace brown C7", "stable C6", by="cleo")
    turn_of(state, "anna")
    assert "palace grey C5" not in R.legal_orders(state, "anna")
    refused(state, "palace grey C5", OPEN.format(colour="grey", at="C3", growth="C2, B3, B4"))


def test_a_stable_may_not_join_two_palaces() -> None:
    """'Paläste dürfen niemals verbunden werden - auch nicht ... durch Ziegenställe'. A stable next to
    the grey palace at C3 that touches the black palace at E4, even diagonally, is refused; so is one
    between two palaces."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "palace black E4", "palace brown E2", by="anna")
    turn_of(state, "ben")
    refused(state, "stable D3", STABLE_JOINS.format(sq="D3"))  # orthogonal to C3, diagonal to E4 and E2
    refused(state, "stable D4", STABLE_JOINS.format(sq="D4"))  # orthogonal to E4, diagonal to C3
    refused(state, "stable E3", STABLE_JOINS.format(sq="E3"))  # between the black and the brown palace
    allowed(state, "stable B3")
    allowed(state, "stable F4")


def test_stables_are_built_onto_palaces() -> None:
    """'Ziegenställe werden direkt an Paläste angebaut.' Orthogonally next to a piece of the palace or to
    one of its stables; a stable alone, or only diagonally next to a palace, is refused."""
    state, rng = fresh()
    turn_of(state, "anna")
    refused(state, "stable C3", STABLE_ALONE.format(sq="C3"))
    assert legal_of(state, "stable") == set()
    put(state, rng, "palace grey C3", by="anna")
    turn_of(state, "ben")
    assert legal_of(state, "stable") == {"C2", "B3", "D3", "C4"}
    refused(state, "stable D4", STABLE_ALONE.format(sq="D4"))
    refused(state, "stable K8", STABLE_ALONE.format(sq="K8"))
    refused(state, "stable H6", "H6 is taken (by a merchant)")
    events = R.apply(state, "ben", "stable C4", rng)
    assert events[0] == {"type": "place", "player": "ben", "order": "stable C4"}
    assert state["palaces"][0]["stables"] == ["C4"]
    assert state["board"]["C4"] == {"kind": "stable", "palace": 0}
    assert state["supply"]["ben"]["stable"] == 3
    turn_of(state, "cleo")
    allowed(state, "stable C5")  # onto the stable
    allowed(state, "stable D4")  # now next to the stable C4
    only(state, "cleo", merchant=1)
    turn_of(state, "cleo")
    refused(state, "stable C5", "you have no stables left")


def test_stables_go_onto_roofed_palaces_too() -> None:
    """'Im Gegensatz zu Bauteilen dürfen sie auch noch dann an einen Palast gesetzt werden, wenn dieser
    schon ein Dach besitzt.'"""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="anna")
    put(state, rng, "roof grey C3", by="ben")
    turn_of(state, "cleo")
    refused(state, "palace grey C4", TOUCH.format(sq="C4"))
    allowed(state, "stable C4")
    R.apply(state, "cleo", "stable C4", rng)
    assert state["palaces"][0] == {"id": 0, "colour": "grey", "parts": ["C3"], "stables": ["C4"], "owner": "ben"}


# -- the market street ----------------------------------------------------------------------------------

def test_the_market_street_grows_from_either_end() -> None:
    """'Die Marktgassenfiguren müssen stets an die bestehende Marktgasse so angebaut werden, dass jede neu
    eingesetzte Figur genau einen Nachbarn (nicht diagonal) hat.'"""
    state, rng = fresh()
    turn_of(state, "anna")
    assert legal_of(state, "merchant") == {"H5", "G6", "I6", "H7"}
    put(state, rng, "merchant H5", by="anna")
    turn_of(state, "ben")
    assert legal_of(state, "merchant") == {"H4", "G5", "I5", "G6", "I6", "H7"}
    put(state, rng, "merchant H7", by="ben")
    assert state["streets"] == [["H7", "H6", "H5"]]
    put(state, rng, "merchant H4", by="cleo")
    assert state["streets"] == [["H7", "H6", "H5", "H4"]]
    assert state["supply"]["anna"]["merchant"] == 7
    turn_of(state, "anna")
    assert legal_of(state, "merchant") == {"H3", "G4", "I4", "G7", "I7", "H8"}
    refused(state, "merchant K9", "the market street must grow from one of its ends (H7 or H4) with no branch "
                                  "and no loop: K9 is not such a square (choose from H3, G4, I4, G7, I7, H8)")
    refused(state, "merchant G8", "the market street must grow from one of its ends (H7 or H4) with no branch "
                                  "and no loop: G8 is not such a square (choose from H3, G4, I4, G7, I7, H8)")
    refused(state, "merchant H6", "H6 is taken (by a merchant)")


def test_the_market_street_has_no_branch() -> None:
    """'Die Marktgasse darf keine Abzweigungen besitzen!' Next to a middle piece is no end."""
    state, rng = fresh()
    put(state, rng, "merchant H5", "merchant H7", by="anna")
    turn_of(state, "ben")
    for sq in ("G6", "I6"):
        refused(state, f"merchant {sq}", "the market street must grow from one of its ends (H7 or H5) with no "
                                         f"branch and no loop: {sq} is not such a square "
                                         "(choose from H4, G5, I5, G7, I7, H8)")


def test_the_market_street_closes_no_loop() -> None:
    """'Man kann also keine geschlossenen Kreise damit bauen.' The street G6-H6-H5-I5: I6 and G5 are next
    to an end but also next to another piece of the street."""
    state, rng = fresh()
    put(state, rng, "merchant H5", "merchant G6", "merchant I5", by="anna")
    assert state["streets"] == [["G6", "H6", "H5", "I5"]]
    turn_of(state, "ben")
    assert legal_of(state, "merchant") == {"I4", "J5", "F6", "G7"}
    for sq in ("I6", "G5"):
        refused(state, f"merchant {sq}", "the market street must grow from one of its ends (G6 or I5) with no "
                                         f"branch and no loop: {sq} is not such a square "
                                         "(choose from I4, J5, F6, G7)")


def blocked_street() -> tuple[dict[str, Any], Rng]:
    """The street B2-A2-A1 can grow no more: A1's last free neighbour B1 also touches B2, and B2's
    other neighbours hold the grey palace C2-C3-B3."""
    state, rng = fresh(start="B2")
    spread(state, rng, "palace grey C2", "palace grey C3", "palace grey B3", "merchant A2", "merchant A1")
    assert state["streets"] == [["B2", "A2", "A1"]]
    return state, rng


def test_a_street_that_cannot_grow_starts_anew_anywhere() -> None:
    """'Sollte die Marktgasse nicht mehr erweiterbar sein, dann darf sie an beliebiger Stelle (auch am
    Rand!) neu gegründet werden. ... Dort gelten dann wieder die gleichen Regeln.'"""
    state, rng = blocked_street()
    turn_of(state, "ben")
    merchants = legal_of(state, "merchant")
    assert "P11" in merchants and "H6" in merchants and "C1" in merchants  # C1 touches B2 only diagonally
    events = put(state, rng, "merchant P11", by="ben")
    assert of_type(events, "new_street") == [{"type": "new_street", "player": "ben", "at": "P11"}]
    assert state["streets"] == [["B2", "A2", "A1"], ["P11"]]
    turn_of(state, "cleo")
    assert legal_of(state, "merchant") == {"O11", "P10"}
    refused(state, "merchant H6", "the market street must grow from one of its ends (P11) with no branch and no "
                                  "loop: H6 is not such a square (choose from P10, O11)")
    put(state, rng, "merchant P10", by="cleo")
    assert state["streets"][-1] == ["P11", "P10"]
    grid = R.grid(state)
    assert grid[1][1:3] == ["mm", ".."] and grid[11][16] == "MM" and grid[10][16] == "MM"


def test_a_new_street_may_not_touch_the_old_one() -> None:
    """'Sollte die Marktgasse nicht mehr erweiterbar sein, dann darf sie an beliebiger Stelle ... neu
    gegründet werden' (BrettspielWelt: the new street may not touch the old one). B1 touches A1 and B2."""
    state, rng = blocked_street()
    turn_of(state, "ben")
    refused(state, "merchant B1", "the market street cannot grow, so it starts anew; the new start B1 may not "
                                  "touch the old street")
    assert "B1" not in legal_of(state, "merchant")


def test_while_the_street_can_grow_it_may_not_start_anew() -> None:
    """'Sollte die Marktgasse nicht mehr erweiterbar sein, dann ...': only then."""
    state, rng = fresh(start="B2")
    spread(state, rng, "palace grey C2", "palace grey C3", "palace grey B3", "merchant A2")
    turn_of(state, "anna")
    assert legal_of(state, "merchant") == {"A1", "A3", "B1"}
    refused(state, "merchant P11", "the market street must grow from one of its ends (B2 or A2) with no branch "
                                   "and no loop: P11 is not such a square (choose from A1, B1, A3)")


# -- walls ----------------------------------------------------------------------------------------------

def test_walls_start_at_the_corner_towers() -> None:
    """'Mauern werden von den Ecken aus am Rand entlang gebaut. Sie müssen immer an eine bestehende Mauer
    oder einen Eckturm angebaut werden.' Towers 1-4 clockwise from the top-left (NOTES)."""
    state, rng = fresh()
    turn_of(state, "anna")
    assert legal_of(state, "wall") == {"N1", "W1", "N16", "E1", "E11", "S16", "S1", "W11"}
    for w in ("N5", "S8", "W6", "E2"):
        refused(state, f"wall {w}", f"walls are built from the corner towers along the edge: {w} joins no tower "
                                    "and no wall")
    towers = {"N1": "1", "W1": "1", "N16": "2", "E1": "2", "E11": "3", "S16": "3", "S1": "4", "W11": "4"}
    spread(state, rng, *(f"wall {w}" for w in towers))
    assert state["walls"] == towers
    turn_of(state, "anna")
    assert legal_of(state, "wall") == {"N2", "W2", "N15", "E2", "E10", "S15", "S2", "W10"}
    spread(state, rng, "wall N2", "wall N3", "wall E2", "wall S15")
    assert state["walls"]["N3"] == "1" and state["walls"]["E2"] == "2" and state["walls"]["S15"] == "3"
    refused(state, "wall N5", "walls are built from the corner towers along the edge: N5 joins no tower and no wall")
    allowed(state, "wall N4")


@pytest.mark.parametrize("wall", ["N17", "N0", "S17", "W12", "E12", "W0"])
def test_a_wall_segment_off_the_ring(wall: str) -> None:
    """The wall ring: N1-N16 and S1-S16 along the 16 columns, W1-W11 and E1-E11 along the 11 rows."""
    state, _ = fresh()
    turn_of(state, "anna")
    refused(state, f"wall {wall}", f"{wall} is not a wall segment (N1-N16, S1-S16, W1-W11, E1-E11)")


def test_a_wall_stands_once_and_comes_from_the_supply() -> None:
    """Each player has 10 walls (3 players); a segment holds one wall."""
    state, rng = fresh()
    put(state, rng, "wall N1", by="anna")
    assert state["supply"]["anna"]["wall"] == 9
    turn_of(state, "ben")
    refused(state, "wall N1", "wall N1 stands already")
    only(state, "ben", merchant=1)
    turn_of(state, "ben")
    refused(state, "wall N2", "you have no walls left")


def test_a_gate_stays_open_between_two_runs() -> None:
    """'Zwei Türme dürfen niemals miteinander verbunden werden, d.h. zwischen zwei aufeinanderzulaufenden
    Mauern muß immer eine Lücke (Stadttor) bleiben.' N1-N8 from tower 1 and N16-N11 from tower 2 leave
    N9 and N10: one of them may be closed, the last one may not."""
    state, rng = fresh()
    spread(state, rng, *(f"wall N{i}" for i in range(1, 9)), *(f"wall N{i}" for i in range(16, 10, -1)))
    turn_of(state, "anna")
    assert legal_of(state, "wall") & {"N9", "N10"} == {"N9", "N10"}
    put(state, rng, "wall N9", by="anna")
    assert state["walls"]["N9"] == "1"
    turn_of(state, "ben")
    refused(state, "wall N10", "wall N10 would join two towers; a gate must stay open on the N side")
    assert not {w for w in legal_of(state, "wall") if w.startswith("N")}


def test_a_single_run_may_not_reach_the_far_tower() -> None:
    """'Zwei Türme dürfen niemals miteinander verbunden werden': a run from tower 1 down the west side
    stops one segment short of tower 4."""
    state, rng = fresh()
    spread(state, rng, *(f"wall W{i}" for i in range(1, 11)))
    assert all(state["walls"][f"W{i}"] == "1" for i in range(1, 11))
    turn_of(state, "anna")
    refused(state, "wall W11", "wall W11 would join two towers; a gate must stay open on the W side")


def test_a_gate_stays_open_on_the_east_side_too() -> None:
    """The gate rule holds on each side on its own: the east side with E1-E5 from tower 2 and E11-E7 from
    tower 3 keeps E6 open."""
    state, rng = fresh()
    spread(state, rng, *(f"wall E{i}" for i in range(1, 6)), *(f"wall E{i}" for i in range(11, 7, -1)))
    turn_of(state, "anna")
    put(state, rng, "wall E7", by="anna")
    assert state["walls"]["E7"] == "3" and state["walls"]["E5"] == "2"
    turn_of(state, "ben")
    refused(state, "wall E6", "wall E6 would join two towers; a gate must stay open on the E side")
    allowed(state, "wall N1")


# -- roofs ----------------------------------------------------------------------------------------------

def test_a_roof_claims_a_palace() -> None:
    """'Die Dächer werden auf Paläste gesetzt. Dabei darf/muss jeder Spieler genau einen Palast jeder
    Farbe nehmen.'"""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "palace grey D3", by="anna")
    turn_of(state, "ben")
    assert [o for o in R.legal_orders(state, "ben") if o.startswith("roof")] == ["roof grey C3"]
    allowed(state, "roof grey D3", listed=False)  # any piece of the palace names it
    R.apply(state, "ben", "roof grey D3", rng)
    assert state["palaces"][0]["owner"] == "ben"
    assert state["roofed"]["ben"] == ["grey"]
    assert state["supply"]["ben"]["roof"] == 3
    assert R.grid(state)[3][3:5] == ["G2", "G2"]


def test_one_palace_of_each_colour_per_player() -> None:
    """'Dabei darf/muss jeder Spieler genau einen Palast jeder Farbe nehmen.'"""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="anna")
    put(state, rng, "roof grey C3", by="ben")
    put(state, rng, "palace grey K8", "palace black C9", by="cleo")
    turn_of(state, "ben")
    refused(state, "roof grey K8", "you own a grey palace already; each player roofs one palace of each colour")
    allowed(state, "roof black C9")
    turn_of(state, "cleo")
    allowed(state, "roof grey K8")


def test_a_roof_goes_only_onto_an_unroofed_palace() -> None:
    """'Die Dächer werden auf Paläste gesetzt': one roof a palace; no roof on a stable, a merchant or an
    empty square."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "stable C4", by="anna")
    put(state, rng, "roof grey C3", by="ben")
    turn_of(state, "cleo")
    refused(state, "roof grey C3", "the grey palace at C3 has a roof already (ben's)")
    refused(state, "roof grey C4", "there is no palace at C4 to roof")
    refused(state, "roof grey H6", "there is no palace at H6 to roof")
    refused(state, "roof grey K2", "there is no palace at K2 to roof")
    refused(state, "roof grey Q2", "Q2 is not a square of the city (A1 to P11)")
    assert [o for o in R.legal_orders(state, "cleo") if o.startswith("roof")] == []


def test_a_roof_names_the_colour_of_its_palace() -> None:
    """A roof claims one palace of each colour: the colour in the order must be the palace's."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="anna")
    turn_of(state, "ben")
    refused(state, "roof black C3", "the palace at C3 is grey, not black")
    allowed(state, "roof grey C3")


def test_no_roofs_left() -> None:
    """Four roofs per player: one for each colour."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="anna")
    only(state, "ben", merchant=1)
    turn_of(state, "ben")
    refused(state, "roof grey C3", "you have no roofs left")


def only_anna_has_roofs(state: dict[str, Any]) -> None:
    """Ben and cleo have placed or given back all their roofs; anna keeps her four."""
    for p in ("ben", "cleo"):
        state["returned"][p]["roof"] = state["supply"][p]["roof"]
        state["supply"][p]["roof"] = 0


def test_the_last_player_with_roofs_roofs_every_turn() -> None:
    """'Hat nur noch ein Spieler Dächer, so muss er ab diesem Zeitpunkt jedes Mal, wenn er an der Reihe
    ist, mindestens ein Dach setzen.' With a grey palace to roof, anna's first placement is free, her
    second must then be the roof."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="ben")
    only_anna_has_roofs(state)
    turn_of(state, "anna")
    assert R.view(state, "anna")["roof_compulsory"] is True
    allowed(state, "merchant H5")
    R.apply(state, "anna", "merchant H5", rng)
    assert (state["current"], state["placed"]) == ("anna", 1)
    for order in ("merchant H4", "palace grey D3", "stable C4", "palace black K8"):
        refused(state, order, MUST_ROOF)
    assert R.legal_orders(state, "anna") == ["roof grey C3"]
    R.apply(state, "anna", "roof grey C3", rng)
    assert state["current"] == "ben"


def test_the_compulsory_roof_is_not_replaced_by_a_wall() -> None:
    """'Hat nur noch ein Spieler Dächer, so muss er ... jedes Mal ... mindestens ein Dach setzen.' A wall is
    a placement like any other: after a first placement that is no roof, the second must be the roof."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="ben")
    only_anna_has_roofs(state)
    turn_of(state, "anna")
    R.apply(state, "anna", "merchant H5", rng)
    assert R.legal_orders(state, "anna") == ["roof grey C3"]
    refused(state, "wall N1", MUST_ROOF)


def test_a_first_roof_frees_the_second_placement() -> None:
    """'... mindestens ein Dach setzen': one roof a turn is enough."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="ben")
    only_anna_has_roofs(state)
    turn_of(state, "anna")
    R.apply(state, "anna", "roof grey C3", rng)
    assert (state["current"], state["placed"], state["roofed_this_turn"]) == ("anna", 1, True)
    allowed(state, "merchant H5")
    allowed(state, "palace black K8")


def test_the_last_player_with_roofs_founds_a_palace_to_roof() -> None:
    """'Entsprechende Paläste muss er zu diesem Zweck auch gründen.' With no palace anna could roof, her
    first placement must found one of a colour she has not claimed, the second roofs it."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="ben")
    put(state, rng, "roof grey C3", by="anna")
    only_anna_has_roofs(state)
    turn_of(state, "anna")
    for order in ("merchant H5", "stable C4", "palace grey K8"):
        refused(state, order, MUST_FOUND)
    legal = R.legal_orders(state, "anna")
    assert {o.split()[0] for o in legal} == {"palace"}
    assert {o.split()[1] for o in legal} == {"black", "brown", "orange"}
    R.apply(state, "anna", "palace black K8", rng)
    refused(state, "merchant H5", MUST_ROOF)
    refused(state, "palace black K9", MUST_ROOF)
    assert R.legal_orders(state, "anna") == ["roof black K8"]


def test_the_last_player_with_roofs_may_not_wall_instead_of_founding() -> None:
    """'Entsprechende Paläste muss er zu diesem Zweck auch gründen.'"""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="ben")
    put(state, rng, "roof grey C3", by="anna")
    only_anna_has_roofs(state)
    turn_of(state, "anna")
    assert {o.split()[0] for o in R.legal_orders(state, "anna")} == {"palace"}
    refused(state, "wall N1", MUST_FOUND)


def test_no_compulsory_roof_while_two_players_have_roofs() -> None:
    """'Hat nur noch ein Spieler Dächer ...': while another player has a roof left, nobody must roof."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="ben")
    only_anna_has_roofs(state)
    state["supply"]["cleo"]["roof"], state["returned"]["cleo"]["roof"] = 1, 3
    turn_of(state, "anna")
    assert R.view(state, "anna")["roof_compulsory"] is False
    R.apply(state, "anna", "merchant H5", rng)
    allowed(state, "merchant H4")
    allowed(state, "wall N1")


# -- giving pieces back -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [P3, P4])
def test_a_colour_goes_back_once_every_player_has_claimed_it(players: list[str]) -> None:
    """'Sobald von einer Farbe jeder Spieler einen Palast in Besitz genommen hat ..., müssen alle übrigen
    Steine dieser Farbe abgegeben werden.'"""
    state, rng = fresh(players)
    places = ["C3", "K3", "C9", "K9"]
    n = len(players)
    for i, p in enumerate(players):
        put(state, rng, f"palace grey {places[i]}", by=p)
        events = put(state, rng, f"roof grey {places[i]}", by=p)
        if i < n - 1:
            assert of_type(events, "return") == []
    left = 6 if n == 3 else 5
    assert of_type(events, "return") == [{"type": "return", "colour": "grey", "counts": {p: left - 1 for p in players},
                                          "why": "every player has claimed one"}]
    for p in players:
        assert state["supply"][p]["palace"]["grey"] == 0
        assert state["returned"][p]["grey"] == left - 1
        assert state["supply"][p]["palace"]["black"] == left
    turn_of(state, players[0])
    refused(state, "palace grey H9", "you have no grey palace pieces left")


_STRIPES: list[tuple[dict[str, Any], int]] = []


def stripes() -> tuple[dict[str, Any], Rng]:
    """Four palaces of 16 pieces across the board, rows 2 (black), 5 (brown), 8 (orange) and 11 (grey):
    every free square lies next to one of them. (Built once; each test gets its own copy.)"""
    if not _STRIPES:
        state, rng = fresh(start="H7")
        for colour, row in (("black", 2), ("brown", 5), ("orange", 8), ("grey", 11)):
            events = spread(state, rng, *(f"palace {colour} {c}{row}" for c in LETTERS))
            assert of_type(events, "return") == of_type(events, "return_roofs") == []
        assert len(state["palaces"]) == 4 and all(len(p["parts"]) == 16 for p in state["palaces"])
        _STRIPES.append((state, rng.counter))
    state, counter = _STRIPES[0]
    return copy.deepcopy(state), Rng("rules", counter)


def test_a_colour_goes_back_once_none_of_it_fits() -> None:
    """'Sobald von einer Farbe ... kein Bauteil dieser Farbe mehr auf den Spielplan passt, müssen alle
    übrigen Steine dieser Farbe abgegeben werden.' Once the black palace is roofed nothing black fits:
    a new black palace would touch another palace everywhere."""
    state, rng = stripes()
    assert {p: state["supply"][p]["palace"]["black"] for p in P3} == {"anna": 0, "ben": 1, "cleo": 1}
    events = put(state, rng, "roof black A2", by="anna")
    assert of_type(events, "return") == [{"type": "return", "colour": "black",
                                          "counts": {"anna": 0, "ben": 1, "cleo": 1},
                                          "why": "no piece fits any more"}]
    assert all(state["supply"][p]["palace"]["black"] == 0 for p in P3)
    assert state["returned"]["ben"]["black"] == 1 and state["returned"]["cleo"]["black"] == 1
    # brown still fits: its palace may grow
    assert {p: state["supply"][p]["palace"]["brown"] for p in P3} == {"anna": 0, "ben": 1, "cleo": 1}


def test_roofs_that_can_find_no_palace_go_back() -> None:
    """'... müssen alle übrigen Steine dieser Farbe abgegeben werden.' With the black palace roofed by
    anna and no black piece left, ben's and cleo's black roofs can find no palace: they go back."""
    state, rng = stripes()
    events = put(state, rng, "roof black A2", by="anna")
    assert of_type(events, "return_roofs") == [{"type": "return_roofs", "player": "ben", "count": 1},
                                               {"type": "return_roofs", "player": "cleo", "count": 1}]
    assert {p: state["supply"][p]["roof"] for p in P3} == {"anna": 3, "ben": 3, "cleo": 3}
    assert state["returned"]["ben"]["roof"] == 1 and state["returned"]["cleo"]["roof"] == 1
    assert "roof" not in state["returned"]["anna"]
    events = put(state, rng, "roof brown A5", by="ben")
    assert of_type(events, "return") == [{"type": "return", "colour": "brown",
                                          "counts": {"anna": 0, "ben": 1, "cleo": 1},
                                          "why": "no piece fits any more"}]
    assert of_type(events, "return_roofs") == [{"type": "return_roofs", "player": "anna", "count": 1},
                                               {"type": "return_roofs", "player": "cleo", "count": 1}]
    assert {p: state["supply"][p]["roof"] for p in P3} == {"anna": 2, "ben": 2, "cleo": 2}


def test_roofs_go_back_when_a_colour_is_used_up() -> None:
    """A roof of a colour with no piece left and no unroofed palace of it can find no palace. Two grey
    palaces of 9 take all 18 grey pieces; anna and ben roof them, cleo's grey roof goes back."""
    state, rng = fresh(start="H9")
    spread(state, rng, *(f"palace grey {c}2" for c in "BCDEFGHIJ"))
    put(state, rng, "roof grey B2", by="anna")
    events = spread(state, rng, *(f"palace grey {c}6" for c in "BCDEFGHIJ"))
    assert all(state["supply"][p]["palace"]["grey"] == 0 for p in P3)
    assert of_type(events, "return_roofs") == []  # the palace at B6 is still there to roof
    events = put(state, rng, "roof grey B6", by="ben")
    assert of_type(events, "return_roofs") == [{"type": "return_roofs", "player": "cleo", "count": 1}]
    assert state["supply"]["cleo"]["roof"] == 3 and state["returned"]["cleo"] == {"roof": 1}


# -- missing a turn, and the end -----------------------------------------------------------------------------

def test_a_player_with_only_unplaceable_stables_misses_his_turn() -> None:
    """'Seltener Ausnahmefall: hat man nur noch Ziegenställe, die nirgends zu setzen sind, andere Spieler
    aber im weiteren Spielverlauf einen Palast gründen könnten, wo dieser Ziegenstall verwendbar wäre,
    setzt man in diesem Zug aus.'"""
    state, rng = fresh()
    only(state, "ben", stable=4)
    turn_of(state, "anna")
    assert R.legal_orders(state, "ben") == []
    R.apply(state, "anna", "merchant H5", rng)
    events = R.apply(state, "anna", "merchant H4", rng)
    assert of_type(events, "skip") == [{"type": "skip", "player": "ben", "left": {"stable": 4}}]
    assert (state["current"], state["placed"]) == ("cleo", 0)
    R.apply(state, "cleo", "palace grey C3", rng)
    R.apply(state, "cleo", "merchant H3", rng)
    assert state["current"] == "anna"
    R.apply(state, "anna", "merchant H2", rng)
    events = R.apply(state, "anna", "wall N1", rng)
    assert of_type(events, "skip") == []
    assert state["current"] == "ben"
    assert R.legal_orders(state, "ben") == ["stable C2", "stable B3", "stable D3", "stable C4"]


def test_the_game_ends_when_nobody_can_place() -> None:
    """'Das Spiel endet, wenn der letzte Spieler sein letztes Teil verbaut hat. ... Ein nicht mehr zu
    bauender Ziegenstall bleibt übrig.'"""
    state, rng = fresh()
    only(state, "anna", merchant=1)
    only(state, "ben", stable=4)
    only(state, "cleo", stable=4)
    turn_of(state, "anna")
    events = R.apply(state, "anna", "merchant H5", rng)
    assert state["phase"] == "over"
    assert R.decision(state) is None
    end = of_type(events, "game_end")
    assert len(end) == 1 and events[-1] == end[0]
    assert end[0]["left_over"] == {"ben": {"stable": 4}, "cleo": {"stable": 4}}
    assert end[0]["standings"] == R.result(state)
    assert R.why_illegal(state, "anna", "merchant H4") == "the game is over"
    assert R.legal_orders(state, "ben") == []


def test_a_player_whose_rivals_are_stuck_plays_on() -> None:
    """The game goes on while anyone can place: when nobody else can, the same player has the next turn."""
    state, rng = fresh()
    only(state, "anna", merchant=3)
    only(state, "ben", stable=4)
    only(state, "cleo", stable=4)
    turn_of(state, "anna")
    R.apply(state, "anna", "merchant H5", rng)
    events = R.apply(state, "anna", "merchant H4", rng)
    assert [e["player"] for e in of_type(events, "skip")] == ["ben", "cleo"]
    assert (state["current"], state["placed"], state["phase"]) == ("anna", 0, "build")


# -- orders that are no placement -------------------------------------------------------------------------------

@pytest.mark.parametrize("order", ["palace grey A01", "merchant A0", "build C7", "palace pink C7", "merchant",
                                   "wall N123", "roof grey", " merchant H5", "Merchant H5"])
def test_an_order_that_is_no_placement(order: str) -> None:
    """Orders are one placement each: 'start E5', 'palace grey C7', 'stable D7', 'merchant E5', 'wall N5',
    'roof orange E4'."""
    state, _ = fresh()
    turn_of(state, "anna")
    refused(state, order, NOT_A_PLACEMENT.format(order=order))


def test_an_order_that_is_no_text() -> None:
    """An order is a line of text; a mapping is no placement."""
    state, _ = fresh()
    turn_of(state, "anna")
    refused(state, {"merchant": "H5"}, NOT_A_PLACEMENT.format(order={"merchant": "H5"}))


@pytest.mark.parametrize("order, sq", [("palace grey Q3", "Q3"), ("merchant A12", "A12"), ("stable P12", "P12"),
                                       ("merchant Z1", "Z1"), ("palace orange A99", "A99")])
def test_a_square_off_the_board(order: str, sq: str) -> None:
    """Squares: columns A-P, rows 1-11."""
    state, _ = fresh()
    turn_of(state, "anna")
    refused(state, order, f"{sq} is not a square of the city (A1 to P11)")


def test_a_palace_without_a_colour_is_no_placement() -> None:
    """'palace COLOUR SQUARE': a palace piece has a colour."""
    state, _ = fresh()
    turn_of(state, "anna")
    assert R.why_illegal(state, "anna", "palace C7") == NOT_A_PLACEMENT.format(order="palace C7")


@pytest.mark.parametrize("order", ["merchant grey H5", "wall orange N1", "stable black C4", "start grey E5",
                                   "roof C3"])
def test_a_colour_only_where_a_placement_has_one(order: str) -> None:
    """Orders are 'stable D7', 'merchant E5', 'wall N5', 'roof orange E4': a colour goes with palace pieces
    and roofs only, and a roof names one."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", by="ben")
    turn_of(state, "anna")
    assert R.why_illegal(state, "anna", order) == NOT_A_PLACEMENT.format(order=order)


def test_only_the_player_to_move_places() -> None:
    """Each player places on his own turn."""
    state, _ = fresh()
    turn_of(state, "anna")
    refused(state, "merchant H5", "it is not your turn: the game waits for anna", player="ben")
    refused(state, "merchant H5", "it is not your turn: the game waits for anna", player="zed")


# -- scoring: the four examples of the text -------------------------------------------------------------------

def grey_top_right() -> tuple[dict[str, Any], Rng]:
    """Grey P1-O1-N1-P2 in the north-east corner, roofed by anna; the street O2-O3-N3-M3-M2-M1 touches it
    with O2 (at O1 and P2: once) and M1 (at N1); walls N16, N15, N14 (above P1, O1, N1), E1, E2."""
    state, rng = fresh(start="O2")
    spread(state, rng, "palace grey P1", "palace grey O1", "palace grey N1", "palace grey P2")
    put(state, rng, "roof grey P1", by="anna")
    spread(state, rng, "merchant O3", "merchant N3", "merchant M3", "merchant M2", "merchant M1",
           "wall N16", "wall N15", "wall N14", "wall E1", "wall E2")
    return state, rng


def test_example_grey_palace_eleven_points() -> None:
    """'Der graue Palast mit dem grünen Dach rechts oben bekommt 11 Punkte: 4 (farbige Palastteile) + 2
    (Marktgasse) + 5 (Mauer)'."""
    state, _ = grey_top_right()
    palace = palace_at(state, "P1")
    assert R.palace_score(state, palace) == {"pieces": 4, "merchants": 2, "walls": 5, "total": 11}
    scores = R.scores(state)
    assert scores["anna"]["palaces"] == [{"pieces": 4, "merchants": 2, "walls": 5, "total": 11,
                                          "colour": "grey", "at": "P1"}]
    assert scores["anna"]["bonus"] == [{"tile": "grey palace", "points": 1}, {"tile": "tower 2", "points": 2}]
    assert scores["anna"]["total"] == 14
    assert scores["ben"] == {"palaces": [], "bonus": [], "total": 0}


def test_example_black_palace_thirteen_points() -> None:
    """'Der schwarze Palast von Blau links unten bekommt 13 Punkte: 4 (farbige Palastteile) +
    (Marktgasse) + 5 (Mauern)'. The text drops the merchants' count: 13 - 4 - 5 = 4. Black A11-D11,
    the street A10-B10-C10-D10 along it, walls S1-S4 and W11."""
    state, rng = fresh(start="B10")
    spread(state, rng, "palace black A11", "palace black B11", "palace black C11", "palace black D11")
    put(state, rng, "roof black A11", by="ben")
    spread(state, rng, "merchant A10", "merchant C10", "merchant D10",
           "wall S1", "wall S2", "wall S3", "wall S4", "wall W11")
    assert state["streets"] == [["D10", "C10", "B10", "A10"]]
    assert R.palace_score(state, palace_at(state, "C11")) == {"pieces": 4, "merchants": 4, "walls": 5, "total": 13}
    scores = R.scores(state)
    assert scores["ben"]["bonus"] == [{"tile": "black palace", "points": 2}, {"tile": "tower 4", "points": 4}]
    assert scores["ben"]["total"] == 13 + 2 + 4


def orange_with_stables() -> tuple[dict[str, Any], Rng]:
    """Orange F5-G5-H5-G6 with stables E5 and I5; the street E4-F4-G4-H4-I4 runs along its north side."""
    state, rng = fresh(start="E4")
    spread(state, rng, "palace orange F5", "palace orange G5", "palace orange H5", "palace orange G6",
           "stable E5", "stable I5")
    spread(state, rng, "merchant F4", "merchant G4", "merchant H4", "merchant I4")
    return state, rng


def test_example_orange_palace_with_stables_eleven_points() -> None:
    """'Der orangefarbene Palast mit rotem Dach bekommt 11 Punkte: 4 (farbige Palastteile) + 2 (Ställe) +
    5 (Marktgasse: 3 am Palast, 2 an den beiden Ställen)'."""
    state, rng = orange_with_stables()
    put(state, rng, "roof orange G6", by="cleo")
    palace = palace_at(state, "G5")
    assert R.palace_score(state, palace) == {"pieces": 6, "merchants": 5, "walls": 0, "total": 11}
    assert R.scores(state)["cleo"]["total"] == 11 + 4  # and the orange palace tile


def test_example_orange_palace_in_the_corner_eight_points() -> None:
    """'Der orangefarbene Palast mit grünem Dach rechts unten bekommt 8 Punkte: 5 (farbige Palastteilee) +
    2 (Ställe) + 1 (Mauer am Stall angrenzend)'. Orange K9-L9-M9-N9-M8, stables N10 and N11; of the walls
    S16, S15, S14 only S14 touches it (at the stable N11)."""
    state, rng = fresh(start="C3")
    spread(state, rng, *(f"palace orange {sq}" for sq in ("K9", "L9", "M9", "N9", "M8")), "stable N10", "stable N11")
    put(state, rng, "roof orange K9", by="anna")
    spread(state, rng, "wall S16", "wall S15", "wall S14")
    assert R.palace_score(state, palace_at(state, "M8")) == {"pieces": 7, "merchants": 0, "walls": 1, "total": 8}
    assert R.scores(state)["anna"]["bonus"] == [{"tile": "orange palace", "points": 4},
                                                {"tile": "tower 3", "points": 3}]


def test_unclaimed_palaces_score_nothing() -> None:
    """'Jedes Bauteil im Palast bringt einen Punkt': points go to the player who roofed the palace; a
    palace without a roof is nobody's."""
    state, _ = orange_with_stables()
    assert R.palace_score(state, palace_at(state, "G5"))["total"] == 11
    assert {p: s["total"] for p, s in R.scores(state).items()} == {"anna": 0, "ben": 0, "cleo": 0}
    assert R.result(state) == [{"player": p, "score": 0, "rank": 1} for p in P3]


def test_a_merchant_counts_once_for_a_palace() -> None:
    """'Jede Marktgassenfigur, die direkt (nicht diagonal) an einen Palast oder Ziegenstall grenzt, bringt
    einen Punkt.' The start D4 touches the grey piece D3 and the grey stable C4: one point, not two. E4
    touches the grey palace only diagonally: nothing. E3 touches the grey D3 and the black F3: a point
    for each palace."""
    state, rng = fresh(start="D4")
    put(state, rng, "palace grey C3", "palace grey D3", "stable C4", "roof grey C3", by="anna")
    put(state, rng, "palace black F3", "roof black F3", by="ben")
    grey, black = palace_at(state, "C3"), palace_at(state, "F3")
    assert R.palace_score(state, grey)["merchants"] == 1
    assert R.palace_score(state, black)["merchants"] == 0
    put(state, rng, "merchant E4", by="cleo")
    assert (R.palace_score(state, grey)["merchants"], R.palace_score(state, black)["merchants"]) == (1, 0)
    put(state, rng, "merchant E3", by="cleo")
    assert (R.palace_score(state, grey)["merchants"], R.palace_score(state, black)["merchants"]) == (2, 1)
    assert R.palace_score(state, grey) == {"pieces": 3, "merchants": 2, "walls": 0, "total": 5}


def test_every_wall_touching_the_palace_counts() -> None:
    """'Jede Mauer, die direkt an einen Palast oder Ziegenstall grenzt, bringt einen Punkt.' A palace in
    the corner A1 touches two walls there (N1 and W1)."""
    state, rng = fresh(start="C3")
    put(state, rng, "palace brown A1", "roof brown A1", by="cleo")
    spread(state, rng, "wall N1", "wall W1", "wall N2", "wall W2")
    assert R.palace_score(state, palace_at(state, "A1")) == {"pieces": 1, "merchants": 0, "walls": 2, "total": 3}


# -- bonus tiles -----------------------------------------------------------------------------------------------

def test_palace_tiles_go_to_the_first_claimed_palace() -> None:
    """'Die Palast-Bonuskarten werden in dem Moment vergeben, in dem der erste Spieler einen Palast der
    entsprechenden Farbe fertigstellt.' 'Der Spieler mit dem grössten grauen/schwarzen/braunen/
    orangefarbenen Palast bekommt 1/2/3/4 Bonuspunkte.'"""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "palace black K3", "palace brown C9", "palace orange K9", by="anna")
    assert state["palace_bonus"] == {c: None for c in COLOURS}
    for colour, sq, points in (("grey", "C3", 1), ("black", "K3", 2), ("brown", "C9", 3), ("orange", "K9", 4)):
        events = put(state, rng, f"roof {colour} {sq}", by="ben")
        assert of_type(events, "palace_bonus") == [{"type": "palace_bonus", "colour": colour, "player": "ben",
                                                    "at": sq, "size": 1}]
        assert state["palace_bonus"][colour] == palace_at(state, sq)["id"]
    assert R.scores(state)["ben"]["bonus"] == [{"tile": "grey palace", "points": 1},
                                               {"tile": "black palace", "points": 2},
                                               {"tile": "brown palace", "points": 3},
                                               {"tile": "orange palace", "points": 4}]
    assert R.scores(state)["ben"]["total"] == 4 + 10


def test_a_palace_tile_moves_only_to_a_strictly_larger_palace() -> None:
    """'Schafft ein anderer Spieler, einen größeren Palast der gleichen Farbe fertigzustellen, wechselt die
    Bonuskarte.' A palace of the same size leaves the tile where it is."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "palace grey C4", "roof grey C3", by="anna")
    put(state, rng, "palace grey K3", "palace grey K4", by="ben")
    events = put(state, rng, "roof grey K3", by="ben")
    assert of_type(events, "palace_bonus") == []
    assert state["palace_bonus"]["grey"] == palace_at(state, "C3")["id"]
    put(state, rng, "palace grey C9", "palace grey C10", "palace grey D10", by="cleo")
    events = put(state, rng, "roof grey C9", by="cleo")
    assert of_type(events, "palace_bonus") == [{"type": "palace_bonus", "colour": "grey", "player": "cleo",
                                                "at": "C9", "size": 3}]
    assert [b["tile"] for b in R.scores(state)["cleo"]["bonus"]] == ["grey palace"]
    assert R.scores(state)["anna"]["bonus"] == []


def test_stables_count_for_the_size_of_a_palace() -> None:
    """'Ziegenställe zählen bei der Berechnung der Palastgröße natürlich mit.' A stable makes ben's
    palace larger than anna's (the tile moves); another stable on anna's makes them equal (it stays)."""
    state, rng = fresh()
    put(state, rng, "palace grey C3", "palace grey C4", "roof grey C3", by="anna")
    put(state, rng, "palace grey K3", "palace grey K4", "roof grey K3", by="ben")
    events = put(state, rng, "stable K5", by="cleo")
    assert of_type(events, "palace_bonus") == [{"type": "palace_bonus", "colour": "grey", "player": "ben",
                                                "at": "K3", "size": 3}]
    events = put(state, rng, "stable C5", by="cleo")
    assert of_type(events, "palace_bonus") == []
    assert state["palace_bonus"]["grey"] == palace_at(state, "K3")["id"]
    # a stable on an unclaimed palace makes it no holder
    put(state, rng, "palace grey G9", "palace grey G10", "stable H9", "stable H10", by="cleo")
    assert state["palace_bonus"]["grey"] == palace_at(state, "K3")["id"]


def test_a_wall_next_to_a_claimed_palace_takes_the_tower_tile() -> None:
    """'Der Spieler, der zuletzt einen Palast an die vom Turm in Ecke 1/2/3/4 ausgehende Mauer
    anschliesst, bekommt 1/2/3/4 Punkte. Dabei zählt jede Kante der Mauer als Neuanschluss.' Walls from
    tower 1 along the north edge: N2 joins anna's grey palace B1, N4 ben's black palace D1."""
    state, rng = fresh()
    put(state, rng, "palace grey B1", "roof grey B1", by="anna")
    put(state, rng, "palace black D1", "roof black D1", by="ben")
    events = put(state, rng, "wall N1", by="cleo")
    assert of_type(events, "tower_bonus") == []
    events = put(state, rng, "wall N2", by="cleo")
    assert of_type(events, "tower_bonus") == [{"type": "tower_bonus", "tower": 1, "player": "anna", "wall": "N2",
                                               "from": None}]
    assert state["tower_bonus"]["1"] == "anna"
    put(state, rng, "wall N3", by="cleo")
    assert state["tower_bonus"]["1"] == "anna"
    events = put(state, rng, "wall N4", by="anna")  # who places the wall does not matter
    assert of_type(events, "tower_bonus") == [{"type": "tower_bonus", "tower": 1, "player": "ben", "wall": "N4",
                                               "from": "anna"}]
    assert R.scores(state)["ben"]["bonus"][-1] == {"tile": "tower 1", "points": 1}
    assert state["tower_bonus"] == {"1": "ben", "2": None, "3": None, "4": None}


def test_a_wall_next_to_an_unclaimed_palace_joins_nobody() -> None:
    """'... der zuletzt einen Palast an die ... Mauer anschliesst': a palace without a roof is nobody's."""
    state, rng = fresh()
    put(state, rng, "palace grey B1", by="anna")
    events = spread(state, rng, "wall N1", "wall N2")
    assert of_type(events, "tower_bonus") == []
    assert state["tower_bonus"]["1"] is None


def test_roofing_a_palace_at_the_wall_takes_the_tower_tile() -> None:
    """'Ein Palast wird durch Setzen eines Daches an die Mauer neu angeschlossen.' Tower 2's run E1-E3
    runs beside the brown palace P3-P4: roofing it joins it (cleo takes tower 2). The black palace E1
    under the wall N5 of tower 1's run: roofing it moves tower 1 from anna to ben."""
    state, rng = fresh()
    put(state, rng, "palace grey B1", "roof grey B1", by="anna")
    spread(state, rng, "wall N1", "wall N2", "wall E1", "wall E2", "wall E3")
    assert state["tower_bonus"] == {"1": "anna", "2": None, "3": None, "4": None}
    put(state, rng, "palace brown P3", "palace brown P4", by="anna")
    events = put(state, rng, "roof brown P4", by="cleo")
    assert of_type(events, "tower_bonus") == [{"type": "tower_bonus", "tower": 2, "player": "cleo", "wall": "E3",
                                               "from": None}]
    # ben roofs a palace at the north wall: tower 1 moves to him
    put(state, rng, "palace black E1", by="anna")
    spread(state, rng, "wall N3", "wall N4", "wall N5")
    assert state["tower_bonus"]["1"] == "anna"
    events = put(state, rng, "roof black E1", by="ben")
    assert of_type(events, "tower_bonus") == [{"type": "tower_bonus", "tower": 1, "player": "ben", "wall": "N5",
                                               "from": "anna"}]
    assert R.scores(state)["cleo"]["bonus"] == [{"tile": "brown palace", "points": 3}, {"tile": "tower 2", "points": 2}]


def test_a_stable_at_the_wall_takes_the_tower_tile() -> None:
    """'Auch ein späteres Einsetzen eines Ziegenstalls kann zu einem Neuanschluss führen.' anna's grey
    palace B2 gets a stable at B1, under the wall N2: tower 1 comes back to her from ben."""
    state, rng = fresh()
    put(state, rng, "palace grey B2", "roof grey B2", by="anna")
    put(state, rng, "palace black E1", "roof black E1", by="ben")
    spread(state, rng, "wall N1", "wall N2", "wall N3", "wall N4", "wall N5")
    assert state["tower_bonus"]["1"] == "ben"
    events = put(state, rng, "stable B1", by="cleo")
    assert of_type(events, "tower_bonus") == [{"type": "tower_bonus", "tower": 1, "player": "anna", "wall": "N2",
                                               "from": "ben"}]
    # a stable of an unclaimed palace joins nobody
    put(state, rng, "palace brown P5", by="cleo")
    spread(state, rng, "wall E1", "wall E2", "wall E3", "wall E4")
    events = put(state, rng, "stable P4", by="cleo")
    assert of_type(events, "tower_bonus") == [] and state["tower_bonus"]["2"] is None


def test_tower_tiles_are_worth_their_corner() -> None:
    """'... von dem Turm in Ecke 1/2/3/4 ausgehende Mauer ..., bekommt 1/2/3/4 Punkte.' Towers numbered
    clockwise from the top-left (NOTES): the south-east run S16-S15 is tower 3's, the south-west run
    S1 tower 4's."""
    state, rng = fresh()
    put(state, rng, "palace grey O11", "roof grey O11", by="anna")
    put(state, rng, "palace black A11", "roof black A11", by="ben")
    spread(state, rng, "wall S16", "wall S15", "wall S1")
    assert state["walls"] == {"S16": "3", "S15": "3", "S1": "4"}
    assert state["tower_bonus"] == {"1": None, "2": None, "3": "anna", "4": "ben"}
    scores = R.scores(state)
    assert scores["anna"]["bonus"][-1] == {"tile": "tower 3", "points": 3}
    assert scores["ben"]["bonus"][-1] == {"tile": "tower 4", "points": 4}


def test_the_city_as_players_see_it() -> None:
    """The view draws the city inside its wall ring: two characters a square, towers T1-T4 in the
    corners; claimed pieces carry the owner's seat."""
    state, rng = fresh()
    put(state, rng, "palace grey B2", "roof grey B2", "stable B3", "palace black K8", by="ben")
    spread(state, rng, "wall N1", "wall N2", "merchant H5")
    grid = R.grid(state)
    assert len(grid) == 13 and all(len(row) == 18 for row in grid)
    assert grid[0][0] == "T1" and grid[0][17] == "T2" and grid[12][17] == "T3" and grid[12][0] == "T4"
    assert grid[0][1:4] == ["##", "##", "::"]
    assert grid[2][2] == "G2" and grid[3][2] == "S2" and grid[8][11] == "k-"
    assert grid[5][8] == "MM" and grid[6][8] == "MM" and grid[1][1] == ".."
    view = R.view(state, "anna")
    assert view["grid"] == grid and view["letters"] == LETTERS
    assert view["street_ends"] == ["H6", "H5"]
    assert view["palaces"][0] == {"colour": "grey", "at": "B2", "size": 2, "owner": "ben"}
    assert R.view(state, None)["grid"] == grid  # the GM sees nothing more: Medina hides nothing


def test_medina_takes_no_standing_orders(tmp_path: Path) -> None:
    state, _ = new_game(GamesDir(tmp_path), "medina", "g1", [(n, f"{n}@example.org") for n in ("anna", "ben", "cleo")], {},
                        "medina-standing-seed")
    with pytest.raises(IllegalOrder) as info:
        set_standing(state, "anna", [{"pass": "day"}])
    assert str(info.value) == ("standing orders: Medina takes no standing orders; send your next orders "
                               "ahead with 'turn: next' instead")
    assert set_standing(state, "anna", []) == state  # clearing none is fine
