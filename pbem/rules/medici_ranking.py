"""Medici's rankings: the shared ranking of the hold values and the paying places of a goods track,
each worked out once for a set of scores (the same few scores come round again and again)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any


def paying_places(scores: dict[str, int], payouts: list[int]) -> list[dict[str, Any]]:
    """The rows of `shared_ranking(scores, payouts)` that pay something, in its order: a goods track
    pays its first places only, so the ranking stops where the payouts end. Tied players keep their
    seats' order (the order of `scores`)."""
    seats = list(scores)
    return [{"player": seats[seat], "score": score, "place": place, "payout": payout}
            for seat, score, place, payout in places(tuple(scores.values()), tuple(payouts), True)]


def shared_places(scores: dict[str, int], payouts: tuple[int, ...]) -> list[dict[str, Any]]:
    """`shared_ranking(scores, payouts)` (of `pbem.rules.base`), worked out once for each set of scores."""
    seats = list(scores)
    return [{"player": seats[seat], "score": score, "place": place, "payout": payout}
            for seat, score, place, payout in places(tuple(scores.values()), payouts, False)]


@lru_cache(maxsize=8192)
def places(scores: tuple[int, ...], payouts: tuple[int, ...], paying: bool) -> tuple[tuple[int, int, int, int], ...]:
    """The rows of the shared ranking of the seats' scores, as (seat, score, place, payout): best
    first, tied seats in their order, pooling the payouts of the places they occupy. With `paying`,
    only the rows that pay."""
    ranked = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)  # stable: ties keep seats
    rows = []
    first = 0
    while first < len(ranked) and not (paying and first >= len(payouts)):
        score = scores[ranked[first]]
        last = first + 1
        while last < len(ranked) and scores[ranked[last]] == score:
            last += 1
        share = sum(payouts[first:last]) // (last - first)
        if share or not paying:
            rows += [(seat, score, first + 1, share) for seat in ranked[first:last]]
        first = last
    return tuple(rows)
