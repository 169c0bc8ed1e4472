"""pbem's own Message-IDs: each names the game, the player and the turn a mail is about, so that a
reply (In-Reply-To, References) tells pbem what it answers."""

from __future__ import annotations

import base64
import os
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import digests
from pbem.config import Config
from pbem.errors import PbemError
from pbem.patterns import Pattern

if TYPE_CHECKING:
    from pbem.mail.incoming import Incoming

_GAME = r"([a-z0-9][a-z0-9_-]{0,39})"
_PLAYER = r"([a-z][a-z0-9_-]{0,23})"
# the ids of the mail pbem sends for a game and player, each naming game, player and turn:
THREAD_ID = re.compile(rf"^<pbem\.{_GAME}\.{_PLAYER}\.(\d+)\.t(\d+)@[^>]+>$")  # reports, the welcome
REMINDER_ID = Pattern(rf"^<pbem\.remind\.{_GAME}\.{_PLAYER}\.t(\d+)\.(\d+)@[^>]+>$")
REPLY_ID = Pattern(rf"^<pbem\.reply\.{_GAME}\.{_PLAYER}\.t(\d+)\.([0-9a-f]+)@[^>]+>$")  # acks, refusals


def thread_id(config: Config, game: str, player: str, seq: int, turn: int) -> str:
    """The Message-ID of a player's `seq`th mail in a game; it names the game, player and turn, so a
    reply (In-Reply-To) tells pbem what it answers."""
    return f"<pbem.{game}.{player}.{seq}.t{turn}@{config.domain}>"


def reminder_id(config: Config, game: str, player: str, turn: int, n: int) -> str:
    """The Message-ID of the `n`th reminder of a turn; like a report's, it names game, player and turn."""
    return f"<pbem.remind.{game}.{player}.t{turn}.{n}@{config.domain}>"


def reply_id(config: Config, answered: str, game: str | None = None, player: str | None = None,
             turn: int | None = None) -> str:
    """The Message-ID of pbem's answer to the mail `answered`: one answer per mail. An answer to a
    seat's registered address names game, player and turn, so that a reply to it finds its game; an
    answer to anyone else names nothing."""
    digest = digests.sha256(answered.encode("utf-8", "replace")).hexdigest()[:24]
    if game is None or player is None or turn is None:
        return f"<pbem.reply.{digest}@{config.domain}>"
    return f"<pbem.reply.{game}.{player}.t{turn}.{digest}@{config.domain}>"


def thread_of(ref: str) -> tuple[str, str, int] | None:
    """(game, player, turn) of one of pbem's own Message-IDs (report, welcome, reminder, answer), with
    or without its reply key."""
    ref = split_key(ref)[0]
    m = THREAD_ID.match(ref)
    if m:
        return m.group(1), m.group(2), int(m.group(4))
    for pattern in (REMINDER_ID, REPLY_ID):
        m = pattern.match(ref)
        if m:
            return m.group(1), m.group(2), int(m.group(3))
    return None


def mail_thread(mail: Incoming) -> tuple[str, str, int] | None:
    """(game, player, turn) of the mail of pbem's that this mail answers, the closest first."""
    for ref in mail.thread:
        found = thread_of(ref)
        if found:
            return found
    return None


# -- reply keys ---------------------------------------------------------------------------------------

KEY_CHARS = 16  # base32 characters of the MAC kept: 80 bits
SECRET_FILE = ("mail", "reply-key.secret")  # mail/ is kept out of git
KEYED_ID = re.compile(rf"^(<pbem\.[^<>@\s]+)\.k([a-z2-7]{{{KEY_CHARS}}})(@[^<>\s]+>)$")


def split_key(ref: str) -> tuple[str, str | None]:
    """One of pbem's Message-IDs without its reply key, and the key (None: it carries none)."""
    m = KEYED_ID.match(ref)
    return (m.group(1) + m.group(3), m.group(2)) if m else (ref, None)


class Keyring:
    """The games dir's reply keys. A key is HMAC-SHA256 under a secret that never enters git, over a
    game, a seat, the seat's generation (its token's hash, which `pbem replace` renews) and the turn
    of the mail that carries it: it proves that whoever writes with it received that mail."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def mac(self, *parts: str) -> str:
        """KEY_CHARS base32 characters of HMAC-SHA256 under the secret over `parts` (the first names
        what kind of key it is, so that no key of one kind is ever one of another)."""
        digest = digests.hmac_sha256(self._secret, "\0".join(parts).encode("utf-8"))
        return base64.b32encode(digest).decode("ascii").lower()[:KEY_CHARS]

    def key(self, game: str, player: str, generation: str, turn: int) -> str:
        return self.mac("pbem-reply-key", game, player, generation, str(turn))

    def seat_key(self, state: dict[str, Any], player: str, turn: int) -> str | None:
        """The key of `player`'s seat in a game at `turn` (None: the game has no such seat)."""
        entry = next((p for p in state["players"] if p["name"] == player), None)
        return None if entry is None else self.key(state["game"], player, entry["token_sha256"], turn)

    def matches(self, state: dict[str, Any], player: str, turn: int, key: str) -> bool:
        """Whether `key` is the seat's key at `turn`, compared in constant time."""
        expected = self.seat_key(state, player, turn)
        return expected is not None and digests.compare_digest(expected, key.lower())

    def sign(self, ref: str, state: dict[str, Any], player: str) -> str:
        """`ref` with the seat's key when it is a Message-ID of pbem's about this game and seat (a
        reply to it then proves itself); anything else unchanged."""
        found = thread_of(ref)
        if found is None or found[:2] != (state["game"], player) or split_key(ref)[1] is not None:
            return ref
        key = self.seat_key(state, player, found[2])
        return ref if key is None else f"{ref[:ref.rindex('@')]}.k{key}{ref[ref.rindex('@'):]}"

    def reply_address(self, config: Config, state: dict[str, Any], player: str, turn: int) -> str | None:
        """The GM's address with `+TURN.KEY` before the @ (None where the host has no plus-addressing)."""
        key = self.seat_key(state, player, turn)
        if config.reply_address != "plus" or key is None:
            return None
        local, _, domain = config.gm_address.rpartition("@")
        return f"{local}+{turn}.{key}@{domain}"


def keyring(config: Config) -> Keyring | None:
    """The games dir's keyring (its secret made on first use), or None when reply keys are off."""
    if not config.reply_keys:
        return None
    return _keyring(str(config.root.resolve()))


@cache
def _keyring(root: str) -> Keyring:
    path = Path(root).joinpath(*SECRET_FILE)
    if not path.is_file():
        from pbem.store import private_folder

        private_folder(path.parent)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(os.urandom(32).hex() + "\n")  # what secrets.token_hex(32) is, without its import of OpenSSL
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(temp, path)  # never replaces a secret another process made meanwhile
        except FileExistsError:
            pass
        finally:
            temp.unlink()
    text = path.read_text("ascii").strip()
    if len(text) < 32:
        raise PbemError(f"{path} is not a reply-key secret (too short); delete it to make a new one "
                        f"(the keys of mail sent so far stop working)")
    return Keyring(text.encode("ascii"))


def plus_keys(recipients: list[str], config: Config) -> list[tuple[int, str]]:
    """(turn, key) of each address among `recipients` that is the GM's plus a reply key."""
    local, _, domain = config.gm_address.lower().rpartition("@")
    pattern = re.compile(rf"^{re.escape(local)}\+(\d{{1,9}})\.([a-z2-7]{{{KEY_CHARS}}})@{re.escape(domain)}$")
    found = []
    for address in recipients:
        m = pattern.match(address.strip().lower())
        if m:
            found.append((int(m.group(1)), m.group(2)))
    return list(dict.fromkeys(found))
