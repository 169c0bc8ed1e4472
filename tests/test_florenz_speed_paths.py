"""Florenz's fast paths give what the slow ones give: the bot's view is part of the full view and the bot
chooses alike from both, the legal orders are the contract's, two-member hurries are those the walk
allows, and the bot's worth of a move, hurry or send is the worth of the queues the walk or the
newcomer leaves. Behaviour only: nothing here is timed."""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

from pbem import bots
from pbem.rng import Rng
from pbem.rules.base import Ruleset
from pbem.rules.florenz import Florenz
from pbem.rules.florenz import actions as A
from pbem.rules.florenz.bot import Worth
from pbem.rules.florenz.orders import parse

GAME = Florenz()
GAMES = [(4, {}, "speed-4"), (2, {}, "speed-2"), (3, {}, "speed-3"), (5, {}, "speed-5"),
         (1, {"solo": "harder"}, "speed-h"), (1, {"solo": "easier"}, "speed-e"), (1, {"solo": "normal"}, "speed-n")]


def positions(players: int, options: dict[str, str], seed: str, by_bot: bool) -> Iterator[tuple[dict[str, Any], str]]:
    """Every decision of a whole game, played by the bots or by random legal orders: (state, who decides)."""
    rng = Rng(seed)
    pick = random.Random(seed)
    state, _ = GAME.setup([f"p{i}" for i in range(players)], GAME.check_options(options), rng)
    while (d := GAME.decision(state)) is not None:
        p = d.players[0]
        yield state, p
        legal = GAME.legal_orders(state, p)
        order = bots.choose("florenz", GAME.view(state, p), p, legal) if by_bot else pick.choice(legal)
        GAME.apply(state, p, order, rng)


def slow_hurry_pairs(state: dict[str, Any], family: str) -> list[tuple[A.Step, A.Step]]:
    """The two-member hurries as the rules read: each pair of steps tried in board order, then the
    other way round."""
    steps = A.member_steps(state, family)
    out = []
    for i, a in enumerate(steps):
        for b in steps[i + 1:]:
            if a[0] == b[0]:
                continue
            if A.steps_work(state, family, [a, b]):
                out.append((a, b))
            elif A.steps_work(state, family, [b, a]):
                out.append((b, a))
    return out


@pytest.mark.parametrize("players,options,seed", GAMES)
@pytest.mark.parametrize("by_bot", [True, False])
def test_fast_paths_match_slow_paths(players: int, options: dict[str, str], seed: str, by_bot: bool) -> None:
    for n, (state, p) in enumerate(positions(players, options, seed, by_bot)):
        legal = GAME.legal_orders(state, p)
        assert legal == Ruleset.legal_orders(GAME, state, p), (n, p)
        assert A.hurry_pairs(state, p) == slow_hurry_pairs(state, p), (n, p)
        view, bot_view = GAME.view(state, p), GAME.bot_view(state, p)
        assert all(key in view and view[key] == value for key, value in bot_view.items()), n
        assert bots.choose("florenz", bot_view, p, legal) == bots.choose("florenz", view, p, legal), n
        worth = Worth(bot_view, p)
        for order in legal:
            if order.split()[0] in ("move", "hurry"):
                o = parse(order)
                assert o is not None
                walked = A.simulate_moves(view, p, o)
                assert not isinstance(walked, str), order
                changed = {loc: q for loc, q in walked[0].items() if q is not view["queues"][loc]}
                assert worth.walk(order) == worth(changed), (n, order)
            elif order.startswith("send "):
                loc = order.split()[1]
                queues = dict(view["queues"])
                A.enter_queue(view, queues, loc, {"family": p, "rank": "debutant", "colour": ""})
                assert worth.sent(loc) == worth({loc: queues[loc]}), (n, order)


def test_bot_view_copies_the_state() -> None:
    """The bot's view is a copy: changing it leaves the state alone, and the state changing later leaves
    it alone."""
    state, _ = GAME.setup(["anna", "ben", "cara"], GAME.check_options({}), Rng("copy"))
    before = GAME.bot_view(state, "anna")
    view = GAME.bot_view(state, "anna")
    view["queues"]["1"].append({"family": "anna", "rank": "debutant", "colour": "blue"})
    view["guards"]["spy"]["1"].append({"family": "anna", "colour": "blue"})
    assert GAME.bot_view(state, "anna") == before
    first = GAME.decision(state).players[0]   # type: ignore[union-attr]
    GAME.apply(state, first, "place 1", Rng("p"))
    assert before["queues"]["1"] == []
