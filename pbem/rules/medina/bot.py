"""The Medina bot: claims big palaces, builds onto them, runs the street and walls past them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, filterfalse
from math import inf
from operator import itemgetter
from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order


@dataclass(frozen=True, eq=False)  # one per board (see `_layout`): known by identity
class Layout:
    """Where things lie in the grid's text: the grid (which has the wall ring around the city) read row
    after row, every cell two characters, joined into one string (cell i at `text[2 * i:2 * i + 2]`). The
    same for every game on a board of that size and those colours."""

    cells: int                                      # how many cells the grid has
    #: square -> a getter of the first characters of the cells west, east, north, south of it (2 to 4: a tuple)
    firsts: dict[str, itemgetter[tuple[str, ...]]]
    #: square -> a getter of their second characters (a claimed piece's seat)
    seconds: dict[str, itemgetter[tuple[str, ...]]]
    inside: dict[str, int]                          # wall segment -> where the cell of the square inside starts
    palaces_beside: dict[int, tuple[Order, ...]]    # a square's cell -> the palace orders onto squares beside it
    palace_orders: frozenset[Order]                 # every palace order
    other_orders: frozenset[Order]                  # every other order: start, stable, merchant, wall, roof
    #: each other order -> its kind and what scores it: a wall's `inside`; a stable's `seconds`; a merchant's
    #: `firsts` and `seconds`; a roof's colour and square; a start's score (the nearer the middle, the better)
    plan: dict[Order, tuple[str, Any, Any]]


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
    names = [f"{letters[col]}{row}" for col, row in squares]
    walls = [f"{side}{pos}" for side, length in (("N", len(letters)), ("S", len(letters)), ("W", rows), ("E", rows))
             for pos in range(1, length + 1)]
    inside: dict[str, int] = {}
    for pos in range(1, len(letters) + 1):
        inside[f"N{pos}"], inside[f"S{pos}"] = 2 * cell(pos - 1, 1), 2 * cell(pos - 1, rows)
    for pos in range(1, rows + 1):
        inside[f"W{pos}"], inside[f"E{pos}"] = 2 * cell(0, pos), 2 * cell(len(letters) - 1, pos)
    firsts = {f"{letters[col]}{row}": itemgetter(*[2 * cell(*n) for n in near(col, row)]) for col, row in squares}
    seconds = {f"{letters[col]}{row}": itemgetter(*[2 * cell(*n) + 1 for n in near(col, row)]) for col, row in squares}
    plan: dict[Order, tuple[str, Any, Any]] = {}
    for (col, row), name in zip(squares, names):
        plan[f"start {name}"] = ("start", -abs(col - len(letters) / 2) - abs(row - 6), None)
        plan[f"stable {name}"] = ("stable", seconds[name], None)
        plan[f"merchant {name}"] = ("merchant", firsts[name], seconds[name])
        plan.update({f"roof {colour} {name}": ("roof", colour, name) for colour in colours})
    plan.update({f"wall {wall}": ("wall", inside[wall], None) for wall in walls})
    return Layout(
        cells=width * grid_rows,
        firsts=firsts,
        seconds=seconds,
        inside=inside,
        palaces_beside={cell(col, row): tuple(chain.from_iterable(palaces(*n) for n in near(col, row)))
                        for col, row in squares},
        palace_orders=frozenset(chain.from_iterable(palaces(col, row) for col, row in squares)),
        other_orders=frozenset(plan),
        plan=plan)


class _Words(dict[str, tuple[str, str, str]]):
    """An order -> (kind, colour or "", square or wall segment), read once per order text."""

    def __missing__(self, order: str) -> tuple[str, str, str]:
        kind, *colour, where = order.split()
        words = self[order] = (kind, colour[0] if colour else "", where)
        return words


WORDS = _Words()
PALACE_LETTERS = frozenset("gkbosGKBOS")  # the first letter of a palace piece or a stable on the grid
MERCHANT_MARKS = (b"MM", b"mm")  # a merchant of the current street, and of an older one
#: blots out every character but a merchant mark's: what is left of the grid changes only with the merchants
ONLY_MERCHANTS = bytes(c if c in b"".join(MERCHANT_MARKS) else ord(".") for c in range(256))


@lru_cache(maxsize=256)
def _palaces_beside_merchants(layout: Layout, merchants: bytes) -> frozenset[Order]:
    """The palace orders onto squares beside a merchant, from the grid's text blotted out but for the
    merchants (the same for many turns: kept)."""
    cells: list[int] = []
    for mark in MERCHANT_MARKS:
        at = merchants.find(mark)
        while at >= 0:
            if at % 2:  # across two cells: look on from the next cell
                at = merchants.find(mark, at + 1)
                continue
            cells.append(at // 2)
            at = merchants.find(mark, at + 2)
    return frozenset(chain.from_iterable(map(layout.palaces_beside.__getitem__, cells)))


@cache
def _mood(me: str) -> float:
    """A player's temperament, asked for once."""
    return temperament(me)


@bot("medina")
def medina_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """Claims big palaces, builds onto them, runs the street and walls past its own palaces.

    Every order is scored and the best taken, ties broken by the order's text. Palace pieces are most of
    the legal orders by far, and most touch no merchant: all of those score `palace`, and are weighed as
    one lot instead of one by one (`legal` holds no order twice, as the rules give it)."""
    grid = view["grid"]
    players = view["players"]
    for p in players:
        if p["name"] == me:
            seat = str(p["seat"])  # my claimed palace pieces and stables show it: `G2`, `S2`
            break
    layout = _layout(view["letters"], len(grid), tuple(players[0]["supply"]["palace"]))
    text = "".join(map("".join, grid))
    if len(text) != 2 * layout.cells:
        raise ValueError("a Medina grid has cells of two characters")
    # the cells beside a square are read by their first characters (`M`, `m`: a merchant; a palace letter: a
    # palace piece or a stable) and their second (my seat: a piece of mine; no other cell of a square has a digit)
    mood = _mood(me)
    palace = 3 + mood  # a palace piece, and half a point for each merchant beside it

    others = layout.other_orders.intersection(legal)
    merchants = text.encode().translate(ONLY_MERCHANTS)
    beside_merchants = _palaces_beside_merchants(layout, merchants)
    # seldom any is legal: looking for one is cheaper than gathering none
    beside_merchants = frozenset() if beside_merchants.isdisjoint(legal) else beside_merchants.intersection(legal)
    plain = len(legal) - len(others) > len(beside_merchants)  # a palace piece beside no merchant is legal
    best: float = palace if plain else -inf  # the best score so far
    tied: list[Order] = []  # the orders scored so far that score it
    plan = layout.plan
    for order in others:
        kind, how, more = plan[order]
        if kind == "wall":
            mark = text[how:how + 2]  # the square inside
            value = 4 if mark[1] == seat else 1 if mark != ".." else 0.5
        elif kind == "stable":
            value = 2 + 3 * how(text).count(seat)
        elif kind == "merchant":
            value = 1 + 2 * more(text).count(seat) + 0.5 * sum(map(PALACE_LETTERS.__contains__, how(text)))
        elif kind == "roof":
            for p in view["palaces"]:  # the palace at the square (or before it, an unclaimed one of its colour)
                if p["at"] == more or p["colour"] == how and p["owner"] is None:
                    size = p["size"]
                    break
            else:
                raise ValueError(f"no {how} palace to roof at {more}")
            value = size * (1.5 + mood) + (6 if size >= 3 + 2 * mood else -5)
        else:
            value = how
        if value >= best:
            if value > best:
                best, tied = value, [order]
            else:
                tied.append(order)
    for order in beside_merchants:
        near = layout.firsts[WORDS[order][2]](text)
        value = palace + 0.5 * (near.count("M") + near.count("m"))
        if value >= best:
            if value > best:
                best, tied = value, [order]
            else:
                tied.append(order)
    if plain and best == palace:  # every palace order left ties (none beside a merchant: those score more)
        least = min(legal)  # a palace order unless a merchant is legal ("merchant" < "palace" < the rest)
        tied.append(least if least not in others else min(filterfalse(others.__contains__, legal)))
    return min(tied)


# -- Florenz ------------------------------------------------------------------------------------------
