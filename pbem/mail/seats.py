"""Which seat a mail's sender holds, and examples of what he may send."""

from __future__ import annotations

from typing import Any

from pbem.errors import PbemError
from pbem.game import ruleset_of, seat_of, waiting_for
from pbem.mail.ids import mail_thread
from pbem.mail.incoming import Incoming
from pbem.rules.base import order_text
from pbem.store import GAME_ID, GamesDir

def sender_seat(gd: GamesDir, mail: Incoming, turnfile: Any = None) -> tuple[dict[str, Any], str] | None:
    """The game and seat a mail is about, when it comes from that seat's registered address (so that
    an answer about the game goes to the player alone): from its turn file (game:, player:) or from the
    mail of pbem's it answers. None for anyone else, and when the game is not known."""
    if not mail.sender or mail.doubt:
        return None
    about: list[tuple[Any, Any]] = []
    if isinstance(turnfile, dict):
        about.append((turnfile.get("game"), turnfile.get("player")))
    thread = mail_thread(mail)
    if thread:
        about.append(thread[:2])
    if not about:  # a mail that names no game: the one game its sender plays, if he plays one only
        about = [(game, None) for game in _games_of(gd, mail.sender)]
        about = about if len(about) == 1 else []
    for game, player in about:
        if not isinstance(game, str) or not GAME_ID.match(game) or not gd.exists(game):
            continue
        try:
            state = gd.load(game)
        except PbemError:
            continue
        seats = [p["name"] for p in state["players"] if str(p.get("email", "")).lower() == mail.sender]
        named = seat_of(state, player) if isinstance(player, str) else None
        if named in seats:
            return state, named
        if len(seats) == 1:
            return state, seats[0]
    return None


def _games_of(gd: GamesDir, address: str) -> list[str]:
    """The active games in which `address` is a seat's registered address."""
    found = []
    for game in gd.games():
        try:
            state = gd.load(game)
        except PbemError:
            continue
        if state["status"] == "active" and any(str(p.get("email", "")).lower() == address
                                               for p in state["players"]):
            found.append(game)
    return found


NEUTRAL_EXAMPLE = "# your orders, one a line, as your report lists them"


def example_orders(seat: tuple[dict[str, Any], str] | None) -> list[str]:
    """Example order lines for a help text: the seat's own first legal order when it is his move,
    else an order of his game, else (the game unknown) no game's order at all."""
    if seat is None:
        return [NEUTRAL_EXAMPLE]
    state, player = seat
    if state["status"] == "active" and player in waiting_for(state):
        legal = ruleset_of(state).legal_orders(state["engine"], player)
        if legal:
            return [order_text(legal[0])]
    return [ruleset_of(state).example_order or NEUTRAL_EXAMPLE]
