"""The order block of a report (the turn file to send back) stays short enough to read and edit on a
phone: orders of a kind with many choices are offered as the kind's pattern, which the report explains."""

from __future__ import annotations

import pytest

from pbem import bots
from pbem.report import BEGIN, END, summarize_orders, turn_file
from pbem.rng import Rng
from pbem.rules.base import get_ruleset

GAMES = [("medici", 5, {}), ("medici-strozzi", 2, {}), ("medina", 4, {}), ("florenz", 5, {}),
         ("florenz", 3, {}), ("florenz", 1, {"solo": "harder"})]
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


@pytest.mark.parametrize("ruleset, n, options", GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_an_order_block_offers_at_most_a_screenful_of_choices(ruleset: str, n: int, options: dict[str, str]) -> None:
    longest = 0
    for block, legal in blocks(ruleset, n, options, f"order-block-{ruleset}-{n}-seed"):
        lines = block.splitlines()
        assert lines[0] == BEGIN and lines[-1] == END
        choices = [line for line in lines if line.startswith("#  - ")]
        assert choices and all(len(line) <= 72 for line in lines)
        longest = max(longest, len(choices))
        assert len(choices) <= MOST, "\n".join(lines)
    assert longest >= 2


def test_many_florenz_hurries_and_travels_come_as_their_patterns() -> None:
    seen: set[str] = set()
    for block, legal in blocks("florenz", 5, {}, "tf-seed-5-abcdefghijk"):
        short = summarize_orders(legal)  # `move 4.2 to X (X one of 1 5)`: a line of the block each
        if sum(1 for c in short if c.startswith("hurry ") and " and " in c) > 4:
            assert "#  - hurry L.P to M and K.Q to N" in block.splitlines()
            assert not any(line.startswith("#  - hurry ") and " and " in line and "K.Q" not in line
                           for line in block.splitlines())
            seen.add("pairs")
        if sum(1 for c in short if c.startswith("play figliolo-travel")) > 4:
            assert "#  - play figliolo-travel L.P to A [to B [to C]]" in block.splitlines()
            seen.add("travel")
    assert seen == {"pairs", "travel"}
