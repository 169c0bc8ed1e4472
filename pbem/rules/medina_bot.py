"""The Medina bot: claims big palaces, builds onto them, runs the street and walls past them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, filterfalse
from operator import itemgetter
from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order


@dataclass(frozen=True, eq=False)  # one per board (see `_layout`): known by identity
class Layout:
    """Where things lie on the grid (which has the wall ring around the city) read row after row as one
    list of cells. The same for every game on a board of that size and those colours."""

    beside: dict[str, itemgetter[tuple[str, ...]]]  # square -> a getter of the cells west, east, north, south
    inside: dict[str, int]                          # wall segment -> the cell of the square inside it
    palaces_beside: dict[int, tuple[Order, ...]]    # a square's cell -> the palace orders onto squares beside it
    palace_orders: frozenset[Order]                 # every palace order


@cache
def _layout(letters: str, grid_rows: int, colours: tuple[str, ...]) -> Layout:
    """The layout of a grid of `grid_rows` rows for a city whose columns are `letters`."""
    width, rows = len(letters) + 2, grid_rows - 2

    def cell(col: int, row: int) -> int:
        return row * width + col + 1

    def near(col: int, row: int) -> list[tuple[int, int]]:
        return [(col + dc, row + dr) for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= col + dc < len(letters) and 1 <= row + dr <= rows]

    def palaces(col: int, row: int) -> list[Order]:
        return [f"palace {colour} {letters[col]}{row}" for colour in colours]

    squares = [(col, row) for col in range(len(letters)) for row in range(1, rows + 1)]
    beside = {f"{letters[col]}{row}": itemgetter(*[cell(*n) for n in near(col, row)])  # 2 to 4 cells: a tuple
              for col, row in squares}
    inside: dict[str, int] = {}
    for pos in range(1, len(letters) + 1):
        inside[f"N{pos}"], inside[f"S{pos}"] = cell(pos - 1, 1), cell(pos - 1, rows)
    for pos in range(1, rows + 1):
        inside[f"W{pos}"], inside[f"E{pos}"] = cell(0, pos), cell(len(letters) - 1, pos)
    palaces_beside = {cell(col, row): tuple(chain.from_iterable(palaces(*n) for n in near(col, row)))
                      for col, row in squares}
    palace_orders = frozenset(chain.from_iterable(palaces(col, row) for col, row in squares))
    return Layout(beside, inside, palaces_beside, palace_orders)


class _Words(dict[str, tuple[str, str, str]]):
    """An order -> (kind, colour or "", square or wall segment), read once per order text."""

    def __missing__(self, order: str) -> tuple[str, str, str]:
        kind, *colour, where = order.split()
        words = self[order] = (kind, colour[0] if colour else "", where)
        return words


WORDS = _Words()
PALACE_LETTERS = frozenset("gkbosGKBOS")  # the first letter of a palace piece or a stable on the grid
MERCHANT_MARKS = ("MM", "mm")  # a merchant of the current street, and of an older one
CELL_SEPARATOR = "|"  # cells joined by it, so that a mark is found only within a cell
#: blots out every character but a merchant mark's: what is left of the grid changes only with the merchants
ONLY_MERCHANTS = str.maketrans({chr(c): "." for c in range(128) if chr(c) not in "".join(MERCHANT_MARKS)})


def _merchant_cells(text: str) -> list[int]:
    """The cells holding a merchant, in the cells of a grid joined by CELL_SEPARATOR."""
    step = len(MERCHANT_MARKS[0]) + len(CELL_SEPARATOR)
    found: list[int] = []
    for mark in MERCHANT_MARKS:
        at = text.find(mark)
        while at >= 0:
            found.append(at // step)
            at = text.find(mark, at + step)
    return found


@lru_cache(maxsize=256)
def _palaces_beside_merchants(layout: Layout, merchants: str) -> frozenset[Order]:
    """The palace orders onto squares beside a merchant, from the grid's cells joined and blotted out but
    for the merchants (the same for many turns: kept)."""
    return frozenset(chain.from_iterable(map(layout.palaces_beside.__getitem__, _merchant_cells(merchants))))


@bot("medina")
def medina_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """Claims big palaces, builds onto them, runs the street and walls past its own palaces."""
    grid = view["grid"]
    letters = view["letters"]
    players = view["players"]
    seat = str(next(p["seat"] for p in players if p["name"] == me))
    mine = {f"{letter}{seat}" for letter in "GKBOS"}  # my claimed palace pieces and stables on the grid
    layout = _layout(letters, len(grid), tuple(players[0]["supply"]["palace"]))
    beside, inside = layout.beside, layout.inside
    cells = list(chain.from_iterable(grid))
    mood = temperament(me)
    palace = 3 + mood  # a palace piece, and half a point for each merchant beside it

    def score(kind: str, colour: str, where: str) -> float:
        """The score of a placement (palace pieces beside no merchant are scored below, all at once)."""
        if kind == "roof":
            size = next(p["size"] for p in view["palaces"] if p["at"] == where or p["colour"] == colour and p["owner"] is None)
            return size * (1.5 + mood) + (6 if size >= 3 + 2 * mood else -5)
        if kind == "wall":
            mark = cells[inside[where]]
            return 4 if mark[1] == seat else 1 if mark != ".." else 0.5
        if kind == "start":
            return -abs(letters.index(where[0]) - len(letters) / 2) - abs(int(where[1:]) - 6)
        near = beside[where](cells)
        if kind == "palace":
            return palace + 0.5 * (near.count("MM") + near.count("mm"))
        if kind == "stable":
            return 2 + 3 * sum(map(mine.__contains__, near))
        return 1 + 2 * sum(map(mine.__contains__, near)) + sum(0.5 for n in near if n[0] in PALACE_LETTERS)

    # Palace pieces are most of the legal orders by far, and most touch no merchant: all of those score
    # `palace`, and are weighed as one lot instead of one by one.
    palaces = layout.palace_orders.intersection(legal)
    scores = {order: score(*WORDS[order]) for order in filterfalse(palaces.__contains__, legal)}
    merchants = CELL_SEPARATOR.join(cells).translate(ONLY_MERCHANTS)
    beside_merchants = palaces.intersection(_palaces_beside_merchants(layout, merchants))
    for order in beside_merchants:
        scores[order] = score(*WORDS[order])
    plain = len(palaces) > len(beside_merchants)  # a palace piece beside no merchant is legal
    best = max(scores.values(), default=palace)
    if plain and palace > best:
        best = palace
    # ties broken by the order's text: the first a sort by (-score, text) would give
    tied = [order for order, value in scores.items() if value == best]
    if plain and palace == best:
        tied.append(min(palaces.difference(beside_merchants)))
    return min(tied)


# -- Florenz ------------------------------------------------------------------------------------------
