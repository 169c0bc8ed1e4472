"""Medici: the worked examples printed in the two rule texts, one test each.

`seeds/000_...` is the German Amigo text ("DE"), `seeds/002_...` the Dutch Rio Grande text ("NL"). Each
docstring quotes the example; the test rebuilds its position and checks the engine pays or plays it
exactly as printed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from helpers import of_type
from pbem.rng import Rng
from pbem.rules.base import board_data, get_ruleset, shared_ranking
from pbem.rules.medici import card_value, full_deck

R = get_ruleset("medici")
ABCD = ["A", "B", "C", "D"]
ABCDE = ["A", "B", "C", "D", "E"]


# -- helpers ----------------------------------------------------------------------------------------

def scoring_state(players: list[str], edition: str, holds: dict[str, list[str]] | None = None,
                  tracks: dict[str, dict[str, int]] | None = None) -> dict[str, Any]:
    """A state at the end of a day, everyone's money at 0, ready for `score_day`."""
    state, _ = R.setup(list(players), {"edition": edition}, Rng("example"))
    holds = holds or {}
    state["hold"] = {p: list(holds.get(p, [])) for p in players}
    used = [c for h in state["hold"].values() for c in h]
    assert not Counter(used) - Counter(full_deck(edition)), "a card is held more often than it exists"
    state["money"] = {p: 0 for p in players}
    for p, t in (tracks or {}).items():
        state["tracks"][p].update(t)
    state.update(phase="over", auctioneer=None, lot=[], deck=[], to_bid=[], bids=[])
    return state


def score(state: dict[str, Any]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    R.score_day(state, events)
    return events


def track_event(events: list[dict[str, Any]], good: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "score_track" and e["good"] == good)


def track_pay(events: list[dict[str, Any]], good: str) -> dict[str, int]:
    """What each player earns on one goods track: majority share plus bonus field."""
    e = track_event(events, good)
    pay = {p: 0 for p in e["steps"]}
    for row in e["ranking"]:
        pay[row["player"]] += row["payout"]
    for row in e["bonus"]:
        pay[row["player"]] += row["payout"]
    return pay


def asked(state: dict[str, Any]) -> str | None:
    d = R.decision(state)
    return d.players[0] if d else None


# -- the value ranking ------------------------------------------------------------------------------

RANKING_23_20_16_16_14 = {"A": 23, "B": 20, "C": 16, "D": 16, "E": 14}
PAID = {"A": 30, "B": 20, "C": 7, "D": 7, "E": 0}


@pytest.mark.parametrize("edition", ["amigo", "riogrande"])
def test_five_player_ranking_with_shared_ranking(edition: str) -> None:
    """DE 'Beispiel für 5 Spieler' / NL 'Voorbeeld': A 23, B 20, C 16, D 16, E 14 are paid 30, 20, 7, 7,
    0. 'Spieler C und D (3. u. 4. Platz) teilen sich 10+5=15 Florentiner. (15 geteilt durch 2=7
    abgerundet)' 'Spieler E hat einen Gesamtwert von 14 und erhält keinen Erlös, da die Plätze 3 und 4
    bereits besetzt sind.' Both editions' 5-player tables read 30/20/10/5."""
    table = board_data("medici")["editions"][edition]["payouts"][5]
    assert table == [30, 20, 10, 5]
    ranking = shared_ranking(RANKING_23_20_16_16_14, table)
    assert ranking == [
        {"player": "A", "score": 23, "place": 1, "payout": 30},
        {"player": "B", "score": 20, "place": 2, "payout": 20},
        {"player": "C", "score": 16, "place": 3, "payout": 7},
        {"player": "D", "score": 16, "place": 3, "payout": 7},
        {"player": "E", "score": 14, "place": 5, "payout": 0},
    ]


HOLDS_23_20_16_16_14 = {
    # DE: 'Spieler A hat im Laufe der Spielrunde Gewürze-5, Farben-5, Metalle-3, Metalle-0 und die neutrale
    # 10 erworben.' The holds of B to E are not printed; these reach the printed totals.
    "amigo": {
        "A": ["spices-5", "dyes-5", "metals-3", "metals-0", "gold-10"],
        "B": ["cloth-5", "cloth-5", "cloth-4", "cloth-3", "spices-3"],
        "C": ["porcelain-5", "porcelain-5", "porcelain-4", "porcelain-2"],
        "D": ["dyes-5", "dyes-4", "metals-5", "metals-2"],
        "E": ["metals-5", "metals-4", "spices-4", "dyes-1"],
    },
    # NL: 'linnen waarde 5, verfstoffen waarde 5, koren waarde 3, koren waarde 0 en de goudkaart waarde 10.
    # In totaal geeft dit een som van 23.'
    "riogrande": {
        "A": ["linen-5", "dyes-5", "grain-3", "grain-0", "gold-10"],
        "B": ["furs-5", "furs-5", "furs-4", "furs-3", "spices-3"],
        "C": ["spices-5", "spices-5", "spices-4", "spices-2"],
        "D": ["dyes-5", "dyes-4", "linen-5", "linen-2"],
        "E": ["linen-4", "grain-5", "grain-5", "dyes-0"],
    },
}


@pytest.mark.parametrize("edition", ["amigo", "riogrande"])
def test_five_player_ranking_scored_on_a_day(edition: str) -> None:
    """The same example scored by `score_day` on the holds themselves: A's printed hold is worth 23, and
    the hold values 23/20/16/16/14 earn 30/20/7/7/0 ('SPIELER / Kartenwert / Erlös' table)."""
    holds = HOLDS_23_20_16_16_14[edition]
    assert {p: sum(card_value(c) for c in h) for p, h in holds.items()} == RANKING_23_20_16_16_14
    state = scoring_state(ABCDE, edition, holds)
    events = score(state)
    ranking = of_type(events, "score_value")[0]["ranking"]
    assert {r["player"]: r["score"] for r in ranking} == RANKING_23_20_16_16_14
    assert {r["player"]: r["payout"] for r in ranking} == PAID
    assert [r["player"] for r in ranking] == ABCDE
    # the value payouts are the first money the day's scoring hands out
    track_money = {p: sum(track_pay(events, g)[p] for g in state["tracks"][p]) for p in ABCDE}
    assert state["money"] == {p: PAID[p] + track_money[p] for p in ABCDE}


# -- the goods tracks -------------------------------------------------------------------------------

@pytest.mark.parametrize("edition, names", [
    ("riogrande", {"A": "Anne", "B": "Carl", "C": "Marc", "D": "Herman"}),
    ("amigo", {"A": "A", "B": "B", "C": "C", "D": "D"}),
])
def test_track_example_leader_ten_three_tied_seconds_one_each(edition: str, names: dict[str, str]) -> None:
    """NL: 'Anne ontvangt 10 florijnen. Carl, Marc en Herman delen de bonuspremie van 5 florijnen, ze
    ontvangen elk één florijn.' DE: 'Spieler A erhält 10 Florentiner. Die Spieler B, C und D teilen sich
    die 5 Florentiner und erhalten dadurch nur noch je einen.' (The picture is lost; here the leader
    moves from 1 to 3 with two dyes cards, the other three reach step 1 from different places.)"""
    a, b, c, d = names.values()
    holds = {a: ["dyes-0", "dyes-4"], b: ["dyes-2"], c: [], d: []}
    tracks = {a: {"dyes": 1}, b: {"dyes": 0}, c: {"dyes": 1}, d: {"dyes": 1}}
    state = scoring_state([a, b, c, d], edition, holds, tracks)
    events = score(state)
    e = track_event(events, "dyes")
    assert e["moves"] == {a: 2, b: 1, c: 0, d: 0}
    assert e["steps"] == {a: 3, b: 1, c: 1, d: 1}
    assert e["ranking"] == [
        {"player": a, "score": 3, "place": 1, "payout": 10},
        {"player": b, "score": 1, "place": 2, "payout": 1},
        {"player": c, "score": 1, "place": 2, "payout": 1},
        {"player": d, "score": 1, "place": 2, "payout": 1},
    ]
    assert e["bonus"] == []


def test_bonus_example_riogrande() -> None:
    """NL: 'Anne ontvangt 30 florijnen (10 florijnen voor de eerste plaats en 20 florijnen voor de hoogste
    trap). Carl en Marc ontvangen elk 12 florijnen (2 florijnen voor de tweede plaats en 10 florijnen voor
    de tweede hoogste trap). Herman ontvangt niets.' Anne on step 7, Carl and Marc on step 6, Herman below
    the three bonus steps (5, 6, 7)."""
    players = ["Anne", "Carl", "Marc", "Herman"]
    tracks = {"Anne": {"spices": 7}, "Carl": {"spices": 6}, "Marc": {"spices": 6}, "Herman": {"spices": 4}}
    state = scoring_state(players, "riogrande", tracks=tracks)
    events = score(state)
    assert track_pay(events, "spices") == {"Anne": 30, "Carl": 12, "Marc": 12, "Herman": 0}
    assert track_event(events, "spices")["bonus"] == [
        {"player": "Anne", "step": 7, "payout": 20},
        {"player": "Carl", "step": 6, "payout": 10},
        {"player": "Marc", "step": 6, "payout": 10},
    ]


def test_bonus_example_riogrande_reached_by_buying() -> None:
    """The same example reached during a day's scoring: the markers climb from where they stood
    ('De telstenen worden steeds vanuit hun huidige positie ... verder geschoven') onto the bonus steps."""
    players = ["Anne", "Carl", "Marc", "Herman"]
    holds = {"Anne": ["spices-0", "spices-1"], "Carl": ["spices-2"], "Marc": ["spices-5", "spices-5", "spices-4"],
             "Herman": ["spices-3"]}
    tracks = {"Anne": {"spices": 5}, "Carl": {"spices": 5}, "Marc": {"spices": 3}, "Herman": {"spices": 2}}
    state = scoring_state(players, "riogrande", holds, tracks)
    events = score(state)
    assert track_event(events, "spices")["steps"] == {"Anne": 7, "Carl": 6, "Marc": 6, "Herman": 3}
    assert track_pay(events, "spices") == {"Anne": 30, "Carl": 12, "Marc": 12, "Herman": 0}


def test_bonus_example_amigo() -> None:
    """DE: 'Spieler A erhält 30 Florentiner (10+Prämie von 20 Florentiner), Spieler B geht leer aus,
    Spieler D und C erhalten je 12 Florentiner (5 geteilt durch 2 + Prämie von 10 Florentiner).' The two
    top fields pay 'die Monopolprämien 10 und 20' (steps 6 and 7). B stands on step 5, which pays nothing
    in this edition (it pays 5 in the Rio Grande edition)."""
    tracks = {"A": {"cloth": 7}, "B": {"cloth": 5}, "C": {"cloth": 6}, "D": {"cloth": 6}}
    state = scoring_state(ABCD, "amigo", tracks=tracks)
    events = score(state)
    assert track_pay(events, "cloth") == {"A": 30, "B": 0, "C": 12, "D": 12}
    assert track_event(events, "cloth")["bonus"] == [
        {"player": "A", "step": 7, "payout": 20},
        {"player": "C", "step": 6, "payout": 10},
        {"player": "D", "step": 6, "payout": 10},
    ]


# -- the auction ------------------------------------------------------------------------------------

AUCTION_HOLDS = {
    "A": ["linen-0", "linen-1"],
    "B": ["furs-0", "furs-1", "furs-2"],
    "C": ["grain-0", "grain-1", "grain-2", "grain-3"],
    "D": ["spices-0", "spices-1"],
}
BAG = ["dyes-3", "dyes-4", "dyes-5", "gold-10", "linen-5", "furs-5", "grain-5", "spices-5", "dyes-0", "dyes-1",
       "dyes-2", "linen-2", "linen-3"]


def auction_example() -> tuple[dict[str, Any], Rng]:
    """Four players, A (2 cards) to move, with the first card of his lot already revealed."""
    rng = Rng("auction example")
    state, _ = R.setup(ABCD, {"edition": "riogrande"}, rng)
    state["hold"] = {p: list(h) for p, h in AUCTION_HOLDS.items()}
    state.update(phase="draw", auctioneer="A", start_player="A", lot=BAG[:1], deck=BAG[1:], discarded=[],
                 bids=[], to_bid=[])
    used = [c for h in AUCTION_HOLDS.values() for c in h] + BAG
    assert len(used) == 24  # the cards in play with 4 players
    state["set_aside"] = list((Counter(full_deck("riogrande")) - Counter(used)).elements())
    assert sorted(R.cards_in_game(state)) == sorted(full_deck("riogrande"))
    return state, rng


def test_auction_example_three_cards_two_too_full_d_bids_seven() -> None:
    """DE: 'Spieler A besitzt 2 Karten und ist an der Reihe. Er deckt 3 Karten auf. Spieler B besitzt
    bereits 3 Karten und Spieler C schon 4 Karten. Beide müssen passen. Spieler D hat erst 2 Karten in
    seinem Lager, er bietet 7 Florentiner. Spieler A paßt und überläßt damit Spieler D die aufgedeckten
    Karten'. NL: 'Herman laadt de drie stuks goederen in zijn handelsschip en betaalt 7 florijnen'."""
    state, rng = auction_example()
    events = R.apply(state, "A", "draw", rng)
    assert asked(state) == "A"
    events += R.apply(state, "A", "draw", rng)
    lot = ["dyes-3", "dyes-4", "dyes-5"]
    assert events[-4:] == [
        {"type": "reveal", "player": "A", "card": "dyes-5", "lot": lot},
        {"type": "auction_opens", "player": "A", "lot": lot, "forced": True},
        {"type": "pass", "player": "B", "forced": "only 2 free spaces in the hold"},
        {"type": "pass", "player": "C", "forced": "only 1 free space in the hold"},
    ]
    assert asked(state) == "D"  # B and C are never asked
    R.apply(state, "D", {"bid": 7}, rng)
    assert asked(state) == "A"
    events = R.apply(state, "A", "pass", rng)
    assert events[:2] == [{"type": "pass", "player": "A", "forced": None},
                          {"type": "sold", "player": "D", "price": 7, "lot": lot, "auctioneer": "A"}]
    assert state["hold"]["D"] == ["spices-0", "spices-1"] + lot
    assert state["money"] == {"A": 40, "B": 40, "C": 40, "D": 33}


def test_auction_example_later_a_alone_buys_three_cards_for_one() -> None:
    """DE: '... Spieler D ..., der nun auf den weiteren Ablauf dieser Spielrunde keinen Einfluß mehr hat.
    Werden später beispielsweise wieder drei Karten aufgedeckt, kann Spieler A als einziger Käufer die
    Waren zum Preis von einem Florentiner erwerben.' NL: 'kan Carl dit aankopen voor 1 florijn omdat hij
    de enige is die nog drie vrije laadruimtes heeft.' B (left of A) reveals three cards; C (1 space) and
    B himself (2 spaces) pass without being asked, D is full and out; A buys for 1."""
    state, rng = auction_example()
    for p, order in (("A", "draw"), ("A", "draw"), ("D", {"bid": 7}), ("A", "pass")):
        R.apply(state, p, order, rng)
    assert state["auctioneer"] == "B" and asked(state) == "B"
    assert R.max_lot(state) == 3  # only A can take three cards, and that is enough
    events = R.apply(state, "B", "draw", rng) + R.apply(state, "B", "draw", rng)
    lot = ["gold-10", "linen-5", "furs-5"]
    assert events[-2:] == [
        {"type": "auction_opens", "player": "B", "lot": lot, "forced": True},
        {"type": "pass", "player": "C", "forced": "only 1 free space in the hold"},
    ]
    assert state["to_bid"] == ["A", "B"]  # D, full, is left out
    assert asked(state) == "A"
    assert R.legal_orders(state, "A")[:2] == ["pass", {"bid": 1}]
    events = R.apply(state, "A", {"bid": 1}, rng)
    assert events[:3] == [
        {"type": "bid", "player": "A", "amount": 1},
        {"type": "pass", "player": "B", "forced": "only 2 free spaces in the hold"},
        {"type": "sold", "player": "A", "price": 1, "lot": lot, "auctioneer": "B"},
    ]
    assert state["money"] == {"A": 39, "B": 40, "C": 40, "D": 33}
    assert len(state["hold"]["A"]) == len(state["hold"]["D"]) == 5
    assert state["auctioneer"] == "C"  # left of B; B and C are the two still in the day
