"""Medici vs Strozzi, rule by rule (DATC style): one scenario per rule clause.

Each test's docstring quotes the clause it checks from the German rule text
(`shared/rules/seeds/001_1106657b3152403b.txt`, quoted "DE") or from `shared/rules/NOTES.md` (which
settles what the text leaves open, quoted "NOTES"). A scenario is a state (from `setup`, or built by
`table` below for the middle of a round, or by `scoring_state` for the end of one), a few orders, and
the outcome the rules demand.

The first player is the Medici, the second the Strozzi; a marker at +n stands n spaces toward the
Medici, at -n toward the Strozzi.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from helpers import of_type, play_moves
from pbem.errors import IllegalOrder, SetupError
from pbem.rng import Rng
from pbem.rules.base import board_data, get_ruleset
from pbem.rules.medici_strozzi import all_tiles

R = get_ruleset("medici-strozzi")
DATA = board_data("medici-strozzi")
M, S = "medici", "strozzi"
PRICES = [{"price": n} for n in range(301)]


# -- helpers ----------------------------------------------------------------------------------------

def new_game(rounds: list[list[str]] | None = None, seed: str = "seed",
             players: tuple[str, str] = (M, S)) -> tuple[dict[str, Any], list[dict[str, Any]], Rng]:
    """A fresh game from `setup` (the deck, if any, is passed as a fresh dict)."""
    rng = Rng(seed)
    deck = {"rounds": [list(r) for r in rounds]} if rounds is not None else None
    state, events = R.setup(list(players), {}, rng, deck)
    return state, events, rng


def table(*, drawer: str = M, lot: list[str], bag: list[str] | None = None, rest: str = "bag",
          ships: dict[str, dict[int, tuple[str, list[str]]]] | None = None,
          markers: dict[str, dict[str, int]] | None = None, money: dict[str, int] | None = None,
          round_: int = 1) -> tuple[dict[str, Any], Rng]:
    """A consistent state in the middle of a round: `drawer` has revealed `lot` (phase draw), `bag` is
    the top of the bag. `ships`: {player: {capacity: (harbour, cargo)}}. Every other tile of the 26
    lies in the bag under `bag` (rest="bag") or was thrown overboard earlier (rest="discarded")."""
    state, _, rng = new_game()
    ships = ships or {}
    for p in (M, S):
        harbours = [h for h, _ in ships.get(p, {}).values()]
        assert len(harbours) == len(set(harbours)), "each of a player's ships has a harbour of its own"
        for ship in state["ships"][p]:
            harbour, cargo = ships.get(p, {}).get(ship["capacity"], (None, []))
            assert len(cargo) <= ship["capacity"] and bool(harbour) == bool(cargo)
            ship["harbour"], ship["cargo"] = harbour, list(cargo)
    shipped = [t for p in (M, S) for s in state["ships"][p] for t in s["cargo"]]
    top = list(bag or [])
    used = Counter(list(lot) + top + shipped)
    assert not used - Counter(all_tiles()), "a tile is used more often than it exists"
    spare = sorted((Counter(all_tiles()) - used).elements())
    state.update(round=round_, phase="draw", drawer=drawer, lot=list(lot), price=None, buyer=None,
                 bag=top + (spare if rest == "bag" else []), discarded=spare if rest == "discarded" else [],
                 fixed_rounds=[])
    for h, moved in (markers or {}).items():
        state["markers"][h].update(moved)
    state["money"].update(money or {})
    assert sorted(R.tiles_in_game(state)) == sorted(all_tiles())
    assert 1 <= len(lot) <= R.max_lot(state)
    return state, rng


def scoring_state(cargo: dict[str, dict[str, list[str]]], markers: dict[str, dict[str, int]] | None = None,
                  money: int = 0) -> dict[str, Any]:
    """A state at the end of a round, ready for `score_round`. `cargo`: {player: {harbour: tiles}}; the
    largest cargo goes on the ship of 5, the next on the 4, the last on the 3."""
    state, _, _ = new_game()
    for p in (M, S):
        loads = sorted(cargo.get(p, {}).items(), key=lambda hc: -len(hc[1]))
        for ship in state["ships"][p]:
            ship["harbour"], ship["cargo"] = None, []
        for ship, (harbour, tiles) in zip(sorted(state["ships"][p], key=lambda s: -s["capacity"]), loads):
            assert len(tiles) <= ship["capacity"]
            ship["harbour"], ship["cargo"] = harbour, list(tiles)
    shipped = [t for p in (M, S) for s in state["ships"][p] for t in s["cargo"]]
    assert not Counter(shipped) - Counter(all_tiles())
    state.update(phase="over", drawer=None, lot=[], price=None, buyer=None,
                 bag=sorted((Counter(all_tiles()) - Counter(shipped)).elements()), discarded=[])
    state["money"] = {M: money, S: money}
    for h, moved in (markers or {}).items():
        state["markers"][h].update(moved)
    return state


def score(state: dict[str, Any]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    R.score_round(state, events)
    return events


def harbour_event(events: list[dict[str, Any]], harbour: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "score_harbour" and e["harbour"] == harbour)


def play(state: dict[str, Any], rng: Rng, *moves: tuple[str, Any]) -> list[dict[str, Any]]:
    """Apply (player, order) pairs, checking each player is the one asked; returns all events."""
    return play_moves(R, state, rng, *moves)


def asked(state: dict[str, Any]) -> tuple[str, str] | None:
    d = R.decision(state)
    return (d.players[0], d.kind) if d else None


def refused(state: dict[str, Any], player: str, order: Any, message: str) -> None:
    """The order is illegal with exactly this message, and applying it changes nothing."""
    assert R.why_illegal(state, player, order) == message
    assert order not in R.legal_orders(state, player)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalOrder) as err:
        R.apply(state, player, order, Rng("unused"))
    assert str(err.value) == message
    assert state == before


def ship(state: dict[str, Any], player: str, capacity: int) -> dict[str, Any]:
    return next(s for s in state["ships"][player] if s["capacity"] == capacity)


def play_out(state: dict[str, Any], rng: Rng) -> list[dict[str, Any]]:
    """Finish the game with a simple deterministic policy: price every single tile at 1, the other
    player declines, the drawer loads it onto the first ship that takes it, or discards it."""
    events: list[dict[str, Any]] = []
    while (d := R.decision(state)) is not None:
        p = d.players[0]
        if d.kind == "draw":
            order: Any = {"price": 1}
        elif d.kind == "answer":
            order = "decline"
        else:
            order = R.legal_orders(state, p)[0]
        events += R.apply(state, p, order, rng)
        assert len(events) < 5000
    return events


# -- the two examples of the text -------------------------------------------------------------------

def test_the_scoring_example() -> None:
    """DE: 'Beispiel: Der Medici-Spieler gewinnt den Vergleich der Schiffe in zwei Häfen und erhält
    Münzen im Wert von 40 ausgezahlt. Im mittleren Hafen herrscht Gleichstand. Vier der
    Markierungssteine für die Monopole stehen auf der Hafenseite des Medici-Spielers. Er erhält dafür
    weitere 40. Drei der Steine stehen auf der Seite des Strozzi-Spielers, und einer davon steht auf dem
    Bonusfeld 20. Der Strozzi-Spieler erhält insgesamt 50 ausgezahlt.'

    Harbour A: Medici 7 (gold-5, indigo-2) against Strozzi 4 (spices-4); B, the middle one: 3 against 3;
    C: Medici 5 (spices-0, gold-5) against Strozzi 1 (silk-1). The markers before the scoring are set so
    that the tiles move them to: Medici side A indigo +1, A furs +2, B indigo +1, C spices +2; Strozzi
    side A spices -4 (the 20 space), B silk -1, B furs -2; C silk in the centre."""
    cargo = {M: {"A": ["gold-5", "indigo-2"], "B": ["indigo-3"], "C": ["spices-0", "gold-5"]},
             S: {"A": ["spices-4"], "B": ["furs-3"], "C": ["silk-1"]}}
    before = {"A": {"indigo": 0, "furs": 2, "spices": -3}, "B": {"silk": -1, "indigo": 0, "furs": -1},
              "C": {"spices": 0, "silk": 1}}
    state = scoring_state(cargo, before, money=300)
    events = score(state)
    after = {"A": {"indigo": 1, "furs": 2, "spices": -4}, "B": {"silk": -1, "indigo": 1, "furs": -2},
             "C": {"spices": 2, "silk": 0}}
    assert state["markers"] == after
    on_side = Counter("M" if v > 0 else "S" for h in after.values() for v in h.values() if v)
    assert on_side == {"M": 4, "S": 3}
    assert [harbour_event(events, h)["winner"] for h in "ABC"] == [M, None, M]
    assert harbour_event(events, "B")["values"] == {M: 3, S: 3}
    wins = {p: sum(20 for h in "ABC" if harbour_event(events, h)["winner"] == p) for p in (M, S)}
    markers = {p: sum(harbour_event(events, h)["markers"][p] for h in "ABC") for p in (M, S)}
    assert wins == {M: 40, S: 0}
    assert markers == {M: 40, S: 50}
    assert state["money"] == {M: 300 + 40 + 40, S: 300 + 50}
    assert events[-1] == {"type": "round_end", "round": 1, "money": {M: 380, S: 350}}


def test_the_buying_example() -> None:
    """DE: 'Beispiel: Der Medici-Spieler zieht zwei Plättchen, deckt sie auf und legt den Preis mit 7
    fest. Der Strozzi-Spieler lehnt das Angebot zu diesem Preis ab. Deshalb muss der Medici-Spieler 7 an
    die Bank zahlen. Er lädt beide Plättchen auf eines seiner Schiffe und weist es einem Hafen zu'."""
    state, events, rng = new_game([["furs-2", "silk-3", "indigo-1"]])
    assert state["lot"] == ["furs-2"]  # the first tile is drawn for him
    events = play(state, rng, (M, "draw"), (M, {"price": 7}))
    assert state["lot"] == ["furs-2", "silk-3"]
    assert asked(state) == (S, "answer")
    events = play(state, rng, (S, "decline"))
    assert events == [{"type": "decline", "player": S},
                      {"type": "sold", "player": M, "price": 7, "lot": ["furs-2", "silk-3"], "money": 293}]
    assert state["money"] == {M: 293, S: 300}
    assert asked(state) == (M, "load")
    events = play(state, rng, (M, {"load": 4, "harbour": "B"}))
    assert events[0] == {"type": "load", "player": M, "ship": 4, "harbour": "B", "lot": ["furs-2", "silk-3"],
                         "new_harbour": True}
    assert ship(state, M, 4) == {"capacity": 4, "harbour": "B", "cargo": ["furs-2", "silk-3"]}
    # the buyer takes the next turn: his next tile is drawn for him
    assert asked(state) == (M, "draw") and state["lot"] == ["indigo-1"]


def test_the_buying_example_onto_a_ship_already_in_a_harbour() -> None:
    """DE: '... und weist es einem Hafen zu - falls er es nicht schon bei einem vorhergehenden Kauf
    beladen und einem Hafen zugewiesen hat.' The ship of 4 already lies in harbour B: 'load: 4' needs no
    harbour."""
    state, rng = table(lot=["furs-2"], bag=["silk-3", "indigo-1"], ships={M: {4: ("B", ["gold-5"])}})
    play(state, rng, (M, "draw"), (M, {"price": 7}), (S, "decline"))
    assert state["money"][M] == 293
    assert {"load": 4} in R.legal_orders(state, M)
    assert {"load": 4, "harbour": "B"} not in R.legal_orders(state, M)  # listed once, without the harbour
    events = play(state, rng, (M, {"load": 4}))
    assert events[0]["harbour"] == "B" and events[0]["new_harbour"] is False
    assert ship(state, M, 4) == {"capacity": 4, "harbour": "B", "cargo": ["gold-5", "furs-2", "silk-3"]}


# -- the material -----------------------------------------------------------------------------------

def test_the_26_tiles() -> None:
    """DE: 'Es gibt vier verschiedene Warenarten. Von jeder Warenart gibt es sechs Plättchen mit den
    Werten 0, 1, 2, 3 und zweimal 4. Außerdem gibt es zwei Gold-Warenplättchen mit dem Wert 5.'"""
    tiles = all_tiles()
    assert len(tiles) == 26
    goods = ["indigo", "furs", "spices", "silk"]  # NOTES: assumed names
    assert Counter(tiles) == Counter([f"{g}-{v}" for g in goods for v in (0, 1, 2, 3, 4, 4)] + ["gold-5"] * 2)
    state, _, _ = new_game()
    assert sorted(R.tiles_in_game(state)) == sorted(tiles)
    assert len(state["bag"]) + len(state["lot"]) == 26 and state["discarded"] == []


def test_the_harbours_and_their_tracks() -> None:
    """DE: 'Jeder Hafen zeigt zwei oder drei Monopol-Leisten für verschiedene Waren.' '8
    Markierungssteine'. NOTES (assumed): A indigo, furs, spices; B silk, indigo, furs; C spices, silk;
    'Auf das mittlere Feld jeder Monopol-Leiste wird ein Markierungsstein gestellt.'"""
    state, _, _ = new_game()
    assert state["markers"] == {"A": {"indigo": 0, "furs": 0, "spices": 0},
                                "B": {"silk": 0, "indigo": 0, "furs": 0},
                                "C": {"spices": 0, "silk": 0}}
    assert sum(len(t) for t in state["markers"].values()) == 8
    assert DATA["track_length"] == 4 and DATA["track_bonus"] == {3: 10, 4: 20}


def test_300_money_and_three_ships_each() -> None:
    """DE: 'Jeder Spieler erhält Münzen im Gesamtwert von 300.' 'Jeder Spieler nimmt sich die drei
    Schiffe einer Farbe ... Die drei Schiffe verfügen über Laderäume für 3, 4, oder 5
    Warenplättchen.'"""
    state, _, _ = new_game()
    assert state["money"] == {M: 300, S: 300}
    for p in (M, S):
        assert state["ships"][p] == [{"capacity": c, "harbour": None, "cargo": []} for c in (3, 4, 5)]


@pytest.mark.parametrize("players", [["solo"], ["a", "b", "c"]])
def test_two_players_only(players: list[str]) -> None:
    """DE: 'aber dieses Spiel ist für 2 Spieler!'"""
    with pytest.raises(SetupError) as err:
        R.setup(players, {}, Rng("s"))
    assert str(err.value) == f"Medici vs Strozzi needs 2 players, not {len(players)}"


def test_no_options() -> None:
    """The game has no options: any option is refused by name."""
    with pytest.raises(SetupError) as err:
        R.setup([M, S], {"edition": "amigo"}, Rng("s"))
    assert str(err.value) == "medici-strozzi has no option 'edition' (options: none)"


# -- drawing --------------------------------------------------------------------------------------------

def test_the_first_tile_is_drawn_automatically() -> None:
    """DE: 'In der ersten Runde macht der Medici-Spieler den ersten Zug: Er zieht ein Warenplättchen aus
    dem Beutel und legt es offen auf den Tisch.' His first decision already faces one tile."""
    state, events, _ = new_game([["silk-2", "gold-5"]])
    assert events == [{"type": "round_start", "round": 1, "drawer": M},
                      {"type": "reveal", "player": M, "tile": "silk-2", "lot": ["silk-2"], "bag_left": 25}]
    assert state["lot"] == ["silk-2"] and state["bag"][0] == "gold-5" and len(state["bag"]) == 25
    assert asked(state) == (M, "draw")
    assert R.legal_orders(state, M) == ["draw"] + PRICES
    assert R.legal_orders(state, S) == []


def test_draw_a_second_and_a_third_tile_one_at_a_time() -> None:
    """DE: 'Nun darf er sich entscheiden, ob er noch ein zweites Plättchen ziehen und aufdecken möchte.
    Danach darf er sogar noch ein drittes Plättchen ziehen und aufdecken.' No fourth."""
    state, events, rng = new_game([["silk-2", "gold-5", "furs-0", "indigo-4"]])
    events = play(state, rng, (M, "draw"))
    assert events == [{"type": "draw", "player": M},
                      {"type": "reveal", "player": M, "tile": "gold-5", "lot": ["silk-2", "gold-5"],
                       "bag_left": 24}]
    assert asked(state) == (M, "draw")  # he decides again after each tile
    play(state, rng, (M, "draw"))
    assert state["lot"] == ["silk-2", "gold-5", "furs-0"] and state["bag"][0] == "indigo-4"
    assert R.legal_orders(state, M) == PRICES
    refused(state, M, "draw", "the lot may not grow beyond 3 tiles")


def test_never_more_tiles_than_fit_on_one_of_the_drawers_ships() -> None:
    """DE: 'Achtung: 1. Ein Spieler darf nicht mehr Plättchen aus dem Beutel ziehen, als er auf einem
    seiner Schiffe noch unterbringen kann.' Ship 3 is full, ship 4 has room for 1, ship 5 for 2: the
    lot stops at 2 tiles (not 3, the sum of the rooms)."""
    ships = {M: {3: ("A", ["silk-0", "silk-1", "silk-2"]), 4: ("B", ["furs-0", "furs-1", "furs-2"]),
                 5: ("C", ["spices-0", "spices-1", "spices-2"])}}
    state, rng = table(lot=["gold-5"], bag=["indigo-1", "indigo-2"], ships=ships)
    assert R.room(state, M) == 2 and R.max_lot(state) == 2
    play(state, rng, (M, "draw"))
    refused(state, M, "draw", "the lot may not grow beyond 2 tiles")
    assert R.legal_orders(state, M) == PRICES


def test_a_drawer_with_room_for_one_tile_only_prices_the_first() -> None:
    """DE: 'Achtung: 1.' With room for one tile only the first tile, drawn for him, makes the lot."""
    ships = {M: {3: ("A", ["silk-0", "silk-1", "silk-2"]), 4: ("B", ["furs-0", "furs-1", "furs-2", "furs-3"]),
                 5: ("C", ["spices-0", "spices-1", "spices-2", "spices-3"])}}
    state, _ = table(lot=["gold-5"], bag=["indigo-1"], ships=ships)
    refused(state, M, "draw", "the lot may not grow beyond 1 tile")
    assert R.legal_orders(state, M) == PRICES
    assert R.view(state, M)["max_lot"] == 1


def test_the_other_players_room_does_not_limit_the_lot() -> None:
    """DE: 'Achtung: 1.' counts the drawer's own ships ('auf einem seiner Schiffe'): the Strozzi, with
    room for one tile, does not stop the Medici from drawing three."""
    ships = {S: {3: ("A", ["silk-0", "silk-1", "silk-2"]), 4: ("B", ["furs-0", "furs-1", "furs-2", "furs-3"]),
                 5: ("C", ["spices-0", "spices-1", "spices-2", "spices-3"])}}
    state, rng = table(lot=["gold-5"], bag=["indigo-1", "indigo-2"], ships=ships)
    play(state, rng, (M, "draw"), (M, "draw"))
    assert len(state["lot"]) == 3


def test_the_lot_cannot_grow_beyond_the_tiles_left() -> None:
    """DE: '... oder wenn ein Spieler das letzte Warenplättchen aus dem Beutel zieht.' With one tile in
    the bag the lot stops at two."""
    state, rng = table(lot=["gold-5"], bag=["indigo-1"], rest="discarded")
    play(state, rng, (M, "draw"))
    assert state["bag"] == []
    refused(state, M, "draw", "the lot may not grow beyond 2 tiles")


# -- the price --------------------------------------------------------------------------------------

@pytest.mark.parametrize("price", [0, 1, 7, 300])
def test_the_drawer_names_a_price_for_the_whole_lot(price: int) -> None:
    """DE: 'Anschließend legt der Spieler einen Preis fest, der für alle Plättchen zusammen gilt, die er
    gerade aufgedeckt hat.' 'Achtung: 4. Der Spieler darf den Preis auch mit 0 festlegen.' NOTES: 300 is
    a house limit (the turn file needs a finite list)."""
    state, rng = table(lot=["gold-5", "silk-1"], bag=["silk-2"])
    events = play(state, rng, (M, {"price": price}))
    assert events == [{"type": "price", "player": M, "price": price, "lot": ["gold-5", "silk-1"]}]
    assert state["price"] == price and state["phase"] == "answer"
    assert asked(state) == (S, "answer")
    assert R.legal_orders(state, S) == ["buy", "decline"]


@pytest.mark.parametrize("order, message", [
    ({"price": -1}, "the price must be 0 to 300, not -1"),
    ({"price": 301}, "the price must be 0 to 300, not 301"),
    ({"price": "seven"}, "you drew the lot: send 'draw' or 'price: N', not 'price: seven'"),
    ({"price": 5, "draw": 1}, "you drew the lot: send 'draw' or 'price: N', not '{price: 5, draw: 1}'"),
    ("buy", "you drew the lot: send 'draw' or 'price: N', not 'buy'"),
    ("discard", "you drew the lot: send 'draw' or 'price: N', not 'discard'"),
])
def test_price_limits_and_wrong_orders_of_the_drawer(order: Any, message: str) -> None:
    """The drawer draws or names a price from 0 to 300; nothing else."""
    state, _ = table(lot=["gold-5"])
    refused(state, M, order, message)


def test_price_zero_the_other_takes_it_for_nothing() -> None:
    """DE: 'Achtung: 4. Der Spieler darf den Preis auch mit 0 festlegen. Sein Mitspieler kann die
    Plättchen dann umsonst nehmen und aufladen oder abwerfen.'"""
    state, rng = table(lot=["gold-5"], bag=["silk-2"])
    events = play(state, rng, (M, {"price": 0}), (S, "buy"))
    assert of_type(events, "sold") == [{"type": "sold", "player": S, "price": 0, "lot": ["gold-5"], "money": 300}]
    assert state["money"] == {M: 300, S: 300}
    events = play(state, rng, (S, "discard"))
    assert events[0] == {"type": "discard", "player": S, "lot": ["gold-5"]}
    assert state["discarded"] == ["gold-5"]


# -- buying -----------------------------------------------------------------------------------------

def test_the_other_player_buys_at_the_price() -> None:
    """DE: 'Sein Mitspieler muss sich nun entscheiden, ob er die Warenplättchen zu diesem Preis kaufen
    will oder nicht.' 'Der Spieler, der die Warenplättchen kauft, zahlt den Betrag an die Bank'."""
    state, rng = table(lot=["gold-5", "silk-1"], bag=["silk-2"])
    events = play(state, rng, (M, {"price": 12}), (S, "buy"))
    assert events[1:] == [{"type": "buy", "player": S},
                      {"type": "sold", "player": S, "price": 12, "lot": ["gold-5", "silk-1"], "money": 288}]
    assert state["money"] == {M: 300, S: 288}  # paid to the bank, not to the drawer
    assert state["buyer"] == S and asked(state) == (S, "load")


def test_if_he_declines_the_drawer_must_buy() -> None:
    """DE: 'Wenn sein Mitspieler die Plättchen nicht kaufen will, **muss** der Spieler sie selbst für den
    festgesetzten Betrag kaufen.'"""
    state, rng = table(lot=["gold-5"], bag=["silk-2"])
    events = play(state, rng, (M, {"price": 12}), (S, "decline"))
    assert events[1:] == [{"type": "decline", "player": S},
                      {"type": "sold", "player": M, "price": 12, "lot": ["gold-5"], "money": 288}]
    assert state["money"] == {M: 288, S: 300}
    assert state["buyer"] == M and asked(state) == (M, "load")
    # the drawer has no say: he is asked nothing between the decline and the load
    assert R.legal_orders(state, M)[-1] == "discard"


def test_a_player_cannot_answer_his_own_price() -> None:
    """DE: 'Sein Mitspieler muss sich nun entscheiden' - the other player, not the drawer."""
    state, rng = table(lot=["gold-5"], bag=["silk-2"])
    play(state, rng, (M, {"price": 5}))
    for order in ("buy", "decline"):
        refused(state, M, order, f"it is not your decision: the game waits for {S}")
    assert R.legal_orders(state, M) == []
    refused(state, S, {"price": 4}, "send 'buy' or 'decline', not 'price: 4'")
    refused(state, S, "draw", "send 'buy' or 'decline', not 'draw'")


@pytest.mark.parametrize("phase_orders, who, order", [
    ([], S, "draw"),
    ([], S, {"price": 3}),
    ([(M, {"price": 3})], M, {"price": 4}),
    ([(M, {"price": 3}), (S, "buy")], M, {"load": 3, "harbour": "A"}),
    ([(M, {"price": 3}), (S, "decline")], S, "discard"),
])
def test_it_is_not_your_decision(phase_orders: list[tuple[str, Any]], who: str, order: Any) -> None:
    """Only the player the game waits for may give an order: the drawer draws and prices, the other
    answers, the buyer loads."""
    state, rng = table(lot=["gold-5"], bag=["silk-2"])
    play(state, rng, *phase_orders)
    waits = S if who == M else M
    refused(state, who, order, f"it is not your decision: the game waits for {waits}")


# -- loading ------------------------------------------------------------------------------------------

def test_the_buyer_loads_the_whole_lot_onto_one_ship() -> None:
    """DE: 'Achtung: 2. Wenn einer der Spieler mehrere Plättchen auf einmal kauft, muss er sie alle auf
    dasselbe Schiff laden.' One order loads the whole lot; there is no order to split it."""
    state, rng = table(lot=["gold-5", "silk-1", "furs-4"], bag=["silk-2"])
    play(state, rng, (M, {"price": 3}), (S, "buy"))
    refused(state, S, {"load": 5, "harbour": "A", "tiles": ["gold-5"]},
            "load the lot with 'load: SHIP' (and 'harbour: X' for an empty ship) or 'discard', "
            "not \"{load: 5, harbour: A, tiles: ['gold-5']}\"")
    events = play(state, rng, (S, {"load": 5, "harbour": "C"}))
    assert events[0] == {"type": "load", "player": S, "ship": 5, "harbour": "C",
                         "lot": ["gold-5", "silk-1", "furs-4"], "new_harbour": True}
    assert ship(state, S, 5)["cargo"] == ["gold-5", "silk-1", "furs-4"]
    assert [len(s["cargo"]) for s in state["ships"][S]] == [0, 0, 3]


def test_the_buyer_may_throw_the_lot_overboard() -> None:
    """DE: 'Achtung: 3. Anstatt die gerade gekauften Plättchen auf ein Schiff zu laden, darf der Spieler
    sie abwerfen.' He pays all the same."""
    state, rng = table(lot=["gold-5", "silk-1"], bag=["silk-2"])
    events = play(state, rng, (M, {"price": 9}), (S, "buy"), (S, "discard"))
    assert of_type(events, "discard") == [{"type": "discard", "player": S, "lot": ["gold-5", "silk-1"]}]
    assert state["discarded"][-2:] == ["gold-5", "silk-1"]
    assert state["money"][S] == 291
    assert all(s["cargo"] == [] and s["harbour"] is None for s in state["ships"][S])


def test_legal_loads_for_empty_ships_name_a_harbour() -> None:
    """DE: 'Sobald ein Schiff mit einem oder mit mehreren Warenplättchen beladen ist, muss der Spieler es
    einem Hafen zuweisen.' An empty ship is loaded with its harbour named in the same order."""
    state, rng = table(lot=["gold-5"], bag=["silk-2"])
    play(state, rng, (M, {"price": 3}), (S, "decline"))
    assert R.legal_orders(state, M) == [{"load": c, "harbour": h} for c in (3, 4, 5) for h in "ABC"] + ["discard"]


def test_a_ship_needs_room_for_the_whole_lot() -> None:
    """DE: 'Achtung: 2.' - all on the same ship, so that ship must have room for all of them. Ship 3
    holds 2 tiles already and cannot take a lot of 2."""
    ships = {M: {3: ("A", ["silk-0", "silk-1"])}}
    state, rng = table(lot=["gold-5", "furs-1"], bag=["silk-2"], ships=ships)
    play(state, rng, (M, {"price": 3}), (S, "decline"))
    refused(state, M, {"load": 3}, "ship 3 has room for 1 more, not the 2 tiles of the lot")
    refused(state, M, {"load": 3, "harbour": "A"}, "ship 3 has room for 1 more, not the 2 tiles of the lot")
    assert R.legal_orders(state, M) == ([{"load": 4, "harbour": h} for h in "BC"]
                                        + [{"load": 5, "harbour": h} for h in "BC"] + ["discard"])


def test_a_full_ship_refuses_a_single_tile_in_good_english() -> None:
    """DE: 'Achtung: 2.' A full ship takes nothing; the message counts one tile in the singular."""
    ships = {M: {3: ("A", ["silk-0", "silk-1", "silk-2"])}}
    state, rng = table(lot=["gold-5"], bag=["silk-3"], ships=ships)
    play(state, rng, (M, {"price": 3}), (S, "decline"))
    assert R.why_illegal(state, M, {"load": 3}) == "ship 3 has room for 0 more, not the 1 tile of the lot"


def test_an_empty_ship_needs_its_harbour_named() -> None:
    """DE: '... muss der Spieler es einem Hafen zuweisen.'"""
    state, rng = table(lot=["gold-5"], bag=["silk-2"])
    play(state, rng, (M, {"price": 3}), (S, "decline"))
    refused(state, M, {"load": 4}, "ship 4 is empty: name its harbour (A, B, C)")
    refused(state, M, {"load": 4, "harbour": None}, "ship 4 is empty: name its harbour (A, B, C)")
    refused(state, M, {"load": 4, "harbour": "D"}, "there is no harbour 'D' (harbours: A, B, C)")
    refused(state, M, {"load": 4, "harbour": "a"}, "there is no harbour 'a' (harbours: A, B, C)")
    refused(state, M, {"load": 6, "harbour": "A"}, "you have no ship 6: your ships hold 3, 4, 5")
    refused(state, M, "buy", "load the lot with 'load: SHIP' (and 'harbour: X' for an empty ship) or "
                             "'discard', not 'buy'")
    refused(state, M, {"harbour": "A"}, "load the lot with 'load: SHIP' (and 'harbour: X' for an empty "
                                        "ship) or 'discard', not 'harbour: A'")


def test_each_of_a_players_ships_in_a_different_harbour() -> None:
    """DE: 'Jeder Spieler muss seine drei Schiffe drei verschiedenen Häfen zuweisen.'"""
    ships = {M: {3: ("A", ["silk-0"])}}
    state, rng = table(lot=["gold-5"], bag=["silk-2"], ships=ships)
    play(state, rng, (M, {"price": 3}), (S, "decline"))
    refused(state, M, {"load": 4, "harbour": "A"},
            "your ship 3 already lies in harbour A; each ship needs a harbour of its own")
    refused(state, M, {"load": 5, "harbour": "A"},
            "your ship 3 already lies in harbour A; each ship needs a harbour of its own")
    assert R.legal_orders(state, M) == [{"load": 3}, {"load": 4, "harbour": "B"}, {"load": 4, "harbour": "C"},
                                        {"load": 5, "harbour": "B"}, {"load": 5, "harbour": "C"}, "discard"]
    play(state, rng, (M, {"load": 5, "harbour": "C"}))
    assert [(s["capacity"], s["harbour"]) for s in state["ships"][M]] == [(3, "A"), (4, None), (5, "C")]


def test_the_last_empty_ship_gets_the_last_free_harbour() -> None:
    """DE: 'drei verschiedenen Häfen': with two ships in A and C the third can only go to B."""
    ships = {M: {3: ("A", ["silk-0"]), 5: ("C", ["silk-1"])}}
    state, rng = table(lot=["gold-5"], bag=["silk-2"], ships=ships)
    play(state, rng, (M, {"price": 3}), (S, "decline"))
    assert R.legal_orders(state, M) == [{"load": 3}, {"load": 4, "harbour": "B"}, {"load": 5}, "discard"]
    refused(state, M, {"load": 4, "harbour": "C"},
            "your ship 5 already lies in harbour C; each ship needs a harbour of its own")


def test_both_families_may_use_the_same_harbour() -> None:
    """DE: '... vergleichen beide Spieler den Gesamtwert der Warenplättchen auf ihren Schiffen, die sie
    jeweils demselben Hafen zugewiesen haben.' The rival's ship in A does not keep mine out."""
    ships = {S: {5: ("A", ["silk-0"])}}
    state, rng = table(lot=["gold-5"], bag=["silk-2"], ships=ships)
    play(state, rng, (M, {"price": 3}), (S, "decline"), (M, {"load": 3, "harbour": "A"}))
    assert ship(state, M, 3)["harbour"] == "A" and ship(state, S, 5)["harbour"] == "A"


def test_a_ship_stays_in_its_harbour_for_the_round() -> None:
    """DE: 'Wurde ein Schiff einem Hafen zugewiesen, darf es in derselben Runde nicht in einen anderen
    Hafen wechseln.' Naming its own harbour again is harmless."""
    ships = {M: {3: ("A", ["silk-0"])}}
    state, rng = table(lot=["gold-5"], bag=["silk-2"], ships=ships)
    play(state, rng, (M, {"price": 3}), (S, "decline"))
    refused(state, M, {"load": 3, "harbour": "B"}, "ship 3 lies in harbour A for the rest of the round")
    refused(state, M, {"load": 3, "harbour": "D"}, "ship 3 lies in harbour A for the rest of the round")
    assert R.why_illegal(state, M, {"load": 3, "harbour": "A"}) is None
    events = play(state, rng, (M, {"load": 3, "harbour": "A"}))
    assert events[0]["harbour"] == "A" and events[0]["new_harbour"] is False
    assert ship(state, M, 3) == {"capacity": 3, "harbour": "A", "cargo": ["silk-0", "gold-5"]}


# -- whose turn ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, buyer", [("buy", S), ("decline", M)])
def test_the_buyer_takes_the_next_turn(answer: str, buyer: str) -> None:
    """DE: 'Anschließend führt der Spieler, der die Plättchen gekauft hat, den nächsten Zug aus: Er zieht
    neue Plättchen, legt einen Preis fest u.s.w.'"""
    state, rng = table(lot=["gold-5"], bag=["silk-2", "furs-3"])
    events = play(state, rng, (M, {"price": 3}), (S, answer), (buyer, "discard"))
    assert events[-1] == {"type": "reveal", "player": buyer, "tile": "silk-2", "lot": ["silk-2"], "bag_left": 24}
    assert state["drawer"] == buyer and asked(state) == (buyer, "draw")
    assert state["price"] is None and state["buyer"] is None


def test_turn_counts_every_order() -> None:
    """Each order is one turn of the game (the turn files answer it)."""
    state, rng = table(lot=["gold-5"], bag=["silk-2", "furs-3"])
    assert state["turn"] == 1
    play(state, rng, (M, "draw"), (M, {"price": 3}), (S, "buy"), (S, {"load": 5, "harbour": "B"}))
    assert state["turn"] == 5


# -- the end of a round -------------------------------------------------------------------------------

FULL_BUT_ONE = {M: {3: ("A", ["silk-0", "silk-1", "silk-2"]), 4: ("B", ["furs-0", "furs-1", "furs-2", "furs-3"]),
                    5: ("C", ["spices-0", "spices-1", "spices-2", "spices-3"])}}


def test_the_round_ends_when_a_players_three_ships_are_full() -> None:
    """DE: 'Die Spielrunde endet, wenn ein Spieler seine drei Schiffe voll beladen hat'. Tiles left in
    the bag do not matter; the round is scored and round 2 begins."""
    state, rng = table(lot=["gold-5"], bag=["indigo-1", "indigo-2"], ships=FULL_BUT_ONE)
    events = play(state, rng, (M, {"price": 0}), (S, "decline"), (M, {"load": 5}))
    assert of_type(events, "round_over") == [{"type": "round_over", "round": 1, "why": f"{M}'s ships are full"}]
    assert len(of_type(events, "score_harbour")) == 3
    assert of_type(events, "round_start") == [{"type": "round_start", "round": 2, "drawer": S}]
    assert state["round"] == 2


def test_two_full_ships_do_not_end_the_round() -> None:
    """DE: '... seine drei Schiffe voll beladen hat' - all three."""
    ships = {M: {3: ("A", ["silk-0", "silk-1", "silk-2"]), 4: ("B", ["furs-0", "furs-1", "furs-2", "furs-3"]),
                 5: ("C", ["spices-0", "spices-1", "spices-2"])}}
    state, rng = table(lot=["gold-5"], bag=["indigo-1", "indigo-2"], ships=ships)
    events = play(state, rng, (M, {"price": 0}), (S, "decline"), (M, {"load": 5}))
    assert not of_type(events, "round_over")
    assert state["round"] == 1 and asked(state) == (M, "draw") and state["lot"] == ["indigo-1"]


def test_a_buyer_without_room_discards_and_the_round_goes_on() -> None:
    """The round ends when all three ships are full, not when a player buys a lot he cannot load: the
    Medici, with room for one tile, buys two and may only throw them overboard; then he draws."""
    state, rng = table(lot=["gold-5", "indigo-0"], drawer=S, bag=["indigo-1", "indigo-2"], ships=FULL_BUT_ONE)
    play(state, rng, (S, {"price": 0}), (M, "buy"))
    assert R.legal_orders(state, M) == ["discard"]  # no ship takes two tiles
    events = play(state, rng, (M, "discard"))
    assert not of_type(events, "round_over") and asked(state) == (M, "draw")


def test_the_round_ends_with_the_last_tile_after_its_lot_is_sold() -> None:
    """DE: 'Die Spielrunde endet ... wenn ein Spieler das letzte Warenplättchen aus dem Beutel zieht.'
    The lot holding the last tile is still priced, bought and loaded (NOTES), then the round is over."""
    state, rng = table(lot=["gold-5"], bag=["indigo-1"], rest="discarded")
    play(state, rng, (M, "draw"))
    assert state["bag"] == [] and state["round"] == 1
    assert asked(state) == (M, "draw")  # the round is not over yet: the lot is priced
    events = play(state, rng, (M, {"price": 4}), (S, "buy"))
    assert state["money"][S] == 296 and asked(state) == (S, "load")
    events = play(state, rng, (S, {"load": 4, "harbour": "A"}))
    assert events[0]["type"] == "load"
    assert events[1] == {"type": "round_over", "round": 1, "why": "the bag is empty"}
    assert harbour_event(events, "A")["values"] == {M: 0, S: 6}
    assert state["round"] == 2


def test_the_round_ends_with_the_last_tile_even_when_it_is_thrown_overboard() -> None:
    """DE: 'wenn ein Spieler das letzte Warenplättchen aus dem Beutel zieht'; discarding the last lot
    ends the round just as loading it does."""
    state, rng = table(lot=["gold-5"], bag=[], rest="discarded")
    events = play(state, rng, (M, {"price": 0}), (S, "buy"), (S, "discard"))
    assert of_type(events, "round_over") == [{"type": "round_over", "round": 1, "why": "the bag is empty"}]


def test_the_last_tile_drawn_automatically() -> None:
    """The buyer's next turn starts by drawing the last tile for him: his lot is that one tile."""
    state, rng = table(lot=["gold-5"], bag=["indigo-1"], rest="discarded")
    events = play(state, rng, (M, {"price": 0}), (S, "buy"), (S, "discard"))
    assert events[-1] == {"type": "reveal", "player": S, "tile": "indigo-1", "lot": ["indigo-1"], "bag_left": 0}
    refused(state, S, "draw", "the lot may not grow beyond 1 tile")


# -- scoring a harbour ------------------------------------------------------------------------------

@pytest.mark.parametrize("mine, theirs, winner", [
    (["silk-4", "gold-5"], ["silk-3", "indigo-4"], M),   # 9 against 7
    (["silk-1"], ["gold-5"], S),                         # 1 against 5
    (["silk-3", "furs-2"], ["gold-5"], None),            # 5 against 5: a tie pays nothing
    ([], [], None),                                      # nobody there: 0 against 0
    (["indigo-2"], [], M),                               # alone in the harbour with a value
    (["silk-0"], [], None),                              # alone, but a cargo worth 0: still a tie
])
def test_the_richer_cargo_in_a_harbour_wins_20(mine: list[str], theirs: list[str], winner: str | None) -> None:
    """DE: 'Am Ende der Runde vergleichen beide Spieler den Gesamtwert der Warenplättchen auf ihren
    Schiffen, die sie jeweils demselben Hafen zugewiesen haben. Der Spieler mit der höchsten Summe
    erhält Münzen im Wert von 20 ausgezahlt. Bei Gleichstand erhält kein Spieler das Geld.' Harbour C
    (tracks spices, silk); the markers move, but they are not what this test counts."""
    state = scoring_state({M: {"C": mine} if mine else {}, S: {"C": theirs} if theirs else {}})
    event = harbour_event(score(state), "C")
    values = {M: sum(int(t.split("-")[1]) for t in mine), S: sum(int(t.split("-")[1]) for t in theirs)}
    assert event["values"] == values
    assert event["winner"] == winner
    for p in (M, S):
        assert state["money"][p] == (20 if p == winner else 0) + event["markers"][p]


def test_each_harbour_compares_only_its_own_ships() -> None:
    """DE: '... auf ihren Schiffen, die sie jeweils demselben Hafen zugewiesen haben.' A rich ship in B
    does not help in A."""
    state = scoring_state({M: {"A": ["gold-5"], "B": ["gold-5", "indigo-4", "furs-4"]},
                           S: {"A": ["silk-4", "silk-3"], "C": ["silk-2"]}})
    events = score(state)
    assert [harbour_event(events, h)["winner"] for h in "ABC"] == [S, M, S]
    assert [harbour_event(events, h)["values"] for h in "ABC"] == [{M: 5, S: 7}, {M: 13, S: 0}, {M: 0, S: 2}]


# -- the monopoly markers ----------------------------------------------------------------------------

def test_each_tile_of_a_tracked_good_moves_its_marker_one_step() -> None:
    """DE: 'Jeder Spieler darf für jedes Warenplättchen, das sich auf seinem Schiff in diesem Hafen
    befindet und dessen Warenart mit der des Monopols übereinstimmt, den Markierungsstein ein Feld in
    seine Richtung ziehen.' Medici's indigo-1, indigo-2 and furs-3 in A: indigo +2, furs +1."""
    state = scoring_state({M: {"A": ["indigo-1", "indigo-2", "furs-3"]}})
    events = score(state)
    assert state["markers"]["A"] == {"indigo": 2, "furs": 1, "spices": 0}
    assert harbour_event(events, "A")["moves"] == {"indigo": {"from": 0, "to": 2}, "furs": {"from": 0, "to": 1},
                                                   "spices": {"from": 0, "to": 0}}
    assert state["markers"]["B"] == {"silk": 0, "indigo": 0, "furs": 0}  # only the harbour of the ship


def test_a_zero_tile_moves_its_marker_two_steps() -> None:
    """DE: 'Für das Warenplättchen mit dem Wert 0 darf der Markierungsstein zwei Felder bewegt werden.'"""
    state = scoring_state({S: {"C": ["spices-0", "silk-1"]}})
    score(state)
    assert state["markers"]["C"] == {"spices": -2, "silk": -1}


def test_gold_and_goods_without_a_track_in_the_harbour_move_nothing() -> None:
    """DE: 'Gold-Warenplättchen und Plättchen von Warenarten für die es in dem Hafen keine Monopol-Leiste
    gibt, haben auf die Positionen der Markierungssteine keinen Einfluss.' Harbour C has no indigo or
    furs track; harbour A none for silk."""
    state = scoring_state({M: {"C": ["gold-5", "indigo-0", "furs-0", "gold-5"], "A": ["silk-0", "silk-4"]}})
    events = score(state)
    assert state["markers"] == {"A": {"indigo": 0, "furs": 0, "spices": 0},
                                "B": {"silk": 0, "indigo": 0, "furs": 0},
                                "C": {"spices": 0, "silk": 0}}
    assert harbour_event(events, "C")["winner"] == M  # the gold still counts for the harbour
    assert state["money"][M] == 20 + 20  # A (4 against 0) and C, no markers


def test_both_players_pull_on_the_same_marker() -> None:
    """DE: 'Jeder Spieler darf ... den Markierungsstein ... in seine Richtung ziehen.' Both families'
    ships in B pull the furs marker: Medici one step, Strozzi three (furs-0 counts two): -2 in all."""
    state = scoring_state({M: {"B": ["furs-1"]}, S: {"B": ["furs-0", "furs-2"]}})
    score(state)
    assert state["markers"]["B"] == {"silk": 0, "indigo": 0, "furs": -2}


@pytest.mark.parametrize("before, tiles, after", [
    (3, {M: ["indigo-1", "indigo-2", "indigo-3"]}, 4),
    (4, {M: ["indigo-0"]}, 4),
    (-3, {S: ["indigo-0", "indigo-1"]}, -4),
    (-4, {S: ["indigo-0"]}, -4),
    (4, {S: ["indigo-1"]}, 3),
    (-4, {M: ["indigo-0", "indigo-4", "indigo-4"]}, 0),
])
def test_markers_stop_at_the_end_of_the_track(before: int, tiles: dict[str, list[str]], after: int) -> None:
    """NOTES: 'each track is a centre space plus 4 spaces toward each player ... markers stop at the
    ends'. A marker at an end can still be pulled back."""
    state = scoring_state({p: {"A": t} for p, t in tiles.items()}, {"A": {"indigo": before}})
    events = score(state)
    assert state["markers"]["A"]["indigo"] == after
    assert harbour_event(events, "A")["moves"]["indigo"] == {"from": before, "to": after}


@pytest.mark.parametrize("position, medici, strozzi", [
    (0, 0, 0), (1, 10, 0), (2, 10, 0), (3, 20, 0), (4, 30, 0),
    (-1, 0, 10), (-2, 0, 10), (-3, 0, 20), (-4, 0, 30),
])
def test_10_per_marker_on_your_side_plus_its_bonus(position: int, medici: int, strozzi: int) -> None:
    """DE: '... erhält jeder Spieler für jeden Markierungsstein, der auf seiner Seite des Hafens steht,
    Münzen im Wert von 10. Für die Warenplättchen selbst erhalten die Spieler kein Geld. Steht der
    Markierungsstein für das Monopol auf einem der Felder für die Bonuszahlung von 10 oder 20, erhält der
    betreffende Spieler diesen Bonus zusätzlich ausgezahlt.' NOTES (assumed): the bonus 10 on the third
    space, 20 on the fourth. No ships anywhere: only this marker pays."""
    state = scoring_state({}, {"B": {"silk": position}})
    events = score(state)
    assert state["money"] == {M: medici, S: strozzi}
    assert harbour_event(events, "B")["markers"] == {M: medici, S: strozzi}
    assert state["markers"]["B"]["silk"] == position


def test_every_marker_pays_each_round_not_only_those_that_moved() -> None:
    """DE: '... für jeden Markierungsstein, der auf seiner Seite des Hafens steht' - all of them, in every
    round's scoring."""
    state = scoring_state({}, {"A": {"indigo": 1, "furs": -2, "spices": 4}, "C": {"silk": -3}})
    events = score(state)
    assert harbour_event(events, "A")["markers"] == {M: 10 + 30, S: 10}
    assert harbour_event(events, "C")["markers"] == {M: 0, S: 20}
    assert harbour_event(events, "B")["markers"] == {M: 0, S: 0}
    assert state["money"] == {M: 40, S: 30}


def test_markers_move_before_they_are_paid() -> None:
    """DE: 'Nachdem alle Markierungssteine für die Monopole entsprechend angepasst wurden, erhält jeder
    Spieler ...' The Strozzi's two spices tiles pull the marker from +1 to -1: he is paid for it, the
    Medici is not."""
    state = scoring_state({S: {"A": ["spices-1", "spices-2"]}}, {"A": {"spices": 1}})
    events = score(state)
    assert harbour_event(events, "A")["markers"] == {M: 0, S: 10}
    assert state["money"] == {M: 0, S: 20 + 10}


def test_markers_are_never_reset_between_rounds() -> None:
    """DE: 'Die Markierungssteine für die Monopole werden nicht zurückgesetzt.' The Medici loads the last
    tile of round 1, indigo-0, into A: the marker moves 2 and stays there in round 2. A cargo worth 0
    alone in a harbour ties: no 20, only the marker's 10."""
    state, rng = table(lot=["indigo-0"], bag=[], rest="discarded", markers={"C": {"silk": -3}})
    events = play(state, rng, (M, {"price": 0}), (S, "decline"), (M, {"load": 5, "harbour": "A"}))
    assert harbour_event(events, "A")["winner"] is None
    assert state["round"] == 2
    assert state["markers"] == {"A": {"indigo": 2, "furs": 0, "spices": 0},
                                "B": {"silk": 0, "indigo": 0, "furs": 0},
                                "C": {"spices": 0, "silk": -3}}
    assert state["money"] == {M: 310, S: 320}


# -- money ------------------------------------------------------------------------------------------

def test_loans_money_may_go_below_zero() -> None:
    """DE: 'Achtung: 5. Hat ein Spieler nicht genug Geld, darf er bei der Bank Kredite aufnehmen. ...
    Den Spielern steht also ein unbeschränkter Geldvorrat zur Verfügung.' NOTES: 'money may go negative;
    the score is money minus loans'."""
    state, rng = table(drawer=S, lot=["gold-5"], bag=["silk-2", "silk-3"], money={M: 5})
    assert R.legal_orders(state, S) == ["draw"] + PRICES
    play(state, rng, (S, {"price": 40}))
    assert R.legal_orders(state, M) == ["buy", "decline"]  # a poor player may still buy
    events = play(state, rng, (M, "buy"))
    assert of_type(events, "sold")[0]["money"] == -35
    assert state["money"][M] == -35
    play(state, rng, (M, {"load": 5, "harbour": "A"}))
    assert R.legal_orders(state, M) == ["draw"] + PRICES  # and may still ask any price
    play(state, rng, (M, {"price": 0}), (S, "buy"), (S, "discard"), (S, {"price": 100}), (M, "buy"))
    assert state["money"][M] == -135


def test_the_score_is_the_money_even_below_zero() -> None:
    """DE: 'Der Spieler mit den Münzen im höchsten Gesamtwert gewinnt.' Loans count against it (NOTES)."""
    state, _ = table(lot=["gold-5"], money={M: -20, S: -5})
    assert R.result(state) == [{"player": S, "score": -5, "rank": 1}, {"player": M, "score": -20, "rank": 2}]


def test_no_money_for_the_tiles_themselves() -> None:
    """DE: 'Für die Warenplättchen selbst erhalten die Spieler kein Geld.' A rich cargo earns the harbour
    win only."""
    state = scoring_state({M: {"C": ["gold-5", "gold-5", "indigo-4", "furs-4"]}})
    score(state)
    assert state["money"] == {M: 20, S: 0}


# -- the next round -----------------------------------------------------------------------------------

def test_next_round_ships_emptied_harbours_freed_tiles_back_in_the_bag() -> None:
    """DE: 'Nach der Wertung der Runde kommen alle Warenplättchen wieder in den Beutel und werden gut
    gemischt. Die Spieler erhalten ihre leeren Schiffe zurück.' Tiles thrown overboard come back too."""
    state, rng = table(lot=["gold-5"], bag=["indigo-1"], rest="discarded", ships=FULL_BUT_ONE)
    assert len(state["discarded"]) > 5
    events = play(state, rng, (M, {"price": 0}), (S, "decline"), (M, {"load": 5}))
    assert of_type(events, "round_start") == [{"type": "round_start", "round": 2, "drawer": S}]
    for p in (M, S):
        assert state["ships"][p] == [{"capacity": c, "harbour": None, "cargo": []} for c in (3, 4, 5)]
    assert state["discarded"] == []
    assert len(state["lot"]) == 1 and len(state["bag"]) == 25
    assert sorted(state["lot"] + state["bag"]) == sorted(all_tiles())


def test_medici_starts_round_1_strozzi_rounds_2_and_3() -> None:
    """DE: 'In der ersten Runde macht der Medici-Spieler den ersten Zug' ... 'Der Strozzi-Spieler macht
    in der zweiten und dritten Runde den ersten Zug.' Whoever bought last."""
    state, events, rng = new_game(seed="starts")
    assert state["drawer"] == M
    events += play_out(state, rng)
    assert [(e["round"], e["drawer"]) for e in of_type(events, "round_start")] == [(1, M), (2, S), (3, S)]
    # and again when the Strozzi bought the lot that ended round 2
    state, rng = table(drawer=M, lot=["gold-5"], bag=[], rest="discarded", round_=2)
    events = play(state, rng, (M, {"price": 0}), (S, "buy"), (S, "discard"))
    assert of_type(events, "round_start") == [{"type": "round_start", "round": 3, "drawer": S}]
    assert asked(state) == (S, "draw")


def test_the_deck_file_fixes_the_draw_order_of_each_round() -> None:
    """A deck file lists, per round, the tiles from the top of the bag; the rest of each round's bag is
    shuffled from the seed."""
    rounds = [["gold-5", "silk-4"], ["furs-0"], ["indigo-3", "gold-5", "gold-5"]]
    state, events, rng = new_game(rounds)
    assert state["lot"] == ["gold-5"] and state["bag"][0] == "silk-4" and len(state["bag"]) == 25
    again, _, _ = new_game(rounds)
    assert again["bag"] == state["bag"]
    other, _, _ = new_game(rounds, seed="another seed")
    assert other["bag"][0] == "silk-4" and other["bag"] != state["bag"]
    assert sorted(other["bag"]) == sorted(state["bag"])
    events += play_out(state, rng)
    reveals = of_type(events, "reveal")
    starts = [i for i, e in enumerate(events) if e["type"] == "round_start"]
    firsts = [events[i + 1] for i in starts]
    assert [e["tile"] for e in firsts] == ["gold-5", "furs-0", "indigo-3"]
    assert [e["player"] for e in firsts] == [M, S, S]
    # round 3: the first three tiles come in the file's order (play_out prices single tiles)
    assert [e["tile"] for e in events[starts[2]:] if e["type"] == "reveal"][:3] == ["indigo-3", "gold-5", "gold-5"]
    assert reveals[0]["tile"] == "gold-5"


def test_setup_leaves_the_deck_untouched() -> None:
    deck = {"rounds": [["gold-5", "silk-4"], ["furs-0"]]}
    first, _ = R.setup([M, S], {}, Rng("s"), deck)
    assert deck == {"rounds": [["gold-5", "silk-4"], ["furs-0"]]}
    second, _ = R.setup([M, S], {}, Rng("s"), deck)
    assert second == first


# -- the deck file, checked -------------------------------------------------------------------------

def check(deck: Any) -> dict[str, Any]:
    return R.check_deck(deck, [M, S], {})


@pytest.mark.parametrize("deck, message", [
    (["gold-5"], "the deck file must hold one key, 'rounds': a list of up to 3 lists of tiles"),
    ({"rounds": [["gold-5"]], "seed": 1}, "the deck file must hold one key, 'rounds': a list of up to 3 lists of tiles"),
    ({"days": [["gold-5"]]}, "the deck file must hold one key, 'rounds': a list of up to 3 lists of tiles"),
    ({"rounds": []}, "'rounds' must be a list of 1 to 3 lists of tiles"),
    ({"rounds": [[], [], [], []]}, "'rounds' must be a list of 1 to 3 lists of tiles"),
    ({"rounds": "gold-5"}, "'rounds' must be a list of 1 to 3 lists of tiles"),
    ({"rounds": [["gold-5"], "silk-1"]}, "round 2 of the deck file must be a list of tile ids such as 'silk-3'"),
    ({"rounds": [["gold-5", 5]]}, "round 1 of the deck file must be a list of tile ids such as 'silk-3'"),
    ({"rounds": [["silk-5"]]}, "round 1 of the deck file: 'silk-5' is not a tile (goods: indigo, furs, spices, "
                               "silk, values 0-4, and gold-5)"),
    ({"rounds": [[], [], ["gold-10"]]}, "round 3 of the deck file: 'gold-10' is not a tile (goods: indigo, furs, "
                                        "spices, silk, values 0-4, and gold-5)"),
    ({"rounds": [["dyes-1"]]}, "round 1 of the deck file: 'dyes-1' is not a tile (goods: indigo, furs, spices, "
                               "silk, values 0-4, and gold-5)"),
    ({"rounds": [["silk-1", "silk-1"]]}, "round 1 of the deck file lists 'silk-1' 2 times; the game has 1"),
    ({"rounds": [["gold-5"], ["gold-5", "silk-4", "gold-5", "gold-5"]]},
     "round 2 of the deck file lists 'gold-5' 3 times; the game has 2"),
    ({"rounds": [["indigo-4"] * 3]}, "round 1 of the deck file lists 'indigo-4' 3 times; the game has 2"),
])
def test_check_deck_rejects(deck: Any, message: str) -> None:
    """A deck file is {'rounds': [[tile, ...], ...]}: 1 to 3 rounds, each a list of real tiles, no tile
    more often than it exists."""
    with pytest.raises(SetupError) as err:
        check(deck)
    assert str(err.value) == message


def test_check_deck_accepts_a_good_deck() -> None:
    """Both gold tiles and both 4s may be listed; each round is a fresh bag of all 26 tiles, so the same
    tile may be listed in several rounds, and a whole round may be fixed."""
    deck = {"rounds": [["gold-5", "gold-5", "silk-4", "silk-4"], ["gold-5"], all_tiles()]}
    assert check(deck) == deck
    state, _ = R.setup([M, S], {}, Rng("s"), check(deck))
    assert state["lot"] + state["bag"][:3] == ["gold-5", "gold-5", "silk-4", "silk-4"]


# -- the end of the game ------------------------------------------------------------------------------

def test_three_rounds_then_the_standings() -> None:
    """DE: 'Es werden drei Runden gespielt.' 'Das Spiel endet nach der dritten Runde. Der Spieler mit den
    Münzen im höchsten Gesamtwert gewinnt.'"""
    state, events, rng = new_game(seed="three rounds")
    events += play_out(state, rng)
    assert [e["round"] for e in of_type(events, "round_end")] == [1, 2, 3]
    assert len(of_type(events, "score_harbour")) == 9
    assert R.decision(state) is None and state["phase"] == "over" and state["round"] == 3
    result = R.result(state)
    assert events[-1] == {"type": "game_end", "standings": result}
    assert sorted(r["player"] for r in result) == [M, S]
    assert [r["score"] for r in result] == sorted((state["money"][p] for p in (M, S)), reverse=True)
    assert all(r["score"] == state["money"][r["player"]] for r in result)
    assert result[0]["rank"] == 1
    refused(state, M, "draw", "the game is over")
    assert R.legal_orders(state, M) == R.legal_orders(state, S) == []


def test_a_tie_shares_the_win() -> None:
    """DE: 'Bei einem Gleichstand können sich beide Spieler über ihren gemeinsamen Sieg freuen.' The last
    tile of round 3 is thrown overboard; nothing is scored; both keep 300."""
    state, rng = table(lot=["gold-5"], bag=[], rest="discarded", round_=3)
    events = play(state, rng, (M, {"price": 0}), (S, "decline"), (M, "discard"))
    assert events[-1] == {"type": "game_end", "standings": [{"player": M, "score": 300, "rank": 1},
                                                            {"player": S, "score": 300, "rank": 1}]}
    assert R.decision(state) is None


def test_the_richer_wins_alone() -> None:
    state, _ = table(lot=["gold-5"], money={M: 301, S: 300})
    assert [(r["player"], r["rank"]) for r in R.result(state)] == [(M, 1), (S, 2)]


# -- what players see -----------------------------------------------------------------------------------

def test_players_do_not_see_the_bag_the_gm_does() -> None:
    """The order of the tiles in the bag is hidden; only the GM's view (player None) shows it."""
    state, _, _ = new_game([["gold-5"], ["silk-1"]])
    for p in (M, S):
        view = R.view(state, p)
        assert "bag" not in view and "fixed_rounds" not in view
        assert view["bag_left"] == 25 and view["you"] == p
    gm = R.view(state, None)
    assert gm["bag"] == state["bag"] and gm["fixed_rounds"] == [["silk-1"]]
    assert (gm["medici"], gm["strozzi"]) == (M, S)
