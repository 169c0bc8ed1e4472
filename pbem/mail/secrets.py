"""Tokens kept out of every text pbem writes: found wherever a mail gives one, hidden in any message."""

from __future__ import annotations

import re
from typing import Any, Iterable

from pbem.game import token_hash
from pbem.mail.incoming import Incoming, once, texts_of

# a line that gives the token: `token: x`, `Token = x`, `"token": "x"`, `- token:x`, `token x`
TOKEN_LINE = re.compile(r"""^[\s>*#-]*["']?token["']?(?![\w-])""", re.IGNORECASE)
ENVELOPE_LINE = re.compile(r"""^["']?(game|player|token|turn)["']?(?![\w-])""", re.IGNORECASE)
TOKEN_VALUE = re.compile(r"""(?<![\w-])["']?token["']?(?![\w-])[ \t]*[:=]?[ \t]*(\S*)""", re.IGNORECASE)
PLACEHOLDER = "YOUR-TOKEN"
HIDDEN = "(hidden)"
PIECE = 6  # no piece of a token this long may show


def tokens_in_text(text: str) -> list[str]:
    """Every word a text gives as a token (`token: x` in any shape, a broken one too)."""
    found = []
    for m in TOKEN_VALUE.finditer(text):
        word = m.group(1).strip("\"'{}[](),;")
        if len(word) >= 4 and word != PLACEHOLDER:
            found.append(word[:200])
    return list(dict.fromkeys(found))[:100]


def tokens_in(mail: Incoming) -> list[str]:
    """Every word a mail gives as a token, anywhere in it: what no message about it may show. Read
    once for the mail."""
    return list(once(mail, "tokens", lambda: list(dict.fromkeys(t for text in texts_of(mail)
                                                                 for t in tokens_in_text(text)))))


def game_tokens_in(mail: Incoming, state: dict[str, Any]) -> list[str]:
    """The words of a mail that are a token of the game (a token pasted without `token:`)."""
    hashes = {p["token_sha256"] for p in state["players"]}
    words = {w for text in texts_of(mail) for w in re.findall(r"[A-Za-z0-9_-]{8,64}", text)}
    return sorted(w for w in words if token_hash(w) in hashes)


def hide_tokens(text: str, secrets: Iterable[str]) -> str:
    """`text` with every piece of a secret (6 characters or more; a shorter secret whole, as a word)
    replaced by '(hidden)'."""
    covered = [False] * len(text)
    for secret in secrets:
        if len(secret) < PIECE:
            for m in re.finditer(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text):
                covered[m.start():m.end()] = [True] * (m.end() - m.start())
            continue
        for i in range(len(secret) - PIECE + 1):
            piece = secret[i:i + PIECE]
            at = text.find(piece)
            while at != -1:
                covered[at:at + PIECE] = [True] * PIECE
                at = text.find(piece, at + 1)
    if not any(covered):
        return text
    out, i = [], 0
    while i < len(text):
        if covered[i]:
            while i < len(text) and covered[i]:
                i += 1
            out.append(HIDDEN)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


class HandlingError(Exception):
    """A mail could not be handled; the error's own words, cleared of tokens."""


def scrub(exc: BaseException, secrets: list[str]) -> BaseException:
    """`exc`, or an error in its place, whose words show no token."""
    try:
        text = str(exc)
    except Exception:
        text = ""
    clean = hide_tokens(text, secrets)
    if clean == text:
        return exc
    exc.args = (clean,)
    try:
        now = str(exc)
    except Exception:
        now = text
    return exc if hide_tokens(now, secrets) == now else HandlingError(f"{type(exc).__name__}: {clean}")
