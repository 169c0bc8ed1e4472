"""Whist's own rules: following suit, trump, who takes a trick and leads the next, the hands kept
secret, the deals, and the standings' tie-break."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import IllegalOrder, SetupError
from pbem.rng import Rng
from pbem.rules.base import get_ruleset

RULES = get_ruleset("whist")
PLAYERS = ["anna", "ben", "cleo"]
# anna deals the first deal, one card at a time from ben: ben AH KH QS, cleo 7H 8H 8S, anna 8C 9D 9S;
# then 10D is turned up: diamonds are trump
FIRST = ["AH", "7H", "8C", "KH", "8H", "9D", "QS", "8S", "9S", "10D"]


def game(deals: list[list[str]] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]], Rng]:
    rng = Rng("whist-rules-seed-0001")
    options = RULES.check_options({"hand": "3"})
    deck = RULES.check_deck({"deals": deals or [FIRST]}, PLAYERS, options)
    state, events = RULES.setup(PLAYERS, options, rng, deck)
    return state, events, rng


def play(state: dict[str, Any], rng: Rng, player: str, card: str) -> list[dict[str, Any]]:
    return RULES.apply(state, player, {"play": card}, rng)


def refused(state: dict[str, Any], player: str, card: str) -> str:
    with pytest.raises(IllegalOrder) as caught:
        RULES.apply(state, player, {"play": card}, Rng("unused-seed-00000"))
    return caught.value.args[0].msg


def test_the_deal_gives_each_his_hand_alone_and_turns_up_trump() -> None:
    state, events, _ = game()
    assert events[0] == {"type": "deal", "deal": 1, "dealer": "anna", "trump": "10D"}
    hands = {e["player"]: e for e in events if e["type"] == "hand"}
    assert {p: (e["to"], sorted(e["cards"])) for p, e in hands.items()} == {
        "anna": (["anna"], ["8C", "9D", "9S"]), "ben": (["ben"], ["AH", "KH", "QS"]),
        "cleo": (["cleo"], ["7H", "8H", "8S"])}
    assert RULES.decision(state) == (("ben",), "lead", False)
    seen = RULES.view(state, "cleo")
    assert seen["hand"] == ["8H", "7H", "8S"] and "hands" not in seen and "stock" not in seen
    assert seen["held"] == {"anna": 3, "ben": 3, "cleo": 3} and seen["trump"] == "D"
    assert "hand" not in RULES.view(state, "") and len(RULES.view(state, None)["stock"]) == 32 - 10


def test_a_player_follows_suit_if_he_can_and_trump_takes_the_trick() -> None:
    state, _, rng = game()
    assert refused(state, "cleo", "7H") == "not-your-decision"
    assert refused(state, "ben", "9S") == "not-held"
    play(state, rng, "ben", "AH")
    assert RULES.decision(state) == (("cleo",), "follow", False)
    assert refused(state, "cleo", "8S") == "must-follow"
    assert RULES.legal_orders(state, "cleo") == [{"play": "8H"}, {"play": "7H"}]
    play(state, rng, "cleo", "7H")
    assert len(RULES.legal_orders(state, "anna")) == 3  # no heart: any card
    events = play(state, rng, "anna", "9D")
    assert events[-1] == {"type": "trick", "taker": "anna", "cards": ["AH", "7H", "9D"]}
    assert RULES.decision(state) == (("anna",), "lead", False) and state["turn"] == 4


def test_the_highest_of_the_suit_led_takes_a_trick_without_trump_and_the_deal_goes_on() -> None:
    state, _, rng = game()
    for player, card in [("ben", "AH"), ("cleo", "7H"), ("anna", "9D"), ("anna", "9S"), ("ben", "QS"),
                         ("cleo", "8S"), ("ben", "KH"), ("cleo", "8H")]:
        play(state, rng, player, card)
    events = play(state, rng, "anna", "8C")  # a club on hearts takes nothing
    assert [e["type"] for e in events] == ["play", "trick", "deal_end", "deal", "hand", "hand", "hand"]
    assert events[2] == {"type": "deal_end", "deal": 1, "tricks": {"anna": 1, "ben": 2, "cleo": 0},
                         "winner": "ben"}
    assert events[3]["dealer"] == "ben" and RULES.decision(state) == (("cleo",), "lead", False)
    assert state["points"] == {"anna": 1, "ben": 2, "cleo": 0} and state["deals_won"]["ben"] == 1


def test_a_whole_game_ends_after_each_has_dealt_once() -> None:
    state, _, rng = game()
    turns = 0
    while (decision := RULES.decision(state)) is not None:
        player = decision.players[0]
        events = RULES.apply(state, player, RULES.legal_orders(state, player)[0], rng)
        turns += 1
    assert turns == 3 * 3 * 3 and state["turn"] == turns + 1
    assert events[-1]["type"] == "game_end" and events[-1]["standings"] == RULES.result(state)
    assert sum(r["score"] for r in RULES.result(state)) == 9


def test_equal_points_are_parted_by_deals_won_then_tricks_of_the_last_deal() -> None:
    state, _, _ = game()
    state.update(points={"anna": 4, "ben": 4, "cleo": 1}, deals_won={"anna": 0, "ben": 1, "cleo": 1},
                 tricks={"anna": 2, "ben": 0, "cleo": 1})
    assert [(r["player"], r["rank"]) for r in RULES.result(state)] == [("ben", 1), ("anna", 2), ("cleo", 3)]
    state["deals_won"]["anna"] = 1
    assert [(r["player"], r["rank"]) for r in RULES.result(state)] == [("anna", 1), ("ben", 2), ("cleo", 3)]
    state["tricks"]["ben"] = 2
    assert [(r["player"], r["rank"]) for r in RULES.result(state)] == [("anna", 1), ("ben", 1), ("cleo", 3)]


def test_a_deck_file_names_cards_of_the_deck_once() -> None:
    options = RULES.check_options({})
    with pytest.raises(SetupError, match="'1H' is not a card of the deck"):
        RULES.check_deck({"deals": [["1H"]]}, PLAYERS, options)
    with pytest.raises(SetupError, match="lists 'AS' 2 times"):
        RULES.check_deck({"deals": [["AS", "AS"]]}, PLAYERS, options)
    with pytest.raises(SetupError, match="one key, 'deals'"):
        RULES.check_deck({"cards": []}, PLAYERS, options)
