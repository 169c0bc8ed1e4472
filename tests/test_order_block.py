"""The order block of a report (the turn file to send back) stays short enough to read and edit on a
phone: orders of a kind with many choices are offered as the kind's pattern, which the report explains."""

from __future__ import annotations

import pytest

from pbem import bots
from pbem.report import BEGIN, END, turn_file
from pbem.rng import Rng
from pbem.rules.base import get_ruleset
from rooms import GAMES, room



def largest_and_usual_tables() -> list[tuple[str, int, dict[str, str]]]:
    """Each game at its most players (the most choices in a block), and at each of its room's tables."""
    out = []
    for game in GAMES:
        for n, options in [(get_ruleset(game).max_players, {}), *room(game).TABLES]:
            if (game, n, options) not in out:
                out.append((game, n, options))
    return out


TABLES = largest_and_usual_tables()
MOST = 24  # choices in one block


def blocks(ruleset: str, n: int, options: dict[str, str], seed: str):
    """Every order block of a whole bot game, with the legal orders it was made from."""
    rules = get_ruleset(ruleset)
    rng = Rng(seed)
    state, _ = rules.setup([f"p{i}" for i in range(n)], rules.check_options(options), rng)
    while (decision := rules.decision(state)) is not None:
        p = decision.players[0]
        legal = rules.legal_orders(state, p)
        yield turn_file({"game": "g1", "ruleset": ruleset, "engine": state}, p, legal), legal
        rules.apply(state, p, bots.choose(ruleset, rules.view(state, p), p, legal), rng)


@pytest.mark.parametrize("ruleset, n, options", TABLES, ids=[f"{g[0]}-{g[1]}" for g in TABLES])
def test_an_order_block_offers_at_most_a_screenful_of_choices(ruleset: str, n: int, options: dict[str, str]) -> None:
    longest = 0
    kinds: set[str] = set()  # the kinds of order met (`bid`, `pass`...)
    for block, legal in blocks(ruleset, n, options, f"order-block-{ruleset}-{n}-seed"):
        kinds.update(next(iter(o)) if isinstance(o, dict) else str(o).split()[0] for o in legal)
        lines = block.splitlines()
        assert lines[0] == BEGIN and lines[-1] == END
        choices = [line for line in lines if line.startswith("#  - ")]
        assert choices and all(len(line) <= 72 for line in lines)
        longest = max(longest, len(choices))
        assert len(choices) <= MOST, "\n".join(lines)
    assert longest >= min(2, len(kinds))  # a game of one kind of order lists it once
