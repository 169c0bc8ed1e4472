"""Bots: each picks a legal order from a player's view alone (never the hidden state).

They are deterministic (the same view gives the same order) and have a temperament drawn from a
hash of the player's name, so a table of bots does not play in lockstep.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable

from pbem.rules.base import Order

BotFn = Callable[[dict[str, Any], str, list[Order]], Order]
BOTS: dict[str, BotFn] = {}


def bot(ruleset: str) -> Callable[[BotFn], BotFn]:
    def register(fn: BotFn) -> BotFn:
        BOTS[ruleset] = fn
        return fn
    return register


def choose(ruleset: str, view: dict[str, Any], player: str, legal: list[Order]) -> Order:
    """The bot's order for `player`, one of `legal`."""
    if not legal:
        raise ValueError(f"{player} has no legal order")
    order = BOTS[ruleset](view, player, legal)
    assert order in legal, (order, legal)
    return order


def temperament(player: str, *salt: object) -> float:
    """A number in [0, 1) fixed by the player's name (and any salt)."""
    digest = hashlib.sha256("|".join([player, *map(str, salt)]).encode()).digest()
    return int.from_bytes(digest[:4], "big") / 2**32


# -- Medici ------------------------------------------------------------------------------------------

def _value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


def _good(card: str) -> str:
    return card.rsplit("-", 1)[0]


def medici_worth(view: dict[str, Any], me: str, lot: list[str]) -> float:
    """What a lot is worth to `me` in money: its share of the hold-value ranking, the steps it adds on
    the goods tracks (majorities and bonus fields, paid again on each day still to come)."""
    players = {p["name"]: p for p in view["players"]}
    mine = players[me]
    scorings_left = 3 - view["day"] + 1
    worth = 1.4 * sum(_value(c) for c in lot)
    counted: dict[str, int] = {}
    for card in lot:
        good = _good(card)
        if good not in view["goods"]:
            continue
        counted[good] = counted.get(good, 0) + 1
        held = sum(1 for c in mine["hold"] if _good(c) == good)
        step = min(7, mine["tracks"][good] + held + counted[good])
        rival = max(min(7, p["tracks"][good] + sum(1 for c in p["hold"] if _good(c) == good))
                    for n, p in players.items() if n != me)
        worth += 2.0
        if step > rival >= step - 1:
            worth += 6.0 * min(scorings_left, 2) / 2  # taking or breaking the lead in this good
        bonus = {int(k): v for k, v in view["bonus_fields"].items()}
        worth += 0.6 * bonus.get(step, 0) * scorings_left
    room_after = mine["free"] - len(lot)
    if room_after == 0 and mine["free"] > 1:
        worth *= 0.85  # filling up early ends my day
    return worth


@bot("medici")
def medici_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    lot = view["lot"]
    mood = temperament(me)
    if "draw" in legal or "auction" in legal:
        if "draw" not in legal:
            return "auction"
        value = sum(_value(c) for c in lot)
        # a timid auctioneer sells small lots; a bold one gambles on more cards
        threshold = 5 + 6 * mood
        return "draw" if value < threshold and len(lot) < 3 else "auction"
    bids = [o["bid"] for o in legal if isinstance(o, dict)]
    if not bids:
        return "pass"
    worth = medici_worth(view, me, lot)
    last = view["to_bid"] == [me]
    if last:
        # the last bidder needs only to beat the high bid by one
        return {"bid": bids[0]} if bids[0] <= worth else "pass"
    aim = int(worth * (0.55 + 0.3 * mood))
    if view["day"] == 3:
        aim = int(aim * 1.1)
    target = min(aim, bids[-1])
    return {"bid": target} if target >= bids[0] else "pass"


# -- Medici vs Strozzi ---------------------------------------------------------------------------------

def _strozzi_worth(view: dict[str, Any], me: str, lot: list[str]) -> float:
    """A lot's worth to `me`: its value toward a harbour win and the markers its tiles pull."""
    if not lot:
        return 0.0
    worth = 2.0 * sum(_value(t) for t in lot)
    sign = 1 if me == view["medici"] else -1
    for tile in lot:
        good = _good(tile)
        for harbour, goods in view["harbours"].items():
            if good in goods:
                pos = view["markers"][harbour][good] * sign
                pull = 2 if _value(tile) == 0 else 1
                if pos <= 0 < pos + pull or 0 <= pos < 3:
                    worth += 4.0 * pull
    return worth / 2


def _best_load(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    loads = [o for o in legal if isinstance(o, dict)]
    if not loads:
        return "discard"
    mine = next(p for p in view["players"] if p["name"] == me)
    ships = {s["capacity"]: s for s in mine["ships"]}
    lot_goods = {_good(t) for t in view["lot"]}

    def score(o: dict[str, Any]) -> tuple[float, int]:
        ship = ships[o["load"]]
        harbour = ship["harbour"] or o.get("harbour")
        fit = sum(1 for g in lot_goods if g in view["harbours"][harbour])
        room = ship["capacity"] - len(ship["cargo"]) - len(view["lot"])
        return (fit * 3 + ship["value"] / 5 - abs(room - 1) * 0.5, -o["load"])
    return max(loads, key=score)


def _rival(view: dict[str, Any], me: str) -> str:
    return view["strozzi"] if me == view["medici"] else view["medici"]


@bot("medici-strozzi")
def strozzi_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    mood = temperament(me)
    phase = view["phase"]
    if phase == "draw":
        prices = [o["price"] for o in legal if isinstance(o, dict)]
        if "draw" in legal and view["lot_value"] < 3 + 3 * mood and len(view["lot"]) < 3:
            return "draw"
        # if the rival declines, the drawer pays his own price: never ask much more than the lot is
        # worth to oneself
        ask = int(min(_strozzi_worth(view, _rival(view, me), view["lot"]) * (0.9 + 0.3 * mood),
                      _strozzi_worth(view, me, view["lot"]) * 1.2 + 2))
        return {"price": max(prices[0], min(ask, prices[-1]))}
    if phase == "answer":
        # declining hands the lot to the rival: what it is worth to him counts too
        worth = _strozzi_worth(view, me, view["lot"]) + 0.5 * _strozzi_worth(view, view["drawer"], view["lot"])
        return "buy" if worth >= view["price"] else "decline"
    return _best_load(view, me, legal)


# -- Medina ---------------------------------------------------------------------------------------------

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
