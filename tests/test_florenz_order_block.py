"""Florenz's order blocks: its many hurries and travels come as their patterns, a line each."""

from __future__ import annotations

from pbem.report import summarize_orders
from test_order_block import blocks


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
