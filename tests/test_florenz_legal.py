"""Florenz's fast `legal_orders`: at every decision of whole bot games it gives
exactly the list of the Ruleset contract, `candidate_orders` filtered by `why_illegal`, in the same
order; the cheap checks of moves and hurries agree with walking the members through the queues.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem import bots
from pbem.rng import Rng
from pbem.rules.base import Ruleset
from pbem.rules.florenz import Florenz
from pbem.rules.florenz import actions as A

GAME = Florenz()


def contract_legal(state: dict[str, Any], player: str) -> list[str]:
    return Ruleset.legal_orders(GAME, state, player)


@pytest.mark.parametrize("players,options,seed", [
    (2, {}, "legal-2"), (3, {}, "legal-3"), (4, {}, "legal-4"), (5, {}, "legal-5"),
    (1, {"solo": "harder"}, "legal-h"), (1, {"solo": "easier"}, "legal-e"),
])
def test_fast_legal_orders_match_the_contract(players: int, options: dict[str, str], seed: str) -> None:
    rng = Rng(seed)
    state, _ = GAME.setup([f"p{i}" for i in range(players)], GAME.check_options(options), rng)
    decisions = 0
    while (d := GAME.decision(state)) is not None:
        p = d.players[0]
        legal = GAME.legal_orders(state, p)
        assert legal == contract_legal(state, p), (decisions, p)
        GAME.apply(state, p, bots.choose("florenz", GAME.view(state, p), p, legal), rng)
        decisions += 1


def test_harder_solo_paths_and_full_queues() -> None:
    """A crowded position: full queues, a Strozzi guard on a path in the harder game, members of the
    player on both sides; every move and hurry candidate is judged alike by counting and by walking."""
    state, _ = GAME.setup(["anna"], {"solo": "harder"}, Rng("crowd"))
    GAME.apply(state, "anna", "place 5", Rng("p"))
    q = state["queues"]
    me = {"family": "anna", "rank": "debutant", "colour": "violet"}
    him = {"family": "Strozzi", "rank": "debutant", "colour": "orange"}
    q["1"], q["4"] = [dict(me)], [dict(me)]
    q["2"], q["5"] = [dict(him) for _ in range(3)] + [dict(me)], [dict(me), dict(him)]
    state["guards"]["escort"]["1-4"].append({"family": "Strozzi", "colour": "orange"})
    state["on_turn"], state["passed"] = "anna", []
    for text, o in A.action_candidates(state, "anna"):
        if o["verb"] in ("move", "hurry"):
            assert A.action_allowed(state, "anna", o) == (GAME.why_illegal(state, "anna", text) is None), text
    assert GAME.legal_orders(state, "anna") == contract_legal(state, "anna")
    steps = A.member_steps(state, "anna")
    for a in steps:
        for b in steps:
            if a[0] != b[0]:
                walked = A.simulate_steps(state, "anna", [(a[0], [a[1]]), (b[0], [b[1]])])
                assert A.steps_work(state, "anna", [a, b]) == (not isinstance(walked, str)), (a, b)
