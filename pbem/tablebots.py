"""Bots at the table: seats the game's bot plays from the start (`pbem new --bot NAME`, an open game
filled with bots when its time runs out, `new medici with bot, bot` by mail).

A bot seat is marked `bot: true` in the state's players and has no address: pbem mails it nothing.
It decides in the run that reaches its decision (`pbem.game.play_queue` asks `bot_order` for every
bot the game waits for), so the bots chain until a human must decide or the game ends. A bot reads
what its seat may see and nothing else: `bot_order` hands the bot its seat's view and its legal
orders, never the state. Bots are deterministic functions of that view (and of their seat's name),
so the same seed and orders give the same game, and their orders are in the order log for replay.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Collection

from pbem import bots
from pbem.i18n import N_, translator
from pbem.rules.base import Order, Ruleset

BOT_ADDRESS = ""  # a bot's seat has no address: no mail goes to it, no mail can come from it
BOT_WORDS = ("bot", "bots")  # `new medici with bot, bot`, `mit bot`, `met bot`; `with 2 bots`
PLAYED_BY_BOTS = N_("Played by bots: %(bots)s")


def is_bot(state: dict[str, Any], player: str) -> bool:
    """Whether the game's bot plays this seat."""
    return any(p["name"] == player and p.get("bot") for p in state["players"])


def bot_seats(state: dict[str, Any]) -> list[str]:
    """The seats bots play, in seating order."""
    return [p["name"] for p in state["players"] if p.get("bot")]


def bot_order(ruleset: Ruleset, engine: dict[str, Any], player: str) -> Order:
    """The bot's order for `player`: chosen from his seat's view and his legal orders alone."""
    return bots.choose(ruleset.name, ruleset.bot_view(engine, player), player, ruleset.legal_orders(engine, player))


def seat_entry(name: str) -> dict[str, Any]:
    """A bot's entry in the state's players: no address, a token nobody is ever shown."""
    import secrets

    from pbem.gamestate import token_hash

    return {"name": name, "email": BOT_ADDRESS, "token_sha256": token_hash(secrets.token_urlsafe(24)), "bot": True}


def bots_line(state: dict[str, Any], lang: str) -> str | None:
    """The line every report carries in a game with bots: which seats they play."""
    names = bot_seats(state)
    if not names:
        return None
    return translator(lang).gettext(PLAYED_BY_BOTS) % {"bots": ", ".join(names)}


def bot_names(count: int, taken: Collection[str]) -> list[str]:
    """Names for `count` bots beside the seats `taken`: bot, bot2, bot3..."""
    names: list[str] = []
    n = 1
    while len(names) < count:
        name = "bot" if n == 1 else f"bot{n}"
        if name not in taken and name not in names:
            names.append(name)
        n += 1
    return names


# -- open games filled with bots when their time runs out ----------------------------------------------

def fill_at(entry: dict[str, Any]) -> datetime | None:
    """When an open game's free seats go to bots (`pbem open --fill-with-bots-after`), if it says."""
    from pbem.deadlines import moment

    return moment(entry["bots_at"]) if entry.get("bots_at") else None


def set_fill(entry: dict[str, Any], hours: float, at: datetime) -> None:
    from pbem.deadlines import stamp

    entry["bots_at"] = stamp(at + timedelta(hours=hours))
