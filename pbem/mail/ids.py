"""pbem's own Message-IDs: each names the game, the player and the turn a mail is about, so that a
reply (In-Reply-To, References) tells pbem what it answers."""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

from pbem.config import Config

if TYPE_CHECKING:
    from pbem.mail.incoming import Incoming

_GAME = r"([a-z0-9][a-z0-9_-]{0,39})"
_PLAYER = r"([a-z][a-z0-9_-]{0,23})"
# the ids of the mail pbem sends for a game and player, each naming game, player and turn:
THREAD_ID = re.compile(rf"^<pbem\.{_GAME}\.{_PLAYER}\.(\d+)\.t(\d+)@[^>]+>$")  # reports, the welcome
REMINDER_ID = re.compile(rf"^<pbem\.remind\.{_GAME}\.{_PLAYER}\.t(\d+)\.(\d+)@[^>]+>$")
REPLY_ID = re.compile(rf"^<pbem\.reply\.{_GAME}\.{_PLAYER}\.t(\d+)\.([0-9a-f]+)@[^>]+>$")  # acks, refusals


def thread_id(config: Config, game: str, player: str, seq: int, turn: int) -> str:
    """The Message-ID of a player's `seq`th mail in a game; it names the game, player and turn, so a
    reply (In-Reply-To) tells pbem what it answers."""
    return f"<pbem.{game}.{player}.{seq}.t{turn}@{config.domain}>"


def reminder_id(config: Config, game: str, player: str, turn: int, n: int) -> str:
    """The Message-ID of the `n`th reminder of a turn; like a report's, it names game, player and turn."""
    return f"<pbem.remind.{game}.{player}.t{turn}.{n}@{config.domain}>"


def reply_id(config: Config, answered: str, game: str | None = None, player: str | None = None,
             turn: int | None = None) -> str:
    """The Message-ID of pbem's answer to the mail `answered`: one answer per mail. An answer to a
    seat's registered address names game, player and turn, so that a reply to it finds its game; an
    answer to anyone else names nothing."""
    digest = hashlib.sha256(answered.encode("utf-8", "replace")).hexdigest()[:24]
    if game is None or player is None or turn is None:
        return f"<pbem.reply.{digest}@{config.domain}>"
    return f"<pbem.reply.{game}.{player}.t{turn}.{digest}@{config.domain}>"


def thread_of(ref: str) -> tuple[str, str, int] | None:
    """(game, player, turn) of one of pbem's own Message-IDs (report, welcome, reminder, answer)."""
    m = THREAD_ID.match(ref)
    if m:
        return m.group(1), m.group(2), int(m.group(4))
    for pattern in (REMINDER_ID, REPLY_ID):
        m = pattern.match(ref)
        if m:
            return m.group(1), m.group(2), int(m.group(3))
    return None


def mail_thread(mail: Incoming) -> tuple[str, str, int] | None:
    """(game, player, turn) of the mail of pbem's that this mail answers, the closest first."""
    for ref in mail.thread:
        found = thread_of(ref)
        if found:
            return found
    return None
