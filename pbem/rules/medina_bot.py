"""The Medina bot: claims big palaces, builds onto them, runs the street and walls past them."""

from __future__ import annotations

from typing import Any

from pbem.bots import bot, temperament
from pbem.rules.base import Order


@bot("medina")
def medina_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """Claims big palaces, builds onto them, runs the street and walls past its own palaces."""
    grid = view["grid"]
    letters = view["letters"]
    seat = str(next(p["seat"] for p in view["players"] if p["name"] == me))

    def cell(square: str) -> str:
        col, row = letters.index(square[0]), int(square[1:])
        return grid[row][col + 1]

    def near(square: str) -> list[str]:
        col, row = letters.index(square[0]), int(square[1:])
        out = []
        for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            c, r = col + dc, row + dr
            if 0 <= c < len(letters) and 1 <= r <= len(grid) - 2:
                out.append(grid[r][c + 1])
        return out

    mood = temperament(me)

    def score(order: str) -> float:
        kind, *rest = order.split()
        where = rest[-1]
        if kind == "start":
            return -abs(letters.index(where[0]) - len(letters) / 2) - abs(int(where[1:]) - 6)
        if kind == "roof":
            size = next(p["size"] for p in view["palaces"] if p["at"] == where or p["colour"] == rest[0] and p["owner"] is None)
            return size * (1.5 + mood) + (6 if size >= 3 + 2 * mood else -5)
        if kind == "wall":
            inside = {"N": (0, None), "S": (len(grid) - 3, None), "W": (None, 0), "E": (None, len(letters) - 1)}
            side, pos = where[0], int(where[1:])
            r, c = inside[side]
            square = f"{letters[c if c is not None else pos - 1]}{(r if r is not None else pos - 1) + 1}"
            mark = cell(square)
            return 4 if mark[1] == seat else 1 if mark != ".." else 0.5
        mine = sum(1 for n in near(where) if n[1:] == seat)
        if kind == "stable":
            return 2 + 3 * mine
        if kind == "merchant":
            return 1 + 2 * mine + sum(0.5 for n in near(where) if n[0] in "gkbosGKBOS")
        return 3 + mood + 0.5 * sum(1 for n in near(where) if n == "MM" or n == "mm")  # palace

    ranked = sorted(legal, key=lambda o: (-score(o), str(o)))  # type: ignore[arg-type]
    return ranked[0]


# -- Florenz ------------------------------------------------------------------------------------------
