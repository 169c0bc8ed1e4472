"""The reports `pbem show` printed, kept to be printed again without the templates, the rules or the
catalogs (loading them costs a `show` more than the rest of its work).

A report is the same text while everything it is written from is the same, and each kept report is
found by all of that (its `Key`): the state file's bytes and the sizes of its history files (which
loading checks), the viewer and the language asked for, pbem.yaml (the host's language, time zone and
reply keys), and pbem's code, templates and catalogs (every file's name, size and time of change). No
report reads the clock. Only the games of pbem's own rulesets keep reports: one outside pbem/ has
its templates and catalogs in its own folders.

They are kept in .git/pbem-shown/GAME.marshal, where git does not look: one file a game, holding the
reports of its current state alone, its owner's alone (0600 in a folder of 0700), as the state file
is: a player's report shows his hidden hand."""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from pathlib import Path
from typing import NamedTuple

import pbem
from pbem import digests
from pbem import data_dir
from pbem.config import CONFIG_FILE
from pbem.history import HISTORIES, history_file
from pbem.store.files import _write_over
from pbem.store.statefile import STATE_FILE, written_by_pbem

FOLDER = "pbem-shown"
#: bytes of SHA-256 that end a file of kept reports (as pbem.store.parsed seals its files)
_SEAL = 16
_FORMAT = 1  # of the kept file; another one is read as no file


class Key(NamedTuple):
    """What a report is written from: the game's state (`state`), and the rest (`asked`)."""

    state: bytes
    asked: bytes


def shown_path(root: Path, game: str) -> Path | None:
    """The file of `game`'s kept reports; None in a games dir without its .git folder."""
    git = root / ".git"
    return git / FOLDER / f"{game}.marshal" if git.is_dir() else None


def report_key(root: Path, game: str, viewer: str | None, language: str | None) -> Key | None:
    """The key of the report of `game` to `viewer` (None: the GM's view) in `language` (None: his
    own) as the games dir holds it now; None for a state file not written by pbem (a hand edit is
    checked by every load)."""
    folder = root / game
    try:
        text = (folder / STATE_FILE).read_bytes()
        config = (root / CONFIG_FILE).read_bytes() if (root / CONFIG_FILE).is_file() else None
    except OSError:
        return None
    try:
        if not written_by_pbem(text.decode("utf-8")):
            return None
    except UnicodeDecodeError:
        return None
    sizes = []
    for key in HISTORIES:
        try:
            sizes.append(history_file(folder, key).stat().st_size)
        except OSError:
            sizes.append(-1)
    state = digests.sha256(text + repr(sizes).encode()).digest()
    asked = digests.sha256(repr((_FORMAT, viewer, language, config, code_fingerprint())).encode()).digest()
    return Key(state, asked)


def code_fingerprint() -> tuple[str, str, bytes]:
    """pbem's version, Python's, and a digest of every file of pbem's package and its templates (name,
    size and time of change): an edited template, catalog or module gives another."""
    files: list[tuple[str, int, int]] = []
    for folder in dict.fromkeys([Path(pbem.__file__).parent, data_dir("pbem.templates")]):
        _add_files(files, str(folder))
    return pbem.__version__, sys.version, digests.sha256(repr(files).encode()).digest()


def _add_files(files: list[tuple[str, int, int]], folder: str) -> None:
    # in the order the folder lists them: another order is only another key, and one render more
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir():
            if entry.name != "__pycache__":
                _add_files(files, entry.path)
            continue
        try:
            stat = entry.stat()
        except OSError:
            continue
        files.append((entry.path, stat.st_size, stat.st_mtime_ns))


def _read(where: Path) -> tuple[bytes, dict[bytes, str]] | None:
    """The state key and the reports a file of kept reports holds; None for a file of another format,
    cut short or overwritten by a run that died."""
    try:
        raw = where.read_bytes()
        blob, seal = raw[:-_SEAL], raw[-_SEAL:]
        if digests.sha256(blob).digest()[:_SEAL] != seal:
            return None
        form, state, reports = marshal.loads(blob)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if form != _FORMAT or not isinstance(state, bytes) or not isinstance(reports, dict):
        return None
    return state, reports


def kept_report(root: Path, game: str, key: Key) -> str | None:
    """The report kept under `key`; None when none is."""
    where = shown_path(root, game)
    found = _read(where) if where is not None else None
    if found is None or found[0] != key.state:
        return None
    text = found[1].get(key.asked)
    return text if isinstance(text, str) else None


def keep_report(root: Path, game: str, key: Key, text: str) -> None:
    """Keep the report `text` under `key`, beside the others of the same state (those of an older
    state are dropped). A cache that cannot be written is no cache, never an error."""
    where = shown_path(root, game)
    if where is None:
        return
    found = _read(where) if where.is_file() else None
    reports = found[1] if found is not None and found[0] == key.state else {}
    reports[key.asked] = text
    try:
        blob = marshal.dumps((_FORMAT, key.state, reports))
        _write_over(where, blob + digests.sha256(blob).digest()[:_SEAL])
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            where.unlink()  # never a file half written: the next show renders the report
