"""Florenz display: what a report shows, derived from a player's view alone (FLORENZ-PLAN.md §19)."""

from __future__ import annotations

from typing import Any


def display(view: dict[str, Any], player: str | None) -> dict[str, Any]:
    """Display-ready data for the report template, computed from the (already filtered) view."""
    return {}
