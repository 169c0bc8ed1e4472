"""Rendering what a player reads, from his view alone (or the GM's view for the GM).

Templates live in templates/<ruleset>/ (report.txt.j2 and events.j2, whose `event` macro writes one
line per event) and templates/common/. Reports are plain text for email.
"""

from __future__ import annotations

import importlib.resources
from functools import cache
from typing import Any

import jinja2

from pbem.game import show
from pbem.rules.base import Event, Order, order_text

BEGIN = "----- pbem orders begin -----"
END = "----- pbem orders end -----"


def _load(name: str) -> str | None:
    res = importlib.resources.files("pbem.templates")
    for part in name.split("/"):
        res = res.joinpath(part)
    return res.read_text("utf-8") if res.is_file() else None


@cache
def env() -> jinja2.Environment:
    e = jinja2.Environment(loader=jinja2.FunctionLoader(_load), autoescape=False, keep_trailing_newline=True,
                           undefined=jinja2.StrictUndefined)
    return e


def visible(events: list[Event], player: str | None) -> list[Event]:
    """The events a player may read: public ones and those addressed to him (`to`)."""
    return [e for e in events if player is None or "to" not in e or player in e["to"]]


def event_lines(ruleset: str, events: list[Event]) -> list[str]:
    macro = env().get_template(f"{ruleset}/events.j2").module.event
    return [str(macro(e)).strip() + (f" [substitute move: {e['substitute']}]" if e.get("substitute") else "")
            for e in events]


def summarize_orders(orders: list[Order]) -> list[str]:
    """Legal orders in few words: `pass`, `bid: N (N from 5 to 32)`."""
    out: list[str] = []
    ranges: dict[str, list[int]] = {}
    places: dict[str, list[str]] = {}
    for o in orders:
        if isinstance(o, dict) and len(o) == 1 and isinstance(next(iter(o.values())), int):
            key, value = next(iter(o.items()))
            if key not in ranges:
                ranges[key] = []
                out.append(key)  # placeholder, filled in below
            ranges[key].append(value)
        elif isinstance(o, str) and " " in o:  # `palace grey C7`: grouped by all but the place
            key, _, where = o.rpartition(" ")
            if key not in places:
                places[key] = []
                out.append(key)
            places[key].append(where)
        else:
            out.append(order_text(o))
    for key, values in ranges.items():
        lo, hi = min(values), max(values)
        if lo == hi:
            text = f"{key}: {lo}"
        elif sorted(values) == list(range(lo, hi + 1)):
            text = f"{key}: N (N from {lo} to {hi})"
        else:
            text = f"{key}: N (N one of {' '.join(str(v) for v in sorted(values))})"
        out[out.index(key)] = text
    for key, wheres in places.items():
        text = f"{key} {wheres[0]}" if len(wheres) == 1 else f"{key} X (X one of {' '.join(wheres)})"
        out[out.index(key)] = text
    return out


def turn_file(state: dict[str, Any], player: str, legal: list[Order]) -> str:
    """A turn file ready to fill in, between the reply markers."""
    lines = [BEGIN, f"game: {state['game']}", f"player: {player}", "token: YOUR-TOKEN",
             f"turn: {state['engine']['turn']}", "orders:"]
    for choice in summarize_orders(legal):
        lines.append(f"  - {choice.split(' (')[0]}")
    lines.append(END)
    return "\n".join(lines)


def render_report(state: dict[str, Any], player: str | None, events: list[Event]) -> str:
    """A turn report: what happened (these events), the table, whose move, and the orders to send."""
    shown = show(state, player)
    legal = shown.get("legal_orders", [])
    context = dict(shown, player=player, events=visible(events, player),
                   order_choices=summarize_orders(legal),
                   turn_file=turn_file(state, player, legal) if player else "")
    if "result" not in context:
        context.update(result=None, seed=None)
    return env().get_template(f"{state['ruleset']}/report.txt.j2").render(context)


def render_error(state: dict[str, Any], player: str, turn: int, orders: list[Order], message: str) -> str:
    """The report a player gets when his orders are refused; only he receives it."""
    shown = show(state, player)
    return env().get_template("common/error.txt.j2").render(
        ruleset=state["ruleset"], game=state["game"], player=player, turn=turn,
        orders=[order_text(o) for o in orders], message=message, current_turn=shown["turn"],
        waiting_for=shown["waiting_for"],
        legal=summarize_orders(shown["legal_orders"]) if player in shown["waiting_for"] else [])

