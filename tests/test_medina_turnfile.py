"""Medina's placements in a turn file: an order pattern is matched to the very end."""

from __future__ import annotations

import pytest

from test_turnfile import ENVELOPE, invalid, rejected


@pytest.mark.parametrize("order", ["start B2\n", "palace grey C7\n", "start B2 ", "wall N5\r"])
def test_a_trailing_newline_does_not_pass_an_order_pattern(order: str) -> None:
    """JSON Schema's `$` is ECMA's, which matches only at the very end (Python's also before a newline)."""
    data = ENVELOPE + f"turn: 1\norders:\n  - {order!r}\n".replace("'", '"').replace("\\\\", "\\")
    message = rejected(data, "medina.orders")
    assert message.startswith(invalid("line 6, orders[0]: is not a Medina placement; send one of: "))
