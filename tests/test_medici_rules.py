"""Medici, rule by rule (DATC style): one scenario per rule clause.

Each test's docstring quotes or paraphrases the clause it checks, from `shared/rules/NOTES.md` (which
settles the rules) and the two rule texts: `seeds/000_...` (German, Amigo 1995, quoted "DE") and
`seeds/002_...` (Dutch, Rio Grande 2006, quoted "NL"). A scenario is a state (from `setup`, or built by
`table` below for the middle of a day), a few orders, and the outcome the rules demand.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from helpers import of_type, play_moves
from pbem.errors import IllegalOrder, SetupError
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from pbem.rules.medici import full_deck

R = get_ruleset("medici")

ABC = ["A", "B", "C"]
ABCD = ["A", "B", "C", "D"]
PLAYERS = {3: ABC, 4: ABCD, 5: ABCD + ["E"], 6: ABCD + ["E", "F"]}


# -- helpers ----------------------------------------------------------------------------------------

def new_game(players: list[str], edition: str = "riogrande", days: list[list[str]] | None = None,
             seed: str = "seed") -> tuple[dict[str, Any], list[dict[str, Any]], Rng]:
    """A fresh game from `setup` (the deck file, if any, is passed as a fresh dict)."""
    rng = Rng(seed)
    deck = {"days": [list(d) for d in days]} if days is not None else None
    state, events = R.setup(list(players), {"edition": edition}, rng, deck)
    return state, events, rng


def table(players: list[str], *, auctioneer: str, lot: list[str], deck: list[str],
          holds: dict[str, list[str]] | None = None, money: dict[str, int] | None = None,
          tracks: dict[str, dict[str, int]] | None = None, edition: str = "riogrande",
          discarded: list[str] | None = None, day: int = 1) -> tuple[dict[str, Any], Rng]:
    """A consistent state in the middle of a day: `auctioneer` has revealed `lot` (phase draw) and
    `deck` is the bag, top first. Every other card of the 36 lies set aside."""
    state, _, rng = new_game(players, edition)
    holds = holds or {}
    state["hold"] = {p: list(holds.get(p, [])) for p in players}
    state["money"].update(money or {})
    for p, t in (tracks or {}).items():
        state["tracks"][p].update(t)
    state.update(day=day, phase="draw", auctioneer=auctioneer, start_player=auctioneer, lot=list(lot),
                 deck=list(deck), discarded=list(discarded or []), bids=[], to_bid=[], fixed_days=[])
    used = [c for p in players for c in state["hold"][p]] + state["lot"] + state["deck"] + state["discarded"]
    assert len(used) <= 6 * len(players), "more cards than are in play"
    assert not Counter(used) - Counter(full_deck(edition)), "a card is used more often than it exists"
    state["set_aside"] = list((Counter(full_deck(edition)) - Counter(used)).elements())
    assert len(state["hold"][auctioneer]) < 5, "a full player does not auction"
    assert 1 <= len(lot) < R.max_lot(state), "such a lot would have opened its auction by itself"
    return state, rng


def play(state: dict[str, Any], rng: Rng, *moves: tuple[str, Any]) -> list[dict[str, Any]]:
    """Apply (player, order) pairs, checking each player is the one asked; returns all events."""
    return play_moves(R, state, rng, *moves)


def asked(state: dict[str, Any]) -> str | None:
    d = R.decision(state)
    return d.players[0] if d else None


def scoring_state(players: list[str], holds: dict[str, list[str]], edition: str = "riogrande",
                  tracks: dict[str, dict[str, int]] | None = None, money: int = 0) -> dict[str, Any]:
    """A state at the end of a day, ready for `score_day`."""
    state, _, _ = new_game(players, edition)
    state["hold"] = {p: list(holds.get(p, [])) for p in players}
    state["money"] = {p: money for p in players}
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


def payouts(ranking: list[dict[str, Any]]) -> dict[str, int]:
    return {row["player"]: row["payout"] for row in ranking}


def play_out(state: dict[str, Any], rng: Rng) -> list[dict[str, Any]]:
    """Finish the game with a simple deterministic policy (auction at once; the first bidder of a lot
    bids 1, everyone after passes)."""
    events: list[dict[str, Any]] = []
    while (d := R.decision(state)) is not None:
        p = d.players[0]
        if d.kind == "draw":
            order: Any = "auction"
        else:
            first = not any(b["amount"] for b in state["bids"])
            order = {"bid": 1} if first and R.why_illegal(state, p, {"bid": 1}) is None else "pass"
        events += R.apply(state, p, order, rng)
        assert all(m >= 0 for m in state["money"].values())
    return events


# A day-1 position of three players one sale before the day ends: A is full, B (the auctioneer) lacks
# one card, C lacks two. When B buys, only C is left and the day ends.
END_HOLDS = {
    "A": ["linen-0", "linen-1", "linen-2", "linen-3", "linen-4"],
    "B": ["furs-0", "furs-1", "furs-2", "furs-3"],
    "C": ["grain-0", "grain-1", "grain-2"],
}


def near_day_end(money: dict[str, int] | None = None,
                 deck: list[str] | None = None) -> tuple[dict[str, Any], Rng]:
    deck = deck if deck is not None else ["dyes-1", "dyes-2", "dyes-3", "dyes-4"]
    return table(ABC, auctioneer="B", lot=["spices-1"], deck=deck, holds=END_HOLDS, money=money)


# -- setting up -------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, money", [(3, 40), (4, 40), (5, 30), (6, 30)])
def test_start_money_depends_on_player_count(n: int, money: int) -> None:
    """DE: 'auf das Zahlenfeld 40 (bei 3 und 4 Spielern) oder auf das Feld 30 (bei 5 und 6 Spielern)'.
    NL: '40 florijnen (bij 3 of 4 spelers) of 30 florijnen (bij 5 of 6 spelers)'."""
    state, _, _ = new_game(PLAYERS[n])
    assert state["money"] == {p: money for p in PLAYERS[n]}


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players: int) -> None:
    """'Ein Handelsspiel für 3 bis 6 Spieler' / '3 - 6 spelers'."""
    names = [f"P{i}" for i in range(players)]
    with pytest.raises(SetupError, match=f"needs 3 to 6 players, not {players}"):
        R.setup(names, {}, Rng("s"))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("edition", ["riogrande", "amigo"])
def test_six_cards_per_player_in_play_rest_set_aside(n: int, edition: str) -> None:
    """NOTES: 'shuffle all 36, 6 cards per player are in play (18/24/30/36), the rest is set aside
    unseen.' NL: '18 stuks in een spel met 3 spelers, 18 stuks worden terzijde gelegd; ...'"""
    state, events, _ = new_game(PLAYERS[n], edition)
    assert len(state["lot"]) + len(state["deck"]) == 6 * n
    assert len(state["set_aside"]) == 36 - 6 * n
    assert sorted(R.cards_in_game(state)) == sorted(full_deck(edition))
    assert events[0]["type"] == "day_start" and events[0]["cards"] == 6 * n


@pytest.mark.parametrize("edition, goods", [
    ("riogrande", ["linen", "furs", "grain", "dyes", "spices"]),
    ("amigo", ["metals", "porcelain", "dyes", "cloth", "spices"]),
])
def test_the_36_cards(edition: str, goods: list[str]) -> None:
    """NOTES: '36 cards: five goods x values 0,1,2,3,4,5,5, plus one neutral card worth 10 that belongs
    to no goods track.' DE: 'Jeweils sieben Karten mit den Werten 0-1-2-3-4-5-5 und eine neutrale 10.'"""
    cards = full_deck(edition)
    assert len(cards) == 36
    assert Counter(cards) == Counter([f"{g}-{v}" for g in goods for v in (0, 1, 2, 3, 4, 5, 5)] + ["gold-10"])
    state, _, _ = new_game(ABC, edition)
    assert all(set(t) == set(goods) for t in state["tracks"].values())
    assert all(v == 0 for t in state["tracks"].values() for v in t.values())


def test_riogrande_is_the_default_edition() -> None:
    """NOTES: 'Medici, Rio Grande Games 2006 edition: option edition=riogrande (default)'."""
    state, _ = R.setup(ABC, {}, Rng("s"))
    assert state["edition"] == "riogrande"


def test_deck_file_fixes_the_order_of_the_bag() -> None:
    """The deck file lists, per day, the cards in play from the top of the bag; the rest of the cards in
    play is shuffled from the seed."""
    day1 = ["dyes-5", "spices-1", "grain-2", "gold-10"]
    state, events, _ = new_game(ABC, days=[day1])
    assert of_type(events, "reveal")[0]["card"] == "dyes-5"
    assert state["lot"] == ["dyes-5"]
    assert state["deck"][:3] == ["spices-1", "grain-2", "gold-10"]
    assert len(state["deck"]) == 17
    again, _, _ = new_game(ABC, days=[day1])
    assert again["deck"] == state["deck"] and again["set_aside"] == state["set_aside"]
    other, _, _ = new_game(ABC, days=[day1], seed="another seed")
    assert other["deck"][:3] == state["deck"][:3] and other["deck"] != state["deck"]


def test_deck_file_days_two_and_three() -> None:
    """Each list of the deck file fixes the top of the bag on its own day (days 2 and 3 included)."""
    days = [["linen-0"], ["furs-5", "furs-4"], ["gold-10", "spices-0"]]
    state, _, rng = new_game(ABC, days=days)
    assert state["lot"] == ["linen-0"]
    for day, top in ((2, ["furs-5", "furs-4"]), (3, ["gold-10", "spices-0"])):
        while state["day"] < day:  # nobody buys: every lot is set aside until the bag is empty
            R.apply(state, asked(state), "auction" if R.decision(state).kind == "draw" else "pass", rng)
        assert state["lot"] == top[:1] and state["deck"][0] == top[1]


def test_setup_leaves_the_deck_file_untouched() -> None:
    """The deck file fixes the order: setting up twice from the same deck gives the same game."""
    deck = {"days": [["dyes-5", "spices-1", "grain-2"], ["gold-10"]]}
    first, _ = R.setup(ABC, {"edition": "riogrande"}, Rng("s"), deck)
    assert deck == {"days": [["dyes-5", "spices-1", "grain-2"], ["gold-10"]]}
    second, _ = R.setup(ABC, {"edition": "riogrande"}, Rng("s"), deck)
    assert second["lot"] + second["deck"] == first["lot"] + first["deck"]


def test_day_one_start_player_drawn_at_random() -> None:
    """DE: 'Es wird ausgelost, wer die erste Spielrunde beginnt.' NL: 'de startspeler van de eerste dag
    geloot.' The draw comes from the game's seed: the same seed gives the same start player, and over
    seeds every player gets to start."""
    starts = Counter()
    for i in range(60):
        state, events, _ = new_game(ABCD, seed=f"s{i}")
        again, _, _ = new_game(ABCD, seed=f"s{i}")
        assert again["start_player"] == state["start_player"]
        assert events[0] == {"type": "day_start", "day": 1, "start_player": state["start_player"],
                             "why": "drawn at random", "cards": 24}
        assert state["auctioneer"] == state["start_player"]
        starts[state["start_player"]] += 1
    assert set(starts) == set(ABCD)


# -- the deck file, checked -------------------------------------------------------------------------

def check(deck: Any, players: list[str] = ABC, edition: str = "riogrande") -> dict[str, Any]:
    return R.check_deck(deck, players, {"edition": edition})


@pytest.mark.parametrize("deck, message", [
    (["dyes-5"], "the deck file must hold one key, 'days': a list of up to 3 lists of cards"),
    ({"days": [["dyes-5"]], "seed": 1}, "the deck file must hold one key, 'days': a list of up to 3 lists of cards"),
    ({"days": []}, "'days' must be a list of 1 to 3 lists of cards"),
    ({"days": [[], [], [], []]}, "'days' must be a list of 1 to 3 lists of cards"),
    ({"days": "dyes-5"}, "'days' must be a list of 1 to 3 lists of cards"),
    ({"days": [["dyes-5"], "spices-1"]}, "day 2 of the deck file must be a list of card ids such as 'dyes-5'"),
    ({"days": [["dyes-5", 5]]}, "day 1 of the deck file must be a list of card ids such as 'dyes-5'"),
])
def test_check_deck_rejects_wrong_shape(deck: Any, message: str) -> None:
    """A deck file is {'days': [[card, ...], ...]} with 1 to 3 days of card ids."""
    with pytest.raises(SetupError) as err:
        check(deck)
    assert str(err.value) == message


def test_check_deck_rejects_unknown_card() -> None:
    """Cards are '<good>-<value>' of the edition's goods, or gold-10; an amigo good is no riogrande card."""
    with pytest.raises(SetupError) as err:
        check({"days": [["dyes-5", "metals-3"]]})
    assert str(err.value) == ("day 1 of the deck file: 'metals-3' is not a card of the riogrande edition "
                              "(goods: linen, furs, grain, dyes, spices, values 0-5, and gold-10)")
    with pytest.raises(SetupError) as err:
        check({"days": [[], ["spices-6"]]}, edition="amigo")
    assert str(err.value) == ("day 2 of the deck file: 'spices-6' is not a card of the amigo edition "
                              "(goods: metals, porcelain, dyes, cloth, spices, values 0-5, and gold-10)")


def test_check_deck_rejects_more_cards_than_are_in_play() -> None:
    """Only 6 cards per player are in play each day (18 with 3 players)."""
    with pytest.raises(SetupError) as err:
        check({"days": [full_deck("riogrande")[:19]]})
    assert str(err.value) == "day 1 of the deck file lists 19 cards; only 18 are in play with 3 players"
    assert check({"days": [full_deck("riogrande")[:24]]}, ABCD)["days"][0] == full_deck("riogrande")[:24]


@pytest.mark.parametrize("cards, message", [
    (["dyes-3", "dyes-3"], "day 1 of the deck file lists 'dyes-3' 2 times; the game has 1"),
    (["dyes-5", "dyes-5", "dyes-5"], "day 1 of the deck file lists 'dyes-5' 3 times; the game has 2"),
    (["gold-10", "gold-10"], "day 1 of the deck file lists 'gold-10' 2 times; the game has 1"),
])
def test_check_deck_rejects_a_card_listed_more_often_than_it_exists(cards: list[str], message: str) -> None:
    """Each good has one card of each value 0-4 and two 5s; there is one gold-10."""
    with pytest.raises(SetupError) as err:
        check({"days": [cards]})
    assert str(err.value) == message


def test_check_deck_accepts_a_good_deck() -> None:
    """Both 5s of a good may be listed, and each day is a fresh shuffle of all 36 cards, so the same card
    may be listed on several days."""
    deck = {"days": [["dyes-5", "dyes-5", "gold-10"], ["gold-10"], []]}
    assert check(deck) == deck


# -- revealing cards --------------------------------------------------------------------------------

def test_first_card_is_compulsory_and_revealed_automatically() -> None:
    """DE: 'Wer am Zug ist, deckt zunächst eine Warenkarte vom verdeckten Stapel auf.' NL: 'moet hij één
    kaartje uit de buidel trekken.' The auctioneer's first decision already faces one revealed card."""
    state, events, _ = new_game(ABC, days=[["grain-4", "dyes-1"]], seed="s")
    start = state["start_player"]
    assert events[1] == {"type": "reveal", "player": start, "card": "grain-4", "lot": ["grain-4"]}
    assert R.decision(state).players == (start,) and R.decision(state).kind == "draw"
    assert R.legal_orders(state, start) == ["draw", "auction"]


def test_auctioneer_may_offer_a_single_card() -> None:
    """NL: 'De speler mag echter ook na het eerste of na het tweede kaartje verzaken aan de mogelijkheid
    om kaartjes te trekken.' 'auction' after the first card opens the bidding."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"])
    events = play(state, rng, ("A", "auction"))
    assert events == [{"type": "auction_opens", "player": "A", "lot": ["dyes-3"], "forced": False}]
    assert R.decision(state).kind == "bid" and asked(state) == "B"


def test_auctioneer_draws_up_to_three_cards_one_at_a_time() -> None:
    """DE: 'kann der Spieler danach noch eine 2. Karte und auch noch eine 3. Karte vom Stapel aufdecken'.
    NL: 'Een inkoper mag nooit meer dan drie kaartjes trekken.' The third card opens the auction."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"])
    events = play(state, rng, ("A", "draw"))
    assert events == [{"type": "draw", "player": "A"},
                      {"type": "reveal", "player": "A", "card": "dyes-4", "lot": ["dyes-3", "dyes-4"]}]
    assert asked(state) == "A" and R.decision(state).kind == "draw"
    events = play(state, rng, ("A", "draw"))
    assert events[1:] == [
        {"type": "reveal", "player": "A", "card": "dyes-5", "lot": ["dyes-3", "dyes-4", "dyes-5"]},
        {"type": "auction_opens", "player": "A", "lot": ["dyes-3", "dyes-4", "dyes-5"], "forced": True}]
    assert state["deck"] == ["spices-0"]
    assert R.decision(state).kind == "bid"


def test_lot_may_not_grow_beyond_the_cards_left() -> None:
    """NOTES: 'A lot may not grow beyond 3 cards, beyond the cards left, ...'. With one card left in the
    bag the second card is the last; it opens the auction."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["grain-2"])
    assert R.max_lot(state) == 2
    events = play(state, rng, ("A", "draw"))
    assert events[-1] == {"type": "auction_opens", "player": "A", "lot": ["dyes-3", "grain-2"], "forced": True}
    assert state["deck"] == []


def test_lot_may_not_grow_beyond_the_largest_free_space() -> None:
    """NL: 'Een inkoper mag nooit een pakket samenstellen dat te groot is zodat geen enkele speler er kan
    op bieden.' Every hold has at most 2 free spaces: the second card opens the auction."""
    holds = {"A": ["linen-0", "linen-1", "linen-2"], "B": ["furs-0", "furs-1", "furs-2"],
             "C": ["grain-0", "grain-1", "grain-2", "grain-3"]}
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"], holds=holds)
    assert R.max_lot(state) == 2
    events = play(state, rng, ("A", "draw"))
    assert events[-1]["type"] == "auction_opens" and events[-1]["forced"] is True
    assert state["lot"] == ["dyes-3", "dyes-4"]


def test_full_holds_do_not_count_for_the_lot_limit() -> None:
    """The limit is the largest free space of a player still in the day: a full player has none, and an
    empty hold of a player who is still in counts in full."""
    holds = {"A": ["linen-0", "linen-1", "linen-2", "linen-3", "linen-4"],
             "B": ["furs-0", "furs-1", "furs-2", "furs-3"], "C": ["grain-0", "grain-1", "grain-2"]}
    state, _ = table(ABC, auctioneer="B", lot=["dyes-3"], deck=["dyes-4", "dyes-5"], holds=holds)
    assert R.max_lot(state) == 2


def test_auctioneer_may_reveal_more_than_he_can_take() -> None:
    """DE: 'Der handelnde Spieler darf mehr Karten aufdecken, als er selbst kaufen könnte. Aber er muß
    darauf achten, daß noch mindestens ein Spieler die angebotenen Waren erwerben kann.' A has one free
    space and reveals 3 cards for C, who has 5."""
    holds = {"A": ["linen-0", "linen-1", "linen-2", "linen-3"], "B": ["furs-0", "furs-1", "furs-2", "furs-3"]}
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"], holds=holds)
    events = play(state, rng, ("A", "draw"), ("A", "draw"))
    assert state["lot"] == ["dyes-3", "dyes-4", "dyes-5"]
    assert events[-2:] == [
        {"type": "auction_opens", "player": "A", "lot": ["dyes-3", "dyes-4", "dyes-5"], "forced": True},
        {"type": "pass", "player": "B", "forced": "only 1 free space in the hold"}]
    events = play(state, rng, ("C", {"bid": 2}))
    assert of_type(events, "pass") == [
        {"type": "pass", "player": "A", "forced": "only 1 free space in the hold"}]
    assert of_type(events, "sold")[0]["player"] == "C"


def test_a_lot_of_one_opens_by_itself_when_every_hold_has_one_space() -> None:
    """The first card is compulsory; if no player still in the day has room for two cards, the auction
    opens at once. C buys a card, after which every hold has exactly one space; B's first card opens."""
    holds = {"A": ["linen-0", "linen-1", "linen-2", "linen-3"], "B": ["furs-0", "furs-1", "furs-2", "furs-3"],
             "C": ["grain-0", "grain-1", "grain-2"]}
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"], holds=holds)
    events = play(state, rng, ("A", "auction"), ("B", "pass"), ("C", {"bid": 1}), ("A", "pass"))
    assert events[-3:] == [
        {"type": "sold", "player": "C", "price": 1, "lot": ["dyes-3"], "auctioneer": "A"},
        {"type": "reveal", "player": "B", "card": "dyes-4", "lot": ["dyes-4"]},
        {"type": "auction_opens", "player": "B", "lot": ["dyes-4"], "forced": True}]
    assert R.decision(state).kind == "bid" and asked(state) == "C"


# -- bidding ----------------------------------------------------------------------------------------

def test_bidding_once_around_from_the_left_auctioneer_last() -> None:
    """DE: 'Als erster nennt der Spieler links von demjenigen, der die Karten aufgedeckt hat, einen Preis
    oder er paßt. Reihum ... Der Spieler, der die Karten aufgedeckt hat, bietet als letzter.' NL: 'Elke
    inkoper mag voor het pakket maar één bod doen.' C auctions among A, B, C, D: D, A, B bid, C last."""
    state, rng = table(ABCD, auctioneer="C", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"])
    R.apply(state, "C", "auction", rng)
    assert state["to_bid"] == ["D", "A", "B", "C"]
    order = []
    for p, o in (("D", {"bid": 1}), ("A", "pass"), ("B", {"bid": 4}), ("C", {"bid": 5})):
        order.append(asked(state))
        events = R.apply(state, p, o, rng)
    assert order == ["D", "A", "B", "C"]
    assert events[0] == {"type": "bid", "player": "C", "amount": 5}
    assert events[1] == {"type": "sold", "player": "C", "price": 5, "lot": ["dyes-3"], "auctioneer": "C"}


def test_each_player_bids_only_once() -> None:
    """NL: 'Elke inkoper mag voor het pakket maar één bod doen.' After the last bid nobody is asked again:
    the lot goes to the high bidder even though the players outbid could still pay more."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"])
    events = play(state, rng, ("A", "auction"), ("B", {"bid": 3}), ("C", {"bid": 4}), ("A", "pass"))
    assert of_type(events, "sold") == [{"type": "sold", "player": "C", "price": 4, "lot": ["dyes-3"],
                                        "auctioneer": "A"}]
    assert asked(state) == "B"  # the next auctioneer: no second round of bidding


def test_a_bid_must_be_higher_than_the_high_bid() -> None:
    """DE: 'können einen höheren Preis nennen oder passen'. NL: 'Ieder bod moet hoger zijn dan het vorige
    bod.'"""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"])
    play(state, rng, ("A", "auction"), ("B", {"bid": 6}))
    assert R.why_illegal(state, "C", {"bid": 6}) == "bid 6 is not higher than the high bid of 6 by B"
    assert R.why_illegal(state, "C", {"bid": 2}) == "bid 2 is not higher than the high bid of 6 by B"
    assert R.why_illegal(state, "C", {"bid": 7}) is None
    with pytest.raises(IllegalOrder, match="^bid 6 is not higher than the high bid of 6 by B$"):
        R.apply(state, "C", {"bid": 6}, rng)
    assert R.legal_orders(state, "C") == ["pass"] + [{"bid": n} for n in range(7, 41)]


def test_the_lowest_bid_is_one() -> None:
    """NOTES: 'a whole number higher than the current high bid (the lowest bid is 1)'. NL example: 'kan
    Carl dit aankopen voor 1 florijn'."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"])
    play(state, rng, ("A", "auction"))
    assert R.why_illegal(state, "B", {"bid": 0}) == "the lowest bid is 1"
    assert R.why_illegal(state, "B", {"bid": -3}) == "the lowest bid is 1"
    assert R.why_illegal(state, "B", {"bid": 1}) is None
    with pytest.raises(IllegalOrder, match="^the lowest bid is 1$"):
        R.apply(state, "B", {"bid": 0}, rng)


def test_a_bid_may_not_exceed_the_bidders_money() -> None:
    """NL: 'Omdat de inkopers geen krediet kunnen opnemen, mogen ze ook nooit meer geld bieden dan ze
    werkelijk bezitten.' DE: 'Das Vermögen darf nie unter 0 Florentiner fallen.' All one's money is a
    legal bid and leaves 0."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"], money={"B": 12})
    play(state, rng, ("A", "auction"))
    assert R.why_illegal(state, "B", {"bid": 13}) == "bid 13 is more than your money (12)"
    with pytest.raises(IllegalOrder, match=r"^bid 13 is more than your money \(12\)$"):
        R.apply(state, "B", {"bid": 13}, rng)
    assert R.legal_orders(state, "B")[-1] == {"bid": 12}
    play(state, rng, ("B", {"bid": 12}), ("C", "pass"), ("A", "pass"))
    assert state["money"]["B"] == 0 and state["hold"]["B"] == ["dyes-3"]


def test_orders_that_do_not_fit_the_decision() -> None:
    """Only the player asked may act, and only with an order of the kind asked for."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"])
    assert R.why_illegal(state, "B", "draw") == "it is not your decision: the game waits for A"
    assert R.why_illegal(state, "A", "pass") == "you are the auctioneer: send 'draw' or 'auction', not 'pass'"
    assert R.why_illegal(state, "A", {"bid": 3}) == ("you are the auctioneer: send 'draw' or 'auction', "
                                                    "not 'bid: 3'")
    play(state, rng, ("A", "auction"))
    assert R.why_illegal(state, "B", "draw") == "the lot is up for auction: send 'pass' or 'bid: N', not 'draw'"
    assert R.why_illegal(state, "B", {"bid": "7"}) == ("the lot is up for auction: send 'pass' or 'bid: N', "
                                                      "not 'bid: 7'")
    assert R.why_illegal(state, "C", {"bid": 3}) == "it is not your decision: the game waits for B"
    with pytest.raises(IllegalOrder):
        R.apply(state, "C", "pass", rng)
    assert state["to_bid"] == ["B", "C", "A"]  # an illegal order changes nothing


def test_player_without_room_passes_without_being_asked() -> None:
    """DE: 'Wenn ein Spieler mit den gerade neu aufgedeckten Karten seine Lagerkapazität überschreiten
    würde, darf er nicht mitbieten.' NL: 'Een inkoper mag niet meebieden op een pakket goederen dat zo
    groot is dat daarmee de laadcapaciteit van zijn schip zou overschreden worden.'"""
    holds = {"B": ["furs-0", "furs-1", "furs-2", "furs-3"], "C": ["grain-0", "grain-1", "grain-2", "grain-3"]}
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"], holds=holds)
    events = play(state, rng, ("A", "draw"), ("A", "auction"))
    assert events[-2:] == [
        {"type": "pass", "player": "B", "forced": "only 1 free space in the hold"},
        {"type": "pass", "player": "C", "forced": "only 1 free space in the hold"}]
    assert asked(state) == "A"


def test_player_who_cannot_outbid_passes_without_being_asked() -> None:
    """NOTES: each bid is 'higher than the current high bid ... and at most his money'. C has 5, B bid 5:
    C cannot outbid and is not asked."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"], money={"C": 5})
    events = play(state, rng, ("A", "auction"), ("B", {"bid": 5}))
    assert events[-1] == {"type": "pass", "player": "C", "forced": "only 5 money, the lowest bid is 6"}
    assert asked(state) == "A"


def test_player_without_money_passes_without_being_asked() -> None:
    """With no money a player cannot make the lowest bid of 1."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"], money={"B": 0})
    events = play(state, rng, ("A", "auction"))
    assert events[-1] == {"type": "pass", "player": "B", "forced": "only 0 money, the lowest bid is 1"}
    assert asked(state) == "C"


def test_all_pass_the_lot_is_set_aside() -> None:
    """DE: 'Wenn alle passen, werden die aufgedeckten Karten verdeckt beiseite gelegt und in dieser
    Spielrunde nicht mehr gebraucht.' Nobody pays; the next auctioneer is left of this one."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"])
    events = play(state, rng, ("A", "draw"), ("A", "auction"), ("B", "pass"), ("C", "pass"), ("A", "pass"))
    assert of_type(events, "unsold") == [{"type": "unsold", "lot": ["dyes-3", "dyes-4"], "auctioneer": "A"}]
    assert of_type(events, "pass")[-1] == {"type": "pass", "player": "A", "forced": None}
    assert state["discarded"] == ["dyes-3", "dyes-4"]
    assert state["money"] == {"A": 40, "B": 40, "C": 40}
    assert all(h == [] for h in state["hold"].values())
    assert state["auctioneer"] == "B" and state["lot"] == ["dyes-5"]


def test_the_high_bidder_pays_and_takes_the_lot() -> None:
    """DE: 'Wer den höchsten Preis genannt hat, erhält die aufgedeckten Karten ... zahlt den gebotenen
    Preis'. Gekaufte Waren können nicht mehr zurückgegeben werden."""
    holds = {"C": ["grain-0"]}
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"], holds=holds)
    events = play(state, rng, ("A", "draw"), ("A", "auction"), ("B", {"bid": 3}), ("C", {"bid": 8}),
                  ("A", "pass"))
    assert of_type(events, "sold") == [{"type": "sold", "player": "C", "price": 8,
                                        "lot": ["dyes-3", "dyes-4"], "auctioneer": "A"}]
    assert state["money"] == {"A": 40, "B": 40, "C": 32}
    assert state["hold"]["C"] == ["grain-0", "dyes-3", "dyes-4"]


def test_the_auctioneer_may_buy_his_own_lot() -> None:
    """NL: 'De speler die het pakket heeft samengesteld, mag als laatste zijn bod doen of passen.'"""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5"])
    events = play(state, rng, ("A", "auction"), ("B", {"bid": 2}), ("C", "pass"), ("A", {"bid": 3}))
    assert of_type(events, "sold")[0] == {"type": "sold", "player": "A", "price": 3, "lot": ["dyes-3"],
                                          "auctioneer": "A"}
    assert state["money"]["A"] == 37 and state["money"]["B"] == 40


def test_full_players_neither_auction_nor_bid() -> None:
    """DE: 'Wer sein Lager mit 5 Warenkarten gefüllt hat, darf in dieser Spielrunde nicht mehr aufdecken
    und nicht mehr mitbieten.' D is full: he is left out of the bidding (not even a forced pass) and his
    turn as auctioneer is skipped."""
    holds = {"D": ["linen-0", "linen-1", "linen-2", "linen-3", "linen-4"]}
    state, rng = table(ABCD, auctioneer="C", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"], holds=holds)
    events = play(state, rng, ("C", "auction"))
    assert state["to_bid"] == ["A", "B", "C"]
    events += play(state, rng, ("A", "pass"), ("B", "pass"), ("C", "pass"))
    assert all(e.get("player") != "D" for e in events)
    assert state["auctioneer"] == "A"  # left of C is D, who is full
    assert of_type(events, "reveal")[-1] == {"type": "reveal", "player": "A", "card": "dyes-4", "lot": ["dyes-4"]}


def test_next_auctioneer_is_left_of_the_previous_auctioneer() -> None:
    """DE: 'Danach ist der Spieler links von demjenigen an der Reihe, der zuvor die Waren aufgedeckt hat.'
    NL: 'Dit is de linkerbuurman van de inkoper die de vorige ronde het goederenpakket heeft
    samengesteld.' Who bought does not matter: A auctions, C buys, B is next."""
    state, rng = table(ABCD, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"])
    events = play(state, rng, ("A", "auction"), ("B", "pass"), ("C", {"bid": 2}), ("D", "pass"), ("A", "pass"))
    assert state["auctioneer"] == "B"
    assert events[-1] == {"type": "reveal", "player": "B", "card": "dyes-4", "lot": ["dyes-4"]}
    events = play(state, rng, ("B", "auction"), ("C", "pass"), ("D", "pass"), ("A", "pass"), ("B", "pass"))
    assert state["auctioneer"] == "C"
    events = play(state, rng, ("C", "auction"), ("D", "pass"), ("A", "pass"), ("B", "pass"), ("C", "pass"))
    assert state["auctioneer"] == "D"


def test_next_auctioneer_skips_full_players() -> None:
    """NOTES: 'The next auctioneer is the player left of the previous auctioneer (skipping full players).'
    B fills his hold by buying A's lot; the turn passes over B to C."""
    holds = {"B": ["furs-0", "furs-1", "furs-2", "furs-3"]}
    state, rng = table(ABCD, auctioneer="A", lot=["dyes-3"], deck=["dyes-4", "dyes-5", "spices-0"], holds=holds)
    play(state, rng, ("A", "auction"), ("B", {"bid": 1}), ("C", "pass"), ("D", "pass"), ("A", "pass"))
    assert len(state["hold"]["B"]) == 5
    assert state["auctioneer"] == "C" and asked(state) == "C"


# -- the end of a day -------------------------------------------------------------------------------

def test_last_player_takes_the_missing_cards_free() -> None:
    """DE: 'Haben alle Spieler bis auf einen ihr Lager gefüllt, darf der letzte Spieler die ihm noch
    fehlenden Karten kostenlos vom Stapel ziehen. Er hat jedoch keine Wahlmöglichkeit mehr'. B buys, only
    C is left: C takes the top two cards of the bag without paying, and the day is scored."""
    state, rng = near_day_end()
    events = play(state, rng, ("B", "auction"), ("C", "pass"), ("B", {"bid": 1}))
    assert of_type(events, "sold")[0]["player"] == "B"
    fill = of_type(events, "free_fill")
    assert fill == [{"type": "free_fill", "player": "C", "cards": ["dyes-1", "dyes-2"]}]
    assert events.index(fill[0]) < events.index(of_type(events, "score_value")[0])
    ranking = of_type(events, "score_value")[0]["ranking"]
    # C: 0+1+2+1+2 = 6, B: 0+1+2+3+1 = 7, A: 0+1+2+3+4 = 10
    assert [(r["player"], r["score"]) for r in ranking] == [("A", 10), ("B", 7), ("C", 6)]
    assert of_type(events, "day_end")[0]["day"] == 1
    assert state["day"] == 2


def test_last_player_takes_fewer_cards_if_the_bag_runs_short() -> None:
    """NL: 'Als er in de buidel onvoldoende goederenkaartjes aanwezig zijn, neemt de speler de kaartjes
    die er zijn. De andere laadruimtes blijven dan leeg.'"""
    state, rng = near_day_end(deck=["dyes-1"])
    events = play(state, rng, ("B", "auction"), ("C", "pass"), ("B", {"bid": 1}))
    assert of_type(events, "free_fill") == [{"type": "free_fill", "player": "C", "cards": ["dyes-1"]}]
    ranking = of_type(events, "score_value")[0]["ranking"]
    assert {r["player"]: r["score"] for r in ranking}["C"] == 0 + 1 + 2 + 1


def test_day_ends_when_the_bag_is_empty() -> None:
    """DE: 'Die Spielrunde endet auch, wenn der Kartenstapel aufgebraucht ist. Das gilt selbst dann, wenn
    einige Spieler ihr Lager nicht ganz gefüllt haben.' The last card is sold; B and C still have room."""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4"])
    events = play(state, rng, ("A", "draw"))
    assert events[-1]["type"] == "auction_opens" and events[-1]["forced"] is True
    events = play(state, rng, ("B", {"bid": 2}), ("C", "pass"), ("A", "pass"))
    kinds = [e["type"] for e in events]
    assert kinds[:kinds.index("day_end") + 1] == [
        "bid", "pass", "pass", "sold", "deck_empty", "score_value"] + ["score_track"] * 5 + ["day_end"]
    assert of_type(events, "deck_empty") == [{"type": "deck_empty", "day": 1}]
    assert state["day"] == 2


def test_day_ends_when_the_bag_is_empty_after_an_unsold_lot() -> None:
    """NL: 'De dag eindigt ook als de buidel leeg is ... Dit gebeurt zeker als er te veel pakketten
    terzijde werden gelegd omdat geen enkele inkoper een bod wou uitbrengen.'"""
    state, rng = table(ABC, auctioneer="A", lot=["dyes-3"], deck=["dyes-4"])
    events = play(state, rng, ("A", "draw"), ("B", "pass"), ("C", "pass"), ("A", "pass"))
    assert of_type(events, "unsold")[0]["lot"] == ["dyes-3", "dyes-4"]
    assert of_type(events, "deck_empty") == [{"type": "deck_empty", "day": 1}]
    assert all(r["score"] == 0 for r in of_type(events, "score_value")[0]["ranking"])


# -- scoring: hold value ----------------------------------------------------------------------------

VALUE_TABLES = {
    ("riogrande", 3): [30, 15, 0], ("riogrande", 4): [30, 20, 10, 0], ("riogrande", 5): [30, 20, 10, 5, 0],
    ("riogrande", 6): [30, 20, 15, 10, 5, 0],
    ("amigo", 3): [30, 15, 0], ("amigo", 4): [30, 20, 10, 0], ("amigo", 5): [30, 20, 10, 5, 0],
    ("amigo", 6): [30, 20, 10, 10, 5, 0],
}


@pytest.mark.parametrize("edition, n", sorted(VALUE_TABLES))
def test_hold_value_payouts(edition: str, n: int) -> None:
    """The payout tables: 3 players 30/15; 4: 30/20/10; 5: 30/20/10/5; 6: riogrande 30/20/15/10/5 (NL
    table), amigo 30/20/10/10/5 (NOTES: the German column is garbled; tournament previews give
    30/20/10/10/5). 'Der Spieler mit dem geringsten Gesamtwert geht leer aus.'"""
    players = PLAYERS[n]
    goods = R.view(new_game(players, edition)[0], None)["goods"]
    # player i holds the good i-ish card of value n-i (values n..1 distinct), the last holds nothing
    holds = {p: [f"{goods[i % 5]}-{n - 1 - i}"] for i, p in enumerate(players[:-1])}
    state = scoring_state(players, holds, edition)
    ranking = of_type(score(state), "score_value")[0]["ranking"]
    assert [r["player"] for r in ranking] == players
    assert [r["payout"] for r in ranking] == VALUE_TABLES[(edition, n)]
    assert [r["place"] for r in ranking] == list(range(1, n + 1))


def test_hold_value_ties_pool_and_split_rounding_down() -> None:
    """DE: 'Im Falle eines Patts ... werden die entsprechenden Erlöse zusammengelegt und geteilt.
    Gegebenenfalls muß abgerundet werden.' Six riogrande players: B and C tie for 2nd (20+15=35 -> 17),
    D, E and F tie for 4th (10+5+0=15 -> 5)."""
    players = PLAYERS[6]
    holds = {"A": ["dyes-5"], "B": ["dyes-4"], "C": ["spices-4"], "D": ["dyes-1"], "E": ["spices-1"],
             "F": ["grain-1"]}
    state = scoring_state(players, holds)
    ranking = of_type(score(state), "score_value")[0]["ranking"]
    assert payouts(ranking) == {"A": 30, "B": 17, "C": 17, "D": 5, "E": 5, "F": 5}
    assert {r["player"]: r["place"] for r in ranking} == {"A": 1, "B": 2, "C": 2, "D": 4, "E": 4, "F": 4}


@pytest.mark.parametrize("edition, shared", [("riogrande", 12), ("amigo", 10)])
def test_six_player_tie_for_third_differs_by_edition(edition: str, shared: int) -> None:
    """Six players, C and D tie for 3rd and 4th: riogrande pools 15+10 = 25 -> 12 each (rounded down),
    amigo pools 10+10 = 20 -> 10 each. 5th still gets 5, 6th nothing."""
    players = PLAYERS[6]
    goods = R.view(new_game(players, edition)[0], None)["goods"]
    holds = {"A": [f"{goods[0]}-5"], "B": [f"{goods[0]}-4"], "C": [f"{goods[0]}-3"], "D": [f"{goods[1]}-3"],
             "E": [f"{goods[0]}-1"], "F": []}
    state = scoring_state(players, holds, edition)
    ranking = of_type(score(state), "score_value")[0]["ranking"]
    assert payouts(ranking) == {"A": 30, "B": 20, "C": shared, "D": shared, "E": 5, "F": 0}


@pytest.mark.parametrize("n, each", [(3, 15), (4, 15), (5, 13), (6, 13)])
def test_everyone_tied_shares_the_whole_table(n: int, each: int) -> None:
    """Ties pool every place they occupy: with all holds equal the whole table is split evenly, rounded
    down (3p 45/3, 4p 60/4, 5p 65/5, 6p riogrande 80/6)."""
    state = scoring_state(PLAYERS[n], {})
    ranking = of_type(score(state), "score_value")[0]["ranking"]
    assert payouts(ranking) == {p: each for p in PLAYERS[n]}
    assert all(r["place"] == 1 for r in ranking)


def test_hold_value_tie_for_first() -> None:
    """Ties pool the places they occupy: two tied first in a 3-player game share 30+15 = 22 each (45/2
    rounded down), the third gets nothing."""
    state = scoring_state(ABC, {"A": ["dyes-5"], "B": ["spices-5"], "C": ["grain-1"]})
    assert payouts(of_type(score(state), "score_value")[0]["ranking"]) == {"A": 22, "B": 22, "C": 0}


def test_players_with_no_cards_rank_too() -> None:
    """NOTES: 'ranking by the total value of each player's cards (players with no cards rank too)'. A
    hold of only 0-cards or no cards at all is worth 0; B and C tie at 0 for 3rd of 4 and share 10."""
    state = scoring_state(ABCD, {"A": ["dyes-5"], "B": [], "C": ["dyes-0", "spices-0"], "D": ["dyes-2"]})
    ranking = of_type(score(state), "score_value")[0]["ranking"]
    assert payouts(ranking) == {"A": 30, "D": 20, "B": 5, "C": 5}


def test_the_neutral_ten_counts_for_the_hold_value() -> None:
    """DE: 'eine neutrale Warenkarte mit dem Wert 10' — it counts for the value ranking."""
    state = scoring_state(ABC, {"A": ["gold-10"], "B": ["dyes-5", "spices-4"], "C": []})
    ranking = of_type(score(state), "score_value")[0]["ranking"]
    assert [(r["player"], r["score"], r["payout"]) for r in ranking] == [("A", 10, 30), ("B", 9, 15), ("C", 0, 0)]


# -- scoring: goods tracks --------------------------------------------------------------------------

def test_tracks_move_one_step_per_goods_card() -> None:
    """DE: 'rückt jeder Spieler seinen Spielstein im jeweiligen Kontor um so viele Felder nach oben, wie
    er Karten von diesen Waren besitzt. Der Wert der Warenkarten spielt jetzt keine Rolle mehr.'"""
    holds = {"A": ["dyes-0", "dyes-1", "dyes-5"], "B": ["dyes-5", "spices-0"], "C": []}
    state = scoring_state(ABC, holds, tracks={"A": {"dyes": 1}})
    events = score(state)
    assert track_event(events, "dyes")["moves"] == {"A": 3, "B": 1, "C": 0}
    assert track_event(events, "dyes")["steps"] == {"A": 4, "B": 1, "C": 0}
    assert state["tracks"] == {"A": {"linen": 0, "furs": 0, "grain": 0, "dyes": 4, "spices": 0},
                               "B": {"linen": 0, "furs": 0, "grain": 0, "dyes": 1, "spices": 1},
                               "C": {"linen": 0, "furs": 0, "grain": 0, "dyes": 0, "spices": 0}}


def test_tracks_never_go_past_the_top_step() -> None:
    """NL: 'De telstenen kunnen niet hoger dan de hoogste trap worden gezet.' (8 steps, 0-7)"""
    holds = {"A": ["dyes-0", "dyes-1", "dyes-2", "dyes-3", "dyes-4"], "B": ["spices-0"]}
    state = scoring_state(ABC, holds, tracks={"A": {"dyes": 5}, "B": {"spices": 7}})
    events = score(state)
    assert state["tracks"]["A"]["dyes"] == 7 and track_event(events, "dyes")["moves"]["A"] == 2
    assert state["tracks"]["B"]["spices"] == 7 and track_event(events, "spices")["moves"]["B"] == 0


def test_the_neutral_ten_moves_no_marker() -> None:
    """DE: 'ACHTUNG: Die neutrale 10 darf nicht mitgezählt werden.' NL: 'Het goudkaartje wordt niet
    meegeteld omdat hiervoor geen handelspiramide is voorzien.'"""
    state = scoring_state(ABC, {"A": ["gold-10"]})
    events = score(state)
    assert all(t == {"linen": 0, "furs": 0, "grain": 0, "dyes": 0, "spices": 0} for t in state["tracks"].values())
    assert [e["good"] for e in of_type(events, "score_track")] == ["linen", "furs", "grain", "dyes", "spices"]
    assert all(m == 0 for e in of_type(events, "score_track") for m in e["moves"].values())


def test_track_majority_pays_ten_and_five() -> None:
    """DE: 'Der Spieler, der in einem Kontor jeweils am höchsten steht, erhält 10 Florentiner als Prämie.
    Der Spieler an der 2. Position erhält 5 Florentiner.'"""
    state = scoring_state(ABC, {}, tracks={"A": {"dyes": 3}, "B": {"dyes": 2}, "C": {"dyes": 1}})
    assert payouts(track_event(score(state), "dyes")["ranking"]) == {"A": 10, "B": 5}


def test_track_tie_for_first_pools_and_rounds_down() -> None:
    """DE: 'Im Falle eines Patts werden auch hier die Prämien zusammengezählt und geteilt. Gegebenenfalls
    muß wieder abgerundet werden.' Two tied leaders share 10+5 = 15 -> 7 each; the third gets nothing."""
    state = scoring_state(ABC, {}, tracks={"A": {"dyes": 3}, "B": {"dyes": 3}, "C": {"dyes": 1}})
    events = score(state)
    assert track_event(events, "dyes")["ranking"] == [
        {"player": "A", "score": 3, "place": 1, "payout": 7}, {"player": "B", "score": 3, "place": 1, "payout": 7}]
    # value: all holds empty, 30+15+0 shared -> 15 each; the four empty tracks pay 15/3 = 5 each
    assert state["money"] == {"A": 15 + 7 + 4 * 5, "B": 15 + 7 + 4 * 5, "C": 15 + 4 * 5}


def test_track_markers_at_zero_take_part() -> None:
    """NL: 'Het is mogelijk dat inkopers een bonuspremie ontvangen voor goederen die ze niet hebben gekocht
    in deze ronde of als er een gelijke stand voor de eerste of tweede plaats heerst op de onderste trap.'
    A leads furs; B and C, both at 0, share the 5 for second (2 each). On a track where all four markers
    are at 0 the four share 15 (3 each)."""
    state = scoring_state(ABCD, {}, tracks={"A": {"furs": 2}})
    events = score(state)
    assert payouts(track_event(events, "furs")["ranking"]) == {"A": 10, "B": 1, "C": 1, "D": 1}
    assert payouts(track_event(events, "linen")["ranking"]) == {"A": 3, "B": 3, "C": 3, "D": 3}
    state = scoring_state(ABC, {}, tracks={"A": {"furs": 2}})
    assert payouts(track_event(score(state), "furs")["ranking"]) == {"A": 10, "B": 2, "C": 2}


@pytest.mark.parametrize("edition, fields", [
    ("amigo", {4: 0, 5: 0, 6: 10, 7: 20}),
    ("riogrande", {4: 0, 5: 5, 6: 10, 7: 20}),
])
def test_bonus_fields(edition: str, fields: dict[int, int]) -> None:
    """DE: 'Die beiden obersten Felder der Kontore sind mit den Monopolprämien 10 und 20 beschriftet.'
    NL: 'Als een inkoper één van de drie hoogste trappen van een handelspiramide bereikt, ontvangt hij
    extra een bonus van 5, 10 of 20 florijnen.' Each player stands on his own track here, alone."""
    players = PLAYERS[4]
    state = scoring_state(players, {}, edition)
    goods = list(state["tracks"]["A"])
    for i, (p, step) in enumerate(zip(players, fields)):
        state["tracks"][p][goods[i]] = step
    events = score(state)
    for p, step in zip(players, fields):
        bonus = [b for e in of_type(events, "score_track") for b in e["bonus"] if b["player"] == p]
        assert bonus == ([{"player": p, "step": step, "payout": fields[step]}] if fields[step] else [])


def test_bonus_paid_in_full_to_everyone_on_the_field() -> None:
    """NL: 'Als er meerdere inkopers op hetzelfde bonusveld staan, ontvangen ze elk het volledige
    bonusbedrag. Deze bonus wordt niet opgedeeld.' Three players on step 7 of dyes: 20 each, plus
    15/3 = 5 each for the pooled majority."""
    state = scoring_state(ABC, {}, tracks={p: {"dyes": 7} for p in ABC})
    e = track_event(score(state), "dyes")
    assert e["bonus"] == [{"player": p, "step": 7, "payout": 20} for p in ABC]
    assert payouts(e["ranking"]) == {"A": 5, "B": 5, "C": 5}


def test_bonus_paid_again_at_every_days_scoring() -> None:
    """NOTES: '(3) bonus fields, paid in full to every player standing on them, at every day's scoring.'
    A's marker stays on step 7 without new cards and earns the 20 again."""
    state = scoring_state(ABC, {}, tracks={"A": {"dyes": 7}})
    first = track_event(score(state), "dyes")
    state["day"] = 2
    second = track_event(score(state), "dyes")
    assert first["bonus"] == second["bonus"] == [{"player": "A", "step": 7, "payout": 20}]


def test_scoring_totals_and_day_end_event() -> None:
    """NOTES: 'Scoring, in this order: (1) ranking by the total value ..., (2) ... per track the highest
    marker gets 10 and the second 5 ..., (3) bonus fields'. Every payout is added to the money."""
    holds = {"A": ["dyes-5", "dyes-4"], "B": ["spices-5"], "C": []}
    state = scoring_state(ABC, holds, tracks={"A": {"dyes": 4}}, money=10)
    events = score(state)
    kinds = [e["type"] for e in events]
    assert kinds == ["score_value"] + ["score_track"] * 5 + ["day_end"]
    # value: A 9 -> 30, B 5 -> 15, C 0 -> 0
    # dyes: A at 6 -> 10 + bonus 10, B and C at 0 share 5 -> 2; spices: B at 1 -> 10, A and C share 5 -> 2
    # linen, furs, grain: all at 0 share 15 -> 5 each
    assert state["money"] == {"A": 10 + 30 + 10 + 10 + 2 + 15, "B": 10 + 15 + 2 + 10 + 15, "C": 10 + 2 + 2 + 15}
    assert events[-1] == {"type": "day_end", "day": state["day"], "money": state["money"]}


# -- from day to day --------------------------------------------------------------------------------

def test_new_day_empties_holds_reshuffles_all_cards_and_keeps_tracks() -> None:
    """DE: 'Alle 36 Warenkarten werden wieder zusammengelegt, gut gemischt'. NL: 'De telstenen worden
    steeds vanuit hun huidige positie, na de laatste waardering, verder geschoven.' Set-aside and
    discarded cards come back; the markers stay where the scoring left them."""
    state, rng = near_day_end()
    events = play(state, rng, ("B", "auction"), ("C", "pass"), ("B", {"bid": 1}))
    assert state["day"] == 2
    assert all(h == [] for h in state["hold"].values())
    assert state["discarded"] == []
    assert len(state["lot"]) + len(state["deck"]) == 18 and len(state["set_aside"]) == 18
    assert sorted(R.cards_in_game(state)) == sorted(full_deck("riogrande"))
    assert state["tracks"]["A"]["linen"] == 5 and state["tracks"]["B"]["furs"] == 4
    assert state["tracks"]["B"]["spices"] == 1 and state["tracks"]["C"]["grain"] == 3
    assert state["tracks"]["C"]["dyes"] == 2
    day2 = of_type(events, "day_start")[0]
    assert day2["day"] == 2 and day2["cards"] == 18


def test_start_player_of_later_days_is_the_poorest() -> None:
    """DE: 'Die 2. und 3. Spielrunde beginnt jeweils der Spieler mit dem geringsten Vermögen.' Money is
    counted after the day's scoring: here A, richest before, stays richest; B pays and is poorest."""
    state, rng = near_day_end(money={"A": 50, "B": 5, "C": 30})
    events = play(state, rng, ("B", "auction"), ("C", "pass"), ("B", {"bid": 5}))
    money = of_type(events, "day_end")[0]["money"]
    assert min(money, key=money.get) == "B" and list(money.values()).count(money["B"]) == 1
    assert of_type(events, "day_start")[0] == {"type": "day_start", "day": 2, "start_player": "B",
                                               "why": "the poorest", "cards": 18}
    assert state["auctioneer"] == "B" and asked(state) == "B"


def test_poorest_tie_is_drawn_among_the_poorest_only() -> None:
    """DE: 'Es beginnt der Spieler mit dem geringsten Vermögen auf der Skala. Im Falle eines Patts wird
    gelost.' NL: 'wordt tussen deze spelers geloot'. A and C end day 1 with equal money, B is richer:
    over many draws the start player is A or C, never B."""
    starts = Counter()
    for i in range(40):
        state, _ = near_day_end(money={"A": 5, "B": 60, "C": 32})
        rng = Rng(f"tie-{i}")
        events = play(state, rng, ("B", "auction"), ("C", "pass"), ("B", {"bid": 1}))
        money = of_type(events, "day_end")[0]["money"]
        assert money["A"] == money["C"] < money["B"]
        start = of_type(events, "day_start")[0]
        assert start["why"] == "drawn among the poorest (A, C)"
        starts[start["start_player"]] += 1
    assert set(starts) == {"A", "C"}


def test_three_days_then_the_game_ends() -> None:
    """DE: 'Nach der Abrechnung der 3. Spielrunde endet das Spiel. Der Spieler, dessen Stein auf der
    Vermögensskala am weitesten vorne steht, gewinnt.' After day 3 nobody is asked anything more."""
    state, events, rng = new_game(ABCD, "amigo", seed="three days")
    events += play_out(state, rng)
    assert [e["day"] for e in of_type(events, "day_start")] == [1, 2, 3]
    assert [e["day"] for e in of_type(events, "day_end")] == [1, 2, 3]
    assert events[-1]["type"] == "game_end"
    assert R.decision(state) is None and state["phase"] == "over" and state["day"] == 3
    assert R.legal_orders(state, "A") == []
    assert R.why_illegal(state, "A", "draw") == "the game is over"
    standings = R.result(state)
    assert events[-1]["standings"] == standings
    assert [s["score"] for s in standings] == sorted(state["money"].values(), reverse=True)
    assert {s["player"]: s["score"] for s in standings} == state["money"]


def test_standings_ties_share_a_rank() -> None:
    """NOTES: 'After day 3 the richest player wins; ties share the win.'"""
    state = scoring_state(ABCD, {})
    state["money"] = {"A": 70, "B": 95, "C": 95, "D": 70}
    assert R.result(state) == [
        {"player": "B", "score": 95, "rank": 1}, {"player": "C", "score": 95, "rank": 1},
        {"player": "A", "score": 70, "rank": 3}, {"player": "D", "score": 70, "rank": 3}]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("edition", ["riogrande", "amigo"])
def test_whole_games_keep_the_rules(n: int, edition: str) -> None:
    """Over whole games: money never below 0, holds never above 5, all 36 cards always accounted for,
    every lot of 1-3 cards, three days."""
    state, events, rng = new_game(PLAYERS[n], edition, seed=f"whole-{n}-{edition}")
    policy = Rng("policy")  # the players' choices, apart from the game's own chance
    while (d := R.decision(state)) is not None:
        p = d.players[0]
        legal = R.legal_orders(state, p)
        if d.kind == "draw":
            assert legal == ["draw", "auction"]
            order: Any = legal[policy.below(2, "draw")]
        else:
            assert legal[0] == "pass" and len(legal) > 1  # a player who cannot bid is never asked
            order = legal[policy.below(min(len(legal), 5), "bid")]
        events += R.apply(state, p, order, rng)
        assert all(m >= 0 for m in state["money"].values())
        assert all(len(h) <= 5 for h in state["hold"].values())
        assert len(state["lot"]) <= 3
        assert sorted(R.cards_in_game(state)) == sorted(full_deck(edition))
    assert [e["day"] for e in of_type(events, "day_end")] == [1, 2, 3]
    assert all(1 <= len(e["lot"]) <= 3 for e in of_type(events, "sold") + of_type(events, "unsold"))


def test_players_see_the_number_of_cards_left_but_not_the_bag() -> None:
    """DE: 'Es ist erlaubt, die noch im Stapel vorhandenen Karten zu zählen'. NL: 'De spelers mogen de
    goederenkaartjes in de buidel niet bekijken.' Set-aside cards are unseen too; the GM sees all."""
    state, _, _ = new_game(ABC, seed="view")
    view = R.view(state, "A")
    assert view["cards_left"] == 17
    assert "deck" not in view and "set_aside" not in view and "fixed_days" not in view
    gm = R.view(state, None)
    assert gm["deck"] == state["deck"] and gm["set_aside"] == state["set_aside"]
