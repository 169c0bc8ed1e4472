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


# -- Florenz ------------------------------------------------------------------------------------------

def _florenz_worth(view: dict[str, Any], me: str, queues: dict[str, list[dict[str, Any]]]) -> float:
    """What a board position is worth to `me`: the positions at the targets of the Medici still to
    score (the active one in full, later ones less), heads on the active route, the plan card."""
    from pbem.rules.florenz import board as B
    from pbem.rules.florenz.data import DISC, PLAN_CARDS, medici_of, route

    r = view["round"] or 1
    worth = 0.0
    for ahead, rnd in enumerate(range(r, min(r + 3, 10))):
        target = view["targets"].get(medici_of(rnd))
        if target is None:
            continue
        weight = (1.0, 0.5, 0.3)[ahead]
        queue = queues[target]
        if "offers" in DISC[rnd]:
            order = B.strength_order(queue)
            if me in order:
                offer = DISC[rnd]["offers"][min(order.index(me), 2)]
                worth += weight * (offer["vp"] - offer["time"]) * 0.8
        else:
            worth += weight * B.queue_vp(queue, rnd).get(me, 0)
    active = medici_of(r)
    if active in view["carriages"] and active in view["targets"]:
        for loc in route(view["carriages"][active], view["targets"][active]):
            if B.head(queues[loc]) == me:
                worth += DISC[r]["head_vp"]
    plan = view["plan_cards"].get(me)
    if plan is not None:
        n = sum(B.members(queues[loc], me) for loc in PLAN_CARDS[plan]["locations"])
        worth += 1.5 * min(n, 6) * (r / 9)
    worth += 0.3 * len(B.locations_of(queues, me))
    return worth


@bot("florenz")
def florenz_bot(view: dict[str, Any], me: str, legal: list[Order]) -> Order:
    """Weighs each order by what it does to its queues at the Medici's targets and routes, boasts for
    the VP on the tile, keeps time for Giovanni, and passes when nothing pays for its time."""
    from pbem.rules.florenz import actions as A
    from pbem.rules.florenz import board as B
    from pbem.rules.florenz.orders import parse, split_position

    mood = temperament(me, "florenz")
    time_value = 0.9 + 0.4 * mood
    strings = [o for o in legal if isinstance(o, str)]
    if "accept" in strings:
        return "accept"
    if "decline" in strings:   # cannot pay yet: discard for time first, if that helps
        discards = [o for o in strings if o.startswith("discard ")]
        return discards[0] if discards else "decline"
    base = _florenz_worth(view, me, view["queues"])

    def after(queues: dict[str, Any]) -> float:
        return _florenz_worth(view, me, queues) - base

    def score(order: str) -> float:
        o = parse(order)
        if o is None:
            return -100.0
        verb = o["verb"]
        if verb in ("place",):
            return -len(view["queues"][o["location"]]) + after({**view["queues"], o["location"]: [
                {"family": me, "rank": "debutant", "colour": ""}]})
        if verb == "pass":
            return 0.5 + (0.1 * int(o["location"]) if o.get("location") else 0)
        if verb == "bonus":
            return 1.0 if o["bonus"] == "vp" or view["time"][me] >= 12 else 1.2
        if verb == "swap":
            loc, p = split_position(o["position"])
            return 1.0 + after({**view["queues"], loc: B.swap(view["queues"][loc], p, split_position(o["position2"])[1])})
        if verb == "discard":
            return -50.0
        if verb in ("done", "travel"):
            return 0.0 if verb == "done" else -1.0
        if verb == "send":
            q = dict(view["queues"])
            A.enter_queue(view, q, o["location"], {"family": me, "rank": "debutant", "colour": ""})
            return after(q) - 4 * time_value
        if verb == "promote":
            loc, n = split_position(o["position"])
            q = {**view["queues"], loc: B.promote(view["queues"][loc], n, B.has_doorman(view["guards"], loc, me))}
            return after(q) - 5 * time_value
        if verb in ("move", "hurry"):
            result = A.simulate_moves(view, me, o)
            return -100.0 if isinstance(result, str) else after(result[0]) - (1 if verb == "move" else 3) * time_value
        if verb == "boast":
            return A.boast_value(view, me, o["location"]) - time_value
        if verb == "gift":
            cost = B.gift_cost(view["gifts_given"][me][o["medici"]])
            return (3.0 if o.get("crest") else 1.0) + 2 * mood - cost * time_value
        return -3.0   # scandal cards: kept for time and boasting

    ranked = sorted(strings, key=lambda o: (-score(o), o))
    return ranked[0] if ranked else legal[0]
