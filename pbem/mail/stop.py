"""`stop` by mail: an address that plays no game here goes on the host's never-mail list at once (a
forged `stop` silences only the address it claims). A player in a game is never unseated by a `stop`
alone: he gets a mail asking him to reply `stop` to it, and only that reply (whose key proves his
address and that he read the question) resigns his seat, which then goes to the game's missing-player
policy. His address goes on the list once he holds no seat in a game still going."""

from __future__ import annotations

from typing import Any

from pbem.donotmail import add, keyed_stop
from pbem.gamestate import RESIGNED_FILE, resigned_seats
from pbem.mail.boxes import Postman
from pbem.mail.incoming import Incoming, addressed_to
from pbem.mail.proof import Proof
from pbem.mail.ids import reply_id, split_key
from pbem.store import GamesDir, write_atomic

ASKED_FILE = ("mail", "resign-asked.txt")  # game, player and id of each mail asking to confirm (out of git)


def _asked(gd: GamesDir) -> list[tuple[str, str, str]]:
    path = gd.root.joinpath(*ASKED_FILE)
    if not path.is_file():
        return []
    return [tuple(line.split(" ", 2)) for line in path.read_text("utf-8").splitlines() if line.count(" ") >= 2]  # type: ignore[misc]


def _note_asked(gd: GamesDir, game: str, player: str, mid: str) -> None:
    kept = [a for a in _asked(gd) if a[:2] != (game, player)] + [(game, player, mid)]
    path = gd.root.joinpath(*ASKED_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "".join(f"{g} {p} {m}\n" for g, p, m in kept))


def resigned(gd: GamesDir, game: str) -> list[str]:
    """The seats of a game whose players resigned."""
    return resigned_seats(gd, game)


def _active_seats(gd: GamesDir, address: str) -> list[tuple[dict[str, Any], str]]:
    """His seats not resigned in the games not finished (a paused game is his game too)."""
    from pbem.mail.addresses import playing_seats

    seats = []
    for at in playing_seats(gd, address):
        state = gd.load(at.game)
        if at.player not in resigned(gd, at.game):
            seats.append((state, at.player))
    return seats


def handle_stop(gd: GamesDir, postman: Postman, mail: Incoming, proof: Proof) -> str:
    """Carry out a `stop`; the run's line."""
    from pbem.mail.lobby_keys import stranger_may_hear
    from pbem.clock import now_moment
    from pbem.mail.replies import reply

    config = postman.config
    sender = mail.sender
    line = f"mail from {sender}: stop"
    seat = proof.key
    if seat is not None and mail.thread:
        bare = split_key(mail.thread[0])[0]
        if (seat.game, seat.player, bare) in _asked(gd) and seat.player not in resigned(gd, seat.game):
            return f"mail from {sender}: " + resign(gd, postman, seat.state, seat.player, sender)
    seats = _active_seats(gd, sender)
    if seat is not None:
        seats = [s for s in seats if s[0]["game"] == seat.game and s[1] == seat.player] or seats
    if not seats:
        written = add(config, sender)
        return line + (": never mailed again" if written else ": on the never-mail list already")
    if not (proof.address or keyed_stop(config, sender, addressed_to(mail.message))) and \
            not stranger_may_hear(gd, sender, now_moment().date().isoformat(), unproven=True):
        return line + ": a player's; not answered (a mail nothing proves is answered once a day)"
    state, player = seats[0]
    reply(postman, mail, "common/stop-confirm.txt.j2", seat=(state, player), game=state["game"],
          others=[s[0]["game"] for s in seats[1:]])
    _note_asked(gd, state["game"], player, reply_id(config, mail.message_id, state["game"], player,
                                                    state["engine"]["turn"]))
    return f"mail from {sender}: {state['game']}: stop: asked {player} to confirm that he resigns"


def resign(gd: GamesDir, postman: Postman, state: dict[str, Any], player: str, sender: str) -> str:
    """`player` resigns: his seat goes to the game's missing-player policy (the run plays it), his
    fellow players are told in their next report; his address goes on the list once he holds no seat
    in a game still going."""
    game = state["game"]
    path = gd.game_dir(game) / RESIGNED_FILE
    path.write_text("".join(f"{p}\n" for p in [*resigned(gd, game), player]), "utf-8")
    gd.commit_paths([f"{game}/{RESIGNED_FILE}"], f"{game}: {player} resigns; the seat goes to the game's policy\n")
    line = f"{game}: stop: {player} resigned"
    if not _active_seats(gd, sender):
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
