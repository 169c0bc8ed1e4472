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
    start_score: dict[str, float]                   # square -> the score of starting the street there


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
    others = [*(f"{kind} {name}" for kind in ("start", "stable", "merchant") for name in names),
              *(f"wall {wall}" for wall in walls),
              *(f"roof {colour} {name}" for colour in colours for name in names)]
    return Layout(
        cells=width * grid_rows,
        firsts={f"{letters[col]}{row}": itemgetter(*[2 * cell(*n) for n in near(col, row)]) for col, row in squares},
        seconds={f"{letters[col]}{row}": itemgetter(*[2 * cell(*n) + 1 for n in near(col, row)]) for col, row in squares},
        inside=inside,
        palaces_beside={cell(col, row): tuple(chain.from_iterable(palaces(*n) for n in near(col, row)))
                        for col, row in squares},
        palace_orders=frozenset(chain.from_iterable(palaces(col, row) for col, row in squares)),
        other_orders=frozenset(others),
        start_score={f"{letters[col]}{row}": -abs(col - len(letters) / 2) - abs(row - 6) for col, row in squares})


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
    # the cells beside a square, by their first characters (`M`, `m`: a merchant; a palace letter: a palace
    # piece or a stable) and their second (my seat: a piece of mine; no other cell of a square has a digit)
    firsts, seconds, mood = layout.firsts, layout.seconds, _mood(me)
    palace = 3 + mood  # a palace piece, and half a point for each merchant beside it

    others = layout.other_orders.intersection(legal)
    scores: dict[Order, float] = {}
    for order in others:
        kind, colour, where = WORDS[order]
        if kind == "wall":
            at = layout.inside[where]
            mark = text[at:at + 2]
            scores[order] = 4 if mark[1] == seat else 1 if mark != ".." else 0.5
        elif kind == "stable":
            scores[order] = 2 + 3 * seconds[where](text).count(seat)
        elif kind == "merchant":
            near = firsts[where](text)
            scores[order] = 1 + 2 * seconds[where](text).count(seat) + 0.5 * sum(map(PALACE_LETTERS.__contains__, near))
        elif kind == "roof":
            for p in view["palaces"]:  # the palace at the square (or before it, an unclaimed one of its colour)
                if p["at"] == where or p["colour"] == colour and p["owner"] is None:
                    size = p["size"]
                    break
            else:
                raise ValueError(f"no {colour} palace to roof at {where}")
            scores[order] = size * (1.5 + mood) + (6 if size >= 3 + 2 * mood else -5)
        else:
            scores[order] = layout.start_score[where]
    merchants = text.encode().translate(ONLY_MERCHANTS)
    beside_merchants = _palaces_beside_merchants(layout, merchants).intersection(legal)
    for order in beside_merchants:
        near = firsts[WORDS[order][2]](text)
        scores[order] = palace + 0.5 * (near.count("M") + near.count("m"))
    plain = len(legal) - len(others) > len(beside_merchants)  # a palace piece beside no merchant is legal
    best = max(scores.values(), default=palace)
    if plain and palace > best:
        best = palace
    tied = [order for order, value in scores.items() if value == best]
    if plain and palace == best:
        tied.append(min(filterfalse(others.union(beside_merchants).__contains__, legal)))
    return min(tied)


# -- Florenz ------------------------------------------------------------------------------------------
