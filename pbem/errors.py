"""Every error pbem raises on purpose, split by layer under one base.

The CLI turns a `PbemError` into its message and exit code 1; anything else is a bug.
"""

from typing import Callable


class Refusal(str):
    """What the rules (or the pipeline) refuse, as data: a message id, the English format it is written
    from (the catalogs' key) and its values. It is the English text itself, for the GM's console, the
    commits and the order log; a player reads it written from its id in his language
    (`pbem.report.refusal_words`). A value may be a Refusal itself (a refusal in a frame)."""

    msg: str
    fmt: str
    values: dict[str, object]

    def __new__(cls, msg: str, fmt: str, **values: object) -> "Refusal":
        self = super().__new__(cls, fmt % values if values else fmt)
        self.msg, self.fmt, self.values = msg, fmt, values
        return self

    def __reduce__(self) -> tuple:  # kept whole through copies and processes
        return (_refusal, (self.msg, self.fmt, self.values))


def _refusal(msg: str, fmt: str, values: dict[str, object]) -> Refusal:
    return Refusal(msg, fmt, **values)


class Listing(Refusal):
    """A refusal with others listed under it, one a line after `  - ` (`the turn file is not valid:` and
    each problem of the file)."""

    items: tuple[Refusal, ...]

    def __new__(cls, msg: str, fmt: str, items: tuple[Refusal, ...], **values: object) -> "Listing":
        head = fmt % values if values else fmt
        self = str.__new__(cls, head + "".join(f"\n  - {item}" for item in items))
        self.msg, self.fmt, self.values, self.items = msg, fmt, values, tuple(items)
        return self

    def __reduce__(self) -> tuple:
        return (_listing, (self.msg, self.fmt, self.items, self.values))


def _listing(msg: str, fmt: str, items: tuple[Refusal, ...], values: dict[str, object]) -> Listing:
    return Listing(msg, fmt, items, **values)


def mapped(said: "Refusal | str", change: Callable[[str], str]) -> "Refusal | str":
    """A refusal with `change` made to each of its values that is text, in the refusals it holds too (a
    token hidden); text without an id changed whole."""
    if not isinstance(said, Refusal):
        return change(said)
    values = {k: mapped(v, change) if isinstance(v, str) else v for k, v in said.values.items()}
    if isinstance(said, Listing):
        return Listing(said.msg, said.fmt, tuple(mapped(i, change) for i in said.items), **values)  # type: ignore[misc]
    return Refusal(said.msg, said.fmt, **values)


class PbemError(Exception):
    """A domain error: the message says what was wrong and where (a `Refusal`: with its id too)."""

    @property
    def refusal(self) -> "Refusal | str":
        """The message as given: a `Refusal` where it has an id, else its text."""
        given = self.args[0] if self.args else ""
        return given if isinstance(given, Refusal) else str(self)


class TurnFileError(PbemError):
    """A turn file that cannot be read: too large, not YAML, hostile YAML, or against the schema."""


class AuthError(PbemError):
    """Unknown game or player, or a token that does not match. Says nothing about the game."""


class StaleTurn(PbemError):
    """The orders answer a decision that is not the current one."""


class IllegalOrder(PbemError):
    """An order that is well-formed but breaks the rules now."""


class SetupError(PbemError):
    """A game that cannot be started as asked: players, options, deck file."""


class StoreError(PbemError):
    """A game directory that is missing, locked or corrupt."""
