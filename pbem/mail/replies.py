"""Answers to a player's mail, threaded under it and written in his language: in his seat's thread when
his registered address sent it, to a stranger once a day at most, the subject echoed without tokens."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pbem import digests
from pbem.clock import now_moment
from pbem.config import Config
from pbem.i18n import header_moment, language_of, timezone_of, translator
from pbem.mail.boxes import Postman
from pbem.mail.compose import Moves, Picture, compose, reply_subject
from pbem.mail.ids import reply_id, thread_id
from pbem.mail.incoming import Incoming
from pbem.mail.orders import own_lines
from pbem.mail.post import keyed
from pbem.mail.secrets import hide_tokens
from pbem.report import BEGIN, END, env_for
from pbem.store import GamesDir

if TYPE_CHECKING:
    from pbem.mail.sender import Sender


def reply_name(mail: Incoming) -> str:
    return "reply-" + digests.sha256(mail.message_id.encode()).hexdigest()[:24]


def mail_language(mail: Incoming) -> str | None:
    """The language a mail's own words are written in, where they tell (its command words)."""
    from pbem.mail.readers import words_language

    return words_language(own_lines(mail) or [mail.subject])


def seat_language(config: Config, seat: tuple[dict[str, Any], str] | None) -> str:
    """The language an answer to a seat's player is written in (no seat: the host's)."""
    return language_of(seat[0], seat[1], config) if seat is not None else config.language


def reply(postman: Postman, mail: Incoming, template: str, seat: tuple[dict[str, Any], str] | None = None,
          hidden: list[str] | None = None, picture: Picture | None = None, lang: str | None = None,
          once_a_day: bool = False, message_id: str | None = None, who: Sender | None = None,
          moves: Moves | None = None, **context: Any) -> bool:
    """An answer to a player's mail, threaded under it, in his language (`lang`, else his seat's, else
    the host's). With `seat` (the game and seat whose registered address sent the mail) the answer is
    in that seat's thread: its id names game, seat and turn, and its References carry the thread's root
    and latest report, so a reply to it finds the game. Without, it names nothing. The mail's subject is
    echoed with its `hidden` words (tokens) left out. An address that plays no game here is answered
    once a day at most (False: not this time), so that a forged From: cannot aim pbem at anyone; so is
    a player's address for a mail that nothing proves his (`once_a_day`). `message_id`: the answer's
    own id, where it carries a key of its own (the question of a `stop`). `who`: the mail's sender,
    looked up once for the mail (whether he plays here, the language he reads). `moves`: the buttons
    of an answer that asks for his move (his report again)."""
    from pbem.mail.lobby_keys import stranger_may_hear

    config = postman.config
    if (seat is None or once_a_day) and not stranger_may_hear(GamesDir(config.root), mail.sender,
                                                              now_moment().date().isoformat(), once_a_day,
                                                              player=who.known if who is not None else None):
        return False
    secrets = list(hidden or [])
    if seat is not None:  # a token typed into the subject without `token:` is never echoed either
        secrets += subject_tokens(mail.subject, seat[0])
    subject = hide_tokens(mail.subject, secrets)
    if lang is None and seat is not None:
        lang = seat_language(config, seat)
    elif lang is None and who is not None:
        lang = who.language
    elif lang is None:
        from pbem.mail.readers import reader_language

        lang = reader_language(GamesDir(config.root), config, mail.sender, mail_language(mail))
    zone = timezone_of(*seat, config) if seat is not None else getattr(config, "timezone", None)
    templates = env_for(lang, seat[0]["ruleset"] if seat is not None else None)
    date = header_moment(mail.message.get("Date"), lang, zone, now_moment()) or translator(lang).gettext("(no date)")
    body = templates.get_template(template).render(date=date, subject=subject, begin=BEGIN, end=END, **context)
    if seat is None:  # someone not yet playing: how never to hear from this host again
        from pbem.donotmail import footer

        plays = who.plays if who is not None else None
        body = body.rstrip("\n") + "\n" + footer(config, mail.sender, lang, plays=plays)
    if seat is not None:
        state, player = seat
        game = state["game"]
        mid = message_id or reply_id(config, mail.message_id, game, player, state["engine"]["turn"])
        thread = [thread_id(config, game, player, 1, 1), state.get("last_mail", {}).get(player)]
        refs = [r for r in dict.fromkeys([*thread, mail.message_id]) if r]
        ids = keyed(config, state, player, mid, refs)
        mid, refs, reply_to = ids.message_id, ids.references, ids.reply_to
    else:
        mid, refs, reply_to = message_id or reply_id(config, mail.message_id), [mail.message_id], None
    msg = compose(config, "" if mail.doubt else mail.sender_name, mail.sender, reply_subject(subject), body, mid,
                  in_reply_to=mail.message_id, references=refs, date=now_moment(), picture=picture, reply_to=reply_to,
                  moves=moves)
    postman.post(reply_name(mail), msg)
    return True


def subject_tokens(subject: str, state: dict[str, Any]) -> list[str]:
    """The words of a subject that are a token of the game."""
    from pbem.game import token_hash

    hashes = {p["token_sha256"] for p in state["players"]}
    return [w for w in re.findall(r"[A-Za-z0-9_-]{8,64}", subject) if token_hash(w) in hashes]
