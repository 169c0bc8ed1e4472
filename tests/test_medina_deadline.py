"""Medina at a deadline: a game with no passive order, whose default policy lets the bot move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem import bots
from pbem.rules.base import order_text
from test_gm import Clock, Table, advance, clock, inbox, last_commit  # noqa: F401  (clock, inbox: the fixtures)


def test_medina_default_falls_back_to_the_bot(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, "--deadline", "1h", "--policy", "default", game="d1", ruleset="medina")
    who = t.waiting()
    seen = t.show(who)
    expected = bots.choose("medina", seen["view"], who, seen["legal_orders"])
    now = clock.at(1)
    lines = advance(pbem)
    assert len(lines) == 1 and lines[0].startswith(f"d1: substitute moves: {who} missed the deadline: "
                                                   f"{order_text(expected)} (")
    state = t.state()
    assert state["log"] == [{"turn": 1, "player": who, "order": expected, "received": now, "substitute": "bot"}]
    notice = f"{who} missed the deadline; the bot moves for this seat: {order_text(expected)}."
    assert f"] {notice}\n" in t.last_report(who)
    marked = [e for e in state["events"] if "substitute" in e]
    assert marked and all(e["substitute"] == "bot" for e in marked)
    message = last_commit(t.games)
    assert f"- {notice}\n" in message and " [substitute move: bot]\n" in message
    assert "[substitute move: default]" not in message
    t.verify()


def test_medina_fallback_is_reported_as_a_bot_move(pbem: Any, inbox: Path, clock: Clock) -> None:
    t = Table(pbem, inbox, "--deadline", "1h", "--policy", "default", game="d1", ruleset="medina")
    who = t.waiting()
    seen = t.show(who)
    expected = bots.choose("medina", seen["view"], who, seen["legal_orders"])
    clock.at(1)
    assert advance(pbem) == [f"d1: substitute moves: {who} missed the deadline: {order_text(expected)} (bot)"]
