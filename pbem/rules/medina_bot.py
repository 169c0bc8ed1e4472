"""The Medina bot: claims big palaces, builds onto them, runs the street and walls past them."""

from __future__ import annotations

from functools import cache
from itertools import chain, compress, repeat
from operator import eq, itemgetter
from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order


@cache
def _layout(letters: str, grid_rows: int) -> tuple[dict[str, itemgetter[tuple[str, ...]]], dict[str, int]]:
    """Where things lie on the grid (which has the wall ring around the city) read row after row as one
    list: a getter of the cells west, east, north and south of each square, and the cell of the square
    inside each wall segment. The same for every game on a board of that size."""
    width, rows = len(letters) + 2, grid_rows - 2

    def cell(col: int, row: int) -> int:
        return row * width + col + 1

    beside = {f"{letter}{row}": itemgetter(*[cell(col + dc, row + dr) for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1))
                                             if 0 <= col + dc < len(letters) and 1 <= row + dr <= rows])
              for col, letter in enumerate(letters) for row in range(1, rows + 1)}  # 2 to 4 cells: a tuple
    inside: dict[str, int] = {}
    for pos in range(1, len(letters) + 1):
        inside[f"N{pos}"], inside[f"S{pos}"] = cell(pos - 1, 1), cell(pos - 1, rows)
    for pos in range(1, rows + 1):
        inside[f"W{pos}"], inside[f"E{pos}"] = cell(0, pos), cell(len(letters) - 1, pos)
    return beside, inside


class _ScoreKeys(dict[str, str]):
    """An order -> what its score depends on: a palace piece's square, not its colour ("palace grey C7"
    -> "palace C7"), so that a square is scored once; any other order is its own key. Filled as orders
    are first seen, as is KEY_WORDS."""

    def __missing__(self, order: str) -> str:
        kind, *colour, where = order.split()
        key = self[order] = f"palace {where}" if kind == "palace" else order
        KEY_WORDS[key] = (kind, colour[0] if kind == "roof" else "", where)
        return key


SCORE_KEYS = _ScoreKeys()
KEY_WORDS: dict[str, tuple[str, str, str]] = {}  # a key -> (kind, colour of a roof or "", square or wall)
PALACE_LETTERS = frozenset("gkbosGKBOS")  # the first letter of a palace piece or a stable on the grid


@bot("medina")
def medina_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """Claims big palaces, builds onto them, runs the street and walls past its own palaces."""
    grid = view["grid"]
    letters = view["letters"]
    seat = str(next(p["seat"] for p in view["players"] if p["name"] == me))
    mine = {f"{letter}{seat}" for letter in "GKBOS"}  # my claimed palace pieces and stables on the grid
    beside, inside = _layout(letters, len(grid))
    cells = list(chain.from_iterable(grid))
    mood = temperament(me)

    def score(kind: str, colour: str, where: str) -> float:
        """The score of any placement but a palace piece (scored below, as there are many)."""
        if kind == "roof":
            size = next(p["size"] for p in view["palaces"] if p["at"] == where or p["colour"] == colour and p["owner"] is None)
            return size * (1.5 + mood) + (6 if size >= 3 + 2 * mood else -5)
        if kind == "wall":
            mark = cells[inside[where]]
            return 4 if mark[1] == seat else 1 if mark != ".." else 0.5
        if kind == "start":
            return -abs(letters.index(where[0]) - len(letters) / 2) - abs(int(where[1:]) - 6)
        near = beside[where](cells)
        if kind == "stable":
            return 2 + 3 * sum(map(mine.__contains__, near))
        return 1 + 2 * sum(map(mine.__contains__, near)) + sum(0.5 for n in near if n[0] in PALACE_LETTERS)

    keys = list(map(SCORE_KEYS.__getitem__, legal))
    scores: dict[str, float] = {}
    palace = 3 + mood  # and half a point for each merchant beside it
    for key in dict.fromkeys(keys):
        kind, colour, where = KEY_WORDS[key]
        if kind == "palace":  # the most common by far: scored here, without a call
            near = beside[where](cells)
            scores[key] = palace + 0.5 * (near.count("MM") + near.count("mm"))
        else:
            scores[key] = score(kind, colour, where)
    values = list(map(scores.__getitem__, keys))
    best = max(values)
    # ties broken by the order's text: the first a sort by (-score, text) would give
    return min(compress(legal, map(eq, values, repeat(best))))


# -- Florenz ------------------------------------------------------------------------------------------
