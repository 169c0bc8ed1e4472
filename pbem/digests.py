"""The digests pbem takes: SHA-256 (of tokens, seeds, states, its caches, mails), SHA-1 (git's object
ids), HMAC-SHA256 (the reply keys) and their comparison in constant time.

They are hashlib's digests, made by CPython's own implementations of SHA-256 and SHA-1 until a
process has hashed `OPENSSL_FROM` bytes or loaded hashlib for another reason (Jinja2 does), and by
OpenSSL's (through hashlib) after that: loading OpenSSL costs 2-3 ms of a command's start, more than
all a short command hashes (a token, a state file, a cache's seal), while over a batch of games
OpenSSL hashes five times faster.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Protocol

#: the bytes a process hashes with CPython's own implementations before it loads OpenSSL's
OPENSSL_FROM = 4 << 20
_BLOCK = 64  # SHA-256's block size in bytes (HMAC pads its key to it)
_INNER = bytes(b ^ 0x36 for b in range(256))  # HMAC's pads (RFC 2104), as tables for bytes.translate
_OUTER = bytes(b ^ 0x5C for b in range(256))


class Digest(Protocol):
    """A digest being made, as hashlib's objects are."""

    def update(self, data: bytes, /) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...
    def copy(self) -> Digest: ...


def _own(names: tuple[str, ...], attribute: str) -> Callable[..., Any] | None:
    """CPython's own implementation of a digest, by its module's names in the versions that have it."""
    for name in names:
        try:
            return getattr(__import__(name), attribute)  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    return None


_makers: dict[str, Callable[..., Any] | None] = {"sha256": _own(("_sha2", "_sha256"), "sha256"),
                                                  "sha1": _own(("_sha1",), "sha1")}
_hashed = 0


def _maker(name: str, size: int) -> Callable[..., Any]:
    global _hashed
    _hashed += size
    maker = _makers[name]
    if maker is None or _hashed > OPENSSL_FROM or "hashlib" in sys.modules:
        import hashlib

        maker = _makers[name] = getattr(hashlib, name)
    return maker


def sha256(data: bytes = b"") -> Digest:
    """`hashlib.sha256(data)`."""
    return _maker("sha256", len(data))(data)  # type: ignore[no-any-return]


def sha1(data: bytes = b"") -> Digest:
    """`hashlib.sha1(data)`."""
    return _maker("sha1", len(data))(data)  # type: ignore[no-any-return]


def hmac_keyed(key: bytes) -> tuple[Digest, Digest]:
    """HMAC-SHA256's two hashes under `key` (RFC 2104), begun with its padded key: the inner one to
    take the message, the outer one its digest. Kept and copied, they key many messages at once."""
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    return sha256(key.translate(_INNER)), sha256(key.translate(_OUTER))


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 of `message` under `key`: `hmac.digest(key, message, "sha256")`."""
    inner, outer = hmac_keyed(key)
    inner.update(message)
    outer.update(inner.digest())
    return outer.digest()


try:  # what hmac.compare_digest is, without hmac's import of OpenSSL
    from _operator import _compare_digest as compare_digest
except ImportError:  # another Python than CPython
    from hmac import compare_digest
