"""A player's name: the one rule for every name pbem writes into a game or the lobby.

A seat's name is shown in every report, mail subject, commit message, archive page and standings
table, and it is typed in turn files and replies. So it is plain: lower-case ASCII letters, digits,
`-` and `_`, starting with a letter, at most 24 characters. That leaves out markup (`<`, `&`, quotes),
control characters (ESC), bidi and other format characters (U+202E, U+200B), letters that look
alike in other scripts, and the empty name. Text is NFC-normalised before it is checked, so a
name is one sequence of characters however it was typed.

Every path that writes a name asks `check_name` (or `setup_check`, which words the refusal for the
command line): `pbem new --player/--bot`, `pbem replace`, the lobby's `join GAME as NAME`, every game
started (`pbem.starting.start_game`: `pbem new`, `pbem start`, a challenge, a game against bots),
and the state file's schema holds the same pattern (`PATTERN`).
"""

from __future__ import annotations

import unicodedata

from pbem.errors import PbemError, SetupError
from pbem.i18n import N_
from pbem.patterns import Pattern

LONGEST = 24
PATTERN = "^[a-z][a-z0-9_-]{0,23}$"  # schemas/state.schema.json holds this very pattern
NAME = Pattern(r"^[a-z][a-z0-9_-]{0,23}\Z")
RULE = f"lower-case letters, digits, '-' or '_', starting with a letter, at most {LONGEST} characters"
NOT_A_NAME = N_("%(name)r cannot be a player's name: lower-case letters, digits, '-' or '_', starting with "
                "a letter, at most 24 characters")
SHOWN = 40  # a refused name is shown at most this long


class NameRefused(PbemError):
    """A name that cannot be a player's: an English format and its values, so that a player reads
    the refusal in his own language (`text`)."""

    def __init__(self, name: str) -> None:
        self.fmt, self.values = NOT_A_NAME, {"name": shown(name)}
        super().__init__(self.fmt % self.values)

    def text(self, lang: str) -> str:
        from pbem.i18n import translator

        return translator(lang).gettext(self.fmt) % self.values


def shown(name: str) -> str:
    """A refused name as a message may show it: cut short (its repr then escapes what is invisible)."""
    return name if len(name) <= SHOWN else name[:SHOWN] + "..."


def is_name(name: object) -> bool:
    """Whether `name` is a player's name as it stands (no normalising)."""
    return isinstance(name, str) and NAME.match(name) is not None


def check_name(name: str, fold: bool = False) -> str:
    """`name` NFC-normalised (and with `fold`, as a player types it in a mail: stripped and lower-cased),
    if it is a player's name; else `NameRefused`."""
    text = unicodedata.normalize("NFC", name)
    if fold:
        text = text.strip().lower()
    if not NAME.match(text):
        raise NameRefused(text)
    return text


def setup_check(name: str, what: str = "player name") -> str:
    """`check_name` for the command line: a `SetupError` saying `{what} 'x' must be ...`."""
    try:
        return check_name(name)
    except NameRefused:
        raise SetupError(f"{what} {shown(name)!r} must be {RULE}") from None
