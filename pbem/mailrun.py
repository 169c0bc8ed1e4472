"""The mail side of a run: orders read from the inbox, reports and replies posted to the players.

A run reads the inbox first (each mail once: its Message-ID is remembered in mail/seen.txt), queues
the orders it finds, lets the batch advance the games and commit, then sends, and only then takes the
handled mail out of the inbox. If the run dies half way, the next one finds the mail still there:
either already seen (and its orders queued or applied) or not yet, and reads it again; nothing is lost,
nothing applied twice.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pbem.config import Config
from pbem.errors import AuthError, PbemError
from pbem.game import now, player_names, ruleset_of, show, submit, waiting_for
from pbem.mail import Incoming, compose, find_orders, not_for_pbem, read_mail, thread_id
from pbem.mailbox import Inbox, Postman, open_inbox
from pbem.report import BEGIN, END, env
from pbem.rules.base import order_text
from pbem.store import GamesDir, dump_yaml, write_atomic

SEEN_FILE = ("mail", "seen.txt")
MAX_REPLIES_PER_SENDER = 10  # more mails than this from one address in one run look like a loop


def _date() -> datetime:
    return datetime.fromisoformat(now().replace("Z", "+00:00"))


def player_address(state: dict[str, Any], player: str) -> tuple[str, str]:
    entry = next(p for p in state["players"] if p["name"] == player)
    return player, entry["email"]


def subject(config: Config, state: dict[str, Any], player: str, kind: str = "report") -> str:
    game, turn = state["game"], state["engine"]["turn"]
    if kind == "welcome":
        move = "your move" if player in waiting_for(state) else f"waiting for {', '.join(waiting_for(state))}"
        what = f"welcome to {ruleset_of(state).title}; turn {turn}: {move}"
    elif kind == "refused":
        what = f"turn {turn}: your orders were refused"
    elif state["status"] == "finished":
        what = "the game is over"
    elif player in waiting_for(state):
        what = f"turn {turn}: your move"
    else:
        what = f"turn {turn}: waiting for {', '.join(waiting_for(state))}"
    return f"{config.subject_prefix} {game} {what}".strip()


def post_report(postman: Postman, state: dict[str, Any], player: str, seq: int, text: str,
                kind: str = "report") -> None:
    """A report as mail, in the game's thread for this player (the welcome mail is its root)."""
    config = postman.config
    game, turn = state["game"], state["engine"]["turn"]
    mid = thread_id(config, game, player, seq, turn)
    threads = state.setdefault("last_mail", {})
    previous = threads.get(player)
    root = thread_id(config, game, player, 1, 1)
    refs = [r for r in dict.fromkeys([root, previous]) if r and r != mid]
    name, address = player_address(state, player)
    msg = compose(config, name, address, subject(config, state, player, kind), text, mid,
                  in_reply_to=refs[-1] if refs else None, references=refs or None, date=_date())
    postman.post(f"{game}.{player}.{seq:04d}", msg)
    threads[player] = mid


def post_reminder(postman: Postman, state: dict[str, Any], late: str) -> None:
    """Remind a late player once; tell the others whom the game waits for."""
    from pbem.deadlines import describe, due, stamp

    config = postman.config
    when = due(state)
    turn = state["engine"]["turn"]
    sent = state.get("reminders", {}).get(str(turn), 0)  # a turn reminded again (after a pause) gets new mail
    for player in player_names(state):
        name, address = player_address(state, player)
        if player == late:
            text = (f"Game {state['game']} waits for your orders for turn {turn}.\n"
                    f"They are due by {stamp(when) if when else '-'} (deadline: {describe(state)}).\n"
                    f"Your latest report has a turn file ready to fill in.\n")
            what = f"reminder: turn {turn} is due"
        else:
            text = f"Game {state['game']} is waiting for {late} (turn {turn}, due by {stamp(when) if when else '-'}).\n"
            what = f"turn {turn}: waiting for {late}"
        msg = compose(config, name, address, f"{config.subject_prefix} {state['game']} {what}".strip(), text,
                      f"<pbem.remind.{state['game']}.{player}.t{turn}.{sent}@{config.domain}>",
                      in_reply_to=state.get("last_mail", {}).get(player), date=_date())
        postman.post(f"{state['game']}.{player}.remind-{turn:04d}" + (f"-{sent}" if sent > 1 else ""), msg)


def welcome_text(state: dict[str, Any], player: str, token: str, report: str) -> str:
    ruleset = ruleset_of(state)
    view = show(state, player)["view"]
    rules = env().get_template(f"{ruleset.name}/rules.txt.j2").render(view=view)
    return env().get_template("common/welcome.txt.j2").render(
        title=ruleset.title, game=state["game"], player=player, token=token, players=player_names(state),
        rules=rules.strip(), report=report)


# -- reading the inbox ------------------------------------------------------------------------------

@dataclass
class Intake:
    """What reading the inbox did; `handled` are the mailbox keys to take out after the commit."""

    inbox: Inbox | None
    handled: list[tuple[str, bool]] = field(default_factory=list)  # (key, set aside?)
    lines: list[str] = field(default_factory=list)
    new_ids: list[str] = field(default_factory=list)


def seen_ids(gd: GamesDir) -> set[str]:
    path = gd.root.joinpath(*SEEN_FILE)
    return set(path.read_text("utf-8").split()) if path.is_file() else set()


def remember(gd: GamesDir, ids: set[str]) -> None:
    write_atomic(gd.root.joinpath(*SEEN_FILE), "".join(f"{i}\n" for i in sorted(ids)))


def reply_name(mail: Incoming) -> str:
    return "reply-" + hashlib.sha256(mail.message_id.encode()).hexdigest()[:24]


def reply(postman: Postman, mail: Incoming, template: str, **context: Any) -> None:
    """An answer to a player's mail, threaded under it."""
    config = postman.config
    body = env().get_template(template).render(date=mail.message.get("Date", "(no date)"),
                                               subject=mail.subject, begin=BEGIN, end=END, **context)
    subj = mail.subject if mail.subject.lower().startswith("re:") else f"Re: {mail.subject}"
    mid = f"<pbem.reply.{hashlib.sha256(mail.message_id.encode()).hexdigest()[:24]}@{config.domain}>"
    msg = compose(config, mail.sender_name, mail.sender, subj.strip(), body, mid,
                  in_reply_to=mail.message_id, references=[mail.message_id], date=_date())
    postman.post(reply_name(mail), msg)


def read_inbox(gd: GamesDir, config: Config, postman: Postman) -> Intake:
    """Queue the orders of every new mail and post the acknowledgements and refusals."""
    intake = Intake(open_inbox(config))
    if intake.inbox is None:
        return intake
    seen = seen_ids(gd)
    per_sender: Counter[str] = Counter()
    for key in intake.inbox.keys():  # noqa: SIM118 (an Inbox, not a dict)
        raw = intake.inbox.read(key)
        if len(raw) > config.max_mail_bytes:
            intake.handled.append((key, True))
            intake.lines.append(f"mail {key}: set aside: {len(raw)} bytes, over the limit of {config.max_mail_bytes}")
            continue
        try:
            mail = read_mail(raw)
        except Exception as exc:  # mail the email package cannot read at all
            intake.handled.append((key, True))
            intake.lines.append(f"mail {key}: set aside: it cannot be read ({type(exc).__name__})")
            continue
        if mail.message_id in seen:
            intake.handled.append((key, False))
            intake.lines.append(f"mail {mail.message_id}: read before; taken out of the inbox")
            continue
        why = not_for_pbem(mail, config)
        per_sender[mail.sender] += 1
        if why is None and per_sender[mail.sender] > MAX_REPLIES_PER_SENDER:
            why = f"more than {MAX_REPLIES_PER_SENDER} mails from {mail.sender} in one run (a loop?)"
        if why:
            intake.handled.append((key, True))
            intake.lines.append(f"mail from {mail.sender or '?'}: set aside: {why}")
        else:
            try:
                intake.lines.append(handle(gd, postman, mail))
                intake.handled.append((key, False))
            except Exception as exc:  # one hostile mail must not stop the others
                intake.handled.append((key, True))
                intake.lines.append(f"mail from {mail.sender}: set aside: it could not be handled "
                                    f"({type(exc).__name__}: {exc})")
        seen.add(mail.message_id)
        intake.new_ids.append(mail.message_id)
        remember(gd, seen)
    return intake


def handle(gd: GamesDir, postman: Postman, mail: Incoming) -> str:
    """One player's mail: queue its orders and acknowledge them, or say what was wrong."""
    try:
        turnfile = find_orders(mail)
        done = submit(gd, dump_yaml(turnfile).encode("utf-8"), source=f"mail {mail.message_id}",
                      sender=mail.sender)
    except AuthError:
        reply(postman, mail, "common/stranger.txt.j2")
        return f"mail from {mail.sender}: refused (not a player's address with his token)"
    except PbemError as exc:
        reply(postman, mail, "common/mail-error.txt.j2", message=str(exc))
        return f"mail from {mail.sender}: refused: {str(exc).splitlines()[0]}"
    reply(postman, mail, "common/ack.txt.j2", game=done.game, turn=done.turn,
          orders=[order_text(o) for o in done.orders], replaced=done.replaced)
    return f"mail from {mail.sender}: {done.game} turn {done.turn}: queued {', '.join(order_text(o) for o in done.orders)}"


def close_inbox(intake: Intake) -> None:
    if intake.inbox is not None:
        intake.inbox.close()


def finish_intake(intake: Intake) -> None:
    """After the commit: take the handled mail out of the inbox."""
    if intake.inbox is None:
        return
    try:
        for key, aside in intake.handled:
            intake.inbox.done(key, aside)
    finally:
        intake.inbox.close()
