"""Who sent a mail, decided once, at the start: the sender's address and what proves it; and the one
table every act asks what that proof allows.

A From: header proves nothing (anyone can write one). A reply key proves exactly one thing: that this
address received the mail of pbem's that carried it, the mail of one decision. A token proves the seat.
So a mail proven by a key alone acts on that key's decision and nothing else; whatever changes more
needs the key of his latest mail, or his token.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from pbem import digests
from pbem.config import Config
from pbem.errors import PbemError
from pbem.game import token_hash
from pbem.mail.ids import keyring, thread_of
from pbem.mail.incoming import Incoming
from pbem.mail.seats import Proven, proven_seat
from pbem.refusals import refuse
from pbem.store import GamesDir

NOTHING, KEY, TOKEN = "nothing", "key", "token"

# the acts a mail may ask for, each one row of TABLE
ORDER = "order"    # an order for the decision the mail answers
AHEAD = "ahead"    # orders sent ahead, standing orders, reports, undo, language, away, back
READ = "read"      # commands that only read: help, status, games, standing, standings
LOBBY = "lobby"    # a lobby act that mails someone else or changes a seat: new, rematch, withdraw,
                   # leave, join
ANSWER = "answer"  # the answer to an invitation: accept, decline
ASK = "ask"        # anything else: answered to the sender's address, at most once a day
TALK = "talk"      # table talk: `say: ...` passed on to the other players of the game
STOP = "stop"      # `stop`: never mail this address again (a player: asked to confirm the resignation)
WATCH = "watch"    # `watch GAME`: the public reports of a game that allows observers
UNWATCH = "unwatch"  # `unwatch GAME`: no more public reports of that game

# the act of each thing a mail can ask for, by the word pbem reads it as: the mail commands (the first
# word `pbem.mail.commands.command_in` returns), the lobby's verbs (`pbem.mail.lobby_words.VERBS`),
# orders, table talk, `stop`, `watch` and `unwatch`. A command without a row is refused.
COMMAND_ACTS = {"orders": ORDER, "help": READ, "status": READ, "games": READ, "standing": READ,
                "standings": READ, "undo": AHEAD, "language": AHEAD, "away": AHEAD, "back": AHEAD,
                "new": LOBBY, "rematch": LOBBY, "withdraw": LOBBY, "leave": LOBBY, "join": LOBBY,
                "accept": ANSWER, "decline": ANSWER, "say": TALK, "stop": STOP, "watch": WATCH,
                "unwatch": UNWATCH}

# what each act needs (the README's security section shows this table)
TABLE: dict[str, str] = {
    ORDER: "the key of that mail (its decision still open), or the token",
    AHEAD: "the key of his latest mail, or the token",
    READ: "a key of a mail pbem sent him, or the token; answered to that address only",
    LOBBY: "a key of a mail pbem sent that address, or the token (a 'join' that has neither is confirmed "
           "by a reply to pbem's answer)",
    ANSWER: "the key of a mail about that game pbem sent that address (the invitation)",
    ASK: "nothing: an answer to that address, at most once a day, naming no game",
    TALK: "a key of a mail of this game pbem sent him, or the token (never the From: alone)",
    STOP: "nothing for the address it comes from (it silences only that one); a player is asked to "
          "confirm, at most once a day, and resigns only by a reply carrying the key of that very mail",
    WATCH: "a reply to the mail pbem sends the address that asked (its key), at most one such mail a day",
    UNWATCH: "a reply to a mail about watching that game pbem sent that address (its key)",
}
# what no proof allows: a seat its player resigned from takes no act (`check_seat_plays`)


def act_of(command: str) -> str | None:
    """The act (a row of TABLE) a command asks for, by its first word; None: it has no row."""
    return COMMAND_ACTS.get(command.split(" ", 1)[0].casefold())


@dataclass(frozen=True)
class Proof:
    """What proves a mail's sender: `kind` NOTHING, KEY (of `seat`'s mail of turn `seat.turn`) or
    TOKEN (of `seat`). `latest`: the key is of the latest mail pbem sent that seat (a token always
    is). `lobby`: the entries of the lobby whose mail to him this mail answers with its key;
    `address`: whether any key or token shows that the sender's address received pbem's mail."""

    sender: str
    kind: str = NOTHING
    seat: Proven | None = None
    latest: bool = False
    lobby: frozenset[str] = field(default_factory=frozenset)
    address: bool = False
    key: Proven | None = None  # the seat whose reply key the mail carries, and the turn of its mail
    watch: frozenset[str] = field(default_factory=frozenset)  # games whose watch mail to him it answers


def allows(proof: Proof, act: str, turn: Any = None) -> bool:
    """Whether `proof` allows `act` (one of TABLE's rows); for ORDER, `turn` is the decision the
    orders are for (None: the key's own)."""
    if act not in TABLE:
        return False  # an act without a row is refused, whatever proves the mail
    if act in (ASK, STOP):
        return True
    if act in (WATCH, UNWATCH):
        return bool(proof.watch)  # only the key of a watch mail proves it (`pbem.mail.observers`)
    if act == ANSWER:
        return bool(proof.lobby)  # only the key of the game's own mail to him (`pbem.mail.lobby`)
    if proof.kind == TOKEN:
        return True
    if act == LOBBY:
        return proof.address
    if proof.kind != KEY or proof.seat is None:
        return False
    if act in (READ, TALK):
        return True
    if act == AHEAD:
        return proof.latest
    if act == ORDER:
        return turn is None or turn == proof.seat.turn
    return False


def latest_turn(state: dict[str, Any], player: str) -> int:
    """The turn of the latest mail pbem sent a seat (its latest report; the game's turn when none)."""
    found = thread_of(state.get("last_mail", {}).get(player) or "")
    return found[2] if found else int(state["engine"]["turn"])


def prove(gd: GamesDir, mail: Incoming, config: Config, seats: Sequence[Any] | None = None) -> Proof:
    """Decide once what proves a mail's sender: a token of one of his seats, else the reply key of a
    mail pbem sent him (a seat's, or the lobby's), else nothing. `seats`: the seats his address
    holds (`pbem.mail.addresses.seats_of`), when the caller has looked them up already."""
    from pbem.mail.addresses import seats_of
    from pbem.mail.lobby_keys import address_keys
    from pbem.mail.secrets import tokens_in

    sender = mail.sender
    if not sender or mail.doubt:
        return Proof(sender or "")
    if seats is None:
        seats = seats_of(gd, sender)
    keys = keyring(config)
    seat = proven_seat(gd, mail, keys, config, seats) if keys is not None else None
    keyed_entries, address_keyed = address_keys(gd, config, mail) if keys is not None else (frozenset(), False)
    token_seat = _token_seat(gd, mail, list(seats), tokens_in(mail), seat)
    if token_seat is not None:
        return Proof(sender, TOKEN, token_seat, True, keyed_entries, True, seat)
    if seat is not None:
        latest = seat.turn >= latest_turn(seat.state, seat.player)
        return Proof(sender, KEY, seat, latest, keyed_entries, True, seat)
    return Proof(sender, NOTHING, None, False, keyed_entries, address_keyed)


def _token_seat(gd: GamesDir, mail: Incoming, seats: list[Any], tokens: list[str],
                keyed: Proven | None) -> Proven | None:
    """The seat of the sender's whose token the mail gives (the keyed seat's first), if any."""
    if not tokens:
        return None
    hashes = {token_hash(t) for t in tokens}
    order = sorted(seats, key=lambda s: keyed is None or (s.game, s.player) != (keyed.game, keyed.player))
    for at in order:
        try:
            state = keyed.state if keyed is not None and keyed.game == at.game else gd.load(at.game)
        except PbemError:
            continue
        entry = next((p for p in state["players"] if p["name"] == at.player), None)
        if entry is not None and any(digests.compare_digest(entry["token_sha256"], h) for h in hashes):
            return Proven(state, at.player, int(state["engine"]["turn"]))
    return None


def check_orders_allowed(proof: Proof, turnfile: dict[str, Any]) -> None:
    """Refuse what a reply proven by its key alone may not do with that key: orders for another
    decision than the one its mail asked for (whatever a `turn:` line or a turn file in it says), a
    decision that has passed, and (without the key of his latest mail) orders sent ahead, standing
    orders and a choice of reports. A turn file with a token is the token's to prove (the game checks it)."""
    from pbem.errors import StaleTurn

    seat = proof.key
    if seat is None or "token" in turnfile:
        return
    turn = turnfile.get("turn")
    if turn == "next" or "standing" in turnfile or "reports" in turnfile:
        if not allows(proof, AHEAD):
            raise StaleTurn(refuse("not-latest", turn=seat.turn, latest=latest_turn(seat.state, seat.player)))
        if turn == "next" or turn is None:
            return
    if isinstance(turn, int) and not isinstance(turn, bool) and not allows(proof, ORDER, turn):
        raise StaleTurn(refuse("not-keys-turn", turn=seat.turn, asked=turn))
    current = seat.state["engine"]["turn"]
    if isinstance(turn, int) and turn < current and seat.state["status"] == "active":
        raise StaleTurn(refuse("stale-reply", turn=turn, current=current))


def check_command_allowed(proof: Proof, command: str) -> None:
    """Refuse a command the mail's key does not allow (`undo` and `language` change more than the
    decision its mail asked for: they need the key of his latest mail, or his token), and a command
    that has no row in the table."""
    from pbem.errors import StaleTurn

    act = act_of(command)
    if act is None:
        raise StaleTurn(refuse("no-such-act", command=command.split(" ", 1)[0]))
    if not allows(proof, act):
        seat = proof.key
        assert seat is not None
        raise StaleTurn(refuse("not-latest", turn=seat.turn, latest=latest_turn(seat.state, seat.player)))


def check_seat_plays(gd: GamesDir, proof: Proof) -> None:
    """Refuse every act of a seat whose player resigned (`stop`, confirmed), by its key or its token:
    the game's rule for missing players plays it from then on."""
    from pbem.errors import StaleTurn
    from pbem.gamestate import resigned_seats

    for seat in (s for s in (proof.seat, proof.key) if s is not None):
        if seat.player in resigned_seats(gd, seat.game):
            raise StaleTurn(refuse("resigned-seat", player=seat.player, game=seat.game))
