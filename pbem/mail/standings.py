"""`standings` by mail (`tabelle`, `rangliste`; `stand`, `ranglijst`): the host's standings,
answered to the sender's address alone, his own rows marked. No address is in it: players are their
seat names."""

from __future__ import annotations

from typing import Any

from pbem.store import GamesDir


def word_language(line: str) -> str | None:
    """The language of a command's word, where it is one language's only (`tabelle`: de)."""
    from pbem.mail.commands import COMMAND_WORDS

    word = line.strip().rstrip(".!?").strip().casefold()
    return next((lang for lang, words in COMMAND_WORDS.items() if word in words), None)


def answer_standings(gd: GamesDir, postman: Any, mail: Any, seat: tuple[dict[str, Any], str] | None,
                     hidden: list[str], lang: str, who: Any = None) -> bool:
    """Mail the standings to the sender (False: a stranger answered today already); `who`: the mail's
    `Sender`, looked up once for the mail."""
    from pbem.mail.replies import reply
    from pbem.standings import mailbox, standings, standings_text

    text = standings_text(standings(gd), lang, me={mailbox(mail.sender)})
    return reply(postman, mail, "common/cmd-standings.txt.j2", seat=seat, hidden=hidden, lang=lang, tables=text,
                 who=who)
