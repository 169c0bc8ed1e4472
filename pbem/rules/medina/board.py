"""Medina's board: its squares, wall segments and towers, their neighbours, and every order as
text, worked out once from `medina.yaml`."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from pbem.rules.base import Decision, Order, board_data

DATA = board_data("medina")
COLS: int = DATA["columns"]
ROWS: int = DATA["rows"]
COLOURS: list[str] = DATA["colours"]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:COLS]
SIDE_LENGTH = {"N": COLS, "S": COLS, "W": ROWS, "E": ROWS}
SQUARE = r"[A-Z](?:[1-9]|[1-9][0-9])"
_COLOUR = "|".join(COLOURS)
ORDER = re.compile(rf"^(?:(start|stable|merchant)() ({SQUARE})|(palace|roof) ({_COLOUR}) ({SQUARE})|(wall)() ([NSEW][0-9]{{1,2}}))\Z")


def parse_order(order: Order) -> tuple[str, str | None, str] | None:
    """`palace grey C7` -> ("palace", "grey", "C7"); None when it is no placement."""
    return _parse_text(order) if isinstance(order, str) else None


@lru_cache(maxsize=4096)  # every order is read twice: checked, then carried out
def _parse_text(order: str) -> tuple[str, str | None, str] | None:
    m = ORDER.match(order)
    if not m:
        return None
    groups = [g for g in m.groups() if g is not None]
    kind, colour, where = groups
    return kind, colour or None, where


def square(col: int, row: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def coords(sq: str) -> tuple[int, int] | None:
    """(column, row), 0-based, or None when the name is not a square of the board."""
    if len(sq) < 2 or sq[0] not in LETTERS or not sq[1:].isdigit():
        return None
    col, row = LETTERS.index(sq[0]), int(sq[1:]) - 1
    return (col, row) if 0 <= row < ROWS else None


def on_edge(sq: str) -> bool:
    """Whether a square of the board lies on the edge of the city."""
    col, row = coords(sq)  # type: ignore[misc]
    return col in (0, COLS - 1) or row in (0, ROWS - 1)


ALL_SQUARES = [square(c, r) for r in range(ROWS) for c in range(COLS)]


def _near(sq: str, diagonal: bool) -> list[str]:
    c, r = coords(sq)  # type: ignore[misc]
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)] + ([(-1, -1), (-1, 1), (1, -1), (1, 1)] if diagonal else [])
    return [square(c + dc, r + dr) for dc, dr in steps if 0 <= c + dc < COLS and 0 <= r + dr < ROWS]


ORTHO = {s: _near(s, False) for s in ALL_SQUARES}
AROUND = {s: _near(s, True) for s in ALL_SQUARES}
AROUND_SELF = {s: (s, *AROUND[s]) for s in ALL_SQUARES}  # a square and the squares around it


def wall_square(wall: str) -> str:
    """The building square a wall segment stands beside."""
    side, pos = wall[0], int(wall[1:]) - 1
    return {"N": square(pos, 0), "S": square(pos, ROWS - 1), "W": square(0, pos), "E": square(COLS - 1, pos)}[side]


SIDE_WALLS = {side: [f"{side}{i}" for i in range(1, SIDE_LENGTH[side] + 1)] for side in "NSWE"}
ALL_WALLS = [w for side in "NSWE" for w in SIDE_WALLS[side]]
WALL_INDEX = {w: i for i, w in enumerate(ALL_WALLS)}  # a wall segment's place in `ALL_WALLS`
WALLS_AT: dict[str, list[str]] = {s: [] for s in ALL_SQUARES}
for _w in ALL_WALLS:
    WALLS_AT[wall_square(_w)].append(_w)
WALL_SQUARE = {w: wall_square(w) for w in ALL_WALLS}  # `wall_square` of each segment, worked out once
#: the segments beside a wall segment on its side of the city
WALL_NEIGHBOURS = {w: [f"{w[0]}{p}" for p in (int(w[1:]) - 1, int(w[1:]) + 1) if 1 <= p <= SIDE_LENGTH[w[0]]]
                   for w in ALL_WALLS}
AT_TOWER = {w for w in ALL_WALLS if int(w[1:]) in (1, SIDE_LENGTH[w[0]])}

# every placement as a player writes it, made once: legal orders are picked from these
START_ORDERS = [f"start {s}" for s in ALL_SQUARES if not on_edge(s)]
PALACE_ORDER = {colour: {s: f"palace {colour} {s}" for s in ALL_SQUARES} for colour in COLOURS}
STABLE_ORDER = {s: f"stable {s}" for s in ALL_SQUARES}
MERCHANT_ORDER = {s: f"merchant {s}" for s in ALL_SQUARES}
WALL_ORDER = {w: f"wall {w}" for w in ALL_WALLS}
PALACE_KEY = {colour: f"palace {colour}" for colour in COLOURS}  # the sites of a colour's palace pieces in `City.orders`
COLOUR_LETTER = {"grey": "g", "black": "k", "brown": "b", "orange": "o"}  # a palace piece on the grid
TOWER_MARK = {data["corner"]: f"T{t}" for t, data in DATA["towers"].items()}  # a corner of the grid
#: the grid of an empty city (see `Medina.grid`); where each square, and each wall segment, lies on it
EMPTY_GRID = [[TOWER_MARK["NW"], *["::"] * COLS, TOWER_MARK["NE"]],
              *[["::", *[".."] * COLS, "::"] for _ in range(ROWS)],
              [TOWER_MARK["SW"], *["::"] * COLS, TOWER_MARK["SE"]]]
SQUARE_CELL = {square(c, r): (r + 1, c + 1) for r in range(ROWS) for c in range(COLS)}
WALL_CELL = {**{f"N{i}": (0, i) for i in range(1, COLS + 1)}, **{f"S{i}": (ROWS + 1, i) for i in range(1, COLS + 1)},
             **{f"W{i}": (i, 0) for i in range(1, ROWS + 1)}, **{f"E{i}": (i, COLS + 1) for i in range(1, ROWS + 1)}}
SQUARE_INDEX = {s: i for i, s in enumerate(ALL_SQUARES)}  # a square's place in board order
POINT_KINDS = ("pieces", "merchants", "walls", "total")  # what a claimed palace's points are made of
#: each bonus tile as the scores show it, and its points: by colour, and by tower (as the state names it)
PALACE_TILE = {colour: (f"{colour} palace", points) for colour, points in DATA["palace_bonus"].items()}
TOWER_TILE = {str(tower): (f"tower {tower}", points) for tower, points in DATA["tower_bonus"].items()}


@lru_cache(maxsize=256)
def decision_of(player: str, kind: str) -> Decision:
    """A player's decision of a kind, made once: it is asked for before and after every placement."""
    return Decision((player,), kind)


def in_board_order(squares: Iterable[str]) -> list[str]:
    """The squares in board order: north to south, west to east."""
    return sorted(squares, key=SQUARE_INDEX.__getitem__)


def row_major(sq: str) -> tuple[int, int]:
    """A square's place, row by row (a sort key); a name that is no square comes last."""
    c = coords(sq)
    return (c[1], c[0]) if c else (99, 99)
