"""`stop` by mail: an address that plays no game here goes on the host's never-mail list at once (a
forged `stop` silences only the address it claims). A player (a seat in a game not finished, running
or paused, or a seat in a game not begun) is never unseated by a `stop` alone: he gets a mail asking
him to reply `stop` to it, at most one such mail a day, and only a reply carrying that mail's own key
(a MAC under the host's secret over the mail's id, which is itself made under the secret, so nobody
who did not receive it can write it) resigns his seat, which then goes to the game's missing-player
policy, or gives back his seat in a game not begun. His address goes on the list once he holds no seat
in a game still going."""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, replace
from typing import Any

from pbem import digests
from pbem.config import Config
from pbem.donotmail import add, keyed_stop
from pbem.errors import PbemError
from pbem.gamestate import RESIGNED_FILE, resigned_seats
from pbem.mail.boxes import Postman
from pbem.mail.incoming import Incoming, addressed_to
from pbem.mail.proof import Proof
from pbem.mail.ids import keyring, split_key
from pbem.store import GamesDir, write_atomic

# each mail asking to confirm a `stop`: its game, the seat, the day it was sent, its id without the
# key (out of git: the id is a secret until its mail is read)
ASKED_FILE = ("mail", "resign-asked.txt")


@dataclass(frozen=True)
class Asked:
    """A mail that asked a seat's player to confirm his `stop`."""

    game: str
    seat: str
    day: str
    message_id: str


@dataclass(frozen=True)
class Seat:
    """A seat an address holds in a game not finished: `state` is None for a game not begun (a seat
    in the lobby's entry `game`)."""

    game: str
    player: str
    state: dict[str, Any] | None

    @property
    def begun(self) -> bool:
        return self.state is not None


def _asked(gd: GamesDir) -> list[Asked]:
    from pbem.mended import read_lines

    found = []
    for line in read_lines(gd.root.joinpath(*ASKED_FILE), gd.root, "its readable lines are kept") or []:
        parts = line.split()
        if len(parts) == 4:
            found.append(Asked(*parts))
        elif len(parts) == 3:  # as written before the day was kept: asked on no day
            found.append(Asked(parts[0], parts[1], "", parts[2]))
    return found


def _note_asked(gd: GamesDir, asked: Asked) -> None:
    kept = [a for a in _asked(gd) if (a.game, a.seat) != (asked.game, asked.seat)] + [asked]
    path = gd.root.joinpath(*ASKED_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "".join(f"{a.game} {a.seat} {a.day} {a.message_id}\n" for a in kept))


def resigned(gd: GamesDir, game: str) -> list[str]:
    """The seats of a game whose players resigned."""
    return resigned_seats(gd, game)


def playing_seats(gd: GamesDir, address: str) -> list[Seat]:
    """Every seat `address` holds in a game not finished: running or paused (a seat he resigned
    from is none), then the seats he holds in games not begun."""
    from pbem import lobby
    from pbem.mail.addresses import seats_of

    found = []
    for at in seats_of(gd, address):
        if at.status == "finished" or at.player in resigned(gd, at.game):
            continue
        try:
            state = gd.load(at.game)
        except PbemError:  # a game that cannot be read asks nobody anything until the GM mends it
            continue
        if state.get("status") != "finished":
            found.append(Seat(at.game, at.player, state))
    address = address.lower()
    for entry in lobby.entries(gd):
        for s in entry["seated"]:
            if s["email"] == address:
                found.append(Seat(entry["game"], s["name"], None))
    return found


def _nonce(config: Config, game: str, seat: str, answered: str) -> str:
    """The hex part of the id of a mail asking to confirm a `stop`: a MAC under the host's secret (the
    same `stop` gets the same id), random where reply keys are off."""
    keys = keyring(config)
    if keys is None:
        return secrets.token_hex(12)
    return base64.b32decode(keys.mac("pbem-stop-confirm-id", game, seat, answered).upper()).hex()


def confirm_key(config: Config, message_id: str, address: str) -> str | None:
    """The key of the mail `message_id` that asks `address` to confirm his `stop` (None: reply keys
    are off, and the id alone, made at random, is the secret)."""
    keys = keyring(config)
    return None if keys is None else keys.mac("pbem-stop-confirm", message_id, address.strip().lower())


def confirm_id(config: Config, mail: Incoming, seat: Seat) -> tuple[str, str]:
    """The id of the mail asking `seat`'s player to confirm the `stop` of `mail`, without and with its
    key. It names the game, the seat and the turn (a reply to it finds its game), and nothing in it
    can be computed from the `stop` without the host's secret."""
    turn = int(seat.state["engine"]["turn"]) if seat.state is not None else 0
    nonce = _nonce(config, seat.game, seat.player, mail.message_id)
    bare = f"<pbem.reply.{seat.game}.{seat.player}.t{turn}.{nonce}@{config.domain}>"
    key = confirm_key(config, bare, mail.sender)
    return bare, bare if key is None else f"{bare[:bare.rindex('@')]}.k{key}{bare[bare.rindex('@'):]}"


def confirmed(gd: GamesDir, config: Config, mail: Incoming) -> Seat | None:
    """The seat whose mail asking to confirm a `stop` this mail answers, with that mail's own key, from
    the address it was sent to, while the seat is still his in a game not finished."""
    asked = {a.message_id: a for a in _asked(gd)}
    if not asked:
        return None
    for ref in mail.thread[:50]:
        bare, key = split_key(ref)
        found = asked.get(bare)
        if found is None:
            continue
        expected = confirm_key(config, bare, mail.sender)
        if expected is not None and (key is None or not digests.compare_digest(expected, key.lower())):
            continue
        for seat in playing_seats(gd, mail.sender):
            if (seat.game, seat.player) == (found.game, found.seat):
                return seat
    return None


def handle_stop(gd: GamesDir, postman: Postman, mail: Incoming, proof: Proof) -> str:
    """Carry out a `stop`; the run's line."""
    from pbem.mail.lobby_keys import stranger_may_hear
    from pbem.clock import now_moment
    from pbem.mail.replies import reply

    config = postman.config
    sender = mail.sender
    line = f"mail from {sender}: stop"
    done = confirmed(gd, config, mail)
    if done is not None:
        return f"mail from {sender}: " + give_up(gd, postman, mail, proof, done)
    seats = playing_seats(gd, sender)
    keyed = proof.key
    if keyed is not None:  # his reply to a mail of one game: that game's question first
        seats.sort(key=lambda s: (s.game, s.player) != (keyed.game, keyed.player))
    seats.sort(key=lambda s: not s.begun)
    if not seats:
        written = add(config, sender)
        return line + (": never mailed again" if written else ": on the never-mail list already")
    today = now_moment().date().isoformat()
    mine = {(s.game, s.player) for s in seats}
    unproven = not (proof.address or keyed_stop(config, sender, addressed_to(mail.message)))
    once = ": a player's; not answered (a mail nothing proves is answered once a day)"
    if any(a.day == today and (a.game, a.seat) in mine for a in _asked(gd)):  # however it is proven
        return line + (once if unproven else ": a player's; not answered (he was asked to confirm a stop today)")
    if unproven and not stranger_may_hear(gd, sender, today, unproven=True):
        return line + once
    seat = seats[0]
    bare, question = confirm_id(config, mail, seat)
    others = list(dict.fromkeys(s.game for s in seats[1:] if s.game != seat.game))
    if seat.state is not None:
        reply(postman, mail, "common/stop-confirm.txt.j2", seat=(seat.state, seat.player), game=seat.game,
              others=others, begun=True, message_id=question)
    else:
        from pbem.mail.readers import reader_language

        reply(postman, mail, "common/stop-confirm.txt.j2", lang=reader_language(gd, config, sender),
              game=seat.game, others=others, begun=False, message_id=question)
    _note_asked(gd, Asked(seat.game, seat.player, today, bare))
    if seat.begun:
        return f"mail from {sender}: {seat.game}: stop: asked {seat.player} to confirm the resignation"
    return f"mail from {sender}: {seat.game}: stop: asked {seat.player} to confirm giving back the seat"


def give_up(gd: GamesDir, postman: Postman, mail: Incoming, proof: Proof, seat: Seat) -> str:
    """The confirmed `stop` of `seat`'s player: he resigns a game begun, or gives back his seat in one
    not begun (a challenge of his own is withdrawn); the run's line without its sender."""
    if seat.state is not None:
        return resign(gd, postman, seat.state, seat.player, mail.sender)
    from pbem import lobby
    from pbem.clock import now_moment
    from pbem.mail.lobby import Command, handle_lobby

    try:
        entry = lobby.load(gd, seat.game)
    except PbemError:
        entry = {}
    verb = "withdraw" if entry.get("kind") == lobby.CHALLENGE and entry.get("by") == mail.sender else "leave"
    said = handle_lobby(gd, postman, mail, Command(verb, game=seat.game, words=f"{verb} {seat.game}"),
                        replace(proof, address=True), now_moment())
    line = f"{seat.game}: stop: " + said.split(": ", 1)[1].removeprefix(f"{seat.game}: ")
    if not playing_seats(gd, mail.sender):
        add(postman.config, mail.sender)
        line += "; never mailed again"
    return line


def resign(gd: GamesDir, postman: Postman, state: dict[str, Any], player: str, sender: str) -> str:
    """`player` resigns: his seat goes to the game's missing-player policy (the run plays it), his
    fellow players are told in their next report; his address goes on the list once he holds no seat
    in a game still going."""
    game = state["game"]
    path = gd.game_dir(game) / RESIGNED_FILE
    path.write_text("".join(f"{p}\n" for p in [*resigned(gd, game), player]), "utf-8")
    gd.commit_paths([f"{game}/{RESIGNED_FILE}"], f"{game}: {player} resigns; the seat goes to the game's policy\n")
    line = f"{game}: stop: {player} resigned"
    if not playing_seats(gd, sender):
        add(postman.config, sender)
        line += "; never mailed again"
    return line


def play_resigned(state: dict[str, Any], gone: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The moves of resigned seats the game waits for, under its missing-player policy (`wait`: none,
    the deadline tells the GM; no deadline: the `default` order, else the bot's)."""
    from pbem.game import waiting_for
    from pbem.gm import substitute
    from pbem.rules.base import order_text

    done: list[str] = []
    rule = state.get("deadline") or {}
    policy = rule.get("policy", "default")
    if policy == "wait" or not gone:
        return state, done
    for _ in range(1000):
        if state["status"] != "active":
            break
        due = [p for p in waiting_for(state) if p in gone]
        if not due:
            break
        state, order, how = substitute(state, due[0], policy)
        done.append(f"{due[0]} resigned: {order_text(order)} ({how})")
    return state, done
