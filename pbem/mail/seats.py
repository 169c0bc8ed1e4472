"""Which seat a mail's sender holds, and examples of what he may send."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from pbem.config import Config
from pbem.errors import PbemError
from pbem.game import ruleset_of, seat_of, waiting_for
from pbem.i18n import DEFAULT_LANGUAGE, N_, translator
from pbem.mail.ids import Keyring, mail_thread, plus_keys, split_key, thread_of
from pbem.mail.incoming import Incoming, addressed_to
from pbem.rules.base import order_text
from pbem.store import GAME_ID, GamesDir

def sender_seat(gd: GamesDir, mail: Incoming, turnfile: Any = None,
                seats: Sequence[Any] | None = None) -> tuple[dict[str, Any], str] | None:
    """The game and seat a mail is about, when it comes from that seat's registered address (so that
    an answer about the game goes to the player alone): from its turn file (game:, player:) or from the
    mail of pbem's it answers. None for anyone else, and when the game is not known. `seats`: the
    seats the sender's address holds, when the caller has looked them up already."""
    if not mail.sender or mail.doubt:
        return None
    about: list[tuple[Any, Any]] = []
    if isinstance(turnfile, dict):
        about.append((turnfile.get("game"), turnfile.get("player")))
    thread = mail_thread(mail)
    if thread:
        about.append(thread[:2])
    if not about:  # a mail that names no game: the one game not finished its sender plays, if he plays one only
        if seats is None:
            from pbem.mail.addresses import seats_of

            seats = seats_of(gd, mail.sender)
        about = [(game, None) for game in dict.fromkeys(s.game for s in seats if s.playing)]
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


def games_of(gd: GamesDir, address: str, active_only: bool = True) -> list[str]:
    """The games in which `address` is a seat's registered address (from the index of addresses kept
    beside the games, not by loading them): with `active_only`, those not finished (running or
    paused), else every one. (A mail's own handling asks its `pbem.mail.sender.Sender` instead.)"""
    from pbem.mail.addresses import seats_of

    return list(dict.fromkeys(s.game for s in seats_of(gd, address) if s.playing or not active_only))


NEUTRAL_EXAMPLE = N_("# your orders, one a line, as your report lists them")


def example_orders(seat: tuple[dict[str, Any], str] | None, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Example order lines for a help text: the seat's own first legal order when it is the seat's
    move, else an order of its game, else (the game unknown) a comment in `lang` and no game's order."""
    neutral = translator(lang).gettext(NEUTRAL_EXAMPLE)
    if seat is None:
        return [neutral]
    state, player = seat
    if state["status"] == "active" and player in waiting_for(state):
        legal = ruleset_of(state).legal_orders(state["engine"], player)
        if legal:
            return [order_text(legal[0])]
    return [ruleset_of(state).example_order or neutral]


@dataclass(frozen=True)
class Proven:
    """A mail proven to come from a seat's player: his registered address, with the reply key of a mail
    pbem sent him. `turn` is the turn of that mail: the decision his reply answers."""

    state: dict[str, Any]
    player: str
    turn: int

    @property
    def game(self) -> str:
        return str(self.state["game"])


def proven_seat(gd: GamesDir, mail: Incoming, keys: Keyring, config: Config,
                seats: Sequence[Any] | None = None) -> Proven | None:
    """The seat whose reply key a mail carries, if it comes from that seat's registered address: from
    the pbem mail it answers (In-Reply-To first, then References, the latest first), else from the
    address it was sent to (the GM's plus the key). A key of another seat, of another address, of a
    seat since replaced, or forged proves nothing. `seats`: the seats the sender's address holds
    (`pbem.mail.addresses.seats_of`), when the caller has looked them up already."""
    if not mail.sender or mail.doubt:
        return None
    loaded: dict[str, dict[str, Any] | None] = {}

    def state_of(game: str) -> dict[str, Any] | None:
        if game not in loaded:
            try:
                loaded[game] = gd.load(game) if GAME_ID.match(game) and gd.exists(game) else None
            except PbemError:
                loaded[game] = None
        return loaded[game]

    def registered(state: dict[str, Any], player: str) -> bool:
        return any(p["name"] == player and str(p.get("email", "")).lower() == mail.sender
                   for p in state["players"])

    for ref in mail.thread[:50]:
        found, key = thread_of(ref), split_key(ref)[1]
        if found is None or key is None:
            continue
        game, player, turn = found
        state = state_of(game)
        if state is not None and registered(state, player) and keys.matches(state, player, turn, key):
            return Proven(state, player, turn)
    plus = plus_keys(addressed_to(mail.message), config)
    if plus:
        games = games_of(gd, mail.sender, active_only=False) if seats is None else \
            list(dict.fromkeys(s.game for s in seats))
        for game in games:
            state = state_of(game)
            if state is None:
                continue
            for player in (p["name"] for p in state["players"] if registered(state, p["name"])):
                for turn, key in plus:
                    if keys.matches(state, player, turn, key):
                        return Proven(state, player, turn)
    return None
