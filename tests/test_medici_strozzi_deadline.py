"""Medici vs Strozzi at a deadline: the default policy's passive order at each decision."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.rules.medici_strozzi import DATA as STROZZI
from test_gm import Clock, Table, advance, clock, inbox  # noqa: F401  (clock, inbox: the fixtures)


def test_default_policy_in_medici_vs_strozzi(pbem: Any, inbox: Path, clock: Clock) -> None:
    """The drawer asks the lot's face value, the other declines, the buyer throws the lot overboard."""
    t = Table(pbem, inbox, "--deadline", "1h", "--policy", "default", game="s1", ruleset="medici-strozzi",
              players=("anna", "ben"))
    view = t.show("anna")["view"]
    assert t.waiting() == "anna" and view["phase"] == "draw"
    price = min(STROZZI["max_price"], view["lot_value"])
    clock.at(1)
    assert advance(pbem) == [f"s1: substitute moves: anna missed the deadline: price: {price} (default)"]
    clock.at(2)
    assert advance(pbem) == ["s1: substitute moves: ben missed the deadline: decline (default)"]
    clock.at(3)
    assert advance(pbem) == ["s1: substitute moves: anna missed the deadline: discard (default)"]
    log = t.state()["log"]
    assert [(e["player"], e["order"], e["substitute"]) for e in log] == [
        ("anna", {"price": price}, "default"), ("ben", "decline", "default"), ("anna", "discard", "default")]
    t.verify()
