"""Table talk by mail: the `say:` lines of a player's reply passed on to the others (see `pbem.talk`)."""

from __future__ import annotations

from typing import Any

from pbem import digests
from pbem import talk
from pbem.i18n import language_of, translator
from pbem.mail.boxes import Postman
from pbem.mail.incoming import Incoming
from pbem.mail.proof import TALK, Proof, allows
from pbem.refusals import refuse
from pbem.store import GamesDir


class TalkRefused(Exception):
    """Talk that is not passed on, with the refusal by id that says why."""

    def __init__(self, msg: str, **values: Any) -> None:
        self.refusal = refuse(msg, **values)
        super().__init__(str(self.refusal))

    def text(self, lang: str) -> str:
        from pbem.report import refusal_words

        return refusal_words(self.refusal, lang)


def talk_lines(mail: Incoming) -> tuple[list[tuple[str | None, str]], bool, bool]:
    """The `say:` lines of a mail's own text, whether it has other lines of its own, and whether it
    carries attachments."""
    from pbem.mail.incoming import mail_parts
    from pbem.mail.orders import own_lines
    from pbem.mail.html import html_to_text
    from pbem.mail.own_text import own_text

    attachments, plain, markup = mail_parts(mail)
    if attachments or (mail.message.is_multipart() and any(True for _ in mail.message.iter_attachments())):
        body = own_text(plain) if plain is not None else own_text(html_to_text(markup)) if markup is not None else ""
        said, _ = talk.split_talk([line.strip() for line in body.split("\n") if line.strip()])
        return said, True, True
    said, rest = talk.split_talk(own_lines(mail))
    return said, bool(rest), False


def table_talk(gd: GamesDir, postman: Postman, mail: Incoming, proof: Proof) -> tuple[str, bool] | None:
    """Pass on the talk of a mail, if it has any: the run's line, and whether the mail holds nothing
    else (None: no talk, or nothing proves the seat it would speak for, which leaves the mail to the
    rest of the run: talk never goes out on a From: alone)."""
    from pbem.mail.replies import reply

    if proof.seat is None or not allows(proof, TALK):
        return None
    said, more, attached = talk_lines(mail)
    if not said:
        return None
    state = gd.load(proof.seat.game)
    speaker = proof.seat.player
    game = state["game"]
    lang = language_of(state, speaker, postman.config)
    line = f"mail from {mail.sender}: {game}: "
    try:
        passed = _pass_on(gd, postman, state, speaker, said, attached, mail)
    except TalkRefused as exc:
        if more:  # the rest of the mail gets the run's one answer to it: the refusal of its talk is a mail of its own
            _refuse(postman, mail, state, speaker, exc.text(lang), lang)
        else:
            reply(postman, mail, "common/talk-refused.txt.j2", seat=(state, speaker), message=exc.text(lang))
        return line + f"talk refused: {exc}", not more
    return line + f"{speaker} said {passed}", not more


def _pass_on(gd: GamesDir, postman: Postman, state: dict[str, Any], speaker: str,
             said: list[tuple[str | None, str]], attached: bool, mail: Incoming) -> str:
    """Check every line of a mail's talk, keep them, and post each hearer one mail with the lines said
    to him, in order: one mail per recipient, however many lines (nothing is passed on when one line
    is refused)."""
    from pbem.gamestate import resigned_seats
    from pbem.mail.post import player_address
    from pbem.mail.secrets import game_tokens_in, hide_tokens, tokens_in

    game = state["game"]
    table = talk.table_of(gd, game)
    names = [p["name"] for p in state["players"]]
    if table["talk"] == "none":
        raise TalkRefused("talk-none", game=game)
    if state["status"] == "finished":  # the table has broken up: nobody is at it to hear
        raise TalkRefused("talk-finished", game=game)
    if speaker in resigned_seats(gd, game):  # he left the table: his seat is the game's policy's now
        raise TalkRefused("talk-resigned", game=game)
    if attached:
        raise TalkRefused("talk-attached")
    at = _now()
    day = at.date().isoformat()
    count = talk.said_today(gd, game, speaker, day)
    lines = []
    secrets = tokens_in(mail) + game_tokens_in(mail, state)
    for to, text in said:
        text = talk.plain(hide_tokens(text, secrets))
        if to is not None:
            match = next((n for n in names if n.casefold() == to.casefold() and n != speaker), None)
            if table["talk"] != "private":
                raise TalkRefused("talk-not-private", game=game)
            if match is None:
                raise TalkRefused("talk-no-such-player", game=game, name=to,
                                  players=", ".join(n for n in names if n != speaker))
            to = match
        if not text:
            raise TalkRefused("talk-empty")
        if len(text) > talk.MAX_LENGTH:
            raise TalkRefused("talk-too-long", most=talk.MAX_LENGTH, length=len(text))
        count += 1
        if count > talk.PER_DAY:
            raise TalkRefused("talk-too-many", count=talk.PER_DAY, game=game)
        lines.append((to, text))
    entries, paths = talk.say_all(gd, game, speaker, lines, at)
    told = []
    for player in names:
        heard = [e for e in entries if talk.heard_by(e, player)]
        if heard and player_address(state, player)[1]:  # a bot's seat has no address
            _post(postman, state, player, heard, table["talk"] == "private")
            told.append(player)
    if paths:
        gd.commit_paths(paths, f"{game}: {speaker} says something to the table\n")
    return f"{len(lines)} line(s) of talk to {', '.join(sorted(told)) or 'nobody'}"


def _refuse(postman: Postman, mail: Incoming, state: dict[str, Any], player: str, message: str, lang: str) -> None:
    """The refusal of a mail's talk, in the seat's thread, beside the answer to the rest of the mail."""
    from pbem.mail.compose import compose, reply_subject
    from pbem.mail.ids import reply_id, thread_id
    from pbem.mail.post import keyed, player_address
    from pbem.mail.secrets import hide_tokens, tokens_in
    from pbem.report import env_for

    config = postman.config
    game = state["game"]
    subject = hide_tokens(mail.subject, tokens_in(mail))
    body = env_for(lang).get_template("common/talk-refused.txt.j2").render(
        date=mail.message.get("Date", translator(lang).gettext("(no date)")), subject=subject, message=message)
    mid = reply_id(config, f"{mail.message_id}\0talk", game, player, state["engine"]["turn"])
    refs = [r for r in dict.fromkeys([thread_id(config, game, player, 1, 1), state.get("last_mail", {}).get(player),
                                      mail.message_id]) if r]
    ids = keyed(config, state, player, mid, refs)
    name, address = player_address(state, player)
    msg = compose(config, name, address, reply_subject(subject), body, ids.message_id, in_reply_to=mail.message_id,
                  references=ids.references, date=_now(), reply_to=ids.reply_to)
    postman.post(f"talk-refused-{digests.sha256(mail.message_id.encode()).hexdigest()[:24]}", msg)


def _now():  # type: ignore[no-untyped-def]
    from pbem.clock import now_moment

    return now_moment()


def _post(postman: Postman, state: dict[str, Any], player: str, heard: list[dict[str, Any]], private: bool) -> None:
    """The lines of one mail's talk said to one player, in order, as one mail in his game's thread
    (his reply to it speaks again)."""
    from pbem.mail.compose import compose
    from pbem.mail.ids import reply_id, thread_id
    from pbem.mail.post import keyed, player_address

    config = postman.config
    game = state["game"]
    speaker = heard[0]["from"]
    first = heard[0]["n"]
    lang = language_of(state, player, config)
    _ = translator(lang).gettext
    mid = reply_id(config, f"talk.{game}.{first}.{player}", game, player, state["engine"]["turn"])
    refs = [r for r in dict.fromkeys([thread_id(config, game, player, 1, 1),
                                      state.get("last_mail", {}).get(player)]) if r]
    ids = keyed(config, state, player, mid, refs)
    name, address = player_address(state, player)
    how = _("Reply with 'say: ...' to answer everyone at the table.") if not private else _("Reply with 'say: ...' to answer everyone, or 'say to %(player)s: ...' to %(player)s alone.") % {
            "player": speaker}
    text = "\n".join(talk.line_text(e, lang) for e in heard) + "\n\n" + how + "\n"
    subject = f"{config.subject_prefix} {game} " + _("%(player)s says something") % {"player": speaker}
    msg = compose(config, name, address, subject.strip(), text, ids.message_id, in_reply_to=ids.in_reply_to,
                  references=ids.references or None, date=_now(), reply_to=ids.reply_to)
    postman.post(f"talk-{game}-{first:05d}-{player}", msg)
