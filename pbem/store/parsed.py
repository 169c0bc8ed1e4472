"""The cache of parsed state files: a state file as pbem parsed it when it wrote it, kept in .git
(where git does not look), one file a game, and used only for the very text it was written with:
building a state from YAML costs more than the rest of loading it (an idle run over many games does
little else)."""

from __future__ import annotations

import contextlib
import marshal
from pathlib import Path
from typing import Any

from pbem import digests
from pbem.store.files import _write_over
from pbem.store.statefile import CHECKSUM, written_by_pbem

#: bytes of SHA-256 that end a file of the parsed-state cache
_SEAL = 16


def cache_path(root: Path, game: str) -> Path | None:
    if root not in _with_git:
        if not (root / ".git").is_dir():
            return None
        _with_git.add(root)  # asked once a games dir: a status over every game loads them all
    return root / ".git" / "pbem-parsed" / f"{game}.marshal"


_with_git: set[Path] = set()  # the games dirs seen to have their .git folder


def cached(root: Path, game: str, text: str) -> dict[str, Any] | None:
    """The state `text` holds, from the cache; None when the cache does not hold this very text."""
    where = cache_path(root, game)
    stamp = text.rstrip("\n").rpartition("\n")[2]
    if where is None or not stamp.startswith(CHECKSUM):
        return None
    try:
        raw = where.read_bytes()
        blob, seal = raw[:-_SEAL], raw[-_SEAL:]
        if digests.sha256(blob).digest()[:_SEAL] != seal:  # cut short or overwritten by a run that died
            return None
        kept, state = marshal.loads(blob)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if kept != stamp[len(CHECKSUM):] or not isinstance(state, dict) or not written_by_pbem(text):
        return None
    return state


def keep(root: Path, game: str, body: dict[str, Any], text: str) -> None:
    """Keep the state `body` parsed from (or written as) `text`."""
    where = cache_path(root, game)
    if where is None:
        return
    try:
        blob = marshal.dumps((text.rstrip("\n").rpartition("\n")[2][len(CHECKSUM):], body))
        # written over in place, not by a new file and a rename (two metadata writes a save): the
        # seal tells a whole file from one a run that died left half written
        _write_over(where, blob + digests.sha256(blob).digest()[:_SEAL])
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            where.unlink()  # never a cache of another text: the next load parses the file
