"""Florenz orders: one grammar for parsing the order strings (FLORENZ-PLAN.md §18).

`parse(text)` gives a plain dict `{"verb": ..., ...}` or None when the text has no known shape.
Positions stay as `L.N` strings; locations as "1".."9".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from pbem.rules.florenz.data import MEDICI

_POS = r"([1-9]\.[1-9][0-9]?)"
_LOC = r"([1-9])"
_MEDICI = "(" + "|".join(MEDICI) + ")"
_CREST = r"(escort [1-9]-[1-9]|spy [1-9]|doorman [1-9])"

SHAPES: list[tuple[str, re.Pattern[str], tuple[str, ...]]] = [
    ("place", re.compile(rf"^place {_LOC}$"), ("location",)),
    ("pass", re.compile(rf"^pass(?: {_LOC})?$"), ("location",)),
    ("send", re.compile(rf"^send {_LOC}$"), ("location",)),
    ("promote", re.compile(rf"^promote {_POS}$"), ("position",)),
    ("move", re.compile(rf"^move {_POS} to {_LOC}$"), ("position", "to")),
    ("hurry", re.compile(rf"^hurry {_POS} to {_LOC} to {_LOC}$"), ("position", "via", "to")),
    ("hurry", re.compile(rf"^hurry {_POS} to {_LOC} and {_POS} to {_LOC}$"),
     ("position", "to", "position2", "to2")),
    ("boast", re.compile(rf"^boast {_LOC}$"), ("location",)),
    ("gift", re.compile(rf"^gift {_MEDICI}(?: {_CREST})?$"), ("medici", "crest")),
    ("bonus", re.compile(r"^bonus (time|vp)$"), ("bonus",)),
    ("swap", re.compile(rf"^swap {_POS} with {_POS}$"), ("position", "position2")),
    ("accept", re.compile(r"^accept$"), ()),
    ("decline", re.compile(r"^decline$"), ()),
    ("discard", re.compile(r"^discard ([a-z]+-[a-z]+)$"), ("card",)),
    ("play", re.compile(r"^play ([a-z]+-[a-z]+)(?: .*)?$"), ("card",)),
    ("travel", re.compile(rf"^travel {_POS}((?: to [1-9]){{1,3}})$"), ("position", "steps")),
    ("done", re.compile(r"^done$"), ()),
    ("colour", re.compile(r"^colour ([a-z]+)$"), ("colour",)),
]


#: the shapes by an order's first word, which is its verb (every pattern starts `^verb`)
BY_WORD: dict[str, list[tuple[str, re.Pattern[str], tuple[str, ...]]]] = {}
for _shape in SHAPES:
    BY_WORD.setdefault(_shape[0], []).append(_shape)


def parse(order: Any) -> dict[str, Any] | None:
    """The order as `{"verb", ...fields}` (a new dict each time); None when it has no known shape."""
    if not isinstance(order, str):
        return None
    found = _parsed(order)
    return None if found is None else dict(found)


@lru_cache(maxsize=8192)
def _parsed(order: str) -> tuple[tuple[str, Any], ...] | None:
    """`parse` as (field, value) pairs, kept: a game asks about the same few hundred orders again and
    again (every legal list, every bot decision)."""
    text = " ".join(order.split())
    for verb, pattern, fields in BY_WORD.get(text.split(" ", 1)[0], ()):
        m = pattern.match(text)
        if m:
            return (("verb", verb), *zip(fields, m.groups()))
    return None


def crest_parts(crest: str) -> tuple[str, str]:
    """`escort 4-5` -> ("escort", "4-5"); `spy 7` -> ("spy", "7")."""
    kind, where = crest.split(" ")
    return kind, where


def split_position(position: str) -> tuple[str, int]:
    loc, n = position.split(".")
    return loc, int(n)
