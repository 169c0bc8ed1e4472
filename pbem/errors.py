"""Every error pbem raises on purpose, split by layer under one base.

The CLI turns a `PbemError` into its message and exit code 1; anything else is a bug.
"""


class PbemError(Exception):
    """A domain error: the message says what was wrong and where."""


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
